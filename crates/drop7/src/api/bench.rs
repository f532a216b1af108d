//! `bench`: engine throughput against the reference, the two popper searches, and decision
//! timings with and without each table.

use std::ops::RangeInclusive;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::stats::median;
use super::{
    check_range, dispatch, thread_cpu_ns, Control, Error, EvalChoice, EvalSpec, Job, SearchOptions,
    TableChoice,
};
use crate::engine::{poppers, poppers_table, RandomDraws};
use crate::reference::RefGame;
use crate::search::{ChanceModel, Crowding, Direct, Evaluator, Searcher, Stats, Table};
use crate::{Mode, Position, Rules};

/// `drop7 bench`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct BenchRequest {
    /// Random-policy games for the engine throughput (per engine, per run).
    pub games: u64,
    /// Positions harvested from real games for the decision timings.
    pub positions: usize,
    /// Depths to time decisions at, comma-separated (each 1-6).
    pub depths: String,
    /// Repetitions (medians are reported), [`BenchRequest::RUNS`].
    pub runs: u32,
    /// log2 of each table's entries, [`BenchRequest::TABLE_BITS`].
    pub table_bits: u32,
    /// Leaf evaluator of the timed decisions.
    pub eval: EvalSpec,
    /// The seed.
    pub seed: u64,
}

impl BenchRequest {
    /// The range of `runs`.
    pub const RUNS: RangeInclusive<u32> = 1..=100;
    /// The range of `table_bits` (the search's).
    pub const TABLE_BITS: RangeInclusive<u32> = SearchOptions::TABLE_BITS;
}

impl Default for BenchRequest {
    fn default() -> Self {
        BenchRequest {
            games: 5_000,
            positions: 12,
            depths: "3,4".into(),
            runs: 3,
            table_bits: 16,
            eval: EvalSpec::new("crowding"),
            seed: 1,
        }
    }
}

/// Engine throughput.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EngineBench {
    /// Games per engine per run.
    pub games: u64,
    /// Moves the fast engine played (last run).
    pub moves_fast: u64,
    /// Moves the reference played (last run).
    pub moves_reference: u64,
    /// The fast engine's moves per wall second, median over runs.
    pub fast_moves_per_second: f64,
    /// The reference's moves per wall second, median over runs.
    pub reference_moves_per_second: f64,
    /// Moves per second of thread CPU time (per core, unaffected by other load).
    pub fast_moves_per_cpu_second: Option<f64>,
    /// The reference's moves per second of thread CPU time.
    pub reference_moves_per_cpu_second: Option<f64>,
    /// Reference time / fast time (CPU time when available), median over runs.
    pub ratio_median: f64,
    /// Boards the two popper searches were timed on.
    pub popper_boards: usize,
    /// ns per call of the SWAR prefix scan (`engine::poppers`), median over runs.
    pub popper_swar_ns: f64,
    /// ns per call of the run-length table (`engine::poppers_table`), median over runs.
    pub popper_table_ns: f64,
    /// table time / SWAR time, median of the per-run ratios.
    pub popper_table_over_swar: f64,
}

/// Decision timings at one depth with one table.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DecisionBench {
    /// Search depth.
    pub depth: u32,
    /// The table's name.
    pub table: String,
    /// Positions timed.
    pub positions: usize,
    /// Milliseconds per decision, median over runs.
    pub ms_per_decision_median: f64,
    /// Search moves per decision.
    pub moves_per_decision: f64,
    /// Moves + leaf evaluations + chance nodes.
    pub nodes_per_decision: f64,
    /// 1 - moves / moves without a table.
    pub work_removed_vs_none: f64,
    /// 1 - nodes / nodes without a table.
    pub nodes_removed_vs_none: f64,
    /// Table probes.
    pub probes: u64,
    /// Table hits.
    pub hits: u64,
    /// hits / probes.
    pub node_hit_rate: f64,
    /// Time without a table / time with this one, median over runs.
    pub speedup_vs_none_median: f64,
    /// Every decision value equals the table-less search's.
    pub values_identical_to_none: bool,
}

/// The bench's figures (the CLI's `--json`, without the evaluator's label).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BenchResponse {
    /// Engine throughput.
    pub engine: EngineBench,
    /// Decision timings, by depth then table.
    pub decisions: Vec<DecisionBench>,
    /// Repetitions.
    pub runs: u32,
    /// The seed.
    pub seed: u64,
    /// The timed decisions' evaluator.
    #[serde(skip)]
    pub eval: String,
    /// Positions the decisions were timed on.
    #[serde(skip)]
    pub positions: usize,
}

impl BenchResponse {
    /// Whether every table left every decision value unchanged (the CLI fails otherwise).
    pub fn ok(&self) -> bool {
        self.decisions.iter().all(|d| d.values_identical_to_none)
    }
}

fn random_games_reference(rules: &Rules, seed: u64, games: u64) -> u64 {
    let mut moves = 0u64;
    for i in 0..games {
        let s = bits::rng::sub_seed(seed, i);
        let mut draws = RandomDraws::new(rules, s);
        let mut g = RefGame::from_position(&Position::new_game(rules, &mut draws));
        let mut policy = bits::Rng::new(bits::rng::sub_seed(s, 1));
        while !g.over {
            let open: u64 = (0..7).filter(|&c| g.grid[6][c] == 0).fold(0, |m, c| m | 1 << c);
            let k = policy.below(u64::from(open.count_ones())) as u32;
            let col = bits::iter::select_u64(open, k).unwrap_or(0) as usize;
            g.play(rules, col, &mut draws);
            moves += 1;
        }
    }
    moves
}

/// Every board of `games` random-policy games, at rest and with the next disc dropped (the
/// boards the popper search sees first).
fn popper_boards(rules: &Rules, seed: u64, games: u64) -> Vec<[u32; 7]> {
    let mut out = Vec::new();
    for i in 0..games {
        let s = bits::rng::sub_seed(seed, i);
        let mut draws = RandomDraws::new(rules, s);
        let mut pos = Position::new_game(rules, &mut draws);
        let mut policy = bits::Rng::new(bits::rng::sub_seed(s, 1));
        while !pos.over {
            let open = pos.board.open_columns();
            let k = policy.below(u64::from(open.count_ones())) as u32;
            let col = bits::iter::select_u64(u64::from(open), k).unwrap_or(0) as usize;
            let mut dropped = pos.board;
            dropped.drop_code(col, pos.next.code());
            out.push(*pos.board.cols());
            out.push(*dropped.cols());
            pos.play_unchecked(rules, col, &mut draws);
        }
    }
    out
}

/// Sums every popper word over `boards` (so nothing is optimised away).
fn popper_pass(boards: &[[u32; 7]], f: fn(&[u32; 7]) -> [u32; 7]) -> u64 {
    let mut acc = 0u64;
    for b in boards {
        let p = f(std::hint::black_box(b));
        acc = acc.wrapping_add(p.iter().map(|&w| u64::from(w)).sum::<u64>());
    }
    acc
}

/// Wall seconds and, when available, CPU seconds of `f`.
fn timed<R>(f: impl FnOnce() -> R) -> (R, f64, Option<f64>) {
    let c0 = thread_cpu_ns();
    let t = Instant::now();
    let r = f();
    let wall = t.elapsed().as_secs_f64();
    let cpu = match (c0, thread_cpu_ns()) {
        (Some(a), Some(b)) if b > a => Some((b - a) as f64 * 1e-9),
        _ => None,
    };
    (r, wall, cpu)
}

/// Positions from real games: depth-2 searched Hardcore games, every 7th position.
fn harvest(seed: u64, n: usize) -> Vec<Position> {
    let rules = Rules::new(Mode::Hardcore);
    let mut s = Searcher::new(rules, ChanceModel::Exact, Crowding::default(), Direct::new(14));
    let mut out = Vec::new();
    let mut g = 0;
    while out.len() < n {
        let mut draws = RandomDraws::new(&rules, bits::rng::sub_seed(seed ^ 0xBE7C, g));
        let mut pos = Position::new_game(&rules, &mut draws);
        let mut k = 0;
        while !pos.over && out.len() < n {
            if k % 7 == 3 {
                out.push(pos);
            }
            let d = s.decide(&pos, 2);
            pos.play_unchecked(&rules, d.best, &mut draws);
            k += 1;
        }
        g += 1;
    }
    out
}

struct TimeJob<'a> {
    rules: Rules,
    positions: &'a [Position],
    depth: u32,
    ctl: Control<'a>,
}

impl Job for TimeJob<'_> {
    /// (seconds, stats, every decision's values as bits)
    type Out = (f64, Stats, Vec<[Option<u64>; 7]>);
    fn run<E, T>(self, eval: E, make_table: impl Fn() -> T + Sync) -> Self::Out
    where
        E: Evaluator + Clone + Send,
        T: Table + Send,
    {
        let mut stats = Stats::default();
        let mut values = Vec::new();
        let start = Instant::now();
        for p in self.positions {
            if self.ctl.aborted() {
                break;
            }
            // A fresh table per decision: the figure is the work one decision saves.
            let mut s = Searcher::new(self.rules, ChanceModel::Exact, eval.clone(), make_table())
                .with_abort(self.ctl.abort_flag());
            let d = s.decide(p, self.depth);
            values.push(d.values.map(|v| v.map(f64::to_bits)));
            stats += s.stats;
        }
        (start.elapsed().as_secs_f64(), stats, values)
    }
}

/// Times the engine against the reference (one thread, alternating), the two popper
/// searches, and decisions on harvested positions with every table. A disagreement between
/// the engines is a [`Error::Failed`]; a table that changed a value shows in
/// [`BenchResponse::ok`].
pub fn bench(req: &BenchRequest, ctl: Control<'_>) -> Result<BenchResponse, Error> {
    let depths: Vec<u32> = req
        .depths
        .split(',')
        .map(|d| d.trim().parse::<u32>().ok().filter(|d| SearchOptions::DEPTH.contains(d)))
        .collect::<Option<_>>()
        .ok_or_else(|| Error::input(format!("depths: {:?}, a list of depths 1-6", req.depths)))?;
    check_range("games", req.games, 1..)?;
    check_range("positions", req.positions, 1..)?;
    check_range("table_bits", req.table_bits, BenchRequest::TABLE_BITS)?;
    check_range("runs", req.runs, BenchRequest::RUNS)?;
    let rules = Rules::new(Mode::Hardcore);
    // Engine throughput, fast and reference in the same run, alternating.
    let (mut fast, mut refr, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    let (mut fast_cpu, mut ref_cpu) = (Vec::new(), Vec::new());
    let (mut mf, mut mr) = (0, 0);
    for run in 0..req.runs {
        ctl.check()?;
        let seed = req.seed.wrapping_add(u64::from(run));
        let (m, tf, cf) = timed(|| {
            std::hint::black_box(crate::engine::random_policy_games(&rules, seed, req.games))
        });
        mf = m;
        let (m, tr, cr) =
            timed(|| std::hint::black_box(random_games_reference(&rules, seed, req.games)));
        mr = m;
        if mf != mr {
            return Err(Error::failed("engine and reference played different games"));
        }
        fast.push(mf as f64 / tf);
        refr.push(mr as f64 / tr);
        if let (Some(cf), Some(cr)) = (cf, cr) {
            fast_cpu.push(mf as f64 / cf);
            ref_cpu.push(mr as f64 / cr);
            ratios.push(cr / cf);
        } else {
            ratios.push(tr / tf);
        }
    }
    // The two popper searches on the same boards, alternately, 20 passes per run.
    let boards = popper_boards(&rules, req.seed, req.games.min(2_000));
    let (mut swar_ns, mut table_ns, mut pop_ratio) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..req.runs {
        ctl.check()?;
        let calls = (20 * boards.len()) as f64;
        let (x, tw, cw) = timed(|| (0..20).map(|_| popper_pass(&boards, poppers)).sum::<u64>());
        let (y, tt, ct) =
            timed(|| (0..20).map(|_| popper_pass(&boards, poppers_table)).sum::<u64>());
        if x != y {
            return Err(Error::failed("the two popper searches disagree"));
        }
        let (sw, st) = (cw.unwrap_or(tw), ct.unwrap_or(tt));
        swar_ns.push(sw * 1e9 / calls);
        table_ns.push(st * 1e9 / calls);
        pop_ratio.push(st / sw);
    }
    let engine = EngineBench {
        popper_boards: boards.len(),
        popper_swar_ns: median(&mut swar_ns),
        popper_table_ns: median(&mut table_ns),
        popper_table_over_swar: median(&mut pop_ratio),
        games: req.games,
        moves_fast: mf,
        moves_reference: mr,
        fast_moves_per_second: median(&mut fast),
        reference_moves_per_second: median(&mut refr),
        fast_moves_per_cpu_second: (!fast_cpu.is_empty()).then(|| median(&mut fast_cpu)),
        reference_moves_per_cpu_second: (!ref_cpu.is_empty()).then(|| median(&mut ref_cpu)),
        ratio_median: median(&mut ratios),
    };
    // Decisions on harvested positions.
    let positions = harvest(req.seed, req.positions);
    let mut decisions = Vec::new();
    let eval = EvalChoice::parse("eval", &req.eval)?;
    let nodes = |s: &Stats| (s.moves + s.leaves + s.chance_nodes) as f64;
    for &depth in &depths {
        let tables = [TableChoice::None, TableChoice::Direct, TableChoice::Two, TableChoice::Four];
        let mut times: Vec<Vec<f64>> = vec![Vec::new(); 4];
        let mut stats = [Stats::default(); 4];
        let mut values: Vec<Vec<[Option<u64>; 7]>> = vec![Vec::new(); 4];
        let mut speedups: Vec<Vec<f64>> = vec![Vec::new(); 4];
        for _ in 0..req.runs {
            let mut none_t = 0.0;
            for (i, &t) in tables.iter().enumerate() {
                let job = TimeJob { rules, positions: &positions, depth, ctl };
                let (secs, s, v) = dispatch(&eval, t, req.table_bits, job);
                ctl.check()?;
                if i == 0 {
                    none_t = secs;
                }
                times[i].push(secs);
                speedups[i].push(none_t / secs);
                stats[i] = s;
                values[i] = v;
            }
        }
        for (i, &t) in tables.iter().enumerate() {
            let s = stats[i];
            decisions.push(DecisionBench {
                depth,
                table: t.name().to_string(),
                positions: positions.len(),
                ms_per_decision_median: median(&mut times[i]) * 1e3 / positions.len() as f64,
                moves_per_decision: s.moves as f64 / positions.len() as f64,
                nodes_per_decision: nodes(&s) / positions.len() as f64,
                work_removed_vs_none: 1.0 - s.moves as f64 / stats[0].moves as f64,
                nodes_removed_vs_none: 1.0 - nodes(&s) / nodes(&stats[0]),
                probes: s.probes,
                hits: s.hits,
                node_hit_rate: if s.probes > 0 { s.hits as f64 / s.probes as f64 } else { 0.0 },
                speedup_vs_none_median: median(&mut speedups[i]),
                values_identical_to_none: values[i] == values[0],
            });
        }
    }
    Ok(BenchResponse {
        engine,
        decisions,
        runs: req.runs,
        seed: req.seed,
        eval: eval.label(),
        positions: positions.len(),
    })
}
