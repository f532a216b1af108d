//! FNV-1a, 64 bits: a small, dependency-free byte hash for checksums and fingerprints
//! (weight files, test signatures). Not for hash tables keyed by untrusted input.
//!
//! The constants are the published FNV-1a 64 offset basis and prime (Fowler, Noll, Vo).
//!
//! ```
//! let mut h = bits::Fnv::new();
//! h.write(b"a");
//! assert_eq!(h.finish(), 0xAF63_DC4C_8601_EC8C);
//! ```

/// FNV-1a over bytes, 64 bits.
#[derive(Clone, Copy, Debug)]
pub struct Fnv(u64);

impl Fnv {
    /// The offset basis (the hash of no bytes).
    pub const fn new() -> Fnv {
        Fnv(0xCBF2_9CE4_8422_2325)
    }

    /// Hashes more bytes.
    #[inline]
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3);
        }
    }

    /// The hash so far.
    pub fn finish(self) -> u64 {
        self.0
    }
}

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv::new()
    }
}

#[cfg(test)]
mod tests {
    use super::Fnv;

    fn fnv(bytes: &[u8]) -> u64 {
        let mut h = Fnv::new();
        h.write(bytes);
        h.finish()
    }

    #[test]
    fn published_vectors() {
        // FNV-1a 64 test vectors from the reference suite.
        assert_eq!(fnv(b""), 0xCBF2_9CE4_8422_2325);
        assert_eq!(fnv(b"a"), 0xAF63_DC4C_8601_EC8C);
        assert_eq!(fnv(b"foobar"), 0x8594_4171_F739_67E8);
    }

    #[test]
    fn split_writes_equal_one_write() {
        let mut h = Fnv::new();
        h.write(b"foo");
        h.write(b"bar");
        assert_eq!(h.finish(), fnv(b"foobar"));
    }
}
