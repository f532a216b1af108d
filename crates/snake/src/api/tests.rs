use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::*;

#[test]
fn an_aborted_long_tournament_on_30x30_returns_within_100_ms() {
    let stop = AtomicBool::new(false);
    let req = TournamentRequest {
        games: 10_000,
        setup: Setup { size: "30x30".into(), ..Setup::default() },
        ..TournamentRequest::default()
    };
    std::thread::scope(|s| {
        let h = s.spawn(|| {
            let r = tournament(&req, Control::new().with_abort(&stop));
            (r, Instant::now())
        });
        std::thread::sleep(Duration::from_millis(300));
        let set = Instant::now();
        stop.store(true, Ordering::Relaxed);
        let (r, end) = h.join().unwrap();
        assert_eq!(r.unwrap_err(), Error::Aborted, "the tournament ended before the flag");
        let lag = end.saturating_duration_since(set);
        assert!(lag < Duration::from_millis(100), "returned {lag:?} after the flag");
    });
}

#[test]
fn shards_are_contiguous_games_with_the_whole_runs_seeds() {
    let base = TournamentRequest {
        games: 9,
        first: 4,
        players: vec!["shortest".into(), "cycle".into()],
        setup: Setup { size: "6x6".into(), ..Setup::default() },
        ..TournamentRequest::default()
    };
    let whole = tournament(&base, Control::new()).unwrap();
    let second = TournamentRequest { shard: Shard::new(2, 3).unwrap(), ..base.clone() };
    let part = tournament(&second, Control::new()).unwrap();
    assert_eq!((part.first, part.games), (7, 3));
    // The shard is the run of those games on their own.
    let same = TournamentRequest { games: 3, first: 7, ..base.clone() };
    let alone = tournament(&same, Control::new()).unwrap();
    for (a, b) in part.rows.iter().zip(&alone.rows) {
        assert_eq!((a.wins, a.best, a.worst, a.avg_moves), (b.wins, b.best, b.worst, b.avg_moves));
    }
    assert_eq!(whole.rows.len(), 2);
    assert_eq!(whole.rows[0].games, 9);
}

#[test]
fn play_watch_and_replay_agree() {
    let setup = Setup { size: "8x8".into(), ..Setup::default() };
    let played = play(
        &PlayRequest { player: "astar".into(), setup: setup.clone(), seed: 3 },
        Control::new(),
    )
    .unwrap();
    let mut frames = 0;
    let watched = watch(
        &WatchRequest { player: "astar".into(), every: 10, setup, seed: 3 },
        Control::new(),
        &mut |_| frames += 1,
    )
    .unwrap();
    assert_eq!(played.record, watched.record);
    assert_eq!(frames as u64, watched.moves / 10 + 1 + u64::from(watched.moves % 10 != 0));
    let back = replay(
        &ReplayRequest { file: bits::job::InputFile::json("w", &watched.record) },
        Control::new(),
    )
    .unwrap();
    assert_eq!((back.score, back.moves), (played.report.score, played.report.moves));
    let bad = PlayRequest { player: "nosuch".into(), ..PlayRequest::default() };
    assert!(matches!(play(&bad, Control::new()), Err(Error::Input(_))));
}

#[test]
fn stats_are_the_cli_formulas() {
    let (m, ci) = stats::mean_ci95(&[1.0, 2.0, 3.0, 4.0]);
    assert_eq!(m, 2.5);
    assert!((ci - 1.96 * (5.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-12);
    assert_eq!(stats::median(vec![3.0, 1.0, 2.0, 4.0]), 3.0);
}

#[test]
fn requests_check_themselves_and_name_the_field() {
    let err = |r: Result<(), Error>| r.unwrap_err().message().to_string();
    TournamentRequest::default().check().unwrap();
    BenchRequest::default().check().unwrap();
    let t = |r: TournamentRequest| err(r.check());
    assert_eq!(
        t(TournamentRequest { games: 0, ..TournamentRequest::default() }),
        "games: 0, must be 1 to 10000000"
    );
    assert_eq!(
        t(TournamentRequest { players: vec!["greedy".into()], ..TournamentRequest::default() }),
        "players: \"greedy\" is not a player \
         (shortest, astar, longest, lookahead, cycle, repair, tree, knit, dash)"
    );
    let size = Setup { size: "40x40".into(), ..Setup::default() };
    assert!(t(TournamentRequest { setup: size, ..TournamentRequest::default() })
        .starts_with("setup.size: "));
    assert_eq!(err(BenchRequest { rounds: 0, iters: 1 }.check()), "rounds: 0, must be 1 to 1000");
}
