//! The statistics of the reports.
//
// STATS: moves to crates/trials
// Everything in this file is the CLI's statistics moved as-is (Student t quantile, the
// summary of a batch, the normal tail, the median, the paired difference of `ab`); it is
// swapped for crates/trials at merge.

use serde::{Deserialize, Serialize};

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
    /// 95% confidence interval of the mean (Student t).
    pub ci95: [f64; 2],
}

/// The two-sided 95% Student t quantile for `df` degrees of freedom (Cornish-Fisher
/// expansion around z = 1.959964; within 0.1% for df >= 3).
pub(crate) fn t95(df: f64) -> f64 {
    let z: f64 = 1.959_964;
    let df = df.max(1.0);
    z + (z.powi(3) + z) / (4.0 * df)
        + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * df * df)
}

pub(crate) fn summary(scores: &[u64]) -> Summary {
    let n = scores.len();
    let mut s = scores.to_vec();
    s.sort_unstable();
    let mean = s.iter().map(|&x| x as f64).sum::<f64>() / n.max(1) as f64;
    let median = if n == 0 {
        0.0
    } else if n % 2 == 1 {
        s[n / 2] as f64
    } else {
        (s[n / 2 - 1] as f64 + s[n / 2] as f64) / 2.0
    };
    let var = if n > 1 {
        s.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    let sd = var.sqrt();
    let half = t95((n.max(2) - 1) as f64) * sd / (n.max(1) as f64).sqrt();
    Summary {
        games: n,
        mean,
        median,
        best: s.last().copied().unwrap_or(0),
        worst: s.first().copied().unwrap_or(0),
        sd,
        ci95: [mean - half, mean + half],
    }
}

/// The standard normal upper tail, `P(Z > z)`, via `erfc` (Abramowitz-Stegun 7.1.26).
pub(crate) fn normal_tail(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erfc = poly * (-x * x).exp();
    let upper = erfc / 2.0;
    if z >= 0.0 {
        upper
    } else {
        1.0 - upper
    }
}

pub(crate) fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The paired comparison of `ab`: A - B per game.
pub(crate) struct Paired {
    pub mean: f64,
    /// The 95% half-width of the mean difference.
    pub half: f64,
    pub t: f64,
    pub p: f64,
    pub wins: usize,
    pub losses: usize,
}

pub(crate) fn paired(sa: &[u64], sb: &[u64]) -> Paired {
    let diffs: Vec<f64> = sa.iter().zip(sb).map(|(&x, &y)| x as f64 - y as f64).collect();
    let n = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / n;
    let sd = (diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    let se = sd / n.sqrt();
    let t = if se > 0.0 { mean / se } else { 0.0 };
    let p = 2.0 * normal_tail(t.abs());
    let wins = diffs.iter().filter(|&&d| d > 0.0).count();
    let losses = diffs.iter().filter(|&&d| d < 0.0).count();
    let half = t95(n - 1.0) * se;
    Paired { mean, half, t, p, wins, losses }
}
