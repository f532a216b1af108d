//! 2048 as an environment: the observation is the 4x4 board of tile log2s (0 empty, 1 for a
//! 2, ... 15 for a 32768); the actions are up, down, left, right; the reward is the score a
//! move gains (the sum of the merged tiles).
//!
//! The environment steps the packed board itself (the engine's `Board` and the spawn rule of
//! `twenty48::game`), keeping only the moves; its record is the live contract's replay of
//! them, the CLI's record.

use bits::Rng;
use serde::Deserialize;
use twenty48::api::contract::{game_seed, Setup, Twenty48 as Contract};
use twenty48::board::{Board, Dir, MoveError};
use twenty48::game::draw_spawn;

use crate::env::{EnvGame, Stepped};

/// 2048 has no options: the board is 4x4 and the spawns follow the CLI's rule.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Opts {}

/// A game: the board, its spawn generator, the legal moves and the moves played.
#[derive(Clone)]
pub struct Twenty48 {
    board: Board,
    rng: Rng,
    score: u64,
    seed: u64,
    /// Bit `i`: move `Dir::ALL[i]` is legal (an overflow move counts: it ends the game).
    legal: u8,
    over: bool,
    dirs: Vec<u8>,
}

impl Twenty48 {
    fn spawn(&mut self) {
        if let Some(s) = draw_spawn(self.board, &mut self.rng) {
            self.board = self.board.with(s.cell, s.rank);
        }
    }

    #[inline]
    fn refresh(&mut self) {
        let s = self.board.shift_all();
        let mut legal = s.overflow;
        for (i, b) in s.boards.iter().enumerate() {
            legal |= u8::from(*b != self.board) << i;
        }
        self.legal = legal;
        self.over = legal == 0;
    }
}

impl EnvGame for Twenty48 {
    type Opts = Opts;

    fn check(_: &mut Opts) -> Result<(), String> {
        Ok(())
    }

    fn shape(_: &Opts) -> Vec<usize> {
        vec![4, 4]
    }

    fn actions(_: &Opts) -> usize {
        4
    }

    fn start(_: &Opts, seed: u64) -> Twenty48 {
        let mut g = Twenty48 {
            board: Board::EMPTY,
            rng: Rng::new(game_seed(seed)),
            score: 0,
            seed,
            legal: 0,
            over: false,
            dirs: Vec::new(),
        };
        g.spawn();
        g.spawn();
        g.refresh();
        g
    }

    #[inline]
    fn step(&mut self, _: &Opts, a: usize) -> Stepped {
        if self.over || self.legal >> a & 1 == 0 {
            return Stepped { reward: 0.0, legal: false, over: false, cut: false };
        }
        self.dirs.push(a as u8);
        match self.board.play(Dir::ALL[a]) {
            Ok(m) => {
                self.board = m.board;
                self.score += u64::from(m.score);
                self.spawn();
                self.refresh();
                Stepped { reward: f64::from(m.score), legal: true, over: self.over, cut: false }
            }
            // Two 32768s merging: the game ends there, the move recorded and not applied.
            Err(MoveError::Overflow) | Err(MoveError::Illegal) => {
                self.over = true;
                self.legal = 0;
                Stepped { reward: 0.0, legal: true, over: true, cut: false }
            }
        }
    }

    #[inline]
    fn observe(&self, _: &Opts, out: &mut [u8]) {
        let b = self.board.0;
        for (c, o) in out.iter_mut().enumerate() {
            *o = (b >> (4 * c) & 0xF) as u8;
        }
    }

    #[inline]
    fn mask(&self, _: &Opts, out: &mut [i8]) {
        let legal = if self.over { 0 } else { self.legal };
        for (i, o) in out.iter_mut().enumerate() {
            *o = (legal >> i & 1) as i8;
        }
    }

    fn score(&self) -> i64 {
        self.score as i64
    }

    fn text(&self) -> String {
        self.board.to_string()
    }

    fn record(&self, _: &Opts) -> Result<String, String> {
        let moves = self.dirs.iter().map(|&d| Dir::ALL[usize::from(d)].letter()).collect();
        super::contract_record::<Contract>(Setup::default(), self.seed, moves)
    }
}
