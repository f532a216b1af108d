//! The typed API behind every `bitarcade samegame` verb, for the CLI, a web server and Python
//! alike: each verb is a request struct in (plain data, `serde`, defaults in its `Default`),
//! a [`Control`] (abort flag, progress callback) beside it, and a response struct out.
//!
//! | verb | request | response |
//! |------|---------|----------|
//! | [`gen`] | [`GenRequest`] | [`GenResponse`] |
//! | [`solve()`] | [`SolveRequest`] | [`SolveResponse`] |
//! | [`show`] | [`ShowRequest`] | [`ShowResponse`] |
//! | [`replay`] | [`ReplayRequest`] | [`ReplayResponse`] |
//! | [`prove()`] | [`ProveRequest`] | [`ProveResponse`] |
//! | [`bench()`] | [`BenchRequest`] | [`BenchResponse`] |
//!
//! The API reads no file and prints nothing: the caller passes board files in as bytes
//! ([`BoardFile`]) and game records as parsed [`Record`]s, and writes what the response
//! holds. Error messages name the request's fields (`width: 70, must be 1 to 64`), and each
//! request's ranges are its associated consts, which the CLI's flags use too. Every response
//! prints as the CLI prints it (`Display`).
//!
//! Every answer a solver gives is replayed through the checked engine
//! ([`trace::verify`]) before it is returned.
//!
//! ```
//! use samegame::api::{solve, BoardFile, Control, SolveRequest};
//!
//! let req = SolveRequest {
//!     file: Some(BoardFile::text_file("board.txt", "112\n122\n")),
//!     width: Some(10),
//!     record: true,
//!     ..SolveRequest::default()
//! };
//! let out = solve(&req, Control::new()).unwrap();
//! assert_eq!(out.boards[0].score, 1002); // both groups of three, then the clear bonus
//! assert!(out.boards[0].cleared);
//! let rec = out.boards[0].record.as_ref().unwrap();
//! assert_eq!(rec.moves.len(), 2);
//! ```

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use crate::board::{self, Board};
use crate::trace::{self, Record};
use crate::Rules;

mod bench;
pub mod live;
mod prove;
mod solve;
mod text;

pub use bench::{
    bench, bench_each, BenchEvent, BenchRequest, BenchResponse, ClearRow, EngineRow, GameRow,
    PassRow, ProveRow, StandardRow, Suite, ThreadRow,
};
pub use bits::job::{Control, Error, InputFile, Progress, Shard};
pub use prove::{prove, prove_each, Proof, ProveRequest, ProveResponse};
pub use solve::{
    solve, solve_each, Search, SolveEval, SolveGoal, SolveRequest, SolveResponse, Solved,
};
pub use text::format_moves;

/// A board file as the caller read it, as the one input type every game's API takes
/// ([`InputFile`]): a name for messages (a path, or `<stdin>`) and its bytes, either the text
/// form (rows top first, digits `0`-`7`, `.` empty, blank lines between boards) or sgbust's
/// BGF2. Its boards come out through [`Boards`].
pub type BoardFile = InputFile;

/// The boards of a board file.
pub trait Boards {
    /// Every board of the file, with its minimum group size if the file names one (BGF2).
    fn boards(&self) -> Result<Vec<(Board, Option<u32>)>, Error>;
}

impl Boards for InputFile {
    fn boards(&self) -> Result<Vec<(Board, Option<u32>)>, Error> {
        let name = &self.name;
        let data = self.contents()?;
        if data.starts_with(b"BGF2") {
            let (b, mg) =
                Board::from_bgf2(data).map_err(|e| Error::input(format!("{name}: {e}")))?;
            return Ok(vec![(b, Some(u32::from(mg)))]);
        }
        let text = std::str::from_utf8(data)
            .map_err(|_| Error::input(format!("{name}: not UTF-8 text nor BGF2")))?;
        let boards = board::parse_many(text).map_err(|(line, e)| {
            Error::input(format!("{name}: board starting at line {line}: {e}"))
        })?;
        if boards.is_empty() {
            return Err(Error::input(format!("{name}: no board found")));
        }
        Ok(boards.into_iter().map(|(_, b)| (b, None)).collect())
    }
}

pub(crate) use bits::job::check_range;

/// Moves as `[x, y]` pairs (the JSON form of the responses).
fn pairs(moves: &[trace::Move]) -> Vec<[u8; 2]> {
    moves.iter().map(|&(x, y)| [x, y]).collect()
}

// ---------------------------------------------------------------------------------------
// gen

/// `gen`: random boards (uniform colours from the seeded xoshiro256** stream).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct GenRequest {
    /// Columns (1-64).
    pub width: usize,
    /// Rows (1-32).
    pub height: usize,
    /// Colours (1-8).
    pub colors: usize,
    /// Seed of the first board; board k uses seed `seed + k`.
    pub seed: u64,
    /// Number of boards (1 to 1,000,000).
    pub count: usize,
    /// Also encode the first board in sgbust's BGF2 format (minimum group 2).
    pub bgf2: bool,
}

impl Default for GenRequest {
    fn default() -> Self {
        GenRequest { width: 15, height: 15, colors: 5, seed: 1, count: 1, bgf2: false }
    }
}

impl GenRequest {
    /// The range of `width`.
    pub const WIDTH: RangeInclusive<usize> = 1..=board::MAX_WIDTH;
    /// The range of `height`.
    pub const HEIGHT: RangeInclusive<usize> = 1..=board::MAX_HEIGHT;
    /// The range of `colors`.
    pub const COLORS: RangeInclusive<usize> = 1..=board::MAX_COLORS;
    /// The range of `count`.
    pub const COUNT: RangeInclusive<usize> = 1..=1_000_000;

    /// Checks every field's range; the input error names the first field out of range.
    pub fn check(&self) -> Result<(), Error> {
        check_range("width", self.width, Self::WIDTH)?;
        check_range("height", self.height, Self::HEIGHT)?;
        check_range("colors", self.colors, Self::COLORS)?;
        check_range("count", self.count, Self::COUNT)
    }
}

/// What [`gen`] made.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GenResponse {
    /// The boards in the text form (each ends in a newline); one board when `bgf2` was asked.
    pub boards: Vec<String>,
    /// The first board as a BGF2 file, when asked.
    pub bgf2: Option<Vec<u8>>,
}

/// Generates boards.
pub fn gen(req: &GenRequest, _ctl: Control) -> Result<GenResponse, Error> {
    req.check()?;
    let (w, h, c) = (req.width, req.height, req.colors);
    if req.bgf2 {
        let b = Board::random(w, h, c, req.seed);
        return Ok(GenResponse { boards: vec![b.to_string()], bgf2: Some(b.to_bgf2(2)) });
    }
    let boards = (0..req.count)
        .map(|k| Board::random(w, h, c, req.seed.wrapping_add(k as u64)).to_string())
        .collect();
    Ok(GenResponse { boards, bgf2: None })
}

// ---------------------------------------------------------------------------------------
// replay and show

/// `replay`: check a game record (every move legal, every count and total as recorded), from
/// the file holding it, as every game's replay takes it.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ReplayRequest {
    /// The record's file (its name is how messages name it).
    pub file: InputFile,
}

/// What [`replay`] established.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReplayResponse {
    /// Always true (a bad record is an error).
    pub ok: bool,
    /// Moves in the record.
    pub moves: usize,
    /// Total points.
    pub score: i64,
    /// Tiles left at the end.
    pub tiles_left: u32,
    /// Whether the board ends empty.
    pub cleared: bool,
}

/// Checks a record; a bad one is [`Error::Failed`] naming the first bad step.
pub fn replay(req: &ReplayRequest, _ctl: Control) -> Result<ReplayResponse, Error> {
    let record: Record = bits::live::one_record(&req.file)?;
    let rec = &record;
    let v = trace::replay(rec).map_err(|e| Error::failed(format!("{}: {e}", req.file.name)))?;
    Ok(ReplayResponse {
        ok: true,
        moves: rec.moves.len(),
        score: v.score,
        tiles_left: v.tiles_left,
        cleared: v.cleared,
    })
}

/// `show`: every step of a recorded game with the clicked group marked.
pub type ShowRequest = ReplayRequest;

/// One step of [`show`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ShowStep {
    /// Column of the click.
    pub x: u8,
    /// Row of the click (from the bottom).
    pub y: u8,
    /// Tiles removed.
    pub removed: u32,
    /// Points scored.
    pub points: i64,
    /// The board before the move, rows top first, the clicked group's tiles as `*`.
    pub rows: Vec<String>,
}

/// What [`show`] gives: the steps and the final board.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ShowResponse {
    /// Every move, in order.
    pub steps: Vec<ShowStep>,
    /// Tiles left at the end.
    pub tiles_left: u32,
    /// Points of all moves.
    pub points: i64,
    /// Whether the board ends empty.
    pub cleared: bool,
    /// The final board, rows top first.
    pub last: Vec<String>,
}

/// Checks a record (as [`replay`]) and draws each step.
pub fn show(req: &ShowRequest, _ctl: Control) -> Result<ShowResponse, Error> {
    let record: Record = bits::live::one_record(&req.file)?;
    let (rec, name) = (&record, &req.file.name);
    let v = trace::replay(rec).map_err(|e| Error::failed(format!("{name}: {e}")))?;
    let mut board: Board =
        rec.board.parse().map_err(|e| Error::input(format!("{name}: board: {e}")))?;
    let rules = Rules::try_from(&rec.rules).map_err(Error::input)?;
    let mut steps = Vec::with_capacity(rec.moves.len());
    let mut total = 0;
    for (i, m) in rec.moves.iter().enumerate() {
        let (_, cells) =
            crate::groups::group_at(&board, m.x.into(), m.y.into()).ok_or_else(|| {
                Error::failed(format!("move {}: no tile at ({}, {})", i + 1, m.x, m.y))
            })?;
        let rows = (0..board.height())
            .map(|ty| {
                let y = (board.height() - 1 - ty) as u32;
                (0..board.width())
                    .map(|x| match board.cell(x, y) {
                        Some(_) if cells[x] >> y & 1 == 1 => '*',
                        Some(c) => (b'0' + c) as char,
                        None => '.',
                    })
                    .collect()
            })
            .collect();
        steps.push(ShowStep { x: m.x, y: m.y, removed: m.removed, points: m.points, rows });
        crate::play(&mut board, m.x.into(), m.y.into(), &rules)
            .map_err(|e| Error::failed(format!("move {}: {e}", i + 1)))?;
        total += m.points;
    }
    Ok(ShowResponse {
        steps,
        tiles_left: v.tiles_left,
        points: total,
        cleared: v.cleared,
        last: board.to_string().lines().map(String::from).collect(),
    })
}
