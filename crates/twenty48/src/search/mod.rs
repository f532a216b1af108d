//! The expectimax player: row-table heuristic, search, and the reference move generator used
//! to measure the search's node rate side by side; also macroxue/2048-ai's corner evaluation
//! ([`corner`]), an opt-in alternative leaf.

pub mod corner;
pub mod expectimax;
pub mod heuristic;

pub use corner::Corner;
pub use expectimax::{
    Choice, Depth, Evaluator, FastMoves, MoveGen, RootTerms, SearchConfig, SearchPlayer, Searcher,
};
pub use heuristic::{Heuristic, Params};

use crate::board::{Board, Dir};
use crate::tables::OVERFLOW;

/// The reference engine as a move generator (array conversion, loops): for node-rate
/// comparisons. Returns the same words as [`Board::slide`] on every board (the gate tests
/// check the engines agree; an illegal move returns the board unchanged).
#[derive(Clone, Copy, Debug, Default)]
pub struct ReferenceMoves;

impl MoveGen for ReferenceMoves {
    fn slide(&self, b: Board, d: Dir) -> (Board, u32) {
        match crate::reference::play(b, d) {
            Ok(m) => (m.board, m.score),
            Err(crate::MoveError::Illegal) => (b, 0),
            Err(crate::MoveError::Overflow) => (b, OVERFLOW),
        }
    }
}
