#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod api;
pub mod bag;
pub mod board;
pub mod fumen_io;
pub mod inputs;
pub mod keyset;
pub mod kicks;
pub mod movegen;
pub mod orders;
pub mod pattern;
pub mod percent;
pub mod piece;
pub mod reference;
pub mod solver;
pub mod tiling;
pub mod trace;

pub use board::Board;
pub use kicks::KickTable;
pub use piece::{Facing, Piece};
pub use solver::{Outcome, PcRequest, Solution, Solver};
