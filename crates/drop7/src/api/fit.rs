//! `fit` (ridge regressions of the `fitted` evaluator's weights on harvested boards) and
//! `mix` (linear mixes of weight files).

use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{
    check_range, dispatch, Control, Error, EvalChoice, InputFile, Job, Progress, SearchOptions,
    TableChoice,
};
use crate::search::eval::{FEATURES, FEATURE_NAMES};
use crate::search::fit::{
    group_samples, harvest_game, r_squared, ridge, rollout_game, samples, GameBoards, Group,
    Sample, Target,
};
use crate::search::{BatchSpec, DepthRule, Evaluator, Ready, Table};

/// `drop7 fit`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct FitRequest {
    /// The searcher that plays the harvested games (its `eval` is the policy's evaluator);
    /// a fixed depth only.
    pub search: SearchOptions,
    /// Games to harvest (game `i` uses seed `sub_seed(seed, i)`), [`FitRequest::GAMES`].
    pub games: u64,
    /// Stop a game after this many moves.
    pub max_moves: u32,
    /// What a board is fitted to: `end`, `discount:G` or `horizon:K`; a comma list fits
    /// each target to the same harvest.
    pub target: String,
    /// Ridge penalty: one, or one per target, comma-separated.
    pub ridge: String,
    /// Sibling rollouts at every K-th position (0: off, fit the boards of the game itself).
    pub rollouts: u32,
    /// Depth of the rollouts' searcher, [`FitRequest::ROLLOUT_DEPTH`].
    pub rollout_depth: u32,
    /// Moves per rollout.
    pub horizon: u32,
    /// The master seed.
    pub seed: u64,
}

impl FitRequest {
    /// The range of `games`.
    pub const GAMES: RangeInclusive<u64> = 2..=1_000_000;
    /// The range of `rollout_depth`.
    pub const ROLLOUT_DEPTH: RangeInclusive<u32> = 1..=5;
}

impl Default for FitRequest {
    fn default() -> Self {
        FitRequest {
            search: SearchOptions::default(),
            games: 200,
            max_moves: 100_000,
            target: "end".into(),
            ridge: "0.001".into(),
            rollouts: 0,
            rollout_depth: 2,
            horizon: 40,
            seed: 1,
        }
    }
}

/// One target's fit.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FitReport {
    /// The target as given (`end`, `discount:0.97`, ...).
    pub target: String,
    /// The ridge penalty used.
    pub ridge: f64,
    /// Boards fitted.
    pub samples: usize,
    /// Mean target.
    pub mean_target: f64,
    /// R^2 on the fitted boards.
    pub r_squared: f64,
    /// R^2 held out (two folds by game parity), if both folds could be fitted.
    pub r_squared_held_out: Option<f64>,
    /// The weights by feature name.
    pub weights: BTreeMap<String, f64>,
    /// The weights in feature order.
    pub weight_list: Vec<f64>,
    /// The weight file's text (a `#` header, then `name weight` lines), for
    /// `--eval fitted:@FILE`.
    #[serde(skip)]
    pub text: String,
}

/// The fits (the CLI's `--json`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FitResponse {
    /// The policy's evaluator label.
    pub policy: String,
    /// The policy's depth.
    pub depth: u32,
    /// `paired` or `sampled:LIST`.
    pub reveals: String,
    /// Games harvested.
    pub games: u64,
    /// The master seed.
    pub seed: u64,
    /// Wall seconds of the harvest.
    pub seconds: f64,
    /// One fit per target.
    pub fits: Vec<FitReport>,
}

/// What a harvest gives: boards of the games, or groups of sibling rollouts.
enum Harvest {
    Games(Vec<GameBoards>),
    Groups(Vec<Group>),
}

struct HarvestJob<'a> {
    spec: BatchSpec,
    /// (every, depth, horizon) of sibling rollouts, if any.
    rollouts: Option<(u32, u32, u32)>,
    ctl: Control<'a>,
}

impl Job for HarvestJob<'_> {
    type Out = Harvest;
    fn run<E, T>(self, eval: E, make_table: impl Fn() -> T + Sync) -> Self::Out
    where
        E: Evaluator + Clone + Send,
        T: Table + Send,
    {
        use rayon::prelude::*;
        let spec = &self.spec;
        let ctl = self.ctl;
        let abort = ctl.abort_flag();
        let done = AtomicU64::new(0);
        let tick = || {
            ctl.report(Progress::new(done.fetch_add(1, Ordering::Relaxed) + 1, Some(spec.games)))
        };
        // In game order for any thread count.
        let range = spec.first..spec.first.saturating_add(spec.games);
        if let Some((every, depth, horizon)) = self.rollouts {
            let groups: Vec<Vec<Group>> = range
                .into_par_iter()
                .map(|i| {
                    if ctl.aborted() {
                        return Vec::new();
                    }
                    let make = || spec.searcher(eval.clone(), make_table()).with_abort(abort);
                    let (mut s, mut r) = (make(), make());
                    let out = rollout_game(&mut s, &mut r, spec, i, every, depth, horizon);
                    tick();
                    out
                })
                .collect();
            return Harvest::Groups(groups.into_iter().flatten().collect());
        }
        let games: Vec<GameBoards> = range
            .into_par_iter()
            .map(|i| {
                if ctl.aborted() {
                    return GameBoards { game: i, boards: Vec::new(), points: Vec::new() };
                }
                let mut s = spec.searcher(eval.clone(), make_table()).with_abort(abort);
                if let Some(schedule) = spec.chance_schedule {
                    s.set_chance_schedule(&schedule, spec.depth.min_depth());
                }
                let out = harvest_game(&mut s, spec, i);
                tick();
                out
            })
            .collect();
        Harvest::Games(games)
    }
}

fn parse_target(s: &str) -> Result<Target, Error> {
    let bad = || {
        Error::input(format!(
            "target: {s:?}, use end, discount:G (0 < G <= 1) or horizon:K (K >= 1)"
        ))
    };
    match s.split_once(':') {
        None if s == "end" => Ok(Target::ToEnd),
        Some(("discount", g)) => {
            let g: f64 = g.trim().parse().map_err(|_| bad())?;
            if g > 0.0 && g <= 1.0 {
                Ok(Target::Discount(g))
            } else {
                Err(bad())
            }
        }
        Some(("horizon", k)) => {
            let k: u32 = k.trim().parse().map_err(|_| bad())?;
            if k >= 1 {
                Ok(Target::Horizon(k))
            } else {
                Err(bad())
            }
        }
        _ => Err(bad()),
    }
}

/// Harvests the games (in parallel on the current rayon pool; the same boards for any
/// size) and fits each target by ridge regression. Progress: one unit per harvested game.
pub fn fit(req: &FitRequest, ctl: Control<'_>) -> Result<FitResponse, Error> {
    let o = &req.search;
    let eval = EvalChoice::parse("search.eval", &o.eval)?;
    let names: Vec<&str> = req.target.split(',').map(str::trim).collect();
    let targets: Vec<_> = names.iter().map(|t| parse_target(t)).collect::<Result<_, _>>()?;
    let ridges: Vec<f64> = req
        .ridge
        .split(',')
        .map(|x| x.trim().parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0))
        .collect::<Option<_>>()
        .ok_or_else(|| {
            Error::input(format!("ridge: {:?}, expected numbers >= 0, comma-separated", req.ridge))
        })?;
    if ridges.len() != 1 && ridges.len() != targets.len() {
        return Err(Error::input("ridge: give one penalty, or one per target"));
    }
    if o.budget.is_some() {
        return Err(Error::input(
            "search.budget: for play, ab and decide, not fit: use search.depth",
        ));
    }
    o.rules()?;
    let table = TableChoice::parse(&o.table)?;
    o.check()?;
    check_range("rollout_depth", req.rollout_depth, FitRequest::ROLLOUT_DEPTH)?;
    check_range("games", req.games, FitRequest::GAMES)?;
    let spec = o.batch(req.seed, 0, req.games, DepthRule::Fixed(o.depth), req.max_moves, false)?;
    let start = Instant::now();
    let rollouts = (req.rollouts > 0).then_some((req.rollouts, req.rollout_depth, req.horizon));
    let harvest = dispatch(&eval, table, o.table_bits, HarvestJob { spec, rollouts, ctl });
    ctl.check()?;
    let secs = start.elapsed().as_secs_f64();
    let mut fits = Vec::new();
    for (k, (&target, name)) in targets.iter().zip(&names).enumerate() {
        let lambda = ridges[k.min(ridges.len() - 1)];
        let samples = match &harvest {
            Harvest::Games(games) => samples(games, target),
            Harvest::Groups(groups) => group_samples(groups, target),
        };
        let none = || Error::failed("the regression has no solution (too few samples?)");
        let fitted = ridge(&samples, lambda).ok_or_else(none)?;
        let r2 = r_squared(&fitted, &samples);
        // Two folds by game parity: fit on one half of the games, score on the other.
        let (even, odd): (Vec<Sample>, Vec<Sample>) = samples.iter().partition(|s| s.game % 2 == 0);
        let held_out = match (ridge(&even, lambda), ridge(&odd, lambda)) {
            (Some(fe), Some(fo)) => Some((r_squared(&fe, &odd) + r_squared(&fo, &even)) / 2.0),
            _ => None,
        };
        let n = samples.len().max(1) as f64;
        let mean_target = samples.iter().map(|s| s.target).sum::<f64>() / n;
        let mut text = format!(
            "# drop7 fit: search.eval {}, search.depth {}, search.reveals {}, games {}, seed {}, target {name}, ridge {lambda}{}\n",
            eval.label(),
            o.depth,
            o.reveals_label(),
            req.games,
            req.seed,
            rollouts.map_or(String::new(), |(k, d, h)| format!(
                ", rollouts {k}, rollout_depth {d}, horizon {h}"
            )),
        );
        text.push_str(&format!(
            "# {} boards, mean target {mean_target:.0}, R^2 {r2:.4}, held out (2 folds by game) {}\n",
            samples.len(),
            held_out.map_or("-".into(), |x| format!("{x:.4}"))
        ));
        for (f, w) in FEATURE_NAMES.iter().zip(&fitted.weights) {
            text.push_str(&format!("{f} {w}\n"));
        }
        fits.push(FitReport {
            target: name.to_string(),
            ridge: lambda,
            samples: samples.len(),
            mean_target,
            r_squared: r2,
            r_squared_held_out: held_out,
            weights: FEATURE_NAMES
                .iter()
                .zip(&fitted.weights)
                .map(|(n, w)| ((*n).to_string(), *w))
                .collect(),
            weight_list: fitted.weights.to_vec(),
            text,
        });
    }
    Ok(FitResponse {
        policy: eval.label(),
        depth: o.depth,
        reveals: o.reveals_label(),
        games: req.games,
        seed: req.seed,
        seconds: secs,
        fits,
    })
}

// ---------------------------------------------------------------------------------------
// mix

/// `drop7 mix`: `K1 * FILE1 + K2 * FILE2 + ...` feature by feature, for
/// `--eval fitted:@OUT`. `ready` as a file stands for `Ready::default()` written as fitted
/// weights (the test `fitted_spans_ready` checks the identity).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MixRequest {
    /// The terms: each factor as given (`0.5`) and its weight file (named `ready` for the
    /// default `ready` evaluator, whose bytes are then ignored).
    pub terms: Vec<(String, InputFile)>,
}

/// The mix.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MixResponse {
    /// The weights in feature order.
    pub weights: Vec<f64>,
    /// The weight file's text: a `# drop7 mix: K1 * FILE1 + ...` line, then one
    /// `name weight` line per feature (weights as Python's `repr` writes them).
    pub text: String,
}

/// `Ready::default()` as fitted weights.
fn ready_weights() -> [f64; FEATURES] {
    let r = Ready::default();
    let (c, rd) = (r.crowding, r.ready);
    let mut w = [0.0; FEATURES];
    let mut set = |name: &str, x: f64| {
        let i = FEATURE_NAMES.iter().position(|n| *n == name).expect("a feature");
        w[i] = x;
    };
    for v in 1..=7 {
        set(&format!("v{v}"), -c.disc);
    }
    set("solid", -c.disc - c.solid);
    set("cracked", -c.disc - c.cracked);
    for h in [5i32, 6, 7] {
        set(&format!("h{h}"), -c.tall * f64::from((h - 4).pow(2)));
    }
    for d in 1..=5 {
        set(&format!("full_d{d}"), -c.full * f64::from(6 - d));
    }
    set("ready", rd);
    w
}

/// A weight file with every feature named, in order.
fn named_weights(file: &InputFile) -> Result<[f64; FEATURES], Error> {
    let bad = || Error::input(format!("{}: expected the {FEATURES} features in order", file.name));
    let text = std::str::from_utf8(file.contents()?).map_err(|_| bad())?;
    // Every line `NAME WEIGHT`, the names exactly the features in order.
    let mut names = Vec::new();
    let mut map: BTreeMap<String, f64> = BTreeMap::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split_whitespace();
        let (Some(name), Some(value), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(bad());
        };
        let x: f64 = value.parse().map_err(|_| bad())?;
        if map.insert(name.to_string(), x).is_none() {
            names.push(name.to_string());
        }
    }
    if names.iter().map(String::as_str).ne(FEATURE_NAMES.iter().copied()) {
        return Err(bad());
    }
    Ok(std::array::from_fn(|i| map[FEATURE_NAMES[i]]))
}

/// `x` as Python's `repr(float)` writes it (shortest round-trip digits; positional for
/// decimal exponents -4..16, else `1e-05` / `1.5e+16`), so mixes read like the files the
/// Python script wrote.
fn py_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let sci = format!("{x:e}"); // shortest digits: `-1.2345e3`
    let (mantissa, exp) = sci.split_once('e').expect("`{:e}` has an exponent");
    let exp: i32 = exp.parse().expect("an integer exponent");
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    if (-4..16).contains(&exp) {
        let n = digits.len() as i32;
        if exp >= 0 {
            let int_len = exp + 1;
            if n <= int_len {
                let zeros = "0".repeat((int_len - n) as usize);
                format!("{sign}{digits}{zeros}.0")
            } else {
                let (a, b) = digits.split_at(int_len as usize);
                format!("{sign}{a}.{b}")
            }
        } else {
            let zeros = "0".repeat((-exp - 1) as usize);
            format!("{sign}0.{zeros}{digits}")
        }
    } else {
        let (a, b) = digits.split_at(1);
        let frac = if b.is_empty() { String::new() } else { format!(".{b}") };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{a}{frac}e{esign}{:02}", exp.abs())
    }
}

/// Mixes the weight files: `sum of K * weights`, feature by feature, in the terms' order.
pub fn mix(req: &MixRequest, ctl: Control<'_>) -> Result<MixResponse, Error> {
    if req.terms.is_empty() {
        return Err(Error::input("mix: give K FILE pairs (K1 FILE1 [K2 FILE2 ...])"));
    }
    let mut total = [0.0f64; FEATURES];
    let mut parts = Vec::new();
    for (k, file) in &req.terms {
        ctl.check()?;
        let w = if file.name == "ready" { ready_weights() } else { named_weights(file)? };
        let kf: f64 =
            k.trim().parse().map_err(|_| Error::input(format!("mix: {k:?} is not a number")))?;
        for (t, x) in total.iter_mut().zip(w) {
            *t += kf * x;
        }
        parts.push(format!("{k} * {}", file.name));
    }
    let mut text = format!("# drop7 mix: {}\n", parts.join(" + "));
    for (n, w) in FEATURE_NAMES.iter().zip(total) {
        text.push_str(&format!("{n} {}\n", py_repr(w)));
    }
    Ok(MixResponse { weights: total.to_vec(), text })
}

#[cfg(test)]
mod tests {
    use super::super::parse_weights;
    use super::*;

    #[test]
    fn py_repr_writes_floats_as_python_does() {
        let cases = [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (-900.0, "-900.0"),
            (1200.0, "1200.0"),
            (0.5, "0.5"),
            (-1351.616451059801, "-1351.616451059801"),
            (9.371704409404449e-13, "9.371704409404449e-13"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1e16, "1e+16"),
            (1234567890123456.0, "1234567890123456.0"),
            (1.5e300, "1.5e+300"),
            (123.456, "123.456"),
        ];
        for (x, want) in cases {
            assert_eq!(py_repr(x), want, "{x:e}");
        }
    }

    #[test]
    fn ready_mixes_to_itself() {
        let req = MixRequest { terms: vec![("1".into(), InputFile::new("ready", ""))] };
        let out = mix(&req, Control::new()).unwrap();
        let fitted = parse_weights("mix", &out.text).unwrap();
        assert_eq!(fitted.weights, ready_weights());
        assert!(out.text.starts_with("# drop7 mix: 1 * ready\nbias 0.0\nv1 -900.0\n"));
    }
}
