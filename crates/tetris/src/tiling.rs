//! The order-free tiling test: can the empty cells of a PC zone be covered exactly by pieces
//! from a multiset? A relaxation of the real problem (no order, gravity or reachability), so a
//! `false` proves that no perfect clear exists.
//!
//! # Implementation notes
//!
//! The zone is the solver's `u64` (bit `10 * y + x`); the empty cells are `!zone` within the
//! live rows. Exact cover covers the lowest, leftmost empty cell `c = empty.trailing_zeros()`
//! first: every cell below it is filled, so `c` is the leftmost cell of the lowest row of the
//! piece that covers it. A piece placed after a line clear spans the cleared row in today's
//! frame, so a piece's rows may lie on any increasing sequence of rows (its lowest row on
//! `c`'s row). Every such tile is precomputed at compile time as a `u64` mask:
//!
//! ```text
//!   group g = 4 * c + l - 1           the tiles whose lowest-row leftmost cell is c and whose
//!                                     lowest row has l cells (1..4)
//!   TILES[START[g]..END[g][rows]]     those whose top row is below `rows`, sorted by top row
//!                                     (compact shapes first), as (mask, piece)
//!   LISTS      the same tiles copied once per height `rows` and per state of the cells one
//!              and two rows above c (a filled one leaves out the tiles covering it), so
//!              that the groups 4c .. 4c+run of tiles with top row below `rows` are ONE
//!              slice in the table's order; one word per tile: below height 6
//!              mask (bits 0..57) | 1 << (57 + piece), at height 6 mask | piece << 60
//!   one step:  run = empty cells from c rightwards (capped at 4); for each word of the slice:
//!              word & (!empty | pieces with count 0) == 0   ->  empty ^= mask
//!   walls:     before recursing, the walls the tile created (column boundaries that no row
//!              crosses with two empty cells; no tile crosses one) must leave parts whose
//!              areas are divisible by 4: a closed-off pocket fails at once instead of
//!              when its cells are finally reached
//! ```
//!
//! Cell `(x, y0)` has at most 136 tiles (y0 = 0 in 6 rows: 1 flat I, 9 two-row shapes on 5
//! choices of second row, 8 three-row shapes on 10 pairs, the upright I on 10 triples); the
//! whole table is 2,727 tiles (24 KiB), the lists 14,548 words (114 KiB; the 4-row part the
//! 4-line search uses is 1,942 words, 15 KiB). Session 3, instructions on the 4-line benchmark
//! with the same nodes: one slice instead of one per lowest-row length (same tiles in the same
//! order, fewer loop starts) 374 M -> 357 M; the variants by the cells above the anchor (tiles
//! that would fail the emptiness test are not visited) 336 M -> 313 M; covering the parts
//! between walls (column boundaries no tile can cross) smallest first, so that an impossible
//! small part is found before the big part's tilings are enumerated, 267 M -> 260 M; the piece
//! as a bit of the word, tested in the same AND as the cells (slightly more instructions, but
//! one unpredictable branch less per candidate: about 10% less CPU time). Session 4: the wall
//! test after every tile (only the walls the tile created are new) cut the exact-cover calls of
//! the 4-line benchmark to about a quarter, and made refuting 20-cell tilings cheap enough that
//! the solver runs the test from 5 pieces left in PCs of up to 4 lines (259.2 M -> 181.7 M
//! instructions, 0.77x CPU time). Refuted sub-problems are remembered in a
//! [`TileFailures`] set keyed by (empty cells, piece counts) that the solver keeps for a whole
//! search. The slow twin, one `u16` row at a time with no table, is
//! [`reference::tileable_rows`](crate::reference::tileable_rows); a gate test checks that the two
//! agree.

use crate::board::zone_mask;
use crate::keyset::KeySet;
use crate::piece::{Facing, Piece};

/// One fixed shape: its piece and its rows as 10-bit masks relative to the leftmost cell of
/// its lowest row (which sits at column `anchor` of the mask).
#[derive(Clone, Copy)]
pub(crate) struct TileShape {
    pub(crate) piece: u8,
    pub(crate) height: u8,
    pub(crate) anchor: u8,
    pub(crate) rows: [u16; 4],
}

const fn build_tile_shapes() -> [TileShape; 19] {
    let mut out = [TileShape { piece: 0, height: 0, anchor: 0, rows: [0; 4] }; 19];
    let mut n = 0;
    let mut p = 0;
    while p < 7 {
        let piece = Piece::ALL[p];
        let mut f = 0;
        while f < 4 {
            let facing = Facing::ALL[f];
            if piece.canonical(facing) as usize == f {
                let cells = piece.norm_cells(facing);
                let mut rows = [0u16; 4];
                let mut c = 0;
                while c < 4 {
                    rows[cells[c].1 as usize] |= 1 << cells[c].0;
                    c += 1;
                }
                let (_, h) = piece.extent(facing);
                out[n] = TileShape {
                    piece: p as u8,
                    height: h as u8,
                    anchor: rows[0].trailing_zeros() as u8,
                    rows,
                };
                n += 1;
            }
            f += 1;
        }
        p += 1;
    }
    assert!(n == 19);
    out
}

/// The 19 fixed shapes (canonical facings of the seven pieces).
pub(crate) const TILE_SHAPES: [TileShape; 19] = build_tile_shapes();

/// The mask of `shape` with its anchor on column `x` and its rows on `ys[..height]`, or 0 if
/// it crosses a wall.
const fn tile_mask(s: &TileShape, x: u32, ys: [u32; 4]) -> u64 {
    if x < s.anchor as u32 {
        return 0;
    }
    let sh = x - s.anchor as u32;
    let mut m = 0u64;
    let mut j = 0;
    while j < s.height as usize {
        let r = (s.rows[j] as u64) << sh;
        if r > 0x3FF {
            return 0;
        }
        m |= r << (10 * ys[j]);
        j += 1;
    }
    m
}

/// The row sequences of a shape of height `h` whose lowest row is `y0` and top row `top`:
/// `y0 < y1 < ... < top` (one sequence for `h <= 2`), at most 10 of them.
const fn row_choices(h: u32, y0: u32, top: u32) -> ([[u32; 4]; 10], usize) {
    let mut out = [[0u32; 4]; 10];
    let mut n = 0;
    if h == 1 {
        if top == y0 {
            out[0] = [y0, 0, 0, 0];
            n = 1;
        }
    } else if h == 2 {
        if top > y0 {
            out[0] = [y0, top, 0, 0];
            n = 1;
        }
    } else if h == 3 {
        let mut y1 = y0 + 1;
        while y1 < top {
            out[n] = [y0, y1, top, 0];
            n += 1;
            y1 += 1;
        }
    } else {
        let mut y1 = y0 + 1;
        while y1 < top {
            let mut y2 = y1 + 1;
            while y2 < top {
                out[n] = [y0, y1, y2, top];
                n += 1;
                y2 += 1;
            }
            y1 += 1;
        }
    }
    (out, n)
}

/// Most tiles with the same anchor cell and top row.
const MAX_PER_TOP: usize = 19 * 10;

/// The tiles of anchor cell `(x, y0)` with top row `top`, in shape order.
const fn tiles_at(x: u32, y0: u32, top: u32) -> ([(u64, u8); MAX_PER_TOP], usize) {
    let mut out = [(0u64, 0u8); MAX_PER_TOP];
    let mut n = 0;
    let mut si = 0;
    while si < 19 {
        let s = &TILE_SHAPES[si];
        let (ys, k) = row_choices(s.height as u32, y0, top);
        let mut j = 0;
        while j < k {
            let m = tile_mask(s, x, ys[j]);
            if m != 0 {
                out[n] = (m, s.piece);
                n += 1;
            }
            j += 1;
        }
        si += 1;
    }
    (out, n)
}

const fn count_tiles() -> usize {
    let mut n = 0;
    let mut c = 0;
    while c < 60 {
        let (x, y0) = (c % 10, c / 10);
        let mut top = y0;
        while top < 6 {
            n += tiles_at(x, y0, top).1;
            top += 1;
        }
        c += 1;
    }
    n
}

/// Number of tiles in the table.
const N_TILES: usize = count_tiles();

/// The tile table: masks and pieces, grouped by anchor cell `c` and by the length `l` of the
/// tile's lowest row (group `4 * c + l - 1`); within a group sorted by top row. `start[g]` is a
/// group's first tile, `end[g][rows]` the end of its tiles whose top row is below `rows`.
struct Table {
    mask: [u64; N_TILES],
    piece: [u8; N_TILES],
    start: [u16; 240],
    end: [[u16; 7]; 240],
}

const fn build_table() -> Table {
    let mut t =
        Table { mask: [0; N_TILES], piece: [0; N_TILES], start: [0; 240], end: [[0; 7]; 240] };
    let mut n = 0;
    let mut g = 0;
    while g < 240 {
        let (c, len) = (g / 4, g as u32 % 4 + 1);
        let (x, y0) = (c as u32 % 10, c as u32 / 10);
        t.start[g] = n as u16;
        let mut rows = 0;
        while rows <= y0 as usize {
            t.end[g][rows] = n as u16;
            rows += 1;
        }
        let mut top = y0;
        while top < 6 {
            let (tiles, k) = tiles_at(x, y0, top);
            let mut j = 0;
            while j < k {
                let m = tiles[j].0;
                if (m >> (10 * y0) & 0x3FF).count_ones() == len {
                    t.mask[n] = m;
                    t.piece[n] = tiles[j].1;
                    // Every tile covers its anchor cell and four cells, below `top + 1` rows,
                    // and its lowest row is a run of `len` cells from the anchor.
                    assert!(m.count_ones() == 4 && m >> c & 1 == 1);
                    assert!(m & !zone_mask(top + 1) == 0 && m & ((1 << c) - 1) == 0);
                    assert!(m >> c & ((1 << len) - 1) == (1 << len) - 1);
                    n += 1;
                }
                j += 1;
            }
            t.end[g][top as usize + 1] = n as u16;
            top += 1;
        }
        g += 1;
    }
    assert!(n == N_TILES);
    t
}

/// The tile table.
const TABLE: Table = build_table();

/// Whether a list entry for anchor cell `c` is kept in variant `v` of the lists: variant 0
/// keeps every tile, variant 1 (the cell above the anchor is filled) only the tiles that do not
/// cover that cell.
const fn kept(mask: u64, c: usize, v: usize) -> bool {
    let mut i = 0;
    while i < PROBES.len() {
        if v >> i & 1 == 1 && c + PROBES[i] < 60 && mask >> (c + PROBES[i]) & 1 == 1 {
            return false;
        }
        i += 1;
    }
    true
}

/// Offsets (from the anchor cell) of the cells whose state picks the list variant.
const PROBES: [usize; 2] = [10, 20];
/// Number of list variants.
const VARIANTS: usize = 1 << PROBES.len();

/// Number of entries of [`Lists`]: for both variants and every height `rows` (1..=6) the tiles
/// whose top row is below it.
const N_LIST: usize = {
    let t = &TABLE;
    let mut n = 0;
    let mut v = 0;
    while v < VARIANTS {
        let mut rows = 1;
        while rows <= 6 {
            let mut g = 0;
            while g < 40 * rows {
                let mut i = t.start[g] as usize;
                while i < t.end[g][rows] as usize {
                    if kept(t.mask[i], g / 4, v) {
                        n += 1;
                    }
                    i += 1;
                }
                g += 1;
            }
            rows += 1;
        }
        v += 1;
    }
    n
};

/// The search's view of the [`Table`], copied per remaining height and per state of the cell
/// above the anchor, so that the candidates of one step are one contiguous slice: for variant
/// `v` (1: the cell above the anchor is filled, tiles covering it left out), height `rows` and
/// anchor cell `c`, the tiles of groups `4 * c .. 4 * c + l` whose top row is below `rows`, in
/// the table's order (lowest-row length, then top row), start at `base[v][rows][c]` and end at
/// `lend[v][rows][c][l - 1]`. Each entry is one word: the cell mask in bits 0..60 and the
/// piece index in bits 60..63, so a candidate costs one load.
struct Lists {
    tile: [u64; N_LIST],
    base: [[[u16; 60]; 7]; VARIANTS],
    lend: [[[[u16; 4]; 60]; 7]; VARIANTS],
}

/// The cell bits of a [`Lists`] entry of height 6 (the piece index is in bits 60..63).
const CELLS: u64 = (1 << 60) - 1;

/// The cell bits of a [`Lists`] entry of height 5 or less: the piece is one bit, `57 + piece`,
/// so that one AND tests both "the tile fits" and "its piece is available" (see [`small`]).
const LOW_CELLS: u64 = (1 << 57) - 1;

/// Bit of the first piece in a [`Lists`] entry of height 5 or less.
const PIECE_BIT: u32 = 57;

/// The cell mask and piece index of a [`Lists`] entry for height `rows`.
#[inline]
fn decode(t: u64, rows: usize) -> (u64, usize) {
    if rows <= 5 {
        (t & LOW_CELLS, (t >> PIECE_BIT).trailing_zeros() as usize)
    } else {
        (t & CELLS, (t >> 60) as usize)
    }
}

const fn build_lists() -> Lists {
    let t = &TABLE;
    let mut out = Lists {
        tile: [0; N_LIST],
        base: [[[0; 60]; 7]; VARIANTS],
        lend: [[[[0; 4]; 60]; 7]; VARIANTS],
    };
    let mut n = 0;
    let mut v = 0;
    while v < VARIANTS {
        let mut rows = 1;
        while rows <= 6 {
            let mut c = 0;
            while c < 10 * rows {
                out.base[v][rows][c] = n as u16;
                let mut l = 0;
                while l < 4 {
                    let g = 4 * c + l;
                    let mut i = t.start[g] as usize;
                    while i < t.end[g][rows] as usize {
                        assert!(t.mask[i] & !CELLS == 0);
                        assert!(rows == 6 || t.mask[i] & !LOW_CELLS == 0);
                        if kept(t.mask[i], c, v) {
                            out.tile[n] = if rows <= 5 {
                                t.mask[i] | 1 << (PIECE_BIT + t.piece[i] as u32)
                            } else {
                                t.mask[i] | (t.piece[i] as u64) << 60
                            };
                            n += 1;
                        }
                        i += 1;
                    }
                    out.lend[v][rows][c][l] = n as u16;
                    l += 1;
                }
                c += 1;
            }
            rows += 1;
        }
        v += 1;
    }
    assert!(n == N_LIST && n < u16::MAX as usize);
    out
}

static LISTS: Lists = build_lists();

/// The candidate tiles for the lowest, leftmost empty cell `c` of `empty` in a zone of height
/// `rows`: those whose lowest row fits the run of empty cells from `c` rightwards (a run longer
/// than the row only reaches tiles that do not exist, and bits of the next row never match a
/// tile: no tile crosses a wall), without the tiles covering the cell above `c` if it is
/// filled. Every tile left out would fail the emptiness test; the order of the rest is kept.
#[inline]
fn candidates(empty: u64, c: usize, rows: usize) -> &'static [u64] {
    let run = ((empty >> c).trailing_ones() as usize).min(4);
    let fill = !empty >> c;
    let mut v = 0;
    for (i, &d) in PROBES.iter().enumerate() {
        v |= ((fill >> d & 1) as usize) << i;
    }
    let lo = usize::from(LISTS.base[v][rows][c]);
    let hi = usize::from(LISTS.lend[v][rows][c][run - 1]);
    &LISTS.tile[lo..hi]
}

/// A set of tiling sub-problems (refuted ones, for [`tiling`]'s cache): [`tile_key`]s in a
/// [`KeySet`]; a key is never 0 because only non-empty sub-problems are stored.
pub type TileFailures = KeySet<u128>;

/// Sub-problems with fewer empty cells than this are not looked up in or added to the failure
/// set (hashing costs more than re-deriving them).
const CACHE_MIN_CELLS: u32 = 24;

#[inline]
fn pack_counts(counts: &[u8; 7]) -> u32 {
    counts.iter().fold(0u32, |c, &n| c << 4 | u32::from(n.min(15)))
}

/// The key of a tiling problem: the empty cells of the zone (remaining height `rows`) in the
/// low 64 bits, the piece counts (4 bits each, capped at 15) above.
#[inline]
pub fn tile_key(zone: u64, rows: u32, counts: &[u8; 7]) -> u128 {
    u128::from(!zone & zone_mask(rows)) | u128::from(pack_counts(counts)) << 64
}

/// A tiling found by [`tiling`]: the tiles (cell masks in the zone's frame) and their pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Witness {
    /// Cell masks, in the order the exact cover chose them.
    pub tiles: [u64; 16],
    /// Piece index of each tile.
    pub pieces: [u8; 16],
    /// Number of tiles.
    pub len: u8,
}

impl Witness {
    /// The tiles as `(mask, piece)`.
    pub fn iter(&self) -> impl Iterator<Item = (u64, Piece)> + '_ {
        self.tiles[..usize::from(self.len)]
            .iter()
            .zip(&self.pieces)
            .map(|(&m, &p)| (m, Piece::from_index(usize::from(p))))
    }

    /// Whether `mask` of `piece` is one of the tiles.
    #[inline]
    pub fn contains(&self, mask: u64, piece: Piece) -> bool {
        (0..usize::from(self.len))
            .any(|i| self.tiles[i] == mask && usize::from(self.pieces[i]) == piece.index())
    }

    /// The witness of the field after `mask` (one of the tiles) is placed and the rows in
    /// `cleared` (a mask of whole rows, all of whose empty cells `mask` covered) are removed.
    pub fn after(&self, mask: u64, cleared: u64) -> Witness {
        let keep = !cleared & crate::board::zone_mask(6);
        let mut w = Witness::default();
        for i in 0..usize::from(self.len) {
            if self.tiles[i] == mask {
                continue;
            }
            let m = if cleared == 0 { self.tiles[i] } else { bits::pext_u64(self.tiles[i], keep) };
            w.tiles[usize::from(w.len)] = m;
            w.pieces[usize::from(w.len)] = self.pieces[i];
            w.len += 1;
        }
        w
    }
}

/// Whether the empty cells of the zone (remaining height `rows`) can be tiled by pieces from
/// `counts` (each piece at most its count), with each piece's rows on any increasing
/// sequence of rows (see the [module docs](self)). `failed` remembers refuted sub-problems
/// (pass an empty set if there is nothing to share). `counts` is restored before returning.
pub fn tileable(zone: u64, rows: u32, counts: &mut [u8; 7], failed: &mut TileFailures) -> bool {
    tiling(zone, rows, counts, failed, &mut Witness::default())
}

/// [`tileable`], also writing the tiling it found (if any) to `out`.
pub fn tiling(
    zone: u64,
    rows: u32,
    counts: &mut [u8; 7],
    failed: &mut TileFailures,
    out: &mut Witness,
) -> bool {
    let empty = !zone & zone_mask(rows);
    out.len = 0;
    let cells = empty.count_ones();
    let walls = wall_bits(empty);
    let ok = if !walls_divide(empty, walls) {
        false
    } else if cells >= CACHE_MIN_CELLS {
        rec(empty, rows as usize, counts, failed, out, 0)
    } else {
        let (parts, n) = parts_smallest_first(empty);
        small(empty, rows as usize, counts, unavailable(counts), walls, out, 0, &parts[..n])
    };
    if ok {
        out.len = (cells / 4) as u8;
    }
    ok
}

/// One exact-cover step on a sub-problem of at least [`CACHE_MIN_CELLS`] cells (looked up in
/// and added to the failure set). On success the tile chosen at step `depth` is written to
/// `out.tiles[depth]` (a zone holds at most 15 tiles).
fn rec(
    empty: u64,
    rows: usize,
    counts: &mut [u8; 7],
    failed: &mut TileFailures,
    out: &mut Witness,
    depth: usize,
) -> bool {
    debug_assert!(empty.count_ones() >= CACHE_MIN_CELLS && depth < out.tiles.len());
    let key = u128::from(empty) | u128::from(pack_counts(counts)) << 64;
    if failed.contains(key) {
        return false;
    }
    let c = empty.trailing_zeros() as usize;
    let fill = !empty & CELLS;
    let next_small = empty.count_ones() - 4 < CACHE_MIN_CELLS;
    for &t in candidates(empty, c, rows) {
        let (m, p) = decode(t, rows);
        if m & fill != 0 || counts[p] == 0 {
            continue;
        }
        let rest_walls = wall_bits(empty ^ m);
        if !walls_divide(empty ^ m, rest_walls) {
            continue;
        }
        counts[p] -= 1;
        let ok = if next_small {
            let un = unavailable(counts);
            small(empty ^ m, rows, counts, un, rest_walls, out, depth + 1, &[CELLS])
        } else {
            rec(empty ^ m, rows, counts, failed, out, depth + 1)
        };
        counts[p] += 1;
        if ok {
            out.tiles[depth] = m;
            out.pieces[depth] = p as u8;
            return true;
        }
    }
    failed.insert(key);
    false
}

/// [`rec`] below [`CACHE_MIN_CELLS`] cells: no failure set. `unavail` has bit `p` set for
/// every piece with a count of 0 (kept up to date on the way down, so that below height 6
/// one AND per candidate tests both the cells and the piece); `walls` are the walls of
/// `empty` (see [`wall_bits`]), all of which already divide it into parts of areas divisible
/// by 4.
#[allow(clippy::too_many_arguments)] // the hot recursion: its state travels in registers
fn small(
    empty: u64,
    rows: usize,
    counts: &mut [u8; 7],
    unavail: u64,
    walls: u64,
    out: &mut Witness,
    depth: usize,
    parts: &[u64],
) -> bool {
    if empty == 0 {
        return true;
    }
    debug_assert!(depth < out.tiles.len());
    // The lowest, leftmost empty cell of the first part with empty cells left: no tile
    // crosses a wall, so it is the anchor of the tile that covers it.
    let mut c = 0;
    for &part in parts {
        if empty & part != 0 {
            c = (empty & part).trailing_zeros() as usize;
            break;
        }
    }
    // One AND per candidate: a filled cell or a piece with no count left blocks the tile.
    let blocked =
        if rows <= 5 { (!empty & LOW_CELLS) | unavail << PIECE_BIT } else { !empty & CELLS };
    for &t in candidates(empty, c, rows) {
        if t & blocked != 0 {
            continue;
        }
        let (m, p) = decode(t, rows);
        if rows > 5 && counts[p] == 0 {
            continue; // height 6 only: the piece is not in the word's test
        }
        // Walls the tile creates (a tile crosses none, so it removes none): the parts they
        // close off must have areas divisible by 4 (every older wall already passed).
        let rest = empty ^ m;
        let rest_walls = wall_bits(rest);
        if rest_walls & !walls != 0 && !walls_divide(rest, rest_walls & !walls) {
            continue;
        }
        // The piece runs out with this tile if its count was 1.
        let next_unavail = unavail | u64::from(counts[p] == 1) << p;
        counts[p] -= 1;
        let ok = small(rest, rows, counts, next_unavail, rest_walls, out, depth + 1, parts);
        counts[p] += 1;
        if ok {
            out.tiles[depth] = m;
            out.pieces[depth] = p as u8;
            return true;
        }
    }
    false
}

/// The walls of `empty`: bit `x` (0..9) set when no row has both cells `x` and `x + 1` empty,
/// so that no tile (with or without skipped rows) crosses the boundary between the columns.
#[inline]
fn wall_bits(empty: u64) -> u64 {
    const COL0: u64 = 1 | 1 << 10 | 1 << 20 | 1 << 30 | 1 << 40 | 1 << 50;
    let mut pairs = empty & (empty >> 1) & (COL0 * 0x1FF);
    pairs |= pairs >> 30;
    pairs |= pairs >> 20;
    pairs |= pairs >> 10;
    !pairs & 0x1FF
}

/// Whether the empty cells left of each wall in `walls` (a subset of `wall_bits(empty)`) are
/// a multiple of 4: then every part between walls has an area divisible by 4.
#[inline]
fn walls_divide(empty: u64, mut walls: u64) -> bool {
    const COL0: u64 = 1 | 1 << 10 | 1 << 20 | 1 << 30 | 1 << 40 | 1 << 50;
    while walls != 0 {
        let x = walls.trailing_zeros();
        walls &= walls - 1;
        if (empty & (COL0 * ((2u64 << x) - 1))).count_ones() % 4 != 0 {
            return false;
        }
    }
    true
}

/// Bit `p` set for every piece `p` whose count is 0.
#[inline]
fn unavailable(counts: &[u8; 7]) -> u64 {
    let mut b = [0u8; 8];
    b[..7].copy_from_slice(counts);
    let x = u64::from_le_bytes(b);
    // High bit of each byte that is zero (exact per byte: no borrows), then one bit per byte.
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let zero = !(((x & LOW7) + LOW7) | x | LOW7);
    ((zero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) & 0x7F
}

/// The parts of the empty cells between walls (column boundaries that no row crosses with
/// empty cells on both sides), as column masks, smallest area first (the most constrained part
/// fails soonest). A single part is returned as all cells.
fn parts_smallest_first(empty: u64) -> ([u64; 10], usize) {
    const COL0: u64 = 1 | 1 << 10 | 1 << 20 | 1 << 30 | 1 << 40 | 1 << 50;
    let mut pairs = empty & (empty >> 1) & (COL0 * 0x1FF);
    pairs |= pairs >> 30;
    pairs |= pairs >> 20;
    pairs |= pairs >> 10;
    let walls = !pairs & 0x1FF;
    let mut parts = [0u64; 10];
    if walls == 0 {
        parts[0] = CELLS;
        return (parts, 1);
    }
    let mut n = 0;
    let mut lo = 0;
    for x in 0..10 {
        if x == 9 || walls >> x & 1 == 1 {
            let cols = ((1u64 << (x + 1)) - 1) & !((1u64 << lo) - 1);
            let m = COL0 * cols;
            if empty & m != 0 {
                parts[n] = m;
                n += 1;
            }
            lo = x + 1;
        }
    }
    parts[..n].sort_by_key(|&m| (empty & m).count_ones());
    (parts, n)
}

/// A cheaper sound test than [`tileable`]: whether the first `depth` steps of the same exact
/// cover (lowest, leftmost empty cell first) can be made. No prefix means no tiling, so `false`
/// still proves there is no PC.
pub fn tileable_prefix(zone: u64, rows: u32, counts: &mut [u8; 7], depth: u32) -> bool {
    fn prefix(empty: u64, rows: usize, counts: &mut [u8; 7], depth: u32) -> bool {
        if depth == 0 || empty == 0 {
            return true;
        }
        let c = empty.trailing_zeros() as usize;
        let fill = !empty & CELLS;
        for &t in candidates(empty, c, rows) {
            let (m, p) = decode(t, rows);
            if m & fill != 0 || counts[p] == 0 {
                continue;
            }
            counts[p] -= 1;
            let ok = prefix(empty ^ m, rows, counts, depth - 1);
            counts[p] += 1;
            if ok {
                return true;
            }
        }
        false
    }
    prefix(!zone & zone_mask(rows), rows as usize, counts, depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bit trick that marks pieces with no count left agrees with a loop.
    #[test]
    fn unavailable_marks_the_zero_counts() {
        let mut rng = bits::Rng::new(12);
        for _ in 0..5_000 {
            let mut counts = [0u8; 7];
            for c in counts.iter_mut() {
                *c = (rng.next_u64() % 3) as u8 * (rng.next_u64() % 2) as u8;
            }
            let want = (0..7).filter(|&p| counts[p] == 0).fold(0u64, |m, p| m | 1 << p);
            assert_eq!(unavailable(&counts), want, "{counts:?}");
        }
        assert_eq!(unavailable(&[15; 7]), 0);
        assert_eq!(unavailable(&[0; 7]), 0x7F);
    }

    #[test]
    fn table_size_matches_the_count_in_the_docs() {
        assert_eq!(N_TILES, 2_727);
        assert_eq!(N_LIST, 14_548);
        let four: u16 = (0..VARIANTS).map(|v| LISTS.base[v][5][0] - LISTS.base[v][4][0]).sum();
        assert_eq!(four, 1_942);
        // Cell (0, 0) in 6 rows: every shape that fits against the left wall.
        let c0: usize = (0..4).map(|g| usize::from(TABLE.end[g][6] - TABLE.start[g])).sum();
        assert!(c0 <= 136);
    }
}
