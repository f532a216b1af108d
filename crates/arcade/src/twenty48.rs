//! `/api/2048/...`: the game from a seed and moves, a record's frames, a hint, and the
//! expectimax playing on as a stream.

use std::sync::Arc;

use axum::extract::State;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use bits::job::{Control, Step};
use serde::Deserialize;
use serde_json::json;
use twenty48::api;

use crate::routes::{pooled, record_file, streamed, Body, Params};
use crate::{ApiError, AppState, Caps};

pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/position", post(position))
        .route("/frames", post(frames))
        .route("/record", post(record))
        .route("/hint", post(hint))
        .route("/auto", get(auto))
}

/// The search a request asks for, within the server's caps.
fn capped(mut s: api::SearchSpec, caps: &Caps) -> api::SearchSpec {
    s.network = None;
    s.ntuple = None;
    s.depth = s.depth.map(|d| d.min(caps.max_depth));
    s.max_depth = s.max_depth.min(caps.max_depth);
    s.budget = Some(s.budget.unwrap_or(api::DEFAULT_BUDGET).min(caps.max_nodes));
    s.time_per_move = s.time_per_move.map(|t| t.min(caps.max_time_per_move));
    s.tt_bits = s.tt_bits.min(caps.max_tt_bits);
    s.boost = s.boost.min(4.0);
    s.extend = s.extend.min(4.0);
    s
}

async fn position(
    Body(req): Body<api::PositionRequest>,
) -> Result<Json<api::PositionResponse>, ApiError> {
    Ok(Json(api::position(&req, Control::new())?))
}

/// `{"record": R}` with R a record or a list of records (`"index"` picks one, default 0), as
/// `2048 replay` reads them. The answer adds the record's spawn seed as a string
/// (`spawn_seed`), since a browser's numbers lose digits past 2^53.
#[derive(Debug, Deserialize)]
struct FramesBody {
    record: serde_json::Value,
    #[serde(default)]
    index: usize,
}

async fn frames(Body(b): Body<FramesBody>) -> Result<Json<serde_json::Value>, ApiError> {
    let one = match b.record {
        serde_json::Value::Array(mut v) if b.index < v.len() => v.swap_remove(b.index),
        serde_json::Value::Array(v) => {
            return Err(ApiError::bad(format!("record: index {} of {} records", b.index, v.len())))
        }
        v => v,
    };
    let record: twenty48::GameRecord =
        serde_json::from_value(one).map_err(|e| ApiError::bad(format!("record: {e}")))?;
    let seed = record.seed.map(|s| s.to_string());
    let res = api::frames(&api::FramesRequest { record }, Control::new())?;
    let mut v = json!(res);
    v["spawn_seed"] = json!(seed);
    Ok(Json(v))
}

/// The game's record, exactly as `2048 play --record` writes it (to save as a file).
async fn record(Body(req): Body<api::PositionRequest>) -> Result<impl IntoResponse, ApiError> {
    let req = api::PositionRequest { record: true, snapshots: false, ..req };
    let res = api::position(&req, Control::new())?;
    record_file(&res.record)
}

/// A hint: the position of `seed` after `moves`, then the search on it.
#[derive(Debug, Deserialize, Default)]
#[serde(default)]
struct HintRequest {
    seed: u64,
    spawn_seed: Option<u64>,
    moves: String,
    search: api::SearchSpec,
}

async fn hint(
    State(state): State<Arc<AppState>>,
    Body(req): Body<HintRequest>,
) -> Result<Json<api::BestResponse>, ApiError> {
    let pos = api::position(
        &api::PositionRequest {
            seed: req.seed,
            spawn_seed: req.spawn_seed,
            moves: req.moves,
            ..Default::default()
        },
        Control::new(),
    )?;
    let best = api::BestRequest { board: pos.now.board, search: capped(req.search, &state.caps) };
    pooled(&state, move |abort| api::best(&best, Control::new().with_abort(abort))).await
}

/// `GET /api/2048/auto?seed=S&moves=...&budget=N&depth=D&max_moves=M`: the expectimax plays
/// on from the position, one `step` event per move.
#[derive(Debug, Deserialize)]
#[serde(default)]
struct AutoQuery {
    seed: u64,
    spawn_seed: Option<u64>,
    moves: String,
    depth: Option<u8>,
    budget: Option<u64>,
    time_per_move: Option<u64>,
    max_moves: u64,
}

impl Default for AutoQuery {
    fn default() -> Self {
        AutoQuery {
            seed: 1,
            spawn_seed: None,
            moves: String::new(),
            depth: None,
            budget: None,
            time_per_move: None,
            max_moves: u64::MAX,
        }
    }
}

async fn auto(
    State(state): State<Arc<AppState>>,
    Params(q): Params<AutoQuery>,
) -> Result<impl IntoResponse, ApiError> {
    let search = capped(
        api::SearchSpec {
            depth: q.depth,
            budget: q.budget,
            time_per_move: q.time_per_move,
            ..Default::default()
        },
        &state.caps,
    );
    let req = api::AutoRequest {
        from: api::PositionRequest {
            seed: q.seed,
            spawn_seed: q.spawn_seed,
            moves: q.moves,
            ..Default::default()
        },
        max_moves: q.max_moves.min(state.caps.max_moves),
        search,
    };
    // Bad input is a 400 before the stream opens.
    api::position(&req.from, Control::new())?;
    req.search.config()?;
    Ok(streamed(state, move |abort, send| {
        let step = |s: &Step| send("step", json!(s));
        let res = api::auto(&req, Control::new().with_abort(abort).with_steps(&step))?;
        Ok(json!(res))
    }))
}
