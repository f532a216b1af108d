//! The arcade's JSON routes, in process: the bytes are POSTed as a body to every JSON route of
//! one game through `arcade::router` (tower's `oneshot`, no socket), on one current-thread
//! runtime and one router built once.

use std::sync::OnceLock;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use bits::live::Game;
use drop7::api::contract::Drop7;
use samegame::api::live::contract::SameGame;
use serde_json::{json, Value};
use snake::api::contract::Snake;
use tetris::api::contract::Tetris;
use tower::ServiceExt;
use twenty48::api::contract::Twenty48;

use crate::assert_one_line;

/// The caps of the fuzzed server: small, so that a hint is milliseconds (nodes 2,000, 200 ms,
/// beam width 8, 50 moves a run, depth 4, 2^16 table entries), and a hint that overruns its
/// 200 ms by ten times is stopped (a 503, which the targets count as a failure).
pub fn caps() -> arcade::Caps {
    arcade::Caps {
        hint_seconds: 2,
        run_seconds: 2,
        max_body: 1 << 20,
        solver: bits::live::Caps {
            nodes: 2_000,
            depth: 4,
            millis: 200,
            table_bits: 16,
            width: 8,
            moves: 50,
        },
    }
}

struct Server {
    rt: tokio::runtime::Runtime,
    app: axum::Router,
}

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime");
        let app = {
            let _in = rt.enter();
            arcade::router(arcade::AppState::new(1, caps()))
        };
        Server { rt, app }
    })
}

/// An answer: its status and its JSON.
struct Answer {
    status: StatusCode,
    json: Value,
}

impl Answer {
    fn ok(&self) -> bool {
        self.status.is_success()
    }
}

/// POSTs `body` to `path`; asserts no 5xx, JSON in every answer, and a one-line `error` in a
/// 4xx.
fn post(path: &str, body: Vec<u8>) -> Answer {
    let s = server();
    let req = Request::builder()
        .method("POST")
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .expect("a request");
    let (status, bytes) = s.rt.block_on(async {
        let resp = s.app.clone().oneshot(req).await.expect("the router never fails");
        let status = resp.status();
        let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX).await.expect("a body");
        (status, bytes)
    });
    let what = format!("POST {path}");
    let shown = || String::from_utf8_lossy(&bytes).chars().take(2000).collect::<String>();
    assert!(!status.is_server_error(), "{what}: {status}: {}", shown());
    let json: Value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("{what}: {status}: the answer is not JSON ({e}): {}", shown()));
    if status.is_client_error() {
        match json.get("error").and_then(Value::as_str) {
            Some(m) => assert_one_line(&what, m),
            None => panic!("{what}: {status} without an error message: {}", shown()),
        }
    } else {
        assert_eq!(status, StatusCode::OK, "{what}: {}", shown());
    }
    Answer { status, json }
}

fn body(v: &Value) -> Vec<u8> {
    serde_json::to_vec(v).expect("JSON")
}

/// The fields two answers about the same game position share.
fn same_game(what: &str, a: &Value, b: &Value, fields: &[&str]) {
    for f in fields {
        assert_eq!(a.get(f), b.get(f), "{what}: {f} differs\n{a}\n{b}");
    }
}

/// The bytes as the body of every JSON route of `G`: `position` and `record`; `frames` when
/// they hold a `"record"` key; `check` and `hint` when they hold `"from"` or `"search"`.
/// Besides the answers' form: a position's own `setup`, `seed` and `moves` give the same
/// position; `record` answers as `position` does, and the record it writes loads back through
/// `frames` as the same game; `frames` gives a frame per move and one for the start; a hint
/// names a move, and `check` accepts what `hint` answers.
pub fn router<G: Game>(data: &[u8]) {
    let base = format!("/api/{}", G::NAME);
    let route = |r: &str| format!("{base}/{r}");

    let p = post(&route("position"), data.to_vec());
    if p.ok() {
        let v = &p.json;
        let frames = v.get("frames").and_then(Value::as_array).map_or(0, Vec::len);
        let played = v["played"].as_u64().expect("played") as usize;
        assert!(
            frames == 0 || frames == played + 1,
            "{base}/position: {frames} frames, {played} moves"
        );
        let again = json!({ "setup": v["setup"], "seed": v["seed"], "moves": v["moves"] });
        let q = post(&route("position"), body(&again));
        assert!(q.ok(), "{base}/position: its own setup, seed and moves are refused: {}", q.json);
        same_game(
            &format!("{base}/position again"),
            v,
            &q.json,
            &["game", "moves", "played", "now", "text", "score", "status", "legal"],
        );
    }

    let r = post(&route("record"), data.to_vec());
    assert_eq!(r.ok(), p.ok(), "{base}: position answers {}, record {}", p.status, r.status);
    if r.ok() {
        let f = post(&route("frames"), body(&json!({ "record": r.json })));
        assert!(f.ok(), "{base}: the record it wrote does not load: {}\n{}", f.json, r.json);
        same_game(
            &format!("{base}/frames of its record"),
            &p.json,
            &f.json,
            &["game", "moves", "played", "text", "score"],
        );
    }

    // `frames`, `check` and `hint` take bodies of their own shape; a body without their keys
    // would only run them on the defaults (a whole default hint per input, which would make the
    // fuzzing crawl), so they get the bodies that name a record, a position or a search.
    let has = |key: &str| data.windows(key.len()).any(|w| w == key.as_bytes());
    if has("\"record\"") {
        frames(&route("frames"), data);
    }
    if has("\"from\"") || has("\"search\"") {
        let c = post(&route("check"), data.to_vec());
        let h = post(&route("hint"), data.to_vec());
        if h.ok() {
            assert!(c.ok(), "{base}: check refuses what hint answers: {}", c.json);
            assert!(
                h.json["move"].as_str().is_some_and(|m| !m.is_empty()),
                "{base}/hint: {}",
                h.json
            );
        }
    }
}

/// `frames` of the body: a frame per move and one for the start.
fn frames(path: &str, data: &[u8]) {
    let f = post(path, data.to_vec());
    if f.ok() {
        let v = &f.json;
        let frames = v["frames"].as_array().map_or(0, Vec::len);
        let played = v["played"].as_u64().expect("played") as usize;
        assert_eq!(frames, played + 1, "{path}: {frames} frames, {played} moves");
        assert!(v["count"].as_u64().is_some_and(|c| c >= 1), "{path}: count {}", v["count"]);
    }
}

/// SameGame's routes (`/api/samegame/...`).
pub fn router_samegame(data: &[u8]) {
    router::<SameGame>(data);
}

/// Tetris's routes (`/api/tetris/...`).
pub fn router_tetris(data: &[u8]) {
    router::<Tetris>(data);
}

/// Drop7's routes (`/api/drop7/...`).
pub fn router_drop7(data: &[u8]) {
    router::<Drop7>(data);
}

/// 2048's routes (`/api/2048/...`).
pub fn router_twenty48(data: &[u8]) {
    router::<Twenty48>(data);
}

/// Snake's routes (`/api/snake/...`).
pub fn router_snake(data: &[u8]) {
    router::<Snake>(data);
}
