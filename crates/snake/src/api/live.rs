//! A game as a page or a notebook holds it: the setup, the seed and the moves so far,
//! replayed into the position they reach ([`position`]); a player's next move with the route
//! it plans ([`hint`]); and a player playing on from there with every move reported as it is
//! made ([`auto`]), which from the start is exactly the game `snake play` plays.
//!
//! A timeline does not need a whole board per move: a [`Frame`] is the head, the length, the
//! fruit and the score after a move, and the body after move `k` is the last `len` cells of
//! the start body followed by the heads of frames `1..=k`. The move that ends a game by a
//! crash leaves the board as it was, so its frame repeats the one before.

use serde::{Deserialize, Serialize};

use super::{parse_player, Control, Error, Setup};
use crate::{verify, Board, Dir, Event, Game, Record, Status};

/// The longest move list [`position`] replays.
pub const MAX_MOVES: usize = 500_000;

/// The game `snake play --seed SEED` plays on the setup, after `moves`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct PositionRequest {
    /// Board and rules.
    pub setup: Setup,
    /// Seed of the fruit generator.
    pub seed: u64,
    /// The moves played, one letter each (`U`, `R`, `D`, `L`, either case).
    pub moves: String,
    /// Also return a [`Frame`] per move (for a timeline).
    pub frames: bool,
    /// Also return the game's record (which `snake replay` accepts).
    pub record: bool,
}

impl Default for PositionRequest {
    fn default() -> Self {
        PositionRequest {
            setup: Setup::default(),
            seed: 1,
            moves: String::new(),
            frames: false,
            record: false,
        }
    }
}

/// The board after a move, as a timeline keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frame {
    /// The head's cell (`y * width + x`, row 0 at the top).
    pub head: usize,
    /// The snake's length.
    pub len: usize,
    /// The fruit's cell, if one is on the board.
    pub fruit: Option<usize>,
    /// Fruits eaten.
    pub score: usize,
}

impl Frame {
    fn of(g: &Game) -> Frame {
        let b = g.board();
        Frame { head: b.head(), len: b.len(), fruit: b.fruit(), score: g.score() }
    }
}

/// The whole board at one position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The board in the text form (`H` head, arrows toward the head, `*` fruit).
    pub board: String,
    /// The body's cells, head first.
    pub body: Vec<usize>,
    /// The fruit's cell.
    pub fruit: Option<usize>,
    /// Fruits eaten.
    pub score: usize,
    /// Moves played.
    pub moves: u64,
}

impl Snapshot {
    fn of(g: &Game) -> Snapshot {
        let b = g.board();
        Snapshot {
            board: b.to_string(),
            body: b.body().collect(),
            fruit: b.fruit(),
            score: g.score(),
            moves: g.moves(),
        }
    }
}

/// The outcome of [`position`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PositionResponse {
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// The highest score the setup allows.
    pub max_score: usize,
    /// The body at the start, head first.
    pub start: Vec<usize>,
    /// The moves, upper case.
    pub moves: String,
    /// The position reached.
    pub now: Snapshot,
    /// How the game stands: `Running`, `Won`, `Stalled`, `Died(Wall)` or `Died(Body)`.
    pub status: String,
    /// The moves allowed now (every direction but the reversal onto the neck), in the order
    /// `U`, `R`, `D`, `L`; empty once the game is over.
    pub legal: Vec<String>,
    /// Of those, the ones that do not crash at once.
    pub safe: Vec<String>,
    /// With `frames`: the start and the board after every move.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub frames: Vec<Frame>,
    /// With `record`: the game's record.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub record: Option<Record>,
}

/// A game replayed move by move, with what its record needs.
struct Replayed {
    game: Game,
    seed: u64,
    moves: String,
    fruits: Vec<usize>,
}

impl Replayed {
    fn play(&mut self, d: Dir) -> Result<(), crate::PlayError> {
        let e = self.game.play(d)?;
        self.moves.push(d.letter());
        if let Event::Ate(f) = e {
            self.fruits.push(f);
        }
        Ok(())
    }

    fn record(&self, player: &str) -> Record {
        Record {
            config: *self.game.config(),
            seed: self.seed,
            player: player.into(),
            moves: self.moves.clone(),
            fruits: self.fruits.clone(),
            score: self.game.score(),
            status: self.game.status(),
        }
    }
}

/// The game after `moves`, calling `each` on the start and after every move; a bad letter, a
/// reversal or a move after the end is an input error naming the move.
fn game_after(
    setup: &Setup,
    seed: u64,
    moves: &str,
    ctl: &Control,
    mut each: impl FnMut(&Game),
) -> Result<Replayed, Error> {
    if moves.len() > MAX_MOVES {
        return Err(Error::input(format!("moves: {} moves, at most {MAX_MOVES}", moves.len())));
    }
    let config = setup.config()?;
    let game = Game::new(config, seed);
    let fruits = game.board().fruit().into_iter().collect();
    let mut r = Replayed { game, seed, moves: String::with_capacity(moves.len()), fruits };
    each(&r.game);
    for (i, ch) in moves.chars().enumerate() {
        if i % 4096 == 4095 {
            ctl.check()?;
        }
        let d = Dir::from_letter(ch).ok_or_else(|| {
            Error::input(format!("moves: {ch:?} (move {}) is not one of U, R, D, L", i + 1))
        })?;
        r.play(d)
            .map_err(|e| Error::input(format!("moves: move {} ({}): {e}", i + 1, d.letter())))?;
        each(&r.game);
    }
    Ok(r)
}

fn status_name(s: Status) -> String {
    format!("{s:?}")
}

fn letters(board: &Board, running: bool, safe_only: bool) -> Vec<String> {
    if !running {
        return Vec::new();
    }
    let safe: Vec<Dir> = crate::players::safe_moves(board).collect();
    Dir::ALL
        .into_iter()
        .filter(|&d| !board.is_reversal(d) && (!safe_only || safe.contains(&d)))
        .map(|d| d.letter().to_string())
        .collect()
}

/// The position of `req`: the board now, the moves allowed, and on request a frame per move
/// and the record.
pub fn position(req: &PositionRequest, ctl: Control) -> Result<PositionResponse, Error> {
    let mut frames = Vec::new();
    let r = game_after(&req.setup, req.seed, &req.moves, &ctl, |g| {
        if req.frames {
            frames.push(Frame::of(g));
        }
    })?;
    let g = &r.game;
    let config = g.config();
    let running = g.status() == Status::Running;
    Ok(PositionResponse {
        width: config.size.width(),
        height: config.size.height(),
        max_score: config.max_score(),
        start: config.start_body(),
        moves: r.moves.clone(),
        now: Snapshot::of(g),
        status: status_name(g.status()),
        legal: letters(g.board(), running, false),
        safe: letters(g.board(), running, true),
        frames,
        record: req.record.then(|| r.record("hand")),
    })
}

/// A player's next move from a position, and the route it would take from there.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct HintRequest {
    /// The position.
    pub from: PositionRequest,
    /// The player.
    pub player: String,
    /// Follow the plan for at most this many moves (default: the number of cells).
    pub steps: Option<usize>,
}

impl Default for HintRequest {
    fn default() -> Self {
        HintRequest { from: PositionRequest::default(), player: "cycle".into(), steps: None }
    }
}

/// The answer to a [`HintRequest`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HintResponse {
    /// The player's name.
    pub player: String,
    /// Its move, `U`, `R`, `D` or `L`.
    pub dir: String,
    /// Its moves from here until it eats the fruit, the game ends or `steps` run out.
    pub moves: String,
    /// The cells the head visits on those moves.
    pub route: Vec<usize>,
    /// Whether the route ends by eating the fruit.
    pub eats: bool,
}

/// A fresh player for the setup, and what it does from the position of `req`.
pub fn hint(req: &HintRequest, ctl: Control) -> Result<HintResponse, Error> {
    let kind = parse_player(&req.player)?;
    let r = game_after(&req.from.setup, req.from.seed, &req.from.moves, &ctl, |_| {})?;
    let mut g = r.game;
    if g.status() != Status::Running {
        return Err(Error::input(format!("the game is over ({})", status_name(g.status()))));
    }
    let mut p = kind.build(g.config().size);
    let limit = req.steps.unwrap_or(g.config().size.cells()).max(1);
    let (mut moves, mut route, mut eats) = (String::new(), Vec::new(), false);
    while moves.len() < limit && g.status() == Status::Running {
        ctl.check()?;
        let d = p.choose(&g);
        let e =
            g.play(d).map_err(|e| Error::failed(format!("{} chose {d:?}: {e}", kind.name())))?;
        moves.push(d.letter());
        route.push(g.board().head());
        if matches!(e, Event::Ate(_) | Event::Won) {
            eats = true;
            break;
        }
    }
    let dir = moves[..1].to_string();
    Ok(HintResponse { player: kind.name().into(), dir, moves, route, eats })
}

/// A player playing on from a position.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct AutoRequest {
    /// The position it starts from.
    pub from: PositionRequest,
    /// The player.
    pub player: String,
    /// Stop after this many of its moves (the game may end first).
    pub max_moves: u64,
    /// Report the moves in chunks of this many (at least 1).
    pub chunk: usize,
}

impl Default for AutoRequest {
    fn default() -> Self {
        AutoRequest {
            from: PositionRequest::default(),
            player: "cycle".into(),
            max_moves: u64::MAX,
            chunk: 256,
        }
    }
}

impl AutoRequest {
    /// Checks the request as [`auto`] does before its first move: the player, the chunk size
    /// and the position.
    pub fn check(&self) -> Result<(), Error> {
        parse_player(&self.player)?;
        if self.chunk == 0 {
            return Err(Error::input("chunk must be at least 1"));
        }
        game_after(&self.from.setup, self.from.seed, &self.from.moves, &Control::new(), |_| {})
            .map(|_| ())
    }
}

/// Moves [`auto`] reports together.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Chunk {
    /// The moves, one letter each.
    pub moves: String,
    /// The frame after each of them.
    pub frames: Vec<Frame>,
    /// Moves played in the whole game so far.
    pub total: u64,
}

/// The answer to an [`AutoRequest`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AutoResponse {
    /// The player's name.
    pub player: String,
    /// Moves the player made.
    pub played: u64,
    /// How the game stands, as the reference engine replayed it.
    pub status: String,
    /// Fruits eaten.
    pub score: usize,
    /// The whole game's record (the moves before the player's included), replayed on both
    /// engines.
    pub record: Record,
}

/// The player of `req` plays on from the position, handing the moves to `each` in chunks;
/// the abort flag is read before every move. The whole record is replayed by the reference
/// engine before it is returned.
pub fn auto(
    req: &AutoRequest,
    ctl: Control,
    each: &mut dyn FnMut(&Chunk),
) -> Result<AutoResponse, Error> {
    req.check()?;
    let kind = parse_player(&req.player)?;
    let mut r = game_after(&req.from.setup, req.from.seed, &req.from.moves, &ctl, |_| {})?;
    let mut p = kind.build(r.game.config().size);
    let mut chunk = Chunk { moves: String::new(), frames: Vec::new(), total: r.game.moves() };
    let mut played = 0;
    while r.game.status() == Status::Running && played < req.max_moves {
        ctl.check()?;
        let d = p.choose(&r.game);
        r.play(d).map_err(|e| Error::failed(format!("{} chose {d:?}: {e}", kind.name())))?;
        played += 1;
        chunk.moves.push(d.letter());
        chunk.frames.push(Frame::of(&r.game));
        chunk.total = r.game.moves();
        if chunk.frames.len() == req.chunk || r.game.status() != Status::Running {
            each(&chunk);
            chunk.moves.clear();
            chunk.frames.clear();
        }
    }
    if !chunk.frames.is_empty() {
        each(&chunk);
    }
    let name = if req.from.moves.is_empty() {
        kind.name().to_string()
    } else {
        format!("hand+{}", kind.name())
    };
    let record = r.record(&name);
    let checked =
        verify(&record).map_err(|e| Error::failed(format!("the game does not replay: {e}")))?;
    Ok(AutoResponse {
        player: kind.name().into(),
        played,
        status: status_name(checked.status),
        score: checked.score,
        record,
    })
}
