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

/// A router under `caps` on its own current-thread runtime.
fn build(caps: arcade::Caps) -> Server {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let app = {
        let _in = rt.enter();
        arcade::router(arcade::AppState::new(1, caps))
    };
    Server { rt, app }
}

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| build(caps()))
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

/// The caps of the fuzzed server's streamed runs: 8 moves a run, 50 ms a decision, a
/// 1 s deadline, so that a run is milliseconds to a second.
fn auto_caps() -> arcade::Caps {
    let mut c = caps();
    c.run_seconds = 1;
    c.solver.moves = 8;
    c.solver.millis = 50;
    c
}

fn auto_server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| build(auto_caps()))
}

/// The bytes percent-encoded for a query (everything but unreserved characters).
fn percent(data: &[u8]) -> String {
    data.iter()
        .map(|&b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// The streamed run (`GET /api/{game}/auto?r=...`): the first byte picks the game, the rest
/// is the auto request `r`. A refusal is a 4xx with a one-line JSON error. A stream is
/// well-formed server-sent events: `queued`, then `progress` and `steps`, and last exactly
/// one `done` or `failed`; every event's data is one line of JSON. A `done` run's moves are
/// the moves its `steps` sent, in order, at most the cap's 8, and its record loads back
/// through `frames` as the same game.
pub fn router_auto(data: &[u8]) {
    let Some((&pick, r)) = data.split_first() else { return };
    match pick % 5 {
        0 => auto::<SameGame>(r),
        1 => auto::<Tetris>(r),
        2 => auto::<Drop7>(r),
        3 => auto::<Twenty48>(r),
        _ => auto::<Snake>(r),
    };
}

/// [`router_auto`] for `G`: the moves a `done` run played, if it ran.
fn auto<G: Game>(r: &[u8]) -> Option<u64> {
    let s = auto_server();
    let path = format!("/api/{}/auto?seconds=1&r={}", G::NAME, percent(r));
    let what = format!("GET /api/{}/auto", G::NAME);
    let req = Request::builder().method("GET").uri(&path).body(Body::empty()).expect("a request");
    let (status, bytes) = s.rt.block_on(async {
        let resp = s.app.clone().oneshot(req).await.expect("the router never fails");
        let status = resp.status();
        let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX).await.expect("a body");
        (status, bytes)
    });
    let text = String::from_utf8(bytes.to_vec())
        .unwrap_or_else(|e| panic!("{what}: {status}: the answer is not UTF-8: {e}"));
    let shown = || text.chars().take(2000).collect::<String>();
    assert!(!status.is_server_error(), "{what}: {status}: {}", shown());
    if status.is_client_error() {
        let json: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{what}: {status}: not JSON ({e}): {}", shown()));
        match json.get("error").and_then(Value::as_str) {
            Some(m) => {
                assert_one_line(&what, m);
                return None;
            }
            None => panic!("{what}: {status} without an error message: {}", shown()),
        }
    }
    assert_eq!(status, StatusCode::OK, "{what}: {}", shown());
    let mut events = Vec::new();
    for block in text.split("\n\n").filter(|b| !b.trim().is_empty()) {
        let mut name = None;
        let mut json = None;
        for line in block.lines() {
            if let Some(n) = line.strip_prefix("event: ") {
                name = Some(n.to_string());
            } else if let Some(d) = line.strip_prefix("data: ") {
                assert!(json.is_none(), "{what}: an event with two data lines: {block}");
                json = Some(serde_json::from_str::<Value>(d).unwrap_or_else(|e| {
                    panic!("{what}: an event's data is not JSON ({e}): {block}")
                }));
            } else {
                panic!("{what}: a line that is not an event's: {line:?} in {}", shown());
            }
        }
        let name = name.unwrap_or_else(|| panic!("{what}: an event without a name: {block}"));
        let json = json.unwrap_or_else(|| panic!("{what}: an event without data: {block}"));
        events.push((name, json));
    }
    let (last, rest) = events.split_last().unwrap_or_else(|| panic!("{what}: an empty stream"));
    assert!(
        last.0 == "done" || last.0 == "failed",
        "{what}: the stream ends on {:?}: {}",
        last.0,
        shown()
    );
    let mut moves = Vec::new();
    for (name, json) in rest {
        match name.as_str() {
            "queued" | "progress" => {}
            "steps" => {
                for s in json["steps"].as_array().expect("steps") {
                    moves.push(s["move"].as_str().expect("a step's move").to_string());
                }
            }
            other => panic!("{what}: {other:?} before the end: {}", shown()),
        }
    }
    if last.0 == "failed" {
        let m = last.1["error"].as_str().unwrap_or_else(|| panic!("{what}: {}", shown()));
        assert_one_line(&what, m);
        return None;
    }
    let done = &last.1;
    let played = done["played"].as_u64().expect("played");
    assert!(played <= 8, "{what}: {played} moves past the cap of 8");
    assert_eq!(played as usize, moves.len(), "{what}: played {played}, steps {moves:?}");
    let sent = moves.join(G::SEP);
    let said = done["moves"].as_str().expect("moves");
    let start = said.len().saturating_sub(sent.len());
    // The steps sent are the run's last moves, whole ones (a separator before them).
    let whole =
        sent.is_empty() || start == 0 || G::SEP.is_empty() || said[..start].ends_with(G::SEP);
    assert!(
        said.ends_with(&sent) && whole,
        "{what}: the run's moves {said:?} do not end with the steps sent {sent:?}"
    );
    let f = post(&format!("/api/{}/frames", G::NAME), body(&json!({ "record": done["record"] })));
    assert!(f.ok(), "{what}: its record does not load: {}\n{}", f.json, done["record"]);
    assert_eq!(f.json["moves"].as_str(), Some(said), "{what}: the record holds other moves");
    Some(played)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The target really runs games: a good request of each game streams its moves to `done`.
    #[test]
    fn router_auto_plays_a_good_request_of_every_game() {
        let r = br#"{"from":{"seed":"3"},"max_moves":3}"#;
        assert_eq!(auto::<Twenty48>(r), Some(3));
        assert_eq!(auto::<Snake>(r), Some(3));
        assert_eq!(auto::<Drop7>(r), Some(3));
        assert_eq!(auto::<SameGame>(r), Some(3));
        assert!(auto::<Tetris>(r).is_some_and(|n| (1..=3).contains(&n)));
        assert_eq!(auto::<Twenty48>(br#"{"from":{"seed":"abc"}}"#), None);
    }
}
