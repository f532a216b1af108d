//! Set-bit iteration and popcount helpers over `u32`, `u64` and `u128` words.

use std::iter::FusedIterator;

/// A machine word that can be walked bit by bit.
pub trait Word: Copy + Eq + std::fmt::Debug {
    /// The all-zero word.
    const ZERO: Self;
    /// Number of set bits.
    fn popcount(self) -> u32;
    /// Index of the lowest set bit (the word must be non-zero).
    fn lowest(self) -> u32;
    /// The word with its lowest set bit cleared.
    fn clear_lowest(self) -> Self;
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const ZERO: Self = 0;
            #[inline]
            fn popcount(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline]
            fn clear_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    )*};
}
word!(u8, u16, u32, u64, u128);

/// Iterator over the indices of the set bits of a word, lowest first.
///
/// ```
/// use bits::SetBits;
/// let it = SetBits::new(0b1001_0100u32);
/// assert_eq!(it.len(), 3);
/// assert_eq!(it.collect::<Vec<_>>(), [2, 4, 7]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SetBits<W: Word>(W);

impl<W: Word> SetBits<W> {
    /// Iterates over the set bits of `word`.
    #[inline]
    pub fn new(word: W) -> Self {
        SetBits(word)
    }

    /// The bits not yet yielded.
    #[inline]
    pub fn remaining(&self) -> W {
        self.0
    }
}

impl<W: Word> Iterator for SetBits<W> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == W::ZERO {
            return None;
        }
        let i = self.0.lowest();
        self.0 = self.0.clear_lowest();
        Some(i)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.popcount() as usize;
        (n, Some(n))
    }

    #[inline]
    fn count(self) -> usize {
        self.0.popcount() as usize
    }
}

impl<W: Word> ExactSizeIterator for SetBits<W> {}
impl<W: Word> FusedIterator for SetBits<W> {}

/// Number of set bits of `x` below bit `i` (the rank of bit `i`): `popcount(x & ((1 << i) - 1))`.
#[inline]
pub fn rank_u64(x: u64, i: u32) -> u32 {
    debug_assert!(i <= 64);
    (x & crate::mask::low_u64(i)).count_ones()
}

/// Index of the `n`-th set bit of `x` (0-based), or `None` if `x` has at most `n` set bits.
/// Uses PDEP on the active path: `pdep(1 << n, x)` keeps exactly that bit.
#[inline]
pub fn select_u64(x: u64, n: u32) -> Option<u32> {
    if n >= x.count_ones() {
        return None;
    }
    Some(crate::pext::pdep_u64(1u64 << n, x).trailing_zeros())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn set_bits_match_a_scan(x: u64) {
            let want: Vec<u32> = (0..64).filter(|i| x >> i & 1 == 1).collect();
            let it = SetBits::new(x);
            prop_assert_eq!(it.len(), want.len());
            prop_assert_eq!(it.collect::<Vec<_>>(), want);
        }

        #[test]
        fn select_inverts_rank(x: u64, n in 0u32..64) {
            match select_u64(x, n) {
                Some(i) => {
                    prop_assert!(x >> i & 1 == 1);
                    prop_assert_eq!(rank_u64(x, i), n);
                }
                None => prop_assert!(x.count_ones() <= n),
            }
        }
    }

    #[test]
    fn fused_and_exact() {
        let mut it = SetBits::new(0x8000_0000_0000_0001u64);
        assert_eq!(it.len(), 2);
        assert_eq!(it.next(), Some(0));
        assert_eq!(it.len(), 1);
        assert_eq!(it.next(), Some(63));
        assert_eq!(it.next(), None);
        assert_eq!(it.next(), None);
        assert_eq!(SetBits::new(u128::MAX).count(), 128);
    }
}
