#![doc = include_str!("../README.md")]

pub mod atomic;
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
