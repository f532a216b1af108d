//! Sealed files: a little-endian body followed by the FNV-1a 64 ([`Fnv`]) of the body, the
//! layout of every weight and accumulator file the games write.
//!
//! [`seal`] appends the checksum, [`unseal`] checks it and returns the body, and [`Reader`]
//! walks a header field by field, naming the part it was reading when the bytes run out;
//! [`seal_pairs`] and [`unseal_pairs`] are the whole accumulator file of `[f32; 2]` pairs. The
//! errors are small structs that each game's own file error wraps, so its messages can name
//! the game and the file kind.
//!
//! ```
//! use bits::sealed::{seal, unseal, Reader};
//!
//! let mut file = b"MAGIC".to_vec();
//! file.extend_from_slice(&7u32.to_le_bytes());
//! let file = seal(file);
//! let body = unseal(&file).unwrap();
//! let mut r = Reader::new(body);
//! assert_eq!(r.take(5, "magic").unwrap(), b"MAGIC");
//! assert_eq!(r.u32("version").unwrap(), 7);
//! assert_eq!(r.u64("games").unwrap_err().part, "games");
//! ```

use std::fmt;

use crate::Fnv;

/// How a weight file's weights were made: the header every game's network file carries after
/// its shape.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Meta {
    /// Training games played to make these weights, in all (game `i` of a run seeded `seed`
    /// draws from the stream `sub_seed(seed, i)`).
    pub games: u64,
    /// The training seed.
    pub seed: u64,
    /// The step size per weight of the last run that trained the file.
    pub alpha: f32,
}

/// A sealed file written as a stream: every byte written is hashed on its way to `inner`,
/// and [`SealedWriter::finish`] appends the checksum. The bytes are those of [`seal`] over
/// the same body, without holding the body in memory (a 4 GB network is written in place).
///
/// ```
/// use std::io::Write;
/// use bits::sealed::{seal, SealedWriter};
///
/// let mut w = SealedWriter::new(Vec::new());
/// w.write_all(b"MAGIC").unwrap();
/// w.write_all(&7u32.to_le_bytes()).unwrap();
/// let streamed = w.finish().unwrap();
/// let mut body = b"MAGIC".to_vec();
/// body.extend_from_slice(&7u32.to_le_bytes());
/// assert_eq!(streamed, seal(body));
/// ```
pub struct SealedWriter<W: std::io::Write> {
    inner: W,
    fnv: Fnv,
}

impl<W: std::io::Write> SealedWriter<W> {
    /// A writer of a sealed file into `inner`.
    pub fn new(inner: W) -> Self {
        SealedWriter { inner, fnv: Fnv::new() }
    }

    /// Writes `f32`s little-endian, a block at a time.
    pub fn write_f32s(&mut self, values: &[f32]) -> std::io::Result<()> {
        self.write_blocks(values, f32::to_le_bytes)
    }

    /// Writes `u64`s little-endian, a block at a time.
    pub fn write_u64s(&mut self, values: &[u64]) -> std::io::Result<()> {
        self.write_blocks(values, u64::to_le_bytes)
    }

    /// Writes `u32`s little-endian, a block at a time.
    pub fn write_u32s(&mut self, values: &[u32]) -> std::io::Result<()> {
        self.write_blocks(values, u32::to_le_bytes)
    }

    /// Writes `u16`s little-endian, a block at a time.
    pub fn write_u16s(&mut self, values: &[u16]) -> std::io::Result<()> {
        self.write_blocks(values, u16::to_le_bytes)
    }

    /// Writes `values` as the bytes `le` gives each, 16,384 values a write.
    fn write_blocks<T: Copy, const N: usize>(
        &mut self,
        values: &[T],
        le: fn(T) -> [u8; N],
    ) -> std::io::Result<()> {
        let mut buf = Vec::with_capacity(N * 16_384);
        for block in values.chunks(16_384) {
            buf.clear();
            block.iter().for_each(|&x| buf.extend_from_slice(&le(x)));
            std::io::Write::write_all(self, &buf)?;
        }
        Ok(())
    }

    /// Appends the checksum and returns the inner writer.
    pub fn finish(mut self) -> std::io::Result<W> {
        let sum = self.fnv.finish();
        self.inner.write_all(&sum.to_le_bytes())?;
        Ok(self.inner)
    }
}

impl<W: std::io::Write> std::io::Write for SealedWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.fnv.write(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Appends the FNV-1a 64 of `body` (little-endian) and returns the sealed file.
pub fn seal(mut body: Vec<u8>) -> Vec<u8> {
    let sum = checksum(&body);
    body.extend_from_slice(&sum.to_le_bytes());
    body
}

/// The FNV-1a 64 of `bytes`.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut h = Fnv::new();
    h.write(bytes);
    h.finish()
}

/// The stored checksum of a sealed file does not match its body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadChecksum {
    /// The checksum stored in the file's last 8 bytes.
    pub stored: u64,
    /// The checksum of the body as read.
    pub computed: u64,
}

/// The body of a sealed file, once its last 8 bytes are the checksum of the rest. A file
/// shorter than 8 bytes has no checksum: it is reported with `stored` 0 against the checksum
/// of what is there.
pub fn unseal(bytes: &[u8]) -> Result<&[u8], BadChecksum> {
    let Some(split) = bytes.len().checked_sub(8) else {
        return Err(BadChecksum { stored: 0, computed: checksum(bytes) });
    };
    let (body, tail) = bytes.split_at(split);
    let stored = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
    let computed = checksum(body);
    if stored == computed {
        Ok(body)
    } else {
        Err(BadChecksum { stored, computed })
    }
}

/// The bytes ran out while reading the part named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Truncated {
    /// What was being read (`"magic"`, `"header"`, ...).
    pub part: &'static str,
    /// The length of the bytes being read.
    pub len: usize,
}

/// A cursor over a file's bytes that reads little-endian fields.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, at: 0 }
    }

    /// How many bytes have been read.
    pub fn position(&self) -> usize {
        self.at
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        &self.bytes[self.at..]
    }

    /// The next `n` bytes, or [`Truncated`] naming `part`.
    pub fn take(&mut self, n: usize, part: &'static str) -> Result<&'a [u8], Truncated> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(Truncated { part, len: self.bytes.len() })?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    /// The next 4 bytes as a little-endian `u32`.
    pub fn u32(&mut self, part: &'static str) -> Result<u32, Truncated> {
        Ok(u32::from_le_bytes(self.take(4, part)?.try_into().expect("4 bytes")))
    }

    /// The next 8 bytes as a little-endian `u64`.
    pub fn u64(&mut self, part: &'static str) -> Result<u64, Truncated> {
        Ok(u64::from_le_bytes(self.take(8, part)?.try_into().expect("8 bytes")))
    }

    /// The next 4 bytes as a little-endian `f32`.
    pub fn f32(&mut self, part: &'static str) -> Result<f32, Truncated> {
        self.u32(part).map(f32::from_bits)
    }
}

/// `bytes` read as little-endian `f32`s (a trailing partial value is ignored: callers check
/// the length first).
pub fn f32s(bytes: &[u8]) -> impl Iterator<Item = f32> + '_ {
    bytes.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
}

/// `bytes` read as pairs of little-endian `f32`s.
pub fn f32_pairs(bytes: &[u8]) -> impl Iterator<Item = [f32; 2]> + '_ {
    bytes.chunks_exact(8).map(|c| {
        [
            f32::from_le_bytes(c[..4].try_into().expect("4 bytes")),
            f32::from_le_bytes(c[4..].try_into().expect("4 bytes")),
        ]
    })
}

/// A sealed file of `[f32; 2]` pairs tied to another file: the layout of the temporal
/// coherence accumulator files (one `[E, A]` pair per weight) that both n-tuple games keep
/// beside their weight files.
///
/// ```text
///   magic (8) | version u32 | games u64 | the tied file's fingerprint u64
///   | pair count u64 | per pair: f32, f32 | FNV-1a 64 of everything before (u64)
/// ```
///
/// All numbers little-endian. The pairs are the concatenation of `parts` (a game with several
/// tables passes one part a table). `games` and `fingerprint` name the file the pairs belong
/// to; [`unseal_pairs`] checks both.
pub fn seal_pairs(
    magic: &[u8; 8],
    version: u32,
    games: u64,
    fingerprint: u64,
    parts: &[&[[f32; 2]]],
) -> Vec<u8> {
    let count: usize = parts.iter().map(|p| p.len()).sum();
    let mut out = Vec::with_capacity(44 + 8 * count);
    write_pairs_to(&mut out, magic, version, games, fingerprint, parts)
        .expect("a Vec takes every write");
    out
}

/// [`seal_pairs`]'s bytes written to `w` as they are made, never whole in memory (the 8 GB
/// accumulators of a 10^9-weight network are written without a second 8 GB).
pub fn write_pairs_to(
    w: impl std::io::Write,
    magic: &[u8; 8],
    version: u32,
    games: u64,
    fingerprint: u64,
    parts: &[&[[f32; 2]]],
) -> std::io::Result<()> {
    use std::io::Write;
    let count: usize = parts.iter().map(|p| p.len()).sum();
    let mut out = SealedWriter::new(w);
    out.write_all(magic)?;
    out.write_all(&version.to_le_bytes())?;
    out.write_all(&games.to_le_bytes())?;
    out.write_all(&fingerprint.to_le_bytes())?;
    out.write_all(&(count as u64).to_le_bytes())?;
    let mut buf = Vec::with_capacity(8 * 8_192);
    for part in parts {
        for block in part.chunks(8_192) {
            buf.clear();
            for [a, b] in block {
                buf.extend_from_slice(&a.to_le_bytes());
                buf.extend_from_slice(&b.to_le_bytes());
            }
            out.write_all(&buf)?;
        }
    }
    out.finish()?.flush()
}

/// Why [`unseal_pairs`] refused a file, in the order the checks run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairsError {
    /// The file does not start with the magic.
    Magic,
    /// A version other than the one asked for.
    Version(u32),
    /// The file ends inside its header.
    Truncated(Truncated),
    /// The pair count or the file's length is not the one expected.
    Length {
        /// Bytes a file of the expected count has.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// The checksum does not match.
    Checksum(BadChecksum),
    /// The file belongs to another file: `"games counts"` or `"weights"` (the fingerprint)
    /// differ.
    Unpaired(&'static str),
}

impl fmt::Display for Truncated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "truncated: the file ends inside the {} ({} bytes)", self.part, self.len)
    }
}

impl fmt::Display for BadChecksum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "checksum mismatch: stored {:016x}, contents hash to {:016x}",
            self.stored, self.computed
        )
    }
}

/// The messages of the defects every game's weight file shares (the file's length against
/// its shape, and TC accumulators that belong to another weight file), so each game's file
/// error says them in the same words.
pub fn length_message(expected: usize, found: usize) -> String {
    format!("truncated or padded: the shape needs {expected} bytes, the file has {found}")
}

/// See [`length_message`]: `part` is what differs (`"games counts"` or `"weights"`).
pub fn unpaired_message(part: &str) -> String {
    format!("the TC accumulators belong to another weight file (the {part} differ)")
}

impl From<Truncated> for PairsError {
    fn from(t: Truncated) -> Self {
        PairsError::Truncated(t)
    }
}

/// The `count` pairs of a [`seal_pairs`] file, once its magic, version, count, length,
/// checksum, games and fingerprint are the ones given.
pub fn unseal_pairs<'a>(
    bytes: &'a [u8],
    magic: &[u8; 8],
    version: u32,
    count: usize,
    games: u64,
    fingerprint: u64,
) -> Result<impl Iterator<Item = [f32; 2]> + 'a, PairsError> {
    let mut r = Reader::new(bytes);
    if r.take(8, "magic").map_err(|_| PairsError::Magic)? != magic {
        return Err(PairsError::Magic);
    }
    let file_version = r.u32("header")?;
    if file_version != version {
        return Err(PairsError::Version(file_version));
    }
    let file_games = r.u64("header")?;
    let file_fingerprint = r.u64("header")?;
    let file_count = r.u64("header")?;
    let expected = r.position() + 8 * count + 8;
    if file_count != count as u64 || bytes.len() != expected {
        return Err(PairsError::Length { expected, found: bytes.len() });
    }
    let body = unseal(bytes).map_err(PairsError::Checksum)?;
    if file_games != games {
        return Err(PairsError::Unpaired("games counts"));
    }
    if file_fingerprint != fingerprint {
        return Err(PairsError::Unpaired("weights"));
    }
    Ok(f32_pairs(&body[r.position()..]))
}

/// Implements `From` [`Truncated`], [`BadChecksum`] and [`PairsError`] for a game's file error
/// enum, so `?` turns this module's errors into it. The enum must have the variants `Magic`,
/// `Version(u32)`, `Truncated { part, len }`, `Length { expected, found }`,
/// `Checksum { stored, computed }` and `Unpaired(&'static str)` (the 2048 and Drop7 weight
/// file errors); its `Display` then names the game and the file kind.
///
/// ```
/// #[derive(Debug, PartialEq)]
/// enum FileError {
///     Magic,
///     Version(u32),
///     Truncated { part: &'static str, len: usize },
///     Length { expected: usize, found: usize },
///     Checksum { stored: u64, computed: u64 },
///     Unpaired(&'static str),
/// }
/// bits::sealed_errors_into!(FileError);
///
/// let short = bits::sealed::unseal_pairs(b"short", b"ABCDEFGH", 1, 0, 0, 0);
/// let e: FileError = short.err().expect("5 bytes hold no magic").into();
/// assert_eq!(e, FileError::Magic);
/// ```
#[macro_export]
macro_rules! sealed_errors_into {
    ($error:ident) => {
        impl From<$crate::sealed::Truncated> for $error {
            fn from(t: $crate::sealed::Truncated) -> Self {
                $error::Truncated { part: t.part, len: t.len }
            }
        }

        impl From<$crate::sealed::BadChecksum> for $error {
            fn from(c: $crate::sealed::BadChecksum) -> Self {
                $error::Checksum { stored: c.stored, computed: c.computed }
            }
        }

        impl From<$crate::sealed::PairsError> for $error {
            fn from(e: $crate::sealed::PairsError) -> Self {
                use $crate::sealed::PairsError;
                match e {
                    PairsError::Magic => $error::Magic,
                    PairsError::Version(v) => $error::Version(v),
                    PairsError::Truncated(t) => t.into(),
                    PairsError::Length { expected, found } => $error::Length { expected, found },
                    PairsError::Checksum(c) => c.into(),
                    PairsError::Unpaired(part) => $error::Unpaired(part),
                }
            }
        }
    };
}

/// Defines a game's weight-file error enum: the defects every weight file shares (`Magic`,
/// `Version(u32)`, `Truncated { part, len }`, `Length { expected, found }`,
/// `Checksum { stored, computed }`, `Unpaired(&'static str)`), then the game's own variants,
/// with `Display` (the shared defects in shared words; the game's arms for `Magic`, `Version`
/// and its own variants, which name the game and the file kind), `std::error::Error` and the
/// `From` conversions of [`sealed_errors_into!`](crate::sealed_errors_into).
///
/// ```
/// bits::weight_file_error! {
///     /// Why bytes are not a toy weight file.
///     pub enum FileError {
///         /// The header's shape is not valid.
///         Shape(String),
///     }
///     display |f| {
///         FileError::Magic => write!(f, "not a toy weight file (bad magic)"),
///         FileError::Version(v) => write!(f, "weight file version {v} (this program reads 1)"),
///         FileError::Shape(e) => write!(f, "bad shape in the header: {e}"),
///     }
/// }
///
/// let short = bits::sealed::unseal_pairs(b"short", b"ABCDEFGH", 1, 0, 0, 0);
/// let e: FileError = short.err().expect("5 bytes hold no magic").into();
/// assert_eq!(e, FileError::Magic);
/// let e = FileError::Length { expected: 10, found: 9 };
/// assert_eq!(e.to_string(), "truncated or padded: the shape needs 10 bytes, the file has 9");
/// ```
#[macro_export]
macro_rules! weight_file_error {
    (
        $(#[$attr:meta])*
        $vis:vis enum $name:ident { $($extra:tt)* }
        display |$f:ident| { $($arms:tt)* }
    ) => {
        $(#[$attr])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        $vis enum $name {
            /// The file does not start with the game's magic.
            Magic,
            /// A version this code does not read.
            Version(u32),
            /// The file ends inside the part named.
            Truncated {
                /// What was being read.
                part: &'static str,
                /// Bytes the file has.
                len: usize,
            },
            /// The file's length does not match its shape.
            Length {
                /// Bytes the shape needs.
                expected: usize,
                /// Bytes found.
                found: usize,
            },
            /// The checksum at the end does not match the contents.
            Checksum {
                /// Stored.
                stored: u64,
                /// Computed.
                computed: u64,
            },
            /// A TC accumulator file that does not go with the weight file: the part named
            /// (the games counts or the weights) differs.
            Unpaired(&'static str),
            $($extra)*
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, $f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self {
                    $($arms)*
                    $name::Truncated { part, len } => ::std::fmt::Display::fmt(
                        &$crate::sealed::Truncated { part, len: *len },
                        $f,
                    ),
                    $name::Length { expected, found } => {
                        $f.write_str(&$crate::sealed::length_message(*expected, *found))
                    }
                    $name::Checksum { stored, computed } => ::std::fmt::Display::fmt(
                        &$crate::sealed::BadChecksum { stored: *stored, computed: *computed },
                        $f,
                    ),
                    $name::Unpaired(part) => {
                        $f.write_str(&$crate::sealed::unpaired_message(part))
                    }
                }
            }
        }

        impl ::std::error::Error for $name {}

        $crate::sealed_errors_into!($name);
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_sealed_body_comes_back_and_any_flipped_bit_is_caught() {
        let body: Vec<u8> = (0..40u8).collect();
        let file = seal(body.clone());
        assert_eq!(file.len(), 48);
        assert_eq!(unseal(&file), Ok(&body[..]));
        for bit in 0..file.len() * 8 {
            let mut bad = file.clone();
            bad[bit / 8] ^= 1 << (bit % 8);
            assert!(unseal(&bad).is_err(), "bit {bit}");
        }
        assert!(unseal(&file[..5]).is_err());
        assert_eq!(unseal(&seal(Vec::new())), Ok(&[][..]));
    }

    #[test]
    fn the_reader_reads_fields_in_order_and_names_the_part_it_ran_out_in() {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&0xDEAD_BEEFu32.to_le_bytes());
        bytes.extend_from_slice(&u64::MAX.to_le_bytes());
        bytes.extend_from_slice(&1.5f32.to_le_bytes());
        bytes.extend_from_slice(&[1, 2, 3]);
        let mut r = Reader::new(&bytes);
        assert_eq!(r.u32("a"), Ok(0xDEAD_BEEF));
        assert_eq!(r.u64("b"), Ok(u64::MAX));
        assert_eq!(r.f32("c"), Ok(1.5));
        assert_eq!(r.position(), 16);
        assert_eq!(r.rest(), &[1, 2, 3]);
        assert_eq!(r.u32("d"), Err(Truncated { part: "d", len: 19 }));
        assert_eq!(r.position(), 16, "a failed read consumes nothing");
        assert_eq!(r.take(3, "e"), Ok(&[1u8, 2, 3][..]));
        assert_eq!(r.take(usize::MAX, "f"), Err(Truncated { part: "f", len: 19 }));
    }

    #[test]
    fn floats_and_pairs_come_back_bit_for_bit() {
        let xs = [0.0f32, -0.0, 1.25, f32::MIN_POSITIVE, -3.0e38, f32::INFINITY];
        let bytes: Vec<u8> = xs.iter().flat_map(|x| x.to_le_bytes()).collect();
        let back: Vec<u32> = f32s(&bytes).map(f32::to_bits).collect();
        assert_eq!(back, xs.map(f32::to_bits));
        let pairs: Vec<[f32; 2]> = f32_pairs(&bytes).collect();
        assert_eq!(pairs, [[0.0, -0.0], [1.25, f32::MIN_POSITIVE], [-3.0e38, f32::INFINITY]]);
    }

    #[test]
    fn pair_files_come_back_and_each_check_names_its_defect() {
        let pairs = [[1.0f32, 2.0], [-0.5, 0.0], [3.0e-3, 7.0]];
        let file = seal_pairs(b"TESTPAIR", 3, 40, 0xABCD, &[&pairs[..1], &[], &pairs[1..]]);
        assert_eq!(file.len(), 44 + 8 * 3);
        let back: Vec<[f32; 2]> =
            unseal_pairs(&file, b"TESTPAIR", 3, 3, 40, 0xABCD).unwrap().collect();
        assert_eq!(back, pairs);
        let err = |bytes: &[u8], count, games, fp| {
            unseal_pairs(bytes, b"TESTPAIR", 3, count, games, fp).err()
        };
        assert_eq!(err(&file, 3, 40, 0xABCD), None);
        assert_eq!(
            unseal_pairs(&file, b"OTHERMAG", 3, 3, 40, 0xABCD).err(),
            Some(PairsError::Magic)
        );
        assert_eq!(err(&file[..5], 3, 40, 0xABCD), Some(PairsError::Magic));
        assert_eq!(
            unseal_pairs(&file, b"TESTPAIR", 4, 3, 40, 0xABCD).err(),
            Some(PairsError::Version(3))
        );
        assert_eq!(
            err(&file[..20], 3, 40, 0xABCD),
            Some(PairsError::Truncated(Truncated { part: "header", len: 20 }))
        );
        assert_eq!(err(&file, 2, 40, 0xABCD), Some(PairsError::Length { expected: 60, found: 68 }));
        assert_eq!(
            err(&file[..60], 3, 40, 0xABCD),
            Some(PairsError::Length { expected: 68, found: 60 })
        );
        let mut flipped = file.clone();
        flipped[50] ^= 4;
        assert!(matches!(err(&flipped, 3, 40, 0xABCD), Some(PairsError::Checksum(_))));
        assert_eq!(err(&file, 3, 41, 0xABCD), Some(PairsError::Unpaired("games counts")));
        assert_eq!(err(&file, 3, 40, 0xABCE), Some(PairsError::Unpaired("weights")));
    }

    proptest! {
        #[test]
        fn unseal_never_panics_and_accepts_only_what_seal_made(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let file = seal(bytes.clone());
            prop_assert_eq!(unseal(&file), Ok(&bytes[..]));
            if let Ok(body) = unseal(&bytes) {
                prop_assert_eq!(seal(body.to_vec()), bytes);
            }
        }
    }
}
