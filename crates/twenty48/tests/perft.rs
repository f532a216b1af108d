//! Perft counts: the number of (move, spawn) sequences from fixed boards, computed by the
//! table engine and by the reference engine, and compared with the counts frozen in
//! `tests/data/perft.txt` (written once the two engines agreed on them).

use twenty48::game::perft;
use twenty48::search::{FastMoves, ReferenceMoves};
use twenty48::Board;

fn cases() -> Vec<(Board, u32, u64)> {
    include_str!("data/perft.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let parts: Vec<&str> = l.split(';').map(str::trim).collect();
            assert_eq!(parts.len(), 3, "bad perft line {l:?}");
            (parts[0].parse().unwrap(), parts[1].parse().unwrap(), parts[2].parse().unwrap())
        })
        .collect()
}

#[test]
fn perft_counts_match_frozen_values_on_both_engines() {
    let cases = cases();
    assert!(cases.len() >= 8);
    for (board, depth, want) in cases {
        assert_eq!(perft(board, depth, &FastMoves), want, "fast: {board} depth {depth}");
        if depth <= 3 {
            assert_eq!(perft(board, depth, &ReferenceMoves), want, "ref: {board} depth {depth}");
        }
    }
}
