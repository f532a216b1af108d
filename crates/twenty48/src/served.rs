//! Endgame tables served from their files: only each layer's index in memory, every lookup
//! read from the file.
//!
//! A table file ([`Table::encode`]'s form) holds each layer's [`crate::keyset::KeySet`] as
//! its distinct high halves, the index of each one's first position, every position's low
//! half, then the layer's 16-bit chances. The high halves and run starts are a few thousand
//! words a layer, so [`FileTable::open`] keeps them and notes where each layer's low halves
//! and chances begin. A lookup finds the run of the position's high half in memory, narrows
//! the run's low halves by single reads until a few kilobytes are left, reads those at once,
//! and reads the chance: a handful of positioned reads (`pread`), served from the page cache
//! once the file has been read. The tables are asked once per move, before the search, so
//! a player holding all seven of issue 34's tables (11.3 GB of files) needs a few megabytes
//! for them instead of 11 GB.
//!
//! Opening a file reads it once, a block at a time: the checksum is computed and every
//! layer's structure checked (the runs, and the low halves ascending within each run) as
//! [`Table::read_file`] checks them, so a defect is refused at the start, never met in play.
//! A file is trusted from then on: one cut short is caught at the next lookup (below), one
//! replaced by a rename keeps being served from the file opened, but one rewritten in place
//! would be served as it now reads. Tables are written by a rename (`2048 tables`,
//! `table-convert`), never in place.
//!
//! A lookup that cannot read the file afterwards answers "not held" and is kept:
//! [`FileTable::failure`] (and [`crate::endgame::Tables::failure`]) report it, and the play
//! API refuses to report a run that met one.
//!
//! [`Table::encode`]: crate::endgame::Table::encode
//! [`Table::read_file`]: crate::endgame::Table::read_file

use std::os::unix::fs::FileExt;
use std::sync::{Arc, OnceLock};

use crate::endgame::{read_sealed, Body, Formation, Held, TableFileError, READ_BLOCK};
use crate::keyset::{strictly_ascending, KeySet};

/// Low halves narrowed by single reads until at most this many are left, then read at once
/// (4 KiB).
const SPAN: u64 = 1024;

/// One layer's index: its runs in memory, where its low halves and chances start.
#[derive(Debug)]
struct Layer {
    /// The distinct high halves, ascending.
    highs: Vec<u32>,
    /// Each run's first index, closed by the layer's position count.
    starts: Vec<u32>,
    /// The file offset of the layer's first low half (4 bytes each).
    lows_at: u64,
    /// The file offset of its first chance (2 bytes each).
    values_at: u64,
}

/// A table served from its file; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct FileTable {
    formation: Formation,
    target: u8,
    /// The file's name as given, for messages.
    name: String,
    file: Arc<std::fs::File>,
    layers: Arc<Vec<Layer>>,
    positions: u64,
    /// The first read that failed, if any.
    failed: Arc<OnceLock<String>>,
    /// Low halves left when a lookup reads them at once ([`SPAN`]; smaller in tests).
    span: u64,
    /// The file's checksum, checked when it was opened.
    checksum: u64,
}

impl FileTable {
    /// Opens the table file at `path` and reads its index, checking the whole file on the
    /// way (the checksum, the header, every layer's runs and order), with the same errors as
    /// [`crate::endgame::Table::read_file`]. Only the current form ([`crate::endgame::MAGIC`]) is served from
    /// its file: a first-form file is refused with the way to rewrite it.
    pub fn open(path: &std::path::Path) -> Result<FileTable, TableFileError> {
        let (index, file, checksum) = read_sealed(path, |r, len| index(r, len))?;
        let (formation, target, layers) = index;
        let positions = layers.iter().map(|l| u64::from(*l.starts.last().unwrap_or(&0))).sum();
        Ok(FileTable {
            formation,
            target,
            name: path.display().to_string(),
            file: Arc::new(file),
            layers: Arc::new(layers),
            positions,
            failed: Arc::new(OnceLock::new()),
            span: SPAN,
            checksum,
        })
    }

    /// The file's checksum (FNV-1a 64 of its body, its last 8 bytes), checked when it was
    /// opened: the file served is the file with this checksum, whatever its name later
    /// points to.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// The positions in the table.
    pub fn len(&self) -> u64 {
        self.positions
    }

    /// Whether the table holds no position.
    pub fn is_empty(&self) -> bool {
        self.positions == 0
    }

    /// Bytes of memory the index holds.
    pub fn index_bytes(&self) -> usize {
        self.layers.iter().map(|l| 4 * (l.highs.len() + l.starts.len())).sum()
    }

    /// The first lookup that could not read the file, as a message naming it, if any.
    pub fn failure(&self) -> Option<String> {
        self.failed.get().cloned()
    }

    /// Reads `buf.len()` bytes at `at`; a failure is kept (the first one) and answers `None`.
    fn read(&self, at: u64, buf: &mut [u8]) -> Option<()> {
        match self.file.read_exact_at(buf, at) {
            Ok(()) => Some(()),
            Err(e) => {
                let _ = self.failed.set(format!("{}: cannot read at byte {at}: {e}", self.name));
                None
            }
        }
    }

    fn low(&self, layer: &Layer, k: u64) -> Option<u32> {
        let mut b = [0u8; 4];
        self.read(layer.lows_at + 4 * k, &mut b)?;
        Some(u32::from_le_bytes(b))
    }
}

impl Held for FileTable {
    fn formation(&self) -> &Formation {
        &self.formation
    }

    fn layer_len(&self, i: usize) -> usize {
        self.layers.get(i).map_or(0, |l| *l.starts.last().unwrap_or(&0) as usize)
    }

    fn layers(&self) -> usize {
        self.layers.len()
    }

    fn position(&self, i: usize, k: usize) -> Option<u64> {
        let layer = self.layers.get(i)?;
        if k >= self.layer_len(i) {
            return None;
        }
        // The run holding k: the last start at or below it.
        let j = layer.starts.partition_point(|&s| s as usize <= k) - 1;
        let low = self.low(layer, k as u64)?;
        Some(u64::from(layer.highs[j]) << 32 | u64::from(low))
    }

    fn target(&self) -> u8 {
        self.target
    }

    fn stored(&self, i: usize, free: u64) -> Option<u16> {
        let layer = self.layers.get(i)?;
        let j = layer.highs.binary_search(&((free >> 32) as u32)).ok()?;
        let (mut a, mut b) = (u64::from(layer.starts[j]), u64::from(layer.starts[j + 1]));
        let low = free as u32;
        // The position, if held, stays in a..b: at or past m when lows[m] <= low.
        while b - a > self.span {
            let m = a + (b - a) / 2;
            if self.low(layer, m)? <= low {
                a = m;
            } else {
                b = m;
            }
        }
        let mut buf = [0u8; 4 * SPAN as usize];
        debug_assert!(b - a <= SPAN);
        let span = &mut buf[..4 * (b - a) as usize];
        self.read(layer.lows_at + 4 * a, span)?;
        let lows = span.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().expect("4")));
        let k = a + lows.take_while(|&l| l <= low).count() as u64;
        // k - 1 is the last low half at or below the position's.
        if k == a {
            return None;
        }
        let at = 4 * (k - 1 - a) as usize;
        if u32::from_le_bytes(span[at..at + 4].try_into().expect("4")) != low {
            return None;
        }
        let mut v = [0u8; 2];
        self.read(layer.values_at + 2 * (k - 1), &mut v)?;
        Some(u16::from_le_bytes(v))
    }
}

/// The formation, target and layer indexes of a file's body (`len` bytes), read in order:
/// every layer's runs kept, its low halves checked and skipped, its chances skipped.
fn index(
    r: &mut dyn std::io::Read,
    len: usize,
) -> Result<(Formation, u8, Vec<Layer>), TableFileError> {
    let bad = |m: String| TableFileError(m);
    let mut body = Body { r, at: 0, len, buf: vec![0u8; READ_BLOCK] };
    let (v1, formation, target, n) = body.header()?;
    if v1 {
        return Err(bad("a first-form table (B48END01) is only read whole into memory: \
                        rewrite it with `bitarcade 2048 table-convert`"
            .into()));
    }
    let mut layers = Vec::with_capacity(n);
    for i in 0..n {
        let count = body.u64("layer size")?;
        if count > (len - body.at) as u64 / 6 {
            return Err(bad(format!("layer {i}: {count} positions, past the end")));
        }
        let count = count as usize;
        let runs = body.u32("run count")? as usize;
        if runs > count {
            return Err(bad(format!("layer {i}: {runs} runs for {count} positions")));
        }
        if (8 * runs + 6 * count) as u64 > (len - body.at) as u64 {
            return Err(bad(format!("layer {i}: {runs} runs and {count} positions, past the end")));
        }
        let highs = body.u32s(runs, "high halves")?;
        let starts = body.u32s(runs, "run starts")?;
        let lows_at = body.at as u64;
        let starts = KeySet::runs(&highs, &starts, count);
        // The low halves are read (for the checksum) and checked whatever the runs said, so
        // a defect is named as the in-memory reader names it.
        let mut ordered = true;
        let (mut k, mut run, mut last) = (0usize, 0usize, None::<u32>);
        let bounds = starts.as_ref().ok();
        body.each::<4>(count, "keys", |b| {
            let low = u32::from_le_bytes(b);
            if let Some(s) = bounds {
                while run + 1 < s.len() && k >= s[run + 1] as usize {
                    run += 1;
                    last = None;
                }
                if last.is_some_and(|l| !strictly_ascending(&[l, low])) {
                    ordered = false;
                }
                last = Some(low);
            }
            k += 1;
            true
        })?;
        let values_at = body.at as u64;
        body.each::<2>(count, "values", |_| true)?;
        let starts = starts.map_err(|e| bad(format!("layer {i}: {e}")))?;
        if !ordered {
            return Err(bad(format!("layer {i}: keys not sorted")));
        }
        layers.push(Layer { highs, starts, lows_at, values_at });
    }
    if body.at < len {
        return Err(bad(format!("{} bytes after the last layer", len - body.at)));
    }
    Ok((formation, target, layers))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::endgame::{Served, Table, Tables};

    fn none(_: &str, _: usize, _: usize, _: u64) -> Result<(), ()> {
        Ok(())
    }

    /// `t` written to a fresh file and served from it, with lookups narrowed down to `span`
    /// low halves before the last read.
    fn served(t: &Table, name: &str, span: u64) -> (FileTable, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("b48t-served-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        let bytes = t.encode();
        std::fs::write(&path, &bytes).unwrap();
        let mut f = FileTable::open(&path).unwrap();
        // The checksum reported is the file's last 8 bytes, read alike in memory.
        let tail = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap());
        assert_eq!(f.checksum(), tail);
        assert_eq!(Table::read_file_sealed(&path).unwrap().1, tail);
        f.span = span;
        (f, path)
    }

    /// Every `every`-th held position answers its stored chance, and positions next to them
    /// (one low bit or one tile changed) answer as in memory, held or not.
    fn same_answers(t: &Table, f: &FileTable, every: usize) {
        assert_eq!((f.formation(), f.target(), f.len()), (&t.formation, t.target, t.len()));
        assert_eq!(f.layers(), t.layers());
        let mut misses = 0;
        for (i, layer) in t.keys.iter().enumerate() {
            for (k, p) in layer.iter().enumerate().step_by(every) {
                assert_eq!(f.stored(i, p), Some(t.values[i][k]), "layer {i}, {p:#x}");
                for q in [p ^ 1, p ^ 1 << 20, p ^ 1 << 36, p.wrapping_add(1 << 32)] {
                    let got = f.stored(i, q);
                    assert_eq!(got, t.stored(i, q), "layer {i}, {q:#x}");
                    misses += usize::from(got.is_none());
                    assert_eq!(Held::value(f, q), t.value(q), "{q:#x}");
                }
            }
        }
        assert!(misses > 0, "no position missed");
        assert_eq!(f.failure(), None);
    }

    #[test]
    fn a_served_table_answers_every_lookup_as_in_memory() {
        // L3b for 32 (runs of up to a few thousand keys) and the chained L5b for 16.
        let six = Table::build(Formation::BLOCK_BESIDE, 5, none).unwrap();
        let longest = six
            .keys
            .iter()
            .flat_map(|k| k.parts().1.windows(2).map(|w| w[1] - w[0]).collect::<Vec<_>>())
            .max()
            .unwrap();
        assert!(u64::from(longest) > SPAN, "runs of at most {longest}");
        // 8.2 M positions: a sample of them (every 17th, every 101st).
        for (span, every) in [(SPAN, 17), (3, 101), (1, 101)] {
            let (f, path) = served(&six, "six.b48t", span);
            same_answers(&six, &f, every);
            std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
        }
        // A slack of 40 instead of 96: the file's layers, and a position past them lost.
        let wide = Table::build_with(Formation::BLOCK_BESIDE, 4, 40, None, none).unwrap();
        let (f, path) = served(&wide, "wide.b48t", SPAN);
        same_answers(&wide, &f, 1);
        let past = 4u64 | 4 << 4 | 4 << 8 | 4 << 12; // four 16s in row 0: sum 64 > 16 + 40
        assert_eq!((Held::value(&f, past), wide.value(past)), (Some(0.0), Some(0.0)));
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
        let next = Table::build(Formation::BLOCK_BESIDE, 4, none).unwrap();
        let five = Table::build_chained(Formation::FIVE_BLOCK, 4, Some(&next), none).unwrap();
        let (f5, five_path) = served(&five, "five.b48t", SPAN);
        let (fnext, path) = served(&next, "next.b48t", 2);
        same_answers(&five, &f5, 1);
        // The chained value of a won position the L5b table never made comes from the
        // served L3b table as from the one in memory.
        for free in [4u64 << 36, 4 << 36 | 1, 4 << 36 | 2 << 4] {
            assert_eq!(Held::chance(&fnext, free & !(0xF << 36)), next.chance(free & !(0xF << 36)));
        }
        // And the tables advise alike on a board where the five stand.
        let memory = Tables::new(vec![next.clone(), five.clone()]);
        let file = Tables::served(vec![Served::File(fnext), Served::File(f5)]);
        for text in [
            ". . . ./2 . . ./. 4 32 64/2 128 256 512",
            ". . . ./2 4 . ./. 8 32 64/2 128 256 512",
            "2 . . ./2 . . ./. 16 32 64/2 128 256 512",
        ] {
            let b: Board = text.parse().unwrap();
            assert_eq!(file.advise(b), memory.advise(b), "{text}");
        }
        assert!(file.advise(". . . ./2 . . ./. 4 32 64/2 128 256 512".parse().unwrap()).is_some());
        assert_eq!(file.failure(), None);
        for p in [path, five_path] {
            std::fs::remove_dir_all(p.parent().unwrap()).unwrap();
        }
    }

    #[test]
    fn a_read_that_fails_in_play_answers_nothing_and_is_reported() {
        let t = Table::build(Formation::BLOCK_BESIDE, 4, none).unwrap();
        let (f, path) = served(&t, "cut.b48t", SPAN);
        let i = t.keys.iter().position(|k| !k.is_empty()).unwrap();
        let p = t.keys[i].get(0);
        assert!(f.stored(i, p).is_some());
        // The file cut short after it was opened: the lookup's read fails.
        std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(20).unwrap();
        assert_eq!(f.stored(i, p), None);
        let e = f.failure().expect("the failed read is kept");
        assert!(e.contains("cut.b48t: cannot read at byte"), "{e}");
        let tables = Tables::served(vec![Served::File(f)]);
        assert_eq!(tables.failure(), Some(e));
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }
}
