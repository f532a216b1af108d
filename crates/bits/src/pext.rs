//! PEXT and PDEP with a BMI2 fast path and a portable twin.
//!
//! `pext(x, m)` gathers the bits of `x` selected by mask `m` into the low bits of the result;
//! `pdep(x, m)` scatters the low bits of `x` to the positions of the set bits of `m`. Games use
//! PEXT for gravity: keep the surviving cells of a column and they fall to the bottom.
//!
//! # Choosing the path
//! The choice is made once per process, here and nowhere else:
//!
//! 1. `BITARCADE_PEXT=portable` forces the portable path; `BITARCADE_PEXT=bmi2` asks for the
//!    hardware path (ignored, with the portable path used, if the CPU lacks BMI2);
//!    unset or `auto` uses BMI2 when the CPU has it.
//! 2. A front end may override that before any work with [`set_path`] (the CLI's
//!    `--portable-pext` flag does).
//!
//! The hot path costs one relaxed atomic load and a predictable branch. Code that wants the
//! choice made at compile time instead can be generic over [`PextImpl`] and be monomorphised
//! for [`Portable`] and [`Bmi2`].
#![allow(unsafe_code)]

use std::sync::atomic::{AtomicU8, Ordering};

/// Which implementation of PEXT/PDEP is in use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PextPath {
    /// The BMI2 `pext`/`pdep` instructions.
    Bmi2,
    /// The bit-by-bit loops in this module, correct on every CPU.
    Portable,
}

impl PextPath {
    /// A short lower-case name: `"bmi2"` or `"portable"`.
    pub fn name(self) -> &'static str {
        match self {
            PextPath::Bmi2 => "bmi2",
            PextPath::Portable => "portable",
        }
    }
}

impl std::fmt::Display for PextPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The environment variable that selects the path: `portable`, `bmi2` or `auto`.
pub const ENV_VAR: &str = "BITARCADE_PEXT";

const UNSET: u8 = 0;
const USE_BMI2: u8 = 1;
const USE_PORTABLE: u8 = 2;

static PATH: AtomicU8 = AtomicU8::new(UNSET);

/// Whether this CPU supports BMI2 (and so the hardware path).
pub fn bmi2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The path the environment and the CPU call for. An unknown value of [`ENV_VAR`] counts as
/// auto here; front ends report it with [`env_request`].
fn decide_from_env() -> PextPath {
    match env_request() {
        Ok(Some(PextPath::Portable)) => PextPath::Portable,
        _ if bmi2_available() => PextPath::Bmi2,
        _ => PextPath::Portable,
    }
}

/// Reads [`ENV_VAR`]: `Ok(None)` when unset or `auto`, `Err(value)` when it is not understood.
pub fn env_request() -> Result<Option<PextPath>, String> {
    match std::env::var(ENV_VAR) {
        Err(_) => Ok(None),
        Ok(v) => match v.trim().to_ascii_lowercase().as_str() {
            "" | "auto" => Ok(None),
            "portable" => Ok(Some(PextPath::Portable)),
            "bmi2" | "hardware" => Ok(Some(PextPath::Bmi2)),
            _ => Err(v),
        },
    }
}

#[cold]
fn init() -> u8 {
    let code = match decide_from_env() {
        PextPath::Bmi2 => USE_BMI2,
        PextPath::Portable => USE_PORTABLE,
    };
    // Another thread may have initialised or overridden it meanwhile: keep the first value.
    match PATH.compare_exchange(UNSET, code, Ordering::Relaxed, Ordering::Relaxed) {
        Ok(_) => code,
        Err(existing) => existing,
    }
}

#[inline(always)]
fn use_bmi2() -> bool {
    let mut code = PATH.load(Ordering::Relaxed);
    if code == UNSET {
        code = init();
    }
    code == USE_BMI2
}

/// The path in use (deciding it from the environment and the CPU on first call).
pub fn active_path() -> PextPath {
    if use_bmi2() {
        PextPath::Bmi2
    } else {
        PextPath::Portable
    }
}

/// Forces a path for the rest of the process. Asking for BMI2 on a CPU without it is an
/// error and leaves the path unchanged. Call it before starting work: threads already inside
/// a search may see the old path for a while (both give the same answers).
pub fn set_path(path: PextPath) -> Result<(), String> {
    let code = match path {
        PextPath::Bmi2 if !bmi2_available() => {
            return Err("this CPU has no BMI2, so the bmi2 PEXT path is unavailable".into())
        }
        PextPath::Bmi2 => USE_BMI2,
        PextPath::Portable => USE_PORTABLE,
    };
    PATH.store(code, Ordering::Relaxed);
    Ok(())
}

/// Portable PEXT for `u64`: walks the set bits of `mask`, lowest first.
#[inline]
pub fn pext_u64_portable(x: u64, mask: u64) -> u64 {
    let mut out = 0u64;
    let mut m = mask;
    let mut bit = 1u64;
    while m != 0 {
        let low = m & m.wrapping_neg();
        if x & low != 0 {
            out |= bit;
        }
        bit <<= 1;
        m &= m - 1;
    }
    out
}

/// Portable PDEP for `u64`: walks the set bits of `mask`, lowest first.
#[inline]
pub fn pdep_u64_portable(x: u64, mask: u64) -> u64 {
    let mut out = 0u64;
    let mut m = mask;
    let mut bit = 1u64;
    while m != 0 {
        let low = m & m.wrapping_neg();
        if x & bit != 0 {
            out |= low;
        }
        bit <<= 1;
        m &= m - 1;
    }
    out
}

/// Portable PEXT for `u32`.
#[inline]
pub fn pext_u32_portable(x: u32, mask: u32) -> u32 {
    pext_u64_portable(u64::from(x), u64::from(mask)) as u32
}

/// Portable PDEP for `u32`.
#[inline]
pub fn pdep_u32_portable(x: u32, mask: u32) -> u32 {
    pdep_u64_portable(u64::from(x), u64::from(mask)) as u32
}

#[cfg(target_arch = "x86_64")]
mod hw {
    use core::arch::x86_64::{_pdep_u32, _pdep_u64, _pext_u32, _pext_u64};

    /// # Safety
    /// The CPU must support BMI2.
    #[target_feature(enable = "bmi2")]
    #[inline]
    pub unsafe fn pext64(x: u64, m: u64) -> u64 {
        _pext_u64(x, m)
    }
    /// # Safety
    /// The CPU must support BMI2.
    #[target_feature(enable = "bmi2")]
    #[inline]
    pub unsafe fn pdep64(x: u64, m: u64) -> u64 {
        _pdep_u64(x, m)
    }
    /// # Safety
    /// The CPU must support BMI2.
    #[target_feature(enable = "bmi2")]
    #[inline]
    pub unsafe fn pext32(x: u32, m: u32) -> u32 {
        _pext_u32(x, m)
    }
    /// # Safety
    /// The CPU must support BMI2.
    #[target_feature(enable = "bmi2")]
    #[inline]
    pub unsafe fn pdep32(x: u32, m: u32) -> u32 {
        _pdep_u32(x, m)
    }
}

/// Hardware PEXT for `u64`, or `None` if the CPU lacks BMI2. For tests and benchmarks that
/// compare the paths; engines call [`pext_u64`].
pub fn pext_u64_bmi2(x: u64, mask: u64) -> Option<u64> {
    Bmi2::detect().map(|b| b.pext_u64(x, mask))
}

/// Hardware PDEP for `u64`, or `None` if the CPU lacks BMI2.
pub fn pdep_u64_bmi2(x: u64, mask: u64) -> Option<u64> {
    Bmi2::detect().map(|b| b.pdep_u64(x, mask))
}

/// Hardware PEXT for `u32`, or `None` if the CPU lacks BMI2.
pub fn pext_u32_bmi2(x: u32, mask: u32) -> Option<u32> {
    Bmi2::detect().map(|b| b.pext_u32(x, mask))
}

/// Hardware PDEP for `u32`, or `None` if the CPU lacks BMI2.
pub fn pdep_u32_bmi2(x: u32, mask: u32) -> Option<u32> {
    Bmi2::detect().map(|b| b.pdep_u32(x, mask))
}

/// PEXT and PDEP as a compile-time strategy, for code generic over the path.
pub trait PextImpl: Copy + Send + Sync + 'static {
    /// Gathers the bits of `x` selected by `mask` into the low bits.
    fn pext_u64(self, x: u64, mask: u64) -> u64;
    /// Scatters the low bits of `x` to the set bits of `mask`.
    fn pdep_u64(self, x: u64, mask: u64) -> u64;
    /// 32-bit PEXT.
    fn pext_u32(self, x: u32, mask: u32) -> u32;
    /// 32-bit PDEP.
    fn pdep_u32(self, x: u32, mask: u32) -> u32;
}

/// The portable strategy (always available).
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable;

impl PextImpl for Portable {
    #[inline]
    fn pext_u64(self, x: u64, mask: u64) -> u64 {
        pext_u64_portable(x, mask)
    }
    #[inline]
    fn pdep_u64(self, x: u64, mask: u64) -> u64 {
        pdep_u64_portable(x, mask)
    }
    #[inline]
    fn pext_u32(self, x: u32, mask: u32) -> u32 {
        pext_u32_portable(x, mask)
    }
    #[inline]
    fn pdep_u32(self, x: u32, mask: u32) -> u32 {
        pdep_u32_portable(x, mask)
    }
}

/// The BMI2 strategy. It can only be obtained from [`Bmi2::detect`], so holding one proves
/// the CPU supports the instructions.
#[derive(Clone, Copy, Debug)]
pub struct Bmi2 {
    _proof: (),
}

impl Bmi2 {
    /// `Some` when the CPU supports BMI2.
    pub fn detect() -> Option<Bmi2> {
        bmi2_available().then_some(Bmi2 { _proof: () })
    }
}

#[cfg(target_arch = "x86_64")]
impl PextImpl for Bmi2 {
    #[inline]
    fn pext_u64(self, x: u64, mask: u64) -> u64 {
        // SAFETY: a `Bmi2` value exists only after `bmi2_available()` returned true.
        unsafe { hw::pext64(x, mask) }
    }
    #[inline]
    fn pdep_u64(self, x: u64, mask: u64) -> u64 {
        // SAFETY: a `Bmi2` value exists only after `bmi2_available()` returned true.
        unsafe { hw::pdep64(x, mask) }
    }
    #[inline]
    fn pext_u32(self, x: u32, mask: u32) -> u32 {
        // SAFETY: a `Bmi2` value exists only after `bmi2_available()` returned true.
        unsafe { hw::pext32(x, mask) }
    }
    #[inline]
    fn pdep_u32(self, x: u32, mask: u32) -> u32 {
        // SAFETY: a `Bmi2` value exists only after `bmi2_available()` returned true.
        unsafe { hw::pdep32(x, mask) }
    }
}

#[cfg(not(target_arch = "x86_64"))]
impl PextImpl for Bmi2 {
    fn pext_u64(self, x: u64, mask: u64) -> u64 {
        pext_u64_portable(x, mask)
    }
    fn pdep_u64(self, x: u64, mask: u64) -> u64 {
        pdep_u64_portable(x, mask)
    }
    fn pext_u32(self, x: u32, mask: u32) -> u32 {
        pext_u32_portable(x, mask)
    }
    fn pdep_u32(self, x: u32, mask: u32) -> u32 {
        pdep_u32_portable(x, mask)
    }
}

/// PEXT for `u64` on the active path.
#[inline]
pub fn pext_u64(x: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if use_bmi2() {
        // SAFETY: USE_BMI2 is only stored after `bmi2_available()` returned true.
        return unsafe { hw::pext64(x, mask) };
    }
    pext_u64_portable(x, mask)
}

/// PDEP for `u64` on the active path.
#[inline]
pub fn pdep_u64(x: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if use_bmi2() {
        // SAFETY: USE_BMI2 is only stored after `bmi2_available()` returned true.
        return unsafe { hw::pdep64(x, mask) };
    }
    pdep_u64_portable(x, mask)
}

/// PEXT for `u32` on the active path.
#[inline]
pub fn pext_u32(x: u32, mask: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if use_bmi2() {
        // SAFETY: USE_BMI2 is only stored after `bmi2_available()` returned true.
        return unsafe { hw::pext32(x, mask) };
    }
    pext_u32_portable(x, mask)
}

/// PDEP for `u32` on the active path.
#[inline]
pub fn pdep_u32(x: u32, mask: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if use_bmi2() {
        // SAFETY: USE_BMI2 is only stored after `bmi2_available()` returned true.
        return unsafe { hw::pdep32(x, mask) };
    }
    pdep_u32_portable(x, mask)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    /// Random masks with a spread of densities, so sparse, dense and full masks all appear.
    fn masked(rng: &mut Rng) -> (u64, u64) {
        let x = rng.next_u64();
        let m = match rng.below(4) {
            0 => rng.next_u64(),
            1 => rng.next_u64() & rng.next_u64(),
            2 => rng.next_u64() | rng.next_u64(),
            _ => rng.next_u64() & rng.next_u64() & rng.next_u64(),
        };
        (x, m)
    }

    #[test]
    fn known_values() {
        assert_eq!(pext_u64_portable(0xFF00_FF00, 0xF0F0_F0F0), 0xF0F0);
        assert_eq!(pdep_u64_portable(0b1011, 0xF0), 0xB0);
        assert_eq!(pext_u64_portable(u64::MAX, 0), 0);
        assert_eq!(pext_u64_portable(u64::MAX, u64::MAX), u64::MAX);
        assert_eq!(pdep_u64_portable(u64::MAX, 1 << 63), 1 << 63);
        assert_eq!(pext_u32_portable(0x8000_0001, 0x8000_0001), 0b11);
    }

    #[test]
    fn portable_round_trips() {
        let mut rng = Rng::new(7);
        for _ in 0..100_000 {
            let (x, m) = masked(&mut rng);
            assert_eq!(pdep_u64_portable(pext_u64_portable(x, m), m), x & m);
            let k = m.count_ones();
            let low = if k == 64 { u64::MAX } else { (1u64 << k) - 1 };
            assert_eq!(pext_u64_portable(pdep_u64_portable(x, m), m), x & low);
        }
    }

    /// 200,000 seeded cases per width on both paths. On a CPU without BMI2 the hardware half
    /// cannot run; the test then says so and checks the dispatching functions instead.
    #[test]
    fn bmi2_and_portable_agree_u64() {
        let mut rng = Rng::new(0x5EED_0064);
        let hw = Bmi2::detect();
        if hw.is_none() {
            eprintln!("note: no BMI2 on this CPU; only the portable path is exercised");
        }
        for _ in 0..200_000 {
            let (x, m) = masked(&mut rng);
            let p = (pext_u64_portable(x, m), pdep_u64_portable(x, m));
            if let Some(hw) = hw {
                assert_eq!(hw.pext_u64(x, m), p.0, "pext_u64({x:#x}, {m:#x})");
                assert_eq!(hw.pdep_u64(x, m), p.1, "pdep_u64({x:#x}, {m:#x})");
            }
            assert_eq!((pext_u64(x, m), pdep_u64(x, m)), p);
        }
    }

    #[test]
    fn bmi2_and_portable_agree_u32() {
        let mut rng = Rng::new(0x5EED_0032);
        let hw = Bmi2::detect();
        for _ in 0..200_000 {
            let (x, m) = masked(&mut rng);
            let (x, m) = (x as u32, m as u32);
            let p = (pext_u32_portable(x, m), pdep_u32_portable(x, m));
            if let Some(hw) = hw {
                assert_eq!(hw.pext_u32(x, m), p.0, "pext_u32({x:#x}, {m:#x})");
                assert_eq!(hw.pdep_u32(x, m), p.1, "pdep_u32({x:#x}, {m:#x})");
            }
            assert_eq!((pext_u32(x, m), pdep_u32(x, m)), p);
        }
    }

    #[test]
    fn set_path_switches_and_refuses_missing_hardware() {
        // Other tests in this process call the dispatching functions; both paths give the
        // same answers, so switching here cannot make them fail.
        set_path(PextPath::Portable).unwrap();
        assert_eq!(active_path(), PextPath::Portable);
        assert_eq!(pext_u64(0xF0, 0xFF), 0xF0);
        match set_path(PextPath::Bmi2) {
            Ok(()) => assert_eq!(active_path(), PextPath::Bmi2),
            Err(_) => assert!(!bmi2_available()),
        }
        assert_eq!(pext_u64(0xF0, 0xFF), 0xF0);
    }
}
