//! Weight files of n-tuple networks: `info` (what a file holds) and `average` (the
//! weight-by-weight mean of networks of one shape).
//!
//! With a constant step, TD's weights wander around a plateau instead of settling
//! (BENCHMARKS D22, D25); the mean of networks taken along one run (iterate averaging)
//! damps that. A network's value is a sum of weights, so the mean network values every
//! board at the mean of the networks' values (up to `f32` rounding): the one-file form of
//! the `ntuple:@A+@B` leaf, at one network's memory and lookups.

use serde::{Deserialize, Serialize};

use super::{Control, Error, InputFile};
use crate::search::ntuple::{self, Meta, NTuple, Shape};

/// A network's header and fingerprint, as `info` and `average` report them.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NetHeader {
    /// The network's shape.
    pub shape: String,
    /// Weights in the network.
    pub weights: u64,
    /// Training games in its history (`train --from` continues from game `games`).
    pub games: u64,
    /// The training seed.
    pub seed: u64,
    /// The step size it was trained with.
    pub alpha: f32,
    /// The weights' fingerprint (FNV-1a of their bytes), hex: the one `train --json`
    /// prints and BENCHMARKS.md quotes.
    pub fingerprint: String,
}

impl NetHeader {
    fn new(shape: &Shape, meta: &Meta, fingerprint: u64) -> NetHeader {
        NetHeader {
            shape: shape.to_string(),
            weights: shape.weights() as u64,
            games: meta.games,
            seed: meta.seed,
            alpha: meta.alpha,
            fingerprint: format!("{fingerprint:016x}"),
        }
    }
}

/// What a weight file holds (`drop7 info`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WeightInfo {
    /// The file's name.
    pub file: String,
    /// Its header and fingerprint.
    #[serde(flatten)]
    pub net: NetHeader,
}

impl WeightInfo {
    /// One line of text.
    pub fn text(&self) -> String {
        let n = &self.net;
        format!(
            "{}: shape {}, {} weights, {} games, seed {}, alpha {}, fingerprint {}\n",
            self.file, n.shape, n.weights, n.games, n.seed, n.alpha, n.fingerprint
        )
    }
}

/// What the weight file holds, after the checks a load makes (magic, version, shape, length,
/// checksum), without building the network.
pub fn weight_info(file: &InputFile) -> Result<WeightInfo, Error> {
    if let Some(e) = &file.error {
        return Err(Error::input(e.clone()));
    }
    let (shape, meta, body) = ntuple::decode_parts(&file.bytes)
        .map_err(|e| Error::input(format!("file: {}: {e}", file.name)))?;
    let mut h = ntuple::Fnv::new();
    h.write(body);
    Ok(WeightInfo { file: file.name.clone(), net: NetHeader::new(&shape, &meta, h.finish()) })
}

/// What `average` made (the CLI's `--json`, less the output file's name).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AverageResponse {
    /// The files averaged, in order.
    pub files: Vec<String>,
    /// The mean network: its shape, its fingerprint, and the header written, which is the
    /// first file's games, seed and alpha, so `train --from` on the mean continues the first
    /// file's stream of training games.
    #[serde(flatten)]
    pub net: NetHeader,
}

impl AverageResponse {
    /// The CLI's text line for the network written to `out`.
    pub fn text(&self, out: &str) -> String {
        let n = &self.net;
        format!(
            "wrote {out}: the mean of {} networks ({}), shape {}, {} weights, fingerprint {}; \
             header from {} ({} games, seed {}, alpha {})\n",
            self.files.len(),
            self.files.join(", "),
            n.shape,
            n.weights,
            n.fingerprint,
            self.files[0],
            n.games,
            n.seed,
            n.alpha
        )
    }
}

/// The mean of weight files, built one file at a time so that only the running sum and one
/// file's bytes are in memory (8 GB for 4 GB networks): [`add`](Self::add) each file in
/// order, then [`finish`](Self::finish). The sum is kept in `f32` in the files' order and
/// divided by their count, so the same files in the same order give the same bytes.
#[derive(Default)]
pub struct Average {
    /// The first file's shape and header, once added.
    first: Option<(Shape, Meta)>,
    /// The files added.
    names: Vec<String>,
    /// The sum of their weights.
    sum: Vec<f32>,
}

impl Average {
    /// The fewest files a mean takes.
    pub const MIN_FILES: usize = 2;

    /// No files yet.
    pub fn new() -> Average {
        Average::default()
    }

    /// Adds one weight file (from `drop7 train` or an earlier `average`); its shape must be
    /// the first file's.
    pub fn add(&mut self, file: &InputFile, ctl: Control<'_>) -> Result<(), Error> {
        ctl.check()?;
        if let Some(e) = &file.error {
            return Err(Error::input(e.clone()));
        }
        let (shape, meta, body) = ntuple::decode_parts(&file.bytes)
            .map_err(|e| Error::input(format!("files: {}: {e}", file.name)))?;
        match &self.first {
            None => {
                self.first = Some((shape, meta));
                self.sum = bits::sealed::f32s(body).collect();
            }
            Some((first, _)) => {
                if shape != *first {
                    return Err(Error::input(format!(
                        "files: {}: shape {shape}, not {}'s shape {first}",
                        file.name, self.names[0]
                    )));
                }
                for (s, w) in self.sum.iter_mut().zip(bits::sealed::f32s(body)) {
                    *s += w;
                }
            }
        }
        self.names.push(file.name.clone());
        Ok(())
    }

    /// The mean network and its header (the first file's), with the report. At least
    /// [`MIN_FILES`](Self::MIN_FILES) files must have been added.
    pub fn finish(self) -> Result<(NTuple, Meta, AverageResponse), Error> {
        let (Some((shape, meta)), n) = (self.first, self.names.len()) else {
            return Err(Error::input("files: give at least 2 weight files to average"));
        };
        if n < Average::MIN_FILES {
            return Err(Error::input(format!(
                "files: {} alone; give at least {} weight files to average",
                self.names[0],
                Average::MIN_FILES
            )));
        }
        let mut weights = self.sum;
        let count = n as f32;
        for w in &mut weights {
            *w /= count;
        }
        let net = NTuple::from_weights(shape, weights).expect("the first file's shape");
        let response = AverageResponse {
            files: self.names,
            net: NetHeader::new(&shape, &meta, net.fingerprint()),
        };
        Ok((net, meta, response))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    fn small(fill: impl Fn(usize) -> f32, games: u64) -> (NTuple, Vec<u8>) {
        let shape: Shape = "rows=0112233 size=4096".parse().unwrap();
        let weights = (0..shape.weights()).map(fill).collect();
        let net = NTuple::from_weights(shape, weights).unwrap();
        let bytes = ntuple::encode(&net, &Meta { games, seed: 7, alpha: 0.25 });
        (net, bytes)
    }

    fn file(name: &str, bytes: Vec<u8>) -> InputFile {
        InputFile::new(name, bytes)
    }

    #[test]
    fn the_mean_is_weight_by_weight_and_values_boards_at_the_mean_value() {
        let (a, ab) = small(|i| (i % 97) as f32 * 3.0 - 100.0, 40);
        let (b, bb) = small(|i| (i % 31) as f32 * -7.5 + 12.0, 90);
        let (c, cb) = small(|i| ((i * 13) % 11) as f32, 5);
        let mut avg = Average::new();
        for (name, bytes) in [("a", ab), ("b", bb), ("c", cb)] {
            avg.add(&file(name, bytes), Control::new()).unwrap();
        }
        let (mean, meta, r) = avg.finish().unwrap();
        for i in [0, 1, 500, mean.weights().len() - 1] {
            let want = (a.weights()[i] + b.weights()[i] + c.weights()[i]) / 3.0;
            assert_eq!(mean.weights()[i], want, "weight {i}");
        }
        // The header is the first file's.
        assert_eq!((meta.games, meta.seed, r.net.games, r.files.len()), (40, 7, 40, 3));
        assert_eq!(r.net.fingerprint, format!("{:016x}", mean.fingerprint()));
        // `info` reads the written file's header and fingerprint without building it.
        let bytes = ntuple::encode(&mean, &meta);
        let i = weight_info(&file("m.d7n", bytes)).unwrap();
        assert_eq!(
            (i.net.fingerprint, i.net.games, i.net.weights),
            (r.net.fingerprint, 40, r.net.weights)
        );
        assert_eq!(i.net.shape, "rows=0112233 size=4096");
        let e = weight_info(&file("x.d7n", b"not a network".to_vec())).unwrap_err().to_string();
        assert!(e.contains("x.d7n") && e.contains("magic"), "{e}");
        // A board's value is the mean of the three values.
        let boards = [
            Board::default(),
            "......./......./......./......./......./..3..../#######".parse::<Board>().unwrap(),
        ];
        for board in boards {
            for drops in [1, 5] {
                let want =
                    (a.value(&board, drops) + b.value(&board, drops) + c.value(&board, drops))
                        / 3.0;
                let got = mean.value(&board, drops);
                assert!((got - want).abs() < 1e-3 * want.abs().max(1.0), "{got} vs {want}");
            }
        }
    }

    #[test]
    fn two_files_give_the_bytes_of_half_of_each() {
        let (a, ab) = small(|i| (i as f32).sin() * 1000.0, 1);
        let (b, bb) = small(|i| (i as f32).cos() * 333.3, 2);
        let mut avg = Average::new();
        avg.add(&file("a", ab), Control::new()).unwrap();
        avg.add(&file("b", bb), Control::new()).unwrap();
        let (mean, _, _) = avg.finish().unwrap();
        let half: Vec<f32> =
            a.weights().iter().zip(b.weights()).map(|(x, y)| 0.5 * x + 0.5 * y).collect();
        assert_eq!(mean.weights(), &half[..]);
    }

    #[test]
    fn bad_files_are_refused_with_their_names() {
        let (_, ab) = small(|i| i as f32, 1);
        let mut avg = Average::new();
        avg.add(&file("a.d7n", ab.clone()), Control::new()).unwrap();
        let e = avg.finish().unwrap_err().to_string();
        assert!(e.contains("a.d7n alone"), "{e}");

        let other: Shape = "rows=0000000 size=4096".parse().unwrap();
        let odd = NTuple::from_weights(other, vec![1.0; other.weights()]).unwrap();
        let odd = ntuple::encode(&odd, &Meta { games: 1, seed: 1, alpha: 1.0 });
        let mut avg = Average::new();
        avg.add(&file("a.d7n", ab.clone()), Control::new()).unwrap();
        let e = avg.add(&file("b.d7n", odd), Control::new()).unwrap_err().to_string();
        assert!(e.contains("b.d7n: shape") && e.contains("a.d7n's shape"), "{e}");

        let mut broken = ab.clone();
        let at = broken.len() / 2;
        broken[at] ^= 1;
        let e = Average::new().add(&file("c.d7n", broken), Control::new()).unwrap_err();
        assert!(e.to_string().contains("c.d7n"), "{e}");
        let e = Average::new().add(&file("d.txt", b"hello".to_vec()), Control::new()).unwrap_err();
        assert!(e.to_string().contains("d.txt"), "{e}");
        let e = Average::new().finish().unwrap_err().to_string();
        assert!(e.contains("at least 2"), "{e}");
    }
}
