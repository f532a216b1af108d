//! `bench`: the public benchmark (seeded opener queues, first solution, one thread) and the
//! move-generation speed ratio.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{line_counts, load_kicks, parse_weights, queue_pieces, Control, Error, Progress};
use crate::bag::opener_queue;
use crate::solver::{Outcome, PcRequest, Solver, Weights};
use crate::{trace, Board, KickTable, Piece};

/// A benchmark request (`bitarcade tetris bench`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct BenchRequest {
    /// Queues per line count.
    pub count: u64,
    /// 4, 6, or both (0).
    pub lines: u32,
    /// Kick table, or a file's name with `kick_table`.
    pub kicks: String,
    /// The text of a kick table file, when `kicks` names a file.
    pub kick_table: Option<String>,
    /// Ordering weights: "trained" (the shipped ones: trained4 up to 4 lines, trained above),
    /// "trained4", "hand", "zero", or 11 comma-separated integers (for every height).
    pub weights: String,
    /// Node budget unit of the Luby restart schedule (0: no restarts), for ablations.
    pub restart_base: u64,
    /// Pieces left at or below which the tiling check runs (0: off); `None`: 5 for PCs of up
    /// to 4 lines, 4 above.
    pub tile_depth: Option<u32>,
    /// Depth of the tiling-prefix test above the tiling depth (0: off), for ablations.
    pub prefix_depth: u32,
    /// Solve the queues this many times back to back (the timings are medians of the runs).
    pub runs: u32,
    /// Master seed of the opener queues.
    pub seed: u64,
}

impl Default for BenchRequest {
    fn default() -> Self {
        BenchRequest {
            count: 200,
            lines: 0,
            kicks: "srs+".into(),
            kick_table: None,
            weights: "trained".into(),
            restart_base: Solver::DEFAULT_RESTART_BASE,
            tile_depth: None,
            prefix_depth: Solver::DEFAULT_PREFIX_DEPTH,
            runs: 1,
            seed: 1,
        }
    }
}

/// One benchmark line (fields in the order `bench --json` prints them).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BenchLine {
    /// Median over the runs of the thread CPU time per queue (ms), where the OS reports it.
    pub cpu_mean_ms: Option<f64>,
    /// PC lines.
    pub lines: u32,
    /// Peak memory of the worst queue, KiB.
    pub max_memory_kib: f64,
    /// Slowest queue (ms, its median over the runs).
    pub max_ms: f64,
    /// Most nodes on one queue.
    pub max_nodes: u64,
    /// Mean peak memory per queue, KiB.
    pub mean_memory_kib: f64,
    /// Mean time per queue: the median of the runs' means (ms).
    pub mean_ms: f64,
    /// Mean nodes per queue.
    pub mean_nodes: f64,
    /// Median queue time (ms).
    pub median_ms: f64,
    /// Pieces per queue.
    pub pieces: usize,
    /// Queues.
    pub queues: u64,
    /// Each run's mean time per queue (ms).
    pub run_means_ms: Vec<f64>,
    /// Runs.
    pub runs: u32,
    /// Deterministic signature: a hash of the solutions and node counts.
    pub signature: String,
    /// Queues solved.
    pub solved: u64,
}

/// The bitboard move generator against the per-cell reference, side by side (fields in the
/// order `bench --json` prints them).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MovegenRatio {
    /// Microseconds per piece, bitboard generator.
    pub fast_us: f64,
    /// Random zones timed.
    pub fields: u32,
    /// `reference_us / fast_us`.
    pub ratio: f64,
    /// Microseconds per piece, per-cell reference.
    pub reference_us: f64,
}

/// The answer to a [`BenchRequest`] (fields in the order `bench --json` prints them).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BenchResponse {
    /// The kick table's name.
    pub kicks: String,
    /// The move-generation ratio.
    pub movegen: MovegenRatio,
    /// One line per line count.
    pub results: Vec<BenchLine>,
    /// The master seed.
    pub seed: u64,
    /// Threads used (always 1).
    pub threads: u32,
}

/// Runs the benchmark on the calling thread: per line count, `count` opener queues solved
/// `runs` times, every answer verified; then the move-generation ratio. Progress counts
/// queues solved; the abort flag is checked per queue and inside each search.
pub fn bench(req: &BenchRequest, ctl: Control) -> Result<BenchResponse, Error> {
    let kicks = load_kicks(&req.kicks, req.kick_table.as_deref())?;
    let w = parse_weights(&req.weights)?;
    if req.count == 0 {
        return Err(Error::input("count: 0, must be at least 1"));
    }
    let lines = line_counts(req.lines)?;
    let total = req.count * u64::from(req.runs.max(1)) * lines.len() as u64;
    let mut done = 0u64;
    let mut out = Vec::new();
    for l in lines {
        out.push(bench_line(&kicks, w, req, l, ctl, total, &mut done)?);
    }
    ctl.check()?;
    let movegen = movegen_ratio(&kicks, req.seed);
    Ok(BenchResponse {
        kicks: kicks.name().to_string(),
        movegen,
        results: out,
        seed: req.seed,
        threads: 1,
    })
}

/// The CPU time this thread has run, in ms (Linux: `/proc/thread-self/schedstat`, whose first
/// field is the scheduler's run time in ns; time spent waiting for a core is not counted).
/// The kernel brings that figure up to date only at scheduler events (else it lags by up to a
/// tick, 4 ms here), so the thread yields first. `None` where the file is missing. This is a
/// clock read (the thread's CPU clock), not file input.
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
    a: &BenchRequest,
    lines: u32,
    ctl: Control,
    total: u64,
    done: &mut u64,
) -> Result<BenchLine, Error> {
    let (seed, count) = (a.seed, a.count);
    let pieces = queue_pieces(lines);
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
        let mut sum = 0.0;
        for (i, req) in reqs.iter().enumerate() {
            ctl.check()?;
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
            let out = solver
                .solve_with_abort(req, ctl.abort_flag())
                .map_err(|e| Error::failed(e.to_string()))?;
            let ms = start.elapsed().as_secs_f64() * 1e3;
            times[i].push(ms);
            sum += ms;
            if run == 0 {
                results.push((out, solver.stats()));
            }
            *done += 1;
            ctl.report(Progress::new(*done, Some(total)));
        }
        run_means.push(sum / reqs.len().max(1) as f64);
        if let (Some(c0), Some(c1)) = (cpu0, thread_cpu_ms()) {
            run_cpu.push((c1 - c0) / reqs.len().max(1) as f64);
        }
    }
    ctl.check()?;
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
                .map_err(|e| Error::failed(format!("queue {i}: does not replay: {e}")))?;
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
    let mg = crate::movegen::MoveGen::new(kicks);
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
            std::hint::black_box(crate::reference::placements(b, *rows, p, kicks));
        }
    }
    let slow = start.elapsed().as_secs_f64() * 1e6 / f64::from(300 * 7);
    MovegenRatio { fields: 300, fast_us: fast, reference_us: slow, ratio: slow / fast.max(1e-9) }
}
