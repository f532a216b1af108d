//! The API's own tests: aborts return promptly, progress arrives, defaults parse.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::*;

const START: &str =
    "......./......./......./......./......./..3..../####### next=5 level=1 drops=4 score=0";

/// Runs `f` on a thread with an abort flag, sets the flag after `after`, and returns the
/// time from the flag to the return and what `f` returned.
fn abort_after<R: Send>(after: Duration, f: impl FnOnce(Control<'_>) -> R + Send) -> (Duration, R) {
    let flag = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let h = scope.spawn(|| {
            let r = f(Control::new().with_abort(&flag));
            (Instant::now(), r)
        });
        std::thread::sleep(after);
        let set = Instant::now();
        flag.store(true, Ordering::Relaxed);
        let (done, r) = h.join().expect("the verb does not panic");
        (done.saturating_duration_since(set), r)
    })
}

#[test]
fn a_deep_decision_stops_within_100_ms_of_the_flag() {
    // Depth 6 with every disc value takes minutes; the flag is checked every 1024 moves.
    let req = DecideRequest {
        position: START.into(),
        search: SearchOptions { depth: 6, ..Default::default() },
    };
    let (late, r) = abort_after(Duration::from_millis(50), |ctl| decide(&req, ctl));
    assert_eq!(r.unwrap_err(), Error::Aborted);
    assert!(late < Duration::from_millis(100), "returned {late:?} after the flag");
}

#[test]
fn a_budget_decision_stops_too() {
    let req = DecideRequest {
        position: START.into(),
        search: SearchOptions {
            budget: Some(u64::MAX / 2),
            min_depth: Some(5),
            max_depth: Some(7),
            ..Default::default()
        },
    };
    let (late, r) = abort_after(Duration::from_millis(50), |ctl| decide(&req, ctl));
    assert_eq!(r.unwrap_err(), Error::Aborted);
    assert!(late < Duration::from_millis(100), "returned {late:?} after the flag");
}

#[test]
fn a_batch_stops_within_100_ms_of_the_flag() {
    let req = PlayRequest {
        search: SearchOptions { depth: 4, ..Default::default() },
        games: 64,
        ..Default::default()
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let (late, r) = abort_after(Duration::from_millis(50), |ctl| pool.install(|| play(&req, ctl)));
    assert_eq!(r.unwrap_err(), Error::Aborted);
    assert!(late < Duration::from_millis(100), "returned {late:?} after the flag");
}

#[test]
fn fit_and_train_stop_within_100_ms_of_the_flag() {
    let req = FitRequest {
        search: SearchOptions { depth: 4, ..Default::default() },
        games: 1000,
        ..Default::default()
    };
    let (late, r) = abort_after(Duration::from_millis(50), |ctl| fit(&req, ctl));
    assert_eq!(r.unwrap_err(), Error::Aborted);
    assert!(late < Duration::from_millis(100), "fit returned {late:?} after the flag");

    let req = TrainRequest {
        games: 1_000_000,
        shape: Some("rows=0112233 size=4096".into()),
        ..Default::default()
    };
    let mut last = None;
    let (late, r) = abort_after(Duration::from_millis(50), |ctl| {
        train(&req, ctl, &mut |c| {
            last = Some((c.meta.games, c.last));
            Ok(())
        })
    });
    let r = r.unwrap();
    assert!(late < Duration::from_millis(100), "train returned {late:?} after the flag");
    assert!(r.games_this_run < 1_000_000);
    assert_eq!(last, Some((r.games_total, true)), "the network so far is handed over");
}

#[test]
fn an_unset_flag_changes_no_value() {
    let req = DecideRequest {
        position: START.into(),
        search: SearchOptions { depth: 3, ..Default::default() },
    };
    let flag = AtomicBool::new(false);
    let a = decide(&req, Control::new()).unwrap();
    let b = decide(&req, Control::new().with_abort(&flag)).unwrap();
    assert_eq!(a.values, b.values);
    assert_eq!(a.stats, b.stats);
    // And the same as the searcher without any abort check.
    let rules = Rules::new(Mode::Hardcore);
    let mut s =
        crate::search::Searcher::new(rules, ChanceModel::Exact, Ready::default(), Direct::new(16));
    // The API's default reveals are `stratified`: paired, with stratified draws.
    s.paired_reveals = true;
    s.stratified_reveals = true;
    let pos: crate::Position = START.parse().unwrap();
    let d = s.decide(&pos, 3);
    assert_eq!(a.values, d.values.to_vec());
    assert_eq!(a.stats, s.stats);
}

#[test]
fn play_reports_every_game_and_shards_concatenate() {
    let seen = Mutex::new(Vec::new());
    let log = |p: Progress| {
        if p.message.is_empty() {
            seen.lock().unwrap().push(p.done)
        }
    };
    let req = PlayRequest {
        search: SearchOptions { depth: 1, ..Default::default() },
        games: 5,
        max_moves: 40,
        ..Default::default()
    };
    let full = play(&req, Control::new().with_progress(&log)).unwrap();
    let mut done = seen.into_inner().unwrap();
    done.sort_unstable();
    assert_eq!(done, [1, 2, 3, 4, 5]);
    assert_eq!(full.records.len(), 5);
    let mut scores = Vec::new();
    for k in 1..=2 {
        let part = PlayRequest { shard: Shard::new(k, 2).unwrap(), ..req.clone() };
        let out = play(&part, Control::new()).unwrap();
        scores.extend(out.report.results.iter().map(|g| (g.result.index, g.result.score)));
    }
    let whole: Vec<_> =
        full.report.results.iter().map(|g| (g.result.index, g.result.score)).collect();
    assert_eq!(scores, whole);
}

#[test]
fn requests_default_from_empty_json() {
    let p: PlayRequest = serde_json::from_str("{}").unwrap();
    assert_eq!(p.games, 1);
    assert_eq!(p.search.eval.text, "ready");
    let d: DecideRequest = serde_json::from_str(r#"{"search": {"depth": 2}}"#).unwrap();
    assert_eq!(d.search.table, "direct");
    let _: AbRequest = serde_json::from_str("{}").unwrap();
    let _: FitRequest = serde_json::from_str("{}").unwrap();
    let _: TrainRequest = serde_json::from_str("{}").unwrap();
    let _: BenchRequest = serde_json::from_str("{}").unwrap();
    let _: SweepRequest = serde_json::from_str("{}").unwrap();
    let _: MixRequest = serde_json::from_str("{}").unwrap();
}

#[test]
fn eval_files_lists_the_named_files() {
    assert_eq!(eval_files("fitted:@w.txt*0.5"), ["w.txt"]);
    assert_eq!(eval_files("ntuple:@a.d7n+@b.d7n"), ["a.d7n", "b.d7n"]);
    assert!(eval_files("ready").is_empty());
    assert!(eval_files("fitted:1,2").is_empty());
    let spec = EvalSpec::new("ntuple:@missing.d7n");
    let e = EvalChoice::parse("search.eval", &spec).unwrap_err();
    assert_eq!(e.message(), "search.eval: cannot read missing.d7n: not given");
}

/// Side-by-side timing of the searcher without and with an (unset) abort flag, alternating:
/// `cargo test -p drop7 --lib -- --ignored abort_check_cost --nocapture`.
#[test]
#[ignore = "a timing, not a check"]
fn abort_check_cost() {
    use crate::search::{Searcher, Stats};
    let rules = Rules::new(Mode::Hardcore);
    let pos: crate::Position = START.parse().unwrap();
    let flag = AtomicBool::new(false);
    let (mut plain, mut checked) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        let t = Instant::now();
        let mut s = Searcher::new(rules, ChanceModel::Exact, Ready::default(), Direct::new(16));
        let a = s.decide(&pos, 4);
        let sa: Stats = s.stats;
        plain.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let mut s = Searcher::new(rules, ChanceModel::Exact, Ready::default(), Direct::new(16))
            .with_abort(Some(&flag));
        let b = s.decide(&pos, 4);
        checked.push(t.elapsed().as_secs_f64());
        assert_eq!(a, b);
        assert_eq!(sa, s.stats);
    }
    plain.sort_by(f64::total_cmp);
    checked.sort_by(f64::total_cmp);
    println!("depth 4: no abort {:.4} s, unset flag {:.4} s (medians of 5)", plain[2], checked[2]);
}
