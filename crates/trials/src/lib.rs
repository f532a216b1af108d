#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod dist;
pub mod paired;
pub mod rate;
pub mod rows;
pub mod sample;
pub mod text;

pub use paired::{mcnemar, sign_test, McNemar, Paired};
pub use rate::{fisher_exact, wilson, wilson_z, Rate};
pub use sample::{mean, median, median_high, quantile, quantiles, sd, variance, MeanInterval};
