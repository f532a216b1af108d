//! A game as a page or a notebook holds it: the seed and the moves so far, replayed into the
//! position they reach (`position`), and the whole game played by the expectimax with every
//! move reported as it is made (see [`super::play`] with [`Control::with_steps`]).

use serde::{Deserialize, Serialize};

use super::{Control, Error};
use crate::board::{Board, Dir, MoveError};
use crate::game::{Game, Status};
use crate::trace::GameRecord;

/// The longest move list [`position`] replays (a game of 2048 that reaches 65536 is about
/// 30,000 moves).
pub const MAX_MOVES: usize = 200_000;

/// The game that `2048 play --seed SEED --games 1` plays, after `moves`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct PositionRequest {
    /// The batch seed, as the CLI's `--seed` (game 0 of that batch).
    pub seed: u64,
    /// The moves played, one letter each (`U`, `D`, `L`, `R`, either case).
    pub moves: String,
    /// Also return the position after every move (for a timeline).
    pub snapshots: bool,
}

impl Default for PositionRequest {
    fn default() -> Self {
        PositionRequest { seed: 1, moves: String::new(), snapshots: false }
    }
}

/// One position of a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The board in the text form (rows separated by `/`).
    pub board: String,
    /// The tiles, row by row (0 for an empty cell).
    pub tiles: Vec<u32>,
    /// The score.
    pub score: u64,
}

impl Snapshot {
    fn of(board: Board, score: u64) -> Snapshot {
        Snapshot {
            board: board.to_string(),
            tiles: (0..16)
                .map(|c| match board.rank(c) {
                    0 => 0,
                    r => 1u32 << r,
                })
                .collect(),
            score,
        }
    }
}

/// The outcome of [`position`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PositionResponse {
    /// The seed of the request.
    pub seed: u64,
    /// The moves, upper case.
    pub moves: String,
    /// The position reached.
    pub now: Snapshot,
    /// How the game stands.
    pub status: Status,
    /// The legal moves now, in the order `U`, `D`, `L`, `R` (empty once the game is over).
    pub legal: Vec<String>,
    /// With `snapshots`: the start and the position after every move.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub snapshots: Vec<Snapshot>,
    /// The game's record, which `2048 replay` accepts.
    pub record: GameRecord,
}

/// The spawn seed of game 0 of the batch with seed `seed` (what `play --seed` uses).
pub fn game_seed(seed: u64) -> u64 {
    bits::rng::sub_seed(seed, 0)
}

/// Replays `moves` from the game of `seed`; a bad letter or an illegal move is an input error
/// naming the move.
pub fn position(req: &PositionRequest, ctl: Control) -> Result<PositionResponse, Error> {
    if req.moves.len() > MAX_MOVES {
        return Err(Error::input(format!("moves: {} moves, at most {MAX_MOVES}", req.moves.len())));
    }
    let mut g = Game::new(game_seed(req.seed));
    let mut snapshots = Vec::new();
    if req.snapshots {
        snapshots.push(Snapshot::of(g.board(), g.score()));
    }
    for (i, ch) in req.moves.chars().enumerate() {
        if i % 4096 == 4095 {
            ctl.check()?;
        }
        let dir = Dir::from_letter(ch).ok_or_else(|| {
            Error::input(format!("moves: {ch:?} (move {}) is not one of U, D, L, R", i + 1))
        })?;
        if g.status() != Status::Playing {
            return Err(Error::input(format!("moves: move {} comes after the game ended", i + 1)));
        }
        let before = g.board();
        match g.play(dir) {
            Ok(()) | Err(MoveError::Overflow) => {}
            Err(_) => {
                return Err(Error::input(format!(
                    "moves: {} (move {}) does not change the board {before}",
                    dir.letter(),
                    i + 1
                )))
            }
        }
        if req.snapshots {
            snapshots.push(Snapshot::of(g.board(), g.score()));
        }
    }
    let board = g.board();
    let legal = if g.status() == Status::Playing {
        Dir::ALL
            .iter()
            .filter(|&&d| board.play(d) != Err(MoveError::Illegal))
            .map(|d| d.letter().to_string())
            .collect()
    } else {
        Vec::new()
    };
    Ok(PositionResponse {
        seed: req.seed,
        moves: req.moves.to_ascii_uppercase(),
        now: Snapshot::of(board, g.score()),
        status: g.status(),
        legal,
        snapshots,
        record: g.record(),
    })
}

/// A record to watch: checked by the independent replay, then every position of it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FramesRequest {
    /// The record (as `play --record` writes it).
    pub record: GameRecord,
}

/// The outcome of [`frames`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FramesResponse {
    /// The start and the position after every move.
    pub frames: Vec<Snapshot>,
    /// The moves, one letter each (move `i` leads from frame `i` to frame `i + 1`).
    pub moves: String,
    /// The final score.
    pub score: u64,
}

/// Every position of a record, after [`crate::replay`] has accepted it (a record that does
/// not replay is an input error naming the step).
pub fn frames(req: &FramesRequest, ctl: Control) -> Result<FramesResponse, Error> {
    let rec = &req.record;
    if rec.moves.len() > MAX_MOVES {
        return Err(Error::input(format!(
            "record: {} moves, at most {MAX_MOVES}",
            rec.moves.len()
        )));
    }
    let summary = crate::replay(rec).map_err(|e| Error::input(format!("record: {e}")))?;
    let spawn = |b: Board, s: Option<&[u32; 2]>| match s {
        Some(&[cell, value]) => b.with(cell as usize, value.trailing_zeros() as u8),
        None => b,
    };
    let mut spawns = rec.spawns.iter();
    let mut board = spawn(spawn(Board::EMPTY, spawns.next()), spawns.next());
    let mut score = 0;
    let mut out = vec![Snapshot::of(board, 0)];
    for (i, ch) in rec.moves.chars().enumerate() {
        if i % 4096 == 4095 {
            ctl.check()?;
        }
        // The replay above accepted every move.
        let dir = Dir::from_letter(ch).ok_or_else(|| Error::failed("record move"))?;
        let m = board.play(dir).map_err(|e| Error::failed(format!("record move: {e}")))?;
        score += u64::from(m.score);
        board = spawn(m.board, spawns.next());
        out.push(Snapshot::of(board, score));
    }
    if board != summary.board || score != summary.score {
        return Err(Error::failed("record frames differ from its replay"));
    }
    Ok(FramesResponse { frames: out, moves: rec.moves.to_ascii_uppercase(), score })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_replays_what_play_plays() {
        // The first game of `play --seed 5` with a shallow search, replayed by its letters.
        let req = super::super::PlayRequest {
            games: 1,
            seed: 5,
            max_moves: 40,
            search: super::super::SearchSpec { depth: Some(1), tt_bits: 10, ..Default::default() },
            ..Default::default()
        };
        let played = super::super::play(&req, Control::new()).unwrap();
        let rec = played.games[0].record.clone().unwrap();
        let pos = position(
            &PositionRequest { seed: 5, moves: rec.moves.clone(), snapshots: true },
            Control::new(),
        )
        .unwrap();
        // The same game; only the play verb stopped it at its move limit.
        let mut same = pos.record.clone();
        assert_eq!(same.status, Status::Playing);
        same.status = Status::MoveLimit;
        assert_eq!(same, rec);
        assert_eq!(pos.snapshots.len(), 41);
        assert_eq!(pos.now.board, rec.final_board);
        assert_eq!(pos.now.score, rec.score);
        // And the record's frames are the positions the moves went through.
        let f = frames(&FramesRequest { record: rec.clone() }, Control::new()).unwrap();
        assert_eq!(f.frames, pos.snapshots);
        let mut bad = rec;
        bad.spawns[3][1] = 8;
        let e = frames(&FramesRequest { record: bad }, Control::new()).unwrap_err();
        assert!(e.message().starts_with("record: "), "{e}");
    }

    #[test]
    fn bad_moves_name_the_move() {
        let e =
            position(&PositionRequest { moves: "LX".into(), ..Default::default() }, Control::new())
                .unwrap_err();
        assert_eq!(e.message(), "moves: 'X' (move 2) is not one of U, D, L, R");
        // A start board on which some move changes nothing (two tiles in a corner row, say).
        let (seed, d) = (1..200)
            .find_map(|seed| {
                let req = PositionRequest { seed, ..Default::default() };
                let start = position(&req, Control::new()).unwrap();
                let d =
                    ["U", "D", "L", "R"].into_iter().find(|d| !start.legal.iter().any(|l| l == d));
                d.map(|d| (seed, d))
            })
            .expect("some start board has an illegal move");
        let req = PositionRequest { seed, moves: d.into(), ..Default::default() };
        let e = position(&req, Control::new()).unwrap_err();
        assert!(e.message().starts_with(&format!("moves: {d} (move 1) does not change")), "{e}");
    }
}
