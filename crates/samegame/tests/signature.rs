//! The bench signature: fixed boards, fixed settings, and the node counts and a hash of the
//! chosen moves, kept in `tests/data/signature.txt`. A change to the search's answers shows up
//! here and must be a deliberate, explained change: regenerate the file with
//! `BITARCADE_BLESS=1 cargo test -p samegame --test all signature::` and say why in the commit.

use samegame::beam::{search, Config, Eval, Goal};
use samegame::Board;

fn fnv(moves: &[(u8, u8)]) -> u64 {
    let mut h = bits::Fnv::new();
    for &(x, y) in moves {
        h.write(&[x, y]);
    }
    h.finish()
}

fn signature() -> String {
    let mut out = String::new();
    let cases: [(&str, Goal, Eval, usize); 4] = [
        ("classic", Goal::Score, Eval::Groups, 300),
        ("tabu", Goal::Score, Eval::Tabu { tabu_pct: 50 }, 300),
        ("rollout", Goal::Score, Eval::Rollout { playouts: 2 }, 10),
        ("clear", Goal::Clear, Eval::Groups, 300),
    ];
    for seed in 1..=3u64 {
        let board = Board::random(12, 12, 4, seed);
        for (name, goal, eval, width) in cases {
            let mut cfg = Config::new(goal, width);
            cfg.eval = eval;
            cfg.widen = false;
            let o = search(&board, &cfg, None, |_| {});
            out += &format!(
                "seed {seed} {name} width {width}: score {} nodes {} moves {} hash {:016x}\n",
                o.score,
                o.nodes,
                o.moves.len(),
                fnv(&o.moves)
            );
        }
    }
    out
}

#[test]
fn bench_signature_is_unchanged() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/signature.txt");
    let got = signature();
    if std::env::var_os("BITARCADE_BLESS").is_some() {
        std::fs::write(path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(path).expect("tests/data/signature.txt exists");
    assert_eq!(
        got, want,
        "the search's answers changed; if deliberate, re-bless (see the file's doc)"
    );
}
