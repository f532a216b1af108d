//! The verbs of `bitarcade snake`, typed for every front end (the CLI, a web server, Python):
//! [`tournament`] plays every player on the same seeded games, [`play`] and [`watch`] play one
//! game, [`replay`] checks a record and [`bench`](fn@bench) times BFS against A*.
//!
//! Each verb takes a plain request (serde, every field defaulted in its `Default`, so JSON may
//! omit fields) and a [`Control`] (abort flag, progress callback), and returns a plain response
//! or an [`Error`] whose message is the CLI's. The API reads no files and prints nothing: games
//! come back as [`Record`](crate::Record)s, and [`watch`] hands each frame to the caller's callback.
//! [`tournament`] runs on the caller's rayon pool; its answer (times aside) is the same for any
//! number of threads. Every response prints as the CLI prints it (`Display`).
//!
//! ```
//! use snake::api::{play, replay, Control, PlayRequest, ReplayRequest, Setup};
//!
//! let req = PlayRequest {
//!     player: "cycle".into(),
//!     setup: Setup { size: "6x6".into(), ..Setup::default() },
//!     seed: 7,
//! };
//! let out = play(&req, Control::new()).unwrap();
//! assert_eq!(out.report.status, "Won");
//! assert_eq!(out.report.score, out.max_score);
//! let back = replay(&ReplayRequest { file: bits::job::InputFile::json("game.json", &out.record) }, Control::new());
//! assert_eq!(back.unwrap().score, 35);
//! ```

mod bench;
pub mod contract;
mod play;
mod text;
mod tournament;

pub use bench::{bench, BenchLine, BenchRequest, BenchResponse};
pub use bits::job::{Control, Error, Progress, Shard};
pub use play::{play, replay, watch, PlayReport, PlayRequest, PlayResponse, ReplayRequest};
pub use play::{ReplayResponse, WatchRequest, WatchResponse};
pub use text::frame_text;
pub use tournament::{tournament, Row, TournamentRequest, TournamentResponse};

use serde::{Deserialize, Serialize};

use crate::{Config, PlayerKind, Size};

/// The board and rules shared by the playing verbs.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Setup {
    /// Board size `WxH` (each side 1..=32).
    pub size: String,
    /// Start length (the body trails west of the head, which starts at the centre).
    pub start_len: usize,
    /// Moves without eating before a game is stopped as stalled (default
    /// `max(1000, 4 * cells)`).
    pub stall: Option<u64>,
}

impl Default for Setup {
    fn default() -> Self {
        Setup { size: "10x10".into(), start_len: 1, stall: None }
    }
}

impl Setup {
    /// The validated game config.
    pub fn config(&self) -> Result<Config, Error> {
        let size: Size = self.size.parse().map_err(|e| Error::input(format!("setup.size: {e}")))?;
        let mut config = Config::new(size);
        config.start_len = self.start_len;
        if config.start_len > config.start_x + 1 {
            config.start_x = config.start_len - 1;
        }
        if let Some(s) = self.stall {
            config.stall_limit = s;
        }
        config.validate().map_err(|e| Error::input(format!("bad setup: {e}")))?;
        Ok(config)
    }
}

/// A player by name; a bad name is an input error naming the request's `field`.
fn parse_player(field: &str, s: &str) -> Result<PlayerKind, Error> {
    s.parse().map_err(|e: String| Error::input(format!("{field}: {e}")))
}

pub(crate) use bits::job::check_range;

/// The statistics of the snake verbs, from `trials`.
mod stats {
    /// Mean of `v` and the half-width of its 95% confidence interval (1.96 standard errors,
    /// sample variance with `n - 1`).
    pub(super) fn mean_ci95(v: &[f64]) -> (f64, f64) {
        let mean = trials::sample::mean(v).unwrap_or(f64::NAN);
        (mean, trials::sample::normal_half_width(v, 1.96))
    }

    /// The upper median (element `len / 2` after sorting).
    pub(super) fn median(v: Vec<f64>) -> f64 {
        trials::sample::median_high(&v).unwrap_or(f64::NAN)
    }
}

#[cfg(test)]
mod tests;
