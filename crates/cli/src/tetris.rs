//! `bitarcade tetris ...`: perfect-clear solving, exhaustive sweeps, the public benchmark,
//! move-ordering training and replay of solution records.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use tetris::api::{
    self, BenchRequest, Control, PcSolveRequest, PercentRequest, Shard, SweepRequest, TrainRequest,
};
use tetris::KickTable;

use crate::common::{
    follow, input_file, print_or_json, progress, read_input, write_json_file, CliError, CliResult,
    JsonArg, RecordArg, SeedArg, ThreadsArg,
};

/// Tetris perfect clears: pc, percent, sweep, bench, train, replay.
#[derive(Args, Debug)]
pub struct TetrisArgs {
    #[command(subcommand)]
    command: Verb,
}

#[derive(Subcommand, Debug)]
enum Verb {
    /// Find a perfect clear (first solution, smallest feasible height) and print it, verified.
    #[command(after_help = "Examples:\n  \
        bitarcade tetris pc --queue IOTLJSZIOTS\n  \
        bitarcade tetris pc --queue TLJSZIOTS --hold I --kicks srs --json\n  \
        printf 'X.........\\nX.........\\nXXX...X...\\nXXX..XXX..\\n' | \
        bitarcade tetris pc --queue LJSZIOT --field - --height 4\n  \
        bitarcade tetris pc --queue IOTLJSZIOTSZLJOI --min-height 4\n  \
        bitarcade tetris pc --queue LJSZIOT --fumen 'v115@9gA8IeA8IeC8CeA8CeC8BeC8LeAgH' --record pc.json\n  \
        bitarcade tetris replay pc.json\n\n\
        Field text: rows top first, '.' empty, any other character filled, 10 per row.\n\
        Kick tables: none, srs, srs+ (with 180), srs-tetrio, or a file (see the tetris crate's kicks docs).")]
    Pc(PcArgs),
    /// PC odds over every queue of a pattern: how many have a PC, which fail, rates by the
    /// first pieces.
    #[command(after_help = "Examples:\n  \
        bitarcade tetris percent --pattern '*p7,*p4'\n  \
        bitarcade tetris percent --pattern '*p7' --height 2 --fails fails.txt\n  \
        printf 'XXX.......\\nXXX.......\\nXXX.......\\nXXX.......\\n' | \
        bitarcade tetris percent --field - --pattern 'I,*p7' --tree 1\n  \
        bitarcade tetris percent --fumen 'v115@9gA8IeA8IeC8CeA8CeC8BeC8LeAgH' --pattern '*p7' --json\n  \
        bitarcade tetris percent --pattern '*,*p7,*p3; *,*p6,*p4' --kicks srs+ --no-hold\n\n\
        Patterns (solution-finder's syntax): T (a piece; TSZ is T,S,Z), * (any piece), [IJL] (one of), \
        [^IJL] (one not of), *p4 or [IJL]p2 (distinct pieces of the set in any order), *! or [TIO]! \
        (all of the set), joined by commas; several patterns joined by ';' are counted on their own \
        and added up. Queues are cut to the pieces that matter (the pieces to place, plus one with \
        hold) and each distinct queue counts once. Hold starts empty: a piece already held is the \
        pattern's first.\n\
        The answer comes from every clearing order of the field (no hold) and a walk over the \
        queues' hold choices; --check N re-solves N queues one by one with the DFS solver, each PC \
        replayed, and stops with an error on any disagreement.")]
    Percent(PercentArgs),
    /// Solve every canonical queue of a height (2: 57,750 queues; 4: 79,516,080) and count.
    #[command(after_help = "Examples:\n  \
        bitarcade tetris sweep --height 2\n  \
        bitarcade tetris sweep --height 2 --brute --json\n  \
        bitarcade tetris sweep --height 4 --shard 1/1000 --threads 2")]
    Sweep(SweepArgs),
    /// The public benchmark: seeded opener queues, SRS+, hold, first solution, one thread.
    #[command(after_help = "Examples:\n  \
        bitarcade tetris bench\n  \
        bitarcade tetris bench --count 200 --seed 1 --json\n  \
        bitarcade tetris bench --lines 6 --count 50\n  \
        bitarcade tetris bench --lines 20 --count 100\n  \
        bitarcade tetris bench --lines 4 --runs 10 --json   (mean: median of 10 runs; cpu_mean_ms: \
        thread CPU time, robust to load)")]
    Bench(BenchArgs),
    /// Fit the move-ordering weights with a seeded (1+lambda) evolution strategy.
    #[command(after_help = "Examples:\n  \
        bitarcade tetris train --generations 30 --seed 7\n  \
        bitarcade tetris train --lines 4 --start trained --queues 300 --generations 40\n  \
        bitarcade tetris train --queues 100 --generations 10 --json")]
    Train(TrainArgs),
    /// Check a solution record written by `pc --record`; exits 1 at the first bad step.
    #[command(after_help = "Examples:\n  \
        bitarcade tetris pc --queue IOTLJSZIOTS --record pc.json && bitarcade tetris replay pc.json\n  \
        cat pc.json | bitarcade tetris replay -")]
    Replay {
        /// The record (`-` for stdin).
        file: PathBuf,
        #[command(flatten)]
        json: JsonArg,
    },
}

/// The starting field of `pc` and `percent`.
#[derive(Args, Debug)]
struct FieldArgs {
    /// Starting field as text (rows top first, '.' empty); `-` for stdin.
    #[arg(long, value_name = "FILE", conflicts_with = "fumen")]
    field: Option<PathBuf>,
    /// Starting field as a fumen string (v115@...).
    #[arg(long, value_name = "FUMEN")]
    fumen: Option<String>,
}

#[derive(Args, Debug)]
struct PcArgs {
    /// The queue, current piece first (letters I O T S Z J L).
    #[arg(long, short = 'q')]
    queue: String,
    /// The piece already in hold.
    #[arg(long)]
    hold: Option<String>,
    /// Forbid hold.
    #[arg(long)]
    no_hold: bool,
    #[command(flatten)]
    start: FieldArgs,
    /// Kick table: none, srs, srs+, srs-tetrio, or a kick table file.
    #[arg(long, default_value_t = PcSolveRequest::default().kicks)]
    kicks: String,
    /// Only this PC height (lines); default: the smallest feasible.
    #[arg(long, conflicts_with = "min_height")]
    height: Option<u32>,
    /// Only PC heights of at least this many lines (the smallest feasible of them first).
    #[arg(long, value_name = "N")]
    min_height: Option<u32>,
    /// The piece that must be left in hold after the PC.
    #[arg(long)]
    save_hold: Option<String>,
    /// Give up after this many search nodes.
    #[arg(long)]
    node_limit: Option<u64>,
    #[command(flatten)]
    json: JsonArg,
    #[command(flatten)]
    record: RecordArg,
}

#[derive(Args, Debug)]
struct PercentArgs {
    /// The queues, in solution-finder's pattern syntax (see below).
    #[arg(long, short = 'p')]
    pattern: String,
    /// Allow hold (the default).
    #[arg(long, conflicts_with = "no_hold")]
    hold: bool,
    /// Forbid hold.
    #[arg(long)]
    no_hold: bool,
    #[command(flatten)]
    start: FieldArgs,
    /// PC height in lines (solution-finder's --clear-line).
    #[arg(long, default_value_t = PercentRequest::default().height)]
    height: u32,
    /// Kick table: none, srs, srs+, srs-tetrio, or a kick table file.
    #[arg(long, default_value_t = PercentRequest::default().kicks)]
    kicks: String,
    /// Write every queue with no PC to FILE, one per line (`-` for stdout).
    #[arg(long, value_name = "FILE")]
    fails: Option<PathBuf>,
    /// Print the success rates by the first pieces, to this depth.
    #[arg(long, value_name = "DEPTH", default_value_t = 0)]
    tree: u32,
    /// Queues re-solved one by one by the DFS solver (each PC replayed); 0 turns it off.
    #[arg(long, value_name = "N", default_value_t = PercentRequest::default().check)]
    check: u32,
    /// Only shard K of N (1-based) of the queues, by their first two pieces; shards add up.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Fields followed per order prefix in the order search (0: all); default: all when a PC
    /// places up to 9 pieces, else 256. The answer is exact either way: the DFS solver decides
    /// the queues the orders do not certify. For many queues from an empty field, 0 is the
    /// fast way (a 4-line PC: about 5 CPU-minutes and 8 GB, then every queue at once).
    #[arg(long, value_name = "K")]
    beam: Option<u32>,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Args, Debug)]
struct SweepArgs {
    /// PC height: 2 (queues of 5 + hold) or 4 (10 + hold).
    #[arg(long, default_value_t = SweepRequest::default().height)]
    height: u32,
    /// Only shard K of N (1-based): items whose index mod N is K-1.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Kick table (the spec's known answers are under srs).
    #[arg(long, default_value_t = SweepRequest::default().kicks)]
    kicks: String,
    /// Also run the brute-force solver on every item and fail on any disagreement.
    #[arg(long)]
    brute: bool,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Queues per line count.
    #[arg(long, default_value_t = BenchRequest::default().count)]
    count: u64,
    /// PC lines: 4, 6, both (0), or any even height up to 40 (8, 10, 20: PCs taller than the
    /// six-row zone, the stack kept within its bottom six rows).
    #[arg(long, default_value_t = BenchRequest::default().lines)]
    lines: u32,
    /// Kick table.
    #[arg(long, default_value_t = BenchRequest::default().kicks)]
    kicks: String,
    /// Ordering weights: "trained" (the shipped ones: trained4 up to 4 lines, trained above),
    /// "trained4", "hand", "zero", or 11 comma-separated integers (for every height).
    #[arg(long, default_value_t = BenchRequest::default().weights)]
    weights: String,
    /// Node budget unit of the Luby restart schedule (0: no restarts), for ablations.
    #[arg(long, default_value_t = BenchRequest::default().restart_base)]
    restart_base: u64,
    /// Pieces left at or below which the tiling check runs (0: off), for ablations; default
    /// 5 for PCs of up to 4 lines, 4 above.
    #[arg(long)]
    tile_depth: Option<u32>,
    /// Depth of the tiling-prefix test above the tiling depth (0: off), for ablations.
    #[arg(long, default_value_t = BenchRequest::default().prefix_depth)]
    prefix_depth: u32,
    /// Solve the queues this many times back to back: the mean is the median of the runs'
    /// means (and the CPU mean the median of theirs), each queue's time the median of its runs.
    #[arg(long, default_value_t = BenchRequest::default().runs)]
    runs: u32,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Args, Debug)]
struct TrainArgs {
    /// Training queues per line count (disjoint from the benchmark's: seed S + 1000).
    #[arg(long, default_value_t = TrainRequest::default().queues)]
    queues: u64,
    /// Generations of the (1+lambda) evolution strategy.
    #[arg(long, default_value_t = TrainRequest::default().generations)]
    generations: u32,
    /// Offspring per generation.
    #[arg(long, default_value_t = TrainRequest::default().lambda)]
    lambda: u32,
    /// Train on 4-line queues, 6-line queues, or both (0).
    #[arg(long, default_value_t = TrainRequest::default().lines)]
    lines: u32,
    /// Starting weights (as for `bench --weights`).
    #[arg(long, default_value_t = TrainRequest::default().start)]
    start: String,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
}

/// Runs `bitarcade tetris`.
pub fn run(args: TetrisArgs) -> CliResult {
    match args.command {
        Verb::Pc(a) => pc(a),
        Verb::Percent(a) => percent(a),
        Verb::Sweep(a) => sweep(a),
        Verb::Bench(a) => bench(a),
        Verb::Train(a) => train(a),
        Verb::Replay { file, json } => replay(&file, json.json),
    }
}

/// The text of `--kicks FILE` when it names a file rather than a built-in table.
fn kick_file(spec: &str) -> CliResult<Option<String>> {
    let path = Path::new(spec);
    if KickTable::named(spec).is_some() || !path.exists() {
        return Ok(None);
    }
    read_input(path).map(Some)
}

fn pc(a: PcArgs) -> CliResult {
    let kick_table = kick_file(&a.kicks)?;
    let req = PcSolveRequest {
        queue: a.queue,
        hold: a.hold,
        use_hold: !a.no_hold,
        field: a.start.field.as_deref().map(input_file),
        fumen: a.start.fumen,
        kicks: a.kicks,
        kick_table,
        height: a.height,
        min_height: a.min_height,
        save_hold: a.save_hold,
        node_limit: a.node_limit,
    };
    let out = api::pc(&req, Control::new())?;
    if let (Some(path), Some(rec)) = (&a.record.record, &out.record) {
        write_json_file(path, rec)?;
    }
    print_or_json(a.json.json, &out.report)
}

fn replay(file: &Path, json: bool) -> CliResult {
    let req = api::ReplayRequest { file: input_file(file) };
    print_or_json(json, &api::replay(&req, Control::new())?)
}

fn percent(a: PercentArgs) -> CliResult {
    let shard: Shard = a.shard.as_deref().map(str::parse).transpose()?.unwrap_or_default();
    let req = PercentRequest {
        pattern: a.pattern,
        hold: !a.no_hold,
        field: a.start.field.as_deref().map(input_file),
        fumen: a.start.fumen,
        height: a.height,
        kick_table: kick_file(&a.kicks)?,
        kicks: a.kicks,
        fails: a.fails.is_some(),
        tree: a.tree,
        check: a.check,
        shard,
        beam: a.beam,
    };
    let bar = progress(0, "percent");
    let tick = follow(&bar, "", false);
    let mut out =
        a.threads.install(|| api::percent(&req, Control::new().with_progress(&tick)))??;
    bar.finish_and_clear();
    if let Some(path) = &a.fails {
        let mut text = out.fails.join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        if path.as_os_str() == "-" {
            print!("{text}");
        } else {
            std::fs::write(path, text).map_err(|e| {
                CliError::failed(format!("{}: cannot write the fails: {e}", path.display()))
            })?;
        }
        if !a.json.json {
            // The list went to its file; the summary says how many.
            let n = out.fails.len();
            out.fails.clear();
            print_or_json(false, &out)?;
            if path.as_os_str() != "-" {
                println!("{n} queues with no PC written to {}", path.display());
            }
            return Ok(());
        }
    }
    print_or_json(a.json.json, &out)
}

fn sweep(a: SweepArgs) -> CliResult {
    let shard: Shard = a.shard.as_deref().map(str::parse).transpose()?.unwrap_or_default();
    let req = SweepRequest {
        height: a.height,
        shard,
        kick_table: kick_file(&a.kicks)?,
        kicks: a.kicks,
        brute: a.brute,
    };
    let bar = progress(0, "sweep");
    let tick = follow(&bar, "", false);
    let report = a.threads.install(|| api::sweep(&req, Control::new().with_progress(&tick)))??;
    bar.finish_and_clear();
    print_or_json(a.json.json, &report)
}

fn bench(a: BenchArgs) -> CliResult {
    let req = BenchRequest {
        count: a.count,
        lines: a.lines,
        kick_table: kick_file(&a.kicks)?,
        kicks: a.kicks,
        weights: a.weights,
        restart_base: a.restart_base,
        tile_depth: a.tile_depth,
        prefix_depth: a.prefix_depth,
        runs: a.runs,
        seed: a.seed.seed,
    };
    print_or_json(a.json.json, &api::bench(&req, Control::new())?)
}

fn train(a: TrainArgs) -> CliResult {
    let req = TrainRequest {
        queues: a.queues,
        generations: a.generations,
        lambda: a.lambda,
        lines: a.lines,
        start: a.start,
        seed: a.seed.seed,
    };
    let bar = progress(u64::from(a.generations), "train");
    let tick = follow(&bar, "", false);
    let out = a.threads.install(|| api::train(&req, Control::new().with_progress(&tick)))??;
    bar.finish_and_clear();
    print_or_json(a.json.json, &out)
}
