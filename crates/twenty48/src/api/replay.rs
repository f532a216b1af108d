//! `replay`: check game records through the checked engine, and list the boards their moves
//! were chosen on.

use std::ops::RangeFrom;

use serde::{Deserialize, Serialize};

use super::{check_range, Control, Error};
use crate::{Dir, GameRecord};

/// Which boards of each record to list: move `i` of a record of `n` moves when
/// `i >= from * n` and `i % step == 0`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(default)]
pub struct BoardsSpec {
    /// The first move listed, as a fraction of the record's moves (0 = from the start).
    pub from: f64,
    /// List every `step`-th move (at least 1).
    pub step: u64,
}

impl Default for BoardsSpec {
    fn default() -> Self {
        BoardsSpec { from: 0.0, step: 1 }
    }
}

impl BoardsSpec {
    /// The range of `step`.
    pub const STEP: RangeFrom<u64> = 1..;
}

/// Records to check (`2048 replay`).
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct ReplayRequest {
    /// The records' file, as every game's replay takes it: one record or a list of them
    /// (its name is how messages name it).
    pub file: bits::job::InputFile,
    /// Also list the boards the moves were chosen on.
    pub boards: Option<BoardsSpec>,
}

/// A board a record's move was chosen on.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BoardLine {
    /// The record (0-based, in the request's order).
    pub record: usize,
    /// The move's index in its record (0-based).
    pub index: u64,
    /// The board before the move, in the text form `2048 best` reads.
    pub board: String,
    /// The move's letter.
    pub dir: String,
}

/// The outcome of [`replay`] (every record replayed).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReplayResponse {
    /// Records checked.
    pub records: usize,
    /// Moves replayed in all.
    pub moves: u64,
    /// Each record's final score.
    pub scores: Vec<u64>,
    /// Each record's largest tile.
    pub max_tiles: Vec<u32>,
    /// Always true (a record that does not replay is an error).
    pub ok: bool,
    /// The boards asked for, record by record.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub boards: Vec<BoardLine>,
    /// Whether the request asked for the boards (the text then lists them; not serialised).
    #[serde(skip)]
    pub listed: bool,
}

/// Replays every record: every move legal, every spawn legal and, with a seed, the seeded
/// generator's. The first record that breaks a rule fails the call, naming the file (and the
/// record, when there are several).
pub fn replay(req: &ReplayRequest, ctl: Control) -> Result<ReplayResponse, Error> {
    let recs: &Vec<GameRecord> = &bits::live::records(&req.file)?;
    let mut res = ReplayResponse {
        records: recs.len(),
        moves: 0,
        scores: vec![],
        max_tiles: vec![],
        ok: true,
        boards: vec![],
        listed: req.boards.is_some(),
    };
    if let Some(b) = req.boards {
        check_range("boards.step", b.step, BoardsSpec::STEP)?;
    }
    for (i, rec) in recs.iter().enumerate() {
        ctl.check()?;
        let s = crate::replay(rec).map_err(|e| {
            let which = if recs.len() > 1 { format!(" record {i}") } else { String::new() };
            Error::failed(format!("{}{which}: {e}", req.file.name))
        })?;
        res.moves += s.moves;
        res.scores.push(s.score);
        res.max_tiles.push(s.max_tile);
        if let Some(spec) = req.boards {
            res.boards.extend(boards_of(i, rec, spec));
        }
    }
    Ok(res)
}

/// The boards of a record that replays (see [`BoardsSpec`]).
fn boards_of(record: usize, rec: &GameRecord, spec: BoardsSpec) -> Vec<BoardLine> {
    let cell = |k: usize| {
        let [c, t] = rec.spawns[k];
        (c as usize, if t == 2 { 1 } else { 2 })
    };
    let mut board = crate::Wide::EMPTY;
    for k in 0..2.min(rec.spawns.len()) {
        let (c, r) = cell(k);
        board = board.with(c, r);
    }
    let n = rec.moves.chars().count() as f64;
    let mut out = Vec::new();
    for (i, letter) in rec.moves.chars().enumerate() {
        let Some(dir) = Dir::ALL.into_iter().find(|d| d.letter() == letter) else { break };
        if i as f64 >= spec.from * n && i as u64 % spec.step == 0 {
            out.push(BoardLine {
                record,
                index: i as u64,
                board: board.to_string(),
                dir: letter.to_string(),
            });
        }
        let Some(m) = board.play(dir) else { break };
        board = m.board;
        if i + 2 < rec.spawns.len() {
            let (c, r) = cell(i + 2);
            board = board.with(c, r);
        }
    }
    out
}
