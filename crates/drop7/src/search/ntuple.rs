//! An n-tuple network leaf: the expected future points of an afterstate, learned by TD(0).
//!
//! # Implementation notes
//!
//! ```text
//!   one board, 15 weights read:
//!
//!   row 6  . . . . . . .   -> R[class 6][canon(row 6)]      canon(x) = min(x, mirror(x)),
//!   row 5  . . 3 . . . .   -> R[class 5][canon(row 5)]      a row read as a 7-digit base-10
//!   ...                                                     number (cell codes 0-9), the
//!   row 0  # # # # # # #   -> R[class 0][canon(row 0)]      mirror read right to left
//!          | | | | | | |
//!          C C C C C C C   -> C[column as a 7-digit base-10 number, bottom cell first]
//!   heights h0..h6, drops left d -> P[(min(d,5) - 1) * 2^21 + canon(h0 | h1 << 3 | ..)]
//!
//!   value = sum_c C[col c] + sum_r R[class(r)][row r] + P[profile]   (f32 weights, f64 sum)
//! ```
//!
//! Why these tuples: a disc pops when its value equals the length of its row's run or its
//! column's height, so the units that decide pops are whole rows and whole columns; a 7-cell
//! tuple sees every run and every height exactly, where 4- or 5-cell windows would have to
//! guess them from overlapping fragments. Cells keep all ten codes (empty, 1-7, solid and
//! cracked gray: a cracked gray is one hit from a reveal). A 7-cell tuple at 4 bits a cell would
//! be 2^28 entries, so rows and columns are indexed in base 10 (10^7 entries, 40 MB). Columns
//! share one table (which column a stack stands in is the rows' business), so it is mirror
//! symmetric by construction; rows are grouped in classes by height (default `0|12|34|56`:
//! the bottom row is mostly grays, the top rows are only occupied on a crowded board), and
//! share weights under the left-right mirror through `canon`. The profile tuple holds the seven
//! heights (3 bits each) with the drops left before the next rise (1 to 5+): the rise urgency
//! that decides whether a tall column kills, which the other tuples cannot see.
//!
//! - Sizes: each table has `size` entries (default [`Shape::FULL`] = 5 * 2^21 =
//!   10,485,760, enough for every index: exact). A smaller `size` folds the index modulo
//!   `size` (hash collisions; for tests and pilots). Default network: 6 tables, 252 MB of f32.
//! - Fast path ([`Shape::slots`]): each column word is spread by one PDEP into seven byte
//!   lanes (`bits::pdep_u64(w, 0x0F0F..0F)`, byte `r` = the cell of row `r`), so two columns
//!   combine as `lo + 10 * hi` in every lane at once (at most 99, no carry): four such pair
//!   words give all seven rows' base-10 indices, four more their mirrors. Columns use a 256-entry
//!   byte-to-base-100 table. [`Shape::slots_reference`] computes the same indices from the
//!   `[row][col]` grid with plain loops; the gate test checks they agree on every visited state.
//! - Values are in points, like the paths the search adds them to: the value of an
//!   afterstate is an estimate of the points the game will still score from it (0 once the game
//!   is over), so `Searcher::death` (1,000,000) stays a penalty well below any value.
//!
//! - Blocks (optional, shape text `... blocks=2x3`, [`Shape::block_slots`]): every 2x3
//!   window of two adjacent rows and three adjacent columns (30 of them) as a 6-digit base-10
//!   number, one table per (row pair, column offset class), 18 tables of 10^6 entries (72 MB):
//!   the rows and columns alone cannot see how a row's run meets the cells above and below it
//!   (where the next discs land, which grays a pop cracks).
//!
//! # Training
//! [`train_game`] is TD(0) on afterstates (Szubert & Jaskowski 2014, as in `twenty48`): the
//! afterstate is the position after the drop, its cascades and any rise, before the next disc
//! is dealt. The policy is greedy on `points + V(afterstate)` over the open columns, each
//! candidate played with the search's own reveal stream ([`SearchDraws::for_move`]), never the
//! game's: training does not peek either. The chosen column is then played on the real stream
//! and the previous afterstate's value moves towards `points + V(real afterstate)` (towards the
//! points alone when the move ends the game), `alpha * error` added to each of its 15 weights.
//! [`train_game_tc`] plays the same games with temporal coherence steps instead
//! ([`NTuple::update_tc`]: a step per weight that shrinks by itself where the errors cancel;
//! accumulators in [`Coherence`], saved beside the weights by [`encode_coherence`]).
//! [`train_game_with`] and [`train_game_tc_with`] take a [`Play`]: the policy may value a
//! revealing column by the mean over several of the search's reveal samples
//! ([`greedy_sampled`]), and each TD error may be cut to a clamp before it steps the weights
//! (drop7-bench's anchor trains with 7 samples and a clamp of 30 rises).

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use super::{ChanceModel, Evaluator, NoTable, SearchDraws, Searcher};
use crate::board::{col_height, Board, EMPTY, SIZE};
use crate::engine::{RandomDraws, Rules};
use crate::Position;
use bits::learn::tc_step;

/// Number of weights one value reads: 7 columns, 7 rows, the profile.
pub const SLOTS: usize = 2 * SIZE + 1;

/// `BYTE100[b]`: the two nibbles of `b` as a base-10 number, low nibble the units.
const BYTE100: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u32 & 0xF) + 10 * (b as u32 >> 4);
        b += 1;
    }
    t
};

/// The tuple layout of a network: the row classes and the entries per table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    row_class: [u8; SIZE],
    size: u32,
    blocks: bool,
    anchor: bool,
}

impl Shape {
    /// Entries per table that index every tuple exactly (the profile's range, the largest).
    pub const FULL: u32 = 5 << 21;

    /// The default network: row classes `0|12|34|56`, exact tables (252 MB).
    pub fn standard() -> Shape {
        Shape { row_class: [0, 1, 1, 2, 2, 3, 3], size: Shape::FULL, blocks: false, anchor: false }
    }

    /// Entries per block table when exact (six cells of ten codes).
    pub const BLOCK_FULL: u32 = 1_000_000;

    /// Block tables: one per (row pair, column class `{0,4}`, `{1,3}`, `{2}`).
    pub const BLOCK_TABLES: usize = (SIZE - 1) * 3;

    /// Block slots a value reads: 6 row pairs times 5 column offsets.
    pub const BLOCK_SLOTS: usize = (SIZE - 1) * (SIZE - 2);

    /// This shape with (or without) the 2x3 block tables (see [`block_slots`](Self::block_slots)).
    pub fn with_blocks(self, blocks: bool) -> Shape {
        Shape { blocks: blocks && !self.anchor, ..self }
    }

    /// Whether the shape has the 2x3 block tables.
    pub fn blocks(&self) -> bool {
        self.blocks
    }

    /// Entries per block table: `min(size, BLOCK_FULL)`.
    pub fn block_size(&self) -> u32 {
        self.size.min(Shape::BLOCK_FULL)
    }

    /// A shape from the class of each row (bottom first; classes numbered from 0 in order of
    /// first appearance, each used) and the entries per table (1 to [`Shape::FULL`]).
    pub fn new(row_class: [u8; SIZE], size: u32) -> Result<Shape, String> {
        if size == 0 || size > Shape::FULL {
            return Err(format!("size {size}: a table has 1 to {} entries", Shape::FULL));
        }
        let mut next = 0u8;
        for (r, &k) in row_class.iter().enumerate() {
            if k > next {
                return Err(format!(
                    "row {r} has class {k}: classes are numbered 0, 1, .. in order of first use"
                ));
            }
            if k == next {
                next += 1;
            }
        }
        Ok(Shape { row_class, size, blocks: false, anchor: false })
    }

    /// The class of each row, bottom first.
    pub fn row_class(&self) -> [u8; SIZE] {
        self.row_class
    }

    /// Entries per table.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// Row tables (the number of classes).
    pub fn row_tables(&self) -> usize {
        usize::from(*self.row_class.iter().max().expect("7 rows")) + 1
    }

    /// Tables: the column table, the row tables, the profile table (an anchor shape:
    /// [`Shape::ANCHOR_SLOTS`], one per line and window).
    pub fn tables(&self) -> usize {
        if self.anchor {
            return Shape::ANCHOR_SLOTS;
        }
        self.row_tables() + 2
    }

    /// Weights in all (the block tables, if any, after the others).
    pub fn weights(&self) -> usize {
        self.table_sizes().iter().sum()
    }

    /// The sizes of the tables, in weight order: the column, row and profile tables of
    /// [`size`](Self::size) each, then the block tables if any. An anchor shape: the 14 line
    /// tables, then the 60 window tables, each [`Shape::PHASES`] times its entries per phase.
    pub fn table_sizes(&self) -> Vec<usize> {
        if self.anchor {
            let (line, window) = self.anchor_sizes();
            let mut v = vec![Shape::PHASES * line; Shape::ANCHOR_LINES];
            v.extend(std::iter::repeat_n(Shape::PHASES * window, Shape::ANCHOR_WINDOWS));
            return v;
        }
        let mut v = vec![self.size as usize; self.tables()];
        if self.blocks {
            v.extend(std::iter::repeat_n(self.block_size() as usize, Shape::BLOCK_TABLES));
        }
        v
    }

    /// Weight slots a value reads: [`SLOTS`], plus [`Shape::BLOCK_SLOTS`] with blocks
    /// ([`Shape::ANCHOR_SLOTS`] for an anchor shape).
    pub fn slot_count(&self) -> usize {
        if self.anchor {
            return Shape::ANCHOR_SLOTS;
        }
        SLOTS + if self.blocks { Shape::BLOCK_SLOTS } else { 0 }
    }

    /// Line (row, column) entries per phase when exact: seven cells of ten codes.
    pub const LINE_FULL: u32 = 10_000_000;

    /// Window (2x3, 3x2) entries per phase when exact: six cells of ten codes.
    pub const WINDOW_FULL: u32 = 1_000_000;

    /// The phases of an anchor shape: drops left before the rise, 1 to 5 or more.
    pub const PHASES: usize = 5;

    /// Line tables of an anchor shape: 7 rows, then 7 columns.
    pub const ANCHOR_LINES: usize = 2 * SIZE;

    /// Window tables of an anchor shape: 30 of 2 rows by 3 columns, then 30 of 3 by 2.
    pub const ANCHOR_WINDOWS: usize = 2 * (SIZE - 1) * (SIZE - 2);

    /// Weights one value of an anchor shape reads: one per table.
    pub const ANCHOR_SLOTS: usize = Shape::ANCHOR_LINES + Shape::ANCHOR_WINDOWS;

    /// The feature set of keshavsaharia/drop7-bench's n-tuple leaf (`approaches/ntuple-rl`):
    /// every row, every column, every 2x3 and every 3x2 window its own table, each split
    /// [`Shape::PHASES`] ways by the drops left before the next rise, on the board or its
    /// mirror, whichever is smaller ([`anchor_slots`](Self::anchor_slots)). `size` is the
    /// entries per phase of a line table, 1 to [`Shape::LINE_FULL`] (exact; a window table
    /// has `min(size, WINDOW_FULL)`); a smaller size folds the indices (for tests and pilots).
    /// Exact: 10^9 weights, 4 GB of `f32`.
    pub fn anchor(size: u32) -> Result<Shape, String> {
        if size == 0 || size > Shape::LINE_FULL {
            return Err(format!(
                "size {size}: an anchor line table has 1 to {} entries a phase",
                Shape::LINE_FULL
            ));
        }
        Ok(Shape { row_class: [0; SIZE], size, blocks: false, anchor: true })
    }

    /// Whether this is an anchor shape ([`Shape::anchor`]).
    pub fn is_anchor(&self) -> bool {
        self.anchor
    }

    /// Entries per phase of a line table and of a window table (anchor shapes).
    fn anchor_sizes(&self) -> (usize, usize) {
        (self.size.min(Shape::LINE_FULL) as usize, self.size.min(Shape::WINDOW_FULL) as usize)
    }

    /// The positions in [`NTuple::weights`] an anchor shape's value reads, in summation order:
    /// rows 0-6 (bottom first), columns 0-6, the 2x3 windows (rows `r, r+1`, columns
    /// `c..c+3`, `r` then `c`), the 3x2 windows (rows `r..r+3`, columns `c, c+1`). All are read
    /// on the board or its mirror, whichever has the smaller column words (compared from
    /// column 0). A line or window is a base-10 number of its cells' codes: a row with column
    /// 0 the units, a column with row 0 the units, a 2x3 window as three two-digit columns
    /// (`cell(r, c + j) + 10 * cell(r + 1, c + j)` times `100^j`), a 3x2 window as two
    /// three-digit columns (times `1000^j`). Entry `phase * entries + index` of its table,
    /// `phase` = drops left clamped to 1..=5, minus 1.
    /// [`anchor_slots_reference`](Self::anchor_slots_reference) is the plain twin.
    #[inline]
    #[allow(clippy::needless_range_loop)] // r indexes the lanes and the rows alike
    pub fn anchor_slots(&self, board: &Board, drops_left: u32) -> [usize; Shape::ANCHOR_SLOTS] {
        const SPREAD: u64 = 0x000F_0F0F_0F0F_0F0F;
        let own = board.cols();
        let mirror = [own[6], own[5], own[4], own[3], own[2], own[1], own[0]];
        let cols = if mirror < *own { &mirror } else { own };
        let (line, window) = self.anchor_sizes();
        let phase = (drops_left.clamp(1, 5) - 1) as usize;
        let fold =
            |raw: u32, n: usize| if (raw as usize) < n { raw as usize } else { raw as usize % n };
        let line_at =
            |t: usize, raw: u32| t * Shape::PHASES * line + phase * line + fold(raw, line);
        let wbase = Shape::ANCHOR_LINES * Shape::PHASES * line;
        let window_at = |t: usize, raw: u32| {
            wbase + t * Shape::PHASES * window + phase * window + fold(raw, window)
        };
        let mut out = [0usize; Shape::ANCHOR_SLOTS];
        let mut t = [0u64; SIZE];
        for c in 0..SIZE {
            let w = cols[c];
            t[c] = bits::pdep_u64(u64::from(w), SPREAD);
            let raw = BYTE100[(w & 0xFF) as usize]
                + 100 * BYTE100[(w >> 8 & 0xFF) as usize]
                + 10_000 * BYTE100[(w >> 16 & 0xFF) as usize]
                + 1_000_000 * (w >> 24);
            out[SIZE + c] = line_at(SIZE + c, raw);
        }
        let pairs = [t[0] + 10 * t[1], t[2] + 10 * t[3], t[4] + 10 * t[5], t[6]];
        let lane = |x: u64, r: usize| (x >> (8 * r)) as u32 & 0xFF;
        for r in 0..SIZE {
            let raw = lane(pairs[0], r)
                + 100 * lane(pairs[1], r)
                + 10_000 * lane(pairs[2], r)
                + 1_000_000 * lane(pairs[3], r);
            out[r] = line_at(r, raw);
        }
        let mut k = Shape::ANCHOR_LINES;
        for r in 0..SIZE - 1 {
            let mut b = [0u32; SIZE];
            for c in 0..SIZE {
                b[c] = BYTE100[(cols[c] >> (4 * r) & 0xFF) as usize];
            }
            for c in 0..SIZE - 2 {
                out[k] =
                    window_at(k - Shape::ANCHOR_LINES, b[c] + 100 * b[c + 1] + 10_000 * b[c + 2]);
                k += 1;
            }
        }
        for r in 0..SIZE - 2 {
            let mut b = [0u32; SIZE];
            for c in 0..SIZE {
                b[c] = BYTE100[(cols[c] >> (4 * r) & 0xFF) as usize]
                    + 100 * (cols[c] >> (4 * (r + 2)) & 0xF);
            }
            for c in 0..SIZE - 1 {
                out[k] = window_at(k - Shape::ANCHOR_LINES, b[c] + 1000 * b[c + 1]);
                k += 1;
            }
        }
        out
    }

    /// [`anchor_slots`](Self::anchor_slots) computed plainly from `grid[row][col]` (row 0 at
    /// the bottom): the mirror chosen by comparing the column words built cell by cell, each
    /// index a sum of digits times powers of ten.
    #[allow(clippy::needless_range_loop)] // index loops keep the reference plain
    pub fn anchor_slots_reference(&self, grid: &[[u8; SIZE]; SIZE], drops_left: u32) -> Vec<usize> {
        let word = |g: &[[u8; SIZE]; SIZE], c: usize| -> u64 {
            (0..SIZE).map(|r| u64::from(g[r][c]) << (4 * r)).sum()
        };
        let mut mirrored = [[0u8; SIZE]; SIZE];
        for r in 0..SIZE {
            for c in 0..SIZE {
                mirrored[r][c] = grid[r][SIZE - 1 - c];
            }
        }
        let own: Vec<u64> = (0..SIZE).map(|c| word(grid, c)).collect();
        let mir: Vec<u64> = (0..SIZE).map(|c| word(&mirrored, c)).collect();
        let g = if mir < own { &mirrored } else { grid };
        let (line, window) = self.anchor_sizes();
        let (line, window) = (line as u64, window as u64);
        let phase = u64::from(drops_left.clamp(1, 5)) - 1;
        let cell = |r: usize, c: usize| u64::from(g[r][c]);
        let mut out = Vec::new();
        let mut table = 0u64;
        let mut push_line = |raw: u64, out: &mut Vec<usize>| {
            out.push((table * 5 * line + phase * line + raw % line) as usize);
            table += 1;
        };
        for r in 0..SIZE {
            let raw = (0..SIZE).map(|c| cell(r, c) * 10u64.pow(c as u32)).sum();
            push_line(raw, &mut out);
        }
        for c in 0..SIZE {
            let raw = (0..SIZE).map(|r| cell(r, c) * 10u64.pow(r as u32)).sum();
            push_line(raw, &mut out);
        }
        let base = 14 * 5 * line;
        let mut w = 0u64;
        let mut push_window = |raw: u64, out: &mut Vec<usize>| {
            out.push((base + w * 5 * window + phase * window + raw % window) as usize);
            w += 1;
        };
        for r in 0..SIZE - 1 {
            for c in 0..SIZE - 2 {
                let raw = (0..3)
                    .map(|j| (cell(r, c + j) + 10 * cell(r + 1, c + j)) * 100u64.pow(j as u32))
                    .sum();
                push_window(raw, &mut out);
            }
        }
        for r in 0..SIZE - 2 {
            for c in 0..SIZE - 1 {
                let raw = (0..2)
                    .map(|j| {
                        (cell(r, c + j) + 10 * cell(r + 1, c + j) + 100 * cell(r + 2, c + j))
                            * 1000u64.pow(j as u32)
                    })
                    .sum();
                push_window(raw, &mut out);
            }
        }
        out
    }

    /// The positions in [`NTuple::weights`] of the 2x3 blocks' weights, in summation order
    /// (row pair `r` = rows `r, r+1` from the bottom, then column offset `c` = columns
    /// `c..c+3`). A block is read as a 6-digit base-10 number, column by column, two digits a
    /// column (row `r` the lower digit); blocks at offsets 0 and 4 share a table under the
    /// mirror (offset 4 read right to left), as do 1 and 3; offset 2 takes the smaller of its
    /// two readings. Table `3 * r + class`. Only meaningful if [`blocks`](Self::blocks).
    #[inline]
    pub fn block_slots(&self, board: &Board) -> [usize; Shape::BLOCK_SLOTS] {
        let cols = board.cols();
        let bsize = self.block_size();
        let base = self.tables() * self.size as usize;
        let mut out = [0usize; Shape::BLOCK_SLOTS];
        for r in 0..SIZE - 1 {
            let mut b = [0u32; SIZE];
            for c in 0..SIZE {
                b[c] = BYTE100[(cols[c] >> (4 * r) & 0xFF) as usize];
            }
            for c in 0..SIZE - 2 {
                let fwd = b[c] + 100 * b[c + 1] + 10_000 * b[c + 2];
                let rev = b[c + 2] + 100 * b[c + 1] + 10_000 * b[c];
                let (class, raw) = match c {
                    0 => (0, fwd),
                    4 => (0, rev),
                    1 => (1, fwd),
                    3 => (1, rev),
                    _ => (2, fwd.min(rev)),
                };
                let folded = if raw < bsize { raw } else { raw % bsize };
                out[r * (SIZE - 2) + c] = base + (3 * r + class) * bsize as usize + folded as usize;
            }
        }
        out
    }

    #[inline]
    fn fold(&self, raw: u32) -> usize {
        (if raw < self.size { raw } else { raw % self.size }) as usize
    }

    /// The positions in [`NTuple::weights`] a value reads, in summation order:
    /// columns 0-6, rows 0-6, the profile.
    #[inline]
    pub fn slots(&self, board: &Board, drops_left: u32) -> [usize; SLOTS] {
        const SPREAD: u64 = 0x000F_0F0F_0F0F_0F0F;
        let cols = board.cols();
        let size = self.size as usize;
        let mut out = [0usize; SLOTS];
        let mut t = [0u64; SIZE];
        let (mut prof, mut prof_rev) = (0u32, 0u32);
        for c in 0..SIZE {
            let w = cols[c];
            t[c] = bits::pdep_u64(u64::from(w), SPREAD);
            let raw = BYTE100[(w & 0xFF) as usize]
                + 100 * BYTE100[(w >> 8 & 0xFF) as usize]
                + 10_000 * BYTE100[(w >> 16 & 0xFF) as usize]
                + 1_000_000 * (w >> 24);
            out[c] = self.fold(raw);
            let h = col_height(w);
            prof |= h << (3 * c);
            prof_rev |= h << (3 * (SIZE - 1 - c));
        }
        let fwd = [t[0] + 10 * t[1], t[2] + 10 * t[3], t[4] + 10 * t[5], t[6]];
        let rev = [t[6] + 10 * t[5], t[4] + 10 * t[3], t[2] + 10 * t[1], t[0]];
        let lane = |x: u64, r: usize| (x >> (8 * r)) as u32 & 0xFF;
        for r in 0..SIZE {
            let a = lane(fwd[0], r)
                + 100 * lane(fwd[1], r)
                + 10_000 * lane(fwd[2], r)
                + 1_000_000 * lane(fwd[3], r);
            let b = lane(rev[0], r)
                + 100 * lane(rev[1], r)
                + 10_000 * lane(rev[2], r)
                + 1_000_000 * lane(rev[3], r);
            let table = 1 + usize::from(self.row_class[r]);
            out[SIZE + r] = table * size + self.fold(a.min(b));
        }
        let d = drops_left.clamp(1, 5) - 1;
        let table = 1 + self.row_tables();
        out[2 * SIZE] = table * size + self.fold((d << 21) | prof.min(prof_rev));
        out
    }

    /// [`slots`](Self::slots) computed plainly from `grid[row][col]` (row 0 at the bottom).
    #[allow(clippy::needless_range_loop)] // index loops keep the reference plain
    pub fn slots_reference(&self, grid: &[[u8; SIZE]; SIZE], drops_left: u32) -> Vec<usize> {
        if self.anchor {
            return self.anchor_slots_reference(grid, drops_left);
        }
        let size = self.size as usize;
        let mut out = Vec::new();
        let mut heights = [0u32; SIZE];
        for (c, h) in heights.iter_mut().enumerate() {
            let mut raw = 0u64;
            for (r, row) in grid.iter().enumerate() {
                raw += u64::from(row[c]) * 10u64.pow(r as u32);
            }
            out.push((raw % size as u64) as usize);
            *h = grid.iter().take_while(|row| row[c] != EMPTY).count() as u32;
        }
        for (r, row) in grid.iter().enumerate() {
            let mut fwd = 0u64;
            let mut rev = 0u64;
            for c in 0..SIZE {
                fwd += u64::from(row[c]) * 10u64.pow(c as u32);
                rev += u64::from(row[c]) * 10u64.pow((SIZE - 1 - c) as u32);
            }
            let table = 1 + usize::from(self.row_class[r]);
            out.push(table * size + (fwd.min(rev) % size as u64) as usize);
        }
        let mut fwd = 0u64;
        let mut rev = 0u64;
        for c in 0..SIZE {
            fwd += u64::from(heights[c]) * 8u64.pow(c as u32);
            rev += u64::from(heights[c]) * 8u64.pow((SIZE - 1 - c) as u32);
        }
        let d = u64::from(drops_left.clamp(1, 5)) - 1;
        let raw = d * (1 << 21) + fwd.min(rev);
        out.push((1 + self.row_tables()) * size + (raw % size as u64) as usize);
        if self.blocks {
            let bsize = self.block_size() as u64;
            let base = self.tables() * size;
            for r in 0..SIZE - 1 {
                for c in 0..SIZE - 2 {
                    let (mut fwd, mut rev) = (0u64, 0u64);
                    for j in 0..3 {
                        let digit =
                            |col: usize| u64::from(grid[r][col]) + 10 * u64::from(grid[r + 1][col]);
                        fwd += digit(c + j) * 100u64.pow(j as u32);
                        rev += digit(c + 2 - j) * 100u64.pow(j as u32);
                    }
                    let (class, raw) = match c {
                        0 => (0, fwd),
                        4 => (0, rev),
                        1 => (1, fwd),
                        3 => (1, rev),
                        _ => (2, fwd.min(rev)),
                    };
                    out.push(base + (3 * r + class) * bsize as usize + (raw % bsize) as usize);
                }
            }
        }
        out
    }
}

/// The shape's reads in the shared crate's terms: the state is an afterstate and its drops
/// left before the rise; the reads are [`Shape::slots`], then [`Shape::block_slots`] with
/// blocks (the order [`NTuple::value`] sums them in).
impl ntuple::Features for Shape {
    type State = (Board, u32);

    fn table_sizes(&self) -> Vec<usize> {
        Shape::table_sizes(self)
    }

    fn reads_per_value(&self) -> usize {
        self.slot_count()
    }

    #[inline]
    fn for_each_read(&self, s: &(Board, u32), mut read: impl FnMut(usize)) {
        if self.anchor {
            self.anchor_slots(&s.0, s.1).into_iter().for_each(read);
            return;
        }
        self.slots(&s.0, s.1).into_iter().for_each(&mut read);
        if self.blocks {
            self.block_slots(&s.0).into_iter().for_each(read);
        }
    }
}

/// `rows=0112233 size=10485760`.
impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.anchor {
            return write!(f, "anchor size={}", self.size);
        }
        f.write_str("rows=")?;
        for k in self.row_class {
            write!(f, "{k}")?;
        }
        write!(f, " size={}", self.size)?;
        if self.blocks {
            f.write_str(" blocks=2x3")?;
        }
        Ok(())
    }
}

impl FromStr for Shape {
    type Err = String;

    /// `rows=DDDDDDD size=N [blocks=2x3]` (seven class digits, bottom row first), or
    /// `standard` / `standard blocks=2x3`, or `anchor [size=N]` ([`Shape::anchor`]).
    fn from_str(s: &str) -> Result<Shape, String> {
        let mut toks: Vec<&str> = s.split_whitespace().collect();
        let blocks = match toks.iter().position(|t| t.starts_with("blocks=")) {
            Some(i) if toks[i] == "blocks=2x3" => {
                toks.remove(i);
                true
            }
            Some(i) => return Err(format!("{:?}: the only block shape is blocks=2x3", toks[i])),
            None => false,
        };
        if toks == ["standard"] {
            return Ok(Shape::standard().with_blocks(blocks));
        }
        if toks.first() == Some(&"anchor") {
            if blocks {
                return Err("an anchor shape has its own windows (no blocks=2x3)".into());
            }
            return match toks[1..] {
                [] => Shape::anchor(Shape::LINE_FULL),
                [tok] => match tok.strip_prefix("size=").map(str::parse::<u32>) {
                    Some(Ok(n)) => Shape::anchor(n),
                    _ => Err(format!("{tok:?}: anchor takes size=N")),
                },
                _ => Err("anchor takes at most size=N".into()),
            };
        }
        let (mut rows, mut size) = (None, None);
        for tok in toks {
            match tok.split_once('=') {
                Some(("rows", v)) => {
                    let d: Vec<u8> = v.bytes().map(|b| b.wrapping_sub(b'0')).collect();
                    if d.len() != SIZE || d.iter().any(|&x| x > 6) {
                        return Err(format!("{tok:?}: rows= takes 7 class digits 0-6"));
                    }
                    rows = Some([d[0], d[1], d[2], d[3], d[4], d[5], d[6]]);
                }
                Some(("size", v)) => {
                    size = Some(v.parse::<u32>().map_err(|_| format!("{tok:?}: not a size"))?)
                }
                _ => return Err(format!("{tok:?}: expected rows=DDDDDDD or size=N")),
            }
        }
        Shape::new(rows.ok_or("missing rows=DDDDDDD")?, size.ok_or("missing size=N")?)
            .map(|sh| sh.with_blocks(blocks))
    }
}

/// An n-tuple network over Drop7 afterstates (see the [module docs](self)).
#[derive(Clone, PartialEq)]
pub struct NTuple {
    shape: Shape,
    /// Kept by the shared [`ntuple`] crate; indexed by slot.
    weights: ntuple::Weights,
}

impl fmt::Debug for NTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "NTuple({}, {} weights)", self.shape, self.weights.len())
    }
}

impl NTuple {
    /// A network with every weight 0.
    pub fn new(shape: Shape) -> NTuple {
        NTuple { shape, weights: ntuple::Weights::zeros(&shape.table_sizes()) }
    }

    /// A network whose every afterstate starts at `value` points (optimistic initialisation,
    /// as drop7-bench's anchor and Guei et al. do): each weight `value / reads`, where
    /// `reads` is [`Shape::slot_count`].
    pub fn optimistic(shape: Shape, value: f32) -> NTuple {
        let w = value / shape.slot_count() as f32;
        NTuple { shape, weights: ntuple::Weights::filled(&shape.table_sizes(), w) }
    }

    /// A network of `shape` with the given weights (table after table), if there are
    /// [`Shape::weights`] of them.
    pub fn from_weights(shape: Shape, weights: Vec<f32>) -> Option<NTuple> {
        ntuple::Weights::from_vec(&shape.table_sizes(), weights)
            .map(|weights| NTuple { shape, weights })
    }

    /// The shape.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// All weights, table after table (columns, row classes, profile).
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// The value of a board with `drops_left` drops before the rise: its 15 weights (45 with
    /// blocks: the block slots after the others) summed in slot order, in `f64`.
    #[inline]
    pub fn value(&self, board: &Board, drops_left: u32) -> f64 {
        let mut v = 0.0;
        if self.shape.anchor {
            for s in self.shape.anchor_slots(board, drops_left) {
                v += f64::from(self.weights[s]);
            }
            return v;
        }
        for s in self.shape.slots(board, drops_left) {
            v += f64::from(self.weights[s]);
        }
        if self.shape.blocks {
            for s in self.shape.block_slots(board) {
                v += f64::from(self.weights[s]);
            }
        }
        v
    }

    /// [`value`](Self::value) computed from `grid[row][col]` by [`Shape::slots_reference`].
    pub fn value_reference(&self, grid: &[[u8; SIZE]; SIZE], drops_left: u32) -> f64 {
        let mut v = 0.0;
        for s in self.shape.slots_reference(grid, drops_left) {
            v += f64::from(self.weights[s]);
        }
        v
    }

    /// Adds `delta` to each of the 15 (or 45) weights [`value`](Self::value) reads (a slot read twice
    /// gets it twice).
    #[inline]
    pub fn update(&mut self, board: &Board, drops_left: u32, delta: f32) {
        if self.shape.anchor {
            for s in self.shape.anchor_slots(board, drops_left) {
                self.weights[s] += delta;
            }
            return;
        }
        for s in self.shape.slots(board, drops_left) {
            self.weights[s] += delta;
        }
        if self.shape.blocks {
            for s in self.shape.block_slots(board) {
                self.weights[s] += delta;
            }
        }
    }

    /// This network with `shape`'s block tables added, every new weight 0 (the value is
    /// unchanged until training moves them); `None` unless `shape` is this network's shape
    /// with blocks where it has none.
    pub fn extended(&self, shape: Shape) -> Option<NTuple> {
        if self.shape.blocks || self.shape.anchor || shape != self.shape.with_blocks(true) {
            return None;
        }
        let mut weights = self.weights.clone();
        weights.extend_tables(&shape.table_sizes()[self.shape.table_sizes().len()..]);
        Some(NTuple { shape, weights })
    }

    /// A fingerprint of the weights (FNV-1a of their bytes), for tests and reports.
    pub fn fingerprint(&self) -> u64 {
        self.weights.fingerprint()
    }

    /// The temporal coherence step (Beal & Smith 1999; for n-tuple networks Jaśkowski 2016,
    /// as in `twenty48`) with TD error `err`: each weight `w` that [`value`](Self::value)
    /// reads, with its accumulators `E` (the sum of the errors it has been moved by) and `A`
    /// (the sum of their absolute values), becomes
    ///
    /// ```text
    ///   w += beta * (A == 0 ? 1 : |E| / A) * err;   E += err;   A += |err|
    /// ```
    ///
    /// so a weight whose errors keep one sign keeps its step and one whose errors cancel
    /// (noise around its target) slows down by itself: no step schedule. A slot read twice
    /// (two equal columns, two equal rows of one class) is stepped twice, the second time
    /// with the accumulators the first left. [`update_tc_reference`](Self::update_tc_reference)
    /// is the slow twin.
    #[inline]
    pub fn update_tc(
        &mut self,
        acc: &mut Coherence,
        board: &Board,
        drops_left: u32,
        err: f32,
        beta: f32,
    ) {
        let slots = self.read_slots(board, drops_left);
        self.tc_apply(acc, &slots, err, beta);
    }

    /// The slots [`value`](Self::value) reads on a board, in its order: the 15, then the
    /// block slots if the shape has blocks.
    #[inline]
    fn read_slots(&self, board: &Board, drops_left: u32) -> ReadSlots {
        if self.shape.anchor {
            return ReadSlots::Anchor(self.shape.anchor_slots(board, drops_left));
        }
        ReadSlots::Classic(
            self.shape.slots(board, drops_left),
            self.shape.blocks.then(|| self.shape.block_slots(board)),
        )
    }

    /// The TC step on the weights of `slots` (from [`read_slots`](Self::read_slots)).
    #[inline]
    fn tc_apply(&mut self, acc: &mut Coherence, slots: &ReadSlots, err: f32, beta: f32) {
        debug_assert_eq!(acc.ea.len(), self.weights.len());
        for &s in slots.iter() {
            tc_step(&mut self.weights[s], &mut acc.ea[s], err, beta);
        }
    }

    /// [`update`](Self::update) written plainly over [`Shape::slots_reference`].
    pub fn update_reference(&mut self, grid: &[[u8; SIZE]; SIZE], drops_left: u32, delta: f32) {
        for s in self.shape.slots_reference(grid, drops_left) {
            self.weights[s] += delta;
        }
    }

    /// [`update_tc`](Self::update_tc) written plainly over [`Shape::slots_reference`] (a
    /// weight's step reads only its own accumulators, so the order of the slots does not
    /// change a bit).
    pub fn update_tc_reference(
        &mut self,
        acc: &mut Coherence,
        grid: &[[u8; SIZE]; SIZE],
        drops_left: u32,
        err: f32,
        beta: f32,
    ) {
        for s in self.shape.slots_reference(grid, drops_left) {
            let [e, a] = acc.ea[s];
            let rate = if a == 0.0 { 1.0 } else { e.abs() / a };
            self.weights[s] += beta * rate * err;
            acc.ea[s] = [e + err, a + err.abs()];
        }
    }
}

/// The slots one value reads: the 15, and the block slots when the shape has blocks; or an
/// anchor shape's 74 (a temporary on the stack, never stored).
#[allow(clippy::large_enum_variant)]
enum ReadSlots {
    Classic([usize; SLOTS], Option<[usize; Shape::BLOCK_SLOTS]>),
    Anchor([usize; Shape::ANCHOR_SLOTS]),
}

impl ReadSlots {
    /// The slots in summation order.
    #[inline]
    fn iter(&self) -> impl Iterator<Item = &usize> {
        let (classic, blocks, anchor): (&[usize], &[usize], &[usize]) = match self {
            ReadSlots::Classic(s, b) => (s, b.as_ref().map_or(&[][..], |b| &b[..]), &[]),
            ReadSlots::Anchor(a) => (&[], &[], a),
        };
        classic.iter().chain(blocks).chain(anchor)
    }
}

/// The temporal coherence accumulators of a network ([`NTuple::update_tc`]): per weight `E`
/// (the sum of the TD errors it has been moved by) and `A` (the sum of their absolute
/// values), side by side so a step touches one more cache line, not two. Twice the network's
/// memory (504 MB for the standard shape). Training state, not part of the value: a TC run
/// continues exactly only from its weights *and* these ([`encode_coherence`]).
#[derive(Clone, PartialEq)]
pub struct Coherence {
    /// Kept by the shared [`ntuple`] crate; indexed by slot.
    ea: ntuple::Coherence,
}

impl fmt::Debug for Coherence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Coherence({} weights)", self.ea.len())
    }
}

impl Coherence {
    /// Zero accumulators for a network of `shape` (every weight starts at rate 1).
    pub fn new(shape: &Shape) -> Coherence {
        Coherence { ea: ntuple::Coherence::new(shape.weights()) }
    }

    /// `[E, A]` of weight `i`.
    pub fn get(&self, i: usize) -> [f32; 2] {
        self.ea[i]
    }

    /// The number of weights covered.
    pub fn weights(&self) -> usize {
        self.ea.len()
    }

    /// FNV-1a over the accumulators' bytes.
    pub fn fingerprint(&self) -> u64 {
        self.ea.fingerprint()
    }
}

/// The network as a leaf [`Evaluator`] (`ntuple`): shared, so a batch of games clones a
/// pointer, not 252 MB.
#[derive(Clone, Debug)]
pub struct NTupleEval(pub Arc<NTuple>);

impl Evaluator for NTupleEval {
    fn name(&self) -> &'static str {
        "ntuple"
    }

    #[inline]
    fn eval(&self, board: &Board, _level: u32, drops_left: u32) -> f64 {
        self.0.value(board, drops_left)
    }

    fn eval_reference(&self, grid: &[[u8; SIZE]; SIZE], _level: u32, drops_left: u32) -> f64 {
        self.0.value_reference(grid, drops_left)
    }
}

/// The mean of several networks' values as one leaf (`ntuple:@A+@B..`): an ensemble of
/// independently trained networks, whose errors partly cancel.
#[derive(Clone, Debug)]
pub struct NTupleMean(pub Vec<Arc<NTuple>>);

impl Evaluator for NTupleMean {
    fn name(&self) -> &'static str {
        "ntuple-mean"
    }

    #[inline]
    fn eval(&self, board: &Board, _level: u32, drops_left: u32) -> f64 {
        let mut v = 0.0;
        for net in &self.0 {
            v += net.value(board, drops_left);
        }
        v / self.0.len() as f64
    }

    fn eval_reference(&self, grid: &[[u8; SIZE]; SIZE], _level: u32, drops_left: u32) -> f64 {
        let mut v = 0.0;
        for net in &self.0 {
            v += net.value_reference(grid, drops_left);
        }
        v / self.0.len() as f64
    }
}

/// What one game played by [`train_game`] or [`greedy_game`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    /// Final score.
    pub score: u64,
    /// Moves played.
    pub moves: u64,
}

/// The greedy column for `pos` under `net`: the open column with the largest
/// `points + V(afterstate)` (the points alone if the move ends the game), each column played
/// with the search's reveal stream [`SearchDraws::for_move`]; the lowest column on ties.
/// Returns the column, the afterstate and whether any gray was revealed. `None` if no
/// column is open. [`greedy_sampled`] with one sample.
#[inline]
pub fn greedy(net: &NTuple, rules: &Rules, pos: &Position) -> Option<(usize, Position, bool)> {
    greedy_sampled(net, rules, pos, 1)
}

/// [`greedy`] with each revealing column valued by the mean of `samples` reveal samples
/// (the search's samples `0..samples`, [`SearchDraws::sample`]): the mean of
/// `points + V(afterstate)` over the samples, as drop7-bench's training policy averages 7.
/// A column whose sample 0 reveals nothing is deterministic and valued once. The afterstate
/// returned is sample 0's. `samples` 0 counts as 1.
#[inline]
pub fn greedy_sampled(
    net: &NTuple,
    rules: &Rules,
    pos: &Position,
    samples: u32,
) -> Option<(usize, Position, bool)> {
    let mut best: Option<(usize, Position, bool, f64)> = None;
    // The board's hash, for the samples after the first (computed once, when first needed).
    let mut board_hash: Option<u64> = None;
    for c in 0..SIZE {
        if !pos.board.can_drop(c) {
            continue;
        }
        let mut child = *pos;
        let mut draws = SearchDraws::for_move(&pos.board, c, pos.next);
        let turn = child.drop_and_resolve(rules, c, &mut draws);
        let mut v = turn.points as f64
            + if child.over { 0.0 } else { net.value(&child.board, child.drops_left) };
        let revealed = draws.count > 0;
        if revealed && samples > 1 {
            let hash = *board_hash.get_or_insert_with(|| pos.board.hash64());
            for k in 1..samples {
                let mut other = *pos;
                let mut d = SearchDraws::sample_hashed(hash, c, pos.next, k);
                let t = other.drop_and_resolve(rules, c, &mut d);
                v += t.points as f64
                    + if other.over { 0.0 } else { net.value(&other.board, other.drops_left) };
            }
            v /= f64::from(samples);
        }
        if best.as_ref().is_none_or(|b| v > b.3) {
            best = Some((c, child, revealed, v));
        }
    }
    best.map(|(c, child, revealed, _)| (c, child, revealed))
}

/// How training games are played and stepped, beyond the learning rule and its rate: the
/// behaviour policy's reveal samples ([`greedy_sampled`]) and a clamp on the TD error of
/// each step (drop7-bench clamps its error at 30 rises, 510,000 points).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Play {
    /// Reveal samples a revealing candidate is valued over (1: [`greedy`]).
    pub reveal_samples: u32,
    /// The largest TD error a step uses, in points (`f32::INFINITY`: none); an error beyond
    /// it is cut to it, sign kept. Positive (a NaN or a negative clamp is a caller's bug).
    pub clamp: f32,
}

impl Default for Play {
    fn default() -> Self {
        Play { reveal_samples: 1, clamp: f32::INFINITY }
    }
}

impl Play {
    /// `err` cut to the clamp (a NaN stays NaN, as an unclamped error would).
    #[inline]
    fn cut(&self, err: f32) -> f32 {
        if err > self.clamp {
            self.clamp
        } else if err < -self.clamp {
            -self.clamp
        } else {
            err
        }
    }
}

/// Plays the chosen column on the real stream: the candidate afterstate itself when the move
/// revealed nothing (the engine is deterministic in the board and the reveals).
#[inline]
fn play_real(
    rules: &Rules,
    pos: &Position,
    choice: (usize, Position, bool),
    draws: &mut RandomDraws,
) -> Position {
    let (col, child, revealed) = choice;
    if !revealed {
        return child;
    }
    let mut real = *pos;
    real.drop_and_resolve(rules, col, draws);
    real
}

/// Plays one training game from `seed` (the stream of [`RandomDraws::new`], Hardcore's
/// opening with `Rules::new(Mode::Hardcore)`) greedily ([`greedy`]) and learns from it by
/// TD(0) on afterstates with step `alpha` per weight (see the [module docs](self)).
/// Deterministic: same network, rules, seed and alpha, same result.
pub fn train_game(net: &mut NTuple, rules: &Rules, seed: u64, alpha: f32) -> GameOutcome {
    train_game_with(net, rules, seed, alpha, Play::default())
}

/// [`train_game`] played and stepped as `play` says ([`Play`]); `Play::default()` is
/// [`train_game`] itself.
pub fn train_game_with(
    net: &mut NTuple,
    rules: &Rules,
    seed: u64,
    alpha: f32,
    play: Play,
) -> GameOutcome {
    debug_assert!(play.clamp > 0.0, "clamp {} must be positive", play.clamp);
    greedy_td_game(net, rules, seed, play, &mut Td { alpha, play })
}

/// [`train_game`] with temporal coherence steps ([`NTuple::update_tc`], step `beta` at full
/// coherence, accumulators `acc`): the same greedy games on the same streams while the
/// weights are equal; only the update differs. Deterministic like it.
pub fn train_game_tc(
    net: &mut NTuple,
    acc: &mut Coherence,
    rules: &Rules,
    seed: u64,
    beta: f32,
) -> GameOutcome {
    train_game_tc_with(net, acc, rules, seed, beta, Play::default())
}

/// [`train_game_tc`] played and stepped as `play` says ([`Play`]).
pub fn train_game_tc_with(
    net: &mut NTuple,
    acc: &mut Coherence,
    rules: &Rules,
    seed: u64,
    beta: f32,
    play: Play,
) -> GameOutcome {
    debug_assert!(play.clamp > 0.0, "clamp {} must be positive", play.clamp);
    greedy_td_game(net, rules, seed, play, &mut Tc { acc, beta, play })
}

/// How the previous afterstate `(b, d)` learns towards `target`.
trait Step {
    fn learn(&mut self, net: &mut NTuple, b: &Board, d: u32, target: f64);
}

/// TD(0): `alpha * error` added to each weight read.
struct Td {
    alpha: f32,
    play: Play,
}

impl Step for Td {
    #[inline]
    fn learn(&mut self, net: &mut NTuple, b: &Board, d: u32, target: f64) {
        if net.shape.anchor {
            td_on(&mut net.weights, &net.shape.anchor_slots(b, d), self.alpha, self.play, target);
        } else if net.shape.blocks {
            let delta = self.alpha * self.play.cut((target - net.value(b, d)) as f32);
            net.update(b, d, delta);
        } else {
            td_on(&mut net.weights, &net.shape.slots(b, d), self.alpha, self.play, target);
        }
    }
}

/// The TD(0) step over one computation of the slots: their value summed as
/// [`NTuple::value`] sums it, then `alpha * (target - value)` added to each (as
/// [`NTuple::update`]), the error cut by `play`'s clamp.
#[inline]
fn td_on(weights: &mut ntuple::Weights, slots: &[usize], alpha: f32, play: Play, target: f64) {
    let mut v = 0.0;
    for &s in slots {
        v += f64::from(weights[s]);
    }
    let delta = alpha * play.cut((target - v) as f32);
    for &s in slots {
        weights[s] += delta;
    }
}

/// Temporal coherence ([`NTuple::update_tc`]).
struct Tc<'a> {
    acc: &'a mut Coherence,
    beta: f32,
    play: Play,
}

impl Step for Tc<'_> {
    #[inline]
    fn learn(&mut self, net: &mut NTuple, b: &Board, d: u32, target: f64) {
        // value and step over one computation of the slots (the same sum as `value`)
        let slots = net.read_slots(b, d);
        let mut v = 0.0;
        for &s in slots.iter() {
            v += f64::from(net.weights[s]);
        }
        net.tc_apply(self.acc, &slots, self.play.cut((target - v) as f32), self.beta);
    }
}

/// The greedy self-play loop of [`train_game`] and [`train_game_tc`].
#[inline]
fn greedy_td_game<S: Step>(
    net: &mut NTuple,
    rules: &Rules,
    seed: u64,
    play: Play,
    step: &mut S,
) -> GameOutcome {
    let mut draws = RandomDraws::new(rules, seed);
    let mut pos = Position::new_game(rules, &mut draws);
    let mut prev: Option<(Board, u32)> = None;
    let mut moves = 0;
    while let Some(choice) = greedy_sampled(net, rules, &pos, play.reveal_samples) {
        let after = play_real(rules, &pos, choice, &mut draws);
        moves += 1;
        let points = (after.score - pos.score) as f64;
        let target =
            points + if after.over { 0.0 } else { net.value(&after.board, after.drops_left) };
        if let Some((b, d)) = prev {
            step.learn(net, &b, d, target);
        }
        pos = after;
        if pos.over {
            break;
        }
        prev = Some((pos.board, pos.drops_left));
        pos.next = crate::engine::Draws::next_disc(&mut draws);
    }
    GameOutcome { score: pos.score, moves }
}

/// The network borrowed as a leaf [`Evaluator`], for a searcher built afresh at each move
/// of [`train_game_searched`] (the weights change between moves).
#[derive(Clone, Copy, Debug)]
pub struct NTupleRef<'a>(pub &'a NTuple);

impl Evaluator for NTupleRef<'_> {
    fn name(&self) -> &'static str {
        "ntuple"
    }

    #[inline]
    fn eval(&self, board: &Board, _level: u32, drops_left: u32) -> f64 {
        self.0.value(board, drops_left)
    }

    fn eval_reference(&self, grid: &[[u8; SIZE]; SIZE], _level: u32, drops_left: u32) -> f64 {
        self.0.value_reference(grid, drops_left)
    }
}

/// [`train_game`] with a searched behaviour policy: each move is the choice of a fair
/// expectimax `depth` moves deep over the current network (all 7 next-disc values at chance
/// nodes, reveals paired with the next disc, no table: the searcher of `play --depth D
/// --reveals paired --eval ntuple:@FILE`), played on the real stream; the previous
/// afterstate's value then moves towards `points + V(real afterstate)` as in [`train_game`],
/// so the network learns the values of the states a searcher reaches, under the searcher's
/// own play. `depth` 1 is [`train_game`] itself (the greedy choice differs from a depth-1
/// search only in how it treats a move that ends the game). Deterministic like it.
pub fn train_game_searched(
    net: &mut NTuple,
    rules: &Rules,
    seed: u64,
    alpha: f32,
    depth: u32,
) -> GameOutcome {
    if depth <= 1 {
        return train_game(net, rules, seed, alpha);
    }
    let mut draws = RandomDraws::new(rules, seed);
    let mut pos = Position::new_game(rules, &mut draws);
    let mut prev: Option<(Board, u32)> = None;
    let mut moves = 0;
    while (0..SIZE).any(|c| pos.board.can_drop(c)) {
        let col = {
            let mut s = Searcher::new(*rules, ChanceModel::Exact, NTupleRef(net), NoTable);
            s.paired_reveals = true;
            s.decide(&pos, depth).best
        };
        let mut after = pos;
        after.drop_and_resolve(rules, col, &mut draws);
        moves += 1;
        let points = (after.score - pos.score) as f64;
        let target =
            points + if after.over { 0.0 } else { net.value(&after.board, after.drops_left) };
        if let Some((b, d)) = prev {
            let delta = alpha * (target - net.value(&b, d)) as f32;
            net.update(&b, d, delta);
        }
        pos = after;
        if pos.over {
            break;
        }
        prev = Some((pos.board, pos.drops_left));
        pos.next = crate::engine::Draws::next_disc(&mut draws);
    }
    GameOutcome { score: pos.score, moves }
}

/// Plays one game from `seed` greedily under `net` without learning (1-ply, fair).
pub fn greedy_game(net: &NTuple, rules: &Rules, seed: u64, max_moves: u64) -> GameOutcome {
    let mut draws = RandomDraws::new(rules, seed);
    let mut pos = Position::new_game(rules, &mut draws);
    let mut moves = 0;
    while moves < max_moves {
        let Some(choice) = greedy(net, rules, &pos) else { break };
        pos = play_real(rules, &pos, choice, &mut draws);
        moves += 1;
        if pos.over {
            break;
        }
        pos.next = crate::engine::Draws::next_disc(&mut draws);
    }
    GameOutcome { score: pos.score, moves }
}

use bits::sealed::{f32s, seal_pairs, unseal, unseal_pairs, Reader};
/// FNV-1a, 64 bits: the weight file's checksum (the shared one in `bits`).
pub use bits::Fnv;

/// How a weight file's weights were made (the header both games' network files share).
pub use bits::sealed::Meta;

/// The first 8 bytes of a weight file.
pub const MAGIC: [u8; 8] = *b"BD7NTUPL";

/// The format version this code writes and reads.
pub const VERSION: u32 = 1;

bits::weight_file_error! {
    /// Why bytes are not a weight file.
    pub enum FileError {
        /// The header's shape is not valid.
        Shape(String),
    }
    display |f| {
        FileError::Magic => write!(f, "not a Drop7 n-tuple weight file (bad magic)"),
        FileError::Version(v) => write!(f, "weight file version {v} (this program reads {VERSION})"),
        FileError::Shape(e) => write!(f, "bad shape in the header: {e}"),
    }
}

/// The weight file of `net`:
///
/// ```text
///   magic "BD7NTUPL" (8) | version u32 | shape text length u32 | shape text (UTF-8,
///   `rows=0112233 size=10485760`, with ` blocks=2x3` when it has blocks) | games u64
///   | seed u64 | alpha f32
///   | weights f32: the column table, the row tables by class, the profile table, `size` each,
///     then with blocks the 18 block tables, [`Shape::block_size`] each
///   | FNV-1a 64 of everything before (u64)
/// ```
///
/// All numbers little-endian.
pub fn encode(net: &NTuple, meta: &Meta) -> Vec<u8> {
    let mut out = Vec::with_capacity(96 + 4 * net.weights.len());
    write_to(net, meta, &mut out).expect("a Vec takes every write");
    out
}

/// [`encode`]'s bytes written to `w` as they are made, never whole in memory (a 4 GB anchor
/// network is written without a second 4 GB); [`encode`] is this into a `Vec`.
pub fn write_to(net: &NTuple, meta: &Meta, w: impl std::io::Write) -> std::io::Result<()> {
    use std::io::Write;
    let shape = net.shape.to_string();
    let mut out = bits::sealed::SealedWriter::new(w);
    out.write_all(&MAGIC)?;
    out.write_all(&VERSION.to_le_bytes())?;
    out.write_all(&(shape.len() as u32).to_le_bytes())?;
    out.write_all(shape.as_bytes())?;
    out.write_all(&meta.games.to_le_bytes())?;
    out.write_all(&meta.seed.to_le_bytes())?;
    out.write_all(&meta.alpha.to_le_bytes())?;
    out.write_f32s(&net.weights)?;
    out.finish()?.flush()
}

/// Reads a weight file written by [`encode`], checking the magic, version, shape, length and
/// checksum.
pub fn decode(bytes: &[u8]) -> Result<(NTuple, Meta), FileError> {
    let (shape, meta, body) = decode_parts(bytes)?;
    let weights = ntuple::Weights::from_vec(&shape.table_sizes(), f32s(body).collect())
        .expect("decode_parts checked the length");
    Ok((NTuple { shape, weights }, meta))
}

/// [`decode`]'s checks (magic, version, shape, length, checksum) without building the
/// network: the shape, the header and the weights' bytes ([`Shape::weights`] little-endian
/// `f32`s, table after table), so a caller can read a 4 GB file's weights without a
/// second 4 GB (`drop7 average`).
pub fn decode_parts(bytes: &[u8]) -> Result<(Shape, Meta, &[u8]), FileError> {
    let mut r = Reader::new(bytes);
    if r.take(8, "magic").map_err(|_| FileError::Magic)? != MAGIC {
        return Err(FileError::Magic);
    }
    let version = r.u32("header")?;
    if version != VERSION {
        return Err(FileError::Version(version));
    }
    let len = r.u32("header")? as usize;
    if len > 256 {
        return Err(FileError::Shape(format!("shape text of {len} bytes")));
    }
    let text = std::str::from_utf8(r.take(len, "header")?)
        .map_err(|_| FileError::Shape("shape text is not UTF-8".into()))?;
    let shape: Shape = text.parse().map_err(FileError::Shape)?;
    let games = r.u64("header")?;
    let seed = r.u64("header")?;
    let alpha = r.f32("header")?;
    let expected = r.position() + 4 * shape.weights() + 8;
    if bytes.len() != expected {
        return Err(FileError::Length { expected, found: bytes.len() });
    }
    let body = unseal(bytes)?;
    Ok((shape, Meta { games, seed, alpha }, &body[r.position()..]))
}

/// The first 8 bytes of a TC accumulator file ([`encode_coherence`]).
pub const MAGIC_TC: [u8; 8] = *b"BD7TCACC";

/// The format version of [`encode_coherence`].
pub const VERSION_TC: u32 = 1;

/// The accumulator file of a temporal coherence run, kept beside its weight file (the CLI
/// names it `FILE.tc`), so that a run continued from the pair gives the bytes of one run:
///
/// ```text
///   magic "BD7TCACC" (8) | version u32 = 1 | games u64 | the weights' fingerprint u64
///   | weight count u64 | per weight, in the weight file's order: E f32, A f32
///   | FNV-1a 64 of everything before (u64)
/// ```
///
/// `games` and the fingerprint ([`NTuple::fingerprint`]) tie it to one weight file
/// ([`decode_coherence`] checks both). All numbers little-endian.
pub fn encode_coherence(acc: &Coherence, games: u64, weights_fingerprint: u64) -> Vec<u8> {
    seal_pairs(&MAGIC_TC, VERSION_TC, games, weights_fingerprint, &[&acc.ea[..]])
}

/// [`encode_coherence`]'s bytes written to `w` as they are made (8 GB for the anchor shape,
/// never held twice).
pub fn write_coherence_to(
    acc: &Coherence,
    games: u64,
    weights_fingerprint: u64,
    w: impl std::io::Write,
) -> std::io::Result<()> {
    bits::sealed::write_pairs_to(
        w,
        &MAGIC_TC,
        VERSION_TC,
        games,
        weights_fingerprint,
        &[&acc.ea[..]],
    )
}

/// Reads an accumulator file of [`encode_coherence`] for `net` after `games` training games,
/// checking the magic, version, length, checksum and that it is `net`'s (games and
/// fingerprint).
pub fn decode_coherence(bytes: &[u8], net: &NTuple, games: u64) -> Result<Coherence, FileError> {
    let pairs =
        unseal_pairs(bytes, &MAGIC_TC, VERSION_TC, net.weights.len(), games, net.fingerprint())?;
    Ok(Coherence { ea: ntuple::Coherence::from_vec(pairs.collect()) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Mode;

    fn odd_net(shape: Shape) -> NTuple {
        let mut net = NTuple::new(shape);
        for (i, w) in net.weights.iter_mut().enumerate() {
            *w = ((i as u64).wrapping_mul(0x9E37_79B9) % 2001) as f32 - 1000.25;
        }
        net
    }

    #[test]
    fn shape_text_round_trips_and_checks() {
        let s = Shape::standard();
        assert_eq!(s.to_string(), "rows=0112233 size=10485760");
        assert_eq!(s.to_string().parse::<Shape>().unwrap(), s);
        assert_eq!(s.tables(), 6);
        assert!("rows=0211233 size=10".parse::<Shape>().is_err());
        assert!("rows=0112233 size=0".parse::<Shape>().is_err());
        assert!("rows=011223 size=10".parse::<Shape>().is_err());
        assert!("rows=0112233".parse::<Shape>().is_err());
    }

    #[test]
    fn mirrored_boards_read_the_same_weights() {
        let net = odd_net(Shape::new([0, 1, 1, 2, 2, 3, 3], 1 << 20).unwrap());
        let b: Board = "......./......./..6..../..x..../..#4.../3#6#4#5/#######".parse().unwrap();
        let mut m = *b.cols();
        m.reverse();
        let mb = Board::from_cols(m);
        let mut s1 = net.shape.slots(&b, 3);
        let mut s2 = net.shape.slots(&mb, 3);
        assert_ne!(s1, s2);
        s1.sort_unstable();
        s2.sort_unstable();
        assert_eq!(s1, s2);
        assert_eq!(net.value(&b, 3).to_bits(), net.value(&mb, 3).to_bits());
    }

    #[test]
    fn blocks_are_mirror_shared_and_their_shape_round_trips() {
        let shape: Shape = "rows=0112233 size=1048576 blocks=2x3".parse().unwrap();
        assert!(shape.blocks());
        assert_eq!(shape.to_string().parse::<Shape>().unwrap(), shape);
        assert_eq!(
            "standard blocks=2x3".parse::<Shape>().unwrap(),
            Shape::standard().with_blocks(true)
        );
        assert!("standard blocks=2x4".parse::<Shape>().is_err());
        assert_eq!(shape.weights(), 6 * 1_048_576 + 18 * 1_000_000);
        let net = odd_net(shape);
        let b: Board = "......./......./..6..../..x..../..#4.../3#6#4#5/#######".parse().unwrap();
        let mut m = *b.cols();
        m.reverse();
        let mb = Board::from_cols(m);
        let mut s1 = net.shape.block_slots(&b);
        let mut s2 = net.shape.block_slots(&mb);
        assert_ne!(s1, s2);
        s1.sort_unstable();
        s2.sort_unstable();
        assert_eq!(s1, s2);
        assert_eq!(net.value(&b, 3).to_bits(), net.value(&mb, 3).to_bits());
        // extending a network keeps its value until training moves the new weights
        let plain = odd_net(shape.with_blocks(false));
        let ext = plain.extended(shape).unwrap();
        assert_eq!(ext.value(&b, 2).to_bits(), plain.value(&b, 2).to_bits());
        assert!(ext.extended(shape).is_none());
        assert!(plain.extended(Shape::standard().with_blocks(true)).is_none());
    }

    #[test]
    fn file_round_trips_and_names_each_defect() {
        let net = odd_net(Shape::new([0, 0, 0, 0, 1, 1, 1], 97).unwrap());
        let meta = Meta { games: 12, seed: 7, alpha: 0.25 };
        let bytes = encode(&net, &meta);
        let (back, m) = decode(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(m, meta);
        // streamed: the same bytes, for a classic and an anchor network
        let mut streamed = Vec::new();
        write_to(&net, &meta, &mut streamed).unwrap();
        assert_eq!(streamed, bytes);
        let anchor = odd_net(Shape::anchor(211).unwrap());
        let mut streamed = Vec::new();
        write_to(&anchor, &meta, &mut streamed).unwrap();
        assert_eq!(streamed, encode(&anchor, &meta));
        assert_eq!(decode(&streamed).unwrap().0, anchor);
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(decode(&bad), Err(FileError::Magic));
        let mut bad = bytes.clone();
        bad[8] = 2;
        assert_eq!(decode(&bad), Err(FileError::Version(2)));
        let mut bad = bytes.clone();
        let last = bad.len() - 9;
        bad[last] ^= 1;
        assert!(matches!(decode(&bad), Err(FileError::Checksum { .. })));
        assert!(matches!(decode(&bytes[..bytes.len() - 1]), Err(FileError::Length { .. })));
        assert!(matches!(decode(&bytes[..20]), Err(FileError::Truncated { .. })));
    }

    #[test]
    fn training_is_deterministic_and_resumable() {
        let rules = Rules::new(Mode::Hardcore);
        let shape = Shape::new([0, 1, 1, 1, 2, 2, 2], 4093).unwrap();
        let mut a = NTuple::new(shape);
        let mut b = NTuple::new(shape);
        for i in 0..30 {
            train_game(&mut a, &rules, bits::rng::sub_seed(5, i), 0.01);
        }
        for i in 0..30 {
            train_game(&mut b, &rules, bits::rng::sub_seed(5, i), 0.01);
        }
        assert_eq!(a.fingerprint(), b.fingerprint());
        assert!(a.weights.iter().any(|&w| w != 0.0));
    }

    #[test]
    fn tc_training_is_deterministic_resumable_and_its_file_pairs() {
        let rules = Rules::new(Mode::Hardcore);
        let shape = Shape::new([0, 1, 1, 1, 2, 2, 2], 4093).unwrap();
        let run = |games: std::ops::Range<u64>, net: &mut NTuple, acc: &mut Coherence| {
            for i in games {
                train_game_tc(net, acc, &rules, bits::rng::sub_seed(5, i), 0.05);
            }
        };
        let (mut a, mut acc_a) = (NTuple::new(shape), Coherence::new(&shape));
        run(0..30, &mut a, &mut acc_a);
        // 18 games, through the files, then 12 more: the bytes of one run
        let (mut b, mut acc_b) = (NTuple::new(shape), Coherence::new(&shape));
        run(0..18, &mut b, &mut acc_b);
        let bytes = encode_coherence(&acc_b, 18, b.fingerprint());
        let (mut b, _) = decode(&encode(&b, &Meta { games: 18, seed: 5, alpha: 0.05 })).unwrap();
        let mut acc_b = decode_coherence(&bytes, &b, 18).unwrap();
        run(18..30, &mut b, &mut acc_b);
        assert_eq!((a.fingerprint(), acc_a.fingerprint()), (b.fingerprint(), acc_b.fingerprint()));
        assert!(a.weights.iter().any(|&w| w != 0.0));
        // TC is not TD
        let mut td = NTuple::new(shape);
        for i in 0..30 {
            train_game(&mut td, &rules, bits::rng::sub_seed(5, i), 0.05);
        }
        assert_ne!(td.fingerprint(), a.fingerprint());
        // the accumulator file is tied to its weights and games count, and checked
        let bytes = encode_coherence(&acc_a, 30, a.fingerprint());
        assert_eq!(decode_coherence(&bytes, &td, 30), Err(FileError::Unpaired("weights")));
        assert_eq!(decode_coherence(&bytes, &a, 29), Err(FileError::Unpaired("games counts")));
        let mut bad = bytes.clone();
        bad[60] ^= 1;
        assert!(matches!(decode_coherence(&bad, &a, 30), Err(FileError::Checksum { .. })));
        assert!(matches!(
            decode_coherence(&bytes[..bytes.len() - 9], &a, 30),
            Err(FileError::Length { .. })
        ));
        assert_eq!(decode_coherence(&bytes[..4], &a, 30), Err(FileError::Magic));
    }

    #[test]
    fn searched_training_is_deterministic_and_plays_its_own_moves() {
        let rules = Rules::new(Mode::Hardcore);
        let shape = Shape::new([0, 1, 1, 1, 2, 2, 2], 4093).unwrap();
        let mut warm = NTuple::new(shape);
        for i in 0..20 {
            train_game(&mut warm, &rules, bits::rng::sub_seed(5, i), 0.01);
        }
        let run = |depth: u32| {
            let mut n = warm.clone();
            let out: Vec<GameOutcome> = (20..24)
                .map(|i| {
                    train_game_searched(&mut n, &rules, bits::rng::sub_seed(5, i), 0.01, depth)
                })
                .collect();
            (n.fingerprint(), out)
        };
        let (d2, games2) = run(2);
        assert_eq!(run(2), (d2, games2.clone()));
        // depth 1 is train_game itself
        let mut n1 = warm.clone();
        let games1: Vec<GameOutcome> = (20..24)
            .map(|i| train_game(&mut n1, &rules, bits::rng::sub_seed(5, i), 0.01))
            .collect();
        assert_eq!(run(1), (n1.fingerprint(), games1.clone()));
        // the searched policy plays other games (and so learns other weights)
        assert_ne!(games2, games1);
        assert_ne!(d2, n1.fingerprint());
        assert_ne!(d2, warm.fingerprint());
    }
}
