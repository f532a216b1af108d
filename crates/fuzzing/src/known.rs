//! The defects the targets have found and that are not fixed yet, and a way to fuzz past them.
//!
//! Each [`Known`] names the targets it shows in and how to tell its panic (the panic's file or
//! message). Its inputs are kept in `crates/fuzzing/crashes/<target>/`. The smoke test counts
//! the panics of listed defects instead of failing on them, and fails once an input of
//! `crashes/` stops crashing (the defect is fixed: move the file into `corpus/`, drop the
//! entry). Under cargo-fuzz, `FUZZ_SKIP_KNOWN=1` makes [`skip_known`] return quietly from a
//! listed panic, so that a run looks past the known defects (every other panic still aborts
//! as libFuzzer expects).

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Once, OnceLock};

/// A known defect.
#[derive(Debug)]
pub struct Known {
    /// The targets it shows in.
    pub targets: &'static [&'static str],
    /// Text in the panic's file path (`None`: any file).
    pub location: Option<&'static str>,
    /// Text in the panic's message (`None`: any message).
    pub message: Option<&'static str>,
    /// What is wrong.
    pub about: &'static str,
}

/// Every known defect.
pub const KNOWN: &[Known] = &[];

/// The known defect of `target` that a panic with `message` at `location` shows, if any.
pub fn known(target: &str, message: &str, location: &str) -> Option<&'static Known> {
    KNOWN.iter().find(|k| {
        k.targets.contains(&target)
            && k.location.is_none_or(|l| location.contains(l))
            && k.message.is_none_or(|m| message.contains(m))
    })
}

/// The message of a panic payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

thread_local! {
    /// The target [`skip_known`] is running on this thread.
    static RUNNING: Cell<Option<&'static str>> = const { Cell::new(None) };
    /// Whether the last panic on this thread was a known defect of that target.
    static WAS_KNOWN: Cell<bool> = const { Cell::new(false) };
}

/// Whether `FUZZ_SKIP_KNOWN` is set (to anything but `0` or nothing).
pub fn skipping() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("FUZZ_SKIP_KNOWN").is_ok_and(|v| !v.is_empty() && v != "0"))
}

/// Runs `f`, the body of `target`. With `FUZZ_SKIP_KNOWN` set, a panic of a [`KNOWN`] defect
/// of `target` returns quietly; any other panic goes to the panic hook that was installed
/// before (libFuzzer's, which aborts). Without it, `f` just runs.
pub fn skip_known(target: &'static str, f: impl FnOnce()) {
    if !skipping() {
        return f();
    }
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let before = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if let Some(t) = RUNNING.with(Cell::get) {
                let msg = panic_message(info.payload());
                let at = info.location().map(|l| l.file()).unwrap_or_default();
                if known(t, &msg, at).is_some() {
                    WAS_KNOWN.with(|k| k.set(true));
                    return;
                }
            }
            before(info);
        }));
    });
    RUNNING.with(|r| r.set(Some(target)));
    WAS_KNOWN.with(|k| k.set(false));
    let out = panic::catch_unwind(AssertUnwindSafe(f));
    RUNNING.with(|r| r.set(None));
    if let Err(e) = out {
        if !WAS_KNOWN.with(Cell::get) {
            panic::resume_unwind(e);
        }
    }
}
