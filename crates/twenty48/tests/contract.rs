//! The one live contract's properties (`bits::live::suite`) on 2048.

use bits::job::Control;
use bits::live::suite::{check, Case};
use twenty48::api::contract::{Setup, Twenty48};
use twenty48::api::{play, PlayRequest, SearchSpec};

const SNAKE_RECORD: &str = r#"{"config":{"size":"4x4","start_x":2,"start_y":2,"start_len":1,"stall_limit":1000},"seed":1,"player":"hand","moves":"","fruits":[0],"score":0,"status":"Running"}"#;

#[test]
fn twenty48_keeps_the_contract() {
    let search = |depth| SearchSpec { depth: Some(depth), tt_bits: 12, ..SearchSpec::default() };
    let cases = vec![
        Case::<Twenty48> { setup: Setup::default(), seed: 9, search: search(1), max_moves: 60 },
        Case { setup: Setup::default(), seed: u64::MAX, search: search(2), max_moves: 25 },
        // Played to its end.
        Case { setup: Setup::default(), seed: 3, search: search(1), max_moves: 5000 },
    ];
    let cli = |c: &Case<Twenty48>| {
        let req = PlayRequest {
            games: 1,
            seed: c.seed,
            max_moves: c.max_moves,
            search: c.search.clone(),
            ..Default::default()
        };
        play(&req, Control::new()).unwrap().games[0].record.clone().unwrap()
    };
    check(&cases, cli, ("Snake", SNAKE_RECORD, |t| t.contains("\"fruits\"")));
}

#[test]
fn absurd_budgets_are_held_to_the_caps() {
    use bits::live::{hint, Caps, HintRequest, PositionRequest};
    let caps = Caps { nodes: 200_000, ..Caps::default() };
    for search in [
        SearchSpec { time_per_move: Some(1_000_000_000), ..SearchSpec::default() },
        SearchSpec { depth: Some(16), prob_cutoff: 0.0, ..SearchSpec::default() },
        SearchSpec { budget: Some(u64::MAX), max_depth: 16, tt_bits: 30, ..SearchSpec::default() },
    ] {
        let req = HintRequest::<Twenty48> {
            from: PositionRequest { seed: 4, moves: "LURD".into(), ..Default::default() },
            search: search.clone(),
        };
        let h = hint(&req, &caps, Control::new()).unwrap();
        // The search stops within one poll interval of the cap.
        assert!(h.detail.nodes <= caps.nodes + 5_000, "{search:?}: {} nodes", h.detail.nodes);
        assert!(h.detail.depth <= 10, "{search:?}: depth {}", h.detail.depth);
        assert!(h.values.iter().any(|v| v.mv == h.mv));
    }
    // The same request without caps searches past them: the cap did the holding.
    let req = HintRequest::<Twenty48> {
        from: PositionRequest { seed: 4, moves: "LURD".into(), ..Default::default() },
        search: SearchSpec { depth: Some(6), prob_cutoff: 0.0, ..SearchSpec::default() },
    };
    assert!(hint(&req, &Caps::NONE, Control::new()).unwrap().detail.nodes > 200_000);
}

#[test]
fn bad_moves_name_the_move() {
    use bits::live::{position, PositionRequest};
    let at = |seed, moves: &str| PositionRequest::<Twenty48> {
        seed,
        moves: moves.into(),
        ..Default::default()
    };
    let e = position(&at(1, "LX"), Control::new()).err().unwrap();
    assert_eq!(e.message(), "moves: \"X\" (move 2) is not one of U, D, L, R");
    // A start board on which some move changes nothing (two tiles in a corner row, say).
    let (seed, d) = (1..200)
        .find_map(|seed| {
            let legal = position(&at(seed, ""), Control::new()).unwrap().legal;
            ["U", "D", "L", "R"]
                .into_iter()
                .find(|d| !legal.iter().any(|l| l == d))
                .map(|d| (seed, d))
        })
        .expect("some start board has an illegal move");
    let e = position(&at(seed, d), Control::new()).err().unwrap();
    assert!(
        e.message().starts_with(&format!("moves: {d} (move 1) does not change the board")),
        "{e}"
    );
}

/// The snapshot's `bits` is the engine's board word: each nibble is the log2 of the tile the
/// structured snapshot shows in that cell, at every position of a game; frames carry none.
#[test]
fn the_bits_are_the_board_word() {
    use bits::live::{auto, position, AutoRequest, Caps, PositionRequest};
    let search = SearchSpec { depth: Some(1), tt_bits: 12, ..SearchSpec::default() };
    let from = PositionRequest::<Twenty48> { seed: 11, ..Default::default() };
    let a = auto(
        &AutoRequest { from: from.clone(), search, max_moves: 300 },
        &Caps::NONE,
        Control::new(),
    )
    .unwrap();
    for k in (0..=a.moves.len()).step_by(7) {
        let req = PositionRequest::<Twenty48> {
            moves: a.moves[..k].into(),
            frames: true,
            ..from.clone()
        };
        let p = position(&req, Control::new()).unwrap();
        let word = u64::from_str_radix(p.now.bits.as_deref().unwrap().trim_start_matches("0x"), 16)
            .unwrap();
        for (i, &tile) in p.now.tiles.iter().enumerate() {
            let rank = (word >> (4 * i)) & 15;
            assert_eq!(
                if rank == 0 { 0 } else { 1u64 << rank },
                u64::from(tile),
                "move {k}, cell {i}"
            );
        }
        assert!(p.frames.iter().all(|f| f.bits.is_none()));
    }
}

#[test]
fn the_live_game_refuses_the_corner_evaluation() {
    // The live contract's hint and auto play the row heuristic: a request for another leaf is
    // refused by name rather than silently answered with the heuristic.
    use bits::live::{hint, Caps, HintRequest, PositionRequest};
    let req = HintRequest::<Twenty48> {
        from: PositionRequest { seed: 4, moves: "LURD".into(), ..Default::default() },
        search: SearchSpec {
            depth: Some(2),
            eval: twenty48::api::LeafEval::Corner,
            ..SearchSpec::default()
        },
    };
    let e = hint(&req, &Caps::default(), Control::new()).unwrap_err();
    assert_eq!(e.message(), "search.eval: the live game plays the row heuristic");
}
