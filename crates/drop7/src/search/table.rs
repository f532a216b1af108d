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
    /// Called when a new root search starts: entries stored before it stay valid (values
    /// are pure functions of key and depth) but lose their claim to their slot, so that a
    /// game's earlier, deeper entries (which a later search, one move further on, seldom
    /// meets at the same remaining depth) do not crowd out the current search's.
    #[inline]
    fn new_search(&mut self) {}
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
    /// The root search that stored it ([`Table::new_search`]).
    generation: u32,
}

/// Direct-mapped, depth-preferred: a slot is overwritten only by a search at least as deep,
/// or by any entry of a later root search.
#[derive(Clone, Debug)]
pub struct Direct {
    slots: Vec<Entry>,
    mask: usize,
    generation: u32,
}

impl Direct {
    /// A table of `2^bits` entries (48 bytes each).
    pub fn new(bits: u32) -> Direct {
        Direct { slots: vec![Entry::default(); 1 << bits], mask: (1 << bits) - 1, generation: 0 }
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
        if e.depth <= depth || e.generation != self.generation {
            *e = Entry { key: *key, value, depth, generation: self.generation };
        }
    }
    fn name(&self) -> &'static str {
        "direct"
    }
    #[inline]
    fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }
}

/// `W`-way set-associative: a bucket of `W` entries; a store replaces the same key, else an
/// empty slot or one of an earlier root search, else the shallowest entry (the first of
/// equals) if it is not deeper.
#[derive(Clone, Debug)]
pub struct SetAssoc<const W: usize> {
    slots: Vec<Entry>,
    mask: usize,
    generation: u32,
}

impl<const W: usize> SetAssoc<W> {
    /// A table of `2^bits` entries in all (`2^bits / W` buckets).
    pub fn new(bits: u32) -> Self {
        let buckets = (1usize << bits) / W;
        SetAssoc {
            slots: vec![Entry::default(); buckets * W],
            mask: buckets.max(1) - 1,
            generation: 0,
        }
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
                // Entries of earlier searches count as empty.
                let gen = self.generation;
                let rank = |e: &Entry| if e.generation == gen { e.depth } else { 0 };
                let mut best = 0;
                for i in 1..W {
                    if rank(&bucket[i]) < rank(&bucket[best]) {
                        best = i;
                    }
                }
                best
            }
        };
        let e = &mut bucket[slot];
        if e.depth <= depth || e.generation != self.generation {
            *e = Entry { key: *key, value, depth, generation: self.generation };
        }
    }
    fn name(&self) -> &'static str {
        match W {
            2 => "2-way",
            4 => "4-way",
            _ => "set-assoc",
        }
    }
    #[inline]
    fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }
}

/// A direct-mapped cache of leaf evaluations, keyed by everything an [`Evaluator`] sees
/// (the column words, the level and the drops left), so a hit returns the very value the
/// evaluator would compute: it saves work and changes nothing. Leaves repeat within a
/// search: two non-popping drops in different columns give the same board in either order,
/// and paired replays that reveal the same value give the same board.
///
/// [`Evaluator`]: super::Evaluator
#[derive(Clone, Debug)]
pub struct LeafCache {
    slots: Vec<LeafEntry>,
    shift: u32,
}

#[derive(Clone, Copy, Debug, Default)]
struct LeafEntry {
    cols: [u32; 7],
    /// `1 << 31 | level << 8 | drops_left`; 0 marks an empty slot.
    tag: u32,
    value: f64,
}

impl LeafCache {
    /// A cache of `2^bits` entries (40 bytes each); `bits == 0` is no cache at all.
    pub fn new(bits: u32) -> LeafCache {
        let slots = if bits == 0 { Vec::new() } else { vec![LeafEntry::default(); 1 << bits] };
        LeafCache { slots, shift: 64 - bits.max(1) }
    }

    /// The number of entries (0 when off).
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// `true` when the cache is off.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The cached value of (`board`, `level`, `drops_left`), or `eval()` stored for next
    /// time; the flag says whether it was a hit.
    #[inline]
    pub fn get_or_insert(
        &mut self,
        board: &crate::Board,
        level: u32,
        drops_left: u32,
        eval: impl FnOnce() -> f64,
    ) -> (f64, bool) {
        if self.slots.is_empty() || level >= 1 << 23 || drops_left >= 1 << 8 {
            return (eval(), false);
        }
        let cols = board.cols();
        let tag = 1 << 31 | level << 8 | drops_left;
        // Seven independent multiplies summed, then a multiplicative hash's top bits.
        const K: [u64; 8] = [
            0x9E37_79B9_7F4A_7C15,
            0xBF58_476D_1CE4_E5B9,
            0x94D0_49BB_1331_11EB,
            0xD6E8_FEB8_6659_FD93,
            0xA076_1D64_78BD_642F,
            0xE703_7ED1_A0B4_28DB,
            0x8EBC_6AF0_9C88_C6E3,
            0x5899_65CC_7537_4CC3,
        ];
        let mut h = u64::from(tag).wrapping_mul(K[7]);
        for (w, k) in cols.iter().zip(K) {
            h = h.wrapping_add(u64::from(*w).wrapping_mul(k));
        }
        h ^= h >> 29;
        let i = (h.wrapping_mul(K[0]) >> self.shift) as usize;
        let e = &mut self.slots[i];
        if e.tag == tag && e.cols == *cols {
            return (e.value, true);
        }
        let value = eval();
        *e = LeafEntry { cols: *cols, tag, value };
        (value, false)
    }
}
