//! Snake as an environment: the observation is the board, row by row from the top (0 empty,
//! 1 body, 2 head, 3 fruit, 4 tail); the actions are up, right, down, left; eating earns 1,
//! dying `death_reward`. Reversing onto the neck is the one illegal action; the stall limit
//! (moves without eating) truncates.

use serde::Deserialize;
use snake::api::contract::Snake as Contract;
use snake::api::Setup;
use snake::{Config, Dir, Event, Game, Status};

use crate::env::{EnvGame, Stepped};

/// The board and rules.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Opts {
    /// Board size `WxH` (each side 1 to 32), as the CLI's `--size`.
    pub size: String,
    /// Length at the start (the body trails west of the head, which starts at the centre).
    pub start_len: usize,
    /// Moves without eating after which an episode is truncated (default `max(1000, 4 cells)`).
    pub stall: Option<u64>,
    /// The reward of a fatal move.
    pub death_reward: f64,
    #[serde(skip)]
    config: Option<Config>,
}

impl Default for Opts {
    fn default() -> Self {
        let s = Setup::default();
        Opts {
            size: s.size,
            start_len: s.start_len,
            stall: s.stall,
            death_reward: -1.0,
            config: None,
        }
    }
}

impl Opts {
    fn setup(&self) -> Setup {
        Setup { size: self.size.clone(), start_len: self.start_len, stall: self.stall }
    }

    fn config(&self) -> Config {
        self.config.expect("checked options")
    }
}

/// A game and its moves (for the record).
#[derive(Clone)]
pub struct Snake {
    game: Game,
    seed: u64,
    moves: Vec<u8>,
}

impl EnvGame for Snake {
    type Opts = Opts;

    fn check(o: &mut Opts) -> Result<(), String> {
        let c = o.setup().config().map_err(|e| e.message().replace("setup.", "options."))?;
        o.config = Some(c);
        Ok(())
    }

    fn shape(o: &Opts) -> Vec<usize> {
        let s = o.config().size;
        vec![s.height(), s.width()]
    }

    fn actions(_: &Opts) -> usize {
        4
    }

    fn start(o: &Opts, seed: u64) -> Snake {
        Snake { game: Game::new(o.config(), seed), seed, moves: Vec::new() }
    }

    #[inline]
    fn step(&mut self, o: &Opts, a: usize) -> Stepped {
        let d = Dir::ALL[a];
        if self.game.status() != Status::Running || self.game.board().is_reversal(d) {
            return Stepped { reward: 0.0, legal: false, over: false, cut: false };
        }
        self.moves.push(a as u8);
        let (reward, over, cut) = match self.game.play_unchecked(d) {
            Event::Moved => (0.0, false, false),
            Event::Ate(_) => (1.0, false, false),
            Event::Won => (1.0, true, false),
            Event::Died(_) => (o.death_reward, true, false),
            Event::Stalled => (0.0, false, true),
        };
        Stepped { reward, legal: true, over, cut }
    }

    #[inline]
    fn observe(&self, _: &Opts, out: &mut [u8]) {
        let b = self.game.board();
        let occ = b.occupied();
        for (c, o) in out.iter_mut().enumerate() {
            *o = u8::from(occ.contains(c));
        }
        out[b.tail()] = 4;
        out[b.head()] = 2;
        if let Some(f) = b.fruit() {
            out[f] = 3;
        }
    }

    #[inline]
    fn mask(&self, _: &Opts, out: &mut [i8]) {
        let running = self.game.status() == Status::Running;
        let b = self.game.board();
        for (d, o) in Dir::ALL.iter().zip(out.iter_mut()) {
            *o = i8::from(running && !b.is_reversal(*d));
        }
    }

    fn score(&self) -> i64 {
        self.game.score() as i64
    }

    fn text(&self) -> String {
        self.game.board().to_string()
    }

    fn record(&self, o: &Opts) -> Result<String, String> {
        let moves = self.moves.iter().map(|&a| Dir::ALL[a as usize].letter()).collect();
        super::contract_record::<Contract>(o.setup(), self.seed, moves)
    }
}
