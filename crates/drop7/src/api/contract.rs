//! Drop7 under the one live contract ([`bits::live::Game`]): the setup is the rules (and a
//! Sequence game's stream), a move is a column `1`-`7`, the solver is the expectimax that
//! `drop7 play` runs.
//!
//! - Seeds: the contract's seed `S` is `drop7 play --seed S`'s batch seed, and the game is
//!   game 0 of that batch (its stream is seeded by `sub_seed(S, 0)`), so `auto` plays exactly
//!   the game `drop7 play --games 1 --seed S` plays. A record holds only that game seed: a
//!   record's game comes back with [`Setup::game_seed`] set (and seed 0).
//! - Sequence games are dealt from [`Setup::stream`] and end, as `drop7 play` ends them, once
//!   the stream's last disc is the next disc. A record keeps only the discs its game dealt,
//!   so a Sequence record comes back with the stream of those discs: its game ends where the
//!   record ends.
//! - The search has no clock: a front end's time limit is its abort flag.
//!
//! ```
//! use bits::live::{position, PositionRequest};
//! use drop7::api::contract::Drop7;
//!
//! let req = PositionRequest::<Drop7> { seed: 5, moves: "44".into(), ..Default::default() };
//! let pos = position(&req, bits::job::Control::new()).unwrap();
//! assert_eq!(pos.played, 2);
//! assert_eq!(pos.now.columns.len(), 7);
//! assert_eq!(pos.legal.len(), 7);
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use bits::live::{Caps, Game, Hint, MoveValue, Phase, Status, Turns, Unrecorded};
use serde::{Deserialize, Serialize};

use super::{
    check_range, dispatch, Control, Error, EvalChoice, EvalSpec, Job, SearchOptions, TableChoice,
};
use crate::board::{Board, Position, CRACKED, EMPTY, SIZE, SOLID};
use crate::engine::{Draws, ListDraws, RandomDraws, Recording};
use crate::search::{
    BatchSpec, DepthRule, Evaluator, RuleDecision, Searcher, Stats, Table, MAX_DEPTH,
};
use crate::trace::{verify, GameRecord};
use crate::{Disc, Mode, Rules};

/// Drop7 as the contract sees it.
#[derive(Debug, Clone, Copy)]
pub struct Drop7;

/// The stream seed of game 0 of the batch seeded by `seed` (what `drop7 play --seed` deals).
pub fn game_seed(seed: u64) -> u64 {
    bits::rng::sub_seed(seed, 0)
}

/// The rules of a game, as `drop7 play`'s rule flags give them, and where its discs come
/// from besides the seed (`Default`: the CLI's defaults, Hardcore).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Setup {
    /// `hardcore`, `normal` or `sequence` (`--mode`).
    pub mode: Mode,
    /// Normal and Sequence mode's share of gray next discs, `[NUM, DEN]` (`--gray-share`);
    /// Hardcore deals no grays.
    pub gray_share: (u32, u32),
    /// Pay the level bonus before the fatal rise (`--fatal-rise-bonus`).
    pub fatal_rise_bonus: bool,
    /// Restart the chain level at 1 after a rise (`--no-rise-chain`).
    pub no_rise_chain: bool,
    /// A Sequence game's stream (`--stream`'s text): line 1 the discs (`1`-`7`, `#` for
    /// gray), line 2 the values revealed grays take.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream: Option<String>,
    /// The game's stream seed itself (a record's `seed`), instead of game 0 of the seed's
    /// batch.
    #[serde(with = "bits::live::seed::opt", skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "bits::live::seed::opt::schema")]
    pub game_seed: Option<u64>,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            mode: Mode::Hardcore,
            gray_share: (1, 8),
            fatal_rise_bonus: false,
            no_rise_chain: false,
            stream: None,
            game_seed: None,
        }
    }
}

impl Setup {
    /// The rules of the setup; a bad gray share is an input error naming the field.
    pub fn rules(&self) -> Result<Rules, Error> {
        let (n, d) = self.gray_share;
        if d == 0 || n > d {
            return Err(Error::input(format!(
                "setup.gray_share: [{n}, {d}], expected [NUM, DEN] with 0 <= NUM <= DEN, DEN >= 1"
            )));
        }
        let mut rules = Rules::new(self.mode);
        rules.gray_share = (n, d);
        rules.fatal_rise_bonus = self.fatal_rise_bonus;
        rules.rise_chain_continues = !self.no_rise_chain;
        Ok(rules)
    }

    /// The setup a game with these rules was played under (no stream, no game seed).
    fn of_rules(r: &Rules) -> Setup {
        Setup {
            mode: r.mode,
            gray_share: r.gray_share,
            fatal_rise_bonus: r.fatal_rise_bonus,
            no_rise_chain: !r.rise_chain_continues,
            stream: None,
            game_seed: None,
        }
    }
}

/// A move: the column the next disc is dropped in, `1`-`7` from the left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Column(u8);

impl Column {
    /// The column of 0-based index `index`, if there is one (0-6).
    pub fn new(index: usize) -> Option<Column> {
        (index < SIZE).then_some(Column(index as u8))
    }

    /// The 0-based index (0 is the leftmost column).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 + 1)
    }
}

impl FromStr for Column {
    type Err = String;

    /// `1`-`7`.
    fn from_str(s: &str) -> Result<Column, String> {
        match s.trim().as_bytes() {
            [c @ b'1'..=b'7'] => Ok(Column(c - b'1')),
            _ => Err("is not a column (1-7)".into()),
        }
    }
}

/// Where a game's draws come from: the seeded stream or a Sequence stream.
#[derive(Debug, Clone)]
enum Source {
    Seeded(RandomDraws),
    Stream(ListDraws),
}

impl Draws for Source {
    fn next_disc(&mut self) -> Disc {
        match self {
            Source::Seeded(d) => d.next_disc(),
            Source::Stream(d) => d.next_disc(),
        }
    }

    fn reveal(&mut self) -> u8 {
        match self {
            Source::Seeded(d) => d.reveal(),
            Source::Stream(d) => d.reveal(),
        }
    }
}

/// A game in progress: the position on the checked engine, its draws and its record.
#[derive(Debug, Clone)]
pub struct State {
    rules: Rules,
    pos: Position,
    draws: Recording<Source>,
    /// A Sequence game's number of discs.
    stream_len: Option<usize>,
    rec: GameRecord,
}

impl State {
    fn new(rules: Rules, pos: Position, source: Source, seed: Option<u64>) -> State {
        let stream_len = match &source {
            Source::Stream(l) => Some(l.discs.len()),
            Source::Seeded(_) => None,
        };
        State {
            rules,
            pos,
            draws: Recording::new(source),
            stream_len,
            rec: GameRecord::new(rules, seed, None, &pos),
        }
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// A Sequence game whose stream's last disc is the next disc: `drop7 play` stops there.
    fn stream_ended(&self) -> bool {
        match (&self.draws.inner, self.stream_len) {
            (Source::Stream(l), Some(n)) => !self.rec.turns.is_empty() && l.disc_pos >= n,
            _ => false,
        }
    }
}

/// A disc as a front end draws it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Piece {
    /// A numbered disc.
    Number {
        /// Its number, 1-7.
        number: u8,
    },
    /// A solid gray: its number is hidden.
    Hidden,
    /// A cracked gray: one more hit reveals its number.
    Cracked,
}

impl Piece {
    /// The piece of a cell code (`None` for an empty cell).
    fn of_code(code: u8) -> Option<Piece> {
        match code {
            EMPTY => None,
            SOLID => Some(Piece::Hidden),
            CRACKED => Some(Piece::Cracked),
            number => Some(Piece::Number { number }),
        }
    }
}

/// The whole position (also a timeline's frame): the board, the next disc, the level and the
/// score, with the text form beside them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Snapshot {
    /// The 7 columns from the left, each its discs from the bottom up.
    pub columns: Vec<Vec<Piece>>,
    /// The disc to drop next (`None` once the game is over).
    pub next: Option<Piece>,
    /// The level, from 1.
    pub level: u32,
    /// Drops left before the board rises (0 only when a level's end ended the game).
    pub drops_left: u32,
    /// The score.
    pub score: u64,
    /// The text form (`rows/... next=D level=L drops=N score=S [over]`).
    pub text: String,
    /// The engine's seven column words (absent from timeline frames), column 0 first, as
    /// `0x` hex: a nibble per cell, row 0 (the bottom) lowest; `1`-`7` numbered, `8` solid
    /// gray, `9` cracked gray.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bits: Option<Vec<String>>,
}

impl Snapshot {
    fn of(pos: &Position) -> Snapshot {
        let b = &pos.board;
        Snapshot {
            columns: (0..SIZE)
                .map(|c| (0..SIZE).filter_map(|r| Piece::of_code(b.get(c, r))).collect())
                .collect(),
            next: (!pos.over).then(|| Piece::of_code(pos.next.code())).flatten(),
            level: pos.level,
            drops_left: pos.drops_left,
            score: pos.score,
            text: pos.to_string(),
            bits: None,
        }
    }
}

/// A transposition table, as `--table` names it.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub enum TableKind {
    /// No table.
    #[serde(rename = "none")]
    None,
    /// Direct-mapped.
    #[default]
    #[serde(rename = "direct")]
    Direct,
    /// Two-way set-associative.
    #[serde(rename = "2way")]
    TwoWay,
    /// Four-way set-associative.
    #[serde(rename = "4way")]
    FourWay,
}

impl TableKind {
    fn choice(self) -> TableChoice {
        match self {
            TableKind::None => TableChoice::None,
            TableKind::Direct => TableChoice::Direct,
            TableKind::TwoWay => TableChoice::Two,
            TableKind::FourWay => TableChoice::Four,
        }
    }
}

/// How a searched move that reveals grays is valued, as `--reveals` names it.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Reveals {
    /// The average of `reveal_samples` samples.
    Sampled,
    /// One reveal sample per chance outcome, followed by that outcome's next disc.
    Paired,
    /// As `Paired`, with stratified reveal draws shared by a node's columns
    /// ([`crate::search::SearchDraws::stratified`]); the default, the strongest measured
    /// (BENCHMARKS D24: +118,613 points a game over `Sampled` with `ready` at depth 3).
    #[default]
    Stratified,
}

/// The expectimax of `hint` and `auto`: `drop7 play`'s search flags, typed (`Default`: the
/// CLI's defaults). The rules come from the game's [`Setup`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Search {
    /// Moves searched, 1-6 (`--depth`); ignored under `budget`.
    pub depth: u32,
    /// The leaf evaluator as `--eval` names it, without files (`ready`, `crowding:W,..`,
    /// `fitted:W1,..,W33`, `points`, ...).
    pub eval: String,
    /// The transposition table (`--table`).
    pub table: TableKind,
    /// log2 of the table's entries (48 bytes each), 4-26 (`--table-bits`).
    pub table_bits: u32,
    /// Chance nodes over K equal strata of 1-7, 0-7 (0: every value) (`--strata`).
    pub strata: u8,
    /// Strata by chance level from the root down, each 0-7, the last repeating
    /// (`--strata-schedule`; not in Sequence games, as `drop7 play`).
    pub strata_schedule: Option<Vec<u8>>,
    /// The penalty for a move that ends the game (`--death`).
    pub death: f64,
    /// Reveal samples, 1-64: one, or a list from the root down (`--reveal-samples`).
    pub reveal_samples: Vec<u32>,
    /// `stratified` (the default), `paired` or `sampled` (`--reveals`).
    pub reveals: Reveals,
    /// A work budget (search moves) per decision instead of `depth` (`--budget`).
    pub budget: Option<u64>,
    /// The shallowest depth of a budget search, 1-7 (default 3) (`--min-depth`).
    pub min_depth: Option<u32>,
    /// The deepest depth of a budget search, 1-7 (default 6) (`--max-depth`).
    pub max_depth: Option<u32>,
}

impl Default for Search {
    fn default() -> Self {
        Search {
            depth: 3,
            eval: "ready".into(),
            table: TableKind::Direct,
            table_bits: 16,
            strata: 0,
            strata_schedule: None,
            death: 1_000_000.0,
            reveal_samples: vec![1],
            reveals: Reveals::Stratified,
            budget: None,
            min_depth: None,
            max_depth: None,
        }
    }
}

/// The work of a depth-`depth` decision as the search's docs estimate it: 7 moves at the
/// root, `7 * k` below each chance level (`k` outcomes), times the reveal samples.
fn work(depth: u32, k: u64, samples: u64) -> u64 {
    (1..depth).fold(7u64.saturating_mul(samples), |n, _| n.saturating_mul(7 * k))
}

impl Search {
    /// Checks every field; the evaluator, parsed.
    fn check(&self) -> Result<EvalChoice, Error> {
        let bad = |m: String| Err(Error::input(m));
        check_range("search.depth", self.depth, SearchOptions::DEPTH)?;
        check_range("search.table_bits", self.table_bits, SearchOptions::TABLE_BITS)?;
        check_range("search.strata", self.strata, SearchOptions::STRATA)?;
        if let Some(list) = &self.strata_schedule {
            if list.is_empty() || list.len() > 8 || list.iter().any(|&k| k > 7) {
                return bad(format!(
                    "search.strata_schedule: {list:?}, expected 1 to 8 entries, each 0 to 7"
                ));
            }
        }
        if !self.death.is_finite() {
            return bad("search.death: must be a finite number".into());
        }
        let r = &self.reveal_samples;
        if r.is_empty() || r.len() > 8 || r.iter().any(|n| !(1..=64).contains(n)) {
            return bad(format!(
                "search.reveal_samples: {r:?}, expected 1 to 8 entries, each 1 to 64"
            ));
        }
        if self.budget.is_some() {
            let (min, max) = (self.min_depth.unwrap_or(3), self.max_depth.unwrap_or(6));
            if !(1..=MAX_DEPTH).contains(&min) {
                return bad(format!("search.min_depth: {min}, expected 1 to {MAX_DEPTH}"));
            }
            if !(1..=MAX_DEPTH).contains(&max) {
                return bad(format!("search.max_depth: {max}, expected 1 to {MAX_DEPTH}"));
            }
            if min > max {
                return bad(format!("search.min_depth: {min} is above search.max_depth {max}"));
            }
            if r.len() > 1 {
                return bad(
                    "search.reveal_samples: a list is keyed to one depth, not for search.budget"
                        .into(),
                );
            }
        }
        if !super::eval_files(&self.eval).is_empty() {
            return bad(format!(
                "search.eval: {:?} names a file, which the live game does not read",
                self.eval
            ));
        }
        EvalChoice::parse("search.eval", &EvalSpec::new(self.eval.clone()))
    }

    /// The deepest search whose estimated work fits `nodes` (at least 1).
    fn deepest(&self, nodes: u64, up_to: u32) -> u32 {
        let outcomes = |k: u8| if k == 0 { 8 } else { u64::from(k) };
        let k = match &self.strata_schedule {
            Some(list) => list.iter().map(|&k| outcomes(k)).max().unwrap_or(8),
            None => outcomes(self.strata),
        };
        let samples = u64::from(self.reveal_samples.iter().copied().max().unwrap_or(1));
        (1..=up_to).rev().find(|&d| work(d, k, samples) <= nodes).unwrap_or(1)
    }

    /// The CLI's search options for a game with `rules`.
    fn options(&self, rules: &Rules) -> SearchOptions {
        fn list<T: ToString>(v: &[T]) -> String {
            v.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
        }
        let mode = match rules.mode {
            Mode::Normal => "normal",
            Mode::Hardcore => "hardcore",
            Mode::Sequence => "sequence",
        };
        SearchOptions {
            mode: mode.into(),
            depth: self.depth,
            eval: EvalSpec::new(self.eval.clone()),
            table: self.table.choice().name().into(),
            table_bits: self.table_bits,
            strata: self.strata,
            strata_schedule: self.strata_schedule.as_deref().map(list),
            gray_share: format!("{}/{}", rules.gray_share.0, rules.gray_share.1),
            fatal_rise_bonus: rules.fatal_rise_bonus,
            no_rise_chain: !rules.rise_chain_continues,
            death: self.death,
            reveal_samples: list(&self.reveal_samples),
            reveals: match self.reveals {
                Reveals::Sampled => "sampled",
                Reveals::Paired => "paired",
                Reveals::Stratified => "stratified",
            }
            .into(),
            budget: self.budget,
            min_depth: self.min_depth,
            max_depth: self.max_depth,
        }
    }
}

/// A search ready to run on a game's rules: what `drop7 play` builds from its flags.
struct Plan {
    eval: EvalChoice,
    table: TableChoice,
    bits: u32,
    spec: BatchSpec,
    /// Sequence games play without the chance schedule, as `drop7 play --mode sequence`.
    sequence: bool,
    /// The solver in words.
    label: String,
}

impl Plan {
    fn new(search: &Search, rules: &Rules) -> Result<Plan, Error> {
        let eval = search.check()?;
        let o = search.options(rules);
        let mut spec = o.batch(0, 0, 1, o.rule()?, u32::MAX, false)?;
        spec.rules = *rules;
        let rule = match spec.depth {
            DepthRule::Fixed(d) => format!("depth {d}"),
            r => r.to_string(),
        };
        let label =
            format!("expectimax {rule}, eval {}, reveals {}", eval.label(), o.reveals_label());
        Ok(Plan {
            eval,
            table: search.table.choice(),
            bits: search.table_bits,
            spec,
            sequence: rules.mode == Mode::Sequence,
            label,
        })
    }
}

/// The searcher `drop7 play` plays a game with: the batch's searcher, with the chance
/// schedule (seeded games only).
fn searcher<E: Evaluator, T: Table>(
    spec: &BatchSpec,
    sequence: bool,
    eval: E,
    table: T,
) -> Searcher<E, T> {
    let mut s = spec.searcher(eval, table);
    if let (Some(schedule), false) = (spec.chance_schedule, sequence) {
        s.set_chance_schedule(&schedule, spec.depth.min_depth());
    }
    s
}

struct HintJob<'a> {
    spec: BatchSpec,
    sequence: bool,
    pos: Position,
    abort: Option<&'a AtomicBool>,
}

impl Job for HintJob<'_> {
    type Out = (RuleDecision, Stats, bool);
    fn run<E, T>(self, eval: E, make_table: impl Fn() -> T + Sync) -> Self::Out
    where
        E: Evaluator + Clone + Send,
        T: Table + Send,
    {
        let mut s = searcher(&self.spec, self.sequence, eval, make_table()).with_abort(self.abort);
        let r = s.decide_rule(&self.pos, self.spec.depth);
        (r, s.stats, s.stopped())
    }
}

struct AutoJob<'s, 't, 'c> {
    state: &'s mut State,
    turns: &'t mut Turns<'c, Drop7>,
    spec: BatchSpec,
    sequence: bool,
}

impl Job for AutoJob<'_, '_, '_> {
    type Out = Result<(), Error>;
    fn run<E, T>(self, eval: E, make_table: impl Fn() -> T + Sync) -> Self::Out
    where
        E: Evaluator + Clone + Send,
        T: Table + Send,
    {
        // One searcher and table for the whole run, as `drop7 play` keeps for a game.
        let abort = self.turns.ctl().abort_flag();
        let mut s = searcher(&self.spec, self.sequence, eval, make_table()).with_abort(abort);
        while self.turns.more(self.state) {
            let r = s.decide_rule(&self.state.pos, self.spec.depth);
            if s.stopped() {
                break; // a stopped decision is not a real one
            }
            let col = Column::new(r.decision.best)
                .ok_or_else(|| Error::failed("the search found no open column"))?;
            self.turns.play(self.state, col)?;
        }
        Ok(())
    }
}

/// What a Drop7 hint adds: the depth searched and the search's work.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Detail {
    /// The depth of the decision (under a budget: the deepest completed).
    pub depth: u32,
    /// The search's work counters.
    pub stats: Stats,
}

/// The stream of a Sequence record: the discs its game dealt (and a gray its game never
/// dealt when it ended by itself), then the values its reveals took.
fn stream_of(rec: &GameRecord, end: &Position) -> Result<String, Error> {
    let bad = |n: usize, what: String| Error::input(format!("record: turn {n}: {what}"));
    let start: Position = rec.start.parse().map_err(|e| bad(0, format!("start position: {e}")))?;
    let mut discs = vec![start.next.to_char()];
    let mut reveals = String::new();
    for (i, t) in rec.turns.iter().enumerate() {
        let p: Position = t.position.parse().map_err(|e| bad(i + 1, format!("position: {e}")))?;
        if !p.over {
            discs.push(p.next.to_char());
        }
        for &v in &t.reveals {
            let ch = char::from_digit(u32::from(v), 10)
                .ok_or_else(|| bad(i + 1, format!("reveal value {v}")))?;
            reveals.push(ch);
        }
    }
    if end.over {
        discs.push(Disc::GRAY.to_char());
    }
    Ok(format!("{}\n{reveals}\n", discs.into_iter().collect::<String>()))
}

impl Game for Drop7 {
    const NAME: &'static str = "drop7";
    const TITLE: &'static str = "Drop7";
    const SEP: &'static str = "";
    const MAX_MOVES: usize = 100_000;

    type Setup = Setup;
    type Move = Column;
    type State = State;
    type Snapshot = Snapshot;
    type Frame = Snapshot;
    type Record = GameRecord;
    type Search = Search;
    type Detail = Detail;

    fn start(setup: &Setup, seed: u64) -> Result<State, Error> {
        let rules = setup.rules()?;
        match (rules.mode, &setup.stream) {
            (Mode::Sequence, None) => Err(Error::input(
                "setup.stream: a Sequence game is dealt from a stream (line 1 the discs, line 2 the reveals)",
            )),
            (Mode::Sequence, Some(text)) => {
                if setup.game_seed.is_some() {
                    return Err(Error::input(
                        "setup.game_seed: a Sequence game is dealt from its stream, not a seed",
                    ));
                }
                let mut list = ListDraws::parse_stream(text)
                    .map_err(|e| Error::input(format!("setup.stream: {e}")))?;
                if list.discs.len() > Self::MAX_MOVES + 1 {
                    return Err(Error::input(format!(
                        "setup.stream: {} discs, at most {}",
                        list.discs.len(),
                        Self::MAX_MOVES + 1
                    )));
                }
                let pos = Position::start(&rules, Board::GRAY_ROW, &mut list);
                Ok(State::new(rules, pos, Source::Stream(list), None))
            }
            (_, Some(_)) => Err(Error::input("setup.stream: only a Sequence game has a stream")),
            (_, None) => {
                let g = setup.game_seed.unwrap_or_else(|| game_seed(seed));
                let mut draws = RandomDraws::new(&rules, g);
                let pos = Position::new_game(&rules, &mut draws);
                Ok(State::new(rules, pos, Source::Seeded(draws), Some(g)))
            }
        }
    }

    fn play(s: &mut State, m: &Column) -> Result<(), String> {
        if s.stream_ended() {
            return Err("the stream has run out".into());
        }
        let prev = s.pos;
        let turn = s.pos.play(&s.rules, m.index(), &mut s.draws).map_err(|e| e.to_string())?;
        let reveals = s.draws.take_reveals();
        s.rec.push(&prev, m.index(), &turn, reveals, &s.pos);
        Ok(())
    }

    fn legal(s: &State) -> Vec<Column> {
        if s.pos.over || s.stream_ended() {
            return Vec::new();
        }
        (0..SIZE).filter(|&c| s.pos.board.can_drop(c)).filter_map(Column::new).collect()
    }

    fn status(s: &State) -> Status {
        if s.pos.over && s.pos.drops_left == 0 {
            Status::new(Phase::Over, "full_at_rise", "a column was full when the level ended")
        } else if s.pos.over {
            Status::new(Phase::Over, "no_column", "every column is full")
        } else if s.stream_ended() {
            Status::new(Phase::Over, "stream_ended", "the stream has no disc after the next one")
        } else {
            Status::playing()
        }
    }

    fn score(s: &State) -> i64 {
        i64::try_from(s.pos.score).unwrap_or(i64::MAX)
    }

    fn snapshot(s: &State) -> Snapshot {
        let words = s.pos.board.cols().iter().map(|w| format!("{w:#010x}")).collect();
        Snapshot { bits: Some(words), ..Snapshot::of(&s.pos) }
    }

    fn frame(s: &State) -> Snapshot {
        Snapshot::of(&s.pos)
    }

    fn text(s: &State) -> String {
        s.pos.to_string()
    }

    fn record(s: &State, _player: &str) -> GameRecord {
        s.rec.clone()
    }

    fn unrecord(rec: &GameRecord) -> Result<Unrecorded<Self>, Error> {
        if rec.turns.len() > Self::MAX_MOVES {
            return Err(Error::input(format!(
                "record: {} turns, at most {}",
                rec.turns.len(),
                Self::MAX_MOVES
            )));
        }
        // The record's own check: every turn replayed from its recorded draws.
        let end = verify(rec).map_err(|e| Error::input(format!("record: {e}")))?;
        let mut setup = Setup::of_rules(&rec.rules);
        let source = if rec.rules.mode == Mode::Sequence {
            setup.stream = Some(stream_of(rec, &end)?);
            "its stream".to_string()
        } else {
            let g = rec.seed.ok_or_else(|| {
                Error::input("record: it has no seed, so its draws cannot be dealt again")
            })?;
            setup.game_seed = Some(g);
            format!("seed {g}")
        };
        // `verify` trusts the recorded draws: deal them again from the seed.
        let mut s =
            Self::start(&setup, 0).map_err(|e| Error::input(format!("record: {}", e.message())))?;
        let bad = |n: usize| Error::input(format!("record: turn {n}: not the draws of {source}"));
        let start: Position = rec.start.parse().map_err(|_| bad(0))?;
        if s.pos != start {
            return Err(bad(0));
        }
        let mut moves = Vec::with_capacity(rec.turns.len());
        for (i, t) in rec.turns.iter().enumerate() {
            let m = Column::new(usize::from(t.column).wrapping_sub(1)).ok_or_else(|| bad(i + 1))?;
            Self::play(&mut s, &m)
                .map_err(|e| Error::input(format!("record: turn {}: {e}", i + 1)))?;
            let after: Position = t.position.parse().map_err(|_| bad(i + 1))?;
            let dealt = s.rec.turns.last().map(|x| &x.reveals);
            if s.pos != after || dealt != Some(&t.reveals) {
                return Err(bad(i + 1));
            }
            moves.push(m);
        }
        Ok((setup, 0, moves))
    }

    fn cap(s: &mut Search, caps: &Caps) -> Result<(), Error> {
        s.check()?;
        s.table_bits = s.table_bits.min(caps.table_bits).max(4);
        match s.budget {
            None => {
                let deepest = s.deepest(caps.nodes, s.depth.min(caps.depth));
                s.depth = s.depth.min(deepest);
            }
            Some(b) => {
                let max = s.max_depth.unwrap_or(6).min(caps.depth);
                let max = s.deepest(caps.nodes, max).min(max).max(1);
                s.budget = Some(b.min(caps.nodes));
                s.max_depth = Some(max);
                s.min_depth = Some(s.min_depth.unwrap_or(3).min(max));
            }
        }
        Ok(())
    }

    fn solver(_s: &Search) -> String {
        "expectimax".into()
    }

    fn hint(s: &State, search: &Search, ctl: Control) -> Result<Hint<Detail>, Error> {
        let plan = Plan::new(search, &s.rules)?;
        let job = HintJob {
            spec: plan.spec,
            sequence: plan.sequence,
            pos: s.pos,
            abort: ctl.abort_flag(),
        };
        let (r, stats, stopped) = dispatch(&plan.eval, plan.table, plan.bits, job);
        if stopped {
            return Err(Error::Aborted);
        }
        ctl.check()?;
        let d = r.decision;
        let best = Column::new(d.best).ok_or_else(|| Error::input("no column can take a disc"))?;
        let values = (0..SIZE)
            .filter_map(|c| d.values[c].map(|v| MoveValue { mv: (c + 1).to_string(), value: v }))
            .collect();
        Ok(Hint {
            mv: best.to_string(),
            values,
            unit: "points: the move's points plus the expected value after it (chance \
                   averaged, the evaluator at the horizon); a move that ends the game: its \
                   points minus search.death"
                .into(),
            solver: plan.label,
            detail: Detail { depth: r.depth, stats },
        })
    }

    fn auto(s: &mut State, search: &Search, turns: &mut Turns<Self>) -> Result<(), Error> {
        let plan = Plan::new(search, &s.rules)?;
        if s.rec.turns.is_empty() {
            // The record names the searcher as `drop7 play`'s does.
            let (depth, rule) = match plan.spec.depth {
                DepthRule::Fixed(d) => (Some(d), None),
                rule => (None, Some(rule)),
            };
            s.rec.depth = depth;
            s.rec.rule = rule;
        }
        let job = AutoJob { state: s, turns, spec: plan.spec, sequence: plan.sequence };
        dispatch(&plan.eval, plan.table, plan.bits, job)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_read_and_write_one_to_seven() {
        for c in 0..7 {
            let m = Column::new(c).unwrap();
            assert_eq!(m.to_string().parse::<Column>().unwrap(), m);
        }
        assert!(Column::new(7).is_none());
        for bad in ["0", "8", "", "12", "a"] {
            assert_eq!(bad.parse::<Column>().unwrap_err(), "is not a column (1-7)");
        }
    }

    #[test]
    fn work_follows_the_search_docs() {
        assert_eq!(work(1, 7, 1), 7);
        assert_eq!(work(3, 7, 1), 7 * 49 * 49);
        assert_eq!(work(7, 8, 64), 7 * 64 * 56u64.pow(6));
    }
}
