//! `bench`: BFS against A* per search on fixed 10 x 10 boards, side by side in one run.

use std::hint::black_box;
use std::ops::RangeInclusive;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{check_range, stats, Control, Error, Progress};
use crate::fixtures::{midgame_boards, SEALED};
use crate::{Board, Searcher, Size};

/// A bench request (`bitarcade snake bench`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct BenchRequest {
    /// Timing rounds (the median is reported), [`BenchRequest::ROUNDS`].
    pub rounds: u32,
    /// Searches per round per board set, [`BenchRequest::ITERS`].
    pub iters: u32,
}

impl BenchRequest {
    /// The range of `rounds`.
    pub const ROUNDS: RangeInclusive<u32> = 1..=1000;
    /// The range of `iters`.
    pub const ITERS: RangeInclusive<u32> = 1..=100_000_000;

    /// Checks both fields' ranges; the input error names the first one out of range.
    pub fn check(&self) -> Result<(), Error> {
        check_range("rounds", self.rounds, Self::ROUNDS)?;
        check_range("iters", self.iters, Self::ITERS)
    }
}

impl Default for BenchRequest {
    fn default() -> Self {
        BenchRequest { rounds: 7, iters: 20_000 }
    }
}

/// One board set of the bench.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BenchLine {
    /// Which boards.
    pub board: String,
    /// The route length (single-board sets only).
    pub route_len: Option<usize>,
    /// Nanoseconds per BFS search (median of the rounds).
    pub bfs_ns: f64,
    /// Nanoseconds per A* search (median of the rounds).
    pub astar_ns: f64,
    /// `bfs_ns / astar_ns`.
    pub bfs_over_astar: f64,
    /// Cells BFS expands per search.
    pub bfs_expanded: f64,
    /// Cells A* expands per search.
    pub astar_expanded: f64,
}

/// What `bench --json` prints.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BenchResponse {
    /// Timing rounds.
    pub rounds: u32,
    /// Searches per round per board set.
    pub iters: u32,
    /// One line per board set.
    pub lines: Vec<BenchLine>,
    /// Deterministic signature: total cells expanded by each search over the bench boards.
    pub signature: (u64, u64),
}

/// Times BFS and A* on a reachable mid-game board, the mean over 64 mid-game boards and a
/// sealed-off board (10 x 10); first checks that both find routes of the same length.
/// Progress counts rounds; the abort flag is checked per round.
pub fn bench(req: &BenchRequest, ctl: Control) -> Result<BenchResponse, Error> {
    req.check()?;
    let (rounds, iters) = (req.rounds, req.iters);
    let size: Size = "10x10".parse().map_err(Error::failed)?;
    let mids = midgame_boards(size, 30, 64, 1);
    let sealed: Board = SEALED.parse().map_err(|e| Error::failed(format!("{e}")))?;
    let sets: Vec<(&str, Vec<Board>)> = vec![
        ("reachable (first mid-game board)", vec![mids[0].clone()]),
        ("reachable (mean of 64 mid-game boards)", mids.clone()),
        ("sealed-off", vec![sealed]),
    ];
    let total = u64::from(rounds) * sets.len() as u64;
    let mut lines = Vec::new();
    let mut sig = (0, 0);
    for (name, boards) in &sets {
        let jobs: Vec<_> =
            boards.iter().map(|b| (*b.occupied(), b.head(), b.fruit().unwrap_or(0))).collect();
        let mut bfs: Searcher = Searcher::new(size);
        let mut ast: Searcher = Searcher::new(size);
        // Same routes first: equal lengths on every board.
        let mut route_len = None;
        for (occ, h, f) in &jobs {
            let (a, b) = (bfs.bfs(occ, *h, *f), ast.astar(occ, *h, *f));
            if a.map(|r| r.len) != b.map(|r| r.len) {
                return Err(Error::failed(format!("{name}: BFS and A* routes differ in length")));
            }
            route_len = a.map(|r| r.len);
        }
        let (be, ae) = (bfs.expanded(), ast.expanded());
        sig.0 += be;
        sig.1 += ae;
        let per = (iters as usize / jobs.len()).max(1);
        let mut tb = Vec::new();
        let mut ta = Vec::new();
        for _ in 0..rounds {
            ctl.check()?;
            let t = Instant::now();
            for _ in 0..per {
                for (occ, h, f) in &jobs {
                    black_box(bfs.bfs(black_box(occ), *h, *f));
                }
            }
            tb.push(t.elapsed().as_nanos() as f64 / (per * jobs.len()) as f64);
            let t = Instant::now();
            for _ in 0..per {
                for (occ, h, f) in &jobs {
                    black_box(ast.astar(black_box(occ), *h, *f));
                }
            }
            ta.push(t.elapsed().as_nanos() as f64 / (per * jobs.len()) as f64);
            ctl.report(Progress::new(
                lines.len() as u64 * u64::from(rounds) + tb.len() as u64,
                Some(total),
            ));
        }
        let (b, a) = (stats::median(tb), stats::median(ta));
        lines.push(BenchLine {
            board: name.to_string(),
            route_len: if jobs.len() == 1 { route_len } else { None },
            bfs_ns: b,
            astar_ns: a,
            bfs_over_astar: b / a,
            bfs_expanded: be as f64 / jobs.len() as f64,
            astar_expanded: ae as f64 / jobs.len() as f64,
        });
    }
    Ok(BenchResponse { rounds, iters, lines, signature: sig })
}
