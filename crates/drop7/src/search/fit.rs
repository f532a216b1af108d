//! Fitting [`Fitted`]'s weights to what happens in play: harvest the chance nodes of
//! searched games (the board after each move, before the next disc is known: what a leaf
//! sees), pair each with the points the game went on to score from it, and solve a ridge
//! regression of those points on the [`features`].
//!
//! Everything is seeded and deterministic: games are played shared-nothing in parallel and
//! collected in game order, and the solve is a fixed sequence of floating-point operations,
//! so the same command prints the same weights on any thread count.

// Index loops over the normal equations keep the algebra plain.
#![allow(clippy::needless_range_loop)]

use super::eval::{features, Fitted, FEATURES};
use super::{Abort, BatchSpec, Evaluator, Searcher, Table};
use crate::board::Position;
use crate::engine::RandomDraws;

/// What a harvested board is paired with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    /// Every point scored after the board, to the end of the game.
    ToEnd,
    /// The points of the turns after the board, the `k`-th (from 0) weighted `g^k`.
    Discount(f64),
    /// The points of the next `k` turns.
    Horizon(u32),
}

impl Target {
    /// The targets of a game's boards from the points of each turn: entry `t` is the value
    /// of the board after turn `t`, from `points[t + 1..]`.
    pub fn values(self, points: &[u64]) -> Vec<f64> {
        let n = points.len();
        let mut out = vec![0.0; n];
        match self {
            Target::ToEnd | Target::Discount(_) => {
                let g = if let Target::Discount(g) = self { g } else { 1.0 };
                let mut acc = 0.0;
                for t in (0..n).rev() {
                    out[t] = acc;
                    acc = points[t] as f64 + g * acc;
                }
            }
            Target::Horizon(k) => {
                for t in 0..n {
                    let end = (t + 1 + k as usize).min(n);
                    out[t] = points[t + 1..end].iter().map(|&p| p as f64).sum();
                }
            }
        }
        out
    }
}

/// A harvested board: its features, its target and the game it came from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// [`features`] of the board after the move.
    pub features: [f64; FEATURES],
    /// What it is fitted to ([`Target`]).
    pub target: f64,
    /// The game's index in its batch.
    pub game: u64,
}

/// A harvested game: the features of the board after every move (`None` after the move
/// that ended it) and the points of every move.
#[derive(Clone, Debug, PartialEq)]
pub struct GameBoards {
    /// The game's index in its batch.
    pub game: u64,
    /// [`features`] of the board after move `t`, if the game went on.
    pub boards: Vec<Option<[f64; FEATURES]>>,
    /// The points of move `t`.
    pub points: Vec<u64>,
}

impl GameBoards {
    /// The game's samples under `target`.
    pub fn samples(&self, target: Target) -> impl Iterator<Item = Sample> + '_ {
        let values = target.values(&self.points);
        self.boards.iter().zip(values).filter_map(move |(f, target)| {
            f.map(|features| Sample { features, target, game: self.game })
        })
    }
}

/// The samples of every game under `target`, in game order.
pub fn samples(games: &[GameBoards], target: Target) -> Vec<Sample> {
    games.iter().flat_map(|g| g.samples(target)).collect()
}

/// Plays game `index` of `spec`'s batch with `searcher` and keeps every board it leaves.
pub fn harvest_game<E: Evaluator, T: Table, A: Abort>(
    searcher: &mut Searcher<E, T, A>,
    spec: &BatchSpec,
    index: u64,
) -> GameBoards {
    let rules = spec.rules;
    let mut draws = RandomDraws::new(&rules, bits::rng::sub_seed(spec.seed, index));
    let mut pos = Position::new_game(&rules, &mut draws);
    let mut out = GameBoards { game: index, boards: Vec::new(), points: Vec::new() };
    let mut moves = 0;
    while !pos.over && moves < spec.max_moves {
        let d = searcher.decide_rule(&pos, spec.depth).decision;
        if searcher.stopped() {
            break;
        }
        let before = pos.score;
        pos.play_unchecked(&rules, d.best, &mut draws);
        moves += 1;
        out.points.push(pos.score - before);
        out.boards.push((!pos.over).then(|| features(&pos.board, pos.drops_left)));
    }
    out
}

/// Harvests the games of `spec` (`spec.first..spec.first + spec.games`) in parallel on the
/// current rayon pool, shared-nothing, in game order: the same boards for any thread count.
pub fn harvest<E, T>(
    spec: &BatchSpec,
    eval: &E,
    make_table: impl Fn() -> T + Sync,
) -> Vec<GameBoards>
where
    E: Evaluator + Clone + Send,
    T: Table + Send,
{
    use rayon::prelude::*;
    (spec.first..spec.first.saturating_add(spec.games))
        .into_par_iter()
        .map(|i| {
            let mut s = spec.searcher(eval.clone(), make_table());
            if let Some(schedule) = spec.chance_schedule {
                s.set_chance_schedule(&schedule, spec.depth.min_depth());
            }
            harvest_game(&mut s, spec, i)
        })
        .collect()
}

/// One move of a [`Group`]: the features of the board it leaves and the points of the
/// move and of every move of the rollout after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Sibling {
    /// [`features`] of the board after the move.
    pub features: [f64; FEATURES],
    /// Points of the move (entry 0) and of the rollout's moves after it.
    pub points: Vec<u64>,
}

/// Every move from one position of a game, each followed by a rollout on the *same*
/// stream (the game's generator, cloned: common random numbers), so the siblings differ
/// by their boards, not by their luck.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// The game's index in its batch.
    pub game: u64,
    /// The moves that did not end the game.
    pub siblings: Vec<Sibling>,
}

/// Plays game `index` of `spec`'s batch with `searcher` (at `spec.depth`); at every
/// `every`-th position, plays each column and rolls out from it with `rollout`
/// (`rollout_depth` deep) for at most `horizon` moves, on a clone of the game's stream.
pub fn rollout_game<E: Evaluator, T: Table, E2: Evaluator, T2: Table, A: Abort>(
    searcher: &mut Searcher<E, T, A>,
    rollout: &mut Searcher<E2, T2, A>,
    spec: &BatchSpec,
    index: u64,
    every: u32,
    rollout_depth: u32,
    horizon: u32,
) -> Vec<Group> {
    let rules = spec.rules;
    let mut draws = RandomDraws::new(&rules, bits::rng::sub_seed(spec.seed, index));
    let mut pos = Position::new_game(&rules, &mut draws);
    let mut groups = Vec::new();
    let mut moves = 0;
    while !pos.over && moves < spec.max_moves {
        if moves % every.max(1) == every.max(1) / 2 {
            let mut group = Group { game: index, siblings: Vec::new() };
            for c in 0..crate::board::SIZE {
                if !pos.board.can_drop(c) {
                    continue;
                }
                let mut d = draws.clone();
                let mut p = pos;
                let first = p.play_unchecked(&rules, c, &mut d).points;
                if p.over {
                    continue;
                }
                let features = features(&p.board, p.drops_left);
                let mut points = vec![first];
                while !p.over && (points.len() as u32) <= horizon && !rollout.stopped() {
                    let best = rollout.decide(&p, rollout_depth).best;
                    points.push(p.play_unchecked(&rules, best, &mut d).points);
                }
                group.siblings.push(Sibling { features, points });
            }
            if group.siblings.len() >= 2 {
                groups.push(group);
            }
        }
        let d = searcher.decide_rule(&pos, spec.depth).decision;
        if searcher.stopped() || rollout.stopped() {
            break;
        }
        pos.play_unchecked(&rules, d.best, &mut draws);
        moves += 1;
    }
    groups
}

/// The samples of `groups` under `target`, centred within each group (features and
/// targets less their group's means: a fixed effect per position), so a fit explains only
/// the differences between the moves from one position, which are all a search's
/// decisions use. The constant feature stays 1 (its weight fits the zero mean).
pub fn group_samples(groups: &[Group], target: Target) -> Vec<Sample> {
    let mut out = Vec::new();
    for g in groups {
        let n = g.siblings.len() as f64;
        let ys: Vec<f64> = g.siblings.iter().map(|s| target.values(&s.points)[0]).collect();
        let ybar = ys.iter().sum::<f64>() / n;
        let mut mean = [0.0; FEATURES];
        for s in &g.siblings {
            for j in 0..FEATURES {
                mean[j] += s.features[j] / n;
            }
        }
        for (s, y) in g.siblings.iter().zip(ys) {
            let mut features = [0.0; FEATURES];
            features[0] = 1.0;
            for j in 1..FEATURES {
                features[j] = s.features[j] - mean[j];
            }
            out.push(Sample { features, target: y - ybar, game: g.game });
        }
    }
    out
}

/// [`rollout_game`] over the games of `spec`, in parallel, in game order.
#[allow(clippy::too_many_arguments)]
pub fn rollouts<E, T>(
    spec: &BatchSpec,
    eval: &E,
    make_table: impl Fn() -> T + Sync,
    every: u32,
    rollout_depth: u32,
    horizon: u32,
) -> Vec<Group>
where
    E: Evaluator + Clone + Send,
    T: Table + Send,
{
    use rayon::prelude::*;
    let per_game: Vec<Vec<Group>> = (spec.first..spec.first.saturating_add(spec.games))
        .into_par_iter()
        .map(|i| {
            let make = || spec.searcher(eval.clone(), make_table());
            let (mut s, mut r) = (make(), make());
            rollout_game(&mut s, &mut r, spec, i, every, rollout_depth, horizon)
        })
        .collect();
    per_game.into_iter().flatten().collect()
}

/// A ridge regression of the samples' targets on their features. Every feature but the
/// first (the constant 1) is centred and scaled to unit standard deviation, the penalty
/// `lambda * n` is put on the scaled weights, and the result is mapped back to raw
/// weights (the constant absorbs the centring), so `lambda` means the same for any scale
/// of the features. A feature that never varies gets weight 0. `None` without samples.
pub fn ridge(samples: &[Sample], lambda: f64) -> Option<Fitted> {
    let n = samples.len();
    if n == 0 {
        return None;
    }
    let nf = n as f64;
    let mut mean = [0.0; FEATURES];
    let mut ybar = 0.0;
    for s in samples {
        for j in 0..FEATURES {
            mean[j] += s.features[j];
        }
        ybar += s.target;
    }
    for m in &mut mean {
        *m /= nf;
    }
    ybar /= nf;
    // Centred cross products (feature 0, the constant, is left out: index 0 unused).
    let mut xx = [[0.0; FEATURES]; FEATURES];
    let mut xy = [0.0; FEATURES];
    for s in samples {
        let mut z = [0.0; FEATURES];
        for j in 1..FEATURES {
            z[j] = s.features[j] - mean[j];
        }
        let y = s.target - ybar;
        for i in 1..FEATURES {
            xy[i] += z[i] * y;
            for j in i..FEATURES {
                xx[i][j] += z[i] * z[j];
            }
        }
    }
    let mut sd = [0.0; FEATURES];
    let live: Vec<usize> = (1..FEATURES)
        .filter(|&j| {
            sd[j] = (xx[j][j] / nf).sqrt();
            sd[j] > 1e-12
        })
        .collect();
    let k = live.len();
    let mut a = vec![vec![0.0; k]; k];
    let mut b = vec![0.0; k];
    for (p, &i) in live.iter().enumerate() {
        b[p] = xy[i] / sd[i];
        for (q, &j) in live.iter().enumerate() {
            let (lo, hi) = if i <= j { (i, j) } else { (j, i) };
            a[p][q] = xx[lo][hi] / (sd[i] * sd[j]);
        }
        a[p][p] += lambda * nf;
    }
    let beta = cholesky_solve(a, b)?;
    let mut weights = [0.0; FEATURES];
    let mut bias = ybar;
    for (p, &j) in live.iter().enumerate() {
        weights[j] = beta[p] / sd[j];
        bias -= weights[j] * mean[j];
    }
    weights[0] = bias;
    Some(Fitted { weights })
}

/// Solves `a x = b` for a symmetric positive definite `a` (Cholesky); `None` if it is not.
fn cholesky_solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let k = b.len();
    for j in 0..k {
        let mut d = a[j][j];
        for p in 0..j {
            d -= a[j][p] * a[j][p];
        }
        if d.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        let d = d.sqrt();
        a[j][j] = d;
        for i in j + 1..k {
            let mut s = a[i][j];
            for p in 0..j {
                s -= a[i][p] * a[j][p];
            }
            a[i][j] = s / d;
        }
    }
    // L y = b, then L^T x = y.
    for i in 0..k {
        for p in 0..i {
            b[i] -= a[i][p] * b[p];
        }
        b[i] /= a[i][i];
    }
    for i in (0..k).rev() {
        for p in i + 1..k {
            b[i] -= a[p][i] * b[p];
        }
        b[i] /= a[i][i];
    }
    Some(b)
}

/// The share of the targets' variance that `fit` explains on `samples` (1 - SSE / SST).
pub fn r_squared(fit: &Fitted, samples: &[Sample]) -> f64 {
    let n = samples.len().max(1) as f64;
    let ybar = samples.iter().map(|s| s.target).sum::<f64>() / n;
    let mut sse = 0.0;
    let mut sst = 0.0;
    for s in samples {
        let pred: f64 = fit.weights.iter().zip(&s.features).map(|(w, f)| w * f).sum();
        sse += (s.target - pred).powi(2);
        sst += (s.target - ybar).powi(2);
    }
    if sst > 0.0 {
        1.0 - sse / sst
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_to_end_discounted_and_over_a_horizon() {
        let points = [10, 20, 30, 40];
        assert_eq!(Target::ToEnd.values(&points), vec![90.0, 70.0, 40.0, 0.0]);
        assert_eq!(
            Target::Discount(0.5).values(&points),
            vec![20.0 + 15.0 + 10.0, 50.0, 40.0, 0.0]
        );
        assert_eq!(Target::Horizon(2).values(&points), vec![50.0, 70.0, 40.0, 0.0]);
    }

    #[test]
    fn ridge_recovers_a_planted_linear_model() {
        // Targets an exact linear function of random features: with a tiny penalty the fit
        // finds the planted weights.
        let mut rng = bits::Rng::new(42);
        let mut planted = [0.0; FEATURES];
        for (j, w) in planted.iter_mut().enumerate() {
            *w = (j as f64 - 10.0) * 37.5;
        }
        let samples: Vec<Sample> = (0..2_000)
            .map(|i| {
                let mut f = [0.0; FEATURES];
                f[0] = 1.0;
                for x in &mut f[1..] {
                    *x = rng.below(1000) as f64 / 100.0;
                }
                let target = planted.iter().zip(&f).map(|(w, x)| w * x).sum();
                Sample { features: f, target, game: i }
            })
            .collect();
        let fit = ridge(&samples, 1e-12).expect("positive definite");
        for j in 0..FEATURES {
            assert!((fit.weights[j] - planted[j]).abs() < 1e-6, "{j}: {}", fit.weights[j]);
        }
        assert!(r_squared(&fit, &samples) > 0.999_999);
        // A constant feature gets weight 0 and the fit still works.
        let mut flat = samples.clone();
        for s in &mut flat {
            s.target -= planted[5] * s.features[5];
            s.features[5] = 3.0;
        }
        let fit = ridge(&flat, 1e-12).expect("positive definite");
        assert_eq!(fit.weights[5], 0.0);
        assert!(r_squared(&fit, &flat) > 0.999_999);
    }
}
