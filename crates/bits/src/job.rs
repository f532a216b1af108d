//! What every game's API shares: the caller's [`Control`] over a long verb (an abort flag and
//! a progress callback), the [`Error`] a verb returns, and the [`Shard`] of a batch.
//!
//! A front end (the CLI, the web server, Python) builds a request, hands the verb a
//! [`Control`], and reads the typed response. The verb checks [`Control::aborted`] at least
//! every few milliseconds of work and reports [`Progress`] as it goes; neither changes any
//! value the verb computes, so the same request gives the same response through every front
//! end.
//!
//! ```
//! use std::sync::atomic::{AtomicBool, Ordering};
//! use bits::job::{Control, Progress};
//!
//! let stop = AtomicBool::new(false);
//! let seen = std::sync::Mutex::new(Vec::new());
//! let log = |p: Progress| seen.lock().unwrap().push(p.done);
//! let ctl = Control::new().with_abort(&stop).with_progress(&log);
//! ctl.report(Progress::new(1, Some(4)));
//! assert!(!ctl.aborted());
//! stop.store(true, Ordering::Relaxed);
//! assert!(ctl.aborted());
//! assert_eq!(*seen.lock().unwrap(), [1]);
//! ```

use std::fmt;
use std::ops::Range;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};

/// How far a long verb has come: `done` of `total` units (games, layers, iterations, ...),
/// with an optional short message (the current best score, say).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Progress {
    /// Units finished so far.
    pub done: u64,
    /// Units in the whole job, when known.
    pub total: Option<u64>,
    /// A short note for the user (may be empty).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

impl Progress {
    /// `done` of `total` units, no message.
    pub fn new(done: u64, total: Option<u64>) -> Self {
        Progress { done, total, message: String::new() }
    }

    /// The same progress with a message.
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = message.into();
        self
    }
}

/// A progress callback: called from any worker thread, so it must be `Sync`.
pub type ProgressFn<'a> = &'a (dyn Fn(Progress) + Sync);

/// One move of a game as it is played, for a front end that shows the game live (the web
/// arcade streams these; the CLI does not ask for them).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Step {
    /// The game's index in its batch.
    pub game: u64,
    /// Moves played so far, this one included.
    pub moves: u64,
    /// The move in the game's record notation (`L`, `3`, `x,y`, ...).
    pub action: String,
    /// The position after the move, in the game's text form.
    pub state: String,
    /// The score after the move.
    pub score: i64,
    /// The position after the move as the game's timeline frame (JSON), where the verb gives
    /// one (the live contract's `auto` does; `null` otherwise).
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub frame: serde_json::Value,
}

/// A step callback: called from any worker thread, so it must be `Sync`.
pub type StepFn<'a> = &'a (dyn Fn(&Step) + Sync);

/// The caller's hold on a running verb: an optional abort flag and an optional progress
/// callback. `Control::default()` has neither (the verb runs to the end of its budget).
#[derive(Clone, Copy, Default)]
pub struct Control<'a> {
    abort: Option<&'a AtomicBool>,
    progress: Option<ProgressFn<'a>>,
    steps: Option<StepFn<'a>>,
}

impl fmt::Debug for Control<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Control")
            .field("abort", &self.abort.map(|a| a.load(Ordering::Relaxed)))
            .field("progress", &self.progress.is_some())
            .field("steps", &self.steps.is_some())
            .finish()
    }
}

impl<'a> Control<'a> {
    /// No abort flag, no progress callback.
    pub fn new() -> Self {
        Control::default()
    }

    /// Stops the verb once `flag` is set (the verb returns [`Error::Aborted`] or, where the
    /// verb documents it, the best answer found so far).
    pub fn with_abort(mut self, flag: &'a AtomicBool) -> Self {
        self.abort = Some(flag);
        self
    }

    /// Sends progress to `f`.
    pub fn with_progress(mut self, f: ProgressFn<'a>) -> Self {
        self.progress = Some(f);
        self
    }

    /// Sends every move of the games played to `f` (see [`Step`]); verbs that play games
    /// document that they call it. Asking for steps changes no value the verb computes.
    pub fn with_steps(mut self, f: StepFn<'a>) -> Self {
        self.steps = Some(f);
        self
    }

    /// Whether a step callback is set (so a game loop can skip building [`Step`]s).
    pub fn wants_steps(&self) -> bool {
        self.steps.is_some()
    }

    /// Reports one move (does nothing without a step callback).
    pub fn step(&self, s: &Step) {
        if let Some(f) = self.steps {
            f(s);
        }
    }

    /// The abort flag, for engines that take `Option<&AtomicBool>` directly.
    pub fn abort_flag(&self) -> Option<&'a AtomicBool> {
        self.abort
    }

    /// Whether the caller has asked the verb to stop.
    pub fn aborted(&self) -> bool {
        self.abort.is_some_and(|a| a.load(Ordering::Relaxed))
    }

    /// `Err(Error::Aborted)` once the caller has asked the verb to stop.
    pub fn check(&self) -> Result<(), Error> {
        if self.aborted() {
            Err(Error::Aborted)
        } else {
            Ok(())
        }
    }

    /// Runs `f` with a control that also stops once `cap` has passed (`None`: no time cap):
    /// a watcher thread sets a flag of its own when the time is up or when `self` is
    /// aborted, checking every 5 ms. For solvers that stop on the abort flag with the best
    /// answer found so far, this gives them a time budget per decision.
    pub fn within<T>(
        self,
        cap: Option<std::time::Duration>,
        f: impl FnOnce(Control<'_>) -> T,
    ) -> T {
        let Some(end) = cap.and_then(|c| std::time::Instant::now().checked_add(c)) else {
            return f(self);
        };
        let stop = AtomicBool::new(false);
        let done = AtomicBool::new(false);
        let outer = self.abort;
        std::thread::scope(|scope| {
            scope.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    let asked = outer.is_some_and(|a| a.load(Ordering::Relaxed));
                    if asked || std::time::Instant::now() >= end {
                        stop.store(true, Ordering::Relaxed);
                        return;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
            });
            let out = f(self.with_abort(&stop));
            done.store(true, Ordering::Relaxed);
            out
        })
    }

    /// Reports progress (does nothing without a callback).
    pub fn report(&self, p: Progress) {
        if let Some(f) = self.progress {
            f(p);
        }
    }
}

/// Why a verb failed. Every front end maps it the same way: [`Error::Input`] is the user's
/// (exit code 2, HTTP 400, `ValueError`), [`Error::Failed`] is a failed check or write (exit
/// code 1), [`Error::Aborted`] means the caller's abort flag stopped the work.
///
/// The message is one line that says what and where (`board.txt:3:5: ...`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Bad input: a malformed board, an impossible option, a budget out of range.
    Input(String),
    /// The input was fine but the work failed: a record that does not replay, a check.
    Failed(String),
    /// The caller's abort flag stopped the work before it finished.
    Aborted,
}

impl Error {
    /// Bad input.
    pub fn input(msg: impl Into<String>) -> Self {
        Error::Input(msg.into())
    }

    /// A failed check.
    pub fn failed(msg: impl Into<String>) -> Self {
        Error::Failed(msg.into())
    }

    /// The one-line message.
    pub fn message(&self) -> &str {
        match self {
            Error::Input(m) | Error::Failed(m) => m,
            Error::Aborted => "aborted",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}

/// A file a front end read for a verb (a board file, a record, a weight file, a stream): its
/// name as the user gave it (errors name it) and its bytes, or the one-line message the verb
/// reports if it needs the file and the front end could not read it. Every game's API takes
/// its input files as this one type.
///
/// ```
/// use bits::job::InputFile;
///
/// let f = InputFile::text_file("game.json", "{}");
/// assert_eq!(f.text().unwrap(), "{}");
/// let gone = InputFile::unreadable("gone.json", "gone.json: no such file");
/// assert_eq!(gone.text().unwrap_err().message(), "gone.json: no such file");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct InputFile {
    /// The name the user gave (a path, `-`, an upload's name).
    pub name: String,
    /// The contents.
    pub bytes: Vec<u8>,
    /// Why the front end could not read it: the whole error message (the verb returns it as
    /// an input error where it needs the file).
    pub error: Option<String>,
}

impl InputFile {
    /// A file read successfully.
    pub fn new(name: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Self {
        InputFile { name: name.into(), bytes: bytes.into(), error: None }
    }

    /// A text file read successfully.
    pub fn text_file(name: impl Into<String>, text: impl Into<String>) -> Self {
        InputFile::new(name, text.into().into_bytes())
    }

    /// A JSON file holding `value` (a record handed over in memory, say).
    pub fn json<T: serde::Serialize>(name: impl Into<String>, value: &T) -> Self {
        match serde_json::to_string_pretty(value) {
            Ok(text) => InputFile::text_file(name, text),
            Err(e) => {
                let name = name.into();
                let message = format!("{name}: cannot encode JSON: {e}");
                InputFile::unreadable(name, message)
            }
        }
    }

    /// A file that could not be read, with the message to report.
    pub fn unreadable(name: impl Into<String>, message: impl Into<String>) -> Self {
        InputFile { name: name.into(), bytes: Vec::new(), error: Some(message.into()) }
    }

    /// The bytes, or the read error as an input error.
    pub fn contents(&self) -> Result<&[u8], Error> {
        match &self.error {
            Some(m) => Err(Error::input(m.clone())),
            None => Ok(&self.bytes),
        }
    }

    /// The contents as UTF-8 text (an input error naming the file otherwise).
    pub fn text(&self) -> Result<&str, Error> {
        std::str::from_utf8(self.contents()?)
            .map_err(|e| Error::input(format!("{}: not UTF-8 text ({e})", self.name)))
    }
}

/// The input error of a value outside its range, naming the request's field:
/// `field: value, must be LO to HI` (or `must be at least LO`, `must be at most HI`).
///
/// ```
/// use bits::job::check_range;
///
/// assert!(check_range("width", 5, 1..=64).is_ok());
/// assert_eq!(check_range("width", 70, 1..=64).unwrap_err().message(), "width: 70, must be 1 to 64");
/// ```
pub fn check_range<T: PartialOrd + fmt::Display>(
    field: &str,
    value: T,
    range: impl std::ops::RangeBounds<T>,
) -> Result<(), Error> {
    check_range_as(field, value, range, "must be")
}

/// [`check_range`] with another verb before the bounds (`expected 1 to 6`).
pub fn check_range_as<T: PartialOrd + fmt::Display>(
    field: &str,
    value: T,
    range: impl std::ops::RangeBounds<T>,
    verb: &str,
) -> Result<(), Error> {
    use std::ops::Bound::{Included, Unbounded};
    if range.contains(&value) {
        return Ok(());
    }
    let rule = match (range.start_bound(), range.end_bound()) {
        (Included(lo), Included(hi)) => format!("{verb} {lo} to {hi}"),
        (Included(lo), Unbounded) => format!("{verb} at least {lo}"),
        (Unbounded, Included(hi)) => format!("{verb} at most {hi}"),
        _ => "out of range".to_string(),
    };
    Err(Error::input(format!("{field}: {value}, {rule}")))
}

/// `--shard K/N`: part K (1-based) of a batch cut into N contiguous parts, so that the
/// shards `1/N, 2/N, ..., N/N` run one after another are exactly the whole batch, in order.
///
/// ```
/// use bits::job::Shard;
///
/// let s: Shard = "2/3".parse().unwrap();
/// assert_eq!(s.range(10), 3..6);
/// let all: Vec<u64> = (1..=3).flat_map(|k| Shard::new(k, 3).unwrap().range(10)).collect();
/// assert_eq!(all, (0..10).collect::<Vec<_>>());
/// assert!("0/3".parse::<Shard>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "ShardParts")]
pub struct Shard {
    /// Which part, 1-based (`1 <= k <= n`).
    pub k: u64,
    /// How many parts.
    pub n: u64,
}

/// A shard as JSON gives it, checked into a [`Shard`] (`1 <= k <= n`).
#[derive(serde::Deserialize)]
struct ShardParts {
    k: u64,
    n: u64,
}

impl TryFrom<ShardParts> for Shard {
    type Error = String;

    fn try_from(p: ShardParts) -> Result<Shard, String> {
        Shard::new(p.k, p.n).ok_or_else(|| format!("shard {}/{}: expected 1 <= k <= n", p.k, p.n))
    }
}

impl Default for Shard {
    fn default() -> Self {
        Shard::WHOLE
    }
}

impl Shard {
    /// The whole batch (`1/1`).
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// Part `k` of `n`; `None` unless `1 <= k <= n`.
    pub fn new(k: u64, n: u64) -> Option<Self> {
        (k >= 1 && k <= n).then_some(Shard { k, n })
    }

    /// `Ok` for a shard with `1 <= k <= n`, else the input error naming the request's field
    /// (a caller may build a shard by hand; JSON is checked as it is read).
    pub fn check(&self) -> Result<(), Error> {
        match Shard::new(self.k, self.n) {
            Some(_) => Ok(()),
            None => {
                Err(Error::input(format!("shard: {}/{}, expected 1 <= k <= n", self.k, self.n)))
            }
        }
    }

    /// The indices of this part of a batch of `total` items: the `k`-th of `n` contiguous
    /// ranges whose lengths differ by at most one.
    pub fn range(&self, total: u64) -> Range<u64> {
        let cut = |i: u64| ((u128::from(total) * u128::from(i)) / u128::from(self.n)) as u64;
        cut(self.k - 1)..cut(self.k)
    }

    /// Whether item `i` is in this part when items are dealt round-robin (`i mod n == k-1`),
    /// for batches whose order does not matter (sums of counts).
    pub fn deals(&self, i: u64) -> bool {
        i % self.n == self.k - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl FromStr for Shard {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        let err = || Error::input(format!("--shard {s:?}: expected K/N with 1 <= K <= N"));
        let (k, n) = s.split_once('/').ok_or_else(err)?;
        let k: u64 = k.trim().parse().map_err(|_| err())?;
        let n: u64 = n.trim().parse().map_err(|_| err())?;
        Shard::new(k, n).ok_or_else(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `within` stops a verb that waits on its abort flag once the cap has passed, passes
    /// the caller's abort through, and changes nothing without a cap.
    #[test]
    fn within_stops_at_the_cap_and_on_the_callers_abort() {
        use std::time::{Duration, Instant};
        let spin = |c: Control| {
            let t = Instant::now();
            while !c.aborted() && t.elapsed() < Duration::from_secs(20) {
                std::thread::yield_now();
            }
            t.elapsed()
        };
        let took = Control::new().within(Some(Duration::from_millis(50)), spin);
        assert!(took >= Duration::from_millis(50) && took < Duration::from_secs(10), "{took:?}");
        let flag = AtomicBool::new(true);
        let took = Control::new().with_abort(&flag).within(Some(Duration::from_secs(60)), spin);
        assert!(took < Duration::from_secs(10), "{took:?}");
        let out = Control::new().within(None, |c| c.aborted());
        assert!(!out);
    }

    #[test]
    fn shards_concatenate_into_the_whole_batch() {
        for total in [0u64, 1, 2, 7, 64, 1000, 1001] {
            for n in 1..=12u64 {
                let mut next = 0;
                for k in 1..=n {
                    let r = Shard::new(k, n).unwrap().range(total);
                    assert_eq!(r.start, next, "total {total} shard {k}/{n}");
                    assert!(r.end - r.start <= total / n + 1);
                    next = r.end;
                }
                assert_eq!(next, total);
            }
        }
    }

    #[test]
    fn dealt_shards_partition_the_batch() {
        let n = 5;
        for i in 0..100u64 {
            let owners = (1..=n).filter(|&k| Shard::new(k, n).unwrap().deals(i)).count();
            assert_eq!(owners, 1);
        }
    }

    #[test]
    fn bad_shards_are_input_errors_naming_the_flag() {
        for bad in ["", "3", "0/2", "3/2", "1/0", "a/b", "1/2/3", "-1/2"] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(matches!(e, Error::Input(_)), "{bad:?}");
            assert!(e.message().starts_with("--shard"), "{bad:?}: {e}");
        }
        assert_eq!(" 2 / 4 ".parse::<Shard>().unwrap(), Shard { k: 2, n: 4 });
    }

    #[test]
    fn control_without_flag_never_aborts_and_reports_nowhere() {
        let c = Control::new();
        assert!(!c.aborted());
        assert!(c.check().is_ok());
        c.report(Progress::new(1, None));
        let flag = AtomicBool::new(true);
        assert_eq!(Control::new().with_abort(&flag).check(), Err(Error::Aborted));
    }
}
