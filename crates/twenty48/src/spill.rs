//! Building a table larger than memory: its layers kept on disk while it is built.
//!
//! [`Table::build`] holds every layer's positions to the end (about 4 bytes a position) and
//! every layer's values in `f32` (4 more), so a table of 1.5 G positions needs 12 GB. The
//! build itself only needs, at any time, the layers the forward pass is filling (the next
//! two) and, in the backward pass, the layer being valued with the two above it.
//! [`build_to_file`] does the same passes with the rest on disk: each layer's key set is
//! written to a work directory as the forward pass finishes it; the backward pass reads the
//! layers back from the top down, keeping three, and writes each layer's values (held in
//! 16 bits, as always) beside its keys; then the table file is written in layer order from
//! those pieces, each piece deleted once copied. Memory holds a few of the largest layers;
//! the work directory at most the table's file size again.
//!
//! The values are the same `f32` computations in the same order, so the file is byte for
//! byte the one [`Table::write_to`] writes for the in-memory build (a unit test compares
//! them).

use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::endgame::{quantize, unquantize, write_head, write_layer_keys, Formation, Held, Table};
use crate::keyset::KeySet;

/// The figures of a table built by [`build_to_file`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Built {
    /// Positions written.
    pub positions: u64,
    /// Positions with a chance above 0 (as held, in 16 bits).
    pub winnable: u64,
    /// The best chance in the first layer, as held.
    pub best_start: u16,
    /// The mean chance over the first layer.
    pub mean_start: f64,
}

/// Why a spilled build stopped.
#[derive(Debug)]
pub enum SpillError<E> {
    /// The work directory or the output could not be written or read back.
    Io(String),
    /// The progress callback asked to stop.
    Stopped(E),
}

impl<E> From<std::io::Error> for SpillError<E> {
    fn from(e: std::io::Error) -> Self {
        SpillError::Io(e.to_string())
    }
}

/// The work files of one build, removed when it is dropped (the build done, failed or
/// unwinding from a panic; a killed process leaves them).
struct Work {
    dir: PathBuf,
    stem: String,
    layers: usize,
}

impl Drop for Work {
    fn drop(&mut self) {
        for i in 0..self.layers {
            let _ = std::fs::remove_file(self.path("keys", i));
            let _ = std::fs::remove_file(self.path("values", i));
        }
    }
}

/// An I/O error naming the file it met.
fn at(path: &Path) -> impl Fn(std::io::Error) -> std::io::Error + '_ {
    move |e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

impl Work {
    fn path(&self, what: &str, i: usize) -> PathBuf {
        self.dir.join(format!("{}.{what}.{i}", self.stem))
    }

    fn write_keys(&self, i: usize, k: &KeySet) -> std::io::Result<()> {
        let path = self.path("keys", i);
        let write = || -> std::io::Result<()> {
            let (highs, starts, lows) = k.parts();
            let mut w = BufWriter::with_capacity(1 << 20, std::fs::File::create(&path)?);
            for part in [highs, starts, lows] {
                w.write_all(&(part.len() as u64).to_le_bytes())?;
                write_u32s(&mut w, part)?;
            }
            w.flush()
        };
        write().map_err(at(&path))
    }

    fn read_keys(&self, i: usize) -> std::io::Result<KeySet> {
        let path = self.path("keys", i);
        let read = || -> std::io::Result<KeySet> {
            let file = std::fs::File::open(&path)?;
            let size = file.metadata()?.len();
            let mut r = BufReader::with_capacity(1 << 20, file);
            let mut part = || -> std::io::Result<Vec<u32>> {
                let mut len = [0u8; 8];
                r.read_exact(&mut len)?;
                let len = u64::from_le_bytes(len);
                if len > size / 4 {
                    return Err(std::io::Error::other(format!("{len} words, past the end")));
                }
                let mut bytes = vec![0u8; 4 * len as usize];
                r.read_exact(&mut bytes)?;
                Ok(bytes
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                    .collect())
            };
            let (highs, starts, lows) = (part()?, part()?, part()?);
            KeySet::from_parts(highs, starts, lows).map_err(std::io::Error::other)
        };
        read().map_err(at(&path))
    }

    fn write_values(&self, i: usize, v: &[u16]) -> std::io::Result<()> {
        let path = self.path("values", i);
        let mut bytes = Vec::with_capacity(2 * v.len());
        v.iter().for_each(|x| bytes.extend_from_slice(&x.to_le_bytes()));
        std::fs::write(&path, bytes).map_err(at(&path))
    }

    fn read_values(&self, i: usize) -> std::io::Result<Vec<u8>> {
        let path = self.path("values", i);
        std::fs::read(&path).map_err(at(&path))
    }
}

fn write_u32s(w: &mut impl Write, v: &[u32]) -> std::io::Result<()> {
    for chunk in v.chunks(1 << 16) {
        let bytes: Vec<u8> = chunk.iter().flat_map(|x| x.to_le_bytes()).collect();
        w.write_all(&bytes)?;
    }
    Ok(())
}

/// Builds the table for `f`, `target` and `slack` ([`Table::build_with`]; `then` the table
/// valuing its won positions, for a chained formation) with its layers on disk in `dir`, and writes the table file to
/// `out` ([`Table::write_to`]'s form); returns `out` and the table's figures.
/// `progress(pass, layers done, layers, positions so far)` is called as layers finish (the
/// `"forward"` pass, the `"backward"` one, then `"write"`), and an error it returns stops
/// the build. The work files are removed whether the build succeeds or not (not if the
/// process is killed). An I/O error names the file it met.
pub fn build_to_file<W: Write, E>(
    f: Formation,
    target: u8,
    slack: u32,
    then: Option<&(dyn Held + Sync)>,
    dir: &Path,
    out: W,
    mut progress: impl FnMut(&str, usize, usize, u64) -> Result<(), E>,
) -> Result<(W, Built), SpillError<E>> {
    assert!((3..=f.max_target()).contains(&target), "target rank {target}");
    let layers = Table::layers_for(target, slack);
    assert!(Table::slack_of(target, layers) == Some(slack), "slack {slack}");
    assert_eq!(
        then.map(|t| (t.formation().name, t.target())),
        f.then.map(|name| (name, target)),
        "the table that values a won position"
    );
    let stem = format!("{}-{}.{}", f.name, 1u32 << target, std::process::id());
    let work = Work { dir: dir.to_path_buf(), stem, layers };
    passes(&f, target, then, &work, out, &mut progress)
}

fn passes<W: Write, E>(
    f: &Formation,
    target: u8,
    then: Option<&(dyn Held + Sync)>,
    work: &Work,
    out: W,
    progress: &mut impl FnMut(&str, usize, usize, u64) -> Result<(), E>,
) -> Result<(W, Built), SpillError<E>> {
    let n = work.layers;
    let mut total = 0;
    Table::forward(f, target, n, |i, layer, so_far| {
        let k = KeySet::from_sorted(layer);
        work.write_keys(i, &k)?;
        total = so_far;
        progress("forward", i + 1, n, total).map_err(SpillError::Stopped)
    })?;
    // The backward pass, three layers resident: `keys` and `values` are indexed by layer as
    // in the in-memory build, the layers not held left empty.
    let mut built = Built { positions: total, winnable: 0, best_start: 0, mean_start: 0.0 };
    let mut keys: Vec<KeySet> = vec![KeySet::default(); n];
    let mut values: Vec<Vec<f32>> = vec![Vec::new(); n];
    for i in (0..n).rev() {
        keys[i] = work.read_keys(i)?;
        let v: Vec<f32> = (0..keys[i].len())
            .into_par_iter()
            .map(|k| Table::value_from(f, target, then, &keys, &values, i, keys[i].get(k)))
            .collect();
        let held: Vec<u16> = v.iter().map(|&x| quantize(x)).collect();
        built.winnable += held.iter().filter(|&&q| q > 0).count() as u64;
        if i == 0 {
            built.best_start = held.iter().copied().max().unwrap_or(0);
            built.mean_start = held.iter().map(|&q| f64::from(unquantize(q))).sum::<f64>()
                / held.len().max(1) as f64;
        }
        work.write_values(i, &held)?;
        values[i] = v;
        if i + 2 < n {
            keys[i + 2] = KeySet::default();
            values[i + 2] = Vec::new();
        }
        progress("backward", n - i, n, total).map_err(SpillError::Stopped)?;
    }
    drop((keys, values));
    // The file, in layer order, each layer's pieces copied and deleted.
    let mut s = bits::sealed::SealedWriter::new(out);
    write_head(&mut s, f, target, n)?;
    for i in 0..n {
        let k = work.read_keys(i)?;
        write_layer_keys(&mut s, &k)?;
        let values = work.read_values(i)?;
        if values.len() != 2 * k.len() {
            return Err(SpillError::Io(format!("work file for layer {i}: values cut short")));
        }
        s.write_all(&values)?;
        let _ = std::fs::remove_file(work.path("keys", i));
        let _ = std::fs::remove_file(work.path("values", i));
        progress("write", i + 1, n, total).map_err(SpillError::Stopped)?;
    }
    Ok((s.finish()?, built))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endgame::SLACK;

    fn none(_: &str, _: usize, _: usize, _: u64) -> Result<(), ()> {
        Ok(())
    }

    #[test]
    fn a_build_spilled_to_disk_writes_the_in_memory_builds_file() {
        let dir = std::env::temp_dir().join(format!("b48t-spill-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let six = Table::build(Formation::BLOCK_BESIDE, 4, none).unwrap();
        let five = Table::build_chained(Formation::FIVE_BLOCK, 4, Some(&six), none).unwrap();
        let whole = Table::build(Formation::FIVE_WHOLE, 5, none).unwrap();
        // A slack other than the default: its file says its layers.
        let wide = Table::build_with(Formation::BLOCK_BESIDE, 4, 40, None, none).unwrap();
        assert_eq!((wide.slack(), six.slack()), (40, SLACK));
        let then: Option<&(dyn Held + Sync)> = Some(&six);
        for (t, then) in [(&six, None), (&five, then), (&whole, None), (&wide, None)] {
            let (bytes, built) =
                build_to_file(t.formation, t.target, t.slack(), then, &dir, Vec::new(), none)
                    .unwrap();
            assert_eq!(built.positions, t.len());
            let winnable = t.values.iter().flatten().filter(|&&v| v > 0).count() as u64;
            let best = t.values[0].iter().copied().max().unwrap();
            assert_eq!((built.winnable, built.best_start), (winnable, best));
            assert!(bytes == t.encode(), "{} {}", t.formation.name, t.target);
            // Nothing is left in the work directory.
            assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        }
        // A stop asked by the progress callback ends the build and clears the work files.
        let mut calls = 0;
        let stopped =
            build_to_file(Formation::FIVE_WHOLE, 5, SLACK, None, &dir, Vec::new(), |_, _, _, _| {
                calls += 1;
                if calls == 40 {
                    Err("stop")
                } else {
                    Ok(())
                }
            });
        assert!(matches!(stopped, Err(SpillError::Stopped("stop"))));
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
