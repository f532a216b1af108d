//! Property tests over 2048's requests: searches, boards, records and moves drawn over their
//! whole documented ranges and just outside them, each with a tiny budget. Every call answers
//! `Ok` or a one-line input error, never a panic.

use bits::job::{Control, Error};
use bits::live::{auto, hint, position, AutoRequest, Caps, HintRequest, PositionRequest};
use proptest::prelude::*;
use twenty48::api::contract::Twenty48;
use twenty48::api::{
    best, play, replay, BestRequest, BoardsSpec, PlayRequest, ReplayRequest, SearchSpec,
};

fn one_line_input(e: &Error) -> bool {
    matches!(e, Error::Input(m) if !m.contains('\n') && !m.is_empty())
}

/// A search: mostly cheap and valid, sometimes past a range.
fn search() -> impl Strategy<Value = SearchSpec> {
    (
        // Fixed depths past 2 would be slow: out of range only (0, or 17 and up).
        prop_oneof![4 => (1u8..=2).prop_map(Some), 1 => Just(None), 1 => Just(Some(0)), 1 => (17u8..=40).prop_map(Some)],
        (0u64..3_000).prop_map(Some),
        prop_oneof![8 => Just(1e-2f32), 1 => -1.0f32..2.0],
        // Tables past 2^16 entries cost memory and time: out of range only (below 4, above 30).
        prop_oneof![8 => 4u8..=12, 1 => 0u8..=3, 1 => 31u8..=40],
        prop_oneof![8 => Just(1.0f32), 1 => -1.0f32..2000.0],
        prop_oneof![8 => Just(1.0f32), 1 => -1.0f32..2000.0],
        prop::option::of(0u8..=20),
        0u8..=20,
        prop::option::of(0u8..=4),
    )
        .prop_map(|(depth, budget, prob_cutoff, tt_bits, extend, boost, min_depth, max_depth, depth_offset)| {
            SearchSpec {
                depth,
                budget,
                prob_cutoff,
                tt_bits,
                extend,
                boost,
                min_depth,
                max_depth: max_depth.min(3),
                depth_offset,
                ..SearchSpec::default()
            }
        })
}

/// A board in the text form: mostly well formed, sometimes not.
fn board() -> impl Strategy<Value = String> {
    let cell = prop_oneof![6 => Just(".".to_string()), 4 => (1u32..=15).prop_map(|r| (1u32 << r).to_string()), 1 => "[0-9x]{1,3}"];
    let row = prop::collection::vec(cell, 3..=5).prop_map(|c| c.join(" "));
    prop::collection::vec(row, 3..=5).prop_map(|r| r.join("/"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    #[test]
    fn play_answers_or_refuses_in_one_line(
        games in 0u64..=2, seed in any::<u64>(), max_moves in 0u64..30, search in search(),
    ) {
        let req = PlayRequest { games, seed, max_moves, search, ..PlayRequest::default() };
        match play(&req, Control::new()) {
            Ok(out) => {
                prop_assert_eq!(out.games.len() as u64, games);
                let records: Vec<_> = out.games.iter().map(|g| g.record.clone().unwrap()).collect();
                let r = ReplayRequest { file: bits::job::InputFile::json("played", &records), boards: None };
                replay(&r, Control::new()).unwrap();
            }
            Err(e) => prop_assert!(one_line_input(&e), "{req:?}: {e:?}"),
        }
    }

    #[test]
    fn best_answers_or_refuses_in_one_line(board in board(), search in search()) {
        let req = BestRequest { board, search };
        if let Err(e) = best(&req, Control::new()) {
            prop_assert!(one_line_input(&e), "{req:?}: {e:?}");
        }
    }

    #[test]
    fn replay_refuses_a_damaged_record_in_one_line(
        seed in any::<u64>(), moves in 1u64..40, at in any::<prop::sample::Index>(),
        field in 0usize..5, by in 1u32..5, from in -1.0f64..2.0, step in 0u64..4,
    ) {
        let req = PlayRequest {
            games: 1, seed, max_moves: moves,
            search: SearchSpec { depth: Some(1), tt_bits: 8, ..SearchSpec::default() },
            ..PlayRequest::default()
        };
        let mut rec = play(&req, Control::new()).unwrap().games[0].record.clone().unwrap();
        match field {
            0 => { let i = at.index(rec.spawns.len()); rec.spawns[i][0] += by; }
            1 => { let i = at.index(rec.spawns.len()); rec.spawns[i][1] ^= 6; }
            2 => rec.score += u64::from(by),
            3 => { let i = at.index(rec.moves.len()); rec.moves.replace_range(i..=i, "X"); }
            _ => rec.final_board = "2 2 2 2/. . . ./. . . ./. . . .".into(),
        }
        let boards = Some(BoardsSpec { from, step });
        match replay(&ReplayRequest { file: bits::job::InputFile::json("r", &vec![rec]), boards }, Control::new()) {
            Ok(_) => prop_assert!(false, "a damaged record replayed"),
            Err(e) => prop_assert!(matches!(&e, Error::Input(m) | Error::Failed(m) if !m.contains('\n')), "{e:?}"),
        }
    }

    #[test]
    fn the_live_contract_answers_or_refuses_in_one_line(
        seed in any::<u64>(), spawn in prop::option::of(any::<u64>()),
        moves in prop_oneof![3 => "[UDLR]{0,30}", 1 => "[UDLRudlrx ]{0,12}"],
        search in search(), max_moves in 0u64..10,
    ) {
        let setup = twenty48::api::contract::Setup { spawn_seed: spawn };
        let from = PositionRequest::<Twenty48> { setup, seed, moves, frames: true, record: true };
        match position(&from, Control::new()) {
            Ok(p) => prop_assert_eq!(p.frames.len(), p.played + 1),
            Err(e) => prop_assert!(one_line_input(&e), "{from:?}: {e:?}"),
        }
        let caps = Caps { nodes: 5_000, ..Caps::default() };
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

/// Regression (found by schemathesis): heuristic weights far out of scale (`merges_weight`
/// -1.5e57, `sum_weight` 4e21) overflowed the `f32` evaluation, and a hint answered every
/// move's value as `null` (NaN). Weights are now at most 10^7 either way and exponents 0 to
/// 8; at the edges of those ranges every value is finite.
#[test]
fn heuristic_weights_out_of_scale_are_refused_and_the_edges_stay_finite() {
    use twenty48::search::heuristic::Params;
    let from = PositionRequest::<Twenty48> { seed: 3, moves: "LURD".into(), ..Default::default() };
    let ask = |params: Params| {
        let search = SearchSpec {
            depth: Some(2),
            tt_bits: 12,
            params: Some(params),
            ..SearchSpec::default()
        };
        hint(&HintRequest { from: from.clone(), search }, &Caps::default(), Control::new())
    };
    let n = Params::NNEONNEO;
    for bad in [
        Params { merges_weight: -1.5e38, ..n },
        Params { sum_weight: f32::INFINITY, ..n },
        Params { base: f32::NAN, ..n },
        Params { mono_power: -2.0, ..n },
        Params { sum_power: 9.0, ..n },
        Params { empty_weight: 1.1e7, ..n },
    ] {
        let e = ask(bad).err().unwrap();
        assert!(one_line_input(&e) && e.to_string().contains("search.params."), "{bad:?}: {e}");
    }
    for edge in [1e7f32, -1e7] {
        let p = Params {
            base: edge,
            mono_power: 8.0,
            mono_weight: edge,
            sum_power: 8.0,
            sum_weight: edge,
            merges_weight: edge,
            empty_weight: edge,
        };
        let h = ask(p).unwrap();
        assert!(h.values.iter().all(|v| v.value.is_finite()), "{edge}: {:?}", h.values);
    }
}
