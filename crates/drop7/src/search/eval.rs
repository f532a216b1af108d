//! Leaf evaluators: a trait, statically dispatched by the search, and the evaluators we ship.
//!
//! An evaluator scores a chance node (a board after a move, before the next disc is known)
//! from its board, level and drops left only — never the score or the stream — so a node's
//! value is a pure function of what the transposition table keys on. Each evaluator also
//! has a reference form on a plain `[row][col]` grid; a gate test checks the two agree
//! bit for bit on every state the engine gate visits.

use crate::board::{nonzero_nibbles, Board, CRACKED, EMPTY, ONES, SIZE, SOLID};

/// A leaf evaluator (higher is better for the player).
pub trait Evaluator: Sync {
    /// A short name for reports.
    fn name(&self) -> &'static str;
    /// The value of a board after a move, with `level` and `drops_left` as they stand.
    fn eval(&self, board: &Board, level: u32, drops_left: u32) -> f64;
    /// The same value, computed plainly from `grid[row][col]` (row 0 at the bottom).
    fn eval_reference(&self, grid: &[[u8; SIZE]; SIZE], level: u32, drops_left: u32) -> f64;
}

/// Scores nothing but the points the search collects (and the death penalty): the baseline.
#[derive(Clone, Copy, Debug, Default)]
pub struct PointsOnly;

impl Evaluator for PointsOnly {
    fn name(&self) -> &'static str {
        "points"
    }
    #[inline]
    fn eval(&self, _: &Board, _: u32, _: u32) -> f64 {
        0.0
    }
    fn eval_reference(&self, _: &[[u8; SIZE]; SIZE], _: u32, _: u32) -> f64 {
        0.0
    }
}

/// Penalises what kills a Drop7 game: discs on the board (each must be popped), grays (which
/// need hits before they can), and tall columns (a full column at a rise ends the game).
///
/// `value = -(disc * discs + solid * solid_grays + cracked * cracked_grays
///           + tall * sum_c max(0, h_c - 4)^2 + full * full_columns * (6 - min(drops_left, 5)))`
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crowding {
    /// Cost of a disc.
    pub disc: f64,
    /// Extra cost of a solid gray.
    pub solid: f64,
    /// Extra cost of a cracked gray.
    pub cracked: f64,
    /// Cost of height above 4, squared, per column.
    pub tall: f64,
    /// Cost of a full column, growing as the rise nears.
    pub full: f64,
}

impl Default for Crowding {
    fn default() -> Self {
        Crowding { disc: 600.0, solid: 500.0, cracked: 250.0, tall: 800.0, full: 3_000.0 }
    }
}

impl Evaluator for Crowding {
    fn name(&self) -> &'static str {
        "crowding"
    }

    #[inline]
    fn eval(&self, board: &Board, _level: u32, drops_left: u32) -> f64 {
        let mut discs = 0u32;
        let mut solid = 0u32;
        let mut cracked = 0u32;
        let mut tall = 0u32;
        let mut full = 0u32;
        for &w in board.cols() {
            discs += nonzero_nibbles(w).count_ones();
            let gray = (w >> 3) & ONES;
            solid += (gray & !w).count_ones();
            cracked += (gray & w).count_ones();
            let over = crate::board::col_height(w).saturating_sub(4);
            tall += over * over;
            full += u32::from(w >> 24 != 0);
        }
        let urgency = f64::from(6 - drops_left.min(5));
        -(self.disc * f64::from(discs)
            + self.solid * f64::from(solid)
            + self.cracked * f64::from(cracked)
            + self.tall * f64::from(tall)
            + self.full * f64::from(full) * urgency)
    }

    fn eval_reference(&self, grid: &[[u8; SIZE]; SIZE], _level: u32, drops_left: u32) -> f64 {
        let mut discs = 0.0;
        let mut solid = 0.0;
        let mut cracked = 0.0;
        let mut tall = 0.0;
        let mut full = 0.0;
        for c in 0..SIZE {
            let mut h = 0;
            for row in grid {
                match row[c] {
                    EMPTY => {}
                    SOLID => {
                        solid += 1.0;
                        discs += 1.0;
                        h += 1;
                    }
                    CRACKED => {
                        cracked += 1.0;
                        discs += 1.0;
                        h += 1;
                    }
                    _ => {
                        discs += 1.0;
                        h += 1;
                    }
                }
            }
            if h > 4 {
                tall += f64::from((h - 4) * (h - 4));
            }
            if h == 7 {
                full += 1.0;
            }
        }
        let urgency = 6.0 - f64::from(drops_left.min(5));
        -(self.disc * discs
            + self.solid * solid
            + self.cracked * cracked
            + self.tall * tall
            + self.full * full * urgency)
    }
}
