//! The full canonical 2-line sweep against its frozen count, and a sample of 4-line queues.

use bits::Rng;
use tetris::bag::{bag_consistent, for_each_canonical, Bag7};
use tetris::solver::{Outcome, PcRequest};
use tetris::trace::verify;
use tetris::{Board, KickTable, Piece, Solver};

fn frozen(kicks: &str) -> (u64, u64) {
    let text = include_str!("data/sweeps.txt");
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f[0] == "2" && f[1] == kicks {
            return (f[2].parse().unwrap(), f[3].parse().unwrap());
        }
    }
    panic!("no frozen count for {kicks}");
}

fn solvable(solver: &mut Solver, kicks: &KickTable, q: &[Piece], height: u32) -> bool {
    let req = PcRequest {
        board: Board::EMPTY,
        queue: q[1..].to_vec(),
        hold: Some(q[0]),
        use_hold: true,
        height: Some(height),
        min_height: None,
        save_hold: None,
    };
    match solver.solve(&req).unwrap() {
        Outcome::Found(sol) => {
            verify(&req, kicks, &sol).unwrap();
            true
        }
        _ => false,
    }
}

#[test]
fn full_two_line_sweep_matches_frozen_count() {
    for name in ["srs", "srs+"] {
        let kicks = KickTable::named(name).unwrap();
        let mut solver = Solver::new(&kicks);
        let mut yes = 0;
        let items =
            for_each_canonical(5, |q| yes += u64::from(solvable(&mut solver, &kicks, q, 2)));
        assert_eq!((items, yes), frozen(name), "{name}");
    }
}

/// Random 4-line sweep items (a hold piece plus an 10-piece window of a 7-bag stream at a
/// random phase): the spec says 99.965% of weighted sequences have a PC under SRS.
#[test]
fn four_line_sample_is_almost_all_solvable() {
    let kicks = KickTable::srs();
    let mut solver = Solver::new(&kicks);
    let mut rng = Rng::new(44);
    let n = 150;
    let mut yes = 0;
    for i in 0..n {
        let phase = rng.below(7) as usize;
        let stream = Bag7::new(i).take(phase + 10);
        let mut q = vec![Piece::from_index(rng.below(7) as usize)];
        q.extend_from_slice(&stream[phase..]);
        assert!(bag_consistent(&q[1..]));
        yes += u64::from(solvable(&mut solver, &kicks, &q, 4));
    }
    assert!(yes >= n - 2, "{yes} of {n}");
}
