//! `bench`: the packed engine against the reference engine, side by side in one process,
//! plus the solver measurements (passes, threads, the clear goal, the prover, the standard
//! set).

use super::Boards as _;
use std::hint::black_box;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{BoardFile, Control, Error, Progress};
use crate::beam::{self, Config, Eval, Goal, Passes};
use crate::prove::{prove_with_abort, Verdict};
use crate::reference::RefBoard;
use crate::{Board, Groups, Rules};

/// A suite of [`bench()`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Suite {
    /// Group finding and child generation, engine vs reference.
    Engine,
    /// Whole games of the classic beam, engine vs reference.
    Game,
    /// Two-pass vs one-pass beam.
    Passes,
    /// Thread scaling of the two-pass beam.
    Threads,
    /// The clear goal at width 5000.
    Clear,
    /// The prover with and without refutations.
    Prove,
    /// The standard set through the default solver.
    Standard,
}

/// `bench`: the measurements of BENCHMARKS.md.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct BenchRequest {
    /// Suites to run: engine, game, passes, threads, clear, prove, all; and standard (the
    /// standard set through the default solver; not part of all).
    pub suites: Vec<String>,
    /// The standard set, for the standard suite.
    pub set: Option<BoardFile>,
    /// Rounds per measurement, the median reported (clamped to 1-101).
    pub rounds: usize,
    /// Smaller sizes and widths, for a quick look.
    pub quick: bool,
}

impl Default for BenchRequest {
    fn default() -> Self {
        BenchRequest { suites: vec!["all".into()], set: None, rounds: 5, quick: false }
    }
}

/// Engine vs reference on mid-game positions of one size (ns per call, medians).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct EngineRow {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Colours.
    pub colors: usize,
    /// Positions measured.
    pub positions: usize,
    /// Group finding, engine.
    pub find_ns_fast: f64,
    /// Group finding, reference.
    pub find_ns_ref: f64,
    /// Reference / engine.
    pub find_ratio: f64,
    /// One child (copy + remove), engine.
    pub child_ns_fast: f64,
    /// One child, reference.
    pub child_ns_ref: f64,
    /// Reference / engine.
    pub child_ratio: f64,
}

/// A whole classic-beam game, engine vs reference, one thread.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GameRow {
    /// `WxH/C`.
    pub board: String,
    /// Beam width.
    pub width: usize,
    /// Engine, ms (median).
    pub fast_ms: f64,
    /// Reference, ms (median).
    pub ref_ms: f64,
    /// Reference / engine.
    pub ratio: f64,
    /// Engine's score.
    pub fast_score: i64,
    /// Reference's score.
    pub ref_score: i64,
    /// Engine's nodes.
    pub nodes_fast: u64,
    /// Reference's nodes.
    pub nodes_ref: u64,
}

/// One-pass vs two-pass beam.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PassRow {
    /// The board.
    pub board: String,
    /// Beam width.
    pub width: usize,
    /// One pass, ms (median).
    pub one_pass_ms: f64,
    /// Two passes, ms (median).
    pub two_pass_ms: f64,
    /// One / two.
    pub ratio: f64,
    /// Whether both gave the same answer every round.
    pub same_answer: bool,
}

/// The two-pass beam on a thread count.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ThreadRow {
    /// The board.
    pub board: String,
    /// Beam width.
    pub width: usize,
    /// Threads.
    pub threads: usize,
    /// ms (median).
    pub ms: f64,
    /// One thread's time / this one's.
    pub speedup: f64,
    /// Whether the answer is the one-thread answer.
    pub same_answer: bool,
}

/// The clear goal on random boards of one size.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ClearRow {
    /// `WxH/3`.
    pub size: String,
    /// Beam width.
    pub width: usize,
    /// Whether the width is widened 16, 64, ... first.
    pub widen: bool,
    /// Boards.
    pub boards: usize,
    /// Boards cleared.
    pub cleared: usize,
    /// Median seconds per board.
    pub median_s: f64,
    /// Slowest board, seconds.
    pub max_s: f64,
}

/// The standard set through the default solver.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StandardRow {
    /// The search and its settings.
    pub search: String,
    /// Boards.
    pub boards: usize,
    /// Total score.
    pub total: i64,
    /// Boards cleared.
    pub cleared: usize,
    /// Wall seconds.
    pub wall_s: f64,
    /// Process CPU seconds (user + system, from /proc/self/stat), when the OS gives them.
    pub cpu_s: Option<f64>,
}

/// The prover with and without refutations on random boards of one size.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ProveRow {
    /// `WxH/5`.
    pub size: String,
    /// Boards.
    pub boards: usize,
    /// Boards proved clearable.
    pub clearable: usize,
    /// Boards proved unclearable.
    pub unclearable: usize,
    /// Boards not decided within the budget.
    pub undecided: usize,
    /// Positions with refutations.
    pub nodes_with: u64,
    /// Positions without.
    pub nodes_without: u64,
    /// Positions saved by the refutations, percent.
    pub saved_pct: f64,
}

/// What [`bench()`] measured (a suite not run has no rows).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BenchResponse {
    /// Rounds per measurement.
    pub rounds: usize,
    /// Engine rows.
    pub engine: Vec<EngineRow>,
    /// Game rows.
    pub games: Vec<GameRow>,
    /// Pass rows.
    pub passes: Vec<PassRow>,
    /// Thread rows.
    pub threads: Vec<ThreadRow>,
    /// Clear rows.
    pub clear: Vec<ClearRow>,
    /// Prover rows.
    pub prover: Vec<ProveRow>,
    /// Standard-set rows.
    pub standard: Vec<StandardRow>,
}

/// Something [`bench_each`] reports as it goes (a front end prints it at once).
#[derive(Debug, Clone, Copy)]
pub enum BenchEvent<'a> {
    /// A suite starts (all but the standard one).
    Start(Suite),
    /// The standard suite starts on this many boards with this search.
    StandardStart {
        /// Boards in the set.
        boards: usize,
        /// The search and its settings.
        search: &'a str,
    },
    /// An engine row is done.
    Engine(&'a EngineRow),
    /// A game row is done.
    Game(&'a GameRow),
    /// A pass row is done.
    Pass(&'a PassRow),
    /// A thread row is done.
    Thread(&'a ThreadRow),
    /// A clear row is done.
    Clear(&'a ClearRow),
    /// A prover row is done.
    Prove(&'a ProveRow),
    /// The standard row is done.
    Standard(&'a StandardRow),
}

/// The median (the upper one of an even count) of `v`, from `trials`.
fn median(v: Vec<f64>) -> f64 {
    trials::sample::median_high(&v).unwrap_or(f64::NAN)
}

/// Mid-game positions: random boards with a few random moves played.
fn positions(w: usize, h: usize, c: usize, n: usize, seed: u64) -> Vec<Board> {
    let mut rng = bits::Rng::new(seed);
    let mut g = Groups::new();
    (0..n)
        .map(|_| {
            let mut b = Board::random(w, h, c, rng.next_u64());
            for _ in 0..rng.below(6) {
                let list = g.find(&b, 2);
                if list.is_empty() {
                    break;
                }
                let k = list[rng.below(list.len() as u64) as usize];
                g.remove(&mut b, &k);
            }
            b
        })
        .collect()
}

fn engine_row(w: usize, h: usize, c: usize, rounds: usize) -> EngineRow {
    let boards = positions(w, h, c, 200, (w * 100 + h * 10 + c) as u64);
    let refs: Vec<RefBoard> = boards.iter().map(RefBoard::from_board).collect();
    let mut g = Groups::new();
    let calls = boards.len() as f64;
    let children: f64 = boards.iter().map(|b| g.find(b, 2).len() as f64).sum();
    let (mut ff, mut fr, mut cf, mut cr) = (vec![], vec![], vec![], vec![]);
    for _ in 0..rounds {
        let t = Instant::now();
        for b in &boards {
            black_box(g.find(b, 2).len());
        }
        ff.push(t.elapsed().as_nanos() as f64 / calls);
        let t = Instant::now();
        for r in &refs {
            black_box(r.groups(2).len());
        }
        fr.push(t.elapsed().as_nanos() as f64 / calls);
        // Child generation: every child of every position (find once, then copy + remove).
        let t = Instant::now();
        for b in &boards {
            g.find(b, 2);
            for grp in g.list() {
                let mut child = b.clone();
                g.remove(&mut child, grp);
                black_box(child.live_width());
            }
        }
        cf.push(t.elapsed().as_nanos() as f64 / children);
        let t = Instant::now();
        for r in &refs {
            for grp in r.groups(2) {
                let mut child = r.clone();
                child.remove(grp.x, grp.y);
                black_box(child.grid.len());
            }
        }
        cr.push(t.elapsed().as_nanos() as f64 / children);
    }
    let (find_ns_fast, find_ns_ref, child_ns_fast, child_ns_ref) =
        (median(ff), median(fr), median(cf), median(cr));
    EngineRow {
        width: w,
        height: h,
        colors: c,
        positions: boards.len(),
        find_ns_fast,
        find_ns_ref,
        find_ratio: find_ns_ref / find_ns_fast,
        child_ns_fast,
        child_ns_ref,
        child_ratio: child_ns_ref / child_ns_fast,
    }
}

fn single_thread<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map(|p| p.install(f))
        .unwrap_or_else(|_| panic!("no pool"))
}

fn timed<R>(f: impl FnOnce() -> R) -> (R, f64) {
    let t = Instant::now();
    let r = f();
    (r, t.elapsed().as_secs_f64() * 1000.0)
}

/// Runs the suites of the request (no CPU clock: the standard row's `cpu_s` is `None`).
pub fn bench(req: &BenchRequest, ctl: Control) -> Result<BenchResponse, Error> {
    bench_each(req, ctl, &|| None, &mut |_| {})
}

/// Like [`bench()`], but reads process CPU seconds from `cpu_clock` (for the standard row)
/// and reports every suite start and row to `on_event` as soon as it is measured. The abort
/// flag is checked between measurements and inside the beam searches: on abort the verb
/// returns [`Error::Aborted`].
pub fn bench_each(
    req: &BenchRequest,
    ctl: Control,
    cpu_clock: &dyn Fn() -> Option<f64>,
    on_event: &mut dyn FnMut(BenchEvent<'_>),
) -> Result<BenchResponse, Error> {
    let suites = &req.suites;
    let (rounds, quick) = (req.rounds.clamp(1, 101), req.quick);
    let known = ["engine", "game", "passes", "threads", "clear", "prove", "standard", "all"];
    for s in suites {
        if !known.contains(&s.as_str()) {
            return Err(Error::input(format!("suites: {s:?}, use one of {}", known.join(", "))));
        }
    }
    let want = |s: &str| suites.iter().any(|x| x == s || x == "all");
    let abort = ctl.abort_flag();
    // Every finished measurement counts as one unit of progress.
    let mut done = 0u64;
    let mut tick = || {
        done += 1;
        ctl.report(Progress::new(done, None));
        ctl.check()
    };
    let rules = Rules::default();
    let mut report = BenchResponse {
        rounds,
        engine: vec![],
        games: vec![],
        passes: vec![],
        threads: vec![],
        clear: vec![],
        prover: vec![],
        standard: vec![],
    };

    if want("engine") {
        on_event(BenchEvent::Start(Suite::Engine));
        let sizes: &[(usize, usize)] =
            if quick { &[(10, 10), (15, 15)] } else { &[(10, 10), (15, 15), (20, 20)] };
        for &(w, h) in sizes {
            for c in [3, 5, 7] {
                ctl.check()?;
                let r = engine_row(w, h, c, rounds);
                on_event(BenchEvent::Engine(&r));
                report.engine.push(r);
                tick()?;
            }
        }
    }

    if want("game") {
        on_event(BenchEvent::Start(Suite::Game));
        let width = if quick { 20 } else { 100 };
        for (w, h, c) in [(10, 10, 3), (15, 15, 5), (20, 20, 7)] {
            let b = Board::random(w, h, c, 1);
            let r = RefBoard::from_board(&b);
            let mut cfg = Config::new(Goal::Score, width);
            cfg.eval = Eval::Groups;
            cfg.passes = Passes::One;
            let (mut tf, mut tr) = (vec![], vec![]);
            let (mut fast, mut slow) = (None, None);
            for _ in 0..rounds.min(3) {
                let (o, ms) = timed(|| single_thread(|| beam::search(&b, &cfg, abort, |_| {})));
                ctl.check()?;
                tf.push(ms);
                fast = Some(o);
                let (o, ms) = timed(|| crate::reference::beam(&r, width, &rules));
                tr.push(ms);
                slow = Some(o);
            }
            let (fast, slow) = (fast.expect("ran"), slow.expect("ran"));
            let (fms, rms) = (median(tf), median(tr));
            let row = GameRow {
                board: format!("{w}x{h}/{c}"),
                width,
                fast_ms: fms,
                ref_ms: rms,
                ratio: rms / fms,
                fast_score: fast.score,
                ref_score: slow.0,
                nodes_fast: fast.nodes,
                nodes_ref: slow.2,
            };
            on_event(BenchEvent::Game(&row));
            report.games.push(row);
            tick()?;
        }
    }

    if want("passes") {
        on_event(BenchEvent::Start(Suite::Passes));
        let width = if quick { 1000 } else { 10_000 };
        let b = Board::random(15, 15, 5, 1);
        let mut cfg = Config::new(Goal::Score, width);
        cfg.eval = Eval::Groups;
        let (mut t1, mut t2) = (vec![], vec![]);
        let mut same = true;
        for _ in 0..rounds.min(3) {
            cfg.passes = Passes::One;
            let (one, ms) = timed(|| single_thread(|| beam::search(&b, &cfg, abort, |_| {})));
            t1.push(ms);
            cfg.passes = Passes::Two;
            let (two, ms) = timed(|| single_thread(|| beam::search(&b, &cfg, abort, |_| {})));
            t2.push(ms);
            ctl.check()?;
            same &= one == two;
        }
        let row = PassRow {
            board: "15x15/5 seed 1".into(),
            width,
            one_pass_ms: median(t1),
            two_pass_ms: median(t2),
            ratio: 0.0,
            same_answer: same,
        };
        let row = PassRow { ratio: row.one_pass_ms / row.two_pass_ms, ..row };
        on_event(BenchEvent::Pass(&row));
        report.passes.push(row);
        tick()?;
    }

    if want("threads") {
        on_event(BenchEvent::Start(Suite::Threads));
        let width = if quick { 1000 } else { 5000 };
        let b = Board::random(15, 15, 5, 2);
        let mut cfg = Config::new(Goal::Score, width);
        cfg.eval = Eval::Groups;
        let mut base = None;
        let mut base_ms = 0.0;
        for threads in [1usize, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| Error::failed(format!("thread pool: {e}")))?;
            let mut ts = vec![];
            let mut out = None;
            for _ in 0..rounds.min(3) {
                let (o, ms) = timed(|| pool.install(|| beam::search(&b, &cfg, abort, |_| {})));
                ctl.check()?;
                ts.push(ms);
                out = Some(o);
            }
            let ms = median(ts);
            let out = out.expect("ran");
            if threads == 1 {
                base_ms = ms;
                base = Some(out.clone());
            }
            let row = ThreadRow {
                board: "15x15/5 seed 2".into(),
                width,
                threads,
                ms,
                speedup: base_ms / ms,
                same_answer: base.as_ref() == Some(&out),
            };
            on_event(BenchEvent::Thread(&row));
            report.threads.push(row);
            tick()?;
        }
    }

    if want("clear") {
        on_event(BenchEvent::Start(Suite::Clear));
        let n = if quick { 3 } else { 10 };
        for (w, h, widen) in [(15, 10, true), (15, 10, false), (30, 20, true), (30, 20, false)] {
            // The fixed-width 30x20 row takes seconds a board: five boards (one when quick).
            let n = match (w, widen, quick) {
                (30, false, true) => 1,
                (30, false, false) => 5,
                _ => n,
            };
            let mut times = vec![];
            let mut cleared = 0;
            for s in 0..n {
                let b = Board::random(w, h, 3, 1000 + s as u64);
                let mut cfg = Config::new(Goal::Clear, 5000);
                cfg.widen = widen;
                let (o, ms) = timed(|| beam::search(&b, &cfg, abort, |_| {}));
                ctl.check()?;
                cleared += usize::from(o.cleared);
                times.push(ms / 1000.0);
            }
            let max_s = times.iter().copied().fold(0.0, f64::max);
            let row = ClearRow {
                size: format!("{w}x{h}/3"),
                width: 5000,
                widen,
                boards: n,
                cleared,
                median_s: median(times),
                max_s,
            };
            on_event(BenchEvent::Clear(&row));
            report.clear.push(row);
            tick()?;
        }
    }

    if want("prove") {
        on_event(BenchEvent::Start(Suite::Prove));
        let n = if quick { 10 } else { 20 };
        let sizes: &[(usize, usize)] = if quick { &[(6, 6)] } else { &[(6, 6), (7, 7), (8, 8)] };
        for &(w, h) in sizes {
            let mut row = ProveRow {
                size: format!("{w}x{h}/5"),
                boards: n,
                clearable: 0,
                unclearable: 0,
                undecided: 0,
                nodes_with: 0,
                nodes_without: 0,
                saved_pct: 0.0,
            };
            for s in 0..n {
                let b = Board::random(w, h, 5, 500 + s as u64);
                let budget = 20_000_000;
                let (v1, s1) = prove_with_abort(&b, 2, true, budget, abort);
                let (v2, s2) = prove_with_abort(&b, 2, false, budget, abort);
                ctl.check()?;
                match (&v1, &v2) {
                    (Verdict::Unknown, _) | (_, Verdict::Unknown) => row.undecided += 1,
                    (Verdict::Clearable(_), Verdict::Clearable(_)) => row.clearable += 1,
                    (Verdict::Unclearable, Verdict::Unclearable) => row.unclearable += 1,
                    _ => {
                        return Err(Error::failed(format!("prover disagrees with itself on\n{b}")))
                    }
                }
                row.nodes_with += s1.nodes;
                row.nodes_without += s2.nodes;
            }
            row.saved_pct = 100.0 * (1.0 - row.nodes_with as f64 / row.nodes_without.max(1) as f64);
            on_event(BenchEvent::Prove(&row));
            report.prover.push(row);
            tick()?;
        }
    }
    if suites.iter().any(|x| x == "standard") {
        let set = req.set.as_ref().ok_or_else(|| {
            Error::input("suites: standard needs the standard set (give it as set)")
        })?;
        let boards = set.boards()?;
        // The default solver: the beam with the playout objective, width 30, 4 playouts.
        let mut cfg = Config::new(Goal::Score, if quick { 10 } else { 30 });
        cfg.eval = Eval::Rollout { playouts: 4 };
        cfg.seed = 1;
        let search = format!("beam width {}, 4 playouts, seed 1, all threads", cfg.width);
        on_event(BenchEvent::StandardStart { boards: boards.len(), search: &search });
        let cpu0 = cpu_clock();
        let t = Instant::now();
        let (mut total, mut cleared) = (0, 0);
        for (b, _) in &boards {
            let out = beam::search(b, &cfg, abort, |_| {});
            ctl.check()?;
            let v = crate::trace::verify(b, &out.moves, &rules).map_err(|(k, e)| {
                Error::failed(format!("internal error: move {} is illegal: {e}", k + 1))
            })?;
            total += v.score;
            cleared += usize::from(v.cleared);
        }
        let wall_s = t.elapsed().as_secs_f64();
        let cpu_s = cpu_clock().zip(cpu0).map(|(a, b)| a - b);
        let row = StandardRow { search, boards: boards.len(), total, cleared, wall_s, cpu_s };
        on_event(BenchEvent::Standard(&row));
        report.standard.push(row);
        tick()?;
    }
    Ok(report)
}
