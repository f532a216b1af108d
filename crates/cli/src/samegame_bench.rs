//! `bitarcade samegame bench`: the packed engine against the reference engine, side by side
//! in one process, plus the solver measurements the issue asks for.

use std::hint::black_box;
use std::time::Instant;

use serde::Serialize;

use samegame::beam::{self, Config, Eval, Goal, Passes};
use samegame::prove::{prove, Verdict};
use samegame::reference::RefBoard;
use samegame::{Board, Groups, Rules};

use crate::common::{print_json, CliError, CliResult};

#[derive(Serialize, Default)]
struct EngineRow {
    width: usize,
    height: usize,
    colors: usize,
    positions: usize,
    find_ns_fast: f64,
    find_ns_ref: f64,
    find_ratio: f64,
    child_ns_fast: f64,
    child_ns_ref: f64,
    child_ratio: f64,
}

#[derive(Serialize)]
struct GameRow {
    board: String,
    width: usize,
    fast_ms: f64,
    ref_ms: f64,
    ratio: f64,
    fast_score: i64,
    ref_score: i64,
    nodes_fast: u64,
    nodes_ref: u64,
}

#[derive(Serialize)]
struct Report {
    rounds: usize,
    engine: Vec<EngineRow>,
    games: Vec<GameRow>,
    passes: Vec<PassRow>,
    threads: Vec<ThreadRow>,
    clear: Vec<ClearRow>,
    prover: Vec<ProveRow>,
    standard: Vec<StandardRow>,
}

#[derive(Serialize)]
struct PassRow {
    board: String,
    width: usize,
    one_pass_ms: f64,
    two_pass_ms: f64,
    ratio: f64,
    same_answer: bool,
}

#[derive(Serialize)]
struct ThreadRow {
    board: String,
    width: usize,
    threads: usize,
    ms: f64,
    speedup: f64,
    same_answer: bool,
}

#[derive(Serialize)]
struct ClearRow {
    size: String,
    width: usize,
    widen: bool,
    boards: usize,
    cleared: usize,
    median_s: f64,
    max_s: f64,
}

#[derive(Serialize)]
struct StandardRow {
    search: String,
    boards: usize,
    total: i64,
    cleared: usize,
    wall_s: f64,
    /// Process CPU seconds (user + system, from /proc/self/stat), when the OS gives them.
    cpu_s: Option<f64>,
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

#[derive(Serialize)]
struct ProveRow {
    size: String,
    boards: usize,
    clearable: usize,
    unclearable: usize,
    undecided: usize,
    nodes_with: u64,
    nodes_without: u64,
    saved_pct: f64,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
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

/// Runs the benchmark suites named in `suites` (engine, game, passes, threads, clear, prove,
/// and standard, which reads the standard set from `set`).
pub fn bench(
    suites: &[String],
    rounds: usize,
    quick: bool,
    set: &std::path::Path,
    json: bool,
) -> CliResult {
    let known = ["engine", "game", "passes", "threads", "clear", "prove", "standard", "all"];
    for s in suites {
        if !known.contains(&s.as_str()) {
            return Err(CliError::input(format!("--suite {s:?}: use one of {}", known.join(", "))));
        }
    }
    let want = |s: &str| suites.iter().any(|x| x == s || x == "all");
    let rules = Rules::default();
    let mut report = Report {
        rounds,
        engine: vec![],
        games: vec![],
        passes: vec![],
        threads: vec![],
        clear: vec![],
        prover: vec![],
        standard: vec![],
    };
    let say = |line: String| {
        if !json {
            println!("{line}");
        }
    };

    if want("engine") {
        say("engine vs reference (ns per call, median of rounds; ratio = reference / engine)"
            .into());
        say(format!(
            "{:>7} {:>3} {:>10} {:>10} {:>6} {:>10} {:>10} {:>6}",
            "size", "col", "find", "ref find", "x", "child", "ref child", "x"
        ));
        let sizes: &[(usize, usize)] =
            if quick { &[(10, 10), (15, 15)] } else { &[(10, 10), (15, 15), (20, 20)] };
        for &(w, h) in sizes {
            for c in [3, 5, 7] {
                let r = engine_row(w, h, c, rounds);
                say(format!(
                    "{:>7} {:>3} {:>10.0} {:>10.0} {:>6.1} {:>10.0} {:>10.0} {:>6.1}",
                    format!("{w}x{h}"),
                    c,
                    r.find_ns_fast,
                    r.find_ns_ref,
                    r.find_ratio,
                    r.child_ns_fast,
                    r.child_ns_ref,
                    r.child_ratio
                ));
                report.engine.push(r);
            }
        }
    }

    if want("game") {
        say("\nwhole game, classic beam, one thread (ms, median of rounds)".into());
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
                let (o, ms) = timed(|| single_thread(|| beam::search(&b, &cfg, None, |_| {})));
                tf.push(ms);
                fast = Some(o);
                let (o, ms) = timed(|| samegame::reference::beam(&r, width, &rules));
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
            say(format!(
                "{:>9} width {:>4}: engine {:>9.1} ms ({} nodes, score {}), reference {:>9.1} ms ({} nodes, score {}), {:.1}x",
                row.board, width, fms, row.nodes_fast, row.fast_score, rms, row.nodes_ref, row.ref_score, row.ratio
            ));
            report.games.push(row);
        }
    }

    if want("passes") {
        say("\ntwo-pass vs one-pass beam, one thread (ms, median of rounds)".into());
        let width = if quick { 1000 } else { 10_000 };
        let b = Board::random(15, 15, 5, 1);
        let mut cfg = Config::new(Goal::Score, width);
        cfg.eval = Eval::Groups;
        let (mut t1, mut t2) = (vec![], vec![]);
        let mut same = true;
        for _ in 0..rounds.min(3) {
            cfg.passes = Passes::One;
            let (one, ms) = timed(|| single_thread(|| beam::search(&b, &cfg, None, |_| {})));
            t1.push(ms);
            cfg.passes = Passes::Two;
            let (two, ms) = timed(|| single_thread(|| beam::search(&b, &cfg, None, |_| {})));
            t2.push(ms);
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
        say(format!(
            "15x15/5 width {width}: one pass {:.0} ms, two passes {:.0} ms ({:.2}x), same answer: {}",
            row.one_pass_ms, row.two_pass_ms, row.ratio, row.same_answer
        ));
        report.passes.push(row);
    }

    if want("threads") {
        say("\nthread scaling, two-pass beam (ms, median of rounds)".into());
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
                .map_err(|e| CliError::failed(format!("thread pool: {e}")))?;
            let mut ts = vec![];
            let mut out = None;
            for _ in 0..rounds.min(3) {
                let (o, ms) = timed(|| pool.install(|| beam::search(&b, &cfg, None, |_| {})));
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
            say(format!(
                "{threads} thread(s): {ms:.0} ms, speedup {:.2}, same answer: {}",
                row.speedup, row.same_answer
            ));
            report.threads.push(row);
        }
    }

    if want("clear") {
        say("\nclear goal, width 5000, all threads (seconds per board)".into());
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
                let (o, ms) = timed(|| beam::search(&b, &cfg, None, |_| {}));
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
            say(format!(
                "{} widen {}: {}/{} cleared, median {:.3} s, max {:.3} s",
                row.size, widen, cleared, n, row.median_s, row.max_s
            ));
            report.clear.push(row);
        }
    }

    if want("prove") {
        say("\nprover positions with and without refutations (5 colours, budget 20M positions)"
            .into());
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
                let (v1, s1) = prove(&b, 2, true, budget);
                let (v2, s2) = prove(&b, 2, false, budget);
                match (&v1, &v2) {
                    (Verdict::Unknown, _) | (_, Verdict::Unknown) => row.undecided += 1,
                    (Verdict::Clearable(_), Verdict::Clearable(_)) => row.clearable += 1,
                    (Verdict::Unclearable, Verdict::Unclearable) => row.unclearable += 1,
                    _ => {
                        return Err(CliError::failed(format!(
                            "prover disagrees with itself on\n{b}"
                        )))
                    }
                }
                row.nodes_with += s1.nodes;
                row.nodes_without += s2.nodes;
            }
            row.saved_pct = 100.0 * (1.0 - row.nodes_with as f64 / row.nodes_without.max(1) as f64);
            say(format!(
                "{}: {} boards ({} clearable, {} not, {} undecided), positions {} with refutations, {} without ({:.1}% saved)",
                row.size, n, row.clearable, row.unclearable, row.undecided, row.nodes_with, row.nodes_without, row.saved_pct
            ));
            report.prover.push(row);
        }
    }
    if suites.iter().any(|x| x == "standard") {
        if !set.exists() {
            return Err(CliError::input(format!(
                "--suite standard needs the standard set: {} not found (give it with --set FILE)",
                set.display()
            )));
        }
        let boards = crate::samegame::load_boards(set)?;
        // The default solver: the beam with the playout objective, width 30, 4 playouts.
        let mut cfg = Config::new(Goal::Score, if quick { 10 } else { 30 });
        cfg.eval = Eval::Rollout { playouts: 4 };
        cfg.seed = 1;
        let search = format!("beam width {}, 4 playouts, seed 1, all threads", cfg.width);
        say(format!("\nstandard set ({} boards): {search}", boards.len()));
        let cpu0 = cpu_seconds();
        let t = Instant::now();
        let (mut total, mut cleared) = (0, 0);
        for (b, _) in &boards {
            let out = beam::search(b, &cfg, None, |_| {});
            let v = samegame::trace::verify(b, &out.moves, &rules).map_err(|(k, e)| {
                CliError::failed(format!("internal error: move {} is illegal: {e}", k + 1))
            })?;
            total += v.score;
            cleared += usize::from(v.cleared);
        }
        let wall_s = t.elapsed().as_secs_f64();
        let cpu_s = cpu_seconds().zip(cpu0).map(|(a, b)| a - b);
        say(format!(
            "total {total}, {cleared}/{} cleared, {wall_s:.1} s wall, {} CPU",
            boards.len(),
            cpu_s.map_or("unknown".to_string(), |c| format!("{c:.1} s"))
        ));
        report.standard.push(StandardRow {
            search,
            boards: boards.len(),
            total,
            cleared,
            wall_s,
            cpu_s,
        });
    }
    if json {
        print_json(&report)?;
    }
    Ok(())
}
