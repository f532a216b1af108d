//! The one contract every game offers its front ends: a game crate implements [`Game`] (a few
//! primitives: start, play, legal moves, status, snapshot, record, and its solver's moves),
//! and the verbs that the web arcade, Python and the SameGame bot share are written once, here,
//! over that trait:
//!
//! - [`position`]: a setup, a seed and moves give the state (or every state), with the legal
//!   moves;
//! - [`record`]: the game's record, as the CLI's `--record` writes it;
//! - [`frames`]: a record (or one of a list) back into its setup, seed, moves and every state,
//!   after the game's own replay check;
//! - [`hint`]: the solver's move, with every legal move's value where the game has values;
//! - [`auto`]: the solver playing on, every move reported through [`Control::with_steps`];
//!   stopped by the abort flag it ends the same way in every game ([`Stop::Aborted`]);
//! - [`check`]: a request validated before any work is done.
//!
//! What the verbs send is the same in every game: seeds as decimal strings ([`seed`]), moves
//! as one string in the game's notation ([`Game::SEP`] between moves), statuses as a
//! [`Status`] with a message, snapshots structured by the game (cells as arrays, the text form
//! beside them). Budgets are clamped by the [`Caps`] the caller passes in.
//!
//! ```
//! use bits::live::{Caps, Game};
//! assert!(Caps::default().nodes > 0);
//! ```

use std::fmt::{self, Debug, Display};
use std::str::FromStr;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::job::{Control, Error, Step};

/// The limits a front end puts on a solver, whatever the request asks. Each game clamps its
/// own search settings by them ([`Game::cap`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Caps {
    /// Most search nodes per decision.
    pub nodes: u64,
    /// Deepest search, in moves (or layers).
    pub depth: u32,
    /// Longest search per decision, in milliseconds.
    pub millis: u64,
    /// Largest transposition table, as log2 of its entries.
    pub table_bits: u32,
    /// Widest beam.
    pub width: u64,
    /// Most moves one `auto` run plays.
    pub moves: u64,
}

impl Default for Caps {
    fn default() -> Self {
        Caps {
            nodes: 5_000_000,
            depth: 10,
            millis: 10_000,
            table_bits: 22,
            width: 20_000,
            moves: 1_000_000,
        }
    }
}

impl Caps {
    /// No limit at all (for the CLI and tests, which run what they are asked).
    pub const NONE: Caps = Caps {
        nodes: u64::MAX,
        depth: u32::MAX,
        millis: u64::MAX,
        table_bits: u32::MAX,
        width: u64::MAX,
        moves: u64::MAX,
    };
}

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Moves can still be played.
    Playing,
    /// The game reached its goal (a cleared board, a full board, a perfect clear).
    Won,
    /// The game ended without reaching it.
    Over,
}

/// How a game stands: the phase, a short code for programs, and a sentence for people.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Status {
    /// Playing, won or over.
    pub phase: Phase,
    /// A short snake_case code (`playing`, `no_moves`, `died_wall`, `cleared`, ...).
    pub code: String,
    /// What it means, in words.
    pub message: String,
}

impl Status {
    /// A status from its parts.
    pub fn new(phase: Phase, code: &str, message: impl Into<String>) -> Status {
        Status { phase, code: code.into(), message: message.into() }
    }

    /// Still playing.
    pub fn playing() -> Status {
        Status::new(Phase::Playing, "playing", "the game is on")
    }

    /// Whether moves can still be played.
    pub fn is_playing(&self) -> bool {
        self.phase == Phase::Playing
    }
}

impl Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Serde for `u64` seeds as decimal strings (a browser's numbers lose digits past 2^53);
/// numbers are read too. Use with `#[serde(with = "bits::live::seed")]` and
/// `#[schemars(schema_with = "bits::live::seed::schema")]`.
pub mod seed {
    use serde::de::{self, Visitor};
    use serde::{Deserializer, Serializer};
    use std::fmt;

    /// Writes the seed as a string.
    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    struct Seed;

    impl Visitor<'_> for Seed {
        type Value = u64;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a seed from 0 to 18446744073709551615, as a string or a number")
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| E::custom(format!("seed {v} is negative")))
        }

        fn visit_f64<E: de::Error>(self, v: f64) -> Result<u64, E> {
            Err(E::custom(format!("seed {v} is not a whole number from 0 to 2^64-1")))
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
            v.trim().parse().map_err(|_| {
                E::custom(format!(
                    "seed {v:?} is not a whole number from 0 to 18446744073709551615"
                ))
            })
        }
    }

    /// Reads a seed from a string or a number.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        d.deserialize_any(Seed)
    }

    /// The JSON schema of a seed: a string of digits, or a whole number, from 0 to 2^64-1.
    /// Use with `#[schemars(schema_with = "bits::live::seed::schema")]`.
    pub fn schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A seed from 0 to 18446744073709551615, as a string of digits (exact in every JSON reader) or a whole number",
            "anyOf": [
                {"type": "string", "pattern": "^[0-9]{1,20}$"},
                {"type": "integer", "minimum": 0, "maximum": 18446744073709551615u64}
            ]
        })
    }

    /// The same for an optional seed (`null` or absent is `None`).
    pub mod opt {
        use serde::{Deserialize, Deserializer, Serializer};

        /// Writes the seed as a string, or `null`.
        pub fn serialize<S: Serializer>(v: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
            match v {
                Some(v) => s.collect_str(v),
                None => s.serialize_none(),
            }
        }

        /// The JSON schema of an optional seed: [`super::schema`] or `null`.
        pub fn schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
            schemars::json_schema!({"anyOf": [super::schema(g), {"type": "null"}]})
        }

        /// Reads `null`, a string or a number.
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
            #[derive(Deserialize)]
            struct W(#[serde(with = "super")] u64);
            Ok(Option::<W>::deserialize(d)?.map(|w| w.0))
        }
    }
}

/// One legal move's value, as the game's solver sees it (higher is better).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MoveValue {
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value (an expected score, a win chance, ...: [`Hint::unit`] says which).
    pub value: f64,
}

/// What a game's solver answers for a position.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Hint<D> {
    /// The solver's move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Every legal move's value where the game has values (empty where it has none).
    pub values: Vec<MoveValue>,
    /// What the values measure (`expected score`, ...), empty without values.
    pub unit: String,
    /// The solver in words.
    pub solver: String,
    /// What else the game's solver gives (a route, a plan, a solution).
    pub detail: D,
}

/// A record's game: its setup, its seed and its moves.
pub type Unrecorded<G> = (<G as Game>::Setup, u64, Vec<<G as Game>::Move>);

/// How a front end tells another game's records: that game's title, and whether a JSON text
/// is one of its records (its [`is_record`]).
pub type OtherGame<'a> = (&'a str, fn(&str) -> bool);

/// The primitives one game gives the contract. The verbs of this module are written once
/// over them. A game's [`Game::State`] is its checked engine; [`Game::play`] must refuse every
/// illegal move with a one-line reason.
pub trait Game: Sized + 'static {
    /// The game's name in routes and messages (`samegame`, `tetris`, `drop7`, `2048`, `snake`).
    const NAME: &'static str;
    /// The game's name for people (`SameGame`, `Tetris`, `Drop7`, `2048`, `Snake`).
    const TITLE: &'static str;
    /// What separates moves in a move list (empty when every move is one character).
    const SEP: &'static str;

    /// Board and rules: what stays the same through a game (`Default`: the CLI's defaults).
    type Setup: Serialize + DeserializeOwned + JsonSchema + Default + Clone + Debug + Send + Sync;
    /// One move; `Display` and `FromStr` are the game's move notation.
    type Move: Clone + PartialEq + Debug + Display + FromStr<Err = String> + Send + Sync;
    /// A game in progress, on the checked engine.
    type State: Clone + Send;
    /// The whole position, structured (cells as arrays, the text form beside them).
    type Snapshot: Serialize + DeserializeOwned + JsonSchema + Clone + Debug + PartialEq + Send;
    /// One entry of a timeline (may be more compact than a snapshot).
    type Frame: Serialize + DeserializeOwned + JsonSchema + Clone + Debug + PartialEq + Send;
    /// The game's record, exactly as the CLI's `--record` writes it.
    type Record: Serialize + DeserializeOwned + JsonSchema + Clone + Debug + Send;
    /// The solver's settings for [`hint`] and [`auto`] (`Default`: the CLI's).
    type Search: Serialize + DeserializeOwned + JsonSchema + Default + Clone + Debug + Send + Sync;
    /// What a hint gives beyond the move and the values.
    type Detail: Serialize + DeserializeOwned + JsonSchema + Clone + Debug + Send;

    /// The longest move list a request may hold.
    const MAX_MOVES: usize;

    /// The game of `setup` and `seed` before any move; a bad setup is an input error that
    /// names its field.
    fn start(setup: &Self::Setup, seed: u64) -> Result<Self::State, Error>;
    /// Plays `m`; an illegal move leaves the state as it was and says why.
    fn play(state: &mut Self::State, m: &Self::Move) -> Result<(), String>;
    /// The legal moves now (empty once the game is over), in the game's order.
    fn legal(state: &Self::State) -> Vec<Self::Move>;
    /// How the game stands.
    fn status(state: &Self::State) -> Status;
    /// The score now.
    fn score(state: &Self::State) -> i64;
    /// The position, structured.
    fn snapshot(state: &Self::State) -> Self::Snapshot;
    /// The timeline entry of the position.
    fn frame(state: &Self::State) -> Self::Frame;
    /// The text form of the position.
    fn text(state: &Self::State) -> String;
    /// The game's record; `player` names who played (`hand`, a solver, `hand+cycle`).
    fn record(state: &Self::State, player: &str) -> Self::Record;
    /// The setup, seed and moves of a record, once the game's own replay has accepted it (a
    /// record that does not replay is an input error naming the step).
    fn unrecord(record: &Self::Record) -> Result<Unrecorded<Self>, Error>;

    /// Clamps the search to `caps` and checks it; an impossible setting is an input error that
    /// names its field.
    fn cap(search: &mut Self::Search, caps: &Caps) -> Result<(), Error>;
    /// The solver's name for records (`expectimax`, `cycle`, `beam`, ...).
    fn solver(search: &Self::Search) -> String;
    /// The solver's answer for the position (the game is playing).
    fn hint(
        state: &Self::State,
        search: &Self::Search,
        ctl: Control,
    ) -> Result<Hint<Self::Detail>, Error>;
    /// The solver plays on through `turns` until [`Turns::more`] says stop or it has no move.
    fn auto(
        state: &mut Self::State,
        search: &Self::Search,
        turns: &mut Turns<Self>,
    ) -> Result<(), Error>;
}

/// A game as a front end holds it: its setup, its seed, and the moves so far.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(default, bound = "")]
#[schemars(bound = "")]
pub struct PositionRequest<G: Game> {
    /// Board and rules.
    pub setup: G::Setup,
    /// The seed (a string, or a number below 2^53).
    #[serde(with = "seed")]
    #[schemars(schema_with = "seed::schema")]
    pub seed: u64,
    /// The moves played, in the game's notation.
    pub moves: String,
    /// Also return the timeline: the frame of the start and after every move.
    pub frames: bool,
    /// Also return the game's record.
    pub record: bool,
}

impl<G: Game> Default for PositionRequest<G> {
    fn default() -> Self {
        PositionRequest {
            setup: G::Setup::default(),
            seed: 1,
            moves: String::new(),
            frames: false,
            record: false,
        }
    }
}

impl<G: Game> Clone for PositionRequest<G> {
    fn clone(&self) -> Self {
        PositionRequest {
            setup: self.setup.clone(),
            seed: self.seed,
            moves: self.moves.clone(),
            frames: self.frames,
            record: self.record,
        }
    }
}

impl<G: Game> Debug for PositionRequest<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PositionRequest")
            .field("setup", &self.setup)
            .field("seed", &self.seed)
            .field("moves", &self.moves)
            .finish()
    }
}

/// The answer to [`position`].
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(bound = "")]
#[schemars(bound = "")]
pub struct PositionResponse<G: Game> {
    /// The game's name.
    pub game: String,
    /// Board and rules.
    pub setup: G::Setup,
    /// The seed.
    #[serde(with = "seed")]
    #[schemars(schema_with = "seed::schema")]
    pub seed: u64,
    /// The moves, in the game's notation as written back.
    pub moves: String,
    /// How many moves.
    pub played: usize,
    /// The position reached.
    pub now: G::Snapshot,
    /// Its text form.
    pub text: String,
    /// The score.
    pub score: i64,
    /// How the game stands.
    pub status: Status,
    /// The legal moves now, in the game's notation.
    pub legal: Vec<String>,
    /// With `frames`: the start and the position after every move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frames: Vec<G::Frame>,
    /// With `record`: the game's record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<G::Record>,
}

impl<G: Game> Debug for PositionResponse<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PositionResponse")
            .field("game", &self.game)
            .field("seed", &self.seed)
            .field("moves", &self.moves)
            .field("now", &self.now)
            .field("status", &self.status)
            .finish()
    }
}

/// Parses a move list in `G`'s notation; a bad move is an input error naming it.
pub fn parse_moves<G: Game>(text: &str) -> Result<Vec<G::Move>, Error> {
    let tokens: Vec<&str> = if G::SEP.is_empty() {
        text.char_indices()
            .filter(|(_, c)| !c.is_whitespace())
            .map(|(i, c)| &text[i..i + c.len_utf8()])
            .collect()
    } else {
        text.split(G::SEP).map(str::trim).filter(|t| !t.is_empty()).collect()
    };
    if tokens.len() > G::MAX_MOVES {
        return Err(Error::input(format!(
            "moves: {} moves, at most {}",
            tokens.len(),
            G::MAX_MOVES
        )));
    }
    tokens
        .iter()
        .enumerate()
        .map(|(i, t)| {
            t.parse().map_err(|e| Error::input(format!("moves: {t:?} (move {}) {e}", i + 1)))
        })
        .collect()
}

/// Writes moves in `G`'s notation.
pub fn format_moves<G: Game>(moves: &[G::Move]) -> String {
    let mut out = String::new();
    for (i, m) in moves.iter().enumerate() {
        if i > 0 {
            out.push_str(G::SEP);
        }
        out.push_str(&m.to_string());
    }
    out
}

/// The game after `moves`, calling `each` on the start and after every move; an illegal move
/// is an input error naming it.
fn replay<G: Game>(
    setup: &G::Setup,
    seed: u64,
    moves: &[G::Move],
    ctl: Control,
    mut each: impl FnMut(&G::State),
) -> Result<G::State, Error> {
    let mut s = G::start(setup, seed)?;
    each(&s);
    for (i, m) in moves.iter().enumerate() {
        if i % 1024 == 1023 {
            ctl.check()?;
        }
        if !G::status(&s).is_playing() {
            return Err(Error::input(format!(
                "moves: {m} (move {}) comes after the game ended ({})",
                i + 1,
                G::status(&s)
            )));
        }
        G::play(&mut s, m).map_err(|e| Error::input(format!("moves: {m} (move {}) {e}", i + 1)))?;
        each(&s);
    }
    Ok(s)
}

fn state_of<G: Game>(req: &PositionRequest<G>, ctl: Control) -> Result<G::State, Error> {
    let moves = parse_moves::<G>(&req.moves)?;
    replay::<G>(&req.setup, req.seed, &moves, ctl, |_| {})
}

fn respond<G: Game>(
    req: &PositionRequest<G>,
    moves: &[G::Move],
    s: &G::State,
    frames: Vec<G::Frame>,
    player: &str,
) -> PositionResponse<G> {
    let status = G::status(s);
    let legal = if status.is_playing() {
        G::legal(s).iter().map(ToString::to_string).collect()
    } else {
        Vec::new()
    };
    PositionResponse {
        game: G::NAME.into(),
        setup: req.setup.clone(),
        seed: req.seed,
        moves: format_moves::<G>(moves),
        played: moves.len(),
        now: G::snapshot(s),
        text: G::text(s),
        score: G::score(s),
        status,
        legal,
        frames,
        record: req.record.then(|| G::record(s, player)),
    }
}

/// The position of `req`: the state now, the legal moves, and on request the timeline and the
/// record.
pub fn position<G: Game>(
    req: &PositionRequest<G>,
    ctl: Control,
) -> Result<PositionResponse<G>, Error> {
    let moves = parse_moves::<G>(&req.moves)?;
    let mut frames = Vec::new();
    let s = replay::<G>(&req.setup, req.seed, &moves, ctl, |s| {
        if req.frames {
            frames.push(G::frame(s));
        }
    })?;
    Ok(respond(req, &moves, &s, frames, "hand"))
}

/// The record of the game of `req` (played by hand), exactly as the CLI writes records.
pub fn record<G: Game>(req: &PositionRequest<G>, ctl: Control) -> Result<G::Record, Error> {
    let s = state_of(req, ctl)?;
    Ok(G::record(&s, "hand"))
}

/// A record to load: one record, or a list of them with `index` picking one.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
#[schemars(bound = "R: JsonSchema + Default + Serialize")]
pub struct FramesRequest<R> {
    /// The record (any JSON: it is read as `G`'s record, or named as another game's).
    pub record: R,
    /// Which record of a list (0 for the first).
    pub index: usize,
}

/// Reads a record of `G` from JSON; one of a list by `index`. `others` are the other games a
/// front end knows, as (title, whether the JSON is one of its records): a record of another
/// game is refused with a message naming both games.
pub fn read_record<G: Game>(
    text: &str,
    index: usize,
    others: &[OtherGame],
) -> Result<(G::Record, usize), Error> {
    let bad = |e: String| Error::input(one_line(&format!("record: {e}")));
    let items: Vec<Box<serde_json::value::RawValue>> = if text.trim_start().starts_with('[') {
        serde_json::from_str(text).map_err(|e| bad(e.to_string()))?
    } else {
        vec![serde_json::value::RawValue::from_string(text.trim().to_string())
            .map_err(|e| bad(e.to_string()))?]
    };
    let count = items.len();
    let Some(one) = items.get(index) else {
        return Err(bad(format!("record {} of a list of {count}", index + 1)));
    };
    match serde_json::from_str::<G::Record>(one.get()) {
        Ok(r) => Ok((r, count)),
        Err(e) => {
            if let Some((title, _)) = others.iter().find(|(_, is)| is(one.get())) {
                return Err(bad(format!(
                    "this is a {title} record; this page reads {} records",
                    G::TITLE
                )));
            }
            Err(bad(format!("not a {} record: {e}", G::TITLE)))
        }
    }
}

/// The records of a file as every game's `replay` reads it: one record, or a list of them
/// (JSON). A record that does not parse is an input error naming the file and, in a list, the
/// record.
pub fn records<R: DeserializeOwned>(file: &crate::job::InputFile) -> Result<Vec<R>, Error> {
    let text = file.text()?;
    let name = &file.name;
    if text.trim_start().starts_with('[') {
        let items: Vec<Box<serde_json::value::RawValue>> =
            serde_json::from_str(text).map_err(|e| {
                Error::input(format!("{name}:{}:{}: not valid JSON: {e}", e.line(), e.column()))
            })?;
        items
            .iter()
            .enumerate()
            .map(|(i, r)| {
                serde_json::from_str(r.get())
                    .map_err(|e| Error::input(one_line(&format!("{name}: record {}: {e}", i + 1))))
            })
            .collect()
    } else {
        serde_json::from_str(text).map(|r| vec![r]).map_err(|e| {
            Error::input(one_line(&format!(
                "{name}:{}:{}: not a valid record: {e}",
                e.line(),
                e.column()
            )))
        })
    }
}

/// The one record of a file (a list must hold exactly one).
pub fn one_record<R: DeserializeOwned>(file: &crate::job::InputFile) -> Result<R, Error> {
    let mut all = records(file)?;
    match all.len() {
        1 => Ok(all.remove(0)),
        n => Err(Error::input(format!("{}: {n} records; this verb replays one", file.name))),
    }
}

/// `s` on one line: newlines (which serde's messages may quote from the input) escaped.
fn one_line(s: &str) -> String {
    s.replace('\r', "\\r").replace('\n', "\\n")
}

/// Whether `text` is one record of `G` (for [`read_record`]'s `others`).
pub fn is_record<G: Game>(text: &str) -> bool {
    serde_json::from_str::<G::Record>(text).is_ok()
}

/// The answer to [`frames`]: the game of the record and every position of it.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(bound = "")]
#[schemars(bound = "")]
pub struct FramesResponse<G: Game> {
    /// The game as a position request would name it (its `frames` filled in).
    #[serde(flatten)]
    pub position: PositionResponse<G>,
    /// Records in the list the record came from.
    pub count: usize,
}

/// A record's game, after the game's replay has accepted it, with every position.
pub fn frames<G: Game>(
    record: &G::Record,
    count: usize,
    ctl: Control,
) -> Result<FramesResponse<G>, Error> {
    let (setup, seed, moves) = G::unrecord(record)?;
    let req = PositionRequest::<G> {
        setup,
        seed,
        moves: format_moves::<G>(&moves),
        frames: true,
        record: false,
    };
    Ok(FramesResponse { position: position(&req, ctl)?, count })
}

/// A hint request: the position and the search.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(default, bound = "")]
#[schemars(bound = "")]
pub struct HintRequest<G: Game> {
    /// The position.
    pub from: PositionRequest<G>,
    /// The solver's settings.
    pub search: G::Search,
}

impl<G: Game> Default for HintRequest<G> {
    fn default() -> Self {
        HintRequest { from: PositionRequest::default(), search: G::Search::default() }
    }
}

impl<G: Game> Debug for HintRequest<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HintRequest")
            .field("from", &self.from)
            .field("search", &self.search)
            .finish()
    }
}

impl<G: Game> Clone for HintRequest<G> {
    fn clone(&self) -> Self {
        HintRequest { from: self.from.clone(), search: self.search.clone() }
    }
}

/// Checks a request before any work: the setup, the moves and the search (clamped to `caps`).
pub fn check<G: Game>(
    from: &PositionRequest<G>,
    search: &G::Search,
    caps: &Caps,
) -> Result<G::Search, Error> {
    let mut search = search.clone();
    G::cap(&mut search, caps)?;
    state_of(from, Control::new())?;
    Ok(search)
}

/// The solver's move from the position, checked to be legal.
pub fn hint<G: Game>(
    req: &HintRequest<G>,
    caps: &Caps,
    ctl: Control,
) -> Result<Hint<G::Detail>, Error> {
    let search = check(&req.from, &req.search, caps)?;
    let s = state_of(&req.from, ctl)?;
    let status = G::status(&s);
    if !status.is_playing() {
        return Err(Error::input(format!("the game is over: {status}")));
    }
    let h = G::hint(&s, &search, ctl)?;
    let mv: G::Move =
        h.mv.parse().map_err(|e| Error::failed(format!("the solver's move {}: {e}", h.mv)))?;
    if !G::legal(&s).contains(&mv) {
        return Err(Error::failed(format!("the solver chose {mv}, which is not legal here")));
    }
    Ok(h)
}

/// Why an [`auto`] run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// The game ended (its status says how).
    Ended,
    /// `max_moves` were played.
    MoveLimit,
    /// The solver had no move to offer (no perfect clear found, say).
    NoMove,
    /// The caller's abort flag stopped it; the game so far is returned.
    Aborted,
}

/// An auto request: the position, the search, and how many moves at most.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(default, bound = "")]
#[schemars(bound = "")]
pub struct AutoRequest<G: Game> {
    /// The position it starts from.
    pub from: PositionRequest<G>,
    /// The solver's settings.
    pub search: G::Search,
    /// Stop after this many of the solver's moves.
    pub max_moves: u64,
}

impl<G: Game> Default for AutoRequest<G> {
    fn default() -> Self {
        AutoRequest {
            from: PositionRequest::default(),
            search: G::Search::default(),
            max_moves: u64::MAX,
        }
    }
}

impl<G: Game> Debug for AutoRequest<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AutoRequest")
            .field("from", &self.from)
            .field("search", &self.search)
            .field("max_moves", &self.max_moves)
            .finish()
    }
}

impl<G: Game> Clone for AutoRequest<G> {
    fn clone(&self) -> Self {
        AutoRequest {
            from: self.from.clone(),
            search: self.search.clone(),
            max_moves: self.max_moves,
        }
    }
}

/// The answer to [`auto`].
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(bound = "")]
#[schemars(bound = "")]
pub struct AutoResponse<G: Game> {
    /// Moves the solver played.
    pub played: u64,
    /// Why the run ended.
    pub stop: Stop,
    /// How the game stands.
    pub status: Status,
    /// The score.
    pub score: i64,
    /// Every move of the game from its start, in the game's notation.
    pub moves: String,
    /// The whole game's record, accepted by the game's own replay.
    pub record: G::Record,
}

/// The solver's side of [`auto`]: [`Turns::more`] says whether to go on, [`Turns::play`]
/// plays a move (checked), counts it and reports it as a [`Step`].
pub struct Turns<'a, G: Game> {
    ctl: Control<'a>,
    max_moves: u64,
    played: u64,
    moves: Vec<G::Move>,
    stop: Option<Stop>,
}

impl<'a, G: Game> Turns<'a, G> {
    /// The caller's control (for the solver's abort flag and progress).
    pub fn ctl(&self) -> Control<'a> {
        self.ctl
    }

    /// Whether to choose another move: the game is on, the move limit is not reached and
    /// the caller has not aborted.
    pub fn more(&mut self, state: &G::State) -> bool {
        if self.stop.is_some() {
            return false;
        }
        if !G::status(state).is_playing() {
            self.stop = Some(Stop::Ended);
        } else if self.played >= self.max_moves {
            self.stop = Some(Stop::MoveLimit);
        } else if self.ctl.aborted() {
            self.stop = Some(Stop::Aborted);
        }
        self.stop.is_none()
    }

    /// Plays the solver's move (an illegal one is an internal error) and reports it.
    pub fn play(&mut self, state: &mut G::State, m: G::Move) -> Result<(), Error> {
        if self.ctl.aborted() {
            self.stop = Some(Stop::Aborted);
            return Ok(());
        }
        G::play(state, &m).map_err(|e| Error::failed(format!("the solver chose {m}: {e}")))?;
        self.played += 1;
        if self.ctl.wants_steps() {
            let frame = serde_json::to_value(G::frame(state)).unwrap_or(serde_json::Value::Null);
            self.ctl.step(&Step {
                game: 0,
                moves: self.moves.len() as u64 + 1,
                action: m.to_string(),
                state: G::text(state),
                score: G::score(state),
                frame,
            });
        }
        self.moves.push(m);
        Ok(())
    }

    /// The solver has no move to offer.
    pub fn give_up(&mut self) {
        self.stop.get_or_insert(Stop::NoMove);
    }
}

/// The solver plays on from the position of `req` (clamped to `caps`), each move reported
/// through [`Control::with_steps`] with the game's frame. An aborted run returns the game so
/// far with [`Stop::Aborted`]. The whole game's record is checked by the game's replay.
pub fn auto<G: Game>(
    req: &AutoRequest<G>,
    caps: &Caps,
    ctl: Control,
) -> Result<AutoResponse<G>, Error> {
    let search = check(&req.from, &req.search, caps)?;
    let before = parse_moves::<G>(&req.from.moves)?;
    let mut s = replay::<G>(&req.from.setup, req.from.seed, &before, ctl, |_| {})?;
    let mut turns = Turns::<G> {
        ctl,
        max_moves: req.max_moves.min(caps.moves),
        played: 0,
        moves: before.clone(),
        stop: None,
    };
    // The moves before the solver's are counted in `moves`, not in `played`.
    G::auto(&mut s, &search, &mut turns)?;
    let stop = match turns.stop {
        Some(s) => s,
        None if ctl.aborted() => Stop::Aborted,
        None if !G::status(&s).is_playing() => Stop::Ended,
        None if turns.played >= turns.max_moves => Stop::MoveLimit,
        None => Stop::NoMove,
    };
    let name = G::solver(&search);
    let player = if before.is_empty() { name } else { format!("hand+{name}") };
    let record = G::record(&s, &player);
    let (_, _, replayed) = G::unrecord(&record)
        .map_err(|e| Error::failed(format!("the game does not replay: {e}")))?;
    if replayed != turns.moves {
        return Err(Error::failed("the game's record holds other moves than were played"));
    }
    Ok(AutoResponse {
        played: turns.played,
        stop,
        status: G::status(&s),
        score: G::score(&s),
        moves: format_moves::<G>(&turns.moves),
        record,
    })
}

/// The properties every game's implementation must have, as one generic check that each
/// game crate runs on its own cases (see `tests/contract.rs` in each game crate).
pub mod suite {
    use std::sync::atomic::{AtomicBool, Ordering};

    use super::*;

    /// One game to check: a setup, a seed, a search and how many moves `auto` plays.
    pub struct Case<G: Game> {
        /// Board and rules.
        pub setup: G::Setup,
        /// The seed.
        pub seed: u64,
        /// The solver's settings (cheap ones: the suite plays whole games).
        pub search: G::Search,
        /// The most moves `auto` plays.
        pub max_moves: u64,
    }

    fn req<G: Game>(c: &Case<G>, moves: &str) -> PositionRequest<G> {
        PositionRequest {
            setup: c.setup.clone(),
            seed: c.seed,
            moves: moves.into(),
            frames: true,
            record: true,
        }
    }

    /// Runs every property on every case. `cli` plays the case as the CLI's play verb does
    /// and returns its record; `other` is a record of another game: its title, its JSON, and
    /// how a front end tells that game's records (its [`is_record`]).
    /// Panics with the property and the case on the first failure.
    pub fn check<G: Game>(
        cases: &[Case<G>],
        cli: impl Fn(&Case<G>) -> G::Record,
        other: (&str, &str, fn(&str) -> bool),
    ) {
        for (i, c) in cases.iter().enumerate() {
            let name = format!("{} case {i} (seed {})", G::TITLE, c.seed);
            // auto from a new game plays exactly the CLI's game.
            let auto_req = AutoRequest::<G> {
                from: req(c, ""),
                search: c.search.clone(),
                max_moves: c.max_moves,
            };
            let a = auto(&auto_req, &Caps::NONE, Control::new())
                .unwrap_or_else(|e| panic!("{name}: auto: {e}"));
            let (_, _, cli_moves) =
                G::unrecord(&cli(c)).unwrap_or_else(|e| panic!("{name}: the CLI's record: {e}"));
            assert_eq!(
                a.moves,
                format_moves::<G>(&cli_moves),
                "{name}: auto differs from the CLI's play"
            );
            let moves = parse_moves::<G>(&a.moves).unwrap();
            assert!(!moves.is_empty(), "{name}: auto played no move");

            // position(seed, moves) is the replay of record(seed, moves), at every prefix.
            for k in [0, moves.len() / 2, moves.len()] {
                let text = format_moves::<G>(&moves[..k]);
                let p = position(&req(c, &text), Control::new())
                    .unwrap_or_else(|e| panic!("{name}: position {k}: {e}"));
                assert_eq!(p.played, k, "{name}");
                assert_eq!(p.frames.len(), k + 1, "{name}: a frame per move and the start");
                let rec = record(&req(c, &text), Control::new()).unwrap();
                let f = frames::<G>(&rec, 1, Control::new())
                    .unwrap_or_else(|e| panic!("{name}: frames {k}: {e}"));
                // frames(record) equals position's frames, and lands on the same position.
                assert_eq!(f.position.frames, p.frames, "{name}: frames of the record at {k}");
                assert_eq!(f.position.now, p.now, "{name}: the record's position at {k}");
                assert_eq!(f.position.moves, p.moves, "{name}");
                assert_eq!(f.position.status, p.status, "{name}");
                // Every legal move plays; the hint's move is one of them.
                let mut s = G::start(&c.setup, c.seed).unwrap();
                for m in &moves[..k] {
                    G::play(&mut s, m).unwrap();
                }
                for m in G::legal(&s) {
                    let mut t = s.clone();
                    G::play(&mut t, &m).unwrap_or_else(|e| panic!("{name}: legal move {m} {e}"));
                }
                if p.status.is_playing() {
                    let h = hint(
                        &HintRequest { from: req(c, &text), search: c.search.clone() },
                        &Caps::NONE,
                        Control::new(),
                    )
                    .unwrap_or_else(|e| panic!("{name}: hint at {k}: {e}"));
                    assert!(p.legal.contains(&h.mv), "{name}: hint {} not in {:?}", h.mv, p.legal);
                }
            }

            // An aborted auto ends the same way in every game: the game so far, Stop::Aborted.
            if moves.len() > 3 {
                let flag = AtomicBool::new(false);
                let stop = |s: &Step| {
                    if s.moves >= 3 {
                        flag.store(true, Ordering::Relaxed);
                    }
                };
                let ctl = Control::new().with_abort(&flag).with_steps(&stop);
                let a = auto(&auto_req, &Caps::NONE, ctl)
                    .unwrap_or_else(|e| panic!("{name}: aborted auto: {e}"));
                assert_eq!(a.stop, Stop::Aborted, "{name}");
                assert_eq!(a.played, 3, "{name}: moves after the abort");
                assert_eq!(a.moves, format_moves::<G>(&moves[..3]), "{name}");
            }

            // A u64::MAX seed round-trips through JSON, as a string.
            let big = PositionRequest::<G> { seed: u64::MAX, ..req(c, "") };
            let json = serde_json::to_string(&big).unwrap();
            assert!(json.contains("\"18446744073709551615\""), "{name}: {json}");
            let back: PositionRequest<G> = serde_json::from_str(&json).unwrap();
            assert_eq!(back.seed, u64::MAX, "{name}");
            let as_number = json.replace("\"18446744073709551615\"", "18446744073709551615");
            let back: PositionRequest<G> = serde_json::from_str(&as_number).unwrap();
            assert_eq!(back.seed, u64::MAX, "{name}");

            // Another game's record is refused with a message naming both games.
            assert!(other.2(other.1), "{name}: the other game's detector refuses its record");
            let e = read_record::<G>(other.1, 0, &[(other.0, other.2)]).unwrap_err();
            let want = format!(
                "record: this is a {} record; this page reads {} records",
                other.0,
                G::TITLE
            );
            assert_eq!(e.message(), want, "{name}");
        }
    }
}
