//! The packed SameGame board and its text forms.
//!
//! # Layout
//! ```text
//!   column x (one `Col`, 16 bytes)          board (columns 0..width, left to right)
//!   bit 31 ..................... bit 0       +----+----+----+-- ... --+----+
//!   occ:    0..0 1 1 1 1 1 1 1 1 1 1         | c0 | c1 | c2 |         |c63 |
//!   plane0: colour bit 0 of each cell        +----+----+----+-- ... --+----+
//!   plane1: colour bit 1                     live columns are a prefix; the rest are zero
//!   plane2: colour bit 2
//!   bit y = row y counted from the bottom; occupied cells are the low `height` bits of occ
//! ```
//! A colour `c` in `0..8` is the 3-bit number spelled by the planes; empty cells have all
//! plane bits zero (checked by `debug_assert!` in [`Board::check`]). Gravity is a PEXT of
//! each plane by the surviving cells; an emptied column is closed by shifting the columns to
//! its right one place left. The whole board is `64 * 16 + 8` bytes; only the live prefix is
//! compared and hashed.

use std::fmt;
use std::str::FromStr;

/// Most rows a board can have (a column is a `u32`).
pub const MAX_HEIGHT: usize = 32;
/// Most columns a board can have.
pub const MAX_WIDTH: usize = 64;
/// Most colours (three bitplanes).
pub const MAX_COLORS: usize = 8;

/// One column: three colour bitplanes and the occupancy mask (the low `height` bits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Col {
    /// Colour bit `k` of every cell, bit `y` = row `y` from the bottom.
    pub planes: [u32; 3],
    /// Occupied cells: always the low `height` bits.
    pub occ: u32,
}

impl Col {
    /// Number of tiles in the column.
    #[inline]
    pub fn height(&self) -> u32 {
        self.occ.count_ones()
    }

    /// The colour of row `y` (which must be occupied).
    #[inline]
    pub fn color(&self, y: u32) -> u8 {
        ((self.planes[0] >> y & 1)
            | (self.planes[1] >> y & 1) << 1
            | (self.planes[2] >> y & 1) << 2) as u8
    }

    /// The cells of colour `c`.
    #[inline]
    pub fn mask_of(&self, c: u8) -> u32 {
        // Plane k as is where bit k of `c` is set, inverted where it is clear (no branch).
        let pick = |k: usize| self.planes[k] ^ u32::from(c >> k & 1 == 0).wrapping_neg();
        self.occ & pick(0) & pick(1) & pick(2)
    }

    /// Cells whose colour equals the colour of the cell directly below (both occupied).
    #[inline]
    pub fn same_as_below(&self) -> u32 {
        let diff = (self.planes[0] ^ (self.planes[0] << 1))
            | (self.planes[1] ^ (self.planes[1] << 1))
            | (self.planes[2] ^ (self.planes[2] << 1));
        self.occ & (self.occ << 1) & !diff
    }

    /// Cells whose colour equals the colour of the same row in `other` (both occupied).
    #[inline]
    pub fn same_as(&self, other: &Col) -> u32 {
        let diff = (self.planes[0] ^ other.planes[0])
            | (self.planes[1] ^ other.planes[1])
            | (self.planes[2] ^ other.planes[2]);
        self.occ & other.occ & !diff
    }

    /// Removes the cells in `gone` and lets the rest fall (PEXT of each plane).
    #[inline]
    pub fn remove(&mut self, gone: u32) {
        let keep = self.occ & !gone;
        for p in &mut self.planes {
            *p = bits::pext_u32(*p, keep);
        }
        self.occ = bits::mask::low_u32(keep.count_ones());
    }
}

/// [`Board::remove_masks`] on a board's live columns `cols`: removes the cells `gone[x - x_lo]`
/// of columns `x_lo..`, closes emptied columns and clears the columns freed at the end.
/// Returns the number of columns still live.
#[inline]
pub(crate) fn remove_from_cols(cols: &mut [Col], x_lo: usize, gone: &[u32]) -> usize {
    let mut emptied = false;
    for (col, &g) in cols[x_lo..].iter_mut().zip(gone) {
        if g != 0 {
            debug_assert!(g & !col.occ == 0);
            col.remove(g);
            emptied |= col.occ == 0;
        }
    }
    if !emptied {
        return cols.len();
    }
    let mut w = x_lo;
    for r in x_lo..cols.len() {
        if cols[r].occ != 0 {
            cols[w] = cols[r];
            w += 1;
        }
    }
    cols[w..].fill(Col::default());
    w
}

/// A SameGame position: up to 32 rows, 64 columns and 8 colours.
pub struct Board {
    cols: [Col; MAX_WIDTH],
    /// Non-empty columns (a prefix of `cols`).
    live: u8,
    /// The board's size as given (the text form keeps it).
    width: u8,
    height: u8,
}

impl Clone for Board {
    fn clone(&self) -> Self {
        Board { cols: self.cols, live: self.live, width: self.width, height: self.height }
    }

    /// Copies only the columns either board uses: the columns past `live` are always empty,
    /// so the source's empty columns overwrite whatever the target held there. The search
    /// plays every child on one scratch board this way instead of copying 1 KiB per child.
    #[inline]
    fn clone_from(&mut self, src: &Self) {
        let n = usize::from(self.live.max(src.live));
        self.cols[..n].copy_from_slice(&src.cols[..n]);
        self.live = src.live;
        self.width = src.width;
        self.height = src.height;
    }
}

/// What is wrong with a board description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// No rows at all.
    Empty,
    /// More rows than [`MAX_HEIGHT`].
    TooTall(usize),
    /// More columns than [`MAX_WIDTH`].
    TooWide(usize),
    /// A row whose length differs from the first row's.
    Ragged {
        /// 1-based line of the row in the text.
        line: usize,
        /// Its length.
        len: usize,
        /// The first row's length.
        want: usize,
    },
    /// A character that is not `0`-`7` or `.`.
    BadCell {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// The character.
        ch: char,
    },
    /// A tile with an empty cell below it (tiles must rest on the bottom or on a tile).
    Floating {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
    },
    /// An empty column with tiles to its right (columns must be packed to the left).
    GapColumn {
        /// 0-based column index from the left.
        x: usize,
    },
    /// A malformed binary (BGF2) file.
    Bgf(String),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Empty => write!(f, "the board has no rows"),
            BoardError::TooTall(h) => write!(f, "{h} rows: at most {MAX_HEIGHT} are supported"),
            BoardError::TooWide(w) => write!(f, "{w} columns: at most {MAX_WIDTH} are supported"),
            BoardError::Ragged { line, len, want } => {
                write!(f, "line {line}: row has {len} cells, the first row has {want}")
            }
            BoardError::BadCell { line, col, ch } => {
                write!(f, "line {line}, column {col}: {ch:?} is not a colour 0-7 or '.'")
            }
            BoardError::Floating { line, col } => {
                write!(f, "line {line}, column {col}: tile floats above an empty cell")
            }
            BoardError::GapColumn { x } => {
                write!(f, "column {x} is empty but has tiles to its right")
            }
            BoardError::Bgf(m) => write!(f, "BGF2: {m}"),
        }
    }
}

impl std::error::Error for BoardError {}

/// An unchecked grid: `cells[y][x]`, `y` from the TOP (as in the text), `None` = empty.
/// [`Board::try_from`] checks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Rows, top row first; every row has the same length.
    pub rows: Vec<Vec<Option<u8>>>,
    /// Line number (1-based) of each row in the source text, for error messages.
    pub lines: Vec<usize>,
}

impl TryFrom<&Setup> for Board {
    type Error = BoardError;

    fn try_from(s: &Setup) -> Result<Board, BoardError> {
        let h = s.rows.len();
        if h == 0 {
            return Err(BoardError::Empty);
        }
        if h > MAX_HEIGHT {
            return Err(BoardError::TooTall(h));
        }
        let w = s.rows[0].len();
        if w == 0 {
            return Err(BoardError::Empty);
        }
        if w > MAX_WIDTH {
            return Err(BoardError::TooWide(w));
        }
        let line = |i: usize| s.lines.get(i).copied().unwrap_or(i + 1);
        for (i, r) in s.rows.iter().enumerate() {
            if r.len() != w {
                return Err(BoardError::Ragged { line: line(i), len: r.len(), want: w });
            }
        }
        let mut b = Board::empty(w, h);
        let mut seen_empty_col = None;
        for x in 0..w {
            let mut col = Col::default();
            for y in 0..h {
                // y from the bottom: text row h-1-y.
                let cell = s.rows[h - 1 - y][x];
                if let Some(c) = cell {
                    debug_assert!(c < 8);
                    if y as u32 != col.height() {
                        return Err(BoardError::Floating { line: line(h - 1 - y), col: x + 1 });
                    }
                    for k in 0..3 {
                        col.planes[k] |= u32::from(c >> k & 1) << y;
                    }
                    col.occ |= 1 << y;
                }
            }
            if col.occ == 0 {
                seen_empty_col.get_or_insert(x);
            } else {
                if let Some(gx) = seen_empty_col {
                    return Err(BoardError::GapColumn { x: gx });
                }
                b.cols[x] = col;
                b.live += 1;
            }
        }
        b.check();
        Ok(b)
    }
}

impl FromStr for Setup {
    type Err = BoardError;

    /// Reads one board: rows top first, `0`-`7` a colour, `.` empty; lines starting with `#`
    /// and blank lines are skipped.
    fn from_str(text: &str) -> Result<Setup, BoardError> {
        let mut rows = Vec::new();
        let mut lines = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let t = raw.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let mut row = Vec::with_capacity(t.len());
            for (j, ch) in t.chars().enumerate() {
                row.push(match ch {
                    '.' => None,
                    '0'..='7' => Some(ch as u8 - b'0'),
                    _ => return Err(BoardError::BadCell { line: i + 1, col: j + 1, ch }),
                });
                if row.len() > MAX_WIDTH {
                    return Err(BoardError::TooWide(t.chars().count()));
                }
            }
            rows.push(row);
            lines.push(i + 1);
            if rows.len() > MAX_HEIGHT {
                return Err(BoardError::TooTall(
                    text.lines().filter(|l| !l.trim().is_empty()).count(),
                ));
            }
        }
        Ok(Setup { rows, lines })
    }
}

impl FromStr for Board {
    type Err = BoardError;

    fn from_str(text: &str) -> Result<Board, BoardError> {
        Board::try_from(&text.parse::<Setup>()?)
    }
}

impl fmt::Display for Board {
    /// One row per line, top row first; digits for colours, `.` for empty cells.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for ty in 0..self.height as usize {
            let y = self.height as u32 - 1 - ty as u32;
            for x in 0..self.width as usize {
                match self.cell(x, y) {
                    Some(c) => write!(f, "{c}")?,
                    None => f.write_str(".")?,
                }
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board(\n{self})")
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.width == other.width
            && self.height == other.height
            && self.live == other.live
            && self.cols[..self.live as usize] == other.cols[..other.live as usize]
    }
}
impl Eq for Board {}

/// Reads every board of a multi-board text (boards separated by blank lines; `#` comments).
/// Returns each board with the 1-based line where it starts.
pub fn parse_many(text: &str) -> Result<Vec<(usize, Board)>, (usize, BoardError)> {
    let mut out = Vec::new();
    let mut block = String::new();
    let mut start = 0;
    let mut offset = 0;
    let flush = |block: &mut String, start: usize, offset: usize, out: &mut Vec<(usize, Board)>| {
        if block.is_empty() {
            return Ok(());
        }
        let mut setup: Setup = block.parse().map_err(|e| (start, shift_lines(e, offset)))?;
        for l in &mut setup.lines {
            *l += offset;
        }
        let b = Board::try_from(&setup).map_err(|e| (start, e))?;
        out.push((start, b));
        block.clear();
        Ok(())
    };
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            flush(&mut block, start, offset, &mut out)?;
            continue;
        }
        if t.starts_with('#') {
            continue;
        }
        if block.is_empty() {
            start = i + 1;
            offset = i;
        }
        block.push_str(t);
        block.push('\n');
    }
    flush(&mut block, start, offset, &mut out)?;
    Ok(out)
}

fn shift_lines(e: BoardError, offset: usize) -> BoardError {
    match e {
        BoardError::BadCell { line, col, ch } => {
            BoardError::BadCell { line: line + offset, col, ch }
        }
        other => other,
    }
}

impl Board {
    /// An empty board of the given size (`width <= 64`, `height <= 32`).
    pub fn empty(width: usize, height: usize) -> Board {
        assert!(width <= MAX_WIDTH && height <= MAX_HEIGHT);
        Board {
            cols: [Col::default(); MAX_WIDTH],
            live: 0,
            width: width as u8,
            height: height as u8,
        }
    }

    /// Checks the invariants (debug builds only): live columns are a non-empty prefix, `occ`
    /// is a low mask no taller than the board, plane bits only on occupied cells.
    #[inline]
    pub fn check(&self) {
        if cfg!(debug_assertions) {
            for (x, c) in self.cols.iter().enumerate() {
                if x < self.live as usize {
                    debug_assert!(c.occ != 0, "live column {x} is empty");
                } else {
                    debug_assert!(*c == Col::default(), "column {x} beyond the live prefix");
                }
                debug_assert!(c.occ & c.occ.wrapping_add(1) == 0, "column {x}: occ not a low mask");
                debug_assert!(c.height() <= u32::from(self.height));
                for p in c.planes {
                    debug_assert!(p & !c.occ == 0, "column {x}: colour bits on empty cells");
                }
            }
        }
    }

    /// Columns as given (empty columns included).
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// Non-empty columns (always the leftmost ones).
    #[inline]
    pub fn live_width(&self) -> usize {
        self.live as usize
    }

    /// The live columns.
    #[inline]
    pub fn cols(&self) -> &[Col] {
        &self.cols[..self.live as usize]
    }

    /// The colour at column `x` (from the left), row `y` (from the bottom), if occupied.
    pub fn cell(&self, x: usize, y: u32) -> Option<u8> {
        let c = self.cols.get(x)?;
        (y < 32 && c.occ >> y & 1 == 1).then(|| c.color(y))
    }

    /// Number of tiles left.
    pub fn tiles(&self) -> u32 {
        self.cols().iter().map(Col::height).sum()
    }

    /// Whether no tile is left.
    pub fn is_clear(&self) -> bool {
        self.live == 0
    }

    /// Tiles of each colour.
    pub fn color_counts(&self) -> [u32; MAX_COLORS] {
        let mut n = [0u32; MAX_COLORS];
        for col in self.cols() {
            for (c, slot) in n.iter_mut().enumerate() {
                *slot += col.mask_of(c as u8).count_ones();
            }
        }
        n
    }

    /// Number of distinct colours present.
    pub fn colors_present(&self) -> usize {
        self.color_counts().iter().filter(|&&n| n > 0).count()
    }

    /// A 64-bit hash of the position (size and live columns): the board is its own key.
    #[inline]
    pub fn hash64(&self) -> u64 {
        self.hash64_resume(0, 0x243F_6A88_85A3_08D3u64 ^ u64::from(self.live))
    }

    /// The hash's state after each prefix of the live columns: `out[x]` is the state before
    /// column `x` (`out[live]` is [`hash64`](Self::hash64)). A board that has the same live
    /// width and the same first `x` columns has the hash `hash64_resume(x, out[x])`.
    pub fn hash_states(&self, out: &mut [u64; MAX_WIDTH + 1]) {
        let mut h = 0x243F_6A88_85A3_08D3u64 ^ u64::from(self.live);
        out[0] = h;
        for (x, c) in self.cols().iter().enumerate() {
            h = hash_step(h, c);
            out[x + 1] = h;
        }
    }

    /// Continues the hash from column `x` with the state `h` (see
    /// [`hash_states`](Self::hash_states)).
    #[inline]
    pub fn hash64_resume(&self, x: usize, mut h: u64) -> u64 {
        for c in &self.cols()[x..] {
            h = hash_step(h, c);
        }
        h
    }

    /// Makes `self` a copy of `src`, given that its columns before `from` already equal
    /// `src`'s (as when `self` is `src` with a group removed right of `from`).
    #[inline]
    pub fn restore_from(&mut self, src: &Board, from: usize) {
        let n = usize::from(self.live.max(src.live));
        if from < n {
            self.cols[from..n].copy_from_slice(&src.cols[from..n]);
        }
        self.live = src.live;
        self.width = src.width;
        self.height = src.height;
    }

    /// Makes `self` the board of `template`'s size whose live columns are `cols` (the live
    /// columns of a board of that size, as [`cols`](Self::cols) gives them). Only the columns
    /// either board uses are written.
    #[inline]
    pub(crate) fn set_cols(&mut self, template: &Board, cols: &[Col]) {
        debug_assert!(cols.len() <= usize::from(template.width));
        debug_assert!(cols.iter().all(|c| c.occ != 0));
        let old = usize::from(self.live);
        self.cols[..cols.len()].copy_from_slice(cols);
        if old > cols.len() {
            self.cols[cols.len()..old].fill(Col::default());
        }
        self.live = cols.len() as u8;
        self.width = template.width;
        self.height = template.height;
    }

    /// Removes, in the live columns `x_lo..=x_hi`, the cells `gone[x - x_lo]` and closes
    /// emptied columns. `gone` must only name occupied cells.
    pub fn remove_masks(&mut self, x_lo: usize, gone: &[u32]) {
        let live = usize::from(self.live);
        let w = remove_from_cols(&mut self.cols[..live], x_lo, gone);
        self.live = w as u8;
        self.check();
    }

    /// Writes sgbust's BGF2 format: `"BGF2"`, width, height, minimum group size (one byte
    /// each), then `width * height` bytes row-major from the top-left, 0 empty, 1-8 colours
    /// (our colour `c` is written as `c + 1`).
    pub fn to_bgf2(&self, min_group: u8) -> Vec<u8> {
        let mut out = b"BGF2".to_vec();
        out.extend([self.width, self.height, min_group]);
        for ty in 0..self.height as u32 {
            let y = self.height as u32 - 1 - ty;
            for x in 0..self.width as usize {
                out.push(self.cell(x, y).map_or(0, |c| c + 1));
            }
        }
        out
    }

    /// Reads sgbust's BGF2 format (see [`Board::to_bgf2`]); returns the board and the
    /// minimum group size it names. Values 1-8 map to colours 0-7.
    pub fn from_bgf2(data: &[u8]) -> Result<(Board, u8), BoardError> {
        let bad = |m: String| BoardError::Bgf(m);
        if data.len() < 7 || &data[..4] != b"BGF2" {
            return Err(bad("missing the \"BGF2\" header".into()));
        }
        let (w, h, min_group) = (data[4] as usize, data[5] as usize, data[6]);
        let want = 7 + w * h;
        if data.len() != want {
            return Err(bad(format!("{w}x{h} needs {want} bytes, the file has {}", data.len())));
        }
        let mut rows = Vec::with_capacity(h);
        for ty in 0..h {
            let mut row = Vec::with_capacity(w);
            for x in 0..w {
                let v = data[7 + ty * w + x];
                row.push(match v {
                    0 => None,
                    1..=8 => Some(v - 1),
                    _ => {
                        return Err(bad(format!(
                            "byte {} (row {ty}, column {x}): {v} is not 0-8",
                            7 + ty * w + x
                        )))
                    }
                });
            }
            rows.push(row);
        }
        let lines = (1..=h).collect();
        Ok((Board::try_from(&Setup { rows, lines })?, min_group))
    }

    /// A uniformly random full board: every cell an independent uniform colour in `0..colors`,
    /// drawn from `Rng::new(seed)` with `below(colors)`, row by row from the TOP row, left to
    /// right (the order of the text form), so other programs can reproduce it.
    pub fn random(width: usize, height: usize, colors: usize, seed: u64) -> Board {
        assert!((1..=MAX_WIDTH).contains(&width) && (1..=MAX_HEIGHT).contains(&height));
        assert!((1..=MAX_COLORS).contains(&colors));
        let mut rng = bits::Rng::new(seed);
        let rows: Vec<Vec<Option<u8>>> = (0..height)
            .map(|_| (0..width).map(|_| Some(rng.below(colors as u64) as u8)).collect())
            .collect();
        let lines = (1..=height).collect();
        Board::try_from(&Setup { rows, lines }).expect("a full board is valid")
    }
}

#[inline]
fn hash_step(h: u64, c: &Col) -> u64 {
    let a = u64::from(c.planes[0]) | u64::from(c.planes[1]) << 32;
    let b = u64::from(c.planes[2]) | u64::from(c.occ) << 32;
    mix(mix(h ^ a).wrapping_add(b))
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_resumes_and_restore_copies_back() {
        let mut states = [0u64; MAX_WIDTH + 1];
        let mut g = crate::Groups::new();
        for seed in 0..200 {
            let b = Board::random(1 + seed as usize % 20, 1 + seed as usize % 13, 4, seed);
            b.hash_states(&mut states);
            for (x, &h) in states.iter().enumerate().take(b.live_width() + 1) {
                assert_eq!(b.hash64_resume(x, h), b.hash64());
            }
            assert_eq!(states[b.live_width()], b.hash64());
            // Restoring from the leftmost changed column gives the parent back, even when
            // the removal emptied columns.
            let mut scratch = b.clone();
            for grp in g.find(&b, 2).to_vec() {
                g.remove(&mut scratch, &grp);
                scratch.restore_from(&b, usize::from(grp.x_lo));
                assert_eq!(scratch.to_string(), b.to_string());
                assert_eq!(scratch.hash64(), b.hash64());
                scratch.check();
            }
        }
    }

    #[test]
    fn text_round_trip_and_orientation() {
        let text = "12.\n013\n";
        let b: Board = text.parse().unwrap_err_or_board();
        assert_eq!(b.to_string(), text);
        assert_eq!(b.cell(0, 0), Some(0)); // bottom-left
        assert_eq!(b.cell(0, 1), Some(1));
        assert_eq!(b.cell(2, 1), None);
        assert_eq!(b.tiles(), 5);
    }

    trait UnwrapBoard {
        fn unwrap_err_or_board(self) -> Board;
    }
    impl UnwrapBoard for Result<Board, BoardError> {
        fn unwrap_err_or_board(self) -> Board {
            self.unwrap_or_else(|e| panic!("{e}"))
        }
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(
            "12\n1x\n".parse::<Board>().unwrap_err(),
            BoardError::BadCell { line: 2, col: 2, ch: 'x' }
        );
        assert_eq!(
            "1.\n.1\n".parse::<Board>().unwrap_err(),
            BoardError::Floating { line: 1, col: 1 }
        );
        assert_eq!("..\n.1\n".parse::<Board>().unwrap_err(), BoardError::GapColumn { x: 0 });
        assert!(matches!("12\n1\n".parse::<Board>(), Err(BoardError::Ragged { line: 2, .. })));
        assert!(matches!("1".repeat(65).parse::<Board>(), Err(BoardError::TooWide(_))));
        assert!(matches!("1\n".repeat(33).parse::<Board>(), Err(BoardError::TooTall(_))));
        assert_eq!("# only a comment\n".parse::<Board>().unwrap_err(), BoardError::Empty);
    }

    #[test]
    fn bgf2_round_trip() {
        let b = Board::random(9, 7, 5, 3);
        let (back, mg) = Board::from_bgf2(&b.to_bgf2(2)).unwrap();
        assert_eq!((back, mg), (b, 2));
        assert!(Board::from_bgf2(b"BGF2\x02\x02\x02\x01\x01\x01").is_err());
        assert!(Board::from_bgf2(b"BGF2\x01\x01\x02\x09").is_err());
    }

    #[test]
    fn multi_board_files() {
        let text = "# two boards\n12\n21\n\n# second\n33\n31\n";
        let boards = parse_many(text).unwrap();
        assert_eq!(boards.len(), 2);
        assert_eq!(boards[1].0, 6);
        assert_eq!(boards[1].1.to_string(), "33\n31\n");
        let err = parse_many("12\n21\n\n3x\n31\n").unwrap_err();
        assert_eq!(err.1, BoardError::BadCell { line: 4, col: 2, ch: 'x' });
    }

    #[test]
    fn large_boards_fit() {
        let b = Board::random(64, 32, 8, 1);
        assert_eq!(b.tiles(), 64 * 32);
        assert_eq!(b.to_string().parse::<Board>().unwrap(), b);
    }
}
