//! Leaf evaluators: a trait, statically dispatched by the search, and the evaluators we ship.
//!
//! An evaluator scores a chance node (a board after a move, before the next disc is known)
//! from its board, level and drops left only — never the score or the stream — so a node's
//! value is a pure function of what the transposition table keys on. Each evaluator also
//! has a reference form on a plain `[row][col]` grid; a gate test checks the two agree
//! bit for bit on every state the engine gate visits.

// Index loops over rows and columns keep the reference forms plain.
#![allow(clippy::needless_range_loop)]

use crate::board::{nonzero_nibbles, Board, CRACKED, EMPTY, ONES, SIZE, SOLID};

/// A leaf evaluator (higher is better for the player).
pub trait Evaluator: Sync {
    /// A short name for reports.
    fn name(&self) -> &'static str;
    /// The value of a board after a move, with `level` and `drops_left` as they stand.
    fn eval(&self, board: &Board, level: u32, drops_left: u32) -> f64;
    /// The same value, computed plainly from `grid[row][col]` (row 0 at the bottom).
    fn eval_reference(&self, grid: &[[u8; SIZE]; SIZE], level: u32, drops_left: u32) -> f64;
}

/// Scores nothing but the points the search collects (and the death penalty): the baseline.
#[derive(Clone, Copy, Debug, Default)]
pub struct PointsOnly;

impl Evaluator for PointsOnly {
    fn name(&self) -> &'static str {
        "points"
    }
    #[inline]
    fn eval(&self, _: &Board, _: u32, _: u32) -> f64 {
        0.0
    }
    fn eval_reference(&self, _: &[[u8; SIZE]; SIZE], _: u32, _: u32) -> f64 {
        0.0
    }
}

/// Penalises what kills a Drop7 game: discs on the board (each must be popped), grays (which
/// need hits before they can), and tall columns (a full column at a rise ends the game).
///
/// `value = -(disc * discs + solid * solid_grays + cracked * cracked_grays
///           + tall * sum_c max(0, h_c - 4)^2 + full * full_columns * (6 - min(drops_left, 5)))`
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crowding {
    /// Cost of a disc.
    pub disc: f64,
    /// Extra cost of a solid gray.
    pub solid: f64,
    /// Extra cost of a cracked gray.
    pub cracked: f64,
    /// Cost of height above 4, squared, per column.
    pub tall: f64,
    /// Cost of a full column, growing as the rise nears.
    pub full: f64,
}

impl Default for Crowding {
    fn default() -> Self {
        Crowding { disc: 600.0, solid: 500.0, cracked: 250.0, tall: 800.0, full: 3_000.0 }
    }
}

impl Evaluator for Crowding {
    fn name(&self) -> &'static str {
        "crowding"
    }

    #[inline]
    fn eval(&self, board: &Board, _level: u32, drops_left: u32) -> f64 {
        let mut discs = 0u32;
        let mut solid = 0u32;
        let mut cracked = 0u32;
        let mut tall = 0u32;
        let mut full = 0u32;
        for &w in board.cols() {
            discs += nonzero_nibbles(w).count_ones();
            let gray = (w >> 3) & ONES;
            solid += (gray & !w).count_ones();
            cracked += (gray & w).count_ones();
            let over = crate::board::col_height(w).saturating_sub(4);
            tall += over * over;
            full += u32::from(w >> 24 != 0);
        }
        let urgency = f64::from(6 - drops_left.min(5));
        -(self.disc * f64::from(discs)
            + self.solid * f64::from(solid)
            + self.cracked * f64::from(cracked)
            + self.tall * f64::from(tall)
            + self.full * f64::from(full) * urgency)
    }

    fn eval_reference(&self, grid: &[[u8; SIZE]; SIZE], _level: u32, drops_left: u32) -> f64 {
        let mut discs = 0.0;
        let mut solid = 0.0;
        let mut cracked = 0.0;
        let mut tall = 0.0;
        let mut full = 0.0;
        for c in 0..SIZE {
            let mut h = 0;
            for row in grid {
                match row[c] {
                    EMPTY => {}
                    SOLID => {
                        solid += 1.0;
                        discs += 1.0;
                        h += 1;
                    }
                    CRACKED => {
                        cracked += 1.0;
                        discs += 1.0;
                        h += 1;
                    }
                    _ => {
                        discs += 1.0;
                        h += 1;
                    }
                }
            }
            if h > 4 {
                tall += f64::from((h - 4) * (h - 4));
            }
            if h == 7 {
                full += 1.0;
            }
        }
        let urgency = 6.0 - f64::from(drops_left.min(5));
        -(self.disc * discs
            + self.solid * solid
            + self.cracked * cracked
            + self.tall * tall
            + self.full * full * urgency)
    }
}

/// [`Crowding`] plus how far each numbered disc is from popping: for a disc of value `v`
/// with row run `R` and column height `H`, `min(|v - R|, |v - H|)`, summed over the board.
/// Discs far from both their runs are dead weight that the next rises will bury.
///
/// `value = crowding(board) - mismatch * sum_discs min(|v - R|, |v - H|)`
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// The crowding part.
    pub crowding: Crowding,
    /// Cost of one unit of distance from popping.
    pub mismatch: f64,
}

/// [`Crowding`] plus flexibility: the number of (column, value) drops, over the open
/// columns and the values 1-7, that would mark a disc at once. A board where many next discs
/// pop somewhere keeps its options; one where none do fills up.
///
/// `value = crowding(board) + options * #{(c, v) : dropping v in c marks a disc}`
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// The crowding part.
    pub crowding: Crowding,
    /// Value of one popping drop.
    pub options: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options { crowding: Crowding::default(), options: 150.0 }
    }
}

impl Evaluator for Options {
    fn name(&self) -> &'static str {
        "options"
    }

    #[inline]
    fn eval(&self, board: &Board, level: u32, drops_left: u32) -> f64 {
        let base = self.crowding.eval(board, level, drops_left);
        let mut count = 0u32;
        for c in 0..SIZE {
            if !board.can_drop(c) {
                continue;
            }
            let row = board.height(c);
            for v in 1..=7u8 {
                let mut b = *board;
                b.drop_code(c, v);
                count += u32::from(crate::engine::landing_may_pop(b.cols(), c, row));
            }
        }
        base + self.options * f64::from(count)
    }

    fn eval_reference(&self, grid: &[[u8; SIZE]; SIZE], level: u32, drops_left: u32) -> f64 {
        let base = self.crowding.eval_reference(grid, level, drops_left);
        let mut count = 0u32;
        for c in 0..SIZE {
            let h = (0..SIZE).take_while(|&r| grid[r][c] != EMPTY).count();
            if h == SIZE {
                continue;
            }
            for v in 1..=7u8 {
                let mut g = *grid;
                g[h][c] = v;
                // Does any numbered disc equal its row run or column run?
                let mut pops = false;
                for r in 0..SIZE {
                    for k in 0..SIZE {
                        let x = g[r][k];
                        if x == EMPTY || x == SOLID || x == CRACKED {
                            continue;
                        }
                        let mut lo = k;
                        while lo > 0 && g[r][lo - 1] != EMPTY {
                            lo -= 1;
                        }
                        let mut hi = k;
                        while hi + 1 < SIZE && g[r][hi + 1] != EMPTY {
                            hi += 1;
                        }
                        let height = (0..SIZE).take_while(|&q| g[q][k] != EMPTY).count();
                        if usize::from(x) == hi - lo + 1 || usize::from(x) == height {
                            pops = true;
                        }
                    }
                }
                count += u32::from(pops);
            }
        }
        base + self.options * f64::from(count)
    }
}

impl Default for Shape {
    fn default() -> Self {
        Shape { crowding: Crowding::default(), mismatch: 150.0 }
    }
}

/// Row-run words per column (nibble `r` of `runs[c]` = length of the row run through
/// (`c`, `r`)), by the same prefix scans as the engine's popper search.
#[inline]
fn row_runs(cols: &[u32; SIZE]) -> [u32; SIZE] {
    let mut occ = [0u32; SIZE];
    for c in 0..SIZE {
        occ[c] = nonzero_nibbles(cols[c]);
    }
    let mut left = [0u32; SIZE];
    let mut acc = 0u32;
    for c in 0..SIZE {
        acc = (acc + occ[c]) & (occ[c] * 0xF);
        left[c] = acc;
    }
    let mut runs = [0u32; SIZE];
    acc = 0;
    for c in (0..SIZE).rev() {
        acc = (acc + occ[c]) & (occ[c] * 0xF);
        runs[c] = left[c] + acc - occ[c];
    }
    runs
}

impl Evaluator for Shape {
    fn name(&self) -> &'static str {
        "shape"
    }

    #[inline]
    fn eval(&self, board: &Board, level: u32, drops_left: u32) -> f64 {
        let base = self.crowding.eval(board, level, drops_left);
        let cols = board.cols();
        let runs = row_runs(cols);
        let mut dist = 0i32;
        for c in 0..SIZE {
            let w = cols[c];
            let h = crate::board::col_height(w) as i32;
            // Numbered cells only: non-zero with bit 3 clear.
            let mut nums = nonzero_nibbles(w) & !((w >> 3) & ONES);
            while nums != 0 {
                let shift = nums.trailing_zeros();
                nums &= nums - 1;
                let v = ((w >> shift) & 0xF) as i32;
                let r = ((runs[c] >> shift) & 0xF) as i32;
                dist += (v - r).abs().min((v - h).abs());
            }
        }
        base - self.mismatch * f64::from(dist)
    }

    fn eval_reference(&self, grid: &[[u8; SIZE]; SIZE], level: u32, drops_left: u32) -> f64 {
        let base = self.crowding.eval_reference(grid, level, drops_left);
        let mut dist = 0i32;
        for r in 0..SIZE {
            for c in 0..SIZE {
                let v = grid[r][c];
                if v == EMPTY || v == SOLID || v == CRACKED {
                    continue;
                }
                let mut lo = c;
                while lo > 0 && grid[r][lo - 1] != EMPTY {
                    lo -= 1;
                }
                let mut hi = c;
                while hi + 1 < SIZE && grid[r][hi + 1] != EMPTY {
                    hi += 1;
                }
                let row_run = (hi - lo + 1) as i32;
                let height = (0..SIZE).take_while(|&k| grid[k][c] != EMPTY).count() as i32;
                let v = i32::from(v);
                dist += (v - row_run).abs().min((v - height).abs());
            }
        }
        base - self.mismatch * f64::from(dist)
    }
}

/// `2^(1 - k)` for `k >= 1` (a disc one drop from popping is worth 1, two drops 1/2, ...),
/// 0 for `k = 0` (no way found). Exact powers of two.
#[inline]
fn readiness(k: u32) -> f64 {
    if k == 0 {
        0.0
    } else {
        f64::from_bits(u64::from(1024 - k.min(1000)) << 52)
    }
}

/// `1 - (1 - a)(1 - b)`: ready one way or the other.
#[inline]
fn union(a: f64, b: f64) -> f64 {
    1.0 - (1.0 - a) * (1.0 - b)
}

/// [`Crowding`] plus how *ready* the board is to fire: every numbered disc is scored by the
/// fewest drops that would make it pop, and by how much has to go before it can.
///
/// For a disc of value `v` at (`c`, `r`) with column height `H` and row run `R`:
/// - vertical addition: `v > H` needs `v - H` more discs in its column;
/// - horizontal addition: `v > R` needs a window of `v` columns through the run, bounded by
///   empty cells of row `r` (or the walls), filled up to row `r`: the cost is the number of
///   empty cells at or below row `r` in the window (the drops needed), minimised over windows;
/// - release (latent): `v < H` needs `H - v` discs above it gone, `v < R` needs `R - v` cells
///   of its row gone.
///
/// A cost `k` is worth `2^(1 - k)`; the two ways combine as `1 - (1 - a)(1 - b)`.
///
/// `value = crowding(board) + ready * sum_discs union(add_v, add_h)
///                           + latent * sum_discs union(rel_v, rel_h)`
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ready {
    /// The crowding part.
    pub crowding: Crowding,
    /// Value of one fully ready disc (one drop from popping).
    pub ready: f64,
    /// Value of one disc one removal from popping.
    pub latent: f64,
}

/// The weights of the seeded coordinate search (`bitarcade drop7 tune`, a Python script
/// then; depth 2, seed 1000): crowding `900,500,375,800,4500`, readiness 1,200, no release term. At depth 3 with paired reveals
/// they beat [`Crowding::default`] by +32,133 points a game over 512 paired games (95% CI
/// 16,963 - 47,304; BENCHMARKS.md), which makes `ready` the CLI's default evaluator.
impl Default for Ready {
    fn default() -> Self {
        Ready {
            crowding: Crowding {
                disc: 900.0,
                solid: 500.0,
                cracked: 375.0,
                tall: 800.0,
                full: 4_500.0,
            },
            ready: 1_200.0,
            latent: 0.0,
        }
    }
}

/// The addition and release readiness of a disc of value `v` at (`c`, `r`), from the column
/// heights (columns are bottom packed, so row `r` of column `k` is occupied iff `h[k] > r`).
#[inline]
fn disc_readiness(h: &[u32; SIZE], c: usize, r: u32, v: u32) -> (f64, f64) {
    let height = h[c];
    let add_v = if v > height { readiness(v - height) } else { 0.0 };
    let rel_v = if v < height { readiness(height - v) } else { 0.0 };
    let mut lo = c;
    while lo > 0 && h[lo - 1] > r {
        lo -= 1;
    }
    let mut hi = c;
    while hi + 1 < SIZE && h[hi + 1] > r {
        hi += 1;
    }
    let run = (hi - lo + 1) as u32;
    let mut add_h = 0.0;
    let mut rel_h = 0.0;
    if v > run {
        let v = v as usize;
        let mut best = u32::MAX;
        // Windows [a, a + v - 1] containing [lo, hi] inside the board.
        let first = (hi + 1).saturating_sub(v);
        let last = lo.min(SIZE - v);
        for a in first..=last {
            let b = a + v - 1;
            if (a > 0 && h[a - 1] > r) || (b + 1 < SIZE && h[b + 1] > r) {
                continue;
            }
            let cost: u32 = h[a..=b].iter().map(|&x| (r + 1).saturating_sub(x)).sum();
            best = best.min(cost);
        }
        if best != u32::MAX {
            add_h = readiness(best);
        }
    } else if v < run {
        rel_h = readiness(run - v);
    }
    (union(add_v, add_h), union(rel_v, rel_h))
}

/// `ROWS_BELOW[h]`: byte `r` is 1 for the rows `r < h` a column of height `h` occupies.
const ROWS_BELOW: [u64; SIZE + 1] = {
    let mut t = [0u64; SIZE + 1];
    let mut h = 0;
    while h <= SIZE {
        let mut r = 0;
        while r < h {
            t[h] |= 1 << (8 * r);
            r += 1;
        }
        h += 1;
    }
    t
};

/// `DEFICITS[h]`: byte `r` is the empty cells at or below row `r` of a column of height `h`,
/// `max(0, r + 1 - h)` (at most 7, so seven columns sum to at most 49 without a carry).
const DEFICITS: [u64; SIZE + 1] = {
    let mut t = [0u64; SIZE + 1];
    let mut h = 0;
    while h <= SIZE {
        let mut r = 0;
        while r < SIZE {
            if r + 1 > h {
                t[h] |= ((r + 1 - h) as u64) << (8 * r);
            }
            r += 1;
        }
        h += 1;
    }
    t
};

/// The first and last column of the run of set bits of row mask `m` through column `c`
/// (bit `c` set).
const fn run_bounds(m: usize, c: usize) -> (usize, usize) {
    let (mut lo, mut hi) = (c, c);
    while lo > 0 && m >> (lo - 1) & 1 == 1 {
        lo -= 1;
    }
    while hi + 1 < SIZE && m >> (hi + 1) & 1 == 1 {
        hi += 1;
    }
    (lo, hi)
}

/// `RUN_LEN[m * 8 + c]`: the length of the run of set bits of the 7-bit row mask `m`
/// through column `c` (0 if bit `c` is clear).
const RUN_LEN: [u8; 128 * 8] = {
    let mut t = [0u8; 128 * 8];
    let mut m = 0;
    while m < 128 {
        let mut c = 0;
        while c < SIZE {
            if m >> c & 1 == 1 {
                let (lo, hi) = run_bounds(m, c);
                t[m * 8 + c] = (hi - lo + 1) as u8;
            }
            c += 1;
        }
        m += 1;
    }
    t
};

/// `WINDOWS[(m * 8 + c) * 8 + v]`: bit `a` set for every window `[a, a + v - 1]` of `v`
/// columns inside the board that contains the run of row mask `m` through column `c` and
/// is bounded by empty cells of the row (or the walls): the windows [`Ready`]'s horizontal
/// readiness minimises over. Built for `v` above the run's length only (else 0).
const WINDOWS: [u8; 128 * 8 * 8] = {
    let mut t = [0u8; 128 * 8 * 8];
    let mut m = 0;
    while m < 128 {
        let mut c = 0;
        while c < SIZE {
            if m >> c & 1 == 1 {
                let (lo, hi) = run_bounds(m, c);
                let mut v = hi - lo + 2;
                while v <= SIZE {
                    let mut a = 0;
                    while a + v <= SIZE {
                        let b = a + v - 1;
                        let inside = a <= lo && b >= hi;
                        let left_open = a == 0 || m >> (a - 1) & 1 == 0;
                        let right_open = b + 1 == SIZE || m >> (b + 1) & 1 == 0;
                        if inside && left_open && right_open {
                            t[(m * 8 + c) * 8 + v] |= 1 << a;
                        }
                        a += 1;
                    }
                    v += 1;
                }
            }
            c += 1;
        }
        m += 1;
    }
    t
};

impl Ready {
    /// [`Evaluator::eval`] as session 4 computed it (a scan per disc for its run and its
    /// windows), kept to gate and time the table form against.
    pub fn eval_scan(&self, board: &Board, level: u32, drops_left: u32) -> f64 {
        let base = self.crowding.eval(board, level, drops_left);
        let cols = board.cols();
        let mut h = [0u32; SIZE];
        for c in 0..SIZE {
            h[c] = crate::board::col_height(cols[c]);
        }
        let mut ready = 0.0;
        let mut latent = 0.0;
        for c in 0..SIZE {
            let w = cols[c];
            let mut nums = nonzero_nibbles(w) & !((w >> 3) & ONES);
            while nums != 0 {
                let shift = nums.trailing_zeros();
                nums &= nums - 1;
                let (add, rel) = disc_readiness(&h, c, shift / 4, (w >> shift) & 0xF);
                ready += add;
                latent += rel;
            }
        }
        base + self.ready * ready + self.latent * latent
    }
}

/// What one pass over a board's numbered discs gives (the table form of [`Ready`]): the
/// column heights, the addition readiness sum, the release readiness sum (if asked for), and
/// (if asked for) [`Shape`]'s distance from popping and the count of discs of each value.
#[derive(Clone, Copy, Debug, Default)]
struct DiscSums {
    heights: [u32; SIZE],
    ready: f64,
    latent: f64,
    mismatch: u32,
    by_value: [u32; 8],
}

/// [`DiscSums`] of `cols`: `LATENT` adds the release sum, `EXTRA` the distance and the
/// value counts. The sums run over columns left to right, each bottom up, as the
/// reference forms do, so they are the same bits.
#[inline]
fn disc_sums<const LATENT: bool, const EXTRA: bool>(cols: &[u32; SIZE]) -> DiscSums {
    // Per column: its height, its bit in every row's occupancy mask (byte r of `occ`),
    // and the prefix sums over columns of the empty cells at or below each row (byte r
    // of `pre[k]`, columns `0..k`), so a window's cost is one subtraction.
    let mut out = DiscSums::default();
    let h = &mut out.heights;
    let mut occ = 0u64;
    let mut pre = [0u64; SIZE + 1];
    for c in 0..SIZE {
        h[c] = crate::board::col_height(cols[c]);
        occ |= ROWS_BELOW[h[c] as usize] << c;
        pre[c + 1] = pre[c] + DEFICITS[h[c] as usize];
    }
    let h = out.heights;
    for c in 0..SIZE {
        let w = cols[c];
        let mut nums = nonzero_nibbles(w) & !((w >> 3) & ONES);
        while nums != 0 {
            let shift = nums.trailing_zeros();
            nums &= nums - 1;
            let r = shift / 4;
            let v = (w >> shift) & 0xF;
            let m = ((occ >> (8 * r)) & 0x7F) as usize;
            let run = u32::from(RUN_LEN[m * 8 + c]);
            let height = h[c];
            let mut best = 0;
            if v > run {
                // The cheapest valid window of `v` columns through the run.
                let mut starts = WINDOWS[(m * 8 + c) * 8 + v as usize];
                best = u32::MAX;
                while starts != 0 {
                    let a = starts.trailing_zeros() as usize;
                    starts &= starts - 1;
                    let cost = ((pre[a + v as usize] - pre[a]) >> (8 * r)) as u32 & 0xFF;
                    best = best.min(cost);
                }
                if best == u32::MAX {
                    best = 0;
                }
            }
            out.ready += union(readiness(v.saturating_sub(height)), readiness(best));
            if LATENT {
                out.latent +=
                    union(readiness(height.saturating_sub(v)), readiness(run.saturating_sub(v)));
            }
            if EXTRA {
                out.mismatch += v.abs_diff(run).min(v.abs_diff(height));
                out.by_value[v as usize] += 1;
            }
        }
    }
    out
}

impl Evaluator for Ready {
    fn name(&self) -> &'static str {
        "ready"
    }

    #[inline]
    fn eval(&self, board: &Board, level: u32, drops_left: u32) -> f64 {
        let base = self.crowding.eval(board, level, drops_left);
        let sums = if self.latent != 0.0 {
            disc_sums::<true, false>(board.cols())
        } else {
            disc_sums::<false, false>(board.cols())
        };
        base + self.ready * sums.ready + self.latent * sums.latent
    }

    fn eval_reference(&self, grid: &[[u8; SIZE]; SIZE], level: u32, drops_left: u32) -> f64 {
        let base = self.crowding.eval_reference(grid, level, drops_left);
        let empty_at = |r: usize, c: usize| grid[r][c] == EMPTY;
        let mut ready = 0.0;
        let mut latent = 0.0;
        for c in 0..SIZE {
            for r in 0..SIZE {
                let x = grid[r][c];
                if x == EMPTY || x == SOLID || x == CRACKED {
                    continue;
                }
                let v = usize::from(x);
                let height = (0..SIZE).take_while(|&q| !empty_at(q, c)).count();
                // 2^(1 - k) by halving, independently of `readiness`.
                let worth = |k: usize| (1..k).fold(1.0f64, |x, _| x * 0.5);
                let mut add_v = 0.0;
                let mut rel_v = 0.0;
                if v > height {
                    add_v = worth(v - height);
                }
                if v < height {
                    rel_v = worth(height - v);
                }
                let mut lo = c;
                while lo > 0 && !empty_at(r, lo - 1) {
                    lo -= 1;
                }
                let mut hi = c;
                while hi + 1 < SIZE && !empty_at(r, hi + 1) {
                    hi += 1;
                }
                let run = hi - lo + 1;
                let mut add_h = 0.0;
                let mut rel_h = 0.0;
                if v > run {
                    let mut best: Option<usize> = None;
                    for a in 0..SIZE {
                        let b = a + v - 1;
                        if b >= SIZE || a > lo || b < hi {
                            continue;
                        }
                        if a > 0 && !empty_at(r, a - 1) {
                            continue;
                        }
                        if b + 1 < SIZE && !empty_at(r, b + 1) {
                            continue;
                        }
                        // Drops needed: the empty cells at or below row r in the window.
                        let mut cost = 0;
                        for k in a..=b {
                            cost += (0..=r).filter(|&q| empty_at(q, k)).count();
                        }
                        best = Some(best.map_or(cost, |x: usize| x.min(cost)));
                    }
                    if let Some(k) = best {
                        add_h = worth(k);
                    }
                } else if v < run {
                    rel_h = worth(run - v);
                }
                ready += 1.0 - (1.0 - add_v) * (1.0 - add_h);
                latent += 1.0 - (1.0 - rel_v) * (1.0 - rel_h);
            }
        }
        base + self.ready * ready + self.latent * latent
    }
}

/// [`Crowding`] plus two terms about the next rise and the grays:
/// - `near`: a cost per column of height 6, weighted by the same urgency as a full column
///   (`6 - min(drops_left, 5)`): the rise makes it full;
/// - `exposed`: a value per gray (solid or cracked) with a numbered disc directly above,
///   below, left or right of it, the discs whose pops hit it.
///
/// `value = crowding(board) - near * #{c : h_c = 6} * urgency + exposed * exposed_grays`
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pressure {
    /// The crowding part.
    pub crowding: Crowding,
    /// Cost of a column of height 6, per unit of urgency.
    pub near: f64,
    /// Value of a gray next to a numbered disc.
    pub exposed: f64,
}

/// The grays (solid or cracked) with a numbered disc directly above, below, left or right.
#[inline]
fn exposed_grays(cols: &[u32; SIZE]) -> u32 {
    let mut numbered = [0u32; SIZE];
    let mut gray = [0u32; SIZE];
    for c in 0..SIZE {
        let w = cols[c];
        gray[c] = (w >> 3) & ONES;
        numbered[c] = nonzero_nibbles(w) & !gray[c];
    }
    let mut exposed = 0u32;
    for c in 0..SIZE {
        let left = if c > 0 { numbered[c - 1] } else { 0 };
        let right = if c + 1 < SIZE { numbered[c + 1] } else { 0 };
        let touch = (numbered[c] << 4) | (numbered[c] >> 4) | left | right;
        exposed += (gray[c] & touch).count_ones();
    }
    exposed
}

impl Default for Pressure {
    fn default() -> Self {
        Pressure { crowding: Crowding::default(), near: 1_000.0, exposed: 200.0 }
    }
}

impl Evaluator for Pressure {
    fn name(&self) -> &'static str {
        "pressure"
    }

    #[inline]
    fn eval(&self, board: &Board, level: u32, drops_left: u32) -> f64 {
        let base = self.crowding.eval(board, level, drops_left);
        let cols = board.cols();
        let mut near = 0u32;
        for &w in cols {
            near += u32::from(crate::board::col_height(w) == 6);
        }
        let exposed = exposed_grays(cols);
        let urgency = f64::from(6 - drops_left.min(5));
        base - self.near * f64::from(near) * urgency + self.exposed * f64::from(exposed)
    }

    fn eval_reference(&self, grid: &[[u8; SIZE]; SIZE], level: u32, drops_left: u32) -> f64 {
        let base = self.crowding.eval_reference(grid, level, drops_left);
        let is_gray = |x: u8| x == SOLID || x == CRACKED;
        let is_number = |x: u8| x != EMPTY && !is_gray(x);
        let mut near = 0.0;
        for c in 0..SIZE {
            let h = (0..SIZE).take_while(|&r| grid[r][c] != EMPTY).count();
            if h == 6 {
                near += 1.0;
            }
        }
        let mut exposed = 0.0;
        for r in 0..SIZE {
            for c in 0..SIZE {
                if !is_gray(grid[r][c]) {
                    continue;
                }
                let touched = (r + 1 < SIZE && is_number(grid[r + 1][c]))
                    || (r > 0 && is_number(grid[r - 1][c]))
                    || (c > 0 && is_number(grid[r][c - 1]))
                    || (c + 1 < SIZE && is_number(grid[r][c + 1]));
                if touched {
                    exposed += 1.0;
                }
            }
        }
        let urgency = 6.0 - f64::from(drops_left.min(5));
        base - self.near * near * urgency + self.exposed * exposed
    }
}

/// The number of features of [`Fitted`].
pub const FEATURES: usize = 33;

/// The names of [`Fitted`]'s features, in order (the weights are read in this order):
/// - `bias`: 1;
/// - `v1`..`v7`: numbered discs of each value;
/// - `solid`, `cracked`: grays;
/// - `h1`..`h7`: columns of each height (empty columns are the rest);
/// - `full_d1`..`full_d5`: full columns when 1, 2, 3, 4 or 5+ drops are left before the rise;
/// - `six_d1`, `six_d2`: columns of height 6 when 1 or 2 drops are left;
/// - `ready`, `latent`: [`Ready`]'s addition and release readiness sums;
/// - `mismatch`: [`Shape`]'s distance from popping;
/// - `exposed`: [`Pressure`]'s grays next to a numbered disc;
/// - `d2`, `d3`, `d4`, `d5`: 2, 3, 4 or 5+ drops left before the rise (1 is the baseline);
/// - `bumps`: the sum of the height steps between neighbouring columns.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "bias", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "solid", "cracked", "h1", "h2", "h3", "h4",
    "h5", "h6", "h7", "full_d1", "full_d2", "full_d3", "full_d4", "full_d5", "six_d1", "six_d2",
    "ready", "latent", "mismatch", "exposed", "d2", "d3", "d4", "d5", "bumps",
];

/// Index of the first feature of a group in [`FEATURE_NAMES`].
const F_VALUES: usize = 1;
const F_SOLID: usize = 8;
const F_HEIGHTS: usize = 10;
const F_FULL: usize = 17;
const F_SIX: usize = 22;
const F_READY: usize = 24;
const F_DROPS: usize = 28;
const F_BUMPS: usize = 32;

/// [`Fitted`]'s features of a board with `drops_left` drops before the rise (see
/// [`FEATURE_NAMES`]). Hardcore's level changes no rule, so the level is not a feature (the
/// transposition table leaves it out of the key in Hardcore).
#[inline]
pub fn features(board: &Board, drops_left: u32) -> [f64; FEATURES] {
    let cols = board.cols();
    let sums = disc_sums::<true, true>(cols);
    let mut f = [0.0; FEATURES];
    f[0] = 1.0;
    for v in 1..=7 {
        f[F_VALUES + v - 1] = f64::from(sums.by_value[v]);
    }
    let (solid, cracked) = board.gray_counts();
    f[F_SOLID] = f64::from(solid);
    f[F_SOLID + 1] = f64::from(cracked);
    let h = sums.heights;
    let mut by_height = [0u32; SIZE + 1];
    let mut bumps = 0u32;
    for c in 0..SIZE {
        by_height[h[c] as usize] += 1;
        if c + 1 < SIZE {
            bumps += h[c].abs_diff(h[c + 1]);
        }
    }
    for k in 1..=SIZE {
        f[F_HEIGHTS + k - 1] = f64::from(by_height[k]);
    }
    let d = drops_left.clamp(1, 5) as usize;
    f[F_FULL + d - 1] = f64::from(by_height[SIZE]);
    if d <= 2 {
        f[F_SIX + d - 1] = f64::from(by_height[6]);
    }
    f[F_READY] = sums.ready;
    f[F_READY + 1] = sums.latent;
    f[F_READY + 2] = f64::from(sums.mismatch);
    f[F_READY + 3] = f64::from(exposed_grays(cols));
    if d >= 2 {
        f[F_DROPS + d - 2] = 1.0;
    }
    f[F_BUMPS] = f64::from(bumps);
    f
}

/// [`features`] computed plainly from `grid[row][col]`: counts by loops, and the readiness,
/// distance and exposure sums from the reference forms of [`Ready`], [`Shape`] and
/// [`Pressure`] (with one weight 1 and the rest 0).
pub fn features_reference(grid: &[[u8; SIZE]; SIZE], drops_left: u32) -> [f64; FEATURES] {
    let mut f = [0.0; FEATURES];
    f[0] = 1.0;
    let mut heights = [0usize; SIZE];
    for c in 0..SIZE {
        heights[c] = (0..SIZE).take_while(|&r| grid[r][c] != EMPTY).count();
        for r in 0..SIZE {
            match grid[r][c] {
                EMPTY => {}
                SOLID => f[F_SOLID] += 1.0,
                CRACKED => f[F_SOLID + 1] += 1.0,
                v => f[F_VALUES + usize::from(v) - 1] += 1.0,
            }
        }
        if heights[c] > 0 {
            f[F_HEIGHTS + heights[c] - 1] += 1.0;
        }
    }
    let d = drops_left.clamp(1, 5) as usize;
    for &h in &heights {
        if h == SIZE {
            f[F_FULL + d - 1] += 1.0;
        }
        if h == 6 && d <= 2 {
            f[F_SIX + d - 1] += 1.0;
        }
    }
    let zero = Crowding { disc: 0.0, solid: 0.0, cracked: 0.0, tall: 0.0, full: 0.0 };
    f[F_READY] = Ready { crowding: zero, ready: 1.0, latent: 0.0 }.eval_reference(grid, 1, 5);
    f[F_READY + 1] = Ready { crowding: zero, ready: 0.0, latent: 1.0 }.eval_reference(grid, 1, 5);
    f[F_READY + 2] = -Shape { crowding: zero, mismatch: 1.0 }.eval_reference(grid, 1, 5);
    f[F_READY + 3] =
        Pressure { crowding: zero, near: 0.0, exposed: 1.0 }.eval_reference(grid, 1, 5);
    if d >= 2 {
        f[F_DROPS + d - 2] = 1.0;
    }
    for c in 0..SIZE - 1 {
        f[F_BUMPS] += heights[c].abs_diff(heights[c + 1]) as f64;
    }
    f
}

/// A value function fitted to what happens: `value = sum_i weights[i] * features[i]`
/// ([`features`], [`FEATURE_NAMES`]), the weights a ridge regression of the points a
/// player goes on to score from a board (`bitarcade drop7 fit`, [`super::fit`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fitted {
    /// One weight per feature, in [`FEATURE_NAMES`] order.
    pub weights: [f64; FEATURES],
}

/// The weights built in (`crates/drop7/results/fitted/mix-ready-bigend.txt`): half
/// [`Ready::default`] in these features plus half the sibling-rollout fit of
/// `results/fitted/big.end.txt` (`bitarcade drop7 fit --reveals paired --depth 2 --games 2000
/// --seed 300 --rollouts 6 --rollout-depth 2 --horizon 30`), the best of the session-6 A/B
/// screens (BENCHMARKS.md, "Session 6: a fitted leaf evaluator").
pub const FITTED_DEFAULT: [f64; FEATURES] = [
    9.371704409404449e-13, // bias
    -1351.616451059801,    // v1
    -956.0129128376187,    // v2
    -1223.0621708069714,   // v3
    -1486.2703172983813,   // v4
    -1184.857335214104,    // v5
    -762.0904995452629,    // v6
    -485.76991750773925,   // v7
    -1384.4790249334283,   // solid
    -1135.2654356594578,   // cracked
    419.32574148882526,    // h1
    460.3343782510628,     // h2
    503.78877402763675,    // h3
    260.64787787252953,    // h4
    -635.2934497246615,    // h5
    -3107.1215360573415,   // h6
    -7143.98259420949,     // h7
    -16205.858727734212,   // full_d1
    -13827.558239669906,   // full_d2
    -10546.517278850972,   // full_d3
    -6640.912005091213,    // full_d4
    -4232.096597660234,    // full_d5
    -100.32654513730509,   // six_d1
    -7.931129559537941,    // six_d2
    2061.4051550312206,    // ready
    -12.93732317748167,    // latent
    -149.57518472865527,   // mismatch
    -70.05824704043326,    // exposed
    0.0,                   // d2
    0.0,                   // d3
    0.0,                   // d4
    0.0,                   // d5
    -99.89162848130393,    // bumps
];

/// [`FITTED_DEFAULT`].
impl Default for Fitted {
    fn default() -> Self {
        Fitted { weights: FITTED_DEFAULT }
    }
}

impl Fitted {
    /// The same evaluator with every weight times `k`.
    pub fn scaled(&self, k: f64) -> Fitted {
        Fitted { weights: self.weights.map(|w| w * k) }
    }

    #[inline]
    fn dot(&self, f: &[f64; FEATURES]) -> f64 {
        let mut s = 0.0;
        for i in 0..FEATURES {
            s += self.weights[i] * f[i];
        }
        s
    }
}

impl Evaluator for Fitted {
    fn name(&self) -> &'static str {
        "fitted"
    }

    #[inline]
    fn eval(&self, board: &Board, _level: u32, drops_left: u32) -> f64 {
        self.dot(&features(board, drops_left))
    }

    fn eval_reference(&self, grid: &[[u8; SIZE]; SIZE], _level: u32, drops_left: u32) -> f64 {
        self.dot(&features_reference(grid, drops_left))
    }
}
