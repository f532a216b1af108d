//! `solve`: the beam, nested Monte-Carlo search, NRPA and their chains, over every board of
//! a file, each answer replayed by the independent verifier.

use super::Boards as _;
use std::ops::RangeInclusive;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{check_range, pairs, BoardFile, Control, Error, Progress};
use crate::beam::{self, Config, Eval, Goal, Outcome, Passes};
use crate::board::Board;
use crate::trace::{self, Record};
use crate::{nested, nrpa, Points, Rules};

/// The objective of `solve` (`--goal`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum SolveGoal {
    /// Highest score.
    #[default]
    Score,
    /// An empty board.
    Clear,
}

/// The beam's objective for the score goal (`--eval`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SolveEval {
    /// Score plus the points of every current group.
    Groups,
    /// Like groups, but the most frequent colour counts as one future group.
    Tabu,
    /// Score plus the best of `playouts` tabu-colour random playouts (strongest, slowest).
    #[default]
    Rollout,
}

/// The search method (`--search`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Search {
    /// The two-pass parallel beam search (both goals).
    #[default]
    Beam,
    /// Nested Monte-Carlo search with tabu-colour playouts (score goal only).
    Nested,
    /// The beam, then a nested search from its answer (never worse; score goal only).
    BeamNested,
    /// Nested rollout policy adaptation with a tabu-colour prior (score goal only).
    Nrpa,
    /// The beam, then a nested search from its answer (`nested_level`, 0 to skip), then NRPA
    /// seeded with that answer (never worse; score goal only).
    BeamNrpa,
}

/// `solve`: every board of a file (or a generated one) through a search.
///
/// On abort the board being solved keeps the best finished game its search had found
/// (verified like any answer, and the response is marked `aborted`); later boards are not
/// started. If that board had no finished game yet, the response holds the boards before it
/// (marked `aborted`), or, when it was the first, the verb returns [`Error::Aborted`].
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct SolveRequest {
    /// The board file; `None`: a generated 15x15 5-colour board (seed `seed`).
    pub file: Option<BoardFile>,
    /// Highest score, or an empty board.
    pub goal: SolveGoal,
    /// Search method.
    pub search: Search,
    /// Nesting level of the nested search and of NRPA (0 to 4).
    pub level: u32,
    /// NRPA: iterations per level (1 to 100,000).
    pub iterations: u32,
    /// NRPA: learning rate (finite, > 0).
    pub alpha: f64,
    /// NRPA: logit added to groups of the tabu colour (`None`: strict tabu colour).
    pub tabu_bias: Option<f64>,
    /// NRPA: no tabu colour at all.
    pub no_tabu: bool,
    /// NRPA: logit added per tile above two of a group.
    pub size_bias: f64,
    /// NRPA: a portfolio of priors, one whole search each, the best kept (one prior: that
    /// prior alone).
    pub portfolio: Vec<nrpa::Tabu>,
    /// NRPA: independent runs per board, in parallel (1 to 1024).
    pub runs: u32,
    /// `Search::BeamNrpa`: level of the nested search between the beam and NRPA (0 to 3).
    pub nested_level: u32,
    /// Beam width (`None`: 30 for the score goal with the rollout objective, else 1000).
    pub width: Option<usize>,
    /// Objective of the score goal.
    pub eval: SolveEval,
    /// Weight (percent) of the tabu colour's one-group value (`SolveEval::Tabu`).
    pub tabu_pct: i64,
    /// Playouts per child for `SolveEval::Rollout` (1 to 100,000).
    pub playouts: u32,
    /// Clear goal: widen 16, 64, 256, ... up to `width` until a clear is found.
    pub widen: bool,
    /// Penalty per tile in no removable group (clear goal).
    pub clear_penalty: i64,
    /// Points per group: `(n-2)^2`, `(n-1)^2` or `n(n-1)`.
    pub points: String,
    /// Bonus for emptying the board.
    pub clear_bonus: i64,
    /// Smallest removable group (overrides a BGF2 file's own value; 2 to 1000).
    pub min_group: Option<u32>,
    /// Solve only board K (1-based) of a multi-board file.
    pub board: Option<usize>,
    /// Runs of the search with seeds `seed`, `seed + 1`, ..., the best kept (1 to 10,000).
    pub restarts: u32,
    /// Seed of the generated default board and of the playouts.
    pub seed: u64,
    /// Store every child board instead of replaying survivors (same answer).
    pub one_pass: bool,
    /// Worker threads (`None`: all cores); the answer is the same for any value.
    pub threads: Option<usize>,
    /// Return the game record of the answer (needs exactly one board).
    pub record: bool,
}

impl Default for SolveRequest {
    fn default() -> Self {
        SolveRequest {
            file: None,
            goal: SolveGoal::Score,
            search: Search::Beam,
            level: 2,
            iterations: 100,
            alpha: 1.0,
            tabu_bias: None,
            no_tabu: false,
            size_bias: 0.0,
            portfolio: Vec::new(),
            runs: 1,
            nested_level: 2,
            width: None,
            eval: SolveEval::Rollout,
            tabu_pct: 100,
            playouts: 4,
            widen: true,
            clear_penalty: 100,
            points: "(n-2)^2".into(),
            clear_bonus: 1000,
            min_group: None,
            board: None,
            restarts: 1,
            seed: 1,
            one_pass: false,
            threads: None,
            record: false,
        }
    }
}

/// One solved board.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Solved {
    /// Its 1-based index in the file.
    pub board: usize,
    /// Total points (clear bonus included), as replayed.
    pub score: i64,
    /// Whether the moves empty the board.
    pub cleared: bool,
    /// Tiles left after the moves.
    pub tiles_left: u32,
    /// The moves as `[x, y]` (column from the left, row from the bottom).
    pub moves: Vec<[u8; 2]>,
    /// Work done (children or playouts, of every restart and stage).
    pub nodes: u64,
    /// Wall time of the search.
    pub seconds: f64,
    /// The game record, when the request asked for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<Record>,
}

/// What [`solve`] found.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SolveResponse {
    /// `score` or `clear`.
    pub goal: String,
    /// The beam width used.
    pub width: usize,
    /// A description of the search and its settings.
    pub eval: String,
    /// Worker threads.
    pub threads: usize,
    /// The solved boards, in order.
    pub boards: Vec<Solved>,
    /// Sum of the boards' scores.
    pub total_score: i64,
    /// Boards emptied.
    pub cleared: usize,
    /// Sum of the boards' search times.
    pub total_seconds: f64,
    /// Whether the abort flag stopped the work (the last board holds the best finished game
    /// found so far; later boards were not started).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub aborted: bool,
}

impl SolveRequest {
    /// The range of `width`.
    pub const WIDTH: RangeInclusive<usize> = 1..=10_000_000;
    /// The range of `min_group`.
    pub const MIN_GROUP: RangeInclusive<u32> = 2..=1000;
    /// The range of `playouts`.
    pub const PLAYOUTS: RangeInclusive<u32> = 1..=100_000;
    /// The range of `restarts`.
    pub const RESTARTS: RangeInclusive<u32> = 1..=10_000;
    /// The range of `iterations` (NRPA).
    pub const ITERATIONS: RangeInclusive<u32> = 1..=100_000;
    /// The range of `runs` (NRPA).
    pub const RUNS: RangeInclusive<u32> = 1..=1024;
    /// The range of `level` (nested search and NRPA).
    pub const LEVEL: RangeInclusive<u32> = 0..=4;
    /// The range of `nested_level`.
    pub const NESTED_LEVEL: RangeInclusive<u32> = 0..=3;

    /// The width the beam will use.
    fn beam_width(&self) -> usize {
        self.width.unwrap_or(match (self.goal, self.eval) {
            (SolveGoal::Score, SolveEval::Rollout) => 30,
            _ => 1000,
        })
    }

    /// Checks the settings that are read before the boards (the scoring, the width, the
    /// minimum group): a caller that reads the board file itself calls this first so that a
    /// bad setting is reported before an unreadable file. The input error names the field.
    pub fn check(&self) -> Result<(), Error> {
        self.points.parse::<Points>().map_err(|e: String| Error::input(format!("points: {e}")))?;
        check_range("width", self.beam_width(), Self::WIDTH)?;
        check_range("clear_bonus", self.clear_bonus, crate::rules::CLEAR_BONUS)?;
        if let Some(m) = self.min_group {
            check_range("min_group", m, Self::MIN_GROUP)?;
        }
        Ok(())
    }

    /// Checks the search's settings (after the boards are read, in the order the CLI has
    /// always reported them).
    fn check_search(&self) -> Result<(), Error> {
        check_range("playouts", self.playouts, Self::PLAYOUTS)?;
        check_range("restarts", self.restarts, Self::RESTARTS)?;
        if self.search == Search::Beam {
            return Ok(());
        }
        if self.goal != SolveGoal::Score {
            return Err(Error::input("search: only beam supports goal clear"));
        }
        check_range("iterations", self.iterations, Self::ITERATIONS)?;
        check_range("runs", self.runs, Self::RUNS)?;
        if !(self.alpha.is_finite() && self.alpha > 0.0) {
            return Err(Error::input(format!("alpha: {}, must be finite and above 0", self.alpha)));
        }
        if let Some(b) = self.tabu_bias.filter(|b| !b.is_finite()) {
            return Err(Error::input(format!("tabu_bias: {b}, must be finite")));
        }
        if !self.size_bias.is_finite() {
            return Err(Error::input(format!("size_bias: {}, must be finite", self.size_bias)));
        }
        let levels = |e: Error| {
            Error::input(format!("{} (each level costs ~1,000x the one below)", e.message()))
        };
        check_range("level", self.level, Self::LEVEL).map_err(levels)?;
        check_range("nested_level", self.nested_level, Self::NESTED_LEVEL).map_err(levels)
    }

    /// The NRPA settings.
    fn nrpa_cfg(&self, rules: Rules, seed: u64) -> nrpa::Config {
        nrpa::Config {
            level: self.level,
            iterations: self.iterations,
            alpha: self.alpha,
            tabu: match (self.no_tabu, self.tabu_bias) {
                _ if self.portfolio.len() == 1 => self.portfolio[0],
                (true, _) => nrpa::Tabu::Off,
                (false, Some(b)) => nrpa::Tabu::Bias(b),
                (false, None) => nrpa::Tabu::Strict,
            },
            size_bias: self.size_bias,
            runs: self.runs,
            rules,
            seed,
        }
    }

    /// `, portfolio [strict, -2]` when the portfolio lists more than one prior.
    fn portfolio_note(&self) -> String {
        match self.portfolio.as_slice() {
            [] | [_] => String::new(),
            ps => format!(
                ", portfolio [{}]",
                ps.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
            ),
        }
    }
}

/// Solves every board of the request.
pub fn solve(req: &SolveRequest, ctl: Control) -> Result<SolveResponse, Error> {
    solve_each(req, ctl, &mut |_, _| Ok(()))
}

/// Like [`solve`], but calls `on_board(solved, boards)` as soon as each board is solved and
/// verified (`boards`: how many boards this request solves), so a front end can show it
/// before the next one starts. An error from `on_board` stops the verb and is returned.
pub fn solve_each(
    req: &SolveRequest,
    ctl: Control,
    on_board: &mut dyn FnMut(&Solved, usize) -> Result<(), Error>,
) -> Result<SolveResponse, Error> {
    req.check()?;
    let points: Points = req.points.parse().map_err(Error::input)?;
    let width = req.beam_width();
    let mut boards = match &req.file {
        Some(f) => f.boards()?,
        None => vec![(Board::random(15, 15, 5, req.seed), None)],
    };
    let first_index = match req.board {
        Some(k) => {
            if k == 0 || k > boards.len() {
                return Err(Error::input(format!(
                    "board: {k}, the file has {} board(s)",
                    boards.len()
                )));
            }
            boards = vec![boards.swap_remove(k - 1)];
            k
        }
        None => 1,
    };
    if req.record && boards.len() > 1 {
        return Err(Error::input("record: needs one board; pick one with board"));
    }
    let goal = match req.goal {
        SolveGoal::Score => Goal::Score,
        SolveGoal::Clear => Goal::Clear,
    };
    let eval = match req.eval {
        SolveEval::Groups => Eval::Groups,
        SolveEval::Tabu => Eval::Tabu { tabu_pct: req.tabu_pct },
        SolveEval::Rollout => Eval::Rollout { playouts: req.playouts },
    };
    req.check_search()?;
    let mut report = SolveResponse {
        goal: match goal {
            Goal::Score => "score",
            Goal::Clear => "clear",
        }
        .into(),
        width,
        eval: match (req.search, goal) {
            (Search::Nested, _) => format!("nested level {}", req.level),
            (Search::BeamNested, _) => format!("{eval:?}, then nested level {}", req.level),
            (Search::Nrpa, _) => format!(
                "nrpa {:?}{}",
                req.nrpa_cfg(Rules::default(), req.seed),
                req.portfolio_note()
            ),
            (Search::BeamNrpa, _) => format!(
                "{eval:?}, then nested level {}, then nrpa {:?}{}",
                req.nested_level,
                req.nrpa_cfg(Rules::default(), req.seed),
                req.portfolio_note()
            ),
            (_, Goal::Clear) => "clear-penalty".into(),
            _ => format!("{eval:?}"),
        },
        threads: req.threads.unwrap_or_else(rayon::current_num_threads),
        boards: Vec::new(),
        total_score: 0,
        cleared: 0,
        total_seconds: 0.0,
        aborted: false,
    };
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = req.threads {
        pool = pool.num_threads(n);
    }
    let pool =
        pool.build().map_err(|e| Error::failed(format!("cannot start the thread pool: {e}")))?;
    let total = boards.len() as u64;
    for (i, (board, file_min)) in boards.iter().enumerate() {
        let index = first_index + i;
        let rules = Rules {
            points,
            clear_bonus: req.clear_bonus,
            min_group: req.min_group.or(*file_min).unwrap_or(2).max(2),
        };
        let cfg = Config {
            width,
            goal,
            rules,
            eval,
            clear_penalty: req.clear_penalty,
            passes: if req.one_pass { Passes::One } else { Passes::Two },
            widen: req.widen,
            seed: req.seed,
        };
        let say = |msg: String| ctl.report(Progress::new(i as u64, Some(total)).with_message(msg));
        let start = Instant::now();
        let run_one = |seed: u64| run_search(req, board, Config { seed, ..cfg }, index, ctl, &say);
        let out = pool.install(|| {
            let mut best = run_one(req.seed);
            let mut nodes = best.nodes;
            for k in 1..u64::from(req.restarts) {
                if ctl.aborted() {
                    break;
                }
                let next = run_one(req.seed.wrapping_add(k));
                nodes += next.nodes;
                let usable = !next.aborted || finished(board, &next, &rules);
                if usable && next.better_than(&best) {
                    best = Outcome { aborted: best.aborted || next.aborted, ..next };
                } else {
                    best.aborted |= next.aborted;
                }
            }
            // The work of every restart counts.
            best.nodes = nodes;
            best
        });
        let seconds = start.elapsed().as_secs_f64();
        // Trust nothing the search says: replay through the checked engine.
        let v = trace::verify(board, &out.moves, &rules).map_err(|(k, e)| {
            Error::failed(format!("internal error: solution move {} is illegal: {e}", k + 1))
        })?;
        if v.score != out.score || v.cleared != out.cleared || v.tiles_left != out.tiles_left {
            return Err(Error::failed(format!(
                "internal error: the solver claims {} points, the replay gives {}",
                out.score, v.score
            )));
        }
        if out.aborted && !v.game_over {
            // Nothing finished on this board: the boards before it still stand.
            if report.boards.is_empty() {
                return Err(Error::Aborted);
            }
            report.aborted = true;
            break;
        }
        let solved = Solved {
            board: index,
            score: v.score,
            cleared: v.cleared,
            tiles_left: v.tiles_left,
            moves: pairs(&out.moves),
            nodes: out.nodes,
            seconds,
            record: req.record.then(|| Record::new(board, &rules, &out.moves, &v)),
        };
        on_board(&solved, boards.len())?;
        ctl.report(Progress::new(i as u64 + 1, Some(total)));
        report.total_score += v.score;
        report.cleared += usize::from(v.cleared);
        report.total_seconds += seconds;
        report.boards.push(solved);
        if out.aborted {
            report.aborted = true;
            break;
        }
    }
    Ok(report)
}

/// Whether `out`'s moves end the game on `board` (no removable group left).
fn finished(board: &Board, out: &Outcome, rules: &Rules) -> bool {
    trace::verify(board, &out.moves, rules).is_ok_and(|v| v.game_over)
}

/// One run of the requested search on `board` with `cfg` (its seed set), the abort flag
/// threaded into every stage; a stage stopped by the flag ends the chain.
fn run_search(
    req: &SolveRequest,
    board: &Board,
    cfg: Config,
    index: usize,
    ctl: Control,
    say: &(dyn Fn(String) + Sync),
) -> Outcome {
    let (rules, seed, abort) = (cfg.rules, cfg.seed, ctl.abort_flag());
    if req.search == Search::Nrpa {
        let ncfg = req.nrpa_cfg(rules, seed);
        return nrpa::search_portfolio_with_abort(board, &ncfg, &req.portfolio, None, abort, |p| {
            say(format!(
                "board {index}: nrpa iteration {}, best {}, {} playouts",
                p.iteration, p.best, p.playouts
            ));
        });
    }
    if req.search == Search::Nested {
        let ncfg = nested::Config { level: req.level, rules, seed };
        return nested::search_from_with_abort(board, &ncfg, None, abort, |p| {
            say(format!(
                "board {index}: {} moves played, best {}, {} playouts",
                p.moves, p.best, p.playouts
            ));
        });
    }
    let beam_out = beam::search(board, &cfg, abort, |p| {
        say(format!(
            "board {index}: layer {}, beam {}, best {}, fewest tiles {}, {} nodes",
            p.layer,
            p.beam,
            if p.best == i64::MIN { "-".to_string() } else { p.best.to_string() },
            p.fewest_tiles,
            p.nodes
        ));
    });
    if beam_out.aborted || req.search == Search::Beam {
        return beam_out;
    }
    if req.search == Search::BeamNrpa {
        let mut known = beam_out.clone();
        if req.nested_level > 0 {
            let ncfg = nested::Config { level: req.nested_level, rules, seed };
            known = nested::search_from_with_abort(board, &ncfg, Some(&beam_out), abort, |_| {});
            known.nodes += beam_out.nodes;
            if known.aborted {
                return known;
            }
        }
        let ncfg = req.nrpa_cfg(rules, seed);
        let mut out = nrpa::search_portfolio_with_abort(
            board,
            &ncfg,
            &req.portfolio,
            Some(&known),
            abort,
            |p| {
                say(format!(
                    "board {index}: from {}, nrpa iteration {}, best {}",
                    known.score, p.iteration, p.best
                ));
            },
        );
        out.nodes += known.nodes;
        return out;
    }
    let ncfg = nested::Config { level: req.level, rules, seed };
    let mut out = nested::search_from_with_abort(board, &ncfg, Some(&beam_out), abort, |p| {
        say(format!(
            "board {index}: beam {}, then nested: {} moves played, best {}",
            beam_out.score, p.moves, p.best
        ));
    });
    out.nodes += beam_out.nodes;
    out
}
