//! The distributions behind every interval and test: the standard normal, Student's t and
//! the binomial, computed to near double precision.
//!
//! Implementation notes: everything rests on two special functions, `ln Γ` (Lanczos, g = 7,
//! nine terms, ~1e-15 relative) and the regularized incomplete gamma and beta functions
//! (series and Lentz's continued fraction, as in Numerical Recipes §6.2 and §6.4). The normal
//! tail is `Q(1/2, z²/2) / 2`, the t tail `I_x(df/2, 1/2) / 2` with `x = df / (df + t²)`.
//! Quantiles invert the tails by bisection to the last bit (about 100 halvings): slow
//! beside a rational approximation, but a report computes a handful, and the answer is exact
//! rather than within 0.1%.

const LANCZOS: [f64; 9] = [
    0.999_999_999_999_809_9,
    676.520_368_121_885_1,
    -1_259.139_216_722_402_8,
    771.323_428_777_653_1,
    -176.615_029_162_140_6,
    12.507_343_278_686_905,
    -0.138_571_095_265_720_12,
    9.984_369_578_019_572e-6,
    1.505_632_735_149_311_6e-7,
];

/// `ln Γ(x)` for `x > 0`.
pub fn ln_gamma(x: f64) -> f64 {
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 - x) = π / sin(πx).
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let mut a = LANCZOS[0];
    for (i, &c) in LANCZOS.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// `ln C(n, k)`, the log of the binomial coefficient (`-inf` when `k > n`).
pub fn ln_choose(n: u64, k: u64) -> f64 {
    if k > n {
        return f64::NEG_INFINITY;
    }
    let (n, k) = (n as f64, k as f64);
    ln_gamma(n + 1.0) - ln_gamma(k + 1.0) - ln_gamma(n - k + 1.0)
}

const EPS: f64 = 1e-16;
const TINY: f64 = 1e-300;

/// The regularized lower incomplete gamma function `P(a, x)`, `a > 0`, `x >= 0`.
pub fn gamma_p(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        0.0
    } else if x < a + 1.0 {
        gamma_series(a, x)
    } else {
        1.0 - gamma_fraction(a, x)
    }
}

/// The regularized upper incomplete gamma function `Q(a, x) = 1 - P(a, x)`, accurate in the
/// far tail too.
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        1.0
    } else if x < a + 1.0 {
        1.0 - gamma_series(a, x)
    } else {
        gamma_fraction(a, x)
    }
}

fn gamma_series(a: f64, x: f64) -> f64 {
    let (mut ap, mut sum) = (a, 1.0 / a);
    let mut del = sum;
    for _ in 0..1000 {
        ap += 1.0;
        del *= x / ap;
        sum += del;
        if del.abs() < sum.abs() * EPS {
            break;
        }
    }
    sum * (-x + a * x.ln() - ln_gamma(a)).exp()
}

fn gamma_fraction(a: f64, x: f64) -> f64 {
    let mut b = x + 1.0 - a;
    let mut c = 1.0 / TINY;
    let mut d = 1.0 / b;
    let mut h = d;
    for i in 1..1000 {
        let an = -(i as f64) * (i as f64 - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < TINY {
            d = TINY;
        }
        c = b + an / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < EPS {
            break;
        }
    }
    (-x + a * x.ln() - ln_gamma(a)).exp() * h
}

/// The regularized incomplete beta function `I_x(a, b)`, `a, b > 0`, `0 <= x <= 1`.
pub fn beta_inc(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    // The continued fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry
    // I_x(a, b) = 1 - I_{1-x}(b, a) beyond.
    if x < (a + 1.0) / (a + b + 2.0) {
        ln_front.exp() * beta_fraction(a, b, x) / a
    } else {
        1.0 - ln_front.exp() * beta_fraction(b, a, 1.0 - x) / b
    }
}

/// `x`, kept away from zero (Lentz's guard for the continued fraction).
fn off_zero(x: f64) -> f64 {
    if x.abs() < TINY {
        TINY
    } else {
        x
    }
}

fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 / off_zero(1.0 - qab * x / qap);
    let mut h = d;
    // One term of the modified Lentz recurrence: returns the factor `h` is multiplied by.
    let mut term = |aa: f64| {
        d = 1.0 / off_zero(1.0 + aa * d);
        c = off_zero(1.0 + aa / c);
        d * c
    };
    for m in 1..10_000 {
        let m = m as f64;
        let m2 = 2.0 * m;
        h *= term(m * (b - m) * x / ((qam + m2) * (a + m2)));
        let del = term(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)));
        h *= del;
        if (del - 1.0).abs() < EPS {
            break;
        }
    }
    h
}

/// The complementary error function `erfc(x)`.
pub fn erfc(x: f64) -> f64 {
    if x >= 0.0 {
        gamma_q(0.5, x * x)
    } else {
        1.0 + gamma_p(0.5, x * x)
    }
}

/// The standard normal CDF, `P(Z <= z)`.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

/// The standard normal upper tail, `P(Z > z)` (accurate far into the tail).
pub fn normal_sf(z: f64) -> f64 {
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

/// The standard normal quantile: the `z` with `P(Z <= z) = p`, for `0 < p < 1`
/// (`normal_quantile(0.975)` is 1.959964...). `NaN` outside `(0, 1)`.
pub fn normal_quantile(p: f64) -> f64 {
    if !(p > 0.0 && p < 1.0) {
        return f64::NAN;
    }
    if p > 0.5 {
        return -normal_quantile(1.0 - p);
    }
    // Lower half: P(Z <= z) = p with z <= 0, i.e. upper tail of -z is p.
    -invert_decreasing(normal_sf, p, 0.0, 40.0)
}

/// Student's t CDF with `df > 0` degrees of freedom (fractional df allowed).
pub fn t_cdf(t: f64, df: f64) -> f64 {
    let tail = t_sf(t.abs(), df);
    if t >= 0.0 {
        1.0 - tail
    } else {
        tail
    }
}

/// Student's t upper tail, `P(T > t)`, `df > 0` (accurate far into the tail).
pub fn t_sf(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if t.is_infinite() {
        return if t > 0.0 { 0.0 } else { 1.0 };
    }
    let half = 0.5 * beta_inc(df / 2.0, 0.5, df / (df + t * t));
    if t >= 0.0 {
        half
    } else {
        1.0 - half
    }
}

/// Student's t quantile: the `t` with `P(T <= t) = p`, `0 < p < 1`, `df > 0`
/// (`t_quantile(0.975, 10.0)` is 2.228139...). `NaN` outside that domain.
pub fn t_quantile(p: f64, df: f64) -> f64 {
    if !(p > 0.0 && p < 1.0) || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if p < 0.5 {
        return -t_quantile(1.0 - p, df);
    }
    if p == 0.5 {
        return 0.0;
    }
    let target = 1.0 - p;
    let mut hi = 2.0;
    while t_sf(hi, df) > target && hi < 1e300 {
        hi *= 2.0;
    }
    invert_decreasing(|t| t_sf(t, df), target, 0.0, hi)
}

/// The two-sided critical value of Student's t for a `level` interval (0.95 for 95%):
/// `t_quantile(1 - (1 - level) / 2, df)`; `t_critical(0.95, 10.0)` is 2.228139.
pub fn t_critical(level: f64, df: f64) -> f64 {
    t_quantile(1.0 - (1.0 - level) / 2.0, df)
}

/// The two-sided critical value of the standard normal for a `level` interval
/// (`z_critical(0.95)` is 1.959964).
pub fn z_critical(level: f64) -> f64 {
    normal_quantile(1.0 - (1.0 - level) / 2.0)
}

/// The two-sided p of a Student t statistic: `2 P(T > |t|)`.
pub fn t_two_sided_p(t: f64, df: f64) -> f64 {
    (2.0 * t_sf(t.abs(), df)).min(1.0)
}

/// The two-sided p of a standard normal statistic: `2 P(Z > |z|) = erfc(|z| / √2)`.
pub fn normal_two_sided_p(z: f64) -> f64 {
    erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0)
}

/// The binomial probability `P(X = k)` for `X ~ Binomial(n, p)`.
pub fn binomial_pmf(k: u64, n: u64, p: f64) -> f64 {
    if k > n {
        return 0.0;
    }
    if p <= 0.0 {
        return if k == 0 { 1.0 } else { 0.0 };
    }
    if p >= 1.0 {
        return if k == n { 1.0 } else { 0.0 };
    }
    (ln_choose(n, k) + k as f64 * p.ln() + (n - k) as f64 * (1.0 - p).ln()).exp()
}

/// The binomial lower tail `P(X <= k)` for `X ~ Binomial(n, p)`, summed term by term.
pub fn binomial_cdf(k: u64, n: u64, p: f64) -> f64 {
    (0..=k.min(n)).map(|i| binomial_pmf(i, n, p)).sum::<f64>().min(1.0)
}

/// Bisection of a decreasing `f` on `[lo, hi]` for `f(x) = target`, to the last bit.
fn invert_decreasing(f: impl Fn(f64) -> f64, target: f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..2000 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs().max(1.0)
    }

    /// Two-sided 95% (p = 0.975) and 99% (p = 0.995) critical values, from the standard
    /// table (NIST/SEMATECH e-Handbook 1.3.6.7.2, six significant digits where it gives them).
    #[test]
    fn t_quantiles_match_the_table() {
        let table = [
            (1.0, 12.706, 63.657),
            (2.0, 4.303, 9.925),
            (3.0, 3.182, 5.841),
            (5.0, 2.571, 4.032),
            (10.0, 2.228, 3.169),
            (20.0, 2.086, 2.845),
            (30.0, 2.042, 2.750),
            (60.0, 2.000, 2.660),
            (100.0, 1.984, 2.626),
        ];
        for (df, t975, t995) in table {
            assert!((t_quantile(0.975, df) - t975).abs() < 5e-4, "df {df}");
            assert!((t_quantile(0.995, df) - t995).abs() < 5e-4, "df {df}");
        }
        // Closed forms at df 1 (Cauchy) and df 2, to full precision.
        let tan = (std::f64::consts::PI * (0.975 - 0.5)).tan();
        assert!(close(t_quantile(0.975, 1.0), tan, 1e-12));
        let p: f64 = 0.975;
        let a = 4.0 * p * (1.0 - p);
        assert!(close(t_quantile(p, 2.0), 2.0 * (p - 0.5) * (2.0 / a).sqrt(), 1e-12));
        // Published to more digits: 12.7062047, 4.30265273, 2.22813885, 1.98397152.
        assert!(close(t_quantile(0.975, 1.0), 12.706_204_7, 1e-8));
        assert!(close(t_quantile(0.975, 2.0), 4.302_652_73, 1e-8));
        assert!(close(t_quantile(0.975, 10.0), 2.228_138_85, 1e-8));
        assert!(close(t_quantile(0.975, 100.0), 1.983_971_52, 1e-8));
        // One-sided 95%: 6.314 (df 1), 2.015 (df 5).
        assert!((t_quantile(0.95, 1.0) - 6.314).abs() < 5e-4);
        assert!((t_quantile(0.95, 5.0) - 2.015).abs() < 5e-4);
        assert!(close(t_quantile(0.025, 5.0), -2.570_581_8, 1e-7));
    }

    #[test]
    fn normal_values() {
        assert!(close(normal_quantile(0.975), 1.959_963_984_540_054, 1e-13));
        assert!(close(normal_quantile(0.995), 2.575_829_303_548_901, 1e-13));
        assert!(close(normal_quantile(0.5), 0.0, 1e-15));
        assert!(close(normal_cdf(1.0), 0.841_344_746_068_543, 1e-14));
        assert!(close(normal_sf(5.0), 2.866_515_718_791_939e-7, 1e-12));
        assert!(close(erfc(0.5), 0.479_500_122_186_953_5, 1e-14));
        assert!(close(erfc(-1.0), 1.842_700_792_949_715, 1e-14));
        assert!(close(z_critical(0.95), 1.959_964, 1e-6));
        // Large df (mpmath): the t distribution tends to the normal.
        assert!(close(t_quantile(0.975, 1000.0), 1.962_339_080_826_408, 1e-10));
        assert!(close(t_quantile(0.975, 1e5), 1.959_987_707_534_609, 1e-8));
        assert!(t_quantile(0.975, 1e5) > normal_quantile(0.975));
    }

    #[test]
    fn t_tails_and_p() {
        // P(T > 2.228, df 10) = 0.025 from the table.
        assert!((t_sf(2.228_138_85, 10.0) - 0.025).abs() < 1e-9);
        assert!((t_two_sided_p(2.0, 10.0) - 0.073_388_034_770_740_8).abs() < 1e-12);
        assert!(close(t_cdf(0.0, 3.0), 0.5, 1e-15));
        // df 1 is Cauchy: P(T > 1) = 1/4.
        assert!(close(t_sf(1.0, 1.0), 0.25, 1e-14));
    }

    #[test]
    fn gamma_and_binomial() {
        assert!(close(ln_gamma(10.0), (362_880f64).ln(), 1e-14));
        assert!(close(ln_gamma(0.5), std::f64::consts::PI.sqrt().ln(), 1e-14));
        assert!(close(ln_choose(22, 6).exp(), 74_613.0, 1e-12));
        assert!(close(binomial_cdf(6, 22, 0.5), 110_056.0 / 4_194_304.0, 1e-12));
        assert!(close(binomial_pmf(3, 10, 0.3), 0.266_827_932, 1e-8));
    }
}
