//! `sweep`: every canonical queue of a PC height, solved (and optionally brute-forced).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{load_kicks, Control, Error, Progress, Shard};
use crate::bag::for_each_canonical_until;
use crate::piece::queue_string;
use crate::solver::{Outcome, PcRequest, Solver};
use crate::{trace, Board, KickTable, Piece};

/// A sweep request (`bitarcade tetris sweep`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct SweepRequest {
    /// PC height: 2 (queues of 5 + hold) or 4 (10 + hold).
    pub height: u32,
    /// Only this shard: items are dealt round-robin ([`Shard::deals`]: index mod N = K-1), so
    /// that every shard is a sample of the whole and the counts add up.
    pub shard: Shard,
    /// Kick table (the spec's known answers are under `srs`), or a file's name with
    /// `kick_table`.
    pub kicks: String,
    /// The text of a kick table file, when `kicks` names a file.
    pub kick_table: Option<String>,
    /// Also run the brute-force solver on every item and fail on any disagreement.
    pub brute: bool,
}

impl Default for SweepRequest {
    fn default() -> Self {
        SweepRequest {
            height: 2,
            shard: Shard::WHOLE,
            kicks: "srs".into(),
            kick_table: None,
            brute: false,
        }
    }
}

/// The answer to a [`SweepRequest`] (what `sweep --json` prints).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SweepResponse {
    /// PC height.
    pub height: u32,
    /// The kick table's name.
    pub kicks: String,
    /// The shard, `K/N`.
    pub shard: String,
    /// Canonical queues in the shard.
    pub items: u64,
    /// Queues with a PC.
    pub solvable: u64,
    /// Whether brute force confirmed every answer.
    pub brute_checked: bool,
    /// Wall time (varies run to run).
    pub seconds: f64,
}

/// Canonical queues per height: 57,750 of 5 pieces + hold, 79,516,080 of 10 + hold.
fn total_items(window: usize) -> u64 {
    if window == 5 {
        57_750
    } else {
        79_516_080
    }
}

/// Whether the queue (hold piece first) has a PC of `height`; a found one is verified.
fn sweep_item(
    solver: &mut Solver,
    kicks: &KickTable,
    q: &[Piece],
    height: u32,
    ctl: Control,
) -> Result<bool, Error> {
    let req = PcRequest {
        board: Board::EMPTY,
        queue: q[1..].to_vec(),
        hold: Some(q[0]),
        use_hold: true,
        height: Some(height),
        min_height: None,
        save_hold: None,
    };
    let outcome = solver
        .solve_with_abort(&req, ctl.abort_flag())
        .map_err(|e| Error::failed(e.to_string()))?;
    // A search stopped by the flag is no answer.
    ctl.check()?;
    match outcome {
        Outcome::Found(sol) => {
            trace::verify(&req, kicks, &sol).map_err(|e| {
                Error::failed(format!("{}: solution does not replay: {e}", queue_string(q)))
            })?;
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// Solves every canonical queue of the shard on the caller's rayon pool (in chunks of 8192),
/// reporting progress per chunk; the abort flag is checked per item.
pub fn sweep(req: &SweepRequest, ctl: Control) -> Result<SweepResponse, Error> {
    let window = match req.height {
        2 => 5,
        4 => 10,
        h => return Err(Error::input(format!("height: {h}, the sweep covers 2 or 4"))),
    };
    req.shard.check()?;
    let shard = req.shard;
    let kicks = load_kicks(&req.kicks, req.kick_table.as_deref())?;
    let total = total_items(window).div_ceil(shard.n);
    let start = Instant::now();
    let solvable = AtomicU64::new(0);
    let mut items = 0u64;
    let mut done = 0u64;
    let mut chunk: Vec<Vec<Piece>> = Vec::with_capacity(8192);
    let mut index = 0u64;
    let mut failure: Option<Error> = None;
    let (brute, height) = (req.brute, req.height);
    let mut flush = |chunk: &mut Vec<Vec<Piece>>, failure: &mut Option<Error>| {
        let r: Result<(), Error> = chunk.par_iter().try_for_each_init(
            || (Solver::new(&kicks), crate::movegen::MoveGen::new(&kicks)),
            |(solver, mg), q| {
                ctl.check()?;
                let ok = sweep_item(solver, &kicks, q, height, ctl)?;
                if brute && ok != crate::reference::brute_force_pc(mg, 0, height, q, true) {
                    return Err(Error::failed(format!(
                        "solver and brute force disagree on {}",
                        queue_string(q)
                    )));
                }
                if ok {
                    solvable.fetch_add(1, Ordering::Relaxed);
                }
                Ok(())
            },
        );
        if let Err(e) = r {
            failure.get_or_insert(e);
        }
        done += chunk.len() as u64;
        ctl.report(Progress::new(done, Some(total)));
        chunk.clear();
    };
    // An abort (or a failed item) stops the walk itself: the height-4 walk alone is 79.5 M
    // queues, about 3 s.
    for_each_canonical_until(window, |q| {
        if shard.deals(index) && failure.is_none() {
            chunk.push(q.to_vec());
            items += 1;
            if chunk.len() == chunk.capacity() {
                flush(&mut chunk, &mut failure);
            }
        }
        index += 1;
        failure.is_none() && !ctl.aborted()
    });
    flush(&mut chunk, &mut failure);
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(SweepResponse {
        height: req.height,
        kicks: kicks.name().to_string(),
        shard: shard.to_string(),
        items,
        solvable: solvable.load(Ordering::Relaxed),
        brute_checked: req.brute,
        seconds: start.elapsed().as_secs_f64(),
    })
}
