//! `bench`: the move generator, random games and search, each timed beside the reference
//! engine, and the late-game search under nneonneo/2048-ai's depth rule with its variants.

use std::hint::black_box;
use std::ops::RangeInclusive;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{check_range, Control, Error, Progress};
use crate::game::random_playout;
use crate::search::{
    Depth, FastMoves, Heuristic, MoveGen, Params, ReferenceMoves, SearchConfig, Searcher,
};
use crate::{Board, Dir, Game, Status};

/// The sizes of a bench run (`2048 bench`); their ranges are the associated consts
/// ([`BenchRequest::BOARDS`] ...).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct BenchRequest {
    /// Boards (from random games) to time the move generator on.
    pub boards: u64,
    /// Random games to time per engine (the reference engine plays a tenth of them).
    pub random_games: u64,
    /// Positions to search (depth 3) per engine.
    pub positions: u64,
    /// Late-game positions (from a depth-3 game) to search under nneonneo/2048-ai's depth
    /// rule, with the incremental spawns and the table prefetch each on and off (0 skips
    /// them).
    pub late_positions: u64,
    /// Rounds; every figure is the median over the rounds.
    pub repeats: u8,
    /// The seed of the boards and games.
    pub seed: u64,
}

impl Default for BenchRequest {
    fn default() -> Self {
        BenchRequest {
            boards: 200_000,
            random_games: 20_000,
            positions: 40,
            late_positions: 12,
            repeats: 5,
            seed: 1,
        }
    }
}

impl BenchRequest {
    /// The range of `boards`.
    pub const BOARDS: RangeInclusive<u64> = 1000..=10_000_000;
    /// The range of `random_games`.
    pub const RANDOM_GAMES: RangeInclusive<u64> = 10..=10_000_000;
    /// The range of `positions`.
    pub const POSITIONS: RangeInclusive<u64> = 1..=100_000;
    /// The range of `late_positions`.
    pub const LATE_POSITIONS: RangeInclusive<u64> = 0..=10_000;
    /// The range of `repeats`.
    pub const REPEATS: RangeInclusive<u8> = 1..=50;

    /// Checks every size's range; the input error names the first field out of range.
    pub fn check(&self) -> Result<(), Error> {
        check_range("boards", self.boards, Self::BOARDS)?;
        check_range("random_games", self.random_games, Self::RANDOM_GAMES)?;
        check_range("positions", self.positions, Self::POSITIONS)?;
        check_range("late_positions", self.late_positions, Self::LATE_POSITIONS)?;
        check_range("repeats", self.repeats, Self::REPEATS)
    }
}

/// One engine's figures in [`bench()`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EngineFigures {
    /// One move per call (`Board::shift`), ns.
    pub move_ns_per_call: f64,
    /// All four moves of a board in one call (`Board::shift_all`), per move.
    pub four_moves_ns_per_move: f64,
    /// Up and down by transpose, row tables and transpose back (the session-1 path).
    pub transpose_move_ns_per_call: f64,
    /// One move with its score (the play path), ns.
    pub scored_move_ns_per_call: f64,
    /// Random games per second on one thread.
    pub random_games_per_second_per_thread: f64,
    /// Search nodes per second at depth 3.
    pub search_nodes_per_second: f64,
}

/// The outcome of [`bench()`]: every figure is the median over the rounds.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BenchResponse {
    /// The seed of the boards and games.
    pub seed: u64,
    /// Boards the move generator was timed on.
    pub boards: u64,
    /// Random games timed on the table engine.
    pub random_games_fast: u64,
    /// Random games timed on the reference engine.
    pub random_games_reference: u64,
    /// Positions searched at depth 3 per engine.
    pub search_positions: u64,
    /// Rounds.
    pub repeats: usize,
    /// The table engine's figures.
    pub fast: EngineFigures,
    /// The reference engine's figures.
    pub reference: EngineFigures,
    /// One move per call: reference time over table time.
    pub move_speedup: f64,
    /// Four moves per call: reference time over table time.
    pub four_moves_speedup: f64,
    /// Time per move of the transpose path over the column-table path.
    pub column_over_transpose: f64,
    /// Random games per second: table over reference.
    pub random_games_speedup: f64,
    /// Search nodes per second: table over reference.
    pub search_speedup: f64,
    /// Late-game positions searched under nneonneo/2048-ai's depth rule.
    pub late_positions: u64,
    /// Their search nodes per second as shipped (incremental spawns and table prefetch).
    pub late_nodes_per_second_shipped: f64,
    /// With the prefetch alone (session 15's search).
    pub late_nodes_per_second_prefetch: f64,
    /// With neither.
    pub late_nodes_per_second_plain: f64,
    /// The median of the per-round ratios, shipped over prefetch alone.
    pub incremental_speedup: f64,
    /// The median of the per-round ratios, prefetch alone over neither.
    pub prefetch_speedup: f64,
    /// Whether the three chose the same moves with the same values and node counts.
    pub variants_agree: bool,
    /// Whether the table engine and the reference engine gave the same games and searches.
    pub engines_agree: bool,
}

/// Times `f` on every (board, direction): ns per call. Each caller gets its own copy of the
/// loop (the closure is inlined), so the variants are timed on equal terms; never inlined
/// itself, so `valgrind --tool=callgrind` can count each variant's instructions.
#[inline(never)]
fn time_moves(boards: &[Board], f: impl Fn(Board, Dir) -> (Board, u32)) -> f64 {
    let start = Instant::now();
    let mut acc = 0u64;
    for &b in boards {
        for d in Dir::ALL {
            let (nb, w) = f(black_box(b), d);
            acc = acc.wrapping_add(nb.0 ^ u64::from(w));
        }
    }
    black_box(acc);
    start.elapsed().as_nanos() as f64 / (4 * boards.len()) as f64
}

/// Times `MoveGen::shift_all` (the four moves of a board in one call): ns per move.
#[inline(never)]
fn time_all_moves<G: MoveGen>(gen: &G, boards: &[Board]) -> f64 {
    let start = Instant::now();
    let mut acc = 0u64;
    for &b in boards {
        let m = gen.shift_all(black_box(b));
        for nb in m.boards {
            acc = acc.wrapping_add(nb.0);
        }
        acc ^= u64::from(m.overflow);
    }
    black_box(acc);
    start.elapsed().as_nanos() as f64 / (4 * boards.len()) as f64
}

fn time_random_games<G: MoveGen>(gen: &G, seed: u64, games: u64) -> (f64, u64, Vec<u64>) {
    let start = Instant::now();
    let mut moves = 0;
    let mut finals = Vec::with_capacity(games as usize);
    for i in 0..games {
        let p = random_playout(bits::rng::sub_seed(seed, i), gen);
        moves += p.moves;
        finals.push(p.board.0 ^ p.score);
    }
    let secs = start.elapsed().as_secs_f64();
    (games as f64 / secs, moves, finals)
}

fn time_search<G: MoveGen + Copy>(
    heur: &Heuristic,
    gen: G,
    positions: &[Board],
) -> (f64, Vec<u64>) {
    let cfg = SearchConfig {
        depth: Depth::Fixed(3),
        prob_cutoff: 1e-4,
        tt_bits: 18,
        ..Default::default()
    };
    let mut s = Searcher::with_movegen(heur, cfg, gen);
    let start = Instant::now();
    let mut choices = Vec::new();
    for &b in positions {
        choices.push(s.best_move(b).map_or(9, |c| c.dir.index() as u64));
    }
    let secs = start.elapsed().as_secs_f64();
    choices.push(s.nodes());
    (s.nodes() as f64 / secs, choices)
}

/// Late-game boards: every 50th board of a depth-3 game from its 1,000th move on.
fn late_positions(heur: &Heuristic, seed: u64, count: u64) -> Vec<Board> {
    let mut positions = Vec::new();
    let mut game = Game::new(bits::rng::sub_seed(seed ^ 0x1A7E, 0));
    let mut s = Searcher::new(heur, SearchConfig { depth: Depth::Fixed(3), ..Default::default() });
    while (positions.len() as u64) < count && game.status() == Status::Playing {
        if game.moves() >= 1000 && game.moves() % 50 == 0 {
            positions.push(game.board());
        }
        let Some(c) = s.best_move(game.board()) else { break };
        let _ = game.play(c.dir);
    }
    positions
}

/// Searches `positions` under nneonneo/2048-ai's depth rule: nodes per second, and every
/// choice (move, value bits, nodes) so that two settings can be checked for the same answers.
/// These are the longest searches of the bench (up to seconds each): the caller's abort flag
/// is threaded into them (without one, they are timed exactly as before).
fn time_reference_rule(
    heur: &Heuristic,
    positions: &[Board],
    (prefetch, incremental): (bool, bool),
    ctl: Control,
) -> Result<(f64, Vec<u64>), Error> {
    let cfg = SearchConfig { prefetch, incremental, ..Default::default() };
    let mut s = Searcher::new(heur, cfg).with_abort(ctl.abort_flag());
    let start = Instant::now();
    let mut choices = Vec::new();
    for &b in positions {
        let c = s.best_move(b);
        ctl.check()?;
        choices.push(c.map_or(9, |c| c.dir.index() as u64 | u64::from(c.value.to_bits()) << 8));
        choices.push(s.nodes());
    }
    let secs = start.elapsed().as_secs_f64();
    Ok((s.nodes() as f64 / secs, choices))
}

/// Times the engines (see [`BenchRequest`]); checks the abort flag between the timed parts.
/// The caller decides what a disagreement means (the CLI fails after printing).
pub fn bench(req: &BenchRequest, ctl: Control) -> Result<BenchResponse, Error> {
    req.check()?;
    let a = req;
    let seed = a.seed;
    // Boards met in play: every board of random games, until there are enough.
    let mut boards = Vec::with_capacity(a.boards as usize);
    let mut i = 0;
    while (boards.len() as u64) < a.boards {
        let mut g = Game::new(bits::rng::sub_seed(seed ^ 0xB0A2D, i));
        let mut p = crate::RandomPlayer::new(i);
        while g.status() == Status::Playing && (boards.len() as u64) < a.boards {
            boards.push(g.board());
            let Some(d) = crate::Player::choose(&mut p, g.board()) else { break };
            let _ = g.play(d);
        }
        i += 1;
    }
    // Search positions from an expectimax game (mid-game boards).
    let heur = Heuristic::new(Params::SHIPPED);
    let mut positions = Vec::new();
    let mut game = Game::new(seed);
    let mut picker =
        Searcher::new(&heur, SearchConfig { depth: Depth::Fixed(2), ..Default::default() });
    while (positions.len() as u64) < a.positions && game.status() == Status::Playing {
        if game.moves() % 5 == 0 {
            positions.push(game.board());
        }
        let Some(c) = picker.best_move(game.board()) else { break };
        let _ = game.play(c.dir);
    }

    let late = late_positions(&heur, seed, a.late_positions);

    let ref_games = (a.random_games / 10).max(1);
    // Each figure is the median of `repeats` rounds; within a round the engines run back to
    // back, so a burst of load from other processes hits both sides of a ratio alike.
    let reps = usize::from(a.repeats);
    let mut rows: Vec<[f64; 13]> = Vec::with_capacity(reps);
    let mut engines_agree = true;
    let mut variants_agree = true;
    for round in 0..reps {
        ctl.check()?;
        ctl.report(Progress::new(round as u64, Some(reps as u64)));
        let shift = |b: Board, d| {
            let (nb, o) = b.shift(d);
            (nb, u32::from(o))
        };
        let fast_ns = time_moves(&boards, shift);
        let ref_ns = time_moves(&boards, |b, d| {
            let (nb, o) = ReferenceMoves.shift(b, d);
            (nb, u32::from(o))
        });
        let fast_scored_ns = time_moves(&boards, |b: Board, d| b.slide(d));
        let fast_all_ns = time_all_moves(&FastMoves, &boards);
        let fast_transpose_ns = time_moves(&boards, |b: Board, d| {
            let (nb, o) = b.shift_by_transpose(d);
            (nb, u32::from(o))
        });
        let ref_all_ns = time_all_moves(&ReferenceMoves, &boards);
        let (fast_gps, _, fast_finals) = time_random_games(&FastMoves, seed, a.random_games);
        let (ref_gps, _, ref_finals) = time_random_games(&ReferenceMoves, seed, ref_games);
        let (fast_nps, fast_choices) = time_search(&heur, FastMoves, &positions);
        let (ref_nps, ref_choices) = time_search(&heur, ReferenceMoves, &positions);
        engines_agree &=
            fast_finals[..ref_finals.len()] == ref_finals[..] && fast_choices == ref_choices;
        // Shipped, prefetch alone, neither; rotate which goes first, so a drift in the
        // machine's load favours none of them.
        let settings = [(true, true), (true, false), (false, false)];
        let mut late_nps = [0.0; 3];
        let mut late_choices: [Vec<u64>; 3] = Default::default();
        for k in 0..3 {
            let i = (k + rows.len()) % 3;
            (late_nps[i], late_choices[i]) = time_reference_rule(&heur, &late, settings[i], ctl)?;
        }
        variants_agree &= late_choices[0] == late_choices[2] && late_choices[1] == late_choices[2];
        ctl.check()?;
        rows.push([
            fast_ns,
            ref_ns,
            fast_scored_ns,
            fast_gps,
            ref_gps,
            fast_nps,
            ref_nps,
            fast_all_ns,
            fast_transpose_ns,
            ref_all_ns,
            late_nps[1],
            late_nps[2],
            late_nps[0],
        ]);
    }
    let median = |k: usize| {
        let mut v: Vec<f64> = rows.iter().map(|r| r[k]).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let ratio = |num: usize, den: usize| {
        let mut v: Vec<f64> = rows.iter().map(|r| r[num] / r[den]).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (fast_ns, ref_ns, fast_scored_ns) = (median(0), median(1), median(2));
    let (fast_gps, ref_gps, fast_nps, ref_nps) = (median(3), median(4), median(5), median(6));
    let (fast_all_ns, fast_transpose_ns, ref_all_ns) = (median(7), median(8), median(9));
    ctl.report(Progress::new(reps as u64, Some(reps as u64)));
    let report = BenchResponse {
        seed,
        boards: boards.len() as u64,
        random_games_fast: a.random_games,
        random_games_reference: ref_games,
        search_positions: positions.len() as u64,
        fast: EngineFigures {
            move_ns_per_call: fast_ns,
            four_moves_ns_per_move: fast_all_ns,
            transpose_move_ns_per_call: fast_transpose_ns,
            scored_move_ns_per_call: fast_scored_ns,
            random_games_per_second_per_thread: fast_gps,
            search_nodes_per_second: fast_nps,
        },
        reference: EngineFigures {
            move_ns_per_call: ref_ns,
            four_moves_ns_per_move: ref_all_ns,
            transpose_move_ns_per_call: ref_ns,
            scored_move_ns_per_call: ref_ns,
            random_games_per_second_per_thread: ref_gps,
            search_nodes_per_second: ref_nps,
        },
        repeats: reps,
        move_speedup: ratio(1, 0),
        four_moves_speedup: ratio(9, 7),
        column_over_transpose: ratio(8, 0),
        random_games_speedup: ratio(3, 4),
        search_speedup: ratio(5, 6),
        late_positions: late.len() as u64,
        late_nodes_per_second_shipped: median(12),
        late_nodes_per_second_prefetch: median(10),
        late_nodes_per_second_plain: median(11),
        incremental_speedup: if late.is_empty() { 1.0 } else { ratio(12, 10) },
        prefetch_speedup: if late.is_empty() { 1.0 } else { ratio(10, 11) },
        variants_agree,
        engines_agree,
    };
    Ok(report)
}
