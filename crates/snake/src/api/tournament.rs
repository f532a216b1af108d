//! `tournament`: every player on the same seeded games, replayed, summed up in rows.

use std::ops::{RangeInclusive, RangeToInclusive};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{check_range, parse_player, stats, Control, Error, Progress, Setup, Shard};
use crate::{play_game_until, verify, PlayerKind, Status, Summary};

/// A tournament (`bitarcade snake tournament`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct TournamentRequest {
    /// Games per player ([`TournamentRequest::GAMES`]).
    pub games: u64,
    /// Index of the first game: game i is played with seed `sub_seed(seed, i)`
    /// ([`TournamentRequest::FIRST`]).
    pub first: u64,
    /// Only this contiguous part of the games (`shard.range(games)`, after `first`), each with
    /// the seed it has in the whole run, so the shards' games concatenate into the whole run's;
    /// the response's `first` and `games` describe the part played.
    pub shard: Shard,
    /// Players by name.
    pub players: Vec<String>,
    /// Board and rules.
    pub setup: Setup,
    /// Master seed.
    pub seed: u64,
}

impl Default for TournamentRequest {
    fn default() -> Self {
        TournamentRequest {
            games: 2000,
            first: 0,
            shard: Shard::WHOLE,
            players: PlayerKind::ALL.iter().map(|k| k.name().to_string()).collect(),
            setup: Setup::default(),
            seed: 1,
        }
    }
}

impl TournamentRequest {
    /// The range of `games`.
    pub const GAMES: RangeInclusive<u64> = 1..=10_000_000;
    /// The range of `first`.
    pub const FIRST: RangeToInclusive<u64> = ..=u64::MAX / 2;

    /// Checks the fields' ranges, the setup and the players' names; the input error names the
    /// first field at fault.
    pub fn check(&self) -> Result<(), Error> {
        check_range("games", self.games, Self::GAMES)?;
        check_range("first", self.first, Self::FIRST)?;
        self.setup.config()?;
        for p in &self.players {
            parse_player("players", p)?;
        }
        Ok(())
    }
}

/// One player's row of the table.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Row {
    /// The player.
    pub solver: String,
    /// Games played.
    pub games: u64,
    /// Games won (board filled).
    pub wins: u64,
    /// Games stopped by the stall limit.
    pub stalled: u64,
    /// Mean score.
    pub avg_score: f64,
    /// Best score.
    pub best: usize,
    /// Worst score.
    pub worst: usize,
    /// Mean moves per game.
    pub avg_moves: f64,
    /// Half-width of the 95% confidence interval of `avg_moves` (1.96 standard errors).
    pub moves_ci95: f64,
    /// Mean wall time per game in milliseconds (the one column that varies run to run).
    pub ms_per_game: f64,
}

/// What `tournament --json` prints.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TournamentResponse {
    /// Board size `WxH`.
    pub size: String,
    /// Start length.
    pub start_len: usize,
    /// Stall limit.
    pub stall_limit: u64,
    /// Master seed.
    pub seed: u64,
    /// Index of the first game played.
    pub first: u64,
    /// Games per player played.
    pub games: u64,
    /// One row per player, in request order.
    pub rows: Vec<Row>,
}

/// Plays every player on the same games (on the caller's rayon pool), replays every game on
/// the reference engine before it counts, and sums up. Progress counts games over all players;
/// each game checks the abort flag before every move.
pub fn tournament(req: &TournamentRequest, ctl: Control) -> Result<TournamentResponse, Error> {
    req.check()?;
    let config = req.setup.config()?;
    let kinds: Vec<PlayerKind> =
        req.players.iter().map(|p| parse_player("players", p)).collect::<Result<_, _>>()?;
    req.shard.check()?;
    let part = req.shard.range(req.games);
    let (first, games) = (req.first + part.start, part.end - part.start);
    let total = games * kinds.len() as u64;
    let done = AtomicU64::new(0);
    let seed = req.seed;
    let mut rows = Vec::new();
    for kind in kinds {
        let results: Vec<Result<(Summary, Duration), Error>> = (first..first + games)
            .into_par_iter()
            .map(|i| {
                ctl.check()?;
                let game_seed = bits::rng::sub_seed(seed, i);
                let start = Instant::now();
                let mut p = kind.build(config.size);
                let (summary, record) =
                    play_game_until(config, game_seed, p.as_mut(), |_| {}, ctl.abort_flag())
                        .ok_or(Error::Aborted)?;
                let elapsed = start.elapsed();
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                ctl.report(Progress::new(n, Some(total)));
                let fail = |e: String| Error::failed(format!("{}: {e}", kind.name()));
                match verify(&record) {
                    Ok(v) if v == summary => Ok((summary, elapsed)),
                    Ok(v) => {
                        Err(fail(format!("game {i}: replay gives {v:?}, play gave {summary:?}")))
                    }
                    Err(e) => Err(fail(format!("game {i} does not replay: {e}"))),
                }
            })
            .collect();
        ctl.check()?;
        let ok: Vec<(Summary, Duration)> = results.into_iter().collect::<Result<_, _>>()?;
        let n = ok.len() as f64;
        let moves: Vec<f64> = ok.iter().map(|(s, _)| s.moves as f64).collect();
        let (mean_moves, ci95) = stats::mean_ci95(&moves);
        rows.push(Row {
            solver: kind.name().to_string(),
            games,
            wins: ok.iter().filter(|(s, _)| s.status == Status::Won).count() as u64,
            stalled: ok.iter().filter(|(s, _)| s.status == Status::Stalled).count() as u64,
            avg_score: ok.iter().map(|(s, _)| s.score as f64).sum::<f64>() / n,
            best: ok.iter().map(|(s, _)| s.score).max().unwrap_or(0),
            worst: ok.iter().map(|(s, _)| s.score).min().unwrap_or(0),
            avg_moves: mean_moves,
            moves_ci95: ci95,
            ms_per_game: ok.iter().map(|(_, t)| t.as_secs_f64() * 1e3).sum::<f64>() / n,
        });
    }
    Ok(TournamentResponse {
        size: config.size.to_string(),
        start_len: config.start_len,
        stall_limit: config.stall_limit,
        seed,
        first,
        games,
        rows,
    })
}
