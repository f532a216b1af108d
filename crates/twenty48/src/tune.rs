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

use rayon::prelude::*;
use serde::Serialize;

use crate::batch::play_search_game;
use crate::search::{Heuristic, Params, SearchConfig};

/// Tuner settings.
#[derive(Clone, Copy, Debug, Serialize)]
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
#[derive(Clone, Debug, Serialize)]
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
    let h = Heuristic::new(params);
    let total: u64 = seeds
        .par_iter()
        .enumerate()
        .map(|(i, &s)| play_search_game(i as u64, s, &h, cfg.search, cfg.max_moves, false).score)
        .sum();
    total as f64 / seeds.len().max(1) as f64
}

/// Runs the tuner from `start`, calling `each` after every generation; returns the final
/// parent.
pub fn tune(start: Params, cfg: &TuneConfig, mut each: impl FnMut(&Generation)) -> Params {
    let mut parent = start;
    for g in 0..cfg.generations {
        let mut rng = bits::Rng::new(bits::rng::sub_seed(cfg.seed, u64::from(g)));
        let seeds: Vec<u64> = (0..cfg.games)
            .map(|j| bits::rng::sub_seed(cfg.seed ^ GAMES, u64::from(g) * cfg.games + j))
            .collect();
        let children: Vec<Params> =
            (0..cfg.lambda).map(|_| mutate(parent, cfg.sigma, &mut rng)).collect();
        let parent_score = average_score(parent, cfg, &seeds);
        let child_scores: Vec<f64> =
            children.iter().map(|&c| average_score(c, cfg, &seeds)).collect();
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
    parent
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
        let mut rng = bits::Rng::new(1);
        for _ in 0..100 {
            let m = mutate(Params::TUNED_DEPTH2, 2.0, &mut rng);
            assert!((1.0..=6.0).contains(&m.mono_power) && m.mono_weight > 0.0);
            assert_eq!(m.base, Params::TUNED_DEPTH2.base);
        }
    }
}
