//! Long calls from Python: the work runs on its own thread with the GIL released, while the
//! calling thread wakes every 50 ms to pass on progress and to look for Ctrl-C. Ctrl-C (or any
//! exception the progress callback raises) sets the job's abort flag, waits for the job to stop
//! and raises in Python: KeyboardInterrupt stops a long solve within the verb's own abort
//! latency (about 100 ms).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use bits::job::{Control, Error, Progress};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use serde::de::DeserializeOwned;

/// A verb's error as Python's: input errors are ValueError, failures RuntimeError.
pub fn to_py(e: Error) -> PyErr {
    match e {
        Error::Input(m) => PyValueError::new_err(m),
        Error::Failed(m) => PyRuntimeError::new_err(m),
        Error::Aborted => PyKeyboardInterrupt::new_err("aborted"),
    }
}

/// Reads a request from JSON, refusing fields the request does not have (a misspelt option
/// would otherwise be ignored) with a one-line message naming the field.
pub fn parse<T: DeserializeOwned>(what: &str, json: &str) -> Result<T, Error> {
    // A bad value is named by its path (`request.search.depth: ...`).
    let mut de = serde_json::Deserializer::from_str(json);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let at = if path == "." { what.to_string() } else { format!("{what}.{path}") };
        Error::input(format!("{at}: {}", e.into_inner()))
    })?;
    de.end().map_err(|e| Error::input(format!("{what}: {e}")))?;
    // A misspelt field would otherwise be ignored.
    let mut unknown = Vec::new();
    let _: T = serde_ignored::deserialize(&mut serde_json::Deserializer::from_str(json), |path| {
        unknown.push(path.to_string())
    })
    .map_err(|e| Error::input(format!("{what}: {e}")))?;
    match unknown.first() {
        Some(field) => Err(Error::input(format!("{what}: unknown field `{field}`"))),
        None => Ok(value),
    }
}

/// Runs `job` off the GIL on its own thread; see the module's docs. `progress` is called
/// with `(done, total, message)` at most every 50 ms, on the calling thread.
pub fn run<T: Send>(
    py: Python<'_>,
    progress: Option<&Bound<'_, PyAny>>,
    job: impl FnOnce(Control) -> Result<T, Error> + Send,
) -> PyResult<T> {
    let abort = AtomicBool::new(false);
    let latest: Mutex<Option<Progress>> = Mutex::new(None);
    let wants = progress.is_some();
    let report = |p: Progress| {
        if let Ok(mut l) = latest.lock() {
            *l = Some(p);
        }
    };
    let done = (Mutex::new(false), Condvar::new());
    std::thread::scope(|s| {
        let (abort, report, done) = (&abort, &report, &done);
        let worker = s.spawn(move || {
            let mut ctl = Control::new().with_abort(abort);
            if wants {
                ctl = ctl.with_progress(report);
            }
            // Marks the job done however it ends (a panic unwinds through the guard too).
            struct Done<'a>(&'a (Mutex<bool>, Condvar));
            impl Drop for Done<'_> {
                fn drop(&mut self) {
                    if let Ok(mut d) = self.0 .0.lock() {
                        *d = true;
                    }
                    self.0 .1.notify_all();
                }
            }
            let _done = Done(done);
            job(ctl)
        });
        let mut failed: Option<PyErr> = None;
        loop {
            let finished = py.detach(|| match done.0.lock() {
                Ok(d) if *d => true,
                Ok(d) => done
                    .1
                    .wait_timeout(d, Duration::from_millis(50))
                    .map(|(d, _)| *d)
                    .unwrap_or(true),
                Err(_) => true,
            });
            if let (Some(cb), Some(p)) = (progress, latest.lock().ok().and_then(|mut l| l.take())) {
                if let Err(e) = cb.call1((p.done, p.total, p.message)) {
                    failed = Some(e);
                    break;
                }
            }
            if finished {
                break;
            }
            if let Err(e) = py.check_signals() {
                failed = Some(e);
                break;
            }
        }
        if let Some(e) = failed {
            abort.store(true, Ordering::Relaxed);
            let _ = worker.join();
            return Err(e);
        }
        match worker.join() {
            Ok(out) => out.map_err(to_py),
            Err(_) => Err(PyRuntimeError::new_err("the solver stopped on an internal error")),
        }
    })
}
