//! 2048 under the one live contract ([`bits::live::Game`]): the setup is empty (or a
//! record's spawn seed), a move is a direction letter, the solver is the expectimax that
//! `2048 play` runs.
//!
//! ```
//! use bits::live::{position, PositionRequest};
//! use twenty48::api::contract::Twenty48;
//!
//! let req = PositionRequest::<Twenty48> { seed: 5, moves: String::new(), ..Default::default() };
//! let pos = position(&req, bits::job::Control::new()).unwrap();
//! assert_eq!(pos.now.tiles.iter().filter(|&&t| t > 0).count(), 2);
//! ```

use bits::live::{Caps, Game, Hint, MoveValue, Phase, Status as LiveStatus, Turns};
use serde::{Deserialize, Serialize};

use super::{Control, Error, SearchSpec};
use crate::board::{Board, Dir};
use crate::game::{Game as Engine, Status};
use crate::search::{Heuristic, Params, Searcher};
use crate::trace::GameRecord;
use crate::wide::Wide;

/// 2048 as the contract sees it.
#[derive(Debug, Clone, Copy)]
pub struct Twenty48;

/// What fixes a game besides the seed: nothing, unless the spawns come from a record's own
/// spawn seed instead of game 0 of the batch seed (as `2048 play --seed` deals them).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Setup {
    /// The spawn generator's seed itself (a record's `seed`), instead of the batch seed's.
    #[serde(with = "bits::live::seed::opt", skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "bits::live::seed::opt::schema")]
    pub spawn_seed: Option<u64>,
}

/// One position: the board in the text form, its tiles, the score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Snapshot {
    /// The board in the text form (rows separated by `/`).
    pub board: String,
    /// The 16 tiles, row by row from the top (0: empty).
    pub tiles: Vec<u32>,
    /// The score.
    pub score: u64,
    /// The engine's board word (absent from timeline frames): 16 cells of 4 bits, cell
    /// `4 r + c` in bits `16 r + 4 c ..`, each the log2 of its tile, as `0x` hex. Past 32768
    /// it is the packed view the search sees (see `twenty48::wide`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bits: Option<String>,
}

impl Snapshot {
    fn of(board: Wide, score: u64) -> Snapshot {
        Snapshot {
            board: board.to_string(),
            tiles: (0..16).map(|c| board.tile(c)).collect(),
            score,
            bits: None,
        }
    }
}

/// The search of `hint` and `auto`: `2048 play`'s options (the row heuristic; no network).
pub type Search = SearchSpec;

/// The spawn seed of game 0 of the batch with seed `seed` (what `play --seed` uses).
pub fn game_seed(seed: u64) -> u64 {
    bits::rng::sub_seed(seed, 0)
}

/// The search's choice on `board`, held to `nodes`. Under a cap a fixed depth is reached by
/// deepening from one layer, so a stopped search still answers with the deepest finished
/// layer (uncapped it is the plain fixed-depth search, the CLI's).
fn choose(
    s: &mut Searcher<'_, crate::search::FastMoves, Heuristic>,
    board: Board,
    search: &Search,
    nodes: u64,
) -> Option<crate::search::Choice> {
    s.cap_nodes(nodes);
    match (search.depth, search.time_per_move) {
        (Some(d), None) if nodes != u64::MAX => s.best_move_deepening(board, 1, d, |_| true),
        _ => super::play::choose(s, board, search.time_per_move),
    }
}

/// The node cap per move of a search clamped by [`Game::cap`].
fn node_cap(search: &Search) -> u64 {
    search.node_cap.unwrap_or(u64::MAX)
}

impl Game for Twenty48 {
    const NAME: &'static str = "2048";
    const TITLE: &'static str = "2048";
    const SEP: &'static str = "";
    const MAX_MOVES: usize = 200_000;

    type Setup = Setup;
    type Move = Dir;
    type State = Engine;
    type Snapshot = Snapshot;
    type Frame = Snapshot;
    type Record = GameRecord;
    type Search = Search;
    type Detail = Detail;

    fn start(setup: &Setup, seed: u64) -> Result<Engine, Error> {
        Ok(Engine::new(setup.spawn_seed.unwrap_or_else(|| game_seed(seed))))
    }

    fn play(g: &mut Engine, d: &Dir) -> Result<(), String> {
        let before = g.tiles();
        g.play(*d).map_err(|_| format!("does not change the board {before}"))
    }

    fn legal(g: &Engine) -> Vec<Dir> {
        if g.status() != Status::Playing {
            return Vec::new();
        }
        let b = g.tiles();
        Dir::ALL.into_iter().filter(|&d| b.play(d).is_some()).collect()
    }

    fn status(g: &Engine) -> LiveStatus {
        match g.status() {
            Status::Playing => LiveStatus::playing(),
            Status::Over => LiveStatus::new(Phase::Over, "no_moves", "no move changes the board"),
            // Only records from before games went past 32768 end so; they load as games
            // that go on.
            Status::Overflow => LiveStatus::new(
                Phase::Won,
                "overflow",
                "two 32768 tiles merged (a record from before games went past 32768)",
            ),
            Status::MoveLimit => {
                LiveStatus::new(Phase::Over, "stopped", "the game was stopped before its end")
            }
        }
    }

    fn score(g: &Engine) -> i64 {
        g.score() as i64
    }

    fn snapshot(g: &Engine) -> Snapshot {
        Snapshot {
            bits: Some(format!("{:#018x}", g.board().0)),
            ..Snapshot::of(g.tiles(), g.score())
        }
    }

    fn frame(g: &Engine) -> Snapshot {
        Snapshot::of(g.tiles(), g.score())
    }

    fn text(g: &Engine) -> String {
        g.tiles().to_string()
    }

    fn record(g: &Engine, _player: &str) -> GameRecord {
        g.record()
    }

    fn unrecord(rec: &GameRecord) -> Result<(Setup, u64, Vec<Dir>), Error> {
        if rec.moves.len() > Self::MAX_MOVES {
            return Err(Error::input(format!(
                "record: {} moves, at most {}",
                rec.moves.len(),
                Self::MAX_MOVES
            )));
        }
        let seed = rec.seed.ok_or_else(|| {
            Error::input("record: it has no spawn seed, so its spawns cannot be replayed here")
        })?;
        crate::replay(rec).map_err(|e| Error::input(format!("record: {e}")))?;
        let mut moves: Vec<Dir> = rec
            .moves
            .chars()
            .map(|c| Dir::from_letter(c).ok_or_else(|| Error::input(format!("record: move {c:?}"))))
            .collect::<Result<_, _>>()?;
        if let Some(m) = &rec.overflow_move {
            moves.push(m.parse().map_err(|e| Error::input(format!("record: overflow_move {e}")))?);
        }
        Ok((Setup { spawn_seed: Some(seed) }, 0, moves))
    }

    fn cap(s: &mut Search, caps: &Caps) -> Result<(), Error> {
        if s.network.is_some() {
            return Err(Error::input(
                "search: the live game plays the row heuristic, not a network",
            ));
        }
        if s.eval != super::LeafEval::Heuristic {
            return Err(Error::input("search.eval: the live game plays the row heuristic"));
        }
        let depth = u8::try_from(caps.depth).unwrap_or(u8::MAX);
        if let Some(d) = s.depth {
            super::check_range("search.depth", d, SearchSpec::DEPTH)?;
        }
        s.depth = s.depth.map(|d| d.min(depth));
        s.max_depth = s.max_depth.min(depth).max(1);
        s.budget = s.budget.map(|b| b.min(caps.nodes));
        s.time_per_move = s.time_per_move.map(|t| t.min(caps.millis));
        s.tt_bits = s.tt_bits.min(u8::try_from(caps.table_bits).unwrap_or(u8::MAX));
        s.config()?;
        s.node_cap = (caps.nodes != u64::MAX).then_some(caps.nodes);
        Ok(())
    }

    fn solver(_s: &Search) -> String {
        "expectimax".into()
    }

    fn hint(g: &Engine, search: &Search, ctl: Control) -> Result<Hint<Detail>, Error> {
        let cfg = search.config()?;
        let h = Heuristic::new(search.params.unwrap_or(Params::SHIPPED));
        let mut s = Searcher::with_evaluator(&h, cfg).with_abort(ctl.abort_flag());
        let c = choose(&mut s, g.board(), search, node_cap(search));
        ctl.check()?;
        let c = c.ok_or_else(|| Error::input("no move is legal"))?;
        let values = Dir::ALL
            .into_iter()
            .zip(s.root_values())
            .filter_map(|(d, v)| v.map(|v| MoveValue { mv: d.to_string(), value: f64::from(v) }))
            .collect();
        Ok(Hint {
            mv: c.dir.to_string(),
            values,
            unit: "expected heuristic value".into(),
            solver: search.describe(&cfg),
            detail: Detail { depth: c.depth, nodes: s.nodes() },
        })
    }

    fn auto(g: &mut Engine, search: &Search, turns: &mut Turns<Self>) -> Result<(), Error> {
        let cfg = search.config()?;
        let h = Heuristic::new(search.params.unwrap_or(Params::SHIPPED));
        let mut s = Searcher::with_evaluator(&h, cfg).with_abort(turns.ctl().abort_flag());
        let cap = node_cap(search);
        while turns.more(g) {
            match choose(&mut s, g.board(), search, cap) {
                Some(c) => turns.play(g, c.dir)?,
                None => turns.give_up(),
            }
        }
        // As `play` ends a game it stops before its end.
        g.stop();
        Ok(())
    }
}

/// What a 2048 hint adds: the depth searched and the nodes.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Detail {
    /// Move layers of the search that chose.
    pub depth: u8,
    /// Search nodes (move-generator calls).
    pub nodes: u64,
}
