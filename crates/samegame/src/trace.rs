//! Solutions, their independent verification, and game records.
//!
//! # Record format (JSON, `bitarcade samegame solve --record FILE`)
//! ```json
//! {
//!   "game": "samegame", "version": 1,
//!   "board": "rows top first, digits 0-7, '.' empty, one row per line\n...",
//!   "rules": { "points": "(n-2)^2", "clear_bonus": 1000, "min_group": 2 },
//!   "moves": [ { "x": 3, "y": 0, "removed": 5, "points": 9 }, ... ],
//!   "score": 1234, "tiles_left": 0, "cleared": true
//! }
//! ```
//! Coordinates: `x` is the column from the left, `y` the row from the bottom, both 0-based,
//! naming any tile of the clicked group in the board as it stands before that move. There is
//! no random draw in SameGame, so the board and the moves are the whole game. [`replay`]
//! checks every move with the checked [`play`] (a column-by-column group grower
//! independent of the run-linking search engine), then every recorded count and the totals.

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::groups::{play, Groups, PlayError};
use crate::rules::{Points, Rules};

/// A click: column from the left, row from the bottom.
pub type Move = (u8, u8);

/// What replaying a move list established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// Total points, clear bonus included.
    pub score: i64,
    /// Tiles left at the end.
    pub tiles_left: u32,
    /// Whether the board ended empty.
    pub cleared: bool,
    /// Whether no removable group is left at the end.
    pub game_over: bool,
    /// Tiles removed and points scored by each move.
    pub steps: Vec<(u32, i64)>,
    /// The final board.
    pub last: Board,
}

/// Replays `moves` from `board` through the checked engine. Fails at the first illegal move
/// with its index.
pub fn verify(
    board: &Board,
    moves: &[Move],
    rules: &Rules,
) -> Result<Verified, (usize, PlayError)> {
    let mut b = board.clone();
    let mut score = 0;
    let mut steps = Vec::with_capacity(moves.len());
    for (i, &(x, y)) in moves.iter().enumerate() {
        let (n, p) = play(&mut b, x.into(), y.into(), rules).map_err(|e| (i, e))?;
        score += p;
        steps.push((n, p));
    }
    let game_over = Groups::new().find(&b, rules.min_group).is_empty();
    Ok(Verified { score, tiles_left: b.tiles(), cleared: b.is_clear(), game_over, steps, last: b })
}

/// The rules as written in a record.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct RulesRecord {
    /// `(n-2)^2`, `(n-1)^2` or `n(n-1)`.
    pub points: String,
    /// Bonus for an empty board (-1,000,000,000 to 1,000,000,000).
    #[schemars(range(min = -1_000_000_000, max = 1_000_000_000))]
    pub clear_bonus: i64,
    /// Smallest removable group.
    pub min_group: u32,
}

impl From<&Rules> for RulesRecord {
    fn from(r: &Rules) -> Self {
        RulesRecord {
            points: r.points.to_string(),
            clear_bonus: r.clear_bonus,
            min_group: r.min_group,
        }
    }
}

impl TryFrom<&RulesRecord> for Rules {
    type Error = String;
    fn try_from(r: &RulesRecord) -> Result<Rules, String> {
        if r.min_group < 2 {
            return Err(format!("min_group {} is below 2", r.min_group));
        }
        if !crate::rules::CLEAR_BONUS.contains(&r.clear_bonus) {
            let (lo, hi) = (crate::rules::CLEAR_BONUS.start(), crate::rules::CLEAR_BONUS.end());
            return Err(format!("clear_bonus {} is outside {lo} to {hi}", r.clear_bonus));
        }
        Ok(Rules {
            points: r.points.parse::<Points>()?,
            clear_bonus: r.clear_bonus,
            min_group: r.min_group,
        })
    }
}

/// One recorded move.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct MoveRecord {
    /// Column from the left.
    pub x: u8,
    /// Row from the bottom.
    pub y: u8,
    /// Tiles removed.
    pub removed: u32,
    /// Points scored (clear bonus included on the last move of a clear).
    pub points: i64,
}

/// A whole game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct Record {
    /// Always `"samegame"`.
    pub game: String,
    /// Format version, 1.
    pub version: u32,
    /// The starting board in the text form.
    pub board: String,
    /// The rules.
    pub rules: RulesRecord,
    /// The moves.
    pub moves: Vec<MoveRecord>,
    /// Total points.
    pub score: i64,
    /// Tiles left at the end.
    pub tiles_left: u32,
    /// Whether the board was emptied.
    pub cleared: bool,
}

impl Record {
    /// The record of a verified game.
    pub fn new(board: &Board, rules: &Rules, moves: &[Move], v: &Verified) -> Record {
        Record {
            game: "samegame".into(),
            version: 1,
            board: board.to_string(),
            rules: rules.into(),
            moves: moves
                .iter()
                .zip(&v.steps)
                .map(|(&(x, y), &(removed, points))| MoveRecord { x, y, removed, points })
                .collect(),
            score: v.score,
            tiles_left: v.tiles_left,
            cleared: v.cleared,
        }
    }
}

/// Checks a record: the board parses, every move is legal and removes and scores what the
/// record says, and the totals match. The error names the first bad step.
pub fn replay(rec: &Record) -> Result<Verified, String> {
    if rec.game != "samegame" {
        return Err(format!("record is for game {:?}, not samegame", rec.game));
    }
    if rec.version != 1 {
        return Err(format!("record version {} is not supported (1 is)", rec.version));
    }
    let board: Board = rec.board.parse().map_err(|e| format!("board: {e}"))?;
    let rules = Rules::try_from(&rec.rules).map_err(|e| format!("rules: {e}"))?;
    let moves: Vec<Move> = rec.moves.iter().map(|m| (m.x, m.y)).collect();
    let v = verify(&board, &moves, &rules).map_err(|(i, e)| format!("move {}: {e}", i + 1))?;
    for (i, (m, &(n, p))) in rec.moves.iter().zip(&v.steps).enumerate() {
        if m.removed != n || m.points != p {
            return Err(format!(
                "move {}: ({}, {}) removes {n} tiles for {p} points, the record says {} for {}",
                i + 1,
                m.x,
                m.y,
                m.removed,
                m.points
            ));
        }
    }
    if v.score != rec.score || v.tiles_left != rec.tiles_left || v.cleared != rec.cleared {
        return Err(format!(
            "totals: the game scores {} with {} tiles left, the record says {} with {}",
            v.score, v.tiles_left, rec.score, rec.tiles_left
        ));
    }
    Ok(v)
}
