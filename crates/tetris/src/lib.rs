//! Tetris perfect clears: SRS rules with kick tables as data, exact bitboard reachability, a
//! depth-first first-solution PC solver, and an independent verifier.
//!
//! The rooms, as in every bitarcade game crate:
//! - [`piece`]: the seven tetrominoes, SRS true-rotation shapes;
//! - [`kicks`]: kick tables as data (`none`, `srs`, `srs+`, `srs-tetrio`, or a text file);
//! - [`board`]: the field (`u16` rows, text form) and the packed PC zone (one `u64`);
//! - [`movegen`]: exact reachability over (x, y, facing) on bitboards;
//! - [`reference`](mod@reference): the slow per-cell engine and the brute-force solver;
//! - [`solver`]: the DFS solver with hold, memo, pruning and learned move ordering;
//! - [`tiling`]: the order-free tiling test the solver prunes with;
//! - [`keyset`]: the open-addressing set behind the memo and the tiling failure set;
//! - [`trace`]: replay verification of solutions;
//! - [`inputs`]: the key presses that reach each placement from spawn;
//! - [`bag`]: the seeded 7-bag generator and canonical queue enumeration;
//! - [`fumen_io`]: fumen (`v115@...`) in and out;
//! - [`api`]: the verbs every front end calls (pc, replay, sweep, bench, train).
//!
//! ```
//! use tetris::{bag::opener_queue, kicks::KickTable, solver::{Outcome, PcRequest, Solver}};
//!
//! let kicks = KickTable::srs_plus();
//! let req = PcRequest::opener(opener_queue(1, 0, 11));
//! let mut solver = Solver::new(&kicks);
//! let Outcome::Found(sol) = solver.solve(&req).unwrap() else { panic!("no PC") };
//! assert_eq!(sol.steps.len(), 10);
//! tetris::trace::verify(&req, &kicks, &sol).unwrap();
//! ```

#![forbid(unsafe_code)]

pub mod api;
pub mod bag;
pub mod board;
pub mod fumen_io;
pub mod inputs;
pub mod keyset;
pub mod kicks;
pub mod movegen;
pub mod piece;
pub mod reference;
pub mod solver;
pub mod tiling;
pub mod trace;

pub use board::Board;
pub use kicks::KickTable;
pub use piece::{Facing, Piece};
pub use solver::{Outcome, PcRequest, Solution, Solver};
