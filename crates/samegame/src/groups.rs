//! Group finding by run linking, group removal, and the checked `play`.
//!
//! # Implementation notes
//! A flood fill visits every tile and every neighbour. Here a column is first cut into
//! single-colour vertical *runs* with one expression: a run starts where a tile's colour
//! differs from the tile below (`occ & !same_as_below`). Runs of neighbouring columns are then
//! linked where the two columns hold the same colour in the same row
//! (`h = left.same_as(right)`), but only once per *run boundary*: at the lowest bit of each
//! stretch of `h`, and where a run of either column starts inside a stretch
//! (`h & (!(h << 1) | starts_left | starts_right)`). A bit's run index is a popcount of the
//! column's run starts below it. Linking is a union-find over run indices whose root is always
//! the smallest index, so a group's root is its first run in column-major order and its
//! representative tile is the group's lowest tile in its leftmost column.
//!
//! ```text
//!   col x   col x+1        h (same colour, both occupied)   links made
//!    2        2             1                                 at the top stretch: 1
//!    1        1             1   } one stretch, run starts     at the stretch start: 1
//!    1        1             1   } inside it at no row         (no new run start)
//!    0        3             0
//! ```
//! All buffers live in [`Groups`] and are reused: finding groups allocates nothing once the
//! buffers have grown to the board's size.

use crate::board::{Board, Col, MAX_HEIGHT, MAX_WIDTH};
use crate::rules::Rules;

/// A removable group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// Number of tiles.
    pub size: u32,
    /// Colour.
    pub color: u8,
    /// Representative tile: the lowest tile of the group's leftmost column.
    pub x: u8,
    /// Row of the representative tile, from the bottom.
    pub y: u8,
    /// Leftmost and rightmost columns.
    pub x_lo: u8,
    /// Rightmost column.
    pub x_hi: u8,
    head: u16,
}

/// Most runs a board can hold (every cell its own run).
const MAX_RUNS: usize = MAX_WIDTH * MAX_HEIGHT;

/// Reusable buffers for group finding, and the groups of the last board searched.
///
/// The run arrays are structure-of-arrays and sized once for the largest board, so finding
/// groups never resizes or clears them: every entry below the run count is written before it
/// is read.
#[derive(Clone, Debug)]
pub struct Groups {
    /// Cells of run `r` in its column.
    mask: Vec<u32>,
    /// Column of run `r`.
    xs: Vec<u8>,
    /// Union-find parent; after linking, the root (smallest index) of the run's group.
    parent: Vec<u16>,
    /// Tiles of the group whose root is `r`.
    size: Vec<u32>,
    /// Next run of the same group (linked lists, [`find`](Self::find) only).
    next: Vec<u16>,
    /// First run of the group whose root is `r` (while building the lists).
    head: Vec<u16>,
    /// Index in the group list of the group whose root is `r` (`NONE` if too small).
    gidx: Vec<u16>,
    /// Offset of each group's masks in [`all_masks`](Self::all_masks)'s output.
    goff: Vec<u32>,
    /// Rightmost column of the group whose root is `r`.
    x_hi: Vec<u8>,
    runs: usize,
    groups: Vec<Group>,
    starts: [u32; MAX_WIDTH],
    base: [u16; MAX_WIDTH + 1],
    /// Tiles in groups smaller than the minimum (cannot be removed now).
    pub loose: u32,
}

/// The value of a position's groups without listing them: see [`Groups::potential`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Potential {
    /// Sum of the points of every removable group, each removed on its own.
    pub points: i64,
    /// Number of removable groups.
    pub groups: u32,
    /// Tiles in groups smaller than the minimum.
    pub loose: u32,
}

const NONE: u16 = u16::MAX;

#[inline]
fn root(parent: &mut [u16], mut i: u16) -> u16 {
    while parent[i as usize] != i {
        let p = parent[i as usize];
        parent[i as usize] = parent[p as usize];
        i = p;
    }
    i
}

/// Joins the sets of runs `a` and `b`; the smaller root index becomes the root.
#[inline]
fn union(parent: &mut [u16], a: u16, b: u16) {
    let (ra, rb) = (root(parent, a), root(parent, b));
    if ra != rb {
        let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
        parent[hi as usize] = lo;
    }
}

/// Whether `board` has a group of at least two tiles (two touching tiles of one colour).
#[inline]
pub fn has_pair(board: &Board) -> bool {
    let cols = board.cols();
    let mut any = 0;
    for (i, col) in cols.iter().enumerate() {
        any |= col.same_as_below();
        if i > 0 {
            any |= cols[i - 1].same_as(col);
        }
    }
    any != 0
}

/// Calls `f(i, j)` once per run boundary where run `i` of column `l` (counted from the bottom)
/// touches run `j` of column `r` in the same colour; `sl`, `sr` are the columns' run starts.
#[inline]
fn each_link(l: &Col, r: &Col, sl: u32, sr: u32, mut f: impl FnMut(u16, u16)) {
    let h = l.same_as(r);
    let mut links = h & (!(h << 1) | sl | sr);
    while links != 0 {
        let bit = links & links.wrapping_neg();
        links ^= bit;
        let upto = bit | (bit - 1);
        f((sl & upto).count_ones() as u16 - 1, (sr & upto).count_ones() as u16 - 1);
    }
}

impl Potential {
    /// Nothing: no groups, no tiles.
    pub const ZERO: Potential = Potential { points: 0, groups: 0, loose: 0 };

    /// Counts one group of `size` tiles.
    #[inline]
    fn add(&mut self, size: u32, rules: &Rules) {
        if size >= rules.min_group {
            self.points += rules.points(size);
            self.groups += 1;
        } else {
            self.loose += size;
        }
    }

    #[inline]
    fn plus(self, o: Potential) -> Potential {
        Potential {
            points: self.points + o.points,
            groups: self.groups + o.groups,
            loose: self.loose + o.loose,
        }
    }
}

/// Union-find with sizes at the roots (for [`Sweeps`]); the root of a set is its smallest index.
#[inline]
fn union_sized(parent: &mut [u16], size: &mut [u32], a: u16, b: u16) {
    let (ra, rb) = (root(parent, a), root(parent, b));
    if ra != rb {
        let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
        parent[hi as usize] = lo;
        size[lo as usize] += size[hi as usize];
    }
}

/// What a position's children share, for evaluating each child's [`Potential`] from only the
/// columns its move changed ([`Groups::potential_child`]).
///
/// Removing a group that spans columns `x_lo..=x_hi` changes no cell outside them, and a
/// column's neighbours change only next to them. So every group of the child that does not
/// reach columns `x_lo - 1..=x_hi + 1` is a group of the *prefix* sub-board (columns
/// `0..x_lo - 1`) or of the *suffix* (columns `x_hi + 1..`) that stays clear of that
/// sub-board's inner edge column, and one sweep from each side records, for every column `a`:
/// the groups of the prefix `0..=a` that do not touch `a` (`pre_closed[a]`), and for each run
/// of column `a` the prefix group it is in (as the first run of column `a` in that group)
/// and that group's size. The child then only links the changed columns between the two edge
/// columns, whose runs carry their prefix and suffix groups.
#[derive(Clone, Debug, Default)]
pub struct Sweeps {
    live: usize,
    base: Vec<u16>,
    pre_closed: Vec<Potential>,
    suf_closed: Vec<Potential>,
    pre_label: Vec<u16>,
    pre_size: Vec<u32>,
    suf_label: Vec<u16>,
    suf_size: Vec<u32>,
    uf: Vec<u16>,
    sz: Vec<u32>,
    stamp: Vec<u32>,
    first: Vec<u16>,
    /// The left-to-right sweep's final union-find and sizes (the whole board's groups).
    uf_left: Vec<u16>,
    sz_left: Vec<u32>,
}

impl Sweeps {
    /// Empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// One sweep over the columns (left to right, or right to left with `rev`): fills
    /// `closed[a]`, `label[r]` and `gsize[r]` for every column `a` and run `r`.
    fn sweep(
        &mut self,
        g: &Groups,
        cols: &[Col],
        rules: &Rules,
        rev: bool,
    ) -> (Vec<Potential>, Vec<u16>, Vec<u32>) {
        let n = g.runs;
        let w = cols.len();
        let (mut closed, mut label, mut gsize) = if rev {
            (
                std::mem::take(&mut self.suf_closed),
                std::mem::take(&mut self.suf_label),
                std::mem::take(&mut self.suf_size),
            )
        } else {
            (
                std::mem::take(&mut self.pre_closed),
                std::mem::take(&mut self.pre_label),
                std::mem::take(&mut self.pre_size),
            )
        };
        closed.resize(MAX_WIDTH, Potential::ZERO);
        label.resize(MAX_RUNS, 0);
        gsize.resize(MAX_RUNS, 0);
        let (uf, sz, stamp, first) =
            (&mut self.uf[..n], &mut self.sz[..n], &mut self.stamp[..n], &mut self.first[..n]);
        let (lab, gsz) = (&mut label[..n], &mut gsize[..n]);
        for r in 0..n {
            uf[r] = r as u16;
            sz[r] = g.mask[r].count_ones();
            stamp[r] = u32::MAX;
        }
        let base = &g.base;
        let mut acc = Potential::ZERO;
        for step in 0..w {
            let a = if rev { w - 1 - step } else { step };
            let runs_a = usize::from(base[a])..usize::from(base[a + 1]);
            if step > 0 {
                let prev = if rev { a + 1 } else { a - 1 };
                let (l, r) = if rev { (a, prev) } else { (prev, a) };
                each_link(&cols[l], &cols[r], g.starts[l], g.starts[r], |i, j| {
                    union_sized(uf, sz, base[l] + i, base[r] + j);
                });
            }
            // Label this column's runs by their group's first run here (stamped `a`).
            for r in runs_a {
                let k = root(uf, r as u16) as usize;
                if stamp[k] != a as u32 {
                    stamp[k] = a as u32;
                    first[k] = r as u16;
                }
                lab[r] = first[k];
                gsz[r] = sz[k];
            }
            // Groups that reach the previous column but not this one are complete.
            if step > 0 {
                let prev = if rev { a + 1 } else { a - 1 };
                for r in usize::from(base[prev])..usize::from(base[prev + 1]) {
                    let k = root(uf, r as u16) as usize;
                    if stamp[k] != a as u32 {
                        stamp[k] = a as u32;
                        acc.add(sz[k], rules);
                    }
                }
            }
            closed[a] = acc;
        }
        (closed, label, gsize)
    }

    /// Records the sweeps of `board`, whose runs `g` has just cut ([`Groups::find`],
    /// [`Groups::summarize`] or [`Groups::potential`] on the same board).
    pub fn build(&mut self, g: &Groups, board: &Board, rules: &Rules) {
        if self.uf.len() < MAX_RUNS {
            self.uf.resize(MAX_RUNS, 0);
            self.sz.resize(MAX_RUNS, 0);
            self.stamp.resize(MAX_RUNS, 0);
            self.first.resize(MAX_RUNS, 0);
        }
        let cols = board.cols();
        self.live = cols.len();
        self.base.clear();
        self.base.extend_from_slice(&g.base[..=cols.len()]);
        let (c, l, z) = self.sweep(g, cols, rules, false);
        let n = g.runs;
        self.uf_left.clear();
        self.uf_left.extend_from_slice(&self.uf[..n]);
        self.sz_left.clear();
        self.sz_left.extend_from_slice(&self.sz[..n]);
        debug_assert!(c.len() == MAX_WIDTH && l.len() == MAX_RUNS && z.len() == MAX_RUNS);
        (self.pre_closed, self.pre_label, self.pre_size) = (c, l, z);
        let (c, l, z) = self.sweep(g, cols, rules, true);
        (self.suf_closed, self.suf_label, self.suf_size) = (c, l, z);
    }
}

impl Default for Groups {
    fn default() -> Self {
        Self::new()
    }
}

impl Groups {
    /// Empty buffers (they grow to their full size on first use).
    pub fn new() -> Self {
        Groups {
            mask: Vec::new(),
            xs: Vec::new(),
            parent: Vec::new(),
            size: Vec::new(),
            next: Vec::new(),
            head: Vec::new(),
            gidx: Vec::new(),
            goff: Vec::new(),
            x_hi: Vec::new(),
            runs: 0,
            groups: Vec::new(),
            starts: [0; MAX_WIDTH],
            base: [0; MAX_WIDTH + 1],
            loose: 0,
        }
    }

    /// The groups found by the last [`find`](Self::find), ordered by representative tile
    /// (column, then row).
    #[inline]
    pub fn list(&self) -> &[Group] {
        &self.groups
    }

    /// Finds every group of at least `min_group` tiles of `board`, ready for
    /// [`remove`](Self::remove).
    pub fn find(&mut self, board: &Board, min_group: u32) -> &[Group] {
        self.link(board);
        self.lists(board, min_group);
        &self.groups
    }

    /// [`find`](Self::find) and [`Sweeps::build`] in one: the left-to-right sweep links
    /// every pair of columns, so its union-find is the board's groups. The groups' cells
    /// come from [`all_masks`](Self::all_masks) ([`remove`](Self::remove) and
    /// [`masks`](Self::masks) refuse these groups: no run lists are built).
    pub fn find_with_sweeps(&mut self, board: &Board, rules: &Rules, sw: &mut Sweeps) -> &[Group] {
        let cols = board.cols();
        self.cut_runs(cols);
        sw.build(self, board, rules);
        let n = self.runs;
        let (parent, size) = (&mut self.parent[..n], &mut self.size[..n]);
        let (xs, x_hi) = (&self.xs[..n], &mut self.x_hi[..n]);
        let uf = &sw.uf_left[..n];
        for r in 0..n {
            // `uf[r] <= r` and roots are the smallest index: one pass in index order.
            let p = if uf[r] as usize == r { r as u16 } else { parent[uf[r] as usize] };
            parent[r] = p;
            size[r] = sw.sz_left[r];
            // Runs come column by column: a group's last run is in its rightmost column.
            x_hi[p as usize] = xs[r];
        }
        // No run lists: the groups' cells come from `all_masks`.
        self.collect(board, rules.min_group, true);
        for g in &mut self.groups {
            g.head = NONE;
        }
        &self.groups
    }

    /// Appends the cells of every group of the last [`find`](Self::find) or
    /// [`find_with_sweeps`](Self::find_with_sweeps) to `out`, group after group in list
    /// order, each as one mask per column `x_lo..=x_hi` (the layout of [`masks`](Self::masks)).
    /// One pass over the runs.
    pub fn all_masks(&mut self, out: &mut Vec<u32>) {
        let start = out.len();
        self.goff.clear();
        let mut total = 0u32;
        for g in &self.groups {
            self.goff.push(total);
            total += u32::from(g.x_hi - g.x_lo) + 1;
        }
        out.resize(start + total as usize, 0);
        let out = &mut out[start..];
        let n = self.runs;
        let (mask, xs, parent) = (&self.mask[..n], &self.xs[..n], &self.parent[..n]);
        for r in 0..n {
            let gi = self.gidx[usize::from(parent[r])];
            if gi != NONE {
                let gi = usize::from(gi);
                let col = usize::from(xs[r] - self.groups[gi].x_lo);
                out[self.goff[gi] as usize + col] |= mask[r];
            }
        }
    }

    /// The group lists and the group list of a linked board (the rest of [`find`](Self::find)).
    fn lists(&mut self, board: &Board, min_group: u32) {
        let n = self.runs;
        {
            // Local slices: the loop then keeps its pointers in registers.
            let xs = &self.xs[..n];
            let parent = &self.parent[..n];
            let x_hi = &mut self.x_hi[..n];
            let next = &mut self.next[..n];
            let head = &mut self.head[..n];
            head.fill(NONE);
            x_hi.fill(0);
            // Backwards with head insertion: each list comes out in run order and starts at
            // its root (the smallest index, inserted last). No data-dependent branch: which
            // runs are roots is unpredictable, and a mispredicted branch per run costs more
            // than the extra stores.
            for r in (0..n).rev() {
                let p = parent[r] as usize;
                x_hi[p] = x_hi[p].max(xs[r]);
                next[r] = head[p];
                head[p] = r as u16;
            }
        }
        self.collect(board, min_group, true);
    }

    /// Like [`find`](Self::find) but only sizes, colours and representatives (and
    /// [`loose`](Self::loose)): less work, for evaluating a position. The groups cannot be
    /// passed to [`remove`](Self::remove).
    pub fn summarize(&mut self, board: &Board, min_group: u32) -> &[Group] {
        self.link(board);
        self.collect(board, min_group, false);
        &self.groups
    }

    /// The points of every removable group, their number and the loose tiles, without
    /// building the group list (the cheapest evaluation of a position).
    pub fn potential(&mut self, board: &Board, rules: &Rules) -> Potential {
        self.link(board);
        let n = self.runs;
        let (parent, size) = (&self.parent[..n], &self.size[..n]);
        let mut out = Potential::ZERO;
        for r in 0..n {
            if parent[r] as usize == r {
                out.add(size[r], rules);
            }
        }
        self.loose = out.loose;
        self.groups.clear();
        out
    }

    /// The [`Potential`] of `child`, the position after removing a group spanning columns
    /// `x_lo..=x_hi` from the position whose [`Sweeps`] are `sw`: the same value as
    /// [`potential`](Self::potential) on `child`, but only the changed columns and the two
    /// columns beside them are linked.
    pub fn potential_child(
        &mut self,
        sw: &Sweeps,
        child: &Board,
        x_lo: usize,
        x_hi: usize,
        rules: &Rules,
    ) -> Potential {
        let span = x_hi - x_lo + 1;
        let m = child.live_width() + span - sw.live; // changed columns still standing
        let has_left = x_lo > 0;
        let has_right = x_hi + 1 < sw.live;
        let lo = x_lo - usize::from(has_left);
        let cols = &child.cols()[lo..x_lo + m + usize::from(has_right)];
        self.cut_runs(cols);
        let n = self.runs;
        let mut out = Potential::ZERO;
        {
            let (mask, size) = (&self.mask[..n], &mut self.size[..n]);
            for r in 0..n {
                size[r] = mask[r].count_ones();
            }
        }
        // The edge columns' runs weigh their whole prefix (suffix) group, carried by the
        // group's first run in the column; the column's other runs of that group join it.
        let mut edge = |col: usize, pcol: usize, label: &[u16], gsize: &[u32]| {
            let (b, pb) = (self.base[col], sw.base[pcol]);
            for j in 0..self.base[col + 1] - b {
                let first = label[usize::from(pb + j)] - pb;
                let r = usize::from(b + j);
                if first == j {
                    self.size[r] = gsize[usize::from(pb + j)];
                } else {
                    self.size[r] = 0;
                    self.parent[r] = b + first;
                }
            }
        };
        if has_left {
            edge(0, x_lo - 1, &sw.pre_label, &sw.pre_size);
            out = out.plus(sw.pre_closed[x_lo - 1]);
        }
        if has_right {
            edge(cols.len() - 1, x_hi + 1, &sw.suf_label, &sw.suf_size);
            out = out.plus(sw.suf_closed[x_hi + 1]);
        }
        self.link_pairs(cols);
        let (parent, size) = (&mut self.parent[..n], &mut self.size[..n]);
        for r in 0..n {
            let p = parent[parent[r] as usize];
            parent[r] = p;
            if p as usize != r {
                size[p as usize] += size[r];
            }
        }
        for r in 0..n {
            if parent[r] as usize == r {
                out.add(size[r], rules);
            }
        }
        self.groups.clear();
        out
    }

    /// Cuts the columns into runs and links them; afterwards `parent[r]` is the root (the
    /// smallest run index) of run `r`'s group, and `size[root]` the group's tiles.
    fn link(&mut self, board: &Board) {
        let cols = board.cols();
        self.cut_runs(cols);
        self.link_pairs(cols);
        // Roots are the smallest index of their set and `parent[r] <= r` always holds, so one
        // pass in index order resolves every run to its root; the same pass sums the sizes.
        let n = self.runs;
        let (parent, mask, size) = (&mut self.parent[..n], &self.mask[..n], &mut self.size[..n]);
        size.fill(0);
        for r in 0..n {
            let p = parent[parent[r] as usize];
            parent[r] = p;
            size[p as usize] += mask[r].count_ones();
        }
    }

    /// Cuts `cols` into single-colour runs: `mask`, `xs`, `parent` (each its own root),
    /// `base` (first run of each column), `starts` and `runs`.
    #[inline]
    fn cut_runs(&mut self, cols: &[Col]) {
        if self.mask.len() < MAX_RUNS {
            self.mask.resize(MAX_RUNS, 0);
            self.xs.resize(MAX_RUNS, 0);
            self.parent.resize(MAX_RUNS, 0);
            self.size.resize(MAX_RUNS, 0);
            self.next.resize(MAX_RUNS, 0);
            self.head.resize(MAX_RUNS, 0);
            self.gidx.resize(MAX_RUNS, 0);
            self.x_hi.resize(MAX_RUNS, 0);
        }
        let mut n = 0usize;
        let (mask, xs, parent) = (&mut self.mask[..], &mut self.xs[..], &mut self.parent[..]);
        for (x, col) in cols.iter().enumerate() {
            self.base[x] = n as u16;
            let starts = col.occ & !col.same_as_below();
            self.starts[x] = starts;
            // One past the top tile: `occ` is a low mask (0 for a full 32-row column,
            // which the wrapping subtraction below turns into "to the top").
            let top = col.occ.wrapping_add(1);
            let k = starts.count_ones() as usize;
            // One bounds check per column: the loop below indexes within `k`.
            let (m, p, xk) = (&mut mask[n..n + k], &mut parent[n..n + k], &mut xs[n..n + k]);
            let mut rest = starts;
            for (i, ((mi, pi), xi)) in m.iter_mut().zip(p.iter_mut()).zip(xk).enumerate() {
                let s = rest & rest.wrapping_neg();
                rest ^= s;
                let end = if rest != 0 { rest & rest.wrapping_neg() } else { top };
                *mi = end.wrapping_sub(s);
                *pi = (n + i) as u16;
                *xi = x as u8;
            }
            n += k;
        }
        self.base[cols.len()] = n as u16;
        self.runs = n;
    }

    /// Unions the runs of every pair of neighbouring columns of `cols` (after
    /// [`cut_runs`](Self::cut_runs) on the same columns).
    #[inline]
    fn link_pairs(&mut self, cols: &[Col]) {
        let parent = &mut self.parent[..self.runs];
        for x in 1..cols.len() {
            each_link(&cols[x - 1], &cols[x], self.starts[x - 1], self.starts[x], |i, j| {
                union(parent, self.base[x - 1] + i, self.base[x] + j);
            });
        }
    }

    fn collect(&mut self, board: &Board, min_group: u32, linked: bool) {
        self.groups.clear();
        let mut loose = 0;
        let n = self.runs;
        let cols = board.cols();
        let (mask, xs, parent, size) =
            (&self.mask[..n], &self.xs[..n], &self.parent[..n], &self.size[..n]);
        for r in 0..n {
            if parent[r] as usize != r {
                continue;
            }
            let sz = size[r];
            if sz < min_group {
                self.gidx[r] = NONE;
                loose += sz;
                continue;
            }
            self.gidx[r] = self.groups.len() as u16;
            let (x, y) = (xs[r], mask[r].trailing_zeros());
            self.groups.push(Group {
                size: sz,
                color: cols[usize::from(x)].color(y),
                x,
                y: y as u8,
                x_lo: x,
                x_hi: if linked { self.x_hi[r] } else { x },
                head: if linked { r as u16 } else { NONE },
            });
        }
        self.loose = loose;
    }

    /// The cells of group `g` (from the last [`find`](Self::find)) as one mask per column,
    /// columns `g.x_lo..=g.x_hi`, written to `out[..span]` (`out` must hold the span).
    pub fn masks(&self, g: &Group, out: &mut [u32]) {
        assert!(g.head != NONE, "only groups from `find` can be removed (use `all_masks`)");
        let span = usize::from(g.x_hi - g.x_lo) + 1;
        let out = &mut out[..span];
        out.fill(0);
        let mut r = g.head;
        while r != NONE {
            let r_ = r as usize;
            out[usize::from(self.xs[r_] - g.x_lo)] |= self.mask[r_];
            r = self.next[r_];
        }
    }

    /// Removes group `g` (found on `board` by the last [`find`](Self::find)) from `board`.
    pub fn remove(&self, board: &mut Board, g: &Group) {
        let mut gone = [0u32; MAX_WIDTH];
        self.masks(g, &mut gone);
        let span = usize::from(g.x_hi - g.x_lo) + 1;
        board.remove_masks(usize::from(g.x_lo), &gone[..span]);
    }
}

/// Why a click was refused by [`play`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The cell is outside the board or empty.
    NoTile {
        /// Column.
        x: usize,
        /// Row from the bottom.
        y: usize,
    },
    /// The group at the cell is smaller than the minimum.
    TooSmall {
        /// Column.
        x: usize,
        /// Row from the bottom.
        y: usize,
        /// The group's size.
        size: u32,
    },
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::NoTile { x, y } => write!(f, "({x}, {y}) is not a tile"),
            PlayError::TooSmall { x, y, size } => {
                write!(f, "the group at ({x}, {y}) has {size} tile(s), too few to remove")
            }
        }
    }
}

impl std::error::Error for PlayError {}

/// The cells of the group containing `(x, y)`, one mask per column, found by growing the
/// group column by column (independent of the run linking in [`Groups`]).
pub fn group_at(board: &Board, x: usize, y: usize) -> Option<(u8, [u32; MAX_WIDTH])> {
    let c = board.cell(x, y as u32)?;
    let cols = board.cols();
    let mut mask = [0u32; MAX_WIDTH];
    let mut g = [0u32; MAX_WIDTH];
    for (i, col) in cols.iter().enumerate() {
        mask[i] = col.mask_of(c);
    }
    g[x] = 1 << y;
    loop {
        let mut changed = false;
        for i in 0..cols.len() {
            let mut s = g[i];
            if i > 0 {
                s |= g[i - 1];
            }
            if i + 1 < cols.len() {
                s |= g[i + 1];
            }
            s |= g[i] << 1 | g[i] >> 1;
            s &= mask[i];
            if s != g[i] {
                g[i] = s;
                changed = true;
            }
        }
        if !changed {
            return Some((c, g));
        }
    }
}

/// The checked move: removes the group at `(x, y)` and returns its size and the points it
/// scores (including the clear bonus if the board is emptied).
pub fn play(board: &mut Board, x: usize, y: usize, rules: &Rules) -> Result<(u32, i64), PlayError> {
    let (_, g) = group_at(board, x, y).ok_or(PlayError::NoTile { x, y })?;
    let size: u32 = g.iter().map(|m| m.count_ones()).sum();
    if size < rules.min_group.max(2) {
        return Err(PlayError::TooSmall { x, y, size });
    }
    let live = board.live_width();
    board.remove_masks(0, &g[..live]);
    let mut pts = rules.points(size);
    if board.is_clear() {
        pts += rules.clear_bonus;
    }
    Ok((size, pts))
}
