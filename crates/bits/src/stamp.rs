//! A visited set for repeated searches over the same cells, never cleared between searches.
//!
//! Each cell holds the stamp of the last search that visited it; a search begins by taking a
//! new stamp, which empties the set in O(1). Only when the stamp counter wraps around (every
//! `S::MAX` searches) are the cells zeroed, once. Searches allocate nothing.
//!
//! ```
//! use bits::StampSet;
//! let mut seen: StampSet = StampSet::new(100);
//! seen.begin();
//! assert!(seen.insert(42));
//! assert!(!seen.insert(42));
//! seen.begin(); // a new search: nothing is visited any more
//! assert!(!seen.contains(42));
//! ```

/// An unsigned stamp type: `u8` and `u16` wrap quickly (tests), `u32` is the default.
pub trait Stamp: Copy + Eq + Default + std::fmt::Debug {
    /// The stamp after this one, or `None` when the counter would wrap.
    fn succ(self) -> Option<Self>;
    /// The first stamp of a fresh cycle (cells hold 0 = never visited).
    const FIRST: Self;
}

macro_rules! stamp {
    ($($t:ty),*) => {$(
        impl Stamp for $t {
            #[inline]
            fn succ(self) -> Option<Self> {
                self.checked_add(1)
            }
            const FIRST: Self = 1;
        }
    )*};
}
stamp!(u8, u16, u32, u64);

/// A set of cell indices `0..len`, emptied in O(1) by [`StampSet::begin`].
#[derive(Clone, Debug)]
pub struct StampSet<S: Stamp = u32> {
    marks: Vec<S>,
    now: S,
    wraps: u64,
}

impl<S: Stamp> StampSet<S> {
    /// A set over `len` cells. Call [`begin`](Self::begin) before each search.
    pub fn new(len: usize) -> Self {
        StampSet { marks: vec![S::default(); len], now: S::FIRST, wraps: 0 }
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.marks.len()
    }

    /// Whether the set covers no cells at all.
    pub fn is_empty(&self) -> bool {
        self.marks.is_empty()
    }

    /// How many times the stamp counter has wrapped (and the cells were zeroed).
    pub fn wraps(&self) -> u64 {
        self.wraps
    }

    /// Starts a new search: afterwards no cell is in the set.
    #[inline]
    pub fn begin(&mut self) {
        match self.now.succ() {
            Some(next) => self.now = next,
            None => self.wrap(),
        }
    }

    #[cold]
    fn wrap(&mut self) {
        self.marks.fill(S::default());
        self.now = S::FIRST;
        self.wraps += 1;
    }

    /// Adds `cell`; returns `true` if it was not yet in the set.
    #[inline]
    pub fn insert(&mut self, cell: usize) -> bool {
        let m = &mut self.marks[cell];
        if *m == self.now {
            false
        } else {
            *m = self.now;
            true
        }
    }

    /// Whether `cell` has been inserted since the last [`begin`](Self::begin).
    #[inline]
    pub fn contains(&self, cell: usize) -> bool {
        self.marks[cell] == self.now
    }

    /// Removes `cell` from the set.
    #[inline]
    pub fn remove(&mut self, cell: usize) {
        self.marks[cell] = S::default();
    }

    /// Moves the counter forward to `now` without touching the cells, so a test can force the
    /// wrap-around of a wide stamp type. Moving it backwards is refused: stale marks could then
    /// read as visited.
    #[doc(hidden)]
    pub fn advance_to(&mut self, now: S)
    where
        S: Ord,
    {
        assert!(now >= self.now, "StampSet::advance_to may only move the counter forward");
        self.now = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;
    use std::collections::HashSet;

    /// Many searches with a `u8` stamp (wraps every 255 searches), each checked against a
    /// `HashSet`: stale marks from before a wrap must never read as visited.
    #[test]
    fn wraps_correctly_with_u8_stamps() {
        let mut rng = Rng::new(3);
        let mut set: StampSet<u8> = StampSet::new(64);
        for _search in 0..2_000 {
            set.begin();
            let mut want = HashSet::new();
            for _ in 0..rng.below(40) {
                let c = rng.below(64) as usize;
                assert_eq!(set.insert(c), want.insert(c));
            }
            for c in 0..64 {
                assert_eq!(set.contains(c), want.contains(&c), "cell {c}");
            }
        }
        assert_eq!(set.wraps(), 2_000 / 255);
    }

    #[test]
    fn forced_wrap_with_u32_stamps() {
        let mut set: StampSet<u32> = StampSet::new(8);
        set.begin();
        set.insert(3);
        set.advance_to(u32::MAX);
        set.insert(5);
        assert!(set.contains(5) && !set.contains(3));
        set.begin(); // wraps: stamp goes back to 1, every cell zeroed
        assert_eq!(set.wraps(), 1);
        assert!((0..8).all(|c| !set.contains(c)));
        // Cell 3 was marked with stamp 2 long ago; after the wrap the counter passes 2 again
        // and the old mark must not come back to life.
        set.begin();
        assert!(!set.contains(3));
        assert!(set.insert(3));
    }

    #[test]
    #[should_panic(expected = "only move the counter forward")]
    fn advance_backwards_is_refused() {
        let mut set: StampSet<u16> = StampSet::new(1);
        set.advance_to(100);
        set.advance_to(5);
    }
}
