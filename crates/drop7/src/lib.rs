//! Drop7 for bitarcade: a nibble-packed bitboard engine ([`board`], [`engine`]), a plain
//! reference engine ([`reference`]) that the fast one is gated against, a fair expectimax
//! ([`search`]) with a compile-time transposition table, and game records ([`trace`]).
//!
//! ```
//! use drop7::{engine::RandomDraws, Mode, Position, Rules};
//! let rules = Rules::new(Mode::Hardcore);
//! let mut draws = RandomDraws::new(&rules, 7);
//! let mut pos = Position::new_game(&rules, &mut draws);
//! assert_eq!(pos.board.to_string(), "......./......./......./......./......./......./#######");
//! while !pos.over {
//!     let col = (0..7).find(|&c| pos.board.can_drop(c)).unwrap();
//!     pos.play(&rules, col, &mut draws).unwrap();
//! }
//! assert!(pos.level >= 1);
//! ```
#![forbid(unsafe_code)]

pub mod board;
pub mod engine;
pub mod reference;
pub mod search;
pub mod trace;

pub use board::{Board, Disc, Position};
pub use engine::{Mode, Rules};
