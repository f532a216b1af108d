//! Game records and replay verification.
//!
//! A [`Record`] holds the setup, the seed, every move (one letter `U`/`R`/`D`/`L` each) and
//! every fruit's cell in order (the first one placed at the start included), plus the claimed
//! result. [`verify`] replays it on the reference engine ([`RefGame`]), which draws the fruits
//! again from the seed, and on the fast engine, and stops at the first step where a move is
//! refused, a fruit lands elsewhere than recorded, the two engines disagree, or the claimed
//! result is not what happened.

use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};

use crate::board::Dir;
use crate::game::{Config, Event, Game, Status};
use crate::players::Player;
use crate::reference::RefGame;

/// A complete game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Record {
    /// The setup.
    pub config: Config,
    /// Seed of the fruit generator.
    pub seed: u64,
    /// Who played (informational).
    #[serde(default)]
    pub player: String,
    /// The moves, one letter each.
    pub moves: String,
    /// Every fruit's cell, in order of appearance.
    pub fruits: Vec<usize>,
    /// The claimed final score.
    pub score: usize,
    /// The claimed final status.
    pub status: Status,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Final status.
    pub status: Status,
    /// Fruits eaten.
    pub score: usize,
    /// Moves played.
    pub moves: u64,
}

/// Plays a whole game with `player`, calling `watch` after the start and after every move.
/// A game never runs past the stall limit, so this always ends.
pub fn play_game(
    config: Config,
    seed: u64,
    player: &mut dyn Player,
    watch: impl FnMut(&Game),
) -> (Summary, Record) {
    play_game_until(config, seed, player, watch, None)
        .expect("a game without an abort flag runs to its end")
}

/// [`play_game`] that reads `abort` before every move and returns `None` once it is set;
/// without a flag, or while it stays clear, the game is exactly [`play_game`]'s.
pub fn play_game_until(
    config: Config,
    seed: u64,
    player: &mut dyn Player,
    mut watch: impl FnMut(&Game),
    abort: Option<&AtomicBool>,
) -> Option<(Summary, Record)> {
    let mut game = Game::new(config, seed);
    let mut moves = String::new();
    let mut fruits: Vec<usize> = game.board().fruit().into_iter().collect();
    watch(&game);
    while game.status() == Status::Running {
        if abort.is_some_and(|a| a.load(Ordering::Relaxed)) {
            return None;
        }
        let d = player.choose(&game);
        let event = game.play(d).unwrap_or_else(|e| panic!("{} chose {d:?}: {e}", player.name()));
        moves.push(d.letter());
        if let Event::Ate(f) = event {
            fruits.push(f);
        }
        watch(&game);
    }
    let summary = Summary { status: game.status(), score: game.score(), moves: game.moves() };
    let record = Record {
        config,
        seed,
        player: player.name().to_string(),
        moves,
        fruits,
        score: summary.score,
        status: summary.status,
    };
    Some((summary, record))
}

/// The first thing wrong with a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The 1-based move where it went wrong (0 = the setup or the end).
    pub step: usize,
    /// What went wrong.
    pub reason: String,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.step == 0 {
            write!(f, "{}", self.reason)
        } else {
            write!(f, "move {}: {}", self.step, self.reason)
        }
    }
}

impl std::error::Error for ReplayError {}

/// Replays `record` on both engines; the summary of the verified game, or the first defect.
pub fn verify(record: &Record) -> Result<Summary, ReplayError> {
    let bad = |step: usize, reason: String| ReplayError { step, reason };
    record.config.validate().map_err(|e| bad(0, format!("bad config: {e}")))?;
    let mut slow = RefGame::new(record.config, record.seed);
    let mut fast = Game::new(record.config, record.seed);
    let mut fruit_no = 0;
    let mut check_fruit = |step: usize, cell: Option<usize>| -> Result<(), ReplayError> {
        if let Some(c) = cell {
            match record.fruits.get(fruit_no) {
                Some(&want) if want == c => {}
                Some(&want) => {
                    return Err(bad(
                        step,
                        format!("fruit {} is on cell {c}, not {want}", fruit_no + 1),
                    ))
                }
                None => {
                    return Err(bad(
                        step,
                        format!("fruit {} is missing from the record", fruit_no + 1),
                    ))
                }
            }
            fruit_no += 1;
        }
        Ok(())
    };
    check_fruit(0, slow.fruit())?;
    for (i, ch) in record.moves.chars().enumerate() {
        let step = i + 1;
        let d = Dir::from_letter(ch)
            .ok_or_else(|| bad(step, format!("{ch:?} is not a move (U, R, D, L)")))?;
        let e1 = slow.play(d).map_err(|e| bad(step, e.to_string()))?;
        let e2 = fast.play(d).map_err(|e| bad(step, format!("fast engine: {e}")))?;
        if e1 != e2 || slow.body() != fast.board().body().collect::<Vec<_>>() {
            return Err(bad(step, format!("the engines disagree: {e1:?} vs {e2:?}")));
        }
        if let Event::Ate(f) = e1 {
            check_fruit(step, Some(f))?;
        }
    }
    let steps = record.moves.chars().count();
    if fruit_no != record.fruits.len() {
        return Err(bad(
            0,
            format!("the record lists {} fruits, {} appeared", record.fruits.len(), fruit_no),
        ));
    }
    if slow.status() != record.status || slow.score() != record.score {
        return Err(bad(
            steps,
            format!(
                "the record claims {:?} with score {}, the game ends {:?} with score {}",
                record.status,
                record.score,
                slow.status(),
                slow.score()
            ),
        ));
    }
    Ok(Summary { status: slow.status(), score: slow.score(), moves: slow.moves() })
}
