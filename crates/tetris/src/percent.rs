//! PC odds over every queue of a pattern: how many queues of a [`Pattern`] have a perfect clear
//! from a field, which fail, and the rates by the first pieces.
//!
//! # How
//!
//! Two halves that share all the work across queues:
//!
//! 1. [`crate::orders::build`]: every order of pieces that clears the field when placed in
//!    that order, without hold (one pass over the fields, independent of the pattern).
//! 2. [`count`]: a walk over the tree of the pattern's queues. A node of the tree (the queue's
//!    first `k` pieces) carries every *hold state* the player can be in after placing `k - 1`
//!    pieces: the order placed so far and the piece kept. Reading the next piece `q` maps a
//!    state `(s, x)` to `(s x, q)` (the kept piece placed) and `(s q, x)` (the new one placed);
//!    a state survives only when its order still starts some clearing order. A queue has a PC
//!    exactly when a state survives all its placements; a node with no state left fails with
//!    every queue below it, counted without being walked. Without hold the state is the queue
//!    itself.
//!
//! A queue longer than the PC needs is cut to the pieces that matter (the pieces to place, plus
//! one with hold), and each distinct cut queue counts once. The answer is gated against one
//! solver search per queue (`tests/percent.rs`).

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::orders::{seq_index, OrderSet};
use crate::pattern::{Cursor, Pattern};
use crate::piece::Piece;
use bits::job::Shard;

/// No piece kept (the queue has run out).
const NONE: u8 = 7;

/// What to count and collect.
#[derive(Clone, Copy, Debug, Default)]
pub struct CountOptions {
    /// Whether hold may be used.
    pub hold: bool,
    /// Collect the success rates of every queue prefix of up to this many pieces.
    pub tree_depth: usize,
    /// Collect the failing queues.
    pub fails: bool,
}

/// Queues with a PC out of all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Odds {
    /// Queues with a PC.
    pub solvable: u64,
    /// Queues.
    pub total: u64,
}

impl Odds {
    fn add(&mut self, o: Odds) {
        self.solvable += o.solvable;
        self.total += o.total;
    }
}

/// One node of the success tree: the queues that start with `prefix`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeNode {
    /// The first pieces.
    pub prefix: Vec<Piece>,
    /// Queues below it with a PC, out of all below it.
    pub odds: Odds,
}

/// The counts of one pattern.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counted {
    /// All queues.
    pub odds: Odds,
    /// The success tree, depth first, each node before its children (empty unless asked).
    pub tree: Vec<TreeNode>,
    /// The failing queues, in piece order (empty unless asked).
    pub fails: Vec<Vec<Piece>>,
}

impl Counted {
    fn append(&mut self, other: Counted) {
        self.odds.add(other.odds);
        self.tree.extend(other.tree);
        self.fails.extend(other.fails);
    }
}

/// Pieces of the pattern that matter: the orders' length, plus one with hold.
pub fn queue_len(orders: &OrderSet, hold: bool) -> usize {
    orders.pieces() + usize::from(hold)
}

/// Decides a queue that a capped order set cannot certify (the DFS solver, in `percent`);
/// `None` stops the count (an abort, or an error the resolver keeps).
pub type Resolver<'a> = &'a (dyn Fn(&[Piece]) -> Option<bool> + Sync);

/// What a count calls back: the resolver of the queues a capped order set does not certify,
/// and a tick after each task (a prefix of two pieces) for progress.
#[derive(Clone, Copy, Default)]
pub struct Hooks<'a> {
    /// Decides the queues a capped order set does not certify.
    pub resolve: Option<Resolver<'a>>,
    /// Called after each task.
    pub tick: Option<&'a (dyn Fn() + Sync)>,
}

/// Queue pieces read before the walk turns from sharing hold states across queues to one
/// early-exit search per queue (with the first order found, most queues are decided in one
/// look-up per placement, while the hold states of a node grow as `2^pieces`).
const SHARED_DEPTH: usize = 4;

struct Walk<'a> {
    orders: &'a OrderSet,
    pattern: &'a Pattern,
    n: usize,
    opts: CountOptions,
    resolve: Option<Resolver<'a>>,
    stop: &'a AtomicBool,
}

impl Walk<'_> {
    /// The node `buf` (its pieces read) at cursor `c` with hold states `states` after
    /// `t = placed` placements.
    fn node(
        &self,
        c: Cursor,
        buf: &mut Vec<Piece>,
        states: &[(u64, u8)],
        placed: usize,
    ) -> Counted {
        let total = self.pattern.completions(c);
        let mut out = Counted::default();
        let record_tree = buf.len() <= self.opts.tree_depth && !buf.is_empty();
        let tree_at = out.tree.len();
        if record_tree {
            out.tree.push(TreeNode { prefix: buf.clone(), odds: Odds::default() });
        }
        if self.stop.load(Ordering::Relaxed) {
            out.odds = Odds { solvable: 0, total };
        } else if states.is_empty() && self.orders.exact {
            out.odds = Odds { solvable: 0, total };
            if self.opts.fails {
                self.all_fail(c, buf, &mut out.fails);
            }
            self.subtree_tree(c, buf, &mut out);
        } else if placed == self.n {
            out.odds = Odds { solvable: total, total };
            debug_assert_eq!(total, 1);
        } else if buf.len() >= SHARED_DEPTH.max(self.opts.tree_depth) || states.is_empty() {
            self.each_queue(c, buf, states, placed, &mut out);
        } else {
            let next = self.pattern.next(c);
            if next == 0 {
                self.each_queue(c, buf, states, placed, &mut out);
            } else {
                let mut st = Vec::with_capacity(states.len() * 2);
                for p in Piece::ALL {
                    if next >> p.index() & 1 == 0 {
                        continue;
                    }
                    self.read(states, placed, p, &mut st);
                    buf.push(p);
                    let c2 = self.pattern.step(c, p);
                    out.append(self.node(c2, buf, &st, placed + 1));
                    buf.pop();
                }
            }
        }
        if record_tree {
            out.tree[tree_at].odds = out.odds;
        }
        out
    }

    /// Every queue below a node, one search each: a PC when some hold state reaches a whole
    /// order; a queue the orders do not certify goes to the resolver when the orders are not
    /// exact. Adds the counts (and fails) to `out`; tree nodes below are not recorded (the
    /// walk only gets here below the tree's depth).
    fn each_queue(
        &self,
        c: Cursor,
        buf: &mut Vec<Piece>,
        states: &[(u64, u8)],
        placed: usize,
        out: &mut Counted,
    ) {
        let start = buf.len();
        let mut rec = |q: &[Piece]| -> bool {
            if self.stop.load(Ordering::Relaxed) {
                return false;
            }
            let rest = &q[start..];
            let mut ok = states.iter().any(|&(s, x)| self.path(placed, s, x, rest));
            if !ok && !self.orders.exact {
                if let Some(r) = self.resolve {
                    match r(q) {
                        Some(v) => ok = v,
                        None => {
                            self.stop.store(true, Ordering::Relaxed);
                            return false;
                        }
                    }
                }
            }
            out.odds.total += 1;
            out.odds.solvable += u64::from(ok);
            if !ok && self.opts.fails {
                out.fails.push(q.to_vec());
            }
            true
        };
        self.pattern.walk_from(c, buf, &mut rec);
    }

    /// Whether, from `t` placements with order number `s` and `x` kept, the pieces `rest`
    /// (those still to read) can complete an order; depth first, the kept piece tried first.
    fn path(&self, t: usize, s: u64, x: u8, rest: &[Piece]) -> bool {
        if t == self.n {
            return true;
        }
        let incoming = rest.first().map(|p| p.index() as u8);
        if self.opts.hold && x != NONE {
            let a = s * 7 + u64::from(x);
            if self.orders.has_prefix(t + 1, a)
                && self.path(t + 1, a, incoming.unwrap_or(NONE), rest.get(1..).unwrap_or(&[]))
            {
                return true;
            }
        }
        if let Some(q) = incoming {
            if q != x {
                let b = s * 7 + u64::from(q);
                if self.orders.has_prefix(t + 1, b) && self.path(t + 1, b, x, &rest[1..]) {
                    return true;
                }
            }
        }
        false
    }

    /// The subtree of one queue prefix: the hold states replayed through it, then the walk.
    fn subtree(&self, prefix: &[Piece]) -> Counted {
        let mut c = self.pattern.start();
        let mut states: Vec<(u64, u8)>;
        let mut placed = 0;
        let mut rest = prefix;
        if self.n == 0 {
            for &q in prefix {
                c = self.pattern.step(c, q);
            }
            let total = self.pattern.completions(c);
            return Counted { odds: Odds { solvable: total, total }, ..Counted::default() };
        }
        if self.opts.hold {
            states = vec![(0, prefix[0].index() as u8)];
            c = self.pattern.step(c, prefix[0]);
            rest = &prefix[1..];
        } else {
            states = vec![(0, NONE)];
        }
        let mut st = Vec::new();
        for &q in rest {
            if placed == self.n {
                break;
            }
            self.read(&states, placed, q, &mut st);
            std::mem::swap(&mut states, &mut st);
            placed += 1;
            c = self.pattern.step(c, q);
        }
        self.node(c, &mut prefix.to_vec(), &states, placed)
    }

    /// The hold states after reading `q` and placing one piece.
    fn read(&self, states: &[(u64, u8)], placed: usize, q: Piece, out: &mut Vec<(u64, u8)>) {
        out.clear();
        let q = q.index() as u8;
        let t = placed + 1;
        for &(s, x) in states {
            if self.opts.hold && x != NONE {
                let a = s * 7 + u64::from(x);
                if self.orders.has_prefix(t, a) {
                    out.push((a, q));
                }
            }
            let b = s * 7 + u64::from(q);
            if self.orders.has_prefix(t, b) {
                out.push((b, x));
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    /// Every queue below a dead node, as failures.
    fn all_fail(&self, c: Cursor, buf: &mut Vec<Piece>, fails: &mut Vec<Vec<Piece>>) {
        self.pattern.walk_from(c, buf, &mut |q| {
            fails.push(q.to_vec());
            true
        });
    }

    /// The tree nodes below a dead node (all with no PC).
    fn subtree_tree(&self, c: Cursor, buf: &mut Vec<Piece>, out: &mut Counted) {
        if buf.len() >= self.opts.tree_depth {
            return;
        }
        let next = self.pattern.next(c);
        for p in Piece::ALL {
            if next >> p.index() & 1 == 1 {
                buf.push(p);
                let c2 = self.pattern.step(c, p);
                let total = self.pattern.completions(c2);
                out.tree.push(TreeNode { prefix: buf.clone(), odds: Odds { solvable: 0, total } });
                self.subtree_tree(c2, buf, out);
                buf.pop();
            }
        }
    }
}

/// Counts the queues of `pattern` (cut to [`queue_len`] pieces) that have a PC, given every
/// clearing order (for a capped order set, the queues it certifies). See [`count_shard`].
pub fn count(
    orders: &OrderSet,
    pattern: &Pattern,
    opts: CountOptions,
    stop: &AtomicBool,
) -> Option<Counted> {
    count_shard(orders, pattern, opts, Shard::WHOLE, Hooks::default(), stop)
}

/// The first pieces that split the queues into shards and parallel tasks: two (one for a
/// pattern of one piece).
fn split_len(pattern: &Pattern) -> usize {
    pattern.len().min(2)
}

/// Every prefix of [`split_len`] pieces, in piece order, with its number.
fn split_prefixes(pattern: &Pattern) -> Vec<Vec<Piece>> {
    // The distinct prefixes of the pattern cut to the split length, in piece order.
    let mut out = Vec::new();
    pattern.truncated(split_len(pattern)).for_each(|q| out.push(q.to_vec()));
    out
}

/// [`count`] over one shard: the queues whose first two pieces are the shard's (the prefixes
/// of two pieces in piece order, dealt round-robin; [`Shard::deals`]). With an order set that
/// is not exact ([`OrderSet::exact`]), a queue it does not certify is decided by `resolve`
/// (without one, such a queue counts as failing: the count is then a lower bound).
/// [`tasks`] gives the number of tasks (ticks) of a shard. The prefixes run in
/// parallel on the caller's rayon pool; the counts, tree and fails are the same for any
/// thread count, and the shards' counts add up to the whole. The tree's one-piece nodes count
/// the shard's queues only. Returns `None` if `stop` was set before the end.
pub fn count_shard(
    orders: &OrderSet,
    pattern: &Pattern,
    opts: CountOptions,
    shard: Shard,
    hooks: Hooks<'_>,
    stop: &AtomicBool,
) -> Option<Counted> {
    let n = orders.pieces();
    let pattern = pattern.truncated(queue_len(orders, opts.hold));
    let walk = Walk { orders, pattern: &pattern, n, opts, resolve: hooks.resolve, stop };
    let tasks: Vec<Vec<Piece>> = split_prefixes(&pattern)
        .into_iter()
        .enumerate()
        .filter(|&(i, _)| shard.deals(i as u64))
        .map(|(_, p)| p)
        .collect();
    let parts: Vec<Counted> = tasks
        .par_iter()
        .map(|prefix| {
            let part = walk.subtree(prefix);
            if let Some(t) = hooks.tick {
                t();
            }
            part
        })
        .collect();
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let sums: Vec<Odds> = parts.iter().map(|p| p.odds).collect();
    let mut out = Counted::default();
    for (i, part) in parts.into_iter().enumerate() {
        // Before the tasks of each first piece, a tree node that sums them.
        let first = tasks[i][0];
        if opts.tree_depth >= 1 && tasks[i].len() > 1 && (i == 0 || tasks[i - 1][0] != first) {
            let mut odds = Odds::default();
            for (_, o) in tasks[i..].iter().zip(&sums[i..]).take_while(|(t, _)| t[0] == first) {
                odds.add(*o);
            }
            out.tree.push(TreeNode { prefix: vec![first], odds });
        }
        out.append(part);
    }
    Some(out)
}

/// The number of tasks [`count_shard`] runs for a pattern (cut to [`queue_len`]) and shard.
pub fn tasks(orders: &OrderSet, pattern: &Pattern, hold: bool, shard: Shard) -> u64 {
    let cut = pattern.truncated(queue_len(orders, hold));
    (0..split_prefixes(&cut).len() as u64).filter(|&i| shard.deals(i)).count() as u64
}

/// Visits the queues of `pattern` in one shard (as [`count_shard`] splits them), in piece
/// order, each with its number among all the pattern's queues, until `visit` returns `false`.
pub fn for_each_in_shard(
    pattern: &Pattern,
    shard: Shard,
    mut visit: impl FnMut(&[Piece], u64) -> bool,
) {
    let mut index = 0u64;
    for (i, prefix) in split_prefixes(pattern).into_iter().enumerate() {
        let mut c = pattern.start();
        for &q in &prefix {
            c = pattern.step(c, q);
        }
        if !shard.deals(i as u64) {
            index += pattern.completions(c);
            continue;
        }
        let mut buf = prefix;
        let go = pattern.walk_from(c, &mut buf, &mut |q| {
            index += 1;
            visit(q, index - 1)
        });
        if !go {
            return;
        }
    }
}

/// Whether one queue (cut to [`queue_len`] pieces) has a PC: the hold walk for a single queue
/// (a slow reference for [`count`] in the tests, and a quick look-up).
pub fn solvable(orders: &OrderSet, queue: &[Piece], hold: bool) -> bool {
    let n = orders.pieces();
    if n == 0 {
        return true;
    }
    let q = &queue[..queue.len().min(queue_len(orders, hold))];
    if q.len() < n {
        return false;
    }
    if !hold {
        return orders.orders().contains(seq_index(&q[..n]));
    }
    // Every way hold can deal the queue, depth first.
    fn rec(
        orders: &OrderSet,
        q: &[Piece],
        next: usize,
        placed: &mut Vec<Piece>,
        kept: Option<Piece>,
        n: usize,
    ) -> bool {
        if placed.len() == n {
            return orders.orders().contains(seq_index(placed));
        }
        if !orders.starts(placed) {
            return false;
        }
        let incoming = q.get(next).copied();
        if let Some(k) = kept {
            placed.push(k);
            let ok = rec(orders, q, next + 1, placed, incoming, n);
            placed.pop();
            if ok {
                return true;
            }
        }
        if let Some(c) = incoming {
            placed.push(c);
            let ok = rec(orders, q, next + 1, placed, kept, n);
            placed.pop();
            if ok {
                return true;
            }
        }
        false
    }
    rec(orders, q, 1, &mut Vec::new(), Some(q[0]), n)
}
