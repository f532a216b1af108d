//! `percent`: how many queues of a pattern have a perfect clear from a field, which fail, and
//! the rates by the first pieces ([`crate::percent`]), with a sample checked by the solver.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{load_kicks, read_board, Control, Error, Progress, Shard};
use crate::movegen::MoveGen;
use crate::orders::{self, OrdersError, MAX_PIECES};
use crate::pattern::{parse_patterns, Pattern};
use crate::percent::{self, CountOptions, Odds};
use crate::piece::queue_string;
use crate::solver::{Outcome, PcRequest, Solver};
use crate::{trace, Board, KickTable, Piece};

/// A percent request (`bitarcade tetris percent`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct PercentRequest {
    /// The queues, in solution-finder's pattern syntax (see [`crate::pattern`]): `*p7`,
    /// `I,*p6`, `[IJL]p2,*p4`; several joined by `;` are counted on their own and added up.
    pub pattern: String,
    /// Whether hold may be used (the hold slot starts empty; a piece already held is the
    /// pattern's first).
    pub hold: bool,
    /// Starting field as a text file (rows top first, '.' empty, 10 per row); wins over
    /// `fumen`. Empty when both are absent.
    pub field: Option<bits::job::InputFile>,
    /// Starting field as a fumen string (`v115@...`).
    pub fumen: Option<String>,
    /// PC height (lines), as solution-finder's `--clear-line`.
    pub height: u32,
    /// Kick table: `none`, `srs`, `srs+`, `srs-tetrio`, or the name of the file whose text is
    /// `kick_table`.
    pub kicks: String,
    /// The text of a kick table file, when `kicks` names a file.
    pub kick_table: Option<String>,
    /// List the queues with no PC.
    pub fails: bool,
    /// The success rates by the first pieces, to this depth (0: none).
    pub tree: u32,
    /// Queues of the answer re-solved one by one by the DFS solver (every solution replayed by
    /// the verifier); any disagreement is an error. Spread evenly over the queues.
    pub check: u32,
    /// Only shard K of N of the queues (by their first pieces); the shards' counts add up to
    /// the whole.
    pub shard: Shard,
    /// Fields followed per order prefix when the clearing orders are searched (0: all, the
    /// exact set; `None`: all when a PC places at most 9 pieces, else 256). With a beam the
    /// orders certify most queues and the DFS solver decides the rest, so the answer is exact
    /// either way; the beam only trades the order search's time and memory for solver calls.
    /// The exact set for a 4-line PC from an empty field takes about 5 CPU-minutes and 8 GB.
    pub beam: Option<u32>,
}

impl Default for PercentRequest {
    fn default() -> Self {
        PercentRequest {
            pattern: String::new(),
            hold: true,
            field: None,
            fumen: None,
            height: 4,
            kicks: "srs".into(),
            kick_table: None,
            fails: false,
            tree: 0,
            check: 100,
            shard: Shard::WHOLE,
            beam: None,
        }
    }
}

/// One pattern's count.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PatternOdds {
    /// The pattern, normalised and cut to the pieces that matter.
    pub pattern: String,
    /// Queues with a PC.
    pub solvable: u64,
    /// Queues (distinct after the cut).
    pub total: u64,
}

/// One node of the success tree.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TreeOut {
    /// The pattern it belongs to (its index in `patterns`).
    pub pattern: usize,
    /// The first pieces.
    pub prefix: String,
    /// Queues below it with a PC.
    pub solvable: u64,
    /// Queues below it.
    pub total: u64,
}

/// The answer to a [`PercentRequest`] (what `percent --json` prints).
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PercentResponse {
    /// PC height.
    pub height: u32,
    /// Pieces each PC places.
    pub pieces: usize,
    /// Whether hold was allowed.
    pub hold: bool,
    /// The kick table's name.
    pub kicks: String,
    /// The shard, `K/N`.
    pub shard: String,
    /// Queues with a PC, all patterns.
    pub solvable: u64,
    /// Queues, all patterns.
    pub total: u64,
    /// `100 * solvable / total`.
    pub percent: f64,
    /// Per pattern.
    pub patterns: Vec<PatternOdds>,
    /// The queues with no PC (with `fails`), in piece order (`I O T S Z J L`), once per
    /// pattern that deals them.
    pub fails: Vec<String>,
    /// The success tree (with `tree`), each node before its children.
    pub tree: Vec<TreeOut>,
    /// Queues re-solved by the DFS solver and verified, all agreeing.
    pub checked: u64,
    /// Distinct queues the orders did not certify, decided by the DFS solver (each PC
    /// replayed).
    pub solver_queues: u64,
    /// Fields followed per order prefix (0: all).
    pub beam: u32,
    /// Whether the orders are every clearing order (no field left out by the beam).
    pub exact_orders: bool,
    /// Clearing orders of `pieces` pieces (no hold).
    pub orders: u64,
    /// Fields the order search looked at.
    pub fields: u64,
    /// Bytes of the order sets (prefix sets included).
    pub order_bytes: usize,
    /// Wall time of the order search, seconds (varies run to run).
    pub order_seconds: f64,
    /// Wall time of the whole request, seconds (varies run to run).
    pub seconds: f64,
}

/// Piece-order sort key of a queue's letters (`I O T S Z J L`).
fn piece_key(q: &str) -> Vec<usize> {
    q.chars().map(|c| Piece::from_letter(c).map_or(7, Piece::index)).collect()
}

impl PercentResponse {
    /// The whole answer from the answers of every shard of one request (`1/N` ... `N/N`):
    /// counts added, fails and tree nodes in the order one run gives (the tree's one-piece
    /// nodes summed), the order search's figures from the first shard (every shard runs the
    /// same), `checked` and `solver_queues` added. `seconds` is the first shard's; the caller
    /// sets the wall time.
    pub fn merge(parts: Vec<PercentResponse>) -> Result<PercentResponse, Error> {
        let mut it = parts.into_iter();
        let mut whole = it.next().ok_or_else(|| Error::input("parts: none"))?;
        for p in it {
            if p.patterns.len() != whole.patterns.len() || p.pieces != whole.pieces {
                return Err(Error::input("parts: from different requests"));
            }
            whole.solvable += p.solvable;
            whole.total += p.total;
            for (w, q) in whole.patterns.iter_mut().zip(&p.patterns) {
                w.solvable += q.solvable;
                w.total += q.total;
            }
            whole.fails.extend(p.fails);
            whole.tree.extend(p.tree);
            whole.checked += p.checked;
            whole.solver_queues += p.solver_queues;
            whole.exact_orders &= p.exact_orders;
        }
        whole.fails.sort_by_cached_key(|q| piece_key(q));
        whole.tree.sort_by_cached_key(|t| (t.pattern, piece_key(&t.prefix)));
        let mut tree: Vec<TreeOut> = Vec::with_capacity(whole.tree.len());
        for t in whole.tree.drain(..) {
            match tree.last_mut() {
                Some(last) if last.pattern == t.pattern && last.prefix == t.prefix => {
                    last.solvable += t.solvable;
                    last.total += t.total;
                }
                _ => tree.push(t),
            }
        }
        whole.tree = tree;
        whole.shard = Shard::WHOLE.to_string();
        whole.percent =
            if whole.total == 0 { 0.0 } else { 100.0 * whole.solvable as f64 / whole.total as f64 };
        Ok(whole)
    }
}

fn abort_error(e: OrdersError) -> Error {
    match e {
        OrdersError::Aborted => Error::Aborted,
        OrdersError::TooManyPieces(n) => Error::input(format!(
            "height: a PC here places {n} pieces; percent counts up to {MAX_PIECES}"
        )),
        OrdersError::TooLarge => Error::input(
            "beam: the exact order search has too many fields here; give a beam (--beam 256)",
        ),
    }
}

/// Counts the queues of the request's patterns that have a PC from the field (see the
/// [`crate::percent`] docs). Parallel on the caller's rayon pool, the same answer for any thread
/// count.
pub fn percent(req: &PercentRequest, ctl: Control) -> Result<PercentResponse, Error> {
    let start = Instant::now();
    let kicks = load_kicks(&req.kicks, req.kick_table.as_deref())?;
    req.shard.check()?;
    let patterns =
        parse_patterns(&req.pattern).map_err(|e| Error::input(format!("pattern: {e}")))?;
    let board = read_board(req.field.as_ref(), req.fumen.as_deref())?;
    let h = req.height;
    if !(1..=crate::board::ZONE_ROWS).contains(&h) {
        return Err(Error::input(format!("height: {h}, percent counts PCs of 1 to 6 lines")));
    }
    let zone = board.to_zone(h).ok_or_else(|| {
        Error::input(format!("height: {h}, the field is {} rows tall", board.height()))
    })?;
    let cells = zone.count_ones();
    if (10 * h - cells) % 4 != 0 || 10 * h == cells {
        return Err(Error::input(format!(
            "height: {h}, the field leaves {} empty cells below it, not a positive multiple of 4",
            10 * h - cells
        )));
    }
    let n = ((10 * h - cells) / 4) as usize;
    let len = n + usize::from(req.hold);
    for (i, p) in patterns.iter().enumerate() {
        if p.len() < n {
            return Err(Error::input(format!(
                "pattern: pattern {} deals {} pieces; a {h}-line PC of this field places {n}",
                i + 1,
                p.len()
            )));
        }
    }
    if n > MAX_PIECES {
        return Err(abort_error(OrdersError::TooManyPieces(n)));
    }
    // Only pieces some queue can place.
    let pieces = patterns.iter().flat_map(|p| p.truncated(len).pieces_at()).fold(0u8, |m, s| m | s);
    let stop = ctl.abort_flag().unwrap_or(&NEVER);
    ctl.report(Progress::new(0, None).with_message("orders"));
    let t0 = Instant::now();
    let mg = MoveGen::new(&kicks);
    let beam = req.beam.unwrap_or(if n <= 9 { 0 } else { DEFAULT_BEAM });
    let cap = if beam == 0 { usize::MAX } else { beam as usize };
    let set = orders::build_capped(&mg, zone, h, pieces, cap, stop).map_err(abort_error)?;
    let order_seconds = t0.elapsed().as_secs_f64();
    let opts = CountOptions { hold: req.hold, tree_depth: req.tree as usize, fails: req.fails };
    let mut out = PercentResponse {
        height: h,
        pieces: n,
        hold: req.hold,
        kicks: kicks.name().to_string(),
        shard: req.shard.to_string(),
        solvable: 0,
        total: 0,
        percent: 0.0,
        patterns: Vec::new(),
        fails: Vec::new(),
        tree: Vec::new(),
        checked: 0,
        solver_queues: 0,
        beam,
        exact_orders: set.exact,
        orders: set.orders().count(),
        fields: set.fields,
        order_bytes: set.bytes(),
        order_seconds,
        seconds: 0.0,
    };
    let dfs = Dfs {
        kicks: &kicks,
        board,
        height: h,
        hold: req.hold,
        solvers: Mutex::new(Vec::new()),
        cache: Mutex::new(HashMap::new()),
        error: Mutex::new(None),
        stop,
    };
    let decide = |q: &[Piece]| dfs.decide(q);
    let all_tasks: u64 =
        patterns.iter().map(|p| percent::tasks(&set, p, req.hold, req.shard)).sum();
    let done = AtomicU64::new(0);
    let tick = || {
        let d = done.fetch_add(1, Ordering::Relaxed) + 1;
        ctl.report(Progress::new(d, Some(all_tasks)).with_message("queues"));
    };
    let hooks = percent::Hooks { resolve: Some(&decide), tick: Some(&tick) };
    let mut fails: Vec<Vec<Piece>> = Vec::new();
    for (i, p) in patterns.iter().enumerate() {
        let cut = p.truncated(len);
        let counted = percent::count_shard(&set, &cut, opts, req.shard, hooks, stop);
        if let Some(e) = dfs.error.lock().unwrap_or_else(|e| e.into_inner()).take() {
            return Err(e);
        }
        let counted = counted.ok_or(Error::Aborted)?;
        ctl.check()?;
        out.solvable += counted.odds.solvable;
        out.total += counted.odds.total;
        out.patterns.push(PatternOdds {
            pattern: cut.to_string(),
            solvable: counted.odds.solvable,
            total: counted.odds.total,
        });
        fails.extend(counted.fails);
        out.tree.extend(counted.tree.iter().map(|t| TreeOut {
            pattern: i,
            prefix: queue_string(&t.prefix),
            solvable: t.odds.solvable,
            total: t.odds.total,
        }));
        out.checked += check_sample(&dfs, &set, &cut, req, counted.odds)?;
    }
    out.solver_queues = dfs.cache.lock().map_or(0, |c| c.len() as u64);
    fails.sort();
    out.fails = fails.iter().map(|q| queue_string(q)).collect();
    out.percent = if out.total == 0 { 0.0 } else { 100.0 * out.solvable as f64 / out.total as f64 };
    out.seconds = start.elapsed().as_secs_f64();
    Ok(out)
}

static NEVER: AtomicBool = AtomicBool::new(false);

/// The beam of [`PercentRequest::beam`] when none is given and a PC places more than 9 pieces.
pub const DEFAULT_BEAM: u32 = 256;

/// The DFS solver deciding queues one by one: a pool of solvers for the worker threads, every
/// PC replayed by the verifier, the answers kept per distinct queue.
struct Dfs<'a> {
    kicks: &'a KickTable,
    board: Board,
    height: u32,
    hold: bool,
    solvers: Mutex<Vec<Solver>>,
    /// Answers by queue (with hold, the first two pieces in piece order: they are
    /// interchangeable).
    cache: Mutex<HashMap<Vec<Piece>, bool>>,
    /// The first error (a PC that does not replay); the count stops.
    error: Mutex<Option<Error>>,
    stop: &'a AtomicBool,
}

impl Dfs<'_> {
    /// The solver's answer for a queue, from the cache when it was asked before; `None` after an
    /// error or an abort.
    fn decide(&self, q: &[Piece]) -> Option<bool> {
        let mut key = q.to_vec();
        if self.hold && key.len() > 1 && key[0] > key[1] {
            key.swap(0, 1);
        }
        if let Some(&v) = self.cache.lock().ok()?.get(&key) {
            return Some(v);
        }
        match self.solve(q) {
            Ok(Some(v)) => {
                self.cache.lock().ok()?.insert(key, v);
                Some(v)
            }
            Ok(None) => None,
            Err(e) => {
                self.error.lock().ok()?.get_or_insert(e);
                None
            }
        }
    }

    /// One DFS search, its PC replayed; `Ok(None)` when stopped by the abort flag.
    fn solve(&self, q: &[Piece]) -> Result<Option<bool>, Error> {
        let mut solver = self
            .solvers
            .lock()
            .ok()
            .and_then(|mut v| v.pop())
            .unwrap_or_else(|| Solver::new(self.kicks));
        let preq = PcRequest {
            board: self.board,
            queue: q.to_vec(),
            hold: None,
            use_hold: self.hold,
            height: Some(self.height),
            min_height: None,
            save_hold: None,
        };
        let outcome = solver.solve_with_abort(&preq, Some(self.stop));
        if let Ok(mut v) = self.solvers.lock() {
            v.push(solver);
        }
        match outcome.map_err(|e| Error::failed(e.to_string()))? {
            Outcome::Found(sol) => {
                trace::verify(&preq, self.kicks, &sol).map_err(|e| {
                    Error::failed(format!(
                        "{}: the solver's PC does not replay: {e}",
                        queue_string(q)
                    ))
                })?;
                Ok(Some(true))
            }
            Outcome::None => Ok(Some(false)),
            Outcome::Aborted => Ok(None),
        }
    }
}

/// Re-solves about `req.check` queues of the pattern (every queue when it has no more, else
/// an even spread over the whole pattern; a shard takes those it deals) with a fresh DFS search each, every PC replayed, and fails
/// on any queue where the search and the count's answer (the orders' certificate, or the
/// solver for a queue they do not certify) disagree.
fn check_sample(
    dfs: &Dfs<'_>,
    set: &orders::OrderSet,
    cut: &Pattern,
    req: &PercentRequest,
    odds: Odds,
) -> Result<u64, Error> {
    if req.check == 0 || odds.total == 0 {
        return Ok(0);
    }
    // The sample is spread over the whole pattern, so that the shards' samples add up to the
    // sample of one run.
    let step = cut.queues().div_ceil(u64::from(req.check)).max(1);
    let mut checked = 0u64;
    let mut err = None;
    percent::for_each_in_shard(cut, req.shard, |q, index| {
        if index % step == 0 {
            let fresh = match dfs.solve(q) {
                Ok(Some(v)) => v,
                Ok(None) => return false,
                Err(e) => {
                    err = Some(e);
                    return false;
                }
            };
            let certified = percent::solvable(set, q, req.hold);
            let counted = certified || (!set.exact && dfs.decide(q) == Some(true));
            if fresh != counted || (certified && !fresh) {
                err = Some(Error::failed(format!(
                    "{}: the solver says {}, the count says the opposite",
                    queue_string(q),
                    if fresh { "PC" } else { "no PC" }
                )));
                return false;
            }
            checked += 1;
        }
        true
    });
    if let Some(e) = err {
        return Err(e);
    }
    if dfs.stop.load(Ordering::Relaxed) {
        return Err(Error::Aborted);
    }
    Ok(checked)
}
