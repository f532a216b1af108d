//! Players: the cycle player wins every game it can, every player's games replay, and the
//! helpers (Hamiltonian cycles, route stretching) keep their invariants.

use bits::rng::sub_seed;
use snake::players::stretch;
use snake::{play_game, verify, Cells, Config, HamCycle, PlayerKind, Searcher, Size, Status};

#[test]
fn hamiltonian_cycles_exist_exactly_when_a_side_is_even() {
    for w in 1..=32 {
        for h in 1..=32 {
            let Ok(size) = Size::new(w, h) else { continue };
            let cyc = HamCycle::new(size);
            let expect = (w >= 2 && h >= 2 && (w % 2 == 0 || h % 2 == 0)) || w * h == 2;
            assert_eq!(cyc.is_some(), expect, "{size}");
            if let Some(c) = cyc {
                assert!(c.is_valid(size), "{size}");
            }
        }
    }
}

#[test]
fn cycle_players_win_every_game_with_an_even_side() {
    for kind in [
        PlayerKind::Cycle,
        PlayerKind::Repair,
        PlayerKind::Tree,
        PlayerKind::Knit,
        PlayerKind::Dash,
    ] {
        for (size, games) in
            [("10x10", 24u64), ("8x8", 24), ("6x5", 24), ("4x7", 24), ("2x2", 5), ("16x12", 3)]
        {
            let size: Size = size.parse().unwrap();
            let config = Config::new(size);
            for g in 0..games {
                let mut p = kind.build(size);
                let (s, record) = play_game(config, sub_seed(9, g), p.as_mut(), |_| {});
                assert_eq!(s.status, Status::Won, "{} {size} game {g}", kind.name());
                assert_eq!(s.score, config.max_score());
                if g < 3 {
                    assert_eq!(verify(&record), Ok(s));
                }
            }
        }
    }
}

#[test]
fn cycle_players_beat_the_pure_cycle_on_10x10() {
    // A pure cycle needs K(K+3)/4 = 2,524.5 moves on average from length 1 (K = 99). A
    // sampled slice of the tournament (which measures 2,000 games): 40 games each.
    let size: Size = "10x10".parse().unwrap();
    for (kind, bound) in [
        (PlayerKind::Cycle, 2_000.0),
        (PlayerKind::Repair, 1_600.0),
        (PlayerKind::Tree, 1_500.0),
        (PlayerKind::Knit, 1_500.0),
        (PlayerKind::Dash, 1_500.0),
    ] {
        let games = 40u64;
        let mut moves = 0;
        for g in 0..games {
            let mut p = kind.build(size);
            let (s, _) = play_game(Config::new(size), sub_seed(1, g), p.as_mut(), |_| {});
            assert_eq!(s.status, Status::Won);
            moves += s.moves;
        }
        let mean = moves as f64 / games as f64;
        assert!(mean < bound, "{}: mean {mean}", kind.name());
    }
}

#[test]
fn seed_players_score_near_the_seed_post() {
    // The seed post: BFS 28.2 and A* 28.5 of 99 on 10x10 over 2,000 games, no wins.
    let size: Size = "10x10".parse().unwrap();
    for kind in [PlayerKind::Shortest, PlayerKind::Astar] {
        let games = 200u64;
        let mut score = 0;
        for g in 0..games {
            let mut p = kind.build(size);
            let (s, _) = play_game(Config::new(size), sub_seed(1, g), p.as_mut(), |_| {});
            assert_ne!(s.status, Status::Won);
            score += s.score;
        }
        let mean = score as f64 / games as f64;
        assert!((24.0..36.0).contains(&mean), "{}: {mean}", kind.name());
    }
}

#[test]
fn stretched_routes_stay_simple_and_free() {
    let mut rng = bits::Rng::new(17);
    let size: Size = "9x7".parse().unwrap();
    let mut s: Searcher = Searcher::new(size);
    for _ in 0..500 {
        let mut blocked = Cells::EMPTY;
        for c in 0..size.cells() {
            if rng.chance(1, 4) {
                blocked.insert(c);
            }
        }
        let from = rng.below(size.cells() as u64) as usize;
        let to = rng.below(size.cells() as u64) as usize;
        blocked.remove(from);
        blocked.remove(to);
        let Some(r) = s.bfs(&blocked, from, to) else { continue };
        let mut path = Vec::new();
        s.path_into(from, to, &mut path);
        let free = blocked.complement(&size.live());
        stretch(size, from, &mut path, &free);
        assert!(path.len() >= r.len && (path.len() - r.len) % 2 == 0);
        assert_eq!(*path.last().unwrap(), to);
        let mut seen = Cells::EMPTY;
        seen.insert(from);
        let mut prev = from;
        for &c in &path {
            assert_eq!(size.manhattan(prev, c), 1);
            assert!(!seen.contains(c) && free.contains(c));
            seen.insert(c);
            prev = c;
        }
    }
}

#[test]
fn every_player_plays_legal_games_from_a_longer_start() {
    let size: Size = "8x6".parse().unwrap();
    let mut config = Config::new(size);
    config.start_len = 4;
    for kind in PlayerKind::ALL {
        for g in 0..4 {
            let mut p = kind.build(size);
            let (s, record) = play_game(config, sub_seed(3, g), p.as_mut(), |_| {});
            assert_eq!(verify(&record), Ok(s), "{}", kind.name());
        }
    }
}
