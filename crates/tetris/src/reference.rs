//! The slow, obvious engine: per-cell collision, a breadth-first search over
//! (box x, box y, facing) with a visited array, no precomputation. It defines the movement model the
//! fast [`MoveGen`](crate::movegen::MoveGen) must reproduce bit for bit:
//!
//! - a position is legal if its four cells lie inside the walls, at or above the floor, on
//!   empty cells, and its lowest cell is at most at row [`CEILING`] (the piece may not rise
//!   higher; the PC zone has at most 6 rows, so this leaves at least two free rows above it);
//! - every legal position whose cells all lie at or above the remaining PC height `rows` is a
//!   start (the space above the stack is empty, so a piece from spawn reaches all of them); a PC
//!   taller than 6 rows keeps its stack within the bottom 6 (the solver's zone), so there the
//!   starts are the positions at or above row 6;
//! - moves: left, right, soft drop one row, and each turn the kick table allows (tests in
//!   order, the first legal one is taken);
//! - a placement is a reached position with every cell below `rows` that cannot drop a row.
//!
//! Also here: the brute-force solver (no pruning, no ordering, no memo) that the real solver is
//! checked against.

use std::collections::{BTreeSet, VecDeque};

use crate::board::Board;
use crate::kicks::KickTable;
use crate::piece::{Facing, Piece};

/// Highest row the lowest cell of a moving piece may reach.
pub const CEILING: i32 = 7;

/// The cells of a placement, sorted, as `(x, y)`.
pub type Cells = [(i8, i8); 4];

fn cells_at(piece: Piece, f: Facing, bx: i32, by: i32) -> [(i32, i32); 4] {
    piece.cells(f).map(|(x, y)| (bx + i32::from(x), by + i32::from(y)))
}

fn legal(board: &Board, piece: Piece, f: Facing, bx: i32, by: i32) -> bool {
    let cells = cells_at(piece, f, bx, by);
    let low = cells.iter().map(|c| c.1).min().unwrap_or(0);
    low <= CEILING && cells.iter().all(|&(x, y)| !board.filled(x, y))
}

/// Sorted cells of a piece position.
pub fn sorted_cells(piece: Piece, f: Facing, bx: i32, by: i32) -> Cells {
    let mut c = cells_at(piece, f, bx, by).map(|(x, y)| (x as i8, y as i8));
    c.sort_unstable();
    c
}

/// Every distinct placement (as sorted cell sets) of `piece` on `board` with remaining PC
/// height `rows`, by breadth-first search.
pub fn placements(board: &Board, rows: u32, piece: Piece, kicks: &KickTable) -> BTreeSet<Cells> {
    let mut out = BTreeSet::new();
    search(board, rows, piece, kicks, |c| {
        out.insert(c);
        false
    });
    out
}

/// Whether `piece` can come to rest on exactly the cells `want` (sorted), by the same
/// breadth-first search as [`placements`], stopped as soon as it gets there (the verifier's
/// question: one placement, not all of them).
pub fn reachable(board: &Board, rows: u32, piece: Piece, kicks: &KickTable, want: &Cells) -> bool {
    search(board, rows, piece, kicks, |c| c == *want)
}

/// Box positions a search can hold: legal positions have `bx` in -3..=9 and `by` in
/// -3..=CEILING (cells lie in the field, the lowest at most at the ceiling).
const SEEN_X: i32 = 16;
const SEEN_Y: i32 = CEILING + 8;

/// The breadth-first search behind [`placements`] and [`reachable`]: calls `found` with every
/// placement it reaches (the same placement may come more than once, from different
/// facings), and stops, returning `true`, when `found` does.
fn search(
    board: &Board,
    rows: u32,
    piece: Piece,
    kicks: &KickTable,
    mut found: impl FnMut(Cells) -> bool,
) -> bool {
    let rows = rows as i32;
    // Above the stack every row is empty (a taller PC's stack stays within six rows).
    let start = rows.min(crate::board::ZONE_ROWS as i32);
    let mut seen = vec![false; (SEEN_X * SEEN_Y * 4) as usize];
    // Marks a legal position seen; false if it already was.
    let mut first_visit = |bx: i32, by: i32, f: Facing| {
        let i = (((bx + 4) * SEEN_Y + (by + 4)) * 4) as usize + f as usize;
        !std::mem::replace(&mut seen[i], true)
    };
    let mut queue = VecDeque::new();
    for f in Facing::ALL {
        for bx in -4..12 {
            for by in -4..CEILING + 1 {
                if !legal(board, piece, f, bx, by) {
                    continue;
                }
                let low = cells_at(piece, f, bx, by).iter().map(|c| c.1).min().unwrap_or(0);
                if low >= start && first_visit(bx, by, f) {
                    queue.push_back((bx, by, f));
                }
            }
        }
    }
    while let Some((bx, by, f)) = queue.pop_front() {
        let mut next = vec![(bx - 1, by, f), (bx + 1, by, f), (bx, by - 1, f)];
        for to in Facing::ALL {
            for &(dx, dy) in kicks.list(piece, f, to).tests() {
                let (nx, ny) = (bx + i32::from(dx), by + i32::from(dy));
                if legal(board, piece, to, nx, ny) {
                    next.push((nx, ny, to));
                    break;
                }
            }
        }
        for (nx, ny, nf) in next {
            if legal(board, piece, nf, nx, ny) && first_visit(nx, ny, nf) {
                queue.push_back((nx, ny, nf));
            }
        }
        let cells = cells_at(piece, f, bx, by);
        if cells.iter().all(|c| c.1 < rows)
            && !legal(board, piece, f, bx, by - 1)
            && found(sorted_cells(piece, f, bx, by))
        {
            return true;
        }
    }
    false
}

/// Brute-force PC search: every order the hold rule allows and every placement, depth first,
/// with no pruning, no ordering and no memo. `stream` is the pieces in order (the initial hold
/// piece first, if any); with `hold` the next piece is either of the first two available.
/// Returns whether a perfect clear of the zone (remaining height `rows`) exists.
pub fn brute_force_pc(
    mg: &crate::movegen::MoveGen,
    zone: u64,
    rows: u32,
    stream: &[Piece],
    hold: bool,
) -> bool {
    fn rec(
        mg: &crate::movegen::MoveGen,
        zone: u64,
        rows: u32,
        held: Option<Piece>,
        rest: &[Piece],
        hold: bool,
    ) -> bool {
        let mut options: Vec<(Piece, Option<Piece>, &[Piece])> = Vec::new();
        if hold {
            if let Some(h) = held {
                options.push((h, rest.first().copied(), rest.get(1..).unwrap_or(&[])));
                if let Some((&c, tail)) = rest.split_first() {
                    options.push((c, Some(h), tail));
                }
            }
        } else if let Some((&c, tail)) = rest.split_first() {
            options.push((c, None, tail));
        }
        for (piece, held2, rest2) in options {
            for (f, x, y) in mg.placements(zone, rows, piece).iter() {
                let z = zone | crate::movegen::placement_mask(piece, f, x, y);
                let (z2, cleared) = crate::board::zone_clear(z, rows);
                if z2 == 0 {
                    // A clear field ends the game: the PC of this height only if no rows
                    // are left (else one of a lower height).
                    if rows == cleared {
                        return true;
                    }
                    continue;
                }
                if rec(mg, z2, rows - cleared, held2, rest2, hold) {
                    return true;
                }
            }
        }
        false
    }
    if hold {
        match stream.split_first() {
            Some((&h, rest)) => rec(mg, zone, rows, Some(h), rest, true),
            None => zone == 0,
        }
    } else {
        rec(mg, zone, rows, None, stream, false)
    }
}

/// The slow twin of [`tiling::tileable`](crate::tiling::tileable): the same exact cover (lowest,
/// leftmost empty cell first; each piece's rows on any increasing sequence of rows), one `u16`
/// row at a time, shapes read from the piece tables, no precomputed tiles and no cache.
pub fn tileable_rows(zone: u64, rows: u32, counts: &mut [u8; 7]) -> bool {
    fn rec(e: &mut [u16; 6], rows: usize, counts: &mut [u8; 7]) -> bool {
        let Some(y0) = e[..rows].iter().position(|&r| r != 0) else { return true };
        let x0 = e[y0].trailing_zeros() as i32;
        for piece in Piece::ALL {
            if counts[piece.index()] == 0 {
                continue;
            }
            for f in Facing::ALL {
                if piece.canonical(f) != f {
                    continue;
                }
                // The shape's rows, bottom first, as column sets relative to the leftmost cell
                // of its lowest row.
                let cells = piece.norm_cells(f);
                let (_, h) = piece.extent(f);
                let low_left =
                    cells.iter().filter(|c| c.1 == 0).map(|c| i32::from(c.0)).min().unwrap_or(0);
                let mut shape = [0u16; 4];
                let mut fits = true;
                for &(cx, cy) in &cells {
                    let x = x0 + i32::from(cx) - low_left;
                    if !(0..10).contains(&x) {
                        fits = false;
                    }
                    shape[cy as usize] |= 1 << x.clamp(0, 15);
                }
                if !fits || e[y0] & shape[0] != shape[0] {
                    continue;
                }
                e[y0] ^= shape[0];
                counts[piece.index()] -= 1;
                let ok = spread(e, rows, counts, &shape[..h as usize], 1, y0);
                counts[piece.index()] += 1;
                e[y0] ^= shape[0];
                if ok {
                    return true;
                }
            }
        }
        false
    }
    // Puts the shape's row `j` on some row above `prev`, then the rest, then recurses.
    fn spread(
        e: &mut [u16; 6],
        rows: usize,
        counts: &mut [u8; 7],
        shape: &[u16],
        j: usize,
        prev: usize,
    ) -> bool {
        if j == shape.len() {
            return rec(e, rows, counts);
        }
        for y in prev + 1..rows {
            if e[y] & shape[j] == shape[j] {
                e[y] ^= shape[j];
                let ok = spread(e, rows, counts, shape, j + 1, y);
                e[y] ^= shape[j];
                if ok {
                    return true;
                }
            }
        }
        false
    }
    let mut e = [0u16; 6];
    for (y, r) in e.iter_mut().enumerate().take(rows as usize) {
        *r = !(zone >> (10 * y)) as u16 & 0x3FF;
    }
    rec(&mut e, rows as usize, counts)
}
