//! Nested Monte-Carlo search (Cazenave, "Nested Monte-Carlo Search", IJCAI 2009) with
//! tabu-colour playouts, for the score goal.
//!
//! # Algorithm
//! A level-0 search is one tabu-colour random playout (the most frequent colour is only played
//! when nothing else is left). A level-`n` search walks one game: at every position it runs a
//! level-`n - 1` search after each legal move, remembers the best whole sequence found so far
//! (from the level's starting position), and plays the next move of that sequence. The best
//! sequence is never lost, so the score a level returns is at least that of any sequence it has
//! seen. One level-`n` step costs about `moves x` one level-`n - 1` search, so each level
//! multiplies the work by roughly `moves x game length` (about 1,000 on a 15 x 15 board).
//!
//! # Determinism
//! The playout after a position uses a seed derived from the position's hash, the level and the
//! configured seed, never from a thread or an order of evaluation. The children of a top-level
//! step are evaluated in parallel and compared in move order (strictly better replaces), so
//! the answer is the same on any number of threads.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::beam::{playout, Outcome};
use crate::board::Board;
use crate::groups::{group_at, Groups};
use crate::rules::Rules;
use crate::trace::Move;

/// Settings of a nested search.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Nesting level: 0 = one playout, 1 = a playout after every move of every position, ...
    pub level: u32,
    /// Scoring and minimum group size.
    pub rules: Rules,
    /// Seed of the playouts.
    pub seed: u64,
}

/// Reported after each move of the top level.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Moves played at the top level.
    pub moves: usize,
    /// Best total score of a whole game found so far.
    pub best: i64,
    /// Playouts run so far.
    pub playouts: u64,
}

/// A sequence found from some position: its points (clear bonus included) and moves.
#[derive(Clone, Debug)]
struct Seq {
    score: i64,
    moves: Vec<Move>,
    tiles_left: u32,
}

/// Whether the caller's abort flag is set.
#[inline]
fn stopped(abort: Option<&AtomicBool>) -> bool {
    abort.is_some_and(|a| a.load(Ordering::Relaxed))
}

fn playout_seed(cfg: &Config, board: &Board, level: u32) -> u64 {
    bits::rng::sub_seed(cfg.seed ^ board.hash64(), u64::from(level))
}

/// The result of a level-`level` search from `board` (points relative to `board`).
#[allow(clippy::too_many_arguments)]
fn nested(
    cfg: &Config,
    board: &Board,
    level: u32,
    top: bool,
    start: Option<Seq>,
    groups: &mut Groups,
    playouts: &mut u64,
    abort: Option<&AtomicBool>,
    progress: &mut dyn FnMut(&Progress),
) -> Option<Seq> {
    let rules = &cfg.rules;
    if level == 0 {
        let mut moves = Vec::new();
        let (score, _, tiles_left) =
            playout(board, rules, playout_seed(cfg, board, 0), groups, Some(&mut moves));
        *playouts += 1;
        let seq = Seq { score, moves, tiles_left };
        return Some(match start {
            Some(s) if s.score >= seq.score => s,
            _ => seq,
        });
    }
    let mut b = board.clone();
    let mut best: Option<Seq> = start;
    let mut played: Vec<Move> = Vec::new();
    let mut points = 0i64;
    loop {
        // An abort leaves `best` as it was: a whole game from `board` (or none yet).
        if stopped(abort) || groups.find(&b, rules.min_group).is_empty() {
            break;
        }
        // Every child: its move, its own points and its board, from this one group finding.
        let children: Vec<(Move, i64, Board)> = groups
            .list()
            .iter()
            .map(|g| {
                let mut child = b.clone();
                groups.remove(&mut child, g);
                let mut gain = rules.points(g.size);
                if child.is_clear() {
                    gain += rules.clear_bonus;
                }
                ((g.x, g.y), gain, child)
            })
            .collect();
        // A level - 1 search after each child.
        let eval = |child: &(Move, i64, Board), groups: &mut Groups| {
            let (mv, gain, ref board) = *child;
            let mut n = 0;
            let rest = if board.is_clear() {
                Some(Seq { score: 0, moves: Vec::new(), tiles_left: 0 })
            } else {
                nested(cfg, board, level - 1, false, None, groups, &mut n, abort, &mut |_| {})
            };
            (rest.as_ref().map(|r| gain + r.score), mv, rest, n)
        };
        let results: Vec<(Option<i64>, Move, Option<Seq>, u64)> = if top && children.len() > 1 {
            children.par_iter().map_init(Groups::new, |gs, c| eval(c, gs)).collect()
        } else {
            children.iter().map(|c| eval(c, groups)).collect()
        };
        for (s, mv, rest, n) in results {
            *playouts += n;
            // `None`: a search below was stopped before it saw a whole game. Every `Some`
            // is a whole game, even from a search cut short.
            let (Some(s), Some(rest)) = (s, rest) else { continue };
            let total = points + s;
            if best.as_ref().is_none_or(|b| total > b.score) {
                let mut moves = played.clone();
                moves.push(mv);
                moves.extend(rest.moves);
                best = Some(Seq { score: total, moves, tiles_left: rest.tiles_left });
            }
        }
        if stopped(abort) {
            break;
        }
        // Follow the best sequence one move: its next move is one of this position's children.
        let seq = best.as_ref().expect("a position with a group has a child");
        let mv = seq.moves[played.len()];
        let (_, gain, next) = children
            .into_iter()
            .find(|c| c.0 == mv)
            .expect("the best sequence names a group representative here");
        b = next;
        points += gain;
        played.push(mv);
        if top {
            progress(&Progress { moves: played.len(), best: seq.score, playouts: *playouts });
        }
    }
    // The walk followed the best sequence to its end (or was stopped: `best` is still a
    // whole game, if one was seen).
    match best {
        Some(s) => Some(s),
        None if stopped(abort) => None,
        None => Some(Seq { score: 0, moves: Vec::new(), tiles_left: b.tiles() }),
    }
}

/// `moves` replayed from `board` with every move renamed to its group's representative tile,
/// with the score they make; `None` if a move is illegal or the game does not end.
fn canonical(board: &Board, rules: &Rules, moves: &[Move], groups: &mut Groups) -> Option<Seq> {
    let mut b = board.clone();
    let mut out = Vec::with_capacity(moves.len());
    let mut score = 0;
    for &(x, y) in moves {
        let (color, cells) = group_at(&b, usize::from(x), usize::from(y))?;
        let list = groups.find(&b, rules.min_group);
        let g =
            *list.iter().find(|g| g.color == color && cells[usize::from(g.x)] >> g.y & 1 == 1)?;
        groups.remove(&mut b, &g);
        score += rules.points(g.size);
        out.push((g.x, g.y));
    }
    score += rules.end_bonus(out.len(), b.is_clear());
    if !groups.find(&b, rules.min_group).is_empty() {
        return None;
    }
    Some(Seq { score, moves: out, tiles_left: b.tiles() })
}

/// Runs a nested Monte-Carlo search of level `cfg.level` from `board`; `progress` is called
/// after every move of the top level.
pub fn search(board: &Board, cfg: &Config, progress: impl FnMut(&Progress)) -> Outcome {
    search_from(board, cfg, None, progress)
}

/// Like [`search`], but the top level starts with `known` (an answer found by any other search,
/// e.g. the beam) as its best sequence: the search follows it until a level below finds
/// something better, so the result is never worse than `known`. `known` is replayed first (any
/// tile of each group may name the move); if it is illegal or not a finished game it is ignored.
pub fn search_from(
    board: &Board,
    cfg: &Config,
    known: Option<&Outcome>,
    progress: impl FnMut(&Progress),
) -> Outcome {
    search_from_with_abort(board, cfg, known, None, progress)
}

/// Like [`search_from`], but `abort` stops the search (checked at every position of every
/// level from 1 up, so within about one level-0 playout per thread). A stopped search
/// returns, with `aborted` set, the best whole game it had found (or `known`); when it had
/// none yet, an empty move list from `board` (not a finished game). Without the flag set the
/// answer is exactly that of [`search_from`].
pub fn search_from_with_abort(
    board: &Board,
    cfg: &Config,
    known: Option<&Outcome>,
    abort: Option<&AtomicBool>,
    mut progress: impl FnMut(&Progress),
) -> Outcome {
    let mut groups = Groups::new();
    let mut playouts = 0;
    let start = known.and_then(|k| canonical(board, &cfg.rules, &k.moves, &mut groups));
    let seq = nested(
        cfg,
        board,
        cfg.level,
        true,
        start,
        &mut groups,
        &mut playouts,
        abort,
        &mut progress,
    )
    .unwrap_or(Seq { score: 0, moves: Vec::new(), tiles_left: board.tiles() });
    Outcome {
        cleared: seq.tiles_left == 0,
        tiles_left: seq.tiles_left,
        score: seq.score,
        layers: seq.moves.len(),
        moves: seq.moves,
        nodes: playouts,
        aborted: stopped(abort),
    }
}
