//! Gate: the bitboard move generator and the per-cell reference give identical placement sets
//! on many random fields, for every built-in kick table and every piece.

use std::collections::BTreeSet;

use bits::Rng;
use tetris::board::Board;
use tetris::movegen::{placement_mask, MoveGen};
use tetris::{reference, KickTable, Piece};

/// A random zone of `rows` rows: random column heights with random holes punched in, and some
/// overhangs, never a full row.
fn random_board(rng: &mut Rng, rows: u32) -> Board {
    let mut r = [0u16; 6];
    for x in 0..10 {
        let h = rng.below(u64::from(rows) + 1) as usize;
        for row in r.iter_mut().take(h) {
            *row |= 1 << x;
        }
    }
    for row in r.iter_mut().take(rows as usize) {
        for x in 0..10 {
            if rng.chance(1, 6) {
                *row ^= 1 << x;
            }
        }
        if *row == 0x3FF {
            *row &= !(1 << rng.below(10));
        }
    }
    Board::from_rows(&r[..rows as usize])
}

fn fast_set(mg: &MoveGen, zone: u64, rows: u32, p: Piece) -> BTreeSet<u64> {
    let pl = mg.placements(zone, rows, p);
    let v: Vec<u64> = pl.iter().map(|(f, x, y)| placement_mask(p, f, x, y)).collect();
    let set: BTreeSet<u64> = v.iter().copied().collect();
    assert_eq!(set.len(), v.len(), "duplicate placements");
    set
}

fn slow_set(b: &Board, rows: u32, p: Piece, k: &KickTable) -> BTreeSet<u64> {
    reference::placements(b, rows, p, k)
        .iter()
        .map(|c| c.iter().fold(0u64, |m, &(x, y)| m | 1 << (10 * y as u32 + x as u32)))
        .collect()
}

#[test]
fn movegen_matches_reference_on_random_fields() {
    let tables: Vec<KickTable> =
        KickTable::NAMES.iter().map(|n| KickTable::named(n).unwrap()).collect();
    let gens: Vec<MoveGen> = tables.iter().map(MoveGen::new).collect();
    let mut rng = Rng::new(2026);
    let mut compared = 0;
    for case in 0..1_500 {
        let rows = 1 + rng.below(6) as u32;
        let b = random_board(&mut rng, rows);
        let zone = b.to_zone(rows).unwrap();
        for (t, mg) in tables.iter().zip(&gens) {
            for p in Piece::ALL {
                let fast = fast_set(mg, zone, rows, p);
                let slow = slow_set(&b, rows, p, t);
                assert_eq!(
                    fast,
                    slow,
                    "case {case}: {p} with {} kicks, rows {rows}, on\n{b}",
                    t.name()
                );
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 1_500 * 4 * 7);
}

/// A user table with an O kick that matters (first test moves the piece) is honoured by both.
#[test]
fn custom_table_with_o_kicks_matches_reference() {
    let text = "O N E (1,0) (0,0)\nO E N (-1,0)\nT N E (0,0) (0,-1)\nI N E (0,0)";
    let k = KickTable::parse(text).unwrap();
    assert!(k.o_rotations_matter());
    let mg = MoveGen::new(&k);
    let mut rng = Rng::new(7);
    for _ in 0..300 {
        let rows = 1 + rng.below(6) as u32;
        let b = random_board(&mut rng, rows);
        let zone = b.to_zone(rows).unwrap();
        for p in Piece::ALL {
            assert_eq!(fast_set(&mg, zone, rows, p), slow_set(&b, rows, p, &k), "{p} on\n{b}");
        }
    }
}

/// A user table with kicks of up to four rows (turn shifts of 64 bits or more: the generator's
/// general shift path) is honoured like the built-in ones.
#[test]
fn custom_table_with_far_kicks_matches_reference() {
    let text = "JLSTZ N E (0,0) (0,-4) (+4,-4)\nJLSTZ E N (0,+4) (-4,+3)\n\
                JLSTZ N S (0,-4) (-3,-4)\nI N E (0,-4) (+4,+4)\nI E N (0,0) (-4,-4)";
    let k = KickTable::parse(text).unwrap();
    let mg = MoveGen::new(&k);
    assert!(!mg.shifts_are_near(), "the table should need shifts of 64 bits or more");
    assert!(MoveGen::new(&KickTable::srs_plus()).shifts_are_near());
    let mut rng = Rng::new(8);
    for _ in 0..300 {
        let rows = 1 + rng.below(6) as u32;
        let b = random_board(&mut rng, rows);
        let zone = b.to_zone(rows).unwrap();
        for p in Piece::ALL {
            assert_eq!(fast_set(&mg, zone, rows, p), slow_set(&b, rows, p, &k), "{p} on\n{b}");
        }
    }
}

/// A zone with a planted tiling: full rows with `n` random non-overlapping pieces cut out;
/// returns the zone and the cut pieces' counts.
fn carved_zone(rng: &mut Rng, rows: u32, n: usize) -> (u64, [u8; 7]) {
    let mut zone = tetris::board::zone_mask(rows);
    let mut counts = [0u8; 7];
    for _ in 0..40 * n {
        if counts.iter().map(|&c| usize::from(c)).sum::<usize>() == n {
            break;
        }
        let p = Piece::from_index(rng.below(7) as usize);
        let f = tetris::Facing::from_index(rng.below(4) as usize);
        let (w, h) = p.extent(f);
        if h as u32 > rows {
            continue;
        }
        let x = rng.below(11 - w as u64) as u32;
        let y = rng.below(u64::from(rows) + 1 - h as u64) as u32;
        let m = placement_mask(p, f, x, y);
        if zone & m == m {
            zone ^= m;
            counts[p.index()] += 1;
        }
    }
    (zone, counts)
}

/// Gate: the table-driven tiling test and its slow row-by-row twin agree on random zones and
/// random piece counts: planted tilings with the counts kept or perturbed, and random fields.
#[test]
fn tiling_matches_reference_on_random_zones() {
    let mut rng = Rng::new(44);
    let mut failed = tetris::tiling::TileFailures::default();
    let (mut yes, mut no) = (0, 0);
    for case in 0..6_000 {
        let rows = 1 + rng.below(6) as u32;
        let (zone, mut counts) = if case % 3 == 0 {
            let b = random_board(&mut rng, rows);
            let mut c = [0u8; 7];
            for x in c.iter_mut() {
                *x = rng.below(3) as u8;
            }
            (b.to_zone(rows).unwrap(), c)
        } else {
            let n = 1 + rng.below(6) as usize;
            let (z, mut c) = carved_zone(&mut rng, rows, n);
            if case % 3 == 2 {
                // Swap one piece for another: sometimes still tileable, often not.
                let from = rng.below(7) as usize;
                if c[from] > 0 {
                    c[from] -= 1;
                    c[rng.below(7) as usize] += 1;
                }
            }
            (z, c)
        };
        if 10 * rows - zone.count_ones() > 24 {
            continue;
        }
        let before = counts;
        let fast = tetris::tiling::tileable(zone, rows, &mut counts, &mut failed);
        assert_eq!(counts, before);
        let slow = reference::tileable_rows(zone, rows, &mut counts);
        let b = Board::from_zone(zone);
        assert_eq!(fast, slow, "case {case}: counts {counts:?}, rows {rows}, on\n{b}");
        if fast {
            yes += 1;
            // The tiling found is an exact cover of the empty cells within the counts.
            let mut w = tetris::tiling::Witness::default();
            assert!(tetris::tiling::tiling(zone, rows, &mut counts, &mut failed, &mut w));
            let empty = !zone & ((1u64 << (10 * rows)) - 1);
            let (mut cover, mut used) = (0u64, [0u8; 7]);
            for (m, p) in w.iter() {
                assert_eq!(m.count_ones(), 4, "case {case}");
                assert_eq!(cover & m, 0, "case {case}: tiles overlap");
                cover |= m;
                used[p.index()] += 1;
            }
            assert_eq!(cover, empty, "case {case}: the witness does not cover the empty cells");
            assert!(used.iter().zip(&counts).all(|(u, c)| u <= c), "case {case}: {used:?}");
            // A full tiling has every prefix.
            for d in 1..4 {
                assert!(tetris::tiling::tileable_prefix(zone, rows, &mut counts, d), "case {case}");
            }
        } else {
            no += 1;
        }
    }
    assert!(yes > 1_000 && no > 1_000, "yes {yes} no {no}");
}

/// The verifier's single-placement question agrees with the full placement set: every
/// placement the reference finds is reachable, and so is nothing else among the piece's
/// resting positions in the zone (every facing and anchor whose cells are empty and supported).
#[test]
fn reachable_matches_the_placement_set() {
    let kicks = KickTable::srs_plus();
    let mut rng = Rng::new(4044);
    let (mut yes, mut no) = (0, 0);
    for _ in 0..150 {
        let rows = 2 + rng.below(5) as u32;
        let b = random_board(&mut rng, rows);
        for p in Piece::ALL {
            let set = reference::placements(&b, rows, p, &kicks);
            for f in tetris::Facing::ALL {
                for y in 0..rows as i32 {
                    for x in 0..10i32 {
                        let mut cells =
                            p.norm_cells(f).map(|(cx, cy)| (cx + x as i8, cy + y as i8));
                        cells.sort_unstable();
                        let fits = cells.iter().all(|&(cx, cy)| {
                            (0..10).contains(&cx)
                                && i32::from(cy) < rows as i32
                                && !b.filled(i32::from(cx), i32::from(cy))
                        });
                        let rests = cells
                            .iter()
                            .any(|&(cx, cy)| cy == 0 || b.filled(i32::from(cx), i32::from(cy) - 1));
                        if !fits || !rests {
                            continue;
                        }
                        let want = set.contains(&cells);
                        assert_eq!(
                            reference::reachable(&b, rows, p, &kicks, &cells),
                            want,
                            "{p} {cells:?} below row {rows} on\n{b}"
                        );
                        if want {
                            yes += 1
                        } else {
                            no += 1
                        }
                    }
                }
            }
        }
    }
    assert!(yes > 1_000 && no > 100, "{yes} reachable, {no} not");
}
