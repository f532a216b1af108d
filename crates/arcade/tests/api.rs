//! The arcade's routes in process (tower `oneshot`), the pool's limits, and the streams.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arcade::{router, AppState, Caps};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

fn app() -> axum::Router {
    router(AppState::new(2, Caps::default()))
}

async fn call(
    app: axum::Router,
    method: &str,
    uri: &str,
    body: Option<String>,
) -> (StatusCode, String) {
    let req = Request::builder().method(method).uri(uri).header("content-type", "application/json");
    let req = req.body(body.map(Body::from).unwrap_or_else(Body::empty)).unwrap();
    let res = app.oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(bytes.to_vec()).unwrap())
}

async fn post(app: axum::Router, uri: &str, body: Value) -> (StatusCode, Value) {
    let (s, text) = call(app, "POST", uri, Some(body.to_string())).await;
    (s, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")))
}

/// The body of event `name` in an SSE stream's text (the first one).
fn event(body: &str, name: &str) -> Value {
    let d = body
        .split(&format!("event: {name}\ndata: "))
        .nth(1)
        .unwrap_or_else(|| panic!("no {name} event: {body}"));
    serde_json::from_str(d.lines().next().unwrap()).unwrap()
}

/// Every move of a stream's `steps` events, in order.
fn streamed_moves(body: &str, sep: &str) -> String {
    let mut moves = Vec::new();
    for part in body.split("event: steps\ndata: ").skip(1) {
        let v: Value = serde_json::from_str(part.lines().next().unwrap()).unwrap();
        for s in v["steps"].as_array().unwrap() {
            assert!(!s["frame"].is_null(), "a step without its frame: {s}");
            moves.push(s["move"].as_str().unwrap().to_string());
        }
    }
    moves.join(sep)
}

/// A cheap game of each kind: (name, separator, setup, search).
fn games() -> Vec<(&'static str, &'static str, Value, Value)> {
    vec![
        ("samegame", "-", json!({"width": 8, "height": 6, "colors": 3}), json!({"width": 10})),
        ("tetris", "-", json!({}), json!({})),
        ("drop7", "", json!({"mode": "normal"}), json!({"depth": 1})),
        ("2048", "", json!({}), json!({"depth": 1, "tt_bits": 10})),
        ("snake", "", json!({"size": "6x6"}), json!({"player": "cycle"})),
    ]
}

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    let (s, html) = call(app(), "GET", "/", None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(html.contains("/assets/app.js"));
    for a in [
        "app.js",
        "app.css",
        "timeline.js",
        "home.js",
        "samegame.js",
        "tetris.js",
        "drop7.js",
        "2048.js",
        "snake.js",
    ] {
        let (s, body) = call(app(), "GET", &format!("/assets/{a}"), None).await;
        assert_eq!(s, StatusCode::OK, "{a}");
        assert!(body.len() > 500, "{a}");
    }
    let (s, body) = call(app(), "GET", "/assets/nope.js", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(body, r#"{"error":"no asset \"nope.js\""}"#);
    let (s, body) = call(app(), "GET", "/api/health", None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(body.contains(r#""workers":2"#), "{body}");
    // `/2048` without the `#` is the game's page.
    for g in ["samegame", "tetris", "drop7", "2048", "snake"] {
        let res = app()
            .oneshot(Request::builder().uri(format!("/{g}")).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::SEE_OTHER, "{g}");
        assert_eq!(res.headers()["location"], format!("/#/{g}").as_str());
    }
    let (s, body) = call(app(), "GET", "/favicon.ico", None).await;
    assert_eq!((s, body.as_str()), (StatusCode::NOT_FOUND, r#"{"error":"no such page"}"#));
    let (s, body) = call(app(), "GET", "/api/games", None).await;
    assert_eq!(s, StatusCode::OK);
    let names: Vec<String> = serde_json::from_str::<Vec<Value>>(&body)
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap().to_string())
        .collect();
    let mut want: Vec<String> = games().iter().map(|g| g.0.to_string()).collect();
    want.sort();
    let mut got = names.clone();
    got.sort();
    assert_eq!(got, want);
}

/// Every game has the same routes, and they agree with each other: the stream plays what the
/// contract's `auto` plays, its record loads back into the same moves, the hint is legal.
#[tokio::test]
async fn every_game_serves_the_same_routes() {
    for (game, sep, setup, search) in games() {
        let from = json!({"setup": setup, "seed": "18446744073709551615"});
        // The solver plays a few moves, streamed.
        let r = json!({"from": from, "search": search, "max_moves": 5}).to_string();
        let uri = format!("/api/{game}/auto?r={}", urlencode(&r));
        let (s, body) = call(app(), "GET", &uri, None).await;
        assert_eq!(s, StatusCode::OK, "{game}: {body}");
        let done = event(&body, "done");
        let moves = done["moves"].as_str().unwrap().to_string();
        assert_eq!(streamed_moves(&body, sep), moves, "{game}");
        assert!(!moves.is_empty(), "{game}: {done}");
        assert!(done["played"].as_u64().unwrap() <= 5, "{game}");
        // The position after them, with the seed kept exact.
        let pos =
            json!({"setup": setup, "seed": "18446744073709551615", "moves": moves, "frames": true});
        let (s, p) = post(app(), &format!("/api/{game}/position"), pos.clone()).await;
        assert_eq!(s, StatusCode::OK, "{game}: {p}");
        assert_eq!(p["seed"], "18446744073709551615", "{game}");
        assert_eq!(p["game"], game);
        assert_eq!(p["moves"], moves.as_str(), "{game}");
        assert_eq!(p["score"], done["score"], "{game}");
        assert!(p["status"]["message"].is_string(), "{game}");
        // Its record, exactly as the CLI writes it, loads back into the same game.
        let (s, text) =
            call(app(), "POST", &format!("/api/{game}/record"), Some(pos.to_string())).await;
        assert_eq!(s, StatusCode::OK, "{game}: {text}");
        assert!(text.ends_with("}\n"), "{game}");
        let (s, f) = post(
            app(),
            &format!("/api/{game}/frames"),
            json!({"record": serde_json::from_str::<Value>(&text).unwrap()}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{game}: {f}");
        assert_eq!(f["moves"], p["moves"], "{game}");
        assert_eq!(f["frames"], p["frames"], "{game}");
        assert_eq!(f["count"], 1);
        // A list of records: `index` picks one; past its end is a 400.
        let list = format!("{{\"record\": [{text}, {text}], \"index\": 1}}");
        let (s, f) = call(app(), "POST", &format!("/api/{game}/frames"), Some(list)).await;
        assert_eq!(s, StatusCode::OK, "{game}: {f}");
        assert!(f.contains("\"count\":2"), "{game}");
        let list = format!("{{\"record\": [{text}], \"index\": 3}}");
        let (s, f) = call(app(), "POST", &format!("/api/{game}/frames"), Some(list)).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{game}: {f}");
        // The hint's move is legal.
        if p["status"]["phase"] == "playing" {
            let (s, h) =
                post(app(), &format!("/api/{game}/hint"), json!({"from": pos, "search": search}))
                    .await;
            assert_eq!(s, StatusCode::OK, "{game}: {h}");
            assert!(p["legal"].as_array().unwrap().contains(&h["move"]), "{game}: {h}");
        }
        // Another game's record is named as such.
        for (other, _, oset, _) in games() {
            if other == game {
                continue;
            }
            let (_, otext) = call(
                app(),
                "POST",
                &format!("/api/{other}/record"),
                Some(json!({"setup": oset}).to_string()),
            )
            .await;
            let body = format!("{{\"record\": {otext}}}");
            let (s, v) = call(app(), "POST", &format!("/api/{game}/frames"), Some(body)).await;
            assert_eq!(s, StatusCode::BAD_REQUEST, "{game} <- {other}");
            let e: Value = serde_json::from_str(&v).unwrap();
            let e = e["error"].as_str().unwrap();
            assert!(
                e.starts_with("record: this is a ") && e.contains("record; this page reads"),
                "{game} <- {other}: {e}"
            );
        }
    }
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn bad_requests_are_400_with_one_line() {
    let cases = [
        (
            "/api/2048/position",
            json!({"seed": 5, "moves": "LX"}),
            "moves: \"X\" (move 2) is not one of U, D, L, R",
        ),
        ("/api/2048/position", json!({"seed": "five"}), "request body: "),
        ("/api/2048/position", json!({"seed": -1}), "request body: "),
        ("/api/2048/position", json!({"seed": 1.5}), "request body: "),
        ("/api/2048/position", json!({"setup": {"nope": 1}}), "request body: "),
        ("/api/snake/position", json!({"setup": {"size": "99x99"}}), "size"),
        (
            "/api/snake/position",
            json!({"setup": {"start_len": 3}, "moves": "L"}),
            "moves: L (move 1)",
        ),
        ("/api/samegame/position", json!({"moves": "0.40"}), "moves: 0.40 (move 1)"),
        ("/api/samegame/position", json!({"moves": "1.x"}), "moves: \"1.x\" (move 1) is not x.y"),
        ("/api/samegame/hint", json!({"search": {"level": 9, "search": "nrpa"}}), "search.level"),
        ("/api/snake/hint", json!({"search": {"player": "bogus"}}), "player"),
        ("/api/2048/frames", json!({"record": {"moves": 3}}), "record: not a 2048 record"),
        ("/api/2048/frames", json!({}), "record: missing"),
    ];
    for (uri, body, msg) in cases {
        let (s, v) = post(app(), uri, body.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{uri} {body}: {v}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(msg) && !e.contains('\n'), "{uri} {body}: {e}");
    }
    let (s, text) = call(app(), "POST", "/api/2048/position", Some("{not json".into())).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(text.starts_with(r#"{"error":"request body: "#), "{text}");
    // A body over the limit is refused before it is parsed.
    let small = router(AppState::new(1, Caps { max_body: 1000, ..Caps::default() }));
    let big = json!({"seed": 1, "moves": "L".repeat(5000)}).to_string();
    let (s, text) = call(small, "POST", "/api/2048/position", Some(big)).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(text.contains("length limit"), "{text}");
    for q in [
        "r=nope",
        "r=%7B%22from%22%3A%7B%22moves%22%3A%22X%22%7D%7D",
        "r=%7B%22search%22%3A%7B%22depth%22%3A0%7D%7D",
    ] {
        let (s, body) = call(app(), "GET", &format!("/api/2048/auto?{q}"), None).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{q}: {body}");
        assert!(body.starts_with("{\"error\":") && !body.contains('\n'), "{q}: {body}");
    }
    let (s, v) = post(app(), "/api/nope", json!({})).await;
    assert_eq!((s, v["error"].as_str().unwrap()), (StatusCode::NOT_FOUND, "no such page"));
}

#[tokio::test]
async fn the_caps_hold_whatever_the_request_asks() {
    let caps = Caps {
        solver: bits::live::Caps { nodes: 2_000, depth: 3, ..Caps::default().solver },
        ..Caps::default()
    };
    for search in [
        json!({"budget": 1_000_000_000u64}),
        json!({"time_per_move": 1_000_000_000u64}),
        json!({"depth": 16, "prob_cutoff": 0.0}),
        json!({"max_depth": 200, "tt_bits": 30}),
    ] {
        let (s, v) = post(
            router(AppState::new(1, caps)),
            "/api/2048/hint",
            json!({"from": {"seed": 5}, "search": search}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{search}: {v}");
        assert!(v["detail"]["nodes"].as_u64().unwrap() <= 2_000 + 2_048, "{search}: {v}");
        assert!(v["detail"]["depth"].as_u64().unwrap() <= 3, "{search}: {v}");
        let (s, c) =
            post(router(AppState::new(1, caps)), "/api/2048/check", json!({"search": search}))
                .await;
        assert_eq!(s, StatusCode::OK, "{c}");
        assert!(c["search"]["tt_bits"].as_u64().unwrap() <= 22, "{c}");
    }
    // Drop7's expectimax: depth and table within the caps.
    let (s, c) = post(
        router(AppState::new(1, caps)),
        "/api/drop7/check",
        json!({"search": {"depth": 6, "table_bits": 26, "budget": 1_000_000_000_000u64}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{c}");
    assert!(c["search"]["table_bits"].as_u64().unwrap() <= 22, "{c}");
    assert!(c["search"]["budget"].as_u64().unwrap() <= 2_000, "{c}");
    // A beam wider than the cap is narrowed to it.
    let caps =
        Caps { solver: bits::live::Caps { width: 7, ..Caps::default().solver }, ..Caps::default() };
    let (s, c) = post(
        router(AppState::new(1, caps)),
        "/api/samegame/check",
        json!({"search": {"width": 1_000_000}}),
    )
    .await;
    assert_eq!((s, c["search"]["width"].as_u64()), (StatusCode::OK, Some(7)), "{c}");
    // A run plays at most the cap's moves.
    let caps =
        Caps { solver: bits::live::Caps { moves: 4, ..Caps::default().solver }, ..Caps::default() };
    let r = urlencode(
        &json!({"from": {"setup": {"size": "8x8"}}, "search": {"player": "cycle"}}).to_string(),
    );
    let (s, body) =
        call(router(AppState::new(1, caps)), "GET", &format!("/api/snake/auto?r={r}"), None).await;
    assert_eq!(s, StatusCode::OK);
    let done = event(&body, "done");
    assert_eq!(
        (done["played"].as_u64(), done["stop"].as_str()),
        (Some(4), Some("move_limit")),
        "{done}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pool_runs_at_most_its_workers_and_keeps_order() {
    let pool = Arc::new(arcade::pool::Pool::new(2));
    let running = Arc::new(AtomicU64::new(0));
    let peak = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for _ in 0..6 {
        let (pool, running, peak) = (pool.clone(), running.clone(), peak.clone());
        tasks.push(tokio::spawn(async move {
            pool.run(
                Duration::from_secs(5),
                Arc::new(AtomicBool::new(false)),
                |_| {},
                move |_| {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    peak.fetch_max(now, Ordering::SeqCst);
                    // Wait (a while, on a loaded machine) for a second job to join.
                    let t = Instant::now();
                    while running.load(Ordering::SeqCst) < 2 && t.elapsed() < Duration::from_secs(1)
                    {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    std::thread::sleep(Duration::from_millis(20));
                    running.fetch_sub(1, Ordering::SeqCst);
                },
            )
            .await
        }));
    }
    for t in tasks {
        assert!(t.await.unwrap().is_some());
    }
    assert_eq!(peak.load(Ordering::SeqCst), 2);
    let s = pool.stats();
    assert_eq!((s.finished, s.running, s.queued, s.over_budget), (6, 0, 0, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deadline_or_a_client_gone_stops_the_job() {
    let pool = Arc::new(arcade::pool::Pool::new(1));
    let spin = |abort: &AtomicBool| {
        let start = Instant::now();
        while !abort.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
        start.elapsed()
    };
    // The deadline sets the flag: not before it (timed from the call, since the deadline's
    // clock starts before the worker does), and the job is not left running.
    let called = Instant::now();
    pool.run(Duration::from_millis(100), Arc::new(AtomicBool::new(false)), |_| {}, spin)
        .await
        .unwrap();
    let took = called.elapsed();
    assert!(took >= Duration::from_millis(100) && took < Duration::from_secs(5), "{took:?}");
    // Dropping the request's future (the client went away) sets it too.
    let flag = Arc::new(AtomicBool::new(false));
    let p = pool.clone();
    let f = flag.clone();
    let job = tokio::spawn(async move { p.run(Duration::from_secs(60), f, |_| {}, spin).await });
    tokio::time::sleep(Duration::from_millis(50)).await;
    job.abort();
    let start = Instant::now();
    while pool.stats().running > 0 {
        assert!(start.elapsed() < Duration::from_millis(500), "the job did not stop");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(flag.load(Ordering::Relaxed));
    let s = pool.stats();
    assert_eq!((s.finished, s.aborted, s.over_budget), (2, 2, 0));
}

#[tokio::test]
async fn every_rejection_is_one_line_of_json() {
    let cases = [
        ("GET", "/api/2048/position", StatusCode::METHOD_NOT_ALLOWED),
        ("DELETE", "/", StatusCode::METHOD_NOT_ALLOWED),
        ("GET", "/assets/%ff", StatusCode::BAD_REQUEST),
        ("GET", "/assets/app%2Ejs", StatusCode::BAD_REQUEST),
        ("GET", "/api/2048/auto?%zz=1", StatusCode::BAD_REQUEST),
        ("GET", "/api/2048/auto?r=%ff%fe", StatusCode::BAD_REQUEST),
        ("GET", "/api/2048/auto?seed=5", StatusCode::BAD_REQUEST),
        ("GET", "/nope", StatusCode::NOT_FOUND),
        ("POST", "/api/games", StatusCode::METHOD_NOT_ALLOWED),
    ];
    for (method, uri, want) in cases {
        let (s, body) = call(app(), method, uri, None).await;
        assert_eq!(s, want, "{method} {uri}: {body}");
        let v: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{uri}: {e}: {body}"));
        let e = v["error"].as_str().unwrap();
        assert!(!e.is_empty() && !e.contains('\n'), "{uri}: {e}");
    }
}

/// A live server on a free port, stopped when the returned sender is dropped or sent to.
async fn live_server(
    header_seconds: u64,
) -> (std::net::SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let (url_tx, url_rx) = tokio::sync::oneshot::channel::<String>();
    let config =
        arcade::Config { port: 0, workers: 1, header_seconds, ..arcade::Config::default() };
    tokio::spawn(arcade::serve_until(
        config,
        move |u| {
            let _ = url_tx.send(u.to_string());
        },
        async move {
            let _ = stop_rx.await;
        },
    ));
    let url = url_rx.await.unwrap();
    let addr = url.trim_start_matches("http://").trim_end_matches('/').parse().unwrap();
    (addr, stop_tx)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_and_half_sent_connections_are_closed() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (addr, _stop) = live_server(1).await;
    let start = Instant::now();
    let idle = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut half = tokio::net::TcpStream::connect(addr).await.unwrap();
    half.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    for (name, mut s) in [("idle", idle), ("half-sent", half)] {
        let mut buf = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut buf)).await;
        assert!(read.is_ok(), "{name}: still open after 10 s");
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(900), "{name}: closed before its timeout ({took:?})");
    }
    // A whole request is answered, and the idle keep-alive connection after it is closed.
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "the keep-alive connection stayed open");
    assert!(
        String::from_utf8_lossy(&buf).starts_with("HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&buf)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shutdown_stops_jobs_with_its_own_reason() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (addr, stop) = live_server(10).await;
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    // A long 2048 game under a big budget.
    let r = urlencode(&json!({"search": {"budget": 5_000_000}}).to_string());
    s.write_all(format!("GET /api/2048/auto?r={r} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    stop.send(()).unwrap();
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut buf)).await;
    let text = String::from_utf8_lossy(&buf);
    let done =
        text.split("event: done\ndata: ").nth(1).unwrap_or_else(|| panic!("no done: {text}"));
    let v: Value = serde_json::from_str(done.lines().next().unwrap()).unwrap();
    assert_eq!(
        (v["stop"].as_str(), v["stopped_by"].as_str()),
        (Some("aborted"), Some("shutdown")),
        "{v}"
    );
}

/// Requests hyper refuses before the router sees them (a request line past 64 KiB, a
/// malformed request) get the arcade's one-line JSON error too, not an empty body.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_hyper_refuses_get_one_line_of_json() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (addr, _stop) = live_server(5).await;
    let long = format!("GET /api/2048/auto?r={} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(100_000));
    for (request, status) in [
        (long.as_str(), "414"),
        ("GET / HTTP/1.1\r\nHo st: x\r\n\r\n", "400"),
        ("NOT HTTP\r\n\r\n", "400"),
    ] {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        s.write_all(request.as_bytes()).await.unwrap();
        let mut buf = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut buf)).await;
        assert!(read.is_ok(), "{status}: no answer");
        let text = String::from_utf8_lossy(&buf);
        assert!(text.starts_with(&format!("HTTP/1.1 {status} ")), "{text}");
        assert!(text.to_ascii_lowercase().contains("content-type: application/json"), "{text}");
        let body = text.split("\r\n\r\n").nth(1).unwrap_or_default();
        let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {text}"));
        let e = v["error"].as_str().unwrap();
        assert!(!e.is_empty() && !e.contains('\n'), "{e}");
    }
}

/// Regression: every streamed run that ended by itself said `"stopped_by": "client"` (the
/// pool sets the job's flag once the job is over, and the stream read it after that). A run
/// that ends at its move limit, or with no move, names no stop; one cut by its deadline says
/// `deadline`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_that_ends_by_itself_names_no_stop() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (addr, _stop) = live_server(10).await;
    let cases = [
        ("2048", json!({"max_moves": 3}), 1, (Some("move_limit"), None)),
        (
            "snake",
            json!({"from": {"setup": {"size": "4x4"}}, "search": {"player": "cycle"}}),
            10,
            (Some("ended"), None),
        ),
        ("2048", json!({"search": {"budget": 5_000_000}}), 1, (Some("aborted"), Some("deadline"))),
    ];
    for (game, r, seconds, want) in cases {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        let q = urlencode(&r.to_string());
        let head = format!("GET /api/{game}/auto?seconds={seconds}&r={q} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        s.write_all(head.as_bytes()).await.unwrap();
        let mut buf = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(20), s.read_to_end(&mut buf)).await;
        let text = String::from_utf8_lossy(&buf);
        let done =
            text.split("event: done\ndata: ").nth(1).unwrap_or_else(|| panic!("no done: {text}"));
        let v: Value = serde_json::from_str(done.lines().next().unwrap()).unwrap();
        assert_eq!((v["stop"].as_str(), v["stopped_by"].as_str()), want, "{game} {r}: {v}");
    }
}
