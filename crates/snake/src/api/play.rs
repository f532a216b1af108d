//! `play` and `watch` (one game, verified, with its record) and `replay` (check a record).

use bits::job::InputFile;
use serde::{Deserialize, Serialize};

use super::{check_range, parse_player, Control, Error, Setup};
use crate::{play_game_until, verify, Board, Game, Record, Status};

/// One game (`bitarcade snake play`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct PlayRequest {
    /// The player (shortest, astar, longest, lookahead, cycle, repair, tree, knit, dash).
    pub player: String,
    /// Board and rules.
    pub setup: Setup,
    /// Seed of the fruit generator.
    pub seed: u64,
}

impl Default for PlayRequest {
    fn default() -> Self {
        PlayRequest { player: "cycle".into(), setup: Setup::default(), seed: 1 }
    }
}

/// What `play --json` prints.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlayReport {
    /// The player's name.
    pub player: String,
    /// Board size `WxH`.
    pub size: String,
    /// Seed of the fruit generator.
    pub seed: u64,
    /// How the game ended (`Won`, `Stalled`, `Died(Body)`, ...).
    pub status: String,
    /// Fruits eaten.
    pub score: usize,
    /// Moves played.
    pub moves: u64,
    /// Whether the reference engine replayed the game to the same result (always `true`).
    pub verified: bool,
    /// The final board in text form.
    pub board: String,
}

/// The answer to a [`PlayRequest`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlayResponse {
    /// The result, as `play --json` prints it.
    pub report: PlayReport,
    /// The highest score the setup allows (cells minus the start length).
    pub max_score: usize,
    /// The game record (`--record`).
    pub record: Record,
}

/// Plays one game, checking the abort flag before every move, and replays it on the
/// reference engine.
pub fn play(req: &PlayRequest, ctl: Control) -> Result<PlayResponse, Error> {
    let kind = parse_player("player", &req.player)?;
    let config = req.setup.config()?;
    let mut p = kind.build(config.size);
    let mut last: Option<Board> = None;
    let (summary, record) = play_game_until(
        config,
        req.seed,
        p.as_mut(),
        |g| {
            if g.status() != Status::Running {
                last = Some(g.board().clone());
            }
        },
        ctl.abort_flag(),
    )
    .ok_or(Error::Aborted)?;
    let checked =
        verify(&record).map_err(|e| Error::failed(format!("the game does not replay: {e}")))?;
    if checked != summary {
        return Err(Error::failed("the replay disagrees with the game"));
    }
    let report = PlayReport {
        player: kind.name().into(),
        size: config.size.to_string(),
        seed: req.seed,
        status: format!("{:?}", summary.status),
        score: summary.score,
        moves: summary.moves,
        verified: true,
        board: last.map(|b| b.to_string()).unwrap_or_default(),
    };
    Ok(PlayResponse { report, max_score: config.max_score(), record })
}

/// One game shown move by move (`bitarcade snake watch`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct WatchRequest {
    /// The player.
    pub player: String,
    /// Hand every N-th position (and the last) to the callback; at least 1.
    pub every: u64,
    /// Board and rules.
    pub setup: Setup,
    /// Seed of the fruit generator.
    pub seed: u64,
}

impl Default for WatchRequest {
    fn default() -> Self {
        WatchRequest { player: "cycle".into(), every: 1, setup: Setup::default(), seed: 1 }
    }
}

/// The answer to a [`WatchRequest`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WatchResponse {
    /// The player's name.
    pub player: String,
    /// How the game ended, as the reference engine replayed it.
    pub status: Status,
    /// Fruits eaten.
    pub score: usize,
    /// Moves played.
    pub moves: u64,
    /// The game record.
    pub record: Record,
}

/// Plays one game and calls `frame` with the start, every `every`-th position and the last
/// one (the caller draws it, and may pause); checks the abort flag before every move; the game
/// is replayed on the reference engine at the end.
pub fn watch(
    req: &WatchRequest,
    ctl: Control,
    frame: &mut dyn FnMut(&Game),
) -> Result<WatchResponse, Error> {
    let kind = parse_player("player", &req.player)?;
    check_range("every", req.every, 1..)?;
    let config = req.setup.config()?;
    let mut p = kind.build(config.size);
    let every = req.every;
    let (summary, record) = play_game_until(
        config,
        req.seed,
        p.as_mut(),
        |g| {
            if g.moves() % every == 0 || g.status() != Status::Running {
                frame(g);
            }
        },
        ctl.abort_flag(),
    )
    .ok_or(Error::Aborted)?;
    let checked =
        verify(&record).map_err(|e| Error::failed(format!("the game does not replay: {e}")))?;
    Ok(WatchResponse {
        player: kind.name().into(),
        status: checked.status,
        score: summary.score,
        moves: summary.moves,
        record,
    })
}

/// A record to check (`bitarcade snake replay`): the file holding it, as every game's replay
/// takes it.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ReplayRequest {
    /// The record's file (its name is how messages name it).
    pub file: InputFile,
}

/// What `replay --json` prints.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReplayResponse {
    /// The record's name.
    pub file: String,
    /// Always `true` (a bad record is an error).
    pub ok: bool,
    /// How the game ended.
    pub status: String,
    /// Fruits eaten.
    pub score: usize,
    /// Moves replayed.
    pub moves: u64,
}

/// Replays a record move by move on both engines; fails at the first bad step.
pub fn replay(req: &ReplayRequest, _ctl: Control) -> Result<ReplayResponse, Error> {
    let record: Record = bits::live::one_record(&req.file)?;
    let name = &req.file.name;
    let summary = verify(&record).map_err(|e| Error::failed(format!("{name}: {e}")))?;
    Ok(ReplayResponse {
        file: name.clone(),
        ok: true,
        status: format!("{:?}", summary.status),
        score: summary.score,
        moves: summary.moves,
    })
}
