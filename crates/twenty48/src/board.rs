//! The packed board: one `u64`, sixteen nibbles, and its text form.
//!
//! # Implementation notes
//!
//! ```text
//!   cell (r, c) lives in nibble 4r + c, value = log2(tile), 0 = empty
//!
//!   bits 63..48   row 3:  [ (3,3) (3,2) (3,1) (3,0) ]
//!   bits 47..32   row 2:  [ (2,3) (2,2) (2,1) (2,0) ]
//!   bits 31..16   row 1:  [ (1,3) (1,2) (1,1) (1,0) ]
//!   bits 15..0    row 0:  [ (0,3) (0,2) (0,1) (0,0) ]   <- top row, column 0 = lowest nibble
//! ```
//!
//! Left and right are four lookups each in the 65,536-entry row tables of [`crate::tables`].
//! Up and down transpose the board once (a two-step nibble-block swap) and look each column
//! up in the column table [`crate::tables::UP_DOWN_COLS`], whose entries hold both results
//! already spread back into board position, so no transpose back is needed and four lookups
//! serve both moves.
//! [`Board::shift_all`] makes all four moves of a board in one call and shares the transpose
//! between up and down; it is what the search and the random playouts use. The board is its own hash key (8 bytes, every bit meaningful, no padding).
//! The largest tile a nibble holds is 32768 (15); a move that would create 65536 is reported as
//! [`MoveError::Overflow`], never applied.

use std::fmt;
use std::str::FromStr;

use crate::tables::{
    entry_row, entry_score, LEFT, LEFT_ROWS, OVERFLOW, RIGHT, RIGHT_ROWS, UP_DOWN_COLS,
};

/// A move direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Towards row 0.
    Up,
    /// Towards row 3.
    Down,
    /// Towards column 0.
    Left,
    /// Towards column 3.
    Right,
}

impl Dir {
    /// The four directions in the order the search and the random player try them.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The one-letter name used in records: `U`, `D`, `L`, `R`.
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }

    /// Parses a one-letter name (either case).
    pub fn from_letter(c: char) -> Option<Dir> {
        match c.to_ascii_uppercase() {
            'U' => Some(Dir::Up),
            'D' => Some(Dir::Down),
            'L' => Some(Dir::Left),
            'R' => Some(Dir::Right),
            _ => None,
        }
    }

    /// Index of the direction in [`Dir::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl std::str::FromStr for Dir {
    type Err = String;

    /// A one-letter name, either case.
    fn from_str(s: &str) -> Result<Dir, String> {
        let mut cs = s.chars();
        match (cs.next().and_then(Dir::from_letter), cs.next()) {
            (Some(d), None) => Ok(d),
            _ => Err("is not one of U, D, L, R".into()),
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Why a move could not be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The move changes nothing, so the rules forbid it.
    Illegal,
    /// The move would merge two 32768 tiles into a 65536, which the board cannot hold. A game
    /// that reaches this point ends with [`crate::Status::Overflow`].
    Overflow,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Illegal => write!(f, "the move changes nothing"),
            MoveError::Overflow => write!(f, "the move would create a 65536 tile"),
        }
    }
}

impl std::error::Error for MoveError {}

/// The result of a move before any spawn: the new board and the score it gained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moved {
    /// The board after sliding and merging.
    pub board: Board,
    /// The sum of the tiles created by merges.
    pub score: u32,
}

/// The four moves of a board, from [`Board::shift_all`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shifts {
    /// The boards after up, down, left and right ([`Dir::ALL`] order); a board equal to the
    /// original means the move is illegal.
    pub boards: [Board; 4],
    /// Bit `i` is set when move `Dir::ALL[i]` would create a 65536 (then `boards[i]` is not
    /// meaningful).
    pub overflow: u8,
}

/// A 2048 board: sixteen nibbles, each the log2 of its tile (0 = empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Board(pub u64);

const ROW_MASK: u64 = 0xFFFF;

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board(0);

    /// The board with cell `(r, c)` set to rank `rank` (log2 of the tile; 0 clears it).
    #[inline]
    pub fn with(self, cell: usize, rank: u8) -> Board {
        debug_assert!(cell < 16 && rank < 16);
        let shift = 4 * cell;
        Board((self.0 & !(0xF << shift)) | u64::from(rank) << shift)
    }

    /// The rank (log2 of the tile, 0 = empty) in cell `cell` = `4 * row + col`.
    #[inline]
    pub fn rank(self, cell: usize) -> u8 {
        ((self.0 >> (4 * cell)) & 0xF) as u8
    }

    /// Row `r` as a 16-bit row (column 0 in the low nibble).
    #[inline]
    pub fn row(self, r: usize) -> u16 {
        (self.0 >> (16 * r)) as u16
    }

    /// The board mirrored across its main diagonal: cell (r, c) goes to (c, r).
    #[inline]
    pub fn transpose(self) -> Board {
        let x = self.0;
        // Swap the 1x1 nibble blocks inside every 2x2 block, then the 2x2 blocks.
        let a1 = x & 0xF0F0_0F0F_F0F0_0F0F;
        let a2 = x & 0x0000_F0F0_0000_F0F0;
        let a3 = x & 0x0F0F_0000_0F0F_0000;
        let a = a1 | (a2 << 12) | (a3 >> 12);
        let b1 = a & 0xFF00_FF00_00FF_00FF;
        let b2 = a & 0x00FF_00FF_0000_0000;
        let b3 = a & 0x0000_0000_FF00_FF00;
        Board(b1 | (b2 >> 24) | (b3 << 24))
    }

    #[inline(always)]
    fn rows_through(self, table: &[u32; 65536]) -> (u64, u32) {
        let x = self.0;
        let e0 = table[(x & ROW_MASK) as usize];
        let e1 = table[((x >> 16) & ROW_MASK) as usize];
        let e2 = table[((x >> 32) & ROW_MASK) as usize];
        let e3 = table[(x >> 48) as usize];
        let board = u64::from(entry_row(e0))
            | u64::from(entry_row(e1)) << 16
            | u64::from(entry_row(e2)) << 32
            | u64::from(entry_row(e3)) << 48;
        let score = entry_score(e0) + entry_score(e1) + entry_score(e2) + entry_score(e3);
        (board, score | ((e0 | e1 | e2 | e3) & OVERFLOW))
    }

    /// Slides the board in `dir` without checking anything: returns the new board and a word
    /// whose low 31 bits are the score gained and whose bit 31 is set when the move would
    /// create a 65536 (then the board is not meaningful). A move is legal exactly when the
    /// flag is clear and the board changed. This is the search's move generator.
    #[inline(always)]
    pub fn slide(self, dir: Dir) -> (Board, u32) {
        match dir {
            Dir::Left => {
                let (b, s) = self.rows_through(&LEFT);
                (Board(b), s)
            }
            Dir::Right => {
                let (b, s) = self.rows_through(&RIGHT);
                (Board(b), s)
            }
            Dir::Up => {
                let (b, s) = self.transpose().rows_through(&LEFT);
                (Board(b).transpose(), s)
            }
            Dir::Down => {
                let (b, s) = self.transpose().rows_through(&RIGHT);
                (Board(b).transpose(), s)
            }
        }
    }

    #[inline(always)]
    fn rows_only(self, table: &[u16; 65536]) -> u64 {
        let x = self.0;
        u64::from(table[(x & ROW_MASK) as usize])
            | u64::from(table[((x >> 16) & ROW_MASK) as usize]) << 16
            | u64::from(table[((x >> 32) & ROW_MASK) as usize]) << 32
            | u64::from(table[(x >> 48) as usize]) << 48
    }

    /// Whether the board holds two or more 32768 tiles (the only boards where a move can
    /// overflow).
    #[inline(always)]
    pub fn has_two_32768(self) -> bool {
        let x = self.0;
        let fifteen = x & (x >> 1) & (x >> 2) & (x >> 3) & 0x1111_1111_1111_1111;
        fifteen & fifteen.wrapping_sub(1) != 0
    }

    /// The board after sliding in `dir`, without the score: one move of the move generator.
    /// The flag is `true` when the move would create a 65536 (then the board is not
    /// meaningful). Reads the 128 KiB row-only tables (left, right) or one transpose and the
    /// column table (up, down); boards with two 32768 tiles take the full path of
    /// [`Board::slide`].
    #[inline(always)]
    pub fn shift(self, dir: Dir) -> (Board, bool) {
        if self.has_two_32768() {
            let (b, s) = self.slide(dir);
            return (b, s & OVERFLOW != 0);
        }
        let b = match dir {
            Dir::Left => self.rows_only(&LEFT_ROWS),
            Dir::Right => self.rows_only(&RIGHT_ROWS),
            Dir::Up => self.up_down().0,
            Dir::Down => self.up_down().1,
        };
        (Board(b), false)
    }

    /// Column `c` read as a row (its row-`r` cell in nibble `r`): one PEXT, the same as row
    /// `c` of [`Board::transpose`].
    #[inline(always)]
    pub fn column(self, c: usize) -> u16 {
        bits::pext_u64(self.0, 0x000F_000F_000F_000F << (4 * c)) as u16
    }

    /// Up and down: the four columns gathered by PEXT, four lookups in [`UP_DOWN_COLS`].
    #[inline(always)]
    fn up_down(self) -> (u64, u64) {
        const LO: u64 = 0x00FF_00FF_00FF_00FF;
        // Lane nibbles: w01 = [down c1, down c0, up c1, up c0], w23 the same for c3, c2.
        let w01 = UP_DOWN_COLS[usize::from(self.column(0))]
            | UP_DOWN_COLS[usize::from(self.column(1))] << 4;
        let w23 = UP_DOWN_COLS[usize::from(self.column(2))]
            | UP_DOWN_COLS[usize::from(self.column(3))] << 4;
        ((w01 & LO) | (w23 & LO) << 8, (w01 >> 8 & LO) | (w23 & !LO))
    }

    /// [`Board::shift`] by the older path: up and down transpose, use the row tables and
    /// transpose back. Kept so `bitarcade 2048 bench` can time it beside the column tables.
    #[inline(always)]
    pub fn shift_by_transpose(self, dir: Dir) -> (Board, bool) {
        if self.has_two_32768() {
            let (b, s) = self.slide(dir);
            return (b, s & OVERFLOW != 0);
        }
        let b = match dir {
            Dir::Left => self.rows_only(&LEFT_ROWS),
            Dir::Right => self.rows_only(&RIGHT_ROWS),
            Dir::Up => Board(self.transpose().rows_only(&LEFT_ROWS)).transpose().0,
            Dir::Down => Board(self.transpose().rows_only(&RIGHT_ROWS)).transpose().0,
        };
        (Board(b), false)
    }

    /// All four moves of the board at once, in [`Dir::ALL`] order: the search's move
    /// generator. One overflow check and one transpose serve the four moves.
    #[inline(always)]
    pub fn shift_all(self) -> Shifts {
        if self.has_two_32768() {
            let mut boards = [self; 4];
            let mut overflow = 0u8;
            for (i, d) in Dir::ALL.into_iter().enumerate() {
                let (b, s) = self.slide(d);
                boards[i] = b;
                overflow |= u8::from(s & OVERFLOW != 0) << i;
            }
            return Shifts { boards, overflow };
        }
        let (up, down) = self.up_down();
        Shifts {
            boards: [
                Board(up),
                Board(down),
                Board(self.rows_only(&LEFT_ROWS)),
                Board(self.rows_only(&RIGHT_ROWS)),
            ],
            overflow: 0,
        }
    }

    /// Plays `dir` (no spawn): the new board and the score gained, or why it cannot be played.
    #[inline]
    pub fn play(self, dir: Dir) -> Result<Moved, MoveError> {
        let (board, s) = self.slide(dir);
        if s & OVERFLOW != 0 {
            Err(MoveError::Overflow)
        } else if board == self {
            Err(MoveError::Illegal)
        } else {
            Ok(Moved { board, score: s })
        }
    }

    /// Whether any move is legal (an overflow move counts: playing it ends the game with
    /// [`crate::Status::Overflow`]).
    pub fn can_move(self) -> bool {
        Dir::ALL.iter().any(|&d| self.play(d) != Err(MoveError::Illegal))
    }

    /// The number of empty cells.
    #[inline]
    pub fn empty_count(self) -> u32 {
        self.empty_mask().count_ones()
    }

    /// One bit per empty cell, at the lowest bit of its nibble (bit `4 * cell`).
    #[inline]
    pub fn empty_mask(self) -> u64 {
        let mut x = self.0;
        x |= x >> 2;
        x |= x >> 1;
        !x & 0x1111_1111_1111_1111
    }

    /// The highest rank on the board (0 for the empty board).
    pub fn max_rank(self) -> u8 {
        (0..16).map(|c| self.rank(c)).max().unwrap_or(0)
    }

    /// The number of tiles of rank `rank` or more (`2^rank` and larger).
    pub fn count_at_least(self, rank: u8) -> u32 {
        (0..16).filter(|&c| self.rank(c) >= rank).count() as u32
    }

    /// The number of distinct non-empty ranks on the board.
    pub fn distinct_ranks(self) -> u32 {
        let mut seen = 0u16;
        let mut x = self.0;
        while x != 0 {
            seen |= 1 << (x & 0xF);
            x >>= 4;
        }
        (seen & !1).count_ones()
    }

    /// The sum of the tile values on the board.
    pub fn tile_sum(self) -> u64 {
        (0..16).map(|c| self.rank(c)).filter(|&r| r != 0).map(|r| 1u64 << r).sum()
    }

    /// The board with a tile of rank `rank` (1 = 2, 2 = 4) spawned on the `k`-th empty cell,
    /// counting empty cells in cell order 0..16. `k` must be below [`Board::empty_count`].
    #[inline]
    pub fn spawn_at_empty(self, k: u32, rank: u8) -> (Board, usize) {
        // PDEP deposits bit k onto the k-th set bit of the empty mask.
        let bit = bits::pdep_u64(1u64 << k, self.empty_mask());
        debug_assert!(bit != 0, "spawn index past the empty cells");
        let cell = (bit.trailing_zeros() / 4) as usize;
        (self.with(cell, rank), cell)
    }

    /// The cells, row by row, as ranks.
    pub fn to_ranks(self) -> [[u8; 4]; 4] {
        let mut g = [[0u8; 4]; 4];
        for (r, row) in g.iter_mut().enumerate() {
            for (c, v) in row.iter_mut().enumerate() {
                *v = self.rank(4 * r + c);
            }
        }
        g
    }

    /// The board holding these ranks, row by row (each rank must be below 16).
    pub fn from_ranks(g: [[u8; 4]; 4]) -> Board {
        let mut b = Board::EMPTY;
        for (r, row) in g.iter().enumerate() {
            for (c, &v) in row.iter().enumerate() {
                b = b.with(4 * r + c, v);
            }
        }
        b
    }
}

/// Why a board's text form could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseBoardError {
    /// The text does not have four rows.
    RowCount(usize),
    /// Row `row` (0-based) does not have four cells.
    CellCount {
        /// The row.
        row: usize,
        /// How many cells it has.
        found: usize,
    },
    /// A cell is not `.`, `0` or a power of two from 2 to `max`.
    BadTile {
        /// The row.
        row: usize,
        /// The column.
        col: usize,
        /// The text found.
        text: String,
        /// The largest tile the form being read holds (32768 for a [`Board`]).
        max: u32,
    },
}

impl fmt::Display for ParseBoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseBoardError::RowCount(n) => write!(f, "expected 4 rows, found {n}"),
            ParseBoardError::CellCount { row, found } => {
                write!(f, "row {}: expected 4 cells, found {found}", row + 1)
            }
            ParseBoardError::BadTile { row, col, text, max } => write!(
                f,
                "row {}, column {}: {text:?} is not a tile (use . or a power of two from 2 to \
                 {max})",
                row + 1,
                col + 1
            ),
        }
    }
}

impl std::error::Error for ParseBoardError {}

/// Reads the cells of the text form (see [`Board`]'s `FromStr`), each rank at most `max_rank`.
pub(crate) fn parse_ranks(s: &str, max_rank: u8) -> Result<[u8; 16], ParseBoardError> {
    let rows: Vec<&str> = s.split(['/', '\n']).map(str::trim).filter(|r| !r.is_empty()).collect();
    if rows.len() != 4 {
        return Err(ParseBoardError::RowCount(rows.len()));
    }
    let max = 1u32 << max_rank;
    let mut ranks = [0u8; 16];
    for (r, line) in rows.iter().enumerate() {
        let cells: Vec<&str> = line.split_whitespace().collect();
        if cells.len() != 4 {
            return Err(ParseBoardError::CellCount { row: r, found: cells.len() });
        }
        for (c, text) in cells.iter().enumerate() {
            ranks[4 * r + c] = match *text {
                "." | "0" => 0,
                t => match t.parse::<u32>() {
                    Ok(v) if (2..=max).contains(&v) && v.is_power_of_two() => {
                        v.trailing_zeros() as u8
                    }
                    _ => {
                        return Err(ParseBoardError::BadTile {
                            row: r,
                            col: c,
                            text: t.to_string(),
                            max,
                        })
                    }
                },
            };
        }
    }
    Ok(ranks)
}

/// Reads the text form: four rows separated by `/` or newlines, four cells per row separated
/// by spaces, each `.` (or `0`) or a tile value. `"2 . . 4/. . . ./. . . ./. . . 2"`.
/// Tiles above 32768 are refused; [`crate::Wide`] reads them.
impl FromStr for Board {
    type Err = ParseBoardError;

    fn from_str(s: &str) -> Result<Board, ParseBoardError> {
        let ranks = parse_ranks(s, 15)?;
        Ok(ranks.iter().enumerate().fold(Board::EMPTY, |b, (c, &r)| b.with(c, r)))
    }
}

/// Writes the one-line text form (`{}`), or four lines with aligned columns (`{:#}`), as
/// [`crate::Wide`] does.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&crate::Wide::from_board(*self), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trip() {
        let s = "2 . . 4/. 32768 . ./. . 1024 ./8 8 8 8";
        let b: Board = s.parse().unwrap();
        assert_eq!(b.to_string(), s);
        assert_eq!(b.rank(5), 15);
        let pretty = format!("{b:#}");
        assert_eq!(pretty.parse::<Board>().unwrap(), b);
    }

    #[test]
    fn text_errors_name_the_place() {
        assert_eq!(". . . ./. . . .".parse::<Board>(), Err(ParseBoardError::RowCount(2)));
        let e = ". . . ./. . 3 ./. . . ./. . . .".parse::<Board>().unwrap_err();
        assert_eq!(e.to_string().split(':').next(), Some("row 2, column 3"));
        assert!(". . . ./. . 65536 ./. . . ./. . . .".parse::<Board>().is_err());
        assert!(". . ./. . . ./. . . ./. . . .".parse::<Board>().is_err());
    }

    #[test]
    fn transpose_moves_cells() {
        let mut x = 0x1234_5678_9ABC_DEF0u64;
        for _ in 0..100 {
            x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17) ^ 0x5555;
            let b = Board(x);
            let t = b.transpose();
            for r in 0..4 {
                for c in 0..4 {
                    assert_eq!(t.rank(4 * c + r), b.rank(4 * r + c));
                }
            }
            assert_eq!(t.transpose(), b);
            // PEXT column gathering is the transpose's rows.
            for c in 0..4 {
                assert_eq!(b.column(c), t.row(c));
            }
        }
    }

    #[test]
    fn the_65536_edge() {
        let b: Board = "32768 32768 . ./. . . ./. . . ./. . . 2".parse().unwrap();
        assert_eq!(b.play(Dir::Left), Err(MoveError::Overflow));
        assert_eq!(b.play(Dir::Right), Err(MoveError::Overflow));
        // Up and down do not merge them and stay legal.
        assert!(b.play(Dir::Down).is_ok());
        // A column overflow through the transpose path.
        let b: Board = "32768 . . ./32768 . . ./. . . ./. . . .".parse().unwrap();
        assert_eq!(b.play(Dir::Up), Err(MoveError::Overflow));
        assert_eq!(b.play(Dir::Down), Err(MoveError::Overflow));
        assert!(b.can_move());
        // 16384 + 16384 next to a 32768 is fine and makes a second 32768.
        let b: Board = "16384 16384 32768 ./. . . ./. . . ./. . . .".parse().unwrap();
        let m = b.play(Dir::Left).unwrap();
        assert_eq!(m.board.to_string(), "32768 32768 . ./. . . ./. . . ./. . . .");
        assert_eq!(m.score, 32768);
        // A full board with only an overflow move left: the game is not over by "no move".
        let b: Board = "32768 32768 2 4/4 2 4 2/2 4 2 4/4 2 4 2".parse().unwrap();
        assert_eq!(b.play(Dir::Left), Err(MoveError::Overflow));
        assert_eq!(b.play(Dir::Up), Err(MoveError::Illegal));
        assert!(b.can_move());
    }

    #[test]
    fn empties_and_spawns() {
        let b: Board = "2 . . 4/. . . ./. . . ./. . . 2".parse().unwrap();
        assert_eq!(b.empty_count(), 13);
        let (b2, cell) = b.spawn_at_empty(0, 1);
        assert_eq!(cell, 1);
        assert_eq!(b2.rank(1), 1);
        let (_, cell) = b.spawn_at_empty(12, 2);
        assert_eq!(cell, 14);
        assert_eq!(b.distinct_ranks(), 2);
        assert_eq!(b.max_rank(), 2);
    }
}
