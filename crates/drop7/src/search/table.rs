//! Transposition tables as a compile-time strategy.
//!
//! The search is generic over [`Table`]: [`NoTable`] compiles the probes away; [`Direct`] is
//! direct-mapped with depth-preferred replacement; [`SetAssoc`] keeps `W` entries per bucket
//! and replaces the shallowest. Entries hold the whole key (board words, level and drops
//! left: 32 bytes), so a hit is never a collision, and a hit requires the *same* remaining
//! depth: a value from a deeper search would be a different number. The values cached are
//! pure functions of (key, depth) (see [`super`]), which is why a table can save work but
//! never change a decision value; a test checks it.

/// The key of a chance node: the seven column words and `(level << 8) | drops_left`.
pub type Key = [u32; 8];

/// A 64-bit hash of a key.
#[inline]
pub fn key_hash(key: &Key) -> u64 {
    let mut h = 0x9E37_79B9_7F4A_7C15u64;
    for &w in key {
        h = (h ^ u64::from(w)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^= h >> 31;
    }
    h
}

/// A transposition-table strategy.
pub trait Table {
    /// `false` for [`NoTable`]: the search skips hashing and probing entirely.
    const ENABLED: bool;
    /// The stored value of `key` searched to exactly `depth`, if present.
    fn probe(&mut self, key: &Key, depth: u32) -> Option<f64>;
    /// Offers `value` for `key` at `depth`; the strategy decides whether to keep it.
    fn store(&mut self, key: &Key, depth: u32, value: f64);
    /// A short name for reports.
    fn name(&self) -> &'static str;
}

/// No table.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTable;

impl Table for NoTable {
    const ENABLED: bool = false;
    #[inline(always)]
    fn probe(&mut self, _: &Key, _: u32) -> Option<f64> {
        None
    }
    #[inline(always)]
    fn store(&mut self, _: &Key, _: u32, _: f64) {}
    fn name(&self) -> &'static str {
        "none"
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: Key,
    value: f64,
    /// Remaining depth of the stored search; 0 marks an empty slot (only depth >= 1 is stored).
    depth: u32,
}

/// Direct-mapped, depth-preferred: a slot is overwritten only by a search at least as deep.
#[derive(Clone, Debug)]
pub struct Direct {
    slots: Vec<Entry>,
    mask: usize,
}

impl Direct {
    /// A table of `2^bits` entries (48 bytes each).
    pub fn new(bits: u32) -> Direct {
        Direct { slots: vec![Entry::default(); 1 << bits], mask: (1 << bits) - 1 }
    }
}

impl Table for Direct {
    const ENABLED: bool = true;
    #[inline]
    fn probe(&mut self, key: &Key, depth: u32) -> Option<f64> {
        let e = &self.slots[key_hash(key) as usize & self.mask];
        (e.depth == depth && e.key == *key).then_some(e.value)
    }
    #[inline]
    fn store(&mut self, key: &Key, depth: u32, value: f64) {
        let e = &mut self.slots[key_hash(key) as usize & self.mask];
        if e.depth <= depth {
            *e = Entry { key: *key, value, depth };
        }
    }
    fn name(&self) -> &'static str {
        "direct"
    }
}

/// `W`-way set-associative: a bucket of `W` entries; a store replaces the same key, else an
/// empty slot, else the shallowest entry (the first of equals) if it is not deeper.
#[derive(Clone, Debug)]
pub struct SetAssoc<const W: usize> {
    slots: Vec<Entry>,
    mask: usize,
}

impl<const W: usize> SetAssoc<W> {
    /// A table of `2^bits` entries in all (`2^bits / W` buckets).
    pub fn new(bits: u32) -> Self {
        let buckets = (1usize << bits) / W;
        SetAssoc { slots: vec![Entry::default(); buckets * W], mask: buckets.max(1) - 1 }
    }
}

impl<const W: usize> Table for SetAssoc<W> {
    const ENABLED: bool = true;
    #[inline]
    fn probe(&mut self, key: &Key, depth: u32) -> Option<f64> {
        let b = (key_hash(key) as usize & self.mask) * W;
        self.slots[b..b + W].iter().find(|e| e.depth == depth && e.key == *key).map(|e| e.value)
    }
    #[inline]
    fn store(&mut self, key: &Key, depth: u32, value: f64) {
        let b = (key_hash(key) as usize & self.mask) * W;
        let bucket = &mut self.slots[b..b + W];
        let slot = match bucket.iter().position(|e| e.key == *key && e.depth != 0) {
            Some(i) => i,
            None => {
                let mut best = 0;
                for i in 1..W {
                    if bucket[i].depth < bucket[best].depth {
                        best = i;
                    }
                }
                best
            }
        };
        if bucket[slot].depth <= depth {
            bucket[slot] = Entry { key: *key, value, depth };
        }
    }
    fn name(&self) -> &'static str {
        match W {
            2 => "2-way",
            4 => "4-way",
            _ => "set-assoc",
        }
    }
}
