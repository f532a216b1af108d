//! What every game's commands share: the error type and its exit codes, the common flags
//! (`--seed`, `--threads`, `--json`, `--record`), input reading with `-` for stdin, JSON output
//! and progress bars on stderr.

use std::collections::HashMap;
use std::fmt::Display;
use std::io::{IsTerminal, Read};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

/// Why a command failed: the API's error. [`Error::Input`](bits::job::Error::Input) is bad
/// input from the user (exit code 2); a failed check or write, or an abort, exits with 1.
pub type CliError = bits::job::Error;

/// The process exit code for an error.
pub fn exit_code(e: &CliError) -> i32 {
    match e {
        CliError::Input(_) => 2,
        CliError::Failed(_) | CliError::Aborted => 1,
    }
}

/// The result of a command.
pub type CliResult<T = ()> = Result<T, CliError>;

/// A request's range (the API's one copy of it) as clap's parsers of small integers take it,
/// so that the flag and the request accept the same values.
pub fn clap_range<T: Copy + Into<i64>>(range: RangeInclusive<T>) -> RangeInclusive<i64> {
    (*range.start()).into()..=(*range.end()).into()
}

/// `--seed S`: every random choice derives from it, so the same seed gives the same output.
#[derive(Args, Debug, Clone, Copy)]
pub struct SeedArg {
    /// Seed of the xoshiro256** generator (see `bits::rng`); same seed, same output.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
}

/// `--threads N`: the size of the worker pool; the output is the same for every N.
#[derive(Args, Debug, Clone, Copy)]
pub struct ThreadsArg {
    /// Worker threads (default: all cores). The output is identical for any value.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

impl ThreadsArg {
    /// Runs `f` inside a rayon pool of the requested size.
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> CliResult<R> {
        let mut builder = rayon::ThreadPoolBuilder::new();
        if let Some(n) = self.threads {
            builder = builder.num_threads(usize::from(n));
        }
        let pool = builder
            .build()
            .map_err(|e| CliError::failed(format!("cannot start the thread pool: {e}")))?;
        Ok(pool.install(f))
    }
}

/// `--json`: print the result as one JSON document on stdout.
#[derive(Args, Debug, Clone, Copy)]
pub struct JsonArg {
    /// Print the result as one JSON document on stdout instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `--record FILE`: write a JSON game record that `replay` can check.
#[derive(Args, Debug, Clone)]
pub struct RecordArg {
    /// Write a JSON game record (every move and random draw) to FILE; check it with `replay`.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
}

/// Reads a whole input file; `-` reads standard input.
pub fn read_input(path: &Path) -> CliResult<String> {
    if path == Path::new("-") {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| CliError::input(format!("<stdin>: cannot read: {e}")))?;
        Ok(s)
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| CliError::input(format!("{}: cannot read: {e}", path.display())))
    }
}

/// A file for an API request: its name as the user gave it and its contents, or the message
/// the API reports if it needs the file (the read errors of [`read_input`], as exit code 2).
pub fn input_file(path: &Path) -> bits::job::InputFile {
    let name = path.display().to_string();
    match read_input(path) {
        Ok(text) => bits::job::InputFile::text_file(name, text),
        Err(e) => bits::job::InputFile::unreadable(name, e.to_string()),
    }
}

/// Reads a whole file's bytes, naming the file on error.
pub fn read_bytes(path: &Path) -> CliResult<Vec<u8>> {
    std::fs::read(path)
        .map_err(|e| CliError::input(format!("{}: cannot read: {e}", path.display())))
}

/// Prints the response as JSON with `--json`, else its text (the API's `Display`).
pub fn print_or_json<T: Serialize + Display>(json: bool, value: &T) -> CliResult {
    if json {
        return print_json(value);
    }
    print!("{value}");
    Ok(())
}

/// A report's JSON with the file the command wrote first.
#[derive(Serialize)]
pub struct WithOut<'a, T> {
    /// The file written.
    pub out: String,
    /// The API's report.
    #[serde(flatten)]
    pub report: &'a T,
}

/// Writes the records of `--record`: one record as itself, several as a list.
pub fn write_records<T: Serialize>(path: &Path, records: &[T]) -> CliResult {
    match records {
        [one] => write_json_file(path, one),
        all => write_json_file(path, &all),
    }
}

/// Prints `value` as one pretty JSON document on stdout.
pub fn print_json<T: Serialize>(value: &T) -> CliResult {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| CliError::failed(format!("cannot encode JSON: {e}")))?;
    println!("{text}");
    Ok(())
}

/// Writes `value` as JSON to `path` (`-` for stdout).
pub fn write_json_file<T: Serialize>(path: &Path, value: &T) -> CliResult {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| CliError::failed(format!("cannot encode JSON: {e}")))?;
    if path == Path::new("-") {
        println!("{text}");
        return Ok(());
    }
    std::fs::write(path, text + "\n")
        .map_err(|e| CliError::failed(format!("{}: cannot write: {e}", path.display())))
}

/// Parses a JSON document read from `path`, naming the file, line and column on error.
pub fn read_json_file<T: serde::de::DeserializeOwned>(path: &Path) -> CliResult<T> {
    let text = read_input(path)?;
    serde_json::from_str(&text).map_err(|e| {
        CliError::input(format!(
            "{}:{}:{}: not a valid record: {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })
}

/// A progress bar on stderr (drawn only when stderr is a terminal, so logs and pipes stay
/// clean).
pub fn progress(len: u64, label: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), indicatif::ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} {elapsed_precise} eta {eta} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.set_prefix(label.to_string());
    bar
}

/// A progress callback that moves `bar` (and sets its length when the verb knows it). A
/// message goes to the bar on a terminal; otherwise, when `log` names the game, to stderr as
/// `log message (N s)` at most once a minute (once a minute per game with `per_game`, the
/// game being the message up to its first `:`).
pub fn follow<'a>(
    bar: &'a ProgressBar,
    log: &'a str,
    per_game: bool,
) -> impl Fn(bits::job::Progress) + Sync + 'a {
    let terminal = std::io::stderr().is_terminal();
    let started = Instant::now();
    let last_line = Mutex::new(HashMap::<String, Instant>::new());
    move |p| {
        if let Some(total) = p.total {
            bar.set_length(total);
        }
        bar.set_position(p.done);
        if p.message.is_empty() {
            return;
        }
        if terminal || log.is_empty() {
            bar.set_message(p.message);
            return;
        }
        let key = if per_game { p.message.split(':').next().unwrap_or_default() } else { "" };
        let mut last = last_line.lock().unwrap_or_else(|e| e.into_inner());
        let t = last.entry(key.to_string()).or_insert(started);
        if t.elapsed().as_secs() >= 60 {
            *t = Instant::now();
            eprintln!("{log} {} ({:.0} s)", p.message, started.elapsed().as_secs_f64());
        }
    }
}

/// `train --method` (2048 and Drop7 networks): TD(0) steps or temporal coherence.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LearnMethod {
    Td,
    Tc,
}

impl From<bits::learn::Method> for LearnMethod {
    fn from(m: bits::learn::Method) -> Self {
        match m {
            bits::learn::Method::Td => LearnMethod::Td,
            bits::learn::Method::Tc => LearnMethod::Tc,
        }
    }
}

impl From<LearnMethod> for bits::learn::Method {
    fn from(m: LearnMethod) -> Self {
        match m {
            LearnMethod::Td => bits::learn::Method::Td,
            LearnMethod::Tc => bits::learn::Method::Tc,
        }
    }
}

/// Writes `bytes` to `path` through a temporary file beside it (named for this process, so
/// two runs writing one path do not share it), flushed to disk before a rename, so a reader,
/// a run stopped in the middle of a checkpoint or a machine that loses power never sees half
/// a file. The temporary is removed if the write fails.
pub fn write_file_atomic(path: &Path, bytes: &[u8]) -> CliResult {
    use std::io::Write;
    write_stream_atomic(path, |f| f.write_all(bytes))
}

/// [`write_file_atomic`] with the contents written by `fill` into a buffered writer (for
/// files too big to hold twice in memory).
pub fn write_stream_atomic(
    path: &Path,
    fill: impl FnOnce(&mut std::io::BufWriter<&mut std::fs::File>) -> std::io::Result<()>,
) -> CliResult {
    let io = |e: std::io::Error| CliError::failed(format!("{}: cannot write: {e}", path.display()));
    bits::atomic::write_atomic(path, |w| fill(w).map_err(io), |_, _| Ok(()), io)
}

/// The TC accumulator file that goes with weight file `path`: `path.tc`.
pub fn coherence_path(path: &Path) -> PathBuf {
    PathBuf::from(format!("{}.tc", path.display()))
}
