//! `bitarcade samegame ...`: generate, solve, show, prove, replay and bench SameGame boards.
//! The verbs and their text are `samegame::api`'s; this file parses flags, reads and writes
//! the files and prints.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand, ValueEnum};

use samegame::api::{
    self, BenchRequest, BoardFile, Control, GenRequest, ProveRequest, Search, SolveEval, SolveGoal,
    SolveRequest,
};
use samegame::nrpa;

use crate::common::{
    follow, input_file, print_json, print_or_json, progress, read_bytes, write_json_file, CliError,
    CliResult, JsonArg, RecordArg, ThreadsArg,
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
        #[arg(long, default_value_t = GenRequest::default().width)]
        width: usize,
        /// Rows (1-32).
        #[arg(long, default_value_t = GenRequest::default().height)]
        height: usize,
        /// Colours (1-8).
        #[arg(long, default_value_t = GenRequest::default().colors)]
        colors: usize,
        /// Seed of the first board; board k uses seed S + k.
        #[arg(long, default_value_t = GenRequest::default().seed)]
        seed: u64,
        /// Number of boards (separated by blank lines).
        #[arg(long, default_value_t = GenRequest::default().count)]
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
    /// Play SameGame in a browser page from its pixels: read the board off a screenshot,
    /// solve the whole game, click it out with real mouse events, checking every click.
    #[command(after_help = "Examples:\n  \
        bitarcade serve &   # then:\n  \
        bitarcade samegame bot --url 'http://127.0.0.1:8080/#/samegame?w=15&h=10&c=3&seed=4'\n  \
        bitarcade samegame bot --url URL --boards 7 --next-click 480,820 --record games/ --json\n  \
        bitarcade samegame bot --url URL --cdp ws://127.0.0.1:9222/devtools/browser/ID --goal score\n  \
        bitarcade samegame bot --url URL --calibrate found.png   (read only: check a new page first)\n\n\
        The bot knows nothing of the page's code: it finds the grid in the pixels (any tile size, \
        gaps, outlines, gradients, a device scale of 2), reads each tile's colour, and after each \
        click compares the page with the engine's prediction (a mismatch is read again, then \
        refused with a screenshot saved). Each board is replayed by the engine; --record writes \
        records that `bitarcade samegame replay` accepts.")]
    Bot(BotArgs),
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
        #[arg(long, default_values_t = BenchRequest::default().suites)]
        suite: Vec<String>,
        /// The standard-set file for --suite standard.
        #[arg(long, default_value = "../shared/data/samegame-standard-set.txt")]
        set: PathBuf,
        /// Rounds per measurement (the median is reported).
        #[arg(long, default_value_t = BenchRequest::default().rounds)]
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
        #[arg(long, default_value_t = ProveRequest::default().max_nodes)]
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

impl From<SolveGoal> for GoalArg {
    fn from(g: SolveGoal) -> Self {
        match g {
            SolveGoal::Score => GoalArg::Score,
            SolveGoal::Clear => GoalArg::Clear,
        }
    }
}

impl From<GoalArg> for SolveGoal {
    fn from(g: GoalArg) -> Self {
        match g {
            GoalArg::Score => SolveGoal::Score,
            GoalArg::Clear => SolveGoal::Clear,
        }
    }
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

impl From<SolveEval> for EvalArg {
    fn from(e: SolveEval) -> Self {
        match e {
            SolveEval::Groups => EvalArg::Groups,
            SolveEval::Tabu => EvalArg::Tabu,
            SolveEval::Rollout => EvalArg::Rollout,
        }
    }
}

impl From<EvalArg> for SolveEval {
    fn from(e: EvalArg) -> Self {
        match e {
            EvalArg::Groups => SolveEval::Groups,
            EvalArg::Tabu => SolveEval::Tabu,
            EvalArg::Rollout => SolveEval::Rollout,
        }
    }
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

impl From<Search> for SearchArg {
    fn from(s: Search) -> Self {
        match s {
            Search::Beam => SearchArg::Beam,
            Search::Nested => SearchArg::Nested,
            Search::BeamNested => SearchArg::BeamNested,
            Search::Nrpa => SearchArg::Nrpa,
            Search::BeamNrpa => SearchArg::BeamNrpa,
        }
    }
}

impl From<SearchArg> for Search {
    fn from(s: SearchArg) -> Self {
        match s {
            SearchArg::Beam => Search::Beam,
            SearchArg::Nested => Search::Nested,
            SearchArg::BeamNested => Search::BeamNested,
            SearchArg::Nrpa => Search::Nrpa,
            SearchArg::BeamNrpa => Search::BeamNrpa,
        }
    }
}

#[derive(Args, Debug)]
struct BotArgs {
    /// The page to play.
    #[arg(long)]
    url: String,
    /// Boards to play one after another.
    #[arg(long, default_value_t = 1)]
    boards: u32,
    /// Clear the board, or score the most.
    #[arg(long, value_enum, default_value_t = GoalArg::Clear)]
    goal: GoalArg,
    /// Beam width of the solver (default: the solver's own).
    #[arg(long, short = 'w')]
    width: Option<usize>,
    /// Pause after each click, in milliseconds.
    #[arg(long, default_value_t = 0)]
    click_delay: u64,
    /// Show the browser window (needs a display).
    #[arg(long)]
    headed: bool,
    /// Attach to a running Chromium's DevTools endpoint instead of starting one.
    #[arg(long, value_name = "WS_URL")]
    cdp: Option<String>,
    /// The Chromium binary to start.
    #[arg(long, default_value = "chromium")]
    chromium: String,
    /// The page's size in CSS pixels and its device scale factor, WxHxS.
    #[arg(long, default_value = "1000x720x1")]
    viewport: String,
    /// Start the next board by clicking this point (CSS pixels, X,Y) instead of reloading.
    #[arg(long, value_name = "X,Y", conflicts_with = "next_key")]
    next_click: Option<String>,
    /// Start the next board by pressing this key (a DOM key name: n, F2, Enter).
    #[arg(long, value_name = "KEY")]
    next_key: Option<String>,
    /// Write each game's record (board-N.json) to this directory.
    #[arg(long, value_name = "DIR")]
    record: Option<PathBuf>,
    /// Only read the board: print the grid, the colours and the board found, and write the
    /// screenshot with the grid drawn on it to this PNG (check a new page first).
    #[arg(long, value_name = "PNG")]
    calibrate: Option<PathBuf>,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Args, Debug)]
struct SolveArgs {
    /// Board file: text (rows top first, digits 0-7, '.' empty; blank lines separate boards)
    /// or BGF2; `-` for stdin. Without it, a generated 15x15 5-colour board (--seed).
    file: Option<PathBuf>,
    /// Highest score, or an empty board.
    #[arg(long, value_enum, default_value_t = SolveRequest::default().goal.into())]
    goal: GoalArg,
    /// Search method.
    #[arg(long, value_enum, default_value_t = SolveRequest::default().search.into())]
    search: SearchArg,
    /// Nesting level of --search nested (1: a playout after every move of every position;
    /// each level costs about 1,000 times the one below on a 15x15 board).
    #[arg(long, default_value_t = SolveRequest::default().level)]
    level: u32,
    /// NRPA: iterations per level (a level-L search runs ITERATIONS^L playouts).
    #[arg(long, default_value_t = SolveRequest::default().iterations)]
    iterations: u32,
    /// NRPA: learning rate.
    #[arg(long, default_value_t = SolveRequest::default().alpha)]
    alpha: f64,
    /// NRPA: logit added to groups of the tabu colour (default: they are played only when
    /// nothing else is left); `--no-tabu` turns the tabu colour off.
    #[arg(long, allow_hyphen_values = true)]
    tabu_bias: Option<f64>,
    /// NRPA: no tabu colour at all.
    #[arg(long)]
    no_tabu: bool,
    /// NRPA: logit added per tile above two of a group.
    #[arg(long, default_value_t = SolveRequest::default().size_bias, allow_hyphen_values = true)]
    size_bias: f64,
    /// NRPA: a portfolio of priors, one whole search each (same seed), the best kept:
    /// `strict`, `off` or a tabu logit, comma-separated (e.g. `strict,-2`).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true, value_name = "PRIORS",
          conflicts_with_all = ["tabu_bias", "no_tabu"])]
    portfolio: Vec<nrpa::Tabu>,
    /// NRPA: independent runs per board, in parallel (seeds derived from --seed; the same
    /// answer on any thread count).
    #[arg(long, default_value_t = SolveRequest::default().runs)]
    runs: u32,
    /// --search beam-nrpa: level of the nested search between the beam and NRPA (0: none).
    #[arg(long, default_value_t = SolveRequest::default().nested_level)]
    nested_level: u32,
    /// Beam width: states kept per layer (default: 30 with --eval rollout, else 1000).
    #[arg(long, short = 'w')]
    width: Option<usize>,
    /// Objective of the score goal.
    #[arg(long, value_enum, default_value_t = SolveRequest::default().eval.into())]
    eval: EvalArg,
    /// Weight (percent) of the tabu colour's one-group value.
    #[arg(long, default_value_t = SolveRequest::default().tabu_pct)]
    tabu_pct: i64,
    /// Playouts per child for --eval rollout.
    #[arg(long, default_value_t = SolveRequest::default().playouts)]
    playouts: u32,
    /// Clear goal: run only the given width (no 16, 64, 256, ... widening first).
    #[arg(long)]
    no_widen: bool,
    /// Penalty per tile in no removable group (clear goal).
    #[arg(long, default_value_t = SolveRequest::default().clear_penalty)]
    clear_penalty: i64,
    /// Points per group: (n-2)^2, (n-1)^2 or n(n-1).
    #[arg(long, default_value_t = SolveRequest::default().points)]
    points: String,
    /// Bonus for emptying the board.
    #[arg(long, default_value_t = SolveRequest::default().clear_bonus)]
    clear_bonus: i64,
    /// Smallest removable group (overrides a BGF2 file's own value).
    #[arg(long)]
    min_group: Option<u32>,
    /// Solve only board K (1-based) of a multi-board file.
    #[arg(long, value_name = "K")]
    board: Option<usize>,
    /// Run the search this many times, with seeds --seed, --seed + 1, ..., and keep the
    /// best answer (randomized restarts; costs that many times the CPU).
    #[arg(long, default_value_t = SolveRequest::default().restarts)]
    restarts: u32,
    /// Seed of the generated default board and of the playouts.
    #[arg(long, default_value_t = SolveRequest::default().seed)]
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
            let req = GenRequest { width, height, colors, seed, count, bgf2: bgf.is_some() };
            let out = api::gen(&req, Control::new())?;
            match (bgf, out.bgf2) {
                (Some(path), Some(bytes)) => std::fs::write(&path, bytes).map_err(|e| {
                    CliError::failed(format!("{}: cannot write: {e}", path.display()))
                }),
                _ => {
                    print!("{}", out.boards.join("\n"));
                    Ok(())
                }
            }
        }
        Verb::Solve(a) => solve(a),
        Verb::Bot(a) => bot(a),
        Verb::Show { record } => {
            print!("{}", api::show(&record_request(&record)?, Control::new())?);
            Ok(())
        }
        Verb::Replay { record, json } => {
            print_or_json(json.json, &api::replay(&record_request(&record)?, Control::new())?)
        }
        Verb::Bench { suite, rounds, quick, set, json } => {
            bench(suite, rounds.clamp(1, 101), quick, &set, json.json)
        }
        Verb::Prove { file, no_refutations, max_nodes, json } => {
            let req = ProveRequest {
                file: read_board_file(&file)?,
                refutations: !no_refutations,
                max_nodes,
            };
            let out = api::prove_each(&req, Control::new(), &mut |p| {
                if !json.json {
                    print!("{p}");
                }
                Ok(())
            })?;
            if json.json {
                print_json(&out.boards)?;
            }
            if out.undecided {
                return Err(CliError::failed("some boards were not decided within --max-nodes"));
            }
            Ok(())
        }
    }
}

/// Reads a board file (text or BGF2; `-` for stdin) for the API, named as in its messages.
fn read_board_file(path: &Path) -> CliResult<BoardFile> {
    if path == Path::new("-") {
        let mut data = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut data)
            .map_err(|e| CliError::input(format!("<stdin>: cannot read: {e}")))?;
        return Ok(BoardFile::new("<stdin>", data));
    }
    Ok(BoardFile::new(path.display().to_string(), read_bytes(path)?))
}

fn solve(a: SolveArgs) -> CliResult {
    let mut req = SolveRequest {
        file: None,
        goal: a.goal.into(),
        search: a.search.into(),
        level: a.level,
        iterations: a.iterations,
        alpha: a.alpha,
        tabu_bias: a.tabu_bias,
        no_tabu: a.no_tabu,
        size_bias: a.size_bias,
        portfolio: a.portfolio,
        runs: a.runs,
        nested_level: a.nested_level,
        width: a.width,
        eval: a.eval.into(),
        tabu_pct: a.tabu_pct,
        playouts: a.playouts,
        widen: !a.no_widen,
        clear_penalty: a.clear_penalty,
        points: a.points,
        clear_bonus: a.clear_bonus,
        min_group: a.min_group,
        board: a.board,
        restarts: a.restarts,
        seed: a.seed,
        one_pass: a.one_pass,
        threads: a.threads.threads.map(usize::from),
        record: a.record.record.is_some(),
    };
    // The settings are checked before the file is read, as they always were.
    req.check()?;
    req.file = a.file.as_deref().map(read_board_file).transpose()?;
    let bar = progress(1, "solving");
    let on_progress = follow(&bar, "", false);
    let ctl = Control::new().with_progress(&on_progress);
    let json = a.json.json;
    let mut out = api::solve_each(&req, ctl, &mut |s, boards| {
        if let (Some(path), Some(rec)) = (&a.record.record, &s.record) {
            write_json_file(path, rec)?;
        }
        if !json {
            bar.suspend(|| print!("{}", s.text(boards == 1)));
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    if !json {
        print!("{}", out.total_text());
        return Ok(());
    }
    // The record went to its file.
    out.boards.iter_mut().for_each(|b| b.record = None);
    print_json(&out)
}

fn bot(a: BotArgs) -> CliResult {
    let bad = |what: &str, v: &str, want: &str| {
        CliError::input(format!("--{what} {v:?}: expected {want}"))
    };
    let nums: Vec<f64> = a.viewport.split('x').filter_map(|t| t.trim().parse().ok()).collect();
    let viewport = match nums[..] {
        [w, h, s]
            if (100.0..=8000.0).contains(&w)
                && (100.0..=8000.0).contains(&h)
                && (0.5..=4.0).contains(&s) =>
        {
            (w as u32, h as u32, s)
        }
        _ => return Err(bad("viewport", &a.viewport, "WxHxS, like 1000x720x1 (scale 0.5 to 4)")),
    };
    let next = match (&a.next_click, &a.next_key) {
        (None, Some(k)) => samebot::Next::Key(k.clone()),
        (None, None) => samebot::Next::Reload,
        (Some(t), _) => match t
            .split(',')
            .map(|v| v.trim().parse::<f64>())
            .collect::<Result<Vec<_>, _>>()
            .as_deref()
        {
            Ok([x, y]) => samebot::Next::Click(*x, *y),
            _ => return Err(bad("next-click", t, "X,Y in CSS pixels")),
        },
    };
    if a.boards == 0 {
        return Err(bad("boards", "0", "at least 1"));
    }
    let req = samebot::BotRequest {
        url: a.url,
        boards: a.boards,
        goal: match a.goal {
            GoalArg::Score => SolveGoal::Score,
            GoalArg::Clear => SolveGoal::Clear,
        },
        width: a.width,
        click_delay_ms: a.click_delay,
        headed: a.headed,
        cdp: a.cdp,
        chromium: a.chromium,
        viewport,
        next,
        record_dir: a.record,
        ..samebot::BotRequest::default()
    };
    let json = a.json.json;
    if let Some(png) = &a.calibrate {
        let c = samebot::calibrate(&req, png)?;
        if json {
            return print_json(&c);
        }
        println!(
            "grid {}x{} at ({:.1}, {:.1}), pitch {:.2} x {:.2} screenshot pixels, {} per CSS pixel",
            c.size[0], c.size[1], c.origin[0], c.origin[1], c.pitch[0], c.pitch[1], c.scale
        );
        let hex = |p: &[u8; 3]| format!("#{:02x}{:02x}{:02x}", p[0], p[1], p[2]);
        let colours: Vec<String> =
            c.palette.iter().enumerate().map(|(i, p)| format!("{i} {}", hex(p))).collect();
        println!(
            "colours: {}; empty: {}",
            colours.join(", "),
            c.empty.as_ref().map_or("none seen".into(), hex)
        );
        print!("{}", c.board);
        println!("annotated screenshot: {}", c.image);
        return Ok(());
    }
    let out = samebot::run(&req, Control::new(), &mut |b| {
        if !json {
            print!("{b}");
        }
    })?;
    if json {
        return print_json(&out);
    }
    println!("{} boards in {:.1} s", out.boards.len(), out.seconds);
    Ok(())
}

/// The record at `path` as a request of `show` or `replay`.
fn record_request(path: &Path) -> CliResult<api::ReplayRequest> {
    Ok(api::ReplayRequest { file: input_file(path) })
}

/// This process's CPU time (user + system) in seconds, from `/proc/self/stat` (Linux).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Runs the benchmark suites named in `suites` (the harness is `samegame::api::bench_each`;
/// standard reads the standard set from `set`), printing each row as it comes.
fn bench(suites: Vec<String>, rounds: usize, quick: bool, set: &Path, json: bool) -> CliResult {
    let set = if suites.iter().any(|s| s == "standard") {
        if !set.exists() {
            return Err(CliError::input(format!(
                "--suite standard needs the standard set: {} not found (give it with --set FILE)",
                set.display()
            )));
        }
        Some(read_board_file(set)?)
    } else {
        None
    };
    let req = BenchRequest { suites, set, rounds, quick };
    let out = api::bench_each(&req, Control::new(), &cpu_seconds, &mut |ev| {
        if !json {
            print!("{ev}");
        }
    })?;
    if json {
        print_json(&out)?;
    }
    Ok(())
}
