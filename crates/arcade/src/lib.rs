#![doc = include_str!("../README.md")]

pub mod games;
pub mod openapi;
mod parse_errors;
pub mod pool;
mod routes;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

pub use routes::{router, BODY_TIMEOUT};

/// The limits the server puts on every job, whatever the request asks.
#[derive(Debug, Clone, Copy)]
pub struct Caps {
    /// Wall-clock seconds a hint may take (its abort flag is set then).
    pub hint_seconds: u64,
    /// Wall-clock seconds a streamed run (a whole game) may take.
    pub run_seconds: u64,
    /// Largest request body in bytes.
    pub max_body: usize,
    /// What every game's solver is clamped to: nodes, depth, time and table per decision, beam
    /// width, moves a run.
    pub solver: bits::live::Caps,
}

impl Default for Caps {
    fn default() -> Self {
        Caps {
            hint_seconds: 10,
            run_seconds: 1800,
            max_body: 4 << 20,
            solver: bits::live::Caps {
                millis: 2_000,
                moves: 100_000,
                ..bits::live::Caps::default()
            },
        }
    }
}

/// How to run the server.
#[derive(Debug, Clone)]
pub struct Config {
    /// The address to bind (127.0.0.1 unless the user says otherwise).
    pub host: String,
    /// The port (0: any free port).
    pub port: u16,
    /// Solver jobs allowed at once (default: the machine's cores).
    pub workers: usize,
    /// The caps on every job.
    pub caps: Caps,
    /// Seconds a connection may take to send a request's headers; an idle keep-alive
    /// connection is closed after as long.
    pub header_seconds: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            host: "127.0.0.1".to_string(),
            port: 8080,
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            caps: Caps::default(),
            header_seconds: 10,
        }
    }
}

/// What every route shares.
#[derive(Debug)]
pub struct AppState {
    /// The solver pool.
    pub pool: pool::Pool,
    /// The caps.
    pub caps: Caps,
    /// Set once the server is shutting down (jobs stopped then say so).
    pub stopping: AtomicBool,
    jobs: Mutex<Vec<Weak<AtomicBool>>>,
}

impl AppState {
    /// A state with `workers` solver slots and `caps`.
    pub fn new(workers: usize, caps: Caps) -> Arc<AppState> {
        Arc::new(AppState {
            pool: pool::Pool::new(workers),
            caps,
            stopping: AtomicBool::new(false),
            jobs: Mutex::new(Vec::new()),
        })
    }

    /// A new job's abort flag, remembered so that shutdown can stop every job.
    pub fn job_flag(&self) -> Arc<AtomicBool> {
        let flag = Arc::new(AtomicBool::new(false));
        let mut jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        jobs.retain(|w| w.strong_count() > 0);
        jobs.push(Arc::downgrade(&flag));
        flag
    }

    /// The answer for a job's error: a job stopped at shutdown says so; one stopped otherwise
    /// ran out of time (or its client left, and nobody reads the answer).
    pub fn error(&self, e: bits::job::Error) -> ApiError {
        match e {
            bits::job::Error::Aborted if self.stopping.load(Ordering::Relaxed) => ApiError {
                status: StatusCode::SERVICE_UNAVAILABLE,
                message: "the job was stopped: the server is shutting down".into(),
            },
            e => ApiError::from(e),
        }
    }

    /// Sets every live job's abort flag (at shutdown, so open streams end).
    pub fn abort_all(&self) {
        let jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        for f in jobs.iter().filter_map(Weak::upgrade) {
            f.store(true, Ordering::Relaxed);
        }
    }
}

/// An error answer: a status and the one-line message, as `{"error": "..."}`.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The message (the CLI's, for bad input).
    pub message: String,
}

impl ApiError {
    /// A 400 with `message`.
    pub fn bad(message: impl Into<String>) -> Self {
        ApiError { status: StatusCode::BAD_REQUEST, message: message.into() }
    }
}

impl From<bits::job::Error> for ApiError {
    fn from(e: bits::job::Error) -> Self {
        let status = match e {
            bits::job::Error::Input(_) => StatusCode::BAD_REQUEST,
            bits::job::Error::Failed(_) => StatusCode::INTERNAL_SERVER_ERROR,
            bits::job::Error::Aborted => StatusCode::SERVICE_UNAVAILABLE,
        };
        let message = match e {
            bits::job::Error::Aborted => "the job was stopped: its time budget ran out".to_string(),
            e => e.message().to_string(),
        };
        ApiError { status, message }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        // One line, whatever the message quotes (serde quotes the input's own text).
        let message = self.message.replace('\r', "\\r").replace('\n', "\\n");
        (self.status, Json(serde_json::json!({ "error": message }))).into_response()
    }
}

fn is_loopback(host: &str) -> bool {
    host == "localhost" || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Binds, prints the URL, and serves until Ctrl-C (then stops every job and drains).
pub async fn serve(config: Config) -> std::io::Result<()> {
    serve_with(config, |_| {}).await
}

/// [`serve`], calling `ready` with the page's URL once the port is bound.
pub async fn serve_with(config: Config, ready: impl FnOnce(&str)) -> std::io::Result<()> {
    serve_until(config, ready, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
}

/// [`serve_with`], stopping when `stop` completes instead of at Ctrl-C.
///
/// Each connection is HTTP/1.1 with its own timeouts: a request's headers must arrive within
/// [`Config::header_seconds`] (an idle keep-alive connection is closed after as long), and
/// its body within [`BODY_TIMEOUT`]. At the stop every job's abort flag is set (the jobs end
/// with "the server is shutting down"), and open connections get a moment to finish.
pub async fn serve_until(
    config: Config,
    ready: impl FnOnce(&str),
    stop: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let state = AppState::new(config.workers, config.caps);
    let listener = tokio::net::TcpListener::bind((config.host.as_str(), config.port)).await?;
    let addr: SocketAddr = listener.local_addr()?;
    if !is_loopback(&config.host) {
        eprintln!(
            "bitarcade serve: WARNING: listening on {addr}, reachable from other machines; \
             the arcade has no authentication. Use --host 127.0.0.1 to keep it local."
        );
    }
    let url = format!("http://{addr}/");
    println!("bitarcade arcade: {url}  (Ctrl-C to stop)");
    ready(&url);
    let app = router(state.clone());
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(Duration::from_secs(config.header_seconds.max(1)));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    tokio::pin!(stop);
    loop {
        let (tcp, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // Out of file descriptors and the like: wait, and take the next.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        // Answers go out at once (no Nagle delay on small JSON replies).
        let _ = tcp.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        let io = hyper_util::rt::TokioIo::new(parse_errors::JsonErrors::new(tcp));
        let conn = http.serve_connection(io, service);
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            let _ = conn.await;
        });
    }
    eprintln!("bitarcade serve: stopping");
    state.stopping.store(true, Ordering::Relaxed);
    state.abort_all();
    // Streams end once their jobs see the flag; give them a moment.
    let _ = tokio::time::timeout(Duration::from_secs(2), graceful.shutdown()).await;
    Ok(())
}
