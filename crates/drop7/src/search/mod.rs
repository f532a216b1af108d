//! A fair expectimax: decision nodes take the best column, chance nodes average over the
//! next disc's distribution, and the real stream is never consulted.
//!
//! # Depth and values
//! `depth` counts moves: depth 1 plays the known next disc in each column and evaluates the
//! result; depth `d` follows each move with a chance node that averages, over the next
//! disc, the best depth `d - 1` value. A move's value is the points it scores plus the
//! chance value of what it leaves, or the points minus [`Searcher::death`] if it ends the
//! game. Leaves call the [`Evaluator`] (statically dispatched: the search is generic over
//! it). With all 7 values at chance nodes a depth-`d` decision plays about
//! `7 * 49^(d-1)` moves.
//!
//! # Fairness and purity
//! Chance nodes enumerate the next disc's outcomes ([`ChanceModel`]); a gray revealed *inside*
//! the search takes values from a SplitMix64 seeded by a hash of (board, column, disc), not
//! from the game's stream. A chance node's value is therefore a pure function of its board,
//! level, drops left and remaining depth — the [`table`] key — so the table can only save
//! work, never change a value.
//!
//! # Reveals
//! One sampled reveal per move makes the maximum over moves optimistic (a lucky sample wins).
//! Two remedies, both pure functions of the node: average several samples per revealing move
//! ([`Searcher::reveal_samples`], or per level with [`Searcher::set_reveal_schedule`]), or
//! pair them with the next disc ([`Searcher::paired_reveals`]): replay `i` of a revealing
//! move uses reveal sample `i` and is followed by chance outcome `i` only, as many reveal
//! samples as outcomes for the price of one. Levels given several samples average those,
//! each followed by a whole chance node, and pair below.

pub mod eval;
pub mod fit;
pub mod ntuple;
pub mod table;

use std::sync::atomic::{AtomicBool, Ordering};

use bits::rng::SplitMix64;

use crate::board::{Board, Disc, Position, SIZE};
use crate::engine::{Draws, Mode, RandomDraws, Recording, Rules};
use crate::trace::GameRecord;
pub use eval::{Crowding, Evaluator, Fitted, Options, PointsOnly, Pressure, Ready, Shape};
pub use ntuple::{NTuple, NTupleEval};
pub use table::{Direct, Key, LeafCache, NoTable, SetAssoc, Table};

/// The deepest search a [`DepthRule`] may ask for: the per-depth arrays of the searcher
/// (chance outcomes and reveal samples by remaining depth) hold depths 0 to 7.
pub const MAX_DEPTH: u32 = 7;

/// The first deepening step's predicted growth per open root column (see
/// [`DepthRule::Budget`]): the moves of depth `min + 1` are predicted as the moves of depth
/// `min` times `FIRST_GROWTH_PER_COLUMN * open_columns`. Measured on the 11 positions of
/// `examples/positions.txt` (ready leaf, paired reveals, 2^16 direct table; all 7 columns
/// open): the growth from depth 4 to 5 was 15.5-35.7 (median 28.6), from 3 to 4 16.1-37.1.
/// 5 per column (35 on an open board) sits at the top of that range, so the first step
/// seldom overruns its budget.
pub const FIRST_GROWTH_PER_COLUMN: f64 = 5.0;

/// How deep each decision is searched.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum DepthRule {
    /// Every decision `d >= 1` moves deep (0 counts as 1).
    Fixed(u32),
    /// Iterative deepening under a work budget: search `min` moves deep, then `d + 1` while
    /// `d < max` and the moves spent on this decision so far plus the predicted moves of
    /// depth `d + 1` are at most `moves`. The prediction is the last iteration's moves times
    /// its growth over the one before (at least 1); for the first step, with no growth
    /// known, times [`FIRST_GROWTH_PER_COLUMN`] per open root column. The decision is the
    /// deepest completed iteration's. Work is counted in [`Stats::moves`], never time.
    ///
    /// The budget caps the *predicted* work: a later step's growth can exceed the last
    /// one's, so a decision may overrun it (on `examples/positions.txt` by up to 12%; in the
    /// 64 standard games at 8 M with `min` 4, single decisions reached 74 M moves), and
    /// a first step predicted at the guess rarely fits (deepening 4 to 5 needs a budget of
    /// ~36 times depth 4's moves), so `min` one below the first depth worth choosing (3 to
    /// choose between 4 and 5) buys a measured growth for ~5% more work. Iterations reuse
    /// nothing through the table (each one's chance nodes sit a ply lower than the last
    /// one's at the same remaining depth): a budget search costs the sum of its depths.
    Budget {
        /// The moves (engine calls) one decision may spend, predicted.
        moves: u64,
        /// The shallowest depth (always searched).
        min: u32,
        /// The deepest depth.
        max: u32,
    },
}

impl From<u32> for DepthRule {
    fn from(d: u32) -> DepthRule {
        DepthRule::Fixed(d)
    }
}

impl DepthRule {
    /// The depth every decision reaches.
    pub fn min_depth(self) -> u32 {
        match self {
            DepthRule::Fixed(d) => d.max(1),
            DepthRule::Budget { min, .. } => min.max(1),
        }
    }

    /// The deepest a decision may go.
    pub fn max_depth(self) -> u32 {
        match self {
            DepthRule::Fixed(d) => d.max(1),
            DepthRule::Budget { min, max, .. } => max.max(min.max(1)),
        }
    }

    /// Checks the rule: depths in `1..=MAX_DEPTH`, `min <= max`.
    pub fn check(self) -> Result<DepthRule, String> {
        match self {
            DepthRule::Fixed(d) if !(1..=MAX_DEPTH).contains(&d) => {
                Err(format!("depth {d}: expected 1..={MAX_DEPTH}"))
            }
            DepthRule::Budget { min, .. } if !(1..=MAX_DEPTH).contains(&min) => {
                Err(format!("min depth {min}: expected 1..={MAX_DEPTH}"))
            }
            DepthRule::Budget { max, .. } if !(1..=MAX_DEPTH).contains(&max) => {
                Err(format!("max depth {max}: expected 1..={MAX_DEPTH}"))
            }
            DepthRule::Budget { min, max, .. } if min > max => {
                Err(format!("min depth {min} is above max depth {max}"))
            }
            r => Ok(r),
        }
    }
}

impl std::fmt::Display for DepthRule {
    /// `4` for a fixed depth, `budget 2000000 (4..6)` for a budget.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DepthRule::Fixed(d) => write!(f, "{d}"),
            DepthRule::Budget { moves, min, max } => write!(f, "budget {moves} ({min}..{max})"),
        }
    }
}

/// A decision under a [`DepthRule`]: the deepest completed iteration's decision, its depth
/// and the moves the decision spent over all its iterations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RuleDecision {
    /// The decision of the deepest completed iteration.
    pub decision: Decision,
    /// Its depth.
    pub depth: u32,
    /// Moves (engine calls) spent on the decision, all iterations.
    pub moves: u64,
}

/// How chance nodes weigh the next disc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChanceModel {
    /// Every outcome with its exact probability: 1-7 (and gray in Normal/Sequence).
    Exact,
    /// `k` numbered outcomes (1 to 7), equally weighted: values `1 + (2i + 1) * 7 / (2k)`
    /// for `i` in `0..k` (the midpoints of `k` equal strata of 1..=7).
    Strata(u8),
}

/// Reveal values inside the search: a SplitMix64 seeded from the node, never the stream.
/// The seed (a hash of the board) is computed at the first reveal: most moves reveal nothing.
#[derive(Clone, Debug)]
pub struct SearchDraws {
    rng: SplitMix64,
    /// The board the move starts from, until the stream is seeded from it.
    board: Board,
    salt: u64,
    seeded: bool,
    /// Values handed out so far.
    pub count: u32,
    /// The first [`SearchDraws::LOGGED`] values handed out, 3 bits each, the first in the
    /// lowest bits.
    log: u64,
    /// The stratum of a stratified sample ([`stratified`](Self::stratified)), or
    /// [`Self::UNSTRATIFIED`].
    stratum: u8,
}

impl SearchDraws {
    /// How many values [`log`](Self::log) keeps.
    pub const LOGGED: u32 = 21;

    /// The reveal stream the search uses for dropping `disc` in `col` on `board`:
    /// `SplitMix64::new(board.hash64() ^ (col << 8 | disc.code()))`, each value
    /// `1 + (next_u64 * 7 >> 64)`.
    #[inline]
    pub fn for_move(board: &Board, col: usize, disc: Disc) -> SearchDraws {
        Self::sample(board, col, disc, 0)
    }

    /// Sample `k` of the reveal stream for a move (sample 0 is [`for_move`](Self::for_move)):
    /// the seed also xors in `k << 16`.
    #[inline]
    pub fn sample(board: &Board, col: usize, disc: Disc, k: u32) -> SearchDraws {
        Self::unseeded(board, Self::salt(col, disc, k), Self::UNSTRATIFIED)
    }

    /// [`sample`](Self::sample) with the board's [`Board::hash64`] already computed.
    #[inline]
    pub fn sample_hashed(board_hash: u64, col: usize, disc: Disc, k: u32) -> SearchDraws {
        Self::seeded(board_hash, Self::salt(col, disc, k), Self::UNSTRATIFIED)
    }

    /// The `stratum` of [`sample`](Self::sample)-made draws: none.
    pub const UNSTRATIFIED: u8 = u8::MAX;

    /// Stratified sample `k` of the reveals of a move that drops `disc` on `board` with
    /// `drops_left` drops left, searched `depth` deep: reveal `j` of the move takes the value
    /// `1 + (k + r_j) mod 7`, where `r_0, r_1, ...` (each in 0..7) come from
    /// `SplitMix64::new(board.hash64() ^ salt(disc, drops_left, depth))` and are the same for
    /// every `k`. So over samples 0..7 each reveal takes each value exactly once (a
    /// stratified sample of the reveals' joint distribution, as many strata as the next
    /// disc has outcomes), and the stream does not depend on the column: every column of a
    /// node sees the same draws (common random numbers), so the maximum over columns
    /// compares moves, not luck. Still a pure function of the node, so tables stay exact.
    #[inline]
    pub fn stratified(board: &Board, disc: Disc, drops_left: u32, depth: u32, k: u32) -> Self {
        Self::unseeded(board, Self::stratified_salt(disc, drops_left, depth), (k % 7) as u8)
    }

    /// [`stratified`](Self::stratified) with the board's [`Board::hash64`] already computed.
    #[inline]
    pub fn stratified_hashed(
        board_hash: u64,
        disc: Disc,
        drops_left: u32,
        depth: u32,
        k: u32,
    ) -> Self {
        Self::seeded(board_hash, Self::stratified_salt(disc, drops_left, depth), (k % 7) as u8)
    }

    /// Draws seeded from `board`'s hash and `salt` at the first reveal (most moves reveal
    /// nothing, and then the hash is never computed).
    #[inline]
    fn unseeded(board: &Board, salt: u64, stratum: u8) -> Self {
        SearchDraws {
            rng: SplitMix64::new(0),
            board: *board,
            salt,
            seeded: false,
            count: 0,
            log: 0,
            stratum,
        }
    }

    /// Draws seeded now from a board hash and `salt`.
    #[inline]
    fn seeded(board_hash: u64, salt: u64, stratum: u8) -> Self {
        SearchDraws {
            rng: SplitMix64::new(board_hash ^ salt),
            board: Board::default(),
            salt,
            seeded: true,
            count: 0,
            log: 0,
            stratum,
        }
    }

    #[inline]
    fn salt(col: usize, disc: Disc, k: u32) -> u64 {
        (u64::from(k) << 16) | (col as u64) << 8 | u64::from(disc.code())
    }

    /// The stratified streams' salt: no column, and a top bit no [`salt`](Self::salt) has.
    #[inline]
    fn stratified_salt(disc: Disc, drops_left: u32, depth: u32) -> u64 {
        (1 << 63)
            | u64::from(depth.min(255)) << 40
            | u64::from(drops_left.min(0xff_ffff)) << 16
            | u64::from(disc.code())
    }

    /// The first `min(count, LOGGED)` values handed out, 3 bits each, the first lowest.
    #[inline]
    pub fn log(&self) -> u64 {
        self.log
    }
}

impl Draws for SearchDraws {
    fn next_disc(&mut self) -> Disc {
        Disc::GRAY // never called: the search deals discs itself
    }
    #[inline]
    fn reveal(&mut self) -> u8 {
        if !self.seeded {
            self.rng = SplitMix64::new(self.board.hash64() ^ self.salt);
            self.seeded = true;
        }
        let r = ((u128::from(self.rng.next_u64()) * 7) >> 64) as u8;
        let v = if self.stratum == Self::UNSTRATIFIED { 1 + r } else { 1 + (r + self.stratum) % 7 };
        if self.count < Self::LOGGED {
            self.log |= u64::from(v) << (3 * self.count);
        }
        self.count += 1;
        v
    }
}

/// Work counters of a search.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
pub struct Stats {
    /// Moves played (engine calls): the unit of work.
    pub moves: u64,
    /// Leaf evaluations.
    pub leaves: u64,
    /// Chance nodes entered at depth >= 1.
    pub chance_nodes: u64,
    /// Table probes.
    pub probes: u64,
    /// Table hits.
    pub hits: u64,
    /// Replays of revealing moves for paired reveals (included in `moves`).
    pub replays: u64,
    /// Replays skipped because an earlier replay of the same move drew the same reveal
    /// values (so it had the same result; not included in `moves`).
    pub replays_shared: u64,
    /// Leaf evaluations answered by the leaf cache (included in `leaves`).
    pub leaves_cached: u64,
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.moves += o.moves;
        self.leaves += o.leaves;
        self.chance_nodes += o.chance_nodes;
        self.probes += o.probes;
        self.hits += o.hits;
        self.replays += o.replays;
        self.replays_shared += o.replays_shared;
        self.leaves_cached += o.leaves_cached;
    }
}

/// A decision: the value of every column (`None` when full) and the best one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// The value of each column.
    pub values: [Option<f64>; SIZE],
    /// The best column (lowest index among equals).
    pub best: usize,
}

/// How a search is stopped early: [`NoAbort`] (the default) never stops and compiles to
/// nothing; `Option<&AtomicBool>` stops once the flag is set (checked every
/// [`Abort::EVERY`] moves, so a single deep decision can be cancelled).
pub trait Abort: Copy {
    /// Whether the searcher checks at all (`false`: every check is compiled out).
    const ENABLED: bool;
    /// Moves between two checks of the flag.
    const EVERY: u32 = 1024;
    /// Whether the caller has asked the search to stop.
    fn aborted(&self) -> bool;
}

/// A search that is never stopped early (the default of [`Searcher`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoAbort;

impl Abort for NoAbort {
    const ENABLED: bool = false;
    #[inline(always)]
    fn aborted(&self) -> bool {
        false
    }
}

impl Abort for Option<&AtomicBool> {
    const ENABLED: bool = true;
    #[inline]
    fn aborted(&self) -> bool {
        self.is_some_and(|a| a.load(Ordering::Relaxed))
    }
}

/// The expectimax searcher, generic over its evaluator `E`, table `T` and abort check `A`
/// (see [`Abort`]; [`Searcher::with_abort`] sets one).
///
/// Once the abort flag is seen, every node below returns at once and stores nothing in the
/// table; the decision under way is then meaningless and [`Searcher::stopped`] says so.
/// Without a flag (or with one never set) every value is exactly the unstoppable search's.
pub struct Searcher<E: Evaluator, T: Table, A: Abort = NoAbort> {
    /// The rules searched under.
    pub rules: Rules,
    /// The leaf evaluator.
    pub eval: E,
    /// The transposition table.
    pub table: T,
    /// A cache of leaf evaluations (they are pure functions of board, level and drops
    /// left, so it changes no value). Off by default ([`LeafCache::new`]`(0)`): at depth 4-5
    /// it answers 30-40% of the evaluations but saves no CPU time, since a probe that
    /// misses the level-2 cache costs about what the table-driven [`Ready`] evaluation does.
    pub leaf_cache: LeafCache,
    /// The penalty for a move that ends the game.
    pub death: f64,
    /// Work counters (cumulative).
    pub stats: Stats,
    /// How many reveal samples a move that reveals a gray averages over (default 1). Each
    /// sample is a pure function of the node, so values stay table-safe; more samples remove
    /// the optimism of maximising over one sampled reveal per move.
    pub reveal_samples: u32,
    /// Reveal samples by remaining depth (index `d` for a move searched `d` deep, 1 = the
    /// moves right above the leaves); 0 falls back to [`reveal_samples`](Self::reveal_samples).
    /// Set it with [`set_reveal_schedule`](Self::set_reveal_schedule). Keyed by remaining
    /// depth, not by distance from the root, so a chance node's value stays a pure function
    /// of (key, depth) and the table stays exact.
    pub reveal_by_depth: [u32; 8],
    /// Pair reveals with the next disc: a move that reveals is replayed once per chance
    /// outcome `i` with reveal sample `i`, and outcome `i`'s next disc follows replay `i`
    /// (at the leaves the replays are averaged). Next disc and reveals are independent, so
    /// this is a stratified sample of their joint distribution: as many reveal samples as
    /// outcomes at the cost of one. Applies where the reveal samples are 1; a level with more
    /// samples averages them, each followed by a whole chance node (default off).
    pub paired_reveals: bool,
    /// Draw the reveals of searched moves from [`SearchDraws::stratified`] instead of
    /// [`SearchDraws::sample`]: sample `k` of a move gives each of its reveals the stratum
    /// `k`'s value, so over 7 samples (paired: 7 outcomes) every reveal takes every value
    /// once, and the draws do not depend on the column (common random numbers across a
    /// node's columns), as drop7-bench's search samples them (default off).
    pub stratified_reveals: bool,
    /// The next-disc outcomes of a chance node by its remaining depth (index 0 serves the
    /// replays of a paired move right above the leaves): all the same model unless
    /// [`set_chance_schedule`](Self::set_chance_schedule) varies them. Keyed by remaining
    /// depth, so a chance node's value stays a pure function of (key, depth).
    outcomes: [([(Disc, f64); 8], usize); 8],
    level_in_key: bool,
    /// The chance schedule last set (root down, padded to 8 with its last entry), so a
    /// budget search can set it again for each iteration's depth.
    chance_list: Option<[ChanceModel; 8]>,
    /// The abort check.
    abort: A,
    /// Moves until the next check of the abort flag.
    countdown: u32,
    /// The abort flag was seen set: the search is unwinding.
    halted: bool,
}

/// The outcomes of a chance node under `chance`, with their weights, and how many there are.
fn outcome_set(rules: &Rules, chance: ChanceModel) -> ([(Disc, f64); 8], usize) {
    let mut outcomes = [(Disc::GRAY, 0.0); 8];
    let mut n = 0;
    match chance {
        ChanceModel::Exact => {
            let g = rules.gray_probability();
            for v in 1..=7 {
                outcomes[n] = (Disc::number(v).expect("1..=7"), (1.0 - g) / 7.0);
                n += 1;
            }
            if g > 0.0 {
                outcomes[n] = (Disc::GRAY, g);
                n += 1;
            }
        }
        ChanceModel::Strata(k) => {
            let k = k.clamp(1, 7);
            for i in 0..k {
                let v = 1 + ((2 * u32::from(i) + 1) * 7 / (2 * u32::from(k))) as u8;
                outcomes[n] = (Disc::number(v.min(7)).expect("1..=7"), 1.0 / f64::from(k));
                n += 1;
            }
        }
    }
    (outcomes, n)
}

impl<E: Evaluator, T: Table> Searcher<E, T> {
    /// A searcher; `death` defaults to 1,000,000.
    pub fn new(rules: Rules, chance: ChanceModel, eval: E, table: T) -> Self {
        Searcher {
            rules,
            eval,
            table,
            leaf_cache: LeafCache::new(0),
            death: 1_000_000.0,
            stats: Stats::default(),
            reveal_samples: 1,
            reveal_by_depth: [0; 8],
            paired_reveals: false,
            stratified_reveals: false,
            outcomes: [outcome_set(&rules, chance); 8],
            level_in_key: rules.mode != Mode::Hardcore,
            chance_list: None,
            abort: NoAbort,
            countdown: NoAbort::EVERY,
            halted: false,
        }
    }
}

impl<E: Evaluator, T: Table, A: Abort> Searcher<E, T, A> {
    /// The same searcher stopped by `abort` (e.g. `Some(&flag)`): its values are unchanged
    /// while the flag is unset.
    pub fn with_abort<B: Abort>(self, abort: B) -> Searcher<E, T, B> {
        Searcher {
            rules: self.rules,
            eval: self.eval,
            table: self.table,
            leaf_cache: self.leaf_cache,
            death: self.death,
            stats: self.stats,
            reveal_samples: self.reveal_samples,
            reveal_by_depth: self.reveal_by_depth,
            paired_reveals: self.paired_reveals,
            stratified_reveals: self.stratified_reveals,
            outcomes: self.outcomes,
            level_in_key: self.level_in_key,
            chance_list: self.chance_list,
            abort,
            countdown: B::EVERY,
            halted: false,
        }
    }

    /// Whether the abort flag has stopped the search: the last decision is then not a
    /// real one (always `false` without an abort check).
    #[inline]
    pub fn stopped(&self) -> bool {
        A::ENABLED && (self.halted || self.abort.aborted())
    }

    /// Counts one move towards the next check of the abort flag.
    #[inline(always)]
    fn tick(&mut self) {
        if A::ENABLED {
            self.countdown -= 1;
            if self.countdown == 0 {
                self.countdown = A::EVERY;
                if self.abort.aborted() {
                    self.halted = true;
                }
            }
        }
    }

    /// Sets the chance model of each chance level for a search `depth` deep, from a list
    /// read from the root down: `schedule[0]` for the chance nodes right below the root's
    /// moves, `schedule[1]` one level below, ...; the last entry also covers every deeper
    /// level. A search can so keep every disc value near the root and fewer strata deeper,
    /// where a decision weighs many nodes. An empty list leaves the model unchanged.
    /// A [`DepthRule::Budget`] search sets the schedule again for each iteration's depth.
    pub fn set_chance_schedule(&mut self, schedule: &[ChanceModel], depth: u32) {
        if schedule.is_empty() {
            return;
        }
        let last = *schedule.last().expect("non-empty");
        self.chance_list = Some(std::array::from_fn(|i| *schedule.get(i).unwrap_or(&last)));
        // The chance node below the root's moves has remaining depth `depth - 1`; the
        // paired replays right above the leaves (index 0) count as one more level.
        let depth = depth.clamp(1, 8);
        for d in 0..depth {
            let model =
                *schedule.get((depth - 1 - d) as usize).or(schedule.last()).expect("non-empty");
            self.outcomes[d as usize] = outcome_set(&self.rules, model);
        }
    }

    /// Sets the reveal samples for a search `depth` deep from a list read from the root down:
    /// `schedule[0]` for the root's moves, `schedule[1]` one level below, ...; the last entry
    /// also covers every deeper level. An empty list means 1 everywhere.
    pub fn set_reveal_schedule(&mut self, schedule: &[u32], depth: u32) {
        self.reveal_by_depth = reveal_by_depth(schedule, depth);
    }

    /// The value of every column for `pos` searched `depth >= 1` moves deep.
    pub fn decide(&mut self, pos: &Position, depth: u32) -> Decision {
        let depth = depth.max(1);
        self.table.new_search();
        let mut values = [None; SIZE];
        let mut best = usize::MAX;
        let mut best_v = f64::NEG_INFINITY;
        for (c, slot) in values.iter_mut().enumerate() {
            if !pos.board.can_drop(c) {
                continue;
            }
            let v = self.move_value(pos, c, depth);
            *slot = Some(v);
            if v > best_v || best == usize::MAX {
                best_v = v;
                best = c;
            }
        }
        Decision { values, best }
    }

    /// The decision for `pos` under `rule` (see [`DepthRule`]). `Fixed(d)` is exactly
    /// [`decide`](Self::decide)`(pos, d)`; a budget search runs `decide` at each depth from
    /// `min` up (with the chance schedule, if one was set, set again for that depth).
    pub fn decide_rule(&mut self, pos: &Position, rule: DepthRule) -> RuleDecision {
        let start = self.stats.moves;
        let (budget, min, max) = match rule {
            DepthRule::Fixed(d) => {
                let decision = self.decide(pos, d);
                return RuleDecision { decision, depth: d.max(1), moves: self.stats.moves - start };
            }
            DepthRule::Budget { moves, .. } => (moves, rule.min_depth(), rule.max_depth()),
        };
        let mut d = min;
        let mut decision = self.decide_at(pos, d);
        let mut last = self.stats.moves - start;
        let mut before = 0u64;
        while d < max && last > 0 && !self.stopped() {
            let growth = if before > 0 {
                (last as f64 / before as f64).max(1.0)
            } else {
                FIRST_GROWTH_PER_COLUMN * f64::from(pos.board.open_columns().count_ones())
            };
            let spent = self.stats.moves - start;
            if spent as f64 + last as f64 * growth > budget as f64 {
                break;
            }
            d += 1;
            let mark = self.stats.moves;
            decision = self.decide_at(pos, d);
            before = last;
            last = self.stats.moves - mark;
        }
        RuleDecision { decision, depth: d, moves: self.stats.moves - start }
    }

    /// [`decide`](Self::decide) at `depth`, with the stored chance schedule set for it.
    fn decide_at(&mut self, pos: &Position, depth: u32) -> Decision {
        if let Some(list) = self.chance_list {
            self.set_chance_schedule(&list, depth);
        }
        self.decide(pos, depth)
    }

    #[inline]
    fn move_value(&mut self, pos: &Position, col: usize, depth: u32) -> f64 {
        self.tick();
        let samples = match self.reveal_by_depth[depth.min(7) as usize] {
            0 => self.reveal_samples,
            k => k,
        }
        .max(1);
        if self.paired_reveals && samples == 1 {
            return self.move_value_paired(pos, col, depth);
        }
        let mut total = 0.0;
        for k in 0..samples {
            let mut child = *pos;
            let mut draws = self.draws(pos, col, depth, k);
            let turn = child.drop_and_resolve(&self.rules, col, &mut draws);
            self.stats.moves += 1;
            let gain = turn.points as f64;
            let v =
                if child.over { gain - self.death } else { gain + self.chance(&child, depth - 1) };
            if draws.count == 0 {
                // Nothing revealed: the move is deterministic, one sample is exact.
                return v;
            }
            total += v;
        }
        total / f64::from(samples)
    }

    /// [`move_value`](Self::move_value) with reveals paired with the next disc: a move that
    /// reveals is replayed once per chance outcome `i` with reveal sample `i`, and outcome
    /// `i`'s next disc follows replay `i` (at the leaves, the replays are just averaged).
    /// The next disc and the reveals are independent, so this is a stratified sample of
    /// their joint distribution: as many reveal samples as outcomes, at the cost of one.
    fn move_value_paired(&mut self, pos: &Position, col: usize, depth: u32) -> f64 {
        let mut child = *pos;
        let mut draws = self.draws(pos, col, depth, 0);
        let turn = child.drop_and_resolve(&self.rules, col, &mut draws);
        self.stats.moves += 1;
        let gain = turn.points as f64;
        if child.over {
            return gain - self.death;
        }
        if draws.count == 0 {
            return gain + self.chance(&child, depth - 1);
        }
        if depth > 1 {
            self.stats.chance_nodes += 1;
        }
        let hash = pos.board.hash64();
        // The distinct replays so far: the reveal values each drew (3 bits each, `count`
        // of them), what it left and its points, and (at the leaves) its value. A replay
        // whose stream starts with the values an earlier replay drew makes the same draws,
        // so the engine (deterministic in the position and the draws) gives it the same
        // result: it is not played again. Values and their summation order are unchanged.
        let mut known: [(u64, u32, Position, f64, Option<f64>); 8] = [(0, 0, child, gain, None); 8];
        let mut n_known = 0;
        let mut longest = 0;
        let mut sum = 0.0;
        // The replays stand for the chance node below this move (remaining depth - 1).
        let (outcomes, n) = self.outcomes[(depth - 1).min(7) as usize];
        for (i, &(disc, w)) in outcomes[..n].iter().enumerate() {
            let mut found = None;
            if i == 0 {
                found = Some(usize::MAX);
            } else if n_known > 0 && !self.stratified_reveals {
                // (Stratified replays never share: each gives the first reveal another value.)
                let mut probe = self.draws_hashed(hash, pos, col, depth, i as u32);
                for _ in 0..longest {
                    probe.reveal();
                }
                let prefix = probe.log();
                found =
                    known[..n_known].iter().position(|k| prefix & ((1u64 << (3 * k.1)) - 1) == k.0);
            }
            let (child, gain, slot) = match found {
                Some(j) if j != usize::MAX => {
                    self.stats.replays_shared += 1;
                    (known[j].2, known[j].3, Some(j))
                }
                _ => {
                    let (c, gain, count, log) = if i == 0 {
                        (child, gain, draws.count, draws.log())
                    } else {
                        let mut c = *pos;
                        let mut d = self.draws_hashed(hash, pos, col, depth, i as u32);
                        let t = c.drop_and_resolve(&self.rules, col, &mut d);
                        self.stats.moves += 1;
                        self.stats.replays += 1;
                        (c, t.points as f64, d.count, d.log())
                    };
                    if count <= SearchDraws::LOGGED {
                        known[n_known] = (log, count, c, gain, None);
                        longest = longest.max(count);
                        n_known += 1;
                        (c, gain, Some(n_known - 1))
                    } else {
                        (c, gain, None)
                    }
                }
            };
            let v = if child.over {
                gain - self.death
            } else if depth == 1 {
                match slot.and_then(|j| known[j].4) {
                    Some(v) => {
                        self.stats.leaves += 1;
                        v
                    }
                    None => {
                        let v = gain + self.leaf(&child);
                        if let Some(j) = slot {
                            known[j].4 = Some(v);
                        }
                        v
                    }
                }
            } else {
                let mut child = child;
                child.next = disc;
                gain + self.best_value(&child, depth - 1)
            };
            sum += w * v;
        }
        sum
    }

    /// Reveal sample `k` for dropping the next disc in `col` of `pos`, searched `depth` deep:
    /// [`SearchDraws::sample`], or [`SearchDraws::stratified`] under
    /// [`stratified_reveals`](Self::stratified_reveals).
    #[inline]
    fn draws(&self, pos: &Position, col: usize, depth: u32, k: u32) -> SearchDraws {
        if self.stratified_reveals {
            SearchDraws::stratified(&pos.board, pos.next, pos.drops_left, depth, k)
        } else {
            SearchDraws::sample(&pos.board, col, pos.next, k)
        }
    }

    /// [`draws`](Self::draws) with `pos.board`'s [`Board::hash64`] already computed.
    #[inline]
    fn draws_hashed(
        &self,
        hash: u64,
        pos: &Position,
        col: usize,
        depth: u32,
        k: u32,
    ) -> SearchDraws {
        if self.stratified_reveals {
            SearchDraws::stratified_hashed(hash, pos.next, pos.drops_left, depth, k)
        } else {
            SearchDraws::sample_hashed(hash, col, pos.next, k)
        }
    }

    /// The leaf value of `pos` (counted), through the leaf cache.
    #[inline]
    fn leaf(&mut self, pos: &Position) -> f64 {
        self.stats.leaves += 1;
        let eval = &self.eval;
        let (v, hit) = self.leaf_cache.get_or_insert(&pos.board, pos.level, pos.drops_left, || {
            eval.eval(&pos.board, pos.level, pos.drops_left)
        });
        self.stats.leaves_cached += u64::from(hit);
        v
    }

    fn best_value(&mut self, pos: &Position, depth: u32) -> f64 {
        let mut best = f64::NEG_INFINITY;
        for c in 0..SIZE {
            if pos.board.can_drop(c) {
                let v = self.move_value(pos, c, depth);
                if v > best {
                    best = v;
                }
            }
        }
        best
    }

    /// The key of a chance node.
    #[inline]
    pub fn key(&self, pos: &Position) -> Key {
        let c = pos.board.cols();
        let level = if self.level_in_key { pos.level } else { 0 };
        [c[0], c[1], c[2], c[3], c[4], c[5], c[6], (level << 8) | pos.drops_left]
    }

    fn chance(&mut self, pos: &Position, depth: u32) -> f64 {
        if A::ENABLED && self.halted {
            return 0.0;
        }
        if depth == 0 {
            return self.leaf(pos);
        }
        self.stats.chance_nodes += 1;
        let key = if T::ENABLED { self.key(pos) } else { [0; 8] };
        if T::ENABLED {
            self.stats.probes += 1;
            if let Some(v) = self.table.probe(&key, depth) {
                self.stats.hits += 1;
                return v;
            }
        }
        let mut sum = 0.0;
        let (outcomes, n) = self.outcomes[depth.min(7) as usize];
        for &(disc, w) in &outcomes[..n] {
            let mut p = *pos;
            p.next = disc;
            sum += w * self.best_value(&p, depth);
        }
        if T::ENABLED && !(A::ENABLED && self.halted) {
            self.table.store(&key, depth, sum);
        }
        sum
    }
}

/// Reveal samples by remaining depth (see [`Searcher::reveal_by_depth`]) for a search
/// `depth` deep from a list read from the root down, the last entry repeating deeper.
pub fn reveal_by_depth(schedule: &[u32], depth: u32) -> [u32; 8] {
    let mut out = [0; 8];
    for d in 1..=depth.min(7) {
        let i = (depth - d) as usize;
        out[d as usize] = schedule.get(i).or(schedule.last()).copied().unwrap_or(1).max(1);
    }
    out
}

/// The result of one played game.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameResult {
    /// The game's index in its batch (`sub_seed(master, index)` is its seed; 0 for a game
    /// played alone).
    pub index: u64,
    /// The game's seed.
    pub seed: u64,
    /// Final score.
    pub score: u64,
    /// Final level.
    pub level: u32,
    /// Moves played.
    pub moves: u32,
    /// `false` if the move cap stopped the game.
    pub over: bool,
    /// Search work over the game.
    pub stats: Stats,
    /// Decisions by the depth they reached (index `d` for depth `d`; index 0 unused).
    pub depths: [u32; 8],
    /// The most moves (engine calls) one decision spent.
    pub max_decision_moves: u64,
}

impl GameResult {
    /// Mean search moves (engine calls) per decision (0 for a game without moves).
    pub fn moves_per_decision(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.stats.moves as f64 / f64::from(self.moves)
        }
    }
}

/// Plays one game with the searcher from the seeded stream (at most `max_moves` moves),
/// with its record if `record` is set. `rule` is a [`DepthRule`] (a `u32` is a fixed depth).
pub fn play_game<E: Evaluator, T: Table, A: Abort>(
    searcher: &mut Searcher<E, T, A>,
    seed: u64,
    rule: impl Into<DepthRule>,
    max_moves: u32,
    record: bool,
) -> (GameResult, Option<GameRecord>) {
    play_game_observed(searcher, seed, rule, max_moves, record, |_, _| {})
}

/// [`play_game`], calling `on_move(&position, moves)` after every move (for progress).
pub fn play_game_observed<E: Evaluator, T: Table, A: Abort>(
    searcher: &mut Searcher<E, T, A>,
    seed: u64,
    rule: impl Into<DepthRule>,
    max_moves: u32,
    record: bool,
    mut on_move: impl FnMut(&Position, u32),
) -> (GameResult, Option<GameRecord>) {
    let rules = searcher.rules;
    let mut draws = RandomDraws::new(&rules, seed);
    let start = Position::new_game(&rules, &mut draws);
    let after_move = |_: &RandomDraws, p: &Position, moves: u32| {
        on_move(p, moves);
        false
    };
    play_from(searcher, start, draws, Some(seed), rule, max_moves, record, after_move)
}

/// Plays from `start` with the searcher, drawing from `draws`, until the game ends, after
/// `max_moves` moves, or when `after_move(&draws, &position, moves)`, called after every
/// move, returns `true`: the stream has run out (Sequence mode; the final position's next
/// disc is then a placeholder), or before a move once the searcher's abort flag has stopped it
/// ([`Searcher::stopped`]). The same hook can report progress. Each decision follows
/// `rule` (a `u32` is a fixed depth); the record names a fixed depth in `depth`, a budget
/// rule in `rule`.
#[allow(clippy::too_many_arguments)]
pub fn play_from<E: Evaluator, T: Table, D: Draws, A: Abort>(
    searcher: &mut Searcher<E, T, A>,
    start: Position,
    draws: D,
    seed: Option<u64>,
    rule: impl Into<DepthRule>,
    max_moves: u32,
    record: bool,
    mut after_move: impl FnMut(&D, &Position, u32) -> bool,
) -> (GameResult, Option<GameRecord>) {
    let rule = rule.into();
    let rules = searcher.rules;
    let mut draws = Recording::new(draws);
    let mut pos = start;
    let mut rec = record.then(|| {
        let fixed = match rule {
            DepthRule::Fixed(d) => Some(d),
            DepthRule::Budget { .. } => None,
        };
        let mut r = GameRecord::new(rules, seed, fixed, &pos);
        r.rule = fixed.is_none().then_some(rule);
        r
    });
    let mut moves = 0;
    let mut depths = [0u32; 8];
    let mut max_decision_moves = 0;
    let before = searcher.stats;
    while !pos.over && moves < max_moves {
        let r = searcher.decide_rule(&pos, rule);
        if searcher.stopped() {
            break;
        }
        depths[r.depth.min(7) as usize] += 1;
        max_decision_moves = max_decision_moves.max(r.moves);
        let d = r.decision;
        let prev = pos;
        let turn = pos.play_unchecked(&rules, d.best, &mut draws);
        moves += 1;
        let reveals = draws.take_reveals();
        if let Some(r) = rec.as_mut() {
            r.push(&prev, d.best, &turn, reveals, &pos);
        }
        if after_move(&draws.inner, &pos, moves) {
            break;
        }
    }
    let s = searcher.stats;
    let stats = Stats {
        moves: s.moves - before.moves,
        leaves: s.leaves - before.leaves,
        chance_nodes: s.chance_nodes - before.chance_nodes,
        probes: s.probes - before.probes,
        hits: s.hits - before.hits,
        replays: s.replays - before.replays,
        replays_shared: s.replays_shared - before.replays_shared,
        leaves_cached: s.leaves_cached - before.leaves_cached,
    };
    let seed = seed.unwrap_or(0);
    let result = GameResult {
        index: 0,
        seed,
        score: pos.score,
        level: pos.level,
        moves,
        over: pos.over,
        stats,
        depths,
        max_decision_moves,
    };
    (result, rec)
}

/// What [`play_games`] plays.
#[derive(Clone, Copy, Debug)]
pub struct BatchSpec {
    /// The rules.
    pub rules: Rules,
    /// The chance model.
    pub chance: ChanceModel,
    /// Master seed: game `i` uses `bits::rng::sub_seed(seed, i)`.
    pub seed: u64,
    /// Index of the first game: the batch plays games `first..first + games`, each with the
    /// seed it has in the whole batch, so batches of consecutive ranges (shards) concatenate
    /// into exactly the batch from 0.
    pub first: u64,
    /// Number of games.
    pub games: u64,
    /// How deep each decision is searched.
    pub depth: DepthRule,
    /// Move cap per game.
    pub max_moves: u32,
    /// Keep each game's record.
    pub record: bool,
    /// The searcher's death penalty ([`Searcher::death`]).
    pub death: f64,
    /// Reveal samples per revealing move ([`Searcher::reveal_samples`]).
    pub reveal_samples: u32,
    /// Reveal samples by remaining depth ([`Searcher::reveal_by_depth`]; zeros: uniform).
    pub reveal_by_depth: [u32; 8],
    /// Reveals paired with the next disc ([`Searcher::paired_reveals`]).
    pub paired_reveals: bool,
    /// Stratified, column-independent reveal draws ([`Searcher::stratified_reveals`]).
    pub stratified_reveals: bool,
    /// Chance models by level from the root down ([`Searcher::set_chance_schedule`]);
    /// `None` uses `chance` at every level.
    pub chance_schedule: Option<[ChanceModel; 8]>,
}

impl BatchSpec {
    /// A searcher with this batch's rules, chance model, death penalty and reveal settings
    /// (not its chance schedule, which is keyed by the depth the searcher is used at).
    pub fn searcher<E: Evaluator, T: Table>(&self, eval: E, table: T) -> Searcher<E, T> {
        let mut s = Searcher::new(self.rules, self.chance, eval, table);
        s.death = self.death;
        s.reveal_samples = self.reveal_samples;
        s.reveal_by_depth = self.reveal_by_depth;
        s.paired_reveals = self.paired_reveals;
        s.stratified_reveals = self.stratified_reveals;
        s
    }
}

/// What [`play_games`] tells its observer, from the thread that plays the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEvent {
    /// Game `i` (its batch index) is about to start.
    Started(u64),
    /// Game `i` has ended.
    Finished(u64),
    /// A game has played a move: its batch index, the moves so far, its score and level.
    Moved {
        /// Batch index.
        game: u64,
        /// Moves played so far.
        moves: u32,
        /// Score so far.
        score: u64,
        /// Level.
        level: u32,
    },
}

/// Plays a batch of games in parallel on the current rayon pool, shared-nothing: each game
/// has its own searcher and table (built by `make_table`), so the results (in game order) are
/// identical for any number of threads. `observe` hears each game start and end (for
/// progress, or per-game timing: a game is played start to end on one thread), and each
/// move (for the progress of long games).
pub fn play_games<E, T>(
    spec: &BatchSpec,
    eval: &E,
    make_table: impl Fn() -> T + Sync,
    observe: impl Fn(GameEvent) + Sync,
) -> Vec<(GameResult, Option<GameRecord>)>
where
    E: Evaluator + Clone + Send,
    T: Table + Send,
{
    play_games_until(spec, eval, make_table, NoAbort, observe)
}

/// [`play_games`] stopped by `abort`: once it is set, every game stops before its next move
/// and the games not yet started are not played (their results are empty, index and seed
/// aside), so the batch returns within a few milliseconds. Unset, the results are exactly
/// [`play_games`]'s.
pub fn play_games_until<E, T, A>(
    spec: &BatchSpec,
    eval: &E,
    make_table: impl Fn() -> T + Sync,
    abort: A,
    observe: impl Fn(GameEvent) + Sync,
) -> Vec<(GameResult, Option<GameRecord>)>
where
    E: Evaluator + Clone + Send,
    T: Table + Send,
    A: Abort + Send + Sync,
{
    use rayon::prelude::*;
    (spec.first..spec.first.saturating_add(spec.games))
        .into_par_iter()
        .map(|i| {
            let seed = bits::rng::sub_seed(spec.seed, i);
            if A::ENABLED && abort.aborted() {
                let result = GameResult {
                    index: i,
                    seed,
                    score: 0,
                    level: 0,
                    moves: 0,
                    over: false,
                    stats: Stats::default(),
                    depths: [0; 8],
                    max_decision_moves: 0,
                };
                return (result, None);
            }
            observe(GameEvent::Started(i));
            let mut s = spec.searcher(eval.clone(), make_table()).with_abort(abort);
            if let Some(schedule) = spec.chance_schedule {
                s.set_chance_schedule(&schedule, spec.depth.min_depth());
            }
            let (mut result, record) = play_game_observed(
                &mut s,
                seed,
                spec.depth,
                spec.max_moves,
                spec.record,
                |p, moves| {
                    observe(GameEvent::Moved { game: i, moves, score: p.score, level: p.level })
                },
            );
            result.index = i;
            observe(GameEvent::Finished(i));
            (result, record)
        })
        .collect()
}
