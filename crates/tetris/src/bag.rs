//! The seeded 7-bag randomiser, and the canonical queue sets the sweeps enumerate.
//!
//! # The generator (so that other programs can reproduce our queues)
//! [`Bag7::new`]`(seed)` starts a [`bits::Rng`] (xoshiro256\*\* seeded through SplitMix64) at
//! `seed`. Each bag is the array `[I, O, T, S, Z, J, L]` shuffled by [`bits::Rng::shuffle`]
//! (Fisher-Yates from the last index down: for `i` from 6 to 1, swap `i` with `below(i + 1)`),
//! dealt from index 0 up; then the next bag. The benchmark's opener queue number `i` under master
//! seed `m` is the first 11 (or 16) pieces of `Bag7::new(bits::rng::sub_seed(m, i))`.
//!
//! # Canonical queues
//! A queue window of length `n` may start at any of the 7 bag phases (the number of pieces of
//! the current bag already dealt): it is *bag-consistent* if for some phase `p` its first
//! `7 - p` pieces are distinct and so is every later run of 7. A canonical sweep item is a hold
//! piece (any of the seven) followed by a bag-consistent window, where the hold piece and the
//! window's first piece form an unordered pair (they are interchangeable), duplicates removed.

use crate::piece::Piece;

/// An endless 7-bag piece stream.
#[derive(Clone, Debug)]
pub struct Bag7 {
    rng: bits::Rng,
    bag: [Piece; 7],
    next: usize,
}

impl Bag7 {
    /// The stream for `seed`.
    pub fn new(seed: u64) -> Bag7 {
        Bag7 { rng: bits::Rng::new(seed), bag: Piece::ALL, next: 7 }
    }

    /// The next piece.
    pub fn next_piece(&mut self) -> Piece {
        if self.next == 7 {
            self.bag = Piece::ALL;
            self.rng.shuffle(&mut self.bag);
            self.next = 0;
        }
        let p = self.bag[self.next];
        self.next += 1;
        p
    }

    /// The next `n` pieces.
    pub fn take(&mut self, n: usize) -> Vec<Piece> {
        (0..n).map(|_| self.next_piece()).collect()
    }
}

/// The benchmark's opener queue `index` under `master` seed: the first `len` pieces of a fresh
/// 7-bag stream seeded with `bits::rng::sub_seed(master, index)`.
pub fn opener_queue(master: u64, index: u64, len: usize) -> Vec<Piece> {
    Bag7::new(bits::rng::sub_seed(master, index)).take(len)
}

/// Whether `q` can be dealt by a 7-bag starting at phase `phase` (pieces of the current bag
/// already dealt, `0..7`).
pub fn bag_consistent_at(q: &[Piece], phase: usize) -> bool {
    let mut seen = 0u8;
    let mut pos = phase % 7;
    for &p in q {
        if pos == 7 {
            pos = 0;
            seen = 0;
        }
        let b = 1u8 << p.index();
        if seen & b != 0 {
            return false;
        }
        seen |= b;
        pos += 1;
    }
    true
}

/// Whether `q` is bag-consistent for some phase.
pub fn bag_consistent(q: &[Piece]) -> bool {
    (0..7).any(|p| bag_consistent_at(q, p))
}

/// Visits every canonical queue of window length `n` (see the [module docs](self)) as
/// `[hold, window...]` with `hold <= window[0]` in piece order, in lexicographic order, each
/// once. Returns how many were visited.
pub fn for_each_canonical(n: usize, mut visit: impl FnMut(&[Piece])) -> u64 {
    for_each_canonical_until(n, |q| {
        visit(q);
        true
    })
}

/// [`for_each_canonical`], stopped as soon as `visit` returns `false` (after that queue).
/// Returns how many were visited.
pub fn for_each_canonical_until(n: usize, mut visit: impl FnMut(&[Piece]) -> bool) -> u64 {
    // Lexicographic depth-first walk over `[a, b, rest...]` with a <= b, keeping for each phase
    // whether `[b, rest..]` and `[a, rest..]` are still consistent.
    assert!(n >= 1);
    let mut buf = vec![Piece::I; n + 1];
    let mut count = 0;
    for a in 0..7 {
        for b in a..7 {
            buf[0] = Piece::from_index(a);
            buf[1] = Piece::from_index(b);
            // state per (first-choice, phase): (seen mask, position in bag)
            let mut states = Vec::new();
            for first in [b, a] {
                for phase in 0..7 {
                    states.push((1u8 << first, phase + 1));
                }
            }
            if !walk(&mut buf, 2, n + 1, &states, &mut visit, &mut count) {
                return count;
            }
        }
    }
    count
}

/// The walk below `at`; `false` once `visit` has asked to stop.
fn walk(
    buf: &mut [Piece],
    at: usize,
    len: usize,
    states: &[(u8, usize)],
    visit: &mut impl FnMut(&[Piece]) -> bool,
    count: &mut u64,
) -> bool {
    if at == len {
        *count += 1;
        return visit(buf);
    }
    let mut next = Vec::with_capacity(states.len());
    for p in 0..7 {
        next.clear();
        for &(seen, pos) in states {
            let (seen, pos) = if pos == 7 { (0, 0) } else { (seen, pos) };
            if seen >> p & 1 == 0 {
                next.push((seen | 1 << p, pos + 1));
            }
        }
        if next.is_empty() {
            continue;
        }
        next.sort_unstable();
        next.dedup();
        buf[at] = Piece::from_index(p);
        let snapshot = next.clone();
        if !walk(buf, at + 1, len, &snapshot, visit, count) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn bags_are_permutations_and_reproducible() {
        let mut a = Bag7::new(3);
        let q = a.take(70);
        for bag in q.chunks(7) {
            let s: HashSet<_> = bag.iter().collect();
            assert_eq!(s.len(), 7);
        }
        assert_eq!(Bag7::new(3).take(70), q);
        assert!(bag_consistent_at(&q[3..20], 3));
        assert_eq!(opener_queue(1, 0, 11), opener_queue(1, 0, 11));
        assert_ne!(opener_queue(1, 0, 11), opener_queue(1, 1, 11));
    }

    /// The spec's canonical counts for lengths 1..=5, and the walk agrees with a brute force
    /// over all sequences for lengths up to 4.
    #[test]
    fn canonical_counts_match_the_spec() {
        let want = [28u64, 196, 1_365, 9_198, 57_750];
        for (i, &w) in want.iter().enumerate() {
            let n = i + 1;
            let mut seen = HashSet::new();
            let c = for_each_canonical(n, |q| {
                assert!(q[0] <= q[1]);
                assert!(seen.insert(q.to_vec()));
            });
            assert_eq!(c, w, "length {n}");
            if n <= 4 {
                let mut brute = HashSet::new();
                let total = 7usize.pow(n as u32 + 1);
                for mut code in 0..total {
                    let mut q = Vec::new();
                    for _ in 0..=n {
                        q.push(Piece::from_index(code % 7));
                        code /= 7;
                    }
                    if bag_consistent(&q[1..]) {
                        if q[0] > q[1] {
                            q.swap(0, 1);
                        }
                        brute.insert(q);
                    }
                }
                assert_eq!(brute, seen, "length {n}");
            }
        }
    }
}
