//! `bitarcade 2048 ...`: play batches with the expectimax player, benchmark the engine
//! against the reference engine, tune the heuristic, and replay game records.

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use clap::{Args, Subcommand};
use serde::Serialize;
use twenty48::batch::{self, GameResult, Summary};
use twenty48::game::random_playout;
use twenty48::multistage::{self, MultiEval, MultiStage};
use twenty48::ntuple::{self, Meta, NTuple, NetEval, Shape};
use twenty48::search::{
    Depth, Evaluator, FastMoves, Heuristic, MoveGen, Params, ReferenceMoves, SearchConfig,
    SearchPlayer, Searcher,
};
use twenty48::{Board, Dir, Game, GameRecord, Status};

use crate::common::{
    coherence_path, print_json, progress, read_json_file, write_file_atomic, write_json_file,
    CliError, CliResult, JsonArg, LearnMethod, RecordArg, SeedArg, ThreadsArg,
};

/// Commands for 2048.
#[derive(Args, Debug)]
pub struct Twenty48Args {
    #[command(subcommand)]
    command: Twenty48Command,
}

#[derive(Subcommand, Debug)]
enum Twenty48Command {
    /// Play games with the expectimax player and print the table the field reports.
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 play --games 4 --depth 2\n  \
        bitarcade 2048 play --games 100 --seed 7 --threads 2 --json\n  \
        bitarcade 2048 play --games 1 --seed 3 --depth 3 --record game.json\n  \
        bitarcade 2048 play --games 10 --time-per-move 50\n  \
        bitarcade 2048 play --games 20 --budget 200000   (deterministic)\n  \
        bitarcade 2048 play --games 2 --depth-offset 1   (nneonneo/2048-ai's depth rule)\n  \
        bitarcade 2048 play --games 1000 --seed 2048 --ntuple net.b48 --depth 1   (greedy on the network)\n  \
        bitarcade 2048 play --games 100 --ntuple net.b48 --depth 2\n  \
        bitarcade 2048 play --seeds 30000..30095 --threads 2 --json   (the standard seeds: \
        game S is the game of --games 1 --seed S)\n\n\
        With --ntuple FILE the leaves are valued by an n-tuple network made by `2048 train` \
        (score built so far + the network's estimate of the score to come) and the default \
        rule is --depth 2 (two move layers); --depth 1 is greedy on reward + value.\n\n\
        Default setting: iterative deepening under a budget of 500,000 nodes per move from 2 \
        layers, probability cutoff 1e-4, nneonneo/2048-ai's published weights (the measured \
        setting of BENCHMARKS.md; --depth-offset 1 --min-depth 4 is nneonneo's own adaptive \
        rule: ~30x the nodes per move, ~20 game moves per second on one core, its 100-game \
        strength being measured in BENCHMARKS.md). Game i uses spawn seed \
        sub_seed(S, i): the games are identical for any --threads (but not with \
        --time-per-move, which follows the clock).")]
    Play(PlayArgs),
    /// Train an n-tuple network by TD(0) or temporal coherence on afterstates: seeded
    /// self-play on one thread.
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 train --games 2000 --out net.b48\n  \
        bitarcade 2048 train --games 1000000 --seed 7 --out /work/t48s7/net.b48 \
        --checkpoint-every 25000 --max-seconds 3000\n  \
        bitarcade 2048 train --games 50000 --from net.b48 --out net2.b48   (continue: same seed \
        and alpha, games numbered on from the file's count)\n  \
        bitarcade 2048 train --games 300 --tuples 0,1,2,3/4,5,6,7 --out tiny.b48 --json\n  \
        bitarcade 2048 train --games 25000 --method tc --out tc.b48   (temporal coherence, \
        beta 1/32; writes tc.b48 and its accumulators tc.b48.tc)\n  \
        bitarcade 2048 train --games 5000 --method tc --from tc.b48 --out tc.b48   (continue: \
        needs tc.b48.tc; the same bytes as one run)\n  \
        bitarcade 2048 train --games 25000 --method tc --init 320000 --out otc.b48   \
        (optimistic start)\n\n\
        Game i (counting from 0 over the whole training, across --from) uses spawn seed \
        sub_seed(S, i) and the documented spawn rule; moves are greedy on reward + V(afterstate), \
        ties to the first of U D L R; the previous afterstate's 32 weights move by \
        alpha * (reward + V(afterstate) - V(previous)), towards 0 at the end of the game \
        (with --method tc, by alpha * |E|/A * that error, per weight). \
        Same arguments, byte-identical weights file. Progress every --report-every games on \
        stderr: mean score and reach rates of the last window, games/s. The default network \
        is four 6-tuples (256 MiB): keep the files outside git and reproduce them from the \
        seed and this command.")]
    Train(TrainArgs),
    /// Collect start boards for a later stage's training: seeded greedy 1-ply games on a
    /// network, each game's first afterstate of the stage.
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 starts --ntuple net-1m.b48 --games 60000 --seed 11 --out starts.txt\n  \
        bitarcade 2048 starts --ntuple net.b48 --games 200 --seed 3 --out s.txt --json\n\n\
        Game i uses spawn seed sub_seed(S, i) (two spawns to open, as train) and plays the \
        greedy move on reward + V; the first afterstate of the stage (stage 2: a tile of 16384 \
        or more; stage 3: a tile of 16384 or more and an 8192) is written, one board per line \
        in the text form, in game order; games that end first write nothing. The same \
        arguments give the same file for any --threads.")]
    Starts(StartsArgs),
    /// Play greedy 1-ply games from start boards (no learning): the held-out measure of a
    /// stage's training.
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 from-starts --starts held-out.txt --ntuple ms.b48 --seed 5\n  \
        bitarcade 2048 from-starts --starts held-out.txt --ntuple net-1m.b48 --json\n\n\
        Game i starts from line i's board (an afterstate: a spawn comes first) with spawn \
        seed sub_seed(S, i); the score counts that game's merges only. Prints the average \
        score with its 95% normal interval and the reach rates of 32768 and 65536 with their \
        Wilson intervals; --json lists every game.")]
    FromStarts(FromStartsArgs),
    /// Time the move generator, random games and search, each beside the reference engine.
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 bench\n  \
        bitarcade 2048 bench --json --random-games 20000\n\n\
        Run it on a release build: cargo run --release -- 2048 bench")]
    Bench(BenchArgs),
    /// Tune the heuristic weights with a seeded evolution strategy ((1+lambda) or gradient).
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 tune --generations 4 --lambda 3 --games 8 --depth 2\n  \
        bitarcade 2048 tune --seed 5 --json\n  \
        bitarcade 2048 tune --generations 30 --lambda 6 --games 32 --depth 2 --seed 2   \
        (the run behind TUNED_DEPTH2)\n  \
        bitarcade 2048 tune --method gradient --budget 32000 --lambda 48 --games 4 \
        --generations 7 --sigma 0.25 --tt-bits 16 --seed 61   (session 6)")]
    Tune(TuneArgs),
    /// Check a game record (or a list of them): every move legal, every spawn legal and, when
    /// the record has a seed, equal to the seeded generator's; the final score and board.
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 play --games 1 --depth 2 --record game.json && bitarcade 2048 replay game.json\n  \
        cat game.json | bitarcade 2048 replay -")]
    Replay {
        /// The record file (`-` for stdin).
        file: PathBuf,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Show the expectimax player's choice on a board given in the text form.
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 best '2 . . 4/. . . ./. 8 . ./. . . 2'\n  \
        bitarcade 2048 best '2 4 8 16/. . . ./. . . ./. . . .' --depth 3 --json\n  \
        bitarcade 2048 best '2 4 8 16/. . . ./. . . ./. . . .' --budget 500000 --min-depth 2\n\n\
        The search options are play's (default: a budget of 500,000 nodes, as play).")]
    Best {
        /// The board: four rows separated by `/`, cells `.` or tile values.
        board: String,
        #[command(flatten)]
        search: SearchArgs,
        #[command(flatten)]
        json: JsonArg,
    },
}

/// The default depth rule's node budget per move (the setting measured in BENCHMARKS.md).
const DEFAULT_BUDGET: u64 = 500_000;

#[derive(Args, Debug)]
struct SearchArgs {
    /// Fixed search depth in move layers (default: the node budget rule, --budget 500000).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=16), conflicts_with = "time_per_move")]
    depth: Option<u8>,
    /// Search by iterative deepening until about MS milliseconds per move (not deterministic).
    #[arg(long, value_name = "MS")]
    time_per_move: Option<u64>,
    /// Iterative deepening under a node budget: about NODES move-generator calls per move
    /// (deterministic), from --min-depth up to --max-depth layers.
    #[arg(long, value_name = "NODES", conflicts_with_all = ["depth", "time_per_move"],
          value_parser = clap::value_parser!(u64).range(1..))]
    budget: Option<u64>,
    /// Budget rule: when the last two iterations chose different moves, multiply this move's
    /// budget by F, once (1 = off).
    #[arg(long, value_name = "F", default_value_t = 1.0)]
    extend: f32,
    /// Use the adaptive rule: layers = distinct tiles - OFFSET, clamped to
    /// --min-depth..--max-depth (1 with --min-depth 4 is nneonneo/2048-ai's rule).
    #[arg(long, value_name = "OFFSET", conflicts_with_all = ["depth", "budget", "time_per_move"])]
    depth_offset: Option<u8>,
    /// Budget rule: multiply the budget by F on boards holding at least --boost-tiles tiles of
    /// 1024 or more (1 = off).
    #[arg(long, value_name = "F", default_value_t = 1.0)]
    boost: f32,
    /// Budget rule: the number of tiles of 1024 or more that triggers --boost.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=16))]
    boost_tiles: u8,
    /// Keep the transposition table from move to move (default: a fresh table per move).
    #[arg(long)]
    keep_table: bool,
    /// Smallest depth of the adaptive and budget rules (default: 2 for the budget rule, 4
    /// for the adaptive rule).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=16))]
    min_depth: Option<u8>,
    /// Largest depth of the adaptive and budget rules.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u8).range(1..=16))]
    max_depth: u8,
    /// Chance nodes below this path probability are evaluated, not expanded.
    #[arg(long, default_value_t = 1e-4)]
    prob_cutoff: f32,
    /// log2 of the transposition table's entries (16 bytes each).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u8).range(8..=28))]
    tt_bits: u8,
    /// Heuristic weights as a JSON file (the `params` printed by `tune`); default: shipped
    /// (nneonneo/2048-ai's published weights).
    #[arg(long, value_name = "FILE")]
    params: Option<PathBuf>,
    /// Value the leaves with an n-tuple network weight file (from `2048 train`) instead of
    /// the row heuristic; the default depth rule becomes --depth 2.
    #[arg(long, value_name = "FILE", conflicts_with = "params")]
    ntuple: Option<PathBuf>,
}

impl SearchArgs {
    fn config(&self) -> CliResult<SearchConfig> {
        if !(self.prob_cutoff >= 0.0 && self.prob_cutoff < 1.0) {
            return Err(CliError::input("--prob-cutoff must be in [0, 1)"));
        }
        if !(self.extend >= 1.0 && self.extend <= 1000.0) {
            return Err(CliError::input("--extend must be in [1, 1000]"));
        }
        if !(self.boost >= 1.0 && self.boost <= 1000.0) {
            return Err(CliError::input("--boost must be in [1, 1000]"));
        }
        let min = |default: u8| self.min_depth.unwrap_or(default).min(self.max_depth);
        let depth = match (self.depth, self.budget, self.depth_offset) {
            (Some(d), _, _) => Depth::Fixed(d),
            (None, Some(nodes), _) => Depth::Budget { nodes, min: min(2), max: self.max_depth },
            (None, None, Some(offset)) => {
                Depth::Adaptive { min: min(4), max: self.max_depth, offset }
            }
            (None, None, None) if self.ntuple.is_some() => Depth::Fixed(2),
            (None, None, None) => {
                Depth::Budget { nodes: DEFAULT_BUDGET, min: min(2), max: self.max_depth }
            }
        };
        Ok(SearchConfig {
            depth,
            prob_cutoff: self.prob_cutoff,
            tt_bits: self.tt_bits,
            extend: self.extend,
            keep_table: self.keep_table,
            boost_tiles: if self.boost > 1.0 { self.boost_tiles } else { 0 },
            boost: self.boost,
            prefetch: true,
            incremental: true,
        })
    }

    fn params(&self) -> CliResult<Params> {
        match &self.params {
            Some(p) => read_json_file(p),
            None => Ok(Params::SHIPPED),
        }
    }

    fn describe(&self, cfg: &SearchConfig) -> String {
        let depth = match (self.time_per_move, cfg.depth) {
            (Some(ms), _) => format!("iterative deepening, {ms} ms per move"),
            (None, Depth::Fixed(d)) => format!("depth {d} move layers"),
            (None, Depth::Adaptive { min, max, offset }) => {
                format!("adaptive depth clamp(distinct - {offset}, {min}, {max}) move layers")
            }
            (None, Depth::Budget { nodes, min, max }) => {
                let mut ext = String::new();
                if cfg.extend > 1.0 {
                    ext += &format!(", x{} when the move changes", cfg.extend);
                }
                if cfg.boost_tiles > 0 {
                    ext += &format!(", x{} with {}+ tiles >= 1024", cfg.boost, cfg.boost_tiles);
                }
                format!(
                    "iterative deepening to about {nodes} nodes per move{ext}, {min}..{max} layers"
                )
            }
        };
        let keep = if cfg.keep_table { " kept across moves" } else { "" };
        let eval = match &self.ntuple {
            Some(p) => format!(", n-tuple network {}", p.display()),
            None => String::new(),
        };
        format!(
            "expectimax, {depth}, probability cutoff {}, table 2^{}{keep}{eval}",
            cfg.prob_cutoff, cfg.tt_bits
        )
    }

    /// The network of --ntuple, if given (one stage or several).
    fn network(&self) -> CliResult<Option<MultiStage>> {
        self.ntuple.as_ref().map(|p| load_stages(p).map(|(n, _)| n)).transpose()
    }
}

/// Reads a single-network weight file; any defect is bad input (exit 2) with a one-line
/// message naming the file.
fn load_network(path: &std::path::Path) -> CliResult<(NTuple, Meta)> {
    let bytes = std::fs::read(path)
        .map_err(|e| CliError::input(format!("{}: cannot read: {e}", path.display())))?;
    ntuple::decode(&bytes).map_err(|e| CliError::input(format!("{}: {e}", path.display())))
}

/// Reads a weight file of either version (a version-1 file is a one-stage network).
fn load_stages(path: &std::path::Path) -> CliResult<(MultiStage, Vec<Meta>)> {
    let bytes = std::fs::read(path)
        .map_err(|e| CliError::input(format!("{}: cannot read: {e}", path.display())))?;
    ntuple::decode_stages(&bytes).map_err(|e| CliError::input(format!("{}: {e}", path.display())))
}

/// Writes a multistage weight file through a temporary file and a rename.
fn save_stages(path: &std::path::Path, net: &MultiStage, metas: &[Meta]) -> CliResult {
    write_file_atomic(path, &ntuple::encode_stages(net, metas))
}

/// Reads a start file; a bad line is bad input naming the file and the line.
fn load_starts(path: &std::path::Path) -> CliResult<Vec<Board>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("{}: cannot read: {e}", path.display())))?;
    multistage::parse_starts(&text).map_err(|e| CliError::input(format!("{}: {e}", path.display())))
}

/// Writes the TC accumulators of `net` after `games` games beside weight file `path`
/// (temporary file and rename).
fn save_coherence(
    path: &std::path::Path,
    acc: &ntuple::Coherence,
    games: u64,
    net: &NTuple,
) -> CliResult {
    write_file_atomic(
        &coherence_path(path),
        &ntuple::encode_coherence(acc, games, net.fingerprint()),
    )
}

/// Reads the TC accumulators beside weight file `path` for `net` after `games` games.
fn load_coherence(
    path: &std::path::Path,
    net: &NTuple,
    games: u64,
) -> CliResult<ntuple::Coherence> {
    let path = coherence_path(path);
    let bytes = std::fs::read(&path).map_err(|e| {
        CliError::input(format!(
            "{}: cannot read: {e} (--method tc continues from the weights and their accumulators)",
            path.display()
        ))
    })?;
    ntuple::decode_coherence(&bytes, net, games)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))
}

/// Writes a weight file through a temporary file and a rename, so a reader (or a stopped
/// run) never sees half a file.
fn save_network(path: &std::path::Path, net: &NTuple, meta: &Meta) -> CliResult {
    write_file_atomic(path, &ntuple::encode(net, meta))
}

#[derive(Args, Debug)]
struct TrainArgs {
    /// Training games to play in this run.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// The weight file to write (at the end and at every checkpoint).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Seed of the spawns (default: the --from file's, else 1).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Step size per weight (default: the --from file's, else 0.0025; with --method tc the
    /// step at full coherence, beta, default 1 / (8 x tuples) = 1/32 for four tuples). With
    /// --from, another value continues with a new step (a schedule); the file records the
    /// last one.
    #[arg(long, value_name = "A")]
    alpha: Option<f32>,
    /// Write --out every N games.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    checkpoint_every: Option<u64>,
    /// Also keep each checkpoint as `FILE.<games>`.
    #[arg(long, requires = "checkpoint_every")]
    keep_checkpoints: bool,
    /// Continue from this weight file (its games, seed, alpha and shape).
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    /// The stage to train: 1 (the default) is the network from the empty board; 2 (or 3)
    /// trains that stage of a multistage network from --starts boards, --from a file of one
    /// stage less (the new stage starts as a copy of the last: warm start) or of that many
    /// stages (continue). Stage 2: afterstates with a tile >= 16384; stage 3 (with 3
    /// stages): a tile >= 16384 and an 8192.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=3))]
    stage: u8,
    /// Start boards of --stage 2/3 (from `2048 starts`): game i starts from the board
    /// `Rng::new(sub_seed(S, i))` picks, the same generator then drawing its spawns.
    #[arg(long, value_name = "FILE")]
    starts: Option<PathBuf>,
    /// The tuples: cells 0..15 (4 * row + col) separated by `,`, tuples by `/` (default: the
    /// four 6-tuples 0,1,2,3,4,5/4,5,6,7,8,9/0,1,2,4,5,6/4,5,6,8,9,10).
    #[arg(long, value_name = "SHAPE")]
    tuples: Option<String>,
    /// The learning rule (stage 1 only). td: TD(0), each weight a value reads moves by
    /// alpha * error. tc: temporal coherence (Beal & Smith 1999; Jaskowski 2016): weight i
    /// moves by alpha * |E_i| / A_i * error, E_i and A_i the sum and the sum of absolute
    /// values of the errors it has seen (rate 1 before the first), so --alpha is the step at
    /// full coherence and the steps shrink by themselves (no schedule). TC keeps E and A
    /// (twice the network's memory) in FILE.tc beside each weight file it writes; --from F
    /// with tc continues from F and F.tc, exactly as one run.
    #[arg(long, value_enum, default_value_t = LearnMethod::Td)]
    method: LearnMethod,
    /// Optimistic initialisation (stage 1, not with --from): every state starts worth V,
    /// each of the 8 x tuples weights a value reads at V / (8 x tuples) (Guei, Chen & Wu
    /// 2022 start at the order of 320000). Default 0.
    #[arg(long, value_name = "V")]
    init: Option<f32>,
    /// Progress line every N games (mean score and reach rates of those N games).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    report_every: u64,
    /// Stop after the game in progress once this many seconds have passed (the file records
    /// the games actually played, so the result is reproduced by --games with that count).
    #[arg(long, value_name = "SECS")]
    max_seconds: Option<u64>,
    #[command(flatten)]
    json: JsonArg,
}

/// One progress window of a training run.
#[derive(Serialize, Clone)]
struct TrainWindow {
    /// Games played in all at the end of the window.
    games: u64,
    /// Games in the window.
    window: u64,
    mean_score: f64,
    max_score: u64,
    reach_2048: f64,
    reach_8192: f64,
    reach_16384: f64,
    reach_32768: f64,
    mean_moves: f64,
    games_per_second: f64,
    moves_per_second: f64,
}

#[derive(Serialize)]
struct TrainReport {
    out: String,
    stage: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    starts: Option<String>,
    shape: String,
    method: LearnMethod,
    seed: u64,
    alpha: f32,
    init: f32,
    first_game: u64,
    games_played: u64,
    games_total: u64,
    stopped_by_clock: bool,
    seconds: f64,
    moves: u64,
    fingerprint: String,
    curve: Vec<TrainWindow>,
}

impl TrainReport {
    /// The last lines of the text report: games played, the last window, the weights.
    fn print_tail(&self) {
        println!(
            "played       {} games, {} moves in {:.1} s{}",
            self.games_played,
            self.moves,
            self.seconds,
            if self.stopped_by_clock { " (stopped by --max-seconds)" } else { "" }
        );
        if let Some(w) = self.curve.last() {
            println!("last window  mean score {:.0} over {} games", w.mean_score, w.window);
        }
        println!("weights      {} (fingerprint {})", self.out, self.fingerprint);
    }
}

fn train(a: TrainArgs) -> CliResult {
    if a.starts.is_some() {
        return Err(CliError::input("--starts is for --stage 2 or 3"));
    }
    let (net, from_meta) = match &a.from {
        Some(p) => {
            let (net, meta) = load_network(p)?;
            (Some(net), Some(meta))
        }
        None => (None, None),
    };
    let shape = match &a.tuples {
        Some(t) => {
            t.parse::<Shape>().map_err(|e| CliError::input(format!("--tuples {t:?}: {e}")))?
        }
        None => net.as_ref().map_or_else(Shape::default_6tuples, |n| n.shape().clone()),
    };
    if let (Some(n), Some(p)) = (&net, &a.from) {
        ntuple::expect_shape(n, &shape)
            .map_err(|e| CliError::input(format!("{}: {e}", p.display())))?;
    }
    if a.init.is_some() && a.from.is_some() {
        return Err(CliError::input(
            "--init sets new weights; with --from they come from the file",
        ));
    }
    let init = a.init.unwrap_or(0.0);
    if !init.is_finite() {
        return Err(CliError::input("--init must be a finite number"));
    }
    let tc = a.method == LearnMethod::Tc;
    // TC's default is Jaskowski's beta = 1 per value: 1 / (8 x tuples) per weight.
    let default_alpha = if tc { 1.0 / (8 * shape.tuples().len()) as f32 } else { 0.0025 };
    let seed = a.seed.or(from_meta.map(|m| m.seed)).unwrap_or(1);
    let alpha = a.alpha.or(from_meta.map(|m| m.alpha)).unwrap_or(default_alpha);
    if let (Some(m), Some(p)) = (from_meta, &a.from) {
        if m.seed != seed {
            return Err(CliError::input(format!(
                "{}: trained with seed {}; continue with the same seed (got {seed})",
                p.display(),
                m.seed
            )));
        }
        if m.alpha != alpha {
            // A step-size schedule: the file will record the last alpha, so the weights are
            // reproduced by the chain of commands, not by one.
            eprintln!(
                "note: {} was trained with alpha {}; continuing with alpha {alpha}",
                p.display(),
                m.alpha
            );
        }
    }
    if !(alpha > 0.0 && alpha <= 1.0) {
        return Err(CliError::input("--alpha must be in (0, 1]"));
    }
    let net = net.unwrap_or_else(|| {
        if init == 0.0 {
            NTuple::new(shape.clone())
        } else {
            NTuple::optimistic(shape.clone(), init)
        }
    });
    let first = from_meta.map_or(0, |m| m.games);
    let acc = match (&a.from, tc) {
        (Some(p), true) => Some(load_coherence(p, &net, first)?),
        (None, true) => Some(ntuple::Coherence::new(&shape)),
        (Some(p), false) => {
            if coherence_path(p).exists() {
                eprintln!(
                    "note: {} (TC accumulators) is not used by --method td",
                    coherence_path(p).display()
                );
            }
            None
        }
        (None, false) => None,
    };
    let mut trainee = Trainee { net, acc };
    let start = Instant::now();
    let (played, moves, stopped_by_clock, curve) = training_loop(
        &a,
        first,
        &mut trainee,
        |t, index| {
            let seed = bits::rng::sub_seed(seed, index);
            match &mut t.acc {
                Some(acc) => ntuple::train_game_tc(&mut t.net, acc, seed, alpha),
                None => ntuple::train_game(&mut t.net, seed, alpha),
            }
        },
        |t, games, path| t.save(path, &Meta { games, seed, alpha }),
    )?;
    let meta = Meta { games: first + played, seed, alpha };
    trainee.save(&a.out, &meta)?;
    let net = trainee.net;
    let report = TrainReport {
        out: a.out.display().to_string(),
        stage: 1,
        starts: None,
        shape: shape.to_string(),
        method: a.method,
        seed,
        alpha,
        init,
        first_game: first,
        games_played: played,
        games_total: meta.games,
        stopped_by_clock,
        seconds: start.elapsed().as_secs_f64(),
        moves,
        fingerprint: format!("{:016x}", net.fingerprint()),
        curve,
    };
    if a.json.json {
        return print_json(&report);
    }
    println!("network      {} ({} weights)", report.shape, shape.weights());
    let rule = match a.method {
        LearnMethod::Td => format!("td, alpha {alpha}"),
        LearnMethod::Tc => format!("tc, beta {alpha} (step at full coherence)"),
    };
    let init_text = if init == 0.0 { String::new() } else { format!(", init {init}") };
    println!("training     {rule}{init_text}, seed {seed}, games {first}..{}", meta.games);
    report.print_tail();
    Ok(())
}

/// A stage-1 network in training: its weights and, for TC, its accumulators.
struct Trainee {
    net: NTuple,
    acc: Option<ntuple::Coherence>,
}

impl Trainee {
    /// Writes the weight file (and, for TC, the accumulators beside it).
    fn save(&self, path: &std::path::Path, meta: &Meta) -> CliResult {
        save_network(path, &self.net, meta)?;
        match &self.acc {
            Some(acc) => save_coherence(path, acc, meta.games, &self.net),
            None => Ok(()),
        }
    }
}

/// The training loop shared by the stages: plays games `first..first + a.games` (game
/// `index` by `play(net, index)`), prints a progress line every --report-every games, saves
/// by `save(net, games, path)` at checkpoints, and stops early on --max-seconds. Returns
/// (games played, moves, stopped by the clock, progress windows); the caller saves the end.
fn training_loop<N>(
    a: &TrainArgs,
    first: u64,
    net: &mut N,
    mut play: impl FnMut(&mut N, u64) -> ntuple::TrainGame,
    save: impl Fn(&N, u64, &std::path::Path) -> CliResult,
) -> CliResult<(u64, u64, bool, Vec<TrainWindow>)> {
    let start = Instant::now();
    let mut curve = Vec::new();
    let mut window: Vec<ntuple::TrainGame> = Vec::with_capacity(a.report_every as usize);
    let mut window_start = Instant::now();
    let mut moves = 0u64;
    let mut played = 0u64;
    let mut stopped_by_clock = false;
    while played < a.games {
        let g = play(net, first + played);
        played += 1;
        moves += g.moves;
        window.push(g);
        let over_time = a.max_seconds.is_some_and(|s| start.elapsed().as_secs() >= s);
        if window.len() as u64 == a.report_every || played == a.games || over_time {
            let w = summarize_window(first + played, &window, window_start.elapsed().as_secs_f64());
            eprintln!(
                "games {:>9}  mean {:>8.0}  max {:>7}  2048 {:5.1}%  8192 {:5.1}%  16384 {:5.1}%  \
                 32768 {:4.1}%  moves/game {:>6.0}  {:>6.1} games/s  {:.2e} moves/s",
                w.games,
                w.mean_score,
                w.max_score,
                100.0 * w.reach_2048,
                100.0 * w.reach_8192,
                100.0 * w.reach_16384,
                100.0 * w.reach_32768,
                w.mean_moves,
                w.games_per_second,
                w.moves_per_second
            );
            curve.push(w);
            window.clear();
            window_start = Instant::now();
        }
        let games = first + played;
        if a.checkpoint_every.is_some_and(|n| played % n == 0) && played < a.games && !over_time {
            save(net, games, &a.out)?;
            if a.keep_checkpoints {
                save(net, games, &PathBuf::from(format!("{}.{games}", a.out.display())))?;
            }
            eprintln!("checkpoint: {games} games -> {}", a.out.display());
        }
        if over_time {
            stopped_by_clock = true;
            break;
        }
    }
    Ok((played, moves, stopped_by_clock, curve))
}

/// `train --stage 2|3`: one stage of a multistage network, from start boards.
fn train_stage(a: TrainArgs) -> CliResult {
    let stage = usize::from(a.stage) - 1;
    let (Some(from), Some(starts_path)) = (&a.from, &a.starts) else {
        return Err(CliError::input(format!(
            "--stage {} needs --from FILE (the earlier stages) and --starts FILE",
            a.stage
        )));
    };
    if a.tuples.is_some() {
        return Err(CliError::input("--tuples: a later stage has the shape of the --from file"));
    }
    if a.method != LearnMethod::Td || a.init.is_some() {
        return Err(CliError::input("--method tc and --init are for --stage 1"));
    }
    let (mut net, mut metas) = load_stages(from)?;
    let starts = load_starts(starts_path)?;
    if net.count() == stage {
        // Warm start: the new stage begins as a copy of the last one.
        net.push_copy();
        metas.push(Meta { games: 0, seed: a.seed.unwrap_or(1), alpha: a.alpha.unwrap_or(0.0025) });
    } else if net.count() != stage + 1 {
        return Err(CliError::input(format!(
            "{}: has {} stage(s); --stage {} continues a file of {} or {} stages",
            from.display(),
            net.count(),
            a.stage,
            stage,
            stage + 1
        )));
    }
    let m = metas[stage];
    let seed = a.seed.unwrap_or(m.seed);
    let alpha = a.alpha.unwrap_or(m.alpha);
    if seed != m.seed {
        return Err(CliError::input(format!(
            "{}: stage {} trained with seed {}; continue with the same seed (got {seed})",
            from.display(),
            a.stage,
            m.seed
        )));
    }
    if !(alpha > 0.0 && alpha <= 1.0) {
        return Err(CliError::input("--alpha must be in (0, 1]"));
    }
    let first = m.games;
    let start = Instant::now();
    let (played, moves, stopped_by_clock, curve) = training_loop(
        &a,
        first,
        &mut net,
        |net, index| {
            multistage::train_stage_game(
                net,
                stage,
                &starts,
                bits::rng::sub_seed(seed, index),
                alpha,
            )
        },
        |net, games, path| {
            let mut metas = metas.clone();
            metas[stage] = Meta { games, seed, alpha };
            save_stages(path, net, &metas)
        },
    )?;
    metas[stage] = Meta { games: first + played, seed, alpha };
    save_stages(&a.out, &net, &metas)?;
    let report = TrainReport {
        out: a.out.display().to_string(),
        stage: a.stage,
        starts: Some(format!("{} ({} boards)", starts_path.display(), starts.len())),
        shape: net.stage(0).shape().to_string(),
        method: LearnMethod::Td,
        seed,
        alpha,
        init: 0.0,
        first_game: first,
        games_played: played,
        games_total: first + played,
        stopped_by_clock,
        seconds: start.elapsed().as_secs_f64(),
        moves,
        fingerprint: format!("{:016x}", net.fingerprint()),
        curve,
    };
    if a.json.json {
        return print_json(&report);
    }
    println!("network      {} stages of {}", net.count(), report.shape);
    println!(
        "training     stage {}, seed {seed}, alpha {alpha}, games {first}..{}, starts {}",
        a.stage,
        first + played,
        report.starts.as_deref().unwrap_or("")
    );
    report.print_tail();
    Ok(())
}

#[derive(Args, Debug)]
struct StartsArgs {
    /// The network that plays (a weight file of either version).
    #[arg(long, value_name = "FILE")]
    ntuple: PathBuf,
    /// Games to play.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    games: u64,
    /// The stage whose first afterstate is collected (2 or 3).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=3))]
    stage: u8,
    /// The start file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Serialize)]
struct StartsReport {
    out: String,
    games: u64,
    starts: u64,
    rate: f64,
    seconds: f64,
}

fn starts(a: StartsArgs) -> CliResult {
    use rayon::prelude::*;
    let (net, _) = load_stages(&a.ntuple)?;
    let stages = usize::from(a.stage);
    let seed = a.seed.seed;
    let start = Instant::now();
    let bar = progress(a.games, "2048 games");
    let found: Vec<Option<Board>> = a.threads.install(|| {
        (0..a.games)
            .into_par_iter()
            .map(|i| {
                let b = multistage::first_reaching(
                    &net,
                    bits::rng::sub_seed(seed, i),
                    stages,
                    stages - 1,
                );
                bar.inc(1);
                b
            })
            .collect()
    })?;
    bar.finish_and_clear();
    let boards: Vec<Board> = found.into_iter().flatten().collect();
    let comment = format!(
        "2048 starts --ntuple {} --games {} --stage {} --seed {seed}: {} boards",
        a.ntuple.display(),
        a.games,
        a.stage,
        boards.len()
    );
    std::fs::write(&a.out, multistage::format_starts(&comment, &boards))
        .map_err(|e| CliError::failed(format!("{}: cannot write: {e}", a.out.display())))?;
    let report = StartsReport {
        out: a.out.display().to_string(),
        games: a.games,
        starts: boards.len() as u64,
        rate: boards.len() as f64 / a.games as f64,
        seconds: start.elapsed().as_secs_f64(),
    };
    if a.json.json {
        print_json(&report)
    } else {
        println!(
            "{} of {} games reached stage {} ({:.2}%): {} ({:.1} s)",
            report.starts,
            a.games,
            a.stage,
            100.0 * report.rate,
            report.out,
            report.seconds
        );
        Ok(())
    }
}

#[derive(Args, Debug)]
struct FromStartsArgs {
    /// The start boards (from `2048 starts`).
    #[arg(long, value_name = "FILE")]
    starts: PathBuf,
    /// The network that plays (a weight file of either version).
    #[arg(long, value_name = "FILE")]
    ntuple: PathBuf,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Serialize)]
struct FromStartsGame {
    score: u64,
    moves: u64,
    max_tile: u32,
}

#[derive(Serialize)]
struct FromStartsReport {
    starts: String,
    ntuple: String,
    stages: usize,
    seed: u64,
    games: u64,
    average: f64,
    average_ci95: f64,
    reach_32768: batch::Rate,
    reach_65536: batch::Rate,
    moves: u64,
    seconds: f64,
    game_list: Vec<FromStartsGame>,
}

fn from_starts(a: FromStartsArgs) -> CliResult {
    use rayon::prelude::*;
    let (net, _) = load_stages(&a.ntuple)?;
    let starts = load_starts(&a.starts)?;
    let seed = a.seed.seed;
    let start = Instant::now();
    let games: Vec<ntuple::TrainGame> = a.threads.install(|| {
        starts
            .par_iter()
            .enumerate()
            .map(|(i, &b)| multistage::play_from(&net, b, bits::rng::sub_seed(seed, i as u64)))
            .collect()
    })?;
    let n = games.len() as f64;
    let avg = games.iter().map(|g| g.score as f64).sum::<f64>() / n;
    let var =
        games.iter().map(|g| (g.score as f64 - avg).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let rate = |tile: u32| {
        let count = games.iter().filter(|g| g.max_tile >= tile).count() as u64;
        let (low, high) = batch::wilson(count, games.len() as u64);
        batch::Rate { tile, count, rate: count as f64 / n, low, high }
    };
    let report = FromStartsReport {
        starts: a.starts.display().to_string(),
        ntuple: a.ntuple.display().to_string(),
        stages: net.count(),
        seed,
        games: games.len() as u64,
        average: avg,
        average_ci95: 1.96 * (var / n).sqrt(),
        reach_32768: rate(32768),
        reach_65536: rate(65536),
        moves: games.iter().map(|g| g.moves).sum(),
        seconds: start.elapsed().as_secs_f64(),
        game_list: games
            .iter()
            .map(|g| FromStartsGame { score: g.score, moves: g.moves, max_tile: g.max_tile })
            .collect(),
    };
    if a.json.json {
        return print_json(&report);
    }
    println!(
        "{} games from {} with {} ({} stage(s)), seed {seed}",
        report.games, report.starts, report.ntuple, report.stages
    );
    println!("average score from the start {:.0} ± {:.0}", report.average, report.average_ci95);
    println!(
        "32768 {}/{}  65536 {}/{}  moves {}  ({:.1} s)",
        games.iter().filter(|g| g.max_tile >= 32768).count(),
        report.games,
        games.iter().filter(|g| g.max_tile >= 65536).count(),
        report.games,
        report.moves,
        report.seconds
    );
    Ok(())
}

fn summarize_window(games: u64, w: &[ntuple::TrainGame], secs: f64) -> TrainWindow {
    let n = w.len().max(1) as f64;
    let reach = |t: u32| w.iter().filter(|g| g.max_tile >= t).count() as f64 / n;
    let moves: u64 = w.iter().map(|g| g.moves).sum();
    TrainWindow {
        games,
        window: w.len() as u64,
        mean_score: w.iter().map(|g| g.score as f64).sum::<f64>() / n,
        max_score: w.iter().map(|g| g.score).max().unwrap_or(0),
        reach_2048: reach(2048),
        reach_8192: reach(8192),
        reach_16384: reach(16384),
        reach_32768: reach(32768),
        mean_moves: moves as f64 / n,
        games_per_second: w.len() as f64 / secs.max(1e-9),
        moves_per_second: moves as f64 / secs.max(1e-9),
    }
}

#[derive(Args, Debug)]
struct PlayArgs {
    /// Number of games.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    games: u64,
    /// One game per master seed S from FIRST to LAST (inclusive), each the game that
    /// `--games 1 --seed S` plays (spawn seed sub_seed(S, 0)): the standard seeds of
    /// BENCHMARKS.md in one run. Replaces --games and --seed.
    #[arg(long, value_name = "FIRST..LAST", conflicts_with = "games")]
    seeds: Option<String>,
    /// Stop a game after this many moves.
    #[arg(long, default_value_t = 1_000_000)]
    max_moves: u64,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
    #[command(flatten)]
    record: RecordArg,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Boards (from random games) to time the move generator on.
    #[arg(long, default_value_t = 200_000, value_parser = clap::value_parser!(u64).range(1000..=10_000_000))]
    boards: u64,
    /// Random games to time per engine (the reference engine plays a tenth of them).
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(10..=10_000_000))]
    random_games: u64,
    /// Positions to search (depth 3) per engine.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    positions: u64,
    /// Late-game positions (from a depth-3 game) to search under nneonneo/2048-ai's depth rule,
    /// with the incremental spawns and the table prefetch each on and off (0 skips the rows).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    late_positions: u64,
    /// Rounds; every figure is the median over the rounds.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=50))]
    repeats: u8,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Args, Debug)]
struct TuneArgs {
    /// Generations.
    #[arg(long, default_value_t = 6)]
    generations: u32,
    /// Children per generation.
    #[arg(long, default_value_t = 3)]
    lambda: u32,
    /// Games per candidate per generation.
    #[arg(long, default_value_t = 8)]
    games: u64,
    /// Mutation step size.
    #[arg(long, default_value_t = 0.25)]
    sigma: f64,
    /// Fixed search depth of the tuning games.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=8),
          conflicts_with = "budget")]
    depth: u8,
    /// Play the tuning games under the node-budget rule (as `play --budget`) instead of a
    /// fixed depth.
    #[arg(long, value_name = "NODES", value_parser = clap::value_parser!(u64).range(1..))]
    budget: Option<u64>,
    /// Smallest depth of the budget rule.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=16))]
    min_depth: u8,
    /// log2 of the transposition table's entries in the tuning games.
    #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u8).range(8..=28))]
    tt_bits: u8,
    /// `plus`: (1+lambda) selection (a child replaces the parent when its average is higher);
    /// `gradient`: antithetic evolution-strategy gradient over lambda pairs of candidates.
    #[arg(long, value_enum, default_value_t = TuneMethod::Plus)]
    method: TuneMethod,
    /// Gradient method: step size (the weights move by RATE times the relative-score
    /// gradient).
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Gradient method: largest move of one coordinate per generation.
    #[arg(long, default_value_t = 0.25)]
    max_step: f64,
    /// Move cap of the tuning games.
    #[arg(long, default_value_t = 1_000_000)]
    max_moves: u64,
    /// Starting weights as a JSON file (default: nneonneo/2048-ai's published weights, the
    /// start of the run that produced the shipped weights).
    #[arg(long, value_name = "FILE")]
    start: Option<PathBuf>,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum TuneMethod {
    Plus,
    Gradient,
}

/// Runs `bitarcade 2048`.
pub fn run(args: Twenty48Args) -> CliResult {
    match args.command {
        Twenty48Command::Play(a) => play(a),
        Twenty48Command::Train(a) => match a.stage {
            1 => train(a),
            _ => train_stage(a),
        },
        Twenty48Command::Starts(a) => starts(a),
        Twenty48Command::FromStarts(a) => from_starts(a),
        Twenty48Command::Bench(a) => bench(a),
        Twenty48Command::Tune(a) => tune(a),
        Twenty48Command::Replay { file, json } => replay(file, json.json),
        Twenty48Command::Best { board, search, json } => best(&board, &search, json.json),
    }
}

/// A player that reports its game's progress, for games that run for minutes (nneonneo's
/// depth rule spends ~30 minutes on a game to 32768): on a terminal in the progress bar's
/// message, otherwise (a log file) as a line on stderr at most once a minute. It only watches:
/// the moves are the inner player's.
struct Watched<'a, P> {
    inner: P,
    index: u64,
    bar: &'a indicatif::ProgressBar,
    terminal: bool,
    start: Instant,
    last_line: Instant,
    moves: u64,
}

impl<'a, P> Watched<'a, P> {
    fn new(inner: P, index: u64, bar: &'a indicatif::ProgressBar) -> Self {
        let now = Instant::now();
        let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
        Watched { inner, index, bar, terminal, start: now, last_line: now, moves: 0 }
    }
}

impl<P: twenty48::Player> twenty48::Player for Watched<'_, P> {
    fn choose(&mut self, board: Board) -> Option<Dir> {
        self.moves += 1;
        if self.moves % 1000 == 0 {
            let what = format!(
                "game {}: move {}, best tile {}",
                self.index,
                self.moves,
                1u32 << board.max_rank()
            );
            if self.terminal {
                self.bar.set_message(what);
            } else if self.last_line.elapsed().as_secs() >= 60 {
                self.last_line = Instant::now();
                eprintln!("2048 {what} ({:.0} s)", self.start.elapsed().as_secs_f64());
            }
        }
        self.inner.choose(board)
    }
}

/// Plays one game with iterative deepening against the clock.
fn play_timed<E: Evaluator>(
    index: u64,
    seed: u64,
    heur: &E,
    cfg: SearchConfig,
    ms: u64,
    max_moves: u64,
) -> GameResult {
    let mut s = Searcher::with_evaluator(heur, cfg);
    let mut g = Game::new(seed);
    let budget = std::time::Duration::from_millis(ms);
    while g.status() == Status::Playing {
        if g.moves() >= max_moves {
            g.stop();
            break;
        }
        let start = Instant::now();
        // Go one layer deeper while the time spent so far is under a quarter of the budget
        // (each layer costs several times the previous one).
        let choice = s.best_move_deepening(g.board(), 2, 16, |_| start.elapsed() * 4 < budget);
        match choice {
            Some(c) => {
                let _ = g.play(c.dir);
            }
            None => g.stop(),
        }
    }
    GameResult::from_game(index, &g, s.nodes(), true)
}

#[derive(Serialize)]
struct PlayReport {
    setting: String,
    seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    seeds: Option<String>,
    threads: usize,
    summary: Summary,
    seconds: f64,
    game_moves_per_second: f64,
    game_moves_per_second_per_thread: f64,
    search_nodes_per_second: f64,
    games: Vec<GameResult>,
}

fn play(a: PlayArgs) -> CliResult {
    let cfg = a.search.config()?;
    match a.search.network()? {
        // A one-stage file plays through the single network's evaluator, exactly as before.
        Some(net) if net.count() == 1 => play_with(&a, cfg, &NetEval(net.stage(0))),
        Some(net) => play_with(&a, cfg, &MultiEval(&net)),
        None => play_with(&a, cfg, &Heuristic::new(a.search.params()?)),
    }
}

/// The spawn seeds of `--seeds FIRST..LAST`, or of `--games N --seed S`.
fn spawn_seeds(a: &PlayArgs) -> CliResult<Vec<u64>> {
    let Some(text) = &a.seeds else {
        return Ok((0..a.games).map(|i| bits::rng::sub_seed(a.seed.seed, i)).collect());
    };
    let bad =
        || CliError::input(format!("--seeds {text:?}: expected FIRST..LAST, e.g. 30000..30095"));
    let (first, last) = text.split_once("..").ok_or_else(bad)?;
    let first: u64 = first.trim().parse().map_err(|_| bad())?;
    let last: u64 = last.trim().parse().map_err(|_| bad())?;
    if last < first || last - first >= 1_000_000 {
        return Err(bad());
    }
    Ok((first..=last).map(|s| bits::rng::sub_seed(s, 0)).collect())
}

fn play_with<E: Evaluator + Sync>(a: &PlayArgs, cfg: SearchConfig, heur: &E) -> CliResult {
    let seeds = spawn_seeds(a)?;
    let games = seeds.len() as u64;
    let threads = a.threads.count().min(seeds.len()).max(1);
    let bar = progress(games, "2048 games");
    let done = AtomicU64::new(0);
    let start = Instant::now();
    let results = a.threads.install(|| {
        batch::play_seeds(
            &seeds,
            |i, seed| match a.search.time_per_move {
                Some(ms) => play_timed(i, seed, heur, cfg, ms, a.max_moves),
                None => {
                    let searcher = Searcher::with_evaluator(heur, cfg);
                    let mut player = Watched::new(SearchPlayer { searcher }, i, &bar);
                    let g = twenty48::game::play_game(seed, &mut player, a.max_moves);
                    GameResult::from_game(i, &g, player.inner.searcher.nodes(), true)
                }
            },
            |_| {
                done.fetch_add(1, Ordering::Relaxed);
                bar.inc(1);
            },
        )
    })?;
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    // Every game is replayed by the independent checker before anything is printed.
    for r in &results {
        let rec = r.record.as_ref().ok_or_else(|| CliError::failed("a game has no record"))?;
        let s = twenty48::replay(rec)
            .map_err(|e| CliError::failed(format!("game {} does not replay: {e}", r.index)))?;
        if s.score != r.score {
            return Err(CliError::failed(format!("game {}: replayed score differs", r.index)));
        }
    }
    if let Some(path) = &a.record.record {
        let recs: Vec<&GameRecord> = results.iter().filter_map(|r| r.record.as_ref()).collect();
        if recs.len() == 1 {
            write_json_file(path, recs[0])?;
        } else {
            write_json_file(path, &recs)?;
        }
    }
    let summary = Summary::of(&results);
    let report = PlayReport {
        setting: a.search.describe(&cfg),
        seed: a.seed.seed,
        seeds: a.seeds.clone(),
        threads,
        seconds,
        game_moves_per_second: summary.moves as f64 / seconds,
        game_moves_per_second_per_thread: summary.moves as f64 / seconds / threads as f64,
        search_nodes_per_second: summary.nodes as f64 / seconds,
        summary,
        games: results,
    };
    if a.json.json {
        return print_json(&report);
    }
    let s = &report.summary;
    println!("setting            {}", report.setting);
    match &report.seeds {
        Some(range) => println!(
            "games              {} (one per master seed {range}, {} threads)",
            s.games, report.threads
        ),
        None => println!(
            "games              {} (seed {}, {} threads)",
            s.games, report.seed, report.threads
        ),
    }
    println!("average score      {:.0} ± {:.0} (95%)", s.average, s.average_ci95);
    println!("median score       {:.0}", s.median);
    println!("best score         {} (best tile {})", s.best, s.best_tile);
    for r in &s.reach {
        println!(
            "reached {:<6}     {:>4}/{}  {:5.1}%  95% CI [{:.1}, {:.1}]",
            r.tile,
            r.count,
            s.games,
            100.0 * r.rate,
            100.0 * r.low,
            100.0 * r.high
        );
    }
    println!(
        "game moves/s       {:.1} in all, {:.1} per thread ({} moves in {:.1} s)",
        report.game_moves_per_second, report.game_moves_per_second_per_thread, s.moves, seconds
    );
    println!("search nodes/s     {:.3e} (move-generator calls)", report.search_nodes_per_second);
    println!(
        "nodes per move     {:.0} (move-generator calls per game move)",
        s.nodes as f64 / s.moves.max(1) as f64
    );
    Ok(())
}

#[derive(Serialize)]
struct EngineFigures {
    move_ns_per_call: f64,
    /// All four moves of a board in one call (`Board::shift_all`), per move.
    four_moves_ns_per_move: f64,
    /// Up and down by transpose, row tables and transpose back (the session-1 path).
    transpose_move_ns_per_call: f64,
    scored_move_ns_per_call: f64,
    random_games_per_second_per_thread: f64,
    search_nodes_per_second: f64,
}

#[derive(Serialize)]
struct BenchReport {
    seed: u64,
    boards: u64,
    random_games_fast: u64,
    random_games_reference: u64,
    search_positions: u64,
    repeats: usize,
    fast: EngineFigures,
    reference: EngineFigures,
    move_speedup: f64,
    four_moves_speedup: f64,
    /// Time per move of the transpose path over the column-table path.
    column_over_transpose: f64,
    random_games_speedup: f64,
    search_speedup: f64,
    /// Late-game positions searched under nneonneo/2048-ai's depth rule.
    late_positions: u64,
    /// Their search nodes per second as shipped (incremental spawns and table prefetch),
    /// with the prefetch alone (session 15's search), and with neither.
    late_nodes_per_second_shipped: f64,
    late_nodes_per_second_prefetch: f64,
    late_nodes_per_second_plain: f64,
    /// The median of the per-round ratios, shipped over prefetch alone.
    incremental_speedup: f64,
    /// The median of the per-round ratios, prefetch alone over neither.
    prefetch_speedup: f64,
    /// Whether the three chose the same moves with the same values and node counts.
    variants_agree: bool,
    engines_agree: bool,
}

/// Times `f` on every (board, direction): ns per call. Each caller gets its own copy of the
/// loop (the closure is inlined), so the variants are timed on equal terms; never inlined
/// itself, so `valgrind --tool=callgrind` can count each variant's instructions.
#[inline(never)]
fn time_moves(boards: &[Board], f: impl Fn(Board, Dir) -> (Board, u32)) -> f64 {
    let start = Instant::now();
    let mut acc = 0u64;
    for &b in boards {
        for d in Dir::ALL {
            let (nb, w) = f(black_box(b), d);
            acc = acc.wrapping_add(nb.0 ^ u64::from(w));
        }
    }
    black_box(acc);
    start.elapsed().as_nanos() as f64 / (4 * boards.len()) as f64
}

/// Times `MoveGen::shift_all` (the four moves of a board in one call): ns per move.
#[inline(never)]
fn time_all_moves<G: MoveGen>(gen: &G, boards: &[Board]) -> f64 {
    let start = Instant::now();
    let mut acc = 0u64;
    for &b in boards {
        let m = gen.shift_all(black_box(b));
        for nb in m.boards {
            acc = acc.wrapping_add(nb.0);
        }
        acc ^= u64::from(m.overflow);
    }
    black_box(acc);
    start.elapsed().as_nanos() as f64 / (4 * boards.len()) as f64
}

fn time_random_games<G: MoveGen>(gen: &G, seed: u64, games: u64) -> (f64, u64, Vec<u64>) {
    let start = Instant::now();
    let mut moves = 0;
    let mut finals = Vec::with_capacity(games as usize);
    for i in 0..games {
        let p = random_playout(bits::rng::sub_seed(seed, i), gen);
        moves += p.moves;
        finals.push(p.board.0 ^ p.score);
    }
    let secs = start.elapsed().as_secs_f64();
    (games as f64 / secs, moves, finals)
}

fn time_search<G: MoveGen + Copy>(
    heur: &Heuristic,
    gen: G,
    positions: &[Board],
) -> (f64, Vec<u64>) {
    let cfg = SearchConfig {
        depth: Depth::Fixed(3),
        prob_cutoff: 1e-4,
        tt_bits: 18,
        ..Default::default()
    };
    let mut s = Searcher::with_movegen(heur, cfg, gen);
    let start = Instant::now();
    let mut choices = Vec::new();
    for &b in positions {
        choices.push(s.best_move(b).map_or(9, |c| c.dir.index() as u64));
    }
    let secs = start.elapsed().as_secs_f64();
    choices.push(s.nodes());
    (s.nodes() as f64 / secs, choices)
}

/// Late-game boards: every 50th board of a depth-3 game from its 1,000th move on.
fn late_positions(heur: &Heuristic, seed: u64, count: u64) -> Vec<Board> {
    let mut positions = Vec::new();
    let mut game = Game::new(bits::rng::sub_seed(seed ^ 0x1A7E, 0));
    let mut s = Searcher::new(heur, SearchConfig { depth: Depth::Fixed(3), ..Default::default() });
    while (positions.len() as u64) < count && game.status() == Status::Playing {
        if game.moves() >= 1000 && game.moves() % 50 == 0 {
            positions.push(game.board());
        }
        let Some(c) = s.best_move(game.board()) else { break };
        let _ = game.play(c.dir);
    }
    positions
}

/// Searches `positions` under nneonneo/2048-ai's depth rule: nodes per second, and every
/// choice (move, value bits, nodes) so that two settings can be checked for the same answers.
fn time_reference_rule(
    heur: &Heuristic,
    positions: &[Board],
    (prefetch, incremental): (bool, bool),
) -> (f64, Vec<u64>) {
    let cfg = SearchConfig { prefetch, incremental, ..Default::default() };
    let mut s = Searcher::new(heur, cfg);
    let start = Instant::now();
    let mut choices = Vec::new();
    for &b in positions {
        let c = s.best_move(b);
        choices.push(c.map_or(9, |c| c.dir.index() as u64 | u64::from(c.value.to_bits()) << 8));
        choices.push(s.nodes());
    }
    let secs = start.elapsed().as_secs_f64();
    (s.nodes() as f64 / secs, choices)
}

fn bench(a: BenchArgs) -> CliResult {
    let seed = a.seed.seed;
    // Boards met in play: every board of random games, until there are enough.
    let mut boards = Vec::with_capacity(a.boards as usize);
    let mut i = 0;
    while (boards.len() as u64) < a.boards {
        let mut g = Game::new(bits::rng::sub_seed(seed ^ 0xB0A2D, i));
        let mut p = twenty48::RandomPlayer::new(i);
        while g.status() == Status::Playing && (boards.len() as u64) < a.boards {
            boards.push(g.board());
            let Some(d) = twenty48::Player::choose(&mut p, g.board()) else { break };
            let _ = g.play(d);
        }
        i += 1;
    }
    // Search positions from an expectimax game (mid-game boards).
    let heur = Heuristic::new(Params::SHIPPED);
    let mut positions = Vec::new();
    let mut game = Game::new(seed);
    let mut picker =
        Searcher::new(&heur, SearchConfig { depth: Depth::Fixed(2), ..Default::default() });
    while (positions.len() as u64) < a.positions && game.status() == Status::Playing {
        if game.moves() % 5 == 0 {
            positions.push(game.board());
        }
        let Some(c) = picker.best_move(game.board()) else { break };
        let _ = game.play(c.dir);
    }

    let late = late_positions(&heur, seed, a.late_positions);

    let ref_games = (a.random_games / 10).max(1);
    // Each figure is the median of `repeats` rounds; within a round the engines run back to
    // back, so a burst of load from other processes hits both sides of a ratio alike.
    let reps = usize::from(a.repeats);
    let mut rows: Vec<[f64; 13]> = Vec::with_capacity(reps);
    let mut engines_agree = true;
    let mut variants_agree = true;
    for _ in 0..reps {
        let shift = |b: Board, d| {
            let (nb, o) = b.shift(d);
            (nb, u32::from(o))
        };
        let fast_ns = time_moves(&boards, shift);
        let ref_ns = time_moves(&boards, |b, d| {
            let (nb, o) = ReferenceMoves.shift(b, d);
            (nb, u32::from(o))
        });
        let fast_scored_ns = time_moves(&boards, |b: Board, d| b.slide(d));
        let fast_all_ns = time_all_moves(&FastMoves, &boards);
        let fast_transpose_ns = time_moves(&boards, |b: Board, d| {
            let (nb, o) = b.shift_by_transpose(d);
            (nb, u32::from(o))
        });
        let ref_all_ns = time_all_moves(&ReferenceMoves, &boards);
        let (fast_gps, _, fast_finals) = time_random_games(&FastMoves, seed, a.random_games);
        let (ref_gps, _, ref_finals) = time_random_games(&ReferenceMoves, seed, ref_games);
        let (fast_nps, fast_choices) = time_search(&heur, FastMoves, &positions);
        let (ref_nps, ref_choices) = time_search(&heur, ReferenceMoves, &positions);
        engines_agree &=
            fast_finals[..ref_finals.len()] == ref_finals[..] && fast_choices == ref_choices;
        // Shipped, prefetch alone, neither; rotate which goes first, so a drift in the
        // machine's load favours none of them.
        let settings = [(true, true), (true, false), (false, false)];
        let mut late_nps = [0.0; 3];
        let mut late_choices: [Vec<u64>; 3] = Default::default();
        for k in 0..3 {
            let i = (k + rows.len()) % 3;
            (late_nps[i], late_choices[i]) = time_reference_rule(&heur, &late, settings[i]);
        }
        variants_agree &= late_choices[0] == late_choices[2] && late_choices[1] == late_choices[2];
        rows.push([
            fast_ns,
            ref_ns,
            fast_scored_ns,
            fast_gps,
            ref_gps,
            fast_nps,
            ref_nps,
            fast_all_ns,
            fast_transpose_ns,
            ref_all_ns,
            late_nps[1],
            late_nps[2],
            late_nps[0],
        ]);
    }
    let median = |k: usize| {
        let mut v: Vec<f64> = rows.iter().map(|r| r[k]).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let ratio = |num: usize, den: usize| {
        let mut v: Vec<f64> = rows.iter().map(|r| r[num] / r[den]).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (fast_ns, ref_ns, fast_scored_ns) = (median(0), median(1), median(2));
    let (fast_gps, ref_gps, fast_nps, ref_nps) = (median(3), median(4), median(5), median(6));
    let (fast_all_ns, fast_transpose_ns, ref_all_ns) = (median(7), median(8), median(9));
    let report = BenchReport {
        seed,
        boards: boards.len() as u64,
        random_games_fast: a.random_games,
        random_games_reference: ref_games,
        search_positions: positions.len() as u64,
        fast: EngineFigures {
            move_ns_per_call: fast_ns,
            four_moves_ns_per_move: fast_all_ns,
            transpose_move_ns_per_call: fast_transpose_ns,
            scored_move_ns_per_call: fast_scored_ns,
            random_games_per_second_per_thread: fast_gps,
            search_nodes_per_second: fast_nps,
        },
        reference: EngineFigures {
            move_ns_per_call: ref_ns,
            four_moves_ns_per_move: ref_all_ns,
            transpose_move_ns_per_call: ref_ns,
            scored_move_ns_per_call: ref_ns,
            random_games_per_second_per_thread: ref_gps,
            search_nodes_per_second: ref_nps,
        },
        repeats: reps,
        move_speedup: ratio(1, 0),
        four_moves_speedup: ratio(9, 7),
        column_over_transpose: ratio(8, 0),
        random_games_speedup: ratio(3, 4),
        search_speedup: ratio(5, 6),
        late_positions: late.len() as u64,
        late_nodes_per_second_shipped: median(12),
        late_nodes_per_second_prefetch: median(10),
        late_nodes_per_second_plain: median(11),
        incremental_speedup: if late.is_empty() { 1.0 } else { ratio(12, 10) },
        prefetch_speedup: if late.is_empty() { 1.0 } else { ratio(10, 11) },
        variants_agree,
        engines_agree,
    };
    if a.json.json {
        print_json(&report)?;
    } else {
        println!("{:<40} {:>14} {:>14} {:>9}", "", "table engine", "reference", "speedup");
        println!(
            "{:<40} {:>14.2} {:>14.2} {:>8.1}x",
            "one move per call, ns (Board::shift)", fast_ns, ref_ns, report.move_speedup
        );
        println!(
            "{:<40} {:>14.2} {:>14.2} {:>8.1}x",
            "four moves per call, ns per move (search)",
            fast_all_ns,
            ref_all_ns,
            report.four_moves_speedup
        );
        println!(
            "{:<40} {:>14.2} {:>14} {:>8}",
            "one move per call, up/down by transpose",
            fast_transpose_ns,
            "",
            format!("{:.2}x", report.column_over_transpose)
        );
        println!(
            "{:<40} {:>14.2} {:>14.2} {:>8.1}x",
            "  with the score (play path)",
            fast_scored_ns,
            ref_ns,
            ref_ns / fast_scored_ns
        );
        println!(
            "{:<40} {:>14.0} {:>14.0} {:>8.1}x",
            "random games per second, one thread", fast_gps, ref_gps, report.random_games_speedup
        );
        println!(
            "{:<40} {:>14.3e} {:>14.3e} {:>8.1}x",
            "search nodes per second (depth 3)", fast_nps, ref_nps, report.search_speedup
        );
        if !late.is_empty() {
            println!(
                "{:<40} {:>14.3e} {:>14.3e} {:>8.2}x",
                "nneonneo rule: incremental vs prefetch",
                report.late_nodes_per_second_shipped,
                report.late_nodes_per_second_prefetch,
                report.incremental_speedup
            );
            println!(
                "{:<40} {:>14.3e} {:>14.3e} {:>8.2}x",
                "nneonneo depth rule: prefetch vs none",
                report.late_nodes_per_second_prefetch,
                report.late_nodes_per_second_plain,
                report.prefetch_speedup
            );
        }
        println!(
            "(medians of {reps} rounds; {} boards x 4 moves; {} / {} random games; {} search \
             positions; {} late positions; seed {seed}; engines agree: {}; incremental and \
             prefetch change nothing: {})",
            report.boards,
            a.random_games,
            ref_games,
            report.search_positions,
            report.late_positions,
            engines_agree,
            variants_agree
        );
    }
    if !engines_agree {
        return Err(CliError::failed("the table engine and the reference engine disagree"));
    }
    if !variants_agree {
        return Err(CliError::failed(
            "the search with incremental spawns or the table prefetch chose differently",
        ));
    }
    Ok(())
}

#[derive(Serialize)]
struct TuneReport {
    method: TuneMethod,
    config: twenty48::tune::TuneConfig,
    #[serde(skip_serializing_if = "Option::is_none")]
    gradient: Option<twenty48::tune::GradientConfig>,
    start: Params,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    generations: Vec<twenty48::tune::Generation>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    gradient_generations: Vec<twenty48::tune::GradientGeneration>,
    params: Params,
}

fn tune(a: TuneArgs) -> CliResult {
    if a.lambda == 0 || a.games == 0 || a.generations == 0 {
        return Err(CliError::input("--generations, --lambda and --games must be at least 1"));
    }
    if !(a.sigma > 0.0 && a.sigma <= 5.0) {
        return Err(CliError::input("--sigma must be in (0, 5]"));
    }
    if !(a.rate > 0.0 && a.rate <= 100.0 && a.max_step > 0.0 && a.max_step <= 5.0) {
        return Err(CliError::input("--rate must be in (0, 100] and --max-step in (0, 5]"));
    }
    let depth = match a.budget {
        Some(nodes) => Depth::Budget { nodes, min: a.min_depth, max: 16 },
        None => Depth::Fixed(a.depth),
    };
    let cfg = twenty48::tune::TuneConfig {
        generations: a.generations,
        lambda: a.lambda,
        games: a.games,
        sigma: a.sigma,
        search: SearchConfig { depth, tt_bits: a.tt_bits, ..Default::default() },
        max_moves: a.max_moves,
        seed: a.seed.seed,
    };
    let start = match &a.start {
        Some(p) => read_json_file(p)?,
        None => Params::NNEONNEO,
    };
    let json = a.json.json;
    let mut report = TuneReport {
        method: a.method,
        config: cfg,
        gradient: None,
        start,
        generations: Vec::new(),
        gradient_generations: Vec::new(),
        params: start,
    };
    report.params = match a.method {
        TuneMethod::Plus => a.threads.install(|| {
            twenty48::tune::tune(start, &cfg, |g| {
                if !json {
                    let best = g.child_scores.iter().copied().fold(f64::MIN, f64::max);
                    eprintln!(
                        "generation {:>3}: parent {:>9.0}, best child {:>9.0}{}",
                        g.generation,
                        g.parent_score,
                        best,
                        if g.improved { "  (replaced)" } else { "" }
                    );
                }
                report.generations.push(g.clone());
            })
        })?,
        TuneMethod::Gradient => {
            let grad = twenty48::tune::GradientConfig { rate: a.rate, max_step: a.max_step };
            report.gradient = Some(grad);
            a.threads.install(|| {
                twenty48::tune::tune_gradient(start, &cfg, &grad, |g| {
                    // Progress on stderr in both modes: a gradient run is long.
                    let text = serde_json::to_string(&g.params).unwrap_or_default();
                    eprintln!(
                        "generation {:>3}: mean {:>9.0}, gradient {:?}, params {text}",
                        g.generation,
                        g.mean_score,
                        g.gradient.map(|x| (x * 1000.0).round() / 1000.0),
                    );
                    report.gradient_generations.push(g.clone());
                })
            })?
        }
    };
    if json {
        print_json(&report)
    } else {
        let text = serde_json::to_string(&report.params)
            .map_err(|e| CliError::failed(format!("cannot encode JSON: {e}")))?;
        println!("params {text}");
        Ok(())
    }
}

#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Records {
    One(GameRecord),
    Many(Vec<GameRecord>),
}

#[derive(Serialize)]
struct ReplayReport {
    records: usize,
    moves: u64,
    scores: Vec<u64>,
    max_tiles: Vec<u32>,
    ok: bool,
}

fn replay(file: PathBuf, json: bool) -> CliResult {
    let recs = match read_json_file::<Records>(&file)? {
        Records::One(r) => vec![r],
        Records::Many(v) => v,
    };
    let mut report =
        ReplayReport { records: recs.len(), moves: 0, scores: vec![], max_tiles: vec![], ok: true };
    for (i, rec) in recs.iter().enumerate() {
        let s = twenty48::replay(rec).map_err(|e| {
            let which = if recs.len() > 1 { format!(" record {i}") } else { String::new() };
            CliError::failed(format!("{}{which}: {e}", file.display()))
        })?;
        report.moves += s.moves;
        report.scores.push(s.score);
        report.max_tiles.push(s.max_tile);
    }
    if json {
        print_json(&report)
    } else {
        for (i, (s, t)) in report.scores.iter().zip(&report.max_tiles).enumerate() {
            println!("record {i}: ok, score {s}, max tile {t}");
        }
        println!("{} record(s), {} moves: all replay", report.records, report.moves);
        Ok(())
    }
}

#[derive(Serialize)]
struct BestReport {
    board: String,
    best: Option<String>,
    value: Option<f32>,
    depth: Option<u8>,
    nodes: u64,
}

fn best(text: &str, search: &SearchArgs, json: bool) -> CliResult {
    let board: Board = text.parse().map_err(|e| CliError::input(format!("board {text:?}: {e}")))?;
    let cfg = search.config()?;
    match search.network()? {
        Some(net) if net.count() == 1 => {
            best_with(board, search, json, cfg, &NetEval(net.stage(0)))
        }
        Some(net) => best_with(board, search, json, cfg, &MultiEval(&net)),
        None => best_with(board, search, json, cfg, &Heuristic::new(search.params()?)),
    }
}

fn best_with<E: Evaluator>(
    board: Board,
    search: &SearchArgs,
    json: bool,
    cfg: SearchConfig,
    heur: &E,
) -> CliResult {
    let mut s = Searcher::with_evaluator(heur, cfg);
    let c = match search.time_per_move {
        Some(ms) => {
            let start = Instant::now();
            let budget = std::time::Duration::from_millis(ms);
            s.best_move_deepening(board, 2, 16, |_| start.elapsed() * 4 < budget)
        }
        None => s.best_move(board),
    };
    // The answer is checked by the engine's own rules before it is printed.
    if let Some(c) = c {
        if board.play(c.dir) == Err(twenty48::MoveError::Illegal) {
            return Err(CliError::failed(format!("search chose illegal move {}", c.dir)));
        }
    }
    let report = BestReport {
        board: board.to_string(),
        best: c.map(|c| c.dir.letter().to_string()),
        value: c.map(|c| c.value),
        depth: c.map(|c| c.depth),
        nodes: s.nodes(),
    };
    if json {
        print_json(&report)
    } else {
        println!("{board:#}");
        match c {
            Some(c) => println!(
                "best move {} (value {:.0}, depth {}, {} nodes)",
                c.dir,
                c.value,
                c.depth,
                s.nodes()
            ),
            None => println!("no legal move: the game is over"),
        }
        Ok(())
    }
}
