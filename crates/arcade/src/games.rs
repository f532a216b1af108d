//! The routes of every game, written once over the live contract ([`bits::live::Game`]):
//!
//! | route | body | answer |
//! |---|---|---|
//! | `POST /api/{game}/position` | a position request | the position (with `frames`, `record` on request) |
//! | `POST /api/{game}/record` | a position request | the record file, exactly as the CLI writes it |
//! | `POST /api/{game}/frames` | `{"record": R, "index": 0}` | the record's game and every frame |
//! | `POST /api/{game}/hint` | `{"from": position, "search": S}` | the solver's move and values |
//! | `POST /api/{game}/check` | `{"from": position, "search": S}` | the search as the caps clamp it |
//! | `GET /api/{game}/auto?r=JSON&seconds=N` | an auto request as JSON | a stream: `queued`, `progress`, `steps`, then `done` or `failed` |
//!
//! Adding a game is one line in [`GAMES`] and one `nest` in the router.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use bits::job::{Control, Progress, Step};
use bits::live::{self, Game, OtherGame};
use drop7::api::contract::Drop7;
use samegame::api::live::contract::SameGame;
use serde::{Deserialize, Serialize};
use serde_json::{json, value::RawValue, Value};
use snake::api::contract::Snake;
use tetris::api::contract::Tetris;
use twenty48::api::contract::Twenty48;

use crate::routes::{pooled, record_file, streamed_within, Body, Params};
use crate::{ApiError, AppState};

/// One game the arcade serves: its route name, its title, and how its records are told apart.
#[derive(Debug, Clone, Copy, Serialize, schemars::JsonSchema)]
pub struct GameInfo {
    /// The route name (`/api/{name}/...`, `#/{name}`).
    pub name: &'static str,
    /// The name for people.
    pub title: &'static str,
    /// What separates moves in its move lists.
    pub sep: &'static str,
    #[serde(skip)]
    is_record: fn(&str) -> bool,
}

const fn info<G: Game>() -> GameInfo {
    GameInfo { name: G::NAME, title: G::TITLE, sep: G::SEP, is_record: live::is_record::<G> }
}

/// Every game the arcade serves, in the order of the home page.
pub const GAMES: &[GameInfo] =
    &[info::<SameGame>(), info::<Tetris>(), info::<Drop7>(), info::<Twenty48>(), info::<Snake>()];

/// The routes of every game, nested under `/api/{name}`.
pub fn all() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/games", get(|| async { Json(GAMES) }))
        .route("/api/openapi.json", get(|| async { Json(crate::openapi::document()) }))
        .nest("/api/samegame", routes::<SameGame>())
        .nest("/api/tetris", routes::<Tetris>())
        .nest("/api/drop7", routes::<Drop7>())
        .nest("/api/2048", routes::<Twenty48>())
        .nest("/api/snake", routes::<Snake>())
}

fn others() -> Vec<OtherGame<'static>> {
    GAMES.iter().map(|g| (g.title, g.is_record)).collect()
}

/// The routes of one game.
pub fn routes<G: Game>() -> Router<Arc<AppState>> {
    Router::new()
        .route("/position", post(position::<G>))
        .route("/record", post(record::<G>))
        .route("/frames", post(frames::<G>))
        .route("/hint", post(hint::<G>))
        .route("/check", post(check::<G>))
        .route("/auto", get(auto::<G>))
}

async fn position<G: Game>(
    Body(req): Body<live::PositionRequest<G>>,
) -> Result<Json<live::PositionResponse<G>>, ApiError> {
    Ok(Json(live::position(&req, Control::new())?))
}

async fn record<G: Game>(
    Body(req): Body<live::PositionRequest<G>>,
) -> Result<impl IntoResponse, ApiError> {
    record_file(&live::record(&req, Control::new())?)
}

async fn frames<G: Game>(
    Body(b): Body<live::FramesRequest<Option<Box<RawValue>>>>,
) -> Result<Json<live::FramesResponse<G>>, ApiError> {
    let raw = b.record.ok_or_else(|| ApiError::bad("record: missing"))?;
    let (record, count) = live::read_record::<G>(raw.get(), b.index, &others())?;
    Ok(Json(live::frames::<G>(&record, count, Control::new())?))
}

async fn hint<G: Game>(
    State(state): State<Arc<AppState>>,
    Body(req): Body<live::HintRequest<G>>,
) -> Result<Json<live::Hint<G::Detail>>, ApiError> {
    let caps = state.caps.solver;
    live::check(&req.from, &req.search, &caps)?;
    pooled(&state, move |abort| live::hint(&req, &caps, Control::new().with_abort(abort))).await
}

/// The search as the server's caps clamp it, after the position and search are checked.
async fn check<G: Game>(
    State(state): State<Arc<AppState>>,
    Body(req): Body<live::HintRequest<G>>,
) -> Result<Json<Value>, ApiError> {
    let search = live::check(&req.from, &req.search, &state.caps.solver)?;
    Ok(Json(json!({ "ok": true, "search": search })))
}

/// `?r=` the auto request as JSON; `seconds=` the run's deadline (at most the server's).
#[derive(Debug, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct AutoQuery {
    r: Option<String>,
    seconds: Option<u64>,
}

/// Steps sent together: at most this many, or what came in this long.
const STEPS_AT_ONCE: usize = 256;
const STEPS_EVERY: Duration = Duration::from_millis(50);

async fn auto<G: Game>(
    State(state): State<Arc<AppState>>,
    Params(q): Params<AutoQuery>,
) -> Result<impl IntoResponse, ApiError> {
    let req: live::AutoRequest<G> = match &q.r {
        Some(r) => serde_json::from_str(r).map_err(|e| ApiError::bad(format!("r: {e}")))?,
        None => live::AutoRequest::default(),
    };
    let caps = state.caps.solver;
    // Bad input is a 400 before the stream opens.
    live::check(&req.from, &req.search, &caps)?;
    let deadline = Duration::from_secs(q.seconds.unwrap_or(state.caps.run_seconds).max(1));
    Ok(streamed_within(state, deadline, move |abort, send| {
        let start = Instant::now();
        // At most five progress events a second.
        let said = AtomicU64::new(0);
        let say = |p: Progress| {
            let now = start.elapsed().as_millis() as u64;
            let before = said.load(Ordering::Relaxed);
            if !p.message.is_empty()
                && now >= before + 200
                && said.compare_exchange(before, now, Ordering::Relaxed, Ordering::Relaxed).is_ok()
            {
                send("progress", json!({ "message": p.message, "seconds": now as f64 / 1000.0 }));
            }
        };
        let batch = Mutex::new((Vec::<Value>::new(), Instant::now()));
        let flush = |b: &mut (Vec<Value>, Instant)| {
            if !b.0.is_empty() {
                send("steps", json!({ "steps": std::mem::take(&mut b.0) }));
            }
            b.1 = Instant::now();
        };
        let step = |s: &Step| {
            let mut b = batch.lock().unwrap_or_else(|e| e.into_inner());
            b.0.push(json!({ "move": s.action, "frame": s.frame, "score": s.score }));
            if b.0.len() >= STEPS_AT_ONCE || b.1.elapsed() >= STEPS_EVERY {
                flush(&mut b);
            }
        };
        let ctl = Control::new().with_abort(abort).with_progress(&say).with_steps(&step);
        let out = live::auto(&req, &caps, ctl);
        flush(&mut batch.lock().unwrap_or_else(|e| e.into_inner()));
        Ok(json!(out?))
    }))
}
