//! Expectimax over move and spawn layers.
//!
//! # Implementation notes
//!
//! ```text
//!   root (max over the legal moves)
//!    └─ chance node: board after the move; average over every empty cell,
//!       0.9 x (2 spawned there) + 0.1 x (4 spawned there)
//!        └─ max node: best move from there ... down to `depth` move layers
//! ```
//!
//! - **Depth** counts move layers including the root's. [`Depth::Adaptive`] uses
//!   `clamp(distinct_ranks - offset, min, max)`: more distinct tiles means a more delicate
//!   board. (nneonneo/2048-ai's rule `max(3, distinct - 2)` counts the layers below the root,
//!   so it is `Adaptive { min: 4, max: 16, offset: 1 }` here.) [`Depth::Budget`] deepens iteratively while
//!   the node count allows one more layer: it goes deep where the board is tight (few empty
//!   cells, few spawns to average) and stays shallow on open boards, for the same work per
//!   move; BENCHMARKS.md measures it against fixed depths at equal nodes.
//! - **Probability cutoff**: a chance node reached with path probability below `prob_cutoff`
//!   is evaluated by the heuristic instead of expanded (the probability is the product of the
//!   spawn probabilities `0.9 / empty` or `0.1 / empty` along the path).
//! - **Transposition table**: keyed by the board (a `u64` is its own key), one entry per
//!   chance node: key (8 bytes), value (`f32`), remaining depth (`u8`), stamp (`u16`): 16
//!   bytes with padding, `2^tt_bits` entries, always-replace. A stamp per root search (per
//!   move: the iterations of a budget search share one) invalidates the whole table without
//!   clearing it, so the table never carries results from one move to the next and the
//!   player is deterministic. An entry answers a lookup when it
//!   was searched at least as deep. A max node probes the entries of all its children
//!   before it descends into any, so their cache misses overlap (the probe's miss was half of
//!   the search's time at 2^20 entries). One level up, a chance node whose children will
//!   probe makes all its spawned boards' moves first and prefetches the entries of their
//!   children ([`SearchConfig::prefetch`]), so those misses also overlap the search of the
//!   earlier siblings: 1.23x the nodes per second under nneonneo's depth rule, same values,
//!   moves and node counts (`bitarcade 2048 bench`, BENCHMARKS.md session 15).
//! - **Incremental spawns**: a chance node's spawned boards differ from it in one cell, so
//!   it makes its own four moves once ([`SpawnBase`]) and each spawned board's moves by
//!   patching one row (left, right) and one column (up, down): three table lookups instead
//!   of a full [`Board::shift_all`]. The patched results come with their transposes, so a
//!   leaf child is valued without a transpose ([`Evaluator::eval_transposed`]). Same boards
//!   and values bit for bit ([`SearchConfig::incremental`]): ~1.2x fewer instructions per
//!   node, 1.08-1.17x the nodes per second (BENCHMARKS.md session 16). Caching the leaf
//!   children's unchanged row values as well was tried and measured slower (more
//!   instructions: the patching costs what the lookups saved).
//! - **Values**: the leaves are valued by an [`Evaluator`]: the row-table heuristic (kept
//!   positive on live boards; a max node with no legal move, a dead end, is worth 0), or an
//!   n-tuple network ([`crate::ntuple::NetEval`]: leaf = score built so far + the network's
//!   estimate of the score to come, dead end = score built so far). The evaluator is a type
//!   parameter, so each search is compiled for its evaluator (static dispatch) and the
//!   heuristic search is the same code as before the trait. A move that would create a 65536
//!   is worth [`WIN_VALUE`]. The corner evaluation ([`crate::search::Corner`],
//!   macroxue/2048-ai's) takes negative values: it has no floor, and its dead end's value
//!   comes from the root ([`Evaluator::at_root`]).
//! - **Forward pruning** (opt-in, [`SearchConfig::prune_below_pass`]): an evaluator may give
//!   a root search a pass score ([`RootTerms::pass`]); a chance node that would be expanded
//!   but whose own value is below it is not expanded and is worth that value
//!   ([`Searcher::pruned`] counts them). The row heuristic gives none, so the option changes
//!   nothing with it. With [`SearchConfig::keep_table`], entries kept from an earlier move
//!   were searched under that move's pass score.
//! - **Move generator**: [`MoveGen`] is the only way the search moves a board, so the same
//!   search runs on the fast engine ([`FastMoves`]) and on the reference engine
//!   ([`crate::search::ReferenceMoves`]) for side-by-side node rates.
//! - **Abort**: a searcher given a flag ([`Searcher::with_abort`]) reads it once
//!   [`POLL_NODES`] nodes have passed since the last read, at an expanded chance node (a
//!   compare of the node counter with a field: without a flag the field is `u64::MAX` and the
//!   flag is never read). Once the flag is set every expanded chance node returns at once, so a
//!   move under nneonneo's rule (millions of nodes) stops within microseconds; the answer of
//!   an aborted search is meaningless ([`Searcher::aborted`] says so). Without a flag, or
//!   while it is unset, values, moves and node counts are those of a searcher without one.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::board::{Board, Dir, Shifts};
use crate::search::heuristic::Heuristic;
use crate::spawn::{SpawnBase, Spawned};
use crate::tables::OVERFLOW;

/// The value of a move that creates a 65536 tile (above every heuristic value).
pub const WIN_VALUE: f32 = 1.0e9;

/// A searcher with an abort flag reads it at the first expanded chance node after this many
/// more nodes (move-generator calls): every ~30 microseconds of search.
pub const POLL_NODES: u64 = 1024;

/// How a search values its leaves.
pub trait Evaluator {
    /// The value of a board after a move (before its spawn), where the search stops.
    fn eval(&self, b: Board) -> f32;

    /// The value of a board on which no move is legal (the game ends there); 0 by default.
    #[inline(always)]
    fn dead_end(&self, _b: Board) -> f32 {
        0.0
    }

    /// The least value a max node with a legal move takes (its best child is raised to it);
    /// none by default.
    #[inline(always)]
    fn floor(&self) -> f32 {
        f32::NEG_INFINITY
    }

    /// [`Evaluator::eval`] of `b`, given its transpose `t` (an evaluator over rows and
    /// columns can skip the transpose); must be the same value, bit for bit.
    #[inline(always)]
    fn eval_transposed(&self, b: Board, _t: u64) -> f32 {
        self.eval(b)
    }

    /// What a root search from `root` takes from its root board (once per root search):
    /// none by default.
    #[inline(always)]
    fn at_root(&self, _root: Board) -> RootTerms {
        RootTerms::default()
    }
}

/// What a root search takes from its root board ([`Evaluator::at_root`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RootTerms {
    /// The pass score: with [`SearchConfig::prune_below_pass`], a chance node that would be
    /// expanded but whose own value is below it is not expanded and is worth that value.
    pub pass: Option<f32>,
    /// The value of every dead end met in this search, instead of [`Evaluator::dead_end`].
    pub dead_end: Option<f32>,
}

/// The row heuristic: a dead end is worth 0 and a live max node at least 0 (the search's
/// rule since session 1: the heuristic is kept positive on live boards).
impl Evaluator for Heuristic {
    #[inline(always)]
    fn eval(&self, b: Board) -> f32 {
        Heuristic::eval(self, b)
    }

    #[inline(always)]
    fn floor(&self) -> f32 {
        0.0
    }

    #[inline(always)]
    fn eval_transposed(&self, b: Board, t: u64) -> f32 {
        Heuristic::eval_transposed(self, b, t)
    }
}

/// How a search moves boards.
pub trait MoveGen {
    /// Same contract as [`Board::slide`]: the new board and the score word whose bit 31 flags
    /// an overflow.
    fn slide(&self, b: Board, d: Dir) -> (Board, u32);

    /// The board alone and the overflow flag, as [`Board::shift`]; by default from
    /// [`MoveGen::slide`].
    #[inline(always)]
    fn shift(&self, b: Board, d: Dir) -> (Board, bool) {
        let (nb, s) = self.slide(b, d);
        (nb, s & OVERFLOW != 0)
    }

    /// The four moves at once, as [`Board::shift_all`]; by default from [`MoveGen::shift`].
    #[inline(always)]
    fn shift_all(&self, b: Board) -> Shifts {
        let mut out = Shifts { boards: [b; 4], overflow: 0 };
        for (i, d) in Dir::ALL.into_iter().enumerate() {
            let (nb, o) = self.shift(b, d);
            out.boards[i] = nb;
            out.overflow |= u8::from(o) << i;
        }
        out
    }

    /// A chance node's board prepared to move its spawned boards ([`SpawnBase`]), if this
    /// generator makes them that way; none by default (every spawned board through
    /// [`MoveGen::shift_all`]).
    #[inline(always)]
    fn spawn_base(&self, _b: Board) -> Option<SpawnBase> {
        None
    }
}

/// The table engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct FastMoves;

impl MoveGen for FastMoves {
    #[inline(always)]
    fn slide(&self, b: Board, d: Dir) -> (Board, u32) {
        b.slide(d)
    }

    #[inline(always)]
    fn shift(&self, b: Board, d: Dir) -> (Board, bool) {
        b.shift(d)
    }

    #[inline(always)]
    fn shift_all(&self, b: Board) -> Shifts {
        b.shift_all()
    }

    #[inline(always)]
    fn spawn_base(&self, b: Board) -> Option<SpawnBase> {
        SpawnBase::new(b)
    }
}

/// How deep to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Depth {
    /// Always this many move layers.
    Fixed(u8),
    /// `clamp(distinct_ranks - offset, min, max)` move layers (nneonneo/2048-ai's rule is
    /// offset 1, min 4).
    Adaptive {
        /// Fewest layers.
        min: u8,
        /// Most layers.
        max: u8,
        /// Layers fewer than the number of distinct ranks.
        #[serde(default = "one")]
        offset: u8,
    },
    /// Iterative deepening under a node budget: search `min` layers, then one layer more
    /// while the nodes spent on this move plus the next iteration's predicted cost (the last
    /// iteration's nodes times its growth over the one before) stay within `nodes`, up to
    /// `max` layers. Deterministic: it counts nodes, not time.
    Budget {
        /// Move-generator calls per move (the "search nodes" of [`Searcher::nodes`]).
        nodes: u64,
        /// Fewest layers.
        min: u8,
        /// Most layers.
        max: u8,
    },
}

impl Depth {
    /// The number of move layers for `board`.
    pub fn layers(self, board: Board) -> u8 {
        match self {
            Depth::Fixed(d) => d.max(1),
            Depth::Adaptive { min, max, offset } => {
                let d = board.distinct_ranks().saturating_sub(u32::from(offset)).min(255) as u8;
                d.clamp(min.max(1), max.max(min.max(1)))
            }
            Depth::Budget { min, .. } => min.max(1),
        }
    }
}

fn one() -> u8 {
    1
}

fn one_f32() -> f32 {
    1.0
}

fn ten_u8() -> u8 {
    10
}

fn yes() -> bool {
    true
}

/// Search settings.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SearchConfig {
    /// Depth rule.
    pub depth: Depth,
    /// Chance nodes below this path probability are evaluated, not expanded.
    pub prob_cutoff: f32,
    /// The transposition table has `2^tt_bits` entries.
    pub tt_bits: u8,
    /// Budget rule only: when the last iteration chose a different move than the one before
    /// it (the search has not settled), the move's budget is multiplied by this factor, once
    /// per move. 1 turns it off.
    #[serde(default = "one_f32")]
    pub extend: f32,
    /// Keep the transposition table from one move to the next instead of invalidating it:
    /// the next move's searches start from the previous move's chance nodes (an entry still
    /// answers only lookups that need no more layers than it was searched with). Still
    /// deterministic for a game played by one searcher, but a searcher's answer then depends
    /// on what it searched before.
    #[serde(default)]
    pub keep_table: bool,
    /// Budget rule only: on a board holding at least this many tiles of rank
    /// [`SearchConfig::boost_rank`] or more (the long chains where the player's games are
    /// lost), the move's budget is multiplied by [`SearchConfig::boost`]. 0 turns it off.
    #[serde(default)]
    pub boost_tiles: u8,
    /// The rank of the tiles [`SearchConfig::boost_tiles`] counts: 10 (1024) by default; 14
    /// with `boost_tiles` 1 boosts every board from the first 16384 on.
    #[serde(default = "ten_u8")]
    pub boost_rank: u8,
    /// The budget factor on boosted boards (see [`SearchConfig::boost_tiles`]).
    #[serde(default = "one_f32")]
    pub boost: f32,
    /// Start the table loads of a chance node's grandchildren before descending (a cache
    /// hint only: values, moves and node counts are the same either way; `2048 bench` times
    /// both).
    #[serde(default = "yes")]
    pub prefetch: bool,
    /// Move a chance node's spawned boards by patching the one row and column a spawn
    /// changes in the chance node's own moves ([`SpawnBase`]), transposes included, so leaf
    /// children are valued without a transpose ([`Evaluator::eval_transposed`]): the same
    /// boards and values bit for bit, so the same moves and node counts either way; `2048
    /// bench` times both.
    #[serde(default = "yes")]
    pub incremental: bool,
    /// Forward pruning by the evaluator's pass score ([`RootTerms::pass`]): a chance node
    /// whose own value is below it is valued so, not expanded. Only an evaluator that gives
    /// a pass score prunes (the corner evaluation); off by default.
    #[serde(default)]
    pub prune_below_pass: bool,
}

impl Default for SearchConfig {
    /// nneonneo/2048-ai's setting: adaptive depth (`max(3, distinct - 2)` below the root),
    /// cutoff 1e-4, and a 2^20-entry table (16 MiB).
    fn default() -> SearchConfig {
        SearchConfig {
            depth: Depth::Adaptive { min: 4, max: 16, offset: 1 },
            prob_cutoff: 1e-4,
            tt_bits: 20,
            extend: 1.0,
            keep_table: false,
            boost_tiles: 0,
            boost_rank: 10,
            boost: 1.0,
            prefetch: true,
            incremental: true,
            prune_below_pass: false,
        }
    }
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    value: f32,
    depth: u8,
    stamp: u16,
}

/// The result of a root search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// The best move.
    pub dir: Dir,
    /// Its expected value.
    pub value: f32,
    /// The move layers searched.
    pub depth: u8,
}

/// An expectimax searcher: evaluator, settings, transposition table and node counter.
pub struct Searcher<'h, G: MoveGen = FastMoves, E: Evaluator = Heuristic> {
    heur: &'h E,
    cfg: SearchConfig,
    gen: G,
    tt: Vec<Entry>,
    shift: u32,
    stamp: u16,
    nodes: u64,
    /// The caller's abort flag, if any.
    abort: Option<&'h AtomicBool>,
    /// The node count at which the flag is read next (`u64::MAX` without a flag, 0 once it
    /// was found set).
    poll_at: u64,
    /// The node count at which the search stops as if aborted ([`Searcher::cap_nodes`];
    /// `u64::MAX`: no cap).
    cap_at: u64,
    /// Whether the flag was found set (or the node cap reached) during the current root
    /// search.
    stopped: bool,
    /// Each move's value in the last root search (`None`: the move changes nothing).
    root_values: [Option<f32>; 4],
    /// The current root search's pass score (only with [`SearchConfig::prune_below_pass`]).
    pass: Option<f32>,
    /// The current root search's dead-end value, if the evaluator gives one.
    dead_end: Option<f32>,
    /// Chance nodes not expanded because their value was below the pass score.
    pruned: u64,
}

impl<'h> Searcher<'h, FastMoves> {
    /// A searcher on the fast engine.
    pub fn new(heur: &'h Heuristic, cfg: SearchConfig) -> Self {
        Searcher::with_movegen(heur, cfg, FastMoves)
    }
}

impl<'h, E: Evaluator> Searcher<'h, FastMoves, E> {
    /// A searcher on the fast engine with any evaluator.
    pub fn with_evaluator(eval: &'h E, cfg: SearchConfig) -> Self {
        Searcher::with_movegen(eval, cfg, FastMoves)
    }
}

impl<'h, G: MoveGen, E: Evaluator> Searcher<'h, G, E> {
    /// A searcher on any move generator.
    pub fn with_movegen(heur: &'h E, cfg: SearchConfig, gen: G) -> Self {
        let bits = cfg.tt_bits.clamp(4, 30);
        Searcher {
            heur,
            cfg,
            gen,
            tt: vec![Entry::default(); 1 << bits],
            shift: 64 - u32::from(bits),
            stamp: 0,
            nodes: 0,
            abort: None,
            poll_at: u64::MAX,
            cap_at: u64::MAX,
            stopped: false,
            root_values: [None; 4],
            pass: None,
            dead_end: None,
            pruned: 0,
        }
    }

    /// The same searcher, stopping as soon as it can once `flag` is set (see the [module
    /// docs](self)); `None` is a searcher without a flag.
    pub fn with_abort(mut self, flag: Option<&'h AtomicBool>) -> Self {
        self.abort = flag;
        self.poll_at = if flag.is_some() { 0 } else { u64::MAX };
        self
    }

    /// Each move's expected value (in [`Dir::ALL`] order) in the last root search, the one
    /// whose answer [`Searcher::best_move`] returned; `None` for a move that changes nothing.
    pub fn root_values(&self) -> [Option<f32>; 4] {
        self.root_values
    }

    /// Whether the last root search was stopped by the abort flag (its answer is then
    /// meaningless, and so is the table until the next root search).
    pub fn aborted(&self) -> bool {
        self.stopped
    }

    /// Reads the abort flag (called from [`Searcher::chance`] once the node count reaches
    /// `poll_at`); true when the search must stop.
    #[cold]
    #[inline(never)]
    fn poll(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes >= self.cap_at {
            self.stopped = true;
            self.poll_at = 0;
            return true;
        }
        match self.abort {
            Some(flag) if flag.load(Ordering::Relaxed) => {
                self.stopped = true;
                self.poll_at = 0;
                true
            }
            Some(_) => {
                self.poll_at = (self.nodes + POLL_NODES).min(self.cap_at);
                false
            }
            None => {
                self.poll_at = self.cap_at;
                false
            }
        }
    }

    /// Caps the next move's search at `nodes` more nodes: the search stops there as if its
    /// abort flag were set, and the deepening rules answer with the deepest iteration that
    /// finished. A front end calls it before every move; without it there is no cap.
    pub fn cap_nodes(&mut self, nodes: u64) {
        self.cap_at = self.nodes.saturating_add(nodes);
        self.poll_at = self.poll_at.min(self.cap_at);
    }

    /// Starts a root search: clears the stop of an aborted one.
    fn start_root(&mut self) {
        if self.stopped {
            // The aborted search left half-computed values in the table: a new generation.
            self.stopped = false;
            self.poll_at = 0;
            self.stamp = self.stamp.wrapping_add(1);
            if self.stamp == 0 {
                self.tt.iter_mut().for_each(|e| *e = Entry::default());
                self.stamp = 1;
            }
        }
    }

    /// Moves generated so far, four per expanded max node (the "search nodes" of the node
    /// rate).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Chance nodes left unexpanded so far because their value was below the root search's
    /// pass score ([`SearchConfig::prune_below_pass`]).
    pub fn pruned(&self) -> u64 {
        self.pruned
    }

    /// The settings.
    pub fn config(&self) -> SearchConfig {
        self.cfg
    }

    fn next_stamp(&mut self) {
        self.start_root();
        if self.cfg.keep_table && self.stamp != 0 {
            return;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // Wrapped: clear for real once every 65,535 searches so stale stamps cannot match.
            self.tt.iter_mut().for_each(|e| *e = Entry::default());
            self.stamp = 1;
        }
    }

    /// The best move on `board` at the configured depth, or `None` if no move is legal.
    pub fn best_move(&mut self, board: Board) -> Option<Choice> {
        if let Depth::Budget { nodes, min, max } = self.cfg.depth {
            return self.best_move_budget(board, nodes, min, max);
        }
        let depth = self.cfg.depth.layers(board);
        self.search_root(board, depth)
    }

    /// Iterative deepening under a node budget (see [`Depth::Budget`]). The iterations of one
    /// move share the transposition table (an entry answers only lookups that need no more
    /// depth than it was searched with), so a deeper iteration reuses the shallower one's
    /// chance nodes.
    pub fn best_move_budget(
        &mut self,
        board: Board,
        budget: u64,
        min: u8,
        max: u8,
    ) -> Option<Choice> {
        self.next_stamp();
        let start = self.nodes;
        let mut d = min.max(1);
        let mut best = self.root(board, d)?;
        let mut last = self.nodes - start;
        let mut before = 0u64;
        let mut budget = budget as f64;
        if self.cfg.boost_tiles > 0
            && board.count_at_least(self.cfg.boost_rank) >= u32::from(self.cfg.boost_tiles)
        {
            budget *= f64::from(self.cfg.boost);
        }
        let mut extended = self.cfg.extend <= 1.0;
        let mut changed = false;
        while d < max && !self.stopped {
            // Growth of one more layer, from the last two iterations; before there are two,
            // assume the typical mid-game factor.
            let growth = if before > 0 { (last as f64 / before as f64).max(1.0) } else { 6.0 };
            let spent = self.nodes - start;
            if spent as f64 + last as f64 * growth > budget {
                if extended || !changed {
                    break;
                }
                // The last two iterations disagree: buy this move more nodes, once.
                extended = true;
                budget *= f64::from(self.cfg.extend);
                continue;
            }
            d += 1;
            let mark = self.nodes;
            let next = self.root(board, d)?;
            if self.stopped {
                // Stopped part way: the deepest finished iteration answers.
                break;
            }
            changed = next.dir != best.dir;
            best = next;
            before = last;
            last = self.nodes - mark;
        }
        Some(best)
    }

    /// Searches `board` with `layers` move layers.
    pub fn search_root(&mut self, board: Board, layers: u8) -> Option<Choice> {
        self.next_stamp();
        self.root(board, layers)
    }

    /// The root search itself, in the current table generation.
    fn root(&mut self, board: Board, layers: u8) -> Option<Choice> {
        let terms = self.heur.at_root(board);
        self.pass = if self.cfg.prune_below_pass { terms.pass } else { None };
        self.dead_end = terms.dead_end;
        let mut best: Option<Choice> = None;
        let moves = self.gen.shift_all(board);
        self.nodes += 4;
        let mut values = [None; 4];
        for (i, dir) in Dir::ALL.into_iter().enumerate() {
            let nb = moves.boards[i];
            let value = if moves.overflow & (1 << i) != 0 {
                WIN_VALUE
            } else if nb == board {
                continue;
            } else {
                self.chance(nb, layers - 1, 1.0)
            };
            values[i] = Some(value);
            if best.is_none_or(|b| value > b.value) {
                best = Some(Choice { dir, value, depth: layers });
            }
        }
        if !self.stopped {
            self.root_values = values;
        }
        best
    }

    /// Iterative deepening from `min_layers` up: after each completed depth, `more(depth)` says
    /// whether to search one layer deeper (the front end decides with the clock or a node
    /// budget; the search never looks at the clock). Returns the deepest completed choice.
    pub fn best_move_deepening(
        &mut self,
        board: Board,
        min_layers: u8,
        max_layers: u8,
        mut more: impl FnMut(u8) -> bool,
    ) -> Option<Choice> {
        let mut d = min_layers.max(1);
        let mut best = self.search_root(board, d)?;
        while d < max_layers && !self.stopped && more(d) {
            d += 1;
            let next = self.search_root(board, d)?;
            if self.stopped {
                break;
            }
            best = next;
        }
        Some(best)
    }

    #[inline]
    fn slot(&self, b: Board) -> usize {
        (b.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    fn chance(&mut self, board: Board, layers: u8, prob: f32) -> f32 {
        if layers == 0 || prob < self.cfg.prob_cutoff {
            return self.heur.eval(board);
        }
        if let Some(pass) = self.pass {
            // Forward pruning (before the table: a pruned node is never stored, so within one
            // root search the table holds no value of a node below the pass score).
            let v = self.heur.eval(board);
            if v < pass {
                self.pruned += 1;
                return v;
            }
        }
        if let Some(v) = self.probe(board, layers) {
            return v;
        }
        if self.nodes >= self.poll_at && self.poll() {
            return 0.0;
        }
        let slot = self.slot(board);
        let empty = board.empty_mask();
        let n = empty.count_ones();
        debug_assert!(n > 0, "a board after a legal move has an empty cell");
        let p = prob / n as f32;
        let base = if self.cfg.incremental { self.gen.spawn_base(board) } else { None };
        let sum = match base {
            Some(base) => self.spawn_sum(&base, empty, layers, p),
            None => self.plain_sum(board, empty, layers, p),
        };
        let value = sum / n as f32;
        self.tt[slot] = Entry { key: board.0, value, depth: layers, stamp: self.stamp };
        value
    }

    /// [`Searcher::chance`]'s sum over the spawned boards, each moved with
    /// [`MoveGen::shift_all`] (the path without [`SpawnBase`]).
    fn plain_sum(&mut self, board: Board, mut empty: u64, layers: u8, p: f32) -> f32 {
        let mut sum = 0.0f32;
        if self.cfg.prefetch && layers > 1 && p * 0.9 >= self.cfg.prob_cutoff {
            // Some spawned boards will probe the table for their children: make every
            // spawned board's moves first and start the loads of those probes' entries, so
            // the misses overlap each other and the search of the earlier siblings. The
            // values, their order and the node count are those of the plain loop below.
            let none = Shifts { boards: [board; 4], overflow: 0 };
            let mut kids = [none; 30];
            let mut e = empty;
            let mut i = 0;
            while e != 0 {
                let bit = e & e.wrapping_neg();
                e &= e - 1;
                for (tile, q) in [(bit, 0.9f32), (bit << 1, 0.1f32)] {
                    let spawned = Board(board.0 | tile);
                    let moves = self.gen.shift_all(spawned);
                    if moves.overflow == 0 && p * q >= self.cfg.prob_cutoff {
                        for nb in moves.boards {
                            if nb != spawned {
                                bits::prefetch::prefetch(&self.tt[self.slot(nb)]);
                            }
                        }
                    }
                    kids[i] = moves;
                    i += 1;
                }
            }
            let mut i = 0;
            while empty != 0 {
                let bit = empty & empty.wrapping_neg();
                empty &= empty - 1;
                sum += 0.9 * self.max_node_with(Board(board.0 | bit), kids[i], layers, p * 0.9);
                sum += 0.1
                    * self.max_node_with(Board(board.0 | (bit << 1)), kids[i + 1], layers, p * 0.1);
                i += 2;
            }
        } else {
            while empty != 0 {
                let bit = empty & empty.wrapping_neg();
                empty &= empty - 1;
                sum += 0.9 * self.max_node(Board(board.0 | bit), layers, p * 0.9);
                sum += 0.1 * self.max_node(Board(board.0 | (bit << 1)), layers, p * 0.1);
            }
        }
        sum
    }

    /// [`Searcher::chance`]'s sum over the spawned boards, each moved from `base`
    /// ([`SpawnBase::spawn`]) and, where its children are leaves, valued with the transposes
    /// it made. The same boards, values, order of sums and node count as the plain loop.
    fn spawn_sum(&mut self, base: &SpawnBase, mut empty: u64, layers: u8, p: f32) -> f32 {
        let cutoff = self.cfg.prob_cutoff;
        if self.cfg.prefetch && layers > 1 && p * 0.9 >= cutoff {
            // As in `chance`: start the table loads of the spawned boards' children first.
            // (The spawns are made again below rather than kept in an array of 30, as the
            // plain path does: a spawn is ~20 operations; which is faster was not measured.)
            let mut e = empty;
            while e != 0 {
                let cell = e.trailing_zeros() / 4;
                e &= e - 1;
                for (rank, q) in [(1, 0.9f32), (2, 0.1f32)] {
                    if p * q >= cutoff {
                        let s = base.spawn(cell, rank);
                        for nb in s.moves.boards {
                            if nb != s.board {
                                bits::prefetch::prefetch(&self.tt[self.slot(nb)]);
                            }
                        }
                    }
                }
            }
        }
        let mut sum = 0.0f32;
        while empty != 0 {
            let cell = empty.trailing_zeros() / 4;
            empty &= empty - 1;
            sum += 0.9 * self.max_spawned(&base.spawn(cell, 1), layers, p * 0.9);
            sum += 0.1 * self.max_spawned(&base.spawn(cell, 2), layers, p * 0.1);
        }
        sum
    }

    /// [`Searcher::max_node_with`] on a board from [`SpawnBase::spawn`] (which never
    /// overflows); leaf children are valued with their transposes given
    /// ([`Evaluator::eval_transposed`]).
    #[inline(always)]
    fn max_spawned(&mut self, s: &Spawned, layers: u8, prob: f32) -> f32 {
        if layers - 1 != 0 && prob >= self.cfg.prob_cutoff {
            return self.max_node_with(s.board, s.moves, layers, prob);
        }
        self.nodes += 4;
        let mut best = f32::NEG_INFINITY;
        for (nb, t) in s.moves.boards.into_iter().zip(s.transposed) {
            if nb != s.board {
                best = best.max(self.heur.eval_transposed(nb, t));
            }
        }
        self.settle(s.board, best)
    }

    /// The table's value for a chance node searched at least `layers` deep, if it has one.
    #[inline(always)]
    fn probe(&self, board: Board, layers: u8) -> Option<f32> {
        let e = self.tt[self.slot(board)];
        (e.key == board.0 && e.stamp == self.stamp && e.depth >= layers).then_some(e.value)
    }

    fn max_node(&mut self, board: Board, layers: u8, prob: f32) -> f32 {
        let moves = self.gen.shift_all(board);
        self.max_node_with(board, moves, layers, prob)
    }

    /// [`Searcher::max_node`] on a board whose moves are already made.
    #[inline(always)]
    fn max_node_with(&mut self, board: Board, moves: Shifts, layers: u8, prob: f32) -> f32 {
        self.nodes += 4;
        if moves.overflow != 0 {
            return WIN_VALUE;
        }
        let below = layers - 1;
        let mut best = f32::NEG_INFINITY;
        if below == 0 || prob < self.cfg.prob_cutoff {
            // Every child is a leaf.
            for nb in moves.boards {
                if nb != board {
                    best = best.max(self.heur.eval(nb));
                }
            }
            return self.settle(board, best);
        }
        // Probe the table for all four children before descending into any: the four loads
        // are independent, so their cache misses overlap instead of stalling one recursive
        // call each (the probe was half of the search's time). A value found here is final;
        // a child that missed is probed again inside `chance`, now from cache, which also
        // catches a sibling that is the same board.
        let mut known = [None; 4];
        for (k, &nb) in known.iter_mut().zip(&moves.boards) {
            if nb != board {
                *k = self.probe(nb, below);
            }
        }
        for (k, nb) in known.into_iter().zip(moves.boards) {
            if nb != board {
                best = best.max(match k {
                    Some(v) => v,
                    None => self.chance(nb, below, prob),
                });
            }
        }
        self.settle(board, best)
    }

    /// A max node's value from its best child (`-inf` when no move is legal): the dead end's
    /// value, or the best child raised to the evaluator's floor.
    #[inline(always)]
    fn settle(&self, board: Board, best: f32) -> f32 {
        if best == f32::NEG_INFINITY {
            match self.dead_end {
                Some(v) => v,
                None => self.heur.dead_end(board),
            }
        } else {
            best.max(self.heur.floor())
        }
    }
}

/// A [`crate::Player`] that plays the searcher's best move.
pub struct SearchPlayer<'h, E: Evaluator = Heuristic> {
    /// The searcher.
    pub searcher: Searcher<'h, FastMoves, E>,
}

impl<E: Evaluator> crate::game::Player for SearchPlayer<'_, E> {
    fn choose(&mut self, board: Board) -> Option<Dir> {
        self.searcher.best_move(board).map(|c| c.dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::heuristic::Params;

    #[test]
    fn picks_a_legal_move_and_none_on_dead_boards() {
        let h = Heuristic::new(Params::SHIPPED);
        let mut s =
            Searcher::new(&h, SearchConfig { depth: Depth::Fixed(2), ..Default::default() });
        let b: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2".parse().unwrap();
        assert_eq!(s.best_move(b), None);
        let b: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 8 8".parse().unwrap();
        let c = s.best_move(b).unwrap();
        assert!(matches!(c.dir, Dir::Left | Dir::Right));
        assert!(s.nodes() > 0);
    }

    #[test]
    fn takes_the_65536_merge() {
        let h = Heuristic::new(Params::SHIPPED);
        let mut s = Searcher::new(&h, SearchConfig::default());
        let b: Board = "32768 32768 2 4/4 2 4 2/2 4 2 4/. 2 4 2".parse().unwrap();
        assert_eq!(s.search_root(b, 1).unwrap().value, WIN_VALUE);
        let c = s.search_root(b, 1).unwrap();
        assert_eq!(b.play(c.dir), Err(crate::MoveError::Overflow));
        // Deeper, Down also forces a 65536 a move later; either way the value is a win.
        assert_eq!(s.best_move(b).unwrap().value, WIN_VALUE);
    }

    #[test]
    fn budget_deepens_within_its_nodes() {
        let h = Heuristic::new(Params::SHIPPED);
        let b: Board = "2 8 2 ./32 8 4 ./8192 512 128 16/16384 4096 256 64".parse().unwrap();
        let depth_of = |nodes: u64| {
            let cfg = SearchConfig {
                depth: Depth::Budget { nodes, min: 2, max: 12 },
                tt_bits: 16,
                ..Default::default()
            };
            let mut s = Searcher::new(&h, cfg);
            let c = s.best_move(b).unwrap();
            (c, s.nodes())
        };
        // A tiny budget stops at the minimum; more nodes buy more layers, never fewer.
        let (small, _) = depth_of(1);
        assert_eq!(small.depth, 2);
        let mut last = 2;
        for nodes in [10_000, 100_000, 1_000_000] {
            let (c, spent) = depth_of(nodes);
            assert!(c.depth >= last, "{nodes} nodes: depth {} after {last}", c.depth);
            // The prediction may overshoot, but not by more than one iteration's growth.
            assert!(spent < 20 * nodes, "{nodes} nodes: spent {spent}");
            last = c.depth;
        }
        assert!(last > 2);
        // The same budget gives the same answer and node count (it counts nodes, not time).
        assert_eq!(depth_of(100_000), depth_of(100_000));
    }

    #[test]
    fn a_reused_searcher_answers_like_a_fresh_one() {
        // The stamp invalidates the table between root searches, so a searcher that played a
        // whole game so far gives the same answer as a new one: batch play is deterministic
        // whatever thread runs which game.
        let h = Heuristic::new(Params::SHIPPED);
        let cfg = SearchConfig { depth: Depth::Fixed(3), tt_bits: 12, ..Default::default() };
        let mut reused = Searcher::new(&h, cfg);
        let mut game = crate::Game::new(3);
        for _ in 0..60 {
            let a = reused.best_move(game.board());
            let b = Searcher::new(&h, cfg).best_move(game.board());
            assert_eq!(a, b, "on {}", game.board());
            match a {
                Some(c) => game.play(c.dir).unwrap(),
                None => break,
            }
        }
    }

    /// The row heuristic through [`Evaluator::eval`] alone: the incremental search's
    /// fallback for evaluators without [`Evaluator::eval_transposed`].
    struct EvalOnly(Heuristic);

    impl Evaluator for EvalOnly {
        fn eval(&self, b: Board) -> f32 {
            self.0.eval(b)
        }

        fn floor(&self) -> f32 {
            0.0
        }
    }

    #[test]
    fn prefetch_and_incremental_change_no_value_move_or_node_count() {
        // The prefetch is a cache hint and the incremental spawns make the same boards and
        // values: under nneonneo's depth rule (deep, cut off by probability, table hits
        // everywhere) all four settings must agree bit for bit with the plain search, along
        // a game played by the plain searcher, and so must an evaluator without
        // `eval_transposed`.
        let h = Heuristic::new(Params::SHIPPED);
        let eval_only = EvalOnly(Heuristic::new(Params::SHIPPED));
        let cfg = |prefetch, incremental| SearchConfig {
            tt_bits: 14,
            prefetch,
            incremental,
            ..Default::default()
        };
        let mut plain = Searcher::new(&h, cfg(false, false));
        let mut others =
            [(true, false), (false, true), (true, true)].map(|(p, i)| Searcher::new(&h, cfg(p, i)));
        let mut fallback = Searcher::with_evaluator(&eval_only, cfg(true, true));
        let key = |c: Option<Choice>| c.map(|c| (c.dir, c.value.to_bits(), c.depth));
        let mut game = crate::Game::new(5);
        let mut deep = 0;
        for _ in 0..150 {
            let a = plain.best_move(game.board());
            for s in &mut others {
                assert_eq!(key(a), key(s.best_move(game.board())), "on {}", game.board());
                assert_eq!(s.nodes(), plain.nodes(), "on {}", game.board());
            }
            assert_eq!(key(a), key(fallback.best_move(game.board())), "on {}", game.board());
            assert_eq!(fallback.nodes(), plain.nodes(), "on {}", game.board());
            match a {
                Some(c) => {
                    deep += usize::from(c.depth >= 5);
                    game.play(c.dir).unwrap();
                }
                None => break,
            }
        }
        assert!(deep > 20, "only {deep} searches of 5+ layers");
        // Late boards, one with two 32768 tiles (its chance nodes take the plain path).
        for text in [
            "32768 16384 8192 4096/256 512 1024 2048/128 64 . 16/2 . 8 .",
            "32768 32768 8192 4096/256 512 1024 2048/128 64 . 16/2 . 8 .",
            "2 4 8 16/32768 . . ./. 2 . ./4 . . 2",
        ] {
            let b: Board = text.parse().unwrap();
            let a = plain.best_move(b);
            for s in &mut others {
                assert_eq!(key(a), key(s.best_move(b)), "on {b}");
                assert_eq!(s.nodes(), plain.nodes(), "on {b}");
            }
        }
    }

    #[test]
    fn an_unset_abort_flag_changes_nothing_and_a_set_one_stops_at_once() {
        let h = Heuristic::new(Params::SHIPPED);
        let cfg = SearchConfig { tt_bits: 14, ..Default::default() };
        let unset = AtomicBool::new(false);
        let mut plain = Searcher::new(&h, cfg);
        let mut flagged = Searcher::new(&h, cfg).with_abort(Some(&unset));
        let mut game = crate::Game::new(9);
        for _ in 0..120 {
            let a = plain.best_move(game.board());
            assert_eq!(a, flagged.best_move(game.board()), "on {}", game.board());
            assert_eq!(plain.nodes(), flagged.nodes(), "on {}", game.board());
            assert!(!flagged.aborted());
            match a {
                Some(c) => game.play(c.dir).unwrap(),
                None => break,
            }
        }
        // Set before the search: it stops at the first expanded chance node.
        let set = AtomicBool::new(true);
        let b: Board = "2 8 2 ./32 8 4 ./8192 512 128 16/16384 4096 256 64".parse().unwrap();
        let budget =
            SearchConfig { depth: Depth::Budget { nodes: 1 << 40, min: 2, max: 16 }, ..cfg };
        let mut stopped = Searcher::new(&h, budget).with_abort(Some(&set));
        let _ = stopped.best_move(b);
        assert!(stopped.aborted());
        assert!(stopped.nodes() < 4 * POLL_NODES, "{} nodes", stopped.nodes());
        // Cleared, the same searcher answers like a fresh one.
        set.store(false, Ordering::Relaxed);
        let fresh = Searcher::new(&h, cfg).best_move(b);
        let mut again = Searcher::new(&h, cfg).with_abort(Some(&set));
        assert_eq!(again.best_move(b), fresh);
    }

    #[test]
    fn prune_below_pass_changes_nothing_with_the_heuristic() {
        // The row heuristic gives no pass score: the option leaves values, moves and node
        // counts as they were (the default search is untouched by the corner options).
        let h = Heuristic::new(Params::SHIPPED);
        let cfg = SearchConfig { depth: Depth::Fixed(3), tt_bits: 14, ..Default::default() };
        let mut plain = Searcher::new(&h, cfg);
        let mut flagged = Searcher::new(&h, SearchConfig { prune_below_pass: true, ..cfg });
        let mut game = crate::Game::new(13);
        for _ in 0..80 {
            let a = plain.best_move(game.board());
            assert_eq!(a, flagged.best_move(game.board()), "on {}", game.board());
            assert_eq!(plain.nodes(), flagged.nodes(), "on {}", game.board());
            assert_eq!(flagged.pruned(), 0);
            match a {
                Some(c) => game.play(c.dir).unwrap(),
                None => break,
            }
        }
    }

    #[test]
    fn corner_values_go_negative_and_a_dead_end_is_worth_the_roots_penalty() {
        use crate::search::Corner;
        // Left merges the 8s; a 2 spawned in the freed corner then leaves no move (a dead
        // end), a 4 does not. Right leaves a live board either way.
        let b: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 8 8".parse().unwrap();
        let cfg = SearchConfig { depth: Depth::Fixed(2), tt_bits: 10, ..Default::default() };
        let mut s = Searcher::with_evaluator(&Corner, cfg);
        s.search_root(b, 2).unwrap();
        let left = b.play(Dir::Left).unwrap().board;
        let dead = Board(left.0 | 1 << (4 * 15));
        assert!(!dead.can_move());
        let four = Board(left.0 | 2 << (4 * 15));
        let best = four
            .shift_all()
            .boards
            .into_iter()
            .filter(|&nb| nb != four)
            .map(|nb| Corner.eval(nb))
            .fold(f32::NEG_INFINITY, f32::max);
        // The dead end is -max(2^17, 2 * 3 * 8) = -131072 (the root's largest tile is 8).
        let want = (0.0f32 + 0.9 * -131_072.0) + 0.1 * best;
        let i = Dir::ALL.iter().position(|&d| d == Dir::Left).unwrap();
        assert_eq!(s.root_values()[i], Some(want));
        // No floor: every value on this disordered board is negative.
        assert!(s.root_values().iter().flatten().all(|&v| v < 0.0), "{:?}", s.root_values());
    }

    #[test]
    fn pruning_expands_no_chance_node_below_the_pass_score() {
        use crate::search::Corner;
        // Along a game played by the corner evaluation without pruning, search every board
        // with and without it. Pruning only removes work: never more nodes; where nothing was
        // pruned, the same values, moves and nodes; a root child below the pass score is worth
        // its own evaluation (not expanded); and a root whose evaluation is negative prunes
        // nothing.
        let cfg = SearchConfig { depth: Depth::Fixed(3), tt_bits: 14, ..Default::default() };
        let mut off = Searcher::with_evaluator(&Corner, cfg);
        let mut on =
            Searcher::with_evaluator(&Corner, SearchConfig { prune_below_pass: true, ..cfg });
        let mut game = crate::Game::new(17);
        let (mut searched, mut pruning, mut root_pruned, mut unpruned) = (0, 0, 0, 0);
        for _ in 0..400 {
            let b = game.board();
            let (n_off, p_on, n_on) = (off.nodes(), on.pruned(), on.nodes());
            let a = off.best_move(b);
            let c = on.best_move(b);
            let (n_off, p_on, n_on) = (off.nodes() - n_off, on.pruned() - p_on, on.nodes() - n_on);
            assert_eq!(off.pruned(), 0);
            assert!(n_on <= n_off, "on {b}: {n_on} nodes pruned, {n_off} not");
            searched += 1;
            match Corner::pass_score(b) {
                None => {
                    assert_eq!(p_on, 0, "on {b}: negative root, yet pruned");
                    assert_eq!(a, c, "on {b}");
                }
                Some(pass) => {
                    for (i, nb) in b.shift_all().boards.into_iter().enumerate() {
                        let v = Corner.eval(nb);
                        if nb != b && v < pass {
                            assert_eq!(on.root_values()[i], Some(v), "on {b}, move {i}");
                            root_pruned += 1;
                        }
                    }
                }
            }
            if p_on == 0 {
                unpruned += 1;
                assert_eq!(a, c, "on {b}");
                assert_eq!(n_on, n_off, "on {b}");
            } else {
                pruning += 1;
                assert!(n_on < n_off, "on {b}: {p_on} pruned but {n_on} nodes of {n_off}");
            }
            match a {
                Some(c) => game.play(c.dir).unwrap(),
                None => break,
            }
        }
        assert!(searched > 200, "the game ended after {searched} moves");
        assert!(
            pruning > 20 && unpruned > 0 && root_pruned > 0,
            "{pruning} {unpruned} {root_pruned}"
        );
    }

    #[test]
    fn adaptive_offset_sets_the_layers() {
        // Ranks 1, 2, 3, 4, 5 and 14: six distinct, so offset 1 gives 5 layers, offset 3 gives 3.
        let b: Board = "2 4 8 16/32 . . ./. . . ./. . . 16384".parse().unwrap();
        assert_eq!(b.distinct_ranks(), 6);
        assert_eq!(Depth::Adaptive { min: 2, max: 16, offset: 1 }.layers(b), 5);
        assert_eq!(Depth::Adaptive { min: 2, max: 16, offset: 3 }.layers(b), 3);
        assert_eq!(Depth::Adaptive { min: 4, max: 16, offset: 3 }.layers(b), 4);
        assert_eq!(Depth::Adaptive { min: 2, max: 4, offset: 0 }.layers(b), 4);
    }

    #[test]
    fn extend_buys_nodes_only_where_the_move_changed() {
        let h = Heuristic::new(Params::SHIPPED);
        let run = |extend: f32| {
            let cfg = SearchConfig {
                depth: Depth::Budget { nodes: 4_000, min: 1, max: 12 },
                tt_bits: 14,
                extend,
                ..Default::default()
            };
            let mut s = Searcher::new(&h, cfg);
            let mut game = crate::Game::new(11);
            let mut per_move = vec![];
            for _ in 0..150 {
                let before = s.nodes();
                match s.best_move(game.board()) {
                    Some(c) => {
                        per_move.push((c.dir, s.nodes() - before));
                        game.play(c.dir).unwrap();
                    }
                    None => break,
                }
            }
            per_move
        };
        let plain = run(1.0);
        let ext = run(8.0);
        // Extension 1 is the plain rule; a larger factor spends more on some moves, and on a
        // move where it spent the same it chose the same.
        assert_eq!(plain, run(1.0));
        let common = plain.len().min(ext.len());
        let first_diff = (0..common).find(|&i| plain[i] != ext[i]).expect("extension never used");
        assert!(ext[first_diff].1 > plain[first_diff].1, "move {first_diff}");
        let total = |v: &[(Dir, u64)]| v.iter().map(|m| m.1).sum::<u64>();
        assert!(total(&ext[..common]) > total(&plain[..common]));
    }

    #[test]
    fn a_kept_table_saves_nodes_and_stays_deterministic() {
        let h = Heuristic::new(Params::SHIPPED);
        let run = |keep_table: bool| {
            let cfg = SearchConfig {
                depth: Depth::Fixed(3),
                tt_bits: 16,
                keep_table,
                ..Default::default()
            };
            let mut s = Searcher::new(&h, cfg);
            let g = crate::game::play_game(
                21,
                &mut SearchPlayer { searcher: Searcher::new(&h, cfg) },
                120,
            );
            let mut game = crate::Game::new(21);
            for _ in 0..120 {
                match s.best_move(game.board()) {
                    Some(c) => game.play(c.dir).unwrap(),
                    None => break,
                }
            }
            assert_eq!(game.record().moves, g.record().moves, "a searcher replays its game");
            (game.moves(), s.nodes())
        };
        let (fresh_moves, fresh_nodes) = run(false);
        let (kept_moves, kept_nodes) = run(true);
        assert_eq!(fresh_moves, 120);
        assert_eq!(kept_moves, 120);
        assert!(kept_nodes < fresh_nodes, "kept {kept_nodes} vs fresh {fresh_nodes}");
    }

    /// A budget search of `b` (20,000 nodes) boosted by `boost` on boards with `tiles` tiles
    /// of rank `rank` or more: its choice and nodes.
    fn boosted(b: Board, boost: f32, tiles: u8, rank: u8) -> (Choice, u64) {
        let h = Heuristic::new(Params::SHIPPED);
        let cfg = SearchConfig {
            depth: Depth::Budget { nodes: 20_000, min: 1, max: 12 },
            tt_bits: 14,
            boost_tiles: tiles,
            boost_rank: rank,
            boost,
            ..Default::default()
        };
        let mut s = Searcher::new(&h, cfg);
        let c = s.best_move(b).unwrap();
        (c, s.nodes())
    }

    #[test]
    fn boost_spends_more_only_on_long_chains() {
        let search = |b: Board, boost: f32| boosted(b, boost, 4, 10);
        let chain: Board = "2 8 2 ./32 8 4 ./8192 512 128 16/16384 4096 2048 1024".parse().unwrap();
        let short: Board = "2 8 2 ./32 8 4 ./8192 512 128 16/16384 4096 256 64".parse().unwrap();
        assert_eq!(chain.count_at_least(10), 5);
        assert_eq!(short.count_at_least(10), 3);
        assert_eq!(search(short, 8.0), search(short, 1.0));
        let (plain, plain_nodes) = search(chain, 1.0);
        let (boosted, boosted_nodes) = search(chain, 8.0);
        assert!(boosted_nodes > plain_nodes && boosted.depth > plain.depth);
    }

    #[test]
    fn boost_counts_the_tiles_of_its_rank() {
        let nodes = |b: Board, boost: f32| boosted(b, boost, 1, 14).1;
        // Five tiles of 1024 or more but no 16384: not boosted; a 16384: boosted.
        let no: Board = "2 8 2 ./32 8 4 ./1024 512 128 16/8192 4096 2048 1024".parse().unwrap();
        let yes: Board = "2 8 2 ./32 8 4 ./8192 512 128 16/16384 4096 2048 1024".parse().unwrap();
        assert_eq!(nodes(no, 8.0), nodes(no, 1.0));
        assert!(nodes(yes, 8.0) > nodes(yes, 1.0));
    }
}
