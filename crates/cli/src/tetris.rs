//! `bitarcade tetris ...`: perfect-clear solving, exhaustive sweeps, the public benchmark,
//! move-ordering training and replay of solution records.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use clap::{Args, Subcommand};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use tetris::bag::{for_each_canonical, opener_queue};
use tetris::inputs::{self, keys_string, Key};
use tetris::piece::{parse_queue, queue_string};
use tetris::solver::{Outcome, PcRequest, Solution, Solver, Step, Weights};
use tetris::{fumen_io, trace, Board, KickTable, Piece};

use crate::common::{
    print_json, progress, read_input, read_json_file, write_json_file, CliError, CliResult,
    JsonArg, RecordArg, SeedArg, ThreadsArg,
};

/// Tetris perfect clears: solve, sweep, bench, train, replay.
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
        bitarcade tetris pc --queue TLJSZIOT --hold I --kicks srs --json\n  \
        bitarcade tetris pc --queue IJLOSTZ --field field.txt --height 4\n  \
        bitarcade tetris pc --queue IOTLJSZIOTSZLJOI --min-height 4\n  \
        bitarcade tetris pc --queue LJSZIO --fumen 'v115@9gB8HeC8GeD8GeC8PeAgH' --record pc.json\n  \
        bitarcade tetris replay pc.json\n\n\
        Field text: rows top first, '.' empty, any other character filled, 10 per row.\n\
        Kick tables: none, srs, srs+ (with 180), srs-tetrio, or a file (see the tetris crate's kicks docs).")]
    Pc(PcArgs),
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
    /// Starting field as text (rows top first, '.' empty); `-` for stdin.
    #[arg(long, value_name = "FILE", conflicts_with = "fumen")]
    field: Option<PathBuf>,
    /// Starting field as a fumen string (v115@...).
    #[arg(long, value_name = "FUMEN")]
    fumen: Option<String>,
    /// Kick table: none, srs, srs+, srs-tetrio, or a kick table file.
    #[arg(long, default_value = "srs+")]
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
struct SweepArgs {
    /// PC height: 2 (queues of 5 + hold) or 4 (10 + hold).
    #[arg(long, default_value_t = 2)]
    height: u32,
    /// Only shard K of N (1-based): items whose index mod N is K-1.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Kick table (the spec's known answers are under srs).
    #[arg(long, default_value = "srs")]
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
    #[arg(long, default_value_t = 200)]
    count: u64,
    /// 4, 6, or both (0).
    #[arg(long, default_value_t = 0)]
    lines: u32,
    /// Kick table.
    #[arg(long, default_value = "srs+")]
    kicks: String,
    /// Ordering weights: "trained" (the shipped ones: trained4 up to 4 lines, trained above),
    /// "trained4", "hand", "zero", or 11 comma-separated integers (for every height).
    #[arg(long, default_value = "trained")]
    weights: String,
    /// Node budget unit of the Luby restart schedule (0: no restarts), for ablations.
    #[arg(long, default_value_t = Solver::DEFAULT_RESTART_BASE)]
    restart_base: u64,
    /// Pieces left at or below which the tiling check runs (0: off), for ablations; default
    /// 5 for PCs of up to 4 lines, 4 above.
    #[arg(long)]
    tile_depth: Option<u32>,
    /// Depth of the tiling-prefix test above the tiling depth (0: off), for ablations.
    #[arg(long, default_value_t = Solver::DEFAULT_PREFIX_DEPTH)]
    prefix_depth: u32,
    /// Solve the queues this many times back to back: the mean is the median of the runs'
    /// means (and the CPU mean the median of theirs), each queue's time the median of its runs.
    #[arg(long, default_value_t = 1)]
    runs: u32,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Args, Debug)]
struct TrainArgs {
    /// Training queues per line count (disjoint from the benchmark's: seed S + 1000).
    #[arg(long, default_value_t = 120)]
    queues: u64,
    /// Generations of the (1+lambda) evolution strategy.
    #[arg(long, default_value_t = 20)]
    generations: u32,
    /// Offspring per generation.
    #[arg(long, default_value_t = 8)]
    lambda: u32,
    /// Train on 4-line queues, 6-line queues, or both (0).
    #[arg(long, default_value_t = 0)]
    lines: u32,
    /// Starting weights (as for `bench --weights`).
    #[arg(long, default_value = "hand")]
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
        Verb::Sweep(a) => sweep(a),
        Verb::Bench(a) => bench(a),
        Verb::Train(a) => train(a),
        Verb::Replay { file, json } => replay(&file, json.json),
    }
}

fn load_kicks(spec: &str) -> CliResult<KickTable> {
    if let Some(t) = KickTable::named(spec) {
        return Ok(t);
    }
    let path = Path::new(spec);
    if !path.exists() {
        return Err(CliError::input(format!(
            "--kicks {spec:?}: not a built-in table ({}) and no such file",
            KickTable::NAMES.join(", ")
        )));
    }
    let text = read_input(path)?;
    KickTable::parse(&text).map_err(|e| CliError::input(format!("{}: {e}", path.display())))
}

fn one_piece(flag: &str, s: &str) -> CliResult<Piece> {
    let q = parse_queue(s).map_err(|e| CliError::input(format!("--{flag}: {e}")))?;
    match q.as_slice() {
        [p] => Ok(*p),
        _ => Err(CliError::input(format!("--{flag} takes one piece letter, got {s:?}"))),
    }
}

/// A solution record: the request, the kick table and the placements.
#[derive(Serialize, Deserialize, Debug)]
struct PcRecord {
    field: String,
    queue: String,
    hold: Option<String>,
    use_hold: bool,
    save_hold: Option<String>,
    kicks: String,
    kick_table: String,
    height: u32,
    steps: Vec<StepOut>,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
struct StepOut {
    piece: String,
    facing: String,
    cells: Vec<[u8; 2]>,
    hold: bool,
    /// Keys from spawn (`L R D SD CW CCW 180 HD`), after the hold press if `hold`; absent when
    /// the kick table cannot turn the piece into this facing from spawn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    keys: Option<String>,
}

#[derive(Serialize)]
struct PcReport<'a> {
    found: bool,
    aborted: bool,
    height: Option<u32>,
    kicks: &'a str,
    steps: Vec<StepOut>,
    fumen: Option<String>,
    verified: bool,
    nodes: u64,
    memory_bytes: usize,
    millis: f64,
}

fn steps_out(sol: &Solution, holds: &[bool], keys: &[Option<Vec<Key>>]) -> Vec<StepOut> {
    sol.steps
        .iter()
        .zip(holds)
        .enumerate()
        .map(|(i, (s, &h))| StepOut {
            piece: s.piece.to_string(),
            facing: s.facing.to_string(),
            cells: s.cells.iter().map(|&(x, y)| [x, y]).collect(),
            hold: h,
            keys: keys.get(i).and_then(|k| k.as_deref()).map(keys_string),
        })
        .collect()
}

fn pc(a: PcArgs) -> CliResult {
    let kicks = load_kicks(&a.kicks)?;
    let queue = parse_queue(&a.queue).map_err(|e| CliError::input(format!("--queue: {e}")))?;
    if queue.is_empty() {
        return Err(CliError::input("--queue is empty"));
    }
    let hold = a.hold.as_deref().map(|s| one_piece("hold", s)).transpose()?;
    let save_hold = a.save_hold.as_deref().map(|s| one_piece("save-hold", s)).transpose()?;
    let board = if let Some(path) = &a.field {
        read_input(path)?
            .parse::<Board>()
            .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?
    } else if let Some(f) = &a.fumen {
        fumen_io::decode_board(f).map_err(|e| CliError::input(format!("--fumen: {e}")))?
    } else {
        Board::EMPTY
    };
    let req = PcRequest {
        board,
        queue,
        hold,
        use_hold: !a.no_hold,
        height: a.height,
        min_height: a.min_height,
        save_hold,
    };
    let mut solver = Solver::new(&kicks);
    if let Some(n) = a.node_limit {
        solver.set_node_limit(n);
    }
    let start = Instant::now();
    let outcome = solver.solve(&req).map_err(|e| CliError::input(e.to_string()))?;
    let millis = start.elapsed().as_secs_f64() * 1e3;
    let stats = solver.stats();
    let mut report = PcReport {
        found: false,
        aborted: matches!(outcome, Outcome::Aborted),
        height: None,
        kicks: kicks.name(),
        steps: Vec::new(),
        fumen: None,
        verified: false,
        nodes: stats.nodes,
        memory_bytes: stats.memory_bytes,
        millis,
    };
    if let Outcome::Found(sol) = &outcome {
        let holds = trace::verify(&req, &kicks, sol)
            .map_err(|e| CliError::failed(format!("the solution does not replay: {e}")))?;
        report.found = true;
        report.verified = true;
        report.height = Some(sol.height);
        let keys = inputs::solution_keys(&req.board, &kicks, &sol.steps)
            .map_err(|e| CliError::failed(format!("key inputs: {e}")))?;
        report.steps = steps_out(sol, &holds, &keys);
        report.fumen =
            Some(fumen_io::encode_solution(&req.board, &sol.steps).map_err(CliError::failed)?);
        if let Some(path) = &a.record.record {
            let rec = PcRecord {
                field: req.board.to_string(),
                queue: queue_string(&req.queue),
                hold: req.hold.map(|p| p.to_string()),
                use_hold: req.use_hold,
                save_hold: req.save_hold.map(|p| p.to_string()),
                kicks: kicks.name().to_string(),
                kick_table: kicks.to_text(),
                height: sol.height,
                steps: report.steps.clone(),
            };
            write_json_file(path, &rec)?;
        }
    }
    if a.json.json {
        return print_json(&report);
    }
    if !report.found {
        println!(
            "{}",
            if report.aborted {
                "no perfect clear found within the node limit"
            } else {
                "no perfect clear"
            }
        );
        return Ok(());
    }
    println!(
        "{}-line perfect clear ({} kicks, {} nodes, {millis:.3} ms), verified:",
        report.height.unwrap_or(0),
        kicks.name(),
        report.nodes
    );
    for (i, s) in report.steps.iter().enumerate() {
        let cells: Vec<String> = s.cells.iter().map(|c| format!("({},{})", c[0], c[1])).collect();
        println!(
            "{:>2}. {} {} {}{}  keys: {}{}",
            i + 1,
            s.piece,
            s.facing,
            cells.join(" "),
            if s.hold { "  [hold]" } else { "" },
            if s.hold { "HOLD " } else { "" },
            s.keys.as_deref().unwrap_or("(none from spawn with this kick table)")
        );
    }
    if let Some(f) = &report.fumen {
        println!("https://harddrop.com/fumen/?{f}");
    }
    Ok(())
}

fn replay(file: &Path, json: bool) -> CliResult {
    let rec: PcRecord = read_json_file(file)?;
    let bad = |m: String| CliError::input(format!("{}: {m}", file.display()));
    let board: Board = rec.field.parse().map_err(|e| bad(format!("field: {e}")))?;
    let queue = parse_queue(&rec.queue).map_err(|e| bad(format!("queue: {e}")))?;
    let piece = |s: &Option<String>, what: &str| -> CliResult<Option<Piece>> {
        s.as_deref()
            .map(|s| {
                parse_queue(s)
                    .ok()
                    .and_then(|q| q.first().copied())
                    .ok_or_else(|| bad(format!("{what}: not a piece: {s:?}")))
            })
            .transpose()
    };
    let hold = piece(&rec.hold, "hold")?;
    let save_hold = piece(&rec.save_hold, "save_hold")?;
    let kicks = KickTable::parse(&rec.kick_table).map_err(|e| bad(format!("kick_table {e}")))?;
    let mut steps = Vec::with_capacity(rec.steps.len());
    for (i, s) in rec.steps.iter().enumerate() {
        let p = piece(&Some(s.piece.clone()), &format!("step {}", i + 1))?.unwrap_or(Piece::I);
        let cells: [(u8, u8); 4] = match s.cells.as_slice() {
            [a, b, c, d] => [(a[0], a[1]), (b[0], b[1]), (c[0], c[1]), (d[0], d[1])],
            _ => return Err(bad(format!("step {}: a placement has 4 cells", i + 1))),
        };
        if cells.iter().any(|&(x, y)| x >= 10 || y >= 40) {
            return Err(bad(format!("step {}: a cell lies outside the field", i + 1)));
        }
        let mut sorted = cells;
        sorted.sort_unstable();
        let facing = trace::shape_facing(p, &sorted)
            .ok_or_else(|| CliError::failed(format!("step {}: the cells are not a {p}", i + 1)))?;
        steps.push(Step { piece: p, facing, cells: sorted });
    }
    let req = PcRequest {
        board,
        queue,
        hold,
        use_hold: rec.use_hold,
        height: Some(rec.height),
        min_height: None,
        save_hold,
    };
    let sol = Solution { height: rec.height, steps };
    let holds = trace::verify(&req, &kicks, &sol)
        .map_err(|e| CliError::failed(format!("{}: {e}", file.display())))?;
    // Recorded keys, if any, must take each piece from spawn to its cells.
    let mut field = req.board;
    for (i, (s, out)) in sol.steps.iter().zip(&rec.steps).enumerate() {
        if let Some(text) = &out.keys {
            let keys: Option<Vec<Key>> = text.split_whitespace().map(Key::from_token).collect();
            let keys = keys.ok_or_else(|| bad(format!("step {}: bad keys {text:?}", i + 1)))?;
            let end = inputs::replay(&field, s.piece, &kicks, &keys).map_err(|e| {
                CliError::failed(format!("{}: step {}: keys: {e}", file.display(), i + 1))
            })?;
            if end.map(|(x, y)| (x as u8, y as u8)) != s.cells {
                return Err(CliError::failed(format!(
                    "{}: step {}: the keys {text:?} do not end at the recorded cells",
                    file.display(),
                    i + 1
                )));
            }
        }
        for &(x, y) in &s.cells {
            field.set(usize::from(x), usize::from(y));
        }
        field.clear_lines();
    }
    let mismatch = holds.iter().zip(&rec.steps).position(|(&h, s)| h != s.hold);
    if let Some(i) = mismatch {
        return Err(CliError::failed(format!(
            "{}: step {}: the record says hold={} but the queue needs hold={}",
            file.display(),
            i + 1,
            rec.steps[i].hold,
            holds[i]
        )));
    }
    if json {
        return print_json(
            &serde_json::json!({"ok": true, "steps": sol.steps.len(), "height": rec.height}),
        );
    }
    println!(
        "ok: {} placements replay to an empty field ({}-line PC)",
        sol.steps.len(),
        rec.height
    );
    Ok(())
}

fn parse_shard(s: &str) -> CliResult<(u64, u64)> {
    let err = || CliError::input(format!("--shard {s:?}: expected K/N with 1 <= K <= N"));
    let (k, n) = s.split_once('/').ok_or_else(err)?;
    let k: u64 = k.trim().parse().map_err(|_| err())?;
    let n: u64 = n.trim().parse().map_err(|_| err())?;
    if k == 0 || n == 0 || k > n {
        return Err(err());
    }
    Ok((k - 1, n))
}

#[derive(Serialize)]
struct SweepReport {
    height: u32,
    kicks: String,
    shard: String,
    items: u64,
    solvable: u64,
    brute_checked: bool,
    seconds: f64,
}

fn sweep_item(solver: &mut Solver, kicks: &KickTable, q: &[Piece], height: u32) -> CliResult<bool> {
    let req = PcRequest {
        board: Board::EMPTY,
        queue: q[1..].to_vec(),
        hold: Some(q[0]),
        use_hold: true,
        height: Some(height),
        min_height: None,
        save_hold: None,
    };
    match solver.solve(&req).map_err(|e| CliError::failed(e.to_string()))? {
        Outcome::Found(sol) => {
            trace::verify(&req, kicks, &sol).map_err(|e| {
                CliError::failed(format!("{}: solution does not replay: {e}", queue_string(q)))
            })?;
            Ok(true)
        }
        _ => Ok(false),
    }
}

fn sweep(a: SweepArgs) -> CliResult {
    let window = match a.height {
        2 => 5,
        4 => 10,
        h => return Err(CliError::input(format!("--height {h}: the sweep covers 2 or 4"))),
    };
    let (k, n) = a.shard.as_deref().map(parse_shard).transpose()?.unwrap_or((0, 1));
    let kicks = load_kicks(&a.kicks)?;
    let total: u64 = if window == 5 { 57_750 } else { 79_516_080 };
    let bar = progress(total.div_ceil(n), "sweep");
    let start = Instant::now();
    let solvable = AtomicU64::new(0);
    let mut items = 0u64;
    let mut chunk: Vec<Vec<Piece>> = Vec::with_capacity(8192);
    let mut index = 0u64;
    let mut failure: Option<CliError> = None;
    let brute = a.brute;
    let flush = |chunk: &mut Vec<Vec<Piece>>, failure: &mut Option<CliError>| {
        let r: CliResult<()> = a
            .threads
            .install(|| {
                chunk.par_iter().try_for_each_init(
                    || (Solver::new(&kicks), tetris::movegen::MoveGen::new(&kicks)),
                    |(solver, mg), q| {
                        let ok = sweep_item(solver, &kicks, q, a.height)?;
                        if brute
                            && ok != tetris::reference::brute_force_pc(mg, 0, a.height, q, true)
                        {
                            return Err(CliError::failed(format!(
                                "solver and brute force disagree on {}",
                                queue_string(q)
                            )));
                        }
                        if ok {
                            solvable.fetch_add(1, Ordering::Relaxed);
                        }
                        Ok(())
                    },
                )
            })
            .and_then(|r| r);
        if let Err(e) = r {
            failure.get_or_insert(e);
        }
        bar.inc(chunk.len() as u64);
        chunk.clear();
    };
    for_each_canonical(window, |q| {
        if index % n == k && failure.is_none() {
            chunk.push(q.to_vec());
            items += 1;
            if chunk.len() == chunk.capacity() {
                flush(&mut chunk, &mut failure);
            }
        }
        index += 1;
    });
    flush(&mut chunk, &mut failure);
    bar.finish_and_clear();
    if let Some(e) = failure {
        return Err(e);
    }
    let report = SweepReport {
        height: a.height,
        kicks: kicks.name().to_string(),
        shard: format!("{}/{n}", k + 1),
        items,
        solvable: solvable.load(Ordering::Relaxed),
        brute_checked: a.brute,
        seconds: start.elapsed().as_secs_f64(),
    };
    if a.json.json {
        return print_json(&report);
    }
    println!(
        "{}-line sweep ({} kicks, shard {}): {} of {} canonical queues have a PC ({:.1} s)",
        report.height, report.kicks, report.shard, report.solvable, report.items, report.seconds
    );
    Ok(())
}

/// `None`: the shipped per-height weights (`Solver::new`).
fn parse_weights(s: &str) -> CliResult<Option<Weights>> {
    parse_weight_vector(s).map(|w| (s != "trained").then_some(w))
}

fn parse_weight_vector(s: &str) -> CliResult<Weights> {
    match s {
        "trained" => return Ok(Weights::TRAINED),
        "trained4" => return Ok(Weights::TRAINED_4),
        "hand" => return Ok(Weights::HAND),
        "zero" => return Ok(Weights::ZERO),
        _ => {}
    }
    let v: Result<Vec<i32>, _> = s.split(',').map(|x| x.trim().parse::<i32>()).collect();
    match v {
        Ok(v) if v.len() == tetris::solver::N_FEATURES => {
            Ok(Weights(v.try_into().unwrap_or([0; tetris::solver::N_FEATURES])))
        }
        _ => Err(CliError::input(format!(
            "--weights {s:?}: use trained, trained4, hand, zero or {} comma-separated integers",
            tetris::solver::N_FEATURES
        ))),
    }
}

#[derive(Serialize)]
struct BenchLine {
    lines: u32,
    pieces: usize,
    queues: u64,
    solved: u64,
    mean_ms: f64,
    median_ms: f64,
    max_ms: f64,
    runs: u32,
    run_means_ms: Vec<f64>,
    cpu_mean_ms: Option<f64>,
    mean_nodes: f64,
    max_nodes: u64,
    mean_memory_kib: f64,
    max_memory_kib: f64,
    signature: String,
}

/// The CPU time this thread has run, in ms (Linux: `/proc/thread-self/schedstat`, whose first
/// field is the scheduler's run time in ns; time spent waiting for a core is not counted).
/// The kernel brings that figure up to date only at scheduler events (else it lags by up to a
/// tick, 4 ms here), so the thread yields first. `None` where the file is missing.
fn thread_cpu_ms() -> Option<f64> {
    std::thread::yield_now();
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e6)
}

/// One benchmark line: `count` opener queues of `pieces` pieces, PC of exactly `lines` lines.
/// The queues are solved back to back (`runs` times, a fresh `Solver` per queue, its creation
/// timed); every answer is verified after the timed runs.
fn bench_line(
    kicks: &KickTable,
    w: Option<Weights>,
    a: &BenchArgs,
    lines: u32,
) -> CliResult<BenchLine> {
    let (seed, count) = (a.seed.seed, a.count);
    let pieces = if lines == 4 { 11 } else { 16 };
    let reqs: Vec<PcRequest> = (0..count)
        .map(|i| {
            let mut req = PcRequest::opener(opener_queue(seed, i, pieces));
            req.height = Some(lines);
            req
        })
        .collect();
    let runs = a.runs.max(1);
    // times[i]: queue i's wall time in each run.
    let mut times = vec![Vec::with_capacity(runs as usize); reqs.len()];
    let (mut run_means, mut run_cpu) = (Vec::new(), Vec::new());
    let mut results = Vec::with_capacity(reqs.len());
    for run in 0..runs {
        let cpu0 = thread_cpu_ms();
        let mut total = 0.0;
        for (i, req) in reqs.iter().enumerate() {
            let start = Instant::now();
            let mut solver = match w {
                Some(w) => Solver::with_weights(kicks, w),
                None => Solver::new(kicks),
            };
            solver.set_restart_base(a.restart_base);
            if let Some(d) = a.tile_depth {
                solver.set_tile_depth(d);
            }
            solver.set_prefix_depth(a.prefix_depth);
            let out = solver.solve(req).map_err(|e| CliError::failed(e.to_string()))?;
            let ms = start.elapsed().as_secs_f64() * 1e3;
            times[i].push(ms);
            total += ms;
            if run == 0 {
                results.push((out, solver.stats()));
            }
        }
        run_means.push(total / reqs.len().max(1) as f64);
        if let (Some(c0), Some(c1)) = (cpu0, thread_cpu_ms()) {
            run_cpu.push((c1 - c0) / reqs.len().max(1) as f64);
        }
    }
    let (mut nodes, mut max_nodes, mut mem, mut max_mem, mut solved) =
        (0u64, 0u64, 0usize, 0usize, 0u64);
    let mut sig = 0xcbf2_9ce4_8422_2325u64;
    for (i, (req, (out, st))) in reqs.iter().zip(&results).enumerate() {
        // The solver's own working memory plus its move-generation tables.
        let m = st.memory_bytes + std::mem::size_of::<Solver>();
        nodes += st.nodes;
        max_nodes = max_nodes.max(st.nodes);
        mem += m;
        max_mem = max_mem.max(m);
        if let Outcome::Found(sol) = out {
            trace::verify(req, kicks, sol)
                .map_err(|e| CliError::failed(format!("queue {i}: does not replay: {e}")))?;
            solved += 1;
            for s in &sol.steps {
                for &(x, y) in &s.cells {
                    sig = (sig ^ u64::from(x) << 8 ^ u64::from(y)).wrapping_mul(0x100_0000_01b3);
                }
            }
        }
        sig = (sig ^ st.nodes).wrapping_mul(0x100_0000_01b3);
    }
    // Per queue, the median of its runs; the mean is the median of the runs' means.
    let mut per_queue: Vec<f64> = times
        .iter_mut()
        .map(|t| {
            t.sort_by(f64::total_cmp);
            t[t.len() / 2]
        })
        .collect();
    per_queue.sort_by(f64::total_cmp);
    let median = |v: &[f64]| {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied()
    };
    let n = count.max(1) as f64;
    Ok(BenchLine {
        lines,
        pieces,
        queues: count,
        solved,
        mean_ms: median(&run_means).unwrap_or(0.0),
        median_ms: per_queue.get(per_queue.len() / 2).copied().unwrap_or(0.0),
        max_ms: per_queue.last().copied().unwrap_or(0.0),
        runs,
        run_means_ms: run_means,
        cpu_mean_ms: median(&run_cpu),
        mean_nodes: nodes as f64 / n,
        max_nodes,
        mean_memory_kib: mem as f64 / n / 1024.0,
        max_memory_kib: max_mem as f64 / 1024.0,
        signature: format!("{sig:016x}"),
    })
}

fn bench(a: BenchArgs) -> CliResult {
    let kicks = load_kicks(&a.kicks)?;
    let w = parse_weights(&a.weights)?;
    if a.count == 0 {
        return Err(CliError::input("--count must be at least 1"));
    }
    let lines: Vec<u32> = match a.lines {
        0 => vec![4, 6],
        4 | 6 => vec![a.lines],
        l => return Err(CliError::input(format!("--lines {l}: use 4, 6 or 0 for both"))),
    };
    let mut out = Vec::new();
    for l in lines {
        out.push(bench_line(&kicks, w, &a, l)?);
    }
    let mg = movegen_ratio(&kicks, a.seed.seed);
    if a.json.json {
        return print_json(&serde_json::json!({
            "kicks": kicks.name(), "seed": a.seed.seed, "threads": 1, "results": out,
            "movegen": mg,
        }));
    }
    println!(
        "movegen on {} random zones: bitboard {:.3} us, per-cell reference {:.1} us per piece ({:.0}x)",
        mg.fields, mg.fast_us, mg.reference_us, mg.ratio
    );
    for b in &out {
        println!(
            "{}-line ({} pieces, {} queues, {} kicks, seed {}): solved {}/{}; time mean {:.3} ms (CPU {}), median {:.3} ms, max {:.3} ms{}; nodes mean {:.0}, max {}; memory mean {:.1} KiB, max {:.1} KiB; signature {}",
            b.lines, b.pieces, b.queues, kicks.name(), a.seed.seed, b.solved, b.queues, b.mean_ms,
            b.cpu_mean_ms.map_or("n/a".to_string(), |c| format!("{c:.3} ms")), b.median_ms, b.max_ms,
            if b.runs > 1 { format!(" (medians of {} runs)", b.runs) } else { String::new() },
            b.mean_nodes, b.max_nodes, b.mean_memory_kib, b.max_memory_kib, b.signature
        );
    }
    Ok(())
}

#[derive(Serialize)]
struct MovegenRatio {
    fields: u32,
    fast_us: f64,
    reference_us: f64,
    ratio: f64,
}

/// Times the bitboard move generator against the per-cell reference on the same random zones
/// (side by side in one run, so the ratio survives a noisy machine).
fn movegen_ratio(kicks: &KickTable, seed: u64) -> MovegenRatio {
    let mut rng = bits::Rng::new(seed);
    let fields: Vec<(Board, u32)> = (0..300)
        .map(|_| {
            let rows = 2 + rng.below(5) as u32;
            let mut r = [0u16; 6];
            for x in 0..10 {
                let h = rng.below(u64::from(rows)) as usize;
                for row in r.iter_mut().take(h) {
                    *row |= 1 << x;
                }
            }
            for row in r.iter_mut().take(rows as usize) {
                if *row == 0x3FF {
                    *row &= !(1 << rng.below(10));
                }
            }
            (Board::from_rows(&r[..rows as usize]), rows)
        })
        .collect();
    let mg = tetris::movegen::MoveGen::new(kicks);
    let reps = 20u32;
    let start = Instant::now();
    for _ in 0..reps {
        for (b, rows) in &fields {
            let zone = b.to_zone(*rows).unwrap_or(0);
            for p in Piece::ALL {
                std::hint::black_box(mg.placements(std::hint::black_box(zone), *rows, p));
            }
        }
    }
    let fast = start.elapsed().as_secs_f64() * 1e6 / f64::from(reps * 300 * 7);
    let start = Instant::now();
    for (b, rows) in &fields {
        for p in Piece::ALL {
            std::hint::black_box(tetris::reference::placements(b, *rows, p, kicks));
        }
    }
    let slow = start.elapsed().as_secs_f64() * 1e6 / f64::from(300 * 7);
    MovegenRatio { fields: 300, fast_us: fast, reference_us: slow, ratio: slow / fast.max(1e-9) }
}

/// Training cost of a weight vector: total nodes over the training queues (deterministic,
/// unlike time), with a per-queue node cap so that bad weights stay cheap to evaluate.
fn train_cost(kicks: &KickTable, w: Weights, seed: u64, queues: u64, lines: &[u32]) -> u64 {
    const CAP: u64 = 20_000;
    let items: Vec<(u64, u32)> =
        (0..queues).flat_map(|i| lines.iter().map(move |&l| (i, l))).collect();
    items
        .par_iter()
        .map_init(
            || Solver::with_weights(kicks, w),
            |solver, &(i, lines)| {
                let pieces = if lines == 4 { 11 } else { 16 };
                let mut req = PcRequest::opener(opener_queue(seed, i, pieces));
                req.height = Some(lines);
                solver.set_node_limit(CAP);
                let _ = solver.solve(&req);
                solver.stats().nodes
            },
        )
        .sum()
}

fn train(a: TrainArgs) -> CliResult {
    if a.queues == 0 || a.lambda == 0 {
        return Err(CliError::input("--queues and --lambda must be at least 1"));
    }
    let lines: Vec<u32> = match a.lines {
        0 => vec![4, 6],
        4 | 6 => vec![a.lines],
        l => return Err(CliError::input(format!("--lines {l}: use 4, 6 or 0 for both"))),
    };
    let start = parse_weight_vector(&a.start)?;
    let kicks = KickTable::srs_plus();
    // Training queues never overlap the benchmark's (master seed S + 1000).
    let tseed = a.seed.seed.wrapping_add(1000);
    let mut rng = bits::Rng::new(a.seed.seed);
    // Start from the given weights (hand-set by default), so this command reproduces the
    // shipped ones.
    let mut best = start;
    let mut best_cost = a.threads.install(|| train_cost(&kicks, best, tseed, a.queues, &lines))?;
    let mut sigma = 4.0f64;
    let mut log = Vec::new();
    let bar = progress(u64::from(a.generations), "train");
    for g in 0..a.generations {
        let mut gen_best: Option<(u64, Weights)> = None;
        for _ in 0..a.lambda {
            let mut w = best;
            for x in w.0.iter_mut() {
                // A rough normal draw: sum of 4 uniforms, centred and scaled.
                let z: f64 = (0..4).map(|_| rng.unit_f64()).sum::<f64>() - 2.0;
                *x += (z * sigma * 1.7).round() as i32;
            }
            let c = a.threads.install(|| train_cost(&kicks, w, tseed, a.queues, &lines))?;
            if gen_best.is_none_or(|(bc, _)| c < bc) {
                gen_best = Some((c, w));
            }
        }
        if let Some((c, w)) = gen_best {
            if c < best_cost {
                best_cost = c;
                best = w;
                sigma *= 1.2;
            } else {
                sigma = (sigma * 0.8).max(0.5);
            }
        }
        log.push(serde_json::json!({"generation": g + 1, "cost": best_cost, "weights": best.0, "sigma": sigma}));
        bar.inc(1);
    }
    bar.finish_and_clear();
    if a.json.json {
        return print_json(
            &serde_json::json!({"best_weights": best.0, "best_cost_nodes": best_cost, "log": log}),
        );
    }
    println!(
        "best weights {:?} (total nodes {best_cost} over {} training queues x 2)",
        best.0, a.queues
    );
    println!("features: {}", tetris::solver::FEATURE_NAMES.join(", "));
    Ok(())
}
