//! SameGame on bitplane columns.
//!
//! - [`Board`]: three colour bitplanes and an occupancy mask per column (up to 32 rows,
//!   64 columns, 8 colours); gravity is a PEXT per plane. Text form: rows top first, digits
//!   `0`-`7`, `.` empty, `#` comments; sgbust's BGF2 files too.
//! - [`Groups`]: group finding by linking single-colour runs of neighbouring columns.
//! - [`reference`](mod@reference): the slow engine (a byte per cell, flood fill) the fast one is gated against.
//! - [`beam`]: the deterministic two-pass parallel beam search (`Goal::Score`, `Goal::Clear`).
//! - [`nested`]: nested Monte-Carlo search with tabu-colour playouts (the score goal).
//! - [`prove`]: refutations and an exact clearability decider.
//! - [`trace`]: solutions as moves, their independent verification, and game records.
//! - [`api`]: every CLI verb (gen, solve, show, replay, prove, bench) as a typed request and
//!   response, for the CLI, a server and Python alike.
//!
//! ```
//! use samegame::{Board, Groups, Rules};
//! let board: Board = "112\n122\n".parse().unwrap();
//! let mut groups = Groups::new();
//! let found = groups.find(&board, 2);
//! assert_eq!(found.len(), 2);            // the 1s (3 tiles) and the 2s (3 tiles)
//! assert_eq!((found[0].x, found[0].y, found[0].size), (0, 0, 3));
//! let mut after = board.clone();
//! samegame::play(&mut after, 2, 0, &Rules::default()).unwrap();
//! assert_eq!(after.to_string(), "1..\n11.\n");
//! ```

pub mod api;
pub mod beam;
pub mod board;
pub mod groups;
pub mod nested;
pub mod nrpa;
pub mod prove;
pub mod reference;
pub mod rules;
pub mod trace;

pub use board::{Board, BoardError, Col, Setup};
pub use groups::{has_pair, play, Group, Groups, PlayError, Potential, Sweeps};
pub use rules::{Points, Rules};
