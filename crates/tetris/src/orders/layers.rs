//! The exact order set by layers of fields, for PCs of [`TAIL`] + 2 pieces or more.
//!
//! Layer `k` holds every field that `k` placed pieces can make (the cheap dead-end tests
//! applied), with its edges (piece, child) to layer `k + 1`. Then:
//! 1. backward, each field is *alive* when an edge leads to an alive child or completes the
//!    PC, and the fields of the last [`TAIL`] layers keep their tail sets (every clearing
//!    order of the pieces still to place, `7^m` bits);
//! 2. forward, the fields of layers up to `K - 1` (`K = n - TAIL - 1`) keep their *head* sets:
//!    every order of `k` pieces that makes the field, `7^k` bits, numbered last piece first so
//!    that a piece appends a block;
//! 3. at layer `K` the two halves meet: each alive field's heads (from its parents) times its
//!    tails (from its children) are the orders through it, and the orders of the PC are the
//!    union over the layer.
//!
//! Every field is expanded once, and the work and memory grow with the number of fields
//! rather than with (order prefix, field) pairs: for a 4-line PC from an empty field, tens of
//! millions of fields against hundreds of millions of pairs.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use super::{key, or_bits, place, pow7, to_place, Child, OrdersError, SeqSet, TAIL};
use crate::movegen::MoveGen;
use crate::Piece;

/// An edge's target when the piece completes the PC.
const CLEAR: u32 = (1 << 28) - 1;

/// The most fields in one layer (an edge keeps its child in 28 bits).
const MAX_LAYER: usize = CLEAR as usize;

/// Parents per parallel task.
const CHUNK: usize = 2048;

/// One layer's fields, as their edges (fields are numbered `0..len`).
struct Layer {
    /// The edges of field `i` are `out[offsets[i]..offsets[i + 1]]`.
    offsets: Vec<u32>,
    /// `child | piece << 28` (`child` is [`CLEAR`] when the piece completes the PC).
    out: Vec<u32>,
    /// Alive fields' ranks (`u32::MAX` for a dead field), filled by the backward pass.
    rank: Vec<u32>,
    /// Field numbers of the alive fields, by rank.
    alive: Vec<u32>,
}

impl Layer {
    fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    #[inline]
    fn edges(&self, i: usize) -> &[u32] {
        &self.out[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }
}

#[inline]
fn split(e: u32) -> (u32, u64) {
    (e & CLEAR, u64::from(e >> 28))
}

/// Bitset words for `7^k` bits.
fn words(k: usize) -> usize {
    pow7(k).div_ceil(64) as usize
}

/// The edges of the fields `keys`, and the sorted keys of their children.
fn expand(
    mg: &MoveGen,
    keys: &[u64],
    pieces: u8,
    stop: &AtomicBool,
) -> Result<(Layer, Vec<u64>), OrdersError> {
    // Per task: each edge's child key and piece, each parent's edge count, and the task's
    // distinct child keys (sorted).
    type Part = (Vec<u64>, Vec<u8>, Vec<u32>, Vec<u64>);
    let mut parts: Vec<Part> = keys
        .par_chunks(CHUNK)
        .map(|chunk| {
            let (mut ks, mut ps) = (Vec::new(), Vec::new());
            let mut counts = Vec::with_capacity(chunk.len());
            let mut edges: Vec<u64> = Vec::new();
            if stop.load(Ordering::Relaxed) {
                return (ks, ps, counts, Vec::new());
            }
            for &k in chunk {
                let (z, rows) = super::unkey(k);
                let start = ks.len();
                for p in Piece::ALL {
                    if pieces >> p.index() & 1 == 0 {
                        continue;
                    }
                    edges.clear();
                    for (f, x, y) in mg.placements(z, rows, p).iter() {
                        match place(z, rows, p, f, x, y) {
                            Child::Clear => edges.push(u64::MAX),
                            Child::Field(z2, r2) => edges.push(key(z2, r2)),
                            Child::Dead => {}
                        }
                    }
                    edges.sort_unstable();
                    edges.dedup();
                    ks.extend_from_slice(&edges);
                    ps.extend(std::iter::repeat_n(p.index() as u8, edges.len()));
                }
                counts.push((ks.len() - start) as u32);
            }
            let mut uniq: Vec<u64> = ks.iter().copied().filter(|&k| k != u64::MAX).collect();
            uniq.sort_unstable();
            uniq.dedup();
            uniq.shrink_to_fit();
            (ks, ps, counts, uniq)
        })
        .collect();
    if stop.load(Ordering::Relaxed) {
        return Err(OrdersError::Aborted);
    }
    // The distinct children, each task's list freed as it is copied (the largest layers'
    // lists run to a few hundred megabytes).
    let mut children: Vec<u64> = Vec::with_capacity(parts.iter().map(|p| p.3.len()).sum());
    for p in &mut parts {
        children.extend_from_slice(&std::mem::take(&mut p.3));
    }
    children.par_sort_unstable();
    children.dedup();
    children.shrink_to_fit();
    let total: usize = parts.iter().map(|p| p.0.len()).sum();
    if children.len() > MAX_LAYER || total > u32::MAX as usize {
        return Err(OrdersError::TooLarge);
    }
    let mut offsets = Vec::with_capacity(keys.len() + 1);
    offsets.push(0u32);
    for p in &parts {
        for &c in &p.2 {
            offsets.push(offsets[offsets.len() - 1] + c);
        }
    }
    let mut out: Vec<u32> = Vec::with_capacity(total);
    for (ks, ps, _, _) in parts {
        let base = out.len();
        out.resize(base + ks.len(), 0);
        out[base..].par_iter_mut().zip(ks.par_iter().zip(ps.par_iter())).for_each(
            |(o, (&k, &p))| {
                let c = if k == u64::MAX {
                    CLEAR
                } else {
                    children.binary_search(&k).expect("a child of the layer") as u32
                };
                *o = c | u32::from(p) << 28;
            },
        );
    }
    Ok((Layer { offsets, out, rank: Vec::new(), alive: Vec::new() }, children))
}

/// Ranks the alive fields of a layer from their flags.
fn set_alive(layer: &mut Layer, flags: &[bool]) {
    layer.rank = vec![u32::MAX; flags.len()];
    layer.alive.clear();
    for (i, &a) in flags.iter().enumerate() {
        if a {
            layer.rank[i] = layer.alive.len() as u32;
            layer.alive.push(i as u32);
        }
    }
}

/// The bitsets of a layer's alive fields, `w` words each, by rank.
struct Sets {
    w: usize,
    words: Vec<u64>,
}

impl Sets {
    #[inline]
    fn get(&self, r: u32) -> &[u64] {
        &self.words[r as usize * self.w..(r as usize + 1) * self.w]
    }
}

/// The `7^k` table from a sequence's number last piece first to its number first piece first.
fn reversal(k: usize) -> Vec<u32> {
    (0..pow7(k))
        .map(|mut i| {
            let mut f = 0;
            for _ in 0..k {
                f = f * 7 + i % 7;
                i /= 7;
            }
            f as u32
        })
        .collect()
}

/// Every order of the `n >= TAIL + 2` pieces that clear the field, and the number of fields
/// in all layers.
pub(super) fn build(
    mg: &MoveGen,
    zone: u64,
    rows: u32,
    pieces: u8,
    stop: &AtomicBool,
) -> Result<(SeqSet, u64), OrdersError> {
    let n = to_place(zone, rows);
    debug_assert!(n >= TAIL + 2);
    // Layers 0..n (the last layer's edges all complete the PC).
    let mut layers: Vec<Layer> = Vec::with_capacity(n);
    let mut keys = vec![key(zone, rows)];
    let mut fields = 1u64;
    for _ in 0..n {
        let (layer, next) = expand(mg, &keys, pieces, stop)?;
        layers.push(layer);
        fields += next.len() as u64;
        keys = next;
    }
    drop(keys);

    // Backward: alive flags, and tail sets for the last TAIL layers.
    let mut tails: Option<Sets> = None;
    for k in (0..n).rev() {
        let m = n - k;
        let (below, rest) = layers.split_at_mut(k + 1);
        let layer = &mut below[k];
        let next = rest.first();
        if m <= TAIL {
            let w = words(m);
            let block = pow7(m - 1);
            let parts: Vec<(Vec<bool>, Vec<u64>)> = (0..layer.len())
                .into_par_iter()
                .chunks(CHUNK)
                .map(|idx| {
                    let mut flags = Vec::with_capacity(idx.len());
                    let mut out = Vec::new();
                    let mut t = vec![0u64; w];
                    for i in idx {
                        t.fill(0);
                        for &e in layer.edges(i) {
                            let (c, p) = split(e);
                            if c == CLEAR {
                                t[(p * block / 64) as usize] |= 1 << (p * block % 64);
                            } else if let (Some(nx), Some(ts)) = (next, &tails) {
                                let r = nx.rank[c as usize];
                                if r != u32::MAX {
                                    or_bits(&mut t, p * block, ts.get(r), block);
                                }
                            }
                        }
                        let alive = t.iter().any(|&x| x != 0);
                        flags.push(alive);
                        if alive {
                            out.extend_from_slice(&t);
                        }
                    }
                    (flags, out)
                })
                .collect();
            let mut flags = Vec::with_capacity(layer.len());
            let mut sets =
                Sets { w, words: Vec::with_capacity(parts.iter().map(|p| p.1.len()).sum()) };
            for (f, o) in parts {
                flags.extend(f);
                sets.words.extend(o);
            }
            set_alive(layer, &flags);
            tails = Some(sets);
        } else {
            let nx = next.expect("a layer below");
            let flags: Vec<bool> = (0..layer.len())
                .into_par_iter()
                .map(|i| {
                    layer.edges(i).iter().any(|&e| {
                        let (c, _) = split(e);
                        c == CLEAR || nx.rank[c as usize] != u32::MAX
                    })
                })
                .collect();
            set_alive(layer, &flags);
        }
        if stop.load(Ordering::Relaxed) {
            return Err(OrdersError::Aborted);
        }
    }
    let mut orders = SeqSet::new(n);
    if layers[0].alive.is_empty() {
        return Ok((orders, fields));
    }
    let tails = tails.expect("tail sets of the layer below the meeting one");

    // Forward: head sets of layers 0..K (numbered last piece first).
    let kk = n - TAIL - 1;
    let mut heads = Sets { w: 1, words: vec![1] };
    for k in 0..kk - 1 {
        let (layer, next) = (&layers[k], &layers[k + 1]);
        let (w, block) = (words(k + 1), pow7(k));
        let mut h = Sets { w, words: vec![0; next.alive.len() * w] };
        for (r, &i) in layer.alive.iter().enumerate() {
            let src = heads.get(r as u32);
            for &e in layer.edges(i as usize) {
                let (c, p) = split(e);
                let rc = next.rank[c as usize];
                if rc != u32::MAX {
                    let at = rc as usize * w;
                    or_bits(&mut h.words[at..at + w], p * block, src, block);
                }
            }
        }
        heads = h;
    }

    // The meeting layer: each alive field's heads (from its parents in layer K - 1) times its
    // tails (from its children in layer K + 1).
    let (up, meet, down) = (&layers[kk - 1], &layers[kk], &layers[kk + 1]);
    let mut incoming: Vec<u64> = up
        .alive
        .par_iter()
        .enumerate()
        .flat_map_iter(|(r, &i)| {
            up.edges(i as usize).iter().filter_map(move |&e| {
                let (c, p) = split(e);
                let rc = meet.rank[c as usize];
                (rc != u32::MAX).then_some(u64::from(rc) << 35 | (r as u64) << 3 | p)
            })
        })
        .collect();
    incoming.par_sort_unstable();
    let mut starts = vec![0usize; meet.alive.len() + 1];
    for &e in &incoming {
        starts[(e >> 35) as usize + 1] += 1;
    }
    for j in 0..meet.alive.len() {
        starts[j + 1] += starts[j];
    }
    let rev = reversal(kk);
    let (hw, hblock) = (words(kk), pow7(kk - 1));
    let m = n - kk;
    let (tw, tblock, tlen) = (words(m), pow7(m - 1), pow7(m));
    let pool: Vec<Mutex<Option<SeqSet>>> =
        (0..rayon::current_num_threads().max(1)).map(|_| Mutex::new(None)).collect();
    (0..meet.alive.len()).into_par_iter().chunks(256).for_each(|js| {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        // A free part of the answer to or into (one per thread at most).
        let mut slot = loop {
            if let Some(g) = pool.iter().find_map(|m| m.try_lock().ok()) {
                break g;
            }
            std::thread::yield_now();
        };
        let part = slot.get_or_insert_with(|| SeqSet::new(n));
        let (mut h, mut t) = (vec![0u64; hw], vec![0u64; tw]);
        for j in js {
            t.fill(0);
            for &e in meet.edges(meet.alive[j] as usize) {
                let (c, p) = split(e);
                let rc = down.rank[c as usize];
                if rc != u32::MAX {
                    or_bits(&mut t, p * tblock, tails.get(rc), tblock);
                }
            }
            h.fill(0);
            for &e in &incoming[starts[j]..starts[j + 1]] {
                let (r, p) = ((e >> 3) as u32, e & 7);
                or_bits(&mut h, p * hblock, heads.get(r), hblock);
            }
            let bits: u32 = t.iter().map(|x| x.count_ones()).sum();
            for (wi, &hword) in h.iter().enumerate() {
                let mut x = hword;
                while x != 0 {
                    let b = wi as u64 * 64 + u64::from(x.trailing_zeros());
                    x &= x - 1;
                    let at = u64::from(rev[b as usize]) * tlen;
                    if (bits as usize) < tw {
                        for (ti, &tword) in t.iter().enumerate() {
                            let mut y = tword;
                            while y != 0 {
                                part.insert(at + ti as u64 * 64 + u64::from(y.trailing_zeros()));
                                y &= y - 1;
                            }
                        }
                    } else {
                        part.or_at(at, &t, tlen);
                    }
                }
            }
        }
    });
    if stop.load(Ordering::Relaxed) {
        return Err(OrdersError::Aborted);
    }
    for slot in pool {
        if let Some(part) = slot.into_inner().unwrap_or_else(|e| e.into_inner()) {
            for (w, p) in orders.words.iter_mut().zip(part.words) {
                *w |= p;
            }
        }
    }
    Ok((orders, fields))
}
