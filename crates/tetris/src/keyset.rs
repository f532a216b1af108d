//! The open-addressing set of non-zero keys shared by the solver's memo (`u64` search states)
//! and the tiling failure set (`u128` sub-problems).
//!
//! Linear probing over a power-of-two table, the slot taken from the top bits of a Fibonacci
//! hash; 0 marks an empty slot, so a key of 0 is never stored and never found. The table
//! doubles when it would pass half full, and is allocated on the first insert (a search that
//! never inserts never allocates).

/// A key the set can hold.
pub trait Key: Copy + Eq + Default + std::fmt::Debug {
    /// A 64-bit mix of the key whose top bits pick the slot.
    fn mix(self) -> u64;
}

const PHI: u64 = 0x9E37_79B9_7F4A_7C15;

impl Key for u64 {
    #[inline]
    fn mix(self) -> u64 {
        self.wrapping_mul(PHI)
    }
}

impl Key for u128 {
    #[inline]
    fn mix(self) -> u64 {
        (self as u64 ^ (self >> 64) as u64).wrapping_mul(PHI)
    }
}

/// A set of non-zero keys (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct KeySet<K> {
    slots: Vec<K>,
    len: usize,
    bits: u32,
}

impl<K: Key> Default for KeySet<K> {
    /// An empty set whose table starts at 256 slots.
    fn default() -> Self {
        KeySet::with_start_bits(8)
    }
}

impl<K: Key> KeySet<K> {
    /// An empty set whose table starts at `2^bits` slots (allocated on the first insert).
    pub fn with_start_bits(bits: u32) -> Self {
        debug_assert!((1..=40).contains(&bits));
        KeySet { slots: Vec::new(), len: 0, bits }
    }

    /// Forgets everything (keeps the table's size).
    pub fn clear(&mut self) {
        if self.len > 0 {
            self.slots.fill(K::default());
            self.len = 0;
        }
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes of the table.
    pub fn bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<K>()
    }

    #[inline]
    fn slot(&self, key: K) -> usize {
        (key.mix() >> (64 - self.bits)) as usize
    }

    /// Whether `key` is in the set (never for 0).
    #[inline]
    pub fn contains(&self, key: K) -> bool {
        if self.len == 0 {
            return false;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        loop {
            let s = self.slots[i];
            if s == K::default() {
                return false;
            }
            if s == key {
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds `key`; 0 is ignored.
    pub fn insert(&mut self, key: K) {
        if key == K::default() {
            return;
        }
        if self.slots.is_empty() {
            self.slots = vec![K::default(); 1 << self.bits];
        }
        if 2 * (self.len + 1) > self.slots.len() {
            let old = std::mem::take(&mut self.slots);
            self.slots = vec![K::default(); old.len() * 2];
            self.bits += 1;
            self.len = 0;
            for k in old.into_iter().filter(|&k| k != K::default()) {
                self.put(k);
            }
        }
        self.put(key);
    }

    fn put(&mut self, key: K) {
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        loop {
            let s = self.slots[i];
            if s == key {
                return;
            }
            if s == K::default() {
                self.slots[i] = key;
                self.len += 1;
                return;
            }
            i = (i + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The set agrees with a `HashSet` under random inserts and lookups, through growth and a
    /// clear, for both key widths; 0 is never a member.
    #[test]
    fn agrees_with_a_hash_set() {
        fn run<K: Key + std::hash::Hash>(make: impl Fn(u64) -> K) {
            let mut rng = bits::Rng::new(9);
            let mut set = KeySet::<K>::with_start_bits(2);
            let mut want = std::collections::HashSet::new();
            for round in 0..2 {
                for _ in 0..5_000 {
                    let k = make(rng.next_u64() % 3_000);
                    if rng.next_u64() % 2 == 0 {
                        set.insert(k);
                        if k != K::default() {
                            want.insert(k);
                        }
                    }
                    assert_eq!(set.contains(k), want.contains(&k), "round {round} key {k:?}");
                }
                assert_eq!(set.len(), want.len());
                assert!(!set.contains(K::default()));
                set.clear();
                want.clear();
                assert!(set.is_empty());
            }
        }
        run(|x| x);
        run(|x| u128::from(x) << 64 | u128::from(x * 7));
    }
}
