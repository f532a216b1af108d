//! The field: a general board of up to 40 rows (one `u16` per row) with its text form, and
//! the packed PC zone (up to 6 rows in one `u64`).
//!
//! ```text
//! Board (general)                      Zone (PC fast path), one u64
//!   rows[y]: bit x = cell (x, y)         bit 10*y + x = cell (x, y), y < 6   (bits 0..60)
//!   bits 10..16 always zero              bits 60..64: free for the search state (hold, depth)
//! ```
//!
//! Text form: rows top first, `.` empty and any other character filled, exactly 10 characters
//! per row. `Display` writes `#` for filled cells and omits empty rows above the stack (an empty
//! board is one row of dots), so text -> board -> text round-trips.

use std::fmt;
use std::str::FromStr;

/// Field width.
pub const WIDTH: usize = 10;
/// Rows of a general board.
pub const MAX_ROWS: usize = 40;
/// A full row.
pub const FULL_ROW: u16 = (1 << WIDTH) - 1;
/// Rows the PC zone can hold.
pub const ZONE_ROWS: u32 = 6;

/// A general field: 10 wide, up to 40 rows, row 0 at the bottom.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    rows: [u16; MAX_ROWS],
}

impl Default for Board {
    fn default() -> Self {
        Board::EMPTY
    }
}

/// Why a field text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// A row is not 10 characters wide.
    Width {
        /// 1-based line of the text.
        line: usize,
        /// Its width.
        width: usize,
    },
    /// More than 40 rows.
    TooTall(usize),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Width { line, width } => {
                write!(f, "line {line}: a row must be {WIDTH} characters wide, this one is {width}")
            }
            BoardError::TooTall(n) => write!(f, "{n} rows: a field has at most {MAX_ROWS}"),
        }
    }
}

impl std::error::Error for BoardError {}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board { rows: [0; MAX_ROWS] };

    /// A board from rows, bottom first. Bits above 10 must be zero.
    pub fn from_rows(rows: &[u16]) -> Board {
        let mut b = Board::EMPTY;
        for (y, &r) in rows.iter().enumerate().take(MAX_ROWS) {
            debug_assert!(r <= FULL_ROW, "row {y} has bits beyond column 9");
            b.rows[y] = r & FULL_ROW;
        }
        b
    }

    /// Row `y` (bit x = column x).
    #[inline]
    pub fn row(&self, y: usize) -> u16 {
        self.rows.get(y).copied().unwrap_or(0)
    }

    /// All rows, bottom first.
    pub fn rows(&self) -> &[u16; MAX_ROWS] {
        &self.rows
    }

    /// Whether cell `(x, y)` is filled; cells outside the board read as filled, except above
    /// it (rows >= 40 read as empty).
    #[inline]
    pub fn filled(&self, x: i32, y: i32) -> bool {
        if !(0..WIDTH as i32).contains(&x) || y < 0 {
            return true;
        }
        self.row(y as usize) >> x & 1 == 1
    }

    /// Fills cell `(x, y)` (inside the board).
    pub fn set(&mut self, x: usize, y: usize) {
        debug_assert!(x < WIDTH && y < MAX_ROWS);
        self.rows[y] |= 1 << x;
    }

    /// Number of filled cells.
    pub fn count(&self) -> u32 {
        self.rows.iter().map(|r| r.count_ones()).sum()
    }

    /// Height of the stack: one more than the highest non-empty row (0 when empty).
    pub fn height(&self) -> usize {
        self.rows.iter().rposition(|&r| r != 0).map_or(0, |y| y + 1)
    }

    /// Whether no cell is filled.
    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&r| r == 0)
    }

    /// Removes full rows, moving the rows above down; returns how many were cleared.
    pub fn clear_lines(&mut self) -> u32 {
        let mut w = 0;
        let mut cleared = 0;
        for r in 0..MAX_ROWS {
            let row = self.rows[r];
            if row == FULL_ROW {
                cleared += 1;
            } else {
                self.rows[w] = row;
                w += 1;
            }
        }
        for r in w..MAX_ROWS {
            self.rows[r] = 0;
        }
        cleared
    }

    /// The bottom `rows` rows packed into a zone (`None` if a cell lies at or above `rows`, or
    /// `rows` exceeds [`ZONE_ROWS`]).
    pub fn to_zone(&self, rows: u32) -> Option<u64> {
        if rows > ZONE_ROWS || self.height() > rows as usize {
            return None;
        }
        let mut z = 0u64;
        for y in 0..rows as usize {
            z |= u64::from(self.rows[y]) << (10 * y);
        }
        Some(z)
    }

    /// The board holding a zone's cells.
    pub fn from_zone(zone: u64) -> Board {
        let mut b = Board::EMPTY;
        for y in 0..ZONE_ROWS as usize {
            b.rows[y] = (zone >> (10 * y)) as u16 & FULL_ROW;
        }
        b
    }
}

impl FromStr for Board {
    type Err = BoardError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lines: Vec<(usize, &str)> = s
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim_end()))
            .filter(|(_, l)| !l.is_empty())
            .collect();
        if lines.len() > MAX_ROWS {
            return Err(BoardError::TooTall(lines.len()));
        }
        let mut b = Board::EMPTY;
        for (y, (line, text)) in lines.iter().rev().enumerate() {
            let width = text.chars().count();
            if width != WIDTH {
                return Err(BoardError::Width { line: *line, width });
            }
            for (x, c) in text.chars().enumerate() {
                if c != '.' {
                    b.set(x, y);
                }
            }
        }
        Ok(b)
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = self.height().max(1);
        for y in (0..h).rev() {
            let line: String =
                (0..WIDTH).map(|x| if self.rows[y] >> x & 1 == 1 { '#' } else { '.' }).collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board(\n{self})")
    }
}

/// Mask of the bottom `rows` rows of a zone.
#[inline]
pub const fn zone_mask(rows: u32) -> u64 {
    (1u64 << (10 * rows)) - 1
}

/// Removes the full rows among the bottom `rows` rows of a zone; returns the new zone and the
/// number of rows cleared.
///
/// Full rows are found bit-parallel: after `t = z & z >> 1; t &= t >> 2; t &= t >> 4`, bit
/// `10 * y` of `t & z >> 8 & z >> 9` is the AND of row `y`'s ten bits (the shifts read across
/// rows only at bits that are masked off).
#[inline]
pub fn zone_clear(zone: u64, rows: u32) -> (u64, u32) {
    const COL0: u64 = 1 | 1 << 10 | 1 << 20 | 1 << 30 | 1 << 40 | 1 << 50;
    let mut t = zone & zone >> 1;
    t &= t >> 2;
    t &= t >> 4;
    let full = t & zone >> 8 & zone >> 9 & COL0 & zone_mask(rows);
    if full == 0 {
        return (zone, 0);
    }
    let keep = zone_mask(rows) & !(full * 0x3FF);
    (bits::pext_u64(zone, keep), full.count_ones())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bits::Rng;

    #[test]
    fn text_round_trips() {
        let text = "#.........\n##..######\n";
        let b: Board = text.parse().unwrap();
        assert_eq!(b.to_string(), text);
        assert_eq!(b.count(), 9);
        assert_eq!(b.height(), 2);
        assert_eq!(Board::EMPTY.to_string().parse::<Board>().unwrap(), Board::EMPTY);
        let mut rng = Rng::new(4);
        for _ in 0..200 {
            let rows: Vec<u16> = (0..rng.below(41)).map(|_| rng.below(1024) as u16).collect();
            let b = Board::from_rows(&rows);
            assert_eq!(b.to_string().parse::<Board>().unwrap(), b);
        }
    }

    #[test]
    fn bad_text_names_the_line() {
        let e = "..........\n...........\n".parse::<Board>().unwrap_err();
        assert_eq!(e, BoardError::Width { line: 2, width: 11 });
        assert!(e.to_string().contains("line 2"));
        assert_eq!("xxxxxxxxxx".parse::<Board>().unwrap().count(), 10);
    }

    #[test]
    fn zone_clear_matches_board_clear() {
        let mut rng = Rng::new(8);
        for _ in 0..2_000 {
            let rows: Vec<u16> = (0..6)
                .map(|_| if rng.chance(1, 3) { FULL_ROW } else { rng.below(1024) as u16 })
                .collect();
            let mut b = Board::from_rows(&rows);
            let z = b.to_zone(6).unwrap();
            let (z2, n) = zone_clear(z, 6);
            assert_eq!(b.clear_lines(), n);
            assert_eq!(Board::from_zone(z2), b);
        }
    }
}
