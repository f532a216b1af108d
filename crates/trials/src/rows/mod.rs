//! Result rows: one TSV line per game of a long measured run, the files under
//! `crates/drop7/results/` and `crates/twenty48/results/`, and what is computed from them.
//!
//! A row file is built game by game (each game a separate process or `--shard`, appended by
//! `bitarcade stats rows RUN.json >> FILE.tsv`), then summarised (`stats summary`) or
//! compared game by game with another row file of the same games (`stats pair`).
//!
//! Two games write rows, told apart by their columns (a header line, or the cell count of
//! a headerless file):
//!
//! | game | columns |
//! | --- | --- |
//! | Drop7 | `index seed score moves level over cpu_seconds search_moves` (8) |
//! | 2048 | `seed score moves max_tile nodes cpu_seconds` (6) |
//!
//! Lines starting with `#` are comments; blank lines are skipped; `cpu_seconds` may be
//! empty. A Drop7 game is keyed by its batch index (its seed is checked when pairing), a
//! 2048 game by its master seed. A key that appears twice is an error, as is any malformed
//! cell, named by `file:line`.
//!
//! ```
//! use trials::rows::{RowFile, Method};
//! let text = "index\tseed\tscore\tmoves\tlevel\tover\tcpu_seconds\tsearch_moves\n\
//!             0\t11\t1000\t40\t8\ttrue\t1.5\t900\n\
//!             1\t12\t3000\t80\t16\ttrue\t2.5\t1800\n";
//! let rows = RowFile::parse("a.tsv", text, None).unwrap();
//! let s = rows.summary(Method::Published).unwrap();
//! let trials::rows::Summary::Drop7(s) = s else { panic!() };
//! assert_eq!((s.games, s.mean, s.median), (2, 2000.0, 2000.0));
//! ```

mod report;
mod run;
mod text;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub use bits::job::Error;
pub use report::{
    Drop7Pair, Drop7Summary, Pair, PairGame, PairedScores, Summary, TileCompare, TileRate,
    Twenty48Compare, Twenty48Summary,
};
pub use run::run_rows;

/// Which game's rows a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Game {
    /// `bitarcade drop7 play` rows.
    #[serde(rename = "drop7")]
    Drop7,
    /// `bitarcade 2048 play` rows.
    #[serde(rename = "2048")]
    Twenty48,
}

impl Game {
    /// The name on the command line: `drop7` or `2048`.
    pub fn name(self) -> &'static str {
        match self {
            Game::Drop7 => "drop7",
            Game::Twenty48 => "2048",
        }
    }

    /// The column names, in order.
    pub fn columns(self) -> &'static [&'static str] {
        match self {
            Game::Drop7 => &DROP7_COLUMNS,
            Game::Twenty48 => &TWENTY48_COLUMNS,
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Game {
    type Err = Error;
    fn from_str(s: &str) -> Result<Game, Error> {
        match s {
            "drop7" => Ok(Game::Drop7),
            "2048" | "twenty48" => Ok(Game::Twenty48),
            _ => Err(Error::input(format!("unknown game `{s}` (expected drop7 or 2048)"))),
        }
    }
}

/// How intervals and p values are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// What the published figures use (the results scripts this module replaces): Drop7's
    /// mean and paired intervals take the critical value of a short t table at the next
    /// tabulated df at or above `n - 1` (1, 2, ..., 10, 12, 15, 20, 25, 30, 40, 60), and 1.96
    /// beyond 60 df, with the paired p from the normal approximation; 2048's intervals take
    /// z = 1.96 (mean, paired difference and Wilson).
    #[default]
    Published,
    /// Exact statistics: Student t with `n - 1` df for every mean and paired interval, the
    /// paired p from Student t, Wilson intervals at the exact 95% normal quantile.
    Exact,
}

const DROP7_COLUMNS: [&str; 8] =
    ["index", "seed", "score", "moves", "level", "over", "cpu_seconds", "search_moves"];
const TWENTY48_COLUMNS: [&str; 6] = ["seed", "score", "moves", "max_tile", "nodes", "cpu_seconds"];

/// One Drop7 game (a line of `drop7 play --json`'s `results`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Drop7Row {
    /// The game's batch index (`--first-game K` plays index K first).
    pub index: u64,
    /// The game's own seed (derived from the master seed and the index).
    pub seed: u64,
    /// Final score.
    pub score: u64,
    /// Discs dropped.
    pub moves: u64,
    /// Level reached.
    pub level: u64,
    /// Whether the game ended (rather than hitting the move cap).
    pub over: bool,
    /// CPU seconds of the game, when measured (written with one decimal).
    pub cpu_seconds: Option<f64>,
    /// Moves the search generated in the whole game.
    pub search_moves: u64,
}

/// One 2048 game (a game of `2048 play --json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Twenty48Row {
    /// The master seed S: the game is the one `2048 play --games 1 --seed S` plays.
    pub seed: u64,
    /// Final score.
    pub score: u64,
    /// Moves made.
    pub moves: u64,
    /// Largest tile reached.
    pub max_tile: u64,
    /// Search nodes of the whole game.
    pub nodes: u64,
    /// CPU (user) seconds of the game's process, when measured (written with two decimals).
    pub cpu_seconds: Option<f64>,
}

fn cpu_cell(cpu: Option<f64>, decimals: usize) -> String {
    cpu.map(|c| format!("{c:.decimals$}")).unwrap_or_default()
}

impl fmt::Display for Drop7Row {
    /// The TSV line (no newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.index,
            self.seed,
            self.score,
            self.moves,
            self.level,
            self.over,
            cpu_cell(self.cpu_seconds, 1),
            self.search_moves
        )
    }
}

impl fmt::Display for Twenty48Row {
    /// The TSV line (no newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}\t{}\t{}\t{}\t{}\t{}",
            self.seed,
            self.score,
            self.moves,
            self.max_tile,
            self.nodes,
            cpu_cell(self.cpu_seconds, 2)
        )
    }
}

/// The games of one row file: from [`RowFile::parse`] sorted by key (Drop7: index; 2048:
/// seed), each key once; from [`run_rows`] in the report's order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "game", content = "rows")]
pub enum RowFile {
    /// Drop7 rows, by index.
    #[serde(rename = "drop7")]
    Drop7(Vec<Drop7Row>),
    /// 2048 rows, by seed.
    #[serde(rename = "2048")]
    Twenty48(Vec<Twenty48Row>),
}

/// `name:line: message`, an input error.
fn at(name: &str, line: usize, msg: impl fmt::Display) -> Error {
    Error::input(format!("{name}:{line}: {msg}"))
}

fn int(name: &str, line: usize, col: &str, cell: &str) -> Result<u64, Error> {
    cell.parse()
        .map_err(|_| at(name, line, format!("`{col}`: expected a whole number, found `{cell}`")))
}

fn cpu(name: &str, line: usize, cell: &str) -> Result<Option<f64>, Error> {
    if cell.is_empty() {
        return Ok(None);
    }
    match cell.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(Some(x)),
        _ => Err(at(
            name,
            line,
            format!("`cpu_seconds`: expected seconds or nothing, found `{cell}`"),
        )),
    }
}

impl RowFile {
    /// These rows, then the rows of `more` (from the report `name`): rows of one game at a
    /// time, else an input error naming `name`.
    pub fn then(self, more: RowFile, name: &str) -> Result<RowFile, Error> {
        match (self, more) {
            (RowFile::Drop7(mut x), RowFile::Drop7(y)) => {
                x.extend(y);
                Ok(RowFile::Drop7(x))
            }
            (RowFile::Twenty48(mut x), RowFile::Twenty48(y)) => {
                x.extend(y);
                Ok(RowFile::Twenty48(x))
            }
            (x, y) => Err(Error::input(format!(
                "{name}: a {} report after {} ones: rows of one game at a time",
                y.game(),
                x.game()
            ))),
        }
    }

    /// Parses a row file. `name` is used in error messages (`name:line: ...`); `game` forces
    /// the columns, else they are detected from the header or the first row's cell count.
    pub fn parse(name: &str, text: &str, game: Option<Game>) -> Result<RowFile, Error> {
        let mut game = game;
        let mut d7: Vec<(Drop7Row, usize)> = Vec::new();
        let mut t48: Vec<(Twenty48Row, usize)> = Vec::new();
        for (i, line) in text.split('\n').enumerate() {
            let no = i + 1;
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let cells: Vec<&str> = line.split('\t').collect();
            let header = match cells[0] {
                "index" => Some(Game::Drop7),
                "seed" => Some(Game::Twenty48),
                _ => None,
            };
            let this = header.or(match cells.len() {
                8 => Some(Game::Drop7),
                6 => Some(Game::Twenty48),
                _ => None,
            });
            let g = match (game, this) {
                (Some(g), _) => g,
                (None, Some(t)) => t,
                (None, None) => {
                    return Err(at(
                        name,
                        no,
                        format!(
                            "expected 8 tab-separated cells (drop7: {}) or 6 (2048: {}), found {}",
                            DROP7_COLUMNS.join(" "),
                            TWENTY48_COLUMNS.join(" "),
                            cells.len()
                        ),
                    ))
                }
            };
            game = Some(g);
            let cols = g.columns();
            if let Some(h) = header {
                if h != g || cells != cols {
                    return Err(at(
                        name,
                        no,
                        format!("expected the {g} header `{}`", cols.join(" ")),
                    ));
                }
                continue;
            }
            if cells.len() != cols.len() {
                return Err(at(
                    name,
                    no,
                    format!(
                        "expected {} tab-separated cells ({g}: {}), found {}",
                        cols.len(),
                        cols.join(" "),
                        cells.len()
                    ),
                ));
            }
            let c = |k: usize| int(name, no, cols[k], cells[k]);
            match g {
                Game::Drop7 => {
                    let over = match cells[5] {
                        "true" => true,
                        "false" => false,
                        other => {
                            return Err(at(
                                name,
                                no,
                                format!("`over`: expected true or false, found `{other}`"),
                            ))
                        }
                    };
                    let row = Drop7Row {
                        index: c(0)?,
                        seed: c(1)?,
                        score: c(2)?,
                        moves: c(3)?,
                        level: c(4)?,
                        over,
                        cpu_seconds: cpu(name, no, cells[6])?,
                        search_moves: c(7)?,
                    };
                    d7.push((row, no));
                }
                Game::Twenty48 => {
                    let row = Twenty48Row {
                        seed: c(0)?,
                        score: c(1)?,
                        moves: c(2)?,
                        max_tile: c(3)?,
                        nodes: c(4)?,
                        cpu_seconds: cpu(name, no, cells[5])?,
                    };
                    t48.push((row, no));
                }
            }
        }
        match game.unwrap_or(Game::Drop7) {
            Game::Drop7 => Ok(RowFile::Drop7(sorted_unique(name, d7, |r| r.index, "game")?)),
            Game::Twenty48 => Ok(RowFile::Twenty48(sorted_unique(name, t48, |r| r.seed, "seed")?)),
        }
    }

    /// Which game's rows these are.
    pub fn game(&self) -> Game {
        match self {
            RowFile::Drop7(_) => Game::Drop7,
            RowFile::Twenty48(_) => Game::Twenty48,
        }
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        match self {
            RowFile::Drop7(r) => r.len(),
            RowFile::Twenty48(r) => r.len(),
        }
    }

    /// Whether the file holds no game.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The TSV lines (no header), one a game, in key order.
    pub fn lines(&self) -> Vec<String> {
        match self {
            RowFile::Drop7(r) => r.iter().map(ToString::to_string).collect(),
            RowFile::Twenty48(r) => r.iter().map(ToString::to_string).collect(),
        }
    }
}

/// Sorts rows by key and refuses a key seen twice (`name:line: game K appears twice`).
fn sorted_unique<R>(
    name: &str,
    mut rows: Vec<(R, usize)>,
    key: impl Fn(&R) -> u64,
    what: &str,
) -> Result<Vec<R>, Error> {
    rows.sort_by_key(|(r, line)| (key(r), *line));
    for w in rows.windows(2) {
        if key(&w[0].0) == key(&w[1].0) {
            return Err(at(
                name,
                w[1].1,
                format!("{what} {} appears twice (first at line {})", key(&w[1].0), w[0].1),
            ));
        }
    }
    Ok(rows.into_iter().map(|(r, _)| r).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const D7: &str =
        "# a comment\nindex\tseed\tscore\tmoves\tlevel\tover\tcpu_seconds\tsearch_moves\n\
                      1\t12\t3000\t80\t16\ttrue\t\t1800\n0\t11\t1000\t40\t8\tfalse\t1.5\t900\n";

    #[test]
    fn parses_and_sorts() {
        let f = RowFile::parse("a.tsv", D7, None).unwrap();
        assert_eq!(f.game(), Game::Drop7);
        assert_eq!(
            f.lines(),
            ["0\t11\t1000\t40\t8\tfalse\t1.5\t900", "1\t12\t3000\t80\t16\ttrue\t\t1800"]
        );
        let t = RowFile::parse("b.tsv", "30000\t5\t6\t2048\t9\t\n", None).unwrap();
        assert_eq!(t.game(), Game::Twenty48);
        assert_eq!(t.lines(), ["30000\t5\t6\t2048\t9\t"]);
    }

    #[test]
    fn errors_name_file_and_line() {
        let e = |text: &str| RowFile::parse("a.tsv", text, None).unwrap_err().to_string();
        assert_eq!(
            e("0\t11\t1000\t40\t8\ttrue\t1.5\t900\n0\t11\t1000\t40\t8\ttrue\t1.5\t900\n"),
            "a.tsv:2: game 0 appears twice (first at line 1)"
        );
        assert_eq!(
            e("0\t11\tten\t40\t8\ttrue\t1.5\t900\n"),
            "a.tsv:1: `score`: expected a whole number, found `ten`"
        );
        assert_eq!(
            e("0\t11\t1000\t40\t8\ttrue\t1.5\t900\n1\t2\t3\n"),
            "a.tsv:2: expected 8 tab-separated cells (drop7: index seed score moves level over \
             cpu_seconds search_moves), found 3"
        );
        assert_eq!(
            e("1\t2\t3\n"),
            "a.tsv:1: expected 8 tab-separated cells (drop7: index seed score moves level over \
             cpu_seconds search_moves) or 6 (2048: seed score moves max_tile nodes cpu_seconds), \
             found 3"
        );
        assert_eq!(
            e("30000\t5\t6\t2048\t9\t\n30000\t5\t6\t2048\t9\t\n"),
            "a.tsv:2: seed 30000 appears twice (first at line 1)"
        );
        assert_eq!(
            e("0\t11\t1000\t40\t8\tyes\t1.5\t900\n"),
            "a.tsv:1: `over`: expected true or false, found `yes`"
        );
        assert_eq!(
            RowFile::parse("a.tsv", "30000\t5\t6\t2048\t9\t\n", Some(Game::Drop7))
                .unwrap_err()
                .to_string(),
            "a.tsv:1: expected 8 tab-separated cells (drop7: index seed score moves level over \
             cpu_seconds search_moves), found 6"
        );
    }
}
