//! `bitarcade samegame ...`: generate, solve, show, prove and replay SameGame boards.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use serde::Serialize;

use samegame::beam::{self, Config, Eval, Goal, Passes};
use samegame::nested;
use samegame::nrpa;
use samegame::trace::{self, Move, Record};
use samegame::{Board, Points, Rules};

use crate::common::{
    print_json, progress, read_json_file, write_json_file, CliError, CliResult, JsonArg, RecordArg,
    ThreadsArg,
};

/// SameGame: bitplane engine, beam solver, clearability prover.
#[derive(Args, Debug)]
pub struct SameGameArgs {
    #[command(subcommand)]
    command: Verb,
}

#[derive(Subcommand, Debug)]
enum Verb {
    /// Generate random boards (uniform colours from the seeded xoshiro256** stream).
    #[command(after_help = "Examples:\n  \
        bitarcade samegame gen --width 15 --height 15 --colors 5 --seed 7\n  \
        bitarcade samegame gen --width 30 --height 20 --colors 3 --count 10 > boards.txt")]
    Gen {
        /// Columns (1-64).
        #[arg(long, default_value_t = 15)]
        width: usize,
        /// Rows (1-32).
        #[arg(long, default_value_t = 15)]
        height: usize,
        /// Colours (1-8).
        #[arg(long, default_value_t = 5)]
        colors: usize,
        /// Seed of the first board; board k uses seed S + k.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Number of boards (separated by blank lines).
        #[arg(long, default_value_t = 1)]
        count: usize,
        /// Write sgbust's BGF2 binary format to this file instead (one board only).
        #[arg(long, value_name = "FILE")]
        bgf: Option<PathBuf>,
    },
    /// Solve boards with the deterministic beam search (for max score or a full clear).
    #[command(after_help = "Examples:\n  \
        bitarcade samegame solve                              # a generated 15x15, 5 colours\n  \
        bitarcade samegame solve board.txt --width 10000 --json\n  \
        bitarcade samegame solve ../shared/data/samegame-standard-set.txt --width 2000\n  \
        bitarcade samegame solve ../shared/data/samegame-standard-set.txt --search nested --level 2\n  \
        bitarcade samegame solve ../shared/data/samegame-standard-set.txt --search beam-nested -w 60\n  \
        bitarcade samegame solve ../shared/data/samegame-standard-set.txt --search nrpa --level 3 --iterations 100\n  \
        bitarcade samegame solve ../shared/data/samegame-standard-set.txt --search nrpa --level 3 --portfolio strict,-2\n  \
        bitarcade samegame gen --width 30 --height 20 --colors 3 | bitarcade samegame solve - --goal clear --width 5000\n  \
        bitarcade samegame solve grid.bgf --record game.json && bitarcade samegame replay game.json")]
    Solve(SolveArgs),
    /// Print each step of a recorded game with the clicked group marked '*'.
    #[command(after_help = "Examples:\n  \
        bitarcade samegame solve board.txt --record game.json\n  \
        bitarcade samegame show game.json")]
    Show {
        /// A game record written by `solve --record` (`-` for stdin).
        record: PathBuf,
    },
    /// Check a game record: every move legal, every count and total as recorded.
    #[command(after_help = "Examples:\n  bitarcade samegame replay game.json")]
    Replay {
        /// The record (`-` for stdin).
        record: PathBuf,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Measure the engine against the reference engine, and the solver (see BENCHMARKS.md).
    #[command(after_help = "Examples:\n  \
        bitarcade samegame bench --quick\n  \
        bitarcade samegame bench --suite engine --suite game --rounds 7\n  \
        bitarcade samegame bench --suite clear --json\n  \
        bitarcade samegame bench --suite standard --set ../shared/data/samegame-standard-set.txt")]
    Bench {
        /// Suites to run: engine, game, passes, threads, clear, prove, all; and standard (the
        /// 20-board standard set through the default solver; minutes; not part of all).
        #[arg(long, default_values_t = vec!["all".to_string()])]
        suite: Vec<String>,
        /// The standard-set file for --suite standard.
        #[arg(long, default_value = "../shared/data/samegame-standard-set.txt")]
        set: PathBuf,
        /// Rounds per measurement (the median is reported).
        #[arg(long, default_value_t = 5)]
        rounds: usize,
        /// Smaller sizes and widths, for a quick look.
        #[arg(long)]
        quick: bool,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Decide exactly whether a board can be cleared (with a clearing sequence if it can).
    #[command(after_help = "Examples:\n  \
        bitarcade samegame gen --width 7 --height 7 --colors 3 --seed 4 | bitarcade samegame prove -\n  \
        bitarcade samegame prove board.txt --no-refutations --json")]
    Prove {
        /// Board file (text or BGF2; `-` for stdin). Every board of a multi-board file.
        file: PathBuf,
        /// Search without the refutation rules (to count what they save).
        #[arg(long)]
        no_refutations: bool,
        /// Give up after this many positions.
        #[arg(long, default_value_t = 50_000_000)]
        max_nodes: u64,
        #[command(flatten)]
        json: JsonArg,
    },
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum GoalArg {
    Score,
    Clear,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum EvalArg {
    /// Score plus the points of every current group.
    Groups,
    /// Like groups, but the most frequent colour counts as one future group.
    Tabu,
    /// Score plus the best of --playouts tabu-colour random playouts (strongest, slowest).
    Rollout,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SearchArg {
    /// The two-pass parallel beam search (--width, --eval, both goals).
    Beam,
    /// Nested Monte-Carlo search with tabu-colour playouts (--level; score goal only).
    Nested,
    /// The beam first, then a nested search that starts from the beam's answer as its best
    /// sequence (never worse than the beam; score goal only).
    BeamNested,
    /// Nested rollout policy adaptation with a tabu-colour prior (--level, --iterations,
    /// --alpha, --tabu-bias, --size-bias, --runs; score goal only).
    Nrpa,
    /// The beam, then a nested search from its answer (--nested-level, 0 to skip), then NRPA
    /// seeded with that answer as its best game (never worse; score goal only).
    BeamNrpa,
}

#[derive(Args, Debug)]
struct SolveArgs {
    /// Board file: text (rows top first, digits 0-7, '.' empty; blank lines separate boards)
    /// or BGF2; `-` for stdin. Without it, a generated 15x15 5-colour board (--seed).
    file: Option<PathBuf>,
    /// Highest score, or an empty board.
    #[arg(long, value_enum, default_value_t = GoalArg::Score)]
    goal: GoalArg,
    /// Search method.
    #[arg(long, value_enum, default_value_t = SearchArg::Beam)]
    search: SearchArg,
    /// Nesting level of --search nested (1: a playout after every move of every position;
    /// each level costs about 1,000 times the one below on a 15x15 board).
    #[arg(long, default_value_t = 2)]
    level: u32,
    /// NRPA: iterations per level (a level-L search runs ITERATIONS^L playouts).
    #[arg(long, default_value_t = 100)]
    iterations: u32,
    /// NRPA: learning rate.
    #[arg(long, default_value_t = 1.0)]
    alpha: f64,
    /// NRPA: logit added to groups of the tabu colour (default: they are played only when
    /// nothing else is left); `--no-tabu` turns the tabu colour off.
    #[arg(long, allow_hyphen_values = true)]
    tabu_bias: Option<f64>,
    /// NRPA: no tabu colour at all.
    #[arg(long)]
    no_tabu: bool,
    /// NRPA: logit added per tile above two of a group.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    size_bias: f64,
    /// NRPA: a portfolio of priors, one whole search each (same seed), the best kept:
    /// `strict`, `off` or a tabu logit, comma-separated (e.g. `strict,-2`).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true, value_name = "PRIORS",
          conflicts_with_all = ["tabu_bias", "no_tabu"])]
    portfolio: Vec<nrpa::Tabu>,
    /// NRPA: independent runs per board, in parallel (seeds derived from --seed; the same
    /// answer on any thread count).
    #[arg(long, default_value_t = 1)]
    runs: u32,
    /// --search beam-nrpa: level of the nested search between the beam and NRPA (0: none).
    #[arg(long, default_value_t = 2)]
    nested_level: u32,
    /// Beam width: states kept per layer (default: 30 with --eval rollout, else 1000).
    #[arg(long, short = 'w')]
    width: Option<usize>,
    /// Objective of the score goal.
    #[arg(long, value_enum, default_value_t = EvalArg::Rollout)]
    eval: EvalArg,
    /// Weight (percent) of the tabu colour's one-group value.
    #[arg(long, default_value_t = 100)]
    tabu_pct: i64,
    /// Playouts per child for --eval rollout.
    #[arg(long, default_value_t = 4)]
    playouts: u32,
    /// Clear goal: run only the given width (no 16, 64, 256, ... widening first).
    #[arg(long)]
    no_widen: bool,
    /// Penalty per tile in no removable group (clear goal).
    #[arg(long, default_value_t = 100)]
    clear_penalty: i64,
    /// Points per group: (n-2)^2, (n-1)^2 or n(n-1).
    #[arg(long, default_value = "(n-2)^2")]
    points: String,
    /// Bonus for emptying the board.
    #[arg(long, default_value_t = 1000)]
    clear_bonus: i64,
    /// Smallest removable group (overrides a BGF2 file's own value).
    #[arg(long)]
    min_group: Option<u32>,
    /// Solve only board K (1-based) of a multi-board file.
    #[arg(long, value_name = "K")]
    board: Option<usize>,
    /// Run the search this many times, with seeds --seed, --seed + 1, ..., and keep the
    /// best answer (randomized restarts; costs that many times the CPU).
    #[arg(long, default_value_t = 1)]
    restarts: u32,
    /// Seed of the generated default board and of the playouts.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Store every child board instead of replaying survivors (same answer; for measuring).
    #[arg(long)]
    one_pass: bool,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
    #[command(flatten)]
    record: RecordArg,
}

/// Runs `bitarcade samegame`.
pub fn run(args: SameGameArgs) -> CliResult {
    match args.command {
        Verb::Gen { width, height, colors, seed, count, bgf } => {
            gen(width, height, colors, seed, count, bgf)
        }
        Verb::Solve(a) => solve(a),
        Verb::Show { record } => show(&record),
        Verb::Replay { record, json } => replay(&record, json.json),
        Verb::Bench { suite, rounds, quick, set, json } => {
            crate::samegame_bench::bench(&suite, rounds.clamp(1, 101), quick, &set, json.json)
        }
        Verb::Prove { file, no_refutations, max_nodes, json } => {
            crate::samegame_prove::prove(&file, !no_refutations, max_nodes, json.json)
        }
    }
}

fn gen(w: usize, h: usize, c: usize, seed: u64, count: usize, bgf: Option<PathBuf>) -> CliResult {
    if !(1..=samegame::board::MAX_WIDTH).contains(&w) {
        return Err(CliError::input(format!("--width {w}: must be 1 to 64")));
    }
    if !(1..=samegame::board::MAX_HEIGHT).contains(&h) {
        return Err(CliError::input(format!("--height {h}: must be 1 to 32")));
    }
    if !(1..=samegame::board::MAX_COLORS).contains(&c) {
        return Err(CliError::input(format!("--colors {c}: must be 1 to 8")));
    }
    if count == 0 || count > 1_000_000 {
        return Err(CliError::input("--count must be 1 to 1000000"));
    }
    if let Some(path) = bgf {
        let b = Board::random(w, h, c, seed);
        return std::fs::write(&path, b.to_bgf2(2))
            .map_err(|e| CliError::failed(format!("{}: cannot write: {e}", path.display())));
    }
    for k in 0..count {
        if k > 0 {
            println!();
        }
        print!("{}", Board::random(w, h, c, seed.wrapping_add(k as u64)));
    }
    Ok(())
}

/// Reads every board of a file (text or BGF2), with its minimum group size if the file
/// names one.
pub(crate) fn load_boards(path: &Path) -> CliResult<Vec<(Board, Option<u32>)>> {
    let data = if path == Path::new("-") {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut v)
            .map_err(|e| CliError::input(format!("<stdin>: cannot read: {e}")))?;
        v
    } else {
        std::fs::read(path)
            .map_err(|e| CliError::input(format!("{}: cannot read: {e}", path.display())))?
    };
    let name =
        if path == Path::new("-") { "<stdin>".to_string() } else { path.display().to_string() };
    if data.starts_with(b"BGF2") {
        let (b, mg) =
            Board::from_bgf2(&data).map_err(|e| CliError::input(format!("{name}: {e}")))?;
        return Ok(vec![(b, Some(u32::from(mg)))]);
    }
    let text = String::from_utf8(data)
        .map_err(|_| CliError::input(format!("{name}: not UTF-8 text nor BGF2")))?;
    let boards = samegame::board::parse_many(&text).map_err(|(line, e)| {
        CliError::input(format!("{name}: board starting at line {line}: {e}"))
    })?;
    if boards.is_empty() {
        return Err(CliError::input(format!("{name}: no board found")));
    }
    Ok(boards.into_iter().map(|(_, b)| (b, None)).collect())
}

#[derive(Serialize)]
struct Solved {
    board: usize,
    score: i64,
    cleared: bool,
    tiles_left: u32,
    moves: Vec<[u8; 2]>,
    nodes: u64,
    seconds: f64,
}

#[derive(Serialize)]
struct SolveReport {
    goal: &'static str,
    width: usize,
    eval: String,
    threads: usize,
    boards: Vec<Solved>,
    total_score: i64,
    cleared: usize,
    total_seconds: f64,
}

/// The NRPA settings of `solve`'s flags.
fn nrpa_cfg(a: &SolveArgs, rules: Rules, seed: u64) -> nrpa::Config {
    nrpa::Config {
        level: a.level,
        iterations: a.iterations,
        alpha: a.alpha,
        tabu: match (a.no_tabu, a.tabu_bias) {
            _ if a.portfolio.len() == 1 => a.portfolio[0],
            (true, _) => nrpa::Tabu::Off,
            (false, Some(b)) => nrpa::Tabu::Bias(b),
            (false, None) => nrpa::Tabu::Strict,
        },
        size_bias: a.size_bias,
        runs: a.runs,
        rules,
        seed,
    }
}

/// `, portfolio [strict, -2]` when `--portfolio` lists more than one prior.
fn portfolio_note(a: &SolveArgs) -> String {
    match a.portfolio.as_slice() {
        [] | [_] => String::new(),
        ps => format!(
            ", portfolio [{}]",
            ps.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
        ),
    }
}

fn solve(a: SolveArgs) -> CliResult {
    let points: Points =
        a.points.parse().map_err(|e: String| CliError::input(format!("--points: {e}")))?;
    let width = a.width.unwrap_or(match (a.goal, a.eval) {
        (GoalArg::Score, EvalArg::Rollout) => 30,
        _ => 1000,
    });
    if width == 0 || width > 10_000_000 {
        return Err(CliError::input("--width must be 1 to 10000000"));
    }
    if let Some(m) = a.min_group {
        if !(2..=1000).contains(&m) {
            return Err(CliError::input("--min-group must be at least 2"));
        }
    }
    let mut boards = match &a.file {
        Some(f) => load_boards(f)?,
        None => vec![(Board::random(15, 15, 5, a.seed), None)],
    };
    let first_index = match a.board {
        Some(k) => {
            if k == 0 || k > boards.len() {
                return Err(CliError::input(format!(
                    "--board {k}: the file has {} board(s)",
                    boards.len()
                )));
            }
            boards = vec![boards.swap_remove(k - 1)];
            k
        }
        None => 1,
    };
    if a.record.record.is_some() && boards.len() > 1 {
        return Err(CliError::input("--record needs one board: pick one with --board K"));
    }
    let goal = match a.goal {
        GoalArg::Score => Goal::Score,
        GoalArg::Clear => Goal::Clear,
    };
    let eval = match a.eval {
        EvalArg::Groups => Eval::Groups,
        EvalArg::Tabu => Eval::Tabu { tabu_pct: a.tabu_pct },
        EvalArg::Rollout => Eval::Rollout { playouts: a.playouts },
    };
    if a.playouts == 0 || a.playouts > 100_000 {
        return Err(CliError::input("--playouts must be 1 to 100000"));
    }
    if a.restarts == 0 || a.restarts > 10_000 {
        return Err(CliError::input("--restarts must be 1 to 10000"));
    }
    if a.search != SearchArg::Beam {
        if goal != Goal::Score {
            return Err(CliError::input(
                "--search nested and beam-nested: only --goal score is supported",
            ));
        }
        if !(1..=100_000).contains(&a.iterations) || !(1..=1024).contains(&a.runs) {
            return Err(CliError::input("--iterations must be 1 to 100000, --runs 1 to 1024"));
        }
        let finite = a.size_bias.is_finite() && a.tabu_bias.is_none_or(f64::is_finite);
        if !(finite && a.alpha.is_finite() && a.alpha > 0.0) {
            return Err(CliError::input(
                "--alpha, --tabu-bias, --size-bias: finite numbers, alpha > 0",
            ));
        }
        if a.level > 4 || a.nested_level > 3 {
            return Err(CliError::input(format!(
                "--level {} / --nested-level {}: must be 0 to 4 / 0 to 3 (each level costs \
                 ~1,000x the one below)",
                a.level, a.nested_level
            )));
        }
    }
    let mut report = SolveReport {
        goal: match goal {
            Goal::Score => "score",
            Goal::Clear => "clear",
        },
        width,
        eval: match (a.search, goal) {
            (SearchArg::Nested, _) => format!("nested level {}", a.level),
            (SearchArg::BeamNested, _) => format!("{eval:?}, then nested level {}", a.level),
            (SearchArg::Nrpa, _) => {
                format!("nrpa {:?}{}", nrpa_cfg(&a, Rules::default(), a.seed), portfolio_note(&a))
            }
            (SearchArg::BeamNrpa, _) => format!(
                "{eval:?}, then nested level {}, then nrpa {:?}{}",
                a.nested_level,
                nrpa_cfg(&a, Rules::default(), a.seed),
                portfolio_note(&a)
            ),
            (_, Goal::Clear) => "clear-penalty".into(),
            _ => format!("{eval:?}"),
        },
        threads: a.threads.count(),
        boards: Vec::new(),
        total_score: 0,
        cleared: 0,
        total_seconds: 0.0,
    };
    let bar = progress(boards.len() as u64, "solving");
    for (i, (board, file_min)) in boards.iter().enumerate() {
        let rules = Rules {
            points,
            clear_bonus: a.clear_bonus,
            min_group: a.min_group.or(*file_min).unwrap_or(2).max(2),
        };
        let cfg = Config {
            width,
            goal,
            rules,
            eval,
            clear_penalty: a.clear_penalty,
            passes: if a.one_pass { Passes::One } else { Passes::Two },
            widen: !a.no_widen,
            seed: a.seed,
        };
        let start = Instant::now();
        let layer_bar = &bar;
        let run_one = |seed: u64| {
            let cfg = Config { seed, ..cfg };
            if a.search == SearchArg::Nrpa {
                let ncfg = nrpa_cfg(&a, rules, seed);
                return nrpa::search_portfolio(board, &ncfg, &a.portfolio, None, |p| {
                    layer_bar.set_message(format!(
                        "board {}: nrpa iteration {}, best {}, {} playouts",
                        first_index + i,
                        p.iteration,
                        p.best,
                        p.playouts
                    ));
                });
            }
            if a.search == SearchArg::Nested {
                let ncfg = nested::Config { level: a.level, rules, seed };
                return nested::search(board, &ncfg, |p| {
                    layer_bar.set_message(format!(
                        "board {}: {} moves played, best {}, {} playouts",
                        first_index + i,
                        p.moves,
                        p.best,
                        p.playouts
                    ));
                });
            }
            let beam_out = beam::search(board, &cfg, None, |p| {
                layer_bar.set_message(format!(
                    "board {}: layer {}, beam {}, best {}, fewest tiles {}, {} nodes",
                    first_index + i,
                    p.layer,
                    p.beam,
                    if p.best == i64::MIN { "-".to_string() } else { p.best.to_string() },
                    p.fewest_tiles,
                    p.nodes
                ));
            });
            if a.search == SearchArg::BeamNrpa {
                let mut known = beam_out.clone();
                if a.nested_level > 0 {
                    let ncfg = nested::Config { level: a.nested_level, rules, seed };
                    known = nested::search_from(board, &ncfg, Some(&beam_out), |_| {});
                    known.nodes += beam_out.nodes;
                }
                let ncfg = nrpa_cfg(&a, rules, seed);
                let mut out =
                    nrpa::search_portfolio(board, &ncfg, &a.portfolio, Some(&known), |p| {
                        layer_bar.set_message(format!(
                            "board {}: from {}, nrpa iteration {}, best {}",
                            first_index + i,
                            known.score,
                            p.iteration,
                            p.best
                        ));
                    });
                out.nodes += known.nodes;
                return out;
            }
            if a.search != SearchArg::BeamNested {
                return beam_out;
            }
            let ncfg = nested::Config { level: a.level, rules, seed };
            let mut out = nested::search_from(board, &ncfg, Some(&beam_out), |p| {
                layer_bar.set_message(format!(
                    "board {}: beam {}, then nested: {} moves played, best {}",
                    first_index + i,
                    beam_out.score,
                    p.moves,
                    p.best
                ));
            });
            out.nodes += beam_out.nodes;
            out
        };
        let out = a.threads.install(|| {
            let mut best = run_one(a.seed);
            let mut nodes = best.nodes;
            for k in 1..u64::from(a.restarts) {
                let next = run_one(a.seed.wrapping_add(k));
                nodes += next.nodes;
                if next.better_than(&best) {
                    best = next;
                }
            }
            // The work of every restart counts.
            best.nodes = nodes;
            best
        })?;
        let seconds = start.elapsed().as_secs_f64();
        // Trust nothing the search says: replay through the checked engine.
        let v = trace::verify(board, &out.moves, &rules).map_err(|(k, e)| {
            CliError::failed(format!("internal error: solution move {} is illegal: {e}", k + 1))
        })?;
        if v.score != out.score || v.cleared != out.cleared || v.tiles_left != out.tiles_left {
            return Err(CliError::failed(format!(
                "internal error: the solver claims {} points, the replay gives {}",
                out.score, v.score
            )));
        }
        if let Some(path) = &a.record.record {
            write_json_file(path, &Record::new(board, &rules, &out.moves, &v))?;
        }
        bar.inc(1);
        report.total_score += v.score;
        report.cleared += usize::from(v.cleared);
        report.total_seconds += seconds;
        report.boards.push(Solved {
            board: first_index + i,
            score: v.score,
            cleared: v.cleared,
            tiles_left: v.tiles_left,
            moves: out.moves.iter().map(|&(x, y)| [x, y]).collect(),
            nodes: out.nodes,
            seconds,
        });
        if !a.json.json {
            bar.suspend(|| {
                println!(
                    "board {}: score {} {} ({} moves, {} tiles left, {} nodes, {:.2} s)",
                    first_index + i,
                    v.score,
                    if v.cleared { "cleared" } else { "not cleared" },
                    out.moves.len(),
                    v.tiles_left,
                    out.nodes,
                    seconds
                );
                if boards.len() == 1 {
                    println!("moves: {}", format_moves(&out.moves));
                }
            });
        }
    }
    bar.finish_and_clear();
    if a.json.json {
        print_json(&report)?;
    } else if boards.len() > 1 {
        println!(
            "total: {} points, {}/{} cleared, {:.1} s",
            report.total_score,
            report.cleared,
            boards.len(),
            report.total_seconds
        );
    }
    Ok(())
}

fn format_moves(moves: &[Move]) -> String {
    moves.iter().map(|(x, y)| format!("({x},{y})")).collect::<Vec<_>>().join(" ")
}

fn show(path: &Path) -> CliResult {
    let rec: Record = read_json_file(path)?;
    let v =
        trace::replay(&rec).map_err(|e| CliError::failed(format!("{}: {e}", path.display())))?;
    let mut board: Board = rec
        .board
        .parse()
        .map_err(|e| CliError::input(format!("{}: board: {e}", path.display())))?;
    let rules = Rules::try_from(&rec.rules).map_err(CliError::input)?;
    let mut total = 0;
    for (i, m) in rec.moves.iter().enumerate() {
        let (_, cells) =
            samegame::groups::group_at(&board, m.x.into(), m.y.into()).ok_or_else(|| {
                CliError::failed(format!("move {}: no tile at ({}, {})", i + 1, m.x, m.y))
            })?;
        println!(
            "move {}: ({}, {}) removes {} for {} points",
            i + 1,
            m.x,
            m.y,
            m.removed,
            m.points
        );
        for ty in 0..board.height() {
            let y = (board.height() - 1 - ty) as u32;
            let row: String = (0..board.width())
                .map(|x| match board.cell(x, y) {
                    Some(_) if cells[x] >> y & 1 == 1 => '*',
                    Some(c) => (b'0' + c) as char,
                    None => '.',
                })
                .collect();
            println!("  {row}");
        }
        samegame::play(&mut board, m.x.into(), m.y.into(), &rules)
            .map_err(|e| CliError::failed(format!("move {}: {e}", i + 1)))?;
        total += m.points;
    }
    println!(
        "final ({} tiles left, {} points{}):",
        v.tiles_left,
        total,
        if v.cleared { ", cleared" } else { "" }
    );
    for line in board.to_string().lines() {
        println!("  {line}");
    }
    Ok(())
}

#[derive(Serialize)]
struct ReplayReport {
    ok: bool,
    moves: usize,
    score: i64,
    tiles_left: u32,
    cleared: bool,
}

fn replay(path: &Path, json: bool) -> CliResult {
    let rec: Record = read_json_file(path)?;
    let v =
        trace::replay(&rec).map_err(|e| CliError::failed(format!("{}: {e}", path.display())))?;
    let report = ReplayReport {
        ok: true,
        moves: rec.moves.len(),
        score: v.score,
        tiles_left: v.tiles_left,
        cleared: v.cleared,
    };
    if json {
        print_json(&report)
    } else {
        println!(
            "ok: {} moves, {} points, {} tiles left{}",
            report.moves,
            report.score,
            report.tiles_left,
            if v.cleared { ", cleared" } else { "" }
        );
        Ok(())
    }
}
