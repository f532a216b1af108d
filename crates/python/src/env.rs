//! The environments' core, written once for every game: a game gives [`EnvGame`] (start a
//! CLI game, step an action, write the observation and the mask), and [`Envs`] steps N of
//! them at once into numpy buffers, with the episode rules of every environment:
//!
//! - an environment reset with seed `S` plays the CLI's game from seed `S` (`play --seed S`,
//!   `gen --seed S`, the queue of `bench --seed S`); its later episodes, each started without
//!   a seed, play the games from seeds `sub_seed(S, 1)`, `sub_seed(S, 2)`, ... ([`episode_seed`]);
//! - an action the mask forbids changes nothing (no spawn, no reveal, no fruit), earns
//!   `invalid_reward`, and `max_invalid` of them in a row truncate the episode;
//! - `max_steps` steps truncate it; the game's own end terminates it;
//! - a vector of environments resets an ended one on its next step (gymnasium's
//!   `NEXT_STEP` autoreset: that step's action is ignored, its reward is 0).

use rayon::prelude::*;
use serde::Deserialize;

/// What one action did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stepped {
    /// The reward (the score gained, or the game's own reward).
    pub reward: f64,
    /// Whether the action was legal (an illegal one changes nothing).
    pub legal: bool,
    /// Whether the game has ended (won or lost).
    pub over: bool,
    /// Whether the game's own limit cut it short (Snake's stall limit): truncated, not
    /// terminated.
    pub cut: bool,
}

/// One game as an environment sees it.
pub trait EnvGame: Sized + Send + Sync + Clone {
    /// The game's options (board size, colours, rules), read from JSON.
    type Opts: Send + Sync + Clone + for<'de> Deserialize<'de> + Default;

    /// Checks the options; a bad one is a one-line message naming it.
    fn check(o: &mut Self::Opts) -> Result<(), String>;
    /// The observation's shape (the numpy array's dimensions).
    fn shape(o: &Self::Opts) -> Vec<usize>;
    /// The number of discrete actions.
    fn actions(o: &Self::Opts) -> usize;
    /// The CLI's game from `seed` (what the live contract's `start` plays).
    fn start(o: &Self::Opts, seed: u64) -> Self;
    /// Plays action `a` (below [`EnvGame::actions`]); an illegal one changes nothing.
    fn step(&mut self, o: &Self::Opts, a: usize) -> Stepped;
    /// Writes the observation (as many bytes as the shape holds).
    fn observe(&self, o: &Self::Opts, out: &mut [u8]);
    /// Writes the action mask: 1 for each legal action, 0 for the others.
    fn mask(&self, o: &Self::Opts, out: &mut [i8]);
    /// The score so far.
    fn score(&self) -> i64;
    /// The position in the game's text form.
    fn text(&self) -> String;
    /// The game's record, as the CLI's `--record` writes it (JSON).
    fn record(&self, o: &Self::Opts) -> Result<String, String>;
}

/// The seed of episode `episode` of an environment reset with seed `master`: `master` itself
/// for the first, then [`bits::rng::sub_seed`]`(master, episode)`.
pub fn episode_seed(master: u64, episode: u64) -> u64 {
    if episode == 0 {
        master
    } else {
        bits::rng::sub_seed(master, episode)
    }
}

/// The episode rules every environment shares (the `options` beside the game's own).
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// Steps after which an episode is truncated (0: no limit).
    pub max_steps: u64,
    /// Illegal actions in a row after which an episode is truncated (0: no limit).
    pub max_invalid: u32,
    /// The reward of an illegal action.
    pub invalid_reward: f64,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { max_steps: 0, max_invalid: 100, invalid_reward: 0.0 }
    }
}

/// One environment: its game, where its seeds come from, and its episode counters.
#[derive(Clone)]
pub struct Slot<G> {
    /// The game.
    pub game: G,
    /// The seed of the last seeded reset.
    pub master: u64,
    /// The episode of `master` being played.
    pub episode: u64,
    steps: u64,
    invalid: u32,
    ended: bool,
}

/// N environments of one game, with their options.
#[derive(Clone)]
pub struct Envs<G: EnvGame> {
    /// The game's options.
    pub opts: G::Opts,
    /// The episode rules.
    pub rules: Rules,
    /// The environments.
    pub slots: Vec<Slot<G>>,
    obs_len: usize,
    actions: usize,
}

/// The buffers one step writes, one entry (or one row) per environment.
pub struct Out<'a> {
    /// Observations, `obs_len` bytes each.
    pub obs: &'a mut [u8],
    /// Rewards.
    pub reward: &'a mut [f64],
    /// Whether the episode ended by the game's end.
    pub terminated: &'a mut [bool],
    /// Whether the episode was cut short.
    pub truncated: &'a mut [bool],
    /// Action masks, `actions` entries each.
    pub mask: &'a mut [i8],
}

/// Below this many environments a step runs on the calling thread.
const PARALLEL_FROM: usize = 256;

impl<G: EnvGame> Envs<G> {
    /// `n` environments with the options and rules given as JSON objects; each starts
    /// episode 0 of seed `i` until it is reset.
    pub fn new(n: usize, opts: &str, rules: &str) -> Result<Self, String> {
        if n == 0 {
            return Err("num_envs: must be at least 1".into());
        }
        let mut opts: G::Opts = serde_json::from_str(opts).map_err(|e| format!("options: {e}"))?;
        G::check(&mut opts)?;
        let rules: Rules = serde_json::from_str(rules).map_err(|e| format!("options: {e}"))?;
        let obs_len = G::shape(&opts).iter().product();
        let actions = G::actions(&opts);
        let slots = (0..n as u64)
            .map(|i| Slot {
                game: G::start(&opts, i),
                master: i,
                episode: 0,
                steps: 0,
                invalid: 0,
                ended: false,
            })
            .collect();
        Ok(Envs { opts, rules, slots, obs_len, actions })
    }

    /// The observation's length in bytes.
    pub fn obs_len(&self) -> usize {
        self.obs_len
    }

    /// The number of actions.
    pub fn actions(&self) -> usize {
        self.actions
    }

    /// Resets every environment: to episode 0 of its seed where `seeds` gives one, else to
    /// its next episode; writes the observations and masks.
    pub fn reset(&mut self, seeds: Option<&[u64]>, obs: &mut [u8], mask: &mut [i8]) {
        let (opts, ol, na) = (&self.opts, self.obs_len, self.actions);
        for (i, s) in self.slots.iter_mut().enumerate() {
            s.reset_to(opts, seeds.map(|seeds| seeds[i]));
            s.game.observe(opts, &mut obs[i * ol..(i + 1) * ol]);
            s.game.mask(opts, &mut mask[i * na..(i + 1) * na]);
        }
    }

    /// Checks the actions: one per environment, each below the number of actions.
    pub fn check_actions(&self, actions: &[i64]) -> Result<(), String> {
        if actions.len() != self.slots.len() {
            return Err(format!(
                "actions: {} given for {} environments",
                actions.len(),
                self.slots.len()
            ));
        }
        match actions.iter().position(|&a| a < 0 || a as u64 >= self.actions as u64) {
            Some(i) => Err(format!(
                "actions[{i}]: {} is not an action (0 to {})",
                actions[i],
                self.actions - 1
            )),
            None => Ok(()),
        }
    }

    /// Steps every environment (actions already checked), in parallel for many.
    pub fn step(&mut self, actions: &[i64], out: Out<'_>) {
        let (opts, rules, ol, na) = (&self.opts, &self.rules, self.obs_len, self.actions);
        let n = self.slots.len();
        let one = |s: &mut Slot<G>,
                   a: i64,
                   o: &mut [u8],
                   r: &mut f64,
                   t: &mut bool,
                   u: &mut bool,
                   m: &mut [i8]| {
            let (reward, term, trunc) = s.step(opts, rules, a as usize);
            *r = reward;
            *t = term;
            *u = trunc;
            s.game.observe(opts, o);
            s.game.mask(opts, m);
        };
        let Out { obs, reward, terminated, truncated, mask } = out;
        if n < PARALLEL_FROM {
            for i in 0..n {
                one(
                    &mut self.slots[i],
                    actions[i],
                    &mut obs[i * ol..(i + 1) * ol],
                    &mut reward[i],
                    &mut terminated[i],
                    &mut truncated[i],
                    &mut mask[i * na..(i + 1) * na],
                );
            }
            return;
        }
        // Chunks of a fixed size: each environment's result depends on it alone, so the
        // outcome is the same on any number of threads.
        let c = 64;
        (
            self.slots.par_chunks_mut(c),
            actions.par_chunks(c),
            obs.par_chunks_mut(c * ol),
            reward.par_chunks_mut(c),
            terminated.par_chunks_mut(c),
            truncated.par_chunks_mut(c),
            mask.par_chunks_mut(c * na),
        )
            .into_par_iter()
            .for_each(|(s, a, o, r, t, u, m)| {
                for i in 0..s.len() {
                    one(
                        &mut s[i],
                        a[i],
                        &mut o[i * ol..(i + 1) * ol],
                        &mut r[i],
                        &mut t[i],
                        &mut u[i],
                        &mut m[i * na..(i + 1) * na],
                    );
                }
            });
    }
}

impl<G: EnvGame> Slot<G> {
    /// Starts episode 0 of `seed`, or without one the next episode of the last seed.
    pub fn reset_to(&mut self, opts: &G::Opts, seed: Option<u64>) {
        match seed {
            Some(seed) => {
                self.master = seed;
                self.episode = 0;
            }
            None => self.episode += 1,
        }
        self.restart(opts);
    }

    fn restart(&mut self, opts: &G::Opts) {
        self.game = G::start(opts, self.seed());
        self.steps = 0;
        self.invalid = 0;
        self.ended = false;
    }

    /// One step by the episode rules: the reward, terminated and truncated. An ended
    /// environment starts its next episode instead (reward 0, neither flag).
    pub fn step(&mut self, opts: &G::Opts, rules: &Rules, a: usize) -> (f64, bool, bool) {
        if self.ended {
            self.episode += 1;
            self.restart(opts);
            return (0.0, false, false);
        }
        let s = self.game.step(opts, a);
        self.steps += 1;
        let reward = if s.legal {
            self.invalid = 0;
            s.reward
        } else {
            self.invalid += 1;
            rules.invalid_reward
        };
        let trunc = !s.over
            && (s.cut
                || (rules.max_steps > 0 && self.steps >= rules.max_steps)
                || (rules.max_invalid > 0 && self.invalid >= rules.max_invalid));
        self.ended = s.over || trunc;
        (reward, s.over, trunc)
    }

    /// The seed of the episode being played.
    pub fn seed(&self) -> u64 {
        episode_seed(self.master, self.episode)
    }

    /// Whether the episode has ended (the next step starts another).
    pub fn ended(&self) -> bool {
        self.ended
    }
}
