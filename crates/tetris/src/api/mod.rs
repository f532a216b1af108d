//! The verbs of `bitarcade tetris`, typed for every front end (the CLI, a web server, Python):
//! [`pc`] solves one perfect clear, [`replay`] checks a solution record, [`percent`] counts the
//! queues of a pattern that have a PC from a field, [`sweep`] counts the solvable canonical
//! queues of a height one search per queue, [`bench`](fn@bench) runs the public benchmark and [`train`]
//! fits the move-ordering weights.
//!
//! Each verb takes a plain request (serde, every field defaulted in its `Default`, so JSON may
//! omit fields) and a [`Control`] (abort flag, progress callback), and returns a plain response
//! or an [`Error`] whose message names the request's field. The API reads no files and prints nothing: a
//! kick table file's text comes in as [`PcSolveRequest::kick_table`] (and the same field of the
//! other requests), and the solution record goes out in [`PcSolveResponse::record`]. Verbs
//! that run in parallel ([`sweep`], [`train`]) use the caller's rayon pool; their answers are
//! the same for any number of threads. Every response prints as the CLI prints it
//! (`Display`).
//!
//! [`contract`] is the same game under the one live contract of every bitarcade game
//! ([`bits::live::Game`]): a position placement by placement, hints and the solver playing on.
//!
//! ```
//! use tetris::api::{pc, replay, Control, PcSolveRequest, ReplayRequest};
//!
//! let req = PcSolveRequest { queue: "IOTLJSZIOTS".into(), ..PcSolveRequest::default() };
//! let out = pc(&req, Control::new()).unwrap();
//! assert!(out.report.found && out.report.verified);
//! assert_eq!(out.report.height, Some(4));
//! let record = out.record.unwrap();
//! let ok = replay(&ReplayRequest { file: bits::job::InputFile::json("pc.json", &record) }, Control::new()).unwrap();
//! assert_eq!(ok.steps, 10);
//! ```

mod bench;
pub mod contract;
mod pc;
mod percent;
mod sweep;
mod text;
mod train;

pub use bench::{bench, BenchLine, BenchRequest, BenchResponse, MovegenRatio};
pub use bits::job::{Control, Error, Progress, Shard};
pub use pc::{pc, replay, PcRecord, PcReport, PcSolveRequest, PcSolveResponse, ReplayRequest};
pub use pc::{ReplayResponse, StepOut};
pub use percent::{percent, PatternOdds, PercentRequest, PercentResponse, TreeOut};
pub use sweep::{sweep, SweepRequest, SweepResponse};
pub use train::{train, TrainGeneration, TrainRequest, TrainResponse};

use crate::piece::parse_queue;
use crate::solver::{Weights, N_FEATURES};
use crate::{KickTable, Piece};

/// The kick table `spec` names: a built-in one (`none`, `srs`, `srs+`, `srs-tetrio`) or, with
/// `text` (a kick table file's contents, read by the caller), the table it holds; `spec` is then
/// the file's name, used in error messages.
pub fn load_kicks(spec: &str, text: Option<&str>) -> Result<KickTable, Error> {
    if let Some(t) = KickTable::named(spec) {
        return Ok(t);
    }
    let Some(text) = text else {
        return Err(Error::input(format!(
            "kicks: {spec:?}, not a built-in table ({}) and no such file",
            KickTable::NAMES.join(", ")
        )));
    };
    KickTable::parse(text).map_err(|e| Error::input(format!("{spec}: {e}")))
}

/// The starting field of a request: its `field` file (errors name the file), else its `fumen`,
/// else empty.
fn read_board(
    field: Option<&bits::job::InputFile>,
    fumen: Option<&str>,
) -> Result<crate::Board, Error> {
    if let Some(f) = field {
        f.text()?.parse::<crate::Board>().map_err(|e| Error::input(format!("{}: {e}", f.name)))
    } else if let Some(f) = fumen {
        crate::fumen_io::decode_board(f).map_err(|e| Error::input(format!("fumen: {e}")))
    } else {
        Ok(crate::Board::EMPTY)
    }
}

/// One piece letter given as the request's `field`.
fn one_piece(field: &str, s: &str) -> Result<Piece, Error> {
    let q = parse_queue(s).map_err(|e| Error::input(format!("{field}: {e}")))?;
    match q.as_slice() {
        [p] => Ok(*p),
        _ => Err(Error::input(format!("{field}: {s:?}, must be one piece letter"))),
    }
}

/// Ordering weights by name (`trained`, `trained4`, `hand`, `zero`) or as 11 comma-separated
/// integers; `None` for `trained`: the shipped per-height weights (`Solver::new`).
fn parse_weights(s: &str) -> Result<Option<Weights>, Error> {
    parse_weight_vector("weights", s).map(|w| (s != "trained").then_some(w))
}

/// One weight vector by name or as 11 comma-separated integers, given as the request's
/// `field`.
fn parse_weight_vector(field: &str, s: &str) -> Result<Weights, Error> {
    match s {
        "trained" => return Ok(Weights::TRAINED),
        "trained4" => return Ok(Weights::TRAINED_4),
        "hand" => return Ok(Weights::HAND),
        "zero" => return Ok(Weights::ZERO),
        _ => {}
    }
    let v: Result<Vec<i32>, _> = s.split(',').map(|x| x.trim().parse::<i32>()).collect();
    match v {
        Ok(v) if v.len() == N_FEATURES => Ok(Weights(v.try_into().unwrap_or([0; N_FEATURES]))),
        _ => Err(Error::input(format!(
            "{field}: {s:?}, use trained, trained4, hand, zero or {N_FEATURES} comma-separated integers"
        ))),
    }
}

/// The line counts of a request's `lines`: 4, 6, both (0), or any even height up to 40 (a PC
/// from an empty field clears an even number of lines).
fn line_counts(lines: u32) -> Result<Vec<u32>, Error> {
    match lines {
        0 => Ok(vec![4, 6]),
        l if l % 2 == 0 && (2..=crate::solver::MAX_HEIGHT).contains(&l) => Ok(vec![l]),
        l => Err(Error::input(format!(
            "lines: {l}, use an even height from 2 to {} or 0 for 4 and 6",
            crate::solver::MAX_HEIGHT
        ))),
    }
}

/// Pieces of a benchmark or training queue for a PC of `lines` lines: the pieces it places and
/// one more for hold (11 for 4 lines, 16 for 6, 51 for 20).
fn queue_pieces(lines: u32) -> usize {
    10 * lines as usize / 4 + 1
}

#[cfg(test)]
mod tests;
