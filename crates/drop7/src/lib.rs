#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod api;
pub mod board;
pub mod engine;
pub mod reference;
pub mod search;
pub mod trace;

pub use board::{Board, Disc, Position};
pub use engine::{Mode, Rules};
