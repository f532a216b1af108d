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

use crate::board::{Board, MAX_WIDTH};
use crate::rules::Rules;
use bits::SetBits;

/// One vertical single-colour run.
#[derive(Clone, Copy, Debug)]
struct Run {
    mask: u32,
    x: u8,
    color: u8,
}

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

/// Reusable buffers for group finding, and the groups of the last board searched.
#[derive(Clone, Debug)]
pub struct Groups {
    runs: Vec<Run>,
    parent: Vec<u16>,
    next: Vec<u16>,
    head: Vec<u16>,
    size: Vec<u32>,
    x_hi: Vec<u8>,
    groups: Vec<Group>,
    starts: [u32; MAX_WIDTH],
    base: [u16; MAX_WIDTH + 1],
    /// Tiles in groups smaller than the minimum (cannot be removed now).
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

impl Default for Groups {
    fn default() -> Self {
        Self::new()
    }
}

impl Groups {
    /// Empty buffers.
    pub fn new() -> Self {
        Groups {
            runs: Vec::new(),
            parent: Vec::new(),
            next: Vec::new(),
            head: Vec::new(),
            size: Vec::new(),
            x_hi: Vec::new(),
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
        let n = self.runs.len();
        for v in [&mut self.next, &mut self.head] {
            v.clear();
            v.resize(n, NONE);
        }
        self.size.clear();
        self.size.resize(n, 0);
        self.x_hi.clear();
        self.x_hi.resize(n, 0);
        {
            // Local slices: the loop then keeps its pointers in registers.
            let runs = &self.runs[..n];
            let parent = &self.parent[..n];
            let size = &mut self.size[..n];
            let x_hi = &mut self.x_hi[..n];
            let next = &mut self.next[..n];
            let head = &mut self.head[..n];
            for r in (0..n).rev() {
                let root = parent[r] as usize;
                let run = runs[r];
                size[root] += run.mask.count_ones();
                x_hi[root] = x_hi[root].max(run.x);
                next[r] = head[root];
                head[root] = r as u16;
            }
        }
        self.collect(min_group, true);
        &self.groups
    }

    /// Like [`find`](Self::find) but only sizes, colours and representatives (and
    /// [`loose`](Self::loose)): about half the work, for evaluating a position. The groups
    /// cannot be passed to [`remove`](Self::remove).
    pub fn summarize(&mut self, board: &Board, min_group: u32) -> &[Group] {
        self.link(board);
        let n = self.runs.len();
        self.size.clear();
        self.size.resize(n, 0);
        {
            let (runs, parent, size) = (&self.runs[..n], &self.parent[..n], &mut self.size[..n]);
            for r in 0..n {
                size[parent[r] as usize] += runs[r].mask.count_ones();
            }
        }
        self.collect(min_group, false);
        &self.groups
    }

    /// Cuts the columns into runs and links them; afterwards `parent[r]` is the root (the
    /// smallest run index) of run `r`'s group.
    fn link(&mut self, board: &Board) {
        let cols = board.cols();
        self.runs.clear();
        for (x, col) in cols.iter().enumerate() {
            self.base[x] = self.runs.len() as u16;
            let starts = col.occ & !col.same_as_below();
            self.starts[x] = starts;
            let height = col.height();
            let mut rest = starts;
            while rest != 0 {
                let s = rest.trailing_zeros();
                rest &= rest - 1;
                let end = if rest != 0 { rest.trailing_zeros() } else { height };
                let mask = bits::mask::low_u32(end) & !bits::mask::low_u32(s);
                self.runs.push(Run { mask, x: x as u8, color: col.color(s) });
            }
        }
        self.base[cols.len()] = self.runs.len() as u16;
        let n = self.runs.len();
        self.parent.clear();
        self.parent.extend(0..n as u16);
        let parent = &mut self.parent[..n];
        for x in 1..cols.len() {
            let h = cols[x - 1].same_as(&cols[x]);
            if h == 0 {
                continue;
            }
            let (sl, sr) = (self.starts[x - 1], self.starts[x]);
            let (bl, br) = (self.base[x - 1], self.base[x]);
            let links = h & (!(h << 1) | sl | sr);
            for i in SetBits::new(links) {
                let below = bits::mask::low_u32(i + 1);
                let a = bl + (sl & below).count_ones() as u16 - 1;
                let b = br + (sr & below).count_ones() as u16 - 1;
                union(parent, a, b);
            }
        }
        // Roots are the smallest index of their set and `parent[r] <= r` always holds, so one
        // pass in index order resolves every run to its root.
        for r in 0..n {
            parent[r] = parent[parent[r] as usize];
        }
    }

    fn collect(&mut self, min_group: u32, linked: bool) {
        self.groups.clear();
        let mut loose = 0;
        let n = self.runs.len();
        let (runs, parent, size) = (&self.runs[..n], &self.parent[..n], &self.size[..n]);
        for r in 0..n {
            if parent[r] as usize != r {
                continue;
            }
            let sz = size[r];
            if sz < min_group {
                loose += sz;
                continue;
            }
            let run = runs[r];
            self.groups.push(Group {
                size: sz,
                color: run.color,
                x: run.x,
                y: run.mask.trailing_zeros() as u8,
                x_lo: run.x,
                x_hi: if linked { self.x_hi[r] } else { run.x },
                head: if linked { r as u16 } else { NONE },
            });
        }
        self.loose = loose;
    }

    /// The cells of group `g` (from the last [`find`](Self::find)) as one mask per column,
    /// columns `g.x_lo..=g.x_hi`.
    pub fn masks(&self, g: &Group, out: &mut [u32; MAX_WIDTH]) {
        assert!(g.head != NONE, "groups from `summarize` cannot be removed");
        let span = usize::from(g.x_hi - g.x_lo) + 1;
        out[..span].fill(0);
        let mut r = g.head;
        while r != NONE {
            let run = self.runs[r as usize];
            out[usize::from(run.x - g.x_lo)] |= run.mask;
            r = self.next[r as usize];
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
