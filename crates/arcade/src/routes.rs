//! The router: static assets, health, the per-game routes, and the pieces every game's
//! routes share (the JSON body extractor, pooled jobs, streamed runs).

use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{FromRequest, FromRequestParts, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use tokio_stream::wrappers::UnboundedReceiverStream;
use tokio_stream::{Stream, StreamExt};

use crate::pool::AbortOnDrop;
use crate::{ApiError, AppState};

/// The page's files, embedded at build time.
const ASSETS: &[(&str, &str, &str)] = &[
    ("index.html", "text/html; charset=utf-8", include_str!("../assets/index.html")),
    ("app.css", "text/css; charset=utf-8", include_str!("../assets/app.css")),
    ("app.js", "text/javascript; charset=utf-8", include_str!("../assets/app.js")),
    ("timeline.js", "text/javascript; charset=utf-8", include_str!("../assets/timeline.js")),
    ("2048.js", "text/javascript; charset=utf-8", include_str!("../assets/2048.js")),
    ("snake.js", "text/javascript; charset=utf-8", include_str!("../assets/snake.js")),
    ("samegame.js", "text/javascript; charset=utf-8", include_str!("../assets/samegame.js")),
    ("home.js", "text/javascript; charset=utf-8", include_str!("../assets/home.js")),
    ("tetris.js", "text/javascript; charset=utf-8", include_str!("../assets/tetris.js")),
    ("drop7.js", "text/javascript; charset=utf-8", include_str!("../assets/drop7.js")),
    ("bits.js", "text/javascript; charset=utf-8", include_str!("../assets/bits.js")),
];

/// The whole application over `state`.
pub fn router(state: Arc<AppState>) -> Router {
    let limit = state.caps.max_body;
    Router::new()
        .route("/", get(|| async { asset("index.html") }))
        .route(
            "/assets/{name}",
            get(|uri: axum::http::Uri| async move {
                let name = uri.path().trim_start_matches("/assets/");
                if !well_encoded(name) || name.contains('%') {
                    return ApiError::bad(format!("no asset {name:?}: bad characters in its name"))
                        .into_response();
                }
                asset(name)
            }),
        )
        .route("/{page}", get(game_page))
        .route("/api/health", get(health))
        .merge(crate::games::all())
        .fallback(|| async {
            ApiError { status: StatusCode::NOT_FOUND, message: "no such page".into() }
        })
        .method_not_allowed_fallback(|method: axum::http::Method| async move {
            ApiError {
                status: StatusCode::METHOD_NOT_ALLOWED,
                message: format!("{method} is not allowed here"),
            }
        })
        .layer(axum::extract::DefaultBodyLimit::max(limit))
        .with_state(state)
}

/// With `BITARCADE_ASSETS=DIR` set, the page's files are read from `DIR` on every request
/// instead of the copies built into the binary, new files included (for working on the page
/// without rebuilding; names are plain `name.js`, `name.css` or `name.html`).
fn asset(name: &str) -> Response {
    let mime = |n: &str| match n.rsplit_once('.').map(|(_, e)| e) {
        Some("js") => Some("text/javascript; charset=utf-8"),
        Some("css") => Some("text/css; charset=utf-8"),
        Some("html") => Some("text/html; charset=utf-8"),
        _ => None,
    };
    let plain = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
        && !name.starts_with('.');
    let from_disk = std::env::var_os("BITARCADE_ASSETS")
        .filter(|_| plain)
        .and_then(|dir| std::fs::read_to_string(std::path::Path::new(&dir).join(name)).ok());
    let found = match (from_disk, ASSETS.iter().find(|(n, _, _)| *n == name)) {
        (Some(text), _) => mime(name).map(|m| (m, text)),
        (None, Some((_, m, body))) => Some((*m, (*body).to_string())),
        (None, None) => None,
    };
    match found {
        Some((mime, body)) => {
            ([(header::CONTENT_TYPE, mime), (header::CACHE_CONTROL, "no-cache")], body)
                .into_response()
        }
        None => ApiError { status: StatusCode::NOT_FOUND, message: format!("no asset {name:?}") }
            .into_response(),
    }
}

/// `/2048` and the like: the game's page (`/#/2048`); anything else is a 404.
async fn game_page(uri: axum::http::Uri) -> Response {
    let page = uri.path().trim_start_matches('/');
    match crate::games::GAMES.iter().find(|g| g.name == page) {
        Some(g) => axum::response::Redirect::to(&format!("/#/{}", g.name)).into_response(),
        None => ApiError { status: StatusCode::NOT_FOUND, message: "no such page".into() }
            .into_response(),
    }
}

async fn health(State(state): State<Arc<AppState>>) -> Json<Value> {
    Json(json!({ "ok": true, "version": env!("CARGO_PKG_VERSION"), "pool": state.pool.stats() }))
}

/// A record as the page saves it: pretty JSON with a newline, exactly as the CLI's
/// `--record` writes the file.
pub fn record_file<T: serde::Serialize>(record: &T) -> Result<Response, ApiError> {
    let text = serde_json::to_string_pretty(record).map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text + "\n").into_response())
}

/// How long a request's body may take to arrive.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// A JSON body whose rejection is a 400 with a one-line message (a 408 when it does not
/// arrive within [`BODY_TIMEOUT`]).
pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match tokio::time::timeout(BODY_TIMEOUT, Json::<T>::from_request(req, state)).await {
            Ok(Ok(Json(v))) => Ok(Body(v)),
            Ok(Err(r)) => Err(ApiError::bad(format!("request body: {}", r.body_text()))),
            Err(_) => Err(ApiError {
                status: StatusCode::REQUEST_TIMEOUT,
                message: format!("request body: not received within {} s", BODY_TIMEOUT.as_secs()),
            }),
        }
    }
}

/// Whether `s` is well-formed percent-encoding of UTF-8 (`+` and plain characters allowed).
fn well_encoded(s: &str) -> bool {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = |c: u8| (c as char).to_digit(16);
            match (b.get(i + 1).copied().and_then(hex), b.get(i + 2).copied().and_then(hex)) {
                (Some(h), Some(l)) => out.push((h * 16 + l) as u8),
                _ => return false,
            }
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    std::str::from_utf8(&out).is_ok()
}

/// A query string whose rejection is a 400 with a one-line message.
pub struct Params<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        if !well_encoded(parts.uri.query().unwrap_or("")) {
            return Err(ApiError::bad("query: bad percent-encoding or not UTF-8"));
        }
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(v)) => Ok(Params(v)),
            Err(r) => Err(ApiError::bad(format!("query: {}", r.body_text()))),
        }
    }
}

/// Runs a solver job in the pool with the hint deadline and answers with its JSON.
pub async fn pooled<T, F>(state: &AppState, job: F) -> Result<Json<T>, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&AtomicBool) -> Result<T, bits::job::Error> + Send + 'static,
{
    let deadline = Duration::from_secs(state.caps.hint_seconds);
    match state.pool.run(deadline, state.job_flag(), |_| {}, job).await {
        Some(r) => r.map(Json).map_err(|e| state.error(e)),
        None => Err(ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: "the job failed".into(),
        }),
    }
}

/// What a streamed job sends: `send(name, data)` emits one server-sent event.
pub type Emit<'a> = &'a (dyn Fn(&str, Value) + Sync);

fn event(name: &str, data: &Value) -> Event {
    Event::default().event(name).data(data.to_string())
}

/// Streams a long job as server-sent events: `queued` (`{"ahead": n}`) while it waits,
/// whatever the job sends, then `done` with its result or `failed` with the message. The
/// job's abort flag is set when the client goes away, at `deadline` (at most the server's run
/// deadline) and at shutdown.
pub fn streamed_within<F>(
    state: Arc<AppState>,
    deadline: Duration,
    job: F,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>>
where
    F: FnOnce(&AtomicBool, Emit) -> Result<Value, bits::job::Error> + Send + 'static,
{
    let deadline = deadline.min(Duration::from_secs(state.caps.run_seconds));
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Event>();
    let flag = state.job_flag();
    let guard = AbortOnDrop(flag.clone());
    let watched = flag.clone();
    tokio::spawn(async move {
        let started = std::time::Instant::now();
        let queued = tx.clone();
        let steps = tx.clone();
        let out = state
            .pool
            .run(
                deadline,
                flag,
                move |ahead| {
                    let _ = queued.send(event("queued", &json!({ "ahead": ahead })));
                },
                move |abort| {
                    let send = |name: &str, data: Value| {
                        if steps.send(event(name, &data)).is_err() {
                            abort.store(true, Ordering::Relaxed);
                        }
                    };
                    let out = job(abort, &send);
                    // Whether the job was stopped, read as it ends (the pool sets the flag
                    // once the job is over, to stop its timer's work: that is no stop).
                    (out, abort.load(Ordering::Relaxed))
                },
            )
            .await;
        let (out, stopped) = match out {
            Some((out, stopped)) => (Some(out), stopped),
            None => (None, watched.load(Ordering::Relaxed)),
        };
        // Why a stopped job stopped: the server's shutdown, its deadline, or its client.
        let stopped_by = stopped.then(|| {
            if state.stopping.load(Ordering::Relaxed) {
                "shutdown"
            } else if started.elapsed() >= deadline {
                "deadline"
            } else {
                "client"
            }
        });
        let with_reason = |mut v: Value| {
            if let (Some(by), Some(o)) = (stopped_by, v.as_object_mut()) {
                o.insert("stopped_by".into(), json!(by));
            }
            v
        };
        let last = match out {
            Some(Ok(v)) => event("done", &with_reason(v)),
            Some(Err(e)) => {
                event("failed", &with_reason(json!({ "error": state.error(e).message })))
            }
            None => event("failed", &json!({ "error": "the job failed" })),
        };
        let _ = tx.send(last);
    });
    let stream = UnboundedReceiverStream::new(rx).map(move |e| {
        let _ = &guard;
        Ok(e)
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}
