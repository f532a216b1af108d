//! Tuning the heuristic weights by a seeded (1+λ) evolution strategy.
//!
//! Each generation `g` draws `λ` children of the current parent by log-normal mutation: every
//! weight is multiplied by `exp(σ · N(0,1))`, every exponent (`mono_power`, `sum_power`) gets
//! `σ · N(0,1)` added, and `base` is left alone (it only shifts values). The normals come from
//! [`bits::Rng`] seeded with `sub_seed(seed, g)` by the Box-Muller transform. The parent and
//! the children then play the same `games` games (spawn seeds `sub_seed(seed ^ GAMES, g *
//! games + j)`: fresh games every generation, common to all candidates, so a child must beat
//! its parent on the games of the day rather than on one memorised set). A child replaces the
//! parent when its average score is higher. Everything is deterministic for a seed and any
//! thread count.
//!
//! [`tune_gradient`] is a second method for noisy settings: an antithetic evolution-strategy
//! gradient (the "natural evolution strategies" estimator). The weights live in a vector
//! `θ` (the two exponents as they are, the four weights as logarithms). Each generation draws
//! `λ` directions `ε_i ~ N(0, I)`; the candidates `θ + σ ε_i` and `θ − σ ε_i` all play the
//! same `games` fresh games; the relative score gradient is estimated as `Σ_i (f⁺_i − f⁻_i)
//! ε_i / (2 λ σ f̄)` (`f̄` the generation's mean score) and `θ` moves by `rate` times it, each
//! coordinate clipped to `±max_step`. Every game of every candidate feeds the estimate, and
//! the mean `θ` is never chosen as the best of many noisy scores, so it does not select noise
//! the way a best-of-λ rule does when the games are far noisier than the differences between
//! candidates.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::batch::GameResult;
use crate::search::{Heuristic, Params, SearchConfig, Searcher};

/// Tuner settings.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct TuneConfig {
    /// Generations.
    pub generations: u32,
    /// Children per generation.
    pub lambda: u32,
    /// Games per candidate per generation.
    pub games: u64,
    /// Mutation step size.
    pub sigma: f64,
    /// Search setting of the games.
    pub search: SearchConfig,
    /// Move cap per game.
    pub max_moves: u64,
    /// Master seed.
    pub seed: u64,
}

/// One generation's outcome.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Generation {
    /// Generation number.
    pub generation: u32,
    /// The parent's average score on this generation's games.
    pub parent_score: f64,
    /// The children's average scores.
    pub child_scores: Vec<f64>,
    /// Whether a child replaced the parent.
    pub improved: bool,
    /// The parent after this generation.
    pub params: Params,
}

const GAMES: u64 = 0x6A6D_6573;

fn normal(rng: &mut bits::Rng) -> f64 {
    let u1 = 1.0 - rng.unit_f64();
    let u2 = rng.unit_f64();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// A mutated copy of `p`; see the [module docs](self).
pub fn mutate(p: Params, sigma: f64, rng: &mut bits::Rng) -> Params {
    let mut a = p.to_array();
    for (i, v) in a.iter_mut().enumerate() {
        let z = normal(rng) * sigma;
        match i {
            0 => {}
            1 | 3 => *v = (*v + z as f32).clamp(1.0, 6.0),
            _ => *v = (*v as f64 * z.exp()) as f32,
        }
    }
    Params::from_array(a)
}

/// The average score of `params` on the given game seeds.
pub fn average_score(params: Params, cfg: &TuneConfig, seeds: &[u64]) -> f64 {
    average_score_until(params, cfg, seeds, None)
}

/// Whether the flag (if any) is set.
fn stopped(stop: Option<&AtomicBool>) -> bool {
    stop.is_some_and(|f| f.load(Ordering::Relaxed))
}

/// The expectimax player that resigns once the flag is set (its search stops within
/// microseconds of it); without a flag, [`crate::search::SearchPlayer`].
struct Stoppable<'h> {
    searcher: Searcher<'h>,
    stop: Option<&'h AtomicBool>,
}

impl crate::game::Player for Stoppable<'_> {
    fn choose(&mut self, board: crate::Board) -> Option<crate::Dir> {
        if stopped(self.stop) {
            return None;
        }
        self.searcher.best_move(board).map(|c| c.dir)
    }
}

/// [`average_score`], its games cut short once `stop` is set (the average is then
/// meaningless: the caller checks the flag).
fn average_score_until(
    params: Params,
    cfg: &TuneConfig,
    seeds: &[u64],
    stop: Option<&AtomicBool>,
) -> f64 {
    let h = Heuristic::new(params);
    let total: u64 = seeds
        .par_iter()
        .enumerate()
        .map(|(i, &s)| {
            let searcher = Searcher::new(&h, cfg.search).with_abort(stop);
            let mut player = Stoppable { searcher, stop };
            let g = crate::game::play_game(s, &mut player, cfg.max_moves);
            GameResult::from_game(i as u64, &g, player.searcher.nodes(), false).score
        })
        .sum();
    total as f64 / seeds.len().max(1) as f64
}

/// Settings of [`tune_gradient`] beyond [`TuneConfig`] (whose `lambda` is the number of
/// antithetic pairs there).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct GradientConfig {
    /// Step: `θ` moves by `rate` times the estimated relative-score gradient.
    pub rate: f64,
    /// Largest move of one coordinate of `θ` per generation.
    pub max_step: f64,
}

/// One generation of [`tune_gradient`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GradientGeneration {
    /// Generation number.
    pub generation: u32,
    /// Mean score of all candidates on this generation's games.
    pub mean_score: f64,
    /// Average scores of the `+` candidates.
    pub plus_scores: Vec<f64>,
    /// Average scores of the `−` candidates.
    pub minus_scores: Vec<f64>,
    /// Estimated relative-score gradient in `θ` (see [`to_theta`]).
    pub gradient: [f64; 6],
    /// The move of `θ` this generation (after clipping).
    pub step: [f64; 6],
    /// The weights after this generation.
    pub params: Params,
}

/// The tuning coordinates of `p`: `[mono_power, ln mono_weight, sum_power, ln sum_weight, ln
/// merges_weight, ln empty_weight]` (`base` is not tuned).
pub fn to_theta(p: Params) -> [f64; 6] {
    let ln = |w: f32| f64::from(w.max(1e-6)).ln();
    [
        f64::from(p.mono_power),
        ln(p.mono_weight),
        f64::from(p.sum_power),
        ln(p.sum_weight),
        ln(p.merges_weight),
        ln(p.empty_weight),
    ]
}

/// The weights at `theta` with `base` taken from `like`; exponents clamped to `[1, 6]`.
pub fn from_theta(theta: [f64; 6], like: Params) -> Params {
    let pow = |x: f64| x.clamp(1.0, 6.0) as f32;
    let w = |x: f64| x.exp() as f32;
    Params {
        base: like.base,
        mono_power: pow(theta[0]),
        mono_weight: w(theta[1]),
        sum_power: pow(theta[2]),
        sum_weight: w(theta[3]),
        merges_weight: w(theta[4]),
        empty_weight: w(theta[5]),
    }
}

fn generation_seeds(cfg: &TuneConfig, g: u32) -> Vec<u64> {
    (0..cfg.games)
        .map(|j| bits::rng::sub_seed(cfg.seed ^ GAMES, u64::from(g) * cfg.games + j))
        .collect()
}

/// Runs the antithetic gradient tuner from `start` (see the [module docs](self)), calling
/// `each` after every generation; returns the final weights.
pub fn tune_gradient(
    start: Params,
    cfg: &TuneConfig,
    grad: &GradientConfig,
    each: impl FnMut(&GradientGeneration),
) -> Params {
    tune_gradient_until(start, cfg, grad, None, each).unwrap_or(start)
}

/// [`tune_gradient`] that stops once `stop` is set: `None` then (within milliseconds).
pub fn tune_gradient_until(
    start: Params,
    cfg: &TuneConfig,
    grad: &GradientConfig,
    stop: Option<&AtomicBool>,
    mut each: impl FnMut(&GradientGeneration),
) -> Option<Params> {
    let mut theta = to_theta(start);
    let mut params = start;
    for g in 0..cfg.generations {
        let mut rng = bits::Rng::new(bits::rng::sub_seed(cfg.seed, u64::from(g)));
        let seeds = generation_seeds(cfg, g);
        let dirs: Vec<[f64; 6]> =
            (0..cfg.lambda).map(|_| std::array::from_fn(|_| normal(&mut rng))).collect();
        let at = |e: &[f64; 6], sign: f64| {
            from_theta(std::array::from_fn(|k| theta[k] + sign * cfg.sigma * e[k]), start)
        };
        let score = |p: Params| average_score_until(p, cfg, &seeds, stop);
        let plus: Vec<f64> = dirs.iter().map(|e| score(at(e, 1.0))).collect();
        let minus: Vec<f64> = dirs.iter().map(|e| score(at(e, -1.0))).collect();
        if stopped(stop) {
            return None;
        }
        let n = dirs.len().max(1) as f64;
        let mean_score = (plus.iter().sum::<f64>() + minus.iter().sum::<f64>()) / (2.0 * n);
        let mut gradient = [0.0; 6];
        if mean_score > 0.0 {
            for ((e, p), m) in dirs.iter().zip(&plus).zip(&minus) {
                let d = (p - m) / mean_score;
                for k in 0..6 {
                    gradient[k] += d * e[k] / (2.0 * n * cfg.sigma);
                }
            }
        }
        let step: [f64; 6] =
            std::array::from_fn(|k| (grad.rate * gradient[k]).clamp(-grad.max_step, grad.max_step));
        for k in 0..6 {
            theta[k] += step[k];
        }
        params = from_theta(theta, start);
        theta = to_theta(params);
        each(&GradientGeneration {
            generation: g,
            mean_score,
            plus_scores: plus,
            minus_scores: minus,
            gradient,
            step,
            params,
        });
    }
    Some(params)
}

/// Runs the tuner from `start`, calling `each` after every generation; returns the final
/// parent.
pub fn tune(start: Params, cfg: &TuneConfig, each: impl FnMut(&Generation)) -> Params {
    tune_until(start, cfg, None, each).unwrap_or(start)
}

/// [`tune`] that stops once `stop` is set: `None` then (within milliseconds).
pub fn tune_until(
    start: Params,
    cfg: &TuneConfig,
    stop: Option<&AtomicBool>,
    mut each: impl FnMut(&Generation),
) -> Option<Params> {
    let mut parent = start;
    for g in 0..cfg.generations {
        let mut rng = bits::Rng::new(bits::rng::sub_seed(cfg.seed, u64::from(g)));
        let seeds = generation_seeds(cfg, g);
        let children: Vec<Params> =
            (0..cfg.lambda).map(|_| mutate(parent, cfg.sigma, &mut rng)).collect();
        let parent_score = average_score_until(parent, cfg, &seeds, stop);
        let child_scores: Vec<f64> =
            children.iter().map(|&c| average_score_until(c, cfg, &seeds, stop)).collect();
        if stopped(stop) {
            return None;
        }
        let best = child_scores
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(&a.0)))
            .map(|(i, &s)| (i, s));
        let improved = matches!(best, Some((_, s)) if s > parent_score);
        if let (true, Some((i, _))) = (improved, best) {
            parent = children[i];
        }
        each(&Generation { generation: g, parent_score, child_scores, improved, params: parent });
    }
    Some(parent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Depth;

    #[test]
    fn tuner_is_seeded_and_keeps_exponents_in_range() {
        let cfg = TuneConfig {
            generations: 2,
            lambda: 2,
            games: 2,
            sigma: 0.3,
            search: SearchConfig { depth: Depth::Fixed(1), tt_bits: 8, ..Default::default() },
            max_moves: 150,
            seed: 4,
        };
        let mut log_a = Vec::new();
        let a = tune(Params::TUNED_DEPTH2, &cfg, |g| log_a.push(g.parent_score));
        let mut log_b = Vec::new();
        let b = tune(Params::TUNED_DEPTH2, &cfg, |g| log_b.push(g.parent_score));
        assert_eq!(a, b);
        assert_eq!(log_a, log_b);
        let grad = GradientConfig { rate: 1.0, max_step: 0.2 };
        let mut log_c = Vec::new();
        let c = tune_gradient(Params::NNEONNEO, &cfg, &grad, |g| log_c.push(g.clone()));
        let mut log_d = Vec::new();
        let d = tune_gradient(Params::NNEONNEO, &cfg, &grad, |g| log_d.push(g.clone()));
        assert_eq!(c, d);
        assert_eq!(log_c.len(), 2);
        assert_eq!(serde_json::to_string(&log_c).ok(), serde_json::to_string(&log_d).ok());
        let (a0, c0) = (to_theta(Params::NNEONNEO), to_theta(c));
        for k in 0..6 {
            let moved: f64 = log_c.iter().map(|g| g.step[k]).sum();
            assert!(moved.abs() <= 0.4 + 1e-9);
            assert!((c0[k] - a0[k] - moved).abs() < 1e-4, "coordinate {k}");
        }
        assert_eq!(from_theta(to_theta(Params::NNEONNEO), Params::NNEONNEO), Params::NNEONNEO);
        let mut rng = bits::Rng::new(1);
        for _ in 0..100 {
            let m = mutate(Params::TUNED_DEPTH2, 2.0, &mut rng);
            assert!((1.0..=6.0).contains(&m.mono_power) && m.mono_weight > 0.0);
            assert_eq!(m.base, Params::TUNED_DEPTH2.base);
        }
    }
}
