//! `play`, `decide`, `replay`, `sweep` and `ab`.

use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::stats::{paired, summary, Summary};
use super::{
    check_range, dispatch, parse_mode, thread_cpu_ns, Control, Error, EvalChoice, EvalSpec,
    InputFile, Job, Progress, SearchOptions, Shard, TableChoice,
};
use crate::engine::{ListDraws, Recording};
use crate::reference::{compare_random_game, RefGame};
use crate::search::{
    play_games_until, BatchSpec, ChanceModel, Crowding, DepthRule, Evaluator, GameEvent,
    GameResult, RuleDecision, SearchDraws, Searcher, Stats, Table,
};
use crate::trace::{verify, GameRecord};
use crate::{Mode, Position, Rules};

// ---------------------------------------------------------------------------------------
// play

/// `drop7 play`: seeded games with the expectimax (or one Sequence stream).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct PlayRequest {
    /// The rules and the searcher.
    pub search: SearchOptions,
    /// Games to play (game `i` uses seed `sub_seed(seed, i)`), [`PlayRequest::GAMES`].
    pub games: u64,
    /// Index of the first game: plays games `first_game..first_game + games` of the batch
    /// seeded by `seed`, each with the seed it has in the whole batch
    /// ([`PlayRequest::FIRST_GAME`]).
    pub first_game: u64,
    /// The part of those games to play (contiguous; shards concatenate into the whole run).
    pub shard: Shard,
    /// Stop a game after this many moves.
    pub max_moves: u32,
    /// The master seed.
    pub seed: u64,
    /// Sequence mode's stream: line 1 the discs (1-7, `#` for gray), line 2 the reveals.
    pub stream: Option<InputFile>,
}

impl PlayRequest {
    /// The range of `games`.
    pub const GAMES: RangeInclusive<u64> = 1..=100_000;
    /// The range of `first_game`.
    pub const FIRST_GAME: RangeInclusive<u64> = 0..=1_000_000_000;
}

impl Default for PlayRequest {
    fn default() -> Self {
        PlayRequest {
            search: SearchOptions::default(),
            games: 1,
            first_game: 0,
            shard: Shard::WHOLE,
            max_moves: 100_000,
            seed: 1,
            stream: None,
        }
    }
}

/// A game of a `play` report: its result and the CPU seconds it took.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GameRow {
    /// The game's result.
    #[serde(flatten)]
    pub result: GameResult,
    /// CPU seconds of the thread that played it (Linux; absent elsewhere).
    pub cpu_seconds: Option<f64>,
}

/// The report of a `play` batch (the CLI's `--json`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlayReport {
    /// The rules played.
    pub rules: Rules,
    /// The fixed depth (null under a budget rule).
    pub depth: Option<u32>,
    /// The budget rule, if one (absent for a fixed depth).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub rule: Option<DepthRule>,
    /// Decisions of all games by the depth they reached (index = depth).
    pub depths: [u64; 8],
    /// Mean search moves per decision over all games.
    pub moves_per_decision: f64,
    /// The evaluator's label.
    pub eval: String,
    /// The table's name.
    pub table: String,
    /// The chance model (`Exact`, `Strata(3)`, `strata schedule 0,3`).
    pub chance: String,
    /// `paired`, `stratified`, or `sampled:LIST` (reveal samples from the root down).
    pub reveals: String,
    /// The master seed.
    pub seed: u64,
    /// Index of the first game played: the games are `first_game..first_game + games` of
    /// the batch seeded by `seed`.
    pub first_game: u64,
    /// The scores in brief.
    pub summary: Summary,
    /// Wall seconds.
    pub seconds: f64,
    /// Wall seconds times threads per game.
    pub seconds_per_game: f64,
    /// Search moves per wall second.
    pub search_moves_per_second: f64,
    /// Every game.
    pub results: Vec<GameRow>,
}

/// What `play` gives: the report and every game's (verified) record.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlayResponse {
    /// The report.
    pub report: PlayReport,
    /// The record of every game, in game order (each replayed by the verifier).
    pub records: Vec<GameRecord>,
    /// The depth rule the games followed (for the summary line).
    pub rule: DepthRule,
    /// The mode as the request named it (for the summary line; not serialised).
    #[serde(skip)]
    pub mode: String,
}

/// A played game, its verified record and the CPU seconds it took (when known).
type PlayedGame = (GameResult, GameRecord, Option<f64>);

struct BatchJob<'a> {
    spec: BatchSpec,
    ctl: Control<'a>,
}

impl Job for BatchJob<'_> {
    /// The games, each with the CPU seconds of the thread that played it (when known).
    type Out = Vec<(GameResult, Option<GameRecord>, Option<f64>)>;
    fn run<E, T>(self, eval: E, make_table: impl Fn() -> T + Sync) -> Self::Out
    where
        E: Evaluator + Clone + Send,
        T: Table + Send,
    {
        // A game is played start to end on one thread: its CPU time is that thread's
        // CPU time between the two events.
        let first = self.spec.first;
        let total = Some(self.spec.games);
        let clock = Mutex::new(vec![(None, None); self.spec.games as usize]);
        let done = AtomicU64::new(0);
        let ctl = self.ctl;
        let out = play_games_until(&self.spec, &eval, make_table, ctl.abort_flag(), |event| {
            if let GameEvent::Moved { game, moves, score, level } = event {
                // A long game (depth 5 spends hours on one) reports its moves.
                let what = format!("game {game}: move {moves}, level {level}, score {score}");
                ctl.report(Progress::new(done.load(Ordering::Relaxed), total).with_message(what));
                return;
            }
            let now = thread_cpu_ns();
            let mut c = clock.lock().unwrap_or_else(|e| e.into_inner());
            match event {
                GameEvent::Started(i) => c[(i - first) as usize].0 = now,
                GameEvent::Finished(i) => {
                    c[(i - first) as usize].1 = now;
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    ctl.report(Progress::new(n, total));
                }
                GameEvent::Moved { .. } => {}
            }
        });
        let clock = clock.into_inner().unwrap_or_else(|e| e.into_inner());
        out.into_iter()
            .zip(clock)
            .map(|((res, rec), t)| {
                let cpu = match t {
                    (Some(a), Some(b)) if b >= a => Some((b - a) as f64 * 1e-9),
                    _ => None,
                };
                (res, rec, cpu)
            })
            .collect()
    }
}

/// Plays games `first..first + games` of the batch seeded by `seed` and verifies every
/// record; the wall seconds.
fn run_batch(
    o: &SearchOptions,
    eval: &EvalChoice,
    seed: u64,
    first: u64,
    games: u64,
    max_moves: u32,
    ctl: Control<'_>,
) -> Result<(Vec<PlayedGame>, f64), Error> {
    o.rules()?;
    let table = TableChoice::parse(&o.table)?;
    if !o.death.is_finite() {
        return Err(Error::input("search.death: must be a finite number"));
    }
    o.check()?;
    let spec = o.batch(seed, first, games, o.rule()?, max_moves, true)?;
    let start = Instant::now();
    let out = dispatch(eval, table, o.table_bits, BatchJob { spec, ctl });
    let secs = start.elapsed().as_secs_f64();
    ctl.check()?;
    // Every game is replayed by the independent verifier.
    let mut checked = Vec::with_capacity(out.len());
    for (res, rec, cpu) in out {
        let rec = rec.ok_or_else(|| Error::failed("a game lost its record"))?;
        let end = verify(&rec).map_err(|e| {
            Error::failed(format!("game with seed {}: the record does not replay: {e}", res.seed))
        })?;
        if end.score != res.score {
            return Err(Error::failed(format!("game with seed {}: score mismatch", res.seed)));
        }
        checked.push((res, rec, cpu));
    }
    Ok((checked, secs))
}

struct SequenceJob<'a> {
    death: f64,
    reveal_by_depth: [u32; 8],
    paired_reveals: bool,
    stratified_reveals: bool,
    rules: Rules,
    chance: ChanceModel,
    draws: ListDraws,
    depth: DepthRule,
    max_moves: u32,
    ctl: Control<'a>,
}

impl Job for SequenceJob<'_> {
    type Out = (GameResult, Option<GameRecord>);
    fn run<E, T>(mut self, eval: E, make_table: impl Fn() -> T + Sync) -> Self::Out
    where
        E: Evaluator + Clone + Send,
        T: Table + Send,
    {
        let mut s = Searcher::new(self.rules, self.chance, eval, make_table())
            .with_abort(self.ctl.abort_flag());
        s.death = self.death;
        s.reveal_by_depth = self.reveal_by_depth;
        s.paired_reveals = self.paired_reveals;
        s.stratified_reveals = self.stratified_reveals;
        let start = Position::start(&self.rules, crate::Board::GRAY_ROW, &mut self.draws);
        let n = self.draws.discs.len();
        crate::search::play_from(
            &mut s,
            start,
            self.draws,
            None,
            self.depth,
            self.max_moves,
            true,
            move |d: &ListDraws, _: &Position, _: u32| d.disc_pos >= n,
        )
    }
}

fn sequence_game(
    req: &PlayRequest,
    eval: &EvalChoice,
    ctl: Control<'_>,
) -> Result<(Vec<PlayedGame>, f64), Error> {
    let stream = req
        .stream
        .as_ref()
        .ok_or_else(|| Error::input("stream: search.mode sequence needs a stream"))?;
    if req.games != 1 {
        return Err(Error::input(format!(
            "games: {}, search.mode sequence plays its one stream: use 1",
            req.games
        )));
    }
    if req.shard != Shard::WHOLE {
        return Err(Error::input("shard: for seeded batches, not search.mode sequence"));
    }
    let text = std::str::from_utf8(stream.contents()?).map_err(|_| {
        Error::input(format!("{}: cannot read: stream did not contain valid UTF-8", stream.name))
    })?;
    let draws =
        ListDraws::parse_stream(text).map_err(|e| Error::input(format!("{}: {e}", stream.name)))?;
    let o = &req.search;
    let rules = o.rules()?;
    let table = TableChoice::parse(&o.table)?;
    o.check()?;
    let start = Instant::now();
    let cpu0 = thread_cpu_ns();
    let job = SequenceJob {
        death: o.death,
        reveal_by_depth: o.reveal_by_depth()?,
        paired_reveals: o.paired(),
        stratified_reveals: o.stratified(),
        rules,
        chance: o.chance(),
        draws,
        depth: o.rule()?,
        max_moves: req.max_moves,
        ctl,
    };
    let (res, rec) = dispatch(eval, table, o.table_bits, job);
    ctl.check()?;
    let secs = start.elapsed().as_secs_f64();
    let cpu = match (cpu0, thread_cpu_ns()) {
        (Some(x), Some(y)) if y >= x => Some((y - x) as f64 * 1e-9),
        _ => None,
    };
    let rec = rec.ok_or_else(|| Error::failed("the game lost its record"))?;
    verify(&rec).map_err(|e| Error::failed(format!("the record does not replay: {e}")))?;
    Ok((vec![(res, rec, cpu)], secs))
}

/// Plays the request's games (on the current rayon pool; the results do not depend on its
/// size), replays every record, and reports. Progress: one unit per finished game, and a
/// message (`game I: move M, level L, score S`) after every move.
pub fn play(req: &PlayRequest, ctl: Control<'_>) -> Result<PlayResponse, Error> {
    let o = &req.search;
    let eval = EvalChoice::parse("search.eval", &o.eval)?;
    let sequence = parse_mode("search.mode", &o.mode)? == Mode::Sequence;
    if req.stream.is_some() && !sequence {
        return Err(Error::input("stream: only for search.mode sequence"));
    }
    if sequence && req.first_game != 0 {
        return Err(Error::input("first_game: for seeded batches, not search.mode sequence"));
    }
    check_range("first_game", req.first_game, PlayRequest::FIRST_GAME)?;
    req.shard.check()?;
    let range = req.shard.range(req.games);
    let first_game = req.first_game + range.start;
    let (games, secs) = if sequence {
        sequence_game(req, &eval, ctl)?
    } else {
        check_range("games", req.games, PlayRequest::GAMES)?;
        run_batch(o, &eval, req.seed, first_game, range.end - range.start, req.max_moves, ctl)?
    };
    let scores: Vec<u64> = games.iter().map(|g| g.0.score).collect();
    let work: u64 = games.iter().map(|g| g.0.stats.moves).sum();
    let rule = o.rule()?;
    let mut depths = [0u64; 8];
    for g in &games {
        for (t, &n) in depths.iter_mut().zip(&g.0.depths) {
            *t += u64::from(n);
        }
    }
    let decisions: u64 = depths.iter().sum();
    let report = PlayReport {
        rules: o.rules()?,
        depth: match rule {
            DepthRule::Fixed(d) => Some(d),
            DepthRule::Budget { .. } => None,
        },
        rule: matches!(rule, DepthRule::Budget { .. }).then_some(rule),
        depths,
        moves_per_decision: if decisions == 0 { 0.0 } else { work as f64 / decisions as f64 },
        eval: eval.label(),
        table: TableChoice::parse(&o.table)?.name().to_string(),
        chance: match &o.strata_schedule {
            Some(list) => format!("strata schedule {list}"),
            None => format!("{:?}", o.chance()),
        },
        reveals: o.reveals_label(),
        seed: req.seed,
        first_game,
        summary: summary(&scores),
        seconds: secs,
        seconds_per_game: secs * rayon::current_num_threads() as f64 / games.len().max(1) as f64,
        search_moves_per_second: work as f64 / secs,
        results: games.iter().map(|g| GameRow { result: g.0.clone(), cpu_seconds: g.2 }).collect(),
    };
    let records = games.into_iter().map(|g| g.1).collect();
    Ok(PlayResponse { report, records, rule, mode: req.search.mode.clone() })
}

// ---------------------------------------------------------------------------------------
// decide

/// `drop7 decide`: the value of every column of one position.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct DecideRequest {
    /// The position in text form.
    pub position: String,
    /// The rules and the searcher.
    pub search: SearchOptions,
}

/// The decision (the CLI's `--json`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DecideResponse {
    /// The position, normalised.
    pub position: String,
    /// The depth searched (under a budget: the deepest completed iteration's).
    pub depth: u32,
    /// The budget rule, if one (absent for a fixed depth).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub rule: Option<DepthRule>,
    /// Each column's value (`None`: full).
    pub values: Vec<Option<f64>>,
    /// The best column, 1-based.
    pub best_column: usize,
    /// The position after the best move (checked by the reference engine).
    pub after: String,
    /// Search work.
    pub stats: Stats,
    /// Wall seconds.
    pub seconds: f64,
}

struct DecideJob<'a> {
    death: f64,
    reveal_by_depth: [u32; 8],
    paired_reveals: bool,
    stratified_reveals: bool,
    rules: Rules,
    chance: ChanceModel,
    pos: Position,
    depth: DepthRule,
    ctl: Control<'a>,
}

impl Job for DecideJob<'_> {
    type Out = (RuleDecision, Stats, bool);
    fn run<E, T>(self, eval: E, make_table: impl Fn() -> T + Sync) -> Self::Out
    where
        E: Evaluator + Clone + Send,
        T: Table + Send,
    {
        let mut s = Searcher::new(self.rules, self.chance, eval, make_table())
            .with_abort(self.ctl.abort_flag());
        s.death = self.death;
        s.reveal_by_depth = self.reveal_by_depth;
        s.paired_reveals = self.paired_reveals;
        s.stratified_reveals = self.stratified_reveals;
        let d = s.decide_rule(&self.pos, self.depth);
        (d, s.stats, s.stopped())
    }
}

/// Searches the position and checks the chosen move with the checked engine and the
/// reference. An abort stops the search within [`crate::search::Abort::EVERY`] moves.
pub fn decide(req: &DecideRequest, ctl: Control<'_>) -> Result<DecideResponse, Error> {
    let pos: Position =
        req.position.trim().parse().map_err(|e| Error::input(format!("position: {e}")))?;
    if pos.over {
        return Err(Error::input("position: the game is over"));
    }
    if pos.board.open_columns() == 0 {
        return Err(Error::input("position: no column can take a disc"));
    }
    let o = &req.search;
    let rules = o.rules()?;
    let eval = EvalChoice::parse("search.eval", &o.eval)?;
    let table = TableChoice::parse(&o.table)?;
    let rule = o.rule()?;
    o.check()?;
    let start = Instant::now();
    let (rd, stats, stopped) = dispatch(
        &eval,
        table,
        o.table_bits,
        DecideJob {
            death: o.death,
            reveal_by_depth: o.reveal_by_depth()?,
            paired_reveals: o.paired(),
            stratified_reveals: o.stratified(),
            rules,
            chance: o.chance(),
            pos,
            depth: rule,
            ctl,
        },
    );
    if stopped {
        return Err(Error::Aborted);
    }
    let d = rd.decision;
    let seconds = start.elapsed().as_secs_f64();
    // Check the answer with the checked engine and the reference.
    let mut after = pos;
    let mut draws = Recording::new(SearchDraws::for_move(&pos.board, d.best, pos.next));
    after
        .play(&rules, d.best, &mut draws)
        .map_err(|e| Error::failed(format!("the chosen column is illegal: {e}")))?;
    let mut refg = RefGame::from_position(&pos);
    let mut list =
        ListDraws { reveals: draws.reveals.clone(), discs: vec![after.next], ..Default::default() };
    refg.play(&rules, d.best, &mut list)
        .ok_or_else(|| Error::failed("the reference engine refuses the chosen column"))?;
    if refg.board() != after.board || refg.score != after.score {
        return Err(Error::failed("the reference engine disagrees on the chosen move"));
    }
    Ok(DecideResponse {
        position: pos.to_string(),
        depth: rd.depth,
        rule: matches!(rule, DepthRule::Budget { .. }).then_some(rule),
        values: d.values.to_vec(),
        best_column: d.best + 1,
        after: after.to_string(),
        stats,
        seconds,
    })
}

// ---------------------------------------------------------------------------------------
// replay

/// `drop7 replay`: check game records.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ReplayRequest {
    /// The records' file, as every game's replay takes it: one record or a list of them
    /// (its name is how errors name the records).
    pub file: InputFile,
}

/// One replayed game.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReplayGame {
    /// 1-based index in the file.
    pub game: usize,
    /// Whether the game ended.
    pub over: bool,
    /// Final score.
    pub score: u64,
    /// Turns in the record.
    pub turns: usize,
}

/// Every record replayed (fields in the order the CLI's JSON has always had).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReplayResponse {
    /// The records' name.
    pub file: String,
    /// Every game.
    pub games: Vec<ReplayGame>,
    /// Always `true` (a bad record is an error).
    pub ok: bool,
}

/// Replays every record through the independent verifier; the first bad turn is a
/// [`Error::Failed`].
pub fn replay(req: &ReplayRequest, ctl: Control<'_>) -> Result<ReplayResponse, Error> {
    let name = &req.file.name;
    let value: serde_json::Value = serde_json::from_str(req.file.text()?)
        .map_err(|e| Error::input(format!("{name}:{}:{}: not JSON: {e}", e.line(), e.column())))?;
    let records: Vec<GameRecord> = if value.is_array() {
        serde_json::from_value(value)
    } else {
        serde_json::from_value(value).map(|r| vec![r])
    }
    .map_err(|e| Error::input(format!("{name}: not a drop7 game record: {e}")))?;
    let mut games = Vec::new();
    for (i, r) in records.iter().enumerate() {
        ctl.check()?;
        let end = verify(r).map_err(|e| Error::failed(format!("{name}: game {}: {e}", i + 1)))?;
        games.push(ReplayGame {
            game: i + 1,
            turns: r.turns.len(),
            score: end.score,
            over: end.over,
        });
        ctl.report(Progress::new(i as u64 + 1, Some(records.len() as u64)));
    }
    Ok(ReplayResponse { file: name.clone(), ok: true, games })
}

// ---------------------------------------------------------------------------------------
// sweep

/// `drop7 sweep`: random-policy games on the engine and the reference, compared every turn.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct SweepRequest {
    /// Mode: hardcore, normal, sequence.
    pub mode: String,
    /// Games to compare (game `i` uses `sub_seed(seed, i)`).
    pub games: u64,
    /// The part of the games to compare (contiguous).
    pub shard: Shard,
    /// Move cap per game.
    pub max_moves: u32,
    /// The master seed.
    pub seed: u64,
}

impl Default for SweepRequest {
    fn default() -> Self {
        SweepRequest {
            mode: "hardcore".into(),
            games: 100_000,
            shard: Shard::WHOLE,
            max_moves: 10_000,
            seed: 1,
        }
    }
}

/// The sweep's result (fields in the order the CLI's JSON has always had).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SweepResponse {
    /// Games compared (of this shard).
    pub games: u64,
    /// Always `true` (a difference is an error).
    pub identical: bool,
    /// The mode, as given.
    pub mode: String,
    /// Wall seconds.
    pub seconds: f64,
    /// Turns compared.
    pub turns: u64,
}

/// Compares the engine with the reference on every turn of the games (in parallel on the
/// current rayon pool); a difference is a [`Error::Failed`].
pub fn sweep(req: &SweepRequest, ctl: Control<'_>) -> Result<SweepResponse, Error> {
    use rayon::prelude::*;
    let rules = Rules::new(parse_mode("mode", &req.mode)?);
    let start = Instant::now();
    let eval = Crowding::default();
    req.shard.check()?;
    let range = req.shard.range(req.games);
    let total = Some(range.end - range.start);
    let done = AtomicU64::new(0);
    // Summed as they finish (no list of per-game results, so any number of games fits in
    // memory); of several differing games the first by index is reported, whatever the
    // thread count.
    let (turns, first_difference) = range
        .clone()
        .into_par_iter()
        .map(|i| {
            if ctl.aborted() {
                return (0, None);
            }
            let r =
                compare_random_game(&rules, bits::rng::sub_seed(req.seed, i), req.max_moves, &eval);
            ctl.report(Progress::new(done.fetch_add(1, Ordering::Relaxed) + 1, total));
            match r {
                Ok(t) => (u64::from(t), None),
                Err(e) => (0, Some((i, e))),
            }
        })
        .reduce(
            || (0u64, None),
            |(ta, ea): (u64, Option<(u64, String)>), (tb, eb)| {
                let e = match (ea, eb) {
                    (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
                    (a, b) => a.or(b),
                };
                (ta + tb, e)
            },
        );
    ctl.check()?;
    if let Some((_, e)) = first_difference {
        return Err(Error::failed(format!("engine and reference differ: {e}")));
    }
    let secs = start.elapsed().as_secs_f64();
    Ok(SweepResponse {
        mode: req.mode.clone(),
        games: range.end - range.start,
        turns,
        identical: true,
        seconds: secs,
    })
}

// ---------------------------------------------------------------------------------------
// ab

/// `drop7 ab`: two evaluators (or reveal settings) on the same seeds.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct AbRequest {
    /// Evaluator A.
    pub a: EvalSpec,
    /// Evaluator B.
    pub b: EvalSpec,
    /// Reveal samples for A (default: `search.reveal_samples`).
    pub a_reveal_samples: Option<String>,
    /// Reveal samples for B (default: `search.reveal_samples`).
    pub b_reveal_samples: Option<String>,
    /// Reveal handling for A (default: `search.reveals`).
    pub a_reveals: Option<String>,
    /// Reveal handling for B (default: `search.reveals`).
    pub b_reveals: Option<String>,
    /// The searcher of both sides (its `eval` is not used).
    pub search: SearchOptions,
    /// Games per evaluator (the same seeds for both), [`AbRequest::GAMES`].
    pub games: u64,
    /// Stop a game after this many moves.
    pub max_moves: u32,
    /// The master seed.
    pub seed: u64,
}

impl AbRequest {
    /// The range of `games`.
    pub const GAMES: RangeInclusive<u64> = 2..=100_000;
}

impl Default for AbRequest {
    fn default() -> Self {
        AbRequest {
            a: EvalSpec::new("ready"),
            b: EvalSpec::new("crowding"),
            a_reveal_samples: None,
            b_reveal_samples: None,
            a_reveals: None,
            b_reveals: None,
            search: SearchOptions::default(),
            games: 64,
            max_moves: 100_000,
            seed: 1,
        }
    }
}

/// The paired comparison (the CLI's `--json`; fields in the order it has always had).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AbResponse {
    /// A's label.
    pub a: String,
    /// A's reveal samples.
    pub a_reveal_samples: String,
    /// A's reveal handling.
    pub a_reveals: String,
    /// A's scores in brief.
    pub a_summary: Summary,
    /// Games A won.
    pub a_wins: usize,
    /// B's label.
    pub b: String,
    /// B's reveal samples.
    pub b_reveal_samples: String,
    /// B's reveal handling.
    pub b_reveals: String,
    /// B's scores in brief.
    pub b_summary: Summary,
    /// Games B won.
    pub b_wins: usize,
    /// The fixed depth (null under a budget).
    pub depth: Option<u32>,
    /// 95% confidence interval of the mean difference.
    pub difference_ci95: [f64; 2],
    /// Games per side.
    pub games: u64,
    /// Mean of A - B.
    pub mean_difference: f64,
    /// Two-sided p of the paired t (normal approximation).
    pub p_two_sided_normal_approx: f64,
    /// The paired t statistic.
    pub paired_t: f64,
    /// The budget rule (null for a fixed depth).
    pub rule: Option<DepthRule>,
}

/// Plays both batches on the same seeds and compares them game by game. Progress: games
/// of A, then of B (`done` counts both, `total` is twice `games`).
pub fn ab(req: &AbRequest, ctl: Control<'_>) -> Result<AbResponse, Error> {
    let ea = EvalChoice::parse("a", &req.a)?;
    let eb = EvalChoice::parse("b", &req.b)?;
    check_range("games", req.games, AbRequest::GAMES)?;
    let mut oa = req.search.clone();
    oa.reveal_samples = req.a_reveal_samples.clone().unwrap_or(oa.reveal_samples);
    oa.reveals = req.a_reveals.clone().unwrap_or(oa.reveals);
    let mut ob = req.search.clone();
    ob.reveal_samples = req.b_reveal_samples.clone().unwrap_or(ob.reveal_samples);
    ob.reveals = req.b_reveals.clone().unwrap_or(ob.reveals);
    // One depth rule for both sides: a fixed depth, or one budget.
    let rule = req.search.rule()?;
    let (depth, ab_rule) = match rule {
        DepthRule::Fixed(d) => (Some(d), None),
        DepthRule::Budget { .. } => (None, Some(rule)),
    };
    let n = req.games;
    let second = |p: Progress| {
        let mut q = Progress::new(p.done + n, Some(2 * n));
        q.message = p.message;
        ctl.report(q);
    };
    let first = |p: Progress| {
        let mut q = Progress::new(p.done, Some(2 * n));
        q.message = p.message;
        ctl.report(q);
    };
    let mut ca = Control::new().with_progress(&first);
    let mut cb = Control::new().with_progress(&second);
    if let Some(flag) = ctl.abort_flag() {
        ca = ca.with_abort(flag);
        cb = cb.with_abort(flag);
    }
    let (ga, _) = run_batch(&oa, &ea, req.seed, 0, n, req.max_moves, ca)?;
    let (gb, _) = run_batch(&ob, &eb, req.seed, 0, n, req.max_moves, cb)?;
    let sa: Vec<u64> = ga.iter().map(|g| g.0.score).collect();
    let sb: Vec<u64> = gb.iter().map(|g| g.0.score).collect();
    let p = paired(&sa, &sb);
    Ok(AbResponse {
        a: ea.label(),
        b: eb.label(),
        games: n,
        depth,
        rule: ab_rule,
        a_reveal_samples: oa.reveal_samples,
        b_reveal_samples: ob.reveal_samples,
        a_reveals: oa.reveals,
        b_reveals: ob.reveals,
        a_summary: summary(&sa),
        b_summary: summary(&sb),
        mean_difference: p.mean,
        difference_ci95: [p.mean - p.half, p.mean + p.half],
        paired_t: p.t,
        p_two_sided_normal_approx: p.p,
        a_wins: p.wins,
        b_wins: p.losses,
    })
}
