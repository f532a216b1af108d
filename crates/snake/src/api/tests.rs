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
    let back = replay(&ReplayRequest { record: watched.record, name: "w".into() }, Control::new())
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

mod live_api {
    use super::super::live::*;
    use super::super::{play, Control, PlayRequest, Setup};

    fn setup(size: &str) -> Setup {
        Setup { size: size.into(), ..Setup::default() }
    }

    #[test]
    fn auto_from_the_start_is_the_game_play_plays() {
        for (player, size, seed) in
            [("cycle", "8x8", 3), ("lookahead", "7x5", 11), ("dash", "10x10", 2)]
        {
            let played = play(
                &PlayRequest { player: player.into(), setup: setup(size), seed },
                Control::new(),
            )
            .unwrap();
            let req = AutoRequest {
                from: PositionRequest { setup: setup(size), seed, ..Default::default() },
                player: player.into(),
                chunk: 7,
                ..Default::default()
            };
            let mut moves = String::new();
            let mut frames = Vec::new();
            let out = auto(&req, Control::new(), &mut |c| {
                assert!(c.frames.len() <= 7 && c.frames.len() == c.moves.len());
                moves.push_str(&c.moves);
                frames.extend_from_slice(&c.frames);
                assert_eq!(c.total as usize, moves.len());
            })
            .unwrap();
            assert_eq!(out.record, played.record, "{player} on {size}");
            assert_eq!(moves, played.record.moves);
            // The frames are the ones `position` gives for the same moves.
            let pos = position(
                &PositionRequest { setup: setup(size), seed, moves, frames: true, record: true },
                Control::new(),
            )
            .unwrap();
            assert_eq!(&pos.frames[1..], &frames[..]);
            assert_eq!(pos.status, out.status);
            assert_eq!(pos.record.unwrap().fruits, played.record.fruits);
            assert!(pos.legal.is_empty() && pos.safe.is_empty());
        }
    }

    #[test]
    fn the_body_is_the_start_then_the_heads_of_the_frames() {
        let req = AutoRequest {
            from: PositionRequest { setup: setup("6x6"), seed: 5, ..Default::default() },
            player: "lookahead".into(),
            ..Default::default()
        };
        let out = auto(&req, Control::new(), &mut |_| {}).unwrap();
        let moves = out.record.moves;
        let all = position(
            &PositionRequest {
                setup: setup("6x6"),
                seed: 5,
                moves: moves.clone(),
                frames: true,
                ..Default::default()
            },
            Control::new(),
        )
        .unwrap();
        let mut trail: Vec<usize> = all.start.iter().rev().copied().collect();
        trail.extend(all.frames[1..].iter().map(|f| f.head));
        for k in (0..moves.len()).step_by(5) {
            let at = position(
                &PositionRequest {
                    setup: setup("6x6"),
                    seed: 5,
                    moves: moves[..k].into(),
                    ..Default::default()
                },
                Control::new(),
            )
            .unwrap();
            let f = all.frames[k];
            let end = all.start.len() + k;
            let body: Vec<usize> = trail[end - f.len..end].iter().rev().copied().collect();
            assert_eq!(body, at.now.body, "move {k}");
            assert_eq!(f.fruit, at.now.fruit);
        }
    }

    #[test]
    fn a_hint_is_the_move_auto_makes_and_its_route_reaches_the_fruit() {
        let from = PositionRequest {
            setup: setup("10x10"),
            seed: 9,
            moves: "UUR".into(),
            ..Default::default()
        };
        for player in ["shortest", "astar", "cycle", "knit"] {
            let h = hint(
                &HintRequest { from: from.clone(), player: player.into(), steps: None },
                Control::new(),
            )
            .unwrap();
            let mut first = String::new();
            let req = AutoRequest {
                from: from.clone(),
                player: player.into(),
                max_moves: 1,
                ..Default::default()
            };
            auto(&req, Control::new(), &mut |c| first.push_str(&c.moves)).unwrap();
            assert_eq!(h.dir, first, "{player}");
            assert!(h.eats, "{player} plans to the fruit within 100 moves");
            let mut moves = from.moves.clone() + &h.moves;
            moves.pop();
            let before =
                position(&PositionRequest { moves, ..from.clone() }, Control::new()).unwrap();
            assert_eq!(Some(*h.route.last().unwrap()), before.now.fruit, "{player}");
        }
    }

    #[test]
    fn bad_moves_are_input_errors_that_name_the_move() {
        let at = |moves: &str| {
            position(
                &PositionRequest { setup: setup("6x6"), moves: moves.into(), ..Default::default() },
                Control::new(),
            )
            .unwrap_err()
            .to_string()
        };
        assert_eq!(at("UUx"), "moves: 'x' (move 3) is not one of U, R, D, L");
        assert!(at("UUUUUU").contains("move 5"), "{}", at("UUUUUU"));
        let two = Setup { size: "6x6".into(), start_len: 2, stall: None };
        let rev = PositionRequest { setup: two, moves: "UL".into(), ..Default::default() };
        assert_eq!(
            position(&PositionRequest { moves: "L".into(), ..rev.clone() }, Control::new())
                .unwrap_err()
                .to_string(),
            "moves: move 1 (L): the snake may not reverse onto its neck"
        );
        let ok = position(&rev, Control::new()).unwrap();
        assert_eq!(ok.status, "Running");
    }
}
