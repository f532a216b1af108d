//! Shortest routes on a board: breadth first search and A*, both allocation-free per search.
//!
//! # Implementation notes
//! ```text
//!  Searcher (built once per board size, reused for every search; M = 1,024 = MAX_CELLS)
//!  +-------------------------------+  per cell (N = W*H <= M):
//!  | nbr     [[u16; 4]; M]  8M B   |  up/right/down/left neighbour, u16::MAX past a wall
//!  | xy      [(u8, u8); M]  2M B   |  column and row, for the Manhattan estimate
//!  | parent  [u16; M]       2M B   |  written when a cell is reached (every search)
//!  | seen    StampSet<u32>  4N B   |  A* visited set: never cleared, one new stamp per search
//!  | queue   [u16; M]       2M B   |  BFS queue (each cell enters at most once, so no wrap)
//!  | now     [u16; 2M]      4M B   |  A* open stack: the cells of the least f
//!  | done    [u16; M]       2M B   |  A* cells expanded at this f (their moves away wait)
//!  | waiting [u16; M]       2M B   |  A* cells expanded at f - 2 (moves away not yet made)
//!  | g, heap, stack, pending       |  `astar_heap` only: g per cell, binary heap of 8-byte
//!  +-------------------------------+  plain structs keyed (f, -g), equal-f stack, parked list
//! ```
//! **BFS** takes its visited set as a 128-byte copy of the board mask (the body is "already
//! visited"), so one bit test rejects both walls of flesh and cells seen before.
//!
//! **A\*** uses the Manhattan estimate `h`. On a 4-connected grid with unit moves every move
//! changes `h` by exactly 1, so a move keeps `f = g + h` (a move towards the goal) or raises
//! it by 2 (a move away). Hence the open cells only ever have `f` = `F` (the least) or `F + 2`,
//! and a cell's first `f` is its least: a cell first reached at `F` can only be reached again
//! at `F` or later at a larger `f`, with the same or a larger `g`. So the visited stamp alone
//! decides (no `g` array, no stale entries, no decrease-key), and the open list needs no heap:
//! * expanding `c` pushes only its (at most two) moves towards the goal onto the `now` stack
//!   (newest first: a depth-first walk along equal `f`, which on open ground runs straight to
//!   the goal), and files `c` in `done`;
//! * when `now` runs dry, the moves away of the cells of `waiting` (expanded at `F - 2`, so
//!   their moves away have `f = F`) are made one cell at a time, the last expanded first; only
//!   when `waiting` is empty too is every cell of `f = F` expanded: `F` grows by 2 and `done`
//!   becomes `waiting`. Most searches end before making most moves away.
//!
//! The goal is accepted when it is generated: its neighbour `c` was just taken with the least
//! `f`, and `f(goal) = g(c) + 1 = f(c)` because `h(c) = 1`, so no cheaper route exists. The
//! issue's form (a binary heap of plain structs keyed on `(f, -g)` with a `g` array and stale
//! entries) is kept as [`Searcher::astar_heap`], measured beside it in the benches. Nothing is
//! allocated after [`Searcher::new`]: every buffer is sized for the largest board up front.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use bits::stamp::Stamp;
use bits::StampSet;

use crate::board::{Dir, Size};
use crate::cells::{Cells, MAX_CELLS};

const NONE: u16 = u16::MAX;
/// Cell indices are below `MAX_CELLS` (a power of two): `& MASK` lets the compiler drop the
/// bounds checks on the per-cell arrays, which are all `MAX_CELLS` long.
const MASK: usize = MAX_CELLS - 1;
/// A*'s open stack and expanded list hold each cell at most once (a cell's first `f` is its
/// least, see the module notes); the mask keeps indices in range without bounds checks.
const OPEN_MASK: usize = 2 * MAX_CELLS - 1;

/// A shortest route found by a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    /// Number of moves.
    pub len: usize,
    /// The first move.
    pub first: Dir,
}

/// An entry of the A* open list: a plain 4-byte struct (cell + packed key).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    /// `f << 16 | (0xFFFF - g)`: the smallest key is the least `f`, then the largest `g`.
    key: u32,
    cell: u16,
}

impl Ord for Node {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        // `BinaryHeap` pops the greatest: reverse so that the smallest key is popped first.
        other.key.cmp(&self.key)
    }
}

impl PartialOrd for Node {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Reusable buffers for BFS and A* on one board size. `S` is the stamp type of the A*
/// visited set (`u32` normally; a narrow type makes the wrap-around easy to test).
#[derive(Clone, Debug)]
pub struct Searcher<S: Stamp = u32> {
    size: Size,
    nbr: Box<[[u16; 4]]>,
    xy: Box<[(u8, u8)]>,
    parent: Box<[u16]>,
    g: Box<[u16]>,
    queue: Box<[u16]>,
    now: Box<[u16]>,
    done: Box<[u16]>,
    waiting: Box<[u16]>,
    heap: BinaryHeap<Node>,
    stack: Vec<u16>,
    pending: Vec<Node>,
    seen: StampSet<S>,
    expanded: u64,
    /// Cells the last BFS put on its queue (its queue's length).
    bfs_queued: usize,
}

impl<S: Stamp> Searcher<S> {
    /// Buffers for boards of `size`.
    pub fn new(size: Size) -> Self {
        let n = size.cells();
        let nbr = (0..MAX_CELLS)
            .map(|c| {
                let on = c < n;
                Dir::ALL.map(|d| if on { size.step(c, d).map_or(NONE, |x| x as u16) } else { NONE })
            })
            .collect();
        let xy = (0..n)
            .map(|c| {
                let (x, y) = size.xy(c);
                (x as u8, y as u8)
            })
            .chain(std::iter::repeat((0, 0)))
            .take(MAX_CELLS)
            .collect();
        Searcher {
            size,
            nbr,
            xy,
            parent: vec![NONE; MAX_CELLS].into_boxed_slice(),
            g: vec![0; MAX_CELLS].into_boxed_slice(),
            queue: vec![0; MAX_CELLS].into_boxed_slice(),
            now: vec![0; OPEN_MASK + 1].into_boxed_slice(),
            done: vec![0; MAX_CELLS].into_boxed_slice(),
            waiting: vec![0; MAX_CELLS].into_boxed_slice(),
            heap: BinaryHeap::with_capacity(4 * n + 4),
            stack: Vec::with_capacity(4 * n + 4),
            pending: Vec::with_capacity(4 * n + 4),
            seen: StampSet::new(n),
            expanded: 0,
            bfs_queued: 0,
        }
    }

    /// The board size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Cells taken off the queue or heap by all searches so far (a deterministic work count).
    pub fn expanded(&self) -> u64 {
        self.expanded
    }

    /// The cells the last [`Searcher::bfs`] reached (put on its queue), in the order reached:
    /// `from` first, the goal left out. Read off the search's own queue, for the arcade's view
    /// of the engine.
    pub fn bfs_reached(&self) -> Vec<usize> {
        self.queue[..self.bfs_queued].iter().map(|&c| usize::from(c)).collect()
    }

    /// The cells the last [`Searcher::astar`] reached (put on its open list), in cell order:
    /// `from` included, the goal left out. Read off the search's own visited set.
    pub fn astar_reached(&self) -> Vec<usize> {
        (0..self.size.cells()).filter(|&c| self.seen.contains(c)).collect()
    }

    /// The A* visited set (exposed so tests can force its stamp counter to wrap).
    #[doc(hidden)]
    pub fn stamps_mut(&mut self) -> &mut StampSet<S> {
        &mut self.seen
    }

    /// Capacities of the heap, the equal-f stack and the parked list, to check that searches
    /// never grow them (no allocation per search).
    #[doc(hidden)]
    pub fn heap_capacity(&self) -> (usize, usize, usize) {
        (self.heap.capacity(), self.stack.capacity(), self.pending.capacity())
    }

    fn route_to(&self, from: usize, to: usize) -> Route {
        let parent: &[u16; MAX_CELLS] = (&*self.parent).try_into().expect("MAX_CELLS long");
        let mut len = 1;
        let mut c = to & MASK;
        loop {
            let p = usize::from(parent[c]) & MASK;
            if p == from {
                break;
            }
            c = p;
            len += 1;
        }
        let k = self.nbr[from & MASK].iter().position(|&n| usize::from(n) == c);
        let first = Dir::ALL[k.expect("a route starts at a neighbour")];
        Route { len, first }
    }

    /// Writes the cells of the route found by the last search that reached `to` (excluding
    /// `from`, ending with `to`) into `out`.
    pub fn path_into(&self, from: usize, to: usize, out: &mut Vec<usize>) {
        out.clear();
        let mut c = to;
        while c != from {
            out.push(c);
            c = usize::from(self.parent[c]);
        }
        out.reverse();
    }

    /// Breadth first search from `from` to `to` avoiding `blocked` (the goal itself may be
    /// blocked: it is the target, such as the tail). The visited set is a copy of `blocked`.
    pub fn bfs(&mut self, blocked: &Cells, from: usize, to: usize) -> Option<Route> {
        if from == to {
            self.bfs_queued = 0;
            return None;
        }
        // Fixed-size arrays and masked indices, as in `astar`: no bounds checks.
        let nbr: &[[u16; 4]; MAX_CELLS] = (&*self.nbr).try_into().expect("MAX_CELLS long");
        let parent: &mut [u16; MAX_CELLS] = (&mut *self.parent).try_into().expect("MAX_CELLS long");
        let queue: &mut [u16; MAX_CELLS] = (&mut *self.queue).try_into().expect("MAX_CELLS long");
        let mut visited = *blocked;
        visited.remove(to);
        visited.insert(from);
        queue[0] = from as u16;
        let (mut qh, mut qt) = (0, 1);
        let mut expanded = 0;
        let found = 'search: loop {
            if qh >= qt {
                break false;
            }
            let c = usize::from(queue[qh & MASK]) & MASK;
            qh += 1;
            expanded += 1;
            for &n in &nbr[c] {
                let nu = usize::from(n) & MASK;
                if n == NONE || visited.contains(nu) {
                    continue;
                }
                visited.insert(nu);
                parent[nu] = c as u16;
                if nu == to {
                    break 'search true;
                }
                queue[qt & MASK] = n;
                qt += 1;
            }
        };
        self.expanded += expanded;
        self.bfs_queued = qt;
        found.then(|| self.route_to(from, to))
    }

    /// A* from `from` to `to` avoiding `blocked` (the goal may be blocked), with the Manhattan
    /// estimate; returns a shortest route, of the same length BFS finds. The open list is the
    /// two-bucket queue of the module notes (cells of the least `f`, cells of `f + 2`).
    pub fn astar(&mut self, blocked: &Cells, from: usize, to: usize) -> Option<Route> {
        if from == to {
            return None;
        }
        // Plain local slices: the compiler keeps them in registers (through `self` it would
        // reload every buffer's address after each store, not knowing they never overlap).
        // As fixed-size arrays, so that indices masked below their length need no bounds
        // checks (every per-cell buffer is MAX_CELLS long, the open stack twice that).
        let nbr: &[[u16; 4]; MAX_CELLS] = (&*self.nbr).try_into().expect("MAX_CELLS long");
        let xy: &[(u8, u8); MAX_CELLS] = (&*self.xy).try_into().expect("MAX_CELLS long");
        let parent: &mut [u16; MAX_CELLS] = (&mut *self.parent).try_into().expect("MAX_CELLS long");
        let seen = &mut self.seen;
        let now: &mut [u16; OPEN_MASK + 1] = (&mut *self.now).try_into().expect("2 MAX_CELLS");
        let mut done: &mut [u16; MAX_CELLS] = (&mut *self.done).try_into().expect("MAX_CELLS long");
        let mut waiting: &mut [u16; MAX_CELLS] =
            (&mut *self.waiting).try_into().expect("MAX_CELLS long");
        let (tx, ty) = xy[to & MASK];
        seen.begin();
        seen.insert(from);
        now[0] = from as u16;
        // `now`: open cells of the least f (a stack, so the newest, deepest, goes first);
        // `done`: cells expanded at this f, whose moves away (f + 2) wait; `waiting`: cells
        // expanded at f - 2 whose moves away (f) have not been generated yet.
        let (mut n_now, mut n_done, mut n_waiting) = (1, 0, 0);
        let mut expanded = 0;
        let found = loop {
            if n_now == 0 {
                if n_waiting == 0 {
                    if n_done == 0 {
                        break false;
                    }
                    // Every cell of this f is expanded: the next f is f + 2, reached only by
                    // moves away from the cells expanded now.
                    std::mem::swap(&mut done, &mut waiting);
                    (n_waiting, n_done) = (n_done, 0);
                }
                // Generate the moves away of one waiting cell (the last expanded first).
                n_waiting -= 1;
                let c = usize::from(waiting[n_waiting & MASK]) & MASK;
                let (cx, cy) = xy[c];
                let [up, right, down, left] = nbr[c];
                // The goal is never a move away (its h is 0); a missing neighbour is NONE.
                macro_rules! away {
                    ($away:expr, $n:expr) => {
                        let n = $n;
                        let nu = usize::from(n) & MASK;
                        if $away && n != NONE && !blocked.contains(nu) && seen.insert(nu) {
                            parent[nu] = c as u16;
                            now[n_now & OPEN_MASK] = n;
                            n_now += 1;
                        }
                    };
                }
                away!(cy <= ty, up);
                away!(cx >= tx, right);
                away!(cy >= ty, down);
                away!(cx <= tx, left);
                continue;
            }
            n_now -= 1;
            let c = usize::from(now[n_now & OPEN_MASK]) & MASK;
            expanded += 1;
            let (cx, cy) = xy[c];
            // The moves towards the goal (same f): at most one vertical and one horizontal.
            let vertical = if cy > ty {
                nbr[c][0]
            } else if cy < ty {
                nbr[c][2]
            } else {
                NONE
            };
            let horizontal = if cx < tx {
                nbr[c][1]
            } else if cx > tx {
                nbr[c][3]
            } else {
                NONE
            };
            macro_rules! toward {
                ($n:expr) => {
                    let n = $n;
                    let nu = usize::from(n) & MASK;
                    if n != NONE {
                        if nu == to {
                            parent[nu] = c as u16;
                            break true;
                        }
                        if !blocked.contains(nu) && seen.insert(nu) {
                            parent[nu] = c as u16;
                            now[n_now & OPEN_MASK] = n;
                            n_now += 1;
                        }
                    }
                };
            }
            toward!(vertical);
            toward!(horizontal);
            // Its moves away wait until the least f is used up.
            done[n_done & MASK] = c as u16;
            n_done += 1;
        };
        self.expanded += expanded;
        found.then(|| self.route_to(from, to))
    }

    /// The same A* with the open list the issue names: a binary heap of plain structs keyed
    /// on `(f, -g)`, fronted by a stack of equal-`f` cells (kept beside [`Searcher::astar`] as
    /// the measured alternative; both return shortest routes).
    pub fn astar_heap(&mut self, blocked: &Cells, from: usize, to: usize) -> Option<Route> {
        if from == to {
            return None;
        }
        let (tx, ty) = self.xy[to];
        self.seen.begin();
        self.heap.clear();
        self.pending.clear();
        self.stack.clear();
        self.seen.insert(from);
        self.g[from] = 0;
        self.stack.push(from as u16);
        loop {
            // Cells on the stack have the least f of all open cells: take them first, deepest
            // first; the heap holds the rest, keyed by (f, -g).
            let c = if let Some(c) = self.stack.pop() {
                usize::from(c)
            } else if let Some(Node { key, cell }) = {
                // Cells that step away from the goal wait in `pending` (a plain push) and enter
                // the heap only once the equal-f cells run out; most searches end first.
                self.heap.extend(self.pending.drain(..));
                self.heap.pop()
            } {
                let c = usize::from(cell);
                if 0xFFFF - (key & 0xFFFF) as u16 != self.g[c & MASK] {
                    continue; // a stale entry: c was reached more cheaply since
                }
                c
            } else {
                return None;
            };
            self.expanded += 1;
            let gc = self.g[c & MASK];
            let (cx, cy) = self.xy[c & MASK];
            let hc = u32::from(cx.abs_diff(tx)) + u32::from(cy.abs_diff(ty));
            // Which moves bring the head closer (h - 1) and which take it away (h + 1):
            // up, right, down, left, as in `nbr`.
            let closer = [cy > ty, cx < tx, cy < ty, cx > tx];
            let ng = gc + 1;
            let away_key = ((u32::from(ng) + hc + 1) << 16) | u32::from(0xFFFF - ng);
            for (k, &n) in self.nbr[c & MASK].iter().enumerate() {
                let nu = usize::from(n);
                if n == NONE {
                    continue;
                }
                if nu == to {
                    self.parent[nu & MASK] = c as u16;
                    return Some(self.route_to(from, to));
                }
                if blocked.contains(nu & MASK) {
                    continue;
                }
                if self.seen.insert(nu) || ng < self.g[nu & MASK] {
                    self.g[nu & MASK] = ng;
                    self.parent[nu & MASK] = c as u16;
                    if closer[k] {
                        // Same f as c, the least: no need to go through the heap.
                        self.stack.push(n);
                    } else {
                        self.pending.push(Node { key: away_key, cell: n });
                    }
                }
            }
        }
    }
}

/// The cells reachable from `from` through cells not in `blocked` (including `from`), by
/// bitboard flood fill one ring at a time: each step grows the region by one cell in all four
/// directions at once with word shifts.
pub fn flood(size: Size, blocked: &Cells, from: usize) -> Cells {
    let live = size.live();
    let free = live - *blocked;
    let w = size.width();
    let (not_left, not_right) = column_masks(size);
    let mut region = Cells::EMPTY;
    region.insert(from);
    loop {
        let grown = (region
            | shift_up(&(region & not_left), 1)
            | shift_down(&(region & not_right), 1)
            | shift_up(&region, w)
            | shift_down(&region, w))
            & free;
        let grown = grown | region;
        if grown == region {
            return region;
        }
        region = grown;
    }
}

/// Cells not in column 0, and cells not in the last column.
fn column_masks(size: Size) -> (Cells, Cells) {
    let mut not_left = size.live();
    let mut not_right = size.live();
    for y in 0..size.height() {
        not_left.remove(size.cell(0, y));
        not_right.remove(size.cell(size.width() - 1, y));
    }
    (not_left, not_right)
}

/// Every cell index shifted down by `k` (cell `i` moves to `i - k`).
fn shift_up(c: &Cells, k: usize) -> Cells {
    let mut out = Cells::EMPTY;
    let (wq, b) = (k / 64, k % 64);
    for i in 0..c.0.len() {
        let src = i + wq;
        if src >= c.0.len() {
            break;
        }
        let mut v = c.0[src] >> b;
        if b > 0 && src + 1 < c.0.len() {
            v |= c.0[src + 1] << (64 - b);
        }
        out.0[i] = v;
    }
    out
}

/// Every cell index shifted up by `k` (cell `i` moves to `i + k`); the caller masks the result.
fn shift_down(c: &Cells, k: usize) -> Cells {
    let mut out = Cells::EMPTY;
    let (wq, b) = (k / 64, k % 64);
    for i in (wq..c.0.len()).rev() {
        let src = i - wq;
        let mut v = c.0[src] << b;
        if b > 0 && src > 0 {
            v |= c.0[src - 1] >> (64 - b);
        }
        out.0[i] = v;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use bits::Rng;

    /// A random board: a random walk of a snake of random length, a random target.
    pub(crate) fn random_blocked(rng: &mut Rng, size: Size) -> (Cells, usize, usize) {
        let n = size.cells();
        let mut blocked = Cells::EMPTY;
        for c in 0..n {
            if rng.chance(1, 3) {
                blocked.insert(c);
            }
        }
        let from = rng.below(n as u64) as usize;
        let to = rng.below(n as u64) as usize;
        blocked.remove(from);
        (blocked, from, to)
    }

    /// The obvious BFS distance, for the gate test.
    fn plain_distance(size: Size, blocked: &Cells, from: usize, to: usize) -> Option<usize> {
        let mut dist = vec![usize::MAX; size.cells()];
        let mut q = std::collections::VecDeque::from([from]);
        dist[from] = 0;
        while let Some(c) = q.pop_front() {
            for d in Dir::ALL {
                if let Some(n) = size.step(c, d) {
                    if dist[n] == usize::MAX && (n == to || !blocked.contains(n)) {
                        dist[n] = dist[c] + 1;
                        q.push_back(n);
                    }
                }
            }
        }
        (from != to && dist[to] != usize::MAX).then_some(dist[to])
    }

    fn check_route(
        size: Size,
        blocked: &Cells,
        from: usize,
        to: usize,
        r: Route,
        s: &Searcher<impl Stamp>,
    ) {
        let mut path = Vec::new();
        s.path_into(from, to, &mut path);
        assert_eq!(path.len(), r.len);
        assert_eq!(size.step(from, r.first), Some(path[0]));
        let mut prev = from;
        for (i, &c) in path.iter().enumerate() {
            assert_eq!(size.manhattan(prev, c), 1);
            assert!(i + 1 == path.len() || !blocked.contains(c));
            prev = c;
        }
    }

    #[test]
    fn bfs_and_astar_find_equal_shortest_routes() {
        let mut rng = Rng::new(7);
        for size in ["10x10", "7x5", "32x32", "1x9", "20x13"] {
            let size: Size = size.parse().unwrap();
            let mut s: Searcher = Searcher::new(size);
            let cap = s.heap_capacity();
            for _ in 0..3_000 {
                let (blocked, from, to) = random_blocked(&mut rng, size);
                let want = plain_distance(size, &blocked, from, to);
                let b = s.bfs(&blocked, from, to);
                if let Some(r) = b {
                    check_route(size, &blocked, from, to, r, &s);
                }
                let a = s.astar(&blocked, from, to);
                if let Some(r) = a {
                    check_route(size, &blocked, from, to, r, &s);
                }
                let ah = s.astar_heap(&blocked, from, to);
                if let Some(r) = ah {
                    check_route(size, &blocked, from, to, r, &s);
                }
                assert_eq!(b.map(|r| r.len), want, "bfs {size} {from}->{to}");
                assert_eq!(a.map(|r| r.len), want, "astar {size} {from}->{to}");
                assert_eq!(ah.map(|r| r.len), want, "astar_heap {size} {from}->{to}");
            }
            assert_eq!(s.heap_capacity(), cap, "no search grew the heap");
        }
    }

    #[test]
    fn astar_survives_stamp_wrap() {
        let size: Size = "9x9".parse().unwrap();
        let mut narrow: Searcher<u8> = Searcher::new(size);
        let mut wide: Searcher<u32> = Searcher::new(size);
        wide.stamps_mut().advance_to(u32::MAX - 100);
        let mut rng = Rng::new(11);
        for _ in 0..1_000 {
            let (blocked, from, to) = random_blocked(&mut rng, size);
            let want = plain_distance(size, &blocked, from, to);
            assert_eq!(narrow.astar(&blocked, from, to).map(|r| r.len), want);
            assert_eq!(wide.astar(&blocked, from, to).map(|r| r.len), want);
            assert_eq!(narrow.astar_heap(&blocked, from, to).map(|r| r.len), want);
        }
        assert_eq!(narrow.stamps_mut().wraps(), 2 * 1_000 / 255);
        assert_eq!(wide.stamps_mut().wraps(), 1);
    }

    #[test]
    fn flood_matches_bfs_reachability() {
        let mut rng = Rng::new(5);
        for size in ["10x10", "32x32", "13x7", "1x5", "31x2"] {
            let size: Size = size.parse().unwrap();
            let mut s: Searcher = Searcher::new(size);
            for _ in 0..300 {
                let (blocked, from, _) = random_blocked(&mut rng, size);
                let region = flood(size, &blocked, from);
                for c in 0..size.cells() {
                    let reach =
                        c == from || (!blocked.contains(c) && s.bfs(&blocked, from, c).is_some());
                    assert_eq!(region.contains(c), reach, "{size} from {from} cell {c}");
                }
            }
        }
    }

    #[test]
    fn searches_route_around_a_snake() {
        let b: Board = "*....\n.>>v.\n.^.v.\n.^H<.\n.....".parse().unwrap();
        let mut s: Searcher = Searcher::new(b.size());
        let fruit = b.fruit().unwrap();
        let r = s.bfs(b.occupied(), b.head(), fruit).unwrap();
        assert_eq!(r, s.astar(b.occupied(), b.head(), fruit).unwrap());
        // The pocket above the head is a dead end and the tail blocks the left: around below.
        assert_eq!(r, Route { len: 7, first: Dir::Down });
    }
}
