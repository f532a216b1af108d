use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::*;

/// A long search: 6-line PC heights of a queue of S and Z pieces only, which has none, with
/// no node limit.
fn hopeless() -> PcSolveRequest {
    PcSolveRequest {
        queue: "SZSZSZSZSZSZSZSZSZSZSZ".into(),
        min_height: Some(6),
        ..PcSolveRequest::default()
    }
}

#[test]
fn an_aborted_long_solve_returns_within_100_ms() {
    let stop = AtomicBool::new(false);
    let req = hopeless();
    std::thread::scope(|s| {
        let h = s.spawn(|| {
            let r = pc(&req, Control::new().with_abort(&stop));
            (r, Instant::now())
        });
        std::thread::sleep(Duration::from_millis(300));
        let set = Instant::now();
        stop.store(true, Ordering::Relaxed);
        let (r, end) = h.join().unwrap();
        assert_eq!(r.unwrap_err(), Error::Aborted, "the solve ended before the flag");
        let lag = end.saturating_duration_since(set);
        assert!(lag < Duration::from_millis(100), "returned {lag:?} after the flag");
    });
}

#[test]
fn an_aborted_height_4_sweep_stops_within_half_a_second() {
    // The walk over the 79.5 M canonical queues went on after the flag (about 3 s); it stops
    // now, and so does the queue being solved.
    let stop = AtomicBool::new(false);
    let req = SweepRequest { height: 4, ..SweepRequest::default() };
    std::thread::scope(|s| {
        let setter = s.spawn(|| {
            std::thread::sleep(Duration::from_millis(50));
            stop.store(true, Ordering::Relaxed);
            Instant::now()
        });
        let r = sweep(&req, Control::new().with_abort(&stop));
        let end = Instant::now();
        let late = end.saturating_duration_since(setter.join().unwrap());
        assert!(matches!(r, Err(Error::Aborted)), "{r:?}");
        assert!(late < Duration::from_millis(500), "returned {late:?} after the flag");
    });
}

#[test]
fn a_clear_flag_changes_nothing() {
    let kicks = KickTable::srs_plus();
    let flag = AtomicBool::new(false);
    for i in 0..20 {
        let req = crate::PcRequest::opener(crate::bag::opener_queue(3, i, 16));
        let mut a = crate::Solver::new(&kicks);
        let mut b = crate::Solver::new(&kicks);
        let (x, y) = (a.solve(&req).unwrap(), b.solve_with_abort(&req, Some(&flag)).unwrap());
        assert_eq!(x, y, "queue {i}");
        assert_eq!(a.stats(), b.stats(), "queue {i}");
    }
}

#[test]
fn node_limit_is_a_result_and_kick_names_are_checked() {
    let req = PcSolveRequest { node_limit: Some(5), ..hopeless() };
    let out = pc(&req, Control::new()).unwrap();
    assert!(out.report.aborted && !out.report.found && out.record.is_none());
    assert_eq!(out.report.nodes, 5);
    let bad = PcSolveRequest { kicks: "nosuch".into(), ..hopeless() };
    assert_eq!(
        pc(&bad, Control::new()).unwrap_err().message(),
        "kicks: \"nosuch\", not a built-in table (none, srs, srs+, srs-tetrio) and no such file"
    );
    let text = KickTable::srs().to_text();
    let custom = load_kicks("my.txt", Some(&text)).unwrap();
    assert_eq!(custom.to_text(), text);
    assert!(load_kicks("my.txt", Some("garbage")).unwrap_err().message().starts_with("my.txt: "));
}

#[test]
fn dealt_sweep_shards_add_up() {
    let part = |k| {
        let req = SweepRequest { shard: Shard::new(k, 50).unwrap(), ..SweepRequest::default() };
        sweep(&req, Control::new()).unwrap()
    };
    let one = part(1);
    assert_eq!((one.items, one.shard.as_str()), (1155, "1/50"));
    assert_eq!(one.solvable, 76);
}

#[test]
fn requests_have_the_cli_defaults() {
    let d = PcSolveRequest::default();
    assert!(d.use_hold && d.kicks == "srs+");
    assert_eq!(BenchRequest::default().count, 200);
    assert_eq!(TrainRequest::default().start, "hand");
}
