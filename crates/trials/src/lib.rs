//! Statistics for bitarcade's measurements, one module for every game.
//!
//! - [`dist`]: the normal, Student t and binomial distributions, exact to near double
//!   precision (quantiles by inversion, not approximation formulas).
//! - [`sample`]: mean, standard deviation, median, quantiles, and [`MeanInterval`], the
//!   mean with its Student t (or any critical value) interval.
//! - [`paired`]: two players on the same games: [`Paired`] (the mean difference with its
//!   interval, the paired t test, the sign test), [`sign_test`] and [`mcnemar`].
//! - [`rate`]: `k` of `n` (games that reached 32768, games won): [`wilson`] and
//!   [`fisher_exact`].
//! - [`legacy`]: the CLI's former approximations (Cornish-Fisher t, Abramowitz-Stegun
//!   normal tail), only for byte-identical output while callers are rewired.
//! - [`rows`]: the per-game result rows under `crates/*/results/` and their summaries and
//!   comparisons, as `bitarcade stats` prints them.
//!
//! ```
//! use trials::{MeanInterval, Paired};
//! let scores = [310_000.0, 402_000.0, 287_000.0, 515_000.0, 366_000.0];
//! let m = MeanInterval::student(&scores, 0.95).unwrap();
//! assert!(m.low < m.mean && m.mean < m.high);
//! assert!((trials::dist::t_critical(0.95, 4.0) - 2.776445).abs() < 1e-6);
//!
//! let other = [300_000.0, 380_000.0, 290_000.0, 500_000.0, 350_000.0];
//! let p = Paired::student(&scores, &other, 0.95).unwrap();
//! assert_eq!((p.a_better, p.b_better), (4, 1));
//! assert!((p.sign_p - 0.375).abs() < 1e-12); // 2 * (1 + 5) / 32
//! ```

#![forbid(unsafe_code)]

pub mod dist;
pub mod legacy;
pub mod paired;
pub mod rate;
pub mod rows;
pub mod sample;

pub use paired::{mcnemar, sign_test, McNemar, Paired};
pub use rate::{fisher_exact, wilson, wilson_z, Rate};
pub use sample::{mean, median, median_high, quantile, quantiles, sd, variance, MeanInterval};
