//! `drop7 tune`: a seeded coordinate search over the `ready` evaluator's seven weights.
//!
//! Every candidate plays the same games ([`play`] with the request's seed and game count), so
//! the comparisons are paired. In each pass, weight by weight, the search tries the weight
//! scaled up and then down (x1.5 and /1.5 in the first pass, x1.25 and x0.8 after; a zero
//! weight is tried at 300), keeps the first candidate whose mean is higher than the best so
//! far, and moves on to the next weight. Deterministic: the same request gives the same path.
//! (It replaces `crates/drop7/scripts/tune.py`, the search that found `Ready::default`.)

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use super::{check_range, play, Control, EvalSpec, PlayRequest, SearchOptions};
use bits::job::{Error, Progress};

/// The names of the seven `ready` weights, in the order of `ready:W1,...,W7`.
pub const READY_WEIGHTS: [&str; 7] =
    ["disc", "solid", "cracked", "tall", "full", "ready", "latent"];

/// `drop7 tune`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct TuneRequest {
    /// The rules and the searcher every candidate plays with (its `eval` is replaced by each
    /// candidate's `ready:` weights).
    pub search: SearchOptions,
    /// The seven starting weights.
    pub start: [f64; 7],
    /// Games a candidate plays (the same seeded games for every candidate),
    /// [`TuneRequest::GAMES`].
    pub games: u64,
    /// The games' master seed.
    pub seed: u64,
    /// Passes over the seven weights.
    pub passes: u32,
    /// Stop a game after this many moves.
    pub max_moves: u32,
}

impl TuneRequest {
    /// The range of `games`.
    pub const GAMES: RangeInclusive<u64> = 1..=100_000;
}

impl Default for TuneRequest {
    fn default() -> Self {
        TuneRequest {
            search: SearchOptions { depth: 2, reveal_samples: "8".into(), ..Default::default() },
            start: [600.0, 500.0, 250.0, 800.0, 3000.0, 1200.0, 0.0],
            games: 512,
            seed: 1000,
            passes: 2,
            max_moves: 100_000,
        }
    }
}

/// One candidate the search played.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TuneStep {
    /// The pass (0-based).
    pub pass: u32,
    /// The weight changed.
    pub weight: String,
    /// The factor tried (1.5, 1/1.5, 1.25 or 0.8).
    pub factor: f64,
    /// The candidate's weights.
    pub weights: [f64; 7],
    /// Its mean score over the games.
    pub mean: f64,
    /// Whether it beat the best so far (and became the new best).
    pub kept: bool,
}

/// What `tune` found.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TuneResponse {
    /// The starting weights (not serialised: the request's).
    #[serde(skip)]
    pub start: [f64; 7],
    /// The starting weights' mean.
    pub start_mean: f64,
    /// Every candidate, in the order played.
    pub steps: Vec<TuneStep>,
    /// The best weights.
    pub best: [f64; 7],
    /// Their mean.
    pub best_mean: f64,
}

/// A weight rounded to 6 significant digits (the precision the candidates are written with,
/// so that the `ready:` text a user copies plays exactly the weights that were measured).
fn round6(x: f64) -> f64 {
    format!("{x:.5e}").parse().unwrap_or(x)
}

/// Seven `ready` weights from `W1,..,W7` (the CLI's `--start`); a bad list is an input error
/// naming the request's field, `start`.
pub fn parse_start(text: &str) -> Result<[f64; 7], Error> {
    let bad = || Error::input(format!("start: {text:?}, expected seven numbers W1,..,W7"));
    let parts: Vec<f64> =
        text.split(',').map(|x| x.trim().parse()).collect::<Result<_, _>>().map_err(|_| bad())?;
    parts.try_into().map_err(|_| bad())
}

/// The evaluator text of weights `w`: `ready:W1,...,W7`.
pub fn ready_spec(w: &[f64; 7]) -> String {
    let parts: Vec<String> = w.iter().map(|x| format!("{x}")).collect();
    format!("ready:{}", parts.join(","))
}

/// Runs the coordinate search. Progress counts candidates (of at most `1 + passes * 14`);
/// the abort flag stops it within one move of any game ([`Error::Aborted`]).
pub fn tune(req: &TuneRequest, ctl: Control<'_>) -> Result<TuneResponse, Error> {
    check_range("games", req.games, TuneRequest::GAMES)?;
    let total = 1 + u64::from(req.passes) * 2 * READY_WEIGHTS.len() as u64;
    let played = std::cell::Cell::new(0u64);
    let mean_of = |w: &[f64; 7]| -> Result<f64, Error> {
        let mut search = req.search.clone();
        search.eval = EvalSpec::new(ready_spec(w));
        let play_req = PlayRequest {
            search,
            games: req.games,
            seed: req.seed,
            max_moves: req.max_moves,
            ..Default::default()
        };
        let quiet = Control::new();
        let inner = match ctl.abort_flag() {
            Some(flag) => quiet.with_abort(flag),
            None => quiet,
        };
        let mean = play(&play_req, inner)?.report.summary.mean;
        played.set(played.get() + 1);
        ctl.report(Progress::new(played.get(), Some(total)).with_message(format!("{mean:.0}")));
        Ok(mean)
    };
    let mut w = req.start.map(round6);
    let start_mean = mean_of(&w)?;
    let mut best = start_mean;
    let mut steps = Vec::new();
    for pass in 0..req.passes {
        let factors: [f64; 2] = if pass == 0 { [1.5, 1.0 / 1.5] } else { [1.25, 0.8] };
        for (i, name) in READY_WEIGHTS.iter().enumerate() {
            for factor in factors {
                let mut cand = w;
                cand[i] = if cand[i] != 0.0 { round6(cand[i] * factor) } else { 300.0 };
                let mean = mean_of(&cand)?;
                let kept = mean > best;
                steps.push(TuneStep {
                    pass,
                    weight: (*name).to_string(),
                    factor,
                    weights: cand,
                    mean,
                    kept,
                });
                if kept {
                    (w, best) = (cand, mean);
                    break;
                }
            }
        }
    }
    Ok(TuneResponse { start: req.start, start_mean, steps, best: w, best_mean: best })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    fn small() -> TuneRequest {
        TuneRequest {
            search: SearchOptions { depth: 1, ..Default::default() },
            games: 3,
            seed: 4,
            passes: 1,
            max_moves: 40,
            ..Default::default()
        }
    }

    #[test]
    fn the_search_is_deterministic_and_keeps_only_improvements() {
        let a = tune(&small(), Control::new()).unwrap();
        assert_eq!(a, tune(&small(), Control::new()).unwrap());
        let mut best = a.start_mean;
        for s in &a.steps {
            assert_eq!(s.kept, s.mean > best, "{s:?}");
            if s.kept {
                best = s.mean;
            }
        }
        assert_eq!(best, a.best_mean);
        // At most two candidates a weight, exactly two where neither was kept.
        assert!(a.steps.len() <= 14 && a.steps.len() >= 7);
        // The best weights replay to the best mean as a plain `play` of their text.
        let req = PlayRequest {
            search: SearchOptions {
                depth: 1,
                eval: EvalSpec::new(ready_spec(&a.best)),
                ..Default::default()
            },
            games: 3,
            seed: 4,
            max_moves: 40,
            ..Default::default()
        };
        assert_eq!(play(&req, Control::new()).unwrap().report.summary.mean, a.best_mean);
    }

    #[test]
    fn weights_round_to_six_digits_and_zero_is_tried_at_300() {
        assert_eq!(round6(1000.0 / 1.5), 666.667);
        assert_eq!(
            ready_spec(&[600.0, 500.0, 250.0, 800.0, 3000.0, 1200.0, 0.0]),
            "ready:600,500,250,800,3000,1200,0"
        );
        let a = tune(&small(), Control::new()).unwrap();
        let latent = a.steps.iter().find(|s| s.weight == "latent").unwrap();
        assert_eq!(latent.weights[6], 300.0);
    }

    #[test]
    fn an_aborted_tune_returns_within_100_ms() {
        let req = TuneRequest { games: 10_000, max_moves: 100_000, ..small() };
        let flag = AtomicBool::new(false);
        std::thread::scope(|s| {
            let h = s.spawn(|| tune(&req, Control::new().with_abort(&flag)));
            std::thread::sleep(Duration::from_millis(50));
            flag.store(true, Ordering::Relaxed);
            let t = Instant::now();
            let r = h.join().unwrap();
            assert!(t.elapsed() < Duration::from_millis(100), "{:?}", t.elapsed());
            assert_eq!(r.unwrap_err(), Error::Aborted);
        });
    }
}
