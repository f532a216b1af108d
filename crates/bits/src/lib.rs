//! Shared bit primitives for the bitarcade game engines.
//!
//! Every game in bitarcade packs its board into machine words; this crate holds the few
//! primitives they share, each with an obvious portable twin and a test that the two agree:
//!
//! - [`pext`]: PEXT/PDEP for `u32` and `u64`, with a BMI2 fast path and a bit-by-bit portable
//!   path. The path is chosen in one place ([`pext::active_path`]) and can be forced to the
//!   portable one at run time with `BITARCADE_PEXT=portable` (useful on AMD CPUs before Zen 3,
//!   where PEXT is microcoded and slow).
//! - [`iter`]: set-bit iterators (`ExactSizeIterator`, `FusedIterator`) and popcount helpers.
//! - [`learn`]: the temporal coherence step of the games' n-tuple networks.
//! - [`mask`]: masks and selection helpers.
//! - [`stamp`]: a stamp-based visited set that is never cleared between searches.
//! - [`prefetch`]: a cache prefetch hint (no effect on any value).
//! - [`hash`]: FNV-1a 64 ([`Fnv`]), the checksum of weight files and test signatures.
//! - [`sealed`]: files sealed by that checksum, and a reader of their little-endian headers.
//! - [`job`]: what every game's API shares: the caller's abort flag and progress callback, the
//!   error a verb returns, and the `--shard K/N` of a batch.
//! - [`live`]: the one contract every game gives its front ends (position, record, frames,
//!   hint, auto, check), written once over the [`live::Game`] trait.
//! - [`rng`]: a seeded xoshiro256** generator (seeded through SplitMix64), documented so that
//!   another program can reproduce our boards and queues from a seed.
//!
//! ```
//! use bits::{pext, SetBits, Rng};
//!
//! assert_eq!(pext::pext_u64(0b1011_0110, 0b1111_0000), 0b1011);
//! let squares: Vec<u32> = SetBits::new(0b1010_0001u64).collect();
//! assert_eq!(squares, [0, 5, 7]);
//! let mut rng = Rng::new(42);
//! assert!(rng.below(6) < 6);
//! ```
//!
//! This is the only bitarcade crate that contains `unsafe`: each block is one intrinsic call
//! behind a CPU-feature check (the prefetch hint needs none: it is in every x86-64 CPU), with a
//! `// SAFETY:` comment.

pub mod check;
pub mod hash;
pub mod iter;
pub mod job;
pub mod learn;
pub mod live;
pub mod mask;
pub mod pext;
pub mod prefetch;
pub mod rng;
pub mod sealed;
pub mod stamp;

pub use hash::Fnv;
pub use iter::SetBits;
pub use pext::{pdep_u32, pdep_u64, pext_u32, pext_u64, PextPath};
pub use rng::Rng;
pub use stamp::StampSet;
