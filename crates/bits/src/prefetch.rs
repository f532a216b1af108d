//! A cache prefetch hint: ask the CPU to start loading the cache line that holds a value the
//! caller will read soon, so that the miss overlaps other work.
//!
//! A prefetch never faults and changes no value a program can observe; only its timing. On
//! targets without a prefetch instruction it compiles to nothing. The 2048 search uses it to
//! start the transposition-table loads of a chance node's grandchildren before it descends
//! (BENCHMARKS.md, 2048, session 15, measures it on and off in one run).
//!
//! ```
//! let table = vec![0u64; 1024];
//! bits::prefetch::prefetch(&table[517]);
//! assert_eq!(table[517], 0);
//! ```
#![allow(unsafe_code)]

/// Hints that the cache line holding `*value` will be read soon (into all cache levels).
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = (value as *const T).cast::<i8>();
        // SAFETY: PREFETCHT0 (SSE, part of x86-64) never faults, on any address; `p` is valid.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = value;
    }
}
