//! The typed API of every `bitarcade 2048` verb: a request in, a response out, the same for
//! the CLI, a server and Python.
//!
//! Each verb is `fn verb(req: &VerbRequest, ..., ctl: Control) -> Result<VerbResponse, Error>`:
//! [`play`], [`best`], [`train`], [`starts`], [`from_starts`], [`bench()`], [`tune`] and
//! [`replay`]. Requests are plain structs with their defaults in `impl Default` and
//! `#[serde(default)]`, so JSON may leave fields out. The API reads no files and prints
//! nothing: a front end passes a network as the loaded [`MultiStage`] (see [`load_network`],
//! from a weight file's bytes) and a start file as its text, and writes what the response
//! holds (the game records in [`crate::batch::GameResult::record`], a trained network's
//! bytes in [`TrainResponse::files`]); training checkpoints go through a callback.
//!
//! Every response prints as the CLI prints it: `Display` (or a `text` method where the text
//! names an output file the caller chose), see the `text` module.
//!
//! [`Control`] carries the caller's abort flag and progress callback. The game loops check
//! the flag every move and the expectimax search every [`crate::search::expectimax::POLL_NODES`]
//! nodes, so even one move under a budget of millions of nodes stops within milliseconds;
//! an aborted verb returns [`Error::Aborted`].
//!
//! ```
//! use twenty48::api::{self, Control, PlayRequest, SearchSpec};
//!
//! let req = PlayRequest {
//!     games: 2,
//!     seed: 7,
//!     max_moves: 30,
//!     search: SearchSpec { depth: Some(1), tt_bits: 10, ..SearchSpec::default() },
//!     ..PlayRequest::default()
//! };
//! let res = api::play(&req, Control::new()).unwrap();
//! assert_eq!(res.summary.games, 2);
//! assert_eq!(res.summary.moves, 60);
//! assert_eq!(res.setting, "expectimax, depth 1 move layers, probability cutoff 0.0001, table 2^10");
//! // Every game comes with its record, which replays.
//! let rec = res.games[0].record.as_ref().unwrap();
//! assert_eq!(twenty48::replay(rec).unwrap().score, res.games[0].score);
//! ```

use std::ops::{RangeFrom, RangeInclusive};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use bits::job::{Control, Error, Progress, Shard, Step};

use crate::multistage::MultiStage;
use crate::ntuple::{self, Meta};
use crate::search::{Depth, Params, SearchConfig};

mod bench;
pub mod contract;
mod play;
mod replay;
mod tables;
mod text;
mod train;
mod tune;

pub use bench::{bench, BenchRequest, BenchResponse, EngineFigures};
pub use play::{best, play, BestRequest, BestResponse, MoveValue, PlayRequest, PlayResponse};
pub use replay::{replay, BoardLine, BoardsSpec, ReplayRequest, ReplayResponse};
pub use tables::{
    checksum_hex, count_table, table_info, table_info_file, tables, tables_on_disk, tables_to_file,
    verify_table_file, LayerInfo, TableConvertReport, TableCount, TableInfo, TablesRequest,
    TablesResponse,
};
pub use train::{
    from_starts, starts, train, Checkpoint, FromStartsGame, FromStartsRequest, FromStartsResponse,
    Method, StartsRequest, StartsResponse, TrainEvent, TrainFiles, TrainInput, TrainRequest,
    TrainResponse, TrainWindow,
};
pub use tune::{tune, TuneGeneration, TuneMethod, TuneRequest, TuneResponse};

/// The default depth rule's node budget per move (the setting measured in BENCHMARKS.md).
pub const DEFAULT_BUDGET: u64 = 500_000;

/// The leaf evaluation of the search without a network ([`SearchSpec::eval`]).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum LeafEval {
    /// The row heuristic ([`crate::search::Heuristic`], weights `params`): nneonneo/2048-ai's
    /// symmetric features; live values at least 0, a dead end 0.
    #[default]
    Heuristic,
    /// macroxue/2048-ai's corner evaluation ([`crate::search::Corner`]): rows read left to
    /// right and columns top to bottom, large tiles pulled to the top-left corner; values
    /// may be negative and a dead end is `-max(2^17, 2 * r * 2^r)` for the root's largest
    /// rank `r`.
    Corner,
}

/// The search options of [`play`] and [`best`] (the CLI's search flags), turned into a
/// [`SearchConfig`] by [`SearchSpec::config`].
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct SearchSpec {
    /// Fixed search depth in move layers ([`SearchSpec::DEPTH`]); first of the depth rules.
    pub depth: Option<u8>,
    /// Iterative deepening until about this many milliseconds per move (not deterministic);
    /// overrides the depth rule.
    pub time_per_move: Option<u64>,
    /// Iterative deepening under a node budget of about this many move-generator calls per
    /// move (deterministic), from `min_depth` to `max_depth` layers; used without `depth`.
    pub budget: Option<u64>,
    /// Budget rule: when the last two iterations chose different moves, multiply this move's
    /// budget by this factor, once (1 = off; 1..=1000).
    pub extend: f32,
    /// The adaptive rule: layers = distinct tiles - offset, clamped to
    /// `min_depth..=max_depth`; used without `depth` and `budget`.
    pub depth_offset: Option<u8>,
    /// Budget rule: multiply the budget by this factor on boards holding at least
    /// `boost_tiles` tiles of `boost_tile` or more (1 = off; 1..=1000).
    pub boost: f32,
    /// Budget rule: the number of tiles of `boost_tile` or more that triggers `boost`
    /// (1..=16).
    pub boost_tiles: u8,
    /// Budget rule: the tile that `boost_tiles` counts, a power of two from 2 to 32768
    /// (default 1024; 16384 with `boost_tiles` 1 boosts every move from the first 16384 on).
    pub boost_tile: u32,
    /// Keep the transposition table from move to move.
    pub keep_table: bool,
    /// Smallest depth of the adaptive and budget rules (default: 2 for the budget rule, 4
    /// for the adaptive rule; 1..=16).
    pub min_depth: Option<u8>,
    /// Largest depth of the adaptive and budget rules (1..=16).
    pub max_depth: u8,
    /// Chance nodes below this path probability are evaluated, not expanded (in `[0, 1)`).
    pub prob_cutoff: f32,
    /// log2 of the transposition table's entries (16 bytes each; 4..=30).
    pub tt_bits: u8,
    /// Heuristic weights (default: [`Params::SHIPPED`]); ignored with a network, refused
    /// with `eval: corner`.
    pub params: Option<Params>,
    /// The leaf evaluation without a network: `heuristic` (the default) or `corner`
    /// (macroxue/2048-ai's; not with a network or `params`).
    pub eval: LeafEval,
    /// Forward pruning (`eval: corner` only): before each move's search, if the root's own
    /// evaluation is at least 0, every chance node whose evaluation is below twice the
    /// root's largest tile score (`2 * r * 2^r`) is valued so instead of expanded
    /// (macroxue/2048-ai's pass score).
    pub prune_below_pass: bool,
    /// The name of the network (its file), shown in the setting's description.
    pub ntuple: Option<String>,
    /// The n-tuple network that values the leaves instead of the row heuristic (one stage or
    /// several); the default depth rule becomes depth 2. Not serialised: a front end loads
    /// it with [`load_network`].
    #[serde(skip)]
    pub network: Option<Arc<MultiStage>>,
    /// A hard cap on each move's search nodes, set by a front end's caps (the live
    /// contract's `cap`): the search stops there and the deepest finished iteration answers.
    #[serde(skip)]
    pub node_cap: Option<u64>,
    /// The names of the endgame tables (their files), shown in the setting's description.
    #[serde(skip)]
    pub table_names: Vec<String>,
    /// Endgame tables asked before each move's search ([`crate::endgame::Tables::advise`]);
    /// where one applies, its move is played (or, with `table_slack`, the search chooses among
    /// the moves the table allows). Not serialised: a front end loads them with
    /// [`read_table`] (or [`load_table`] from bytes), or serves them from their files with
    /// [`open_table`].
    #[serde(skip)]
    pub tables: Option<Arc<crate::endgame::Tables>>,
    /// Where a table applies, let the search choose among the moves the table rates within
    /// this much of its best chance (in `[0, 1]`): the search's move if it is one of them,
    /// else the search's best among them. Default (none): the table's move is played
    /// unsearched. Set with `tables` (not serialised).
    #[serde(skip)]
    pub table_slack: Option<f32>,
}

impl Default for SearchSpec {
    fn default() -> Self {
        SearchSpec {
            depth: None,
            time_per_move: None,
            budget: None,
            extend: 1.0,
            depth_offset: None,
            boost: 1.0,
            boost_tiles: 4,
            boost_tile: 1024,
            keep_table: false,
            min_depth: None,
            max_depth: 16,
            prob_cutoff: 1e-4,
            tt_bits: 20,
            params: None,
            eval: LeafEval::Heuristic,
            prune_below_pass: false,
            ntuple: None,
            network: None,
            node_cap: None,
            table_names: Vec::new(),
            tables: None,
            table_slack: None,
        }
    }
}

impl SearchSpec {
    /// The range of `depth`, `min_depth` and `max_depth`, in move layers.
    pub const DEPTH: RangeInclusive<u8> = 1..=16;
    /// The range of `boost_tiles`.
    pub const BOOST_TILES: RangeInclusive<u8> = 1..=16;
    /// The range of `tt_bits`.
    pub const TT_BITS: RangeInclusive<u8> = 4..=30;
    /// The range of `budget`, in nodes per move.
    pub const BUDGET: RangeFrom<u64> = 1..;

    /// Checks every option's range; the input error names the first one out of range by its
    /// field (`search.tt_bits: 31, must be 4 to 30`), the search being a request's `search`.
    pub fn check(&self) -> Result<(), Error> {
        if !(self.prob_cutoff >= 0.0 && self.prob_cutoff < 1.0) {
            return Err(Error::input(format!(
                "search.prob_cutoff: {}, must be in [0, 1)",
                self.prob_cutoff
            )));
        }
        if !(self.extend >= 1.0 && self.extend <= 1000.0) {
            return Err(Error::input(format!(
                "search.extend: {}, must be in [1, 1000]",
                self.extend
            )));
        }
        if !(self.boost >= 1.0 && self.boost <= 1000.0) {
            return Err(Error::input(format!(
                "search.boost: {}, must be in [1, 1000]",
                self.boost
            )));
        }
        if let Some(e) = self.table_slack {
            if !(0.0..=1.0).contains(&e) {
                return Err(Error::input(format!("search.table_slack: {e}, must be in [0, 1]")));
            }
        }
        check_range("search.tt_bits", self.tt_bits, Self::TT_BITS)?;
        if let Some(d) = self.depth {
            check_range("search.depth", d, Self::DEPTH)?;
        }
        if let Some(nodes) = self.budget {
            check_range("search.budget", nodes, Self::BUDGET)?;
        }
        check_range("search.boost_tiles", self.boost_tiles, Self::BOOST_TILES)?;
        if !(2..=32768).contains(&self.boost_tile) || !self.boost_tile.is_power_of_two() {
            return Err(Error::input(format!(
                "search.boost_tile: {}, must be a power of two from 2 to 32768",
                self.boost_tile
            )));
        }
        if let Some(p) = &self.params {
            p.check().map_err(Error::input)?;
        }
        if self.eval == LeafEval::Corner {
            if self.network.is_some() || self.ntuple.is_some() {
                return Err(Error::input(
                    "search.eval: corner values the leaves, a network (search.ntuple) cannot too",
                ));
            }
            if self.params.is_some() {
                return Err(Error::input(
                    "search.params: heuristic weights, meaningless with search.eval corner",
                ));
            }
        } else if self.prune_below_pass {
            return Err(Error::input(
                "search.prune_below_pass: needs search.eval corner (the pass score is on its scale)",
            ));
        }
        if let Some(d) = self.min_depth {
            check_range("search.min_depth", d, Self::DEPTH)?;
        }
        check_range("search.max_depth", self.max_depth, Self::DEPTH)
    }

    /// The search settings, or the input error of [`SearchSpec::check`].
    pub fn config(&self) -> Result<SearchConfig, Error> {
        self.check()?;
        let min = |default: u8| self.min_depth.unwrap_or(default).min(self.max_depth);
        let depth = match (self.depth, self.budget, self.depth_offset) {
            (Some(d), _, _) => Depth::Fixed(d),
            (None, Some(nodes), _) => Depth::Budget { nodes, min: min(2), max: self.max_depth },
            (None, None, Some(offset)) => {
                Depth::Adaptive { min: min(4), max: self.max_depth, offset }
            }
            (None, None, None) if self.network.is_some() => Depth::Fixed(2),
            (None, None, None) => {
                Depth::Budget { nodes: DEFAULT_BUDGET, min: min(2), max: self.max_depth }
            }
        };
        Ok(SearchConfig {
            depth,
            prob_cutoff: self.prob_cutoff,
            tt_bits: self.tt_bits,
            extend: self.extend,
            keep_table: self.keep_table,
            boost_tiles: if self.boost > 1.0 { self.boost_tiles } else { 0 },
            boost_rank: self.boost_tile.trailing_zeros() as u8,
            boost: self.boost,
            prefetch: true,
            incremental: true,
            prune_below_pass: self.prune_below_pass,
        })
    }

    /// The one-line description of the setting `cfg` (from [`SearchSpec::config`]) that
    /// `play` reports.
    pub fn describe(&self, cfg: &SearchConfig) -> String {
        let depth = match (self.time_per_move, cfg.depth) {
            (Some(ms), _) => format!("iterative deepening, {ms} ms per move"),
            (None, Depth::Fixed(d)) => format!("depth {d} move layers"),
            (None, Depth::Adaptive { min, max, offset }) => {
                format!("adaptive depth clamp(distinct - {offset}, {min}, {max}) move layers")
            }
            (None, Depth::Budget { nodes, min, max }) => {
                let mut ext = String::new();
                if cfg.extend > 1.0 {
                    ext += &format!(", x{} when the move changes", cfg.extend);
                }
                if cfg.boost_tiles > 0 {
                    let tile = 1u32 << cfg.boost_rank;
                    ext += &format!(", x{} with {}+ tiles >= {tile}", cfg.boost, cfg.boost_tiles);
                }
                format!(
                    "iterative deepening to about {nodes} nodes per move{ext}, {min}..{max} layers"
                )
            }
        };
        let keep = if cfg.keep_table { " kept across moves" } else { "" };
        let eval = match (&self.ntuple, &self.network) {
            (Some(name), _) => format!(", n-tuple network {name}"),
            (None, Some(_)) => ", n-tuple network".to_string(),
            (None, None) if self.eval == LeafEval::Corner => {
                let prune = if cfg.prune_below_pass { ", pruned below the pass score" } else { "" };
                format!(", corner evaluation (macroxue/2048-ai){prune}")
            }
            (None, None) => String::new(),
        };
        let tables = if self.table_names.is_empty() {
            String::new()
        } else {
            let slack =
                self.table_slack.map(|e| format!(" (search within {e} of the table's best)"));
            format!(", endgame tables {}{}", self.table_names.join(" "), slack.unwrap_or_default())
        };
        format!(
            "expectimax, {depth}, probability cutoff {}, table 2^{}{keep}{eval}{tables}",
            cfg.prob_cutoff, cfg.tt_bits
        )
    }
}

/// Decodes an endgame table file ([`crate::endgame::Table::decode`]); a defect is an input
/// error naming the file.
pub fn load_table(name: &str, bytes: &[u8]) -> Result<crate::endgame::Table, Error> {
    crate::endgame::Table::decode(bytes).map_err(|e| Error::input(format!("{name}: {e}")))
}

/// Reads the endgame table file at `path` a block at a time ([`crate::endgame::Table::read_file`]:
/// the file is never held in memory beside the table); a defect is an input error naming
/// the file.
pub fn read_table(path: &std::path::Path) -> Result<crate::endgame::Table, Error> {
    read_table_sealed(path).map(|(t, _)| t)
}

/// [`read_table`] with the file's checksum ([`crate::endgame::Table::read_file_sealed`]).
pub fn read_table_sealed(path: &std::path::Path) -> Result<(crate::endgame::Table, u64), Error> {
    crate::endgame::Table::read_file_sealed(path)
        .map_err(|e| Error::input(format!("{}: {e}", path.display())))
}

/// Opens the endgame table file at `path` to serve it from the file
/// ([`crate::endgame::FileTable::open`]: the whole file checked, only its index held); a
/// defect is an input error naming the file.
pub fn open_table(path: &std::path::Path) -> Result<crate::endgame::FileTable, Error> {
    crate::endgame::FileTable::open(path)
        .map_err(|e| Error::input(format!("{}: {e}", path.display())))
}

/// Decodes a weight file of either version (a version-1 file is a one-stage network);
/// any defect is an input error naming the file (`name: ...`).
pub fn load_network(name: &str, bytes: &[u8]) -> Result<MultiStage, Error> {
    load_stages(name, bytes).map(|(net, _)| net)
}

/// [`load_network`] with each stage's [`Meta`].
pub fn load_stages(name: &str, bytes: &[u8]) -> Result<(MultiStage, Vec<Meta>), Error> {
    ntuple::decode_stages(bytes).map_err(|e| Error::input(format!("{name}: {e}")))
}

/// Reads a start file's text (from `2048 starts`); a bad line is an input error naming the
/// file and the line.
pub fn load_starts(name: &str, text: &str) -> Result<Vec<crate::Board>, Error> {
    crate::multistage::parse_starts(text).map_err(|e| Error::input(format!("{name}: {e}")))
}

pub(crate) use bits::job::check_range;

/// The number of workers a batch of `items` runs on in the current rayon pool.
fn workers(items: usize) -> usize {
    rayon::current_num_threads().min(items).max(1)
}

/// The statistics of the reports, from `trials`.
mod stats {
    /// The mean of `xs` and the half-width of its 95% normal interval,
    /// `1.96 * sqrt(var / n)` with the sample variance (n - 1).
    pub(super) fn mean_ci95(xs: &[f64]) -> (f64, f64) {
        (trials::mean(xs).unwrap_or(f64::NAN), trials::sample::normal_half_width(xs, 1.96))
    }
}
