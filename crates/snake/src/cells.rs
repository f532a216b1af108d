//! [`Cells`]: a set of board cells as a 1,024-bit bitboard (up to 32 x 32).
//!
//! Cell `i` of a `W x H` board is `y * W + x` (row-major, `y = 0` on top) and lives in bit
//! `i % 64` of word `i / 64`. Bits at or above `W * H` are always zero: every constructor
//! keeps them so, and [`Cells::complement`] masks with the live area instead of a bare `!`.

use std::iter::FusedIterator;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Sub};

use bits::SetBits;

/// The largest side of a board.
pub const MAX_SIDE: usize = 32;
/// The largest number of cells of a board (32 x 32).
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;
/// Words in a [`Cells`].
pub const WORDS: usize = MAX_CELLS / 64;

/// A set of cells, one bit per cell (128 bytes).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Cells(pub(crate) [u64; WORDS]);

impl Cells {
    /// The empty set.
    pub const EMPTY: Cells = Cells([0; WORDS]);

    /// The cells `0..n` (the live area of a board with `n` cells).
    pub fn first(n: usize) -> Cells {
        assert!(n <= MAX_CELLS, "at most {MAX_CELLS} cells");
        let mut c = Cells::EMPTY;
        for (w, word) in c.0.iter_mut().enumerate() {
            let lo = w * 64;
            if n >= lo + 64 {
                *word = u64::MAX;
            } else if n > lo {
                *word = bits::mask::low_u64((n - lo) as u32);
            }
        }
        c
    }

    /// Whether cell `c` is in the set.
    #[inline]
    pub fn contains(&self, c: usize) -> bool {
        (self.0[c >> 6] >> (c & 63)) & 1 != 0
    }

    /// Adds cell `c`.
    #[inline]
    pub fn insert(&mut self, c: usize) {
        self.0[c >> 6] |= 1 << (c & 63);
    }

    /// Removes cell `c`.
    #[inline]
    pub fn remove(&mut self, c: usize) {
        self.0[c >> 6] &= !(1 << (c & 63));
    }

    /// Number of cells in the set.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The cells of `live` that are not in `self` (`!` restricted to the live area).
    pub fn complement(&self, live: &Cells) -> Cells {
        let mut out = *live;
        for (o, s) in out.0.iter_mut().zip(self.0) {
            *o &= !s;
        }
        out
    }

    /// The `k`-th cell of the set in increasing order (0-based), found word by word with
    /// popcounts and then [`bits::iter::select_u64`] (PDEP) inside the word.
    pub fn nth(&self, mut k: usize) -> Option<usize> {
        for (w, &word) in self.0.iter().enumerate() {
            let n = word.count_ones() as usize;
            if k < n {
                return bits::iter::select_u64(word, k as u32).map(|b| w * 64 + b as usize);
            }
            k -= n;
        }
        None
    }

    /// The cells in increasing order.
    pub fn iter(&self) -> CellIter {
        CellIter { words: self.0, word: 0, bits: SetBits::new(self.0[0]), left: self.len() }
    }
}

impl std::fmt::Debug for Cells {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The cells of a [`Cells`] in increasing order.
#[derive(Clone, Debug)]
pub struct CellIter {
    words: [u64; WORDS],
    word: usize,
    bits: SetBits<u64>,
    left: usize,
}

impl Iterator for CellIter {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        loop {
            if let Some(b) = self.bits.next() {
                self.left -= 1;
                return Some(self.word * 64 + b as usize);
            }
            if self.word + 1 >= WORDS {
                return None;
            }
            self.word += 1;
            self.bits = SetBits::new(self.words[self.word]);
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for CellIter {}
impl FusedIterator for CellIter {}

macro_rules! set_op {
    ($tr:ident, $f:ident, $op:tt) => {
        impl $tr for Cells {
            type Output = Cells;
            #[inline]
            fn $f(mut self, rhs: Cells) -> Cells {
                for (a, b) in self.0.iter_mut().zip(rhs.0) {
                    *a $op b;
                }
                self
            }
        }
    };
}
set_op!(BitOr, bitor, |=);
set_op!(BitAnd, bitand, &=);
set_op!(BitXor, bitxor, ^=);

impl Sub for Cells {
    type Output = Cells;
    /// Set difference (and-not).
    #[inline]
    fn sub(mut self, rhs: Cells) -> Cells {
        for (a, b) in self.0.iter_mut().zip(rhs.0) {
            *a &= !b;
        }
        self
    }
}

impl BitOrAssign for Cells {
    #[inline]
    fn bitor_assign(&mut self, rhs: Cells) {
        *self = *self | rhs;
    }
}

impl BitAndAssign for Cells {
    #[inline]
    fn bitand_assign(&mut self, rhs: Cells) {
        *self = *self & rhs;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn nth_matches_iteration(cells in proptest::collection::vec(0usize..MAX_CELLS, 0..80)) {
            let mut s = Cells::EMPTY;
            for &c in &cells {
                s.insert(c);
            }
            let listed: Vec<usize> = s.iter().collect();
            prop_assert_eq!(listed.len(), s.len());
            for (k, &c) in listed.iter().enumerate() {
                prop_assert_eq!(s.nth(k), Some(c));
                prop_assert!(s.contains(c));
            }
            prop_assert_eq!(s.nth(listed.len()), None);
        }

        #[test]
        fn complement_stays_in_live_area(n in 0usize..=MAX_CELLS, c in 0usize..MAX_CELLS) {
            let live = Cells::first(n);
            prop_assert_eq!(live.len(), n);
            let mut s = Cells::EMPTY;
            s.insert(c);
            let comp = s.complement(&live);
            prop_assert_eq!(comp.len(), n - usize::from(c < n));
            prop_assert!(comp.iter().all(|x| x < n));
            prop_assert_eq!(comp | (s & live), live);
            prop_assert_eq!(live - s, comp);
        }
    }
}
