//! Nested Monte-Carlo search: answers replay to the claimed score, any thread count gives the
//! same answer, deeper levels never lose the best sequence, and restarts pick by a total order.

use bits::Rng;
use samegame::beam::Outcome;
use samegame::nested::{search, Config};
use samegame::{trace, Board, Rules};

fn run(board: &Board, cfg: &Config, threads: usize) -> Outcome {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| search(board, cfg, |_| {}))
}

fn checked(board: &Board, rules: &Rules, out: &Outcome) {
    let v = trace::verify(board, &out.moves, rules)
        .unwrap_or_else(|(i, e)| panic!("move {i}: {e}\n{board}"));
    assert_eq!((v.score, v.cleared, v.tiles_left), (out.score, out.cleared, out.tiles_left));
    assert!(v.game_over, "a nested answer is a finished game\n{board}");
}

#[test]
fn answers_replay_and_are_thread_independent() {
    let mut rng = Rng::new(21);
    for i in 0..8 {
        let b = Board::random(5 + i % 4, 5 + i % 3, 2 + i % 4, rng.next_u64());
        for level in 0..=2 {
            let cfg = Config { level, rules: Rules::default(), seed: 3 + i as u64 };
            let base = run(&b, &cfg, 1);
            checked(&b, &cfg.rules, &base);
            for t in [2, 4] {
                assert_eq!(run(&b, &cfg, t), base, "level {level}, {t} threads\n{b}");
            }
        }
    }
}

#[test]
fn level_one_keeps_the_best_first_step() {
    // Level 1 scores at least the best "one move, then the level-0 playout" sequence it saw at
    // its first step: the memorized sequence is never lost.
    let mut rng = Rng::new(22);
    let rules = Rules::default();
    for i in 0..10 {
        let b = Board::random(7, 7, 3 + i % 3, rng.next_u64());
        let cfg = Config { level: 1, rules, seed: 9 };
        let one = run(&b, &cfg, 1);
        let mut g = samegame::Groups::new();
        let first: Vec<_> = g.find(&b, 2).to_vec();
        for grp in first {
            let mut child = b.clone();
            g.find(&b, 2);
            g.remove(&mut child, &grp);
            let mut gain = rules.points(grp.size);
            if child.is_clear() {
                gain += rules.clear_bonus;
            }
            let rest = search(&child, &Config { level: 0, ..cfg }, |_| {});
            assert!(
                one.score >= gain + rest.score,
                "board {i}: {} < {}\n{b}",
                one.score,
                gain + rest.score
            );
        }
    }
}

#[test]
fn a_board_with_one_line_of_play() {
    let b: Board = "22\n11\n".parse().unwrap();
    let out = run(&b, &Config { level: 2, rules: Rules::default(), seed: 1 }, 2);
    // Either colour first; both clear: 0 + 0 + 1,000.
    assert_eq!((out.score, out.cleared, out.moves.len()), (1000, true, 2));
}

#[test]
fn better_than_is_a_total_order_on_answers() {
    let o = |score, moves: Vec<(u8, u8)>| Outcome {
        moves,
        score,
        cleared: false,
        tiles_left: 0,
        nodes: 0,
        layers: 0,
        aborted: false,
    };
    let a = o(10, vec![(0, 0), (1, 0)]);
    let b = o(10, vec![(0, 0)]);
    let c = o(11, vec![(0, 0), (1, 0), (2, 0)]);
    let d = o(10, vec![(0, 1)]);
    assert!(c.better_than(&a) && c.better_than(&b), "higher score wins");
    assert!(b.better_than(&a), "then fewer moves");
    assert!(b.better_than(&d) && !d.better_than(&b), "then the smaller move list");
    assert!(!a.better_than(&a), "strict");
}

#[test]
fn starting_from_a_known_answer_is_never_worse() {
    use samegame::beam::{self, Eval, Goal};
    use samegame::nested::search_from;
    let mut rng = Rng::new(23);
    for i in 0..8 {
        let b = Board::random(7 + i % 3, 7, 3 + i % 2, rng.next_u64());
        let mut bcfg = beam::Config::new(Goal::Score, 8);
        bcfg.eval = Eval::Rollout { playouts: 2 };
        let known = beam::search(&b, &bcfg, None, |_| {});
        for level in 0..=1 {
            let cfg = Config { level, rules: Rules::default(), seed: 5 };
            let out = search_from(&b, &cfg, Some(&known), |_| {});
            checked(&b, &cfg.rules, &out);
            assert!(
                out.score >= known.score,
                "level {level}: {} < {}\n{b}",
                out.score,
                known.score
            );
        }
    }
}

#[test]
fn a_known_answer_may_name_any_tile_and_bad_ones_are_ignored() {
    use samegame::nested::search_from;
    // "1 1 / 2 2": the 1s on top. Clicking the top-right 1 (x 1, y 1) is the same move as its
    // representative (0, 1).
    let b: Board = "11\n22\n".parse().unwrap();
    let cfg = Config { level: 0, rules: Rules::default(), seed: 1 };
    let known = Outcome {
        moves: vec![(1, 1), (1, 0)],
        score: 1000,
        cleared: true,
        tiles_left: 0,
        nodes: 0,
        layers: 0,
        aborted: false,
    };
    let out = search_from(&b, &cfg, Some(&known), |_| {});
    checked(&b, &cfg.rules, &out);
    assert_eq!(out.score, 1000);
    // An illegal known answer (a click on an empty cell) is ignored, not trusted.
    let bad = Outcome { moves: vec![(5, 5)], score: 1_000_000, ..known };
    let out = search_from(&b, &cfg, Some(&bad), |_| {});
    checked(&b, &cfg.rules, &out);
    assert_eq!(out.score, 1000);
}
