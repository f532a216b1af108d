//! A chance node's spawns, moved by patching one row and one column.
//!
//! # Implementation notes
//!
//! Every board a chance node spawns differs from the chance node's board `B` in one cell
//! (row `r`, column `c`). Left and right move each row on its own, so the spawned board's
//! left and right results are `B`'s, with row `r` replaced; up and down move each column on
//! its own, so their results are `B`'s with column `c` replaced. [`SpawnBase::new`] makes
//! `B`'s four moves once (with [`Board::shift_all`]) and their transposes; [`SpawnBase::spawn`]
//! then makes a spawned board's four moves with three table lookups (the new row in
//! [`LEFT_ROWS`] and [`RIGHT_ROWS`], the new column in [`UP_DOWN_COLS`]) and a few masks, in
//! place of [`Board::shift_all`]'s four column gathers and twelve lookups. It also gives the
//! four results' transposes, patched the same way (a row of a result is a column of its
//! transpose), so an evaluator over rows and columns needs no transpose either
//! ([`crate::search::Heuristic::eval_transposed`]).
//!
//! ```text
//!   spawn at (r, c):  left/right: row r of B's result <- LEFT_ROWS/RIGHT_ROWS[new row r]
//!                     up/down:    column c of B's result <- UP_DOWN_COLS[new column c]
//!                     transposes: the same cells, at (c', r) for (r, c')
//! ```
//!
//! Boards with two 32768 tiles (the only ones where a move can overflow) are left to
//! [`Board::shift_all`]: [`SpawnBase::new`] returns `None` for them, and a spawn cannot add a
//! 32768, so no spawned board of a base overflows. The results are exactly
//! [`Board::shift_all`]'s (a gate test checks every empty cell of many random boards).

use crate::board::{Board, Shifts};
use crate::tables::{spread, LEFT_ROWS, RIGHT_ROWS, UP_DOWN_COLS};

/// Column 0's nibbles: cell `(i, 0)` at bit `16 * i`.
const COLUMN0: u64 = 0x000F_000F_000F_000F;

/// A chance node's board with its four moves made, ready to move its spawned boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpawnBase {
    board: u64,
    columns: [u16; 4],
    moved: [u64; 4],
    transposed: [u64; 4],
}

/// A spawned board and its four moves, from [`SpawnBase::spawn`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spawned {
    /// The board with the new tile.
    pub board: Board,
    /// Its four moves, exactly as [`Board::shift_all`] makes them (never an overflow).
    pub moves: Shifts,
    /// The transposes of `moves.boards`.
    pub transposed: [u64; 4],
}

impl SpawnBase {
    /// `board`'s four moves and their transposes, or `None` if `board` holds two 32768
    /// tiles (then a move may overflow: use [`Board::shift_all`]).
    #[inline(always)]
    pub fn new(board: Board) -> Option<SpawnBase> {
        if board.has_two_32768() {
            return None;
        }
        let m = board.shift_all();
        let t = board.transpose();
        let [up, down, left, right] = m.boards;
        Some(SpawnBase {
            board: board.0,
            columns: [t.row(0), t.row(1), t.row(2), t.row(3)],
            moved: [up.0, down.0, left.0, right.0],
            transposed: [
                up.transpose().0,
                down.transpose().0,
                left.transpose().0,
                right.transpose().0,
            ],
        })
    }

    /// The chance node's board.
    pub fn board(&self) -> Board {
        Board(self.board)
    }

    /// The board with rank `rank` (1 for a 2, 2 for a 4) spawned in the empty `cell`, and its
    /// four moves.
    #[inline(always)]
    pub fn spawn(&self, cell: u32, rank: u64) -> Spawned {
        debug_assert!(cell < 16 && (rank == 1 || rank == 2));
        debug_assert_eq!(self.board >> (4 * cell) & 0xF, 0, "spawn on an empty cell");
        // (`& 3` spares the bounds checks: a cell is below 16.)
        let (r, c) = ((cell / 4) & 3, cell % 4);
        let row = (self.board >> (16 * r)) as u16 | (rank << (4 * c)) as u16;
        let column = self.columns[c as usize] | (rank << (4 * r)) as u16;
        let left = u64::from(LEFT_ROWS[usize::from(row)]);
        let right = u64::from(RIGHT_ROWS[usize::from(row)]);
        let up_down = UP_DOWN_COLS[usize::from(column)];
        // The new column of each vertical move at column 0, and the same as a row.
        let up = up_down & COLUMN0;
        let down = up_down >> 8 & COLUMN0;
        let row_of = |x: u64| {
            let y = (x | x >> 12) & 0x0000_00FF_0000_00FF;
            (y | y >> 24) & 0xFFFF
        };
        let (row_mask, column_mask) = (0xFFFF << (16 * r), COLUMN0 << (4 * c));
        // In a transpose, row r is column r and column c is row c.
        let (t_row_mask, t_column_mask) = (0xFFFF << (16 * c), COLUMN0 << (4 * r));
        let m = &self.moved;
        let t = &self.transposed;
        Spawned {
            board: Board(self.board | rank << (4 * cell)),
            moves: Shifts {
                boards: [
                    Board(m[0] & !column_mask | up << (4 * c)),
                    Board(m[1] & !column_mask | down << (4 * c)),
                    Board(m[2] & !row_mask | left << (16 * r)),
                    Board(m[3] & !row_mask | right << (16 * r)),
                ],
                overflow: 0,
            },
            transposed: [
                t[0] & !t_row_mask | row_of(up) << (16 * c),
                t[1] & !t_row_mask | row_of(down) << (16 * c),
                t[2] & !t_column_mask | spread(left as u16) << (4 * r),
                t[3] & !t_column_mask | spread(right as u16) << (4 * r),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_board(rng: &mut bits::Rng, top: u64) -> Board {
        let mut x = 0u64;
        for cell in 0..16 {
            // About a third of the cells empty, the rest any rank up to `top`.
            let v = rng.next_u64() % (top + top / 2 + 1);
            x |= if v > top { 0 } else { v } << (4 * cell);
        }
        Board(x)
    }

    #[test]
    fn spawns_move_exactly_as_shift_all() {
        let mut rng = bits::Rng::new(0x5EED_5A11);
        let mut checked = 0;
        for i in 0..20_000 {
            // Mostly low ranks (many merges), some with high tiles up to 32768.
            let b = random_board(&mut rng, if i % 4 == 0 { 15 } else { 6 });
            let Some(base) = SpawnBase::new(b) else {
                assert!(b.has_two_32768());
                continue;
            };
            assert_eq!(base.board(), b);
            let mut empty = b.empty_mask();
            while empty != 0 {
                let cell = empty.trailing_zeros() / 4;
                empty &= empty - 1;
                for rank in [1, 2] {
                    let s = base.spawn(cell, rank);
                    let spawned = Board(b.0 | rank << (4 * cell));
                    assert_eq!(s.board, spawned);
                    assert_eq!(s.moves, spawned.shift_all(), "{spawned:?}");
                    assert_eq!(s.transposed, s.moves.boards.map(|m| m.transpose().0));
                    checked += 1;
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    #[test]
    fn two_32768_boards_are_left_to_shift_all() {
        let b: Board = "32768 32768 . ./. . . ./. . . ./. . . .".parse().unwrap();
        assert_eq!(SpawnBase::new(b), None);
        let one: Board = "32768 16384 . ./. . . ./. . . ./. . . .".parse().unwrap();
        let base = SpawnBase::new(one).unwrap();
        assert_eq!(base.spawn(2, 1).moves, Board(one.0 | 1 << 8).shift_all());
    }
}
