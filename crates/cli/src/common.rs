//! What every game's commands share: the error type and its exit codes, the common flags
//! (`--seed`, `--threads`, `--json`, `--record`), input reading with `-` for stdin, JSON output
//! and progress bars on stderr.

use std::io::Read;
use std::path::{Path, PathBuf};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

/// Why a command failed, which decides the exit code.
#[derive(Debug)]
pub enum CliError {
    /// Bad input from the user (a malformed board, an impossible option): exit code 2.
    Input(String),
    /// The input was fine but the work failed (a record that does not replay, I/O while
    /// writing): exit code 1.
    Failed(String),
}

impl CliError {
    /// Bad input, exit code 2.
    pub fn input(msg: impl Into<String>) -> Self {
        CliError::Input(msg.into())
    }

    /// A failed check or I/O error, exit code 1.
    pub fn failed(msg: impl Into<String>) -> Self {
        CliError::Failed(msg.into())
    }

    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Input(_) => 2,
            CliError::Failed(_) => 1,
        }
    }

    /// The one-line message.
    pub fn message(&self) -> &str {
        match self {
            CliError::Input(m) | CliError::Failed(m) => m,
        }
    }
}

impl From<bits::job::Error> for CliError {
    fn from(e: bits::job::Error) -> Self {
        match e {
            bits::job::Error::Input(m) => CliError::Input(m),
            bits::job::Error::Failed(m) => CliError::Failed(m),
            bits::job::Error::Aborted => CliError::failed("aborted"),
        }
    }
}

/// The result of a command.
pub type CliResult<T = ()> = Result<T, CliError>;

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

/// `train --method` (2048 and Drop7 networks): TD(0) steps or temporal coherence.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LearnMethod {
    Td,
    Tc,
}

/// Writes `bytes` to `path` through `path.tmp` and a rename, so a reader, or a run stopped in
/// the middle of a checkpoint, never sees half a file.
pub fn write_file_atomic(path: &Path, bytes: &[u8]) -> CliResult {
    let tmp = PathBuf::from(format!("{}.tmp", path.display()));
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| CliError::failed(format!("{}: cannot write: {e}", path.display())))
}

/// The TC accumulator file that goes with weight file `path`: `path.tc`.
pub fn coherence_path(path: &Path) -> PathBuf {
    PathBuf::from(format!("{}.tc", path.display()))
}
