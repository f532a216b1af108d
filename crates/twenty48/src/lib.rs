#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod api;
pub mod batch;
pub mod board;
pub mod endgame;
pub mod game;
pub mod keyset;
pub mod multistage;
pub mod ntuple;
pub mod reference;
pub mod search;
pub mod served;
pub mod spawn;
pub mod spill;
pub mod tables;
pub mod trace;
pub mod tune;
pub mod wide;

pub use board::{Board, Dir, MoveError, Moved, ParseBoardError, Shifts};
pub use game::{play_game, Game, Player, RandomPlayer, Status};
pub use trace::{replay, GameRecord};
pub use wide::{Wide, WideMoved};
