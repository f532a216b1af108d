#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod api;
pub mod board;
pub mod cells;
pub mod fixtures;
pub mod game;
pub mod players;
pub mod reference;
pub mod search;
pub mod spanning;
pub mod trace;

pub use board::{Board, BoardError, Death, Dir, Size};
pub use cells::Cells;
pub use game::{Config, Event, Game, PlayError, Status};
pub use players::{HamCycle, Player, PlayerKind};
pub use search::{Route, Searcher};
pub use trace::{play_game, play_game_until, verify, Record, ReplayError, Summary};
