//! The players, from the seed post's shortest-path snakes to a board-filling cycle player.
//!
//! | name        | idea                                                                       |
//! |-------------|----------------------------------------------------------------------------|
//! | `shortest`  | BFS to the fruit around the body; else the first safe move                  |
//! | `astar`     | the same with A*                                                           |
//! | `longest`   | a longest route to the fruit (BFS route stretched by detours), else to the tail |
//! | `lookahead` | the BFS route only if a virtual snake sent along it can still reach its tail; else the longest route to the tail; else the safe move with most room |
//! | `cycle`     | a Hamiltonian cycle with safe shortcuts (below)                             |
//! | `repair`    | a Hamiltonian cycle rebuilt around the shortest route to each fruit ([`PlayerKind::Repair`]) |
//! | `tree`      | a Hamiltonian cycle kept as the contour of a spanning tree of 2 x 2 blocks, re-planned through a searched route each move ([`crate::spanning`]) |
//! | `knit`      | `tree` that also re-completes the spanning tree in 8 edge orders each move and keeps the contour that reaches the fruit soonest ([`crate::spanning`]) |
//! | `dash`      | `lookahead` while the snake fills under 30% of the board, then a searched realignment route back onto a spanning tree's contour, then `knit` ([`crate::spanning`]) |
//!
//! # The cycle player
//! A fixed Hamiltonian cycle numbers the cells `0..N`. Measure positions relative to the tail:
//! `r(c) = (ord(c) - ord(tail)) mod N`. The invariant is that `r` strictly increases along the
//! body from tail to head, so every cell with `r` above the head's is empty. A move to a
//! neighbour with a larger `r` (or onto the tail cell, which moves on) keeps it, and the cycle
//! successor of the head is always such a move: the snake can never be trapped. Shortcuts are
//! routes whose `r` increases at every step: when the fruit lies ahead (`r(fruit) > r(head)`),
//! the player follows a shortest such route to it (a BFS restricted to increasing `r`); when the
//! fruit lies in a cell the head skipped (behind it), it creeps along the cycle until the tail
//! has passed the fruit. It wins every game on a board with an even side (both sides odd have
//! no Hamiltonian cycle: there it plays `lookahead`).

use std::str::FromStr;

use crate::board::{Board, Dir, Size};
use crate::cells::Cells;
use crate::game::Game;
use crate::search::{flood, Searcher};
use crate::spanning::Tree;

/// Chooses moves.
pub trait Player: Send {
    /// The player's name.
    fn name(&self) -> &'static str;
    /// The next move for `game` (never a reversal onto the neck).
    fn choose(&mut self, game: &Game) -> Dir;
}

/// The players this crate provides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    /// BFS to the fruit.
    Shortest,
    /// A* to the fruit.
    Astar,
    /// Longest route to the fruit.
    Longest,
    /// BFS route checked by a virtual snake.
    Lookahead,
    /// Hamiltonian cycle with safe shortcuts.
    Cycle,
    /// Hamiltonian cycle rebuilt around the shortest route to each fruit.
    Repair,
    /// Hamiltonian cycle as the contour of a spanning tree of 2 x 2 blocks, repaired by
    /// union-find ([`crate::spanning`]); `repair` where a side is odd.
    Tree,
    /// `tree` that also re-completes the spanning tree in several edge orders each move
    /// ([`crate::spanning`]); `repair` where a side is odd.
    Knit,
    /// `lookahead` until the snake fills 30% of the board, then a realignment route onto a
    /// spanning tree's contour and `knit` ([`crate::spanning`]); `repair` where a side is odd.
    Dash,
}

impl PlayerKind {
    /// Every player, in table order.
    pub const ALL: [PlayerKind; 9] = [
        PlayerKind::Shortest,
        PlayerKind::Astar,
        PlayerKind::Longest,
        PlayerKind::Lookahead,
        PlayerKind::Cycle,
        PlayerKind::Repair,
        PlayerKind::Tree,
        PlayerKind::Knit,
        PlayerKind::Dash,
    ];

    /// The name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Shortest => "shortest",
            PlayerKind::Astar => "astar",
            PlayerKind::Longest => "longest",
            PlayerKind::Lookahead => "lookahead",
            PlayerKind::Cycle => "cycle",
            PlayerKind::Repair => "repair",
            PlayerKind::Tree => "tree",
            PlayerKind::Knit => "knit",
            PlayerKind::Dash => "dash",
        }
    }

    /// A fresh player for boards of `size`.
    pub fn build(self, size: Size) -> Box<dyn Player> {
        match self {
            PlayerKind::Shortest => Box::new(Shortest::new(size, false)),
            PlayerKind::Astar => Box::new(Shortest::new(size, true)),
            PlayerKind::Longest => Box::new(Longest::new(size)),
            PlayerKind::Lookahead => Box::new(Lookahead::new(size)),
            PlayerKind::Cycle => match Cycle::new(size) {
                Some(c) => Box::new(c),
                None => Box::new(Lookahead::new(size)),
            },
            PlayerKind::Repair => match Repair::new(size) {
                Some(c) => Box::new(c),
                None => Box::new(Lookahead::new(size)),
            },
            PlayerKind::Tree => match Tree::new(size, 0) {
                Some(t) => Box::new(t),
                None => PlayerKind::Repair.build(size),
            },
            PlayerKind::Knit => match Tree::new(size, 8) {
                Some(t) => Box::new(t),
                None => PlayerKind::Repair.build(size),
            },
            PlayerKind::Dash => match Tree::new(size, 8) {
                Some(t) => Box::new(t.with_dash(size.cells() * 3 / 10)),
                None => PlayerKind::Repair.build(size),
            },
        }
    }
}

impl FromStr for PlayerKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        PlayerKind::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| {
            format!(
                "{s:?} is not a player (shortest, astar, longest, lookahead, cycle, repair, tree, knit, dash)"
            )
        })
    }
}

/// The moves that do not end the game at once (not a reversal, not a wall, not the body).
pub fn safe_moves(board: &Board) -> impl Iterator<Item = Dir> + '_ {
    let size = board.size();
    Dir::ALL.into_iter().filter(move |&d| {
        !board.is_reversal(d) && size.step(board.head(), d).is_some_and(|n| !board.blocked(n))
    })
}

/// Any legal direction (not a reversal), for when every move is fatal.
fn any_legal(board: &Board) -> Dir {
    Dir::ALL.into_iter().find(|&d| !board.is_reversal(d)).unwrap_or(Dir::Up)
}

/// The safe move after which the head has the most room (flood fill of the cells the body
/// does not hold after the move), or any legal move if none is safe.
pub fn roomiest_move(board: &Board) -> Dir {
    let size = board.size();
    let mut best: Option<(usize, Dir)> = None;
    for d in safe_moves(board) {
        let mut b = board.clone();
        b.apply(d);
        let room = flood(size, &(*b.occupied() - single(b.head())), b.head()).len();
        if best.is_none_or(|(r, _)| room > r) {
            best = Some((room, d));
        }
    }
    best.map_or_else(|| any_legal(board), |(_, d)| d)
}

fn single(c: usize) -> Cells {
    let mut s = Cells::EMPTY;
    s.insert(c);
    s
}

/// `shortest` and `astar`: the seed post's players.
struct Shortest {
    search: Searcher,
    astar: bool,
}

impl Shortest {
    fn new(size: Size, astar: bool) -> Self {
        Shortest { search: Searcher::new(size), astar }
    }
}

impl Player for Shortest {
    fn name(&self) -> &'static str {
        if self.astar {
            "astar"
        } else {
            "shortest"
        }
    }

    fn choose(&mut self, game: &Game) -> Dir {
        let b = game.board();
        let Some(fruit) = b.fruit() else { return any_legal(b) };
        let route = if self.astar {
            self.search.astar(b.occupied(), b.head(), fruit)
        } else {
            self.search.bfs(b.occupied(), b.head(), fruit)
        };
        match route {
            Some(r) => r.first,
            None => safe_moves(b).next().unwrap_or_else(|| any_legal(b)),
        }
    }
}

/// Stretches `path` (cells after `from`, ending at the goal) by detours: wherever two
/// consecutive cells `a, b` have a free parallel pair `a', b'` beside them, replace `a -> b`
/// with `a -> a' -> b' -> b`; repeat until nothing stretches. `free` are the cells a detour
/// may use.
pub fn stretch(size: Size, from: usize, path: &mut Vec<usize>, free: &Cells) {
    let Some(&end) = path.last() else { return };
    // The route as successor links, so a detour is inserted in O(1).
    let mut next = vec![u16::MAX; size.cells()];
    let mut used = single(from);
    let mut prev = from;
    for &c in path.iter() {
        next[prev] = c as u16;
        used.insert(c);
        prev = c;
    }
    let mut a = from;
    while a != end {
        let b = usize::from(next[a]);
        let d = size.dir_between(a, b).expect("route cells are neighbours");
        let mut stretched = false;
        for side in [Dir::ALL[(d as usize + 1) & 3], Dir::ALL[(d as usize + 3) & 3]] {
            if let (Some(a2), Some(b2)) = (size.step(a, side), size.step(b, side)) {
                let ok = |c: usize| free.contains(c) && !used.contains(c);
                if ok(a2) && ok(b2) {
                    next[a] = a2 as u16;
                    next[a2] = b2 as u16;
                    next[b2] = b as u16;
                    used.insert(a2);
                    used.insert(b2);
                    stretched = true;
                    break;
                }
            }
        }
        // After a detour, look at the new pair (a, a2) again, as the first pass would.
        if !stretched {
            a = b;
        }
    }
    path.clear();
    let mut c = from;
    while c != end {
        c = usize::from(next[c]);
        path.push(c);
    }
}

/// `longest`: a longest route to the fruit, planned once per fruit and followed.
struct Longest {
    search: Searcher,
    plan: Vec<usize>,
    planned_for: Option<usize>,
}

impl Longest {
    fn new(size: Size) -> Self {
        Longest { search: Searcher::new(size), plan: Vec::new(), planned_for: None }
    }
}

/// A stretched route from the head to `goal` avoiding the body (the goal may be the tail),
/// written into `out`; `false` if there is none.
fn longest_route(search: &mut Searcher, b: &Board, goal: usize, out: &mut Vec<usize>) -> bool {
    if search.bfs(b.occupied(), b.head(), goal).is_none() {
        return false;
    }
    search.path_into(b.head(), goal, out);
    stretch(b.size(), b.head(), out, &b.empty());
    true
}

impl Player for Longest {
    fn name(&self) -> &'static str {
        "longest"
    }

    fn choose(&mut self, game: &Game) -> Dir {
        let b = game.board();
        let size = b.size();
        if let Some(fruit) = b.fruit() {
            let valid = self.planned_for == Some(fruit)
                && self.plan.first().is_some_and(|&c| size.manhattan(b.head(), c) == 1);
            if !valid {
                self.planned_for = None;
                if longest_route(&mut self.search, b, fruit, &mut self.plan) {
                    self.planned_for = Some(fruit);
                }
            }
            if self.planned_for.is_some() {
                let next = self.plan.remove(0);
                return size.dir_between(b.head(), next).expect("planned route");
            }
        }
        // No route to the fruit: stretch out towards the tail.
        if b.len() > 2 && longest_route(&mut self.search, b, b.tail(), &mut self.plan) {
            self.planned_for = None;
            let next = self.plan[0];
            self.plan.clear();
            return size.dir_between(b.head(), next).expect("route");
        }
        roomiest_move(b)
    }
}

/// `lookahead`: chuyangliu's greedy solver, reimplemented from its description.
pub(crate) struct Lookahead {
    search: Searcher,
    path: Vec<usize>,
}

impl Lookahead {
    pub(crate) fn new(size: Size) -> Self {
        Lookahead { search: Searcher::new(size), path: Vec::new() }
    }

    /// Whether a virtual snake that follows `self.path` (ending on the fruit) can then reach
    /// its tail.
    fn safe_after(&mut self, b: &Board) -> bool {
        let mut v = b.clone();
        let size = b.size();
        for &c in &self.path {
            let d = size.dir_between(v.head(), c).expect("route");
            v.apply(d);
        }
        v.len() <= 2 || self.search.bfs(v.occupied(), v.head(), v.tail()).is_some()
    }
}

impl Player for Lookahead {
    fn name(&self) -> &'static str {
        "lookahead"
    }

    fn choose(&mut self, game: &Game) -> Dir {
        let b = game.board();
        let size = b.size();
        if let Some(fruit) = b.fruit() {
            if let Some(r) = self.search.bfs(b.occupied(), b.head(), fruit) {
                self.search.path_into(b.head(), fruit, &mut self.path);
                if self.safe_after(b) {
                    return r.first;
                }
            }
        }
        if b.len() > 2 && longest_route(&mut self.search, b, b.tail(), &mut self.path) {
            if let Some(&next) = self.path.first() {
                if self.path.len() > 1 || b.fruit() != Some(next) {
                    return size.dir_between(b.head(), next).expect("route");
                }
            }
        }
        roomiest_move(b)
    }
}

/// A Hamiltonian cycle of a board with an even side: `order[c]` is cell `c`'s place on it and
/// `cells[i]` the cell in place `i`.
#[derive(Clone, Debug)]
pub struct HamCycle {
    /// Place of each cell.
    pub order: Vec<u16>,
    /// Cell at each place.
    pub cells: Vec<u16>,
}

impl HamCycle {
    /// The cycle: column 0 is the way back up, the other columns are swept row by row in a
    /// zigzag (rows if the height is even, else the board transposed). `None` if both sides are
    /// odd or a side is 1 (no Hamiltonian cycle, except on 1 x 2 / 2 x 1).
    pub fn new(size: Size) -> Option<HamCycle> {
        let (w, h) = (size.width(), size.height());
        let mut seq: Vec<usize> = Vec::with_capacity(w * h);
        if w >= 2 && h >= 2 && h % 2 == 0 {
            for y in 0..h {
                let xs: Vec<usize> =
                    if y % 2 == 0 { (1..w).collect() } else { (1..w).rev().collect() };
                seq.extend(xs.into_iter().map(|x| size.cell(x, y)));
            }
            seq.extend((0..h).rev().map(|y| size.cell(0, y)));
        } else if w >= 2 && h >= 2 && w % 2 == 0 {
            for x in 0..w {
                let ys: Vec<usize> =
                    if x % 2 == 0 { (1..h).collect() } else { (1..h).rev().collect() };
                seq.extend(ys.into_iter().map(|y| size.cell(x, y)));
            }
            seq.extend((0..w).rev().map(|x| size.cell(x, 0)));
        } else if w * h == 2 {
            seq = vec![0, 1];
        } else {
            return None;
        }
        let mut order = vec![0u16; w * h];
        for (i, &c) in seq.iter().enumerate() {
            order[c] = i as u16;
        }
        let cyc = HamCycle { order, cells: seq.into_iter().map(|c| c as u16).collect() };
        debug_assert!(cyc.is_valid(size));
        Some(cyc)
    }

    /// Whether this visits every cell once and consecutive places are neighbours.
    pub fn is_valid(&self, size: Size) -> bool {
        let n = size.cells();
        let mut seen = Cells::EMPTY;
        for c in &self.cells {
            seen.insert(usize::from(*c));
        }
        self.cells.len() == n
            && seen.len() == n
            && (0..n).all(|i| {
                size.manhattan(usize::from(self.cells[i]), usize::from(self.cells[(i + 1) % n]))
                    == 1
            })
    }
}

/// Shortcuts are taken while the snake is shorter than `SHORTCUT_NUM / SHORTCUT_DEN` of the
/// board; longer snakes follow the cycle. Every shortcut leaves skipped cells behind the head,
/// and a fruit that later lands in one costs a lap; measured on 10 x 10 (400 games), stopping at
/// 0.45 of the board beat 0.25 (1,806 moves), 0.5 (1,661), 0.65 (1,867) and never (2,540).
const SHORTCUT_NUM: usize = 9;
const SHORTCUT_DEN: usize = 20;

/// `cycle`: a Hamiltonian cycle with safe shortcuts (see the module docs).
struct Cycle {
    size: Size,
    cyc: HamCycle,
    plan: Vec<usize>,
    plan_for: Option<usize>,
    fallback: Lookahead,
    parent: Vec<u16>,
    dist: Vec<u32>,
}

impl Cycle {
    fn new(size: Size) -> Option<Self> {
        let cyc = HamCycle::new(size)?;
        let n = size.cells();
        Some(Cycle {
            size,
            cyc,
            plan: Vec::new(),
            plan_for: None,
            fallback: Lookahead::new(size),
            parent: vec![0; n],
            dist: vec![u32::MAX; n],
        })
    }

    fn rel(&self, c: usize, tail: usize) -> usize {
        let n = self.size.cells();
        (usize::from(self.cyc.order[c]) + n - usize::from(self.cyc.order[tail])) % n
    }

    /// Whether the body is in strictly increasing cycle order from tail to head, and the
    /// head's successor on the cycle is not the neck (a snake of two whose head is the cell
    /// just before its tail on the cycle would reverse onto its neck).
    fn ordered(&self, b: &Board) -> bool {
        let tail = b.tail();
        if b.len() == 2 && self.rel(b.head(), tail) == self.size.cells() - 1 {
            return false;
        }
        let mut prev = 0;
        for i in (0..b.len() - 1).rev() {
            let r = self.rel(b.segment(i), tail);
            if r <= prev {
                return false;
            }
            prev = r;
        }
        true
    }

    /// A shortest route from the head to the fruit through cells of increasing `r`, none past
    /// the fruit, into `self.plan`.
    fn plan_route(&mut self, b: &Board, fruit: usize) -> bool {
        let tail = b.tail();
        let head = b.head();
        // With a lone head, stop short of the cell before the tail: a snake of two whose head
        // sits there could only go on by reversing onto its neck.
        let cap = self.size.cells() - if b.len() == 1 { 2 } else { 1 };
        let rf = self.rel(fruit, tail);
        if rf > cap {
            return false;
        }
        let rh = self.rel(head, tail);
        let n = self.size.cells();
        let base = usize::from(self.cyc.order[tail]);
        // The cells with r in (rh, rf] are empty and edges only go up in r: a DAG, relaxed in
        // order of r, so one pass finds the fewest moves.
        self.dist[rh] = 0;
        for p in rh + 1..=rf {
            let c = usize::from(self.cyc.cells[(base + p) % n]);
            let mut best = u32::MAX;
            for d in Dir::ALL {
                let Some(m) = self.size.step(c, d) else { continue };
                let rm = self.rel(m, tail);
                if rm < rh || rm >= p || self.dist[rm] == u32::MAX {
                    continue;
                }
                let cost = self.dist[rm] + 1;
                if cost < best {
                    best = cost;
                    self.parent[c] = m as u16;
                }
            }
            self.dist[p] = best;
        }
        let reached = self.dist[rf] != u32::MAX;
        self.dist[rh..=rf].fill(u32::MAX);
        if !reached {
            return false;
        }
        self.plan.clear();
        let mut x = fruit;
        while x != head {
            self.plan.push(x);
            x = usize::from(self.parent[x]);
        }
        self.plan.reverse();
        true
    }
}

impl Player for Cycle {
    fn name(&self) -> &'static str {
        "cycle"
    }

    fn choose(&mut self, game: &Game) -> Dir {
        let b = game.board();
        if !self.ordered(b) {
            return self.fallback.choose(game);
        }
        let head = b.head();
        let tail = b.tail();
        if let Some(fruit) = b.fruit() {
            let ahead = self.rel(fruit, tail) > self.rel(head, tail);
            if ahead && b.len() * SHORTCUT_DEN < SHORTCUT_NUM * self.size.cells() {
                let valid = self.plan_for == Some(fruit)
                    && self.plan.first().is_some_and(|&c| self.size.manhattan(head, c) == 1);
                if valid || self.plan_route(b, fruit) {
                    self.plan_for = Some(fruit);
                    let next = self.plan.remove(0);
                    return self.size.dir_between(head, next).expect("planned route");
                }
            }
        }
        self.plan_for = None;
        // Creep along the cycle: its successor is empty or the tail, which moves on.
        let n = self.size.cells();
        let succ = usize::from(self.cyc.cells[(usize::from(self.cyc.order[head]) + 1) % n]);
        self.size.dir_between(head, succ).expect("cycle neighbours")
    }
}

/// Moves between rebuild attempts for the same fruit.
const RETRY: u64 = 1;

/// `repair`: follows a Hamiltonian cycle that always holds the body as one stretch (tail to
/// head), so every move is safe; whenever the cycle's way to the fruit is longer than the
/// shortest route `P`, it tries to rebuild the cycle as body, then `P`, then a route `Q` from
/// the fruit back to the tail stretched by detours until it covers every other empty cell; cells
/// that `Q` leaves out are offered to `P`'s detours (then `Q`'s again), and the shortest complete
/// rebuild that beats the cycle's way to the fruit is kept. If every try leaves a cell out, the
/// old cycle stays and the rebuild is tried again later.
struct Repair {
    size: Size,
    next: Vec<u16>,
    search: Searcher,
    p0: Vec<usize>,
    p: Vec<usize>,
    q: Vec<usize>,
    best_p: Vec<usize>,
    best_q: Vec<usize>,
    tried_at: Option<(usize, u64)>,
    fallback: Lookahead,
}

impl Repair {
    fn new(size: Size) -> Option<Self> {
        let cyc = HamCycle::new(size)?;
        let n = size.cells();
        let mut next = vec![0u16; n];
        for i in 0..n {
            next[usize::from(cyc.cells[i])] = cyc.cells[(i + 1) % n];
        }
        Some(Repair {
            size,
            next,
            search: Searcher::new(size),
            p0: Vec::new(),
            p: Vec::new(),
            q: Vec::new(),
            best_p: Vec::new(),
            best_q: Vec::new(),
            tried_at: None,
            fallback: Lookahead::new(size),
        })
    }

    /// Whether the cycle runs along the body from tail to head.
    fn holds_body(&self, b: &Board) -> bool {
        (1..b.len()).all(|i| usize::from(self.next[b.segment(i)]) == b.segment(i - 1))
    }

    fn cycle_distance(&self, from: usize, to: usize) -> usize {
        let mut c = from;
        let mut d = 0;
        while c != to {
            c = usize::from(self.next[c]);
            d += 1;
        }
        d
    }

    /// Tries to rebuild the cycle through the shortest route to `fruit`; `true` on success.
    fn rebuild(&mut self, b: &Board, fruit: usize) -> bool {
        let (head, tail) = (b.head(), b.tail());
        let live = self.size.live();
        // Accept a rebuild only if its way to the fruit beats the current cycle's.
        let mut limit = self.cycle_distance(head, fruit);
        let mut done = false;
        // Up to four tries: P and Q each by BFS (which fans out) or by A* (which runs straight
        // and deep first); the two give differently shaped routes, and so different leftovers
        // for the detours to cover. A try whose Q misses cells stretches P through the cells
        // only P can reach, then Q again; the shortest complete P wins.
        'tries: for (p_astar, p_back) in
            [(false, false), (true, false), (false, true), (true, true)]
        {
            // P searched from the head, or from the fruit back to the head (another shape).
            let (from, to) = if p_back { (fruit, head) } else { (head, fruit) };
            let found = if p_astar {
                self.search.astar(b.occupied(), from, to)
            } else {
                self.search.bfs(b.occupied(), from, to)
            };
            if found.is_none() {
                break;
            }
            self.search.path_into(from, to, &mut self.p0);
            if p_back {
                // [.., head] from the fruit: reverse it into [.., fruit] from the head.
                self.p0.pop();
                self.p0.reverse();
                self.p0.push(fruit);
            }
            let mut blocked = *b.occupied();
            for &c in &self.p0 {
                blocked.insert(c);
            }
            blocked.remove(fruit);
            for q_astar in [false, true] {
                // Q: from the fruit back to the tail through the cells left.
                let found = if q_astar {
                    self.search.astar(&blocked, fruit, tail)
                } else {
                    self.search.bfs(&blocked, fruit, tail)
                };
                if found.is_none() {
                    continue 'tries;
                }
                self.p.clear();
                self.p.extend_from_slice(&self.p0);
                self.search.path_into(fruit, tail, &mut self.q);
                for round in 0..3 {
                    if round > 0 {
                        // Stretch P through the cells neither the body nor Q holds.
                        let mut taken = *b.occupied();
                        for &c in &self.q {
                            taken.insert(c);
                        }
                        stretch(self.size, head, &mut self.p, &taken.complement(&live));
                        if self.p.len() >= limit {
                            break;
                        }
                    }
                    let mut taken = *b.occupied();
                    for &c in &self.p {
                        taken.insert(c);
                    }
                    taken.remove(fruit);
                    stretch(self.size, fruit, &mut self.q, &taken.complement(&live));
                    if b.len() + self.p.len() + self.q.len() - 1 == self.size.cells() {
                        break;
                    }
                }
                if self.p.len() < limit
                    && b.len() + self.p.len() + self.q.len() - 1 == self.size.cells()
                {
                    limit = self.p.len();
                    done = true;
                    std::mem::swap(&mut self.p, &mut self.best_p);
                    std::mem::swap(&mut self.q, &mut self.best_q);
                    if limit == self.p0.len() {
                        break 'tries;
                    }
                }
            }
        }
        if !done {
            return false;
        }
        for i in 1..b.len() {
            self.next[b.segment(i)] = b.segment(i - 1) as u16;
        }
        let mut prev = head;
        for &c in self.best_p.iter().chain(self.best_q.iter()) {
            self.next[prev] = c as u16;
            prev = c;
        }
        true
    }
}

impl Player for Repair {
    fn name(&self) -> &'static str {
        "repair"
    }

    fn choose(&mut self, game: &Game) -> Dir {
        let b = game.board();
        let head = b.head();
        if let Some(fruit) = b.fruit() {
            let retry = match self.tried_at {
                Some((f, at)) => f != fruit || game.moves() >= at + RETRY,
                None => true,
            };
            if retry && self.cycle_distance(head, fruit) > self.size.manhattan(head, fruit) {
                self.tried_at = Some((fruit, game.moves()));
                self.rebuild(b, fruit);
            }
        }
        if !self.holds_body(b) {
            // Only before the first rebuild of a game that starts longer than 1 and off the
            // cycle: play look-ahead moves until a rebuild succeeds.
            return self.fallback.choose(game);
        }
        let succ = usize::from(self.next[head]);
        self.size.dir_between(head, succ).expect("cycle neighbours")
    }
}
