//! n-tuple networks, shared by the games (`twenty48`'s afterstate value, `drop7`'s search
//! leaf).
//!
//! An n-tuple network values a state as a sum of table weights: each *feature* (a tuple of
//! cells, a row, a window, in one of its symmetric placements) turns the state into an index
//! into its table. A game says which weights one value reads through [`Features`]; this crate
//! keeps the weights ([`Weights`]: every table one after another, one flat array), sums and
//! steps them, and keeps the temporal coherence accumulators ([`Coherence`]).
//!
//! The learning rules move each weight a value reads:
//! - TD(0): by `alpha * err` ([`Net::update`] with `delta = alpha * err`);
//! - temporal coherence (Beal & Smith 1999; for 2048 Jaśkowski 2016): by
//!   `beta * |E| / A * err`, `E` and `A` the sum and the sum of absolute values of the errors
//!   the weight has seen ([`Net::update_tc`], the step [`bits::learn::tc_step`]).
//!
//! Steps are per weight. A value reads [`Features::reads_per_value`] weights, so one step
//! moves the value by that many times the step; [`per_weight`] turns a step stated per value
//! (the literature's `alpha = 0.1`, say) into the per-weight one. The order of the reads is
//! the order of the sum and of the steps, so a game's value and training are bit-for-bit
//! what its own loops gave.
//!
//! ```
//! use ntuple::{Features, Net};
//!
//! /// Two cells of a 4-cell strip (cells 0..3, 4 values each), read forwards and mirrored.
//! struct Pairs;
//! impl Features for Pairs {
//!     type State = [u8; 4];
//!     fn table_sizes(&self) -> Vec<usize> {
//!         vec![16, 16]
//!     }
//!     fn reads_per_value(&self) -> usize {
//!         4
//!     }
//!     fn for_each_read(&self, s: &[u8; 4], mut read: impl FnMut(usize)) {
//!         for v in [*s, [s[3], s[2], s[1], s[0]]] {
//!             read(usize::from(v[0] * 4 + v[1])); // table 0
//!             read(16 + usize::from(v[2] * 4 + v[3])); // table 1
//!         }
//!     }
//! }
//!
//! let mut net = Net::new(Pairs);
//! let s = [1, 2, 3, 0];
//! assert_eq!(net.value_f32(&s), 0.0);
//! // One TD(0) step towards 10 with a step of 0.5 per value: each of the 4 reads moves 0.125.
//! let alpha = ntuple::per_weight(0.5, &net.features);
//! let err = 10.0 - net.value_f32(&s);
//! net.update(&s, alpha * err);
//! assert_eq!(net.value_f32(&s), 5.0);
//! ```

use bits::hash::Fnv;
use bits::learn::tc_step;

/// The most weights one value may read through [`Reads`] (2048's largest network, 64 tuples
/// on 8 symmetric boards, reads 512).
pub const MAX_READS: usize = 512;

/// The weights one value reads, as flat indices into [`Weights`] (table offset plus the index
/// in the table), in the order they are summed.
#[derive(Clone, Copy)]
pub struct Reads {
    n: usize,
    idx: [u32; MAX_READS],
}

impl Default for Reads {
    fn default() -> Self {
        Reads::new()
    }
}

impl Reads {
    /// No reads.
    #[inline]
    pub fn new() -> Reads {
        Reads { n: 0, idx: [0; MAX_READS] }
    }

    /// Appends a read of flat weight `i` (at most [`MAX_READS`]; more is a bug in the
    /// features, and panics).
    #[inline(always)]
    pub fn push(&mut self, i: usize) {
        assert!(self.n < MAX_READS, "more than {MAX_READS} reads for one value");
        debug_assert!(i <= u32::MAX as usize);
        self.idx[self.n] = i as u32;
        self.n += 1;
    }

    /// The reads so far.
    #[inline(always)]
    pub fn as_slice(&self) -> &[u32] {
        &self.idx[..self.n]
    }

    /// Forgets the reads.
    #[inline]
    pub fn clear(&mut self) {
        self.n = 0;
    }
}

/// Which weights a value reads: a game's features over its packed state.
pub trait Features {
    /// What is valued (a board, an afterstate with a counter, ...).
    type State: ?Sized;

    /// The sizes of the tables, in order; a weight's flat index is its table's offset (the
    /// sizes before it) plus its index in the table.
    fn table_sizes(&self) -> Vec<usize>;

    /// How many weights one value reads (the reads of [`Features::reads`], repeats counted).
    fn reads_per_value(&self) -> usize;

    /// Calls `read` with the flat index of each weight the value of `s` reads, in summing
    /// order (a closure, so the sums and steps compile to the game's own loop).
    fn for_each_read(&self, s: &Self::State, read: impl FnMut(usize));

    /// Appends the reads of `s` to `out`.
    fn reads(&self, s: &Self::State, out: &mut Reads) {
        self.for_each_read(s, |i| out.push(i));
    }
}

/// A step stated per value (a value moves by `alpha * err` when every weight it reads moves
/// by the returned step times `err`, counting each read once).
pub fn per_weight<F: Features>(alpha_per_value: f32, features: &F) -> f32 {
    alpha_per_value / features.reads_per_value().max(1) as f32
}

/// Every table's weights, one table after another.
#[derive(Clone, PartialEq)]
pub struct Weights {
    offsets: Vec<usize>,
    w: Box<[f32]>,
}

impl std::fmt::Debug for Weights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Weights({} tables, {} weights)", self.tables(), self.w.len())
    }
}

/// The flat weights, table after table (so a game indexes them as a slice).
impl std::ops::Deref for Weights {
    type Target = [f32];
    fn deref(&self) -> &[f32] {
        &self.w
    }
}

impl std::ops::DerefMut for Weights {
    fn deref_mut(&mut self) -> &mut [f32] {
        &mut self.w
    }
}

impl Weights {
    /// Tables of these sizes, every weight `value`.
    pub fn filled(sizes: &[usize], value: f32) -> Weights {
        let mut offsets = Vec::with_capacity(sizes.len() + 1);
        offsets.push(0);
        for &s in sizes {
            offsets.push(offsets[offsets.len() - 1] + s);
        }
        let n = offsets[sizes.len()];
        Weights { offsets, w: vec![value; n].into_boxed_slice() }
    }

    /// Tables of these sizes, every weight 0.
    pub fn zeros(sizes: &[usize]) -> Weights {
        Weights::filled(sizes, 0.0)
    }

    /// Tables of these sizes holding `w` (table after table), if the lengths agree.
    pub fn from_vec(sizes: &[usize], w: Vec<f32>) -> Option<Weights> {
        let mut out = Weights::zeros(&[]);
        out.offsets = std::iter::once(0)
            .chain(sizes.iter().scan(0, |acc, &s| {
                *acc += s;
                Some(*acc)
            }))
            .collect();
        (out.offsets[sizes.len()] == w.len()).then(|| {
            out.w = w.into_boxed_slice();
            out
        })
    }

    /// The number of tables.
    pub fn tables(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The flat index of table `t`'s first weight.
    #[inline(always)]
    pub fn offset(&self, t: usize) -> usize {
        self.offsets[t]
    }

    /// Table `t`.
    pub fn table(&self, t: usize) -> &[f32] {
        &self.w[self.offsets[t]..self.offsets[t + 1]]
    }

    /// Table `t`, writable.
    pub fn table_mut(&mut self, t: usize) -> &mut [f32] {
        &mut self.w[self.offsets[t]..self.offsets[t + 1]]
    }

    /// Every weight, table after table.
    pub fn all(&self) -> &[f32] {
        &self.w
    }

    /// Every weight, writable.
    pub fn all_mut(&mut self) -> &mut [f32] {
        &mut self.w
    }

    /// The number of weights.
    pub fn len(&self) -> usize {
        self.w.len()
    }

    /// Whether there is no weight.
    pub fn is_empty(&self) -> bool {
        self.w.is_empty()
    }

    /// The sum of the weights `reads` names, in order, in `f32`.
    #[inline(always)]
    pub fn sum_f32(&self, reads: &[u32]) -> f32 {
        let mut s = 0.0f32;
        for &i in reads {
            s += self.w[i as usize];
        }
        s
    }

    /// Grows the last tables by appending tables of `sizes`, every new weight 0.
    pub fn extend_tables(&mut self, sizes: &[usize]) {
        let mut w = std::mem::take(&mut self.w).into_vec();
        for &s in sizes {
            self.offsets.push(self.offsets[self.offsets.len() - 1] + s);
        }
        w.resize(self.offsets[self.offsets.len() - 1], 0.0);
        self.w = w.into_boxed_slice();
    }

    /// FNV-1a over the weights' little-endian bytes, in order.
    pub fn fingerprint(&self) -> u64 {
        let mut h = Fnv::new();
        for x in self.w.iter() {
            h.write(&x.to_le_bytes());
        }
        h.finish()
    }
}

/// The temporal coherence accumulators of a network: per weight `[E, A]`, the sum of the TD
/// errors it has been moved by and the sum of their absolute values, side by side so a step
/// touches one more cache line, not two. Training state, not part of the value.
#[derive(Clone, PartialEq)]
pub struct Coherence {
    ea: Box<[[f32; 2]]>,
}

impl std::fmt::Debug for Coherence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Coherence({} weights)", self.ea.len())
    }
}

/// Every weight's `[E, A]`, in the weights' order.
impl std::ops::Deref for Coherence {
    type Target = [[f32; 2]];
    fn deref(&self) -> &[[f32; 2]] {
        &self.ea
    }
}

impl std::ops::DerefMut for Coherence {
    fn deref_mut(&mut self) -> &mut [[f32; 2]] {
        &mut self.ea
    }
}

impl Coherence {
    /// Zero accumulators for `weights` weights (every weight starts at rate 1).
    pub fn new(weights: usize) -> Coherence {
        Coherence { ea: vec![[0.0; 2]; weights].into_boxed_slice() }
    }

    /// Accumulators from their values, weight by weight.
    pub fn from_vec(ea: Vec<[f32; 2]>) -> Coherence {
        Coherence { ea: ea.into_boxed_slice() }
    }

    /// `[E, A]` of flat weight `i`.
    pub fn get(&self, i: usize) -> [f32; 2] {
        self.ea[i]
    }

    /// Every weight's `[E, A]`.
    pub fn all(&self) -> &[[f32; 2]] {
        &self.ea
    }

    /// Every weight's `[E, A]`, writable.
    pub fn all_mut(&mut self) -> &mut [[f32; 2]] {
        &mut self.ea
    }

    /// The number of weights covered.
    pub fn weights(&self) -> usize {
        self.ea.len()
    }

    /// FNV-1a over the accumulators' bytes (`E` then `A`, weight by weight).
    pub fn fingerprint(&self) -> u64 {
        let mut h = Fnv::new();
        for [e, a] in self.ea.iter() {
            h.write(&e.to_le_bytes());
            h.write(&a.to_le_bytes());
        }
        h.finish()
    }
}

/// A network: features and their weights.
#[derive(Clone, Debug)]
pub struct Net<F> {
    /// What the value reads.
    pub features: F,
    weights: Weights,
}

impl<F: Features> Net<F> {
    /// Every weight 0.
    pub fn new(features: F) -> Net<F> {
        let weights = Weights::zeros(&features.table_sizes());
        Net { features, weights }
    }

    /// Every state worth `value` before any training: each weight `value` divided over the
    /// reads of one value. Optimistic initialisation (Guei, Chen & Wu 2022, "Optimistic
    /// temporal difference learning for 2048"): training lowers the values of the states it
    /// visits, so states never seen look better and greedy play explores them.
    pub fn optimistic(features: F, value: f32) -> Net<F> {
        let w = value / features.reads_per_value().max(1) as f32;
        let weights = Weights::filled(&features.table_sizes(), w);
        Net { features, weights }
    }

    /// `features` with these weights, if their tables agree.
    pub fn with_weights(features: F, weights: Weights) -> Option<Net<F>> {
        let sizes = features.table_sizes();
        let ok = weights.tables() == sizes.len()
            && (0..sizes.len()).all(|t| weights.table(t).len() == sizes[t]);
        ok.then_some(Net { features, weights })
    }

    /// The weights.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The weights, writable.
    pub fn weights_mut(&mut self) -> &mut Weights {
        &mut self.weights
    }

    /// The reads of `s`.
    #[inline(always)]
    pub fn reads(&self, s: &F::State) -> Reads {
        let mut r = Reads::new();
        self.features.reads(s, &mut r);
        r
    }

    /// The value of `s`, summed in `f32`.
    #[inline(always)]
    pub fn value_f32(&self, s: &F::State) -> f32 {
        let w = &self.weights.w;
        let mut sum = 0.0f32;
        self.features.for_each_read(s, |i| sum += w[i]);
        sum
    }

    /// The value of `s`, summed in `f64`.
    #[inline(always)]
    pub fn value_f64(&self, s: &F::State) -> f64 {
        let w = &self.weights.w;
        let mut sum = 0.0f64;
        self.features.for_each_read(s, |i| sum += f64::from(w[i]));
        sum
    }

    /// Adds `delta` to every weight the value of `s` reads (TD(0): `delta = alpha * err`).
    #[inline(always)]
    pub fn update(&mut self, s: &F::State, delta: f32) {
        let w = &mut self.weights.w;
        self.features.for_each_read(s, |i| w[i] += delta);
    }

    /// The temporal coherence step on the weights the value of `s` reads (a weight read
    /// twice is stepped twice, the second time with the accumulators the first left).
    #[inline(always)]
    pub fn update_tc(&mut self, acc: &mut Coherence, s: &F::State, err: f32, beta: f32) {
        debug_assert_eq!(acc.ea.len(), self.weights.w.len());
        let (w, ea) = (&mut self.weights.w, &mut acc.ea);
        self.features.for_each_read(s, |i| tc_step(&mut w[i], &mut ea[i], err, beta));
    }

    /// [`Weights::fingerprint`].
    pub fn fingerprint(&self) -> u64 {
        self.weights.fingerprint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells 0..4 of a 5-cell strip (values 0..3) as two 2-cell tuples, forwards and mirrored.
    struct Strip;
    impl Features for Strip {
        type State = [u8; 5];
        fn table_sizes(&self) -> Vec<usize> {
            vec![16, 16]
        }
        fn reads_per_value(&self) -> usize {
            4
        }
        fn for_each_read(&self, s: &[u8; 5], mut read: impl FnMut(usize)) {
            let m = [s[4], s[3], s[2], s[1], s[0]];
            for v in [s, &m] {
                read(usize::from(v[0] * 4 + v[1]));
                read(16 + usize::from(v[1] * 4 + v[2]));
            }
        }
    }

    #[test]
    fn steps_sums_and_tables() {
        let mut net = Net::new(Strip);
        let s = [3, 1, 3, 0, 1];
        // A symmetric state reads each of its weights twice.
        let sym = [1, 2, 0, 2, 1];
        net.update(&sym, 0.25);
        assert_eq!(net.value_f32(&sym), 2.0);
        assert_eq!(net.weights().table(0)[6], 0.5);
        assert_eq!(net.value_f32(&s), 0.0);
        // TD toward a target with a per-value step of 1 reaches it in one step (no overlap).
        let alpha = per_weight(1.0, &net.features);
        let err = 8.0 - net.value_f32(&s);
        net.update(&s, alpha * err);
        assert_eq!(net.value_f32(&s), 8.0);
        assert_eq!(net.value_f64(&s), 8.0);
        // TC: the first step of a weight is at the full rate, a reversed error halves it.
        let mut acc = Coherence::new(net.weights().len());
        let mut tc = Net::new(Strip);
        tc.update_tc(&mut acc, &s, 4.0, 0.5);
        assert_eq!(tc.value_f32(&s), 8.0);
        tc.update_tc(&mut acc, &s, -4.0, 0.5);
        assert_eq!(tc.value_f32(&s), 0.0);
        assert_eq!(acc.get(3 * 4 + 1), [0.0, 8.0]);
        assert_ne!(acc.fingerprint(), Coherence::new(32).fingerprint());
    }

    #[test]
    fn optimistic_start_and_files_of_tables() {
        let net = Net::optimistic(Strip, 100.0);
        assert_eq!(net.value_f32(&[3, 3, 0, 1, 2]), 100.0);
        let w = Weights::from_vec(&[2, 3], vec![1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert_eq!(
            (w.table(0), w.table(1), w.offset(1)),
            (&[1.0, 2.0][..], &[3.0, 4.0, 5.0][..], 2)
        );
        assert!(Weights::from_vec(&[2, 3], vec![0.0; 4]).is_none());
        assert!(Net::with_weights(Strip, w.clone()).is_none());
        assert!(Net::with_weights(Strip, Weights::zeros(&[16, 16])).is_some());
        let mut g = w.clone();
        g.extend_tables(&[2]);
        assert_eq!((g.tables(), g.table(2)), (3, &[0.0, 0.0][..]));
        assert_eq!(&g.all()[..5], w.all());
        assert_ne!(g.fingerprint(), w.fingerprint());
    }
}
