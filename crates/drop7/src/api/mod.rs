//! The verbs of `bitarcade drop7` as a typed API: one function per verb, a plain request in
//! (serde, every field defaulted, so JSON may omit any), a plain response out. The CLI, a
//! web server and Python are three callers of the same functions, so the same request gives
//! the same answer everywhere.
//!
//! - [`play`]: seeded batches (or one Sequence stream) with the expectimax, every record
//!   replayed; [`decide`]: the value of every column of one position; [`replay`]: check
//!   records; [`sweep`]: the engine against the reference; [`ab`]: two evaluators on the
//!   same seeds; [`bench()`]: throughput and table timings; [`fit`]: fit the `fitted` weights;
//!   [`mix`]: linear mixes of fitted weights; [`train`]: train an n-tuple network; [`tune`]:
//!   a seeded coordinate search over the `ready` weights.
//! - [`contract`]: Drop7 under the one live contract ([`bits::live::Game`]) that the web
//!   arcade and Python share.
//! - No verb reads or writes files or prints: weight files, streams and records come in as
//!   text or bytes ([`InputFile`], [`EvalSpec`]), training checkpoints go out through a
//!   callback. Parallel verbs run on the caller's rayon pool (results never depend on its
//!   size).
//! - A [`Control`] carries the abort flag (checked per move, and every
//!   [`Abort::EVERY`](crate::search::Abort::EVERY) moves inside a search, so even one deep
//!   decision stops within milliseconds; a stopped verb returns [`Error::Aborted`]) and the
//!   progress callback.
//! - Every response prints as the CLI prints it: `Display` (or a `text` method where the
//!   text names an output file the caller chose).
//!
//! ```
//! use drop7::api::{decide, Control, DecideRequest};
//!
//! let req = DecideRequest {
//!     position: "......./......./......./......./......./..3..../####### next=5 level=1 drops=4 score=0".into(),
//!     search: drop7::api::SearchOptions { depth: 2, ..Default::default() },
//! };
//! let out = decide(&req, Control::new()).unwrap();
//! assert_eq!(out.values.len(), 7);
//! assert!(out.values[out.best_column - 1].is_some());
//! ```

mod bench;
pub mod contract;
mod fit;
mod play;
mod stats;
mod text;
mod train;
mod tune;
mod weights;

use std::fmt::Display;
use std::ops::{RangeBounds, RangeInclusive};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use bench::{bench, BenchRequest, BenchResponse, DecisionBench, EngineBench};
pub use bits::job::{Control, Error, Progress, Shard};
pub use fit::{fit, mix, FitReport, FitRequest, FitResponse, MixRequest, MixResponse};
pub use play::{
    ab, decide, play, replay, sweep, AbRequest, AbResponse, DecideRequest, DecideResponse, GameRow,
    PlayReport, PlayRequest, PlayResponse, ReplayGame, ReplayRequest, ReplayResponse, SweepRequest,
    SweepResponse,
};
pub use stats::{summary, Summary};
pub use train::{train, Method, TrainCheckpoint, TrainRequest, TrainResponse, TrainWindow};
pub use tune::{parse_start, ready_spec, tune, TuneRequest, TuneResponse, TuneStep, READY_WEIGHTS};
pub use weights::{weight_info, Average, AverageResponse, NetHeader, WeightInfo};

use crate::search::ntuple::{self, NTuple, NTupleEval, NTupleMean};
use crate::search::{
    ChanceModel, Crowding, DepthRule, Direct, Evaluator, Fitted, NoTable, Options, PointsOnly,
    Pressure, Ready, SetAssoc, Shape, Table, MAX_DEPTH,
};
use crate::{Mode, Rules};

/// A file a front end read for a verb (a weight file, a network, a stream): the one input
/// type every game's API takes.
pub use bits::job::InputFile;

/// A leaf evaluator as `--eval` names it: `crowding[:DISC,SOLID,CRACKED,TALL,FULL]`,
/// `shape[:..,MISMATCH]`, `options[:..,OPTIONS]`, `ready[:..,READY,LATENT]`,
/// `pressure[:..,NEAR,EXPOSED]`, `fitted[:W1,..,W33|:@FILE][*SCALE]`, `ntuple:@FILE`
/// (`ntuple:@A+@B..` the mean of several) or `points`, with the contents of every `@FILE`
/// it names in `files` ([`eval_files`] lists them).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct EvalSpec {
    /// The evaluator's text.
    pub text: String,
    /// The files the text names (`@FILE`), found by [`InputFile::name`].
    pub files: Vec<InputFile>,
    /// Networks a front end decoded itself ([`decode_eval_net`]), by file name: used before
    /// `files`, so a 4 GB network is not kept twice, as bytes and as weights (not serialised).
    #[serde(skip)]
    pub decoded: Vec<(String, Arc<NTuple>)>,
}

impl EvalSpec {
    /// An evaluator that names no file.
    pub fn new(text: impl Into<String>) -> Self {
        EvalSpec { text: text.into(), files: Vec::new(), decoded: Vec::new() }
    }

    fn file(&self, name: &str, field: &str) -> Result<&[u8], Error> {
        match self.files.iter().find(|f| f.name == name) {
            Some(f) => f.contents(),
            None => Err(Error::input(format!("{field}: cannot read {name}: not given"))),
        }
    }
}

impl From<&str> for EvalSpec {
    fn from(text: &str) -> Self {
        EvalSpec::new(text)
    }
}

/// The files an evaluator's text names (`fitted:@FILE`, `ntuple:@A+@B`), in order, for a
/// front end to read into [`EvalSpec::files`].
pub fn eval_files(text: &str) -> Vec<String> {
    if text.starts_with("fitted") {
        let body = text.rsplit_once('*').map_or(text, |(b, _)| b);
        return body.strip_prefix("fitted:@").map(|f| vec![f.to_string()]).unwrap_or_default();
    }
    if let Some(files) = text.strip_prefix("ntuple:@") {
        return files.split("+@").map(str::to_string).collect();
    }
    Vec::new()
}

/// The rules and the searcher, as the CLI's search flags give them (the same names and
/// texts; see `bitarcade drop7 play --help`). A request holds them as `search`, and the
/// input errors name them so (`search.depth: 9, expected 1 to 6`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct SearchOptions {
    /// Mode: `hardcore` (alias `blitz`), `normal`, `sequence`.
    pub mode: String,
    /// Search depth in moves (1 = the known disc only), 1..=6; ignored under `budget`.
    pub depth: u32,
    /// Leaf evaluator (see [`EvalSpec`]).
    pub eval: EvalSpec,
    /// Transposition table: `none`, `direct`, `2way`, `4way`.
    pub table: String,
    /// log2 of the table's entries (48 bytes each), 4..=26.
    pub table_bits: u32,
    /// Chance nodes over K equal strata of 1-7 instead of every value (0 = every value).
    pub strata: u8,
    /// Strata by chance level from the root down (`0,0,3`; the last entry repeats);
    /// overrides `strata` in batches.
    pub strata_schedule: Option<String>,
    /// Normal mode's share of gray next discs, `NUM/DEN`.
    pub gray_share: String,
    /// Pay the level bonus before the fatal rise (a clone variant).
    pub fatal_rise_bonus: bool,
    /// Restart the chain level at 1 after a rise.
    pub no_rise_chain: bool,
    /// The search's penalty for a move that ends the game.
    pub death: f64,
    /// Reveal samples: `N` or a list from the root down (`8,2,2,8`).
    pub reveal_samples: String,
    /// `paired`, `stratified` (paired, with [`crate::search::SearchDraws::stratified`]
    /// draws) or `sampled`.
    pub reveals: String,
    /// A work budget (search moves) per decision instead of a fixed depth.
    pub budget: Option<u64>,
    /// The shallowest depth of a budget search (default 3).
    pub min_depth: Option<u32>,
    /// The deepest depth of a budget search, at most 7 (default 6).
    pub max_depth: Option<u32>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            mode: "hardcore".into(),
            depth: 3,
            eval: EvalSpec::new("ready"),
            table: "direct".into(),
            table_bits: 16,
            strata: 0,
            strata_schedule: None,
            gray_share: "1/8".into(),
            fatal_rise_bonus: false,
            no_rise_chain: false,
            death: 1_000_000.0,
            reveal_samples: "1".into(),
            reveals: "stratified".into(),
            budget: None,
            min_depth: None,
            max_depth: None,
        }
    }
}

impl SearchOptions {
    /// The range of `depth`.
    pub const DEPTH: RangeInclusive<u32> = 1..=6;
    /// The range of `table_bits`.
    pub const TABLE_BITS: RangeInclusive<u32> = 4..=26;
    /// The range of `strata`.
    pub const STRATA: RangeInclusive<u8> = 0..=7;
    /// The values of `reveals`.
    pub const REVEALS: [&'static str; 3] = ["paired", "stratified", "sampled"];

    /// Checks the ranges (the CLI's parser checks the same ones, from these consts).
    fn check(&self) -> Result<(), Error> {
        check_range("search.depth", self.depth, Self::DEPTH)?;
        check_range("search.table_bits", self.table_bits, Self::TABLE_BITS)?;
        check_range("search.strata", self.strata, Self::STRATA)?;
        if !Self::REVEALS.contains(&self.reveals.as_str()) {
            return Err(Error::input(format!(
                "search.reveals: {:?}, use paired, stratified or sampled",
                self.reveals
            )));
        }
        Ok(())
    }

    /// The depth rule: `depth`, or `budget` with `min_depth` and `max_depth`.
    fn rule(&self) -> Result<DepthRule, Error> {
        let Some(moves) = self.budget else {
            return Ok(DepthRule::Fixed(self.depth));
        };
        let min = self.min_depth.unwrap_or(3);
        let max = self.max_depth.unwrap_or(6);
        check_range("search.min_depth", min, 1..=MAX_DEPTH)?;
        check_range("search.max_depth", max, 1..=MAX_DEPTH)?;
        if min > max {
            return Err(Error::input(format!(
                "search.min_depth: {min} is above search.max_depth {max}"
            )));
        }
        if self.reveal_samples.contains(',') {
            return Err(Error::input(
                "search.reveal_samples: a list is keyed to one depth, not for search.budget",
            ));
        }
        Ok(DepthRule::Budget { moves, min, max })
    }

    /// The reveal samples by remaining depth.
    fn reveal_by_depth(&self) -> Result<[u32; 8], Error> {
        let bad = || {
            Error::input(format!(
                "search.reveal_samples: {:?}, expected N or N,N,... with each N in 1..=64",
                self.reveal_samples
            ))
        };
        let list: Vec<u32> = self
            .reveal_samples
            .split(',')
            .map(|x| x.trim().parse::<u32>().ok().filter(|n| (1..=64).contains(n)))
            .collect::<Option<_>>()
            .ok_or_else(bad)?;
        Ok(crate::search::reveal_by_depth(&list, self.rule()?.max_depth()))
    }

    fn rules(&self) -> Result<Rules, Error> {
        let mut rules = Rules::new(parse_mode("search.mode", &self.mode)?);
        let bad = || {
            Error::input(format!(
                "search.gray_share: {:?}, expected NUM/DEN with 0 <= NUM <= DEN, DEN >= 1",
                self.gray_share
            ))
        };
        let (n, d) = self.gray_share.split_once('/').ok_or_else(bad)?;
        let n: u32 = n.trim().parse().map_err(|_| bad())?;
        let d: u32 = d.trim().parse().map_err(|_| bad())?;
        if d == 0 || n > d {
            return Err(bad());
        }
        rules.gray_share = (n, d);
        rules.fatal_rise_bonus = self.fatal_rise_bonus;
        rules.rise_chain_continues = !self.no_rise_chain;
        Ok(rules)
    }

    /// Reveals paired with the next disc (`paired` or `stratified`).
    fn paired(&self) -> bool {
        matches!(self.reveals.as_str(), "paired" | "stratified")
    }

    /// Stratified, column-independent reveal draws (`stratified`).
    fn stratified(&self) -> bool {
        self.reveals == "stratified"
    }

    /// `paired`, `stratified`, or `sampled:LIST`.
    fn reveals_label(&self) -> String {
        if self.paired() {
            self.reveals.clone()
        } else {
            format!("sampled:{}", self.reveal_samples)
        }
    }

    fn chance_schedule(&self) -> Result<Option<[ChanceModel; 8]>, Error> {
        let Some(text) = &self.strata_schedule else { return Ok(None) };
        let bad = || {
            Error::input(format!(
                "search.strata_schedule: {text:?}, expected K or K,K,... with each K in 0..=7"
            ))
        };
        let list: Vec<u8> = text
            .split(',')
            .map(|x| x.trim().parse::<u8>().ok().filter(|k| *k <= 7))
            .collect::<Option<_>>()
            .ok_or_else(bad)?;
        if list.is_empty() || list.len() > 8 {
            return Err(bad());
        }
        let mut out = [ChanceModel::Exact; 8];
        for (i, m) in out.iter_mut().enumerate() {
            let k = *list.get(i).or(list.last()).expect("non-empty");
            *m = if k == 0 { ChanceModel::Exact } else { ChanceModel::Strata(k) };
        }
        Ok(Some(out))
    }

    /// The batch these options play: `games` games from index `first` (each with the seed it
    /// has in the whole batch of `seed`), searched by `depth`, each stopped after `max_moves`;
    /// `record` keeps every game's record. Checks the reveal and strata options.
    fn batch(
        &self,
        seed: u64,
        first: u64,
        games: u64,
        depth: DepthRule,
        max_moves: u32,
        record: bool,
    ) -> Result<crate::search::BatchSpec, Error> {
        Ok(crate::search::BatchSpec {
            rules: self.rules()?,
            chance: self.chance(),
            seed,
            first,
            games,
            depth,
            max_moves,
            record,
            death: self.death,
            reveal_samples: 1,
            reveal_by_depth: self.reveal_by_depth()?,
            paired_reveals: self.paired(),
            stratified_reveals: self.stratified(),
            chance_schedule: self.chance_schedule()?,
        })
    }

    fn chance(&self) -> ChanceModel {
        if self.strata == 0 {
            ChanceModel::Exact
        } else {
            ChanceModel::Strata(self.strata)
        }
    }
}

/// The mode given as the request's `field`.
fn parse_mode(field: &str, s: &str) -> Result<Mode, Error> {
    s.parse::<Mode>().map_err(|e| Error::input(format!("{field}: {e}")))
}

/// The input error of a value outside its range, naming the request's field:
/// `field: value, expected LO to HI` (or `expected at least LO`).
fn check_range<T: PartialOrd + Display>(
    field: &str,
    value: T,
    range: impl RangeBounds<T>,
) -> Result<(), Error> {
    bits::job::check_range_as(field, value, range, "expected")
}

/// A parsed evaluator choice.
#[derive(Clone, Debug)]
enum EvalChoice {
    Crowding(Crowding),
    Shape(Shape),
    Options(Options),
    Ready(Ready),
    Pressure(Pressure),
    /// The weights and the label they were given by.
    Fitted(Box<Fitted>, String),
    /// An n-tuple network and the label it was given by.
    NTuple(NTupleEval, String),
    NTupleMean(NTupleMean, String),
    Points,
}

/// Parses weights in the form `drop7 fit --out` writes: one weight per line, optionally
/// after its feature's name (which must then be the feature's); blank lines and `#` lines
/// are skipped. `what` names the source in errors.
fn parse_weights(what: &str, text: &str) -> Result<Fitted, Error> {
    use crate::search::eval::{FEATURES, FEATURE_NAMES};
    let mut w = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: String| Error::input(format!("{what}:{}: {why}", i + 1));
        let mut parts = line.split_whitespace();
        let (name, value) = match (parts.next(), parts.next(), parts.next()) {
            (Some(v), None, _) => (None, v),
            (Some(n), Some(v), None) => (Some(n), v),
            _ => return Err(bad("expected `NAME WEIGHT` or `WEIGHT`".into())),
        };
        if w.len() >= FEATURES {
            return Err(bad(format!("more than {FEATURES} weights")));
        }
        if let Some(n) = name {
            if n != FEATURE_NAMES[w.len()] {
                return Err(bad(format!(
                    "feature {} is {:?}, not {n:?}",
                    w.len() + 1,
                    FEATURE_NAMES[w.len()]
                )));
            }
        }
        let x: f64 = value
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite())
            .ok_or_else(|| bad(format!("{value:?} is not a finite number")))?;
        w.push(x);
    }
    let weights: [f64; FEATURES] = w.try_into().map_err(|w: Vec<f64>| {
        Error::input(format!("{what}: {} weights, expected {FEATURES}", w.len()))
    })?;
    Ok(Fitted { weights })
}

/// The text of a file the evaluator names (UTF-8, as the CLI read it).
fn file_text<'a>(spec: &'a EvalSpec, field: &str, name: &str) -> Result<&'a str, Error> {
    std::str::from_utf8(spec.file(name, field)?).map_err(|_| {
        Error::input(format!("{field}: cannot read {name}: stream did not contain valid UTF-8"))
    })
}

/// `fitted[:W1,..,W33|:@FILE][*SCALE]`, given as the request's `field`.
fn parse_fitted(field: &str, spec: &EvalSpec) -> Result<Fitted, Error> {
    let s = spec.text.as_str();
    let bad = |why: &str| Error::input(format!("{field}: {s:?}, {why}"));
    let (body, scale) = match s.rsplit_once('*') {
        Some((b, k)) => {
            let k: f64 = k
                .trim()
                .parse()
                .ok()
                .filter(|k: &f64| k.is_finite())
                .ok_or_else(|| bad("the scale after `*` must be a finite number"))?;
            (b, k)
        }
        None => (s, 1.0),
    };
    let fitted = match body.strip_prefix("fitted") {
        Some("") => Fitted::default(),
        Some(rest) => match rest.strip_prefix(':') {
            Some(file) if file.starts_with('@') => {
                let name = &file[1..];
                parse_weights(name, file_text(spec, field, name)?)?
            }
            Some(list) => parse_weights(field, &list.replace(',', "\n"))?,
            None => return Err(bad("use fitted, fitted:W1,..,W33 or fitted:@FILE, then *SCALE")),
        },
        None => return Err(bad("use fitted, fitted:W1,..,W33 or fitted:@FILE, then *SCALE")),
    };
    Ok(if scale == 1.0 { fitted } else { fitted.scaled(scale) })
}

/// Decodes a network file; errors name the request's field and the file (input errors).
/// A network file named by an evaluator (`ntuple:@FILE`) decoded, for
/// [`EvalSpec::decoded`]; its errors are those the verb would report from the bytes.
pub fn decode_eval_net(field: &str, name: &str, bytes: &[u8]) -> Result<Arc<NTuple>, Error> {
    Ok(Arc::new(decode_net(field, name, bytes)?.0))
}

fn decode_net(field: &str, name: &str, bytes: &[u8]) -> Result<(NTuple, ntuple::Meta), Error> {
    ntuple::decode(bytes).map_err(|e| Error::input(format!("{field}: {name}: {e}")))
}

impl EvalChoice {
    /// The evaluator `spec`, given as the request's `field` (which its errors name).
    fn parse(field: &str, spec: &EvalSpec) -> Result<EvalChoice, Error> {
        let s = spec.text.as_str();
        let bad = |why: &str| Error::input(format!("{field}: {s:?}, {why}"));
        if s.starts_with("fitted") {
            return Ok(EvalChoice::Fitted(Box::new(parse_fitted(field, spec)?), s.to_string()));
        }
        if let Some(rest) = s.strip_prefix("ntuple") {
            let Some(files) = rest.strip_prefix(":@") else {
                return Err(bad(
                    "use ntuple:@FILE (a weight file from `drop7 train`) or ntuple:@A+@B..",
                ));
            };
            let mut nets = Vec::new();
            for file in files.split("+@") {
                match spec.decoded.iter().find(|(name, _)| name == file) {
                    Some((_, net)) => nets.push(net.clone()),
                    None => nets.push(decode_eval_net(field, file, spec.file(file, field)?)?),
                }
            }
            return Ok(if nets.len() == 1 {
                EvalChoice::NTuple(NTupleEval(nets.remove(0)), s.to_string())
            } else {
                EvalChoice::NTupleMean(NTupleMean(nets), s.to_string())
            });
        }
        match s.split_once(':') {
            None if s == "points" => Ok(EvalChoice::Points),
            None if s == "crowding" => Ok(EvalChoice::Crowding(Crowding::default())),
            None if s == "shape" => Ok(EvalChoice::Shape(Shape::default())),
            None if s == "options" => Ok(EvalChoice::Options(Options::default())),
            None if s == "ready" => Ok(EvalChoice::Ready(Ready::default())),
            None if s == "pressure" => Ok(EvalChoice::Pressure(Pressure::default())),
            Some((name @ ("crowding" | "shape" | "options" | "ready" | "pressure"), w)) => {
                let v: Vec<f64> = w
                    .split(',')
                    .map(|x| x.trim().parse::<f64>())
                    .collect::<Result<_, _>>()
                    .map_err(|_| bad("weights must be numbers"))?;
                let want = match name {
                    "crowding" => 5,
                    "ready" | "pressure" => 7,
                    _ => 6,
                };
                if v.len() != want || v.iter().any(|x| !x.is_finite()) {
                    return Err(bad(
                        "crowding takes 5 weights DISC,SOLID,CRACKED,TALL,FULL; shape adds MISMATCH, options OPTIONS, ready READY,LATENT, pressure NEAR,EXPOSED",
                    ));
                }
                let c = Crowding { disc: v[0], solid: v[1], cracked: v[2], tall: v[3], full: v[4] };
                Ok(match name {
                    "crowding" => EvalChoice::Crowding(c),
                    "shape" => EvalChoice::Shape(Shape { crowding: c, mismatch: v[5] }),
                    "ready" => EvalChoice::Ready(Ready { crowding: c, ready: v[5], latent: v[6] }),
                    "pressure" => {
                        EvalChoice::Pressure(Pressure { crowding: c, near: v[5], exposed: v[6] })
                    }
                    _ => EvalChoice::Options(Options { crowding: c, options: v[5] }),
                })
            }
            _ => {
                Err(bad("use crowding[:W1,..,W5], shape[:W1,..,W6], options[:W1,..,W6], ready[:W1,..,W7], pressure[:W1,..,W7], fitted[:W1,..,W33|:@FILE][*SCALE], ntuple:@FILE or points"))
            }
        }
    }

    fn label(&self) -> String {
        match self {
            EvalChoice::Points => "points".into(),
            EvalChoice::Fitted(_, label) => label.clone(),
            EvalChoice::NTuple(_, label) | EvalChoice::NTupleMean(_, label) => label.clone(),
            EvalChoice::Crowding(c) => {
                format!("crowding:{},{},{},{},{}", c.disc, c.solid, c.cracked, c.tall, c.full)
            }
            EvalChoice::Shape(s) => {
                let c = s.crowding;
                format!(
                    "shape:{},{},{},{},{},{}",
                    c.disc, c.solid, c.cracked, c.tall, c.full, s.mismatch
                )
            }
            EvalChoice::Ready(r) => {
                let c = r.crowding;
                format!(
                    "ready:{},{},{},{},{},{},{}",
                    c.disc, c.solid, c.cracked, c.tall, c.full, r.ready, r.latent
                )
            }
            EvalChoice::Pressure(p) => {
                let c = p.crowding;
                format!(
                    "pressure:{},{},{},{},{},{},{}",
                    c.disc, c.solid, c.cracked, c.tall, c.full, p.near, p.exposed
                )
            }
            EvalChoice::Options(o) => {
                let c = o.crowding;
                format!(
                    "options:{},{},{},{},{},{}",
                    c.disc, c.solid, c.cracked, c.tall, c.full, o.options
                )
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TableChoice {
    None,
    Direct,
    Two,
    Four,
}

impl TableChoice {
    fn parse(s: &str) -> Result<TableChoice, Error> {
        match s {
            "none" => Ok(TableChoice::None),
            "direct" => Ok(TableChoice::Direct),
            "2way" => Ok(TableChoice::Two),
            "4way" => Ok(TableChoice::Four),
            _ => Err(Error::input(format!("search.table: {s:?}, use none, direct, 2way or 4way"))),
        }
    }

    fn name(self) -> &'static str {
        match self {
            TableChoice::None => "none",
            TableChoice::Direct => "direct",
            TableChoice::Two => "2way",
            TableChoice::Four => "4way",
        }
    }
}

/// Work generic over the evaluator and the table: both are picked at run time once, and
/// everything below is monomorphised (static dispatch in the search).
trait Job {
    type Out;
    fn run<E, T>(self, eval: E, make_table: impl Fn() -> T + Sync) -> Self::Out
    where
        E: Evaluator + Clone + Send,
        T: Table + Send;
}

fn dispatch<J: Job>(eval: &EvalChoice, table: TableChoice, bits: u32, job: J) -> J::Out {
    fn with_table<J: Job, E: Evaluator + Clone + Send>(
        e: E,
        t: TableChoice,
        bits: u32,
        job: J,
    ) -> J::Out {
        match t {
            TableChoice::None => job.run(e, || NoTable),
            TableChoice::Direct => job.run(e, || Direct::new(bits)),
            TableChoice::Two => job.run(e, || SetAssoc::<2>::new(bits)),
            TableChoice::Four => job.run(e, || SetAssoc::<4>::new(bits)),
        }
    }
    match eval {
        EvalChoice::Crowding(c) => with_table(*c, table, bits, job),
        EvalChoice::Shape(s) => with_table(*s, table, bits, job),
        EvalChoice::Options(o) => with_table(*o, table, bits, job),
        EvalChoice::Ready(r) => with_table(*r, table, bits, job),
        EvalChoice::Pressure(p) => with_table(*p, table, bits, job),
        EvalChoice::Fitted(f, _) => with_table(**f, table, bits, job),
        EvalChoice::NTuple(n, _) => with_table(n.clone(), table, bits, job),
        EvalChoice::NTupleMean(n, _) => with_table(n.clone(), table, bits, job),
        EvalChoice::Points => with_table(PointsOnly, table, bits, job),
    }
}

/// CPU time of the calling thread in nanoseconds (Linux `/proc/thread-self/schedstat`, a
/// clock read through procfs), so per-game and per-core timings hold on a shared machine.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests;
