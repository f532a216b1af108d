//! The deterministic two-pass parallel beam search.
//!
//! Each layer expands every state of the beam by every removable group. **Pass 1** plays each
//! child on a scratch board only for its hash and score, and keeps a small stub (hash, score,
//! parent, and where the removed cells' column masks are kept); the children's boards are
//! dropped. Stubs are de-duplicated by board hash (the better game of two equal boards
//! survives) *before* anything is evaluated, so a board reached by several move orders (about
//! a third of the children of a three-colour board) is evaluated once: the distinct children
//! are replayed from their parent and the stored masks, without finding groups again, and get
//! their objective. The exact cut-off is selected with `select_nth_unstable_by`, and **pass 2**
//! replays only the survivors. The one-pass version (kept for the test that proves them
//! identical, and for benchmarks) stores every evaluated child's board instead.
//!
//! # Determinism
//! Both passes run on rayon over fixed chunks of parents and collect in order; the
//! de-duplication table keeps the best child per board whatever the order of the offers, and
//! the table of board values only saves recomputing a value that depends on the board alone.
//! Every comparison is a total order: objective (higher first), then board hash; two children with the same
//! board are the same state, of which the higher score survives, then the lexicographically
//! smaller move list. Final games compare by score, then fewer moves, then the
//! lexicographically smaller move list. So the answer is byte-identical on any thread count.
//!
//! # Goals
//! - [`Goal::Score`]: the highest final score. The objective is chosen by [`Eval`].
//! - [`Goal::Clear`]: an empty board. The objective charges `clear_penalty` per tile that is in
//!   no removable group, so the search does not trade a clear for one more fat group; the
//!   search stops at the first layer that clears the board.

use std::cmp::Ordering;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};

use rayon::prelude::*;

use crate::board::{remove_from_cols, Board, Col, MAX_COLORS, MAX_WIDTH};
use crate::groups::{has_pair, Groups, Potential, Sweeps};
use crate::rules::Rules;
use crate::trace::Move;

/// What the search is after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The highest score.
    Score,
    /// An empty board (first found; among clears found in the same layer, the best score).
    Clear,
}

/// The objective of the [`Goal::Score`] search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Score so far plus the points of every current group (the classic beam objective).
    Groups,
    /// Score so far plus the points of every current group, except that the most frequent
    /// colour (the "tabu" colour) is valued as if all its tiles were removed in one group,
    /// scaled by `tabu_pct` percent: states that keep the big colour together rank higher.
    Tabu {
        /// Weight of the tabu colour's one-group value, in percent.
        tabu_pct: i64,
    },
    /// Score so far plus the best of `playouts` tabu-colour random playouts from the child
    /// (the colour most frequent at the playout's start is not played while any other group
    /// remains). Every playout is a finished game the search can return. The playouts draw
    /// from `Rng::new(child_hash ^ seed ^ k * 0x9E3779B97F4A7C15)`, so results are reproducible.
    Rollout {
        /// Playouts per child.
        playouts: u32,
    },
}

/// Whether children's boards are stored (one pass) or replayed (two passes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passes {
    /// Store every child's board.
    One,
    /// Store stubs, replay survivors.
    Two,
}

/// Search settings.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// States kept per layer.
    pub width: usize,
    /// Score or clear.
    pub goal: Goal,
    /// Scoring and minimum group size.
    pub rules: Rules,
    /// Objective for the score goal.
    pub eval: Eval,
    /// Points charged per loose tile (in no removable group) in the clear goal.
    pub clear_penalty: i64,
    /// One or two passes per layer (same answer).
    pub passes: Passes,
    /// Clear goal only: try widths 16, 64, 256, ... up to `width`, stopping at the first
    /// width that clears the board (same answer for the same settings, usually far faster).
    /// Stopped by the abort flag, it answers with the best finished game of any width.
    pub widen: bool,
    /// Seed of the playouts of [`Eval::Rollout`].
    pub seed: u64,
}

impl Config {
    /// Defaults for a goal: width 1,000, the literature's rules, two passes.
    pub fn new(goal: Goal, width: usize) -> Config {
        Config {
            width: width.max(1),
            goal,
            rules: Rules::default(),
            eval: Eval::Groups,
            clear_penalty: 100,
            passes: Passes::Two,
            widen: true,
            seed: 0,
        }
    }
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The moves, as (column from the left, row from the bottom) before each move.
    pub moves: Vec<Move>,
    /// Their total score (clear bonus included).
    pub score: i64,
    /// Whether they empty the board.
    pub cleared: bool,
    /// Tiles left after them.
    pub tiles_left: u32,
    /// Children generated (a deterministic measure of work).
    pub nodes: u64,
    /// Layers expanded.
    pub layers: usize,
    /// Whether the search was stopped by the abort flag.
    pub aborted: bool,
}

impl Outcome {
    /// Whether `self` is a better answer than `other`: a higher score, then fewer moves,
    /// then the lexicographically smaller move list (a total order on distinct answers).
    pub fn better_than(&self, other: &Outcome) -> bool {
        self.score
            .cmp(&other.score)
            .then(other.moves.len().cmp(&self.moves.len()))
            .then(other.moves.cmp(&self.moves))
            == Ordering::Greater
    }
}

/// Reported after each layer.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Layers done.
    pub layer: usize,
    /// States in the new beam.
    pub beam: usize,
    /// Children generated so far.
    pub nodes: u64,
    /// Best final score found so far (or `i64::MIN`).
    pub best: i64,
    /// Fewest tiles left in the beam.
    pub fewest_tiles: u32,
}

/// A beam state; its board is kept in [`Beam`].
#[derive(Clone, Copy)]
struct Node {
    score: i64,
    path: u32,
    live: u8,
    /// Tiles on the board.
    tiles: u32,
}

/// The beam's states with their boards packed: node `i`'s live columns are
/// `cols[i * stride..][..live]`, with `stride` the root's width. A 15x10 board then takes
/// 240 bytes instead of a [`Board`]'s 1 KiB, so the layers' boards stay in cache.
struct Beam {
    nodes: Vec<Node>,
    cols: Vec<Col>,
    stride: usize,
}

impl Beam {
    /// Live columns of node `i`.
    #[inline]
    fn cols(&self, i: usize) -> &[Col] {
        &self.cols[i * self.stride..][..usize::from(self.nodes[i].live)]
    }

    /// Loads node `i`'s board into `into` (a board of `root`'s size).
    #[inline]
    fn load(&self, i: usize, root: &Board, into: &mut Board) {
        into.set_cols(root, self.cols(i));
    }

    fn len(&self) -> usize {
        self.nodes.len()
    }
}

#[derive(Clone, Copy, Debug)]
struct Stub {
    obj: i64,
    hash: u64,
    score: i64,
    parent: u32,
    removal: Removal,
    mv: Move,
}

/// Where a child's removed cells are kept: `span` column masks from column `x_lo`, at `off`
/// in the parent's mask buffer (so children are replayed without finding groups again).
#[derive(Clone, Copy, Debug)]
struct Removal {
    off: u32,
    x_lo: u8,
    span: u8,
}

impl Removal {
    /// Plays the removal on `board` (a copy of the parent).
    #[inline]
    fn apply(&self, masks: &[u32], board: &mut Board) {
        board.remove_masks(usize::from(self.x_lo), self.gone(masks));
    }

    /// The removed cells, one mask per column from `x_lo`.
    #[inline]
    fn gone<'m>(&self, masks: &'m [u32]) -> &'m [u32] {
        &masks[self.off as usize..][..usize::from(self.span)]
    }
}

/// A finished game found during the search: score, and the parent path plus last move.
#[derive(Clone, Copy, Debug)]
struct Finished {
    score: i64,
    len: usize,
    parent_path: u32,
    mv: Move,
    tiles_left: u32,
    cleared: bool,
    /// The game ends with the playout of this seed from the child (Eval::Rollout).
    rollout: Option<u64>,
}

const ROOT: u32 = u32::MAX;

struct Arena(Vec<(u32, Move)>);

impl Arena {
    fn moves(&self, mut path: u32) -> Vec<Move> {
        let mut out = Vec::new();
        while path != ROOT {
            let (prev, mv) = self.0[path as usize];
            out.push(mv);
            path = prev;
        }
        out.reverse();
        out
    }

    fn moves_then(&self, path: u32, mv: Move) -> Vec<Move> {
        let mut m = self.moves(path);
        m.push(mv);
        m
    }
}

/// The tabu objective of a child board with its groups summarized: score, plus every group not
/// of the most frequent colour, plus that colour valued as one group (`tabu_pct` percent).
fn tabu_objective(rules: &Rules, board: &Board, score: i64, groups: &Groups, tabu_pct: i64) -> i64 {
    let counts = board.color_counts();
    let tabu = tabu_color(&counts);
    let pot: i64 = groups
        .list()
        .iter()
        .filter(|g| usize::from(g.color) != tabu)
        .map(|g| rules.points(g.size))
        .sum();
    let big = if counts[tabu] >= rules.min_group {
        rules.points(counts[tabu]) * tabu_pct / 100
    } else {
        0
    };
    score + pot + big
}

/// Per-thread buffers.
struct Scratch {
    /// The parent being expanded (loaded from the packed beam).
    pboard: Board,
    parent: Groups,
    child: Groups,
    roll: Groups,
    board: Board,
    sweeps: Sweeps,
    hash_states: [u64; MAX_WIDTH + 1],
}

impl Scratch {
    fn new() -> Self {
        Scratch {
            pboard: Board::empty(0, 0),
            parent: Groups::new(),
            child: Groups::new(),
            roll: Groups::new(),
            board: Board::empty(0, 0),
            sweeps: Sweeps::new(),
            hash_states: [0; MAX_WIDTH + 1],
        }
    }
}

/// One tabu-colour random playout from `board`: a uniformly random group is removed at every
/// step, except that the colour most frequent at the start (the tabu colour) is only played
/// when no other group is left. Returns (points including a clear bonus, moves, tiles left),
/// and appends the moves (group representatives) to `moves` if given.
///
/// With groups of two or more removable (the default rules) no group list is built: a tile
/// is drawn uniformly from the tiles that have a same-coloured neighbour (exactly the tiles
/// of the removable groups), its group is grown from it, and the group is taken with
/// probability 1 / its size, else another tile is drawn. Every group is then equally likely,
/// as with a list, for a few bit operations per step instead of finding every group.
pub(crate) fn playout(
    board: &Board,
    rules: &Rules,
    seed: u64,
    g: &mut Groups,
    moves: Option<&mut Vec<Move>>,
) -> (i64, usize, u32) {
    if rules.min_group > 2 {
        return playout_listed(board, rules, seed, g, moves);
    }
    let mut b = board.clone();
    let mut rng = bits::Rng::new(seed);
    let tabu = tabu_color(&b.color_counts());
    let mut moves = moves;
    let (mut pts, mut len) = (0i64, 0usize);
    let (mut cand, mut free) = ([0u32; MAX_WIDTH], [0u32; MAX_WIDTH]);
    let mut grp = [0u32; MAX_WIDTH];
    loop {
        let cols = b.cols();
        let live = cols.len();
        // Tiles with a same-coloured neighbour, and those of them not of the tabu colour.
        let (mut n_free, mut n_all) = (0u32, 0u32);
        let mut carry = 0u32;
        for x in 0..live {
            let c = &cols[x];
            let v = c.same_as_below();
            let right = if x + 1 < live { c.same_as(&cols[x + 1]) } else { 0 };
            let paired = v | v >> 1 | carry | right;
            carry = right;
            cand[x] = paired;
            free[x] = paired & !c.mask_of(tabu as u8);
            n_all += paired.count_ones();
            n_free += free[x].count_ones();
        }
        if n_all == 0 {
            break;
        }
        let (cand, total) = if n_free > 0 { (&free, n_free) } else { (&cand, n_all) };
        let (lo, hi, size) = loop {
            // The k-th candidate tile.
            let mut k = rng.below(u64::from(total)) as u32;
            let mut x = 0;
            loop {
                let n = cand[x].count_ones();
                if k < n {
                    break;
                }
                k -= n;
                x += 1;
            }
            let bit = bits::pdep_u32(1 << k, cand[x]);
            let (lo, hi, size) = grow(cols, x, bit, &mut grp);
            debug_assert!(size >= 2, "a candidate tile has a same-coloured neighbour");
            if rng.below(u64::from(size)) == 0 {
                break (lo, hi, size);
            }
        };
        if let Some(m) = moves.as_deref_mut() {
            m.push((lo as u8, grp[lo].trailing_zeros() as u8));
        }
        b.remove_masks(lo, &grp[lo..=hi]);
        pts += rules.points(size);
        len += 1;
    }
    pts += rules.end_bonus(len, b.is_clear());
    (pts, len, b.tiles())
}

/// The group containing tile `bit` of column `x`, written to `out[lo..=hi]`; returns
/// (`lo`, `hi`, size). A work list of columns (a bit mask) is revisited until no column grows:
/// a column takes the group's cells of its neighbours in its own colour, then whole vertical
/// runs of that colour.
#[inline]
fn grow(cols: &[Col], x: usize, bit: u32, out: &mut [u32; MAX_WIDTH]) -> (usize, usize, u32) {
    let color = cols[x].color(bit.trailing_zeros());
    let live = cols.len();
    let mut same = [0u32; MAX_WIDTH];
    let near = |i: usize| -> u64 {
        let l = if i > 0 { 1u64 << (i - 1) } else { 0 };
        let r = if i + 1 < live { 1u64 << (i + 1) } else { 0 };
        l | r
    };
    same[x] = cols[x].mask_of(color);
    out[x] = vertical_fill(bit, same[x]);
    let mut seen = 1u64 << x;
    let mut todo = near(x);
    while todo != 0 {
        let i = todo.trailing_zeros() as usize;
        todo &= todo - 1;
        if seen >> i & 1 == 0 {
            seen |= 1 << i;
            same[i] = cols[i].mask_of(color);
            out[i] = 0;
        }
        let mut s = out[i];
        if i > 0 && seen >> (i - 1) & 1 == 1 {
            s |= out[i - 1] & same[i];
        }
        if i + 1 < live && seen >> (i + 1) & 1 == 1 {
            s |= out[i + 1] & same[i];
        }
        if s != out[i] {
            out[i] = vertical_fill(s, same[i]);
            todo |= near(i);
        }
    }
    let (mut lo, mut hi, mut size) = (x, x, 0);
    let mut rest = seen;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if out[i] != 0 {
            lo = lo.min(i);
            hi = hi.max(i);
            size += out[i].count_ones();
        }
    }
    (lo, hi, size)
}

/// The cells of `m` in a vertical run of `m` that holds a cell of `s` (`s` within `m`):
/// shift fills up and down that stop at cells outside `m`.
#[inline]
fn vertical_fill(s: u32, m: u32) -> u32 {
    let (mut up, mut pu) = (s, m);
    up |= pu & (up << 1);
    pu &= pu << 1;
    up |= pu & (up << 2);
    pu &= pu << 2;
    up |= pu & (up << 4);
    pu &= pu << 4;
    up |= pu & (up << 8);
    pu &= pu << 8;
    up |= pu & (up << 16);
    let (mut dn, mut pd) = (s, m);
    dn |= pd & (dn >> 1);
    pd &= pd >> 1;
    dn |= pd & (dn >> 2);
    pd &= pd >> 2;
    dn |= pd & (dn >> 4);
    pd &= pd >> 4;
    dn |= pd & (dn >> 8);
    pd &= pd >> 8;
    dn |= pd & (dn >> 16);
    up | dn
}

/// The tabu colour: the most frequent one (the lowest of equals).
fn tabu_color(counts: &[u32; MAX_COLORS]) -> usize {
    let mut tabu = 0usize;
    for c in 1..MAX_COLORS {
        if counts[c] > counts[tabu] {
            tabu = c;
        }
    }
    tabu
}

/// The playout with a group list at every step (any minimum group size).
fn playout_listed(
    board: &Board,
    rules: &Rules,
    seed: u64,
    g: &mut Groups,
    mut moves: Option<&mut Vec<Move>>,
) -> (i64, usize, u32) {
    let mut b = board.clone();
    let mut rng = bits::Rng::new(seed);
    let tabu = tabu_color(&b.color_counts());
    let (mut pts, mut len) = (0i64, 0usize);
    loop {
        let list = g.find(&b, rules.min_group);
        if list.is_empty() {
            break;
        }
        let free = list.iter().filter(|x| usize::from(x.color) != tabu).count();
        let pick = if free > 0 {
            let k = rng.below(free as u64) as usize;
            *list.iter().filter(|x| usize::from(x.color) != tabu).nth(k).expect("k < free")
        } else {
            list[rng.below(list.len() as u64) as usize]
        };
        if let Some(m) = moves.as_deref_mut() {
            m.push((pick.x, pick.y));
        }
        g.remove(&mut b, &pick);
        pts += rules.points(pick.size);
        len += 1;
    }
    pts += rules.end_bonus(len, b.is_clear());
    (pts, len, b.tiles())
}

fn playout_seed(cfg: &Config, child_hash: u64, k: u32) -> u64 {
    child_hash ^ cfg.seed ^ u64::from(k).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A child before it is evaluated: its board's hash, the score so far, its parent and the
/// group removed (index in the parent's group list, and representative tile).
#[derive(Clone, Copy, Debug)]
struct Pre {
    hash: u64,
    score: i64,
    parent: u32,
    removal: Removal,
    mv: Move,
    /// Tiles left on the child.
    tiles: u32,
    /// The objective and "no move left", when the evaluation is the groups' potential
    /// (computed here from the parent's [`Sweeps`], without replaying the child later).
    value: Option<(i64, bool)>,
}

/// The potential part of each distinct child's objective in a layer, shared by the threads:
/// about a third of a layer's children are boards another parent also reaches, and their
/// (board-only) value is computed once. A lock-free open-addressing table of (hash, value)
/// pairs: a thread claims an empty slot's key with a compare-exchange and stores the value
/// after it; a reader that finds the key before its value is written computes the value
/// itself. The value is a function of the board alone, so what a reader gets never depends
/// on the timing: the search stays byte-identical on any thread count.
struct PotCache<'a> {
    slots: &'a [[AtomicU64; 2]],
}

/// Parents per parallel work item of a layer (fixed, so the work split is the same on any
/// thread count; only the order of the kept children depends on it, and they are ordered by
/// a total order afterwards).
const CHUNK: usize = 32;

/// Slots probed before a child is evaluated without the table.
const CACHE_PROBES: usize = 8;

/// Reusable storage of the lock-free tables ([`PotCache`], [`Dedup`]): pairs of words, all
/// zero when handed out.
#[derive(Default)]
struct Slots(Vec<[AtomicU64; 2]>);

impl Slots {
    /// A zeroed table with room for `n` entries at half load (a power of two, at least 64).
    fn prepare(&mut self, n: usize) -> &[[AtomicU64; 2]] {
        let cap = (n * 2).next_power_of_two().max(64);
        if self.0.len() < cap {
            // Grown in parallel, born zero.
            self.0 = (0..cap).into_par_iter().map(|_| Default::default()).collect();
            return &self.0;
        }
        let used = &mut self.0[..cap];
        used.par_chunks_mut(4096).for_each(|c| {
            for [k, v] in c {
                *k.get_mut() = 0;
                *v.get_mut() = 0;
            }
        });
        &self.0[..cap]
    }
}

impl PotCache<'_> {
    /// The cached (value, no move left) of the board with `hash`, or else `compute`'s (then
    /// cached if it fits the packing and a slot is free).
    #[inline]
    fn get_or(&self, hash: u64, compute: impl FnOnce() -> (i64, bool)) -> (i64, bool) {
        // The key is the hash itself; 0 marks an empty slot, so that board goes uncached.
        let key = hash;
        if key == 0 {
            return compute();
        }
        let mask = self.slots.len() - 1;
        let mut slot = (hash >> 20) as usize & mask;
        for _ in 0..CACHE_PROBES {
            let [k, v] = &self.slots[slot];
            let mut now = k.load(AtomicOrdering::Acquire);
            if now == 0 {
                match k.compare_exchange(0, key, AtomicOrdering::AcqRel, AtomicOrdering::Acquire) {
                    Ok(_) => {
                        let out = compute();
                        if let Some(packed) = Self::pack(out) {
                            v.store(packed, AtomicOrdering::Release);
                        }
                        return out;
                    }
                    Err(other) => now = other,
                }
            }
            if now == key {
                let packed = v.load(AtomicOrdering::Acquire);
                return if packed != 0 { Self::unpack(packed) } else { compute() };
            }
            slot = (slot + 1) & mask;
        }
        compute()
    }

    /// `value << 2 | terminal << 1 | 1` when the value fits in 62 bits.
    #[inline]
    fn pack((value, terminal): (i64, bool)) -> Option<u64> {
        const LIM: i64 = 1 << 60;
        ((-LIM..LIM).contains(&value))
            .then(|| ((value as u64) << 2) | (u64::from(terminal) << 1) | 1)
    }

    #[inline]
    fn unpack(packed: u64) -> (i64, bool) {
        ((packed as i64) >> 2, packed & 2 != 0)
    }
}

/// A layer's children de-duplicated by board, in parallel: a lock-free open-addressing table
/// from board hash to the best child (an id) that offered it. The table has room for twice
/// the children, so every board gets a slot. A slot's key is claimed with a compare-exchange
/// and its id is set right after; the id is replaced with a compare-exchange loop while the
/// offered child is better. The result is the best child per board under a total order,
/// whatever the order of the offers.
struct Dedup<'a> {
    /// At least twice as many as the children.
    slots: &'a [[AtomicU64; 2]],
    /// The id slot of the board whose hash is 0 (0 marks an empty key).
    zero: AtomicU64,
}

impl Dedup<'_> {
    /// The id word of `hash`'s slot (claimed for it if `claim`, else `None` if absent).
    #[inline]
    fn slot(&self, hash: u64, claim: bool) -> Option<&AtomicU64> {
        if hash == 0 {
            return Some(&self.zero);
        }
        let mask = self.slots.len() - 1;
        let mut i = (hash >> 20) as usize & mask;
        loop {
            let [k, id] = &self.slots[i];
            let mut now = k.load(AtomicOrdering::Acquire);
            if now == 0 {
                if !claim {
                    return None;
                }
                match k.compare_exchange(0, hash, AtomicOrdering::AcqRel, AtomicOrdering::Acquire) {
                    Ok(_) => return Some(id),
                    Err(other) => now = other,
                }
            }
            if now == hash {
                return Some(id);
            }
            i = (i + 1) & mask;
        }
    }

    /// Offers child `id` for the board `hash`; `better(a, b)` is a strict total order.
    #[inline]
    fn offer(&self, hash: u64, id: u64, better: impl Fn(u64, u64) -> bool) {
        let word = self.slot(hash, true).expect("claimed");
        // Ids are stored plus one: 0 is "no child yet".
        let mut cur = word.load(AtomicOrdering::Acquire);
        loop {
            if cur != 0 && !better(id, cur - 1) {
                return;
            }
            match word.compare_exchange_weak(
                cur,
                id + 1,
                AtomicOrdering::AcqRel,
                AtomicOrdering::Acquire,
            ) {
                Ok(_) => return,
                Err(now) => cur = now,
            }
        }
    }

    /// The best child offered for `hash` (every offer must be done).
    #[inline]
    fn winner(&self, hash: u64) -> u64 {
        self.slot(hash, false).map_or(u64::MAX, |w| w.load(AtomicOrdering::Acquire).wrapping_sub(1))
    }
}

/// Whether the objective is the child's group potential (evaluated incrementally).
fn incremental(cfg: &Config) -> bool {
    matches!((cfg.goal, cfg.eval), (Goal::Clear, _) | (Goal::Score, Eval::Groups))
}

/// The board-only part of a child's objective (the score so far is added to it).
#[inline]
fn potential_value(cfg: &Config, pot: &Potential) -> i64 {
    match cfg.goal {
        Goal::Clear => pot.points - cfg.clear_penalty * i64::from(pot.loose),
        Goal::Score => pot.points,
    }
}

/// Plays every move of one parent on a scratch board and calls `sink` with each child's
/// [`Pre`] (hash and score only: no evaluation yet); the removed cells go to `masks`.
/// Returns the children generated.
fn generate(
    cfg: &Config,
    parent: (&Board, i64),
    index: u32,
    sc: &mut Scratch,
    cache: &PotCache,
    masks: &mut Vec<u32>,
    mut sink: impl FnMut(Pre),
) -> u64 {
    let rules = &cfg.rules;
    let inc = incremental(cfg);
    let (pboard, pscore) = parent;
    if inc {
        sc.parent.find_with_sweeps(pboard, rules, &mut sc.sweeps);
    } else {
        sc.parent.find(pboard, rules.min_group);
    }
    let mut off = masks.len();
    sc.parent.all_masks(masks);
    pboard.hash_states(&mut sc.hash_states);
    let live = pboard.live_width();
    let parent_tiles = pboard.tiles();
    // Columns before `clean` of the scratch board equal the parent's.
    sc.board.clone_from(pboard);
    let mut clean = live;
    for g in sc.parent.list() {
        // `all_masks` laid the groups out in list order.
        let span = usize::from(g.x_hi - g.x_lo) + 1;
        let removal = Removal { off: off as u32, x_lo: g.x_lo, span: span as u8 };
        off += span;
        let x_lo = usize::from(g.x_lo);
        sc.board.restore_from(pboard, clean.min(x_lo));
        clean = x_lo;
        removal.apply(masks, &mut sc.board);
        let mut score = pscore + rules.points(g.size);
        if sc.board.is_clear() {
            score += rules.clear_bonus;
        }
        // Same live width: the parent's hash state before column `x_lo` still holds.
        let hash = if sc.board.live_width() == live {
            sc.board.hash64_resume(x_lo, sc.hash_states[x_lo])
        } else {
            sc.board.hash64()
        };
        let value = inc.then(|| {
            let (lo, hi) = (usize::from(g.x_lo), usize::from(g.x_hi));
            let (v, terminal) = cache.get_or(hash, || {
                let pot = sc.child.potential_child(&sc.sweeps, &sc.board, lo, hi, rules);
                (potential_value(cfg, &pot), pot.groups == 0)
            });
            (score + v, terminal)
        });
        let tiles = parent_tiles - g.size;
        debug_assert_eq!(tiles, sc.board.tiles());
        sink(Pre { hash, score, parent: index, removal, mv: (g.x, g.y), tiles, value });
    }
    sc.parent.list().len() as u64
}

/// Evaluates the distinct children `pres` of one parent (`depth` = its number of moves):
/// calls `sink` with each unfinished child's stub and board, and `done` with finished games (a
/// child with no removable group, or the best playout of these children).
#[allow(clippy::too_many_arguments)]
fn evaluate(
    cfg: &Config,
    parent: (&Board, u32),
    masks: &[u32],
    pres: &[Pre],
    depth: usize,
    sc: &mut Scratch,
    mut sink: impl FnMut(Stub, &Board),
    mut done: impl FnMut(Finished),
) {
    let rules = &cfg.rules;
    let mut best_roll: Option<Finished> = None;
    let keep_board = cfg.passes == Passes::One;
    let (pboard, parent_path) = parent;
    for pre in pres {
        let child = &mut sc.board;
        if pre.value.is_none() || keep_board {
            child.clone_from(pboard);
            pre.removal.apply(masks, child);
        }
        let (score, mv, hash) = (pre.score, pre.mv, pre.hash);
        // The child's value and whether it has a move, at the least cost the objective allows.
        let (terminal, obj_now) = match (cfg.goal, cfg.eval) {
            (Goal::Clear, _) | (Goal::Score, Eval::Groups) => {
                let (obj, terminal) = pre.value.expect("pass 1a evaluates the potential");
                (terminal, Some(obj))
            }
            (Goal::Score, Eval::Rollout { .. }) if rules.min_group <= 2 => (!has_pair(child), None),
            (Goal::Score, Eval::Tabu { tabu_pct }) => {
                sc.child.summarize(child, rules.min_group);
                let obj = tabu_objective(rules, child, score, &sc.child, tabu_pct);
                (sc.child.list().is_empty(), Some(obj))
            }
            (Goal::Score, Eval::Rollout { .. }) => {
                (sc.child.summarize(child, rules.min_group).is_empty(), None)
            }
        };
        if terminal {
            done(Finished {
                score,
                len: depth + 1,
                parent_path,
                mv,
                tiles_left: pre.tiles,
                cleared: pre.tiles == 0,
                rollout: None,
            });
            continue;
        }
        let obj = match (cfg.goal, cfg.eval) {
            (Goal::Score, Eval::Rollout { playouts }) => {
                let mut best: Option<(i64, usize, u32, u64)> = None;
                for k in 0..playouts.max(1) {
                    let seed = playout_seed(cfg, hash, k);
                    let (p, len, left) = playout(child, rules, seed, &mut sc.roll, None);
                    // Higher points, then shorter; equal ones keep the earlier playout.
                    if best.is_none_or(|b| p > b.0 || (p == b.0 && len < b.1)) {
                        best = Some((p, len, left, seed));
                    }
                }
                let (p, len, left, seed) = best.expect("at least one playout");
                let fin = Finished {
                    score: score + p,
                    len: depth + 1 + len,
                    parent_path,
                    mv,
                    tiles_left: left,
                    cleared: left == 0,
                    rollout: Some(seed),
                };
                // Per parent keep the first best (by score, then length): deterministic.
                if best_roll.is_none_or(|b| {
                    fin.score > b.score || (fin.score == b.score && fin.len < b.len)
                }) {
                    best_roll = Some(fin);
                }
                score + p
            }
            _ => obj_now.expect("every objective but the playouts' is computed above"),
        };
        sink(Stub { obj, hash, score, parent: pre.parent, removal: pre.removal, mv }, child);
    }
    if let Some(f) = best_roll {
        done(f);
    }
}

/// The best `width` of `items` (fewer than `items.len()`) under the total order `by` (the
/// lesser comes first), in no particular order. A sample of the items gives a bar that about
/// 10% more than `width` items pass; those are found in parallel and only they are selected
/// from, serially. When too few pass (an unlucky sample), all items are selected from: the
/// result is the same set either way.
fn cut<T: Copy + Send + Sync>(
    mut items: Vec<T>,
    width: usize,
    by: impl Fn(&T, &T) -> Ordering + Sync,
) -> Vec<T> {
    const SAMPLE: usize = 1024;
    let n = items.len();
    if n >= 4 * SAMPLE && width < n / 2 {
        let step = n / SAMPLE;
        let mut sample: Vec<T> = items.iter().step_by(step).copied().collect();
        sample.sort_unstable_by(&by);
        let q = (sample.len() * width).div_ceil(n) * 11 / 10 + 8;
        if q < sample.len() {
            let bar = sample[q];
            let mut pass: Vec<T> =
                items.par_iter().filter(|t| by(t, &bar) != Ordering::Greater).copied().collect();
            if pass.len() >= width {
                pass.select_nth_unstable_by(width - 1, &by);
                pass.truncate(width);
                return pass;
            }
        }
    }
    items.select_nth_unstable_by(width - 1, &by);
    items.truncate(width);
    items
}

/// The search's fixed context: settings, root board, and the move arena.
struct Ctx<'a> {
    cfg: &'a Config,
    root: &'a Board,
    arena: Arena,
}

impl Ctx<'_> {
    /// All moves of a finished game, the playout included.
    fn full_moves(&self, f: &Finished) -> Vec<Move> {
        let mut moves = self.arena.moves_then(f.parent_path, f.mv);
        if let Some(seed) = f.rollout {
            let mut b = self.root.clone();
            let mut g = Groups::new();
            for &(x, y) in &moves {
                g.find(&b, self.cfg.rules.min_group);
                let grp = *g
                    .list()
                    .iter()
                    .find(|k| (k.x, k.y) == (x, y))
                    .expect("search moves name group representatives");
                g.remove(&mut b, &grp);
            }
            let mut tail = Vec::new();
            playout(&b, &self.cfg.rules, seed, &mut g, Some(&mut tail));
            moves.extend(tail);
        }
        moves
    }

    /// Total order of finished games: higher score, then fewer moves, then lexicographically
    /// smaller moves.
    fn better(&self, a: &Finished, b: &Finished) -> bool {
        match a.score.cmp(&b.score).then(b.len.cmp(&a.len)) {
            Ordering::Greater => true,
            Ordering::Less => false,
            Ordering::Equal => self.full_moves(a) < self.full_moves(b),
        }
    }
}

/// Runs the beam search from `board`. `abort` stops it between layers (the best game so far
/// is returned); `progress` is called after every layer.
pub fn search(
    board: &Board,
    cfg: &Config,
    abort: Option<&AtomicBool>,
    mut progress: impl FnMut(&Progress),
) -> Outcome {
    if cfg.goal != Goal::Clear || !cfg.widen {
        return search_fixed(board, cfg, cfg.width.max(1), abort, &mut progress).0;
    }
    let mut nodes = 0;
    let mut w = 16usize;
    // The best finished game of the widths done so far: if a wider beam is stopped before it
    // finishes one (or finishes a worse one), that game is still the best answer found.
    let mut done: Option<Outcome> = None;
    loop {
        let w_now = w.min(cfg.width.max(1));
        let (mut out, ended) = search_fixed(board, cfg, w_now, abort, &mut progress);
        nodes += out.nodes;
        out.nodes = nodes;
        if out.aborted && !out.cleared {
            if let Some(d) = done.take() {
                if !ended || d.better_than(&out) {
                    return Outcome { nodes, aborted: true, ..d };
                }
            }
        }
        if out.cleared || out.aborted || w_now == cfg.width.max(1) {
            return out;
        }
        done = Some(match done {
            Some(d) if d.better_than(&out) => d,
            _ => out,
        });
        w = w.saturating_mul(4);
    }
}

/// One beam of `width`, and whether its answer is a finished game (else the beam's best
/// unfinished line, when it was stopped first).
fn search_fixed(
    board: &Board,
    cfg: &Config,
    width: usize,
    abort: Option<&AtomicBool>,
    progress: &mut impl FnMut(&Progress),
) -> (Outcome, bool) {
    let mut ctx = Ctx { cfg, root: board, arena: Arena(Vec::new()) };
    let stride = board.width().max(1);
    let mut beam = Beam {
        nodes: vec![Node {
            score: 0,
            path: ROOT,
            live: board.live_width() as u8,
            tiles: board.tiles(),
        }],
        cols: board.cols().to_vec(),
        stride,
    };
    beam.cols.resize(stride, Col::default());
    // Lexicographic rank of each beam state's move list (see the de-duplication below).
    let mut rank: Vec<u32> = vec![0];
    let mut best: Option<Finished> = None;
    let mut nodes = 0u64;
    let mut layer = 0usize;
    let mut aborted = false;
    let mut expect_children = 64;
    let (mut cache_slots, mut dedup_slots) = (Slots::default(), Slots::default());
    let mut spare_cols: Vec<Col> = Vec::new();

    // A board with nothing to remove is its own finished game.
    if Groups::new().find(board, cfg.rules.min_group).is_empty() {
        return (
            Outcome {
                moves: Vec::new(),
                score: 0,
                cleared: board.is_clear(),
                tiles_left: board.tiles(),
                nodes: 0,
                layers: 0,
                aborted: false,
            },
            true,
        );
    }

    // The abort flag is also checked per chunk and per parent inside a layer (a wide layer
    // can take seconds); a layer cut short is dropped whole, so the beam and the best game
    // stay those of the last finished layer.
    let stop = || abort.is_some_and(|a| a.load(AtomicOrdering::Relaxed));
    while !beam.nodes.is_empty() {
        if stop() {
            aborted = true;
            break;
        }
        // Pass 1a: play every child on a scratch board for its hash and score only. Parents
        // go in fixed chunks of `CHUNK` (a chunk's children and removal masks share two
        // vectors), whatever the thread count.
        let cache = PotCache {
            slots: cache_slots.prepare(if incremental(cfg) { expect_children } else { 0 }),
        };
        let beam_ref = &beam;
        let chunks = beam.len().div_ceil(CHUNK);
        let parts: Vec<(Vec<Pre>, Vec<u32>, u64)> = (0..chunks)
            .into_par_iter()
            .map_init(Scratch::new, |sc, c| {
                if stop() {
                    return (Vec::new(), Vec::new(), 0);
                }
                let parents = c * CHUNK..beam_ref.len().min((c + 1) * CHUNK);
                let mut out = Vec::with_capacity(parents.len() * 16);
                let (mut masks, mut n) = (Vec::new(), 0);
                let mut pboard = std::mem::replace(&mut sc.pboard, Board::empty(0, 0));
                for i in parents {
                    beam_ref.load(i, board, &mut pboard);
                    let parent = (&pboard, beam_ref.nodes[i].score);
                    n += generate(cfg, parent, i as u32, sc, &cache, &mut masks, |p| out.push(p));
                }
                sc.pboard = pboard;
                (out, masks, n)
            })
            .collect();
        if stop() {
            aborted = true;
            break;
        }
        let total: usize = parts.iter().map(|p| p.0.len()).sum();
        // The next layer has about as many children per parent as this one.
        expect_children = total.div_ceil(beam.len().max(1)) * width.min(total);
        let mut masks: Vec<Vec<u32>> = Vec::with_capacity(parts.len());
        let mut children: Vec<Vec<Pre>> = Vec::with_capacity(parts.len());
        for (p, m, n) in parts {
            children.push(p);
            masks.push(m);
            nodes += n;
        }

        // De-duplicate by board before evaluating: of two equal boards the higher score
        // survives (every objective is the score plus a function of the board), then the
        // lexicographically smaller move list, which is (rank of the parent's moves among the
        // beam's, last move) since all the beam's move lists have the same length. Every
        // child offers itself to its board's slot of a shared table, which keeps the better
        // claimant; the kept set is the same whatever the order of the offers, so it does not
        // depend on the thread count. A child's id is (chunk, index in the chunk).
        let pre_of = |id: u64| &children[(id >> 32) as usize][id as u32 as usize];
        let better = |a: u64, b: u64| {
            let (pa, pb) = (pre_of(a), pre_of(b));
            pa.score > pb.score
                || (pa.score == pb.score
                    && (rank[pa.parent as usize], pa.mv) < (rank[pb.parent as usize], pb.mv))
        };
        let table = Dedup { slots: dedup_slots.prepare(total), zero: AtomicU64::new(0) };
        children.par_iter().enumerate().for_each(|(c, pres)| {
            for (j, p) in pres.iter().enumerate() {
                table.offer(p.hash, (c as u64) << 32 | j as u64, better);
            }
        });

        // Pass 1b: the distinct children's objectives. The group potential was computed with
        // the child in pass 1a; other objectives replay the distinct children from their
        // parent and the stored masks. In parallel per chunk.
        let keep_boards = cfg.passes == Passes::One;
        let inc = incremental(cfg) && !keep_boards;
        type PerChunk = (Vec<Stub>, Vec<Board>, Vec<Finished>);
        let parts: Vec<PerChunk> = children
            .par_iter()
            .enumerate()
            .map_init(Scratch::new, |sc, (c, pres)| {
                if stop() {
                    return (Vec::new(), Vec::new(), Vec::new());
                }
                let mine = pres.iter().enumerate();
                let won =
                    mine.filter(|&(j, p)| table.winner(p.hash) == (c as u64) << 32 | j as u64);
                let (mut stubs, mut boards, mut fin) = (Vec::new(), Vec::new(), Vec::new());
                if inc {
                    stubs.reserve(pres.len());
                    for (_, p) in won {
                        let (obj, terminal) = p.value.expect("set in pass 1a for this objective");
                        if terminal {
                            fin.push(Finished {
                                score: p.score,
                                len: layer + 1,
                                parent_path: beam.nodes[p.parent as usize].path,
                                mv: p.mv,
                                tiles_left: p.tiles,
                                cleared: p.tiles == 0,
                                rollout: None,
                            });
                        } else {
                            let (hash, score, parent, removal, mv) =
                                (p.hash, p.score, p.parent, p.removal, p.mv);
                            stubs.push(Stub { obj, hash, score, parent, removal, mv });
                        }
                    }
                    return (stubs, boards, fin);
                }
                // Each parent's distinct children are consecutive in its chunk.
                let distinct: Vec<Pre> = won.map(|(_, p)| *p).collect();
                stubs.reserve(distinct.len());
                let mut pboard = std::mem::replace(&mut sc.pboard, Board::empty(0, 0));
                for mine in distinct.chunk_by(|a, b| a.parent == b.parent) {
                    if stop() {
                        break;
                    }
                    let i = mine[0].parent as usize;
                    beam.load(i, board, &mut pboard);
                    evaluate(
                        cfg,
                        (&pboard, beam.nodes[i].path),
                        &masks[c],
                        mine,
                        layer,
                        sc,
                        |s, b| {
                            stubs.push(s);
                            if keep_boards {
                                boards.push(b.clone());
                            }
                        },
                        |f| fin.push(f),
                    );
                }
                sc.pboard = pboard;
                (stubs, boards, fin)
            })
            .collect();
        if stop() {
            aborted = true;
            break;
        }
        let distinct: usize = parts.iter().map(|p| p.0.len()).sum();
        let mut kept: Vec<(Stub, u32)> = Vec::with_capacity(distinct);
        let mut boards: Vec<Board> = Vec::new();
        let mut finished: Vec<Finished> = Vec::new();
        for (s, b, f) in parts {
            for st in s {
                let k = kept.len() as u32;
                kept.push((st, k));
            }
            boards.extend(b);
            finished.extend(f);
        }
        for f in &finished {
            if best.as_ref().is_none_or(|b| ctx.better(f, b)) {
                best = Some(*f);
            }
        }
        layer += 1;
        if cfg.goal == Goal::Clear && best.as_ref().is_some_and(|b| b.cleared) {
            break;
        }

        // The exact cut-off: objective, then hash (distinct after de-duplication).
        let by_rank =
            |a: &(Stub, u32), b: &(Stub, u32)| b.0.obj.cmp(&a.0.obj).then(a.0.hash.cmp(&b.0.hash));
        if kept.len() > width {
            kept = cut(kept, width, by_rank);
        }
        kept.par_sort_unstable_by(by_rank);

        // Pass 2: replay the survivors (or take their stored boards), building the new
        // beam's nodes in parallel; survivor `i` is arena entry `base + i`.
        let base = ctx.arena.0.len();
        ctx.arena.0.extend(kept.iter().map(|(s, _)| (beam.nodes[s.parent as usize].path, s.mv)));
        // The last layer's column buffer is reused: a node's columns past its live ones are
        // never read, so the buffer is not cleared.
        let mut new_cols = std::mem::take(&mut spare_cols);
        new_cols.resize(new_cols.len().max(kept.len() * stride), Col::default());
        let new_nodes: Vec<Node> = match cfg.passes {
            Passes::One => kept
                .iter()
                .zip(new_cols.chunks_mut(stride))
                .enumerate()
                .map(|(i, ((s, k), out))| {
                    let cols = boards[*k as usize].cols();
                    out[..cols.len()].copy_from_slice(cols);
                    let tiles = cols.iter().map(Col::height).sum();
                    Node { score: s.score, path: (base + i) as u32, live: cols.len() as u8, tiles }
                })
                .collect(),
            Passes::Two => kept
                .par_iter()
                .zip(new_cols.par_chunks_mut(stride))
                .enumerate()
                .map(|(i, ((s, _), out))| {
                    // The parent's columns, then the removal in place.
                    let p = s.parent as usize;
                    let cols = beam.cols(p);
                    let out = &mut out[..cols.len()];
                    out.copy_from_slice(cols);
                    let gone = s.removal.gone(&masks[p / CHUNK]);
                    let live = remove_from_cols(out, usize::from(s.removal.x_lo), gone);
                    let tiles = out[..live].iter().map(Col::height).sum();
                    Node { score: s.score, path: (base + i) as u32, live: live as u8, tiles }
                })
                .collect(),
        };
        // The lexicographic rank of each survivor's move list among the new beam's.
        // Keys (parent's rank, move, index) packed in one integer, sorted in parallel.
        let mut order: Vec<u128> = kept
            .par_iter()
            .enumerate()
            .map(|(i, (s, _))| {
                let (x, y) = s.mv;
                let key =
                    u64::from(rank[s.parent as usize]) << 16 | u64::from(x) << 8 | u64::from(y);
                u128::from(key) << 32 | i as u128
            })
            .collect();
        order.par_sort_unstable();
        let mut new_rank = vec![0u32; kept.len()];
        for (r, &k) in order.iter().enumerate() {
            new_rank[k as u32 as usize] = r as u32;
        }
        rank = new_rank;
        spare_cols = std::mem::replace(&mut beam.cols, new_cols);
        beam.nodes = new_nodes;
        progress(&Progress {
            layer,
            beam: beam.len(),
            nodes,
            best: best.map_or(i64::MIN, |b| b.score),
            fewest_tiles: beam.nodes.iter().map(|n| n.tiles).min().unwrap_or(0),
        });
    }

    let ended = best.is_some();
    let out = match best {
        Some(f) => Outcome {
            moves: ctx.full_moves(&f),
            score: f.score,
            cleared: f.cleared,
            tiles_left: f.tiles_left,
            nodes,
            layers: layer,
            aborted,
        },
        None => {
            // Aborted before any game finished: report the best state of the beam.
            let n = &beam.nodes[0];
            Outcome {
                moves: ctx.arena.moves(n.path),
                score: n.score,
                cleared: false,
                tiles_left: n.tiles,
                nodes,
                layers: layer,
                aborted,
            }
        }
    };
    (out, ended)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::groups::play;

    /// The sampled cut keeps exactly the best `width` items, whether the sample's bar lets
    /// enough through or not.
    #[test]
    fn cut_keeps_the_best() {
        let mut rng = bits::Rng::new(9);
        for (n, width) in [(5000, 100), (5000, 2400), (20000, 5000), (100, 10), (9000, 8999)] {
            // Few distinct values, so ties are decided by the second field.
            let items: Vec<(u32, u32)> =
                (0..n).map(|i| ((rng.next_u64() % 50) as u32, i)).collect();
            let mut want = items.clone();
            want.sort_unstable();
            want.truncate(width as usize);
            let mut got = cut(items.clone(), width as usize, |a, b| a.cmp(b));
            got.sort_unstable();
            assert_eq!(got, want, "n {n} width {width}");
            // An unrepresentative sample: the sampled positions hold the best items, so the
            // bar lets too few through and every item is selected from.
            let step = (n / 1024).max(1);
            let skewed: Vec<(u32, u32)> =
                items.iter().map(|&(v, i)| (if i % step == 0 { 0 } else { v + 1 }, i)).collect();
            let mut want = skewed.clone();
            want.sort_unstable();
            want.truncate(width as usize);
            let mut got = cut(skewed, width as usize, |a, b| a.cmp(b));
            got.sort_unstable();
            assert_eq!(got, want, "skewed, n {n} width {width}");
        }
    }

    /// The de-duplication table keeps, per key, the best id offered under the given order,
    /// whatever the order and the threads of the offers (hash 0 included).
    #[test]
    fn dedup_keeps_the_best_offer_per_board() {
        let n = 3000u64;
        let hash =
            |id: u64| if id % 7 == 0 { 0 } else { (id % 401).wrapping_mul(0xD6E8_FEB8_6659_FD93) };
        // A total order unrelated to the ids' order.
        let better = |a: u64, b: u64| {
            a.wrapping_mul(0x9E37_79B9) % 1009 > b.wrapping_mul(0x9E37_79B9) % 1009
                || (a.wrapping_mul(0x9E37_79B9) % 1009 == b.wrapping_mul(0x9E37_79B9) % 1009
                    && a < b)
        };
        let mut slots = Slots::default();
        let mut ids: Vec<u64> = (0..n).collect();
        bits::Rng::new(5).shuffle(&mut ids);
        let table = Dedup { slots: slots.prepare(n as usize), zero: AtomicU64::new(0) };
        ids.par_iter().with_min_len(16).for_each(|&id| table.offer(hash(id), id, better));
        for id in 0..n {
            let best =
                (0..n)
                    .filter(|&o| hash(o) == hash(id))
                    .reduce(|a, b| if better(b, a) { b } else { a });
            assert_eq!(table.winner(hash(id)), best.unwrap(), "id {id}");
        }
        assert_eq!(table.winner(12345), u64::MAX);
    }

    /// The shared value table returns exactly what `compute` gives, whichever thread claimed
    /// a key first, when the table is full, and for values too wide to pack.
    #[test]
    fn pot_cache_returns_the_computed_values() {
        let value = |h: u64| ((h % 2001) as i64 - 1000, h % 3 == 0);
        let mut slots = Slots::default();
        let cache = PotCache { slots: slots.prepare(500) };
        let hashes: Vec<u64> =
            (0..4000u64).map(|i| (i % 1500).wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        let got: Vec<(i64, bool)> =
            hashes.par_iter().with_min_len(8).map(|&h| cache.get_or(h, || value(h))).collect();
        for (h, g) in hashes.iter().zip(&got) {
            assert_eq!(*g, value(*h), "hash {h:#x}");
        }
        // Every key was offered 2-3 times: some came from the table.
        let filled = cache.slots.iter().filter(|[k, _]| k.load(AtomicOrdering::Relaxed) != 0);
        assert!(filled.count() > 500);
        for wide in [i64::MAX, i64::MIN, 1 << 60, -(1 << 60) - 1] {
            assert_eq!(PotCache::pack((wide, true)), None);
            assert_eq!(cache.get_or(7, || (wide, true)), (wide, true));
        }
        for v in [0, 1, -1, (1 << 60) - 1, -(1 << 60)] {
            for t in [false, true] {
                assert_eq!(PotCache::unpack(PotCache::pack((v, t)).unwrap()), (v, t));
            }
        }
    }

    /// Every playout replays through the checked engine to its reported points and tiles,
    /// on both playout forms.
    #[test]
    fn playouts_replay() {
        let mut g = Groups::new();
        for seed in 0..300u64 {
            let b = Board::random(
                1 + seed as usize % 17,
                1 + seed as usize % 11,
                2 + seed as usize % 5,
                seed,
            );
            for min_group in [2, 3] {
                let rules = Rules { min_group, ..Rules::default() };
                let mut moves = Vec::new();
                let (pts, len, left) = playout(&b, &rules, seed * 7 + 1, &mut g, Some(&mut moves));
                assert_eq!(len, moves.len());
                let mut r = b.clone();
                let mut total = 0;
                for &(x, y) in &moves {
                    // Moves name the group's representative: its leftmost column's lowest tile.
                    let grp = g.find(&r, min_group).iter().find(|k| (k.x, k.y) == (x, y)).copied();
                    assert!(grp.is_some(), "({x}, {y}) is not a group representative in\n{r}");
                    total += play(&mut r, usize::from(x), usize::from(y), &rules).unwrap().1;
                }
                assert_eq!((total, r.tiles()), (pts, left), "playout of seed {seed} on\n{b}");
                assert!(g.find(&r, min_group).is_empty(), "the playout stopped early");
            }
        }
    }

    /// The first move is uniform over the non-tabu groups: the counts of 40,000 playouts
    /// stay within 5 standard deviations of the mean for each group.
    #[test]
    fn first_move_is_uniform_over_free_groups() {
        let b: Board = "11223\n13322\n44455\n".parse().unwrap();
        let rules = Rules::default();
        let mut g = Groups::new();
        let tabu = tabu_color(&b.color_counts());
        let free: Vec<Move> = g
            .find(&b, 2)
            .iter()
            .filter(|k| usize::from(k.color) != tabu)
            .map(|k| (k.x, k.y))
            .collect();
        assert!(free.len() >= 3);
        let n = 40_000u64;
        let mut counts = std::collections::BTreeMap::new();
        for s in 0..n {
            let mut moves = Vec::new();
            playout(&b, &rules, s, &mut g, Some(&mut moves));
            *counts.entry(moves[0]).or_insert(0u64) += 1;
        }
        let keys: Vec<Move> = counts.keys().copied().collect();
        let mut want = free.clone();
        want.sort();
        assert_eq!(keys, want, "first moves are exactly the non-tabu groups");
        let p = 1.0 / free.len() as f64;
        let (mean, sd) = (n as f64 * p, (n as f64 * p * (1.0 - p)).sqrt());
        for (m, &c) in &counts {
            assert!((c as f64 - mean).abs() < 5.0 * sd, "{m:?}: {c} of {n}, mean {mean:.0}");
        }
    }

    /// A clear search stopped while a wider beam is still on its first game answers with the
    /// narrower beam's finished game, marked stopped, not with the wider beam's unfinished
    /// line. Checked on boards that width 16 does not clear.
    #[test]
    fn a_stopped_widening_keeps_the_last_finished_game() {
        let mut checked = 0;
        for seed in 0..40u64 {
            let b = Board::random(15, 15, 5, seed);
            let cfg = Config::new(Goal::Clear, 1 << 16);
            let (narrow, narrow_ended) = search_fixed(&b, &cfg, 16, None, &mut |_| {});
            if narrow.cleared {
                continue;
            }
            // Stop as soon as a layer wider than 16 is done: the 64-wide beam is under way.
            let stop = AtomicBool::new(false);
            let out = search(&b, &cfg, Some(&stop), |p| {
                if p.beam > 16 {
                    stop.store(true, AtomicOrdering::Relaxed);
                }
            });
            assert!(out.aborted, "seed {seed}");
            assert!(narrow_ended, "seed {seed}: an unfinished line");
            assert_eq!(
                (out.moves.clone(), out.score, out.tiles_left),
                (narrow.moves.clone(), narrow.score, narrow.tiles_left),
                "seed {seed}"
            );
            assert!(out.nodes > narrow.nodes, "seed {seed}: the wider beam's work counts");
            checked += 1;
        }
        assert!(checked >= 10, "{checked} boards not cleared at width 16");
    }
}
