//! The one live contract's properties (`bits::live::suite`) on Snake.

use bits::job::Control;
use bits::live::suite::{check, Case};
use snake::api::contract::{Search, Snake};
use snake::api::{play, PlayRequest, Setup};

const TWENTY48_RECORD: &str = r#"{"game":"2048","seed":5,"moves":"","spawns":[[0,2],[5,2]],"overflow_move":null,"score":0,"final_board":"2 . . ./. 2 . ./. . . ./. . . .","status":"playing"}"#;

#[test]
fn snake_keeps_the_contract() {
    let setup = |size: &str, start_len| Setup { size: size.into(), start_len, stall: None };
    let search = |p: &str| Search { player: p.into(), steps: None };
    let cases = vec![
        Case::<Snake> {
            setup: setup("6x6", 1),
            seed: 7,
            search: search("cycle"),
            max_moves: u64::MAX,
        },
        Case {
            setup: setup("10x8", 3),
            seed: u64::MAX,
            search: search("shortest"),
            max_moves: u64::MAX,
        },
        Case { setup: setup("8x8", 1), seed: 2, search: search("astar"), max_moves: u64::MAX },
    ];
    let cli = |c: &Case<Snake>| {
        let req =
            PlayRequest { player: c.search.player.clone(), setup: c.setup.clone(), seed: c.seed };
        play(&req, Control::new()).unwrap().record
    };
    check(&cases, cli, ("2048", TWENTY48_RECORD, |t| t.contains("\"spawns\"")));
}
