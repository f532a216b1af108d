//! The game as a page plays it: a board (what `samegame gen` makes from a seed, or any board
//! in the text form), the clicks so far, every removable group with its points, and the
//! solver's plan from the position on screen.
//!
//! Every position is replayed from the start through the checked engine
//! ([`trace::verify`]), so a page holds only the start and the clicks. Every plan is a
//! [`solve_each`] answer, replayed again before it is returned.

use super::Boards as _;
use serde::{Deserialize, Serialize};

use super::{gen, solve_each, BoardFile, Control, Error, GenRequest, Search, SolveGoal};
use super::{Progress, SolveRequest};
use crate::board::Board;
use crate::groups::Groups;
use crate::trace::{self, Move, Record, RulesRecord};
use crate::Rules;

/// The most clicks a position may hold: every click removes two tiles or more, so no game on
/// the largest board (64 x 32) is longer.
pub const MAX_MOVES: usize = 64 * 32 / 2;

/// Where a game starts: the board `samegame gen --width W --height H --colors C --seed S`
/// makes, or `board` (the text form, rows top first) when it is given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Start {
    /// Columns of a generated board (1-64).
    pub width: usize,
    /// Rows of a generated board (1-32).
    pub height: usize,
    /// Colours of a generated board (1-8).
    pub colors: usize,
    /// Seed of a generated board.
    pub seed: u64,
    /// A board in the text form instead (digits `0`-`7`, `.` empty, one row per line).
    pub board: Option<String>,
}

impl Default for Start {
    fn default() -> Self {
        let g = GenRequest::default();
        Start { width: g.width, height: g.height, colors: g.colors, seed: g.seed, board: None }
    }
}

impl Start {
    /// The starting board.
    pub fn board(&self) -> Result<Board, Error> {
        let text = match &self.board {
            Some(t) => t.clone(),
            None => {
                let req = GenRequest {
                    width: self.width,
                    height: self.height,
                    colors: self.colors,
                    seed: self.seed,
                    ..GenRequest::default()
                };
                gen(&req, Control::new())?.boards.swap_remove(0)
            }
        };
        let mut boards = BoardFile::text_file("board", text).boards()?;
        if boards.len() != 1 {
            return Err(Error::input(format!(
                "board: {} boards, the game needs one",
                boards.len()
            )));
        }
        Ok(boards.swap_remove(0).0)
    }
}

/// The position after `moves` from `start`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct PositionRequest {
    /// The starting board.
    pub start: Start,
    /// The scoring and the smallest removable group (each field left out: the default rules').
    #[serde(deserialize_with = "rules_or_defaults")]
    pub rules: RulesRecord,
    /// The clicks, `[x, y]`: column from the left, row from the bottom, any tile of the group.
    pub moves: Vec<[u8; 2]>,
    /// Also return a [`Frame`] for the start and after every click (for a timeline).
    pub frames: bool,
    /// Also return the game's record (which `samegame replay` accepts).
    pub record: bool,
}

/// Rules with any field left out taken from the default rules.
fn rules_or_defaults<'de, D: serde::Deserializer<'de>>(d: D) -> Result<RulesRecord, D::Error> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Given {
        points: Option<String>,
        clear_bonus: Option<i64>,
        min_group: Option<u32>,
    }
    let g = Given::deserialize(d)?;
    let def = RulesRecord::from(&Rules::default());
    Ok(RulesRecord {
        points: g.points.unwrap_or(def.points),
        clear_bonus: g.clear_bonus.unwrap_or(def.clear_bonus),
        min_group: g.min_group.unwrap_or(def.min_group),
    })
}

impl Default for PositionRequest {
    fn default() -> Self {
        PositionRequest {
            start: Start::default(),
            rules: (&Rules::default()).into(),
            moves: Vec::new(),
            frames: false,
            record: false,
        }
    }
}

/// A removable group of a [`Frame`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GroupInfo {
    /// Its colour.
    pub color: u8,
    /// Its tiles.
    pub size: u32,
    /// What removing it scores (the clear bonus included when it is the last group).
    pub points: i64,
    /// A tile of it, `[x, y]` (the lowest of its leftmost column).
    pub at: [u8; 2],
}

/// One position of a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Frame {
    /// The board, rows top first, one per line.
    pub board: String,
    /// Points so far (the clear bonus included once the board is empty).
    pub score: i64,
    /// Tiles on the board.
    pub tiles_left: u32,
    /// The click that led here (`None` at the start), the tiles it removed and its points.
    pub click: Option<[u8; 2]>,
    /// Tiles the click removed.
    pub removed: u32,
    /// Points the click scored.
    pub points: i64,
    /// Every removable group, ordered by column, then row.
    pub groups: Vec<GroupInfo>,
    /// For each cell (rows top first, left to right): 0, or `k` when it is in `groups[k - 1]`.
    pub cells: Vec<u16>,
    /// The engine's words (only in the live contract's snapshot, not in timeline frames).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bits: Option<Planes>,
}

/// How the engine holds a SameGame board: per live column (the left ones; emptied columns
/// close up), three colour bitplanes and the occupancy mask, `u32` words as `0x` hex, bit `y`
/// for row `y` from the bottom. A tile's colour is the 3-bit number its planes spell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Planes {
    /// `planes[k][x]`: colour bit `k` of column `x`'s tiles.
    pub planes: Vec<Vec<String>>,
    /// `occ[x]`: column `x`'s tiles (always its low `height` bits).
    pub occ: Vec<String>,
}

impl Planes {
    fn of(board: &Board) -> Planes {
        let hex = |w: u32| format!("{w:#010x}");
        Planes {
            planes: (0..3)
                .map(|k| board.cols().iter().map(|c| hex(c.planes[k])).collect())
                .collect(),
            occ: board.cols().iter().map(|c| hex(c.occ)).collect(),
        }
    }
}

impl Frame {
    fn of(board: &Board, rules: &Rules, score: i64, click: Option<([u8; 2], u32, i64)>) -> Frame {
        let (w, h) = (board.width(), board.height());
        let mut cells = vec![0u16; w * h];
        let mut groups = Vec::new();
        let mut gs = Groups::new();
        let found = gs.find(board, rules.min_group.max(2)).to_vec();
        let mut masks = [0u32; crate::board::MAX_WIDTH];
        for (k, g) in found.iter().enumerate() {
            gs.masks(g, &mut masks);
            for (i, m) in masks.iter().enumerate().take(usize::from(g.x_hi - g.x_lo) + 1) {
                let x = usize::from(g.x_lo) + i;
                for y in 0..h {
                    if m >> y & 1 == 1 {
                        cells[(h - 1 - y) * w + x] = k as u16 + 1;
                    }
                }
            }
            let last = board.tiles() == g.size;
            let points = rules.points(g.size) + if last { rules.clear_bonus } else { 0 };
            groups.push(GroupInfo { color: g.color, size: g.size, points, at: [g.x, g.y] });
        }
        let (click, removed, points) = match click {
            Some((c, n, p)) => (Some(c), n, p),
            None => (None, 0, 0),
        };
        Frame {
            board: board.to_string(),
            score,
            tiles_left: board.tiles(),
            click,
            removed,
            points,
            groups,
            cells,
            bits: None,
        }
    }
}

/// The answer to a [`PositionRequest`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PositionResponse {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Colours on the starting board.
    pub colors: usize,
    /// The starting board, rows top first.
    pub start: String,
    /// The clicks replayed.
    pub moves: Vec<[u8; 2]>,
    /// The position after them.
    pub now: Frame,
    /// `playing`, `cleared`, or `over` (tiles left, no group to remove).
    pub status: String,
    /// The start and the position after each click, when asked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frames: Vec<Frame>,
    /// The game's record, when asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<Record>,
}

/// The game of `req`: its start, rules and checked clicks.
struct Game {
    start: Board,
    rules: Rules,
    moves: Vec<Move>,
    v: trace::Verified,
}

fn game(req: &PositionRequest) -> Result<Game, Error> {
    let start = req.start.board()?;
    let rules = Rules::try_from(&req.rules).map_err(|e| Error::input(format!("rules: {e}")))?;
    if req.moves.len() > MAX_MOVES {
        return Err(Error::input(format!(
            "moves: {} clicks, more than any game has ({MAX_MOVES})",
            req.moves.len()
        )));
    }
    let moves: Vec<Move> = req.moves.iter().map(|&[x, y]| (x, y)).collect();
    let v = trace::verify(&start, &moves, &rules)
        .map_err(|(i, e)| Error::input(format!("moves: click {} {e}", i + 1)))?;
    Ok(Game { start, rules, moves, v })
}

fn status(v: &trace::Verified) -> &'static str {
    match (v.cleared, v.game_over) {
        (true, _) => "cleared",
        (false, true) => "over",
        (false, false) => "playing",
    }
}

/// Every frame of a checked game: the start, then one after each click.
fn frames(g: &Game) -> Vec<Frame> {
    let mut b = g.start.clone();
    let mut score = 0;
    let mut out = vec![Frame::of(&b, &g.rules, 0, None)];
    for (&(x, y), &(n, p)) in g.moves.iter().zip(&g.v.steps) {
        crate::groups::play(&mut b, x.into(), y.into(), &g.rules).expect("verified");
        score += p;
        out.push(Frame::of(&b, &g.rules, score, Some(([x, y], n, p))));
    }
    out
}

/// The position after the clicks of `req`; a bad board, rule or click is [`Error::Input`].
pub fn position(req: &PositionRequest, _ctl: Control) -> Result<PositionResponse, Error> {
    let g = game(req)?;
    let (n, p) = g.v.steps.last().copied().unwrap_or((0, 0));
    let click = req.moves.last().map(|&c| (c, n, p));
    let now = Frame::of(&g.v.last, &g.rules, g.v.score, click);
    let colors = (0..8).filter(|&c| g.start.color_counts()[c] > 0).count();
    Ok(PositionResponse {
        width: g.start.width(),
        height: g.start.height(),
        colors,
        start: g.start.to_string(),
        moves: req.moves.clone(),
        now,
        status: status(&g.v).into(),
        frames: if req.frames { frames(&g) } else { Vec::new() },
        record: req.record.then(|| Record::new(&g.start, &g.rules, &g.moves, &g.v)),
    })
}

/// The game of a record, after [`trace::replay`] has accepted it.
pub fn from_record(rec: &Record) -> Result<PositionRequest, Error> {
    trace::replay(rec).map_err(|e| Error::input(format!("record: {e}")))?;
    Ok(PositionRequest {
        start: Start { board: Some(rec.board.clone()), ..Start::default() },
        rules: rec.rules.clone(),
        moves: rec.moves.iter().map(|m| [m.x, m.y]).collect(),
        frames: false,
        record: false,
    })
}

/// The solver's plan from a position: the rest of the game as it would play it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct PlanRequest {
    /// The position.
    pub from: PositionRequest,
    /// `score` (the most points) or `clear` (an empty board).
    pub goal: SolveGoal,
    /// `beam` (both goals), `nrpa` or `beam-nrpa` (score goal).
    pub search: Search,
    /// Beam width (`None`: `solve`'s default for the goal).
    pub width: Option<usize>,
    /// NRPA's nesting level (1 to 3).
    pub level: u32,
    /// NRPA's iterations per level (1 to 1000).
    pub iterations: u32,
    /// Seed of the playouts.
    pub seed: u64,
}

impl Default for PlanRequest {
    fn default() -> Self {
        PlanRequest {
            from: PositionRequest::default(),
            goal: SolveGoal::Score,
            search: Search::Beam,
            width: None,
            level: 2,
            iterations: 100,
            seed: 1,
        }
    }
}

impl PlanRequest {
    /// The `solve` request for the position's board, and the game it continues.
    fn solve_request(&self) -> Result<(SolveRequest, Game), Error> {
        let g = game(&self.from)?;
        if g.v.game_over {
            return Err(Error::input(format!("the game is over ({})", status(&g.v))));
        }
        if !matches!(self.search, Search::Beam | Search::Nrpa | Search::BeamNrpa) {
            return Err(Error::input("search: beam, nrpa or beam-nrpa"));
        }
        if !(1..=3).contains(&self.level) || !(1..=1000).contains(&self.iterations) {
            return Err(Error::input("level must be 1 to 3, iterations 1 to 1000"));
        }
        let req = SolveRequest {
            file: Some(BoardFile::text_file("position", g.v.last.to_string())),
            goal: self.goal,
            search: self.search,
            width: self.width,
            level: self.level,
            iterations: self.iterations,
            nested_level: 0,
            points: self.from.rules.points.clone(),
            clear_bonus: g.rules.clear_bonus,
            min_group: Some(g.rules.min_group),
            seed: self.seed,
            // One thread a job: the server runs as many jobs as it has cores. The answer is
            // the same for any thread count.
            threads: Some(1),
            ..SolveRequest::default()
        };
        req.check()?;
        Ok((req, g))
    }

    /// The search in words, for people (the CLI's `eval` string is for logs).
    fn label(&self, width: usize) -> String {
        let beam = match self.goal {
            SolveGoal::Clear => format!("the beam for a clear (width {width})"),
            _ => format!("the beam (width {width}, rollouts at the leaves)"),
        };
        let nrpa = format!("NRPA (level {}, {} iterations)", self.level, self.iterations);
        match self.search {
            Search::Nrpa => nrpa,
            Search::BeamNrpa => format!("{beam}, then {nrpa}"),
            _ => beam,
        }
    }

    /// Checks the request without solving.
    pub fn check(&self) -> Result<(), Error> {
        self.solve_request().map(|_| ())
    }
}

/// The answer to a [`PlanRequest`].
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Plan {
    /// The clicks from the position to the end of the game.
    pub moves: Vec<[u8; 2]>,
    /// What they score.
    pub points: i64,
    /// The game's score at its end (the position's score plus `points`).
    pub score: i64,
    /// Whether they empty the board.
    pub cleared: bool,
    /// Tiles left at the end.
    pub tiles_left: u32,
    /// The search and its settings.
    pub search: String,
    /// Work done (children or playouts).
    pub nodes: u64,
    /// Search time.
    pub seconds: f64,
    /// Whether the time ran out: the plan is the best finished game found by then.
    pub stopped: bool,
    /// The position after each click of the plan.
    pub frames: Vec<Frame>,
}

/// Solves from the position (progress through `ctl`), checks the plan on the whole game, and
/// returns it with a frame per click.
pub fn plan(req: &PlanRequest, ctl: Control) -> Result<Plan, Error> {
    let (sreq, g) = req.solve_request()?;
    // Stopped before it finished a game, the search gives `Error::Aborted`.
    let out = solve_each(&sreq, ctl, &mut |_, _| Ok(()))?;
    let solved = &out.boards[0];
    // The plan continues the game: check the whole game from its start.
    let all = PositionRequest {
        moves: g.moves.iter().map(|&(x, y)| [x, y]).chain(solved.moves.iter().copied()).collect(),
        ..req.from.clone()
    };
    let whole = game(&all).map_err(|e| Error::failed(format!("internal error: the plan {e}")))?;
    let frames = frames(&whole).split_off(g.moves.len() + 1);
    ctl.report(Progress::new(1, Some(1)));
    Ok(Plan {
        moves: solved.moves.clone(),
        points: solved.score,
        score: whole.v.score,
        cleared: whole.v.cleared,
        tiles_left: whole.v.tiles_left,
        search: req.label(out.width),
        nodes: solved.nodes,
        seconds: solved.seconds,
        stopped: out.aborted,
        frames,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::groups::group_at;

    fn req(start: Start, moves: Vec<[u8; 2]>) -> PositionRequest {
        PositionRequest { start, moves, frames: true, ..Default::default() }
    }

    #[test]
    fn a_generated_start_is_the_gen_board() {
        let s = Start { width: 9, height: 6, colors: 4, seed: 77, board: None };
        let want = gen(
            &GenRequest { width: 9, height: 6, colors: 4, seed: 77, ..Default::default() },
            Control::new(),
        )
        .unwrap();
        let r = position(&req(s, vec![]), Control::new()).unwrap();
        assert_eq!(r.start, want.boards[0]);
        assert_eq!((r.width, r.height, r.status.as_str()), (9, 6, "playing"));
    }

    #[test]
    fn every_frame_labels_its_groups_as_the_checked_engine_grows_them() {
        for seed in 0..40u64 {
            let start = Start { width: 8, height: 7, colors: 3, seed, board: None };
            // Play the first group of every frame until the game ends.
            let mut moves = Vec::new();
            loop {
                let r = position(&req(start.clone(), moves.clone()), Control::new()).unwrap();
                let f = &r.now;
                let b: Board = f.board.parse().unwrap();
                for y in 0..b.height() {
                    for x in 0..b.width() {
                        let label = f.cells[(b.height() - 1 - y) * b.width() + x];
                        let size = group_at(&b, x, y)
                            .map_or(0, |(_, m)| m.iter().map(|c| c.count_ones()).sum::<u32>());
                        assert_eq!(label != 0, size >= 2, "seed {seed} ({x},{y})");
                        if label != 0 {
                            let g = &f.groups[usize::from(label) - 1];
                            assert_eq!(g.size, size);
                            assert_eq!(Some(g.color), b.cell(x, y as u32));
                        }
                    }
                }
                if r.status != "playing" {
                    assert_eq!(r.frames.len(), moves.len() + 1);
                    assert_eq!(r.frames.last().unwrap(), &r.now);
                    break;
                }
                let g = &f.groups[(seed as usize) % f.groups.len()];
                moves.push(g.at);
                assert_eq!(
                    g.points,
                    Rules::default().points(g.size) + if g.size == f.tiles_left { 1000 } else { 0 }
                );
            }
        }
    }

    #[test]
    fn bad_input_is_one_line() {
        let cases = [
            (req(Start { width: 0, ..Start::default() }, vec![]), "width: 0, must be 1 to 64"),
            (req(Start { board: Some("12\n1\n".into()), ..Start::default() }, vec![]), "line 2"),
            (
                req(Start { board: Some("112\n".into()), ..Start::default() }, vec![[2, 0]]),
                "click 1",
            ),
            (req(Start::default(), vec![[0, 40]]), "click 1 (0, 40) is not a tile"),
        ];
        for (r, want) in cases {
            let e = position(&r, Control::new()).unwrap_err().to_string();
            assert!(e.contains(want) && !e.contains('\n'), "{e}");
        }
        let mut r = req(Start::default(), vec![]);
        r.rules.min_group = 1;
        assert!(position(&r, Control::new()).unwrap_err().to_string().starts_with("rules: "));
    }

    #[test]
    fn a_plan_finishes_the_game_and_its_record_replays() {
        let from = req(Start { width: 10, height: 8, colors: 3, seed: 5, board: None }, vec![]);
        let first = position(&from, Control::new()).unwrap().now.groups[0].at;
        let from = PositionRequest { moves: vec![first], ..from };
        for goal in [SolveGoal::Score, SolveGoal::Clear] {
            let p = plan(
                &PlanRequest { from: from.clone(), goal, width: Some(50), ..Default::default() },
                Control::new(),
            )
            .unwrap();
            assert_eq!(p.frames.len(), p.moves.len());
            let all = PositionRequest {
                moves: [vec![first], p.moves.clone()].concat(),
                record: true,
                ..from.clone()
            };
            let end = position(&all, Control::new()).unwrap();
            assert_ne!(end.status, "playing");
            assert_eq!((end.now.score, &end.now), (p.score, p.frames.last().unwrap()));
            let rec = end.record.unwrap();
            assert_eq!(trace::replay(&rec).unwrap().score, p.score);
            assert_eq!(from_record(&rec).unwrap().moves, all.moves);
        }
        let over = PlanRequest {
            from: req(Start { board: Some("12\n".into()), ..Start::default() }, vec![]),
            ..Default::default()
        };
        assert_eq!(plan(&over, Control::new()).unwrap_err().to_string(), "the game is over (over)");
    }
}

/// SameGame under the one live contract ([`bits::live::Game`]): the setup is the board
/// (generated from the seed, or given) and the rules, a move is a click on a group, the solver
/// is `samegame solve`'s, and `auto` plays its plan out click by click.
pub mod contract {
    use std::fmt;
    use std::str::FromStr;

    use bits::live::{Caps, Game, Hint, Phase, Status, Turns};
    use serde::{Deserialize, Serialize};

    use super::{rules_or_defaults, Frame, GenRequest, PlanRequest, PositionRequest, Start};
    use super::{Control, Error, Search as Method, SolveGoal};
    use crate::board::Board;
    use crate::trace::{self, Record, RulesRecord};
    use crate::Rules;

    /// SameGame as the contract sees it.
    #[derive(Debug, Clone, Copy)]
    pub struct SameGame;

    /// The board and the rules; the contract's seed generates the board unless `board` is
    /// given.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(default, deny_unknown_fields)]
    pub struct Setup {
        /// Columns of a generated board (1-64).
        pub width: usize,
        /// Rows of a generated board (1-32).
        pub height: usize,
        /// Colours of a generated board (1-8).
        pub colors: usize,
        /// A board in the text form instead (digits `0`-`7`, `.` empty, rows top first).
        #[serde(skip_serializing_if = "Option::is_none")]
        pub board: Option<String>,
        /// The scoring and the smallest removable group.
        #[serde(deserialize_with = "rules_or_defaults")]
        pub rules: RulesRecord,
    }

    impl Default for Setup {
        fn default() -> Self {
            let g = GenRequest::default();
            Setup {
                width: g.width,
                height: g.height,
                colors: g.colors,
                board: None,
                rules: (&Rules::default()).into(),
            }
        }
    }

    /// A click: column from the left, row from the bottom, any tile of the group. Written
    /// `x.y`; clicks are separated by `-`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
    pub struct Click(pub [u8; 2]);

    impl fmt::Display for Click {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{}.{}", self.0[0], self.0[1])
        }
    }

    impl FromStr for Click {
        type Err = String;

        fn from_str(s: &str) -> Result<Click, String> {
            let bad = || "is not x.y (column from the left, row from the bottom)".to_string();
            let (x, y) = s.split_once('.').ok_or_else(bad)?;
            Ok(Click([x.parse().map_err(|_| bad())?, y.parse().map_err(|_| bad())?]))
        }
    }

    /// A game in progress: the start, the rules and the checked clicks.
    #[derive(Debug, Clone)]
    pub struct State {
        start: Board,
        rules: Rules,
        moves: Vec<trace::Move>,
        v: trace::Verified,
    }

    impl State {
        fn request(&self) -> PositionRequest {
            PositionRequest {
                start: Start { board: Some(self.start.to_string()), ..Start::default() },
                rules: (&self.rules).into(),
                moves: self.moves.iter().map(|&(x, y)| [x, y]).collect(),
                frames: false,
                record: false,
            }
        }

        fn frame(&self) -> Frame {
            let click = self.moves.last().map(|&(x, y)| {
                let (n, p) = self.v.steps.last().copied().unwrap_or((0, 0));
                ([x, y], n, p)
            });
            Frame::of(&self.v.last, &self.rules, self.v.score, click)
        }
    }

    /// The solver of `hint` and `auto` (as `samegame solve`'s options).
    #[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(default, deny_unknown_fields)]
    pub struct Search {
        /// `score` (the most points) or `clear` (an empty board).
        pub goal: SolveGoal,
        /// `beam` (both goals), `nrpa` or `beam-nrpa` (score goal).
        pub search: Method,
        /// Beam width (`None`: `solve`'s default for the goal).
        pub width: Option<usize>,
        /// NRPA's nesting level (1 to 3).
        pub level: u32,
        /// NRPA's iterations per level (1 to 1000).
        pub iterations: u32,
        /// Seed of the playouts.
        pub seed: u64,
        /// Longest search, in milliseconds (`None`: none; a server's cap applies on top).
        /// Stopped there, the search answers with the best whole game it has found (the
        /// plan says `stopped`), or an input error if it has found none yet.
        pub millis: Option<u64>,
    }

    impl Default for Search {
        fn default() -> Self {
            let d = PlanRequest::default();
            Search {
                goal: d.goal,
                search: d.search,
                width: d.width,
                level: d.level,
                iterations: d.iterations,
                seed: d.seed,
                millis: None,
            }
        }
    }

    impl Search {
        fn plan_request(&self, s: &State) -> PlanRequest {
            PlanRequest {
                from: s.request(),
                goal: self.goal,
                search: self.search,
                width: self.width,
                level: self.level,
                iterations: self.iterations,
                seed: self.seed,
            }
        }
    }

    /// What a hint adds: the solver's whole plan from the position.
    pub type Detail = super::Plan;

    fn plan(s: &State, search: &Search, ctl: Control) -> Result<super::Plan, Error> {
        let cap = search.millis.map(std::time::Duration::from_millis);
        match ctl.within(cap, |inner| super::plan(&search.plan_request(s), inner)) {
            // The time cap, not the caller, stopped it before any whole game was found.
            Err(Error::Aborted) if !ctl.aborted() => Err(Error::input(format!(
                "search: no whole game found within the time cap of {} ms; ask for a \
                 narrower beam or fewer iterations",
                search.millis.unwrap_or_default()
            ))),
            r => r,
        }
    }

    impl Game for SameGame {
        const NAME: &'static str = "samegame";
        const TITLE: &'static str = "SameGame";
        const SEP: &'static str = "-";
        const MAX_MOVES: usize = super::MAX_MOVES;

        type Setup = Setup;
        type Move = Click;
        type State = State;
        type Snapshot = Frame;
        type Frame = Frame;
        type Record = Record;
        type Search = Search;
        type Detail = Detail;

        fn start(setup: &Setup, seed: u64) -> Result<State, Error> {
            let start = Start {
                width: setup.width,
                height: setup.height,
                colors: setup.colors,
                seed,
                board: setup.board.clone(),
            }
            .board()?;
            let rules =
                Rules::try_from(&setup.rules).map_err(|e| Error::input(format!("rules: {e}")))?;
            let v = trace::verify(&start, &[], &rules)
                .map_err(|(_, e)| Error::input(format!("board: {e}")))?;
            Ok(State { start, rules, moves: Vec::new(), v })
        }

        fn play(s: &mut State, c: &Click) -> Result<(), String> {
            let [x, y] = c.0;
            let (n, p) = crate::groups::play(&mut s.v.last, x.into(), y.into(), &s.rules)
                .map_err(|e| e.to_string())?;
            s.moves.push((x, y));
            s.v.score += p;
            s.v.steps.push((n, p));
            s.v.tiles_left = s.v.last.tiles();
            s.v.cleared = s.v.last.is_clear();
            s.v.game_over =
                crate::groups::Groups::new().find(&s.v.last, s.rules.min_group).is_empty();
            Ok(())
        }

        fn legal(s: &State) -> Vec<Click> {
            let mut gs = crate::groups::Groups::new();
            gs.find(&s.v.last, s.rules.min_group.max(2)).iter().map(|g| Click([g.x, g.y])).collect()
        }

        fn status(s: &State) -> Status {
            match (s.v.cleared, s.v.game_over) {
                (true, _) => Status::new(Phase::Won, "cleared", "the board is empty"),
                (false, true) => Status::new(
                    Phase::Over,
                    "stuck",
                    format!("{} tiles left, and no group to remove", s.v.tiles_left),
                ),
                (false, false) => Status::playing(),
            }
        }

        fn score(s: &State) -> i64 {
            s.v.score
        }

        fn snapshot(s: &State) -> Frame {
            Frame { bits: Some(super::Planes::of(&s.v.last)), ..s.frame() }
        }

        fn frame(s: &State) -> Frame {
            s.frame()
        }

        fn text(s: &State) -> String {
            s.v.last.to_string()
        }

        fn record(s: &State, _player: &str) -> Record {
            Record::new(&s.start, &s.rules, &s.moves, &s.v)
        }

        fn unrecord(rec: &Record) -> Result<(Setup, u64, Vec<Click>), Error> {
            let req = super::from_record(rec)?;
            let setup = Setup { board: req.start.board, rules: req.rules, ..Setup::default() };
            Ok((setup, 0, req.moves.into_iter().map(Click).collect()))
        }

        fn cap(s: &mut Search, caps: &Caps) -> Result<(), Error> {
            let most = usize::try_from(caps.width).unwrap_or(usize::MAX);
            s.width = Some(s.width.unwrap_or(match s.goal {
                SolveGoal::Clear => 1000,
                _ => 30,
            }))
            .map(|w| w.min(most));
            if s.width == Some(0) {
                return Err(Error::input("search.width: must be at least 1"));
            }
            if !matches!(s.search, Method::Beam | Method::Nrpa | Method::BeamNrpa) {
                return Err(Error::input("search.search: beam, nrpa or beam-nrpa"));
            }
            if !(1..=3).contains(&s.level) {
                return Err(Error::input("search.level: must be 1 to 3"));
            }
            if !(1..=1000).contains(&s.iterations) {
                return Err(Error::input("search.iterations: must be 1 to 1000"));
            }
            if s.millis == Some(0) {
                return Err(Error::input("search.millis: must be at least 1"));
            }
            let most = s.millis.unwrap_or(u64::MAX).min(caps.millis);
            s.millis = (most != u64::MAX).then_some(most);
            Ok(())
        }

        fn solver(s: &Search) -> String {
            match s.search {
                Method::Nrpa => "nrpa",
                Method::BeamNrpa => "beam-nrpa",
                _ => "beam",
            }
            .into()
        }

        fn hint(s: &State, search: &Search, ctl: Control) -> Result<Hint<Detail>, Error> {
            let p = plan(s, search, ctl)?;
            let first = p.moves.first().ok_or_else(|| Error::failed("the plan has no click"))?;
            Ok(Hint {
                mv: Click(*first).to_string(),
                values: Vec::new(),
                unit: String::new(),
                solver: p.search.clone(),
                detail: p,
            })
        }

        fn auto(s: &mut State, search: &Search, turns: &mut Turns<Self>) -> Result<(), Error> {
            if !turns.more(s) {
                return Ok(());
            }
            let p = match plan(s, search, turns.ctl()) {
                Ok(p) => p,
                Err(Error::Aborted) => return Ok(()),
                Err(e) => return Err(e),
            };
            for c in p.moves {
                if !turns.more(s) {
                    break;
                }
                turns.play(s, Click(c))?;
            }
            Ok(())
        }
    }
}
