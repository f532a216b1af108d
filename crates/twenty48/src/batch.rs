//! Many games across threads, and the table the field reports.
//!
//! Game `i` of a batch with master seed `S` uses spawn seed [`bits::rng::sub_seed`]`(S, i)`.
//! Every game is played by its own player (shared nothing), and results are collected in game
//! order, so a batch gives the same games and the same table for any thread count.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::game::{Game, Status};
use crate::search::{Evaluator, Heuristic, SearchConfig, SearchPlayer, Searcher};
use crate::trace::GameRecord;

/// One finished game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameResult {
    /// Index in the batch.
    pub index: u64,
    /// Its spawn seed.
    pub seed: u64,
    /// Final score.
    pub score: u64,
    /// Moves played.
    pub moves: u64,
    /// Largest tile reached.
    pub max_tile: u32,
    /// How it ended.
    pub status: Status,
    /// Move-generator calls made by the player's search.
    pub nodes: u64,
    /// Moves where an endgame table overruled the search: its own move, unsearched, or with
    /// a table slack the search's best among the moves the table allows.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub table_moves: u64,
    /// The record, when asked for (not serialised).
    #[serde(skip)]
    pub record: Option<GameRecord>,
}

impl GameResult {
    /// The result of a finished game.
    pub fn from_game(index: u64, g: &Game, nodes: u64, keep_record: bool) -> GameResult {
        let max_tile = g.max_tile();
        GameResult {
            index,
            seed: g.seed(),
            score: g.score(),
            moves: g.moves(),
            max_tile,
            status: g.status(),
            nodes,
            table_moves: 0,
            record: keep_record.then(|| g.record()),
        }
    }
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

/// Plays one game with the expectimax player.
pub fn play_search_game(
    index: u64,
    seed: u64,
    heur: &Heuristic,
    cfg: SearchConfig,
    max_moves: u64,
    keep_record: bool,
) -> GameResult {
    play_eval_game(index, seed, heur, cfg, max_moves, keep_record)
}

/// Plays one game with the expectimax player over any evaluator (the row heuristic or an
/// n-tuple network, [`crate::ntuple::NetEval`]).
pub fn play_eval_game<E: Evaluator>(
    index: u64,
    seed: u64,
    eval: &E,
    cfg: SearchConfig,
    max_moves: u64,
    keep_record: bool,
) -> GameResult {
    let mut player = SearchPlayer { searcher: Searcher::with_evaluator(eval, cfg) };
    let g = crate::game::play_game(seed, &mut player, max_moves);
    GameResult::from_game(index, &g, player.searcher.nodes(), keep_record)
}

/// Plays games `0..n` of the batch with master seed `master` in the current rayon pool;
/// `play(index, seed)` plays one game. `done` is called as each game finishes (in any order).
pub fn play_batch(
    n: u64,
    master: u64,
    play: impl Fn(u64, u64) -> GameResult + Sync,
    done: impl Fn(&GameResult) + Sync,
) -> Vec<GameResult> {
    (0..n)
        .into_par_iter()
        .map(|i| {
            let r = play(i, bits::rng::sub_seed(master, i));
            done(&r);
            r
        })
        .collect()
}

/// Plays one game per spawn seed in `seeds` (game `i` uses `seeds[i]`) in the current rayon
/// pool, results in seed order; `play(index, seed)` plays one game.
pub fn play_seeds(
    seeds: &[u64],
    play: impl Fn(u64, u64) -> GameResult + Sync,
    done: impl Fn(&GameResult) + Sync,
) -> Vec<GameResult> {
    seeds
        .par_iter()
        .enumerate()
        .map(|(i, &seed)| {
            let r = play(i as u64, seed);
            done(&r);
            r
        })
        .collect()
}

/// A share with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct Rate {
    /// The tile.
    pub tile: u32,
    /// Games that reached it.
    pub count: u64,
    /// The share, 0..1.
    pub rate: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// The 95% Wilson score interval of `k` successes in `n` trials (`trials::wilson_z` with
/// z = 1.959964); `(0, 1)` when `n` is 0.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    trials::wilson_z(k, n, Z95)
}

/// The two-sided 95% normal critical value the reports use.
const Z95: f64 = 1.959_964;

/// The table the field reports.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Average score.
    pub average: f64,
    /// Half-width of the 95% interval of the average (normal approximation).
    pub average_ci95: f64,
    /// Median score.
    pub median: f64,
    /// Best score.
    pub best: u64,
    /// Largest tile seen.
    pub best_tile: u32,
    /// Reach rates for 2048, 4096, ..., 65536.
    pub reach: Vec<Rate>,
    /// Moves played in all.
    pub moves: u64,
    /// Search nodes (move-generator calls) in all.
    pub nodes: u64,
    /// Moves an endgame table chose, in all.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub table_moves: u64,
}

impl Summary {
    /// Summarises a batch.
    pub fn of(results: &[GameResult]) -> Summary {
        let n = results.len() as u64;
        let scores: Vec<f64> = results.iter().map(|r| r.score as f64).collect();
        let average = trials::mean(&scores).unwrap_or(0.0);
        let reach = (11..=16)
            .map(|r| {
                let tile = 1u32 << r;
                let count = results.iter().filter(|g| g.max_tile >= tile).count() as u64;
                let (low, high) = wilson(count, n);
                Rate {
                    tile,
                    count,
                    rate: if n > 0 { count as f64 / n as f64 } else { 0.0 },
                    low,
                    high,
                }
            })
            .collect();
        Summary {
            games: n,
            average,
            average_ci95: trials::sample::normal_half_width(&scores, Z95),
            median: trials::median(&scores).unwrap_or(0.0),
            best: results.iter().map(|r| r.score).max().unwrap_or(0),
            best_tile: results.iter().map(|r| r.max_tile).max().unwrap_or(0),
            reach,
            moves: results.iter().map(|r| r.moves).sum(),
            nodes: results.iter().map(|r| r.nodes).sum(),
            table_moves: results.iter().map(|r| r.table_moves).sum(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Depth, Params};

    #[test]
    fn same_games_for_any_thread_count() {
        let h = Heuristic::new(Params::SHIPPED);
        let cfg = SearchConfig { depth: Depth::Fixed(1), tt_bits: 10, ..Default::default() };
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| {
                play_batch(6, 11, |i, s| play_search_game(i, s, &h, cfg, 400, false), |_| {})
            })
        };
        let a = run(1);
        let b = run(3);
        let key = |v: &[GameResult]| {
            v.iter().map(|r| (r.seed, r.score, r.moves, r.nodes)).collect::<Vec<_>>()
        };
        assert_eq!(key(&a), key(&b));
        assert_eq!(Summary::of(&a), Summary::of(&b));
    }

    #[test]
    fn wilson_interval_is_sane() {
        let (lo, hi) = wilson(36, 100);
        assert!(lo > 0.26 && lo < 0.28 && hi > 0.45 && hi < 0.47, "{lo} {hi}");
        let (lo, hi) = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.25 && hi < 0.35);
    }
}
