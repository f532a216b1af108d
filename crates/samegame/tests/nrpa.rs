//! NRPA: answers replay to the claimed score, a seed gives one answer on any thread count,
//! a seeded search never returns less than its seed, and the prior's variants all finish games.

use bits::Rng;
use samegame::beam::Outcome;
use samegame::nrpa::{search, search_from, Config, Tabu};
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
    assert!(v.game_over, "an NRPA answer is a finished game\n{board}");
}

fn small(level: u32, seed: u64) -> Config {
    Config { level, iterations: 8, seed, ..Config::new(level) }
}

#[test]
fn answers_replay_and_are_thread_independent() {
    let mut rng = Rng::new(31);
    for i in 0..8 {
        let b = Board::random(5 + i % 5, 5 + i % 4, 2 + i % 4, rng.next_u64());
        for level in 0..=2 {
            for tabu in [Tabu::Strict, Tabu::Bias(-2.0), Tabu::Off] {
                let cfg = Config { tabu, runs: 3, size_bias: 0.1, ..small(level, 5 + i as u64) };
                let base = run(&b, &cfg, 1);
                checked(&b, &cfg.rules, &base);
                assert_eq!(run(&b, &cfg, 3), base, "level {level}, {tabu:?}, 3 threads\n{b}");
                assert_eq!(run(&b, &cfg, 1), base, "level {level}, {tabu:?}: not repeatable");
            }
        }
    }
}

#[test]
fn more_iterations_never_hurt_and_levels_add_up() {
    // The best game of a level is kept, and a level-1 search with k iterations replays the
    // first k playouts of a longer one (same seed, same policy updates): so its score cannot
    // exceed the longer search's.
    let mut rng = Rng::new(32);
    for i in 0..6 {
        let b = Board::random(8, 8, 3 + i % 3, rng.next_u64());
        let short = run(&b, &Config { iterations: 10, ..small(1, 2) }, 1);
        let long = run(&b, &Config { iterations: 40, ..small(1, 2) }, 1);
        assert!(long.score >= short.score, "board {i}: {} < {}\n{b}", long.score, short.score);
        assert_eq!((short.nodes, long.nodes), (10, 40));
        let two = run(&b, &small(2, 2), 1);
        assert_eq!(two.nodes, 64);
    }
}

#[test]
fn a_seeded_search_keeps_its_seed() {
    let mut rng = Rng::new(33);
    let rules = Rules::default();
    for i in 0..6 {
        let b = Board::random(9, 9, 4, rng.next_u64());
        // A strong known answer: the best of a larger search.
        let known = run(&b, &Config { iterations: 30, ..small(2, 100 + i) }, 1);
        for tabu in [Tabu::Strict, Tabu::Bias(-3.0)] {
            let cfg = Config { tabu, ..small(1, 7) };
            let out = search_from(&b, &cfg, Some(&known), |_| {});
            checked(&b, &rules, &out);
            assert!(out.score >= known.score, "board {i}: {} < {}", out.score, known.score);
        }
        // A bad known answer (illegal) is ignored.
        let bad = Outcome { moves: vec![(60, 30)], ..known.clone() };
        let out = search_from(&b, &small(1, 7), Some(&bad), |_| {});
        checked(&b, &rules, &out);
    }
}

#[test]
fn tiny_boards() {
    let b: Board = "22\n11\n".parse().unwrap();
    let out = run(&b, &small(2, 1), 1);
    assert_eq!((out.score, out.cleared, out.moves.len()), (1000, true, 2));
    // Nothing to remove: the empty game.
    let dead: Board = "12\n21\n".parse().unwrap();
    let out = run(&dead, &small(2, 1), 2);
    assert_eq!((out.score, out.moves.len(), out.tiles_left), (0, 0, 4));
    // A 3x3 board: NRPA finds the best of every game (checked by brute force).
    let b: Board = "121\n112\n222\n".parse().unwrap();
    let out = run(&b, &Config { iterations: 20, ..small(2, 3) }, 1);
    checked(&b, &Rules::default(), &out);
    assert_eq!(out.score, brute(&b, &Rules::default()));
}

fn brute(b: &Board, rules: &Rules) -> i64 {
    let mut g = samegame::Groups::new();
    let list: Vec<_> = g.find(b, rules.min_group).to_vec();
    if list.is_empty() {
        return if b.is_clear() { rules.clear_bonus } else { 0 };
    }
    list.iter()
        .map(|grp| {
            let mut c = b.clone();
            g.find(b, rules.min_group);
            g.remove(&mut c, grp);
            rules.points(grp.size) + brute(&c, rules)
        })
        .max()
        .unwrap()
}
