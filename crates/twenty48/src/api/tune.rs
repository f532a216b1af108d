//! `tune`: the heuristic weights by a seeded evolution strategy (see [`crate::tune`]).

use std::ops::{RangeFrom, RangeInclusive};

use serde::{Deserialize, Serialize};

use super::{check_range, Control, Error, Progress, SearchSpec};
use crate::search::{Depth, Params, SearchConfig};
use crate::tune::{self as es, Generation, GradientConfig, GradientGeneration, TuneConfig};

/// The selection rule of [`tune`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TuneMethod {
    /// (1+lambda) selection: a child replaces the parent when its average is higher.
    #[default]
    Plus,
    /// Antithetic evolution-strategy gradient over lambda pairs of candidates.
    Gradient,
}

/// A tuning run (`2048 tune`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct TuneRequest {
    /// Generations (at least 1).
    pub generations: u32,
    /// Children (plus) or antithetic pairs (gradient) per generation (at least 1).
    pub lambda: u32,
    /// Games per candidate per generation (at least 1).
    pub games: u64,
    /// Mutation step size, in (0, 5].
    pub sigma: f64,
    /// Fixed search depth of the tuning games (without `budget`; [`TuneRequest::DEPTH`]).
    pub depth: u8,
    /// Play the tuning games under the node-budget rule instead of a fixed depth (at least 1).
    pub budget: Option<u64>,
    /// Smallest depth of the budget rule ([`TuneRequest::MIN_DEPTH`]).
    pub min_depth: u8,
    /// log2 of the transposition table's entries in the tuning games
    /// ([`TuneRequest::TT_BITS`]).
    pub tt_bits: u8,
    /// The selection rule.
    pub method: TuneMethod,
    /// Gradient method: step size, in (0, 100].
    pub rate: f64,
    /// Gradient method: largest move of one coordinate per generation, in (0, 5].
    pub max_step: f64,
    /// Move cap of the tuning games.
    pub max_moves: u64,
    /// Starting weights (default: nneonneo/2048-ai's published weights).
    pub start: Option<Params>,
    /// The master seed.
    pub seed: u64,
}

impl Default for TuneRequest {
    fn default() -> Self {
        TuneRequest {
            generations: 6,
            lambda: 3,
            games: 8,
            sigma: 0.25,
            depth: 2,
            budget: None,
            min_depth: 2,
            tt_bits: 18,
            method: TuneMethod::Plus,
            rate: 1.0,
            max_step: 0.25,
            max_moves: 1_000_000,
            start: None,
            seed: 1,
        }
    }
}

impl TuneRequest {
    /// The range of `depth`.
    pub const DEPTH: RangeInclusive<u8> = 1..=8;
    /// The range of `min_depth` (the search's depths).
    pub const MIN_DEPTH: RangeInclusive<u8> = SearchSpec::DEPTH;
    /// The range of `tt_bits` (the search's).
    pub const TT_BITS: RangeInclusive<u8> = SearchSpec::TT_BITS;
    /// The range of `budget`.
    pub const BUDGET: RangeFrom<u64> = SearchSpec::BUDGET;

    /// Checks every field's range; the input error names the first field out of range.
    pub fn check(&self) -> Result<(), Error> {
        check_range("generations", self.generations, 1..)?;
        check_range("lambda", self.lambda, 1..)?;
        check_range("games", self.games, 1..)?;
        if !(self.sigma > 0.0 && self.sigma <= 5.0) {
            return Err(Error::input(format!("sigma: {}, must be in (0, 5]", self.sigma)));
        }
        if !(self.rate > 0.0 && self.rate <= 100.0) {
            return Err(Error::input(format!("rate: {}, must be in (0, 100]", self.rate)));
        }
        if !(self.max_step > 0.0 && self.max_step <= 5.0) {
            return Err(Error::input(format!("max_step: {}, must be in (0, 5]", self.max_step)));
        }
        check_range("depth", self.depth, Self::DEPTH)?;
        if let Some(nodes) = self.budget {
            check_range("budget", nodes, Self::BUDGET)?;
        }
        check_range("min_depth", self.min_depth, Self::MIN_DEPTH)?;
        check_range("tt_bits", self.tt_bits, Self::TT_BITS)
    }
}

/// One finished generation, as [`tune`] reports it to its callback.
#[derive(Debug, Clone, Copy)]
pub enum TuneGeneration<'a> {
    /// A generation of the (1+lambda) rule.
    Plus(&'a Generation),
    /// A generation of the gradient rule.
    Gradient(&'a GradientGeneration),
}

/// The outcome of [`tune`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TuneResponse {
    /// The selection rule.
    pub method: TuneMethod,
    /// The tuner's settings.
    pub config: TuneConfig,
    /// The gradient settings (gradient method).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gradient: Option<GradientConfig>,
    /// The starting weights.
    pub start: Params,
    /// Every generation (plus method).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub generations: Vec<Generation>,
    /// Every generation (gradient method).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gradient_generations: Vec<GradientGeneration>,
    /// The final weights.
    pub params: Params,
}

/// Tunes (in the current rayon pool; the same run for any thread count), calling
/// `each` after every generation; stops within milliseconds of the abort flag.
pub fn tune(
    req: &TuneRequest,
    ctl: Control,
    each: &mut dyn FnMut(TuneGeneration<'_>),
) -> Result<TuneResponse, Error> {
    req.check()?;
    let depth = match req.budget {
        Some(nodes) => Depth::Budget { nodes, min: req.min_depth, max: 16 },
        None => Depth::Fixed(req.depth),
    };
    let cfg = TuneConfig {
        generations: req.generations,
        lambda: req.lambda,
        games: req.games,
        sigma: req.sigma,
        search: SearchConfig { depth, tt_bits: req.tt_bits, ..Default::default() },
        max_moves: req.max_moves,
        seed: req.seed,
    };
    let start = req.start.unwrap_or(Params::NNEONNEO);
    let total = Some(u64::from(req.generations));
    let mut res = TuneResponse {
        method: req.method,
        config: cfg,
        gradient: None,
        start,
        generations: Vec::new(),
        gradient_generations: Vec::new(),
        params: start,
    };
    let stop = ctl.abort_flag();
    let params = match req.method {
        TuneMethod::Plus => es::tune_until(start, &cfg, stop, |g| {
            each(TuneGeneration::Plus(g));
            ctl.report(Progress::new(u64::from(g.generation) + 1, total));
            res.generations.push(g.clone());
        }),
        TuneMethod::Gradient => {
            let grad = GradientConfig { rate: req.rate, max_step: req.max_step };
            res.gradient = Some(grad);
            es::tune_gradient_until(start, &cfg, &grad, stop, |g| {
                each(TuneGeneration::Gradient(g));
                ctl.report(Progress::new(u64::from(g.generation) + 1, total));
                res.gradient_generations.push(g.clone());
            })
        }
    };
    res.params = params.ok_or(Error::Aborted)?;
    Ok(res)
}
