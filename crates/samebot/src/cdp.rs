//! A small DevTools-protocol client: launch Chromium (or attach to one), open a page, take
//! screenshots, send trusted mouse events. Every wait has a timeout.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use base64::Engine as _;
use samegame::screen::Image;
use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// The longest wait for one DevTools answer.
const ANSWER: Duration = Duration::from_secs(30);

/// A page in Chromium, driven over the DevTools protocol.
pub struct Browser {
    child: Option<Child>,
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    next: u64,
    session: String,
    profile: Option<std::path::PathBuf>,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.ws.close(None);
        if let Some(c) = &mut self.child {
            let _ = c.kill();
            let _ = c.wait();
        }
        if let Some(p) = &self.profile {
            let _ = std::fs::remove_dir_all(p);
        }
    }
}

impl Browser {
    /// Starts Chromium at `path` (headless unless `headed`) and opens a blank page.
    pub fn launch(path: &str, headed: bool) -> Result<Browser, String> {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let profile = std::env::temp_dir().join(format!("samebot-{}-{stamp}", std::process::id()));
        let mut cmd = Command::new(path);
        if !headed {
            cmd.arg("--headless=new");
        }
        cmd.args([
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--remote-debugging-port=0",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("about:blank")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
        let mut child = cmd.spawn().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => {
                format!("chromium: {path} is not installed (apt-get install chromium, or --chromium PATH)")
            }
            _ => format!("chromium: {path}: {e}"),
        })?;
        let stderr = child.stderr.take().ok_or("chromium: no stderr")?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(at) = line.find("ws://") {
                    let _ = tx.send(line[at..].trim().to_string());
                }
            }
        });
        let url = match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(u) => u,
            Err(_) => {
                let _ = child.kill();
                return Err(format!("chromium: {path} did not open its DevTools port within 30 s"));
            }
        };
        let mut b = Browser::attach(&url)?;
        b.child = Some(child);
        b.profile = Some(profile);
        Ok(b)
    }

    /// Attaches to a running Chromium's browser endpoint (`ws://.../devtools/browser/...`) and
    /// opens a page in it.
    pub fn attach(url: &str) -> Result<Browser, String> {
        let (ws, _) = tungstenite::connect(url).map_err(|e| format!("devtools {url}: {e}"))?;
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_millis(200))).map_err(|e| e.to_string())?;
        }
        let mut b = Browser { child: None, ws, next: 0, session: String::new(), profile: None };
        let t = b.call("Target.createTarget", json!({"url": "about:blank"}))?;
        let target = t["targetId"].as_str().ok_or("devtools: no target")?.to_string();
        let s = b.call("Target.attachToTarget", json!({"targetId": target, "flatten": true}))?;
        b.session = s["sessionId"].as_str().ok_or("devtools: no session")?.to_string();
        b.call("Page.enable", json!({}))?;
        Ok(b)
    }

    /// Sends a command and waits for its answer (events on the way are dropped, but a
    /// `Page.loadEventFired` is remembered by [`Browser::navigate`]'s caller through `events`).
    fn call_with(
        &mut self,
        method: &str,
        params: Value,
        events: &mut Vec<String>,
    ) -> Result<Value, String> {
        self.next += 1;
        let id = self.next;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            msg["sessionId"] = json!(self.session);
        }
        self.ws
            .send(Message::text(msg.to_string()))
            .map_err(|e| format!("devtools {method}: {e}"))?;
        let start = Instant::now();
        loop {
            if start.elapsed() > ANSWER {
                return Err(format!("devtools {method}: no answer within {} s", ANSWER.as_secs()));
            }
            let m = match self.ws.read() {
                Ok(Message::Text(t)) => t,
                Ok(_) => continue,
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    continue
                }
                Err(e) => return Err(format!("devtools {method}: {e}")),
            };
            let v: Value =
                serde_json::from_str(m.as_str()).map_err(|e| format!("devtools: {e}"))?;
            if v["id"].as_u64() == Some(id) {
                if let Some(e) = v.get("error") {
                    return Err(format!(
                        "devtools {method}: {}",
                        e["message"].as_str().unwrap_or("error")
                    ));
                }
                return Ok(v["result"].clone());
            }
            if let Some(name) = v["method"].as_str() {
                events.push(name.to_string());
            }
        }
    }

    /// Sends a command and waits for its answer.
    pub fn call(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.call_with(method, params, &mut Vec::new())
    }

    /// Sets the page's size in CSS pixels and its device scale factor.
    pub fn viewport(&mut self, width: u32, height: u32, scale: f64) -> Result<(), String> {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": scale, "mobile": false}),
        )
        .map(|_| ())
    }

    /// Loads `url` and waits for its load event (at most `timeout`).
    pub fn navigate(&mut self, url: &str, timeout: Duration) -> Result<(), String> {
        let mut events = Vec::new();
        let r = self.call_with("Page.navigate", json!({"url": url}), &mut events)?;
        if let Some(e) = r["errorText"].as_str() {
            return Err(format!("page {url} did not load: {e}"));
        }
        let start = Instant::now();
        while !events.iter().any(|e| e == "Page.loadEventFired") {
            if start.elapsed() > timeout {
                return Err(format!(
                    "page {url} did not finish loading within {} s",
                    timeout.as_secs()
                ));
            }
            // Any cheap command lets the events in.
            self.call_with("Runtime.evaluate", json!({"expression": "1"}), &mut events)?;
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(())
    }

    /// A screenshot of the page as it is drawn.
    pub fn screenshot(&mut self) -> Result<Image, String> {
        self.shot(json!({"format": "png", "optimizeForSpeed": true}))
    }

    /// A screenshot of the rectangle `(x, y, w, h)` of the viewport, in CSS pixels.
    pub fn screenshot_clip(&mut self, x: f64, y: f64, w: f64, h: f64) -> Result<Image, String> {
        let (sx, sy) = self.scroll()?;
        self.shot(json!({"format": "png", "optimizeForSpeed": true,
            "clip": {"x": x + sx, "y": y + sy, "width": w, "height": h, "scale": 1}}))
    }

    fn shot(&mut self, params: Value) -> Result<Image, String> {
        let r = self.call("Page.captureScreenshot", params)?;
        let data = r["data"].as_str().ok_or("devtools: no screenshot")?;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|e| format!("screenshot: {e}"))?;
        decode_png(&bytes)
    }

    /// The page's device pixels per CSS pixel (what a screenshot's pixels are).
    pub fn scale(&mut self) -> Result<f64, String> {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": "window.devicePixelRatio", "returnByValue": true}),
        )?;
        r["result"]["value"].as_f64().ok_or_else(|| "devtools: no device pixel ratio".to_string())
    }

    /// How far the page is scrolled, in CSS pixels (the browser's own offset, whatever the
    /// page draws).
    pub fn scroll(&mut self) -> Result<(f64, f64), String> {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": "[window.scrollX, window.scrollY]", "returnByValue": true}),
        )?;
        let v = &r["result"]["value"];
        match (v[0].as_f64(), v[1].as_f64()) {
            (Some(x), Some(y)) => Ok((x, y)),
            _ => Err("devtools: no scroll offset".into()),
        }
    }

    /// Moves the mouse to `(x, y)` in CSS pixels.
    pub fn move_mouse(&mut self, x: f64, y: f64) -> Result<(), String> {
        self.call("Input.dispatchMouseEvent", json!({"type": "mouseMoved", "x": x, "y": y}))
            .map(|_| ())
    }

    /// Presses and releases a key (a DOM key name; one character also types it).
    pub fn press(&mut self, key: &str) -> Result<(), String> {
        let text = if key.chars().count() == 1 { key } else { "" };
        self.call("Input.dispatchKeyEvent", json!({"type": "keyDown", "key": key, "text": text}))?;
        self.call("Input.dispatchKeyEvent", json!({"type": "keyUp", "key": key})).map(|_| ())
    }

    /// A real left click at `(x, y)` in CSS pixels: move, press, release.
    pub fn click(&mut self, x: f64, y: f64) -> Result<(), String> {
        self.move_mouse(x, y)?;
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": 1}),
            )?;
        }
        Ok(())
    }
}

/// A PNG as an RGB image.
pub fn decode_png(bytes: &[u8]) -> Result<Image, String> {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().map_err(|e| format!("png: {e}"))?;
    let size = reader.output_buffer_size().ok_or("png: too large")?;
    let mut buf = vec![0; size];
    let info = reader.next_frame(&mut buf).map_err(|e| format!("png: {e}"))?;
    let channels = match (info.color_type, info.bit_depth) {
        (png::ColorType::Rgb, png::BitDepth::Eight) => 3,
        (png::ColorType::Rgba, png::BitDepth::Eight) => 4,
        (c, d) => return Err(format!("png: {c:?} at {d:?} is not 8-bit RGB")),
    };
    let (w, h) = (info.width as usize, info.height as usize);
    let rgb = buf[..w * h * channels].chunks(channels).flat_map(|p| [p[0], p[1], p[2]]).collect();
    Image::new(w, h, rgb)
}

/// Writes an RGB image as a PNG file.
pub fn write_png(path: &std::path::Path, img: &Image) -> Result<(), String> {
    let f = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut enc =
        png::Encoder::new(std::io::BufWriter::new(f), img.width as u32, img.height as u32);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().map_err(|e| format!("{}: {e}", path.display()))?;
    w.write_image_data(&img.rgb).map_err(|e| format!("{}: {e}", path.display()))
}
