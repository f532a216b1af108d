//! `bitarcade stats`: the per-game result rows of long Drop7 and 2048 runs (the files under
//! `crates/drop7/results/` and `crates/twenty48/results/`), their summaries and paired
//! comparisons. The rows, statistics and game detection live in `trials::rows`; this file
//! reads files, parses flags and prints.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use trials::rows::{
    run_rows, Drop7Pair, Drop7Summary, Game, Method, Pair, RowFile, Summary, Twenty48Compare,
    Twenty48Summary,
};

use crate::common::{print_json, read_input, CliError, CliResult, JsonArg};

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
    /// the reach rates of 8192, 16384 and 32768 with Wilson intervals (2048), moves and CPU.
    Summary(SummaryArgs),
    /// Two row files of the same games (Drop7: matched by index, seeds checked; 2048: by
    /// seed): the mean difference A - B with its 95% interval and the wins; for 2048 also
    /// the 16384 and 32768 rates with Fisher's exact test.
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
    Ok(RowFile::parse(&name(path), &text, game)?)
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
        all = Some(match (all, rows) {
            (None, r) => r,
            (Some(RowFile::Drop7(mut x)), RowFile::Drop7(y)) => {
                x.extend(y);
                RowFile::Drop7(x)
            }
            (Some(RowFile::Twenty48(mut x)), RowFile::Twenty48(y)) => {
                x.extend(y);
                RowFile::Twenty48(x)
            }
            (Some(x), y) => {
                return Err(CliError::input(format!(
                    "{n}: a {} report after {} ones: rows of one game at a time",
                    y.game(),
                    x.game()
                )))
            }
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
    if a.figures.json.json {
        return print_json(&s);
    }
    print!(
        "{}",
        match &s {
            Summary::Drop7(s) => drop7_summary(s),
            Summary::Twenty48(s) => twenty48_summary(s),
        }
    );
    Ok(())
}

fn pair(a: PairArgs) -> CliResult {
    let ra = read_rows(&a.a, a.figures.game)?;
    let rb = read_rows(&a.b, a.figures.game)?;
    let p = ra.pair(&rb, a.figures.method())?;
    if a.figures.json.json {
        return print_json(&p);
    }
    print!(
        "{}",
        match &p {
            Pair::Drop7(p) => drop7_pair(p),
            Pair::Twenty48(p) => twenty48_compare(p),
        }
    );
    Ok(())
}

/// A p value for the `--exact` lines: four decimals, or two significant digits below 1e-4
/// (where four decimals would print 0.0000).
fn pval(p: f64) -> String {
    if p < 1e-4 {
        format!("{p:.1e}")
    } else {
        format!("{p:.4}")
    }
}

/// `x` rounded to `decimals` with thousands separators, as Python's `f"{x:,.{decimals}f}"`.
fn grouped(x: f64, decimals: usize) -> String {
    group_digits(&format!("{x:.decimals$}"))
}

/// Thousands separators in the integer part of a decimal string (`-1234.5` -> `-1,234.5`).
fn group_digits(s: &str) -> String {
    let (sign, rest) = s.strip_prefix('-').map_or(("", s), |r| ("-", r));
    let (int, frac) = rest.split_once('.').map_or((rest, ""), |(i, f)| (i, f));
    let mut out = String::from(sign);
    for (k, ch) in int.chars().enumerate() {
        if k > 0 && (int.len() - k) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

fn drop7_summary(s: &Drop7Summary) -> String {
    let mut o = String::new();
    let missing = if s.missing.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = s.missing.iter().map(u64::to_string).collect();
        format!(", missing {}", list.join(", "))
    };
    let _ = writeln!(o, "games {} (indices {}..{}{missing})", s.games, s.first_index, s.last_index);
    let mut line = format!("mean {}", grouped(s.mean, 0));
    if let Some([lo, hi]) = s.ci95 {
        let _ = write!(line, " (95% CI {} .. {})", grouped(lo, 0), grouped(hi, 0));
    }
    let _ = writeln!(
        o,
        "{line}, median {}, best {}, worst {}",
        grouped(s.median, 0),
        group_digits(&s.best.to_string()),
        group_digits(&s.worst.to_string())
    );
    let mut line =
        format!("moves {} ({:.1} a game)", group_digits(&s.moves.to_string()), s.moves_per_game);
    if let (Some(c), Some(per)) = (s.cpu_seconds, s.cpu_seconds_per_move) {
        let _ = write!(line, ", CPU s {} ({per:.2} a move)", grouped(c, 0));
    }
    let _ = writeln!(o, "{line}");
    o
}

fn drop7_pair(p: &Drop7Pair) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "games {} (indices {}..{})", p.games, p.first_index, p.last_index);
    let _ = writeln!(o, "A mean {:.0}, B mean {:.0}", p.a_mean, p.b_mean);
    if let (Some([lo, hi]), Some(t), Some(pv)) = (p.ci95, p.t, p.p) {
        let how = match p.method {
            Method::Published => "normal approx.".to_string(),
            Method::Exact => format!("Student t, {} df", p.games - 1),
        };
        let pv = match p.method {
            Method::Published => format!("{pv:.4}"),
            Method::Exact => pval(pv),
        };
        let _ = writeln!(
            o,
            "A - B {:.0} (95% CI {lo:.0} .. {hi:.0}), paired t {t:.2}, p {pv} (two-sided, {how})",
            p.mean_difference
        );
    }
    let _ = write!(o, "A better in {}, worse in {}", p.a_better, p.a_worse);
    if p.method == Method::Exact {
        let _ = write!(o, " (sign test p {}, exact, ties dropped)", pval(p.sign_p));
    }
    o.push('\n');
    for g in &p.game_list {
        let d = g.a as i128 - g.b as i128;
        let _ = writeln!(o, "  game {}: {} vs {} ({d:+})", g.index, g.a, g.b);
    }
    o
}

fn twenty48_summary(s: &Twenty48Summary) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "games {} (seeds {}..{})", s.games, s.first_seed, s.last_seed);
    let _ = writeln!(
        o,
        "average {} +- {}, median {}, best {}",
        grouped(s.average, 0),
        grouped(s.half, 0),
        grouped(s.median, 0),
        group_digits(&s.best.to_string())
    );
    for t in &s.reach {
        let r = &t.rate;
        let _ = writeln!(
            o,
            "{}: {}/{} = {:.0}% [{:.1}, {:.1}]",
            t.tile,
            r.count,
            r.trials,
            (100 * r.count) as f64 / r.trials as f64,
            100.0 * r.low,
            100.0 * r.high
        );
    }
    let mut line = format!("nodes per move {}", grouped(s.nodes_per_move, 0));
    if let (Some(c), Some(m)) = (s.cpu_seconds_per_game, s.moves_per_cpu_second) {
        let _ = write!(line, ", CPU s per game {c:.1}, game moves per CPU s {m:.1}");
    }
    let _ = writeln!(o, "{line}");
    o
}

fn twenty48_compare(c: &Twenty48Compare) -> String {
    let mut o = String::new();
    for t in &c.tiles {
        let _ = write!(
            o,
            "{}: A {}/{}, B {}/{}, Fisher two-sided p = {:.4}",
            t.tile, t.a_count, t.a_games, t.b_count, t.b_games, t.fisher_p
        );
        if let (Method::Exact, Some(m)) = (c.method, &t.paired) {
            let _ = write!(
                o,
                "; on the common seeds A only {}, B only {}, McNemar p = {}",
                m.a_only,
                m.b_only,
                pval(m.p)
            );
        }
        o.push('\n');
    }
    if let Some(p) = &c.paired {
        let _ = write!(
            o,
            "paired on {} seeds: A - B {} (95% CI {} .. {}), A better in {}, worse in {}",
            p.seeds,
            grouped(p.mean, 0),
            grouped(p.ci95[0], 0),
            grouped(p.ci95[1], 0),
            p.a_better,
            p.a_worse
        );
        if c.method == Method::Exact {
            let _ = write!(
                o,
                "; paired t {:.2}, p {} (Student t, {} df), sign test p {}",
                p.t,
                pval(p.p),
                p.seeds - 1,
                pval(p.sign_p)
            );
        }
        o.push('\n');
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_grouped_like_python() {
        assert_eq!(grouped(1234567.5, 0), "1,234,568");
        assert_eq!(grouped(-29910.2, 0), "-29,910");
        assert_eq!(grouped(999.0, 0), "999");
        assert_eq!(grouped(-0.2, 0), "-0");
        assert_eq!(grouped(12345.678, 2), "12,345.68");
        assert_eq!(group_digits("1000"), "1,000");
        assert_eq!(pval(0.03125), "0.0312");
        assert_eq!(pval(5.6e-8), "5.6e-8");
    }
}
