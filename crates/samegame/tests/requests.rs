//! Property tests over SameGame's requests: board sizes, colours, rules, searches and clicks
//! drawn over their whole documented ranges and just outside them, each with a tiny budget.
//! Every call answers `Ok` or a one-line input error, never a panic.

use bits::job::{Control, Error};
use bits::live::{auto, hint, position, AutoRequest, Caps, HintRequest, PositionRequest};
use proptest::prelude::*;
use samegame::api::live::contract::{SameGame, Search, Setup};
use samegame::api::{
    gen, prove, solve, BoardFile, GenRequest, ProveRequest, Search as Method, SolveGoal,
    SolveRequest,
};
use samegame::trace::RulesRecord;

fn one_line_input(e: &Error) -> bool {
    matches!(e, Error::Input(m) if !m.contains('\n') && !m.is_empty())
}

const POINTS: [&str; 5] = ["(n-2)^2", "(n-1)^2", "n(n-1)", "n^3", ""];
const METHODS: [Method; 5] =
    [Method::Beam, Method::Nested, Method::BeamNested, Method::Nrpa, Method::BeamNrpa];

/// A board's text: mostly a well-formed board (equal rows of colours, some empty cells),
/// sometimes ragged rows or stray characters.
fn board_text() -> impl Strategy<Value = String> {
    let good = (1usize..=9, 1usize..=7, 1u8..=5).prop_flat_map(|(w, h, c)| {
        prop::collection::vec(prop::collection::vec(0..c, w), h).prop_map(|rows| {
            rows.iter()
                .map(|r| r.iter().map(|&x| char::from(b'0' + x)).collect::<String>())
                .collect::<Vec<_>>()
                .join("\n")
        })
    });
    let bad = prop::collection::vec("[0-9.x ]{0,5}", 0..6).prop_map(|rows| rows.join("\n"));
    prop_oneof![4 => good, 1 => bad]
}

/// Mostly inside `lo..=hi`, sometimes up to `out` past either end.
fn around(lo: usize, hi: usize, out: usize) -> impl Strategy<Value = usize> {
    prop_oneof![16 => lo..=hi, 1 => 0..=lo, 1 => hi..=hi + out]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 80, ..ProptestConfig::default() })]

    #[test]
    fn gen_answers_or_refuses_in_one_line(
        width in around(1, 64, 6), height in around(1, 32, 6), colors in around(1, 8, 2),
        seed in any::<u64>(), count in 0usize..=3, bgf2 in any::<bool>(),
    ) {
        let req = GenRequest { width, height, colors, seed, count, bgf2 };
        match gen(&req, Control::new()) {
            // One board when BGF2 is asked (documented).
            Ok(out) => prop_assert_eq!(out.boards.len(), if bgf2 { 1 } else { count }),
            Err(e) => prop_assert!(one_line_input(&e), "{req:?}: {e:?}"),
        }
    }

    #[test]
    fn solve_and_prove_answer_or_refuse_in_one_line(
        text in board_text(), goal in any::<bool>(), method in 0usize..5,
        width in prop::option::of(0usize..=40), level in 0u32..=5, iterations in 0u32..=4,
        points in 0usize..5, min_group in prop::option::of(0u32..=5), seed in any::<u64>(),
        max_nodes in 0u64..5_000,
    ) {
        let req = SolveRequest {
            file: Some(BoardFile::text_file("board", text.clone())),
            goal: if goal { SolveGoal::Clear } else { SolveGoal::Score },
            search: METHODS[method],
            width,
            level,
            iterations,
            points: POINTS[points].into(),
            min_group,
            seed,
            threads: Some(1),
            record: true,
            ..SolveRequest::default()
        };
        match solve(&req, Control::new()) {
            Ok(out) => {
                for b in &out.boards {
                    samegame::trace::replay(b.record.as_ref().unwrap()).unwrap();
                }
            }
            Err(e) => prop_assert!(one_line_input(&e), "{req:?}: {e:?}"),
        }
        let req = ProveRequest { file: BoardFile::text_file("board", text), refutations: true, max_nodes };
        if let Err(e) = prove(&req, Control::new()) {
            prop_assert!(one_line_input(&e), "{req:?}: {e:?}");
        }
    }

    #[test]
    fn the_live_contract_answers_or_refuses_in_one_line(
        width in around(1, 12, 60), height in around(1, 10, 30), colors in around(1, 8, 2),
        board in prop::option::of(board_text()), seed in any::<u64>(),
        moves in prop_oneof![6 => Just(String::new()), 1 => "([0-9]\\.[0-9]-){1,4}", 1 => "([0-9]{1,2}\\.[0-9]{1,2}|x|\\.|-){1,8}"],
        points in prop_oneof![12 => 0usize..3, 1 => 3usize..5],
        min_group in prop_oneof![12 => 2u32..=4, 1 => 0u32..=1], clear_bonus in prop_oneof![8 => -5i64..5000, 1 => any::<i64>()],
        method in prop_oneof![12 => prop::sample::select(vec![0usize, 3, 4]), 1 => 1usize..=2],
        bwidth in prop::option::of(0usize..=8),
        level in prop_oneof![12 => 1u32..=3, 1 => Just(0u32), 1 => 4u32..=9],
        iterations in prop_oneof![12 => 1u32..=3, 1 => Just(0u32)], max_moves in 0u64..20,
    ) {
        let rules = RulesRecord { points: POINTS[points].into(), clear_bonus, min_group };
        let setup = Setup { width, height, colors, board, rules };
        let from = PositionRequest::<SameGame> { setup, seed, moves, frames: true, record: true };
        match position(&from, Control::new()) {
            Ok(p) => prop_assert_eq!(p.frames.len(), p.played + 1),
            Err(e) => prop_assert!(one_line_input(&e), "{from:?}: {e:?}"),
        }
        let search = Search {
            goal: SolveGoal::Score, search: METHODS[method], width: bwidth, level, iterations, seed, millis: None,
        };
        let caps = Caps { width: 12, ..Caps::default() };
        if let Err(e) = hint(&HintRequest { from: from.clone(), search: search.clone() }, &caps, Control::new()) {
            prop_assert!(one_line_input(&e), "{from:?} {search:?}: {e:?}");
        }
        let req = AutoRequest { from, search, max_moves };
        match auto(&req, &caps, Control::new()) {
            Ok(a) => prop_assert!(a.played <= max_moves),
            Err(e) => prop_assert!(one_line_input(&e), "{req:?}: {e:?}"),
        }
    }
}

/// Regression: the server's `caps.millis` did not bound a SameGame hint (only the width was
/// capped), so a wide search ran until the server's own deadline. The search now stops at the
/// cap and answers with the best whole game found, marked `stopped`.
#[test]
fn a_hint_stops_at_the_time_cap_with_a_whole_game() {
    let setup = Setup { width: 30, height: 20, colors: 5, ..Setup::default() };
    let from = PositionRequest::<SameGame> { setup, seed: 3, ..Default::default() };
    let search = Search { width: Some(20_000), ..Search::default() };
    let caps = Caps { millis: 300, ..Caps::default() };
    let started = std::time::Instant::now();
    let h = hint(&HintRequest { from: from.clone(), search }, &caps, Control::new()).unwrap();
    // Uncapped, this search takes minutes; the cap leaves it well under 10 s even on a
    // loaded machine.
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
    assert!(h.detail.stopped, "{}", h.solver);
    // The plan is a whole game from the position: replayed, it ends with no group left.
    let moves: Vec<String> = h.detail.moves.iter().map(|[x, y]| format!("{x}.{y}")).collect();
    let end = PositionRequest::<SameGame> { moves: moves.join("-"), ..from };
    let p = position(&end, Control::new()).unwrap();
    assert!(p.legal.is_empty(), "{} moves left", p.legal.len());
}

/// Regression (found by schemathesis): a clear bonus near `i64::MAX` overflowed the
/// solver's score sums (a panic, a 500 from the server). Bonuses are now -10^9 to 10^9.
#[test]
fn a_clear_bonus_past_a_billion_is_refused() {
    for bonus in [i64::MAX - 1, 1_000_000_001, i64::MIN, -1_000_000_001] {
        let mut setup = Setup::default();
        setup.rules.clear_bonus = bonus;
        let from = PositionRequest::<SameGame> { setup, ..Default::default() };
        let e = position(&from, Control::new()).err().unwrap();
        assert!(one_line_input(&e), "{bonus}: {e:?}");
        let h = hint(
            &HintRequest { from, search: Search::default() },
            &Caps::default(),
            Control::new(),
        );
        assert!(h.as_ref().is_err_and(one_line_input), "{bonus}: {:?}", h.err());
        let req = SolveRequest { clear_bonus: bonus, ..SolveRequest::default() };
        let e = solve(&req, Control::new()).err().unwrap();
        assert!(one_line_input(&e), "{bonus}: {e:?}");
    }
}

/// A board with no tile has nothing to play and nothing cleared by a move: every search (and
/// the beam's clear goal) answers no move and no points, as the checked replay does (no clear bonus for a board
/// that starts empty). Proptest found the nested search claiming the bonus here.
#[test]
fn every_search_scores_nothing_on_an_empty_board() {
    for text in [".", "...", "..\n..", "....\n....\n...."] {
        for (method, level) in METHODS.iter().flat_map(|&m| [(m, 1), (m, 2)]) {
            // Only the beam takes the clear goal (documented).
            let goals: &[SolveGoal] = match method {
                Method::Beam => &[SolveGoal::Score, SolveGoal::Clear],
                _ => &[SolveGoal::Score],
            };
            for &goal in goals {
                let req = SolveRequest {
                    file: Some(BoardFile::text_file("board", text)),
                    goal,
                    search: method,
                    level,
                    iterations: 2,
                    threads: Some(1),
                    record: true,
                    ..SolveRequest::default()
                };
                let out = solve(&req, Control::new())
                    .unwrap_or_else(|e| panic!("{text:?} {method:?} {goal:?}: {e:?}"));
                let b = &out.boards[0];
                assert_eq!(
                    (b.score, b.moves.len(), b.tiles_left),
                    (0, 0, 0),
                    "{text:?} {method:?}"
                );
                assert!(b.cleared, "{text:?} {method:?}");
            }
        }
    }
}
