//! The packed board and the game position, with their one text form.
//!
//! # Layout
//! A [`Board`] is seven `u32` words, one per column (column 0 on the left). Each cell is a
//! nibble, the bottom row in the least significant nibble; the top nibble (bits 28..31) is
//! always zero:
//!
//! ```text
//!   bit  31..28 27..24 23..20 19..16 15..12 11..8  7..4   3..0
//!        unused row 6  row 5  row 4  row 3  row 2  row 1  row 0 (bottom)
//! ```
//!
//! Cell codes: `0` empty, `1..=7` a numbered disc, `8` a solid gray ([`SOLID`]), `9` a
//! cracked gray ([`CRACKED`]). Columns have no holes, so a column's height is its highest
//! non-zero nibble plus one (one leading-zero count), a drop is one or-shift at that height,
//! and "can this column take a disc" is one test of the row-6 nibble. The board is 28 bytes;
//! a [`Position`] adds the next disc, the level, the drops left and the score (48 bytes).
//!
//! # Text form
//! Seven rows, top row first, separated by `/` (or whitespace), each seven characters:
//! `.` empty, `1`-`7` numbered, `#` solid gray, `x` cracked gray. A position adds
//! `next=D level=L drops=N score=S` (`D` is `1`-`7` or `#` for a gray disc) and the word
//! `over` once the game has ended:
//!
//! ```
//! use drop7::Position;
//! let text = "......./......./......./......./......./..3..../####### next=5 level=1 drops=4 score=0";
//! let pos: Position = text.parse().unwrap();
//! assert_eq!(pos.to_string(), text);
//! assert_eq!(pos.board.height(2), 2);
//! ```

use std::fmt;
use std::str::FromStr;

/// Columns and rows of the board.
pub const SIZE: usize = 7;
/// The code of an empty cell.
pub const EMPTY: u8 = 0;
/// The code of a solid (uncracked) gray disc.
pub const SOLID: u8 = 8;
/// The code of a cracked gray disc.
pub const CRACKED: u8 = 9;
/// The live nibbles of a column word (rows 0..=6).
pub const LIVE: u32 = 0x0FFF_FFFF;
/// Bit 0 of each live nibble: the "flag" form of a set of cells in one column.
pub const ONES: u32 = 0x0111_1111;

/// A disc to drop: a number `1..=7`, or a gray disc (which lands solid).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Disc(u8);

impl Disc {
    /// The gray disc.
    pub const GRAY: Disc = Disc(SOLID);

    /// A numbered disc; `None` unless `1 <= v <= 7`.
    pub fn number(v: u8) -> Option<Disc> {
        (1..=7).contains(&v).then_some(Disc(v))
    }

    /// The cell code the disc lands as (`1..=7`, or [`SOLID`]).
    #[inline]
    pub fn code(self) -> u8 {
        self.0
    }

    /// `true` for the gray disc.
    pub fn is_gray(self) -> bool {
        self.0 == SOLID
    }

    /// The disc's character in the text form: `1`-`7` or `#`.
    pub fn to_char(self) -> char {
        cell_char(self.0)
    }

    /// Parses `1`-`7` or `#`.
    pub fn from_char(ch: char) -> Option<Disc> {
        match ch {
            '1'..='7' => Some(Disc(ch as u8 - b'0')),
            '#' => Some(Disc::GRAY),
            _ => None,
        }
    }
}

impl fmt::Display for Disc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// The character of a cell code in the text form.
pub fn cell_char(code: u8) -> char {
    match code {
        EMPTY => '.',
        1..=7 => (b'0' + code) as char,
        SOLID => '#',
        CRACKED => 'x',
        _ => '?',
    }
}

fn char_cell(ch: char) -> Option<u8> {
    match ch {
        '.' => Some(EMPTY),
        '1'..='7' => Some(ch as u8 - b'0'),
        '#' => Some(SOLID),
        'x' => Some(CRACKED),
        _ => None,
    }
}

/// The 7x7 board: seven nibble-packed column words (see the [module docs](self)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    cols: [u32; SIZE],
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board { cols: [0; SIZE] };

    /// The board with one row of solid grays at the bottom (the Hardcore opening).
    pub const GRAY_ROW: Board = Board { cols: [SOLID as u32; SIZE] };

    /// A board from its column words. The words must be valid (codes `0..=9`, no holes,
    /// top nibble zero): checked with `debug_assert!`; use [`Board::from_cells`] for input.
    #[inline]
    pub fn from_cols(cols: [u32; SIZE]) -> Board {
        let b = Board { cols };
        debug_assert!(b.check().is_ok(), "invalid column words {cols:08x?}");
        b
    }

    /// The column words.
    #[inline]
    pub fn cols(&self) -> &[u32; SIZE] {
        &self.cols
    }

    /// Mutable column words, for the engine. Callers keep the invariants.
    #[inline]
    pub(crate) fn cols_mut(&mut self) -> &mut [u32; SIZE] {
        &mut self.cols
    }

    /// A board from cells indexed `[row][col]`, row 0 at the bottom; checks every invariant.
    pub fn from_cells(cells: &[[u8; SIZE]; SIZE]) -> Result<Board, BoardError> {
        let mut cols = [0u32; SIZE];
        for (r, row) in cells.iter().enumerate() {
            for (c, &v) in row.iter().enumerate() {
                if v > CRACKED {
                    return Err(BoardError::BadCode { row: r, col: c, code: v });
                }
                cols[c] |= u32::from(v) << (4 * r);
            }
        }
        let b = Board { cols };
        b.check()?;
        Ok(b)
    }

    /// The cells as `[row][col]`, row 0 at the bottom.
    pub fn to_cells(&self) -> [[u8; SIZE]; SIZE] {
        let mut out = [[0u8; SIZE]; SIZE];
        for (r, row) in out.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                *cell = self.get(c, r);
            }
        }
        out
    }

    fn check(&self) -> Result<(), BoardError> {
        for (c, &w) in self.cols.iter().enumerate() {
            if w & !LIVE != 0 {
                return Err(BoardError::Overflow { col: c });
            }
            let mut seen_empty = false;
            for r in 0..SIZE {
                let v = ((w >> (4 * r)) & 0xF) as u8;
                if v > CRACKED {
                    return Err(BoardError::BadCode { row: r, col: c, code: v });
                }
                if v == EMPTY {
                    seen_empty = true;
                } else if seen_empty {
                    return Err(BoardError::Floating { row: r, col: c });
                }
            }
        }
        Ok(())
    }

    /// The cell code at column `col`, row `row` (row 0 at the bottom).
    #[inline]
    pub fn get(&self, col: usize, row: usize) -> u8 {
        ((self.cols[col] >> (4 * row)) & 0xF) as u8
    }

    /// The number of discs in column `col`.
    #[inline]
    pub fn height(&self, col: usize) -> u32 {
        col_height(self.cols[col])
    }

    /// `true` when column `col` can take a disc (its top cell is empty): one mask test.
    #[inline]
    pub fn can_drop(&self, col: usize) -> bool {
        self.cols[col] >> 24 == 0
    }

    /// The columns that can take a disc, as a 7-bit mask.
    #[inline]
    pub fn open_columns(&self) -> u8 {
        let mut m = 0u8;
        for c in 0..SIZE {
            m |= u8::from(self.can_drop(c)) << c;
        }
        m
    }

    /// `true` when some column holds seven discs.
    #[inline]
    pub fn any_full(&self) -> bool {
        self.cols.iter().fold(0, |a, &w| a | w) >> 24 != 0
    }

    /// `true` when the board has no disc at all.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.cols.iter().fold(0, |a, &w| a | w) == 0
    }

    /// Drops a cell code on column `col`: one or-shift at the column's height.
    /// Precondition: [`can_drop`](Self::can_drop) and `1 <= code <= 8`.
    #[inline]
    pub fn drop_code(&mut self, col: usize, code: u8) {
        debug_assert!(self.can_drop(col) && (1..=SOLID).contains(&code));
        let h = self.height(col);
        self.cols[col] |= u32::from(code) << (4 * h);
    }

    /// Every disc moves up one row and a row of solid grays fills the bottom: one shift-or
    /// per column. Precondition: no column is full.
    #[inline]
    pub fn rise(&mut self) {
        debug_assert!(!self.any_full());
        for w in &mut self.cols {
            *w = (*w << 4) | u32::from(SOLID);
        }
    }

    /// Number of discs on the board.
    pub fn disc_count(&self) -> u32 {
        self.cols.iter().map(|&w| nonzero_nibbles(w).count_ones()).sum()
    }

    /// Number of solid and of cracked grays.
    pub fn gray_counts(&self) -> (u32, u32) {
        let mut solid = 0;
        let mut cracked = 0;
        for &w in &self.cols {
            solid += ((w >> 3) & !w & ONES).count_ones();
            cracked += ((w >> 3) & w & ONES).count_ones();
        }
        (solid, cracked)
    }

    /// A 64-bit hash of the board (for search-time reveal seeds and table indices).
    #[inline]
    pub fn hash64(&self) -> u64 {
        let mut h = 0x243F_6A88_85A3_08D3u64;
        for &w in &self.cols {
            h = (h ^ u64::from(w)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        h
    }
}

/// The height of a column word: its highest non-zero nibble plus one.
#[inline]
pub fn col_height(w: u32) -> u32 {
    (35 - w.leading_zeros()) >> 2
}

/// Bit 0 of every non-zero nibble of `w` (the occupied cells, in flag form).
#[inline]
pub fn nonzero_nibbles(w: u32) -> u32 {
    (w | (w >> 1) | (w >> 2) | (w >> 3)) & ONES
}

/// Why a board is not valid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// A cell holds a code above 9.
    BadCode {
        /// Row (0 at the bottom).
        row: usize,
        /// Column.
        col: usize,
        /// The code.
        code: u8,
    },
    /// A disc sits above an empty cell (columns have no holes).
    Floating {
        /// Row (0 at the bottom).
        row: usize,
        /// Column.
        col: usize,
    },
    /// Bits above row 6 are set.
    Overflow {
        /// Column.
        col: usize,
    },
    /// A disc would pop: positions in a game are always at rest.
    Unstable {
        /// Row (0 at the bottom).
        row: usize,
        /// Column.
        col: usize,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::BadCode { row, col, code } => {
                write!(f, "cell code {code} at column {col}, row {row} is not 0-9")
            }
            BoardError::Floating { row, col } => write!(
                f,
                "the disc at column {}, row {} (text row {}) floats above an empty cell",
                col + 1,
                row,
                SIZE - row
            ),
            BoardError::Overflow { col } => write!(f, "column {} has bits above row 6", col + 1),
            BoardError::Unstable { row, col } => write!(
                f,
                "the disc at column {}, text row {} would pop: a position must be at rest",
                col + 1,
                SIZE - row
            ),
        }
    }
}

impl std::error::Error for BoardError {}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in (0..SIZE).rev() {
            for c in 0..SIZE {
                write!(f, "{}", cell_char(self.get(c, r)))?;
            }
            if r > 0 {
                f.write_str("/")?;
            }
        }
        Ok(())
    }
}

/// Why a text board or position does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The number of rows is not seven.
    RowCount(usize),
    /// A row is not seven characters long.
    RowLength {
        /// Text row (1 = top).
        row: usize,
        /// Its length.
        len: usize,
    },
    /// A character that is not a cell.
    BadCell {
        /// Text row (1 = top).
        row: usize,
        /// Column (1 = left).
        col: usize,
        /// The character.
        ch: char,
    },
    /// The cells do not form a valid board.
    Board(BoardError),
    /// A `key=value` field that is unknown or malformed.
    BadField(String),
    /// A required field is missing.
    MissingField(&'static str),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::RowCount(n) => write!(f, "expected 7 rows, found {n}"),
            ParseError::RowLength { row, len } => {
                write!(f, "row {row} has {len} cells, expected 7")
            }
            ParseError::BadCell { row, col, ch } => {
                write!(f, "row {row}, column {col}: {ch:?} is not a cell (use . 1-7 # x)")
            }
            ParseError::Board(e) => write!(f, "{e}"),
            ParseError::BadField(s) => write!(f, "field {s:?} is not understood"),
            ParseError::MissingField(k) => write!(f, "missing field {k}="),
        }
    }
}

impl std::error::Error for ParseError {}

fn parse_rows<'a>(rows: impl Iterator<Item = &'a str>) -> Result<Board, ParseError> {
    let rows: Vec<&str> = rows.collect();
    if rows.len() != SIZE {
        return Err(ParseError::RowCount(rows.len()));
    }
    let mut cells = [[0u8; SIZE]; SIZE];
    for (i, row) in rows.iter().enumerate() {
        let len = row.chars().count();
        if len != SIZE {
            return Err(ParseError::RowLength { row: i + 1, len });
        }
        for (c, ch) in row.chars().enumerate() {
            let v = char_cell(ch).ok_or(ParseError::BadCell { row: i + 1, col: c + 1, ch })?;
            cells[SIZE - 1 - i][c] = v;
        }
    }
    let board = Board::from_cells(&cells).map_err(ParseError::Board)?;
    let pop = crate::engine::poppers(board.cols());
    if let Some(c) = pop.iter().position(|&p| p != 0) {
        let row = (pop[c].trailing_zeros() / 4) as usize;
        return Err(ParseError::Board(BoardError::Unstable { row, col: c }));
    }
    Ok(board)
}

impl FromStr for Board {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Board, ParseError> {
        parse_rows(s.split(|c: char| c == '/' || c.is_whitespace()).filter(|t| !t.is_empty()))
    }
}

/// A game position: board, next disc, level, drops left in the level, score, and whether
/// the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The board.
    pub board: Board,
    /// The disc to be dropped next.
    pub next: Disc,
    /// The level, from 1.
    pub level: u32,
    /// Drops left before the level ends (at least 1 while the game runs; 0 only when a
    /// level ended the game).
    pub drops_left: u32,
    /// The score.
    pub score: u64,
    /// `true` once the game has ended.
    pub over: bool,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} next={} level={} drops={} score={}",
            self.board, self.next, self.level, self.drops_left, self.score
        )?;
        if self.over {
            f.write_str(" over")?;
        }
        Ok(())
    }
}

/// The highest level a position may start at. A game gains a level every 5 to 30 drops, so
/// no game reaches it, and a position's level plus a game's can never overflow its `u32`.
pub const MAX_LEVEL: u32 = 1_000_000;

/// The highest score a position may start at: `2^53 - 1`, the largest integer that every
/// JSON reader keeps exact. A turn scores at most a few million points, so a game's points
/// on top of it can never overflow its `u64`.
pub const MAX_SCORE: u64 = (1 << 53) - 1;

impl FromStr for Position {
    type Err = ParseError;

    /// Parses the text form. Rows may be separated by `/` or whitespace (so a multi-line
    /// paste works); fields are `next=`, `level=`, `drops=`, `score=` and the word `over`.
    fn from_str(s: &str) -> Result<Position, ParseError> {
        let mut rows = Vec::new();
        let (mut next, mut level, mut drops, mut score, mut over) = (None, None, None, None, false);
        for tok in s.split(|c: char| c == '/' || c.is_whitespace()).filter(|t| !t.is_empty()) {
            if tok == "over" {
                over = true;
            } else if let Some((k, v)) = tok.split_once('=') {
                let bad = || ParseError::BadField(tok.to_string());
                match k {
                    "next" => {
                        let mut chars = v.chars();
                        next = match (chars.next(), chars.next()) {
                            (Some(ch), None) => Some(Disc::from_char(ch).ok_or_else(bad)?),
                            _ => return Err(bad()),
                        }
                    }
                    "level" => {
                        let l = v.parse::<u32>().ok().filter(|&l| l >= 1).ok_or_else(bad)?;
                        if l > MAX_LEVEL {
                            return Err(ParseError::BadField(format!(
                                "{tok} (a level is at most {MAX_LEVEL})"
                            )));
                        }
                        level = Some(l)
                    }
                    "drops" => {
                        drops = Some(
                            v.parse::<u32>()
                                .ok()
                                .filter(|d| (0..=30).contains(d))
                                .ok_or_else(bad)?,
                        )
                    }
                    "score" => {
                        let n = v.parse::<u64>().map_err(|_| bad())?;
                        if n > MAX_SCORE {
                            return Err(ParseError::BadField(format!(
                                "{tok} (a score is at most {MAX_SCORE})"
                            )));
                        }
                        score = Some(n)
                    }
                    _ => return Err(bad()),
                }
            } else {
                rows.push(tok);
            }
        }
        let board = parse_rows(rows.into_iter())?;
        if drops == Some(0) && !over {
            return Err(ParseError::BadField(
                "drops=0 (only a finished game has no drops left)".into(),
            ));
        }
        Ok(Position {
            board,
            next: next.ok_or(ParseError::MissingField("next"))?,
            level: level.ok_or(ParseError::MissingField("level"))?,
            drops_left: drops.ok_or(ParseError::MissingField("drops"))?,
            score: score.ok_or(ParseError::MissingField("score"))?,
            over,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heights_and_drops() {
        let mut b = Board::EMPTY;
        assert_eq!(b.height(0), 0);
        for i in 0..7u8 {
            assert!(b.can_drop(0));
            b.drop_code(0, 1 + i % 7);
            assert_eq!(b.height(0), u32::from(i) + 1);
        }
        assert!(!b.can_drop(0));
        assert!(b.any_full());
        assert_eq!(b.open_columns(), 0b111_1110);
    }

    #[test]
    fn text_round_trip_and_errors() {
        let t = "......./......./..6..../..x..../..#4.../3#6#4#5/####### next=# level=3 drops=2 score=12345 over";
        let p: Position = t.parse().unwrap();
        assert_eq!(p.to_string(), t);
        assert_eq!(p.board.get(2, 3), CRACKED);
        let multi = t.replace('/', "\n");
        assert_eq!(multi.parse::<Position>().unwrap(), p);
        let floating = "......./......./..7..../......./......./......./....... next=1 level=1 drops=5 score=0";
        assert!(matches!(
            floating.parse::<Position>(),
            Err(ParseError::Board(BoardError::Floating { .. }))
        ));
        assert!(matches!("......./z".parse::<Board>(), Err(ParseError::RowCount(2))));
        let unstable = t.replace("3#6#4#5", "2#6#4#5");
        assert!(matches!(
            unstable.parse::<Position>(),
            Err(ParseError::Board(BoardError::Unstable { row: 1, col: 0 }))
        ));
        let bad = t.replace("next=#", "next=9");
        assert!(matches!(bad.parse::<Position>(), Err(ParseError::BadField(_))));
    }

    #[test]
    fn rise_shifts_up() {
        let mut b: Board =
            "......./......./......./......./......./......./2345662".parse().unwrap();
        b.rise();
        assert_eq!(b.to_string(), "......./......./......./......./......./2345662/#######");
        assert_eq!(b.gray_counts(), (7, 0));
        assert_eq!(b.disc_count(), 14);
    }
}
