//! The search's bench signature: fixed boards searched at a fixed depth on the table engine
//! and on the reference engine. The two must agree move for move and node for node, and the
//! node total and the chosen moves must equal the values frozen in
//! `tests/data/search_signature.txt`. A change to them (new heuristic, new pruning, new node
//! counting) must be deliberate and explained where it is made.

use twenty48::search::{
    Depth, FastMoves, Heuristic, MoveGen, Params, ReferenceMoves, SearchConfig, Searcher,
};
use twenty48::Board;

struct Frozen {
    boards: Vec<Board>,
    moves: String,
    nodes: u64,
}

fn frozen() -> Frozen {
    let mut boards = Vec::new();
    let (mut moves, mut nodes) = (None, None);
    for line in include_str!("data/search_signature.txt").lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(m) = line.strip_prefix("moves ") {
            moves = Some(m.to_string());
        } else if let Some(n) = line.strip_prefix("nodes ") {
            nodes = Some(n.parse().unwrap());
        } else {
            boards.push(line.parse().unwrap_or_else(|e| panic!("bad board {line:?}: {e}")));
        }
    }
    Frozen { boards, moves: moves.unwrap(), nodes: nodes.unwrap() }
}

fn run<G: MoveGen>(gen: G, boards: &[Board]) -> (String, u64) {
    let heur = Heuristic::new(Params::TUNED_DEPTH2);
    let cfg = SearchConfig {
        depth: Depth::Fixed(3),
        prob_cutoff: 1e-4,
        tt_bits: 16,
        ..Default::default()
    };
    let mut s = Searcher::with_movegen(&heur, cfg, gen);
    let moves = boards.iter().map(|&b| s.best_move(b).map_or('-', |c| c.dir.letter())).collect();
    (moves, s.nodes())
}

#[test]
fn signature_matches_on_both_engines() {
    let f = frozen();
    assert!(f.boards.len() >= 8);
    let fast = run(FastMoves, &f.boards);
    let slow = run(ReferenceMoves, &f.boards);
    assert_eq!(fast, slow, "the engines disagree");
    assert_eq!(fast, (f.moves, f.nodes), "the signature changed");
}
