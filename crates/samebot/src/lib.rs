//! The SameGame browser bot: it reads a board off a page's pixels (the screen reader of
//! `samegame::screen`), solves the whole game with the beam before the first click, and clicks
//! it out with real mouse events through the DevTools protocol, reading the page again after
//! every click and comparing it with the engine's prediction. On a mismatch it reads again,
//! solves again from the board as it stands, and counts the event; it never clicks blind.
//!
//! It knows nothing of the page's code: only its pixels, and how to start the next board
//! (reload the page, or click a given point).

pub mod cdp;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use bits::job::{Control, Error};
use samegame::api::{solve, BoardFile, SolveGoal, SolveRequest};
use samegame::screen::{find_grid, read, Image, Reading};
use samegame::trace::{verify, Record};
use samegame::{Board, Rules};
use serde::Serialize;

pub use cdp::Browser;

/// How the next board is started.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// Load the page again.
    Reload,
    /// Click this point (CSS pixels), as a "new game" button.
    Click(f64, f64),
    /// Press this key (a DOM key name: `n`, `F2`, `Enter`).
    Key(String),
}

/// What the bot is asked to do.
#[derive(Debug, Clone)]
pub struct BotRequest {
    /// The page.
    pub url: String,
    /// Boards to play, one after another.
    pub boards: u32,
    /// Clear the board (default) or score the most.
    pub goal: SolveGoal,
    /// Beam width (default: the solver's).
    pub width: Option<usize>,
    /// Pause after each click before watching the page settle, in milliseconds.
    pub click_delay_ms: u64,
    /// Longest wait for the page to settle after a click or a new board.
    pub settle_ms: u64,
    /// Show the browser (needs a display).
    pub headed: bool,
    /// Attach to this running Chromium (`ws://.../devtools/browser/...`) instead.
    pub cdp: Option<String>,
    /// The Chromium to start.
    pub chromium: String,
    /// The page's size in CSS pixels, and its device scale factor.
    pub viewport: (u32, u32, f64),
    /// How the next board starts.
    pub next: Next,
    /// Write each game's record here.
    pub record_dir: Option<PathBuf>,
    /// Where a screenshot is saved when the board cannot be read.
    pub shots: PathBuf,
}

impl Default for BotRequest {
    fn default() -> Self {
        BotRequest {
            url: String::new(),
            boards: 1,
            goal: SolveGoal::Clear,
            width: None,
            click_delay_ms: 0,
            settle_ms: 3000,
            headed: false,
            cdp: None,
            chromium: "chromium".into(),
            viewport: (1000, 720, 1.0),
            next: Next::Reload,
            record_dir: None,
            shots: std::env::temp_dir(),
        }
    }
}

/// One board played.
#[derive(Debug, Clone, Serialize)]
pub struct BoardRun {
    /// The board as read at the start (text form).
    pub board: String,
    /// Its size and colours.
    pub size: String,
    /// The moves clicked, `[x, y]` (column from the left, row from the bottom).
    pub moves: Vec<[u8; 2]>,
    /// The score the first plan predicted.
    pub predicted: i64,
    /// The score of the moves clicked, replayed by the engine.
    pub score: i64,
    /// Whether the board was cleared.
    pub cleared: bool,
    /// Reads that differed from the engine's prediction (each read again, and solved again
    /// from the page's board when it still differed).
    pub mismatches: u32,
    /// Games the board was played as: 1, plus one for every board that changed under the bot.
    pub segments: u32,
    /// Milliseconds reading the first board (screenshot, grid, cells).
    pub read_ms: f64,
    /// Milliseconds solving (every plan).
    pub solve_ms: f64,
    /// Milliseconds clicking and checking.
    pub click_ms: f64,
    /// Where its record was written.
    pub record: Option<String>,
}

impl std::fmt::Display for BoardRun {
    /// One line: the board's size, the score against the plan's, the clicks and the times.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "board {}: score {} (predicted {}), {}, {} clicks, {} mismatches; read {:.0} ms, solve {:.0} ms, clicks {:.0} ms",
            self.size,
            self.score,
            self.predicted,
            if self.cleared { "cleared" } else { "not cleared" },
            self.moves.len(),
            self.mismatches,
            self.read_ms,
            self.solve_ms,
            self.click_ms
        )
    }
}

/// Every board.
#[derive(Debug, Clone, Serialize)]
pub struct BotResponse {
    /// The boards, in order.
    pub boards: Vec<BoardRun>,
    /// Wall seconds in all.
    pub seconds: f64,
}

fn failed(e: String) -> Error {
    Error::failed(e)
}

/// The part of the viewport a board's screenshots need: the grid and a margin of one tile,
/// in CSS pixels.
#[derive(Clone, Copy)]
struct Clip {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

impl Clip {
    fn around(g: &samegame::screen::Grid, css: f64) -> Clip {
        let x = ((g.x0 - g.pitch_x) / css).floor().max(0.0);
        let y = ((g.y0 - g.pitch_y) / css).floor().max(0.0);
        let w = ((g.x0 + (g.cols as f64 + 1.0) * g.pitch_x) / css).ceil() - x;
        let h = ((g.y0 + (g.rows as f64 + 1.0) * g.pitch_y) / css).ceil() - y;
        Clip { x, y, w, h }
    }

    /// The grid (in viewport device pixels) in the clip's pixels.
    fn inside(&self, g: &samegame::screen::Grid, css: f64) -> samegame::screen::Grid {
        samegame::screen::Grid { x0: g.x0 - self.x * css, y0: g.y0 - self.y * css, ..*g }
    }
}

/// Takes screenshots (of `clip`, else of the viewport) until two in a row are equal (the page
/// has settled), at most `ms`.
fn settled(b: &mut Browser, ms: u64, clip: Option<Clip>) -> Result<Image, String> {
    let start = Instant::now();
    let shoot = |b: &mut Browser| match clip {
        Some(c) => b.screenshot_clip(c.x, c.y, c.w, c.h),
        None => b.screenshot(),
    };
    let mut last = shoot(b)?;
    let mut n = 1;
    loop {
        let now = shoot(b)?;
        n += 1;
        if now == last {
            if std::env::var_os("SAMEBOT_DEBUG").is_some() {
                eprintln!("settled after {n} shots, {:?}", start.elapsed());
            }
            return Ok(now);
        }
        if start.elapsed() > Duration::from_millis(ms) {
            return Err(format!("the page did not settle within {ms} ms"));
        }
        last = now;
    }
}

/// The grid found at scroll offset `at` (CSS pixels), seen at offset `now`.
fn shifted(
    g: &samegame::screen::Grid,
    at: (f64, f64),
    now: (f64, f64),
    css: f64,
) -> samegame::screen::Grid {
    samegame::screen::Grid {
        x0: g.x0 - (now.0 - at.0) * css,
        y0: g.y0 - (now.1 - at.1) * css,
        ..*g
    }
}

fn plan(board: &Board, req: &BotRequest, ctl: Control) -> Result<(Vec<[u8; 2]>, i64), Error> {
    let sreq = SolveRequest {
        file: Some(BoardFile::text_file("screen", board.to_string())),
        goal: req.goal,
        width: req.width,
        ..SolveRequest::default()
    };
    let out = solve(&sreq, ctl)?;
    let s = out
        .boards
        .into_iter()
        .next()
        .ok_or_else(|| failed("the solver answered no board".into()))?;
    Ok((s.moves, s.score))
}

fn save_shot(req: &BotRequest, img: &Image, name: &str) -> String {
    let path = req.shots.join(name);
    match cdp::write_png(&path, img) {
        Ok(()) => format!(" (screenshot: {})", path.display()),
        Err(_) => String::new(),
    }
}

/// What `--calibrate` found on a page.
#[derive(Debug, Clone, Serialize)]
pub struct Calibration {
    /// Columns and rows.
    pub size: [usize; 2],
    /// Left and top edges of the grid, in screenshot pixels.
    pub origin: [f64; 2],
    /// Tile pitch across and down, in screenshot pixels.
    pub pitch: [f64; 2],
    /// Screenshot pixels per CSS pixel.
    pub scale: f64,
    /// The colour of each colour index, as seen.
    pub palette: Vec<[u8; 3]>,
    /// The colour of the empty cells, if any.
    pub empty: Option<[u8; 3]>,
    /// The board as read (text form).
    pub board: String,
    /// Where the annotated screenshot was written.
    pub image: String,
}

/// The screenshot with the grid drawn on it: the tile boundaries in magenta, and at each
/// tile's centre a dot in its colour index's shade (white for empty).
pub fn annotate(img: &Image, r: &Reading) -> Image {
    let mut out = img.clone();
    let g = &r.grid;
    let magenta = [255, 0, 255];
    for c in 0..=g.cols {
        let x = (g.x0 + c as f64 * g.pitch_x).round() as usize;
        for y in
            g.y0.max(0.0) as usize..((g.y0 + g.rows as f64 * g.pitch_y) as usize).min(img.height)
        {
            out.set(x, y, magenta);
        }
    }
    for row in 0..=g.rows {
        let y = (g.y0 + row as f64 * g.pitch_y).round() as usize;
        for x in
            g.x0.max(0.0) as usize..((g.x0 + g.cols as f64 * g.pitch_x) as usize).min(img.width)
        {
            out.set(x, y, magenta);
        }
    }
    let r2 = (g.pitch_x.min(g.pitch_y) / 8.0).max(1.0) as usize;
    for row in 0..g.rows {
        for col in 0..g.cols {
            let (cx, cy) = g.centre(col, row);
            let shade = match r.cells[row * g.cols + col] {
                Some(k) => {
                    let v = (40 * u32::from(k)).min(255) as u8;
                    [v, v, v]
                }
                None => [255, 255, 255],
            };
            out.fill_rect(
                (cx as usize).saturating_sub(r2),
                (cy as usize).saturating_sub(r2),
                2 * r2 + 1,
                2 * r2 + 1,
                shade,
            );
        }
    }
    out
}

/// The browser of `req` (started, or attached to) at the page, loaded.
fn open(req: &BotRequest) -> Result<Browser, Error> {
    let mut b = match &req.cdp {
        Some(ws) => Browser::attach(ws),
        None => Browser::launch(&req.chromium, req.headed),
    }
    .map_err(Error::input)?;
    let (w, h, scale) = req.viewport;
    b.viewport(w, h, scale).map_err(failed)?;
    b.navigate(&req.url, Duration::from_secs(30)).map_err(failed)?;
    Ok(b)
}

/// Loads the page, reads the board once and writes the annotated screenshot to `image`: a
/// check of a new page before the bot plays it.
pub fn calibrate(req: &BotRequest, image: &std::path::Path) -> Result<Calibration, Error> {
    if req.url.is_empty() {
        return Err(Error::input("url: give the page to read"));
    }
    let mut b = open(req)?;
    b.move_mouse(1.0, 1.0).map_err(failed)?;
    let css = b.scale().map_err(failed)?;
    let img = settled(&mut b, req.settle_ms, None).map_err(failed)?;
    let grid = find_grid(&img)
        .map_err(|e| failed(format!("{e}{}", save_shot(req, &img, "samebot-no-board.png"))))?;
    let r = read(&img, &grid, None)
        .map_err(|e| failed(format!("{e}{}", save_shot(req, &img, "samebot-misread.png"))))?;
    cdp::write_png(image, &annotate(&img, &r)).map_err(failed)?;
    Ok(Calibration {
        size: [grid.cols, grid.rows],
        origin: [grid.x0, grid.y0],
        pitch: [grid.pitch_x, grid.pitch_y],
        scale: css,
        palette: r.palette.clone(),
        empty: r.empty,
        board: r.board.to_string(),
        image: image.display().to_string(),
    })
}

/// Plays `req.boards` boards on the page; `on_board` hears each as it ends.
pub fn run(
    req: &BotRequest,
    ctl: Control,
    on_board: &mut dyn FnMut(&BoardRun),
) -> Result<BotResponse, Error> {
    if req.url.is_empty() {
        return Err(Error::input("url: give the page to play"));
    }
    let start = Instant::now();
    let mut b = open(req)?;
    let rules = Rules::default();
    let mut runs = Vec::new();
    for k in 0..req.boards {
        ctl.check()?;
        if k > 0 {
            match req.next {
                Next::Reload => b.navigate(&req.url, Duration::from_secs(30)).map_err(failed)?,
                Next::Click(x, y) => b.click(x, y).map_err(failed)?,
                Next::Key(ref key) => b.press(key).map_err(failed)?,
            }
        }
        let css = b.scale().map_err(failed)?;
        b.move_mouse(1.0, 1.0).map_err(failed)?; // no hover highlight on the board
        let t = Instant::now();
        let img = settled(&mut b, req.settle_ms, None).map_err(failed)?;
        let grid = find_grid(&img)
            .map_err(|e| failed(format!("{e}{}", save_shot(req, &img, "samebot-no-board.png"))))?;
        // The grid in the page's own coordinates: a click may scroll the page (focus).
        let scroll0 = b.scroll().map_err(failed)?;
        let mut seen: Reading = read(&img, &grid, None)
            .map_err(|e| failed(format!("{e}{}", save_shot(req, &img, "samebot-misread.png"))))?;
        let start_board = seen.board.clone();
        if std::env::var_os("SAMEBOT_DEBUG").is_some() {
            eprintln!("{grid:?} scale {css}\n{start_board}");
        }
        let read_ms = t.elapsed().as_secs_f64() * 1e3;
        let t = Instant::now();
        let (mut todo, predicted) = plan(&start_board, req, ctl)?;
        let mut solve_ms = t.elapsed().as_secs_f64() * 1e3;
        let t_click = Instant::now();
        let mut played: Vec<(u8, u8)> = Vec::new();
        let mut expect = start_board.clone();
        // A board that changed under the bot starts a new segment from the board as read:
        // each segment is replayed by the engine on its own.
        let (mut seg_start, mut seg_moves, mut earlier) = (start_board.clone(), Vec::new(), 0i64);
        let mut segments = 1u32;
        let mut mismatches = 0u32;
        let mut i = 0;
        while i < todo.len() {
            ctl.check()?;
            let [x, y] = todo[i];
            let at = shifted(&grid, scroll0, b.scroll().map_err(failed)?, css);
            let (cx, cy) = at.centre(usize::from(x), at.rows - 1 - usize::from(y));
            b.click(cx / css, cy / css).map_err(failed)?;
            b.move_mouse(1.0, 1.0).map_err(failed)?;
            samegame::play(&mut expect, usize::from(x), usize::from(y), &rules).map_err(|e| {
                failed(format!("the plan's move {} ({x}.{y}) is not legal: {e}", i + 1))
            })?;
            played.push((x, y));
            seg_moves.push((x, y));
            if req.click_delay_ms > 0 {
                std::thread::sleep(Duration::from_millis(req.click_delay_ms));
            }
            i += 1;
            // Screenshots until one shows the engine's board, or the page stops changing
            // (then it shows something else: a mismatch), or the time is up. The page may be
            // scrolling (a click's focus), so the grid is placed again for every shot.
            let t_settle = Instant::now();
            let mut last: Option<(Image, (f64, f64))> = None;
            let now = loop {
                let scroll = b.scroll().map_err(failed)?;
                let at = shifted(&grid, scroll0, scroll, css);
                let clip = Clip::around(&at, css);
                let img = b.screenshot_clip(clip.x, clip.y, clip.w, clip.h).map_err(failed)?;
                if b.scroll().map_err(failed)? != scroll {
                    continue; // it scrolled while the shot was taken
                }
                let r = read(&img, &clip.inside(&at, css), Some(&seen));
                if let Ok(r) = &r {
                    if r.board == expect {
                        break Some(r.clone());
                    }
                }
                if last.as_ref().is_some_and(|(l, at)| *l == img && *at == scroll) {
                    // Settled on another board (or on pixels that do not read).
                    r.map_err(|e| {
                        failed(format!(
                            "after move {i}: {e}{}",
                            save_shot(req, &img, "samebot-misread.png")
                        ))
                    })?;
                    break None;
                }
                if t_settle.elapsed() > Duration::from_millis(req.settle_ms) {
                    return Err(failed(format!(
                        "after move {i} the page did not settle within {} ms{}",
                        req.settle_ms,
                        save_shot(req, &img, "samebot-unsettled.png")
                    )));
                }
                last = Some((img, scroll));
            };
            let Some(now) = now else {
                // The page shows another board than the engine's: read it whole again, and
                // play on from the board as it stands.
                mismatches += 1;
                let img = settled(&mut b, req.settle_ms, None).map_err(failed)?;
                let at = shifted(&grid, scroll0, b.scroll().map_err(failed)?, css);
                let again = read(&img, &at, Some(&seen)).map_err(|e| {
                    failed(format!(
                        "after move {i}: {e}{}",
                        save_shot(req, &img, "samebot-mismatch.png")
                    ))
                })?;
                if again.board == expect {
                    seen = again;
                    continue;
                }
                let v = verify(&seg_start, &seg_moves, &rules)
                    .map_err(|(i, e)| failed(format!("move {}: {e}", i + 1)))?;
                earlier += v.score;
                segments += 1;
                seg_start = again.board.clone();
                seg_moves.clear();
                let t = Instant::now();
                let (p, _) = plan(&again.board, req, ctl)?;
                solve_ms += t.elapsed().as_secs_f64() * 1e3;
                todo = p;
                i = 0;
                expect = again.board.clone();
                seen = again;
                continue;
            };
            seen = now;
        }
        let click_ms = t_click.elapsed().as_secs_f64() * 1e3;
        // Whatever was played is replayed by the engine from the board as read (the last
        // segment's; the record is that segment's game, the whole game without a mismatch).
        let v = verify(&seg_start, &seg_moves, &rules)
            .map_err(|(i, e)| failed(format!("move {}: {e}", i + 1)))?;
        let record = match &req.record_dir {
            Some(dir) => {
                std::fs::create_dir_all(dir)
                    .map_err(|e| failed(format!("{}: {e}", dir.display())))?;
                let path = dir.join(format!("board-{}.json", k + 1));
                let rec = Record::new(&seg_start, &rules, &seg_moves, &v);
                let text = serde_json::to_string_pretty(&rec).map_err(|e| failed(e.to_string()))?;
                std::fs::write(&path, text + "\n")
                    .map_err(|e| failed(format!("{}: {e}", path.display())))?;
                Some(path.display().to_string())
            }
            None => None,
        };
        let colours = seen.palette.len();
        let run = BoardRun {
            board: start_board.to_string(),
            size: format!("{}x{}x{colours}", grid.cols, grid.rows),
            moves: played.iter().map(|&(x, y)| [x, y]).collect(),
            predicted,
            score: earlier + v.score,
            cleared: v.cleared,
            mismatches,
            segments,
            read_ms,
            solve_ms,
            click_ms,
            record,
        };
        todo.clear();
        on_board(&run);
        runs.push(run);
    }
    Ok(BotResponse { boards: runs, seconds: start.elapsed().as_secs_f64() })
}
