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
    /// The spawn seed itself (a record's `seed`), instead of the batch seed `seed`.
    pub spawn_seed: Option<u64>,
    /// The moves played, one letter each (`U`, `D`, `L`, `R`, either case).
    pub moves: String,
    /// Also return the position after every move (for a timeline).
    pub snapshots: bool,
    /// Also return the game's record.
    pub record: bool,
}

impl PositionRequest {
    /// The spawn seed of the game: `spawn_seed`, or game 0's of the batch `seed`.
    pub fn game_seed(&self) -> u64 {
        self.spawn_seed.unwrap_or_else(|| game_seed(self.seed))
    }
}

impl Default for PositionRequest {
    fn default() -> Self {
        PositionRequest {
            seed: 1,
            spawn_seed: None,
            moves: String::new(),
            snapshots: false,
            record: false,
        }
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
    /// With `record`: the game's record, which `2048 replay` accepts.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub record: Option<GameRecord>,
}

/// The spawn seed of game 0 of the batch with seed `seed` (what `play --seed` uses).
pub fn game_seed(seed: u64) -> u64 {
    bits::rng::sub_seed(seed, 0)
}

/// The game of `req` after its moves, calling `each` on the start and after every move; a bad
/// letter or an illegal move is an input error naming the move.
fn game_after(
    req: &PositionRequest,
    ctl: Control,
    mut each: impl FnMut(&Game),
) -> Result<Game, Error> {
    if req.moves.len() > MAX_MOVES {
        return Err(Error::input(format!("moves: {} moves, at most {MAX_MOVES}", req.moves.len())));
    }
    let mut g = Game::new(req.game_seed());
    each(&g);
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
        each(&g);
    }
    Ok(g)
}

/// Replays `moves` from the game of `seed`; a bad letter or an illegal move is an input error
/// naming the move.
pub fn position(req: &PositionRequest, ctl: Control) -> Result<PositionResponse, Error> {
    let mut snapshots = Vec::new();
    let g = game_after(req, ctl, |g| {
        if req.snapshots {
            snapshots.push(Snapshot::of(g.board(), g.score()));
        }
    })?;
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
        record: req.record.then(|| g.record()),
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

/// The expectimax playing on from a position (`auto` on the page): the game of `seed` after
/// `moves`, continued by the search until the game ends or `max_moves` more moves are
/// played. From no moves it plays exactly the game `play --seed SEED --games 1` plays.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct AutoRequest {
    /// Where to start.
    pub from: PositionRequest,
    /// Stop after this many moves (counted from `from`).
    pub max_moves: u64,
    /// The search (as [`super::play`]'s; the row heuristic, no network).
    pub search: super::SearchSpec,
}

impl Default for AutoRequest {
    fn default() -> Self {
        AutoRequest {
            from: PositionRequest::default(),
            max_moves: 1_000_000,
            search: super::SearchSpec::default(),
        }
    }
}

/// The outcome of [`auto`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AutoResponse {
    /// The game's record from its start (the `from` moves and the search's), which
    /// `2048 replay` accepts.
    pub record: GameRecord,
    /// Moves the search played.
    pub played: u64,
    /// Search nodes in all.
    pub nodes: u64,
    /// The setting in words.
    pub setting: String,
}

/// Plays on with the expectimax, reporting every move through [`Control::with_steps`] and
/// checking the abort flag every move (and inside the search). An aborted run returns the
/// game so far with status `move_limit`. The record is checked by [`crate::replay`].
pub fn auto(req: &AutoRequest, ctl: Control) -> Result<AutoResponse, Error> {
    if req.search.network.is_some() {
        return Err(Error::input("auto plays with the row heuristic, not a network"));
    }
    let cfg = req.search.config()?;
    let mut g = game_after(&req.from, ctl, |_| {})?;
    let h =
        crate::search::Heuristic::new(req.search.params.unwrap_or(crate::search::Params::SHIPPED));
    let mut s = crate::search::Searcher::with_evaluator(&h, cfg).with_abort(ctl.abort_flag());
    let mut played = 0;
    while g.status() == Status::Playing {
        if played >= req.max_moves || ctl.aborted() {
            g.stop();
            break;
        }
        let Some(c) = super::play::choose(&mut s, g.board(), req.search.time_per_move) else {
            g.stop();
            break;
        };
        if ctl.aborted() {
            g.stop();
            break;
        }
        if g.play(c.dir) == Err(MoveError::Illegal) {
            return Err(Error::failed(format!("search chose illegal move {}", c.dir)));
        }
        played += 1;
        ctl.step(&super::Step {
            game: 0,
            moves: g.moves(),
            action: c.dir.letter().to_string(),
            state: g.board().to_string(),
            score: g.score() as i64,
            frame: serde_json::Value::Null,
        });
    }
    let record = g.record();
    let summary = crate::replay(&record)
        .map_err(|e| Error::failed(format!("auto game does not replay: {e}")))?;
    if summary.score != record.score {
        return Err(Error::failed("auto game: replayed score differs"));
    }
    Ok(AutoResponse { record, played, nodes: s.nodes(), setting: req.search.describe(&cfg) })
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
            &PositionRequest {
                seed: 5,
                moves: rec.moves.clone(),
                snapshots: true,
                record: true,
                ..Default::default()
            },
            Control::new(),
        )
        .unwrap();
        // The same game; only the play verb stopped it at its move limit.
        let mut same = pos.record.clone().unwrap();
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
    fn auto_from_the_start_is_play_and_steps_are_its_moves() {
        let search = super::super::SearchSpec { depth: Some(2), tt_bits: 12, ..Default::default() };
        let req = super::super::PlayRequest {
            games: 1,
            seed: 9,
            max_moves: 60,
            search: search.clone(),
            ..Default::default()
        };
        let played = super::super::play(&req, Control::new()).unwrap();
        let rec = played.games[0].record.clone().unwrap();
        let steps = std::sync::Mutex::new(Vec::new());
        let log = |s: &super::super::Step| steps.lock().unwrap().push(s.clone());
        let auto_req = AutoRequest {
            from: PositionRequest { seed: 9, ..Default::default() },
            max_moves: 60,
            search: search.clone(),
        };
        let a = auto(&auto_req, Control::new().with_steps(&log)).unwrap();
        assert_eq!(a.record, rec);
        let steps = steps.into_inner().unwrap();
        let letters: String = steps.iter().map(|s| s.action.as_str()).collect();
        assert_eq!(letters, rec.moves);
        assert_eq!(steps.last().unwrap().state, rec.final_board);
        // From the middle, it continues the same game.
        let mid = AutoRequest {
            from: PositionRequest {
                seed: 9,
                moves: rec.moves[..25].to_string(),
                ..Default::default()
            },
            max_moves: 35,
            search,
        };
        assert_eq!(auto(&mid, Control::new()).unwrap().record, rec);
        // And a record's own seed reaches the same positions.
        let by_spawn = PositionRequest {
            spawn_seed: rec.seed,
            moves: rec.moves.clone(),
            ..Default::default()
        };
        assert_eq!(position(&by_spawn, Control::new()).unwrap().now.board, rec.final_board);
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
