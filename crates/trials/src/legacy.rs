//! Approximations the CLI printed before this crate existed, kept operation for operation
//! so that a caller switched to `trials` can keep its output byte for byte (the `--json`
//! documents print every digit of an `f64`). New code uses [`crate::dist`]: these are for
//! the lead to keep or drop when rewiring `drop7 play` and `drop7 ab`.
//!
//! Where they differ from the exact values: [`cornish_fisher_t95`] is low by 44% at 1 df
//! (7.15 against 12.71), 10% at 2 df, 3.7% at 3 df, 0.9% at 5 df, 0.12% at 10 df, and within
//! 0.1% only from 11 df (drop7's doc comment said "within 0.1% for df >= 3");
//! [`normal_tail_as`] is within 1.5e-7 of the exact tail.

/// The two-sided 95% Student t quantile by the Cornish-Fisher expansion around
/// z = 1.959964 (two terms), as `drop7 play` and `drop7 ab` compute their `ci95`; `df`
/// below 1 counts as 1.
pub fn cornish_fisher_t95(df: f64) -> f64 {
    let z: f64 = 1.959_964;
    let df = df.max(1.0);
    z + (z.powi(3) + z) / (4.0 * df)
        + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * df * df)
}

/// The standard normal upper tail `P(Z > z)` by Abramowitz and Stegun 7.1.26 (absolute
/// error below 1.5e-7), as `drop7 ab` computes its `p_two_sided_normal_approx`
/// (`2 * normal_tail_as(|t|)`).
pub fn normal_tail_as(z: f64) -> f64 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dist;

    #[test]
    fn close_to_the_exact_values() {
        for df in [11.0, 20.0, 30.0, 63.0, 100.0] {
            let exact = dist::t_critical(0.95, df);
            assert!((cornish_fisher_t95(df) / exact - 1.0).abs() < 1e-3, "df {df}");
        }
        let low = |df: f64| 1.0 - cornish_fisher_t95(df) / dist::t_critical(0.95, df);
        assert!((low(1.0) - 0.437).abs() < 1e-3 && (low(3.0) - 0.037).abs() < 1e-3);
        assert!((low(5.0) - 0.009).abs() < 1e-3);
        assert_eq!(cornish_fisher_t95(0.0), cornish_fisher_t95(1.0));
        for z in [-3.0, -1.0, 0.0, 0.5, 1.96, 4.0] {
            assert!((normal_tail_as(z) - dist::normal_sf(z)).abs() < 1.5e-7, "z {z}");
        }
    }
}
