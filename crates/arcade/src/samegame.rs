//! `/api/samegame/...`: a board from a seed or its text, the clicks so far with every group's
//! points, a record's game, the solver's plan (a hint), and a search streamed with its
//! progress.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use bits::job::{Control, Progress};
use samegame::api::{live, Search, SolveGoal};
use serde::Deserialize;
use serde_json::json;

use crate::routes::{pooled, record_file, streamed_within, Body, Params, RecordBody};
use crate::{ApiError, AppState};

/// The widest beam the server runs.
pub const MAX_WIDTH: usize = 20_000;

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

/// The game's record, exactly as `samegame solve --record` writes it.
async fn record(Body(req): Body<live::PositionRequest>) -> Result<impl IntoResponse, ApiError> {
    let req = live::PositionRequest { record: true, frames: false, ..req };
    let res = live::position(&req, Control::new())?;
    record_file(&res.record)
}

/// `{"record": R}`: the record checked as `samegame replay` checks it, and its game as a
/// position request (the board's text, the rules, the clicks).
async fn frames(Body(b): Body<RecordBody>) -> Result<Json<serde_json::Value>, ApiError> {
    let record: samegame::trace::Record =
        serde_json::from_value(b.record).map_err(|e| ApiError::bad(format!("record: {e}")))?;
    let req = live::from_record(&record)?;
    Ok(Json(
        json!({ "start": req.start, "rules": req.rules, "moves": req.moves, "score": record.score }),
    ))
}

fn capped(mut req: live::PlanRequest) -> live::PlanRequest {
    req.width = req.width.map(|w| w.min(MAX_WIDTH));
    req
}

async fn hint(
    State(state): State<Arc<AppState>>,
    Body(req): Body<live::PlanRequest>,
) -> Result<Json<live::Plan>, ApiError> {
    let req = capped(req);
    req.check()?;
    pooled(&state, move |abort| live::plan(&req, Control::new().with_abort(abort))).await
}

/// `GET /api/samegame/auto?width=15&height=15&colors=5&seed=1&moves=3.0-4.1&goal=score&
/// search=nrpa&level=2&iterations=100&beam=30&seconds=60` (or `board=` the rows, `/`
/// between them): `progress {message}` events while it searches, then `plan {moves, frames}`
/// and `done {...}` with the plan's figures.
#[derive(Debug, Deserialize)]
#[serde(default)]
struct AutoQuery {
    width: usize,
    height: usize,
    colors: usize,
    seed: u64,
    board: Option<String>,
    points: String,
    clear_bonus: i64,
    min_group: u32,
    moves: String,
    goal: SolveGoal,
    search: Search,
    beam: Option<usize>,
    level: u32,
    iterations: u32,
    search_seed: u64,
    seconds: u64,
}

impl Default for AutoQuery {
    fn default() -> Self {
        let d = live::PlanRequest::default();
        let (s, r) = (d.from.start, d.from.rules);
        AutoQuery {
            width: s.width,
            height: s.height,
            colors: s.colors,
            seed: s.seed,
            board: None,
            points: r.points,
            clear_bonus: r.clear_bonus,
            min_group: r.min_group,
            moves: String::new(),
            goal: d.goal,
            search: d.search,
            beam: d.width,
            level: d.level,
            iterations: d.iterations,
            search_seed: d.seed,
            seconds: 60,
        }
    }
}

/// Clicks as `x.y` tokens with `-` between them (the page's URL form).
fn parse_moves(s: &str) -> Result<Vec<[u8; 2]>, ApiError> {
    s.split('-')
        .filter(|t| !t.is_empty())
        .enumerate()
        .map(|(i, t)| {
            let bad = || ApiError::bad(format!("moves: {t:?} (click {}) is not x.y", i + 1));
            let (x, y) = t.split_once('.').ok_or_else(bad)?;
            Ok([x.parse().map_err(|_| bad())?, y.parse().map_err(|_| bad())?])
        })
        .collect()
}

async fn auto(
    State(state): State<Arc<AppState>>,
    Params(q): Params<AutoQuery>,
) -> Result<impl IntoResponse, ApiError> {
    let req = capped(live::PlanRequest {
        from: live::PositionRequest {
            start: live::Start {
                width: q.width,
                height: q.height,
                colors: q.colors,
                seed: q.seed,
                board: q.board.map(|b| b.replace('/', "\n")),
            },
            rules: samegame::trace::RulesRecord {
                points: q.points,
                clear_bonus: q.clear_bonus,
                min_group: q.min_group,
            },
            moves: parse_moves(&q.moves)?,
            ..Default::default()
        },
        goal: q.goal,
        search: q.search,
        width: q.beam,
        level: q.level,
        iterations: q.iterations,
        seed: q.search_seed,
    });
    // Bad input is a 400 before the stream opens.
    req.check()?;
    let deadline = Duration::from_secs(q.seconds.max(1));
    Ok(streamed_within(state, deadline, move |abort, send| {
        // At most five progress events a second.
        let start = Instant::now();
        let last = AtomicU64::new(0);
        let say = |p: Progress| {
            let now = start.elapsed().as_millis() as u64;
            let before = last.load(Ordering::Relaxed);
            if !p.message.is_empty()
                && now >= before + 200
                && last.compare_exchange(before, now, Ordering::Relaxed, Ordering::Relaxed).is_ok()
            {
                send("progress", json!({ "message": p.message, "seconds": now as f64 / 1000.0 }));
            }
        };
        let ctl = Control::new().with_abort(abort).with_progress(&say);
        let plan = live::plan(&req, ctl)?;
        send("plan", json!({ "moves": plan.moves, "frames": plan.frames }));
        Ok(json!({
            "points": plan.points,
            "score": plan.score,
            "cleared": plan.cleared,
            "tiles_left": plan.tiles_left,
            "search": plan.search,
            "nodes": plan.nodes,
            "seconds": plan.seconds,
            "stopped": plan.stopped,
            "played": plan.moves.len(),
        }))
    }))
}
