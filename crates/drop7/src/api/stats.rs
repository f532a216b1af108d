//! The statistics of the reports, from `trials`: a batch's summary (mean with its exact
//! Student t 95% interval), the median, and the paired difference of `ab`.

use serde::{Deserialize, Serialize};
use trials::{MeanInterval, Paired};

/// A batch's scores in brief.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Summary {
    /// Games.
    pub games: usize,
    /// Mean score.
    pub mean: f64,
    /// Median score.
    pub median: f64,
    /// Best score.
    pub best: u64,
    /// Worst score.
    pub worst: u64,
    /// Sample standard deviation.
    pub sd: f64,
    /// 95% confidence interval of the mean (Student t; the mean itself below two games).
    pub ci95: [f64; 2],
}

fn as_f64(scores: &[u64]) -> Vec<f64> {
    scores.iter().map(|&x| x as f64).collect()
}

/// The summary of a batch's scores: mean with its Student 95% interval, median, best, worst.
pub fn summary(scores: &[u64]) -> Summary {
    let xs = as_f64(scores);
    let m = MeanInterval::student(&xs, 0.95);
    let (mean, sd, ci95) = m.map_or((0.0, 0.0, [0.0, 0.0]), |m| (m.mean, m.sd, [m.low, m.high]));
    Summary {
        games: scores.len(),
        mean,
        median: trials::sample::median(&xs).unwrap_or(0.0),
        best: scores.iter().copied().max().unwrap_or(0),
        worst: scores.iter().copied().min().unwrap_or(0),
        sd,
        ci95,
    }
}

pub(crate) fn median(v: &mut [f64]) -> f64 {
    trials::sample::median(v).unwrap_or(f64::NAN)
}

/// The paired comparison of `ab`: A - B per game (`n >= 2`).
pub(crate) struct PairedDiff {
    pub mean: f64,
    /// The 95% half-width of the mean difference (Student t, `n - 1` df).
    pub half: f64,
    pub t: f64,
    /// Two-sided p of the paired t by the normal approximation, `2 P(Z > |t|)`.
    pub p: f64,
    pub wins: usize,
    pub losses: usize,
}

pub(crate) fn paired(sa: &[u64], sb: &[u64]) -> PairedDiff {
    let (a, b) = (as_f64(sa), as_f64(sb));
    let df = a.len().max(2) as f64 - 1.0;
    let p = Paired::with_critical(&a, &b, trials::dist::t_critical(0.95, df))
        .expect("ab plays the same games for A and B");
    PairedDiff {
        mean: p.difference.mean,
        half: p.difference.half,
        t: p.t,
        p: p.p,
        wins: p.a_better as usize,
        losses: p.b_better as usize,
    }
}
