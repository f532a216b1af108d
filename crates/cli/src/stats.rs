//! `bitarcade stats`: the per-game result rows of long Drop7 and 2048 runs (the files under
//! `crates/drop7/results/` and `crates/twenty48/results/`), their summaries and paired
//! comparisons. The rows, statistics, game detection and text live in `trials::rows`; this
//! file reads files, parses flags and prints.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use trials::rows::{run_rows, Game, Method, RowFile};

use crate::common::{print_json, print_or_json, read_input, CliError, CliResult, JsonArg};

/// Result rows of long runs: one TSV line a game, summaries, paired comparisons.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    bitarcade drop7 play --eval ntuple:@tcb.d7n --depth 5 --seed 1 --first-game 7 --games 1 \\\n      \
    --json > g7.json && bitarcade stats rows g7.json >> crates/drop7/results/FILE.tsv\n  \
    bitarcade 2048 play --games 1 --seed 30000 --json > g30000.json && \\\n      \
    bitarcade stats rows g30000.json >> crates/twenty48/results/FILE.tsv\n  \
    bitarcade stats summary crates/drop7/results/depth5-seed1-ntuple-tcb.tsv\n  \
    bitarcade stats summary crates/twenty48/results/reference-rule-seeds30000.tsv --exact\n  \
    bitarcade stats pair crates/drop7/results/depth4-seed1-ntuple.tsv \
    crates/drop7/results/depth4-seed1.tsv\n  \
    bitarcade stats compare crates/twenty48/results/reference-rule-seeds30000.tsv \
    crates/twenty48/results/budget500k-boost16x5-seeds30000.tsv --json\n\n\
    Row files: Drop7 `index seed score moves level over cpu_seconds search_moves`, 2048 \
    `seed score moves max_tile nodes cpu_seconds`, tab-separated; the game is told by the \
    header or the cell count (or --game). '#' lines are comments. A long run is played in \
    pieces (`play --shard K/N`, or Drop7's `--first-game K --games 1`, or 2048's \
    `--games 1 --seed S`) and each piece's rows appended.\n\n\
    By default the figures are computed as the published ones were (Drop7: a short t table, \
    1.96 past 60 df, paired p by the normal approximation; 2048: z = 1.96); --exact uses \
    Student t quantiles and p values and adds the sign test (and McNemar's test on the tiles \
    of a 2048 comparison).")]
pub struct StatsArgs {
    #[command(subcommand)]
    verb: Verb,
}

#[derive(Subcommand, Debug)]
enum Verb {
    /// TSV rows (no header) of `drop7 play --json` or `2048 play --json` reports, one a game,
    /// to append to a row file. A 2048 report's master seed is the run's --seed (one game)
    /// or FIRST + index (--seeds FIRST..LAST); RUN.time beside RUN.json (`/usr/bin/time -f
    /// "%U %e" -o RUN.time`) gives a one-game run's CPU seconds.
    Rows(RowsArgs),
    /// One row file: games, the mean with its 95% interval, median, best, worst (Drop7) or
    /// the reach rates of 8192, 16384, 32768 and 65536 with Wilson intervals (2048), moves and CPU.
    Summary(SummaryArgs),
    /// Two row files of the same games (Drop7: matched by index, seeds checked; 2048: by
    /// seed): the mean difference A - B with its 95% interval and the wins; for 2048 also
    /// the 16384, 32768 and 65536 rates with Fisher's exact test.
    #[command(visible_alias = "compare")]
    Pair(PairArgs),
}

#[derive(Args, Debug)]
struct RowsArgs {
    /// `play --json` reports (`-` for stdin), all of one game.
    #[arg(required = true, value_name = "RUN.json")]
    runs: Vec<PathBuf>,
    #[command(flatten)]
    json: JsonArg,
}

/// Flags shared by `summary` and `pair`.
#[derive(Args, Debug)]
struct Figures {
    /// The game whose rows the files hold: drop7 or 2048 (default: told by the columns).
    #[arg(long, value_name = "GAME", value_parser = parse_game)]
    game: Option<Game>,
    /// Exact statistics (Student t quantiles and p, sign and McNemar tests) instead of the
    /// published figures' approximations.
    #[arg(long)]
    exact: bool,
    #[command(flatten)]
    json: JsonArg,
}

impl Figures {
    fn method(&self) -> Method {
        if self.exact {
            Method::Exact
        } else {
            Method::Published
        }
    }
}

#[derive(Args, Debug)]
struct SummaryArgs {
    /// The row file (`-` for stdin).
    #[arg(value_name = "FILE.tsv")]
    file: PathBuf,
    #[command(flatten)]
    figures: Figures,
}

#[derive(Args, Debug)]
struct PairArgs {
    /// Row file A (`-` for stdin).
    #[arg(value_name = "A.tsv")]
    a: PathBuf,
    /// Row file B, the same games.
    #[arg(value_name = "B.tsv")]
    b: PathBuf,
    #[command(flatten)]
    figures: Figures,
}

fn parse_game(s: &str) -> Result<Game, String> {
    s.parse().map_err(|e: trials::rows::Error| e.to_string())
}

/// Runs `bitarcade stats ...`.
pub fn run(args: StatsArgs) -> CliResult {
    match args.verb {
        Verb::Rows(a) => rows(a),
        Verb::Summary(a) => summary(a),
        Verb::Pair(a) => pair(a),
    }
}

fn name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

fn read_rows(path: &Path, game: Option<Game>) -> CliResult<RowFile> {
    let text = read_input(path)?;
    RowFile::parse(&name(path), &text, game)
}

fn rows(a: RowsArgs) -> CliResult {
    let mut all: Option<RowFile> = None;
    for path in &a.runs {
        let n = name(path);
        let text = read_input(path)?;
        let time_path = PathBuf::from(format!("{}.time", n.strip_suffix(".json").unwrap_or(&n)));
        let time = if path != Path::new("-") && time_path.exists() {
            Some(read_input(&time_path)?)
        } else {
            None
        };
        let rows = run_rows(&n, &text, time.as_deref())?;
        all = Some(match all {
            None => rows,
            Some(x) => x.then(rows, &n)?,
        });
    }
    let all = all.expect("clap requires one report");
    if a.json.json {
        return print_json(&all);
    }
    for line in all.lines() {
        println!("{line}");
    }
    Ok(())
}

fn summary(a: SummaryArgs) -> CliResult {
    let rows = read_rows(&a.file, a.figures.game)?;
    let s = rows
        .summary(a.figures.method())
        .map_err(|e| CliError::input(format!("{}: {e}", name(&a.file))))?;
    print_or_json(a.figures.json.json, &s)
}

fn pair(a: PairArgs) -> CliResult {
    let ra = read_rows(&a.a, a.figures.game)?;
    let rb = read_rows(&a.b, a.figures.game)?;
    print_or_json(a.figures.json.json, &ra.pair(&rb, a.figures.method())?)
}
