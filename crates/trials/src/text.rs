//! Number formatting shared by the games' text reports: thousands separators as Python's
//! `f"{x:,.0f}"` prints them, and p values that stay readable when tiny.
//!
//! ```
//! use trials::text::{group_digits, grouped, pval};
//!
//! assert_eq!(grouped(1234567.5, 0), "1,234,568");
//! assert_eq!(group_digits("-1234.5"), "-1,234.5");
//! assert_eq!(pval(5.6e-8), "5.6e-8");
//! ```

/// A p value for the `--exact` lines: four decimals, or two significant digits below 1e-4
/// (where four decimals would print 0.0000).
pub fn pval(p: f64) -> String {
    if p < 1e-4 {
        format!("{p:.1e}")
    } else {
        format!("{p:.4}")
    }
}

/// `x` rounded to `decimals` with thousands separators, as Python's `f"{x:,.{decimals}f}"`.
pub fn grouped(x: f64, decimals: usize) -> String {
    group_digits(&format!("{x:.decimals$}"))
}

/// Thousands separators in the integer part of a decimal string (`-1234.5` -> `-1,234.5`).
pub fn group_digits(s: &str) -> String {
    let (sign, rest) = s.strip_prefix('-').map_or(("", s), |r| ("-", r));
    let (int, frac) = rest.split_once('.').map_or((rest, ""), |(i, f)| (i, f));
    let mut out = String::from(sign);
    for (k, ch) in int.chars().enumerate() {
        if k > 0 && (int.len() - k) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_grouped_like_python() {
        assert_eq!(grouped(1234567.5, 0), "1,234,568");
        assert_eq!(grouped(-29910.2, 0), "-29,910");
        assert_eq!(grouped(999.0, 0), "999");
        assert_eq!(grouped(-0.2, 0), "-0");
        assert_eq!(grouped(12345.678, 2), "12,345.68");
        assert_eq!(group_digits("1000"), "1,000");
        assert_eq!(pval(0.03125), "0.0312");
        assert_eq!(pval(5.6e-8), "5.6e-8");
    }
}
