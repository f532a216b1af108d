//! Masks used by every engine: low-bit masks, repeated fields and column/row helpers.

/// The low `n` bits set (`n` may be 0 through 64).
#[inline]
pub const fn low_u64(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The low `n` bits set (`n` may be 0 through 32).
#[inline]
pub const fn low_u32(n: u32) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// `pattern` (of width `width` bits) repeated `count` times from bit 0 upwards.
/// For example `repeat_u64(0b1, 4, 16)` is `0x1111_1111_1111_1111`.
pub const fn repeat_u64(pattern: u64, width: u32, count: u32) -> u64 {
    assert!(width > 0 && width * count <= 64, "repeat_u64: pattern does not fit in 64 bits");
    let mut out = 0u64;
    let mut i = 0;
    while i < count {
        out |= (pattern & low_u64(width)) << (i * width);
        i += 1;
    }
    out
}

/// The bits from `lo` (inclusive) to `hi` (exclusive) set.
#[inline]
pub const fn range_u64(lo: u32, hi: u32) -> u64 {
    debug_assert!(lo <= hi && hi <= 64);
    low_u64(hi) & !low_u64(lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(low_u64(0), 0);
        assert_eq!(low_u64(3), 0b111);
        assert_eq!(low_u64(64), u64::MAX);
        assert_eq!(low_u32(32), u32::MAX);
        assert_eq!(low_u32(5), 31);
        assert_eq!(repeat_u64(1, 4, 16), 0x1111_1111_1111_1111);
        assert_eq!(repeat_u64(0b11, 10, 2), 0b1100_0000_0011);
        assert_eq!(range_u64(4, 8), 0xF0);
        assert_eq!(range_u64(0, 64), u64::MAX);
    }
}
