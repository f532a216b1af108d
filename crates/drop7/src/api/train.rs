//! `train`: an n-tuple network by TD(0) or temporal coherence on greedy Hardcore games.

use std::ops::{RangeFrom, RangeInclusive};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{check_range, decode_net, Control, Error, InputFile, Progress};
use crate::search::ntuple::{self, Coherence, Meta, NTuple};
use crate::{Mode, Rules};

/// The learning rule (shared with the other game's networks).
pub use bits::learn::Method;

/// `drop7 train`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct TrainRequest {
    /// Training games to play in this run (game `i` of the file's history uses the stream
    /// `sub_seed(seed, i)`), at least 1.
    pub games: u64,
    /// Step size per weight (default: the `from` file's, else [`TrainRequest::ALPHA`]).
    pub alpha: Option<f32>,
    /// The learning rule.
    pub method: Method,
    /// The training seed.
    pub seed: u64,
    /// The weight file to continue from, if any.
    pub from: Option<InputFile>,
    /// The TC accumulator file beside `from` (`FILE.tc`): read for `Method::Tc`; for TD,
    /// given only to say it exists (it is then noted as unused, bytes ignored).
    pub coherence: Option<InputFile>,
    /// The network's shape for a new file (`standard`, `rows=DDDDDDD size=N[ blocks=2x3]`);
    /// with `from`: omitted, the file's shape, or it plus ` blocks=2x3`.
    pub shape: Option<String>,
    /// Hand the network to the checkpoint callback every N games as well as at the end
    /// (0: only at the end).
    pub checkpoint_every: u64,
    /// Stop after the game running when this many seconds have passed.
    pub max_seconds: Option<f64>,
    /// A progress line every N games (at least 1).
    pub report_every: u64,
    /// The behaviour policy's depth, [`TrainRequest::POLICY_DEPTH`] (1 = greedy).
    pub policy_depth: u32,
    /// A new network's starting value of every afterstate, in points, spread evenly over
    /// the weights a value reads (optimistic initialisation); `None`: every weight 0. Only
    /// for a new network (not with `from`).
    pub optimistic: Option<f32>,
    /// Reveal samples the greedy policy values a revealing column over
    /// ([`ntuple::greedy_sampled`]), [`TrainRequest::REVEAL_SAMPLES`]; 1 (the default) is one
    /// sample. Greedy policies only (`policy_depth` 1).
    pub reveal_samples: u32,
    /// The largest TD error a step uses, in points (drop7-bench: 510,000, 30 rises); `None`:
    /// no clamp. Greedy policies only.
    pub clamp: Option<f32>,
}

impl TrainRequest {
    /// The step per weight of a new network when none is given.
    pub const ALPHA: f32 = 0.005;
    /// The range of `games`.
    pub const GAMES: RangeFrom<u64> = 1..;
    /// The range of `report_every`.
    pub const REPORT_EVERY: RangeFrom<u64> = 1..;
    /// The range of `policy_depth`.
    pub const POLICY_DEPTH: RangeInclusive<u32> = 1..=3;
    /// The range of `reveal_samples`.
    pub const REVEAL_SAMPLES: RangeInclusive<u32> = 1..=7;
    /// The most memory a TC run's weights and accumulators may take (12 bytes a weight):
    /// 12 GB (11.2 GiB): the exact anchor's 10^9 weights, the largest shape, just fit, so a
    /// new network is never refused by it today. A run continued from files also holds the
    /// files' bytes for the whole run (24 bytes a weight in all), so continuing TC is allowed
    /// up to this in that count ([`TrainRequest::check_tc_from`]).
    pub const TC_MAX_BYTES: u64 = 12_000_000_000;

    /// Whether TC may continue from a weight file of `file_len` bytes named `name`: the run
    /// holds the weights, the accumulators and both files' bytes (24 bytes a weight, six
    /// times the weight file), which must fit [`TrainRequest::TC_MAX_BYTES`].
    pub fn check_tc_from(name: &str, file_len: u64) -> Result<(), Error> {
        if file_len.saturating_mul(6) <= TrainRequest::TC_MAX_BYTES {
            return Ok(());
        }
        Err(Error::input(format!(
            "method: tc continued from {name} holds the weights, the accumulators and both \
             files' bytes (24 bytes a weight): about {:.1} GB, over the {:.0} GB \
             cap; train it in one run, or continue it with method td",
            6.0 * file_len as f64 / 1e9,
            TrainRequest::TC_MAX_BYTES as f64 / 1e9
        )))
    }
}

impl Default for TrainRequest {
    fn default() -> Self {
        TrainRequest {
            games: 1,
            alpha: None,
            method: Method::Td,
            seed: 1,
            from: None,
            coherence: None,
            shape: None,
            checkpoint_every: 0,
            max_seconds: None,
            report_every: 1000,
            policy_depth: 1,
            optimistic: None,
            reveal_samples: 1,
            clamp: None,
        }
    }
}

/// One progress window of training.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TrainWindow {
    /// Games in the file when the window ended.
    pub games: u64,
    /// Mean score of the window's games.
    pub mean_score: f64,
    /// Mean moves of the window's games.
    pub mean_moves: f64,
}

/// What the checkpoint callback is handed: the network and what to write with it.
#[derive(Debug)]
pub struct TrainCheckpoint<'a> {
    /// The network.
    pub net: &'a NTuple,
    /// Its metadata (games in all, seed, alpha).
    pub meta: Meta,
    /// The TC accumulators, for `Method::Tc`.
    pub coherence: Option<&'a Coherence>,
    /// `true` for the write at the end of the run.
    pub last: bool,
}

impl TrainCheckpoint<'_> {
    /// The weight file's bytes.
    pub fn weight_bytes(&self) -> Vec<u8> {
        ntuple::encode(self.net, &self.meta)
    }

    /// The weight file written to `w` as it is made (the bytes of
    /// [`weight_bytes`](Self::weight_bytes) without a copy of the network in memory).
    pub fn write_weights(&self, w: impl std::io::Write) -> std::io::Result<()> {
        ntuple::write_to(self.net, &self.meta, w)
    }

    /// The accumulator file ([`ntuple::encode_coherence`]'s bytes) written to `w` as it is
    /// made; `None` for TD (nothing written).
    pub fn write_coherence(&self, w: impl std::io::Write) -> Option<std::io::Result<()>> {
        self.coherence
            .map(|acc| ntuple::write_coherence_to(acc, self.meta.games, self.net.fingerprint(), w))
    }
}

/// The run (the CLI's `--json`, less the output file's name).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TrainResponse {
    /// The network's shape.
    pub shape: String,
    /// Games played in this run.
    pub games_this_run: u64,
    /// Games in the file.
    pub games_total: u64,
    /// The training seed.
    pub seed: u64,
    /// Step size.
    pub alpha: f32,
    /// The learning rule.
    pub method: Method,
    /// The behaviour policy's depth.
    pub policy_depth: u32,
    /// The greedy policy's reveal samples.
    pub reveal_samples: u32,
    /// The TD error clamp in points, if any.
    pub clamp: Option<f32>,
    /// Moves played.
    pub moves: u64,
    /// Wall seconds.
    pub seconds: f64,
    /// Moves per wall second.
    pub moves_per_second: f64,
    /// The network's fingerprint, hex.
    pub fingerprint: String,
    /// The progress windows.
    pub windows: Vec<TrainWindow>,
}

/// The shape, if given.
fn parse_shape(text: Option<&str>) -> Result<Option<ntuple::Shape>, Error> {
    text.map(|t| t.parse().map_err(|e| Error::input(format!("shape: {t:?}, {e}")))).transpose()
}

/// Trains: plays `games` games (or until `max_seconds`, or until the abort flag, which
/// stops it like the clock: after the game running, with the network so far handed to
/// `checkpoint` as the last one), handing the network to `checkpoint` every
/// `checkpoint_every` games and at the end. Progress: one unit per game, with a message
/// (`train: ...` per window, and a note when `coherence` is given for TD).
pub fn train(
    req: &TrainRequest,
    ctl: Control<'_>,
    checkpoint: &mut dyn FnMut(&TrainCheckpoint<'_>) -> Result<(), Error>,
) -> Result<TrainResponse, Error> {
    if let Some(a) = req.alpha.filter(|a| !(a.is_finite() && *a > 0.0)) {
        return Err(Error::input(format!("alpha: {a}, must be a positive number")));
    }
    let tc = req.method == Method::Tc;
    if tc && req.policy_depth > 1 {
        return Err(Error::input("method: tc trains with policy_depth 1 only"));
    }
    check_range("policy_depth", req.policy_depth, TrainRequest::POLICY_DEPTH)?;
    check_range("games", req.games, TrainRequest::GAMES)?;
    check_range("report_every", req.report_every, TrainRequest::REPORT_EVERY)?;
    check_range("reveal_samples", req.reveal_samples, TrainRequest::REVEAL_SAMPLES)?;
    if let Some(c) = req.clamp.filter(|c| !(c.is_finite() && *c > 0.0)) {
        return Err(Error::input(format!("clamp: {c}, must be a positive number of points")));
    }
    if req.policy_depth > 1 && (req.reveal_samples > 1 || req.clamp.is_some()) {
        return Err(Error::input(
            "policy_depth: reveal_samples and clamp are for the greedy policy (policy_depth 1); \
             a searched policy samples reveals itself",
        ));
    }
    let play = ntuple::Play {
        reveal_samples: req.reveal_samples,
        clamp: req.clamp.unwrap_or(f32::INFINITY),
    };
    if let Some(v) = req.optimistic {
        if !v.is_finite() {
            return Err(Error::input(format!(
                "optimistic: {v}, must be a finite number of points"
            )));
        }
        if req.from.is_some() {
            return Err(Error::input(
                "optimistic: sets a new network's start; a network continued with from keeps its weights",
            ));
        }
    }
    let total = Some(req.games);
    let rules = Rules::new(Mode::Hardcore);
    let mut alpha = req.alpha.unwrap_or(TrainRequest::ALPHA);
    let (mut net, first) = match &req.from {
        Some(file) => {
            let bytes = file.contents()?;
            if tc {
                TrainRequest::check_tc_from(&file.name, bytes.len() as u64)?;
            }
            let (net, meta) = decode_net("from", &file.name, bytes)?;
            // The file's step unless another is asked for (a schedule: said, and recorded).
            alpha = req.alpha.unwrap_or(meta.alpha);
            if alpha != meta.alpha {
                let note = format!(
                    "note: {} was trained with alpha {}; continuing with alpha {alpha}",
                    file.name, meta.alpha
                );
                ctl.report(Progress::new(0, Some(req.games)).with_message(note));
            }
            if meta.seed != req.seed {
                return Err(Error::input(format!(
                    "from: {}, trained with seed {}; continue it with seed {}",
                    file.name, meta.seed, meta.seed
                )));
            }
            match parse_shape(req.shape.as_deref())? {
                Some(shape) if shape != *net.shape() => {
                    let Some(ext) = net.extended(shape) else {
                        return Err(Error::input(format!(
                            "shape: {:?}, from {} has shape {:?}; give that shape or it plus blocks=2x3",
                            req.shape.as_deref().unwrap_or_default(),
                            file.name,
                            net.shape().to_string()
                        )));
                    };
                    if tc {
                        return Err(Error::input(
                            "method: tc cannot add block tables to a file (its accumulators \
                             would not match); add them with method td",
                        ));
                    }
                    (ext, meta.games)
                }
                _ => (net, meta.games),
            }
        }
        None => {
            let shape = parse_shape(req.shape.as_deref())?.unwrap_or(ntuple::Shape::standard());
            if tc && 12 * shape.weights() as u64 > TrainRequest::TC_MAX_BYTES {
                return Err(Error::input(format!(
                    "method: tc keeps two accumulators beside each weight (12 bytes a weight): \
                     {:.1} GB for shape {shape}, over the {:.0} GB cap; train it with method td, \
                     or give a smaller size=",
                    12.0 * shape.weights() as f64 / 1e9,
                    TrainRequest::TC_MAX_BYTES as f64 / 1e9
                )));
            }
            let net = match req.optimistic {
                Some(v) => NTuple::optimistic(shape, v),
                None => NTuple::new(shape),
            };
            (net, 0)
        }
    };
    let mut acc = match (&req.from, tc) {
        (Some(_), true) => {
            let file = req.coherence.as_ref().ok_or_else(|| {
                Error::input(
                    "coherence: method tc continues from the weights and their accumulators",
                )
            })?;
            Some(
                ntuple::decode_coherence(file.contents()?, &net, first)
                    .map_err(|e| Error::input(format!("{}: {e}", file.name)))?,
            )
        }
        (None, true) => Some(Coherence::new(net.shape())),
        (Some(_), false) => {
            if let Some(file) = &req.coherence {
                let note =
                    format!("note: {} (TC accumulators) is not used by method td", file.name);
                ctl.report(Progress::new(0, total).with_message(note));
            }
            None
        }
        (None, false) => None,
    };
    let start = Instant::now();
    let mut played = 0u64;
    let mut moves = 0u64;
    let (mut win_score, mut win_moves, mut win_games) = (0u64, 0u64, 0u64);
    let mut win_start = Instant::now();
    let mut windows = Vec::new();
    let meta = |played: u64| Meta { games: first + played, seed: req.seed, alpha };
    let report_every = req.report_every.max(1);
    while played < req.games {
        if req.max_seconds.is_some_and(|s| start.elapsed().as_secs_f64() >= s) || ctl.aborted() {
            break;
        }
        let seed = bits::rng::sub_seed(req.seed, first + played);
        let g = match &mut acc {
            Some(acc) => ntuple::train_game_tc_with(&mut net, acc, &rules, seed, alpha, play),
            None if req.policy_depth > 1 => {
                ntuple::train_game_searched(&mut net, &rules, seed, alpha, req.policy_depth)
            }
            None => ntuple::train_game_with(&mut net, &rules, seed, alpha, play),
        };
        played += 1;
        moves += g.moves;
        win_score += g.score;
        win_moves += g.moves;
        win_games += 1;
        let mut progress = Progress::new(first + played, total);
        if win_games == report_every || played == req.games {
            let secs = win_start.elapsed().as_secs_f64().max(1e-9);
            let w = TrainWindow {
                games: first + played,
                mean_score: win_score as f64 / win_games as f64,
                mean_moves: win_moves as f64 / win_games as f64,
            };
            progress = progress.with_message(format!(
                "train: {} games, last {} mean score {:.0} ({:.0} moves), {:.0} games/s, {:.0} moves/s",
                w.games,
                win_games,
                w.mean_score,
                w.mean_moves,
                win_games as f64 / secs,
                win_moves as f64 / secs
            ));
            windows.push(w);
            (win_score, win_moves, win_games) = (0, 0, 0);
            win_start = Instant::now();
        }
        ctl.report(progress);
        if req.checkpoint_every > 0 && played % req.checkpoint_every == 0 && played < req.games {
            checkpoint(&TrainCheckpoint {
                net: &net,
                meta: meta(played),
                coherence: acc.as_ref(),
                last: false,
            })?;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    checkpoint(&TrainCheckpoint {
        net: &net,
        meta: meta(played),
        coherence: acc.as_ref(),
        last: true,
    })?;
    Ok(TrainResponse {
        shape: net.shape().to_string(),
        games_this_run: played,
        games_total: first + played,
        seed: req.seed,
        alpha,
        method: req.method,
        policy_depth: req.policy_depth,
        reveal_samples: req.reveal_samples,
        clamp: req.clamp,
        moves,
        seconds: secs,
        moves_per_second: moves as f64 / secs.max(1e-9),
        fingerprint: format!("{:016x}", net.fingerprint()),
        windows,
    })
}
