//! The corner evaluation: macroxue/2048-ai's leaf value, which pulls the large tiles to the
//! top-left corner, with its dead-end value and its pass score (forward pruning).
//!
//! # Implementation notes
//!
//! Facts from macroxue/2048-ai's `node.h` (snapshot fee3359, 2023-07-31; a mirror is at
//! `/work/.mirror/macroxue+2048-ai/repo`), written here in our own terms:
//!
//! - A tile of rank `r` (the log2 of its value, 0 for an empty cell) scores
//!   `tile_score(r) = r * 2^r` (node.h:49, `r << r`), so an empty cell scores 0.
//! - A line of four cells `l0 l1 l2 l3` scores `tile_score(l0)` plus, for each adjacent pair
//!   `(a, b)` of tile scores, `a + b` when `a >= b` and `12 * (a - b)` (negative) when
//!   `a < b`, plus `a` again when `a == b` (node.h:275-280). A line that falls from its first
//!   cell scores well; any tile after a smaller tile or an empty cell costs twelve times the
//!   difference; an equal pair (a merge in waiting) scores `3a`. Two empty cells score 0.
//! - In normal play only the "descending" reading is used (node.h:164-167): every row read
//!   left to right and every column read top to bottom, summed over the eight lines. (Its
//!   table packs `line[0]` as the most significant 5-bit field for `descending`, node.h:274,
//!   283-284, and `Row(y)` / `Col(x)` put `x = 0` / `y = 0` first, node.h:138-148, with
//!   `y = 0` the top row as `Show` prints it, node.h:79.) Our board's row 0 is the top row
//!   of the text form and column 0 the left column, so the corner is cell 0.
//! - A dead end (a max node with no legal move) is worth
//!   `-max(2^17, 2 * tile_score(max rank))`, the max rank being the root's (node.h:222, 230).
//!   A max node takes its best child however low (node.h:206-218): no floor.
//! - The pass score (node.h:173, 222-228): before the search of a move, if the root's own
//!   evaluation is `>= 0`, `pass = 2 * tile_score(max rank of the root)`; every chance node
//!   whose own evaluation is below `pass` is not expanded and is worth that evaluation. With
//!   a negative root evaluation nothing is pruned. (The `BIG_TUPLES` build's variant,
//!   node.h:225-226 and 237-243, is not reproduced.)
//!
//! The fast evaluation is one table of the 65,536 lines (`i32`, 256 KiB), built at compile
//! time, read for the four rows of the board and the four rows of its transpose (the
//! columns, top cell first), exactly as the row heuristic reads its table. Its slow twin,
//! [`reference_eval`], loops over the 4x4 array of ranks; a gate test
//! (`tests/corner_gate.rs`) checks they agree on random and game-reached boards, and that
//! both equal the values macroxue/2048-ai's own `node.h` prints for 64 boards
//! (`tests/data/corner_macroxue.txt`, made by `tests/data/corner_macroxue_harness.cc`).
//!
//! **Range.** A line scores at most `10 * tile_score(15)` = 4,915,200 (four 32768 tiles) and
//! at least `-36 * tile_score(15)` = -17,694,720 (a bound: three pairs, each rise at most
//! `12 * tile_score(15)`), so eight lines stay within about 1.4 * 10^8: they fit `i32` with
//! room to spare and stay far below [`crate::search::expectimax::WIN_VALUE`]. The board's
//! value is the `i32` sum converted once to `f32`, so the two ways of computing it agree bit
//! for bit.

use crate::board::Board;
use crate::search::expectimax::{Evaluator, RootTerms};
use crate::tables::cells;

/// The score of a tile of rank `rank` (0 = empty): `rank * 2^rank` (node.h:49).
pub const fn tile_score(rank: u8) -> i32 {
    (rank as i32) << rank
}

/// The score of one line, `line[0]` first (the left cell of a row, the top cell of a
/// column); see the [module docs](self).
pub const fn line_score(line: [u8; 4]) -> i32 {
    let mut score = tile_score(line[0]);
    let mut i = 0;
    while i < 3 {
        let a = tile_score(line[i]);
        let b = tile_score(line[i + 1]);
        score += if a >= b { a + b } else { (a - b) * 12 };
        if a == b {
            score += a;
        }
        i += 1;
    }
    score
}

/// The largest magnitude of a line's score (a bound, asserted by the table's builder).
pub const LINE_BOUND: i32 = 36 * tile_score(15);

const fn build() -> [i32; 65536] {
    let mut out = [0i32; 65536];
    let mut i = 0;
    while i < 65536 {
        let s = line_score(cells(i as u16));
        assert!(s.abs() <= LINE_BOUND);
        out[i] = s;
        i += 1;
    }
    // An empty line scores 0; `8 4 2 .` (cell 0 in the low nibble) scores
    // 24 + (24 + 8) + (8 + 2) + (2 + 0) = 68, and `. 2 4 8` pays twelve times each rise:
    // 12 * ((0 - 2) + (2 - 8) + (8 - 24)) = -288.
    assert!(out[0] == 0);
    assert!(out[0x0123] == 68);
    assert!(out[0x3210] == -288);
    out
}

/// The line table: [`line_score`] of every 16-bit line (its cell 0 in the low nibble, as
/// [`crate::tables::cells`] reads it).
// 65,536 lines with their bound checks take about a million const-eval steps.
#[allow(long_running_const_eval)]
pub static LINES: [i32; 65536] = build();

/// The corner evaluation as an [`Evaluator`] (no state: the table is static). Its live
/// values may be negative: the search puts no floor under a max node, and a dead end is worth
/// [`Corner::dead_end_value`] of the root.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Corner;

impl Corner {
    /// The board's value: the line table summed over the four rows and, through the
    /// transpose, the four columns.
    #[inline]
    pub fn eval_i32(b: Board) -> i32 {
        Self::rows(b.0) + Self::rows(b.transpose().0)
    }

    #[inline(always)]
    fn rows(x: u64) -> i32 {
        LINES[(x & 0xFFFF) as usize]
            + LINES[((x >> 16) & 0xFFFF) as usize]
            + LINES[((x >> 32) & 0xFFFF) as usize]
            + LINES[(x >> 48) as usize]
    }

    /// The value of a dead end in a search from `root`: `-max(2^17, 2 * tile_score(max
    /// rank))` (node.h:230).
    pub fn dead_end_value(root: Board) -> f32 {
        -((1i32 << 17).max(2 * tile_score(root.max_rank()))) as f32
    }

    /// The pass score of a search from `root`: `2 * tile_score(max rank)` when the root's own
    /// value is at least 0, none otherwise (node.h:222-228).
    pub fn pass_score(root: Board) -> Option<f32> {
        (Self::eval_i32(root) >= 0).then(|| (2 * tile_score(root.max_rank())) as f32)
    }
}

impl Evaluator for Corner {
    #[inline(always)]
    fn eval(&self, b: Board) -> f32 {
        Self::eval_i32(b) as f32
    }

    /// Only used outside a root search; a search uses [`Evaluator::at_root`]'s value.
    fn dead_end(&self, b: Board) -> f32 {
        Self::dead_end_value(b)
    }

    #[inline(always)]
    fn eval_transposed(&self, b: Board, t: u64) -> f32 {
        debug_assert_eq!(b.transpose().0, t);
        (Self::rows(b.0) + Self::rows(t)) as f32
    }

    fn at_root(&self, root: Board) -> RootTerms {
        RootTerms { pass: Self::pass_score(root), dead_end: Some(Self::dead_end_value(root)) }
    }
}

/// The slow twin of [`Corner::eval_i32`]: plain loops over the 4x4 array of ranks, each row
/// read left to right and each column top to bottom, with the rules of the [module
/// docs](self) written out again (no table, no transpose, no shared helper).
pub fn reference_eval(b: Board) -> i32 {
    let g = b.to_ranks();
    let score = |r: u8| -> i32 {
        if r == 0 {
            0
        } else {
            i32::from(r) * 2i32.pow(u32::from(r))
        }
    };
    let line = |v: [u8; 4]| -> i32 {
        let mut s = score(v[0]);
        for k in 0..3 {
            let (a, b) = (score(v[k]), score(v[k + 1]));
            if a >= b {
                s += a + b;
            } else {
                s += 12 * (a - b);
            }
            if a == b {
                s += a;
            }
        }
        s
    };
    let mut total = 0;
    for row in &g {
        total += line(*row);
    }
    let columns: i32 = (0..4).map(|c| line([g[0][c], g[1][c], g[2][c], g[3][c]])).sum();
    total + columns
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_scores_by_hand() {
        // 8 4 2 . (ranks 3 2 1 0): tile scores 24 8 2 0.
        // 24 + (24 + 8) + (8 + 2) + (2 + 0) = 68.
        assert_eq!(line_score([3, 2, 1, 0]), 68);
        // . 2 4 8 (ranks 0 1 2 3): 0 + 12(0 - 2) + 12(2 - 8) + 12(8 - 24) = -288.
        assert_eq!(line_score([0, 1, 2, 3]), -288);
        // 4 4 . . : 8 + (8 + 8 + 8) + (8 + 0) + (0 + 0 + 0) = 40.
        assert_eq!(line_score([2, 2, 0, 0]), 40);
        assert_eq!(line_score([0; 4]), 0);
        // The table is the formula on every line, cell 0 in the low nibble.
        assert_eq!(LINES[0x0123], line_score([3, 2, 1, 0]));
        assert_eq!(LINES[0x3210], line_score([0, 1, 2, 3]));
    }

    #[test]
    fn rows_left_to_right_and_columns_top_to_bottom() {
        // A lone tile: in the top-left corner it starts its row and its column (two first
        // cells, four falling pairs); in the bottom-right corner it ends both (two rises).
        let corner: Board = "8 . . ./. . . ./. . . ./. . . .".parse().unwrap();
        let far: Board = ". . . ./. . . ./. . . ./. . . 8".parse().unwrap();
        assert_eq!(Corner::eval_i32(corner), 2 * line_score([3, 0, 0, 0]));
        assert_eq!(Corner::eval_i32(far), 2 * line_score([0, 0, 0, 3]));
        assert!(Corner::eval_i32(corner) > 0 && Corner::eval_i32(far) < 0);
        assert_eq!(reference_eval(corner), Corner::eval_i32(corner));
        assert_eq!(reference_eval(far), Corner::eval_i32(far));
    }

    #[test]
    fn dead_end_and_pass_score() {
        // Max tile 16384 (rank 14): 2 * 14 * 16384 = 458,752 > 2^17.
        let b: Board = "16384 8192 4096 2048/. . . ./. . . ./. . . .".parse().unwrap();
        assert_eq!(Corner::dead_end_value(b), -458_752.0);
        assert_eq!(Corner::pass_score(b), Some(458_752.0));
        // Max tile 2 : the dead end is -2^17; a board with a negative value has no pass.
        let low: Board = ". . . ./. . . ./. . . ./. . . 2".parse().unwrap();
        assert_eq!(Corner::dead_end_value(low), -131_072.0);
        assert!(Corner::eval_i32(low) < 0);
        assert_eq!(Corner::pass_score(low), None);
    }
}
