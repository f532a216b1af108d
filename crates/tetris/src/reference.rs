//! The slow, obvious engine: per-cell collision, a breadth-first search over
//! (box x, box y, facing) with a hash set, no precomputation. It defines the movement model the
//! fast [`MoveGen`](crate::movegen::MoveGen) must reproduce bit for bit:
//!
//! - a position is legal if its four cells lie inside the walls, at or above the floor, on
//!   empty cells, and its lowest cell is at most at row [`CEILING`] (the piece may not rise
//!   higher; the PC zone has at most 6 rows, so this leaves at least two free rows above it);
//! - every legal position whose cells all lie at or above the remaining PC height `rows` is a
//!   start (the space above the stack is empty, so a piece from spawn reaches all of them);
//! - moves: left, right, soft drop one row, and each turn the kick table allows (tests in
//!   order, the first legal one is taken);
//! - a placement is a reached position with every cell below `rows` that cannot drop a row.
//!
//! Also here: the brute-force solver (no pruning, no ordering, no memo) that the real solver is
//! checked against.

use std::collections::{BTreeSet, HashSet, VecDeque};

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
    let rows = rows as i32;
    let mut seen: HashSet<(i32, i32, Facing)> = HashSet::new();
    let mut queue = VecDeque::new();
    for f in Facing::ALL {
        for bx in -4..12 {
            for by in -4..CEILING + 1 {
                if !legal(board, piece, f, bx, by) {
                    continue;
                }
                let low = cells_at(piece, f, bx, by).iter().map(|c| c.1).min().unwrap_or(0);
                if low >= rows && seen.insert((bx, by, f)) {
                    queue.push_back((bx, by, f));
                }
            }
        }
    }
    let mut out = BTreeSet::new();
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
            if legal(board, piece, nf, nx, ny) && seen.insert((nx, ny, nf)) {
                queue.push_back((nx, ny, nf));
            }
        }
        let cells = cells_at(piece, f, bx, by);
        if cells.iter().all(|c| c.1 < rows) && !legal(board, piece, f, bx, by - 1) {
            out.insert(sorted_cells(piece, f, bx, by));
        }
    }
    out
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
                if z2 == 0 || rec(mg, z2, rows - cleared, held2, rest2, hold) {
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
