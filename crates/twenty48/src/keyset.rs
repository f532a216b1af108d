//! A sorted set of 64-bit keys held at about 4 bytes a key: the positions of an endgame
//! table's layer ([`crate::endgame`]).
//!
//! A table's positions are boards with the locked cells cleared, so their high halves (rows
//! 2 and 3) take few distinct values: a few hundred for a ten-cell formation, a few thousand
//! for an eleven-cell one. A [`KeySet`] keeps each distinct high half once, with the index
//! of its first key, and every key's low half as a `u32`. A lookup is a binary search over
//! the high halves, then one over the low halves that share it.
//!
//! ```text
//!   keys (sorted u64):   h0:l0  h0:l1  h0:l2  h1:l3  h1:l4  h2:l5
//!   highs / starts:      h0 @ 0              h1 @ 3        h2 @ 5     (end 6)
//!   lows (u32):          l0     l1     l2     l3     l4     l5
//! ```

/// A sorted set of distinct `u64` keys; see the [module docs](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeySet {
    /// The distinct high halves, ascending.
    highs: Vec<u32>,
    /// `starts[j]` is the index of the first key whose high half is `highs[j]`; one more
    /// entry, the key count, closes the last run.
    starts: Vec<u32>,
    /// Every key's low half, in key order.
    lows: Vec<u32>,
}

impl Default for KeySet {
    /// The empty set.
    fn default() -> Self {
        KeySet { highs: Vec::new(), starts: vec![0], lows: Vec::new() }
    }
}

/// A [`KeySet`] under construction, its keys given in ascending order.
pub struct KeySetBuilder {
    set: KeySet,
    last: Option<u64>,
}

impl KeySetBuilder {
    /// A builder with room for `capacity` keys.
    pub fn with_capacity(capacity: usize) -> KeySetBuilder {
        let set =
            KeySet { highs: Vec::new(), starts: Vec::new(), lows: Vec::with_capacity(capacity) };
        KeySetBuilder { set, last: None }
    }

    /// Appends `key`; `false` (and nothing appended) unless it is larger than every key
    /// so far.
    pub fn push(&mut self, key: u64) -> bool {
        if self.last.is_some_and(|l| l >= key) {
            return false;
        }
        self.last = Some(key);
        let s = &mut self.set;
        let high = (key >> 32) as u32;
        if s.highs.last() != Some(&high) {
            s.highs.push(high);
            s.starts.push(u32::try_from(s.lows.len()).expect("under 2^32 keys"));
        }
        s.lows.push(key as u32);
        true
    }

    /// The set of the keys pushed.
    pub fn finish(self) -> KeySet {
        let mut s = self.set;
        s.starts.push(u32::try_from(s.lows.len()).expect("under 2^32 keys"));
        s.highs.shrink_to_fit();
        s.starts.shrink_to_fit();
        s.lows.shrink_to_fit();
        s
    }
}

impl KeySet {
    /// The set of `keys`, which must be strictly ascending (fewer than 2^32 of them).
    ///
    /// # Panics
    /// If they are not.
    pub fn from_sorted(keys: &[u64]) -> KeySet {
        let mut b = KeySetBuilder::with_capacity(keys.len());
        for &k in keys {
            assert!(b.push(k), "keys strictly ascending");
        }
        b.finish()
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.lows.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.lows.is_empty()
    }

    /// The index of `key`, if the set holds it.
    pub fn find(&self, key: u64) -> Option<usize> {
        let j = self.highs.binary_search(&((key >> 32) as u32)).ok()?;
        let (a, b) = (self.starts[j] as usize, self.starts[j + 1] as usize);
        self.lows[a..b].binary_search(&(key as u32)).ok().map(|k| a + k)
    }

    /// The key at index `i` (`i < len`).
    pub fn get(&self, i: usize) -> u64 {
        // The run holding i: the last start at or below it.
        let j = self.starts.partition_point(|&s| s as usize <= i) - 1;
        u64::from(self.highs[j]) << 32 | u64::from(self.lows[i])
    }

    /// The keys in order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.highs.iter().enumerate().flat_map(move |(j, &h)| {
            let run = &self.lows[self.starts[j] as usize..self.starts[j + 1] as usize];
            run.iter().map(move |&l| u64::from(h) << 32 | u64::from(l))
        })
    }

    /// The three vectors as stored: the distinct high halves, the index of each one's first
    /// key (without the closing count) and every key's low half.
    pub fn parts(&self) -> (&[u32], &[u32], &[u32]) {
        (&self.highs, &self.starts[..self.highs.len()], &self.lows)
    }

    /// The set [`KeySet::parts`] gave, checked: the high halves strictly ascending, the first
    /// run starting at 0, the runs non-empty, and the low halves strictly ascending within
    /// each run; else what is wrong.
    pub fn from_parts(highs: Vec<u32>, starts: Vec<u32>, lows: Vec<u32>) -> Result<KeySet, String> {
        let starts = Self::runs(&highs, &starts, lows.len())?;
        for w in starts.windows(2) {
            if !strictly_ascending(&lows[w[0] as usize..w[1] as usize]) {
                return Err("keys not sorted".into());
            }
        }
        Ok(KeySet { highs, starts, lows })
    }

    /// [`KeySet::from_parts`]'s checks of the runs alone, for `n` keys: the high halves
    /// strictly ascending, the first run starting at 0 and none empty. Returns the starts
    /// closed by `n` (each run `j` is `starts[j]..starts[j + 1]`), else what is wrong.
    pub fn runs(highs: &[u32], starts: &[u32], n: usize) -> Result<Vec<u32>, String> {
        if highs.len() != starts.len() {
            return Err(format!("{} high halves, {} run starts", highs.len(), starts.len()));
        }
        if !strictly_ascending(highs) {
            return Err("high halves not ascending".into());
        }
        let n = u32::try_from(n).map_err(|_| "2^32 keys or more".to_string())?;
        if starts.first().is_some_and(|&s| s != 0) || (starts.is_empty() && n > 0) {
            return Err("the first run does not start at 0".into());
        }
        let mut closed = Vec::with_capacity(starts.len() + 1);
        closed.extend_from_slice(starts);
        closed.push(n);
        if !strictly_ascending(&closed) {
            return Err("a run is empty or out of order".into());
        }
        Ok(closed)
    }

    /// Bytes held (the three vectors' lengths).
    pub fn bytes(&self) -> usize {
        4 * (self.highs.len() + self.starts.len() + self.lows.len())
    }
}

/// Whether every value is above the one before it.
pub(crate) fn strictly_ascending(v: &[u32]) -> bool {
    v.windows(2).all(|w| w[0] < w[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_set_finds_exactly_its_keys_and_gives_them_back_in_order() {
        let mut rng = bits::Rng::new(7);
        // Few distinct high halves (as a table's layer has), low halves anywhere, and the
        // edges: 0, u64::MAX, runs of one key.
        let mut keys: Vec<u64> = (0..20_000)
            .map(|_| (rng.below(40) << 36 | rng.below(3) << 32) | rng.below(1 << 32))
            .chain([0, u64::MAX, 1 << 63, (1 << 32) - 1])
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let s = KeySet::from_sorted(&keys);
        assert_eq!(s.len(), keys.len());
        assert_eq!(s.iter().collect::<Vec<_>>(), keys);
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(s.find(k), Some(i), "{k:#x}");
            assert_eq!(s.get(i), k);
        }
        // Keys not in the set: neighbours of members and random ones.
        for _ in 0..20_000 {
            let k = keys[rng.below(keys.len() as u64) as usize];
            for probe in [k.wrapping_add(1), k.wrapping_sub(1), k ^ 1 << 33, rng.next_u64()] {
                assert_eq!(s.find(probe), keys.binary_search(&probe).ok(), "{probe:#x}");
            }
        }
        assert!(s.bytes() < 5 * keys.len(), "{} bytes for {} keys", s.bytes(), keys.len());
        let empty = KeySet::from_sorted(&[]);
        assert!(empty.is_empty() && empty.find(0).is_none() && empty.iter().next().is_none());
        assert_eq!(empty, KeySet::default());
        // A key out of order or repeated is refused.
        let mut b = KeySetBuilder::with_capacity(3);
        assert!(b.push(5) && b.push(1 << 40) && !b.push(1 << 40) && !b.push(6));
        assert_eq!(b.finish().iter().collect::<Vec<_>>(), [5, 1 << 40]);
    }

    #[test]
    fn a_key_set_comes_back_from_its_parts_and_bad_parts_are_named() {
        let keys: Vec<u64> = [1u64, 7, 3 << 32, 3 << 32 | 9, 8 << 32, u64::MAX].to_vec();
        let s = KeySet::from_sorted(&keys);
        let (h, st, l) = s.parts();
        assert_eq!((h, st), (&[0, 3, 8, u32::MAX][..], &[0, 2, 4, 5][..]));
        let back = KeySet::from_parts(h.to_vec(), st.to_vec(), l.to_vec()).unwrap();
        assert_eq!(back, s);
        assert_eq!(KeySet::from_parts(vec![], vec![], vec![]).unwrap(), KeySet::default());
        let bad = |h: &[u32], st: &[u32], l: &[u32]| {
            KeySet::from_parts(h.to_vec(), st.to_vec(), l.to_vec()).unwrap_err()
        };
        assert!(bad(&[0, 3], &[0], &[1, 2]).contains("run starts"));
        assert!(bad(&[3, 3], &[0, 1], &[1, 2]).contains("high halves not ascending"));
        assert!(bad(&[3], &[1], &[1, 2]).contains("first run"));
        assert!(bad(&[], &[], &[1]).contains("first run"));
        assert!(bad(&[0, 3], &[0, 0], &[1, 2]).contains("run is empty"));
        assert!(bad(&[0, 3], &[0, 3], &[1, 2]).contains("run is empty"));
        assert!(bad(&[0], &[0], &[2, 2]).contains("keys not sorted"));
        assert!(bad(&[0, 1], &[0, 1], &[2, 5, 4]).contains("keys not sorted"));
        // Keys may fall across a run boundary in any order: each run is its own.
        assert!(KeySet::from_parts(vec![0, 1], vec![0, 1], vec![9, 4, 5]).is_ok());
    }
}
