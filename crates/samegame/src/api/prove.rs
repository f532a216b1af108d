//! `prove`: the exact clearability decider over every board of a file.

use super::Boards as _;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{pairs, BoardFile, Control, Error, Progress};
use crate::prove::{prove_with_abort, Verdict};
use crate::{trace, Rules};

/// `prove`: decide exactly whether each board can be cleared (with a clearing sequence if it
/// can). On abort the verb returns [`Error::Aborted`] (a decision has no best-so-far).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct ProveRequest {
    /// The board file (text or BGF2; a BGF2 file's minimum group is used, else 2).
    pub file: BoardFile,
    /// Use the refutation rules (off: to count what they save).
    pub refutations: bool,
    /// Give up on a board after this many positions.
    pub max_nodes: u64,
}

impl Default for ProveRequest {
    fn default() -> Self {
        ProveRequest { file: BoardFile::default(), refutations: true, max_nodes: 50_000_000 }
    }
}

/// The decision on one board.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Proof {
    /// 1-based index of the board in the file.
    pub board: usize,
    /// `clearable`, `unclearable` or `unknown (node budget exhausted)`.
    pub verdict: String,
    /// A clearing sequence (verified) when clearable.
    pub moves: Option<Vec<[u8; 2]>>,
    /// Positions visited.
    pub nodes: u64,
    /// Positions answered by the transposition table.
    pub table_hits: u64,
    /// Positions answered by a refutation.
    pub refuted: u64,
    /// Wall time.
    pub seconds: f64,
}

/// What [`prove`] decided.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ProveResponse {
    /// One decision per board, in order.
    pub boards: Vec<Proof>,
    /// Whether some board was not decided within `max_nodes` (the CLI then exits 1).
    pub undecided: bool,
}

/// Decides every board of the file.
pub fn prove(req: &ProveRequest, ctl: Control) -> Result<ProveResponse, Error> {
    prove_each(req, ctl, &mut |_| Ok(()))
}

/// Like [`prove`], but calls `on_board` with each decision as soon as it is made; an error
/// from it stops the verb and is returned.
pub fn prove_each(
    req: &ProveRequest,
    ctl: Control,
    on_board: &mut dyn FnMut(&Proof) -> Result<(), Error>,
) -> Result<ProveResponse, Error> {
    let boards = req.file.boards()?;
    let mut out = ProveResponse { boards: Vec::new(), undecided: false };
    for (i, (board, mg)) in boards.iter().enumerate() {
        ctl.check()?;
        let min_group = mg.unwrap_or(2).max(2);
        let start = Instant::now();
        let (verdict, stats) =
            prove_with_abort(board, min_group, req.refutations, req.max_nodes, ctl.abort_flag());
        let seconds = start.elapsed().as_secs_f64();
        let (name, moves) = match &verdict {
            Verdict::Clearable(m) => {
                let rules = Rules { min_group, ..Rules::default() };
                let v = trace::verify(board, m, &rules).map_err(|(k, e)| {
                    Error::failed(format!("internal error: move {} illegal: {e}", k + 1))
                })?;
                if !v.cleared {
                    return Err(Error::failed(
                        "internal error: the clearing sequence does not clear",
                    ));
                }
                ("clearable", Some(pairs(m)))
            }
            Verdict::Unclearable => ("unclearable", None),
            Verdict::Unknown => {
                ctl.check()?;
                out.undecided = true;
                ("unknown (node budget exhausted)", None)
            }
        };
        let p = Proof {
            board: i + 1,
            verdict: name.into(),
            moves,
            nodes: stats.nodes,
            table_hits: stats.table_hits,
            refuted: stats.refuted,
            seconds,
        };
        on_board(&p)?;
        ctl.report(Progress::new(i as u64 + 1, Some(boards.len() as u64)));
        out.boards.push(p);
    }
    Ok(out)
}
