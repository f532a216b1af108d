//! One sample: mean, standard deviation, the mean's confidence interval, median and
//! quantiles.

use serde::{Deserialize, Serialize};

use crate::dist;

/// The arithmetic mean, `None` for an empty sample.
pub fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// The sample variance (divisor `n - 1`, two passes), `None` below two values.
pub fn variance(xs: &[f64]) -> Option<f64> {
    if xs.len() < 2 {
        return None;
    }
    let m = mean(xs)?;
    Some(xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1) as f64)
}

/// The sample standard deviation (divisor `n - 1`), `None` below two values.
pub fn sd(xs: &[f64]) -> Option<f64> {
    variance(xs).map(f64::sqrt)
}

fn sorted(xs: &[f64]) -> Vec<f64> {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

/// The median: the middle value, or the mean of the two middle values of an even sample
/// (`None` when empty).
pub fn median(xs: &[f64]) -> Option<f64> {
    let v = sorted(xs);
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

/// The upper median: element `n / 2` of the sorted sample, which is the median for odd `n`
/// and the higher middle value for even `n` (what the bench harnesses report: always a
/// measured value). `None` when empty.
pub fn median_high(xs: &[f64]) -> Option<f64> {
    let v = sorted(xs);
    v.get(v.len() / 2).copied()
}

/// The half-width of the normal-approximation 95% (or any `z`) interval of the mean,
/// `z * sqrt(var / n)`, with the sample variance (divisor `n - 1`) taken as 0 below two values
/// and 0 for an empty sample: the form the 2048 batch and Snake tournament reports print.
///
/// ```
/// let h = trials::sample::normal_half_width(&[1.0, 2.0, 3.0, 4.0], 1.96);
/// assert!((h - 1.96 * (5.0f64 / 12.0).sqrt()).abs() < 1e-15);
/// assert_eq!(trials::sample::normal_half_width(&[7.0], 1.96), 0.0);
/// ```
pub fn normal_half_width(xs: &[f64], z: f64) -> f64 {
    match variance(xs) {
        Some(var) => z * (var / xs.len() as f64).sqrt(),
        None => 0.0,
    }
}

/// The `q` quantile, `0 <= q <= 1`, by linear interpolation between order statistics
/// (Hyndman and Fan's type 7, the default of R and NumPy): `quantile(xs, 0.5)` is the median.
/// `None` for an empty sample or `q` outside `[0, 1]`.
pub fn quantile(xs: &[f64], q: f64) -> Option<f64> {
    quantiles(xs, &[q]).map(|v| v[0])
}

/// Several quantiles of one sample (sorted once), as [`quantile`].
pub fn quantiles(xs: &[f64], qs: &[f64]) -> Option<Vec<f64>> {
    if xs.is_empty() || qs.iter().any(|q| !(0.0..=1.0).contains(q)) {
        return None;
    }
    let v = sorted(xs);
    let last = (v.len() - 1) as f64;
    Some(
        qs.iter()
            .map(|&q| {
                let h = q * last;
                let lo = h.floor() as usize;
                let hi = h.ceil() as usize;
                v[lo] + (h - lo as f64) * (v[hi] - v[lo])
            })
            .collect(),
    )
}

/// A sample's mean with a two-sided confidence interval `mean ± critical · sd / √n`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MeanInterval {
    /// Sample size.
    pub n: usize,
    /// The mean.
    pub mean: f64,
    /// Sample standard deviation (divisor `n - 1`); 0 below two values.
    pub sd: f64,
    /// The critical value used (Student t with `n - 1` df for [`MeanInterval::student`]).
    pub critical: f64,
    /// Half-width of the interval: `critical · sd / √n`; 0 below two values (no spread is
    /// measured, so no interval: check `n`).
    pub half: f64,
    /// Lower end, `mean - half`.
    pub low: f64,
    /// Upper end, `mean + half`.
    pub high: f64,
}

impl MeanInterval {
    /// The exact Student t interval at `level` (0.95 for 95%); `None` for an empty sample.
    ///
    /// ```
    /// let m = trials::MeanInterval::student(&[1.0, 2.0, 3.0, 4.0], 0.95).unwrap();
    /// assert_eq!(m.mean, 2.5);
    /// assert!((m.critical - 3.182446).abs() < 1e-6); // t(0.975, 3 df)
    /// ```
    pub fn student(xs: &[f64], level: f64) -> Option<MeanInterval> {
        let n = xs.len();
        let c = if n >= 2 { dist::t_critical(level, (n - 1) as f64) } else { f64::NAN };
        Self::with_critical(xs, c)
    }

    /// The interval with a given critical value (1.96 for the normal approximation);
    /// `None` for an empty sample.
    pub fn with_critical(xs: &[f64], critical: f64) -> Option<MeanInterval> {
        let n = xs.len();
        let mean = mean(xs)?;
        let sd = sd(xs).unwrap_or(0.0);
        let half = if n >= 2 { critical * sd / (n as f64).sqrt() } else { 0.0 };
        Some(MeanInterval { n, mean, sd, critical, half, low: mean - half, high: mean + half })
    }

    /// Whether `x` lies in `[low, high]`.
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn small_samples() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median_high(&[4.0, 1.0, 2.0, 3.0]), Some(3.0));
        assert_eq!(median(&[]), None);
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0], 0.25), Some(1.75));
        assert_eq!(quantile(&[10.0], 0.9), Some(10.0));
        assert_eq!(quantile(&[1.0], 1.5), None);
        assert_eq!(sd(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]), Some((32.0f64 / 7.0).sqrt()));
        let one = MeanInterval::student(&[5.0], 0.95).unwrap();
        assert_eq!((one.mean, one.half, one.low, one.high), (5.0, 0.0, 5.0, 5.0));
    }

    /// Student's own example (the 1908 sleep data, Cushny and Peebles, as in R's
    /// `t.test(extra ~ group, data = sleep, paired = TRUE)`): the ten paired differences
    /// have mean 1.58 and 95% CI 0.7001142 .. 2.4598858.
    #[test]
    fn sleep_data_interval() {
        let d = [1.2, 2.4, 1.3, 1.3, 0.0, 1.0, 1.8, 0.8, 4.6, 1.4];
        let m = MeanInterval::student(&d, 0.95).unwrap();
        assert!((m.mean - 1.58).abs() < 1e-12);
        assert!((m.low - 0.700_114_2).abs() < 1e-6, "{}", m.low);
        assert!((m.high - 2.459_885_8).abs() < 1e-6, "{}", m.high);
    }

    proptest! {
        #[test]
        fn interval_contains_the_mean(xs in prop::collection::vec(-1e6f64..1e6, 1..200),
                                      level in 0.5f64..0.999) {
            let m = MeanInterval::student(&xs, level).unwrap();
            prop_assert!(m.contains(m.mean));
            prop_assert!(m.low <= m.high);
            // A higher level is never narrower.
            let wider = MeanInterval::student(&xs, (level + 1.0) / 2.0).unwrap();
            prop_assert!(wider.half >= m.half);
        }

        #[test]
        fn quantile_is_monotone(xs in prop::collection::vec(-1e6f64..1e6, 1..100),
                                a in 0.0f64..=1.0, b in 0.0f64..=1.0) {
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            let (qa, qb) = (quantile(&xs, lo).unwrap(), quantile(&xs, hi).unwrap());
            prop_assert!(qa <= qb);
            let min = xs.iter().copied().fold(f64::INFINITY, f64::min);
            let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            prop_assert!(min <= qa && qb <= max);
            let tol = 1e-9 * (1.0 + min.abs().max(max.abs()));
            prop_assert!((quantile(&xs, 0.5).unwrap() - median(&xs).unwrap()).abs() <= tol);
        }
    }
}
