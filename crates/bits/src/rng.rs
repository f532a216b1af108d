//! The seeded generator behind every random board, queue and spawn in bitarcade.
//!
//! # Algorithm (so that other programs can reproduce our games)
//! [`Rng`] is **xoshiro256\*\*** (Blackman and Vigna, 2018). [`Rng::new`]`(seed)` fills the
//! four state words with the first four outputs of **SplitMix64** started at `seed`
//! (the seeding Vigna recommends, and the one `rand_xoshiro`'s
//! `Xoshiro256StarStar::seed_from_u64` uses: the two produce identical streams, a test checks).
//!
//! Derived draws, each documented exactly:
//! - [`Rng::next_u64`]: the generator's output.
//! - [`Rng::next_u32`]: the high 32 bits of one `next_u64`.
//! - [`Rng::below`]`(n)`: Lemire's multiply-shift with rejection: `m = next_u64() * n` as a
//!   128-bit product; if the low half is below `(2^64 - n) mod n`, draw again; the result is the
//!   high half. Unbiased.
//! - [`Rng::unit_f64`]: `(next_u64() >> 11) * 2^-53`, uniform in `[0, 1)`.
//! - [`Rng::chance`]`(num, den)`: `below(den) < num`.
//! - [`Rng::shuffle`]: Fisher-Yates from the last index down: for `i` from `len-1` to `1`,
//!   swap `i` with `below(i + 1)`.

/// SplitMix64 (Steele, Lea, Flood 2014): used to seed [`Rng`] and to derive sub-seeds.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A SplitMix64 stream starting at `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next output.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Derives the seed of item `index` (a game in a batch, say) from a master seed, so a batch
/// played on any number of threads gives every game the same stream. Precisely:
/// `SplitMix64::new(master.wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15))).next_u64()`.
#[inline]
pub fn sub_seed(master: u64, index: u64) -> u64 {
    SplitMix64::new(master.wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15))).next_u64()
}

/// xoshiro256** seeded through SplitMix64; see the [module docs](self) for every derived draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// The generator for `seed`.
    pub fn new(seed: u64) -> Self {
        let mut sm = SplitMix64::new(seed);
        Rng { s: [sm.next_u64(), sm.next_u64(), sm.next_u64(), sm.next_u64()] }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let out = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        out
    }

    /// The next 32 random bits (the high half of one [`next_u64`](Self::next_u64)).
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A uniform integer in `0..n` (Lemire's method). `n` must be non-zero.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Rng::below(0)");
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }

    /// A uniform float in `[0, 1)` with 53 random bits.
    #[inline]
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// `true` with probability `num / den`.
    #[inline]
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }

    /// Shuffles `items` in place (Fisher-Yates, last index first).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::Rng as _;
    use rand_core::SeedableRng;

    #[test]
    fn splitmix_known_values() {
        // First outputs of SplitMix64 from seed 0, as published with the reference C code.
        let mut sm = SplitMix64::new(0);
        assert_eq!(sm.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(sm.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(sm.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn identical_to_rand_xoshiro() {
        for seed in [0u64, 1, 42, 0xDEAD_BEEF, u64::MAX] {
            let mut ours = Rng::new(seed);
            let mut theirs = rand_xoshiro::Xoshiro256StarStar::seed_from_u64(seed);
            for _ in 0..1_000 {
                assert_eq!(ours.next_u64(), theirs.next_u64(), "seed {seed}");
            }
        }
    }

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut rng = Rng::new(9);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[rng.below(7) as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
        assert_eq!(rng.below(1), 0);
        assert!(rng.below(u64::MAX) < u64::MAX);
    }

    #[test]
    fn shuffle_is_a_permutation_and_reproducible() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        Rng::new(5).shuffle(&mut a);
        Rng::new(5).shuffle(&mut b);
        assert_eq!(a, b);
        assert_ne!(a, (0..50).collect::<Vec<_>>());
        a.sort_unstable();
        assert_eq!(a, (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn unit_f64_range() {
        let mut rng = Rng::new(1);
        for _ in 0..10_000 {
            let x = rng.unit_f64();
            assert!((0.0..1.0).contains(&x));
        }
    }

    #[test]
    fn sub_seeds_differ() {
        let seeds: std::collections::HashSet<u64> = (0..1000).map(|i| sub_seed(7, i)).collect();
        assert_eq!(seeds.len(), 1000);
    }
}
