//! What a row file summarises to, and what two row files of the same games compare to.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Drop7Row, Error, Game, Method, RowFile, Twenty48Row};
use crate::dist;
use crate::paired::{mcnemar, sign_test, McNemar, Paired};
use crate::rate::Rate;
use crate::sample::{self, MeanInterval};

/// The tiles whose reach rate a 2048 summary reports.
pub const SUMMARY_TILES: [u64; 4] = [8192, 16384, 32768, 65536];
/// The tiles a 2048 comparison tests.
pub const COMPARE_TILES: [u64; 3] = [16384, 32768, 65536];

/// The critical value of the short two-sided 95% t table the published Drop7 figures use:
/// the entry at the next tabulated df at or above `df`, 1.96 beyond 60 df.
fn table_t95(df: usize) -> f64 {
    const TABLE: [(usize, f64); 17] = [
        (1, 12.706),
        (2, 4.303),
        (3, 3.182),
        (4, 2.776),
        (5, 2.571),
        (6, 2.447),
        (7, 2.365),
        (8, 2.306),
        (9, 2.262),
        (10, 2.228),
        (12, 2.179),
        (15, 2.131),
        (20, 2.086),
        (25, 2.060),
        (30, 2.042),
        (40, 2.021),
        (60, 2.000),
    ];
    TABLE.iter().find(|&&(k, _)| df <= k).map_or(1.96, |&(_, t)| t)
}

/// The two-sided 95% critical value for a mean of `n` values.
fn critical(game: Game, method: Method, n: usize) -> f64 {
    match (method, game) {
        (Method::Published, Game::Drop7) => table_t95(n.saturating_sub(1)),
        (Method::Published, Game::Twenty48) => 1.96,
        (Method::Exact, _) => dist::t_critical(0.95, n.saturating_sub(1) as f64),
    }
}

/// The normal critical value of Wilson intervals.
fn wilson_z(method: Method) -> f64 {
    match method {
        Method::Published => 1.96,
        Method::Exact => dist::z_critical(0.95),
    }
}

/// A row file's summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "game")]
pub enum Summary {
    /// Of Drop7 rows.
    #[serde(rename = "drop7")]
    Drop7(Drop7Summary),
    /// Of 2048 rows.
    #[serde(rename = "2048")]
    Twenty48(Twenty48Summary),
}

/// A Drop7 row file's summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Drop7Summary {
    /// How the interval was computed.
    pub method: Method,
    /// Games.
    pub games: usize,
    /// The lowest index.
    pub first_index: u64,
    /// The highest index.
    pub last_index: u64,
    /// Indices below the highest that no row holds.
    pub missing: Vec<u64>,
    /// Mean score.
    pub mean: f64,
    /// Standard deviation of the score (`None` for one game).
    pub sd: Option<f64>,
    /// The critical value of the interval (`None` for one game).
    pub critical: Option<f64>,
    /// 95% interval of the mean (`None` for one game).
    pub ci95: Option<[f64; 2]>,
    /// Median score.
    pub median: f64,
    /// Best score.
    pub best: u64,
    /// Worst score.
    pub worst: u64,
    /// Discs dropped in all games.
    pub moves: u64,
    /// Discs dropped a game.
    pub moves_per_game: f64,
    /// CPU seconds of all games, when every row has them.
    pub cpu_seconds: Option<f64>,
    /// CPU seconds a disc, when every row has them.
    pub cpu_seconds_per_move: Option<f64>,
}

/// A reach rate of a 2048 summary.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TileRate {
    /// The tile.
    pub tile: u64,
    /// Games whose largest tile is at least `tile`, with the Wilson 95% interval.
    pub rate: Rate,
}

/// A 2048 row file's summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Twenty48Summary {
    /// How the intervals were computed.
    pub method: Method,
    /// Games.
    pub games: usize,
    /// The lowest seed.
    pub first_seed: u64,
    /// The highest seed.
    pub last_seed: u64,
    /// Average score.
    pub average: f64,
    /// Standard deviation of the score (`None` for one game).
    pub sd: Option<f64>,
    /// The critical value of the interval.
    pub critical: f64,
    /// Half-width of the 95% interval of the average (0 for one game).
    pub half: f64,
    /// Median score.
    pub median: f64,
    /// Best score.
    pub best: u64,
    /// Reach rates of 8192, 16384, 32768 and 65536.
    pub reach: Vec<TileRate>,
    /// Search nodes a move over all games.
    pub nodes_per_move: f64,
    /// CPU seconds a game, when every row has them.
    pub cpu_seconds_per_game: Option<f64>,
    /// Game moves a CPU second, when every row has them.
    pub moves_per_cpu_second: Option<f64>,
}

/// The comparison of two row files of the same games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "game")]
pub enum Pair {
    /// Of Drop7 rows.
    #[serde(rename = "drop7")]
    Drop7(Drop7Pair),
    /// Of 2048 rows.
    #[serde(rename = "2048")]
    Twenty48(Twenty48Compare),
}

/// One game of a Drop7 pair.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PairGame {
    /// The game's index.
    pub index: u64,
    /// A's score.
    pub a: u64,
    /// B's score.
    pub b: u64,
}

/// Two Drop7 row files on the games both hold (matched by index, seeds checked equal).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Drop7Pair {
    /// How the interval and p were computed.
    pub method: Method,
    /// Games both files hold.
    pub games: usize,
    /// The lowest common index.
    pub first_index: u64,
    /// The highest common index.
    pub last_index: u64,
    /// A's mean score on those games.
    pub a_mean: f64,
    /// B's mean score on those games.
    pub b_mean: f64,
    /// Mean of A - B.
    pub mean_difference: f64,
    /// The critical value of the interval (`None` for one game).
    pub critical: Option<f64>,
    /// 95% interval of the mean difference (`None` for one game).
    pub ci95: Option<[f64; 2]>,
    /// Paired t statistic (`None` for one game).
    pub t: Option<f64>,
    /// Its two-sided p: normal approximation ([`Method::Published`]) or Student t
    /// ([`Method::Exact`]); `None` for one game.
    pub p: Option<f64>,
    /// Games where A scored more.
    pub a_better: u64,
    /// Games where A scored less.
    pub a_worse: u64,
    /// Exact two-sided sign test of `a_better` against `a_worse`.
    pub sign_p: f64,
    /// Every common game, by index.
    pub game_list: Vec<PairGame>,
}

/// One tile of a 2048 comparison.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TileCompare {
    /// The tile.
    pub tile: u64,
    /// A's games that reached it.
    pub a_count: u64,
    /// A's games.
    pub a_games: u64,
    /// B's games that reached it.
    pub b_count: u64,
    /// B's games.
    pub b_games: u64,
    /// Fisher's exact two-sided p on the two rates (all games of each file).
    pub fisher_p: f64,
    /// McNemar's test on the seeds both files hold (`None` when they share none).
    pub paired: Option<McNemar>,
}

/// The paired score difference of a 2048 comparison.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PairedScores {
    /// Seeds both files hold.
    pub seeds: usize,
    /// Mean of A - B.
    pub mean: f64,
    /// The critical value of the interval.
    pub critical: f64,
    /// 95% interval of the mean difference.
    pub ci95: [f64; 2],
    /// Paired t statistic.
    pub t: f64,
    /// Its two-sided p (normal approximation for [`Method::Published`], Student t for
    /// [`Method::Exact`]).
    pub p: f64,
    /// Seeds where A scored more.
    pub a_better: u64,
    /// Seeds where A scored less.
    pub a_worse: u64,
    /// Exact two-sided sign test of `a_better` against `a_worse`.
    pub sign_p: f64,
}

/// Two 2048 row files: reach rates of 16384, 32768 and 65536 over all games of each, and the
/// score difference on the seeds both hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Twenty48Compare {
    /// How the intervals and p were computed.
    pub method: Method,
    /// 16384, 32768 and 65536.
    pub tiles: Vec<TileCompare>,
    /// The paired difference (`None` below two common seeds).
    pub paired: Option<PairedScores>,
}

fn f(xs: impl Iterator<Item = u64>) -> Vec<f64> {
    xs.map(|x| x as f64).collect()
}

impl RowFile {
    /// The summary of one row file (an error when it holds no game).
    pub fn summary(&self, method: Method) -> Result<Summary, Error> {
        match self {
            RowFile::Drop7(r) => drop7_summary(r, method).map(Summary::Drop7),
            RowFile::Twenty48(r) => twenty48_summary(r, method).map(Summary::Twenty48),
        }
    }

    /// The comparison of `self` (A) with `b` (B): both must hold the same game's rows.
    pub fn pair(&self, b: &RowFile, method: Method) -> Result<Pair, Error> {
        match (self, b) {
            (RowFile::Drop7(a), RowFile::Drop7(b)) => drop7_pair(a, b, method).map(Pair::Drop7),
            (RowFile::Twenty48(a), RowFile::Twenty48(b)) => {
                Ok(Pair::Twenty48(twenty48_compare(a, b, method)))
            }
            _ => Err(Error::input(format!(
                "A holds {} rows and B {} rows: pair files of one game",
                self.game(),
                b.game()
            ))),
        }
    }
}

fn drop7_summary(r: &[Drop7Row], method: Method) -> Result<Drop7Summary, Error> {
    let (Some(first), Some(last)) = (r.first(), r.last()) else {
        return Err(Error::input("no game rows"));
    };
    let present: std::collections::BTreeSet<u64> = r.iter().map(|g| g.index).collect();
    let missing = (0..last.index).filter(|i| !present.contains(i)).collect();
    let sc = f(r.iter().map(|g| g.score));
    let n = sc.len();
    let c = critical(Game::Drop7, method, n);
    let m = MeanInterval::with_critical(&sc, c).expect("not empty");
    let moves: u64 = r.iter().map(|g| g.moves).sum();
    let cpus: Vec<f64> = r.iter().filter_map(|g| g.cpu_seconds).collect();
    let cpu = (cpus.len() == n).then(|| cpus.iter().sum::<f64>());
    Ok(Drop7Summary {
        method,
        games: n,
        first_index: first.index,
        last_index: last.index,
        missing,
        mean: m.mean,
        sd: (n > 1).then_some(m.sd),
        critical: (n > 1).then_some(c),
        ci95: (n > 1).then_some([m.low, m.high]),
        median: sample::median(&sc).expect("not empty"),
        best: r.iter().map(|g| g.score).max().unwrap_or(0),
        worst: r.iter().map(|g| g.score).min().unwrap_or(0),
        moves,
        moves_per_game: moves as f64 / n as f64,
        cpu_seconds: cpu,
        cpu_seconds_per_move: cpu.map(|c| c / moves as f64),
    })
}

fn twenty48_summary(r: &[Twenty48Row], method: Method) -> Result<Twenty48Summary, Error> {
    let (Some(first), Some(last)) = (r.first(), r.last()) else {
        return Err(Error::input("no rows"));
    };
    let sc = f(r.iter().map(|g| g.score));
    let n = sc.len();
    let c = critical(Game::Twenty48, method, n);
    let m = MeanInterval::with_critical(&sc, c).expect("not empty");
    let z = wilson_z(method);
    let reach = SUMMARY_TILES
        .iter()
        .map(|&tile| {
            let k = r.iter().filter(|g| g.max_tile >= tile).count() as u64;
            TileRate { tile, rate: Rate::wilson_z(k, n as u64, z) }
        })
        .collect();
    let moves: u64 = r.iter().map(|g| g.moves).sum();
    let nodes: u64 = r.iter().map(|g| g.nodes).sum();
    let cpus: Vec<f64> = r.iter().filter_map(|g| g.cpu_seconds).collect();
    let cpu = (cpus.len() == n).then(|| cpus.iter().sum::<f64>());
    Ok(Twenty48Summary {
        method,
        games: n,
        first_seed: first.seed,
        last_seed: last.seed,
        average: m.mean,
        sd: (n > 1).then_some(m.sd),
        critical: c,
        half: m.half,
        median: sample::median(&sc).expect("not empty"),
        best: r.iter().map(|g| g.score).max().unwrap_or(0),
        reach,
        nodes_per_move: nodes as f64 / moves as f64,
        cpu_seconds_per_game: cpu.map(|c| c / n as f64),
        moves_per_cpu_second: cpu.map(|c| moves as f64 / c),
    })
}

fn drop7_pair(a: &[Drop7Row], b: &[Drop7Row], method: Method) -> Result<Drop7Pair, Error> {
    let bmap: BTreeMap<u64, &Drop7Row> = b.iter().map(|g| (g.index, g)).collect();
    let mut both = Vec::new();
    for x in a {
        if let Some(y) = bmap.get(&x.index) {
            if x.seed != y.seed {
                return Err(Error::input(format!(
                    "game {}: seeds differ ({} vs {})",
                    x.index, x.seed, y.seed
                )));
            }
            both.push(PairGame { index: x.index, a: x.score, b: y.score });
        }
    }
    let (Some(first), Some(last)) = (both.first(), both.last()) else {
        return Err(Error::input("no game in common"));
    };
    let n = both.len();
    let sa = f(both.iter().map(|g| g.a));
    let sb = f(both.iter().map(|g| g.b));
    let c = critical(Game::Drop7, method, n);
    let p = match method {
        Method::Published => Paired::with_critical(&sa, &sb, c),
        Method::Exact => Paired::student(&sa, &sb, 0.95),
    }
    .expect("same length, not empty");
    let d = p.difference;
    // The published figures take t · (sd / √n), a rounding apart from (t · sd) / √n.
    let half = c * (d.sd / (n as f64).sqrt());
    let many = n > 1;
    Ok(Drop7Pair {
        method,
        games: n,
        first_index: first.index,
        last_index: last.index,
        a_mean: sample::mean(&sa).expect("not empty"),
        b_mean: sample::mean(&sb).expect("not empty"),
        mean_difference: d.mean,
        critical: many.then_some(c),
        ci95: many.then_some([d.mean - half, d.mean + half]),
        t: many.then_some(p.t),
        p: many.then_some(p.p),
        a_better: p.a_better,
        a_worse: p.b_better,
        sign_p: p.sign_p,
        game_list: both,
    })
}

fn twenty48_compare(a: &[Twenty48Row], b: &[Twenty48Row], method: Method) -> Twenty48Compare {
    let bmap: BTreeMap<u64, &Twenty48Row> = b.iter().map(|g| (g.seed, g)).collect();
    let both: Vec<(&Twenty48Row, &Twenty48Row)> =
        a.iter().filter_map(|x| bmap.get(&x.seed).map(|y| (x, *y))).collect();
    let tiles = COMPARE_TILES
        .iter()
        .map(|&tile| {
            let ka = a.iter().filter(|g| g.max_tile >= tile).count() as u64;
            let kb = b.iter().filter(|g| g.max_tile >= tile).count() as u64;
            let (na, nb) = (a.len() as u64, b.len() as u64);
            let a_only = both.iter().filter(|(x, y)| x.max_tile >= tile && y.max_tile < tile);
            let b_only = both.iter().filter(|(x, y)| x.max_tile < tile && y.max_tile >= tile);
            TileCompare {
                tile,
                a_count: ka,
                a_games: na,
                b_count: kb,
                b_games: nb,
                fisher_p: crate::rate::fisher_exact(ka, na, kb, nb),
                paired: (!both.is_empty())
                    .then(|| mcnemar(a_only.count() as u64, b_only.count() as u64)),
            }
        })
        .collect();
    let paired = (both.len() > 1).then(|| {
        let n = both.len();
        let sa = f(both.iter().map(|(x, _)| x.score));
        let sb = f(both.iter().map(|(_, y)| y.score));
        let c = critical(Game::Twenty48, method, n);
        let p = match method {
            Method::Published => Paired::with_critical(&sa, &sb, c),
            Method::Exact => Paired::student(&sa, &sb, 0.95),
        }
        .expect("same length, not empty");
        PairedScores {
            seeds: n,
            mean: p.difference.mean,
            critical: c,
            ci95: [p.difference.low, p.difference.high],
            t: p.t,
            p: p.p,
            a_better: p.a_better,
            a_worse: p.b_better,
            sign_p: sign_test(p.a_better, p.b_better),
        }
    });
    Twenty48Compare { method, tiles, paired }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_table() {
        assert_eq!(table_t95(1), 12.706);
        assert_eq!(table_t95(11), 2.179);
        assert_eq!(table_t95(52), 2.000);
        assert_eq!(table_t95(60), 2.000);
        assert_eq!(table_t95(63), 1.96);
        assert_eq!(critical(Game::Twenty48, Method::Published, 100), 1.96);
        assert!((critical(Game::Drop7, Method::Exact, 64) - 1.998_340_5).abs() < 1e-6);
    }
}
