//! Gate: the bitboard engine and the plain-array reference engine play identical games.

use bits::Rng;
use snake::reference::RefGame;
use snake::{Config, Dir, Game, Size, Status};

/// Random games (random non-reversing moves, biased towards the fruit so snakes grow) on
/// many sizes and setups: after every move both engines report the same event, body, fruit,
/// score and status.
#[test]
fn engine_matches_reference_on_random_games() {
    let mut rng = Rng::new(2024);
    let mut moves = 0u64;
    let mut outcomes = [0u32; 4];
    for g in 0..4_000u64 {
        let w = 1 + rng.below(32) as usize;
        let h = 1 + rng.below(32) as usize;
        let Ok(size) = Size::new(w, h) else { continue };
        let mut config = Config::new(size);
        config.start_x = rng.below(w as u64) as usize;
        config.start_y = rng.below(h as u64) as usize;
        config.start_len = 1 + rng.below(config.start_x as u64 + 1).min(4) as usize;
        if config.start_len >= size.cells() {
            config.start_len = 1;
        }
        config.stall_limit = 1 + rng.below(300);
        config.validate().unwrap();
        let mut fast = Game::new(config, g);
        let mut slow = RefGame::new(config, g);
        assert_eq!(fast.board().fruit(), slow.fruit());
        while fast.status() == Status::Running {
            let b = fast.board();
            let mut d = Dir::ALL[rng.below(4) as usize];
            if rng.chance(2, 3) {
                if let Some(f) = b.fruit() {
                    let (hx, hy) = size.xy(b.head());
                    let (fx, fy) = size.xy(f);
                    d = if fx > hx {
                        Dir::Right
                    } else if fx < hx {
                        Dir::Left
                    } else if fy > hy {
                        Dir::Down
                    } else {
                        Dir::Up
                    };
                }
            }
            let e1 = fast.play(d);
            let e2 = slow.play(d);
            assert_eq!(e1, e2, "game {g} move {}\n{}", fast.moves(), fast.board());
            if e1.is_err() {
                continue;
            }
            moves += 1;
            assert_eq!(fast.board().body().collect::<Vec<_>>(), slow.body(), "game {g}");
            assert_eq!(fast.board().fruit(), slow.fruit());
            assert_eq!(
                (fast.score(), fast.status(), fast.moves()),
                (slow.score(), slow.status(), slow.moves())
            );
            // The text form round-trips mid-game.
            let text = fast.board().to_string();
            assert_eq!(text.parse::<snake::Board>().unwrap(), *fast.board());
        }
        outcomes[match fast.status() {
            Status::Won => 0,
            Status::Died(snake::Death::Wall) => 1,
            Status::Died(snake::Death::Body) => 2,
            _ => 3,
        }] += 1;
    }
    assert!(moves > 80_000, "only {moves} moves");
    // Every way a game can end was exercised.
    assert!(outcomes.iter().all(|&n| n > 0), "{outcomes:?}");
}

/// Games played by every player replay identically on the reference engine.
#[test]
fn player_games_verify_on_the_reference_engine() {
    for kind in snake::PlayerKind::ALL {
        for (size, seed) in [("8x8", 1u64), ("10x10", 2), ("6x5", 3), ("5x5", 4)] {
            let size: Size = size.parse().unwrap();
            let mut p = kind.build(size);
            let (summary, record) = snake::play_game(Config::new(size), seed, p.as_mut(), |_| {});
            assert_eq!(snake::verify(&record), Ok(summary), "{} on {size}", kind.name());
        }
    }
}
