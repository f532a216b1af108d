//! Tetris perfect clears under the one live contract ([`bits::live::Game`]): the setup is what
//! `bitarcade tetris pc` reads (a field, a queue, hold and the PC rules; an empty queue is
//! drawn from the seed), a move is one placement (`[h]PFxy`: hold pressed first, piece,
//! facing, the normalized anchor's column and row), the game is won by a perfect clear, and
//! the solver is `pc`'s: solved once, its placements played out. The record is `pc`'s record.
//!
//! ```
//! use bits::live::{position, PositionRequest};
//! use tetris::api::contract::Tetris;
//!
//! // Seed 1 draws the benchmark's opener queue 0 (11 pieces of a 7-bag).
//! let req = PositionRequest::<Tetris> { seed: 1, ..Default::default() };
//! let pos = position(&req, bits::job::Control::new()).unwrap();
//! assert_eq!(pos.now.rows, 4);
//! assert!(pos.status.is_playing() && !pos.legal.is_empty());
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use crate::board::ZONE_ROWS;
use bits::live::{Caps, Game, Hint, Phase, Status, Turns, Unrecorded};
use serde::{Deserialize, Serialize};

use super::pc::{replay_record, solve, steps_out, Solved};
use super::{queue_pieces, Control, Error, PcRecord, PcReport};
use crate::bag::opener_queue;
use crate::board::{zone_clear, Board};
use crate::kicks::KickTable;
use crate::movegen::{placement_mask, MoveGen};
use crate::piece::{parse_queue, queue_string, Facing, Piece};
use crate::solver::{PcRequest, RequestError, Solution, Step};
use crate::trace::{shape_facing, HoldState};
use crate::{fumen_io, inputs};

/// Tetris perfect clears as the contract sees them.
#[derive(Debug, Clone, Copy)]
pub struct Tetris;

/// The most placements of a game: the PC zone has at most 6 rows, 60 cells, 4 per piece.
pub const MAX_MOVES: usize = 15;

/// Most pieces a queue drawn from the seed may have.
const MAX_PIECES: u32 = 1000;

/// The field, the queue and the rules: the options of `bitarcade tetris pc` (the defaults
/// are its defaults). With an empty `queue` the pieces are drawn from the seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Setup {
    /// Starting field as text (rows top first, `.` empty, 10 per row); wins over `fumen`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// Starting field as a fumen string (`v115@...`, its first page), when `field` is absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fumen: Option<String>,
    /// The queue, current piece first (letters I O T S Z J L). Empty: the first `pieces` of
    /// the benchmark's opener queue 0 under the seed (`bitarcade tetris bench --seed S`'s
    /// first queue); a given queue ignores the seed.
    pub queue: String,
    /// Length of a queue drawn from the seed (`None`: 11, or 16 for a PC of more than 4
    /// lines by `height` or `min_height`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pieces: Option<u32>,
    /// The piece already in hold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hold: Option<String>,
    /// Whether hold may be used.
    pub use_hold: bool,
    /// Kick table: `none`, `srs`, `srs+`, `srs-tetrio`, or any other name for the table
    /// whose text is `kick_table`.
    pub kicks: String,
    /// The text of a kick table (see the crate's kicks docs), when `kicks` names no built-in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kick_table: Option<String>,
    /// Only this PC height (lines). `None`: any feasible height (the zone is the tallest).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
    /// Only PC heights of at least this many lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_height: Option<u32>,
    /// The piece that must be left in hold after the PC.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub save_hold: Option<String>,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            field: None,
            fumen: None,
            queue: String::new(),
            pieces: None,
            hold: None,
            use_hold: true,
            kicks: "srs+".into(),
            kick_table: None,
            height: None,
            min_height: None,
            save_hold: None,
        }
    }
}

/// One piece letter of setup field `name`.
fn one_piece(name: &str, s: &str) -> Result<Piece, Error> {
    match parse_queue(s).as_deref() {
        Ok([p]) => Ok(*p),
        _ => {
            Err(Error::input(format!("setup.{name}: one piece letter (I O T S Z J L), got {s:?}")))
        }
    }
}

impl Setup {
    /// The queue of the game: the given one, or the one drawn from `seed`.
    pub fn queue_of(&self, seed: u64) -> Result<Vec<Piece>, Error> {
        let queue =
            parse_queue(&self.queue).map_err(|e| Error::input(format!("setup.queue: {e}")))?;
        if let Some(n) = self.pieces {
            if !(1..=MAX_PIECES).contains(&n) {
                return Err(Error::input(format!("setup.pieces: {n}, must be 1 to {MAX_PIECES}")));
            }
        }
        if !queue.is_empty() {
            return Ok(queue);
        }
        let lines = self.height.or(self.min_height).unwrap_or(4);
        let n = self.pieces.map_or(queue_pieces(if lines <= 4 { 4 } else { 6 }), |n| n as usize);
        Ok(opener_queue(seed, 0, n))
    }

    /// The kick table and the solver's request, read as `tetris pc` reads its options (the
    /// errors name the setup's fields).
    fn parse(&self, seed: u64) -> Result<(KickTable, PcRequest), Error> {
        let kicks = match (KickTable::named(&self.kicks), &self.kick_table) {
            (Some(t), _) => t,
            (None, Some(text)) => KickTable::parse(text)
                .map_err(|e| Error::input(format!("setup.kick_table: {e}")))?,
            (None, None) => {
                return Err(Error::input(format!(
                "setup.kicks: {:?} is not a built-in table ({}) and setup.kick_table is not given",
                self.kicks,
                KickTable::NAMES.join(", ")
            )))
            }
        };
        let queue = self.queue_of(seed)?;
        let hold = self.hold.as_deref().map(|s| one_piece("hold", s)).transpose()?;
        let save_hold = self.save_hold.as_deref().map(|s| one_piece("save_hold", s)).transpose()?;
        let board = if let Some(text) = &self.field {
            text.parse::<Board>().map_err(|e| Error::input(format!("setup.field: {e}")))?
        } else if let Some(f) = &self.fumen {
            fumen_io::decode_board(f).map_err(|e| Error::input(format!("setup.fumen: {e}")))?
        } else {
            Board::EMPTY
        };
        // The live game plays PCs within the six-row zone (`pc` goes taller).
        for (field, h) in [("height", self.height), ("min_height", self.min_height)] {
            if let Some(h) = h.filter(|h| !(1..=ZONE_ROWS).contains(h)) {
                return Err(Error::input(format!(
                    "setup.{field}: height {h} is outside 1..={ZONE_ROWS} (the live game plays PCs \
                     of up to {ZONE_ROWS} lines)"
                )));
            }
        }
        let preq = PcRequest {
            board,
            queue,
            hold,
            use_hold: self.use_hold,
            height: self.height,
            min_height: self.min_height,
            save_hold,
        };
        Ok((kicks, preq))
    }
}

/// Why a start request has no PC height, naming the setup field at fault.
fn height_error(req: &PcRequest, e: &RequestError) -> Error {
    let field = match e {
        RequestError::FieldTooTall(_) | RequestError::NoFillableHeight { .. } => "field",
        RequestError::BadHeight(_) if req.height.is_none() => "min_height",
        RequestError::BadHeight(_) | RequestError::AreaNotFillable { .. } => "height",
        RequestError::QueueTooShort { .. } => "queue",
    };
    Error::input(format!("setup.{field}: {e}"))
}

/// One placement: `[h]PFxy`, e.g. `TN30`, `hIE90`. `hold`: hold is pressed first (the piece
/// comes out of hold, or the next piece is taken with the hold empty); `facing` is the lowest
/// facing with these cells (S north, not south); `(x, y)` is the bottom-left corner of the
/// cells' bounding box, in the field as it stands (after earlier line clears).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Hold is pressed first.
    pub hold: bool,
    /// The piece.
    pub piece: Piece,
    /// Its facing (canonical: see [`Piece::canonical`]).
    pub facing: Facing,
    /// Column of the leftmost cell (0-9).
    pub x: u8,
    /// Row of the lowest cell, from the bottom.
    pub y: u8,
}

impl Move {
    /// The move that places `step` (`hold`: whether hold is pressed first).
    pub fn from_step(step: &Step, hold: bool) -> Move {
        let x = step.cells.iter().map(|c| c.0).min().unwrap_or(0);
        let y = step.cells.iter().map(|c| c.1).min().unwrap_or(0);
        Move { hold, piece: step.piece, facing: step.piece.canonical(step.facing), x, y }
    }

    /// The four cells `(x, y)`, sorted.
    pub fn cells(&self) -> [(u8, u8); 4] {
        let mut cells = self
            .piece
            .norm_cells(self.facing)
            .map(|(cx, cy)| (cx as u8 + self.x, cy as u8 + self.y));
        cells.sort_unstable();
        cells
    }

    /// The placement as a solution step.
    pub fn step(&self) -> Step {
        Step { piece: self.piece, facing: self.piece.canonical(self.facing), cells: self.cells() }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = if self.hold { "h" } else { "" };
        write!(f, "{h}{}{}{}{}", self.piece, self.facing, self.x, self.y)
    }
}

impl FromStr for Move {
    type Err = String;

    fn from_str(s: &str) -> Result<Move, String> {
        let bad =
            || "is not a placement (write [h] piece facing x y, like TN30 or hIE90)".to_string();
        let t = s.trim();
        let (hold, rest) = match t.strip_prefix(['h', 'H']) {
            Some(r) => (true, r),
            None => (false, t),
        };
        let chars: Vec<char> = rest.chars().collect();
        let &[p, f, x, y] = chars.as_slice() else { return Err(bad()) };
        let piece = Piece::from_letter(p).ok_or_else(bad)?;
        let facing = Facing::from_letter(f).ok_or_else(bad)?;
        let x = x.to_digit(10).ok_or_else(bad)? as u8;
        let y = y.to_digit(10).ok_or_else(bad)? as u8;
        Ok(Move { hold, piece, facing: piece.canonical(facing), x, y })
    }
}

/// A game in progress: the start, the kick table and the placements so far, on the exact
/// move generator (the same reachability as the record's replay).
#[derive(Clone)]
pub struct State {
    kicks: Arc<KickTable>,
    mg: Arc<MoveGen>,
    /// The request `pc` would solve from the start (full queue, hold, rules).
    start: Arc<PcRequest>,
    /// The PC zone's height: the setup's height, else the tallest feasible one.
    cap: u32,
    board: Board,
    cleared: u32,
    steps: Vec<Step>,
    holds: Vec<bool>,
}

impl State {
    /// The Guideline hold bookkeeping after the placements so far.
    fn deal(&self) -> HoldState<'_> {
        let mut hs = HoldState::new(&self.start.queue, self.start.hold, self.start.use_hold);
        for s in &self.steps {
            // Every step was checked by `play`.
            let _ = hs.place(s.piece);
        }
        hs
    }

    /// Rows of the zone left (the remaining PC height).
    fn rows(&self) -> u32 {
        self.cap - self.cleared
    }

    fn zone(&self) -> u64 {
        self.board.to_zone(self.rows()).unwrap_or(0)
    }

    fn won(&self) -> bool {
        self.board.is_empty() && !self.steps.is_empty()
    }

    /// What is left to solve, as `pc` would be asked it (at the start: `pc`'s own request).
    fn remaining_request(&self) -> PcRequest {
        let hs = self.deal();
        let s = &self.start;
        PcRequest {
            board: self.board,
            queue: hs.current().into_iter().chain(hs.queue().iter().copied()).collect(),
            hold: hs.hold(),
            use_hold: s.use_hold,
            height: s.height.map(|h| h.saturating_sub(self.cleared)),
            min_height: s.min_height.map(|m| m.saturating_sub(self.cleared)).filter(|&m| m > 0),
            save_hold: s.save_hold,
        }
    }

    /// The pieces that can be placed now, with whether hold is pressed for them.
    fn candidates(&self, hs: &HoldState) -> Vec<(Piece, bool)> {
        let mut out: Vec<(Piece, bool)> = hs.current().map(|c| (c, false)).into_iter().collect();
        if self.start.use_hold {
            let other = match hs.hold() {
                Some(h) => Some(h),
                None => hs.queue().first().copied(),
            };
            if let Some(p) = other.filter(|&p| Some(p) != hs.current()) {
                out.push((p, true));
            }
        }
        out
    }

    /// Whether placing `m` (available, inside the zone) clears the field without leaving
    /// the save-hold piece.
    fn breaks_save_hold(&self, hs: &HoldState, m: &Move) -> bool {
        let Some(want) = self.start.save_hold else { return false };
        let placed = self.zone() | placement_mask(m.piece, m.facing, m.x.into(), m.y.into());
        if zone_clear(placed, self.rows()).0 != 0 {
            return false;
        }
        let mut after = hs.clone();
        let _ = after.place(m.piece);
        after.hold().or(after.current()) != Some(want)
    }

    /// Every placement of the pieces in hand, current piece first, then the other; each in
    /// facing order N E S W, then from the bottom-left.
    fn placements(&self) -> Vec<Move> {
        let hs = self.deal();
        let (zone, rows) = (self.zone(), self.rows());
        let mut out = Vec::new();
        for (piece, hold) in self.candidates(&hs) {
            for (facing, x, y) in self.mg.placements(zone, rows, piece).iter() {
                let m = Move { hold, piece, facing, x: x as u8, y: y as u8 };
                if !self.breaks_save_hold(&hs, &m) {
                    out.push(m);
                }
            }
        }
        out
    }

    fn status(&self) -> Status {
        if self.won() {
            return Status::new(
                Phase::Won,
                "perfect_clear",
                format!("{}-line perfect clear in {} placements", self.cleared, self.steps.len()),
            );
        }
        let hs = self.deal();
        if self.candidates(&hs).is_empty() {
            return Status::new(Phase::Over, "no_pieces", "no piece is left to place");
        }
        let rows = self.rows();
        match self.remaining_request().heights() {
            Err(e) => return Status::new(Phase::Over, "no_height", e.to_string()),
            Ok(hs) if !hs.iter().any(|&h| h <= rows) => {
                return Status::new(
                    Phase::Over,
                    "no_height",
                    format!("no perfect clear fits in the {rows} rows left"),
                )
            }
            Ok(_) => {}
        }
        if self.placements().is_empty() {
            return Status::new(
                Phase::Over,
                "no_placement",
                "no piece in hand has a placement in the zone",
            );
        }
        Status::playing()
    }

    /// The cells of the zone (at least the stack, at least one row), top row first.
    fn cells(&self) -> Vec<[u8; 10]> {
        let shown = self.rows().max(self.board.height() as u32).max(1) as usize;
        (0..shown)
            .rev()
            .map(|y| std::array::from_fn(|x| u8::from(self.board.row(y) >> x & 1 == 1)))
            .collect()
    }

    fn snapshot(&self) -> Snapshot {
        let hs = self.deal();
        Snapshot {
            cells: self.cells(),
            field: self.board.to_string(),
            rows: self.rows(),
            height: self.cap,
            current: hs.current().map(|p| p.to_string()),
            hold: hs.hold().map(|p| p.to_string()),
            queue: queue_string(hs.queue()),
            lines: self.cleared,
            placed: self.steps.len() as u32,
            fumen: fumen_io::encode_solution(&self.board, &[]).unwrap_or_default(),
            bits: None,
        }
    }

    /// The solver's answer from here: `pc` on the remaining request, within the search.
    fn solve(&self, search: &Search, ctl: Control) -> Result<Solved, Error> {
        let preq = self.remaining_request();
        // The solver polls one flag: `within` sets it at the time cap or on the caller's
        // abort (`solve` tells the two apart by `ctl`).
        let cap = search.millis.map(Duration::from_millis);
        ctl.within(cap, |inner| {
            solve(&self.kicks, &preq, search.node_limit, inner.abort_flag(), ctl)
        })
    }

    /// The perfect clear from here, if the solver finds one that fits the zone.
    fn perfect_clear(&self, search: &Search, ctl: Control) -> Result<Solved, Error> {
        let (out, found) = self.solve(search, ctl)?;
        // Heights are tried smallest first: one above the zone means none fits in it.
        let rows = self.rows();
        Ok((out, found.filter(|(sol, _)| sol.height <= rows)))
    }
}

/// The whole position: the zone, the pieces, the counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Snapshot {
    /// The zone's rows left (at least one), top first, 10 cells each (1: filled).
    pub cells: Vec<[u8; 10]>,
    /// The field in the text form (it reads back as [`Setup::field`]).
    pub field: String,
    /// Rows of the zone left: the remaining PC height.
    pub rows: u32,
    /// The zone's height at the start.
    pub height: u32,
    /// The current piece.
    pub current: Option<String>,
    /// The piece in hold.
    pub hold: Option<String>,
    /// The pieces after the current one.
    pub queue: String,
    /// Lines cleared so far.
    pub lines: u32,
    /// Placements so far.
    pub placed: u32,
    /// The field as a fumen string (`v115@...`).
    pub fumen: String,
    /// The engine's words (absent from timeline frames): the zone's rows, bottom first, as
    /// `0x` hex `u16` (bit `x` for column `x`; a full row is `0x03ff`), and the zone packed
    /// into the one `u64` the solver searches on (row `y` in bits `10 y ..`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bits: Option<Bits>,
}

/// How the engine holds a Tetris zone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Bits {
    /// The zone's rows, bottom first.
    pub rows: Vec<String>,
    /// The zone as the solver's `u64`.
    pub zone: String,
}

/// The solver's limits for `hint` and `auto` (`pc`'s: no limit). [`Caps::nodes`] and
/// [`Caps::millis`] clamp them; the other caps do not apply (the search is as deep as the
/// PC has placements, at most [`MAX_MOVES`], has no beam, and its memo grows with the nodes).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Search {
    /// Give up after this many search nodes (`pc --node-limit`).
    pub node_limit: Option<u64>,
    /// Give up after this many milliseconds (stops within a few).
    pub millis: Option<u64>,
}

/// What a hint adds: the solver's whole perfect clear from the position.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Detail {
    /// Every placement of the perfect clear, in move notation (the first is the hint's).
    pub moves: String,
    /// The PC height counted from the start (lines cleared so far plus the PC's).
    pub total_height: u32,
    /// The solution as `bitarcade tetris pc --json` prints it for this position (steps with
    /// cells, hold and keys, the fumen, nodes, memory, time).
    pub report: PcReport,
}

/// `v` held to `cap` (`None`: no limit).
fn clamp(v: Option<u64>, cap: u64) -> Option<u64> {
    let n = v.unwrap_or(u64::MAX).min(cap);
    (n != u64::MAX).then_some(n)
}

/// A one-line message: the first line of `s`, then the rest (the rows of a field, say)
/// joined by ` / `.
fn one_line(s: &str) -> String {
    let mut lines = s.lines().map(str::trim_end).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or_default();
    let rest: Vec<&str> = lines.collect();
    if rest.is_empty() {
        first.to_string()
    } else {
        format!("{first} {}", rest.join(" / "))
    }
}

/// Whether a record's steps end on an empty field (cells outside the field are left to the
/// replay to refuse).
fn ends_empty(rec: &PcRecord) -> bool {
    let Ok(mut board) = rec.field.parse::<Board>() else { return false };
    for s in &rec.steps {
        for c in &s.cells {
            if c[0] < 10 && c[1] < 40 {
                board.set(c[0].into(), c[1].into());
            }
        }
        board.clear_lines();
    }
    !rec.steps.is_empty() && board.is_empty()
}

impl Game for Tetris {
    const NAME: &'static str = "tetris";
    const TITLE: &'static str = "Tetris";
    const SEP: &'static str = "-";
    const MAX_MOVES: usize = MAX_MOVES;

    type Setup = Setup;
    type Move = Move;
    type State = State;
    type Snapshot = Snapshot;
    type Frame = Snapshot;
    type Record = PcRecord;
    type Search = Search;
    type Detail = Detail;

    fn start(setup: &Setup, seed: u64) -> Result<State, Error> {
        let (kicks, preq) = setup.parse(seed)?;
        let heights = preq.heights().map_err(|e| height_error(&preq, &e))?;
        let cap = heights.last().copied().unwrap_or(1);
        let mg = MoveGen::new(&kicks);
        Ok(State {
            kicks: Arc::new(kicks),
            mg: Arc::new(mg),
            board: preq.board,
            start: Arc::new(preq),
            cap,
            cleared: 0,
            steps: Vec::new(),
            holds: Vec::new(),
        })
    }

    fn play(s: &mut State, m: &Move) -> Result<(), String> {
        let status = s.status();
        if !status.is_playing() {
            return Err(format!("comes after the game ended ({status})"));
        }
        let hs = s.deal();
        let facing = m.piece.canonical(m.facing);
        let right = Move { facing, ..*m };
        let hold = hs.clone().place(m.piece).map_err(|e| format!("cannot be played: {e}"))?;
        if hold != m.hold {
            let right = Move { hold, ..right };
            return Err(if hold {
                format!("takes {} out of hold here: write {right}", m.piece)
            } else {
                format!("places the current piece {}: write {right}", m.piece)
            });
        }
        let rows = s.rows();
        let (w, h) = m.piece.extent(facing);
        if u32::from(m.x) + w as u32 > 10 {
            return Err("lies outside the field".into());
        }
        if u32::from(m.y) + h as u32 > rows {
            return Err(format!("lies above the {rows}-row PC zone"));
        }
        let pl = s.mg.placements(s.zone(), rows, m.piece);
        if pl.by_facing[facing as usize] >> (16 * u32::from(m.y) + u32::from(m.x)) & 1 == 0 {
            return Err(format!(
                "is not a resting placement reachable with the {} kicks",
                s.kicks.name()
            ));
        }
        if s.breaks_save_hold(&hs, &right) {
            let want = s.start.save_hold.map_or('-', |p| p.letter());
            return Err(format!("completes the PC without leaving {want} in hold"));
        }
        let step = right.step();
        for &(x, y) in &step.cells {
            s.board.set(x.into(), y.into());
        }
        s.cleared += s.board.clear_lines();
        s.steps.push(step);
        s.holds.push(hold);
        Ok(())
    }

    fn legal(s: &State) -> Vec<Move> {
        if s.status().is_playing() {
            s.placements()
        } else {
            Vec::new()
        }
    }

    fn status(s: &State) -> Status {
        s.status()
    }

    fn score(s: &State) -> i64 {
        i64::from(s.cleared)
    }

    fn snapshot(s: &State) -> Snapshot {
        let rows = (0..s.rows() as usize).map(|y| format!("{:#06x}", s.board.row(y))).collect();
        Snapshot { bits: Some(Bits { rows, zone: format!("{:#018x}", s.zone()) }), ..s.snapshot() }
    }

    fn frame(s: &State) -> Snapshot {
        s.snapshot()
    }

    fn text(s: &State) -> String {
        let hs = s.deal();
        let letter = |p: Option<Piece>| p.map_or('-', |p| p.letter());
        let mut out = String::new();
        for row in s.cells() {
            out.extend(row.iter().map(|&c| if c == 1 { '#' } else { '.' }));
            out.push('\n');
        }
        out.push_str(&format!(
            "current {}  hold {}  next {}\n",
            letter(hs.current()),
            letter(hs.hold()),
            queue_string(hs.queue())
        ));
        out
    }

    fn record(s: &State, _player: &str) -> PcRecord {
        let start = &s.start;
        let keys = inputs::solution_keys(&start.board, &s.kicks, &s.steps)
            .unwrap_or_else(|_| vec![None; s.steps.len()]);
        let height = if s.won() { s.cleared } else { s.cap };
        let sol = Solution { height, steps: s.steps.clone() };
        PcRecord {
            field: start.board.to_string(),
            queue: queue_string(&start.queue),
            hold: start.hold.map(|p| p.to_string()),
            use_hold: start.use_hold,
            save_hold: start.save_hold.map(|p| p.to_string()),
            kicks: s.kicks.name().to_string(),
            kick_table: s.kicks.to_text(),
            height,
            steps: steps_out(&sol, &s.holds, &keys),
        }
    }

    fn unrecord(rec: &PcRecord) -> Result<Unrecorded<Self>, Error> {
        let bad = |m: &str| {
            Error::input(format!("record: {}", one_line(m.strip_prefix("record: ").unwrap_or(m))))
        };
        if rec.steps.len() > MAX_MOVES {
            return Err(bad(&format!("{} steps, at most {MAX_MOVES}", rec.steps.len())));
        }
        // The independent check: the verifier's hold rule, the slow reachability search, the
        // recorded keys from spawn and hold flags; a finished game must end empty.
        let complete = ends_empty(rec);
        replay_record(rec, "record", complete).map_err(|e| bad(e.message()))?;
        let mut moves = Vec::with_capacity(rec.steps.len());
        for (i, s) in rec.steps.iter().enumerate() {
            let step = (|| {
                let piece = s.piece.chars().next().and_then(Piece::from_letter)?;
                let mut cells = [(0, 0); 4];
                for (c, xy) in cells.iter_mut().zip(&s.cells) {
                    *c = (xy[0], xy[1]);
                }
                cells.sort_unstable();
                Some(Step { piece, facing: shape_facing(piece, &cells)?, cells })
            })()
            .ok_or_else(|| bad(&format!("step {}: not a placement", i + 1)))?;
            moves.push(Move::from_step(&step, s.hold));
        }
        let (kicks, kick_table) = match KickTable::named(&rec.kicks) {
            Some(t) if t.to_text() == rec.kick_table => (rec.kicks.clone(), None),
            _ => ("custom".to_string(), Some(rec.kick_table.clone())),
        };
        let setup = Setup {
            field: Some(rec.field.clone()),
            fumen: None,
            queue: rec.queue.clone(),
            pieces: None,
            hold: rec.hold.clone(),
            use_hold: rec.use_hold,
            kicks,
            kick_table,
            height: None,
            min_height: None,
            save_hold: rec.save_hold.clone(),
        };
        // The moves again on the live engine, so that its positions cannot disagree. The
        // record keeps the PC height, not the setup's height rule: without one the zone is
        // the tallest feasible, which a finished game fits (and an unfinished one if its
        // zone is that tall); otherwise the record's height is the rule.
        let play_all = |setup: &Setup| -> Result<State, Error> {
            let mut st = Self::start(setup, 1).map_err(|e| bad(e.message()))?;
            for (i, m) in moves.iter().enumerate() {
                Self::play(&mut st, m).map_err(|e| bad(&format!("step {}: {m} {e}", i + 1)))?;
            }
            Ok(st)
        };
        let free = play_all(&setup);
        if let Ok(st) = &free {
            if complete || st.cap == rec.height {
                return Ok((setup, 1, moves));
            }
        }
        let pinned = Setup { height: Some(rec.height), ..setup };
        match play_all(&pinned) {
            Ok(_) => Ok((pinned, 1, moves)),
            Err(e) => Err(free.err().unwrap_or(e)),
        }
    }

    fn cap(s: &mut Search, caps: &Caps) -> Result<(), Error> {
        if s.node_limit == Some(0) {
            return Err(Error::input("search.node_limit: must be at least 1"));
        }
        if s.millis == Some(0) {
            return Err(Error::input("search.millis: must be at least 1"));
        }
        s.node_limit = clamp(s.node_limit, caps.nodes);
        s.millis = clamp(s.millis, caps.millis);
        Ok(())
    }

    fn solver(_s: &Search) -> String {
        "pc".into()
    }

    fn hint(s: &State, search: &Search, ctl: Control) -> Result<Hint<Detail>, Error> {
        let (out, found) = s.perfect_clear(search, ctl)?;
        let Some((sol, holds)) = found else {
            // A valid request with no answer: the caller's to change (a 400), not a fault.
            return Err(Error::input(if out.report.aborted {
                format!(
                    "no perfect clear found from here within the search limits ({} nodes)",
                    out.report.nodes
                )
            } else {
                "no perfect clear from here".to_string()
            }));
        };
        let moves: Vec<String> = sol
            .steps
            .iter()
            .zip(&holds)
            .map(|(st, &h)| Move::from_step(st, h).to_string())
            .collect();
        let mv = moves.first().cloned().ok_or_else(|| Error::failed("the solution is empty"))?;
        Ok(Hint {
            mv,
            values: Vec::new(),
            unit: String::new(),
            solver: format!(
                "pc: first perfect clear, {}-line, {} nodes",
                sol.height, out.report.nodes
            ),
            detail: Detail {
                moves: moves.join(Self::SEP),
                total_height: s.cleared + sol.height,
                report: out.report,
            },
        })
    }

    fn auto(s: &mut State, search: &Search, turns: &mut Turns<Self>) -> Result<(), Error> {
        if !turns.more(s) {
            return Ok(());
        }
        let found = match s.perfect_clear(search, turns.ctl()) {
            Ok((_, found)) => found,
            Err(Error::Aborted) => return Ok(()),
            Err(e) => return Err(e),
        };
        let Some((sol, holds)) = found else {
            turns.give_up();
            return Ok(());
        };
        for (st, &h) in sol.steps.iter().zip(&holds) {
            if !turns.more(s) {
                break;
            }
            turns.play(s, Move::from_step(st, h))?;
        }
        Ok(())
    }
}
