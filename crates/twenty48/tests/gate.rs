//! The gate: the table engine and the reference engine agree on the resulting board, the
//! score and legality (including the 65536 overflow) for millions of random (board, move)
//! cases, drawn from mixes that stress full rows, repeated merges and high tiles.

use bits::Rng;
use twenty48::{reference, Board, Dir, MoveError};

/// A random board from one of several mixes, chosen by `kind`.
fn random_board(rng: &mut Rng, kind: u64) -> Board {
    let mut b = Board::EMPTY;
    match kind {
        // Uniform nibbles: every rank equally likely, many high tiles.
        0 => b = Board(rng.next_u64()),
        // Small alphabet around a random rank (repeated merges, runs of equal tiles), with
        // gaps; the base reaches 14 so 32768 pairs (overflow) appear.
        1 | 2 => {
            let base = 1 + rng.below(14) as u8;
            for cell in 0..16 {
                let v = match rng.below(4) {
                    0 => 0,
                    1 => base,
                    2 => base + 1,
                    _ => base + (rng.below(2) as u8),
                };
                b = b.with(cell, v.min(15));
            }
        }
        // Full boards (no gaps) from a tiny alphabet: full rows, chains like 2 2 2 2.
        3 => {
            let base = 1 + rng.below(15) as u8;
            for cell in 0..16 {
                b = b.with(cell, (base + rng.below(2) as u8).min(15));
            }
        }
        // High tiles only: 12..15 and gaps.
        4 => {
            for cell in 0..16 {
                let v = if rng.below(3) == 0 { 0 } else { 12 + rng.below(4) as u8 };
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

#[test]
fn table_engine_matches_reference_on_millions_of_cases() {
    let mut rng = Rng::new(2048);
    let boards = 700_000u64;
    let (mut legal, mut illegal, mut overflow, mut merges) = (0u64, 0u64, 0u64, 0u64);
    for i in 0..boards {
        let b = random_board(&mut rng, i % 6);
        let all = b.shift_all();
        for (k, d) in Dir::ALL.into_iter().enumerate() {
            let fast = b.play(d);
            let slow = reference::play(b, d);
            assert_eq!(fast, slow, "board {b} move {d}");
            // The search's board-only path agrees with the checked one.
            let (shifted, flag) = b.shift(d);
            assert_eq!(flag, fast == Err(MoveError::Overflow), "board {b} move {d}");
            if let Ok(m) = fast {
                assert_eq!(shifted, m.board, "board {b} move {d}");
            } else if !flag {
                assert_eq!(shifted, b, "board {b} move {d}");
            }
            // The four-move generator and the older transpose path say the same.
            assert_eq!(all.overflow & (1 << k) != 0, flag, "board {b} move {d}");
            assert_eq!(b.shift_by_transpose(d), (shifted, flag), "board {b} move {d}");
            if !flag {
                assert_eq!(all.boards[k], shifted, "board {b} move {d}");
            }
            match fast {
                Ok(m) => {
                    legal += 1;
                    merges += u64::from(m.score > 0);
                }
                Err(MoveError::Illegal) => illegal += 1,
                Err(MoveError::Overflow) => overflow += 1,
            }
        }
    }
    let cases = 4 * boards;
    assert!(cases >= 2_800_000);
    // The mixes really do cover every outcome in bulk.
    assert!(
        legal > cases / 3 && illegal > cases / 50 && overflow > cases / 200,
        "{legal} {illegal} {overflow}"
    );
    assert!(merges > legal / 2);
}

#[test]
fn every_single_row_in_every_direction() {
    // Every one of the 65,536 rows, placed as row 0..3 for left/right and as column 0..3 for
    // up/down, against the reference (the other cells empty).
    for row in 0..=u16::MAX {
        for line in 0..4 {
            let b = Board(u64::from(row) << (16 * line));
            for d in [Dir::Left, Dir::Right] {
                assert_eq!(b.play(d), reference::play(b, d), "board {b} move {d}");
            }
            let t = b.transpose();
            for d in [Dir::Up, Dir::Down] {
                let slow = reference::play(t, d);
                assert_eq!(t.play(d), slow, "board {t} move {d}");
                // The column tables, through the one-move and the four-move generators.
                let (shifted, flag) = t.shift(d);
                assert_eq!(flag, slow == Err(MoveError::Overflow), "board {t} move {d}");
                let want = slow.map_or(t, |m| m.board);
                if !flag {
                    assert_eq!(shifted, want, "board {t} move {d}");
                    assert_eq!(t.shift_all().boards[d.index()], want, "board {t} move {d}");
                }
            }
        }
    }
}
