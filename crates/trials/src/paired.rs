//! Two players on the same games: the paired difference with its interval, the paired t
//! test, the sign test, and McNemar's test for a yes/no outcome (reached a tile, won).

use serde::{Deserialize, Serialize};

use crate::dist;
use crate::sample::MeanInterval;

/// The paired comparison of `a[i]` against `b[i]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Paired {
    /// The differences `a[i] - b[i]`: their mean, sd and interval.
    pub difference: MeanInterval,
    /// The paired t statistic, `mean / (sd / √n)` (0 when the differences do not vary).
    pub t: f64,
    /// Two-sided p of `t` under Student's t with `n - 1` df (1 when `t` is 0; `NaN` for
    /// fewer than two pairs).
    pub p: f64,
    /// Pairs where `a` is higher.
    pub a_better: u64,
    /// Pairs where `b` is higher.
    pub b_better: u64,
    /// Ties (dropped by the sign test).
    pub ties: u64,
    /// The exact two-sided sign test on `a_better` against `b_better`.
    pub sign_p: f64,
}

impl Paired {
    /// The exact Student t analysis at `level` (0.95 for 95%); `None` when the slices are
    /// empty or of different lengths.
    ///
    /// ```
    /// // Student's sleep data (R: t.test(extra ~ group, data = sleep, paired = TRUE)).
    /// let a = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];
    /// let b = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
    /// let p = trials::Paired::student(&a, &b, 0.95).unwrap();
    /// assert!((p.t - 4.062128).abs() < 1e-6);
    /// assert!((p.p - 0.002833).abs() < 1e-6);
    /// assert_eq!((p.a_better, p.b_better, p.ties), (9, 0, 1));
    /// ```
    pub fn student(a: &[f64], b: &[f64], level: f64) -> Option<Paired> {
        let n = a.len();
        let c = if n >= 2 { dist::t_critical(level, (n - 1) as f64) } else { f64::NAN };
        let mut out = Self::with_critical(a, b, c)?;
        out.p = if n >= 2 { dist::t_two_sided_p(out.t, (n - 1) as f64) } else { f64::NAN };
        Some(out)
    }

    /// The analysis with a given critical value for the interval and the normal
    /// approximation for `p` (`2 P(Z > |t|)`, what `drop7 ab` prints); `None` when the
    /// slices are empty or of different lengths.
    pub fn with_critical(a: &[f64], b: &[f64], critical: f64) -> Option<Paired> {
        if a.len() != b.len() {
            return None;
        }
        let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
        let difference = MeanInterval::with_critical(&d, critical)?;
        let se = difference.sd / (d.len() as f64).sqrt();
        let t = if se > 0.0 { difference.mean / se } else { 0.0 };
        let p = if d.len() >= 2 { dist::normal_two_sided_p(t) } else { f64::NAN };
        let a_better = d.iter().filter(|&&x| x > 0.0).count() as u64;
        let b_better = d.iter().filter(|&&x| x < 0.0).count() as u64;
        let ties = d.len() as u64 - a_better - b_better;
        Some(Paired {
            difference,
            t,
            p,
            a_better,
            b_better,
            ties,
            sign_p: sign_test(a_better, b_better),
        })
    }
}

/// The exact two-sided sign test: `min(1, 2 P(X <= min(wins, losses)))` for
/// `X ~ Binomial(wins + losses, 1/2)` (ties are dropped before counting). 1 when there is
/// nothing to test.
///
/// ```
/// // 9 wins, 1 loss: 2 (1 + 10) / 2^10.
/// assert!((trials::sign_test(9, 1) - 22.0 / 1024.0).abs() < 1e-15);
/// ```
pub fn sign_test(wins: u64, losses: u64) -> f64 {
    let n = wins + losses;
    if n == 0 {
        return 1.0;
    }
    (2.0 * dist::binomial_cdf(wins.min(losses), n, 0.5)).min(1.0)
}

/// McNemar's test on the discordant pairs of a paired yes/no outcome: `a_only` pairs where
/// only A said yes, `b_only` where only B did (the concordant pairs carry no information).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct McNemar {
    /// Pairs where only A said yes.
    pub a_only: u64,
    /// Pairs where only B said yes.
    pub b_only: u64,
    /// The exact two-sided p: the sign test on `a_only` against `b_only`.
    pub exact_p: f64,
    /// The chi-squared statistic with Edwards' continuity correction,
    /// `(|a_only - b_only| - 1)² / (a_only + b_only)` (0 with no discordant pair).
    pub chi2: f64,
    /// Its p, one degree of freedom.
    pub chi2_p: f64,
    /// The p to report: `exact_p` while `a_only + b_only <= 25` (where the chi-squared
    /// approximation is poor), else `chi2_p`.
    pub p: f64,
}

/// McNemar's test: exact (binomial) for small counts, chi-squared with continuity
/// correction beyond 25 discordant pairs. Both are in the answer.
///
/// ```
/// // Wikipedia's example: 6 and 16 discordant pairs (exact p = 2 * 110056 / 2^22).
/// let m = trials::mcnemar(6, 16);
/// assert!((m.exact_p - 0.052478).abs() < 1e-6);
/// assert_eq!(m.p, m.exact_p);
/// ```
pub fn mcnemar(a_only: u64, b_only: u64) -> McNemar {
    let n = a_only + b_only;
    let exact_p = sign_test(a_only, b_only);
    let (chi2, chi2_p) = if n == 0 {
        (0.0, 1.0)
    } else {
        let diff = (a_only.abs_diff(b_only) as f64 - 1.0).max(0.0);
        let chi2 = diff * diff / n as f64;
        // Chi-squared with 1 df: P(X > c) = P(|Z| > √c).
        (chi2, dist::normal_two_sided_p(chi2.sqrt()))
    };
    let p = if n <= 25 { exact_p } else { chi2_p };
    McNemar { a_only, b_only, exact_p, chi2, chi2_p, p }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sign_test_binomial_sums() {
        // 10 wins, 0 losses: 2 / 2^10; 5 and 5: 1; 15 and 5: 2 * (1+20+190+1140+4845+15504) / 2^20.
        assert!((sign_test(10, 0) - 2.0 / 1024.0).abs() < 1e-15);
        assert_eq!(sign_test(5, 5), 1.0);
        assert_eq!(sign_test(0, 0), 1.0);
        let tail = 1.0 + 20.0 + 190.0 + 1140.0 + 4845.0 + 15504.0;
        assert!((sign_test(15, 5) - 2.0 * tail / 1_048_576.0).abs() < 1e-14);
        assert_eq!(sign_test(15, 5), sign_test(5, 15));
    }

    /// Wikipedia's McNemar example (a = 59, b = 6, c = 16, d = 80): chi-squared without the
    /// correction 4.545 (p 0.033), with Edwards' correction 3.68 (p 0.055), exact p 0.0525.
    #[test]
    fn mcnemar_worked_example() {
        let m = mcnemar(6, 16);
        assert!((m.chi2 - 81.0 / 22.0).abs() < 1e-12);
        assert!((m.chi2_p - 0.055).abs() < 5e-4, "{}", m.chi2_p);
        assert!((m.exact_p - 2.0 * 110_056.0 / 4_194_304.0).abs() < 1e-14);
        // Large counts use chi-squared: 40 against 20, (|20| - 1)^2 / 60.
        let big = mcnemar(40, 20);
        assert!((big.chi2 - 361.0 / 60.0).abs() < 1e-12);
        assert_eq!(big.p, big.chi2_p);
        assert!((big.chi2_p - 0.014_171).abs() < 1e-5, "{}", big.chi2_p);
        assert_eq!(mcnemar(0, 0).p, 1.0);
    }

    #[test]
    fn paired_normal_approximation() {
        let a = [3.0, 5.0, 7.0, 9.0];
        let b = [1.0, 4.0, 4.0, 9.0];
        let p = Paired::with_critical(&a, &b, 1.96).unwrap();
        assert_eq!(p.difference.mean, 1.5);
        assert_eq!((p.a_better, p.b_better, p.ties), (3, 0, 1));
        let se = p.difference.sd / 2.0;
        assert!((p.t - 1.5 / se).abs() < 1e-12);
        assert!((p.p - dist::normal_two_sided_p(p.t)).abs() < 1e-15);
        assert!(Paired::with_critical(&a, &b[..3], 1.96).is_none());
    }

    proptest! {
        #[test]
        fn sign_test_is_a_probability(w in 0u64..300, l in 0u64..300) {
            let p = sign_test(w, l);
            prop_assert!(p > 0.0 && p <= 1.0);
            prop_assert_eq!(p, sign_test(l, w));
            // One more win for the side already ahead never raises p.
            if w >= l {
                prop_assert!(sign_test(w + 1, l) <= p * (1.0 + 1e-12));
            }
        }

        #[test]
        fn paired_interval_contains_the_mean_difference(
            pairs in prop::collection::vec((-1e5f64..1e5, -1e5f64..1e5), 2..100)) {
            let (a, b): (Vec<f64>, Vec<f64>) = pairs.into_iter().unzip();
            let p = Paired::student(&a, &b, 0.95).unwrap();
            prop_assert!(p.difference.contains(p.difference.mean));
            prop_assert!((0.0..=1.0).contains(&p.p));
            prop_assert_eq!(p.a_better + p.b_better + p.ties, a.len() as u64);
        }
    }
}
