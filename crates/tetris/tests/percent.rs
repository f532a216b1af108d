//! `percent` against one solver search per queue: the full canonical 2-line set under every
//! kick table, the spec's 2-line counts, and random fields and queues of 2- and 4-line PCs
//! that need four to six pieces.

use std::sync::atomic::AtomicBool;

use bits::Rng;
use tetris::bag::for_each_canonical;
use tetris::movegen::MoveGen;
use tetris::orders::{build, OrderSet};
use tetris::pattern::{parse_patterns, Pattern};
use tetris::percent::{count, solvable, CountOptions, Odds};
use tetris::solver::{Outcome, PcRequest};
use tetris::trace::verify;
use tetris::{Board, KickTable, Piece, Solver};

fn orders(kicks: &KickTable, board: &Board, height: u32) -> OrderSet {
    let zone = board.to_zone(height).unwrap();
    build(&MoveGen::new(kicks), zone, height, 0x7F, &AtomicBool::new(false)).unwrap()
}

/// One DFS per queue, every solution replayed.
fn solver_says(
    solver: &mut Solver,
    kicks: &KickTable,
    board: &Board,
    height: u32,
    queue: &[Piece],
    hold: bool,
) -> bool {
    let req = PcRequest {
        board: *board,
        queue: queue.to_vec(),
        hold: None,
        use_hold: hold,
        height: Some(height),
        min_height: None,
        save_hold: None,
    };
    match solver.solve(&req).unwrap() {
        Outcome::Found(sol) => {
            verify(&req, kicks, &sol).unwrap();
            true
        }
        Outcome::None => false,
        Outcome::Aborted => panic!("no budget was set"),
    }
}

fn odds(o: &OrderSet, patterns: &str, hold: bool) -> Odds {
    let mut total = Odds::default();
    for p in parse_patterns(patterns).unwrap() {
        let c = count(o, &p, CountOptions { hold, ..Default::default() }, &AtomicBool::new(false))
            .unwrap();
        total.solvable += c.odds.solvable;
        total.total += c.odds.total;
    }
    total
}

/// Perfect Tetris's 2-line figures (SRS): no 7-piece bag has a PC; 5,148 of the 154,980
/// six-piece windows with no held piece (every bag phase); 15,132 of 378,420 with any held piece.
#[test]
fn two_line_counts_match_the_published_figures() {
    let kicks = KickTable::srs();
    let o = orders(&kicks, &Board::EMPTY, 2);
    assert_eq!(odds(&o, "*p7", true), Odds { solvable: 0, total: 5_040 });
    let empty_hold = "*p6; *p5,*; *p4,*p2; *p3,*p3; *p2,*p4; *,*p5";
    let held = "*,*p5; *,*p4,*; *,*p3,*p2; *,*p2,*p3; *,*,*p4";
    let a = odds(&o, empty_hold, true);
    let b = odds(&o, held, true);
    assert_eq!(a, Odds { solvable: 5_148, total: 154_980 });
    assert_eq!(a.solvable + b.solvable, 15_132);
    assert_eq!(a.total + b.total, 378_420);
}

/// Every canonical 2-line queue (57,750: a held piece and a 5-piece window), under every kick
/// table: the order walk's answer equals one solver search per queue.
#[test]
fn every_two_line_queue_matches_the_solver_under_every_kick_table() {
    for name in KickTable::NAMES {
        let kicks = KickTable::named(name).unwrap();
        let o = orders(&kicks, &Board::EMPTY, 2);
        let mut solver = Solver::new(&kicks);
        let mut yes = 0u64;
        let items = for_each_canonical(5, |q| {
            let want = solver_says(&mut solver, &kicks, &Board::EMPTY, 2, q, true);
            assert_eq!(solvable(&o, q, true), want, "{name}: {}", tetris::piece::queue_string(q));
            yes += u64::from(want);
        });
        assert_eq!(items, 57_750);
        assert!(yes > 1_000, "{name}: {yes}");
    }
}

/// A random field on the way to a PC: the first `placed` placements of a solution of a random
/// queue.
fn random_field(kicks: &KickTable, rng: &mut Rng, height: u32, placed: usize) -> Option<Board> {
    let mut queue = tetris::bag::Bag7::new(rng.next_u64()).take(16);
    queue.truncate((10 * height as usize) / 4 + 1);
    let req = PcRequest { height: Some(height), ..PcRequest::opener(queue) };
    let Ok(Outcome::Found(sol)) = Solver::new(kicks).solve(&req) else { return None };
    let mut board = Board::EMPTY;
    let mut cleared = 0;
    for s in sol.steps.iter().take(placed) {
        for &(x, y) in &s.cells {
            board.set(usize::from(x), usize::from(y));
        }
        cleared += board.clear_lines();
    }
    // Only fields with no cleared line keep the height's meaning; skip the others.
    (cleared == 0).then_some(board)
}

/// Random fields (4 to 6 pieces into a 4-line PC, 1 into a 2-line one) and every queue of a
/// pattern: the count equals the sum of per-queue solver answers, with and without hold, and
/// the fails listed are exactly the queues the solver refutes.
#[test]
fn random_fields_and_patterns_match_the_solver() {
    let mut rng = Rng::new(2026);
    let mut checked = 0;
    let mut mixed = 0;
    for round in 0..40 {
        let name = KickTable::NAMES[round % KickTable::NAMES.len()];
        let kicks = KickTable::named(name).unwrap();
        let (height, placed) = [(4, 4), (4, 5), (2, 1), (4, 6)][round % 4];
        let Some(board) = random_field(&kicks, &mut rng, height, placed) else { continue };
        let zone = board.to_zone(height).unwrap();
        let need = (10 * height as usize - zone.count_ones() as usize) / 4;
        let o = orders(&kicks, &board, height);
        let mut solver = Solver::new(&kicks);
        let pats = ["*p7", "[IOTLJ]p4,*p3", "T,*p6", "*,*p4,[SZ]p2"];
        let hold = round % 3 != 2;
        let text = pats[round % pats.len()];
        let p: Pattern = parse_patterns(text).unwrap().remove(0);
        let len = need + usize::from(hold);
        if p.len() < len {
            continue;
        }
        let c = count(
            &o,
            &p,
            CountOptions { hold, fails: true, tree_depth: 2 },
            &AtomicBool::new(false),
        )
        .unwrap();
        let mut seen = std::collections::BTreeSet::new();
        let mut want = Odds::default();
        let mut fails = Vec::new();
        p.for_each(|q| {
            let q = &q[..len];
            if !seen.insert(q.to_vec()) {
                return;
            }
            let ok = solver_says(&mut solver, &kicks, &board, height, q, hold);
            assert_eq!(
                solvable(&o, q, hold),
                ok,
                "{name} {board:?} {}",
                tetris::piece::queue_string(q)
            );
            want.total += 1;
            want.solvable += u64::from(ok);
            if !ok {
                fails.push(q.to_vec());
            }
        });
        assert_eq!(c.odds, want, "round {round}: {name} {text} hold {hold}\n{board}");
        assert_eq!(c.fails, fails, "round {round}");
        // The tree's first level adds up to the whole.
        let top: Vec<_> = c.tree.iter().filter(|t| t.prefix.len() == 1).collect();
        assert_eq!(top.iter().map(|t| t.odds.total).sum::<u64>(), want.total);
        assert_eq!(top.iter().map(|t| t.odds.solvable).sum::<u64>(), want.solvable);
        checked += 1;
        mixed += usize::from(want.solvable > 0 && want.solvable < want.total);
    }
    assert!(checked >= 16, "only {checked} fields checked");
    assert!(mixed >= 4, "only {mixed} fields with both outcomes");
}

/// A beam over the fields (1 or 3 per prefix) finds a subset of the orders; with the solver
/// deciding every queue they do not certify, the counts and fails equal the exact ones.
#[test]
fn a_beam_with_the_solver_behind_it_gives_the_exact_count() {
    use tetris::orders::build_capped;
    use tetris::percent::count_shard;
    let mut rng = Rng::new(77);
    let mut compared = 0;
    let mut decided = 0;
    for round in 0..12 {
        let kicks = KickTable::named(KickTable::NAMES[round % 4]).unwrap();
        let Some(board) = random_field(&kicks, &mut rng, 4, 4) else { continue };
        let zone = board.to_zone(4).unwrap();
        let mg = MoveGen::new(&kicks);
        let stop = AtomicBool::new(false);
        let exact = build(&mg, zone, 4, 0x7F, &stop).unwrap();
        assert!(exact.exact);
        let cap = [1, 3][round % 2];
        let beam = build_capped(&mg, zone, 4, 0x7F, cap, &stop).unwrap();
        assert!(beam.orders().count() <= exact.orders().count());
        let p = parse_patterns("*p7").unwrap().remove(0);
        let opts = CountOptions { hold: true, fails: true, tree_depth: 1 };
        let want = count(&exact, &p, opts, &stop).unwrap();
        let asked = std::sync::atomic::AtomicU64::new(0);
        let solver = std::sync::Mutex::new(Solver::new(&kicks));
        let resolve = |q: &[Piece]| {
            asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let mut s = solver.lock().unwrap();
            Some(solver_says(&mut s, &kicks, &board, 4, q, true))
        };
        let hooks = tetris::percent::Hooks { resolve: Some(&resolve), tick: None };
        let got = count_shard(&beam, &p, opts, bits::job::Shard::WHOLE, hooks, &stop).unwrap();
        assert_eq!(got, want, "round {round}\n{board}");
        compared += 1;
        if !beam.exact {
            decided += asked.load(std::sync::atomic::Ordering::Relaxed);
        }
    }
    assert!(compared >= 6, "{compared}");
    assert!(decided > 0, "the beam never left a queue to the solver");
}

/// The exact order set built by layers of fields (every PC of six pieces or more) equals the
/// one the prefix walk builds, order for order, on random fields one to four pieces into a
/// 4-line PC (six to nine pieces to go) under every kick table, some with pieces left out.
#[test]
fn the_layered_order_set_equals_the_prefix_walk() {
    use tetris::orders::build_walk;
    let mut rng = Rng::new(3636);
    let mut compared = 0;
    let mut sizes = std::collections::BTreeSet::new();
    for round in 0..14 {
        let name = KickTable::NAMES[round % KickTable::NAMES.len()];
        let kicks = KickTable::named(name).unwrap();
        // One field with nine pieces to go (the walk takes a while there), the rest six to eight.
        let (height, placed) = if round == 0 { (4, 1) } else { (4, 2 + round % 3) };
        let Some(board) = random_field(&kicks, &mut rng, height, placed) else { continue };
        let zone = board.to_zone(height).unwrap();
        let mg = MoveGen::new(&kicks);
        let stop = AtomicBool::new(false);
        // Some pieces left out too: the set must respect the piece mask.
        let mask = if round % 3 == 0 { 0x7F & !(1 << (round % 7)) } else { 0x7F };
        let layered = build(&mg, zone, height, mask, &stop).unwrap();
        let walk = build_walk(&mg, zone, height, mask, usize::MAX, &stop).unwrap();
        assert!(layered.exact && walk.exact);
        assert_eq!(layered.pieces(), walk.pieces());
        assert_eq!(
            layered.orders(),
            walk.orders(),
            "round {round}: {name} mask {mask:#x}\n{board}"
        );
        for t in 0..=layered.pieces() {
            for i in (0..tetris::orders::pow7(t)).step_by(97) {
                assert_eq!(
                    layered.has_prefix(t, i),
                    walk.has_prefix(t, i),
                    "round {round} prefix {t}:{i}"
                );
            }
        }
        sizes.insert((layered.pieces(), layered.orders().count() > 0));
        compared += 1;
    }
    assert!(compared >= 10, "{compared}");
    for n in 6..=9 {
        assert!(sizes.contains(&(n, true)), "no field with {n} pieces to go: {sizes:?}");
    }
}
