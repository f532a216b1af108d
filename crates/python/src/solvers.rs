//! Solvers kept alive between calls, for a call per step from Python: the cost of a call is
//! the search itself plus well under 2 µs (BENCHMARKS.md, P3). Their searches are short, so
//! they run on the calling thread (with the GIL released) and are not interrupted by Ctrl-C.

use std::sync::OnceLock;
use std::time::Instant;

use pyo3::prelude::*;
use twenty48::api::SearchSpec;
use twenty48::search::{FastMoves, Heuristic, Params, Searcher};
use twenty48::{Board, Dir};

use crate::long::to_py;

/// The shipped heuristic (nneonneo/2048-ai's weights), built once.
fn shipped() -> &'static Heuristic {
    static H: OnceLock<Heuristic> = OnceLock::new();
    H.get_or_init(|| Heuristic::new(Params::SHIPPED))
}

/// The 2048 expectimax (the CLI's `2048 best` on the row heuristic) at a fixed depth, with
/// its transposition table kept between calls (a new generation per search, as `play`).
#[pyclass(module = "bitarcade._core")]
pub struct Expectimax2048 {
    s: Searcher<'static, FastMoves, Heuristic>,
}

#[pymethods]
impl Expectimax2048 {
    /// A searcher of `depth` move layers, a table of `2^tt_bits` entries (the CLI's 20 by
    /// default, so the answers are `2048 best --depth D`'s), chance nodes below
    /// `prob_cutoff` evaluated, not expanded.
    #[new]
    #[pyo3(signature = (depth = 2, tt_bits = 20, prob_cutoff = 1e-4))]
    fn new(depth: u8, tt_bits: u8, prob_cutoff: f32) -> PyResult<Self> {
        let spec = SearchSpec { depth: Some(depth), tt_bits, prob_cutoff, ..SearchSpec::default() };
        let cfg = spec.config().map_err(to_py)?;
        Ok(Expectimax2048 { s: Searcher::with_evaluator(shipped(), cfg) })
    }

    /// The best move on `board` (the packed board: 16 nibbles, cell `4 r + c` in bits `16 r + 4 c`,
    /// each a tile's log2), as the index of up, down, left, right (the environment's action);
    /// -1 when no move is legal.
    fn best(&mut self, py: Python<'_>, board: u64) -> i8 {
        let s = &mut self.s;
        py.detach(|| s.best_move(Board(board)).map_or(-1, |c| c.dir.index() as i8))
    }

    /// Every move's expected value (None for an illegal move), up, down, left, right.
    fn values(&mut self, py: Python<'_>, board: u64) -> [Option<f32>; 4] {
        let s = &mut self.s;
        py.detach(|| {
            s.best_move(Board(board));
            s.root_values()
        })
    }

    /// Search nodes so far (four per expanded move node).
    #[getter]
    fn nodes(&self) -> u64 {
        self.s.nodes()
    }

    /// Nanoseconds per `best(board)` measured in Rust over `n` calls (no Python in the loop):
    /// the search's own cost, to tell a Python call's overhead from it.
    fn time_in_rust(&mut self, board: u64, n: u32) -> f64 {
        let start = Instant::now();
        let mut sink = 0usize;
        for _ in 0..n {
            sink += self.s.best_move(Board(board)).map_or(4, |c| c.dir.index());
        }
        std::hint::black_box(sink);
        start.elapsed().as_nanos() as f64 / f64::from(n.max(1))
    }
}

/// Packs a 4x4 grid of tile log2s (row by row) into the engine's board word.
#[pyfunction]
pub fn pack_2048(cells: [u8; 16]) -> PyResult<u64> {
    let mut b = 0u64;
    for (i, &c) in cells.iter().enumerate() {
        if c > 15 {
            return Err(crate::value_error(format!(
                "cells[{i}]: {c} is not a tile log2 (0 to 15)"
            )));
        }
        b |= u64::from(c) << (4 * i);
    }
    Ok(b)
}

/// The direction letters of the actions, as a check that the orders agree.
pub fn letters() -> String {
    Dir::ALL.iter().map(|d| d.letter()).collect()
}
