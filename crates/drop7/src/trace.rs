//! Game records and their replay.
//!
//! A [`GameRecord`] lists the rules, the start position and, for every turn, the disc
//! dropped, the column (1-7), the values revealed (in the engine's documented order), the
//! waves, the score and the position after the turn (text form, which carries the next disc
//! dealt). [`verify`] replays it through the engine's checked `play` using only the
//! recorded draws, so anyone can check a game without our generator.

use serde::{Deserialize, Serialize};

use crate::board::{Disc, Position};
use crate::engine::{ListDraws, Rules, Turn};

/// One turn of a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TurnRecord {
    /// The disc dropped: `1`-`7` or `#`.
    pub disc: String,
    /// The column, 1-7.
    pub column: u8,
    /// Values revealed this turn, in draw order.
    pub reveals: Vec<u8>,
    /// Waves resolved.
    pub waves: u32,
    /// Score after the turn.
    pub score: u64,
    /// The position after the turn (its `next=` is the disc dealt).
    pub position: String,
}

/// A whole game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GameRecord {
    /// The rules played.
    pub rules: Rules,
    /// The seed of the stream, if it came from one (informational: replay does not use it).
    pub seed: Option<u64>,
    /// The search depth, if a searcher played at a fixed depth.
    pub depth: Option<u32>,
    /// The depth rule, if a searcher played under a work budget (absent otherwise, so
    /// fixed-depth records are unchanged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<crate::search::DepthRule>,
    /// The start position.
    pub start: String,
    /// Every turn.
    pub turns: Vec<TurnRecord>,
    /// The final score.
    pub final_score: u64,
}

impl GameRecord {
    /// An empty record starting at `start`.
    pub fn new(rules: Rules, seed: Option<u64>, depth: Option<u32>, start: &Position) -> Self {
        GameRecord {
            rules,
            seed,
            depth,
            rule: None,
            start: start.to_string(),
            turns: Vec::new(),
            final_score: start.score,
        }
    }

    /// Appends a turn.
    pub fn push(
        &mut self,
        before: &Position,
        column: usize,
        turn: &Turn,
        reveals: Vec<u8>,
        after: &Position,
    ) {
        self.turns.push(TurnRecord {
            disc: before.next.to_string(),
            column: column as u8 + 1,
            reveals,
            waves: turn.waves,
            score: after.score,
            position: after.to_string(),
        });
        self.final_score = after.score;
    }
}

/// Why a record does not replay: the turn (1-based, 0 for the start) and what broke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The turn number (1-based; 0 is the start position).
    pub turn: usize,
    /// What broke.
    pub what: String,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "turn {}: {}", self.turn, self.what)
    }
}

impl std::error::Error for ReplayError {}

/// Replays `record` with the engine's checked `play`, checking every recorded field.
/// Returns the final position.
pub fn verify(record: &GameRecord) -> Result<Position, ReplayError> {
    let err = |turn: usize, what: String| ReplayError { turn, what };
    let mut pos: Position =
        record.start.parse().map_err(|e| err(0, format!("start position: {e}")))?;
    for (i, t) in record.turns.iter().enumerate() {
        let n = i + 1;
        let after: Position = t.position.parse().map_err(|e| err(n, format!("position: {e}")))?;
        if pos.next.to_string() != t.disc {
            return Err(err(n, format!("disc {:?} but the next disc is {}", t.disc, pos.next)));
        }
        if t.column == 0 {
            return Err(err(n, "column 0 (columns are 1-7)".into()));
        }
        let discs: Vec<Disc> = if after.over { Vec::new() } else { vec![after.next] };
        let mut draws = ListDraws { discs, reveals: t.reveals.clone(), ..Default::default() };
        let turn = pos
            .play(&record.rules, usize::from(t.column) - 1, &mut draws)
            .map_err(|e| err(n, format!("illegal move: {e}")))?;
        if draws.exhausted
            || draws.reveal_pos != t.reveals.len()
            || draws.disc_pos != draws.discs.len()
        {
            return Err(err(
                n,
                format!(
                    "{} reveals recorded but the turn drew {}",
                    t.reveals.len(),
                    draws.reveal_pos
                ),
            ));
        }
        if turn.waves != t.waves {
            return Err(err(
                n,
                format!("{} waves recorded, the engine resolved {}", t.waves, turn.waves),
            ));
        }
        if pos.score != t.score {
            return Err(err(
                n,
                format!("score {} recorded, the engine has {}", t.score, pos.score),
            ));
        }
        if pos != after {
            return Err(err(
                n,
                format!("position {:?} recorded, the engine has {:?}", t.position, pos.to_string()),
            ));
        }
    }
    if pos.score != record.final_score {
        return Err(err(
            record.turns.len(),
            format!("final score {} recorded, replay gives {}", record.final_score, pos.score),
        ));
    }
    Ok(pos)
}
