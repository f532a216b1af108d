//! 2048 as an environment: the observation is the 4x4 board of tile log2s (0 empty, 1 for a
//! 2, ... 15 for a 32768); the actions are up, down, left, right; the reward is the score a
//! move gains (the sum of the merged tiles).

use serde::Deserialize;
use twenty48::board::{Dir, MoveError};
use twenty48::game::{Game, Status};

use crate::env::{EnvGame, Stepped};

/// 2048 has no options: the board is 4x4 and the spawns follow the CLI's rule.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Opts {}

impl EnvGame for Game {
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

    fn start(_: &Opts, seed: u64) -> Game {
        Game::new(twenty48::api::contract::game_seed(seed))
    }

    #[inline]
    fn step(&mut self, _: &Opts, a: usize) -> Stepped {
        let before = self.score();
        let legal = !matches!(self.play(Dir::ALL[a]), Err(MoveError::Illegal));
        Stepped {
            reward: (self.score() - before) as f64,
            legal,
            over: self.status() != Status::Playing,
            cut: false,
        }
    }

    #[inline]
    fn observe(&self, _: &Opts, out: &mut [u8]) {
        let b = self.board().0;
        for (c, o) in out.iter_mut().enumerate() {
            *o = (b >> (4 * c) & 0xF) as u8;
        }
    }

    #[inline]
    fn mask(&self, _: &Opts, out: &mut [i8]) {
        let b = self.board();
        let playing = self.status() == Status::Playing;
        for (d, o) in Dir::ALL.iter().zip(out.iter_mut()) {
            *o = i8::from(playing && b.play(*d) != Err(MoveError::Illegal));
        }
    }

    fn score(&self) -> i64 {
        Game::score(self) as i64
    }

    fn text(&self) -> String {
        self.board().to_string()
    }

    fn record(&self, _: &Opts) -> Result<String, String> {
        serde_json::to_string(&Game::record(self)).map_err(|e| e.to_string())
    }
}
