//! The typed API: cancellation of long verbs, and agreement with the engines it wraps.

use samegame::api::Boards as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use samegame::api::{self, BoardFile, Control, Error, Search, SolveRequest};
use samegame::{trace, Board, Rules};

/// Runs `f` with an abort flag on a thread, sets the flag after `after`, and returns what `f`
/// returned and how long it took to return after the flag was set.
fn cancel_after<R: Send>(after: Duration, f: impl FnOnce(Control) -> R + Send) -> (R, Duration) {
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        let h = s.spawn(|| {
            let r = f(Control::new().with_abort(&stop));
            (r, Instant::now())
        });
        std::thread::sleep(after);
        let set = Instant::now();
        stop.store(true, Ordering::Relaxed);
        let (r, done) = h.join().expect("the verb does not panic");
        (r, done.saturating_duration_since(set))
    })
}

fn board15(seed: u64) -> BoardFile {
    BoardFile::text_file("board.txt", Board::random(15, 15, 5, seed).to_string())
}

/// Checks a cancelled solve's answer: the best finished game so far, verified, or Aborted.
fn check_answer(req: &SolveRequest, r: Result<api::SolveResponse, Error>) {
    match r {
        Err(Error::Aborted) => {}
        Ok(out) => {
            assert!(out.aborted, "a cut-short solve says so");
            let b = &out.boards[0];
            let board = req.file.as_ref().unwrap().boards().unwrap()[0].0.clone();
            let moves: Vec<_> = b.moves.iter().map(|&[x, y]| (x, y)).collect();
            let v = trace::verify(&board, &moves, &Rules::default()).expect("legal moves");
            assert_eq!(v.score, b.score);
            assert!(v.game_over, "the answer is a finished game");
        }
        Err(e) => panic!("unexpected error {e}"),
    }
}

/// A solve that would run for hours (NRPA level 3, 100,000 iterations per level, on a 15x15
/// board) returns within 100 ms of the abort flag, with the best game found so far.
#[test]
fn cancelled_nrpa_returns_within_100_ms() {
    let req = SolveRequest {
        file: Some(board15(3)),
        search: Search::Nrpa,
        level: 3,
        iterations: 100_000,
        threads: Some(2),
        ..SolveRequest::default()
    };
    let (r, late) = cancel_after(Duration::from_millis(300), |ctl| api::solve(&req, ctl));
    assert!(late < Duration::from_millis(100), "returned {late:?} after the flag");
    let out = r.expect("NRPA has a whole game after 300 ms");
    check_answer(&req, Ok(out));
}

/// The same for every other long search: nested (level 4), beam-nrpa, a portfolio with
/// several runs, a huge beam, restarts; and for the prover and the bench.
#[test]
fn every_search_stops_within_100_ms() {
    let base = SolveRequest { file: Some(board15(4)), threads: Some(2), ..SolveRequest::default() };
    let reqs = [
        SolveRequest { search: Search::Nested, level: 4, ..base.clone() },
        SolveRequest {
            search: Search::BeamNrpa,
            nested_level: 3,
            level: 4,
            iterations: 100_000,
            ..base.clone()
        },
        SolveRequest {
            search: Search::Nrpa,
            level: 4,
            iterations: 100_000,
            runs: 3,
            portfolio: vec![samegame::nrpa::Tabu::Strict, samegame::nrpa::Tabu::Bias(-2.0)],
            ..base.clone()
        },
        SolveRequest { width: Some(3000), restarts: 1000, ..base.clone() },
        SolveRequest { search: Search::BeamNested, level: 4, width: Some(4), ..base.clone() },
    ];
    for req in &reqs {
        for after in [Duration::from_millis(1), Duration::from_millis(250)] {
            let (r, late) = cancel_after(after, |ctl| api::solve(&req.clone(), ctl));
            assert!(late < Duration::from_millis(100), "{:?}: {late:?} after the flag", req.search);
            check_answer(req, r);
        }
    }
    let prove = api::ProveRequest {
        file: BoardFile::text_file("b", Board::random(12, 12, 6, 9).to_string()),
        refutations: false,
        max_nodes: u64::MAX,
    };
    let (r, late) = cancel_after(Duration::from_millis(200), |ctl| api::prove(&prove, ctl));
    assert!(late < Duration::from_millis(100), "prove: {late:?}");
    assert!(matches!(r, Err(Error::Aborted)), "{r:?}");
    let bench = api::BenchRequest { suites: vec!["clear".into()], ..api::BenchRequest::default() };
    let (r, late) = cancel_after(Duration::from_millis(200), |ctl| api::bench(&bench, ctl));
    assert!(late < Duration::from_millis(100), "bench: {late:?}");
    assert!(matches!(r, Err(Error::Aborted)), "{r:?}");
}

/// Without the flag set, the abortable searches give exactly the plain searches' answers.
#[test]
fn an_unset_flag_changes_nothing() {
    use samegame::{nested, nrpa};
    let never = AtomicBool::new(false);
    for seed in 0..4 {
        let b = Board::random(8, 8, 4, 40 + seed);
        let cfg = nrpa::Config { iterations: 12, runs: 2, seed, ..nrpa::Config::new(2) };
        let priors = [nrpa::Tabu::Strict, nrpa::Tabu::Off];
        assert_eq!(
            nrpa::search_portfolio(&b, &cfg, &priors, None, |_| {}),
            nrpa::search_portfolio_with_abort(&b, &cfg, &priors, None, Some(&never), |_| {})
        );
        let ncfg = nested::Config { level: 1, rules: Rules::default(), seed };
        assert_eq!(
            nested::search(&b, &ncfg, |_| {}),
            nested::search_from_with_abort(&b, &ncfg, None, Some(&never), |_| {})
        );
        let small = Board::random(6, 6, 4, seed);
        assert_eq!(
            samegame::prove::prove(&small, 2, true, 1 << 20),
            samegame::prove::prove_with_abort(&small, 2, true, 1 << 20, Some(&never))
        );
    }
}

/// The API's solve is the beam's answer, verified, with its record.
#[test]
fn solve_returns_the_verified_record() {
    let req = SolveRequest {
        file: Some(BoardFile::text_file("b", Board::random(8, 6, 3, 5).to_string())),
        width: Some(50),
        record: true,
        ..SolveRequest::default()
    };
    let out = api::solve(&req, Control::new()).unwrap();
    assert!(!out.aborted);
    let rec = out.boards[0].record.clone().unwrap();
    let replayed = api::replay(
        &api::ReplayRequest { file: bits::job::InputFile::json("r", &rec) },
        Control::new(),
    )
    .unwrap();
    assert_eq!(replayed.score, out.boards[0].score);
    let multi = SolveRequest {
        file: Some(BoardFile::text_file("two.txt", "12\n12\n\n12\n21\n")),
        record: true,
        ..SolveRequest::default()
    };
    let e = api::solve(&multi, Control::new()).unwrap_err();
    assert_eq!(e, Error::input("record: needs one board; pick one with board"));
}

/// Requests parse from JSON with every field optional.
#[test]
fn requests_default_every_field() {
    let req: SolveRequest =
        serde_json::from_str(r#"{"search": "beam-nrpa", "portfolio": ["strict", "-2"]}"#).unwrap();
    assert_eq!(req.search, Search::BeamNrpa);
    assert_eq!(req.portfolio.len(), 2);
    assert_eq!(req.iterations, 100);
    let gen: api::GenRequest = serde_json::from_str("{}").unwrap();
    assert_eq!((gen.width, gen.height, gen.colors), (15, 15, 5));
    let p: api::ProveRequest = serde_json::from_str("{}").unwrap();
    assert_eq!(p.max_nodes, 50_000_000);
}

/// A solve of several boards stopped on a later board keeps the boards it finished (each
/// verified, the response marked aborted) instead of losing them to the abort.
#[test]
fn an_abort_keeps_the_boards_already_solved() {
    let text = format!("{}\n\n{}", Board::random(5, 5, 3, 1), Board::random(15, 15, 5, 2));
    let req = SolveRequest {
        file: Some(BoardFile::text_file("two.txt", text)),
        search: Search::Nested,
        level: 4,
        threads: Some(2),
        ..SolveRequest::default()
    };
    let (r, late) = cancel_after(Duration::from_millis(400), |ctl| api::solve(&req, ctl));
    assert!(late < Duration::from_millis(100), "returned {late:?} after the flag");
    let out = r.expect("the small board was solved before the abort");
    assert!(out.aborted);
    assert!(!out.boards.is_empty() && out.boards[0].board == 1, "{:?}", out.boards);
    let small = req.file.as_ref().unwrap().boards().unwrap()[0].0.clone();
    let moves: Vec<_> = out.boards[0].moves.iter().map(|&[x, y]| (x, y)).collect();
    let v = trace::verify(&small, &moves, &Rules::default()).expect("legal moves");
    assert!(v.game_over && v.score == out.boards[0].score);
}
