//! Drop7 for bitarcade: a nibble-packed bitboard engine ([`board`], [`engine`]), a plain
//! reference engine ([`reference`](mod@reference)) that the fast one is gated against, a fair expectimax
//! ([`search`]) with a compile-time transposition table, and game records ([`trace`]).
//!
//! - Rules: [`Rules`] holds the mode (Normal with its gray share, Hardcore/Blitz, Sequence)
//!   and the disputed rules as named switches (`fatal_rise_bonus`, `rise_chain_continues`,
//!   `gray_share`). Every turn is checked against [`reference`](mod@reference) by the gate tests.
//! - Randomness: one xoshiro256** stream per game ([`engine::RandomDraws`]), draws in a
//!   documented order, reveals row-major from the top-left ([`engine`] module docs); Sequence
//!   mode reads discs and reveal values from a stream ([`engine::ListDraws::parse_stream`]).
//! - Text form: [`Position`]'s `Display`/`FromStr` (rows top first, `.` `1`-`7` `#` `x`, then
//!   `next= level= drops= score=` and `over`), used by the CLI, the records and the tests.
//! - Search: [`search::Searcher`] is generic over the leaf [`search::Evaluator`] and the
//!   [`search::Table`] strategy; [`search::play_games`] plays batches in parallel with results
//!   independent of the thread count.
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

pub mod api;
pub mod board;
pub mod engine;
pub mod reference;
pub mod search;
pub mod trace;

pub use board::{Board, Disc, Position};
pub use engine::{Mode, Rules};
