//! Each refutation is checked against exhaustive search (the decider without refutations) on
//! at least 10,000 small boards, and the decider's answers are replayed.

use bits::Rng;
use samegame::prove::{chessboard_bottom, lone_colour, prove, single_column_clearable, Verdict};
use samegame::{trace, Board, Groups, Rules};

fn exhaustive(b: &Board) -> bool {
    match prove(b, 2, false, u64::MAX).0 {
        Verdict::Clearable(m) => {
            let v = trace::verify(b, &m, &Rules::default()).expect("decider moves are legal");
            assert!(v.cleared);
            true
        }
        Verdict::Unclearable => false,
        Verdict::Unknown => unreachable!("no budget given"),
    }
}

/// Random boards with ragged columns: a full random board with random moves played.
fn small_board(rng: &mut Rng, max_w: u64, max_h: u64, colors: u64) -> Board {
    let w = 1 + rng.below(max_w) as usize;
    let h = 1 + rng.below(max_h) as usize;
    let mut b = Board::random(w, h, 1 + rng.below(colors) as usize, rng.next_u64());
    let mut g = Groups::new();
    for _ in 0..rng.below(3) {
        let list = g.find(&b, 2);
        if list.is_empty() {
            break;
        }
        let k = list[rng.below(list.len() as u64) as usize];
        g.remove(&mut b, &k);
    }
    b
}

#[test]
fn lone_colour_never_rejects_a_clearable_board() {
    let mut rng = Rng::new(21);
    let (mut fired, mut cases) = (0, 0);
    while cases < 10_000 {
        let b = small_board(&mut rng, 4, 4, 4);
        cases += 1;
        if lone_colour(&b, 2).is_some() {
            fired += 1;
            assert!(!exhaustive(&b), "lone-colour refuted a clearable board:\n{b}");
        }
    }
    assert!(fired > 1000, "the rule fired only {fired} times: the test would prove little");
}

#[test]
fn single_column_grammar_matches_exhaustive_search() {
    let mut rng = Rng::new(22);
    let (mut yes, mut no) = (0, 0);
    for _ in 0..10_000 {
        let n = 1 + rng.below(12) as usize;
        let colors = 2 + rng.below(2);
        let seq: Vec<u8> = (0..n).map(|_| rng.below(colors) as u8).collect();
        let text: String = seq.iter().rev().map(|c| format!("{c}\n")).collect();
        let b: Board = text.parse().unwrap();
        let grammar = single_column_clearable(&seq);
        assert_eq!(grammar, exhaustive(&b), "column (bottom first) {seq:?}");
        if grammar {
            yes += 1;
        } else {
            no += 1;
        }
    }
    assert!(yes > 1000 && no > 1000, "{yes} clearable, {no} not: too lopsided to test much");
}

/// Boards of 5x5 and 5x6/6x5 whose bottom half is a chessboard and whose top is random
/// (ragged: each column gets a random number of random tiles above the chessboard).
#[test]
#[allow(clippy::needless_range_loop)] // x and y are coordinates, not just indices
fn chessboard_theorem_never_rejects_a_clearable_board() {
    let mut rng = Rng::new(23);
    let mut fired = 0;
    for case in 0..10_000 {
        let (w, h) = [(5usize, 5usize), (5, 6), (6, 5), (6, 6)][case % 4];
        let bottom = h / 2 + 1;
        let phase = rng.below(2) as usize;
        let mut rows = vec![vec!['.'; w]; h];
        for x in 0..w {
            for y in 0..bottom {
                rows[h - 1 - y][x] = if (x + y + phase) % 2 == 0 { '0' } else { '1' };
            }
            let extra = rng.below((h - bottom + 1) as u64) as usize;
            for y in bottom..bottom + extra {
                rows[h - 1 - y][x] = if rng.below(2) == 0 { '0' } else { '1' };
            }
        }
        let text: String = rows.iter().map(|r| r.iter().collect::<String>() + "\n").collect();
        let b: Board = text.parse().unwrap();
        if chessboard_bottom(&b) {
            fired += 1;
            assert!(!exhaustive(&b), "the chessboard rule refuted a clearable board:\n{b}");
        }
    }
    assert!(fired >= 9_000, "the rule applied to only {fired} boards");
}

/// The reading of "bottom half" as exactly half fails: this board is clearable.
#[test]
fn exactly_half_a_chessboard_is_not_enough() {
    let b: Board = "..1.1\n..010\n.0101\n10101\n01010\n10101\n".parse().unwrap();
    assert!(exhaustive(&b));
    assert!(!chessboard_bottom(&b));
}

#[test]
fn decider_agrees_with_and_without_refutations() {
    let mut rng = Rng::new(24);
    for _ in 0..2_000 {
        let b = small_board(&mut rng, 4, 4, 3);
        let with = prove(&b, 2, true, u64::MAX);
        let without = prove(&b, 2, false, u64::MAX);
        assert_eq!(
            matches!(with.0, Verdict::Clearable(_)),
            matches!(without.0, Verdict::Clearable(_)),
            "\n{b}"
        );
        assert!(with.1.nodes <= without.1.nodes);
    }
}
