//! Tiles past 32768: the board a game is played on, and the packed view the players search.
//!
//! A nibble of the packed [`Board`] holds ranks up to 15 (32768). Two 32768 tiles can still
//! merge, and a 4x4 game can reach 131072 (rank 17). [`Wide`] holds one byte a cell, so a
//! game goes on through every merge the rules allow; [`crate::Game`] plays on it.
//!
//! # The view
//! The players (expectimax, networks) search packed boards. [`Wide::view`] gives them one:
//! the board itself when it fits (every tile at most 32768 and at most one 32768), and
//! otherwise a *squeezed* board. A squeeze takes the largest rank `g` missing from the board
//! below its largest tile and moves every tile above `g` down one rank; it repeats until the
//! board fits. Board `65536 16384 8192 …` with no 32768 is seen as `32768 16384 8192 …`.
//!
//! What the view keeps exactly: which cells are empty and which tiles are equal, so a move
//! is legal on the view exactly when it is legal on the board, and it moves the same cells.
//! What it changes: the value of a merge that would make a tile of rank `g` (it is seen as
//! making the next tile up). That needs two tiles of rank `g - 1`, the largest gap's lower
//! side, so it is far in the future of most searches; the search's values are an estimate
//! there, the game itself is exact. (Tile downgrading of this kind is the usual way past the
//! nibble; Guei, Chen and Wu 2022 describe it for their n-tuple player.)
//!
//! Two full boards leave no gap to squeeze. Sixteen different tiles reaching past 32768: no
//! move is legal there, and its view caps every tile at 32768 (`best` answers "no move"
//! without searching). Every tile from 2 to 16384 once and two 32768s: the view keeps both,
//! so their merge shows as the packed engine's overflow, which the players value as a win;
//! it is the legal merge on the board.

use std::fmt;
use std::str::FromStr;

use crate::board::{parse_ranks, Board, Dir, ParseBoardError};

/// The largest rank a 4x4 game can make: 131072.
pub const MAX_RANK: u8 = 17;

/// A board of any tiles a game can reach: `ranks[4 * row + col]`, log2 of the tile, 0 empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Wide {
    ranks: [u8; 16],
}

/// A move on a [`Wide`] board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WideMoved {
    /// The board after the move (before the spawn).
    pub board: Wide,
    /// The sum of the tiles the move's merges made.
    pub score: u64,
}

impl Wide {
    /// The empty board.
    pub const EMPTY: Wide = Wide { ranks: [0; 16] };

    /// The same tiles as a packed board.
    pub fn from_board(b: Board) -> Wide {
        let mut ranks = [0; 16];
        for (c, r) in ranks.iter_mut().enumerate() {
            *r = b.rank(c);
        }
        Wide { ranks }
    }

    /// The board with these ranks (cell `4 * row + col`), or `None` if one is above
    /// [`MAX_RANK`].
    pub fn from_ranks(ranks: [u8; 16]) -> Option<Wide> {
        ranks.iter().all(|&r| r <= MAX_RANK).then_some(Wide { ranks })
    }

    /// The ranks, cell `4 * row + col`.
    pub fn ranks(&self) -> [u8; 16] {
        self.ranks
    }

    /// The rank of `cell` (0 empty).
    pub fn rank(&self, cell: usize) -> u8 {
        self.ranks[cell]
    }

    /// The tile of `cell` (0 empty).
    pub fn tile(&self, cell: usize) -> u32 {
        match self.ranks[cell] {
            0 => 0,
            r => 1 << r,
        }
    }

    /// The board with `cell` set to `rank` (at most [`MAX_RANK`]).
    pub fn with(mut self, cell: usize, rank: u8) -> Wide {
        debug_assert!(rank <= MAX_RANK);
        self.ranks[cell] = rank;
        self
    }

    /// The largest rank on the board (0 when empty).
    pub fn max_rank(&self) -> u8 {
        self.ranks.iter().copied().max().unwrap_or(0)
    }

    /// The packed board, when every tile fits a nibble (even if two 32768 tiles could merge).
    pub fn exact(&self) -> Option<Board> {
        (self.max_rank() <= 15).then(|| self.pack())
    }

    fn pack(&self) -> Board {
        self.ranks.iter().enumerate().fold(Board::EMPTY, |b, (c, &r)| b.with(c, r.min(15)))
    }

    /// The packed board the players search; see the [module docs](self).
    pub fn view(&self) -> Board {
        let mut ranks = self.ranks;
        loop {
            let mut count = [0u8; MAX_RANK as usize + 2];
            for &r in &ranks {
                count[r as usize] += 1;
            }
            let max = ranks.iter().copied().max().unwrap_or(0);
            if max < 15 || (max == 15 && count[15] < 2) {
                break;
            }
            // The largest rank missing below the largest tile.
            let Some(gap) = (1..max).rev().find(|&g| count[g as usize] == 0) else { break };
            for r in ranks.iter_mut() {
                if *r > gap {
                    *r -= 1;
                }
            }
        }
        Wide { ranks }.pack()
    }

    /// Cells of line `i` in the order tiles travel towards.
    fn line(dir: Dir, i: usize) -> [usize; 4] {
        std::array::from_fn(|k| match dir {
            Dir::Left => 4 * i + k,
            Dir::Right => 4 * i + 3 - k,
            Dir::Up => 4 * k + i,
            Dir::Down => 4 * (3 - k) + i,
        })
    }

    /// Plays `dir`: `None` if nothing moves. Every merge the rules allow is made, whatever
    /// the tiles; two 65536 tiles make a 131072 (the largest a 4x4 game can reach).
    pub fn play(&self, dir: Dir) -> Option<WideMoved> {
        let mut out = Wide::EMPTY;
        let mut score = 0u64;
        for i in 0..4 {
            let cells = Self::line(dir, i);
            let mut put = 0;
            let mut last = 0u8; // the rank last put down, if it may still merge
            for &c in &cells {
                let r = self.ranks[c];
                if r == 0 {
                    continue;
                }
                if r == last {
                    out.ranks[cells[put - 1]] = r + 1;
                    score += 1u64 << (r + 1);
                    last = 0;
                } else {
                    out.ranks[cells[put]] = r;
                    put += 1;
                    last = r;
                }
            }
        }
        (out != *self).then_some(WideMoved { board: out, score })
    }

    /// Whether any move changes the board.
    pub fn can_move(&self) -> bool {
        Dir::ALL.into_iter().any(|d| self.play(d).is_some())
    }
}

/// Reads the text form of [`Board`], with tiles up to 131072.
impl FromStr for Wide {
    type Err = ParseBoardError;

    fn from_str(s: &str) -> Result<Wide, ParseBoardError> {
        Ok(Wide { ranks: parse_ranks(s, MAX_RANK)? })
    }
}

/// Writes the text form of [`Board`] (`{}` one line, `{:#}` four aligned lines).
impl fmt::Display for Wide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = if self.max_rank() >= 17 { 6 } else { 5 };
        for r in 0..4 {
            if r > 0 {
                if f.alternate() {
                    writeln!(f)?;
                } else {
                    write!(f, "/")?;
                }
            }
            for c in 0..4 {
                if c > 0 {
                    write!(f, " ")?;
                }
                let t = match self.tile(4 * r + c) {
                    0 => ".".to_string(),
                    t => t.to_string(),
                };
                if f.alternate() {
                    write!(f, "{t:>width$}")?;
                } else {
                    write!(f, "{t}")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Wide {
        s.parse().unwrap()
    }

    #[test]
    fn two_32768_tiles_merge() {
        let b = w("32768 32768 . ./. . . ./. . . ./. . . 2");
        let m = b.play(Dir::Left).unwrap();
        assert_eq!(m.board, w("65536 . . ./. . . ./. . . ./2 . . ."));
        assert_eq!(m.score, 65536);
        assert_eq!(w("32768 32768 2 ./. . . ./. . . ./. . . .").play(Dir::Up), None);
        let m = w("65536 65536 4 4/. . . ./. . . ./. . . .").play(Dir::Right).unwrap();
        assert_eq!(m.board.to_string(), ". . 131072 8/. . . ./. . . ./. . . .");
        assert_eq!(m.score, 131080);
        assert!("262144 . . ./. . . ./. . . ./. . . .".parse::<Wide>().is_err());
    }

    #[test]
    fn the_view_is_the_board_when_it_fits() {
        for s in ["2 4 8 16/. . . ./32768 . . ./. . . 2", ". . . ./. . . ./. . . ./. . . ."] {
            assert_eq!(w(s).view(), s.parse::<Board>().unwrap());
            assert_eq!(w(s).exact(), Some(s.parse::<Board>().unwrap()));
        }
    }

    #[test]
    fn the_view_squeezes_the_largest_gap() {
        // 65536 with no 32768: everything above the gap moves down one.
        let b = w("65536 16384 8192 ./2 . . ./. . . ./. . . .");
        assert_eq!(b.view().to_string(), "32768 16384 8192 ./2 . . ./. . . ./. . . .");
        assert_eq!(b.exact(), None);
        // Two 32768 tiles fit a nibble each, but their merge would not: the largest gap
        // below them (16384) closes.
        let b = w("32768 32768 4096 1024/. . . ./. . . ./. . . 2");
        assert_eq!(b.view().to_string(), "16384 16384 4096 1024/. . . ./. . . ./. . . 2");
        let b = w("32768 32768 16384 1024/. . . ./. . . ./. . . 2");
        assert_eq!(b.view().to_string(), "16384 16384 8192 1024/. . . ./. . . ./. . . 2");
        assert!(b.exact().is_some());
        // 131072, 65536 and 32768 together: two squeezes.
        let b = w("131072 65536 32768 ./4 . . ./. . . ./. . . 2");
        assert_eq!(b.view().to_string(), "32768 16384 8192 ./4 . . ./. . . ./. . . 2");
    }

    #[test]
    fn a_full_chain_with_two_32768_tiles_keeps_them() {
        let b = w("2 4 8 16/256 128 64 32/512 1024 2048 4096/32768 32768 16384 8192");
        assert_eq!(b.view().to_string(), b.to_string());
        assert_eq!(b.view().play(Dir::Left), Err(crate::MoveError::Overflow));
        assert_eq!(b.play(Dir::Left).unwrap().board.rank(12), 16);
    }

    #[test]
    fn a_full_chain_with_no_gap_caps_at_32768() {
        // Sixteen different tiles, 2 to 65536: no gap and no move.
        let b = w("2 4 8 16/256 128 64 32/512 1024 2048 4096/65536 32768 16384 8192");
        assert!(!b.can_move());
        assert_eq!(b.view().max_rank(), 15);
    }
}
