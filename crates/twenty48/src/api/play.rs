//! `play` (a batch of games with the expectimax player) and `best` (its choice on one board).

use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::{check_range, workers, Control, Error, LeafEval, Progress, SearchSpec, Shard, Step};
use crate::batch::{GameResult, Summary};
use crate::multistage::MultiEval;
use crate::ntuple::NetEval;
use crate::search::{Choice, Corner, Evaluator, Heuristic, Params, SearchConfig, Searcher};
use crate::{Board, Dir, Game, Status};

/// A batch of games with the expectimax player (`2048 play`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct PlayRequest {
    /// Number of games ([`PlayRequest::GAMES`]); game `i` uses spawn seed `sub_seed(seed, i)`.
    pub games: u64,
    /// The master seed.
    pub seed: u64,
    /// `FIRST..LAST`: one game per master seed S from FIRST to LAST (inclusive), each the
    /// game `games: 1, seed: S` plays (spawn seed `sub_seed(S, 0)`). Replaces `games` and
    /// `seed`.
    pub seeds: Option<String>,
    /// Stop a game after this many moves.
    pub max_moves: u64,
    /// The search.
    pub search: SearchSpec,
    /// The part of the batch to play: shard k of n plays games `shard.range(games)`, each
    /// with the index and seed it has in the whole batch.
    pub shard: Shard,
}

impl Default for PlayRequest {
    fn default() -> Self {
        PlayRequest {
            games: 10,
            seed: 1,
            seeds: None,
            max_moves: 1_000_000,
            search: SearchSpec::default(),
            shard: Shard::WHOLE,
        }
    }
}

fn is_whole(s: &Shard) -> bool {
    *s == Shard::WHOLE
}

/// The outcome of [`play`]: the table the field reports and every game (with its record).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlayResponse {
    /// The setting in words ([`SearchSpec::describe`]).
    pub setting: String,
    /// The master seed.
    pub seed: u64,
    /// The `seeds` range of the request, if it had one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seeds: Option<String>,
    /// The part of the batch played (absent when the whole).
    #[serde(default, skip_serializing_if = "is_whole")]
    pub shard: Shard,
    /// Worker threads that played (the current rayon pool's, at most one per game).
    pub threads: usize,
    /// The table: averages, reach rates, moves and nodes.
    pub summary: Summary,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Game moves per second in all.
    pub game_moves_per_second: f64,
    /// Game moves per second per thread.
    pub game_moves_per_second_per_thread: f64,
    /// Search nodes (move-generator calls) per second.
    pub search_nodes_per_second: f64,
    /// Every game, in batch order; each holds its record (not serialised).
    pub games: Vec<GameResult>,
}

/// The spawn seeds of the request's games, with their indices in the whole batch.
fn spawn_seeds(req: &PlayRequest) -> Result<Vec<u64>, Error> {
    let Some(text) = &req.seeds else {
        check_range("games", req.games, PlayRequest::GAMES)?;
        return Ok((0..req.games).map(|i| bits::rng::sub_seed(req.seed, i)).collect());
    };
    let bad = || Error::input(format!("seeds: {text:?}, expected FIRST..LAST, e.g. 30000..30095"));
    let (first, last) = text.split_once("..").ok_or_else(bad)?;
    let first: u64 = first.trim().parse().map_err(|_| bad())?;
    let last: u64 = last.trim().parse().map_err(|_| bad())?;
    if last < first || last - first >= 1_000_000 {
        return Err(bad());
    }
    Ok((first..=last).map(|s| bits::rng::sub_seed(s, 0)).collect())
}

impl PlayRequest {
    /// The range of `games`.
    pub const GAMES: RangeInclusive<u64> = 1..=1_000_000;

    /// Checks the request: the search's options, then `games` (or the `seeds` range).
    pub fn check(&self) -> Result<(), Error> {
        self.search.check()?;
        spawn_seeds(self).map(|_| ())
    }

    /// The number of games this request plays (its shard of the batch), or the input error
    /// of a bad `seeds` range.
    pub fn game_count(&self) -> Result<u64, Error> {
        let n = spawn_seeds(self)?.len() as u64;
        self.shard.check()?;
        let r = self.shard.range(n);
        Ok(r.end - r.start)
    }
}

/// Plays the batch (in the current rayon pool; the games are the same for any thread count
/// unless `time_per_move` is set), replays every game through the independent checker, and
/// returns the table. Progress: one unit per finished game, and every 1,000 moves of a game
/// a message `game I: move M, best tile T` (for games that run for minutes). With
/// [`Control::with_steps`], every move is reported as a [`Step`] (state: the board text).
pub fn play(req: &PlayRequest, ctl: Control) -> Result<PlayResponse, Error> {
    let cfg = req.search.config()?;
    match &req.search.network {
        // A one-stage file plays through the single network's evaluator, exactly as before.
        Some(net) if net.count() == 1 => play_with(req, cfg, &NetEval(net.stage(0)), ctl),
        Some(net) => play_with(req, cfg, &MultiEval(net), ctl),
        None if req.search.eval == LeafEval::Corner => play_with(req, cfg, &Corner, ctl),
        None => {
            let h = Heuristic::new(req.search.params.unwrap_or(Params::SHIPPED));
            play_with(req, cfg, &h, ctl)
        }
    }
}

fn play_with<E: Evaluator + Sync>(
    req: &PlayRequest,
    cfg: SearchConfig,
    eval: &E,
    ctl: Control,
) -> Result<PlayResponse, Error> {
    use rayon::prelude::*;
    let all = spawn_seeds(req)?;
    req.shard.check()?;
    let range = req.shard.range(all.len() as u64);
    let seeds = &all[range.start as usize..range.end as usize];
    let total = seeds.len() as u64;
    let threads = workers(seeds.len());
    let done = AtomicU64::new(0);
    let start = Instant::now();
    let results: Vec<Result<GameResult, Error>> = seeds
        .par_iter()
        .enumerate()
        .map(|(k, &seed)| {
            // An aborted run skips the games not yet started (each would set up a search).
            ctl.check()?;
            let index = range.start + k as u64;
            let r = play_one(index, seed, eval, cfg, req, ctl, &done, total);
            let d = done.fetch_add(1, Ordering::Relaxed) + 1;
            ctl.report(Progress::new(d, Some(total)));
            r
        })
        .collect();
    let results: Vec<GameResult> = results.into_iter().collect::<Result<_, _>>()?;
    let seconds = start.elapsed().as_secs_f64();
    // A table served from its file that could not be read answered nothing from then on.
    if let Some(e) = req.search.tables.as_ref().and_then(|t| t.failure()) {
        return Err(Error::failed(format!("an endgame table failed in play: {e}")));
    }
    // Every game is replayed by the independent checker before anything is reported.
    for r in &results {
        let rec = r.record.as_ref().ok_or_else(|| Error::failed("a game has no record"))?;
        let s = crate::replay(rec)
            .map_err(|e| Error::failed(format!("game {} does not replay: {e}", r.index)))?;
        if s.score != r.score {
            return Err(Error::failed(format!("game {}: replayed score differs", r.index)));
        }
    }
    let summary = Summary::of(&results);
    Ok(PlayResponse {
        setting: req.search.describe(&cfg),
        seed: req.seed,
        seeds: req.seeds.clone(),
        shard: req.shard,
        threads,
        seconds,
        game_moves_per_second: summary.moves as f64 / seconds,
        game_moves_per_second_per_thread: summary.moves as f64 / seconds / threads as f64,
        search_nodes_per_second: summary.nodes as f64 / seconds,
        summary,
        games: results,
    })
}

/// Plays game `index` (spawn seed `seed`): by the depth rule of `cfg`, or by iterative
/// deepening against the clock with `time_per_move`. Checks the abort flag every move (and
/// the search every few microseconds).
#[allow(clippy::too_many_arguments)]
fn play_one<E: Evaluator>(
    index: u64,
    seed: u64,
    eval: &E,
    cfg: SearchConfig,
    req: &PlayRequest,
    ctl: Control,
    done: &AtomicU64,
    total: u64,
) -> Result<GameResult, Error> {
    let mut s = Searcher::with_evaluator(eval, cfg).with_abort(ctl.abort_flag());
    let mut g = Game::new(seed);
    let mut table_moves = 0u64;
    while g.status() == Status::Playing {
        ctl.check()?;
        if g.moves() >= req.max_moves {
            g.stop();
            break;
        }
        if g.moves() % 1000 == 999 {
            // The message of the game's 1000th, 2000th, ... move, as it is chosen.
            let what = format!("game {index}: move {}, best tile {}", g.moves() + 1, g.max_tile());
            ctl.report(Progress::new(done.load(Ordering::Relaxed), Some(total)).with_message(what));
        }
        let advice = req.search.tables.as_ref().and_then(|t| t.advise(g.board()));
        let choice = match advice {
            Some(a) => {
                let (c, table) = table_choice(&a, req.search.table_slack, || {
                    choose(&mut s, g.board(), req.search.time_per_move)
                        .map(|c| (c, s.root_values()))
                });
                table_moves += u64::from(table);
                Some(c)
            }
            None => choose(&mut s, g.board(), req.search.time_per_move),
        };
        ctl.check()?;
        match choice {
            Some(c) => {
                let r = g.play(c.dir);
                if ctl.wants_steps() {
                    ctl.step(&Step {
                        game: index,
                        moves: g.moves(),
                        action: c.dir.letter().to_string(),
                        state: g.tiles().to_string(),
                        score: g.score() as i64,
                        frame: serde_json::Value::Null,
                    });
                }
                debug_assert!(r != Err(crate::MoveError::Illegal), "search chose an illegal move");
                if r == Err(crate::MoveError::Illegal) {
                    g.stop();
                }
            }
            None => g.stop(),
        }
    }
    Ok(GameResult { table_moves, ..GameResult::from_game(index, &g, s.nodes(), true) })
}

/// The move where a table applies, and whether the table overruled the search. With no slack:
/// the table's move, unsearched. With slack `e` the table allows the moves it rates within `e`
/// of its best chance: the search's move if it is one of them, else the search's best among
/// them (both by its root values), else the table's own (when the search has no answer).
/// `search` gives the search's choice and its root values ([`Searcher::root_values`]).
fn table_choice(
    a: &crate::endgame::Advice,
    slack: Option<f32>,
    search: impl FnOnce() -> Option<(Choice, [Option<f32>; 4])>,
) -> (Choice, bool) {
    let table = Choice { dir: a.dir, value: a.chance, depth: 0 };
    let Some(e) = slack else { return (table, true) };
    let Some((c, values)) = search() else { return (table, true) };
    let allowed = |d: Dir| a.chances[d.index()].is_some_and(|v| v >= a.chance - e);
    if allowed(c.dir) {
        return (c, false);
    }
    let mut best: Option<Choice> = None;
    for d in Dir::ALL.into_iter().filter(|&d| allowed(d)) {
        if let Some(v) = values[d.index()] {
            if best.is_none_or(|b| v > b.value) {
                best = Some(Choice { dir: d, value: v, depth: c.depth });
            }
        }
    }
    (best.unwrap_or(table), true)
}

/// The searcher's choice on `board`: by its depth rule, or with `time_per_move` by iterative
/// deepening from 2 layers while the time spent is under a quarter of the budget (each layer
/// costs several times the previous one).
pub(super) fn choose<E: Evaluator>(
    s: &mut Searcher<'_, crate::search::FastMoves, E>,
    board: Board,
    time_per_move: Option<u64>,
) -> Option<Choice> {
    match time_per_move {
        Some(ms) => {
            let start = Instant::now();
            let budget = Duration::from_millis(ms);
            s.best_move_deepening(board, 2, 16, |_| start.elapsed() * 4 < budget)
        }
        None => s.best_move(board),
    }
}

/// The expectimax player's choice on one board (`2048 best`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct BestRequest {
    /// The board in the text form: four rows separated by `/`, cells `.` or tile values
    /// (up to 131072).
    pub board: String,
    /// The search (as [`play`]'s).
    pub search: SearchSpec,
}

impl Default for BestRequest {
    fn default() -> Self {
        BestRequest {
            board: "2 . . ./. . . ./. . . ./. . . 2".to_string(),
            search: SearchSpec::default(),
        }
    }
}

/// The outcome of [`best`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BestResponse {
    /// The board in the text form.
    pub board: String,
    /// The packed board the search saw, when it is not the board itself: a tile past 32768,
    /// or two 32768 tiles, squeezed as [`crate::wide`] describes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<String>,
    /// The endgame table that chose the move instead of the search (then `value` is its
    /// chance of building the target, `depth` 0, and `values` is empty), if one did; with
    /// `table_slack` only when the table's own move is played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    /// The best move's letter (`U`, `D`, `L`, `R`), none when no move is legal.
    pub best: Option<String>,
    /// Its expected value.
    pub value: Option<f32>,
    /// The move layers searched.
    pub depth: Option<u8>,
    /// Search nodes (move-generator calls).
    pub nodes: u64,
    /// Every legal move's expected value in the search that chose the best, in the order
    /// `U`, `D`, `L`, `R`.
    pub values: Vec<MoveValue>,
    /// The choice itself (not serialised).
    #[serde(skip)]
    pub choice: Option<Choice>,
}

/// One move's expected value (see [`BestResponse::values`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveValue {
    /// The move's letter.
    pub dir: String,
    /// Its expected value at the depth searched.
    pub value: f32,
}

/// Searches one board (a fresh table, as `play` does every move by default) and checks the
/// answer with the engine's own rules. Aborts within milliseconds of the flag.
pub fn best(req: &BestRequest, ctl: Control) -> Result<BestResponse, Error> {
    let board: crate::Wide =
        req.board.parse().map_err(|e| Error::input(format!("board {:?}: {e}", req.board)))?;
    let cfg = req.search.config()?;
    match &req.search.network {
        Some(net) if net.count() == 1 => best_with(board, req, cfg, &NetEval(net.stage(0)), ctl),
        Some(net) => best_with(board, req, cfg, &MultiEval(net), ctl),
        None if req.search.eval == LeafEval::Corner => best_with(board, req, cfg, &Corner, ctl),
        None => {
            let h = Heuristic::new(req.search.params.unwrap_or(Params::SHIPPED));
            best_with(board, req, cfg, &h, ctl)
        }
    }
}

fn best_with<E: Evaluator>(
    board: crate::Wide,
    req: &BestRequest,
    cfg: SearchConfig,
    eval: &E,
    ctl: Control,
) -> Result<BestResponse, Error> {
    let mut s = Searcher::with_evaluator(eval, cfg).with_abort(ctl.abort_flag());
    let view = board.view();
    let advice = req.search.tables.as_ref().and_then(|t| t.advise(view));
    // Whether the table's own move is played (then `value` is its chance).
    let mut by_table = false;
    let c = match advice {
        Some(a) => {
            let (c, overruled) = table_choice(&a, req.search.table_slack, || {
                choose(&mut s, view, req.search.time_per_move).map(|c| (c, s.root_values()))
            });
            by_table = overruled && c.depth == 0;
            Some(c)
        }
        // A board with no move gets no search (its view may show a merge it does not have).
        None if !board.can_move() => None,
        None => choose(&mut s, view, req.search.time_per_move),
    };
    ctl.check()?;
    if let Some(e) = req.search.tables.as_ref().and_then(|t| t.failure()) {
        return Err(Error::failed(format!("an endgame table failed: {e}")));
    }
    // The answer is checked by the rules on the board itself before it is returned.
    if let Some(c) = c {
        if board.play(c.dir).is_none() {
            return Err(Error::failed(format!("search chose illegal move {}", c.dir)));
        }
    }
    Ok(BestResponse {
        table: advice.filter(|_| by_table).map(|a| {
            format!(
                "{} {}: chance {:.4} of building the {}",
                a.formation, a.target, a.chance, a.target
            )
        }),
        board: board.to_string(),
        view: (board.exact() != Some(view)).then(|| view.to_string()),
        best: c.map(|c| c.dir.letter().to_string()),
        value: c.map(|c| c.value),
        depth: c.map(|c| c.depth),
        nodes: s.nodes(),
        values: (c.is_some() && !by_table)
            .then(|| s.root_values())
            .into_iter()
            .flat_map(|v| crate::Dir::ALL.into_iter().zip(v))
            .filter_map(|(d, v)| v.map(|value| MoveValue { dir: d.letter().to_string(), value }))
            .collect(),
        choice: c,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endgame::Advice;

    #[test]
    fn slack_lets_the_search_choose_among_the_moves_near_the_tables_best() {
        // The table: left 0.9 (its best), up 0.895, right 0.5, down barred.
        let a = Advice {
            dir: Dir::Left,
            chance: 0.9,
            formation: "L3b",
            target: 512,
            chances: [None; 4],
        };
        let mut chances = [None; 4];
        chances[Dir::Left.index()] = Some(0.9);
        chances[Dir::Up.index()] = Some(0.895);
        chances[Dir::Right.index()] = Some(0.5);
        let a = Advice { chances, ..a };
        // The search's root values: up 25, down 40, left 20, right 30 (its best is down).
        let mut values = [None; 4];
        for (d, v) in [(Dir::Up, 25.0), (Dir::Down, 40.0), (Dir::Left, 20.0), (Dir::Right, 30.0)] {
            values[d.index()] = Some(v);
        }
        let search = |d: Dir| move || Some((Choice { dir: d, value: 1e5, depth: 3 }, values));
        let pick = |slack: Option<f32>, d: Dir| {
            let (c, table) = table_choice(&a, slack, search(d));
            (c.dir, table)
        };
        // No slack: the table's move, and the search is never asked.
        let (c, table) = table_choice(&a, None, || panic!("searched"));
        assert_eq!((c.dir, c.value, table), (Dir::Left, 0.9, true));
        // Within the slack the search's move stands.
        assert_eq!(pick(Some(0.01), Dir::Up), (Dir::Up, false));
        assert_eq!(pick(Some(0.0), Dir::Left), (Dir::Left, false));
        assert_eq!(pick(Some(1.0), Dir::Right), (Dir::Right, false));
        // Past it, or barred: the search's best among the allowed moves (by its values).
        assert_eq!(pick(Some(0.001), Dir::Up), (Dir::Left, true));
        assert_eq!(pick(Some(0.3), Dir::Right), (Dir::Up, true));
        assert_eq!(pick(Some(1.0), Dir::Down), (Dir::Right, true));
        let (c, _) = table_choice(&a, Some(1.0), search(Dir::Down));
        assert_eq!((c.value, c.depth), (30.0, 3));
        // A search with no answer (stopped): the table's move.
        assert_eq!(table_choice(&a, Some(1.0), || None).0.dir, Dir::Left);
    }
}
