//! The bounded pool for solver work: at most `workers` jobs run at once (each on a blocking
//! thread, off the async ones), the rest wait in arrival order with their place known, every
//! job has a deadline after which its abort flag is set, and a job whose client has gone is
//! aborted (its future is dropped, and the guard sets the flag).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How long past its deadline a job may take to notice its abort flag before it counts as
/// over budget (the engines check the flag every few milliseconds).
pub const GRACE: Duration = Duration::from_millis(250);

/// Sets the abort flag when dropped: held by the request's future, so a client that goes
/// away stops its job.
#[derive(Debug)]
pub struct AbortOnDrop(pub Arc<AtomicBool>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The pool's counters (served at `/api/health`).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct PoolStats {
    /// Jobs allowed to run at once.
    pub workers: usize,
    /// Jobs running now.
    pub running: u64,
    /// Jobs waiting for a worker.
    pub queued: u64,
    /// Jobs finished (or aborted) since the start.
    pub finished: u64,
    /// Jobs that ran longer than their deadline plus [`GRACE`] (should stay 0).
    pub over_budget: u64,
    /// Jobs aborted, by their deadline or because their client went away.
    pub aborted: u64,
}

/// The pool.
#[derive(Debug)]
pub struct Pool {
    slots: Arc<Semaphore>,
    workers: usize,
    tickets: AtomicU64,
    served: AtomicU64,
    counts: Arc<Counts>,
}

/// What the blocking side counts (it outlives a dropped request).
#[derive(Debug, Default)]
struct Counts {
    running: AtomicU64,
    finished: AtomicU64,
    over_budget: AtomicU64,
    aborted: AtomicU64,
}

/// A job's place in the queue while it waits; leaving the queue (a worker, or the client
/// gone) moves everyone behind up by one.
struct Waiting<'p> {
    pool: &'p Pool,
    ticket: u64,
}

impl Waiting<'_> {
    /// Jobs ahead of this one (0: next to run).
    fn ahead(&self) -> u64 {
        self.ticket.saturating_sub(self.pool.served.load(Ordering::Relaxed))
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.pool.served.fetch_add(1, Ordering::Relaxed);
    }
}

impl Pool {
    /// A pool of `workers` (at least 1).
    pub fn new(workers: usize) -> Pool {
        let workers = workers.max(1);
        Pool {
            slots: Arc::new(Semaphore::new(workers)),
            workers,
            tickets: AtomicU64::new(0),
            served: AtomicU64::new(0),
            counts: Arc::default(),
        }
    }

    /// The counters now.
    pub fn stats(&self) -> PoolStats {
        let tickets = self.tickets.load(Ordering::Relaxed);
        let served = self.served.load(Ordering::Relaxed);
        PoolStats {
            workers: self.workers,
            running: self.counts.running.load(Ordering::Relaxed),
            queued: tickets - served,
            finished: self.counts.finished.load(Ordering::Relaxed),
            over_budget: self.counts.over_budget.load(Ordering::Relaxed),
            aborted: self.counts.aborted.load(Ordering::Relaxed),
        }
    }

    /// Runs `job` on a blocking thread once a worker is free, with `abort` set after
    /// `deadline` (or when the returned future is dropped). `waiting` is called with the
    /// number of jobs ahead, now and every quarter second while the job waits.
    pub async fn run<T, F>(
        &self,
        deadline: Duration,
        abort: Arc<AtomicBool>,
        mut waiting: impl FnMut(u64),
        job: F,
    ) -> Option<T>
    where
        T: Send + 'static,
        F: FnOnce(&AtomicBool) -> T + Send + 'static,
    {
        let _guard = AbortOnDrop(abort.clone());
        let ticket = self.tickets.fetch_add(1, Ordering::Relaxed);
        let place = Waiting { pool: self, ticket };
        let acquire = self.slots.clone().acquire_owned();
        tokio::pin!(acquire);
        let permit: OwnedSemaphorePermit = loop {
            waiting(place.ahead());
            tokio::select! {
                p = &mut acquire => break p.ok()?,
                _ = tokio::time::sleep(Duration::from_millis(250)) => {}
            }
        };
        drop(place);
        let counts = self.counts.clone();
        counts.running.fetch_add(1, Ordering::Relaxed);
        let flag = abort.clone();
        let timer = tokio::spawn(async move {
            tokio::time::sleep(deadline).await;
            flag.store(true, Ordering::Relaxed);
        });
        // The permit and the counting move into the blocking task: the worker is free only
        // when the work has really stopped, even if this future is dropped first.
        let out = tokio::task::spawn_blocking(move || {
            let start = Instant::now();
            let out = job(&abort);
            if start.elapsed() > deadline + GRACE {
                counts.over_budget.fetch_add(1, Ordering::Relaxed);
            }
            if abort.load(Ordering::Relaxed) {
                counts.aborted.fetch_add(1, Ordering::Relaxed);
            }
            counts.running.fetch_sub(1, Ordering::Relaxed);
            counts.finished.fetch_add(1, Ordering::Relaxed);
            drop(permit);
            out
        })
        .await;
        timer.abort();
        out.ok()
    }
}
