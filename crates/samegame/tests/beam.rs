//! The beam search: two passes equal one pass, any thread count gives the same bytes,
//! every answer replays, and planted clearable boards get cleared.

use bits::Rng;
use samegame::beam::{search, Config, Eval, Goal, Outcome, Passes};
use samegame::{trace, Board, Groups, Rules};

fn run(board: &Board, cfg: &Config, threads: usize) -> Outcome {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| search(board, cfg, None, |_| {}))
}

fn checked(board: &Board, cfg: &Config, out: &Outcome) {
    let v = trace::verify(board, &out.moves, &cfg.rules)
        .unwrap_or_else(|(i, e)| panic!("move {i}: {e}\n{board}"));
    assert_eq!((v.score, v.cleared, v.tiles_left), (out.score, out.cleared, out.tiles_left));
    if cfg.goal == Goal::Score {
        assert!(v.game_over, "a score-goal answer is a finished game");
    }
}

#[test]
fn two_pass_equals_one_pass() {
    let mut rng = Rng::new(11);
    for i in 0..12 {
        let b = Board::random(6 + i % 6, 6 + i % 5, 3 + i % 3, rng.next_u64());
        for goal in [Goal::Score, Goal::Clear] {
            for eval in [Eval::Groups, Eval::Tabu { tabu_pct: 100 }, Eval::Rollout { playouts: 2 }]
            {
                let mut cfg = Config::new(goal, 30 + 17 * i);
                cfg.eval = eval;
                let two = run(&b, &cfg, 2);
                cfg.passes = Passes::One;
                let one = run(&b, &cfg, 2);
                assert_eq!(two, one, "{goal:?} {eval:?}\n{b}");
                checked(&b, &cfg, &two);
            }
        }
    }
}

#[test]
fn identical_on_1_2_4_8_threads() {
    let mut rng = Rng::new(12);
    for i in 0..6 {
        let b = Board::random(10, 10, 3 + i % 3, rng.next_u64());
        for (goal, eval) in [
            (Goal::Score, Eval::Groups),
            (Goal::Score, Eval::Rollout { playouts: 2 }),
            (Goal::Clear, Eval::Groups),
        ] {
            let mut cfg = Config::new(goal, if eval == Eval::Groups { 200 } else { 20 });
            cfg.eval = eval;
            cfg.widen = i % 2 == 0;
            let base = run(&b, &cfg, 1);
            checked(&b, &cfg, &base);
            for t in [2, 4, 8] {
                assert_eq!(run(&b, &cfg, t), base, "{t} threads, {goal:?}\n{b}");
            }
        }
    }
    // Wide enough that a layer has thousands of children (the sampled cut-off) and a
    // hundred chunks of parents.
    let b = Board::random(15, 10, 3, 77);
    for goal in [Goal::Score, Goal::Clear] {
        let mut cfg = Config::new(goal, 2000);
        cfg.widen = false;
        let base = run(&b, &cfg, 1);
        checked(&b, &cfg, &base);
        for t in [2, 8] {
            assert_eq!(run(&b, &cfg, t), base, "{t} threads, {goal:?}\n{b}");
        }
    }
}

/// A board built by reversing clicks: pour random groups into an empty board so that each
/// one, clicked in reverse order, is a legal move. Such a board can be cleared.
fn planted(w: usize, h: usize, colors: u64, rng: &mut Rng) -> Board {
    // Columns grow bottom-up: insert a vertical bar of 2-3 tiles of one colour on top of a
    // random column, or a horizontal pair on top of two neighbouring columns of equal height.
    let mut cols: Vec<Vec<u8>> = vec![Vec::new(); w];
    for _ in 0..w * h {
        let c = rng.below(colors) as u8;
        let x = rng.below(w as u64) as usize;
        let n = 2 + rng.below(2) as usize;
        if cols[x].len() + n <= h {
            // Reversal: this bar sits on top and is its own group only if the tile below is
            // another colour; otherwise it merges, which is still removable as one group.
            cols[x].extend(std::iter::repeat_n(c, n));
        }
    }
    // Drop empty columns (tiles pack left) and render.
    cols.retain(|c| !c.is_empty());
    let mut text = String::new();
    for y in (0..h).rev() {
        for x in 0..w {
            text.push(match cols.get(x).and_then(|c| c.get(y)) {
                Some(&c) => (b'0' + c) as char,
                None => '.',
            });
        }
        text.push('\n');
    }
    text.parse().unwrap()
}

#[test]
fn clears_planted_boards() {
    let mut rng = Rng::new(13);
    for _ in 0..20 {
        let b = planted(8, 8, 3, &mut rng);
        // Clicking the top bars one column at a time from the top is a clearing sequence;
        // the search must find some clear.
        let cfg = Config::new(Goal::Clear, 200);
        let out = run(&b, &cfg, 2);
        checked(&b, &cfg, &out);
        assert!(out.cleared, "planted board not cleared:\n{b}");
    }
}

#[test]
fn wider_beams_do_not_crash_on_edge_boards() {
    let rules = Rules::default();
    for text in ["1\n", "11\n", "12\n", "1.\n", "..\n..\n", "121\n"] {
        let b: Board = text.parse().unwrap();
        for goal in [Goal::Score, Goal::Clear] {
            let cfg = Config::new(goal, 10);
            let out = run(&b, &cfg, 1);
            checked(&b, &cfg, &out);
            let can_move = !Groups::new().find(&b, rules.min_group).is_empty();
            assert_eq!(out.moves.is_empty(), !can_move, "{text:?}");
        }
    }
}
