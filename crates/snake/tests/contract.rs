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

fn at(size: &str, seed: u64, moves: &str) -> bits::live::PositionRequest<Snake> {
    bits::live::PositionRequest {
        setup: Setup { size: size.into(), start_len: 1, stall: None },
        seed,
        moves: moves.into(),
        frames: true,
        record: false,
    }
}

#[test]
fn the_body_is_the_start_then_the_heads_of_the_frames() {
    use bits::live::{auto, position, AutoRequest, Caps};
    let req = AutoRequest::<Snake> {
        from: at("6x6", 5, ""),
        search: Search { player: "lookahead".into(), steps: None },
        max_moves: u64::MAX,
    };
    let moves = auto(&req, &Caps::NONE, Control::new()).unwrap().moves;
    let all = position(&at("6x6", 5, &moves), Control::new()).unwrap();
    let mut trail: Vec<usize> = all.now.start.iter().rev().copied().collect();
    trail.extend(all.frames[1..].iter().map(|f| f.head));
    for k in (0..moves.len()).step_by(5) {
        let now = position(&at("6x6", 5, &moves[..k]), Control::new()).unwrap().now;
        let f = all.frames[k];
        let end = all.now.start.len() + k;
        let body: Vec<usize> = trail[end - f.len..end].iter().rev().copied().collect();
        assert_eq!(body, now.body, "move {k}");
        assert_eq!(f.fruit, now.fruit);
    }
}

#[test]
fn a_hint_is_the_move_auto_makes_and_its_route_reaches_the_fruit() {
    use bits::live::{auto, hint, position, AutoRequest, Caps, HintRequest};
    let from = at("10x10", 9, "UUR");
    for player in ["shortest", "astar", "cycle", "knit"] {
        let search = Search { player: player.into(), steps: None };
        let h = hint(
            &HintRequest { from: from.clone(), search: search.clone() },
            &Caps::NONE,
            Control::new(),
        )
        .unwrap();
        let req = AutoRequest { from: from.clone(), search, max_moves: 1 };
        let first = auto(&req, &Caps::NONE, Control::new()).unwrap().moves;
        assert_eq!(format!("UUR{}", h.mv), first, "{player}");
        assert!(h.detail.eats, "{player} plans to the fruit");
        let mut moves = from.moves.clone() + &h.detail.moves;
        moves.pop();
        let before = position(&at("10x10", 9, &moves), Control::new()).unwrap();
        assert_eq!(Some(*h.detail.route.last().unwrap()), before.now.fruit, "{player}");
    }
}

#[test]
fn bad_moves_are_input_errors_that_name_the_move() {
    use bits::live::position;
    let err = |r: bits::live::PositionRequest<Snake>| {
        position(&r, Control::new()).err().unwrap().to_string()
    };
    assert_eq!(err(at("6x6", 1, "UUx")), "moves: \"x\" (move 3) is not one of U, R, D, L");
    assert_eq!(
        err(at("6x6", 1, "UUUUUU")),
        "moves: U (move 5) comes after the game ended (the snake ran into the wall)"
    );
    let mut rev = at("6x6", 1, "L");
    rev.setup.start_len = 2;
    assert_eq!(err(rev.clone()), "moves: L (move 1) the snake may not reverse onto its neck");
    rev.moves = "UL".into();
    assert!(position(&rev, Control::new()).unwrap().status.is_playing());
}

/// The snapshot's `bits`: the occupancy bitset holds exactly the body; BFS and A* both start
/// at the head and reach their own route's cells; both routes end at the fruit, are equally
/// long (both shortest) and never shorter than the Manhattan distance.
#[test]
fn the_bits_are_the_bitset_and_the_searches() {
    use bits::live::{auto, position, AutoRequest, Caps, PositionRequest};
    use snake::api::Setup;
    let setup = Setup { size: "12x10".into(), start_len: 3, stall: None };
    let from = PositionRequest::<Snake> { setup, seed: 4, ..Default::default() };
    let search = Search { player: "shortest".into(), ..Search::default() };
    let a = auto(
        &AutoRequest { from: from.clone(), search, max_moves: 200 },
        &Caps::NONE,
        Control::new(),
    )
    .unwrap();
    let mut shorter = 0;
    for k in (0..=a.moves.len()).step_by(3) {
        let req = PositionRequest::<Snake> { moves: a.moves[..k].into(), ..from.clone() };
        let p = position(&req, Control::new()).unwrap();
        let (now, bits) = (&p.now, p.now.bits.as_ref().unwrap());
        let words: Vec<u64> =
            bits.occupied.iter().map(|w| u64::from_str_radix(&w[2..], 16).unwrap()).collect();
        let mut set: Vec<usize> =
            (0..words.len() * 64).filter(|&c| words[c / 64] >> (c % 64) & 1 == 1).collect();
        let mut body = now.body.clone();
        body.sort_unstable();
        set.sort_unstable();
        assert_eq!(set, body, "move {k}");
        let Some(fruit) = now.fruit else { continue };
        let head = now.body[0];
        assert_eq!(bits.bfs.first(), Some(&head), "move {k}");
        assert!(bits.astar.contains(&head), "move {k}");
        if let Some(&last) = bits.route.last() {
            assert_eq!(last, fruit, "move {k}");
            let (w, hx, hy, fx, fy) = (
                now.width,
                head % now.width,
                head / now.width,
                fruit % now.width,
                fruit / now.width,
            );
            let _ = w;
            let manhattan = hx.abs_diff(fx) + hy.abs_diff(fy);
            assert!(bits.route.len() >= manhattan, "move {k}");
            assert_eq!(bits.astar_route.len(), bits.route.len(), "move {k}: both are shortest");
            assert_eq!(bits.astar_route.last(), Some(&fruit), "move {k}");
            for c in &bits.route[..bits.route.len() - 1] {
                assert!(bits.bfs.contains(c), "move {k}: {c}");
            }
            for c in &bits.astar_route[..bits.route.len() - 1] {
                assert!(bits.astar.contains(c), "move {k}: {c}");
            }
            shorter += usize::from(bits.astar.len() < bits.bfs.len());
        }
    }
    // A* reaches fewer cells than BFS for the same route on most positions.
    assert!(shorter > 0);
}
