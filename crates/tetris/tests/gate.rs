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
