//! Key inputs for solver answers: every placement of the solutions to the first benchmark
//! queues (4 and 6 lines, SRS+) and of a few SRS ones is reached from spawn by the keys
//! `inputs::find` gives, checked by replaying them key by key.

use tetris::bag::opener_queue;
use tetris::inputs::{replay, solution_keys, Key};
use tetris::solver::{Outcome, PcRequest};
use tetris::{Board, KickTable, Solver};

#[test]
fn every_solution_step_has_keys_that_replay() {
    for (name, lines) in [("srs+", 4), ("srs+", 6), ("srs", 4)] {
        let kicks = KickTable::named(name).unwrap();
        let mut solver = Solver::new(&kicks);
        for i in 0..25 {
            let mut req = PcRequest::opener(opener_queue(3, i, if lines == 4 { 11 } else { 16 }));
            req.height = Some(lines);
            let Outcome::Found(sol) = solver.solve(&req).unwrap() else { panic!("queue {i}") };
            let keys = solution_keys(&Board::EMPTY, &kicks, &sol.steps)
                .unwrap_or_else(|e| panic!("{name} {lines}-line queue {i}: {e}"));
            assert_eq!(keys.len(), sol.steps.len());
            // These tables turn every piece, so every placement has keys.
            for k in &keys {
                assert_eq!(k.as_ref().and_then(|k| k.last()), Some(&Key::HardDrop));
            }
        }
    }
}

/// With a table that cannot turn I, an upright I has no keys from spawn (the solver's
/// placements start in every facing above the zone, so it may still use one).
#[test]
fn unturnable_piece_has_no_keys() {
    let kicks = KickTable::parse("T N E (0,0)").unwrap();
    let upright = [(0, 0), (0, 1), (0, 2), (0, 3)];
    assert!(tetris::inputs::find(&Board::EMPTY, tetris::Piece::I, &kicks, &upright).is_none());
    let srs = KickTable::srs();
    assert!(tetris::inputs::find(&Board::EMPTY, tetris::Piece::I, &srs, &upright).is_some());
}

#[test]
fn replay_rejects_blocked_keys() {
    let kicks = KickTable::srs_plus();
    let b = Board::EMPTY;
    let left = [Key::Left; 4];
    assert!(replay(&b, tetris::Piece::T, &kicks, &[&left[..], &[Key::HardDrop]].concat()).is_err());
    assert!(replay(&b, tetris::Piece::T, &kicks, &[Key::Left]).is_err());
}
