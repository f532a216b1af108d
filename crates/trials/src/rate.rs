//! Rates: `k` successes in `n` trials (games that reached 32768, games won), the Wilson
//! score interval, and Fisher's exact test between two rates.

use serde::{Deserialize, Serialize};

use crate::dist;

/// A rate with its Wilson score interval, all as shares in `0..=1`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    /// Successes.
    pub count: u64,
    /// Trials.
    pub trials: u64,
    /// `count / trials` (0 when there is no trial).
    pub rate: f64,
    /// Lower end of the Wilson interval.
    pub low: f64,
    /// Upper end of the Wilson interval.
    pub high: f64,
}

impl Rate {
    /// `k` of `n` with the Wilson interval at `level` (0.95 for 95%).
    pub fn wilson(k: u64, n: u64, level: f64) -> Rate {
        Self::wilson_z(k, n, dist::z_critical(level))
    }

    /// `k` of `n` with the Wilson interval for a given normal critical value `z`
    /// (1.96 reproduces the published 2048 tables).
    pub fn wilson_z(k: u64, n: u64, z: f64) -> Rate {
        let (low, high) = wilson_z(k, n, z);
        let rate = if n == 0 { 0.0 } else { k as f64 / n as f64 };
        Rate { count: k, trials: n, rate, low, high }
    }
}

/// The Wilson score interval of `k` successes in `n` trials at `level` (0.95 for 95%), as
/// shares; `(0, 1)` when `n` is 0.
///
/// ```
/// // Newcombe (1998), Table I: 81 of 263 gives 0.2553 .. 0.3662.
/// let (lo, hi) = trials::wilson(81, 263, 0.95);
/// assert!((lo - 0.2553).abs() < 5e-5 && (hi - 0.3662).abs() < 5e-5);
/// ```
pub fn wilson(k: u64, n: u64, level: f64) -> (f64, f64) {
    wilson_z(k, n, dist::z_critical(level))
}

/// The Wilson score interval for a given normal critical value `z`.
pub fn wilson_z(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    // Operation for operation as `twenty48::batch::wilson`, so that with z = 1.959964 it
    // gives the same bits.
    let (kf, nf) = (k as f64, n as f64);
    let p = kf / nf;
    let denom = 1.0 + z * z / nf;
    let centre = (p + z * z / (2.0 * nf)) / denom;
    let half = z * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Fisher's exact test on the 2x2 table `k1` of `n1` against `k2` of `n2`, two-sided:
/// the sum of the probabilities of every table with the same margins that is no more
/// likely than the observed one (relative tolerance 1e-9, as R's `fisher.test`).
///
/// ```
/// // The lady tasting tea: all 4 milk-first cups of 8 found, p = 2 / 70 two-sided.
/// assert!((trials::fisher_exact(4, 4, 0, 4) - 2.0 / 70.0).abs() < 1e-12);
/// ```
pub fn fisher_exact(k1: u64, n1: u64, k2: u64, n2: u64) -> f64 {
    assert!(k1 <= n1 && k2 <= n2, "fisher_exact: a count above its total");
    let (k, n) = (k1 + k2, n1 + n2);
    let ln_total = dist::ln_choose(n, k);
    let prob = |a: u64| (dist::ln_choose(n1, a) + dist::ln_choose(n2, k - a) - ln_total).exp();
    let p0 = prob(k1);
    let (lo, hi) = (k.saturating_sub(n2), k.min(n1));
    let p: f64 = (lo..=hi).map(prob).filter(|&p| p <= p0 * (1.0 + 1e-9)).sum();
    p.min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Newcombe, "Two-sided confidence intervals for the single proportion: comparison of
    /// seven methods", Statistics in Medicine 17 (1998), Table I, method 3 (score).
    #[test]
    fn wilson_matches_newcombe() {
        let cases = [
            (81, 263, 0.2553, 0.3662),
            (15, 148, 0.0624, 0.1605),
            (0, 20, 0.0, 0.1611),
            (1, 29, 0.0061, 0.1718),
        ];
        for (k, n, lo, hi) in cases {
            let (l, h) = wilson(k, n, 0.95);
            assert!((l - lo).abs() < 5e-5 && (h - hi).abs() < 5e-5, "{k}/{n}: {l} {h}");
        }
        assert_eq!(wilson(3, 0, 0.95), (0.0, 1.0));
        assert_eq!(Rate::wilson(41, 100, 0.95).rate, 0.41);
    }

    #[test]
    fn fisher_known_tables() {
        // Lady tasting tea, one cup wrong each way: 3 of 4 against 1 of 4. The tables with
        // these margins have probabilities 1, 16, 36, 16, 1 (of 70); all but 36 count.
        assert!((fisher_exact(3, 4, 1, 4) - 34.0 / 70.0).abs() < 1e-12);
        // Wikipedia's dieting example: 1 of 12 men and 9 of 12 women; p = 0.002759.
        assert!((fisher_exact(1, 12, 9, 12) - 0.002_759).abs() < 1e-6);
        assert_eq!(fisher_exact(5, 10, 5, 10), 1.0);
    }

    proptest! {
        #[test]
        fn wilson_contains_the_rate(n in 1u64..10_000, k_frac in 0.0f64..=1.0, level in 0.5f64..0.999) {
            let k = ((n as f64) * k_frac).round() as u64;
            let (lo, hi) = wilson(k, n, level);
            let p = k as f64 / n as f64;
            prop_assert!(0.0 <= lo && lo <= p + 1e-12 && p <= hi + 1e-12 && hi <= 1.0);
        }

        #[test]
        fn fisher_is_a_probability_and_symmetric(n1 in 1u64..60, n2 in 1u64..60,
                                                 a in 0.0f64..=1.0, b in 0.0f64..=1.0) {
            let k1 = (n1 as f64 * a) as u64;
            let k2 = (n2 as f64 * b) as u64;
            let p = fisher_exact(k1, n1, k2, n2);
            prop_assert!(p > 0.0 && p <= 1.0);
            let q = fisher_exact(k2, n2, k1, n1);
            prop_assert!((p - q).abs() < 1e-9);
        }
    }
}
