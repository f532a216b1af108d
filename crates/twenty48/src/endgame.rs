//! Endgame tables: the exact chance (held in 16 bits) of building a tile in the cells a
//! formation of big tiles leaves free, by dynamic programming over every position play can
//! reach.
//!
//! # What a table holds
//! A [`Formation`] locks six big tiles in fixed cells (the snake `442`, or the 3x2 corner
//! block `L3`); the other ten cells are free (eleven for the five-tile `L5b` and `L5w`). A table for target `T` answers, for a position
//! after a move, the probability that optimal play builds a `T` in the formation's goal
//! cells without ever moving a locked tile, under the spawn rule (a 2 with 0.9, a 4 with 0.1,
//! on a uniformly drawn empty cell). The locked tiles' values do not matter as long as they
//! are distinct and above every free tile, so one table serves every stage where the six
//! largest tiles stand in the formation and the next `T` is to be built: with 512 locked
//! last, the 32768 stage. For `L3` this is exact: a free tile never passes `T`, which ends the
//! line. For `442` and `L3b` (the block, with the target wanted beside its smallest tile) a
//! free `T` away from the goal cells plays on; the build holds `T` itself in
//! the cell beside the goal, as the real board does, but a free `2T` (possible with the slack
//! below 128) would meet the real locked `2T` where the build's stand-in does not merge, so
//! there the value is an estimate.
//!
//! The idea and the two formations follow 2048EndgameTablebase (game-difficulty, its help's
//! sections on patterns and on the forward BFS and backward DP) and macroxue/2048-ai (tables
//! over the cells a fixed formation leaves free). The code is ours.
//!
//! # How it is built
//! 1. **Forward.** Positions are after-move boards with the locked cells cleared, in layers
//!    by the sum of their free tiles (layer `i` holds sum `BASE_SUM + 2 i`; a 2 spawned
//!    moves a position one layer up, a 4 two). Layer 0 is every way to place tiles summing
//!    to `BASE_SUM` (a 4, or two 2s). Each layer is expanded once (every empty cell, a 2 and
//!    a 4, every move that keeps the locked tiles in place), sorted and deduplicated.
//!    Positions where the target stands are not expanded. The last layer holds free-tile
//!    sum `T + slack` ([`SLACK`], 96, unless the build is given another): beyond it a
//!    position counts as a failure.
//! 2. **Backward.** From the last layer down, a position's value is 1 if the target stands,
//!    else the mean over its empty cells of `0.9 max_m V(move m after a 2) + 0.1 max_m
//!    V(move m after a 4)`, where `m` ranges over the moves that change the board and keep
//!    the locked tiles; no such move is worth 0.
//!
//! [`Table::verify_sample`] checks entries against a plain recursive expectimax over the same
//! rules ([`Reference`]), which shares no code with the layered build.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::board::{Board, Dir};
use crate::keyset::{KeySet, KeySetBuilder};
pub use crate::served::FileTable;

/// The free-tile sum of layer 0.
pub const BASE_SUM: u32 = 4;
/// The default slack: the free-tile sum a table holds past its target's own (leftover small
/// tiles), 96, in 48 layers. A table may be built with more ([`Table::layers_for`]); its file
/// says how many layers it has.
pub const SLACK: u32 = 96;
/// The largest slack a table may have (its file is refused past it).
pub const MAX_SLACK: u32 = 1024;

/// A formation of locked big tiles (six, or five for `L5b` and `L5w`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Formation {
    /// Its name: `442`, `L3`, `L3b`, `L5b` or `L5w`.
    pub name: &'static str,
    /// The locked cells (cell `4 * row + col`), largest tile first: the order the tiles
    /// stand in when the formation is built (each locked tile larger than the next).
    pub locked: &'static [usize],
    /// The cells where the built target counts (a bit per cell).
    pub goal: u16,
    /// The locked cell that must hold the smallest locked tile for the table to apply (the
    /// one the goal cell feeds), if any.
    pub smallest_at: Option<usize>,
    /// How many ranks the smallest locked tile stands above the target: 0 when the target
    /// is its twin (built beside it, or anywhere free), 1 for `L5b` (a 512 built where the
    /// sixth block tile goes, below a locked 1024).
    pub above_target: u8,
    /// Caps on the free cells, as ranks below the target (`caps[c]` for cell `c`; a cap
    /// never falls below a 4): a move that leaves a free tile above its cell's cap ends the
    /// line, like a move that shifts a locked tile. `None`: no caps.
    pub caps: Option<[u8; 16]>,
    /// The formation of the table that values a won position, if not 1: the build reads
    /// that formation's table for the same target and values each position where the
    /// target stands by its chance there, with the goal cells locked.
    pub then: Option<&'static str>,
}

impl Formation {
    /// The snake: the bottom row and the two right cells above it locked, the target to be
    /// built at (2,1), beside the smallest locked tile at (2,2).
    pub const SNAKE: Formation = Formation {
        name: "442",
        locked: &[12, 13, 14, 15, 11, 10],
        goal: 1 << 9,
        smallest_at: Some(10),
        above_target: 0,
        caps: None,
        then: None,
    };
    /// The 3x2 corner block: rows 2-3 of columns 1-3 locked; the target counts anywhere free.
    pub const BLOCK: Formation = Formation {
        name: "L3",
        locked: &[15, 14, 13, 9, 10, 11],
        goal: !((1 << 9) | (1 << 10) | (1 << 11) | (1 << 13) | (1 << 14) | (1 << 15)),
        smallest_at: None,
        above_target: 0,
        caps: None,
        then: None,
    };
    /// The 3x2 corner block with the smallest locked tile at (2,1), the cell where our player
    /// keeps it (with the largest in the corner, nearly every late `L3` position): the target
    /// counts only beside it, at (1,1) or (2,0), where one move merges the two.
    pub const BLOCK_BESIDE: Formation = Formation {
        name: "L3b",
        locked: &[15, 14, 13, 10, 11, 9],
        goal: (1 << 5) | (1 << 8),
        smallest_at: Some(9),
        above_target: 0,
        caps: None,
        then: None,
    };
    /// The block's five largest tiles locked (`L3b` without its smallest), eleven cells free:
    /// the stage that builds the sixth, the target at (2,1) below a locked tile twice its
    /// size, where `L3b` wants it. A won position is worth the `L3b` table's chance from it
    /// (the same target), so the table plays for the whole last stage, not for the tile
    /// alone. Eleven free cells hold far more positions than ten (1.68 G for 512 without
    /// caps), so the free tiles are capped, the way macroxue/2048-ai caps its big tables:
    /// the target at (2,1) itself; one rank below it at (1,1) and (2,0), the cells beside it;
    /// two below in the rest of rows 1-3; three below in row 0. For 512: 683 M positions.
    /// As in every table, a position whose free tiles (the built target among them) sum
    /// past the target + its slack ([`SLACK`]) counts as lost, won or not.
    pub const FIVE_BLOCK: Formation = Formation {
        name: "L5b",
        locked: &[15, 14, 13, 10, 11],
        goal: 1 << 9,
        smallest_at: None,
        above_target: 1,
        caps: Some([3, 3, 3, 3, 2, 1, 2, 2, 1, 0, 0, 0, 2, 0, 0, 0]),
        then: Some("L3b"),
    };
    /// The block's five largest tiles locked and the sixth built whole: the target is the
    /// smallest locked tile's twin (in the 32768 stage a 1024, beside the locked 1024), to be
    /// built at (2,1) from what the eleven free cells hold, every smaller tile free to move
    /// until it stands. `L5b` plays the same stage in two tables: its own builds half the
    /// target at (2,1), then `L3b`'s locks that tile there and builds its twin beside it,
    /// ten cells free (the stage where most games lost after 16384 end, journal "Session
    /// 44"). The caps are `L5b`'s, one rank up: the target only at (2,1), half of it at (1,1)
    /// and (2,0), a quarter in the rest of rows 1-3 and an eighth in row 0. Its tables are
    /// sized by [`Table::count`] first.
    pub const FIVE_WHOLE: Formation = Formation {
        name: "L5w",
        locked: &[15, 14, 13, 10, 11],
        goal: 1 << 9,
        smallest_at: None,
        above_target: 0,
        caps: Some([3, 3, 3, 3, 2, 1, 2, 2, 1, 0, 0, 0, 2, 0, 0, 0]),
        then: None,
    };
    /// `L5b` with looser caps, one rank up on eight cells: half the target at (1,1), (2,0),
    /// (3,0) and all of row 1, a quarter in row 0 (the target only at (2,1), as `L5b`). These
    /// are the caps of macroxue/2048-ai's big tables (its `Tuple11` with `BIG_TUPLES`, the
    /// same five cells locked and the same cell to build), whose move at depth 4 reaches
    /// 32768 in 70.7% of games against 55.3% with its small ones; ours, `L5b`, hold a tile
    /// one rank smaller in those eight cells. A won position is worth `L3b`'s chance, as in
    /// `L5b`. Its tables are sized by [`Table::count`] first.
    pub const FIVE_ROOMY: Formation = Formation {
        name: "L5c",
        caps: Some([2, 2, 2, 2, 1, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0]),
        ..Formation::FIVE_BLOCK
    };
    /// Every formation.
    pub const ALL: [Formation; 6] = [
        Formation::SNAKE,
        Formation::BLOCK,
        Formation::BLOCK_BESIDE,
        Formation::FIVE_BLOCK,
        Formation::FIVE_WHOLE,
        Formation::FIVE_ROOMY,
    ];

    /// The formation named `name`.
    pub fn named(name: &str) -> Option<Formation> {
        Formation::ALL.into_iter().find(|f| f.name.eq_ignore_ascii_case(name))
    }

    /// The locked cells as a nibble mask.
    pub fn lock_mask(&self) -> u64 {
        self.locked.iter().fold(0, |m, &c| m | 0xF << (4 * c))
    }

    /// The free cells, in cell order.
    pub fn free_cells(&self) -> Vec<usize> {
        (0..16).filter(|c| !self.locked.contains(c)).collect()
    }

    /// The largest target rank a table of the formation may have. The build's locked
    /// stand-ins are ranks 15 down (to 10 for six), all above every free tile, except that
    /// the cell `smallest_at` (always the last locked cell) holds the target itself: so 1024
    /// (rank 10) where that cell holds the target's twin (`442`, `L3b`: the stand-ins 2048 to
    /// 32768 above it) or where five are locked (`L5b`, `L5w`: the smallest stand-in 2048),
    /// else 512.
    pub fn max_target(&self) -> u8 {
        if self.smallest_at.is_some() {
            MAX_TARGET_RANK
        } else {
            MAX_TARGET_RANK.min(15 - self.locked.len() as u8)
        }
    }

    /// Whether every free tile of `free` is within its cell's cap for `target`.
    pub fn within_caps(&self, target: u8, free: u64) -> bool {
        let Some(caps) = self.caps else { return true };
        caps.iter()
            .enumerate()
            .all(|(c, &d)| ((free >> (4 * c)) & 0xF) as u8 <= target.saturating_sub(d).max(2))
    }

    /// The goal cells as a nibble mask.
    fn goal_mask(&self) -> u64 {
        (0..16).filter(|c| self.goal & (1 << c) != 0).fold(0, |m, c| m | 0xF << (4 * c))
    }

    /// The locked tiles the build plays against: ranks 15, 14, ... in `locked` order,
    /// all above any free tile of a target up to [`Formation::max_target`], except that the
    /// cell `smallest_at` holds the target itself, as in play (so a free target that reaches
    /// it merges, and that move is barred, as it is on the real board).
    fn wall(&self, target: u8) -> u64 {
        self.locked.iter().zip((10..16).rev()).fold(0, |m, (&c, r)| {
            let r = if self.smallest_at == Some(c) { target } else { r };
            m | u64::from(r) << (4 * c)
        })
    }
}

/// The largest target any table may have: 1024 ([`Formation::max_target`]).
pub const MAX_TARGET_RANK: u8 = 10;

/// A built table: every layer's positions, sorted, and their values.
#[derive(Clone, Debug)]
pub struct Table {
    /// The formation.
    pub formation: Formation,
    /// The target's rank.
    pub target: u8,
    /// Layer `i`: positions (free cells only) with free-tile sum `BASE_SUM + 2 i`, at about
    /// 4 bytes a position ([`KeySet`]).
    pub keys: Vec<KeySet>,
    /// Their values, the probability of building the target, each held as a 16-bit fraction
    /// ([`quantize`]; 2 bytes a position).
    pub values: Vec<Vec<u16>>,
}

/// A chance held in 16 bits: `v` x 65,535, rounded to the nearest (0 and 1 are exact, and
/// any other value is within 1/131,070 of `v`). `v` outside `[0, 1]` is clamped.
pub fn quantize(v: f32) -> u16 {
    (f64::from(v.clamp(0.0, 1.0)) * 65_535.0).round() as u16
}

/// The chance [`quantize`] holds as `q`.
pub fn unquantize(q: u16) -> f32 {
    f32::from(q) / 65_535.0
}

/// The outcome of one move looked up in a table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Probe {
    /// The move is illegal or moves a locked tile.
    Barred,
    /// The position after the move, with its probability.
    Known(f32),
    /// The position is not in the table (below its first layer, or not reached from its
    /// seeds).
    Unknown,
}

fn layer_of(free: u64) -> Option<usize> {
    let sum: u32 = (0..16).map(|c| ((free >> (4 * c)) & 0xF) as u32).map(|r| (1 << r) & !1).sum();
    (sum >= BASE_SUM).then(|| ((sum - BASE_SUM) / 2) as usize)
}

fn has_goal(free: u64, goal: u16, target: u8) -> bool {
    (0..16).any(|c| goal & (1 << c) != 0 && (free >> (4 * c)) & 0xF == u64::from(target))
}

/// The after-move positions of `free` (locked cells cleared) after a spawn of `rank` in each
/// empty free cell, each as the list of the positions its allowed moves make.
fn successors(f: &Formation, target: u8, free: u64, rank: u8, mut each: impl FnMut(usize, &[u64])) {
    let mask = f.lock_mask();
    let wall = f.wall(target);
    let mut k = 0;
    for c in 0..16 {
        if mask & (0xF << (4 * c)) != 0 || (free >> (4 * c)) & 0xF != 0 {
            continue;
        }
        let b = Board(free | wall | u64::from(rank) << (4 * c));
        let mut out = [0u64; 4];
        let mut n = 0;
        for d in Dir::ALL {
            if let Ok(m) = b.play(d) {
                if m.board.0 & mask == wall && f.within_caps(target, m.board.0 & !mask) {
                    out[n] = m.board.0 & !mask;
                    n += 1;
                }
            }
        }
        each(k, &out[..n]);
        k += 1;
    }
}

/// The chance node over `free`'s spawns: the mean over its empty cells of 0.9 x the best
/// allowed move after a 2 plus 0.1 x the best after a 4, each position after a move valued
/// by `after_two` or `after_four` (0 where no move is allowed, and 0 with no empty cell).
fn spawn_mean(
    f: &Formation,
    target: u8,
    free: u64,
    after_two: impl Fn(u64) -> f32,
    after_four: impl Fn(u64) -> f32,
) -> f32 {
    let best = |s: &[u64], v: &dyn Fn(u64) -> f32| s.iter().map(|&s| v(s)).fold(0.0, f32::max);
    // The best after a 2, by empty cell (the same cells, in the same order, as the 4s).
    let mut two = [0.0f32; 16];
    successors(f, target, free, 1, |k, s| two[k] = best(s, &after_two));
    let (mut sum, mut cells) = (0.0f64, 0u32);
    successors(f, target, free, 2, |k, s| {
        sum += 0.9 * f64::from(two[k]) + 0.1 * f64::from(best(s, &after_four));
        cells += 1;
    });
    if cells == 0 {
        0.0
    } else {
        (sum / f64::from(cells)) as f32
    }
}

/// A table's positions and their 16-bit chances, wherever they are held: in memory
/// ([`Table`]) or read from the table's file at each lookup ([`FileTable`]). Both answer
/// every lookup with the same value.
pub trait Held {
    /// The formation.
    fn formation(&self) -> &Formation;
    /// The target's rank.
    fn target(&self) -> u8;
    /// The chance stored for `free` in layer `i` (below [`Table::layer_count`]), if the
    /// layer holds the position.
    fn stored(&self, i: usize, free: u64) -> Option<u16>;
    /// The positions in layer `i` (0 past the last layer).
    fn layer_len(&self, i: usize) -> usize;
    /// The number of layers (its target's sum plus its slack, [`Table::layers_for`]).
    fn layers(&self) -> usize;
    /// The `k`-th position of layer `i` in key order (`k` below [`Held::layer_len`]).
    fn position(&self, i: usize, k: usize) -> Option<u64>;

    /// The value of a position (free cells only), if the table holds it: 0 past the last
    /// layer or past a cap, and a won position's 1 without a lookup. A chained table looks
    /// its won positions up like any other (their chances are stored): one its forward pass
    /// never made is not held.
    fn value(&self, free: u64) -> Option<f32> {
        let (f, target) = (self.formation(), self.target());
        if f.then.is_none() && has_goal(free, f.goal, target) {
            return Some(1.0);
        }
        if !f.within_caps(target, free) {
            return Some(0.0);
        }
        let i = layer_of(free)?;
        if i >= self.layers() {
            return Some(0.0);
        }
        self.stored(i, free).map(unquantize)
    }

    /// A position's chance as a chained table's build takes it from this one: the table's
    /// value where it has one; where it holds no such position (a free-tile sum below its
    /// first layer, or a position its forward pass never made), the chance node's mean over
    /// the spawns, each valued the same way, two spawns deep at most (then 0).
    fn chance(&self, free: u64) -> f32 {
        chance_within(self, free, 2)
    }
}

fn chance_within<H: Held + ?Sized>(t: &H, free: u64, depth: u32) -> f32 {
    if let Some(v) = t.value(free) {
        return v;
    }
    if depth == 0 {
        return 0.0;
    }
    let next = |s: u64| chance_within(t, s, depth - 1);
    spawn_mean(t.formation(), t.target(), free, next, next)
}

impl Held for Table {
    fn formation(&self) -> &Formation {
        &self.formation
    }

    fn target(&self) -> u8 {
        self.target
    }

    fn stored(&self, i: usize, free: u64) -> Option<u16> {
        let k = self.keys.get(i)?.find(free)?;
        Some(self.values[i][k])
    }

    fn layer_len(&self, i: usize) -> usize {
        self.keys.get(i).map_or(0, KeySet::len)
    }

    fn layers(&self) -> usize {
        self.keys.len()
    }

    fn position(&self, i: usize, k: usize) -> Option<u64> {
        let layer = self.keys.get(i)?;
        (k < layer.len()).then(|| layer.get(k))
    }
}

/// Checks `count` positions drawn from `t`'s last `top` non-empty layers against
/// [`Reference`] (whose cost grows fast with the layers left above a position); returns the
/// largest difference found between the reference and the chance `t` holds. `then` is the
/// table a chained formation's build read.
pub fn verify_sample(
    t: &dyn Held,
    count: usize,
    top: usize,
    seed: u64,
    then: Option<&(dyn Held + Sync)>,
) -> f64 {
    let mut rng = bits::Rng::new(seed);
    let n = t.layers();
    let mut layers: Vec<usize> = (0..n).filter(|&i| t.layer_len(i) > 0).collect();
    layers.drain(..layers.len().saturating_sub(top));
    let mut reference = Reference::chained(*t.formation(), t.target(), n, then);
    let mut worst = 0.0f64;
    for _ in 0..count {
        let i = layers[rng.below(layers.len() as u64) as usize];
        let k = rng.below(t.layer_len(i) as u64) as usize;
        let held = t.position(i, k).and_then(|p| Some((p, t.stored(i, p)?)));
        let Some((p, v)) = held else { return f64::INFINITY };
        worst = worst.max((reference.value(p) - f64::from(unquantize(v))).abs());
    }
    worst
}

impl Table {
    /// The number of layers of a table for `target` with the default slack ([`SLACK`]).
    pub fn layer_count(target: u8) -> usize {
        Self::layers_for(target, SLACK)
    }

    /// The number of layers of a table for `target` whose last layer holds the free-tile sum
    /// `2^target + slack` (`slack` even).
    pub fn layers_for(target: u8, slack: u32) -> usize {
        ((1usize << target) - BASE_SUM as usize) / 2 + 1 + (slack / 2) as usize
    }

    /// The slack of a table for `target` with `layers` layers ([`Table::layers_for`]'s
    /// inverse), if `layers` is one such a table can have (a slack from 2 to [`MAX_SLACK`]).
    pub fn slack_of(target: u8, layers: usize) -> Option<u32> {
        let base = Self::layers_for(target, 0);
        let extra = layers.checked_sub(base)?;
        (1..=(MAX_SLACK / 2) as usize).contains(&extra).then_some(2 * extra as u32)
    }

    /// The table's slack (see [`Table::layers_for`]).
    pub fn slack(&self) -> u32 {
        Self::slack_of(self.target, self.keys.len()).expect("a table's layers fit its slack")
    }

    /// Builds the table; `progress(pass, layers done, layers, positions so far)` is called
    /// as layers finish (the `"forward"` pass, then `"backward"`), and an error it returns
    /// stops the build. `target` is a rank from 3 (8) to [`Formation::max_target`]. For a
    /// formation whose won positions another table values ([`Formation::then`]), see
    /// [`Table::build_chained`].
    pub fn build<E>(
        f: Formation,
        target: u8,
        progress: impl FnMut(&str, usize, usize, u64) -> Result<(), E>,
    ) -> Result<Table, E> {
        Self::build_chained(f, target, None, progress)
    }

    /// [`Table::build`], with `then` the table that values a won position when the
    /// formation has one ([`Formation::then`]: that formation, the same target).
    pub fn build_chained<E>(
        f: Formation,
        target: u8,
        then: Option<&Table>,
        progress: impl FnMut(&str, usize, usize, u64) -> Result<(), E>,
    ) -> Result<Table, E> {
        Self::build_with(f, target, SLACK, then, progress)
    }

    /// [`Table::build_chained`] with `slack` (even, 2 to [`MAX_SLACK`]) in place of the
    /// default [`SLACK`]: the free-tile sum past the target's that a position may hold.
    pub fn build_with<E>(
        f: Formation,
        target: u8,
        slack: u32,
        then: Option<&Table>,
        progress: impl FnMut(&str, usize, usize, u64) -> Result<(), E>,
    ) -> Result<Table, E> {
        let n = Self::layers_for(target, slack);
        let (keys, exact) = Self::build_exact(f, target, n, then, progress)?;
        // Every layer is valued in full precision first, then held in 16 bits.
        let values = exact.into_iter().map(|v| v.into_iter().map(quantize).collect()).collect();
        Ok(Table { formation: f, target, keys, values })
    }

    /// [`Table::build_chained`]'s layers with their values as the build computes them, in
    /// `f32`, before they are held in 16 bits.
    fn build_exact<E>(
        f: Formation,
        target: u8,
        n: usize,
        then: Option<&Table>,
        mut progress: impl FnMut(&str, usize, usize, u64) -> Result<(), E>,
    ) -> Result<(Vec<KeySet>, Vec<Vec<f32>>), E> {
        assert!((3..=f.max_target()).contains(&target), "target rank {target}");
        assert!(Self::slack_of(target, n).is_some(), "{n} layers for target rank {target}");
        assert_eq!(
            then.map(|t| (t.formation.name, t.target)),
            f.then.map(|name| (name, target)),
            "the table that values a won position"
        );
        let mut keys: Vec<KeySet> = Vec::with_capacity(n);
        let mut total = 0;
        Self::forward(&f, target, n, |i, layer, so_far| {
            // Kept to the end at 4 bytes a position instead of 8.
            keys.push(KeySet::from_sorted(layer));
            total = so_far;
            progress("forward", i + 1, n, total)
        })?;
        let then = then.map(|t| t as &(dyn Held + Sync));
        let mut values: Vec<Vec<f32>> = vec![Vec::new(); n];
        for i in (0..n).rev() {
            let v: Vec<f32> = (0..keys[i].len())
                .into_par_iter()
                .map(|k| Self::value_from(&f, target, then, &keys, &values, i, keys[i].get(k)))
                .collect();
            values[i] = v;
            progress("backward", n - i, n, total)?;
        }
        Ok((keys, values))
    }

    /// The forward pass over `n` layers: every layer's positions, sorted and distinct,
    /// given to `each(i, layer, positions so far)` in order as it is made (then dropped); an
    /// error it returns stops the pass.
    pub(crate) fn forward<E>(
        f: &Formation,
        target: u8,
        n: usize,
        mut each: impl FnMut(usize, &[u64], u64) -> Result<(), E>,
    ) -> Result<(), E> {
        let free_cells = f.free_cells();
        // Layer 0: a 4 in any free cell, or two 2s in any two.
        let mut pending: Vec<Vec<u64>> = vec![Vec::new(); n + 2];
        for (i, &a) in free_cells.iter().enumerate() {
            pending[0].push(2u64 << (4 * a));
            for &b in &free_cells[i + 1..] {
                pending[0].push(1u64 << (4 * a) | 1u64 << (4 * b));
            }
        }
        let mut total = 0u64;
        for i in 0..n {
            let mut layer = std::mem::take(&mut pending[i]);
            layer.par_sort_unstable();
            layer.dedup();
            total += layer.len() as u64;
            let grown: Vec<(Vec<u64>, Vec<u64>)> = layer
                .par_chunks(4096)
                .map(|chunk| {
                    let (mut two, mut four) = (Vec::new(), Vec::new());
                    for &p in chunk {
                        if has_goal(p, f.goal, target) {
                            continue;
                        }
                        successors(f, target, p, 1, |_, s| two.extend_from_slice(s));
                        successors(f, target, p, 2, |_, s| four.extend_from_slice(s));
                    }
                    two.sort_unstable();
                    two.dedup();
                    four.sort_unstable();
                    four.dedup();
                    (two, four)
                })
                .collect();
            for (two, four) in grown {
                pending[i + 1].extend(two);
                pending[i + 2].extend(four);
            }
            each(i, &layer, total)?;
        }
        Ok(())
    }

    /// The positions of each layer a table for `f` and `target` would hold, by the build's
    /// forward pass alone (each layer dropped once counted, so a table far larger than memory
    /// can be sized); `progress(layers done, layers, positions so far)` as layers finish.
    /// `slack` as in [`Table::build_with`].
    pub fn count<E>(
        f: Formation,
        target: u8,
        slack: u32,
        mut progress: impl FnMut(usize, usize, u64) -> Result<(), E>,
    ) -> Result<Vec<u64>, E> {
        assert!((3..=f.max_target()).contains(&target), "target rank {target}");
        let n = Self::layers_for(target, slack);
        assert!(Self::slack_of(target, n) == Some(slack), "slack {slack}");
        let mut sizes = Vec::with_capacity(n);
        Self::forward(&f, target, n, |i, layer, total| {
            sizes.push(layer.len() as u64);
            progress(i + 1, n, total)
        })?;
        Ok(sizes)
    }

    /// A position's value from the layers above it (already valued). A won position is
    /// worth 1, or with `then` its chance there; a chained table holds its won positions
    /// with those values, and past its last layer they count as lost like any other.
    pub(crate) fn value_from(
        f: &Formation,
        target: u8,
        then: Option<&(dyn Held + Sync)>,
        keys: &[KeySet],
        values: &[Vec<f32>],
        i: usize,
        p: u64,
    ) -> f32 {
        if has_goal(p, f.goal, target) {
            return then.map_or(1.0, |t| t.chance(p & !f.goal_mask()));
        }
        let look = |layer: usize, s: u64| -> f32 {
            if then.is_none() && has_goal(s, f.goal, target) {
                return 1.0;
            }
            if layer >= keys.len() {
                return 0.0;
            }
            match keys[layer].find(s) {
                Some(k) => values[layer][k],
                None => unreachable!("a successor the forward pass made is in its layer"),
            }
        };
        spawn_mean(f, target, p, |s| look(i + 1, s), |s| look(i + 2, s))
    }

    /// The positions in the table.
    pub fn len(&self) -> u64 {
        self.keys.iter().map(|l| l.len() as u64).sum()
    }

    /// Whether the table holds no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of a position (free cells only), if the table holds it: 0 past the last
    /// layer or past a cap, and a won position's 1 without a lookup. A chained table looks
    /// its won positions up like any other (their chances are stored): one its forward pass
    /// never made is not held.
    pub fn value(&self, free: u64) -> Option<f32> {
        Held::value(self, free)
    }

    /// A position's chance as a chained table's build takes it from this one: the table's
    /// value where it has one; where it holds no such position (a free-tile sum below its
    /// first layer, or a position its forward pass never made), the chance node's mean over
    /// the spawns, each valued the same way, two spawns deep at most (then 0).
    pub fn chance(&self, free: u64) -> f32 {
        Held::chance(self, free)
    }

    /// Checks `count` positions drawn from the table's last `top` non-empty layers against
    /// [`Reference`] (whose cost grows fast with the layers left above a position);
    /// returns the largest difference found. `then` is the table a chained formation's
    /// build read ([`Table::build_chained`]).
    pub fn verify_sample(&self, count: usize, top: usize, seed: u64, then: Option<&Table>) -> f64 {
        verify_sample(self, count, top, seed, then.map(|t| t as &(dyn Held + Sync)))
    }
}

/// Values of positions by plain recursion over the rules, memoised on the position: the
/// slow twin of [`Table::build`] (it shares only the rules' moves, the engine's, which its
/// gate tests cover). Positions past `layers` layers are worth 0. Its cost grows
/// fast with the layers above a position: for small targets and late positions. For a
/// chained formation a won position inside the horizon is worth the next table's
/// [`Table::chance`].
pub struct Reference<'a> {
    f: Formation,
    target: u8,
    layers: usize,
    then: Option<&'a (dyn Held + Sync)>,
    memo: HashMap<u64, f64>,
}

impl<'a> Reference<'a> {
    /// The reference for `f`, `target` and a horizon of `layers` layers.
    pub fn new(f: Formation, target: u8, layers: usize) -> Reference<'a> {
        Self::chained(f, target, layers, None)
    }

    /// The reference for a chained formation, `then` valuing its won positions.
    pub fn chained(
        f: Formation,
        target: u8,
        layers: usize,
        then: Option<&'a (dyn Held + Sync)>,
    ) -> Self {
        Reference { f, target, layers, then, memo: HashMap::new() }
    }

    /// The value of a position (free cells only).
    pub fn value(&mut self, p: u64) -> f64 {
        let won = has_goal(p, self.f.goal, self.target);
        if won && self.then.is_none() {
            return 1.0;
        }
        match layer_of(p) {
            Some(i) if i < self.layers => {}
            _ => return 0.0,
        }
        if let (true, Some(t)) = (won, self.then) {
            return f64::from(t.chance(p & !self.f.goal_mask()));
        }
        if let Some(&v) = self.memo.get(&p) {
            return v;
        }
        let mut twos: Vec<Vec<u64>> = Vec::new();
        let mut fours: Vec<Vec<u64>> = Vec::new();
        successors(&self.f, self.target, p, 1, |_, s| twos.push(s.to_vec()));
        successors(&self.f, self.target, p, 2, |_, s| fours.push(s.to_vec()));
        let mut best = |s: &[u64]| s.iter().map(|&s| self.value(s)).fold(0.0, f64::max);
        let mut sum = 0.0;
        for (a, b) in twos.iter().zip(&fours) {
            sum += 0.9 * best(a) + 0.1 * best(b);
        }
        let v = if twos.is_empty() { 0.0 } else { sum / twos.len() as f64 };
        self.memo.insert(p, v);
        v
    }
}

/// The eight symmetries of the square, as cell maps: `SYMMETRIES[k][c]` is where cell `c`
/// goes (transpose or not, then mirror the columns or not, then the rows or not).
pub const SYMMETRIES: [[usize; 16]; 8] = {
    let mut out = [[0usize; 16]; 8];
    let mut k = 0;
    while k < 8 {
        let mut c = 0;
        while c < 16 {
            let (mut r, mut col) = (c / 4, c % 4);
            if k & 1 != 0 {
                (r, col) = (col, r);
            }
            if k & 2 != 0 {
                col = 3 - col;
            }
            if k & 4 != 0 {
                r = 3 - r;
            }
            out[k][c] = 4 * r + col;
            c += 1;
        }
        k += 1;
    }
    out
};

fn map_board(b: Board, sym: &[usize; 16]) -> Board {
    (0..16).fold(Board::EMPTY, |m, c| m.with(sym[c], b.rank(c)))
}

/// A table's answer on a board: the move, its chance, and the table that gave it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Advice {
    /// The move.
    pub dir: Dir,
    /// The chance of building the target after it, under optimal play.
    pub chance: f32,
    /// The formation's name.
    pub formation: &'static str,
    /// The target tile.
    pub target: u32,
    /// Every move's chance in the same view (indexed by [`Dir::index`]); `None` for a move
    /// that is illegal or moves a locked tile.
    pub chances: [Option<f32>; 4],
}

/// A loaded table: held in memory, or served from its file.
#[derive(Clone, Debug)]
pub enum Served {
    /// The whole table in memory ([`Table::read_file`]).
    Memory(Table),
    /// Only its index in memory, each lookup read from the file ([`FileTable::open`]).
    File(FileTable),
}

impl Held for Served {
    fn formation(&self) -> &Formation {
        match self {
            Served::Memory(t) => &t.formation,
            Served::File(t) => t.formation(),
        }
    }

    fn target(&self) -> u8 {
        match self {
            Served::Memory(t) => t.target,
            Served::File(t) => t.target(),
        }
    }

    fn stored(&self, i: usize, free: u64) -> Option<u16> {
        match self {
            Served::Memory(t) => t.stored(i, free),
            Served::File(t) => t.stored(i, free),
        }
    }

    fn layer_len(&self, i: usize) -> usize {
        match self {
            Served::Memory(t) => t.layer_len(i),
            Served::File(t) => t.layer_len(i),
        }
    }

    fn layers(&self) -> usize {
        match self {
            Served::Memory(t) => t.layers(),
            Served::File(t) => t.layers(),
        }
    }

    fn position(&self, i: usize, k: usize) -> Option<u64> {
        match self {
            Served::Memory(t) => t.position(i, k),
            Served::File(t) => t.position(i, k),
        }
    }
}

/// Loaded tables, asked once per move before the search (as both references do).
#[derive(Clone, Debug, Default)]
pub struct Tables {
    tables: Vec<Served>,
}

impl Tables {
    /// The tables to consult, held in memory.
    pub fn new(tables: Vec<Table>) -> Tables {
        Tables { tables: tables.into_iter().map(Served::Memory).collect() }
    }

    /// The tables to consult, each in memory or served from its file, in the order given
    /// (where two answer equally, the first).
    pub fn served(tables: Vec<Served>) -> Tables {
        Tables { tables }
    }

    /// The tables held.
    pub fn tables(&self) -> &[Served] {
        &self.tables
    }

    /// The first lookup a table served from its file could not read, if any: its answers
    /// since then were "not held", so a run that used them must not be reported.
    pub fn failure(&self) -> Option<String> {
        self.tables.iter().find_map(|t| match t {
            Served::File(f) => f.failure(),
            Served::Memory(_) => None,
        })
    }

    /// `t`'s value of `free`, and where a chained table does not hold a won position (one
    /// its forward pass never made: the position before the move was not reachable from its
    /// seeds), the chance its build would have stored there, from the next table when it is
    /// loaded: that table's [`Table::chance`] with the goal cells locked.
    fn value(&self, t: &Served, free: u64) -> Option<f32> {
        t.value(free).or_else(|| {
            let f = t.formation();
            let name = f.then?;
            if !has_goal(free, f.goal, t.target()) {
                return None;
            }
            let next = self
                .tables
                .iter()
                .find(|n| n.formation().name == name && n.target() == t.target())?;
            Some(next.chance(free & !f.goal_mask()))
        })
    }

    /// The table's move on `board`, when a table applies: the formation's count of largest
    /// tiles (six, or five) are distinct, every other tile is smaller than the table's
    /// target, the smallest of them is the target (for `L5w` too; for `L5b`, its double), and in one
    /// of the eight symmetric views they stand in that table's locked cells (the smallest
    /// where the formation wants it). Every legal move that keeps them in place must be in
    /// the table (else no answer from it; a won position a chained table does not hold is
    /// valued from the next table when that is loaded), and the best must have a chance
    /// above 0. Where several tables answer, one with more free cells wins, then the higher
    /// chance.
    pub fn advise(&self, board: Board) -> Option<Advice> {
        let mut ranks: Vec<u8> = (0..16).map(|c| board.rank(c)).collect();
        ranks.sort_unstable_by(|a, b| b.cmp(a));
        let mut best: Option<Advice> = None;
        let mut best_locked = usize::MAX;
        for t in &self.tables {
            let f = t.formation();
            let n = f.locked.len();
            let big = &ranks[..n];
            let smallest = big[n - 1];
            if big.windows(2).any(|w| w[0] <= w[1])
                || ranks[n] >= t.target()
                || smallest != t.target() + f.above_target
            {
                continue;
            }
            let mask = f.lock_mask();
            for sym in &SYMMETRIES {
                let view = map_board(board, sym);
                let locked_big = f.locked.iter().all(|&c| view.rank(c) >= smallest);
                let placed = f.smallest_at.is_none_or(|c| view.rank(c) == smallest);
                if !locked_big || !placed {
                    continue;
                }
                let wall = view.0 & mask;
                let mut answer: Option<(Dir, f32)> = None;
                let mut chances = [None; 4];
                let mut known = true;
                for d in Dir::ALL {
                    let Ok(m) = board.play(d) else { continue };
                    let after = map_board(m.board, sym);
                    if after.0 & mask != wall {
                        continue;
                    }
                    match self.value(t, after.0 & !mask) {
                        Some(v) => {
                            chances[d.index()] = Some(v);
                            if answer.is_none_or(|(_, a)| v > a) {
                                answer = Some((d, v));
                            }
                        }
                        None => known = false,
                    }
                }
                if let (true, Some((dir, chance))) = (known, answer) {
                    let better = n < best_locked || best.is_none_or(|b| chance > b.chance);
                    if chance > 0.0 && n <= best_locked && better {
                        let target = 1 << t.target();
                        best = Some(Advice { dir, chance, formation: f.name, target, chances });
                        best_locked = n;
                    }
                }
            }
        }
        best
    }
}

/// The first bytes of a table file (the current form, [`Table::encode`]).
pub const MAGIC: &[u8; 8] = b"B48END02";

/// The first bytes of a table file in the first form (every key as a `u64`, every value an
/// `f32`: 12 bytes a position), which [`Table::decode`] still reads.
pub const MAGIC_V1: &[u8; 8] = b"B48END01";

/// Why a table file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableFileError(pub String);

impl std::fmt::Display for TableFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TableFileError {}

impl Table {
    /// The file form: [`MAGIC`], the formation's name (length-prefixed), the target rank, the
    /// layer count (`u32`), then every layer as its position count (`u64`), its run count
    /// (`u32`), and the [`KeySet`]'s parts (`u32`s: the runs' high halves, their first
    /// indices, every position's low half) and the values (`u16`s, [`quantize`]); all
    /// little-endian; the FNV-1a 64 of all that last ([`bits::sealed`]). About 6 bytes a
    /// position.
    pub fn encode(&self) -> Vec<u8> {
        self.write_to(Vec::with_capacity(self.file_size() as usize))
            .expect("a Vec takes every write")
    }

    /// The length of the file form, in bytes.
    pub fn file_size(&self) -> u64 {
        let name = self.formation.name.len() as u64;
        let runs: u64 = self.keys.iter().map(|k| k.parts().0.len() as u64).sum();
        8 + 1 + name + 1 + 4 + 12 * self.keys.len() as u64 + 8 * runs + 6 * self.len() + 8
    }

    /// Writes [`Table::encode`]'s bytes to `w` a block at a time, so a table is written
    /// without a second copy of it in memory; returns `w`.
    pub fn write_to<W: std::io::Write>(&self, w: W) -> std::io::Result<W> {
        let mut s = bits::sealed::SealedWriter::new(w);
        write_head(&mut s, &self.formation, self.target, self.keys.len())?;
        for (k, v) in self.keys.iter().zip(&self.values) {
            write_layer_keys(&mut s, k)?;
            s.write_u16s(v)?;
        }
        s.finish()
    }

    /// Reads [`Table::encode`]'s form (or the first form, [`MAGIC_V1`], its values held in
    /// 16 bits as they are read), checking the checksum, the formation, the target and that
    /// every layer is sorted (and in the first form every value a probability).
    pub fn decode(bytes: &[u8]) -> Result<Table, TableFileError> {
        let body = bits::sealed::unseal(bytes).map_err(|e| TableFileError(e.to_string()))?;
        Self::parse(body, body.len(), READ_BLOCK)
    }

    /// [`Table::decode`] of the file at `path`, read once, a block at a time, the checksum
    /// computed as the table is read (so the file's bytes are never held beside it). A
    /// checksum that does not match is the error, whatever else the body holds, as in
    /// [`Table::decode`].
    pub fn read_file(path: &std::path::Path) -> Result<Table, TableFileError> {
        Self::read_file_sealed(path).map(|(t, _)| t)
    }

    /// [`Table::read_file`] with the file's checksum (FNV-1a 64 of its body, its last 8
    /// bytes, checked as it was read): what names the file's exact contents in a report
    /// (two builds of one table are the same file exactly when their checksums agree).
    pub fn read_file_sealed(path: &std::path::Path) -> Result<(Table, u64), TableFileError> {
        read_sealed(path, |r, len| Self::parse(r, len, READ_BLOCK)).map(|(t, _, sum)| (t, sum))
    }

    /// The table in a file's body (`len` bytes; the caller checks the checksum), read
    /// `block` bytes at a time (a multiple of 8).
    fn parse(r: impl std::io::Read, len: usize, block: usize) -> Result<Table, TableFileError> {
        let bad = |m: String| TableFileError(m);
        let mut body = Body { r, at: 0, len, buf: vec![0u8; block] };
        let (v1, formation, target, n) = body.header()?;
        let (mut keys, mut values) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for i in 0..n {
            let count = body.u64("layer size")?;
            let per = if v1 { 12 } else { 6 };
            if count > (len - body.at) as u64 / per {
                return Err(bad(format!("layer {i}: {count} positions, past the end")));
            }
            let count = count as usize;
            let layer = if v1 { body.layer_v1(count)? } else { body.layer(count)? };
            let (k, v) = layer.map_err(|e| bad(format!("layer {i}: {e}")))?;
            keys.push(k);
            values.push(v);
        }
        if body.at < len {
            return Err(bad(format!("{} bytes after the last layer", len - body.at)));
        }
        Ok(Table { formation, target, keys, values })
    }
}

/// The file form's head ([`Table::encode`]): the magic, the formation's name, the target
/// and the layer count (its target's and its slack's, [`Table::layers_for`]).
pub(crate) fn write_head<W: std::io::Write>(
    s: &mut bits::sealed::SealedWriter<W>,
    f: &Formation,
    target: u8,
    layers: usize,
) -> std::io::Result<()> {
    use std::io::Write;
    s.write_all(MAGIC)?;
    s.write_all(&[f.name.len() as u8])?;
    s.write_all(f.name.as_bytes())?;
    s.write_all(&[target])?;
    s.write_all(&(layers as u32).to_le_bytes())
}

/// A layer's positions in the file form: their count, the run count and the key set's
/// parts (its chances follow).
pub(crate) fn write_layer_keys<W: std::io::Write>(
    s: &mut bits::sealed::SealedWriter<W>,
    k: &KeySet,
) -> std::io::Result<()> {
    use std::io::Write;
    let (highs, starts, lows) = k.parts();
    s.write_all(&(k.len() as u64).to_le_bytes())?;
    s.write_all(&(highs.len() as u32).to_le_bytes())?;
    s.write_u32s(highs)?;
    s.write_u32s(starts)?;
    s.write_u32s(lows)
}

/// Opens the table file at `path` (a regular file) and reads its body once, a block at a
/// time, through `parse(reader, body length)`, computing the checksum as it goes: a
/// checksum that does not match is the error whatever `parse` returned. Returns `parse`'s
/// value, the open file and its checksum.
pub(crate) fn read_sealed<T>(
    path: &std::path::Path,
    parse: impl FnOnce(&mut dyn std::io::Read, usize) -> Result<T, TableFileError>,
) -> Result<(T, std::fs::File, u64), TableFileError> {
    use std::io::Read;
    let io = |e: std::io::Error| TableFileError(format!("cannot read: {e}"));
    let file = std::fs::File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        // A pipe reports no length, and the body's length is what bounds the parse.
        return Err(TableFileError("not a regular file (a table is read from disk)".into()));
    }
    let len = meta.len();
    let mut reader = std::io::BufReader::with_capacity(1 << 20, file.try_clone().map_err(io)?);
    if len < 8 {
        // Too short to hold a checksum: the error `unseal` gives.
        let mut all = Vec::new();
        reader.read_to_end(&mut all).map_err(io)?;
        let e = bits::sealed::unseal(&all).expect_err("under 8 bytes");
        return Err(TableFileError(e.to_string()));
    }
    let body = len - 8;
    let mut hashing = Hashing { r: reader.take(body), fnv: bits::Fnv::new() };
    let parsed = parse(&mut hashing, body as usize);
    // What the parse left unread (all of it after a defect) still counts in the sum.
    std::io::copy(&mut hashing, &mut std::io::sink()).map_err(io)?;
    let computed = hashing.fnv.finish();
    let mut tail = [0u8; 8];
    hashing.r.into_inner().read_exact(&mut tail).map_err(io)?;
    let stored = u64::from_le_bytes(tail);
    if stored != computed {
        let e = bits::sealed::BadChecksum { stored, computed };
        return Err(TableFileError(e.to_string()));
    }
    Ok((parsed?, file, stored))
}

/// Bytes a read takes at a time: 16,384 `u64` keys, 32,768 `u32`s or 65,536 `u16` values.
pub(crate) const READ_BLOCK: usize = 1 << 17;

/// A reader that hashes what it reads (FNV-1a 64, as [`bits::sealed`] seals).
struct Hashing<R> {
    r: R,
    fnv: bits::Fnv,
}

impl<R: std::io::Read> std::io::Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.r.read(buf)?;
        self.fnv.write(&buf[..n]);
        Ok(n)
    }
}

/// A file body read in order, `at` of its `len` bytes read so far; `buf` is a block's room.
pub(crate) struct Body<R> {
    pub(crate) r: R,
    pub(crate) at: usize,
    pub(crate) len: usize,
    pub(crate) buf: Vec<u8>,
}

/// A layer's defect, or the file's (a [`TableFileError`] as a string).
type LayerResult<T> = Result<T, String>;

impl<R: std::io::Read> Body<R> {
    /// The file's header: its form (`true` for the first, [`MAGIC_V1`]), formation,
    /// target and layer count, checked against the target's (a slack from 2 to
    /// [`MAX_SLACK`]; the first form has only the default [`SLACK`]).
    pub(crate) fn header(&mut self) -> Result<(bool, Formation, u8, usize), TableFileError> {
        let bad = |m: String| TableFileError(m);
        let body = self;
        let mut magic = [0u8; 8];
        body.take(&mut magic, "magic")?;
        let v1 = match &magic {
            m if m == MAGIC => false,
            m if m == MAGIC_V1 => true,
            _ => return Err(bad("not an endgame table (bad magic)".into())),
        };
        let mut byte = [0u8; 1];
        body.take(&mut byte, "name length")?;
        let mut name = vec![0u8; byte[0] as usize];
        body.take(&mut name, "formation name")?;
        let name = std::str::from_utf8(&name).map_err(|_| bad("formation name".into()))?;
        let formation =
            Formation::named(name).ok_or_else(|| bad(format!("unknown formation {name:?}")))?;
        body.take(&mut byte, "target")?;
        let target = byte[0];
        if !(3..=formation.max_target()).contains(&target) {
            return Err(bad(format!("target rank {target} out of range for {name}")));
        }
        let n = body.u32("layer count")? as usize;
        let fits =
            if v1 { n == Table::layer_count(target) } else { Table::slack_of(target, n).is_some() };
        if !fits {
            let (least, most) = if v1 {
                (Table::layer_count(target), Table::layer_count(target))
            } else {
                (Table::layers_for(target, 2), Table::layers_for(target, MAX_SLACK))
            };
            return Err(bad(format!(
                "{n} layers, a target of {} has {least} to {most}",
                1 << target
            )));
        }
        Ok((v1, formation, target, n))
    }

    /// Fills `buf` with the next bytes; running out is [`bits::sealed::Truncated`] naming
    /// `part`, as [`bits::sealed::Reader`] says it.
    pub(crate) fn take(
        &mut self,
        buf: &mut [u8],
        part: &'static str,
    ) -> Result<(), TableFileError> {
        let cut = || TableFileError(bits::sealed::Truncated { part, len: self.len }.to_string());
        if self.at.checked_add(buf.len()).is_none_or(|e| e > self.len) {
            return Err(cut());
        }
        self.r.read_exact(buf).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => cut(),
            _ => TableFileError(format!("cannot read: {e}")),
        })?;
        self.at += buf.len();
        Ok(())
    }

    pub(crate) fn u32(&mut self, part: &'static str) -> Result<u32, TableFileError> {
        let mut b = [0u8; 4];
        self.take(&mut b, part)?;
        Ok(u32::from_le_bytes(b))
    }

    pub(crate) fn u64(&mut self, part: &'static str) -> Result<u64, TableFileError> {
        let mut b = [0u8; 8];
        self.take(&mut b, part)?;
        Ok(u64::from_le_bytes(b))
    }

    /// `count` values of `N` bytes each, a block at a time, each pushed as `push` makes it
    /// from its little-endian bytes (`false` stops the read: the value is refused).
    pub(crate) fn each<const N: usize>(
        &mut self,
        count: usize,
        part: &'static str,
        mut push: impl FnMut([u8; N]) -> bool,
    ) -> Result<bool, TableFileError> {
        let mut buf = std::mem::take(&mut self.buf);
        let mut read = 0;
        let mut ok = true;
        while read < count && ok {
            let m = (count - read).min(buf.len() / N);
            let r = self.take(&mut buf[..N * m], part);
            if let Err(e) = r {
                self.buf = buf;
                return Err(e);
            }
            ok = buf[..N * m].chunks_exact(N).all(|c| push(c.try_into().expect("N bytes")));
            read += m;
        }
        self.buf = buf;
        Ok(ok)
    }

    pub(crate) fn u32s(
        &mut self,
        count: usize,
        part: &'static str,
    ) -> Result<Vec<u32>, TableFileError> {
        let mut out = Vec::with_capacity(count);
        self.each::<4>(count, part, |b| {
            out.push(u32::from_le_bytes(b));
            true
        })?;
        Ok(out)
    }

    /// A layer of `count` positions in the current form (its count read, and checked to fit).
    fn layer(&mut self, count: usize) -> Result<LayerResult<(KeySet, Vec<u16>)>, TableFileError> {
        let runs = self.u32("run count")? as usize;
        if runs > count {
            return Ok(Err(format!("{runs} runs for {count} positions")));
        }
        if (8 * runs + 6 * count) as u64 > (self.len - self.at) as u64 {
            return Ok(Err(format!("{runs} runs and {count} positions, past the end")));
        }
        let highs = self.u32s(runs, "high halves")?;
        let starts = self.u32s(runs, "run starts")?;
        let lows = self.u32s(count, "keys")?;
        let mut values = Vec::with_capacity(count);
        self.each::<2>(count, "values", |b| {
            values.push(u16::from_le_bytes(b));
            true
        })?;
        Ok(KeySet::from_parts(highs, starts, lows).map(|k| (k, values)))
    }

    /// A layer of `count` positions in the first form: `u64` keys, `f32` values.
    fn layer_v1(
        &mut self,
        count: usize,
    ) -> Result<LayerResult<(KeySet, Vec<u16>)>, TableFileError> {
        let mut k = KeySetBuilder::with_capacity(count);
        if !self.each::<8>(count, "keys", |b| k.push(u64::from_le_bytes(b)))? {
            return Ok(Err("keys not sorted".into()));
        }
        let mut values = Vec::with_capacity(count);
        let ok = self.each::<4>(count, "values", |b| {
            let v = f32::from_le_bytes(b);
            values.push(quantize(v));
            (0.0..=1.0).contains(&v)
        })?;
        if !ok {
            return Ok(Err("a value outside [0, 1]".into()));
        }
        Ok(Ok((k.finish(), values)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_symmetries_are_the_eight_of_the_square() {
        let b: Board =
            "2 4 8 16/32 64 128 256/512 1024 2048 4096/8192 16384 32768 .".parse().unwrap();
        let all: std::collections::HashSet<u64> =
            SYMMETRIES.iter().map(|s| map_board(b, s).0).collect();
        assert_eq!(all.len(), 8);
        assert!(all.contains(&b.transpose().0));
    }

    /// The tables of one small table, built without progress reports.
    fn one_table(f: Formation, target: u8) -> Tables {
        Tables::new(vec![Table::build(f, target, |_, _, _, _| Ok::<(), ()>(())).unwrap()])
    }

    #[test]
    fn a_table_advises_in_every_symmetric_view() {
        let tables = one_table(Formation::SNAKE, 4);
        // Snake: 4096 2048 1024 512 along the bottom, 256 and 16 above its right end; a 16 to
        // build at row 3, column 2 from the 8 and the 8-to-be.
        let b: Board = ". . . ./. . . 2/2 8 16 256/4096 2048 1024 512".parse().unwrap();
        let a = tables.advise(b).expect("the snake stands");
        assert!(a.chance > 0.5, "{a:?}");
        assert_eq!((a.formation, a.target), ("442", 16));
        // The same position turned and mirrored gets the same chance and the mapped move.
        for sym in &SYMMETRIES {
            let m = map_board(b, sym);
            let am = tables.advise(m).expect("every view");
            assert_eq!(am.chance, a.chance);
            let moved = map_board(b.play(a.dir).unwrap().board, sym);
            assert_eq!(m.play(am.dir).unwrap().board, moved);
        }
        // Not a formation: the smallest big tile is not beside the goal cell, or two big
        // tiles are equal, or a free tile is as large as a locked one.
        for s in [
            ". . . ./. . . 2/2 8 256 16/4096 2048 1024 512",
            ". . . ./. . . 2/2 8 16 512/4096 2048 1024 512",
            ". . . ./. . . 2/2 32 16 256/4096 2048 1024 512",
        ] {
            assert_eq!(tables.advise(s.parse().unwrap()), None, "{s}");
        }
    }

    #[test]
    fn the_beside_block_wants_its_smallest_at_row_2_column_1_and_the_target_beside_it() {
        let tables = one_table(Formation::BLOCK_BESIDE, 4);
        // The 16 at (2,1), the largest in the corner; a down move merges the 8s into a 16
        // at (2,0), beside it: certain.
        let b: Board = ". . . ./8 . . ./8 16 512 1024/2 2048 4096 8192".parse().unwrap();
        let a = tables.advise(b).expect("the block stands");
        assert_eq!((a.formation, a.target, a.dir, a.chance), ("L3b", 16, Dir::Down, 1.0));
        // Every move's chance: left changes nothing and up lifts the locked 2048 (none);
        // right keeps the block.
        assert_eq!(a.chances[Dir::Down.index()], Some(1.0));
        assert_eq!((a.chances[Dir::Left.index()], a.chances[Dir::Up.index()]), (None, None));
        assert!(a.chances[Dir::Right.index()].is_some(), "{a:?}");
        // The goal is only beside it: a 16 at (1,1) or (2,0) is a won position, one at
        // (0,0) is not one yet.
        let t = &tables.tables()[0];
        assert_eq!(t.value(4 << 20 | 1 << 40), Some(1.0));
        assert_eq!(t.value(4 << 32 | 1 << 40), Some(1.0));
        assert!(!has_goal(4 | 1 << 40, Formation::BLOCK_BESIDE.goal, 4));
        // The smallest elsewhere in the block: no answer (the L3 table would give one).
        for s in [
            ". . . ./8 . . ./8 512 16 1024/2 2048 4096 8192",
            ". . . ./8 . . ./8 1024 512 16/2 2048 4096 8192",
        ] {
            assert_eq!(tables.advise(s.parse().unwrap()), None, "{s}");
        }
    }

    /// Every position of the formation's tables for 8 and 16 (and for 16 with a slack of 40
    /// instead of 96) against the plain recursion, and the file form round trip (one test
    /// per formation, so the test threads share them).
    fn small_tables_equal_the_plain_recursion_everywhere(f: Formation) {
        for (target, slack) in [(3u8, SLACK), (4, SLACK), (4, 40)] {
            let then = f.then.map(|name| {
                let g = Formation::named(name).unwrap();
                Table::build(g, target, |_, _, _, _| Ok::<(), ()>(())).unwrap()
            });
            let none = |_: &str, _, _, _| Ok::<(), ()>(());
            let t = Table::build_with(f, target, slack, then.as_ref(), none).unwrap();
            let n = Table::layers_for(target, slack);
            let (keys, exact) = Table::build_exact(f, target, n, then.as_ref(), none).unwrap();
            assert!(!t.is_empty());
            assert_eq!((&keys, t.slack()), (&t.keys, slack));
            let mut checked = 0;
            let then_held = then.as_ref().map(|t| t as &(dyn Held + Sync));
            let mut reference = Reference::chained(f, target, t.keys.len(), then_held);
            for (i, layer) in t.keys.iter().enumerate() {
                for (k, p) in layer.iter().enumerate() {
                    let want = reference.value(p);
                    let got = f64::from(exact[i][k]);
                    assert!((want - got).abs() < 1e-5, "{} {target} {p:#x}: {got} {want}", f.name);
                    // Held in 16 bits: the nearest of 65,536 steps to the build's value.
                    assert_eq!(t.values[i][k], quantize(exact[i][k]));
                    let held = f64::from(t.value(p).unwrap());
                    assert!((want - held).abs() < 1e-5 + 0.5 / 65_535.0, "{p:#x}: {held} {want}");
                    checked += 1;
                }
            }
            assert!(checked > 100, "{checked}");
            let back = Table::decode(&t.encode()).unwrap();
            assert_eq!(back.slack(), slack);
            assert_eq!((back.keys, back.values), (t.keys.clone(), t.values.clone()));
            let mut bytes = t.encode();
            bytes[20] ^= 1;
            assert!(Table::decode(&bytes).unwrap_err().0.contains("checksum"));
        }
    }

    #[test]
    fn small_snake_tables_equal_the_plain_recursion_everywhere() {
        small_tables_equal_the_plain_recursion_everywhere(Formation::SNAKE);
    }

    #[test]
    fn small_block_tables_equal_the_plain_recursion_everywhere() {
        small_tables_equal_the_plain_recursion_everywhere(Formation::BLOCK);
    }

    #[test]
    fn small_block_beside_tables_equal_the_plain_recursion_everywhere() {
        small_tables_equal_the_plain_recursion_everywhere(Formation::BLOCK_BESIDE);
    }

    #[test]
    fn small_five_block_tables_equal_the_plain_recursion_everywhere() {
        small_tables_equal_the_plain_recursion_everywhere(Formation::FIVE_BLOCK);
    }

    #[test]
    fn small_five_whole_tables_equal_the_plain_recursion_everywhere() {
        small_tables_equal_the_plain_recursion_everywhere(Formation::FIVE_WHOLE);
    }

    #[test]
    fn small_five_roomy_tables_equal_the_plain_recursion_everywhere() {
        small_tables_equal_the_plain_recursion_everywhere(Formation::FIVE_ROOMY);
    }

    #[test]
    fn the_count_is_the_number_of_positions_the_build_holds() {
        let cases = [
            (Formation::BLOCK_BESIDE, 5, SLACK),
            (Formation::FIVE_WHOLE, 5, SLACK),
            (Formation::BLOCK_BESIDE, 5, 150),
        ];
        for (f, target, slack) in cases {
            let t =
                Table::build_with(f, target, slack, None, |_, _, _, _| Ok::<(), ()>(())).unwrap();
            let mut seen = 0;
            let sizes = Table::count(f, target, slack, |done, n, _| {
                seen = done;
                assert_eq!(n, t.keys.len());
                Ok::<(), ()>(())
            })
            .unwrap();
            let held: Vec<u64> = t.keys.iter().map(|k| k.len() as u64).collect();
            assert_eq!((sizes, seen), (held, t.keys.len()), "{}", f.name);
        }
    }

    #[test]
    fn the_five_block_keeps_its_caps_and_values_a_won_position_by_the_next_table() {
        let f = Formation::FIVE_BLOCK;
        let target = 4;
        let next =
            Table::build(Formation::BLOCK_BESIDE, target, |_, _, _, _| Ok::<(), ()>(())).unwrap();
        let t =
            Table::build_chained(f, target, Some(&next), |_, _, _, _| Ok::<(), ()>(())).unwrap();
        // Every position keeps its caps: for 16, a 16 only at (2,1), 8s only beside it, 4s
        // and 2s elsewhere.
        let mut won = 0;
        for (i, layer) in t.keys.iter().enumerate() {
            for (k, p) in layer.iter().enumerate() {
                assert!(f.within_caps(target, p), "{p:#x}");
                assert_eq!(p & f.lock_mask(), 0);
                if has_goal(p, f.goal, target) {
                    // A won position is worth the L3b table's chance with the 16 locked.
                    assert_eq!(t.values[i][k], quantize(next.chance(p & !(0xF << 36))), "{p:#x}");
                    assert_eq!(t.value(p), Some(unquantize(t.values[i][k])));
                    won += 1;
                }
            }
        }
        assert!(won > 100, "{won}");
        // Past a cap: worth 0 without a lookup (an 8 in row 0, a 16 at (1,1)).
        assert_eq!(t.value(3 | 1 << 36), Some(0.0));
        assert_eq!(t.value(4 << 20), Some(0.0));
        assert!(f.within_caps(target, 2 | 3 << 20 | 4 << 36));
        // The chance after the 16 stands is below 1 (the L3b stage is still to play), and a
        // position a move from it is worth less than that stage's best start.
        let best_won = (0..t.keys.len())
            .flat_map(|i| t.keys[i].iter().zip(&t.values[i]).map(|(p, &v)| (p, v)))
            .filter(|&(p, _)| has_goal(p, f.goal, target))
            .map(|(_, v)| unquantize(v))
            .fold(0.0, f32::max);
        assert!(best_won > 0.5 && best_won <= 1.0, "{best_won}");
    }

    #[test]
    fn the_five_block_answers_before_the_six_and_not_once_its_tile_stands() {
        let target = 4;
        let next =
            Table::build(Formation::BLOCK_BESIDE, target, |_, _, _, _| Ok::<(), ()>(())).unwrap();
        let five =
            Table::build_chained(Formation::FIVE_BLOCK, target, Some(&next), |_, _, _, _| {
                Ok::<(), ()>(())
            })
            .unwrap();
        let small =
            Table::build(Formation::BLOCK_BESIDE, 3, |_, _, _, _| Ok::<(), ()>(())).unwrap();
        let tables = Tables::new(vec![small, next, five]);
        // 512 1024 2048 4096 8192 in the block, an 8 at (2,1): L3b's 8 table applies (the
        // six largest stand in the block, the smallest an 8) and so does L5b's for 16 (the
        // five largest, the smallest 32, every other tile below 16): L5b answers.
        let b: Board = ". . . ./2 . . ./. 8 32 64/2 128 256 512".parse().unwrap();
        let a = tables.advise(b).expect("the block stands");
        assert_eq!((a.formation, a.target), ("L5b", 16), "{a:?}");
        for sym in &SYMMETRIES {
            let m = map_board(b, sym);
            let am = tables.advise(m).expect("every view");
            assert_eq!((am.formation, am.chance), (a.formation, a.chance));
            let moved = map_board(b.play(a.dir).unwrap().board, sym);
            assert_eq!(m.play(am.dir).unwrap().board, moved);
        }
        // It is L5b's own answer: its table alone gives the same.
        let alone = Tables::served(vec![tables.tables()[2].clone()]);
        assert_eq!(alone.advise(b), Some(a));
        // L3b's 8 table alone answers too, for the 8, with another chance.
        let eight = Tables::served(vec![tables.tables()[0].clone()]);
        let e = eight.advise(b).expect("the six stand");
        assert_eq!((e.formation, e.target), ("L3b", 8), "{e:?}");
        // With the 16 at (2,1) the L3b table for 16 answers, not L5b.
        let b: Board = ". . . ./2 . . ./. 16 32 64/2 128 256 512".parse().unwrap();
        let a = tables.advise(b).expect("the six stand");
        assert_eq!((a.formation, a.target), ("L3b", 16), "{a:?}");
        // An 8 in row 0 breaks L5b's cap there (4 for a 16), but a move that takes it down
        // to (2,0) keeps the caps: L5b answers with that move.
        let b: Board = "8 . . ./2 . . ./. 8 32 64/2 128 256 512".parse().unwrap();
        let a = tables.advise(b).expect("down mends the cap");
        assert_eq!((a.formation, a.dir), ("L5b", Dir::Down), "{a:?}");
        // In the right column no move mends it: every L5b move is worth 0, and with two 8s
        // the L3b table for 8 does not apply either.
        let b: Board = ". . . 8/2 . . ./. 8 32 64/2 128 256 512".parse().unwrap();
        assert_eq!(tables.advise(b), None);
    }

    /// The file form written field by field, the plain way: the reference for the block
    /// writer.
    fn plain_encode(t: &Table) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.push(t.formation.name.len() as u8);
        out.extend_from_slice(t.formation.name.as_bytes());
        out.push(t.target);
        out.extend_from_slice(&(t.keys.len() as u32).to_le_bytes());
        for (k, v) in t.keys.iter().zip(&t.values) {
            // The distinct high halves and where each one's keys start, from the keys alone.
            let keys: Vec<u64> = k.iter().collect();
            let mut runs: Vec<(u32, u32)> = Vec::new();
            for (i, &key) in keys.iter().enumerate() {
                if runs.last().is_none_or(|&(h, _)| h != (key >> 32) as u32) {
                    runs.push(((key >> 32) as u32, i as u32));
                }
            }
            out.extend_from_slice(&(keys.len() as u64).to_le_bytes());
            out.extend_from_slice(&(runs.len() as u32).to_le_bytes());
            runs.iter().for_each(|r| out.extend_from_slice(&r.0.to_le_bytes()));
            runs.iter().for_each(|r| out.extend_from_slice(&r.1.to_le_bytes()));
            keys.iter().for_each(|&x| out.extend_from_slice(&(x as u32).to_le_bytes()));
            v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        }
        bits::sealed::seal(out)
    }

    /// The first file form (`u64` keys, `f32` values) of a build's layers in full precision,
    /// as the builds before 16-bit values wrote it.
    fn plain_encode_v1(f: Formation, target: u8, keys: &[KeySet], values: &[Vec<f32>]) -> Vec<u8> {
        let mut out = MAGIC_V1.to_vec();
        out.push(f.name.len() as u8);
        out.extend_from_slice(f.name.as_bytes());
        out.push(target);
        out.extend_from_slice(&(keys.len() as u32).to_le_bytes());
        for (k, v) in keys.iter().zip(values) {
            out.extend_from_slice(&(k.len() as u64).to_le_bytes());
            k.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
            v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        }
        bits::sealed::seal(out)
    }

    /// `bytes` without their checksum, changed by `edit`, sealed again.
    fn resealed(bytes: &[u8], edit: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
        let mut b = bytes[..bytes.len() - 8].to_vec();
        edit(&mut b);
        bits::sealed::seal(b)
    }

    /// Every case's error from the file reader equals the in-memory reader's and names it.
    fn both_readers_name(path: &std::path::Path, cases: &[(Vec<u8>, &str)]) {
        for (i, (b, want)) in cases.iter().enumerate() {
            std::fs::write(path, b).unwrap();
            let file = Table::read_file(path).unwrap_err().0;
            let memory = Table::decode(b).unwrap_err().0;
            assert_eq!(file, memory, "case {i}");
            // Served from the file: the same error, but that a sound first-form file is
            // refused as such.
            let served = FileTable::open(path).unwrap_err().0;
            let first_form = b.starts_with(MAGIC_V1) && served.contains("first-form");
            assert!(served == file || first_form, "case {i}: {served}");
            assert!(file.contains(want), "case {i}: {file}");
        }
    }

    #[test]
    fn a_table_file_is_written_and_read_a_block_at_a_time_as_in_memory() {
        // Target 32: layers of up to a few thousand keys, each within one block of the writer
        // (16,384 values) and of the reader (128 KiB); the file read crosses its 1 MiB
        // buffer, and the 24-byte reads below take many passes a layer.
        let none = |_: &str, _, _, _| Ok::<(), ()>(());
        let t = Table::build(Formation::BLOCK_BESIDE, 5, none).unwrap();
        let bytes = t.encode();
        assert_eq!(bytes, plain_encode(&t));
        assert_eq!(bytes.len() as u64, t.file_size());
        assert!(bytes.len() > 2 << 20, "{} bytes: more than the read buffer", bytes.len());
        assert!(bytes.len() < 7 * t.len() as usize, "{} bytes, {} positions", bytes.len(), t.len());
        let dir = std::env::temp_dir().join(format!("b48t-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.b48t");
        std::fs::write(&path, &bytes).unwrap();
        let back = Table::read_file(&path).unwrap();
        assert_eq!((back.formation, back.target), (t.formation, t.target));
        assert_eq!((&back.keys, &back.values), (&t.keys, &t.values));
        // The first form, written from the build's full-precision values, reads as the same
        // table, its values held in 16 bits as it is read.
        let (keys, exact) =
            Table::build_exact(Formation::BLOCK_BESIDE, 5, Table::layer_count(5), None, none)
                .unwrap();
        let old = plain_encode_v1(Formation::BLOCK_BESIDE, 5, &keys, &exact);
        std::fs::write(&path, &old).unwrap();
        for back in [Table::read_file(&path).unwrap(), Table::decode(&old).unwrap()] {
            assert_eq!((back.formation, back.target), (t.formation, t.target));
            assert_eq!((&back.keys, &back.values), (&t.keys, &t.values));
        }
        // Read 24 bytes at a time (3 keys, 6 u32s or 12 values a pass), every layer takes
        // many passes: the same table from either form.
        for b in [&bytes, &old] {
            let body = bits::sealed::unseal(b).unwrap();
            let small = Table::parse(body, body.len(), 24).unwrap();
            assert_eq!((&small.keys, &small.values), (&t.keys, &t.values));
        }
        // Layer 0 starts at byte 17 (8 magic, 1 + 3 name, 1 target, 4 layer count from 13): its
        // position count, then (current form) its run count, high halves, run starts, keys.
        let (highs, starts, _) = t.keys[0].parts();
        let runs = highs.len();
        assert!(runs >= 2 && starts[1] >= 2, "{runs} runs, the first of {}", starts[1]);
        let lows = 29 + 8 * runs;
        let swap = |b: &mut Vec<u8>, x: usize, y: usize, w: usize| {
            let (p, q) = (b[x..x + w].to_vec(), b[y..y + w].to_vec());
            b[x..x + w].copy_from_slice(&q);
            b[y..y + w].copy_from_slice(&p);
        };
        // Every defect the in-memory reader names, the file reader names the same way.
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (
                {
                    let mut b = bytes.clone();
                    b[20] ^= 1;
                    b
                },
                "checksum",
            ),
            (
                {
                    let mut b = bytes.clone();
                    b[bytes.len() - 20] ^= 1;
                    b
                },
                "checksum",
            ),
            (bytes[..bytes.len() / 2].to_vec(), "checksum"),
            (bytes[..5].to_vec(), "checksum"),
            (Vec::new(), "checksum"),
            (resealed(&bytes, |b| b[0] ^= 1), "bad magic"),
            (bits::sealed::seal(bytes[..14].to_vec()), "truncated"),
            (
                resealed(&bytes, |b| b[13..17].copy_from_slice(&1u32.to_le_bytes())),
                "1 layers, a target of 32 has",
            ),
            (
                resealed(&bytes, |b| b[13..17].copy_from_slice(&10_000u32.to_le_bytes())),
                "10000 layers, a target of 32 has 16 to 527",
            ),
            // The first run's first two keys swapped, then the first repeated.
            (resealed(&bytes, |b| swap(b, lows, lows + 4, 4)), "layer 0: keys not sorted"),
            (
                resealed(&bytes, |b| {
                    let first = b[lows..lows + 4].to_vec();
                    b[lows + 4..lows + 8].copy_from_slice(&first);
                }),
                "layer 0: keys not sorted",
            ),
            // The first two high halves swapped; the second run starting at 0.
            (resealed(&bytes, |b| swap(b, 29, 33, 4)), "layer 0: high halves not ascending"),
            (
                resealed(&bytes, |b| b[29 + 4 * runs + 4..29 + 4 * runs + 8].fill(0)),
                "layer 0: a run is empty",
            ),
            // More runs than positions.
            (resealed(&bytes, |b| b[25..29].copy_from_slice(&56u32.to_le_bytes())), "56 runs"),
            (bits::sealed::seal(bytes[..40].to_vec()), "past the end"),
            // Room for the positions but not for them and the runs.
            (
                bits::sealed::seal(bytes[..29 + 6 * t.keys[0].len() + 8 * runs - 1].to_vec()),
                "runs and 55 positions, past the end",
            ),
            (resealed(&bytes, |b| b.truncate(b.len() - 2)), "past the end"),
            (resealed(&bytes, |b| b.push(0)), "after the last layer"),
            // The first form: its keys at byte 25, then its values.
            (resealed(&old, |b| swap(b, 25, 33, 8)), "layer 0: keys not sorted"),
            (
                resealed(&old, |b| {
                    let at = 25 + 8 * keys[0].len();
                    b[at..at + 4].copy_from_slice(&1.5f32.to_le_bytes());
                }),
                "layer 0: a value outside [0, 1]",
            ),
            (bits::sealed::seal(old[..40].to_vec()), "past the end"),
        ];
        both_readers_name(&path, &cases);
        let gone = Table::read_file(&dir.join("missing.b48t")).unwrap_err().0;
        assert!(gone.starts_with("cannot read: "), "{gone}");
        let folder = Table::read_file(&dir).unwrap_err().0;
        assert!(folder.contains("not a regular file"), "{folder}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_chance_held_in_16_bits_is_the_nearest_step() {
        assert_eq!((quantize(0.0), quantize(1.0)), (0, u16::MAX));
        assert_eq!((unquantize(0), unquantize(u16::MAX)), (0.0, 1.0));
        assert_eq!((quantize(-0.5), quantize(2.0)), (0, u16::MAX));
        let mut rng = bits::Rng::new(16);
        for _ in 0..100_000 {
            let v = rng.below(1 << 24) as f32 / (1 << 24) as f32;
            let q = quantize(v);
            let err = (f64::from(unquantize(q)) - f64::from(v)).abs();
            assert!(err <= 0.5 / 65_535.0 + 1e-7, "{v}: {q}");
            // The neighbouring steps are no nearer.
            for n in [q.saturating_sub(1), q.saturating_add(1)] {
                assert!((f64::from(unquantize(n)) - f64::from(v)).abs() >= err - 1e-7, "{v}");
            }
        }
        // Order is kept: a larger chance is never held as a smaller one.
        assert!((0..=1000).map(|i| quantize(i as f32 / 1000.0)).collect::<Vec<_>>().is_sorted());
    }

    #[test]
    fn tables_are_byte_for_byte_those_the_earlier_builds_wrote() {
        // The checksums (the files' last 8 bytes) of the tables for 8 as the build of
        // c3be2a9 wrote them, before layers were held as key sets and formations could have
        // five locked tiles and caps: the build's full-precision values in the first form.
        for (f, sum) in [
            (Formation::SNAKE, 0x970b_54b8_33da_bda4u64),
            (Formation::BLOCK, 0x5d38_ed1c_fb56_a0a9),
            (Formation::BLOCK_BESIDE, 0x1ce9_9584_c8eb_a943),
        ] {
            let (keys, values) = Table::build_exact(
                f,
                3,
                Table::layer_count(3),
                None,
                |_, _, _, _| Ok::<(), ()>(()),
            )
            .unwrap();
            let bytes = plain_encode_v1(f, 3, &keys, &values);
            let tail: [u8; 8] = bytes[bytes.len() - 8..].try_into().unwrap();
            assert_eq!(u64::from_le_bytes(tail), sum, "{}", f.name);
        }
    }

    #[test]
    fn the_locked_stand_ins_stay_above_every_free_tile_up_to_each_formations_largest_target() {
        for f in Formation::ALL {
            assert!(f.smallest_at.is_none_or(|c| Some(&c) == f.locked.last()), "{}", f.name);
            for target in 3..=f.max_target() {
                let wall = f.wall(target);
                for &c in f.locked {
                    let r = ((wall >> (4 * c)) & 0xF) as u8;
                    if f.smallest_at == Some(c) {
                        assert_eq!(r, target, "{} {target}", f.name);
                    } else {
                        // Two free targets never meet (a table's sums stop below 2T), so
                        // no free tile reaches a stand-in above the target.
                        assert!(r > target, "{} {target}: cell {c} holds rank {r}", f.name);
                    }
                }
            }
        }
        assert_eq!(Formation::BLOCK.max_target(), 9);
        assert_eq!(Formation::BLOCK_BESIDE.max_target(), 10);
        assert_eq!(Formation::FIVE_BLOCK.max_target(), 10);
    }

    #[test]
    fn a_won_position_the_chained_table_never_made_is_valued_from_the_next_table() {
        let (f, target) = (Formation::FIVE_BLOCK, 4);
        let next =
            Table::build(Formation::BLOCK_BESIDE, target, |_, _, _, _| Ok::<(), ()>(())).unwrap();
        let five =
            Table::build_chained(f, target, Some(&next), |_, _, _, _| Ok::<(), ()>(())).unwrap();
        let mask = f.lock_mask();
        // The block as it stands in play: 512 256 128 in the bottom row, 64 and 32 above the
        // 256 and the 512, every free tile below 16.
        let wall = [(15, 9u64), (14, 8), (13, 7), (10, 6), (11, 5)]
            .iter()
            .fold(0, |m, &(c, r)| m | r << (4 * c));
        let both = Tables::new(vec![next.clone(), five.clone()]);
        let alone = Tables::new(vec![five.clone()]);
        // A lone 16 at (2,1) made by merging two 8s: the table never made it (its boards
        // before a move hold a spawned 2 or 4), and the other allowed move breaks a cap.
        assert_eq!(five.value(4 << 36), None);
        let want = next.chance(0);
        assert!(want > 0.0, "{want}");
        for (text, d) in [
            (". . . ./. 8 . ./. 8 64 32/. 128 256 512", Dir::Down),
            (". . . ./. . . ./8 8 64 32/. 128 256 512", Dir::Right),
        ] {
            let b: Board = text.parse().unwrap();
            assert_eq!(alone.advise(b), None, "{b}");
            let a = both.advise(b).expect("valued from L3b");
            assert_eq!((a.formation, a.dir, a.chances[d.index()]), ("L5b", d, Some(want)));
        }
        let mut rng = bits::Rng::new(34);
        let (mut missing, mut answered) = (0, 0);
        for _ in 0..200_000 {
            // Free tiles up to 8, a third of the cells empty; caps not kept (a real board
            // need not keep them before the move).
            let free = (0..16).filter(|c| mask & (0xF << (4 * c)) == 0).fold(0u64, |m, c| {
                m | [0u64, 0, 0, 1, 1, 2, 2, 3, 3][rng.below(9) as usize] << (4 * c)
            });
            let b = Board(free | wall);
            for d in Dir::ALL {
                let Ok(m) = b.play(d) else { continue };
                let after = m.board.0 & !mask;
                if m.board.0 & mask != wall
                    || !has_goal(after, f.goal, target)
                    || five.value(after).is_some()
                {
                    continue;
                }
                // The move builds the 16 at (2,1) into a position the table never made.
                missing += 1;
                let want = next.chance(after & !f.goal_mask());
                assert_eq!(both.value(&both.tables()[1], after), Some(want), "{b}");
                // L5b alone has no answer there; with L3b's 16 table loaded its answer (if
                // every other move is known) rates the move by that chance.
                assert_eq!(alone.advise(b), None, "{b}");
                if let Some(a) = both.advise(b) {
                    assert_eq!((a.formation, a.chances[d.index()]), ("L5b", Some(want)), "{b}");
                    answered += 1;
                }
            }
        }
        assert!(missing > 0 && answered > 0, "{missing} {answered}");
    }

    #[test]
    fn every_formation_has_its_recursion_test() {
        assert_eq!(Formation::ALL.len(), 6, "a new formation needs its own test above");
    }
}
