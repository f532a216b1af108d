//! `train` (an n-tuple network by TD(0) or temporal coherence, stage 1 or a later stage),
//! `starts` (the start boards of a later stage) and `from-starts` (greedy games from them).

use std::ops::{RangeFrom, RangeInclusive};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use bits::job::InputFile;
use serde::{Deserialize, Serialize};

use super::{check_range, load_stages, load_starts, stats, Control, Error, Progress};
use crate::batch::{self, Rate};
use crate::multistage::{self, MultiStage};
use crate::ntuple::{self, Coherence, Meta, NTuple, Shape, TrainGame};
use crate::Board;

/// The learning rule (shared with the other game's networks).
pub use bits::learn::Method;

/// Training settings (`2048 train`). The files it continues from come in a [`TrainInput`].
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct TrainRequest {
    /// Training games to play in this run (at least 1).
    pub games: u64,
    /// Seed of the spawns (default: the `from` file's, else 1).
    pub seed: Option<u64>,
    /// Step size per weight (default: the `from` file's, else 0.0025; with TC the step at
    /// full coherence, default 1 / (8 x tuples)).
    pub alpha: Option<f32>,
    /// The step stated per value instead (the literature's form): `alpha` is this divided
    /// over the weights one value reads (8 x tuples). Not with `alpha`.
    pub alpha_per_value: Option<f32>,
    /// A [`TrainEvent::Checkpoint`] every this many games.
    pub checkpoint_every: Option<u64>,
    /// The stage to train: 1 (from the empty board), or 2 or 3 (a later stage of a
    /// multistage network, from start boards).
    pub stage: u8,
    /// The tuples (stage 1): cells 0..15 separated by `,`, tuples by `/` (default: the
    /// four 6-tuples, or the `from` file's).
    pub tuples: Option<String>,
    /// The learning rule (stage 1 only).
    pub method: Method,
    /// Optimistic initialisation (stage 1, not with `from`): every state starts worth V.
    pub init: Option<f32>,
    /// A [`TrainEvent::Window`] every this many games (at least 1).
    pub report_every: u64,
    /// Stop after the game in progress once this many seconds have passed.
    pub max_seconds: Option<u64>,
    /// With TC and `from`: start the accumulators afresh instead of reading `FILE.tc`, to
    /// fine-tune a TD network by TC (Guei, Chen and Wu 2022 train TD, then TC). The step is
    /// then `alpha` or TC's default, not the file's TD step.
    pub fresh_accumulators: bool,
}

impl Default for TrainRequest {
    fn default() -> Self {
        TrainRequest {
            games: 1000,
            seed: None,
            alpha: None,
            alpha_per_value: None,
            checkpoint_every: None,
            stage: 1,
            tuples: None,
            method: Method::Td,
            init: None,
            report_every: 1000,
            max_seconds: None,
            fresh_accumulators: false,
        }
    }
}

impl TrainRequest {
    /// The range of `games`.
    pub const GAMES: RangeFrom<u64> = 1..;
    /// The range of `checkpoint_every`.
    pub const CHECKPOINT_EVERY: RangeFrom<u64> = 1..;
    /// The range of `stage`.
    pub const STAGE: RangeInclusive<u8> = 1..=3;
    /// The range of `report_every`.
    pub const REPORT_EVERY: RangeFrom<u64> = 1..;

    /// Checks every field's range; the input error names the first field out of range.
    pub fn check(&self) -> Result<(), Error> {
        check_range("games", self.games, Self::GAMES)?;
        check_range("report_every", self.report_every, Self::REPORT_EVERY)?;
        if let Some(n) = self.checkpoint_every {
            check_range("checkpoint_every", n, Self::CHECKPOINT_EVERY)?;
        }
        check_range("stage", self.stage, Self::STAGE)?;
        if self.fresh_accumulators && (self.stage != 1 || self.method != Method::Tc) {
            return Err(Error::input(
                "fresh_accumulators: for method tc with from (a TD network), stage 1",
            ));
        }
        Ok(())
    }
}

/// The step per weight the request asks for, if any: `alpha`, or `alpha_per_value` divided
/// over the reads of one value of `shape` (8 x tuples).
fn asked_alpha(req: &TrainRequest, shape: &Shape) -> Result<Option<f32>, Error> {
    match (req.alpha, req.alpha_per_value) {
        (Some(_), Some(_)) => {
            Err(Error::input("alpha_per_value: give alpha or alpha_per_value, not both"))
        }
        (Some(a), None) => Ok(Some(a)),
        (None, Some(v)) if !(v.is_finite() && v > 0.0) => {
            Err(Error::input(format!("alpha_per_value: {v}, must be a positive number")))
        }
        (None, Some(v)) => Ok(Some(v / (8 * shape.tuples().len()) as f32)),
        (None, None) => Ok(None),
    }
}

/// The files a training run reads.
#[derive(Debug, Clone, Default)]
pub struct TrainInput {
    /// The weight file to continue from (stage 1: a one-network file; a later stage: a file
    /// of one stage less or of that many stages).
    pub from: Option<InputFile>,
    /// The TC accumulators beside `from` (`FILE.tc`): with TC, their bytes (or the read
    /// error); with TD, present only when such a file exists, so that it is noted as unused
    /// (its bytes are not needed).
    pub coherence: Option<InputFile>,
    /// The start boards of a later stage (the text of a `2048 starts` file).
    pub starts: Option<InputFile>,
}

/// The encoded files of a network in training.
#[derive(Debug, Clone, Default)]
pub struct TrainFiles {
    /// The weight file.
    pub weights: Vec<u8>,
    /// The TC accumulators (written beside the weights as `FILE.tc`), with TC.
    pub coherence: Option<Vec<u8>>,
}

/// A checkpoint: the files after `games` games (in all).
#[derive(Debug, Clone)]
pub struct Checkpoint {
    /// Games played in all.
    pub games: u64,
    /// The files to write.
    pub files: TrainFiles,
}

/// What a training run tells its caller as it goes.
#[derive(Debug)]
pub enum TrainEvent<'a> {
    /// A note for the user (a new alpha, an unused file), before the games start.
    Note(&'a str),
    /// A progress window ended.
    Window(&'a TrainWindow),
    /// A checkpoint to write (the run waits for it; an error stops the run).
    Checkpoint(&'a Checkpoint),
}

/// One progress window of a training run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TrainWindow {
    /// Games played in all at the end of the window.
    pub games: u64,
    /// Games in the window.
    pub window: u64,
    /// Mean score of the window's games.
    pub mean_score: f64,
    /// Best score of the window.
    pub max_score: u64,
    /// Share of the window's games that reached 2048.
    pub reach_2048: f64,
    /// Share that reached 8192.
    pub reach_8192: f64,
    /// Share that reached 16384.
    pub reach_16384: f64,
    /// Share that reached 32768.
    pub reach_32768: f64,
    /// Mean moves per game.
    pub mean_moves: f64,
    /// Games per second in the window.
    pub games_per_second: f64,
    /// Moves per second in the window.
    pub moves_per_second: f64,
}

/// The outcome of [`train`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TrainResponse {
    /// The stage trained.
    pub stage: u8,
    /// The start file and its board count (later stages).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub starts: Option<String>,
    /// The tuples.
    pub shape: String,
    /// The learning rule.
    pub method: Method,
    /// The seed.
    pub seed: u64,
    /// The step size (the file records it).
    pub alpha: f32,
    /// The optimistic initial value (0: none).
    pub init: f32,
    /// The first game of this run (the `from` file's count).
    pub first_game: u64,
    /// Games played in this run.
    pub games_played: u64,
    /// Games in all (the file's count).
    pub games_total: u64,
    /// Whether `max_seconds` stopped the run.
    pub stopped_by_clock: bool,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Moves played in this run.
    pub moves: u64,
    /// The network's fingerprint (hex).
    pub fingerprint: String,
    /// The progress windows.
    pub curve: Vec<TrainWindow>,
    /// Weights per stage (not serialised).
    #[serde(skip)]
    pub weights: usize,
    /// Stages of the network (not serialised).
    #[serde(skip)]
    pub stages: usize,
    /// The files to write at the end (not serialised).
    #[serde(skip)]
    pub files: TrainFiles,
}

/// Trains (see the CLI's `2048 train --help` for the rules). `events` receives the notes,
/// the windows and the checkpoints in order; the final files are in the response. Checks the
/// abort flag every game.
pub fn train(
    req: &TrainRequest,
    input: TrainInput,
    ctl: Control,
    events: &mut dyn FnMut(TrainEvent<'_>) -> Result<(), Error>,
) -> Result<TrainResponse, Error> {
    req.check()?;
    match req.stage {
        1 => train_first(req, input, ctl, events),
        _ => train_stage(req, input, ctl, events),
    }
}

/// The file's name and contents, or its read error (an input file's error is reported when the
/// verb gets to that file, so errors come in the order of its checks).
fn take(f: InputFile) -> Result<(String, Vec<u8>), Error> {
    let bytes = f.contents()?.to_vec();
    Ok((f.name, bytes))
}

/// [`take`] for a text file.
fn take_text(f: InputFile) -> Result<(String, String), Error> {
    let text = f.text()?.to_string();
    Ok((f.name, text))
}

/// A stage-1 network in training: its weights and, for TC, its accumulators.
struct Trainee {
    net: NTuple,
    acc: Option<Coherence>,
}

impl Trainee {
    fn files(&self, meta: &Meta) -> TrainFiles {
        TrainFiles {
            weights: ntuple::encode(&self.net, meta),
            coherence: self
                .acc
                .as_ref()
                .map(|acc| ntuple::encode_coherence(acc, meta.games, self.net.fingerprint())),
        }
    }
}

fn train_first(
    req: &TrainRequest,
    input: TrainInput,
    ctl: Control,
    events: &mut dyn FnMut(TrainEvent<'_>) -> Result<(), Error>,
) -> Result<TrainResponse, Error> {
    if input.starts.is_some() {
        return Err(Error::input("starts: only for stage 2 or 3"));
    }
    let (net, from) = match input.from {
        Some(f) => {
            let (name, bytes) = take(f)?;
            let (net, meta) =
                ntuple::decode(&bytes).map_err(|e| Error::input(format!("{name}: {e}")))?;
            (Some(net), Some((name, meta)))
        }
        None => (None, None),
    };
    let shape = match &req.tuples {
        Some(t) => t.parse::<Shape>().map_err(|e| Error::input(format!("tuples: {t:?}, {e}")))?,
        None => net.as_ref().map_or_else(Shape::default_6tuples, |n| n.shape().clone()),
    };
    if let (Some(n), Some((name, _))) = (&net, &from) {
        ntuple::expect_shape(n, &shape).map_err(|e| Error::input(format!("{name}: {e}")))?;
    }
    if req.init.is_some() && from.is_some() {
        return Err(Error::input("init: sets new weights; with from they come from the file"));
    }
    let init = req.init.unwrap_or(0.0);
    if !init.is_finite() {
        return Err(Error::input(format!("init: {init}, must be a finite number")));
    }
    let tc = req.method == Method::Tc;
    // TC's default is Jaskowski's beta = 1 per value: 1 / (8 x tuples) per weight.
    let default_alpha = if tc { 1.0 / (8 * shape.tuples().len()) as f32 } else { 0.0025 };
    let from_meta = from.as_ref().map(|(_, m)| *m);
    let seed = req.seed.or(from_meta.map(|m| m.seed)).unwrap_or(1);
    let asked = asked_alpha(req, &shape)?;
    let fresh = req.fresh_accumulators;
    if fresh && !(tc && from.is_some()) {
        return Err(Error::input("fresh_accumulators: for method tc with from (a TD network)"));
    }
    // A TD file's step is not a TC step: fresh accumulators start at TC's own.
    let file_alpha = from_meta.map(|m| m.alpha).filter(|_| !fresh);
    let alpha = asked.or(file_alpha).unwrap_or(default_alpha);
    if let Some((name, m)) = &from {
        if m.seed != seed {
            return Err(Error::input(format!(
                "{name}: trained with seed {}; continue with the same seed (got {seed})",
                m.seed
            )));
        }
        if m.alpha != alpha && !fresh {
            // A step-size schedule: the file will record the last alpha, so the weights are
            // reproduced by the chain of commands, not by one.
            events(TrainEvent::Note(&format!(
                "note: {name} was trained with alpha {}; continuing with alpha {alpha}",
                m.alpha
            )))?;
        }
    }
    if !(alpha > 0.0 && alpha <= 1.0) {
        return Err(Error::input(format!("alpha: {alpha}, must be in (0, 1]")));
    }
    let net = net.unwrap_or_else(|| {
        if init == 0.0 {
            NTuple::new(shape.clone())
        } else {
            NTuple::optimistic(shape.clone(), init)
        }
    });
    let first = from_meta.map_or(0, |m| m.games);
    let acc = match (from.is_some(), tc, input.coherence) {
        (true, true, _) if fresh => {
            events(TrainEvent::Note(&format!(
                "note: TC from the weights of {} with fresh accumulators, beta {alpha}",
                from.as_ref().map_or("", |(n, _)| n.as_str())
            )))?;
            Some(Coherence::new(&shape))
        }
        (true, true, Some(c)) => {
            let (name, bytes) = take(c)?;
            Some(
                ntuple::decode_coherence(&bytes, &net, first)
                    .map_err(|e| Error::input(format!("{name}: {e}")))?,
            )
        }
        (true, true, None) => {
            return Err(Error::input(format!(
                "{}.tc: no accumulators (method tc continues from the weights and their \
                 accumulators; to fine-tune a TD network by TC, ask for fresh accumulators)",
                from.as_ref().map_or("", |(n, _)| n.as_str())
            )))
        }
        (false, true, _) => Some(Coherence::new(&shape)),
        (true, false, Some(c)) => {
            // A TC run's file records its beta (1/32 per weight by default): as a TD step
            // that moves a value by its whole error at every visit, and training diverges.
            if asked.is_none() {
                return Err(Error::input(format!(
                    "method: {} has TC accumulators ({}), so it was trained by temporal \
                     coherence; continue with method tc, or give alpha for a TD step",
                    from.as_ref().map_or("", |(n, _)| n.as_str()),
                    c.name
                )));
            }
            events(TrainEvent::Note(&format!(
                "note: {} (TC accumulators) is not used by method td",
                c.name
            )))?;
            None
        }
        (_, false, _) => None,
    };
    let mut trainee = Trainee { net, acc };
    let start = Instant::now();
    let run = training_loop(
        req,
        first,
        &mut trainee,
        |t, index| {
            let seed = bits::rng::sub_seed(seed, index);
            match &mut t.acc {
                Some(acc) => ntuple::train_game_tc(&mut t.net, acc, seed, alpha),
                None => ntuple::train_game(&mut t.net, seed, alpha),
            }
        },
        |t, games| t.files(&Meta { games, seed, alpha }),
        ctl,
        events,
    )?;
    let meta = Meta { games: first + run.played, seed, alpha };
    Ok(TrainResponse {
        stage: 1,
        starts: None,
        shape: shape.to_string(),
        method: req.method,
        seed,
        alpha,
        init,
        first_game: first,
        games_played: run.played,
        games_total: meta.games,
        stopped_by_clock: run.stopped_by_clock,
        seconds: start.elapsed().as_secs_f64(),
        moves: run.moves,
        fingerprint: format!("{:016x}", trainee.net.fingerprint()),
        curve: run.curve,
        weights: shape.weights(),
        stages: 1,
        files: trainee.files(&meta),
    })
}

/// What [`training_loop`] did.
struct Run {
    played: u64,
    moves: u64,
    stopped_by_clock: bool,
    curve: Vec<TrainWindow>,
}

/// The training loop shared by the stages: plays games `first..first + req.games` (game
/// `index` by `play(net, index)`), sends a window every `report_every` games and a
/// checkpoint (`files(net, games)`) every `checkpoint_every`, and stops early on
/// `max_seconds`; the caller makes the final files.
fn training_loop<N>(
    req: &TrainRequest,
    first: u64,
    net: &mut N,
    mut play: impl FnMut(&mut N, u64) -> TrainGame,
    files: impl Fn(&N, u64) -> TrainFiles,
    ctl: Control,
    events: &mut dyn FnMut(TrainEvent<'_>) -> Result<(), Error>,
) -> Result<Run, Error> {
    let start = Instant::now();
    let mut curve = Vec::new();
    let mut window: Vec<TrainGame> = Vec::with_capacity(req.report_every.min(1 << 20) as usize);
    let mut window_start = Instant::now();
    let mut moves = 0u64;
    let mut played = 0u64;
    let mut stopped_by_clock = false;
    while played < req.games {
        ctl.check()?;
        let g = play(net, first + played);
        played += 1;
        moves += g.moves;
        window.push(g);
        ctl.report(Progress::new(played, Some(req.games)));
        let over_time = req.max_seconds.is_some_and(|s| start.elapsed().as_secs() >= s);
        if window.len() as u64 == req.report_every || played == req.games || over_time {
            let w = summarize_window(first + played, &window, window_start.elapsed().as_secs_f64());
            events(TrainEvent::Window(&w))?;
            curve.push(w);
            window.clear();
            window_start = Instant::now();
        }
        let games = first + played;
        if req.checkpoint_every.is_some_and(|n| played % n == 0) && played < req.games && !over_time
        {
            events(TrainEvent::Checkpoint(&Checkpoint { games, files: files(net, games) }))?;
        }
        if over_time {
            stopped_by_clock = true;
            break;
        }
    }
    Ok(Run { played, moves, stopped_by_clock, curve })
}

fn summarize_window(games: u64, w: &[TrainGame], secs: f64) -> TrainWindow {
    let n = w.len().max(1) as f64;
    let reach = |t: u32| w.iter().filter(|g| g.max_tile >= t).count() as f64 / n;
    let moves: u64 = w.iter().map(|g| g.moves).sum();
    TrainWindow {
        games,
        window: w.len() as u64,
        mean_score: w.iter().map(|g| g.score as f64).sum::<f64>() / n,
        max_score: w.iter().map(|g| g.score).max().unwrap_or(0),
        reach_2048: reach(2048),
        reach_8192: reach(8192),
        reach_16384: reach(16384),
        reach_32768: reach(32768),
        mean_moves: moves as f64 / n,
        games_per_second: w.len() as f64 / secs.max(1e-9),
        moves_per_second: moves as f64 / secs.max(1e-9),
    }
}

/// `train` with stage 2 or 3: one stage of a multistage network, from start boards.
fn train_stage(
    req: &TrainRequest,
    input: TrainInput,
    ctl: Control,
    events: &mut dyn FnMut(TrainEvent<'_>) -> Result<(), Error>,
) -> Result<TrainResponse, Error> {
    let stage = usize::from(req.stage) - 1;
    let (Some(from), Some(starts)) = (input.from, input.starts) else {
        return Err(Error::input(format!(
            "stage: {}, needs from (the earlier stages) and starts (the start boards)",
            req.stage
        )));
    };
    if req.tuples.is_some() {
        return Err(Error::input("tuples: a later stage has the shape of the from file"));
    }
    if req.method != Method::Td || req.init.is_some() {
        return Err(Error::input("method tc and init are for stage 1"));
    }
    let (from_name, bytes) = take(from)?;
    let (mut net, mut metas) = load_stages(&from_name, &bytes)?;
    drop(bytes);
    let asked = asked_alpha(req, net.stage(0).shape())?;
    let (starts_name, text) = take_text(starts)?;
    let starts = load_starts(&starts_name, &text)?;
    if net.count() == stage {
        // Warm start: the new stage begins as a copy of the last one.
        net.push_copy();
        metas.push(Meta { games: 0, seed: req.seed.unwrap_or(1), alpha: asked.unwrap_or(0.0025) });
    } else if net.count() != stage + 1 {
        return Err(Error::input(format!(
            "{from_name}: has {} stage(s); stage {} continues a file of {} or {} stages",
            net.count(),
            req.stage,
            stage,
            stage + 1
        )));
    }
    let m = metas[stage];
    let seed = req.seed.unwrap_or(m.seed);
    let alpha = asked.unwrap_or(m.alpha);
    if seed != m.seed {
        return Err(Error::input(format!(
            "{from_name}: stage {} trained with seed {}; continue with the same seed (got {seed})",
            req.stage, m.seed
        )));
    }
    if !(alpha > 0.0 && alpha <= 1.0) {
        return Err(Error::input(format!("alpha: {alpha}, must be in (0, 1]")));
    }
    let first = m.games;
    let start = Instant::now();
    let files = |net: &MultiStage, metas: &[Meta], games: u64| {
        let mut metas = metas.to_vec();
        metas[stage] = Meta { games, seed, alpha };
        TrainFiles { weights: ntuple::encode_stages(net, &metas), coherence: None }
    };
    let run = training_loop(
        req,
        first,
        &mut net,
        |net, index| {
            multistage::train_stage_game(
                net,
                stage,
                &starts,
                bits::rng::sub_seed(seed, index),
                alpha,
            )
        },
        |net, games| files(net, &metas, games),
        ctl,
        events,
    )?;
    metas[stage] = Meta { games: first + run.played, seed, alpha };
    Ok(TrainResponse {
        stage: req.stage,
        starts: Some(format!("{starts_name} ({} boards)", starts.len())),
        shape: net.stage(0).shape().to_string(),
        method: Method::Td,
        seed,
        alpha,
        init: 0.0,
        first_game: first,
        games_played: run.played,
        games_total: first + run.played,
        stopped_by_clock: run.stopped_by_clock,
        seconds: start.elapsed().as_secs_f64(),
        moves: run.moves,
        fingerprint: format!("{:016x}", net.fingerprint()),
        curve: run.curve,
        weights: net.stage(0).shape().weights(),
        stages: net.count(),
        files: files(&net, &metas, first + run.played),
    })
}

/// Start boards for a later stage's training (`2048 starts`): seeded greedy 1-ply games on
/// a network, each game's first afterstate of the stage.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct StartsRequest {
    /// Games to play ([`StartsRequest::GAMES`]); game `i` uses spawn seed
    /// `sub_seed(seed, i)`.
    pub games: u64,
    /// The stage whose first afterstate is collected ([`StartsRequest::STAGE`]).
    pub stage: u8,
    /// The master seed.
    pub seed: u64,
    /// The network's name (its file), written in the start file's comment.
    pub ntuple: String,
    /// The network that plays (not serialised: see [`super::load_network`]).
    #[serde(skip)]
    pub network: Option<Arc<MultiStage>>,
}

impl Default for StartsRequest {
    fn default() -> Self {
        StartsRequest { games: 1000, stage: 2, seed: 1, ntuple: String::new(), network: None }
    }
}

impl StartsRequest {
    /// The range of `games`.
    pub const GAMES: RangeInclusive<u64> = 1..=100_000_000;
    /// The range of `stage`.
    pub const STAGE: RangeInclusive<u8> = 2..=3;

    /// Checks every field's range; the input error names the first field out of range.
    pub fn check(&self) -> Result<(), Error> {
        check_range("games", self.games, Self::GAMES)?;
        check_range("stage", self.stage, Self::STAGE)
    }
}

/// The outcome of [`starts`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StartsResponse {
    /// Games played.
    pub games: u64,
    /// Games that reached the stage (boards found).
    pub starts: u64,
    /// Their share.
    pub rate: f64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The stage whose first afterstates were collected (not serialised).
    #[serde(skip)]
    pub stage: u8,
    /// The boards, in game order (not serialised).
    #[serde(skip)]
    pub boards: Vec<Board>,
    /// The start file's text: a comment line, then one board per line (not serialised).
    #[serde(skip)]
    pub text: String,
}

/// Plays the games (in the current rayon pool; the same boards for any thread count),
/// one progress unit per game, checking the abort flag between games.
pub fn starts(req: &StartsRequest, ctl: Control) -> Result<StartsResponse, Error> {
    use rayon::prelude::*;
    let net = req.network.as_deref().ok_or_else(|| Error::input("starts: no network"))?;
    req.check()?;
    let stages = usize::from(req.stage);
    let seed = req.seed;
    let start = Instant::now();
    let done = AtomicU64::new(0);
    // Only the boards found are kept, in game order (a game that reaches none keeps
    // nothing, so memory follows the boards, not the games asked for).
    let boards: Vec<Board> = (0..req.games)
        .into_par_iter()
        .map(|i| {
            ctl.check()?;
            let b =
                multistage::first_reaching(net, bits::rng::sub_seed(seed, i), stages, stages - 1);
            let d = done.fetch_add(1, Ordering::Relaxed) + 1;
            ctl.report(Progress::new(d, Some(req.games)));
            Ok(b)
        })
        .filter_map(Result::transpose)
        .collect::<Result<Vec<Board>, Error>>()?;
    let comment = format!(
        "2048 starts (ntuple {}, games {}, stage {}, seed {seed}): {} boards",
        req.ntuple,
        req.games,
        req.stage,
        boards.len()
    );
    Ok(StartsResponse {
        games: req.games,
        starts: boards.len() as u64,
        rate: boards.len() as f64 / req.games as f64,
        seconds: start.elapsed().as_secs_f64(),
        stage: req.stage,
        text: multistage::format_starts(&comment, &boards),
        boards,
    })
}

/// Greedy 1-ply games from start boards, no learning (`2048 from-starts`).
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct FromStartsRequest {
    /// The start file's name (echoed in the response).
    pub starts: String,
    /// The network's name (echoed in the response).
    pub ntuple: String,
    /// The master seed: game `i` uses spawn seed `sub_seed(seed, i)`.
    pub seed: u64,
    /// The start boards (see [`super::load_starts`]; not serialised).
    #[serde(skip)]
    pub boards: Vec<Board>,
    /// The network that plays (not serialised: see [`super::load_network`]).
    #[serde(skip)]
    pub network: Option<Arc<MultiStage>>,
}

/// One game of [`from_starts`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FromStartsGame {
    /// Its score (this game's merges only).
    pub score: u64,
    /// Moves played.
    pub moves: u64,
    /// Largest tile.
    pub max_tile: u32,
}

/// The outcome of [`from_starts`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FromStartsResponse {
    /// The start file's name.
    pub starts: String,
    /// The network's name.
    pub ntuple: String,
    /// Stages of the network.
    pub stages: usize,
    /// The master seed.
    pub seed: u64,
    /// Games played (one per start board).
    pub games: u64,
    /// Average score.
    pub average: f64,
    /// Half-width of its 95% normal interval.
    pub average_ci95: f64,
    /// Reach rate of 32768 with its Wilson interval.
    pub reach_32768: Rate,
    /// Reach rate of 65536 with its Wilson interval.
    pub reach_65536: Rate,
    /// Moves in all.
    pub moves: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Every game, in start order.
    pub game_list: Vec<FromStartsGame>,
}

/// Plays game `i` from board `i` (in the current rayon pool; the same games for any thread
/// count), checking the abort flag between games.
pub fn from_starts(req: &FromStartsRequest, ctl: Control) -> Result<FromStartsResponse, Error> {
    use rayon::prelude::*;
    let net = req.network.as_deref().ok_or_else(|| Error::input("from-starts: no network"))?;
    if req.boards.is_empty() {
        return Err(Error::input(format!("{}: line 0: no boards", req.starts)));
    }
    let seed = req.seed;
    let start = Instant::now();
    let done = AtomicU64::new(0);
    let total = req.boards.len() as u64;
    let games: Vec<Result<TrainGame, Error>> = req
        .boards
        .par_iter()
        .enumerate()
        .map(|(i, &b)| {
            ctl.check()?;
            let g = multistage::play_from(net, b, bits::rng::sub_seed(seed, i as u64));
            let d = done.fetch_add(1, Ordering::Relaxed) + 1;
            ctl.report(Progress::new(d, Some(total)));
            Ok(g)
        })
        .collect();
    let games: Vec<TrainGame> = games.into_iter().collect::<Result<_, _>>()?;
    let n = games.len() as f64;
    let scores: Vec<f64> = games.iter().map(|g| g.score as f64).collect();
    let (avg, ci) = stats::mean_ci95(&scores);
    let rate = |tile: u32| {
        let count = games.iter().filter(|g| g.max_tile >= tile).count() as u64;
        let (low, high) = batch::wilson(count, games.len() as u64);
        Rate { tile, count, rate: count as f64 / n, low, high }
    };
    Ok(FromStartsResponse {
        starts: req.starts.clone(),
        ntuple: req.ntuple.clone(),
        stages: net.count(),
        seed,
        games: games.len() as u64,
        average: avg,
        average_ci95: ci,
        reach_32768: rate(32768),
        reach_65536: rate(65536),
        moves: games.iter().map(|g| g.moves).sum(),
        seconds: start.elapsed().as_secs_f64(),
        game_list: games
            .iter()
            .map(|g| FromStartsGame { score: g.score, moves: g.moves, max_tile: g.max_tile })
            .collect(),
    })
}
