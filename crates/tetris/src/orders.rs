//! The placement orders that finish a perfect clear: every sequence of pieces that, placed in
//! that order (no hold), can clear a field. This is the order-free half of `tetris percent`;
//! [`crate::percent`] then asks, for each queue of a pattern, whether hold can turn the queue
//! into one of these orders.
//!
//! # Implementation notes
//!
//! A *field* is a PC zone with the rows still to clear (`(zone, rows)`, one `u64` key: the zone
//! in bits 0..60 and the rows above). A field with `m` pieces still to place is *alive* when
//! some `m` pieces, in some order, clear it. Alive fields are found lazily by a depth-first
//! search with a memo (one entry per field ever looked at), stopping at the first alive child.
//!
//! For the last [`TAIL`] pieces, the memo keeps more than alive or not: the set of every
//! `m`-piece sequence that clears the field, as a bitset over the `7^m` sequences (343 bits
//! for three pieces).
//!
//! The set of all orders, [`OrderSet`], is then built over the tree of order prefixes: each
//! prefix `s` carries the set `R(s)` of alive fields that placing `s` can reach, and a piece
//! `p` maps it to `R(s p)`. Once `TAIL + 1` pieces are left, each field records the prefixes
//! that reach it; then every such field's set of clearing orders (from its children's tail
//! sets) is computed once and or-ed into the orders under each of its prefixes. The prefixes
//! of two first pieces are independent tasks that share the memo, so they run in parallel,
//! and the answer (an or of the same sets) does not depend on the thread count.
//!
//! That walk is what builds a *capped* set (a beam of fields per prefix). The exact set, for
//! PCs of `TAIL + 2` pieces or more, is built by layers of fields instead (`layers.rs`): every
//! field expanded once, a backward pass for alive fields and tail sets, a forward pass for the
//! head sets of the first pieces, and the two meeting in the middle layer. Its work grows with
//! the fields rather than with (prefix, field) pairs; the walk stays as its gate's reference
//! ([`build_walk`]).
//!
//! Sequences are numbered in base 7, first piece most significant (piece index order
//! `I O T S Z J L`), and a set of sequences of length `n` is a bitset of `7^n` bits.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use crate::board::zone_clear;
use crate::movegen::{placement_mask, MoveGen};
use crate::solver::{areas_divisible, features, Weights, N_FEATURES};
use crate::Piece;

mod layers;

/// Pieces at the end of an order whose full sequence sets the memo keeps per field.
pub const TAIL: usize = 4;

/// The most pieces an order set may have: `7^11` bits is 247 MB.
pub const MAX_PIECES: usize = 11;

/// `7^k`.
pub const fn pow7(k: usize) -> u64 {
    let mut r = 1u64;
    let mut i = 0;
    while i < k {
        r *= 7;
        i += 1;
    }
    r
}

/// A set of piece sequences of one length `n`, as a bitset over their base-7 numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeqSet {
    n: usize,
    words: Vec<u64>,
}

impl SeqSet {
    /// The empty set of sequences of length `n`.
    pub fn new(n: usize) -> SeqSet {
        SeqSet { n, words: vec![0; pow7(n).div_ceil(64) as usize] }
    }

    /// Sequence length.
    pub fn len_pieces(&self) -> usize {
        self.n
    }

    /// Whether sequence number `i` is in the set.
    #[inline]
    pub fn contains(&self, i: u64) -> bool {
        self.words[(i / 64) as usize] >> (i % 64) & 1 == 1
    }

    /// Adds sequence number `i`.
    #[inline]
    pub fn insert(&mut self, i: u64) {
        self.words[(i / 64) as usize] |= 1 << (i % 64);
    }

    /// Number of sequences in the set.
    pub fn count(&self) -> u64 {
        self.words.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// Whether the set has no sequence.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Or-s the first `len` bits of `src` into the set at bit `offset`.
    fn or_at(&mut self, offset: u64, src: &[u64], len: u64) {
        or_bits(&mut self.words, offset, src, len);
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }
}

/// Or-s the first `len` bits of `src` into the bitset `dst` at bit `offset`.
#[inline]
fn or_bits(dst: &mut [u64], offset: u64, src: &[u64], len: u64) {
    let (w0, sh) = ((offset / 64) as usize, (offset % 64) as u32);
    let nsrc = len.div_ceil(64) as usize;
    for (j, &s) in src[..nsrc].iter().enumerate() {
        let s = if (j as u64 + 1) * 64 > len { s & ((1u64 << (len % 64)) - 1) } else { s };
        if s == 0 {
            continue;
        }
        dst[w0 + j] |= s << sh;
        if sh != 0 && s >> (64 - sh) != 0 {
            dst[w0 + j + 1] |= s >> (64 - sh);
        }
    }
}

/// The number of a sequence.
pub fn seq_index(seq: &[Piece]) -> u64 {
    seq.iter().fold(0, |i, p| i * 7 + p.index() as u64)
}

/// Every order that clears a field, with the sets of their prefixes (for a walk that extends
/// an order one piece at a time).
#[derive(Clone, Debug)]
pub struct OrderSet {
    /// `prefixes[t]`: the sequences of `t` pieces that some order starts with; `prefixes[n]`
    /// holds the orders themselves.
    prefixes: Vec<SeqSet>,
    /// Fields whose alive status or tail set was computed.
    pub fields: u64,
    /// Whether every clearing order is in the set (false when the cap left a field out).
    pub exact: bool,
}

impl OrderSet {
    /// Pieces in every order.
    pub fn pieces(&self) -> usize {
        self.prefixes.len() - 1
    }

    /// The set of orders.
    pub fn orders(&self) -> &SeqSet {
        &self.prefixes[self.pieces()]
    }

    /// Whether some order starts with the sequence numbered `i` of length `t`.
    #[inline]
    pub fn has_prefix(&self, t: usize, i: u64) -> bool {
        self.prefixes[t].contains(i)
    }

    /// Whether `seq` (of any length up to the order length) starts some order.
    pub fn starts(&self, seq: &[Piece]) -> bool {
        self.has_prefix(seq.len(), seq_index(seq))
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.prefixes.iter().map(SeqSet::bytes).sum()
    }
}

/// A multiply-shift hasher for field keys.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("field keys hash as u64")
    }
    #[inline]
    fn write_u64(&mut self, k: u64) {
        self.0 = (k ^ k >> 29).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// What the memo knows of a field.
enum Entry {
    /// No order clears it.
    Dead,
    /// Some order clears it (`m > TAIL`).
    Alive,
    /// Every order that clears it (`m <= TAIL`), `7^m` bits.
    Tail(Box<[u64]>),
}

type Map = HashMap<u64, Entry, BuildHasherDefault<KeyHasher>>;

/// Shards of the memo (each behind its own lock).
const SHARDS: usize = 64;

#[inline]
fn key(zone: u64, rows: u32) -> u64 {
    zone | u64::from(rows) << 60
}

#[inline]
fn unkey(k: u64) -> (u64, u32) {
    (k & ((1 << 60) - 1), (k >> 60) as u32)
}

/// Pieces still to place on a field.
#[inline]
fn to_place(zone: u64, rows: u32) -> usize {
    ((10 * rows - zone.count_ones()) / 4) as usize
}

/// What placing one piece does to a field.
enum Child {
    /// The PC is complete.
    Clear,
    /// A field that may still be cleared.
    Field(u64, u32),
    /// A dead end found by the cheap tests (clear with rows to go, or an area not divisible by 4).
    Dead,
}

#[inline]
fn place(zone: u64, rows: u32, piece: Piece, f: crate::Facing, x: u32, y: u32) -> Child {
    let (z2, cl) = zone_clear(zone | placement_mask(piece, f, x, y), rows);
    let r2 = rows - cl;
    if r2 == 0 {
        Child::Clear
    } else if z2 == 0 || !areas_divisible(z2, r2) {
        // A clear field with rows to go ends the game with a smaller PC (the replay's rule).
        Child::Dead
    } else {
        Child::Field(z2, r2)
    }
}

#[inline]
fn shard_of(k: u64) -> usize {
    ((k ^ k >> 31).wrapping_mul(0xD6E8_FEB8_6659_FD93) >> 58) as usize % SHARDS
}

/// Prefixes per field: the prefixes (of `n - TAIL - 1` pieces) that reach each alive field with
/// `TAIL + 1` pieces to go.
type Heads = HashMap<u64, Vec<u32>, BuildHasherDefault<KeyHasher>>;

/// The memo shared by all workers: alive status (`m > TAIL`) or tail set (`m <= TAIL`) per
/// field. Two workers may compute the same field at once; both get the same answer.
struct Memo<'a> {
    mg: &'a MoveGen,
    pieces: u8,
    shards: Vec<Mutex<Map>>,
    /// The prefixes that reach each field with `TAIL + 1` pieces to go (filled by the walk).
    heads: Vec<Mutex<Heads>>,
    /// The most fields kept per prefix (`usize::MAX`: all, the exact set).
    cap: usize,
    /// Whether the cap left some field out.
    capped: AtomicBool,
    stop: &'a AtomicBool,
}

impl Memo<'_> {
    #[inline]
    fn shard(&self, k: u64) -> std::sync::MutexGuard<'_, Map> {
        self.shards[shard_of(k)].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether some order clears the field (computing what the memo lacks).
    fn eval(&self, zone: u64, rows: u32) -> bool {
        let k = key(zone, rows);
        if let Some(e) = self.shard(k).get(&k) {
            return !matches!(e, Entry::Dead);
        }
        let m = to_place(zone, rows);
        let e = if m <= TAIL {
            self.tail(zone, rows, m)
        } else if self.alive(zone, rows) {
            Entry::Alive
        } else {
            Entry::Dead
        };
        let alive = !matches!(e, Entry::Dead);
        self.shard(k).insert(k, e);
        alive
    }

    /// Or-s the tail set of a field (`m <= TAIL`) into `out` at bit `at`, computing it first
    /// if the memo lacks it (one look-up when it is there).
    fn or_tail(&self, zone: u64, rows: u32, m: usize, out: &mut SeqSet, at: u64) {
        let k = key(zone, rows);
        for _ in 0..2 {
            match self.shard(k).get(&k) {
                Some(Entry::Tail(t)) => return out.or_at(at, t, pow7(m)),
                Some(_) => return,
                None => {}
            }
            self.eval(zone, rows);
        }
    }

    fn alive(&self, zone: u64, rows: u32) -> bool {
        for p in Piece::ALL {
            if self.pieces >> p.index() & 1 == 0 {
                continue;
            }
            let pl = self.mg.placements(zone, rows, p);
            for (f, x, y) in pl.iter() {
                if let Child::Field(z2, r2) = place(zone, rows, p, f, x, y) {
                    if self.eval(z2, r2) {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn tail(&self, zone: u64, rows: u32, m: usize) -> Entry {
        let mut set = SeqSet::new(m);
        self.tail_set(zone, rows, &mut set);
        if set.is_empty() {
            Entry::Dead
        } else {
            Entry::Tail(set.words.into_boxed_slice())
        }
    }

    /// Every order of `set.len_pieces()` pieces (the pieces the field needs) that clears the
    /// field, into `set` (cleared first), from the children's tail sets.
    fn tail_set(&self, zone: u64, rows: u32, set: &mut SeqSet) {
        set.words.fill(0);
        let m = set.n;
        if m == 0 {
            return;
        }
        let block = pow7(m - 1);
        for p in Piece::ALL {
            if self.pieces >> p.index() & 1 == 0 {
                continue;
            }
            let at = p.index() as u64 * block;
            let pl = self.mg.placements(zone, rows, p);
            for (f, x, y) in pl.iter() {
                match place(zone, rows, p, f, x, y) {
                    Child::Clear => set.insert(at),
                    Child::Field(z2, r2) => self.or_tail(z2, r2, m - 1, set, at),
                    Child::Dead => {}
                }
            }
        }
    }

    /// The alive fields `p` makes of the fields `r`, sorted.
    fn children(&self, r: &[u64], p: Piece, out: &mut Vec<u64>) {
        out.clear();
        for &k in r {
            let (z, rows) = unkey(k);
            let pl = self.mg.placements(z, rows, p);
            for (f, x, y) in pl.iter() {
                if let Child::Field(z2, r2) = place(z, rows, p, f, x, y) {
                    out.push(key(z2, r2));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        if out.len() <= self.cap {
            out.retain(|&k| {
                let (z, rows) = unkey(k);
                self.eval(z, rows)
            });
            return;
        }
        // A beam: the alive fields best by the solver's ordering score, at most `cap`.
        let w = Weights::TRAINED.0;
        let mut scored: Vec<(i64, u64)> = out
            .iter()
            .map(|&k| {
                let (z, rows) = unkey(k);
                let f = features(z, rows, 0, false, 0);
                let score: i64 = (0..N_FEATURES).map(|i| i64::from(w[i]) * i64::from(f[i])).sum();
                (-score, k)
            })
            .collect();
        scored.sort_unstable();
        out.clear();
        for (i, &(_, k)) in scored.iter().enumerate() {
            let (z, rows) = unkey(k);
            if self.eval(z, rows) {
                out.push(k);
                if out.len() == self.cap {
                    if i + 1 < scored.len() {
                        // Fields not looked at may be alive: the set is no longer exact.
                        self.capped.store(true, Ordering::Relaxed);
                    }
                    break;
                }
            }
        }
        out.sort_unstable();
    }

    /// Depth first over the prefixes below the prefix numbered `prefix`, whose alive fields
    /// are `r` with `m` pieces to go, down to the fields with `TAIL + 1` to go: each such
    /// field records the prefix in [`Memo::heads`].
    fn walk(&self, r: &[u64], m: usize, prefix: u64) {
        if self.stop.load(Ordering::Relaxed) {
            return;
        }
        if m == TAIL + 1 {
            for &k in r {
                self.heads[shard_of(k)]
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .entry(k)
                    .or_default()
                    .push(prefix as u32);
            }
            return;
        }
        let mut next = Vec::new();
        for p in Piece::ALL {
            if self.pieces >> p.index() & 1 == 0 {
                continue;
            }
            self.children(r, p, &mut next);
            if !next.is_empty() {
                let r2 = std::mem::take(&mut next);
                self.walk(&r2, m - 1, prefix * 7 + p.index() as u64);
                next = r2;
            }
        }
    }

    fn fields(&self) -> u64 {
        self.shards.iter().map(|s| s.lock().map_or(0, |m| m.len() as u64)).sum()
    }
}

/// Why an order set cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrdersError {
    /// More pieces than [`MAX_PIECES`].
    TooManyPieces(usize),
    /// Stopped by the abort flag.
    Aborted,
    /// A layer of fields too large to number (more than 2^28 fields or 2^32 edges).
    TooLarge,
}

/// Every order of `n` pieces (from the `pieces` mask, bit = piece index) that clears the field
/// `zone` with `rows` rows to go, where `n` is the field's empty area / 4. Runs on the caller's
/// rayon pool; stops early with [`OrdersError::Aborted`] when `stop` is set.
pub fn build(
    mg: &MoveGen,
    zone: u64,
    rows: u32,
    pieces: u8,
    stop: &AtomicBool,
) -> Result<OrderSet, OrdersError> {
    build_capped(mg, zone, rows, pieces, usize::MAX, stop)
}

/// [`build`] with at most `cap` fields followed per order prefix (the best by the solver's
/// ordering score): a subset of the orders, each of which clears the field, found in a time
/// that grows with `cap` instead of with every field (`usize::MAX`: the exact set). The
/// result says whether it is exact ([`OrderSet::exact`]).
pub fn build_capped(
    mg: &MoveGen,
    zone: u64,
    rows: u32,
    pieces: u8,
    cap: usize,
    stop: &AtomicBool,
) -> Result<OrderSet, OrdersError> {
    let n = to_place(zone, rows);
    if n > MAX_PIECES {
        return Err(OrdersError::TooManyPieces(n));
    }
    if cap == usize::MAX && n >= TAIL + 2 {
        let (orders, fields) = layers::build(mg, zone, rows, pieces, stop)?;
        return Ok(OrderSet::from_orders(orders, fields, true));
    }
    build_walk(mg, zone, rows, pieces, cap, stop)
}

/// [`build_capped`] by the walk over order prefixes (the way a capped set is built, and the
/// slow reference the exact layered build is gated against).
#[doc(hidden)]
pub fn build_walk(
    mg: &MoveGen,
    zone: u64,
    rows: u32,
    pieces: u8,
    cap: usize,
    stop: &AtomicBool,
) -> Result<OrderSet, OrdersError> {
    let n = to_place(zone, rows);
    if n > MAX_PIECES {
        return Err(OrdersError::TooManyPieces(n));
    }
    let mut memo = Memo {
        mg,
        pieces,
        shards: (0..SHARDS).map(|_| Mutex::new(Map::default())).collect(),
        heads: (0..SHARDS).map(|_| Mutex::new(Heads::default())).collect(),
        cap,
        capped: AtomicBool::new(false),
        stop,
    };
    let mut orders = SeqSet::new(n);
    let root = key(zone, rows);
    if n == 0 {
        // Nothing to place: the one empty order (only a cleared field gets here).
        orders.insert(0);
    } else if n <= TAIL {
        memo.or_tail(zone, rows, n, &mut orders, 0);
    } else if n == TAIL + 1 {
        memo.tail_set(zone, rows, &mut orders);
    } else {
        // The prefixes of every field with TAIL + 1 pieces to go: one task per two first
        // pieces (a task works out its fields itself, so that the memo fills in parallel from
        // the start).
        if n == TAIL + 2 {
            memo.walk(&[root], n, 0);
        } else {
            (0..49u64).into_par_iter().for_each(|i| {
                let (p, q) = (Piece::from_index(i as usize / 7), Piece::from_index(i as usize % 7));
                if pieces >> p.index() & pieces >> q.index() & 1 == 0 {
                    return;
                }
                let (mut r1, mut r2) = (Vec::new(), Vec::new());
                memo.children(&[root], p, &mut r1);
                memo.children(&r1, q, &mut r2);
                if !r2.is_empty() {
                    memo.walk(&r2, n - 2, i);
                }
            });
        }
        // Each such field's tail set once, or-ed under every prefix that reaches it; one order
        // set per shard of the fields, or-ed together.
        let block = pow7(TAIL + 1);
        let heads = std::mem::take(&mut memo.heads);
        // About one order set per thread (each `7^n` bits).
        let per = SHARDS.div_ceil(rayon::current_num_threads().max(1));
        let parts: Vec<SeqSet> = heads
            .into_par_iter()
            .with_min_len(per)
            .fold(
                || (SeqSet::new(n), SeqSet::new(TAIL + 1)),
                |(mut part, mut tail), shard| {
                    let shard = shard.into_inner().unwrap_or_else(|e| e.into_inner());
                    for (k, prefixes) in shard {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let (z, rows) = unkey(k);
                        memo.tail_set(z, rows, &mut tail);
                        if !tail.is_empty() {
                            for s in prefixes {
                                part.or_at(u64::from(s) * block, &tail.words, block);
                            }
                        }
                    }
                    (part, tail)
                },
            )
            .map(|(part, _)| part)
            .collect();
        for part in parts {
            for (w, p) in orders.words.iter_mut().zip(part.words) {
                *w |= p;
            }
        }
    }
    let fields = memo.fields();
    let exact = !memo.capped.load(Ordering::Relaxed);
    drop(memo);
    if stop.load(Ordering::Relaxed) {
        return Err(OrdersError::Aborted);
    }
    Ok(OrderSet::from_orders(orders, fields, exact))
}

impl OrderSet {
    /// The set of `orders` with its prefix sets.
    fn from_orders(orders: SeqSet, fields: u64, exact: bool) -> OrderSet {
        let n = orders.n;
        let mut prefixes = vec![orders];
        for t in (0..n).rev() {
            let below = &prefixes[prefixes.len() - 1];
            let mut s = SeqSet::new(t);
            for i in 0..pow7(t) {
                if (0..7).any(|p| below.contains(i * 7 + p)) {
                    s.insert(i);
                }
            }
            prefixes.push(s);
        }
        prefixes.reverse();
        OrderSet { prefixes, fields, exact }
    }
}
