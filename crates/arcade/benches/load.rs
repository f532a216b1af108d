//! The load bench of the web arcade (not a timed test): 50 clients each start a streamed run of
//! one of the five games' solvers (in turn: a 2048 expectimax at 5M nodes a move, SameGame's
//! NRPA at level 3, a Tetris PC search with no perfect clear to find, Drop7's expectimax at
//! depth 6, Snake's cycle on 30x30), each far longer than the server's run deadline, so the
//! pool stays full and every job must be stopped by its deadline; meanwhile one client times
//! cheap requests (`position`). Prints p50/p99 of the cheap requests, the jobs over budget (must be 0), and
//! the process's peak memory.
//!
//! `cargo bench -p arcade --bench load` (release build; the server and the clients in one
//! process, over real loopback sockets).

use std::time::{Duration, Instant};

use arcade::{router, AppState, Caps};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const CLIENTS: usize = 50;

/// Each game's run: its route name and an auto request that outlasts the deadline.
const RUNS: [(&str, &str); 5] = [
    ("2048", r#"{"from":{"seed":"{i}"},"search":{"budget":5000000},"max_moves":100000}"#),
    (
        "samegame",
        r#"{"from":{"setup":{"width":20,"height":15,"colors":5},"seed":"{i}"},"search":{"search":"nrpa","level":3,"iterations":1000}}"#,
    ),
    ("tetris", r#"{"from":{"setup":{"queue":"SZSZSZSZSZSZSZSZSZSZSZ","height":6},"seed":"{i}"}}"#),
    ("drop7", r#"{"from":{"seed":"{i}"},"search":{"depth":6}}"#),
    ("snake", r#"{"from":{"setup":{"size":"30x30"},"seed":"{i}"},"search":{"player":"cycle"}}"#),
];

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
const WORKERS: usize = 2;
const RUN_SECONDS: u64 = 1;

/// One HTTP/1.1 request on a fresh connection; returns the status code and the body.
async fn request(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: &str,
) -> (u16, String) {
    let mut s = TcpStream::connect(addr).await.expect("connect");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).await.expect("write");
    s.write_all(body.as_bytes()).await.expect("write");
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.expect("read");
    let text = String::from_utf8_lossy(&out).to_string();
    let code = text.get(9..12).and_then(|c| c.parse().ok()).unwrap_or(0);
    (code, text)
}

fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let caps = Caps { run_seconds: RUN_SECONDS, ..Caps::default() };
    let state = AppState::new(WORKERS, caps);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let app = router(state.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });

    let start = Instant::now();
    let runs: Vec<_> = (0..CLIENTS)
        .map(|i| {
            tokio::spawn(async move {
                let (game, r) = RUNS[i % RUNS.len()];
                let path =
                    format!("/api/{game}/auto?r={}", urlencode(&r.replace("{i}", &i.to_string())));
                let (code, body) = request(addr, "GET", &path, "").await;
                (code, body.contains("event: done"))
            })
        })
        .collect();
    // Let the pool fill, then time cheap requests while it is full.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut lat = Vec::new();
    let mut full = 0;
    while lat.len() < 400 {
        let t = Instant::now();
        let (code, _) =
            request(addr, "POST", "/api/2048/position", r#"{"seed":5,"moves":"LU"}"#).await;
        lat.push(t.elapsed().as_secs_f64() * 1e3);
        assert_eq!(code, 200);
        let s = state.pool.stats();
        if s.running as usize == WORKERS {
            full += 1;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut done = 0;
    for r in runs {
        let (code, ended) = r.await.expect("client");
        assert_eq!(code, 200);
        done += usize::from(ended);
    }
    let wall = start.elapsed().as_secs_f64();
    lat.sort_by(f64::total_cmp);
    let q = |p: f64| lat[((lat.len() as f64 * p).ceil() as usize).min(lat.len()) - 1];
    let s = state.pool.stats();
    println!("arcade load bench: {CLIENTS} streamed runs of the five games' solvers in turn (run deadline {RUN_SECONDS} s), {WORKERS} workers");
    println!("  runs ended with their record: {done} of {CLIENTS}; wall {wall:.1} s");
    println!(
        "  jobs finished {}, aborted by the deadline {}, over budget {}",
        s.finished, s.aborted, s.over_budget
    );
    println!(
        "  cheap requests while the pool was full ({full} of {}): p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        lat.len(),
        q(0.5),
        q(0.99),
        lat[lat.len() - 1]
    );
    println!("  peak memory (VmHWM, server and clients): {} MiB", peak_rss_kib() / 1024);
}
