//! A game: a [`Board`] plus the seeded fruit generator, the score and the stall counter.
//!
//! # Fruit generator (so another program can reproduce our games)
//! `Rng::new(seed)` is `bits::Rng` (xoshiro256** seeded through SplitMix64). Each fruit,
//! including the first one placed at the start, is drawn as: `n` = number of empty cells,
//! `k = rng.below(n)` (Lemire's unbiased multiply-shift, see `bits::rng`), and the fruit goes on
//! the `k`-th empty cell in row-major order (cell index `y * W + x`, counted from 0). Nothing
//! else draws from the generator, so a game is fully determined by its config, seed and moves.

use serde::{Deserialize, Serialize};

use bits::Rng;

use crate::board::{Board, Death, Dir, Moved, Size};

/// How a game is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Config {
    /// Board size.
    pub size: Size,
    /// Column of the head at the start.
    pub start_x: usize,
    /// Row of the head at the start.
    pub start_y: usize,
    /// Length at the start; the body trails to the left (west) of the head, heading right.
    pub start_len: usize,
    /// Moves without eating after which the game is stopped as stalled.
    pub stall_limit: u64,
}

impl Config {
    /// The usual setup: length 1 at the centre, stall limit `max(1000, 4 * cells)`.
    pub fn new(size: Size) -> Config {
        Config {
            size,
            start_x: size.width() / 2,
            start_y: size.height() / 2,
            start_len: 1,
            stall_limit: (4 * size.cells() as u64).max(1000),
        }
    }

    /// Checks the config, naming the broken rule.
    pub fn validate(&self) -> Result<(), String> {
        let s = self.size;
        if self.start_x >= s.width() || self.start_y >= s.height() {
            return Err(format!("start ({},{}) is off the {s} board", self.start_x, self.start_y));
        }
        if self.start_len == 0 || self.start_len > self.start_x + 1 || self.start_len >= s.cells() {
            return Err(format!(
                "start length {} does not fit left of column {} (the body trails west)",
                self.start_len, self.start_x
            ));
        }
        if self.stall_limit == 0 {
            return Err("the stall limit must be at least 1".into());
        }
        Ok(())
    }

    /// The starting body, head first.
    pub fn start_body(&self) -> Vec<usize> {
        (0..self.start_len).map(|i| self.size.cell(self.start_x - i, self.start_y)).collect()
    }

    /// The score of a won game: cells minus start length.
    pub fn max_score(&self) -> usize {
        self.size.cells() - self.start_len
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Status {
    /// Still being played.
    Running,
    /// The snake fills the board.
    Won,
    /// A fatal move ended it.
    Died(Death),
    /// Too many moves without eating.
    Stalled,
}

/// What a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// An ordinary move.
    Moved,
    /// The fruit was eaten; the next one is on this cell.
    Ate(usize),
    /// The last fruit was eaten: the board is full.
    Won,
    /// The move was fatal.
    Died(Death),
    /// The move reached the stall limit.
    Stalled,
}

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game is already over.
    Over(Status),
    /// The move would reverse onto the neck.
    Reversal,
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::Over(s) => write!(f, "the game is over ({s:?})"),
            PlayError::Reversal => write!(f, "the snake may not reverse onto its neck"),
        }
    }
}

impl std::error::Error for PlayError {}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    config: Config,
    board: Board,
    rng: Rng,
    moves: u64,
    since_fruit: u64,
    status: Status,
}

impl Game {
    /// A new game: the snake at its start and the first fruit drawn from `seed`.
    /// Panics if the config is invalid (check it with [`Config::validate`]).
    pub fn new(config: Config, seed: u64) -> Game {
        if let Err(e) = config.validate() {
            panic!("invalid snake config: {e}");
        }
        let board = Board::from_body(config.size, &config.start_body(), None)
            .expect("a validated start is a legal body");
        let mut game = Game {
            config,
            board,
            rng: Rng::new(seed),
            moves: 0,
            since_fruit: 0,
            status: Status::Running,
        };
        let first = game.spawn();
        game.board.set_fruit(first);
        game
    }

    fn spawn(&mut self) -> Option<usize> {
        let empty = self.board.empty();
        let n = empty.len();
        if n == 0 {
            return None;
        }
        let k = self.rng.below(n as u64) as usize;
        empty.nth(k)
    }

    /// The config.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Fruits eaten.
    #[inline]
    pub fn score(&self) -> usize {
        self.board.len() - self.config.start_len
    }

    /// Moves played (a fatal move counts).
    #[inline]
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// Moves since the last fruit was eaten.
    pub fn since_fruit(&self) -> u64 {
        self.since_fruit
    }

    /// Where the game stands.
    #[inline]
    pub fn status(&self) -> Status {
        self.status
    }

    /// Plays `d`, checking that the game is running and `d` is not a reversal.
    pub fn play(&mut self, d: Dir) -> Result<Event, PlayError> {
        if self.status != Status::Running {
            return Err(PlayError::Over(self.status));
        }
        if self.board.is_reversal(d) {
            return Err(PlayError::Reversal);
        }
        Ok(self.play_unchecked(d))
    }

    /// Plays `d`. Precondition: the game is running and `d` is not a reversal onto the neck
    /// (checked only by `debug_assert!`).
    pub fn play_unchecked(&mut self, d: Dir) -> Event {
        debug_assert_eq!(self.status, Status::Running);
        self.moves += 1;
        match self.board.apply(d) {
            Moved::Died(death) => {
                self.status = Status::Died(death);
                Event::Died(death)
            }
            Moved::Ate => {
                self.since_fruit = 0;
                match self.spawn() {
                    Some(f) => {
                        self.board.set_fruit(Some(f));
                        Event::Ate(f)
                    }
                    None => {
                        self.status = Status::Won;
                        Event::Won
                    }
                }
            }
            Moved::Plain => {
                self.since_fruit += 1;
                if self.since_fruit >= self.config.stall_limit {
                    self.status = Status::Stalled;
                    Event::Stalled
                } else {
                    Event::Moved
                }
            }
        }
    }
}
