//! Game records and their replay.
//!
//! A record is JSON: the seed (optional), the moves as one string of letters `U D L R`, every
//! spawn as `[cell, tile]` (cell = 4 * row + col; the first two are the opening spawns, then
//! one per move), the final score, board and status. [`replay`] re-plays it through the
//! checked engine and stops at the first step that breaks a rule or disagrees with the seeded
//! spawn generator.
//!
//! Tiles past 32768: the final board's text holds any tile up to 131072, as the game does
//! (see [`crate::wide`]). Records written before games went past 32768 may end with status
//! `overflow` and an `overflow_move`, the move that would have merged two 32768 tiles and was
//! not applied; replay still checks them (the move must make a 65536 on the final board).

use serde::{Deserialize, Serialize};

use crate::board::{Dir, MoveError};
use crate::game::{draw_spawn, Status};
use crate::wide::Wide;

/// A game record; see the [module docs](self).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GameRecord {
    /// Always `"2048"`.
    pub game: String,
    /// The seed of the spawn generator; when present, replay checks every spawn against it.
    pub seed: Option<u64>,
    /// The moves, one letter each.
    pub moves: String,
    /// Every spawn as `[cell, tile value]`, the two opening spawns first.
    pub spawns: Vec<[u32; 2]>,
    /// Only in records from before games went past 32768: the move that would have merged
    /// two 32768 tiles, where the game ended with status `overflow`. New records leave it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overflow_move: Option<String>,
    /// The final score.
    pub score: u64,
    /// The final board in the one-line text form.
    pub final_board: String,
    /// How the game ended.
    pub status: Status,
}

/// What a successful replay found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplaySummary {
    /// Moves replayed.
    pub moves: u64,
    /// The final score.
    pub score: u64,
    /// The final board.
    pub board: Wide,
    /// The largest tile.
    pub max_tile: u32,
}

/// The first step of a record that does not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The step: 0 for the opening, `n` for move `n` (1-based).
    pub step: u64,
    /// What went wrong.
    pub message: String,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "step {}: {}", self.step, self.message)
    }
}

impl std::error::Error for ReplayError {}

fn apply_spawn(
    board: Wide,
    spawn: Option<&[u32; 2]>,
    rng: &mut Option<bits::Rng>,
    step: u64,
) -> Result<Wide, ReplayError> {
    let err = |message: String| ReplayError { step, message };
    let &[cell, tile] = spawn.ok_or_else(|| err("the record has no spawn here".into()))?;
    if cell >= 16 {
        return Err(err(format!("spawn cell {cell} is not a cell (0..16)")));
    }
    let rank = match tile {
        2 => 1,
        4 => 2,
        _ => return Err(err(format!("spawned tile {tile} is not 2 or 4"))),
    };
    if board.rank(cell as usize) != 0 {
        return Err(err(format!("spawn on cell {cell}, which is not empty in {board}")));
    }
    if let Some(rng) = rng {
        let want =
            draw_spawn(board.view(), rng).ok_or_else(|| err("no empty cell to spawn on".into()))?;
        if want.cell != cell as usize || want.rank != rank {
            return Err(err(format!(
                "spawn [{cell}, {tile}] differs from the seeded generator's [{}, {}]",
                want.cell,
                1u32 << want.rank
            )));
        }
    }
    Ok(board.with(cell as usize, rank))
}

/// Replays a record through the checked engine; see the [module docs](self).
pub fn replay(rec: &GameRecord) -> Result<ReplaySummary, ReplayError> {
    let at = |step: u64, message: String| ReplayError { step, message };
    if rec.game != "2048" {
        return Err(at(0, format!("game is {:?}, not \"2048\"", rec.game)));
    }
    let mut rng = rec.seed.map(bits::Rng::new);
    let mut board = Wide::EMPTY;
    let mut spawns = rec.spawns.iter();
    for _ in 0..2 {
        board = apply_spawn(board, spawns.next(), &mut rng, 0)?;
    }
    let mut score = 0u64;
    let mut n = 0u64;
    for (i, ch) in rec.moves.chars().enumerate() {
        let step = i as u64 + 1;
        let dir = Dir::from_letter(ch)
            .ok_or_else(|| at(step, format!("{ch:?} is not a move (U, D, L, R)")))?;
        let m = board
            .play(dir)
            .ok_or_else(|| at(step, format!("move {dir} on {board}: {}", MoveError::Illegal)))?;
        score += m.score;
        board = apply_spawn(m.board, spawns.next(), &mut rng, step)?;
        n = step;
    }
    let end = n + 1;
    if spawns.next().is_some() {
        return Err(at(end, "the record has more spawns than moves".into()));
    }
    match (&rec.overflow_move, rec.status) {
        (Some(m), Status::Overflow) => {
            let dir = m
                .chars()
                .next()
                .and_then(Dir::from_letter)
                .filter(|_| m.len() == 1)
                .ok_or_else(|| at(end, format!("overflow move {m:?} is not a move")))?;
            let makes_65536 =
                board.max_rank() < 16 && board.play(dir).is_some_and(|m| m.board.max_rank() == 16);
            if !makes_65536 {
                return Err(at(end, format!("move {dir} on {board} does not create a 65536")));
            }
        }
        (Some(_), s) => {
            return Err(at(end, format!("an overflow move is recorded but the status is {s:?}")))
        }
        (None, Status::Overflow) => {
            return Err(at(end, "status overflow without an overflow move".into()))
        }
        (None, Status::Over) => {
            if board.can_move() {
                return Err(at(end, format!("status over, but {board} still has a move")));
            }
        }
        (None, Status::Playing | Status::MoveLimit) => {}
    }
    if rec.score != score {
        return Err(at(end, format!("recorded score {} but the moves score {score}", rec.score)));
    }
    let recorded: Wide = rec
        .final_board
        .parse()
        .map_err(|e| at(end, format!("final board {:?}: {e}", rec.final_board)))?;
    if recorded != board {
        return Err(at(end, format!("recorded final board {recorded} but replay gives {board}")));
    }
    Ok(ReplaySummary { moves: n, score, board, max_tile: 1u32 << board.max_rank() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{play_game, RandomPlayer};

    #[test]
    fn records_replay_and_tampering_is_caught() {
        let g = play_game(5, &mut RandomPlayer::new(6), u64::MAX);
        let rec = g.record();
        let s = replay(&rec).unwrap();
        assert_eq!(s.score, g.score());
        assert_eq!(s.board, g.tiles());

        let json = serde_json::to_string(&rec).unwrap();
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(back, rec);

        let mut bad = rec.clone();
        bad.moves.replace_range(3..4, "X");
        assert_eq!(replay(&bad).unwrap_err().step, 4);

        let mut bad = rec.clone();
        bad.spawns[10][1] = if bad.spawns[10][1] == 2 { 4 } else { 2 };
        assert_eq!(replay(&bad).unwrap_err().step, 9);
        // Without the seed the changed tile is legal, but the score or final board then differ
        // only if it matters; the spawn check is what catches it.
        let mut bad = rec.clone();
        bad.score += 4;
        assert!(replay(&bad).is_err());
        let mut bad = rec.clone();
        bad.status = Status::Playing;
        assert!(replay(&bad).is_ok());
        bad.moves.push('U');
        assert!(replay(&bad).is_err());
    }
}
