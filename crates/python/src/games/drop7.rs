//! Drop7 as an environment: the observation is 8 rows of 7: the board from the top row down
//! (0 empty, 1-7 a number, 8 a gray disc, 9 a cracked one), then the row `[next disc (1-7, 8
//! gray), drops left in the level, level (at most 255), 0, 0, 0, 0]`; action `c` drops the
//! next disc in column `c` (0 the leftmost); the reward is the points the turn scores. A full
//! column is the one illegal action.

use drop7::api::contract::{Drop7 as Contract, Setup};
use drop7::engine::RandomDraws;
use drop7::{Mode, Position, Rules};
use serde::Deserialize;

use crate::env::{EnvGame, Stepped};

/// The rules, as the CLI's options.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Opts {
    /// `hardcore` or `normal` (`--mode`; a Sequence game needs its stream, so it is not here).
    pub mode: Mode,
    /// Normal mode's share of gray next discs, `[NUM, DEN]` (`--gray-share`).
    pub gray_share: (u32, u32),
    /// Pay the level bonus before the fatal rise (`--fatal-rise-bonus`).
    pub fatal_rise_bonus: bool,
    /// Restart the chain level at 1 after a rise (`--no-rise-chain`).
    pub no_rise_chain: bool,
    #[serde(skip)]
    rules: Option<Rules>,
}

impl Default for Opts {
    fn default() -> Self {
        let s = Setup::default();
        Opts {
            mode: s.mode,
            gray_share: s.gray_share,
            fatal_rise_bonus: s.fatal_rise_bonus,
            no_rise_chain: s.no_rise_chain,
            rules: None,
        }
    }
}

impl Opts {
    fn setup(&self) -> Setup {
        Setup {
            mode: self.mode,
            gray_share: self.gray_share,
            fatal_rise_bonus: self.fatal_rise_bonus,
            no_rise_chain: self.no_rise_chain,
            ..Setup::default()
        }
    }
}

/// A position, its draws and its moves (for the record).
#[derive(Clone)]
pub struct Drop7 {
    pos: Position,
    draws: RandomDraws,
    seed: u64,
    moves: Vec<u8>,
}

impl EnvGame for Drop7 {
    type Opts = Opts;

    fn check(o: &mut Opts) -> Result<(), String> {
        if o.mode == Mode::Sequence {
            return Err(
                "options.mode: a sequence game is dealt from a stream; use hardcore or normal"
                    .into(),
            );
        }
        o.rules = Some(o.setup().rules().map_err(|e| e.message().replace("setup.", "options."))?);
        Ok(())
    }

    fn shape(_: &Opts) -> Vec<usize> {
        vec![8, 7]
    }

    fn actions(_: &Opts) -> usize {
        7
    }

    fn start(o: &Opts, seed: u64) -> Drop7 {
        let rules = o.rules.expect("checked options");
        let mut draws = RandomDraws::new(&rules, drop7::api::contract::game_seed(seed));
        let pos = Position::new_game(&rules, &mut draws);
        Drop7 { pos, draws, seed, moves: Vec::new() }
    }

    #[inline]
    fn step(&mut self, o: &Opts, a: usize) -> Stepped {
        if self.pos.over || !self.pos.board.can_drop(a) {
            return Stepped { reward: 0.0, legal: false, over: self.pos.over, cut: false };
        }
        self.moves.push(a as u8);
        let rules = o.rules.as_ref().expect("checked options");
        let t = self.pos.play_unchecked(rules, a, &mut self.draws);
        Stepped { reward: t.points as f64, legal: true, over: t.over, cut: false }
    }

    #[inline]
    fn observe(&self, _: &Opts, out: &mut [u8]) {
        let cols = self.pos.board.cols();
        for r in 0..7 {
            let shift = 4 * (6 - r);
            for (c, col) in cols.iter().enumerate() {
                out[7 * r + c] = ((col >> shift) & 0xF) as u8;
            }
        }
        let tail = &mut out[49..56];
        tail.fill(0);
        tail[0] = self.pos.next.code();
        tail[1] = self.pos.drops_left.min(255) as u8;
        tail[2] = self.pos.level.min(255) as u8;
    }

    #[inline]
    fn mask(&self, _: &Opts, out: &mut [i8]) {
        let open = if self.pos.over { 0 } else { self.pos.board.open_columns() };
        for (c, o) in out.iter_mut().enumerate() {
            *o = ((open >> c) & 1) as i8;
        }
    }

    fn score(&self) -> i64 {
        self.pos.score as i64
    }

    fn text(&self) -> String {
        self.pos.to_string()
    }

    fn record(&self, o: &Opts) -> Result<String, String> {
        let moves = self.moves.iter().map(|&c| char::from(b'1' + c)).collect();
        super::contract_record::<Contract>(o.setup(), self.seed, moves)
    }
}
