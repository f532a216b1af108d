//! The reference engine: a plain 4x4 array of tile values and loops straight from the rules.
//!
//! It is slow and obvious on purpose. It holds real tile values (`u32`), so unlike the packed
//! board it can represent 65536 and beyond; the gate tests check that the fast engine reports
//! [`crate::MoveError::Overflow`] exactly when this engine creates a 65536.

use crate::board::{Board, Dir};

/// A 4x4 grid of tile values, `grid[row][col]`, 0 = empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct RefBoard {
    /// The tiles, row by row.
    pub grid: [[u32; 4]; 4],
}

/// The outcome of a reference move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefMoved {
    /// The grid after the move.
    pub board: RefBoard,
    /// The sum of the tiles created by merges.
    pub score: u32,
    /// Whether anything changed (the move is legal).
    pub changed: bool,
    /// Whether a 65536 (or larger) tile was created.
    pub made_65536: bool,
}

impl RefBoard {
    /// The grid of a packed board.
    pub fn from_board(b: Board) -> RefBoard {
        let mut grid = [[0u32; 4]; 4];
        for (r, row) in grid.iter_mut().enumerate() {
            for (c, v) in row.iter_mut().enumerate() {
                let rank = b.rank(4 * r + c);
                *v = if rank == 0 { 0 } else { 1 << rank };
            }
        }
        RefBoard { grid }
    }

    /// The packed board, or `None` if a tile is not a power of two from 2 to 32768.
    pub fn to_board(&self) -> Option<Board> {
        let mut b = Board::EMPTY;
        for r in 0..4 {
            for c in 0..4 {
                let v = self.grid[r][c];
                if v == 0 {
                    continue;
                }
                if !v.is_power_of_two() || !(2..=32768).contains(&v) {
                    return None;
                }
                b = b.with(4 * r + c, v.trailing_zeros() as u8);
            }
        }
        Some(b)
    }

    /// The cells of line `i` in the order tiles travel towards: for `Left`, row `i` from
    /// column 0 to 3; for `Right`, row `i` from column 3 to 0; for `Up`, column `i` from row 0
    /// down; for `Down`, column `i` from row 3 up.
    fn line_cells(dir: Dir, i: usize) -> [(usize, usize); 4] {
        let mut cells = [(0, 0); 4];
        for (k, cell) in cells.iter_mut().enumerate() {
            *cell = match dir {
                Dir::Left => (i, k),
                Dir::Right => (i, 3 - k),
                Dir::Up => (k, i),
                Dir::Down => (3 - k, i),
            };
        }
        cells
    }

    /// Plays `dir` by the rules: every tile slides as far as it goes towards the side; two
    /// equal tiles that meet merge into one, at most once per tile per move, the pair nearest
    /// the side first.
    pub fn play(&self, dir: Dir) -> RefMoved {
        let mut out = RefBoard::default();
        let mut score = 0;
        let mut made_65536 = false;
        for i in 0..4 {
            let cells = Self::line_cells(dir, i);
            // Tiles in travel order, gaps removed.
            let mut tiles = Vec::new();
            for &(r, c) in &cells {
                if self.grid[r][c] != 0 {
                    tiles.push(self.grid[r][c]);
                }
            }
            // Merge from the side the tiles travel to.
            let mut merged = Vec::new();
            let mut k = 0;
            while k < tiles.len() {
                if k + 1 < tiles.len() && tiles[k] == tiles[k + 1] {
                    let v = tiles[k] * 2;
                    score += v;
                    if v >= 65536 {
                        made_65536 = true;
                    }
                    merged.push(v);
                    k += 2;
                } else {
                    merged.push(tiles[k]);
                    k += 1;
                }
            }
            for (k, &(r, c)) in cells.iter().enumerate() {
                out.grid[r][c] = merged.get(k).copied().unwrap_or(0);
            }
        }
        RefMoved { board: out, score, changed: out != *self, made_65536 }
    }

    /// The cells that are empty, row by row.
    pub fn empty_cells(&self) -> Vec<usize> {
        (0..16).filter(|&i| self.grid[i / 4][i % 4] == 0).collect()
    }
}

/// The reference engine's view of a packed-board move, for the gate tests and the benches:
/// converts to the array form, plays, converts back. Returns what [`Board::play`] should:
/// `Err(Overflow)` if a 65536 would appear, `Err(Illegal)` if nothing changes.
pub fn play(b: Board, dir: Dir) -> Result<crate::Moved, crate::MoveError> {
    let m = RefBoard::from_board(b).play(dir);
    if m.made_65536 {
        Err(crate::MoveError::Overflow)
    } else if !m.changed {
        Err(crate::MoveError::Illegal)
    } else {
        Ok(crate::Moved {
            board: m.board.to_board().expect("no tile above 32768 without a 65536 merge"),
            score: m.score,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_examples() {
        let mut b = RefBoard::default();
        b.grid[0] = [2, 2, 2, 2];
        b.grid[1] = [4, 4, 8, 0];
        b.grid[2] = [0, 2, 0, 2];
        b.grid[3] = [2, 4, 8, 16];
        let m = b.play(Dir::Left);
        assert_eq!(m.board.grid[0], [4, 4, 0, 0]);
        assert_eq!(m.board.grid[1], [8, 8, 0, 0]);
        assert_eq!(m.board.grid[2], [4, 0, 0, 0]);
        assert_eq!(m.board.grid[3], [2, 4, 8, 16]);
        assert_eq!(m.score, 8 + 8 + 4);
        let m = b.play(Dir::Right);
        assert_eq!(m.board.grid[1], [0, 0, 8, 8]);
        let full = RefBoard { grid: [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]] };
        for d in Dir::ALL {
            assert!(!full.play(d).changed);
        }
        let mut big = RefBoard::default();
        big.grid[0] = [32768, 32768, 0, 0];
        let m = big.play(Dir::Left);
        assert!(m.made_65536);
        assert_eq!(m.board.grid[0][0], 65536);
    }
}
