//! `pc` (one perfect clear, verified, with key inputs and fumen) and `replay` (check a record).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{load_kicks, one_piece, read_board, Control, Error};
use crate::inputs::{self, keys_string, Key};
use crate::piece::{parse_queue, queue_string};
use crate::solver::{Outcome, PcRequest, Solution, Solver, Step};
use crate::{fumen_io, trace, Board, KickTable, Piece};

/// A perfect-clear request (`bitarcade tetris pc`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct PcSolveRequest {
    /// The queue, current piece first (letters I O T S Z J L).
    pub queue: String,
    /// The piece already in hold.
    pub hold: Option<String>,
    /// Whether hold may be used (`--no-hold` clears it).
    pub use_hold: bool,
    /// Starting field as a text file (rows top first, '.' empty, 10 per row; errors name the
    /// file); wins over `fumen`.
    pub field: Option<bits::job::InputFile>,
    /// Starting field as a fumen string (`v115@...`), when `field` is absent.
    pub fumen: Option<String>,
    /// Kick table: `none`, `srs`, `srs+`, `srs-tetrio`, or the name of the file whose text is
    /// `kick_table`.
    pub kicks: String,
    /// The text of a kick table file (see the crate's kicks docs), when `kicks` names a file.
    pub kick_table: Option<String>,
    /// Only this PC height (lines); default: the smallest feasible.
    pub height: Option<u32>,
    /// Only PC heights of at least this many lines (the smallest feasible of them first).
    pub min_height: Option<u32>,
    /// The piece that must be left in hold after the PC.
    pub save_hold: Option<String>,
    /// Give up after this many search nodes (`None`: no limit).
    pub node_limit: Option<u64>,
}

impl Default for PcSolveRequest {
    fn default() -> Self {
        PcSolveRequest {
            queue: String::new(),
            hold: None,
            use_hold: true,
            field: None,
            fumen: None,
            kicks: "srs+".into(),
            kick_table: None,
            height: None,
            min_height: None,
            save_hold: None,
            node_limit: None,
        }
    }
}

/// One placement of a solution, as printed and recorded.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct StepOut {
    /// The piece letter.
    pub piece: String,
    /// Its facing (N, E, S, W: the lowest facing with these cells).
    pub facing: String,
    /// Its cells `[x, y]`, x from the left, y from the bottom, in the field as it stands when
    /// the piece is placed.
    pub cells: Vec<[u8; 2]>,
    /// Whether the piece comes out of hold (hold is pressed first).
    pub hold: bool,
    /// Keys from spawn (`L R D SD CW CCW 180 HD`), after the hold press if `hold`; absent when
    /// the kick table cannot turn the piece into this facing from spawn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keys: Option<String>,
}

/// A solution record (`pc --record`): the request, the kick table and the placements.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PcRecord {
    /// The starting field in text form.
    pub field: String,
    /// The queue.
    pub queue: String,
    /// The piece in hold at the start.
    pub hold: Option<String>,
    /// Whether hold was allowed.
    pub use_hold: bool,
    /// The piece that had to be left in hold.
    pub save_hold: Option<String>,
    /// The kick table's name.
    pub kicks: String,
    /// The kick table in full (text form), so the record replays without the named table.
    pub kick_table: String,
    /// The PC height.
    pub height: u32,
    /// The placements.
    pub steps: Vec<StepOut>,
}

/// What `pc --json` prints.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PcReport {
    /// Whether a perfect clear was found.
    pub found: bool,
    /// Whether the node limit stopped the search first.
    pub aborted: bool,
    /// The PC height found.
    pub height: Option<u32>,
    /// The kick table's name.
    pub kicks: String,
    /// The placements (empty without a PC).
    pub steps: Vec<StepOut>,
    /// The solution as a fumen string (`v115@...`).
    pub fumen: Option<String>,
    /// Whether the solution was replayed by the independent verifier.
    pub verified: bool,
    /// Search nodes.
    pub nodes: u64,
    /// Peak working memory of the solver, in bytes.
    pub memory_bytes: usize,
    /// Wall time of the search, in milliseconds (the one value that varies run to run).
    pub millis: f64,
}

/// The answer to a [`PcSolveRequest`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PcSolveResponse {
    /// The result, as `pc --json` prints it.
    pub report: PcReport,
    /// The solution record (`pc --record`), when a PC was found.
    pub record: Option<PcRecord>,
}

pub(super) fn steps_out(sol: &Solution, holds: &[bool], keys: &[Option<Vec<Key>>]) -> Vec<StepOut> {
    sol.steps
        .iter()
        .zip(holds)
        .enumerate()
        .map(|(i, (s, &h))| StepOut {
            piece: s.piece.to_string(),
            facing: s.facing.to_string(),
            cells: s.cells.iter().map(|&(x, y)| [x, y]).collect(),
            hold: h,
            keys: keys.get(i).and_then(|k| k.as_deref()).map(keys_string),
        })
        .collect()
}

/// Finds a perfect clear (first solution, smallest feasible height), verifies it and works out
/// its key inputs and fumen. The abort flag stops the search within about a thousand nodes
/// (`Err(Error::Aborted)`); a node limit that runs out is not an error (`report.aborted`).
pub fn pc(req: &PcSolveRequest, ctl: Control) -> Result<PcSolveResponse, Error> {
    let kicks = load_kicks(&req.kicks, req.kick_table.as_deref())?;
    let queue = parse_queue(&req.queue).map_err(|e| Error::input(format!("queue: {e}")))?;
    if queue.is_empty() {
        return Err(Error::input("queue: must hold at least one piece"));
    }
    let hold = req.hold.as_deref().map(|s| one_piece("hold", s)).transpose()?;
    let save_hold = req.save_hold.as_deref().map(|s| one_piece("save_hold", s)).transpose()?;
    let board = read_board(req.field.as_ref(), req.fumen.as_deref())?;
    let preq = PcRequest {
        board,
        queue,
        hold,
        use_hold: req.use_hold,
        height: req.height,
        min_height: req.min_height,
        save_hold,
    };
    solve(&kicks, &preq, req.node_limit, ctl.abort_flag(), ctl).map(|(out, _)| out)
}

/// `pc`'s answer, with the solution found and its hold presses.
pub(super) type Solved = (PcSolveResponse, Option<(Solution, Vec<bool>)>);

/// What [`pc`] does once the request is read: solve `preq` (stopping after `node_limit` nodes,
/// or soon after `abort` is set), verify the solution and work out its key inputs and fumen.
/// A stop by `abort` is `Err(Error::Aborted)` when `ctl` is aborted and a node limit outcome
/// otherwise. Also returns the solution and its hold presses.
pub(super) fn solve(
    kicks: &KickTable,
    preq: &PcRequest,
    node_limit: Option<u64>,
    abort: Option<&AtomicBool>,
    ctl: Control,
) -> Result<Solved, Error> {
    let mut solver = Solver::new(kicks);
    if let Some(n) = node_limit {
        solver.set_node_limit(n);
    }
    let start = Instant::now();
    let outcome = solver.solve_with_abort(preq, abort).map_err(|e| Error::input(e.to_string()))?;
    let millis = start.elapsed().as_secs_f64() * 1e3;
    if matches!(outcome, Outcome::Aborted) {
        ctl.check()?;
    }
    let stats = solver.stats();
    let mut report = PcReport {
        found: false,
        aborted: matches!(outcome, Outcome::Aborted),
        height: None,
        kicks: kicks.name().to_string(),
        steps: Vec::new(),
        fumen: None,
        verified: false,
        nodes: stats.nodes,
        memory_bytes: stats.memory_bytes,
        millis,
    };
    let mut record = None;
    let mut found = None;
    if let Outcome::Found(sol) = outcome {
        let holds = trace::verify(preq, kicks, &sol)
            .map_err(|e| Error::failed(format!("the solution does not replay: {e}")))?;
        report.found = true;
        report.verified = true;
        report.height = Some(sol.height);
        let keys = inputs::solution_keys(&preq.board, kicks, &sol.steps)
            .map_err(|e| Error::failed(format!("key inputs: {e}")))?;
        report.steps = steps_out(&sol, &holds, &keys);
        report.fumen =
            Some(fumen_io::encode_solution(&preq.board, &sol.steps).map_err(Error::failed)?);
        record = Some(PcRecord {
            field: preq.board.to_string(),
            queue: queue_string(&preq.queue),
            hold: preq.hold.map(|p| p.to_string()),
            use_hold: preq.use_hold,
            save_hold: preq.save_hold.map(|p| p.to_string()),
            kicks: kicks.name().to_string(),
            kick_table: kicks.to_text(),
            height: sol.height,
            steps: report.steps.clone(),
        });
        found = Some((sol, holds));
    }
    Ok((PcSolveResponse { report, record }, found))
}

/// A record to check (`bitarcade tetris replay`): the file holding it (one record as `pc`
/// writes it), as every game's replay takes it.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ReplayRequest {
    /// The record's file (its name is how messages name it).
    pub file: bits::job::InputFile,
}

/// The answer to a [`ReplayRequest`] (fields in the order `replay --json` prints them).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReplayResponse {
    /// The PC height.
    pub height: u32,
    /// Always `true` (a bad record is an error).
    pub ok: bool,
    /// Placements replayed.
    pub steps: usize,
}

/// Replays a solution record through the independent verifier, and its recorded keys, if any,
/// from spawn; fails at the first bad step.
pub fn replay(req: &ReplayRequest, _ctl: Control) -> Result<ReplayResponse, Error> {
    let record: PcRecord = bits::live::one_record(&req.file)?;
    replay_record(&record, &req.file.name, true)
}

/// [`replay`], or with `complete` false the replay of a game in progress: every step is
/// checked, but not that the field ends empty nor the piece left in hold.
pub(super) fn replay_record(
    rec: &PcRecord,
    file: &str,
    complete: bool,
) -> Result<ReplayResponse, Error> {
    let bad = |m: String| Error::input(format!("{file}: {m}"));
    let board: Board = rec.field.parse().map_err(|e| bad(format!("field: {e}")))?;
    let queue = parse_queue(&rec.queue).map_err(|e| bad(format!("queue: {e}")))?;
    let piece = |s: &Option<String>, what: &str| -> Result<Option<Piece>, Error> {
        s.as_deref()
            .map(|s| match parse_queue(s).as_deref() {
                Ok([p]) => Ok(*p),
                _ => Err(bad(format!("{what}: one piece letter (I O T S Z J L), got {s:?}"))),
            })
            .transpose()
    };
    let hold = piece(&rec.hold, "hold")?;
    let save_hold = piece(&rec.save_hold, "save_hold")?;
    let kicks = KickTable::parse(&rec.kick_table).map_err(|e| bad(format!("kick_table {e}")))?;
    let mut steps = Vec::with_capacity(rec.steps.len());
    for (i, s) in rec.steps.iter().enumerate() {
        let p = piece(&Some(s.piece.clone()), &format!("step {}", i + 1))?.unwrap_or(Piece::I);
        let cells: [(u8, u8); 4] = match s.cells.as_slice() {
            [a, b, c, d] => [(a[0], a[1]), (b[0], b[1]), (c[0], c[1]), (d[0], d[1])],
            _ => return Err(bad(format!("step {}: a placement has 4 cells", i + 1))),
        };
        if cells.iter().any(|&(x, y)| x >= 10 || y >= 40) {
            return Err(bad(format!("step {}: a cell lies outside the field", i + 1)));
        }
        let mut sorted = cells;
        sorted.sort_unstable();
        let facing = trace::shape_facing(p, &sorted)
            .ok_or_else(|| Error::failed(format!("step {}: the cells are not a {p}", i + 1)))?;
        steps.push(Step { piece: p, facing, cells: sorted });
    }
    let preq = PcRequest {
        board,
        queue,
        hold,
        use_hold: rec.use_hold,
        height: Some(rec.height),
        min_height: None,
        save_hold,
    };
    let sol = Solution { height: rec.height, steps };
    let holds = if complete {
        trace::verify(&preq, &kicks, &sol)
    } else {
        trace::verify_steps(&preq, &kicks, &sol).map(|(holds, _)| holds)
    };
    let holds = holds.map_err(|e| Error::failed(format!("{file}: {e}")))?;
    // Recorded keys, if any, must take each piece from spawn to its cells.
    let mut field = preq.board;
    for (i, (s, out)) in sol.steps.iter().zip(&rec.steps).enumerate() {
        if let Some(text) = &out.keys {
            let keys: Option<Vec<Key>> = text.split_whitespace().map(Key::from_token).collect();
            let keys = keys.ok_or_else(|| bad(format!("step {}: bad keys {text:?}", i + 1)))?;
            let end = inputs::replay(&field, s.piece, &kicks, &keys)
                .map_err(|e| Error::failed(format!("{file}: step {}: keys: {e}", i + 1)))?;
            if end.map(|(x, y)| (x as u8, y as u8)) != s.cells {
                return Err(Error::failed(format!(
                    "{file}: step {}: the keys {text:?} do not end at the recorded cells",
                    i + 1
                )));
            }
        }
        for &(x, y) in &s.cells {
            field.set(usize::from(x), usize::from(y));
        }
        field.clear_lines();
    }
    let mismatch = holds.iter().zip(&rec.steps).position(|(&h, s)| h != s.hold);
    if let Some(i) = mismatch {
        return Err(Error::failed(format!(
            "{file}: step {}: the record says hold={} but the queue needs hold={}",
            i + 1,
            rec.steps[i].hold,
            holds[i]
        )));
    }
    Ok(ReplayResponse { height: rec.height, ok: true, steps: sol.steps.len() })
}
