//! `/api/snake/...`: the game from a setup, a seed and moves; a record's game; a player's
//! next move and route; and a player playing on as a stream.

use std::sync::Arc;

use axum::extract::State;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use bits::job::Control;
use serde::Deserialize;
use serde_json::json;
use snake::api::{self, live};

use crate::routes::{pooled, record_file, streamed, Body, Params, RecordBody};
use crate::{ApiError, AppState};

pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/position", post(position))
        .route("/record", post(record))
        .route("/frames", post(frames))
        .route("/hint", post(hint))
        .route("/auto", get(auto))
}

async fn position(
    Body(req): Body<live::PositionRequest>,
) -> Result<Json<live::PositionResponse>, ApiError> {
    Ok(Json(live::position(&req, Control::new())?))
}

/// The game's record, exactly as `snake play --record` writes it.
async fn record(Body(req): Body<live::PositionRequest>) -> Result<impl IntoResponse, ApiError> {
    let req = live::PositionRequest { record: true, frames: false, ..req };
    let res = live::position(&req, Control::new())?;
    record_file(&res.record)
}

/// `{"record": R}`: the record checked on both engines (as `snake replay` checks it), and the
/// game it holds as the page names it: setup, seed (also as a string) and moves.
async fn frames(Body(b): Body<RecordBody>) -> Result<Json<serde_json::Value>, ApiError> {
    let record: snake::Record =
        serde_json::from_value(b.record).map_err(|e| ApiError::bad(format!("record: {e}")))?;
    let req = api::ReplayRequest { record, name: "record".into() };
    let checked = api::replay(&req, Control::new()).map_err(|e| ApiError::bad(e.to_string()))?;
    let c = req.record.config;
    let setup =
        api::Setup { size: c.size.to_string(), start_len: c.start_len, stall: Some(c.stall_limit) };
    if setup.config()? != c {
        return Err(ApiError::bad(format!(
            "record: the snake starts at ({},{}); the arcade plays games that start at the centre",
            c.start_x, c.start_y
        )));
    }
    Ok(Json(json!({
        "setup": setup,
        "seed": req.record.seed.to_string(),
        "moves": req.record.moves,
        "player": req.record.player,
        "score": checked.score,
        "status": checked.status,
    })))
}

async fn hint(
    State(state): State<Arc<AppState>>,
    Body(req): Body<live::HintRequest>,
) -> Result<Json<live::HintResponse>, ApiError> {
    pooled(&state, move |abort| live::hint(&req, Control::new().with_abort(abort))).await
}

/// `GET /api/snake/auto?size=WxH&seed=S&start_len=L&moves=...&player=P`: the player plays on,
/// one `chunk` event per 256 moves (and one at the end).
#[derive(Debug, Deserialize)]
#[serde(default)]
struct AutoQuery {
    size: String,
    start_len: usize,
    stall: Option<u64>,
    seed: u64,
    moves: String,
    player: String,
    max_moves: u64,
}

impl Default for AutoQuery {
    fn default() -> Self {
        let d = live::AutoRequest::default();
        AutoQuery {
            size: d.from.setup.size,
            start_len: d.from.setup.start_len,
            stall: None,
            seed: d.from.seed,
            moves: String::new(),
            player: d.player,
            max_moves: u64::MAX,
        }
    }
}

async fn auto(
    State(state): State<Arc<AppState>>,
    Params(q): Params<AutoQuery>,
) -> Result<impl IntoResponse, ApiError> {
    let req = live::AutoRequest {
        from: live::PositionRequest {
            setup: api::Setup { size: q.size, start_len: q.start_len, stall: q.stall },
            seed: q.seed,
            moves: q.moves,
            ..Default::default()
        },
        player: q.player,
        max_moves: q.max_moves.min(state.caps.max_moves),
        ..Default::default()
    };
    // Bad input is a 400 before the stream opens.
    req.check()?;
    Ok(streamed(state, move |abort, send| {
        let res =
            live::auto(&req, Control::new().with_abort(abort), &mut |c| send("chunk", json!(c)))?;
        Ok(json!({
            "player": res.player,
            "played": res.played,
            "status": res.status,
            "score": res.score,
        }))
    }))
}
