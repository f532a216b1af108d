//! The corner evaluation's gate: the line-table evaluation ([`Corner::eval_i32`], and the
//! search's two ways to call it) and the slow 4x4-array reference
//! ([`twenty48::search::corner::reference_eval`]) agree exactly on random boards from several
//! mixes and on every board of played games.

use bits::Rng;
use twenty48::search::corner::{reference_eval, Corner};
use twenty48::search::{Depth, Evaluator, SearchConfig, Searcher};
use twenty48::{Board, Dir, Game, Status};

/// A random board from one of several mixes, chosen by `kind`.
fn random_board(rng: &mut Rng, kind: u64) -> Board {
    let mut b = Board::EMPTY;
    match kind {
        // Uniform nibbles: every rank equally likely (the most negative lines).
        0 => b = Board(rng.next_u64()),
        // A small alphabet around a random rank, with gaps: equal pairs, small rises.
        1 => {
            let base = 1 + rng.below(14) as u8;
            for cell in 0..16 {
                let v = match rng.below(4) {
                    0 => 0,
                    1 => base,
                    _ => base + rng.below(2) as u8,
                };
                b = b.with(cell, v.min(15));
            }
        }
        // High tiles only (12..15) and gaps: the extremes of the range.
        2 => {
            for cell in 0..16 {
                let v = if rng.below(3) == 0 { 0 } else { 12 + rng.below(4) as u8 };
                b = b.with(cell, v);
            }
        }
        // A sorted corner board with noise: large positive values.
        3 => {
            let top = 6 + rng.below(10) as u8;
            for cell in 0..16 {
                let v = top.saturating_sub(cell as u8 + rng.below(2) as u8);
                b = b.with(cell, v);
            }
        }
        // Game-like: sparse low tiles.
        _ => {
            for cell in 0..16 {
                let top = rng.below(15) + 1;
                let v = if rng.below(2) == 0 { 0 } else { 1 + rng.below(top) as u8 };
                b = b.with(cell, v);
            }
        }
    }
    b
}

fn check(b: Board) {
    let fast = Corner::eval_i32(b);
    assert_eq!(fast, reference_eval(b), "board {b}");
    // The search's two entries give the same value bit for bit.
    let e = Corner.eval(b);
    assert_eq!(e.to_bits(), (fast as f32).to_bits(), "board {b}");
    assert_eq!(Corner.eval_transposed(b, b.transpose().0).to_bits(), e.to_bits(), "board {b}");
}

#[test]
fn table_evaluation_matches_the_reference_on_random_boards() {
    let mut rng = Rng::new(4096);
    let (mut neg, mut pos) = (0u32, 0u32);
    for i in 0..300_000u64 {
        let b = random_board(&mut rng, i % 5);
        check(b);
        neg += u32::from(Corner::eval_i32(b) < 0);
        pos += u32::from(Corner::eval_i32(b) > 0);
    }
    // Both signs are exercised.
    assert!(neg > 10_000 && pos > 10_000, "{neg} negative, {pos} positive");
    // Every single line, alone in each row (and so in one column cell per column).
    for line in 0..=u16::MAX {
        for r in 0..4 {
            check(Board(u64::from(line) << (16 * r)));
        }
    }
}

#[test]
fn table_evaluation_matches_the_reference_on_played_boards() {
    // Random-move games: every board on the way.
    let mut rng = Rng::new(7);
    let mut boards = 0u64;
    for seed in 0..200u64 {
        let mut g = Game::new(seed);
        while g.status() == Status::Playing {
            check(g.board());
            boards += 1;
            let d = Dir::ALL[rng.below(4) as usize];
            let _ = g.play(d);
            if !g.board().can_move() {
                check(g.board());
                break;
            }
        }
    }
    // A game played by the corner evaluation itself (greedy, one move layer): ordered
    // boards with large tiles in the top-left corner.
    let cfg = SearchConfig { depth: Depth::Fixed(1), tt_bits: 10, ..SearchConfig::default() };
    let mut s = Searcher::with_evaluator(&Corner, cfg);
    let mut g = Game::new(11);
    while let Some(c) = s.best_move(g.board()) {
        check(g.board());
        boards += 1;
        g.play(c.dir).unwrap();
    }
    check(g.board());
    assert!(g.max_tile() >= 256, "the greedy corner game reached {}", g.max_tile());
    assert!(boards > 20_000, "{boards} boards");
}

#[test]
fn values_equal_macroxue_node_h_on_its_own_boards() {
    // Values printed by macroxue/2048-ai's own code (see the file's header).
    let mut n = 0;
    for line in include_str!("data/corner_macroxue.txt").lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (board, value) = line.split_once(" = ").expect("`board = value`");
        let b: Board = board.parse().unwrap_or_else(|e| panic!("{board:?}: {e}"));
        let want: i32 = value.trim().parse().unwrap();
        assert_eq!(Corner::eval_i32(b), want, "board {b}");
        assert_eq!(reference_eval(b), want, "board {b}");
        n += 1;
    }
    assert_eq!(n, 64);
}
