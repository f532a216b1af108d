//! The row tables behind every move, built at compile time.
//!
//! # Implementation notes
//!
//! A row is 16 bits: four nibbles, nibble `i` holding the log2 of the tile in column `i`
//! (0 = empty, 1 = 2, ..., 15 = 32768). Column 0 is the lowest nibble, so "left" means
//! towards the low bits.
//!
//! ```text
//!   row u16:  [c3 c3 c3 c3 | c2 c2 c2 c2 | c1 c1 c1 c1 | c0 c0 c0 c0]
//!              bit 15                                          bit 0
//!
//!   entry u32: [O | score/4 (15 bits) | new row (16 bits)]
//!               31  30              16  15              0
//! ```
//!
//! Each of [`LEFT`] and [`RIGHT`] has 65,536 entries of 4 bytes (256 KiB each, 512 KiB in
//! all): one lookup gives the new row, the score gained (always a multiple of 4; the largest
//! legal row score is 16384 + 16384 + ... < 2^17, so score/4 fits 15 bits) and the overflow
//! flag `O`.
//!
//! **65536.** A nibble caps at 15 (32768). When a move would merge two 32768 tiles into a
//! 65536, the entry's `O` bit is set, the stored row is the input row unchanged and the score
//! field is 0: callers must check the flag ([`crate::Board::play`] reports it as
//! [`crate::MoveError::Overflow`], the search treats it as a won terminal). Nothing ever
//! silently turns 32768 + 32768 into 32768.
//!
//! For the search's move generator there are also the new rows alone ([`LEFT_ROWS`],
//! [`RIGHT_ROWS`], `u16`, 128 KiB each) and one column table for up and down together
//! ([`UP_DOWN_COLS`], `u64`, 512 KiB), whose entries hold both new columns already spread
//! into board position (see [`crate::Board::shift_all`]).
//!
//! The tables are `static` arrays evaluated by `const fn` at compile time; the builder asserts,
//! for every row, that tile values are conserved (the sum of tile values before equals the sum
//! after), that the new row is packed towards its side, that the score is the sum of the merged
//! tiles, that RIGHT is LEFT mirrored, and that a row changes exactly when a slide or merge is
//! possible.

/// The overflow flag of a table entry: this move would create a 65536 tile.
pub const OVERFLOW: u32 = 1 << 31;

/// Row results for a move towards column 0 ("left"); see the [module docs](self).
// 65,536 rows with their invariant checks take a few million const-eval steps.
#[allow(long_running_const_eval)]
pub static LEFT: [u32; 65536] = build(false);

/// Row results for a move towards column 3 ("right"); see the [module docs](self).
#[allow(long_running_const_eval)]
pub static RIGHT: [u32; 65536] = build(true);

/// The new rows alone (the low halves of [`LEFT`]), 128 KiB: the search's move generator
/// reads only these, so its two tables fit a 256 KiB slice of L2 cache. An overflow row maps
/// to itself here; [`crate::Board::shift`] checks for overflow before using these tables.
#[allow(long_running_const_eval)]
pub static LEFT_ROWS: [u16; 65536] = rows_of(&LEFT);

/// The new rows alone for [`RIGHT`].
#[allow(long_running_const_eval)]
pub static RIGHT_ROWS: [u16; 65536] = rows_of(&RIGHT);

/// Column results for moves up and down in one entry, indexed by a column read as a row (the
/// column's cell in row `r` in nibble `r`, as a transposed board holds it). The entry holds
/// both new columns already spread back into board position: the column after "up" (towards
/// row 0) with its row-`r` cell at bit `16 * r`, the column after "down" at bit `16 * r + 8`.
///
/// ```text
///   entry u64, each 16-bit lane r = 0..3:  [ . | down(r) | . | up(r) ]
///                                          15  11      8  7  3     0
/// ```
///
/// Two entries, one shifted by 4, fill two columns of both results at once; so the four
/// columns of a transposed board make both moves in four lookups and a few masks (see
/// [`crate::Board::shift_all`]). 512 KiB. Overflow columns map to themselves, like
/// [`LEFT_ROWS`].
#[allow(long_running_const_eval)]
pub static UP_DOWN_COLS: [u64; 65536] = up_down_cols();

/// Spreads a row's four nibbles into a column at board position: nibble `i` goes to bit
/// `16 * i`.
pub const fn spread(row: u16) -> u64 {
    let r = row as u64;
    (r & 0xF) | (r & 0xF0) << 12 | (r & 0xF00) << 24 | (r & 0xF000) << 36
}

const fn up_down_cols() -> [u64; 65536] {
    let mut out = [0u64; 65536];
    let mut i = 0;
    while i < 65536 {
        let up = spread(LEFT[i] as u16);
        let down = spread(RIGHT[i] as u16);
        // Each result keeps to its own nibble of every lane.
        assert!(up & !0x000F_000F_000F_000F == 0 && down & !0x000F_000F_000F_000F == 0);
        out[i] = up | down << 8;
        i += 1;
    }
    out
}

const fn rows_of(t: &[u32; 65536]) -> [u16; 65536] {
    let mut out = [0u16; 65536];
    let mut i = 0;
    while i < 65536 {
        out[i] = t[i] as u16;
        i += 1;
    }
    out
}

/// The new row of a table entry.
#[inline(always)]
pub const fn entry_row(e: u32) -> u16 {
    e as u16
}

/// The score of a table entry (0 for an overflow entry).
#[inline(always)]
pub const fn entry_score(e: u32) -> u32 {
    ((e >> 16) & 0x7FFF) * 4
}

/// Splits a row into its four cells, column 0 first.
pub const fn cells(row: u16) -> [u8; 4] {
    [
        (row & 0xF) as u8,
        ((row >> 4) & 0xF) as u8,
        ((row >> 8) & 0xF) as u8,
        ((row >> 12) & 0xF) as u8,
    ]
}

/// Packs four cells (column 0 first) into a row.
pub const fn pack(c: [u8; 4]) -> u16 {
    (c[0] as u16) | (c[1] as u16) << 4 | (c[2] as u16) << 8 | (c[3] as u16) << 12
}

const fn reversed(c: [u8; 4]) -> [u8; 4] {
    [c[3], c[2], c[1], c[0]]
}

/// Slides a row towards column 0: (new cells, score, overflow).
const fn slide_left(c: [u8; 4]) -> ([u8; 4], u32, bool) {
    let mut out = [0u8; 4];
    let mut n = 0usize;
    let mut can_merge = false;
    let mut score = 0u32;
    let mut i = 0;
    while i < 4 {
        let v = c[i];
        i += 1;
        if v == 0 {
            continue;
        }
        if can_merge && out[n - 1] == v {
            if v == 15 {
                return (c, 0, true);
            }
            out[n - 1] = v + 1;
            score += 1 << (v + 1);
            can_merge = false;
        } else {
            out[n] = v;
            n += 1;
            can_merge = true;
        }
    }
    (out, score, false)
}

const fn value_sum(c: [u8; 4]) -> u32 {
    let mut s = 0;
    let mut i = 0;
    while i < 4 {
        if c[i] != 0 {
            s += 1 << c[i];
        }
        i += 1;
    }
    s
}

const fn nonzero(c: [u8; 4]) -> u32 {
    (c[0] != 0) as u32 + (c[1] != 0) as u32 + (c[2] != 0) as u32 + (c[3] != 0) as u32
}

/// Whether a slide towards column 0 can change the row: a gap before a tile, or two equal
/// tiles next to each other once the gaps are closed.
const fn can_change_left(c: [u8; 4]) -> bool {
    let mut seen_gap = false;
    let mut prev = 0u8;
    let mut i = 0;
    while i < 4 {
        let v = c[i];
        i += 1;
        if v == 0 {
            seen_gap = true;
            continue;
        }
        if seen_gap || v == prev {
            return true;
        }
        prev = v;
    }
    false
}

const fn build(right: bool) -> [u32; 65536] {
    let mut t = [0u32; 65536];
    let mut row = 0usize;
    while row < 65536 {
        let c = cells(row as u16);
        let src = if right { reversed(c) } else { c };
        let (out, score, overflow) = slide_left(src);
        let out = if right { reversed(out) } else { out };
        if overflow {
            assert!(score == 0);
            // Only a row holding two 32768 tiles that meet can overflow.
            assert!(value_sum(c) >= 65536);
            t[row] = OVERFLOW | row as u32;
        } else {
            // Conservation: merging never creates or destroys value.
            assert!(value_sum(out) == value_sum(c));
            // Each merge removes one tile and scores the new tile's value, which is at least
            // 4 and at most 32768; every merge is accounted for by the score.
            let merges = nonzero(c) - nonzero(out);
            assert!(score % 4 == 0 && score >= 4 * merges && score <= 32768 * merges);
            assert!((merges == 0) == (score == 0));
            assert!(score / 4 < 0x8000);
            // Packed towards the side of the move.
            let k = nonzero(out) as usize;
            let mut i = 0;
            while i < 4 {
                let pos = if right { 3 - i } else { i };
                assert!((out[pos] != 0) == (i < k));
                i += 1;
            }
            // The row changes exactly when a slide or merge is possible.
            let changed = pack(out) as usize != row;
            assert!(changed == can_change_left(src));
            t[row] = (pack(out) as u32) | (score / 4) << 16;
        }
        row += 1;
    }
    // RIGHT is LEFT mirrored: checked from the right table's side on the row's mirror.
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mirror(row: u16) -> u16 {
        pack(reversed(cells(row)))
    }

    #[test]
    fn right_is_left_mirrored() {
        for row in 0..=u16::MAX {
            let l = LEFT[usize::from(mirror(row))];
            let r = RIGHT[usize::from(row)];
            assert_eq!(l & OVERFLOW, r & OVERFLOW, "row {row:04x}");
            assert_eq!(entry_score(l), entry_score(r), "row {row:04x}");
            assert_eq!(mirror(entry_row(l)), entry_row(r), "row {row:04x}");
        }
    }

    #[test]
    fn spec_examples() {
        // 2 2 2 2 -> 4 4 . . (score 8); 4 4 8 . -> 8 8 . . (score 8).
        let e = LEFT[usize::from(pack([1, 1, 1, 1]))];
        assert_eq!(cells(entry_row(e)), [2, 2, 0, 0]);
        assert_eq!(entry_score(e), 8);
        let e = LEFT[usize::from(pack([2, 2, 3, 0]))];
        assert_eq!(cells(entry_row(e)), [3, 3, 0, 0]);
        assert_eq!(entry_score(e), 8);
        let e = RIGHT[usize::from(pack([1, 1, 1, 0]))];
        assert_eq!(cells(entry_row(e)), [0, 0, 1, 2]);
        assert_eq!(entry_score(e), 4);
    }

    #[test]
    fn overflow_rows_are_flagged_not_corrupted() {
        // 32768 32768 . . would need a 65536.
        let row = pack([15, 15, 0, 0]);
        assert_ne!(LEFT[usize::from(row)] & OVERFLOW, 0);
        assert_ne!(RIGHT[usize::from(row)] & OVERFLOW, 0);
        // 32768 . . 32768: they meet after sliding.
        assert_ne!(LEFT[usize::from(pack([15, 0, 0, 15]))] & OVERFLOW, 0);
        // 32768 16384 32768: they never meet; 16384 16384 beside 32768 merge fine.
        assert_eq!(LEFT[usize::from(pack([15, 14, 15, 0]))] & OVERFLOW, 0);
        let e = LEFT[usize::from(pack([14, 14, 15, 0]))];
        assert_eq!(e & OVERFLOW, 0);
        assert_eq!(cells(entry_row(e)), [15, 15, 0, 0]);
        assert_eq!(entry_score(e), 32768);
        // Exactly the rows with two 15s adjacent after removing gaps overflow.
        let flagged = (0..=u16::MAX).filter(|&r| LEFT[usize::from(r)] & OVERFLOW != 0).count();
        let expected = (0..=u16::MAX)
            .filter(|&r| {
                let nz: Vec<u8> = cells(r).into_iter().filter(|&v| v != 0).collect();
                // Greedy left merging: the first mergeable equal pair decides.
                let mut i = 0;
                while i + 1 < nz.len() {
                    if nz[i] == nz[i + 1] {
                        if nz[i] == 15 {
                            return true;
                        }
                        i += 2;
                    } else {
                        i += 1;
                    }
                }
                false
            })
            .count();
        assert_eq!(flagged, expected);
    }
}
