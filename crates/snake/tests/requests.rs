//! Property tests over Snake's requests: every player on boards of every shape, start lengths
//! and seeds over their whole range and just outside it. Every call answers `Ok` or a
//! one-line input error, never a panic.

use bits::job::{Control, Error};
use bits::live::{auto, AutoRequest, Caps, PositionRequest};
use proptest::prelude::*;
use snake::api::contract::{Search, Snake};
use snake::api::{play, PlayRequest, Setup};

const PLAYERS: [&str; 10] = [
    "shortest",
    "astar",
    "longest",
    "lookahead",
    "cycle",
    "repair",
    "tree",
    "knit",
    "dash",
    "nope",
];

fn one_line_input(e: &Error) -> bool {
    matches!(e, Error::Input(m) if !m.contains('\n') && !m.is_empty())
}

/// Regression: `cycle` on boards two rows high with a snake of two reversed onto its neck
/// (it panicked on every board 2x2 to 32x2).
#[test]
fn every_player_finishes_on_every_narrow_board() {
    for size in ["2x2", "3x2", "8x2", "32x2", "2x3", "2x9", "1x5", "5x1"] {
        for start_len in 1..=3 {
            for player in &PLAYERS[..9] {
                let setup = Setup { size: size.into(), start_len, stall: None };
                let req = PlayRequest { player: (*player).into(), setup, seed: 1 };
                match play(&req, Control::new()) {
                    Ok(r) => snake::verify(&r.record).map(|_| ()).unwrap(),
                    Err(e) => assert!(one_line_input(&e), "{player} {size} {start_len}: {e:?}"),
                }
            }
        }
    }
}

/// Regression: a record whose `config.size` is past 32x32 was read without `Size`'s check and
/// panicked in `frames` ("at most 1024 cells"); sizes are now checked as they are read.
#[test]
fn a_record_of_a_size_past_32x32_is_refused() {
    for size in [r#"{"w":6,"h":255}"#, r#"{"w":0,"h":3}"#, r#"{"w":1,"h":1}"#, r#"{"w":33,"h":2}"#]
    {
        let text = format!(
            r#"{{"config":{{"size":{size},"start_x":3,"start_y":3,"start_len":1,"stall_limit":1000}},"seed":7,"player":"hand","moves":"","fruits":[0],"score":0,"status":"Running"}}"#
        );
        let e = bits::live::read_record::<Snake>(&text, 0, &[]).map(|_| ()).unwrap_err();
        assert!(one_line_input(&e), "{size}: {e:?}");
        assert!(e.to_string().contains("each side") || e.to_string().contains("2 cells"), "{e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn play_answers_or_refuses_in_one_line(
        w in 0usize..=34, h in 0usize..=34, start_len in 0usize..=40,
        player in 0usize..PLAYERS.len(), seed in any::<u64>(), stall in prop::option::of(0u64..3000),
    ) {
        // Big boards take long to fill: a short stall limit keeps each game quick.
        let stall = stall.or(Some(200));
        let setup = Setup { size: format!("{w}x{h}"), start_len, stall };
        let req = PlayRequest { player: PLAYERS[player].into(), setup, seed };
        match play(&req, Control::new()) {
            Ok(r) => { snake::verify(&r.record).unwrap(); }
            Err(e) => prop_assert!(one_line_input(&e), "{req:?}: {e:?}"),
        }
    }

    #[test]
    fn the_live_contract_answers_or_refuses_in_one_line(
        w in 0usize..=34, h in 0usize..=34, start_len in 0usize..=40,
        player in 0usize..PLAYERS.len(), seed in any::<u64>(), moves in "[URDLx]{0,12}",
        max_moves in 0u64..300,
    ) {
        let setup = Setup { size: format!("{w}x{h}"), start_len, stall: Some(100) };
        let req = AutoRequest::<Snake> {
            from: PositionRequest { setup, seed, moves, ..Default::default() },
            search: Search { player: PLAYERS[player].into(), steps: None },
            max_moves,
        };
        match auto(&req, &Caps::default(), Control::new()) {
            Ok(a) => prop_assert!(a.played <= max_moves),
            Err(e) => prop_assert!(one_line_input(&e), "{req:?}: {e:?}"),
        }
    }
}
