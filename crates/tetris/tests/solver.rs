//! The solver against the brute force, planted fields, the spec's known answers, and the
//! verifier on every solution.

use bits::Rng;
use tetris::bag::{for_each_canonical, opener_queue, Bag7};
use tetris::board::Board;
use tetris::movegen::MoveGen;
use tetris::reference::brute_force_pc;
use tetris::solver::{Outcome, PcRequest, RequestError, Solver, Weights};
use tetris::trace::verify;
use tetris::{KickTable, Piece};

fn random_piece(rng: &mut Rng) -> Piece {
    Piece::from_index(rng.below(7) as usize)
}

/// Solves and, when found, verifies; returns solvability.
fn solve_checked(solver: &mut Solver, kicks: &KickTable, req: &PcRequest) -> bool {
    match solver.solve(req).expect("valid request") {
        Outcome::Found(sol) => {
            verify(req, kicks, &sol).unwrap_or_else(|e| panic!("{e}\n{req:?}\n{sol:?}"));
            true
        }
        Outcome::None => false,
        Outcome::Aborted => panic!("no node limit was set"),
    }
}

/// 2-line PCs from an empty board: thousands of random 6-piece streams (hold on) and random
/// 5-piece streams (hold off); the pruned, ordered, memoized solver and the brute force agree.
#[test]
fn solver_agrees_with_brute_force_on_random_queues() {
    let kicks = KickTable::srs_plus();
    let mg = MoveGen::new(&kicks);
    let mut solver = Solver::new(&kicks);
    let mut rng = Rng::new(11);
    let (mut yes, mut total) = (0, 0);
    for case in 0..3_000 {
        let hold = case % 3 != 0;
        let n = if hold { 6 } else { 5 };
        let q: Vec<Piece> = (0..n).map(|_| random_piece(&mut rng)).collect();
        let mut req = PcRequest::opener(q.clone());
        req.use_hold = hold;
        req.height = Some(2);
        let fast = solve_checked(&mut solver, &kicks, &req);
        let brute = brute_force_pc(&mg, 0, 2, &q, hold);
        assert_eq!(fast, brute, "case {case}: queue {q:?} hold {hold}");
        yes += usize::from(fast);
        total += 1;
    }
    assert!(yes > 100 && yes < total, "{yes} of {total} solvable: the test would be vacuous");
}

/// Random fields a few pieces from a 4-line PC (a solved opener cut short, then a random
/// queue): solver and brute force agree, so the pruning never loses a PC.
#[test]
fn solver_agrees_with_brute_force_on_random_fields() {
    let kicks = KickTable::srs();
    let mg = MoveGen::new(&kicks);
    let mut solver = Solver::new(&kicks);
    let mut rng = Rng::new(12);
    let (mut yes, mut total) = (0, 0);
    for case in 0..400u64 {
        let req0 = PcRequest::opener(opener_queue(99, case, 11));
        let Outcome::Found(sol) = solver.solve(&req0).unwrap() else { panic!("opener {case}") };
        let cut = 7 + rng.below(2) as usize; // 2 or 3 pieces left
        let mut board = Board::EMPTY;
        for s in &sol.steps[..cut] {
            for &(x, y) in &s.cells {
                board.set(usize::from(x), usize::from(y));
            }
            board.clear_lines();
        }
        let need = 10 - cut;
        let hold = rng.chance(1, 2);
        let q: Vec<Piece> = (0..need + usize::from(hold)).map(|_| random_piece(&mut rng)).collect();
        let rows = 4 - (cut as u32 * 4 - board.count()) / 10;
        let req = PcRequest {
            board,
            queue: q.clone(),
            hold: None,
            use_hold: hold,
            height: Some(rows),
            min_height: None,
            save_hold: None,
        };
        let fast = solve_checked(&mut solver, &kicks, &req);
        let brute = brute_force_pc(&mg, board.to_zone(rows).unwrap(), rows, &q, hold);
        assert_eq!(fast, brute, "case {case}: {q:?} hold {hold} on\n{board}");
        yes += usize::from(fast);
        total += 1;
    }
    assert!(yes > 10 && yes < total, "{yes} of {total} solvable: the test would be vacuous");
}

/// Planted fields: play a random solvable prefix of a 4-line PC; the rest of that queue must
/// solve the field that remains, with and without hold.
#[test]
fn planted_fields_are_solved() {
    let kicks = KickTable::srs_plus();
    let mut rng = Rng::new(13);
    for case in 0..300u64 {
        let q = opener_queue(7, case, 11);
        // Random ordering weights give varied planted solutions.
        let w = Weights(std::array::from_fn(|_| rng.below(41) as i32 - 20));
        let mut planter = Solver::with_weights(&kicks, w);
        let mut req0 = PcRequest::opener(q.clone());
        req0.use_hold = false;
        req0.queue.truncate(10);
        let Outcome::Found(sol) = planter.solve(&req0).unwrap() else { continue };
        let cut = 1 + rng.below(8) as usize;
        let mut board = Board::EMPTY;
        for s in &sol.steps[..cut] {
            for &(x, y) in &s.cells {
                board.set(usize::from(x), usize::from(y));
            }
            board.clear_lines();
        }
        let pieces: Vec<Piece> = sol.steps[cut..].iter().map(|s| s.piece).collect();
        let mut solver = Solver::new(&kicks);
        for hold in [false, true] {
            let req = PcRequest {
                board,
                queue: pieces.clone(),
                hold: None,
                use_hold: hold,
                height: None,
                min_height: None,
                save_hold: None,
            };
            assert!(
                solve_checked(&mut solver, &kicks, &req),
                "case {case}: {pieces:?} on\n{board}"
            );
        }
    }
}

/// Spec: under SRS every bag-phase-0 11-piece opener has a 4-line PC (a sample of 300).
#[test]
fn four_line_openers_are_solvable_under_srs() {
    let kicks = KickTable::srs();
    let mut solver = Solver::new(&kicks);
    for i in 0..300 {
        let req = PcRequest::opener(Bag7::new(1000 + i).take(11));
        assert!(solve_checked(&mut solver, &kicks, &req), "opener {i}: {:?}", req.queue);
    }
}

/// Spec: no 7-piece bag (all 5,040 orders) has a 2-line PC from an empty board, with hold.
#[test]
fn no_two_line_pc_from_one_bag() {
    let kicks = KickTable::srs();
    let mut solver = Solver::new(&kicks);
    let mut perm = Piece::ALL;
    let mut count = 0;
    permute(&mut perm, 0, &mut |q| {
        let mut req = PcRequest::opener(q.to_vec());
        req.height = Some(2);
        assert!(!solve_checked(&mut solver, &kicks, &req), "{q:?}");
        count += 1;
    });
    assert_eq!(count, 5_040);
}

fn permute(a: &mut [Piece; 7], k: usize, f: &mut impl FnMut(&[Piece])) {
    if k == a.len() {
        f(a);
        return;
    }
    for i in k..a.len() {
        a.swap(k, i);
        permute(a, k + 1, f);
        a.swap(k, i);
    }
}

/// A slice of the canonical 2-line sweep (every 7th item): solver and brute force agree.
#[test]
fn two_line_sweep_slice_agrees_with_brute_force() {
    let kicks = KickTable::srs();
    let mg = MoveGen::new(&kicks);
    let mut solver = Solver::new(&kicks);
    let mut items = Vec::new();
    let n = for_each_canonical(5, |q| items.push(q.to_vec()));
    assert_eq!(n, 57_750);
    let mut solvable = 0;
    for q in items.iter().step_by(7) {
        let req = PcRequest {
            board: Board::EMPTY,
            queue: q[1..].to_vec(),
            hold: Some(q[0]),
            use_hold: true,
            height: Some(2),
            min_height: None,
            save_hold: None,
        };
        let fast = solve_checked(&mut solver, &kicks, &req);
        assert_eq!(fast, brute_force_pc(&mg, 0, 2, q, true), "{q:?}");
        solvable += usize::from(fast);
    }
    assert!(solvable > 0);
}

#[test]
fn bad_requests_are_refused() {
    let kicks = KickTable::srs();
    let mut solver = Solver::new(&kicks);
    let short = PcRequest::opener(vec![Piece::I; 4]);
    assert!(matches!(solver.solve(&short), Err(RequestError::QueueTooShort { .. })));
    let mut odd = PcRequest::opener(vec![Piece::I; 11]);
    odd.board = "#.........".parse().unwrap();
    odd.height = Some(2);
    assert!(matches!(solver.solve(&odd), Err(RequestError::AreaNotFillable { .. })));
    let mut tall = PcRequest::opener(vec![Piece::I; 11]);
    tall.board = "#.........\n".repeat(7).parse().unwrap();
    assert_eq!(solver.solve(&tall), Err(RequestError::FieldTooTall(7)));
}

/// save-hold with hold off: the piece left is the one already in hold (never dealt), else the
/// next piece of the queue, as the verifier reads it. The solver used to compare with the
/// hold-on rule (nothing held) and never found such a PC, and the piece count kept a queue
/// piece back even where the saved piece is the idle hold piece.
#[test]
fn save_hold_with_hold_off_keeps_the_idle_hold_piece_or_the_next() {
    let kicks = KickTable::srs_plus();
    let mut solver = Solver::new(&kicks);
    let q = |s: &str| s.chars().map(|c| Piece::from_letter(c).unwrap()).collect::<Vec<_>>();
    let off = |queue: &str, hold: Option<Piece>, keep: Piece| PcRequest {
        hold,
        use_hold: false,
        height: Some(2),
        save_hold: Some(keep),
        ..PcRequest::opener(q(queue))
    };
    // I idle in hold and kept: all five queue pieces are placed.
    let req = off("IIOOO", Some(Piece::I), Piece::I);
    let Outcome::Found(sol) = solver.solve(&req).unwrap() else { panic!("no PC: {req:?}") };
    verify(&req, &kicks, &sol).unwrap();
    assert_eq!(sol.steps.len(), 5);
    // Nothing in hold: the piece after the last one placed is the one left.
    let req = off("IIOOOT", None, Piece::T);
    let Outcome::Found(sol) = solver.solve(&req).unwrap() else { panic!("no PC: {req:?}") };
    verify(&req, &kicks, &sol).unwrap();
    assert_eq!(sol.steps.len(), 5);
    // The idle hold piece is not the one to keep: no PC can leave it.
    let req = off("IIOOOT", Some(Piece::I), Piece::T);
    assert!(matches!(solver.solve(&req).unwrap(), Outcome::None), "{req:?}");
}

/// save-hold: the piece left over after the PC is the one asked for.
#[test]
fn save_hold_is_respected() {
    let kicks = KickTable::srs_plus();
    let mut solver = Solver::new(&kicks);
    let mut found = 0;
    for i in 0..4 {
        let q = opener_queue(5, i, 11);
        for &keep in &q {
            let mut req = PcRequest::opener(q.clone());
            req.save_hold = Some(keep);
            if let Outcome::Found(sol) = solver.solve(&req).unwrap() {
                verify(&req, &kicks, &sol).unwrap();
                let placed: Vec<Piece> = sol.steps.iter().map(|s| s.piece).collect();
                let mut left = q.clone();
                for p in placed {
                    let at = left.iter().position(|&x| x == p).unwrap();
                    left.remove(at);
                }
                assert_eq!(left, [keep]);
                found += 1;
            }
        }
    }
    assert!(found > 10, "{found}");
}

/// `min_height` keeps the feasible heights from that one up, smallest first, and the solver
/// answers at the smallest of them that has a PC.
#[test]
fn min_height_skips_lower_heights() {
    let kicks = KickTable::srs_plus();
    let mut solver = Solver::new(&kicks);
    let mut req = PcRequest::opener(opener_queue(1, 3, 16));
    assert_eq!(req.heights(), Ok(vec![2, 4, 6]));
    req.min_height = Some(3);
    assert_eq!(req.heights(), Ok(vec![4, 6]));
    let Ok(Outcome::Found(sol)) = solver.solve(&req) else { panic!("no PC of 4 or 6 lines") };
    assert_eq!(sol.height, 4);
    verify(&req, &kicks, &sol).unwrap();
    req.min_height = Some(5);
    let Ok(Outcome::Found(sol)) = solver.solve(&req) else { panic!("no 6-line PC") };
    assert_eq!(sol.height, 6);
    verify(&req, &kicks, &sol).unwrap();
    // From 7 lines up the heights go past the six-row zone: 8 lines need 20 pieces.
    req.min_height = Some(7);
    assert!(matches!(req.heights(), Err(RequestError::QueueTooShort { height: 8, need: 20, .. })));
    req.min_height = Some(41);
    assert_eq!(req.heights(), Err(RequestError::BadHeight(41)));
    // Too few pieces for any height from 6 up.
    let mut short = PcRequest::opener(opener_queue(1, 3, 11));
    short.min_height = Some(6);
    assert!(matches!(short.heights(), Err(RequestError::QueueTooShort { height: 6, .. })));
}

/// PCs taller than the six-row zone (the stack kept within its bottom six rows): from an empty
/// field at 8 to 40 lines, and from fields with a few cells, each solution replayed by the
/// verifier, on seeded 7-bag queues not used elsewhere.
#[test]
fn tall_pcs_from_empty_and_started_fields_replay() {
    let kicks = KickTable::srs();
    let mut solver = Solver::new(&kicks);
    let mut found = 0;
    for (i, h) in [8u32, 10, 12, 14, 20, 26, 40].into_iter().enumerate() {
        for start in ["", "XX........\nXX........\n", "X.........\nXXX.......\n"] {
            let board: Board = if start.is_empty() { Board::EMPTY } else { start.parse().unwrap() };
            let cells = board.count();
            if (10 * h - cells) % 4 != 0 {
                continue;
            }
            let need = ((10 * h - cells) / 4) as usize;
            let queue = Bag7::new(9_000 + i as u64).take(need + 1);
            let req = PcRequest { board, height: Some(h), ..PcRequest::opener(queue) };
            match solver.solve(&req).unwrap() {
                Outcome::Found(sol) => {
                    assert_eq!(sol.height, h);
                    assert_eq!(sol.steps.len(), need);
                    verify(&req, &kicks, &sol).unwrap();
                    found += 1;
                }
                other => panic!("{h} lines from {start:?}: {other:?}"),
            }
        }
    }
    assert!(found >= 14, "{found}");
    // Beyond the board, and a field taller than the zone, are refused.
    let too_high = PcRequest { height: Some(41), ..PcRequest::opener(Bag7::new(1).take(110)) };
    assert!(solver.solve(&too_high).is_err());
}
