//! 2048 for bitarcade: a `u64` board moved by compile-time row tables, a reference engine,
//! seeded game records with replay, and an expectimax player.
//!
//! - [`board`]: the packed [`Board`] (one nibble per cell) and its text form.
//! - [`tables`]: the 65,536-entry row tables, built by `const fn` with asserted invariants.
//! - [`reference`](mod@reference): a plain 4x4 array engine for the gate tests.
//! - [`game`]: a game in progress, the documented seeded spawn rule, players.
//! - [`trace`]: game records and [`trace::replay`].
//! - [`search`]: heuristic expectimax.
//! - [`batch`]: many games across threads, deterministic for any thread count.
//! - [`tune`]: the seeded evolution that tunes the heuristic weights.
//!
//! ```
//! use twenty48::{Board, Dir};
//!
//! let b: Board = "2 2 2 2/4 4 8 ./. . . ./. . . .".parse().unwrap();
//! let m = b.play(Dir::Left).unwrap();
//! assert_eq!(m.board.to_string(), "4 4 . ./8 8 . ./. . . ./. . . .");
//! assert_eq!(m.score, 16);
//! // 32768 + 32768 cannot be held in a nibble: it is reported, never corrupted.
//! let top: Board = "32768 32768 . ./. . . ./. . . ./. . . .".parse().unwrap();
//! assert_eq!(top.play(Dir::Left), Err(twenty48::MoveError::Overflow));
//! ```

#![forbid(unsafe_code)]

pub mod batch;
pub mod board;
pub mod game;
pub mod reference;
pub mod search;
pub mod tables;
pub mod trace;
pub mod tune;

pub use board::{Board, Dir, MoveError, Moved, ParseBoardError, Shifts};
pub use game::{play_game, Game, Player, RandomPlayer, Status};
pub use trace::{replay, GameRecord};
