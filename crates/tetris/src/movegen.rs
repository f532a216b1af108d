//! Placement generation by exact reachability over (x, y, facing), on bitboards.
//!
//! # Implementation notes
//!
//! The PC zone has at most 6 rows. Piece positions are *normalized anchors* (the bottom-left
//! corner of the piece's cells) kept one bit each in a `u128` with 16-bit rows:
//!
//! ```text
//!   bit 16*ay + ax             ax = 0..9 (bits 10..15 of each row are padding, never set)
//!   row ay = 0..7              8 anchor rows: the zone (<= 6) plus 2 above it
//!
//!   row 7  pppppp xxxxxxxxxx   <- ceiling: a piece whose lowest cell would rise above row 7
//!   ...                           counts as colliding ("stopping when a piece rises too high")
//!   row 0  pppppp xxxxxxxxxx
//! ```
//!
//! Before the search, one *free map* per facing is computed from the zone: the anchors at
//! which the piece overlaps nothing, made of four shifts of the occupancy (one per cell) and a
//! per-facing mask of the anchors whose cells stay inside the walls. Every move is then a
//! shift and an AND over all positions at once:
//!
//! - left `>> 1`, right `<< 1`, soft drop `>> 16` (a position that steps over a wall lands on
//!   a padding bit or off the word, which is never free);
//! - a turn `a -> b` with tests `t1, t2, ...`: each test is a fixed shift of the anchor (the
//!   kick plus the difference of the two facings' anchor offsets); positions that have not yet
//!   succeeded try the next test: `moved |= shift(rest, t) & free[b]`,
//!   `rest &= !shift(free[b], -t)`.
//!
//! Every anchor whose piece lies entirely above the remaining PC height is a start (the space
//! above the stack is empty, so a piece from spawn reaches them all). The closure runs until no
//! facing grows. A placement is a reached anchor whose cells lie inside the zone and that cannot
//! drop one row. Facings covering the same cells (S north and south, say) have the same
//! normalized anchor, so their placements are merged into the lowest such facing.
//!
//! Memory: the generator itself is a few hundred bytes of tables; one call uses a dozen
//! `u128`s on the stack and allocates nothing.

use crate::board::zone_mask;
use crate::kicks::{KickTable, MAX_TESTS};
use crate::piece::{Facing, Piece, MASK10};

/// Anchor rows kept in a `u128` (16 bits each).
pub const ANCHOR_ROWS: u32 = 8;

const ROW_BITS: u32 = 16;

/// One turn `from -> to` with its tests as anchor shifts.
#[derive(Clone, Copy, Debug, Default)]
struct Turn {
    from: u8,
    to: u8,
    len: u8,
    shifts: [i16; MAX_TESTS],
}

/// The placements of one piece: for each facing, the anchors (bit `16*y + x`) of the
/// distinct placements. Only canonical facings (see [`Piece::canonical`]) have bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Placements {
    /// `by_facing[f]`: anchors of the placements in facing `f`.
    pub by_facing: [u128; 4],
}

impl Placements {
    /// Number of distinct placements.
    pub fn len(&self) -> usize {
        self.by_facing.iter().map(|b| b.count_ones() as usize).sum()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.by_facing.iter().all(|&b| b == 0)
    }

    /// Every placement as `(facing, x, y)` of its normalized anchor.
    pub fn iter(&self) -> impl Iterator<Item = (Facing, u32, u32)> + '_ {
        Facing::ALL.into_iter().flat_map(move |f| {
            bits::SetBits::new(self.by_facing[f as usize])
                .map(move |bit| (f, bit % ROW_BITS, bit / ROW_BITS))
        })
    }
}

/// The cells (in 10-bit zone rows) of `piece` in `facing` at normalized anchor `(x, y)`.
#[inline]
pub fn placement_mask(piece: Piece, facing: Facing, x: u32, y: u32) -> u64 {
    MASK10[piece.index()][facing as usize] << (y * 10 + x)
}

/// The placement generator for one kick table.
#[derive(Clone, Debug)]
pub struct MoveGen {
    turns: [[Turn; 12]; 7],
    n_turns: [u8; 7],
    facings: [u8; 7],
    cell_shift: [[[u32; 4]; 4]; 7],
    valid: [[u128; 4]; 7],
    height: [[u32; 4]; 7],
    /// Every turn shift is below 64 bits (see [`shift`]).
    near: bool,
}

/// Anchors `(x, y)` with `x <= 10 - w` in every one of the 8 rows.
const fn valid_anchors(w: u32) -> u128 {
    let row: u128 = (1u128 << (11 - w)) - 1;
    let mut m = 0u128;
    let mut y = 0;
    while y < ANCHOR_ROWS {
        m |= row << (y * ROW_BITS);
        y += 1;
    }
    m
}

/// Expands a zone (10-bit rows) into 16-bit rows.
#[inline]
pub fn expand_zone(zone: u64) -> u128 {
    let lo = bits::pdep_u64(zone, 0x03FF_03FF_03FF_03FF);
    let hi = bits::pdep_u64(zone >> 40, 0x03FF_03FF_03FF_03FF);
    u128::from(lo) | u128::from(hi) << 64
}

#[inline]
fn shift<const NEAR: bool>(x: u128, s: i32) -> u128 {
    if NEAR {
        // The generator's shifts are all below 64 (true of the built-in tables: a kick moves
        // at most a few rows, 16 bits a row); saying so (`& 63`) spares the code for shifts
        // by 64 or more.
        debug_assert!(s.abs() < 64);
        if s >= 0 {
            x << (s & 63)
        } else {
            x >> (-s & 63)
        }
    } else if s >= 0 {
        x << s
    } else {
        x >> -s
    }
}

impl MoveGen {
    /// A generator for `kicks`.
    pub fn new(kicks: &KickTable) -> MoveGen {
        let mut mg = MoveGen {
            turns: [[Turn::default(); 12]; 7],
            n_turns: [0; 7],
            facings: [4; 7],
            cell_shift: [[[0; 4]; 4]; 7],
            valid: [[0; 4]; 7],
            height: [[0; 4]; 7],
            near: true,
        };
        for p in Piece::ALL {
            let pi = p.index();
            if p == Piece::O && !kicks.o_rotations_matter() {
                mg.facings[pi] = 1;
            }
            for f in Facing::ALL {
                let fi = f as usize;
                for (c, &(x, y)) in p.norm_cells(f).iter().enumerate() {
                    mg.cell_shift[pi][fi][c] = y as u32 * ROW_BITS + x as u32;
                }
                let (w, h) = p.extent(f);
                mg.valid[pi][fi] = valid_anchors(w as u32);
                mg.height[pi][fi] = h as u32;
            }
            if mg.facings[pi] == 1 {
                continue;
            }
            for from in Facing::ALL {
                for to in Facing::ALL {
                    let list = kicks.list(p, from, to);
                    if list.is_empty() {
                        continue;
                    }
                    let (fx, fy) = p.norm_offset(from);
                    let (tx, ty) = p.norm_offset(to);
                    let mut turn =
                        Turn { from: from as u8, to: to as u8, len: 0, ..Turn::default() };
                    for &(dx, dy) in list.tests() {
                        let sx = i16::from(dx + tx - fx);
                        let sy = i16::from(dy + ty - fy);
                        let sh = sy * ROW_BITS as i16 + sx;
                        mg.near &= sh.abs() < 64;
                        turn.shifts[usize::from(turn.len)] = sh;
                        turn.len += 1;
                    }
                    mg.turns[pi][usize::from(mg.n_turns[pi])] = turn;
                    mg.n_turns[pi] += 1;
                }
            }
        }
        mg
    }

    /// Whether every turn shift of the table is below 64 bits (the faster shift code is used;
    /// true of the built-in tables).
    pub fn shifts_are_near(&self) -> bool {
        self.near
    }

    /// The free maps of `piece` (one per facing) for an expanded occupancy.
    #[inline]
    fn free_maps(&self, occ: u128, pi: usize) -> [u128; 4] {
        let mut free = [0u128; 4];
        for (f, fr) in free.iter_mut().enumerate().take(usize::from(self.facings[pi])) {
            let s = &self.cell_shift[pi][f];
            // Cell offsets are below 4 rows of 16 bits: `& 63` only tells the compiler so.
            debug_assert!(s.iter().all(|&c| c < 64));
            let blocked =
                occ >> (s[0] & 63) | occ >> (s[1] & 63) | occ >> (s[2] & 63) | occ >> (s[3] & 63);
            *fr = self.valid[pi][f] & !blocked;
        }
        free
    }

    /// All distinct placements of `piece` in a zone whose remaining PC height is `rows`
    /// (`rows <= 6`; every cell of `zone` lies below `rows`).
    pub fn placements(&self, zone: u64, rows: u32, piece: Piece) -> Placements {
        if self.near {
            self.placements_in::<true>(zone, rows, piece)
        } else {
            self.placements_in::<false>(zone, rows, piece)
        }
    }

    /// [`MoveGen::placements`] with every turn shift below 64 bits (`NEAR`) or any shift.
    #[inline]
    fn placements_in<const NEAR: bool>(&self, zone: u64, rows: u32, piece: Piece) -> Placements {
        debug_assert!(rows <= 6 && zone & !zone_mask(rows) == 0);
        let pi = piece.index();
        let nf = usize::from(self.facings[pi]);
        let free = self.free_maps(expand_zone(zone), pi);
        let seeds = !0u128 << (rows * ROW_BITS);
        let mut reach = [0u128; 4];
        for f in 0..nf {
            reach[f] = free[f] & seeds;
        }
        let turns = &self.turns[pi][..usize::from(self.n_turns[pi])];
        let mut dirty: u8 = (1 << nf) - 1;
        loop {
            for f in 0..nf {
                if dirty >> f & 1 == 0 {
                    continue;
                }
                let fr = free[f];
                let mut r = reach[f];
                loop {
                    // Drops of up to 7 rows in three doubling steps (an occluded fill: `g`
                    // keeps the positions from which the next 2^i rows down are all free),
                    // then one step left and right.
                    let mut g = fr;
                    r |= g & r >> ROW_BITS;
                    g &= g >> ROW_BITS;
                    r |= g & r >> (2 * ROW_BITS);
                    g &= g >> (2 * ROW_BITS);
                    r |= g & r >> (4 * ROW_BITS);
                    let n = r | ((r << 1 | r >> 1) & fr);
                    if n == r {
                        break;
                    }
                    r = n;
                }
                reach[f] = r;
            }
            // Facings with free positions not reached yet: in a field without overhangs there
            // are none, and no turn needs to run.
            let mut open = 0u8;
            for f in 0..nf {
                open |= u8::from(free[f] & !reach[f] != 0) << f;
            }
            if open == 0 {
                break;
            }
            let mut changed = 0u8;
            for t in turns {
                // A turn whose source facing did not grow since it last ran adds nothing.
                if (dirty >> t.from) & (open >> t.to) & 1 == 0 {
                    continue;
                }
                let to = usize::from(t.to);
                let fr = free[to];
                // Only free positions not reached yet can be new: in a field without
                // overhangs there are none, and the turn's tests need not run.
                let todo = fr & !reach[to];
                if todo == 0 {
                    continue;
                }
                let mut rest = reach[usize::from(t.from)];
                let mut moved = 0u128;
                for &s in &t.shifts[..usize::from(t.len)] {
                    let s = i32::from(s);
                    moved |= shift::<NEAR>(rest, s) & fr;
                    rest &= !shift::<NEAR>(fr, -s);
                    if rest == 0 {
                        break;
                    }
                }
                let new = moved & todo;
                if new != 0 {
                    reach[to] |= new;
                    changed |= 1 << to;
                }
            }
            if changed == 0 {
                break;
            }
            dirty = changed;
        }
        let mut out = Placements::default();
        for f in 0..nf {
            let h = self.height[pi][f];
            if h > rows {
                continue;
            }
            let fits = (1u128 << ((rows - h + 1) * ROW_BITS)) - 1;
            let rest = reach[f] & !(free[f] << ROW_BITS) & fits;
            out.by_facing[piece.canonical(Facing::from_index(f)) as usize] |= rest;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn expand_matches_loop() {
        let mut rng = bits::Rng::new(1);
        for _ in 0..1000 {
            let z = rng.next_u64() & zone_mask(6);
            let mut want = 0u128;
            for y in 0..6 {
                want |= u128::from(z >> (10 * y) & 0x3FF) << (16 * y);
            }
            assert_eq!(expand_zone(z), want);
        }
    }

    #[test]
    fn empty_field_counts() {
        let mg = MoveGen::new(&KickTable::srs_plus());
        // On an empty 4-row zone: O has 9 spots, I has 7 flat + 10 upright.
        assert_eq!(mg.placements(0, 4, Piece::O).len(), 9);
        assert_eq!(mg.placements(0, 4, Piece::I).len(), 17);
        // T: 8 per facing on the floor in N and S, 9 upright each way.
        assert_eq!(mg.placements(0, 4, Piece::T).len(), 8 + 8 + 9 + 9);
        // Upright I does not fit in 2 rows.
        assert_eq!(mg.placements(0, 2, Piece::I).len(), 7);
    }

    #[test]
    fn t_spin_double_slot_is_reached() {
        // A TSD slot: the T can only get in by turning.
        let b: Board = "\
            ##........\n\
            #...######\n\
            ##.#######\n"
            .parse()
            .unwrap();
        let z = b.to_zone(3).unwrap();
        let mg = MoveGen::new(&KickTable::srs());
        let pl = mg.placements(z, 3, Piece::T);
        let want = placement_mask(Piece::T, Facing::S, 1, 0);
        assert!(pl.iter().any(|(f, x, y)| placement_mask(Piece::T, f, x, y) == want));
        for name in KickTable::NAMES {
            let kicks = KickTable::named(name).unwrap();
            let fast: std::collections::BTreeSet<_> = MoveGen::new(&kicks)
                .placements(z, 3, Piece::T)
                .iter()
                .map(|(f, x, y)| placement_mask(Piece::T, f, x, y))
                .collect();
            let slow: std::collections::BTreeSet<_> =
                crate::reference::placements(&b, 3, Piece::T, &kicks)
                    .iter()
                    .map(|c| c.iter().fold(0u64, |m, &(x, y)| m | 1 << (10 * y as u32 + x as u32)))
                    .collect();
            assert_eq!(fast, slow, "{name}");
        }
    }
}
