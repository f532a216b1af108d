//! Snake under the one live contract ([`bits::live::Game`]): the setup is the board and
//! rules, a move is a direction letter, the solver is one of `snake play`'s players.
//!
//! A timeline does not need a whole board per move: a [`Frame`] is the head, the length, the
//! fruit and the score after a move, and the body after move `k` is the last `len` cells of
//! the start body followed by the heads of frames `1..=k`. The move that ends a game by a
//! crash leaves the board as it was, so its frame repeats the one before.
//!
//! ```
//! use bits::live::{position, PositionRequest};
//! use snake::api::contract::Snake;
//!
//! let req = PositionRequest::<Snake> { seed: 3, moves: "RRU".into(), ..Default::default() };
//! let pos = position(&req, bits::job::Control::new()).unwrap();
//! assert_eq!(pos.now.moves, 3);
//! ```

use bits::live::{Caps, Game as LiveGame, Hint, Phase, Status as LiveStatus, Turns};
use serde::{Deserialize, Serialize};

use super::{parse_player, Control, Error, Setup};
use crate::{verify, Death, Dir, Event, Game, Record, Status};

/// Snake as the contract sees it.
#[derive(Debug, Clone, Copy)]
pub struct Snake;

/// A game in progress with what its record needs.
#[derive(Debug, Clone)]
pub struct State {
    game: Game,
    seed: u64,
    moves: String,
    fruits: Vec<usize>,
}

/// The board after a move, as a timeline keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
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

/// The whole board at one position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Snapshot {
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// The body's cells (`y * width + x`), head first.
    pub body: Vec<usize>,
    /// The fruit's cell.
    pub fruit: Option<usize>,
    /// Fruits eaten.
    pub score: usize,
    /// The highest score the setup allows.
    pub max_score: usize,
    /// Moves played.
    pub moves: u64,
    /// The body at the start, head first (the timeline's frames continue it).
    pub start: Vec<usize>,
    /// Of the legal moves, the ones that do not crash at once.
    pub safe: Vec<String>,
    /// The engine's view (absent from timeline frames): its occupancy bitset and the cells
    /// BFS and A* each reach on the way from the head to the fruit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bits: Option<Bits>,
}

/// How the engine holds a Snake position, and what its two shortest-route searches do with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Bits {
    /// The occupied cells as the engine's bitset: 16 words of 64 bits (`0x` hex; bit `i` of
    /// word `w` is cell `64 w + i`), the body with the head and tail.
    pub occupied: Vec<String>,
    /// The cells BFS reached from the head before it found the fruit, in the order reached.
    pub bfs: Vec<usize>,
    /// The cells A* (Manhattan estimate) reached for the same goal, in cell order.
    pub astar: Vec<usize>,
    /// BFS's shortest route: its cells, head excluded, fruit last (empty: no route).
    pub route: Vec<usize>,
    /// A*'s route, as short as BFS's (ties may go another way).
    pub astar_route: Vec<usize>,
}

impl Bits {
    /// The engine's view of `b` (no searches without a fruit).
    fn of(b: &crate::Board, size: crate::Size) -> Bits {
        let occupied = b.occupied().0.iter().map(|w| format!("{w:#018x}")).collect();
        let (mut bfs, mut astar) = (Vec::new(), Vec::new());
        let (mut route, mut astar_route) = (Vec::new(), Vec::new());
        if let Some(fruit) = b.fruit() {
            let mut s = crate::search::Searcher::<u32>::new(size);
            if s.bfs(b.occupied(), b.head(), fruit).is_some() {
                s.path_into(b.head(), fruit, &mut route);
            }
            bfs = s.bfs_reached();
            if s.astar(b.occupied(), b.head(), fruit).is_some() {
                s.path_into(b.head(), fruit, &mut astar_route);
            }
            astar = s.astar_reached();
        }
        Bits { occupied, bfs, astar, route, astar_route }
    }
}

/// The player of `hint` and `auto`.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Search {
    /// The player, as `snake play --player` names it.
    pub player: String,
    /// A hint follows the plan for at most this many moves (default: the number of cells).
    pub steps: Option<usize>,
}

impl Default for Search {
    fn default() -> Self {
        Search { player: "cycle".into(), steps: None }
    }
}

/// What a hint adds: the player's moves from here until it eats, and the head's route.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Detail {
    /// Its moves until it eats the fruit, the game ends or `steps` run out.
    pub moves: String,
    /// The cells the head visits on those moves.
    pub route: Vec<usize>,
    /// Whether the route ends by eating the fruit.
    pub eats: bool,
}

fn status_of(s: Status) -> LiveStatus {
    match s {
        Status::Running => LiveStatus::playing(),
        Status::Won => LiveStatus::new(Phase::Won, "won", "the snake fills the board"),
        Status::Stalled => LiveStatus::new(Phase::Over, "stalled", "too many moves without eating"),
        Status::Died(Death::Wall) => {
            LiveStatus::new(Phase::Over, "died_wall", "the snake ran into the wall")
        }
        Status::Died(Death::Body) => {
            LiveStatus::new(Phase::Over, "died_body", "the snake ran into its body")
        }
    }
}

impl LiveGame for Snake {
    const NAME: &'static str = "snake";
    const TITLE: &'static str = "Snake";
    const SEP: &'static str = "";
    const MAX_MOVES: usize = 500_000;

    type Setup = Setup;
    type Move = Dir;
    type State = State;
    type Snapshot = Snapshot;
    type Frame = Frame;
    type Record = Record;
    type Search = Search;
    type Detail = Detail;

    fn start(setup: &Setup, seed: u64) -> Result<State, Error> {
        let game = Game::new(setup.config()?, seed);
        let fruits = game.board().fruit().into_iter().collect();
        Ok(State { game, seed, moves: String::new(), fruits })
    }

    fn play(s: &mut State, d: &Dir) -> Result<(), String> {
        let e = s.game.play(*d).map_err(|e| e.to_string())?;
        s.moves.push(d.letter());
        if let Event::Ate(f) = e {
            s.fruits.push(f);
        }
        Ok(())
    }

    fn legal(s: &State) -> Vec<Dir> {
        if s.game.status() != Status::Running {
            return Vec::new();
        }
        let b = s.game.board();
        Dir::ALL.into_iter().filter(|&d| !b.is_reversal(d)).collect()
    }

    fn status(s: &State) -> LiveStatus {
        status_of(s.game.status())
    }

    fn score(s: &State) -> i64 {
        s.game.score() as i64
    }

    fn snapshot(s: &State) -> Snapshot {
        let g = &s.game;
        let b = g.board();
        let c = g.config();
        let safe = if g.status() == Status::Running {
            crate::players::safe_moves(b).map(|d| d.letter().to_string()).collect()
        } else {
            Vec::new()
        };
        Snapshot {
            width: c.size.width(),
            height: c.size.height(),
            body: b.body().collect(),
            fruit: b.fruit(),
            score: g.score(),
            max_score: c.max_score(),
            moves: g.moves(),
            start: c.start_body(),
            safe,
            bits: Some(Bits::of(b, c.size)),
        }
    }

    fn frame(s: &State) -> Frame {
        let b = s.game.board();
        Frame { head: b.head(), len: b.len(), fruit: b.fruit(), score: s.game.score() }
    }

    fn text(s: &State) -> String {
        s.game.board().to_string()
    }

    fn record(s: &State, player: &str) -> Record {
        Record {
            config: *s.game.config(),
            seed: s.seed,
            player: player.into(),
            moves: s.moves.clone(),
            fruits: s.fruits.clone(),
            score: s.game.score(),
            status: s.game.status(),
        }
    }

    fn unrecord(rec: &Record) -> Result<(Setup, u64, Vec<Dir>), Error> {
        if rec.moves.len() > Self::MAX_MOVES {
            return Err(Error::input(format!(
                "record: {} moves, at most {}",
                rec.moves.len(),
                Self::MAX_MOVES
            )));
        }
        verify(rec).map_err(|e| Error::input(format!("record: {e}")))?;
        let c = rec.config;
        let setup =
            Setup { size: c.size.to_string(), start_len: c.start_len, stall: Some(c.stall_limit) };
        if setup.config()? != c {
            return Err(Error::input(format!(
                "record: the snake starts at ({},{}); the arcade plays games that start at the \
                 centre",
                c.start_x, c.start_y
            )));
        }
        let moves = rec.moves.chars().filter_map(Dir::from_letter).collect();
        Ok((setup, rec.seed, moves))
    }

    fn cap(s: &mut Search, _caps: &Caps) -> Result<(), Error> {
        parse_player("search.player", &s.player)?;
        if s.steps == Some(0) {
            return Err(Error::input("search.steps: must be at least 1"));
        }
        Ok(())
    }

    fn solver(s: &Search) -> String {
        parse_player("search.player", &s.player)
            .map(|k| k.name().to_string())
            .unwrap_or_else(|_| s.player.clone())
    }

    fn hint(s: &State, search: &Search, ctl: Control) -> Result<Hint<Detail>, Error> {
        let kind = parse_player("search.player", &search.player)?;
        let mut g = s.game.clone();
        let mut p = kind.build(g.config().size);
        let limit = search.steps.unwrap_or(g.config().size.cells()).max(1);
        let (mut moves, mut route, mut eats) = (String::new(), Vec::new(), false);
        while moves.len() < limit && g.status() == Status::Running {
            ctl.check()?;
            let d = p.choose(&g);
            let e = g
                .play(d)
                .map_err(|e| Error::failed(format!("{} chose {d:?}: {e}", kind.name())))?;
            moves.push(d.letter());
            route.push(g.board().head());
            if matches!(e, Event::Ate(_) | Event::Won) {
                eats = true;
                break;
            }
        }
        Ok(Hint {
            mv: moves[..1].to_string(),
            values: Vec::new(),
            unit: String::new(),
            solver: kind.name().into(),
            detail: Detail { moves, route, eats },
        })
    }

    fn auto(s: &mut State, search: &Search, turns: &mut Turns<Self>) -> Result<(), Error> {
        let kind = parse_player("search.player", &search.player)?;
        let mut p = kind.build(s.game.config().size);
        while turns.more(s) {
            let d = p.choose(&s.game);
            turns.play(s, d)?;
        }
        Ok(())
    }
}
