//! The one live contract's properties (`bits::live::suite`) on Tetris perfect clears, and the
//! Tetris-specific ones: `auto` plays exactly `tetris pc`'s solution, the legal moves are the
//! reference engine's placements, records are checked step by step.

use std::collections::BTreeSet;

use bits::job::{Control, Error};
use bits::live::suite::{check, Case};
use bits::live::{
    auto, frames, hint, position, record, AutoRequest, Caps, Game, HintRequest, Phase,
    PositionRequest, Stop,
};
use tetris::api::contract::{Move, Search, Setup, Tetris};
use tetris::api::{pc, replay, PcRecord, PcSolveRequest, ReplayRequest};
use tetris::bag::opener_queue;
use tetris::piece::queue_string;
use tetris::{reference, Board, Facing, KickTable, Piece};

const TWENTY48_RECORD: &str = r#"{"game":"2048","seed":5,"moves":"","spawns":[[0,2],[5,2]],"overflow_move":null,"score":0,"final_board":"2 . . ./. 2 . ./. . . ./. . . .","status":"playing"}"#;

/// The field of `bitarcade tetris pc`'s help example (a 4-line PC with LJSZIOT).
const FIELD: &str = "X.........\nX.........\nXXX...X...\nXXX..XXX..\n";

/// The request `bitarcade tetris pc` gets for a setup: a drawn queue is `bench --seed`'s
/// first opener queue, which the CLI is given as `--queue`.
fn pc_request(setup: &Setup, seed: u64, search: &Search) -> PcSolveRequest {
    let queue = if setup.queue.is_empty() {
        let lines = setup.height.or(setup.min_height).unwrap_or(4);
        let n = setup.pieces.map_or(if lines <= 4 { 11 } else { 16 }, |n| n as usize);
        queue_string(&opener_queue(seed, 0, n))
    } else {
        setup.queue.clone()
    };
    PcSolveRequest {
        queue,
        hold: setup.hold.clone(),
        use_hold: setup.use_hold,
        field: setup.field.clone().map(|t| bits::job::InputFile::text_file("field", t)),
        fumen: setup.fumen.clone(),
        kicks: setup.kicks.clone(),
        kick_table: setup.kick_table.clone(),
        height: setup.height,
        min_height: setup.min_height,
        save_hold: setup.save_hold.clone(),
        node_limit: search.node_limit,
    }
}

fn cli_record(setup: &Setup, seed: u64, search: &Search) -> PcRecord {
    let out = pc(&pc_request(setup, seed, search), Control::new()).unwrap();
    out.record.expect("tetris pc finds a perfect clear")
}

fn auto_game(setup: &Setup, seed: u64) -> bits::live::AutoResponse<Tetris> {
    let req = AutoRequest::<Tetris> {
        from: PositionRequest { setup: setup.clone(), seed, ..Default::default() },
        ..Default::default()
    };
    auto(&req, &Caps::NONE, Control::new()).unwrap()
}

#[test]
fn tetris_keeps_the_contract() {
    let cases = vec![
        // A seeded opener queue (11 pieces of a 7-bag), hold allowed.
        Case::<Tetris> {
            setup: Setup::default(),
            seed: u64::MAX,
            search: Search::default(),
            max_moves: u64::MAX,
        },
        // A seeded opener without hold.
        Case {
            setup: Setup { use_hold: false, ..Setup::default() },
            seed: 5,
            search: Search { node_limit: Some(1_000_000), millis: None },
            max_moves: u64::MAX,
        },
        // A given field and queue, a pinned height (the CLI's help example).
        Case {
            setup: Setup {
                field: Some(FIELD.into()),
                queue: "LJSZIOT".into(),
                height: Some(4),
                ..Setup::default()
            },
            seed: 3,
            search: Search::default(),
            max_moves: u64::MAX,
        },
        // A piece in hold at the start, classic SRS.
        Case {
            setup: Setup {
                queue: "TLJSZIOTS".into(),
                hold: Some("I".into()),
                kicks: "srs".into(),
                ..Setup::default()
            },
            seed: 0,
            search: Search::default(),
            max_moves: u64::MAX,
        },
    ];
    let cli = |c: &Case<Tetris>| cli_record(&c.setup, c.seed, &c.search);
    check(&cases, cli, ("2048", TWENTY48_RECORD, |t| t.contains("\"spawns\"")));
}

#[test]
fn auto_plays_the_record_of_tetris_pc() {
    let mut setups: Vec<(Setup, u64)> = (0..20)
        .map(|i| {
            let queue = queue_string(&opener_queue(1, i, 11));
            (Setup { queue, ..Setup::default() }, 0)
        })
        .collect();
    setups.push((Setup::default(), 1));
    setups.push((Setup { use_hold: false, ..Setup::default() }, 9));
    setups.push((Setup { pieces: Some(16), min_height: Some(6), ..Setup::default() }, 2));
    setups.push((
        Setup { field: Some(FIELD.into()), queue: "LJSZIOT".into(), ..Setup::default() },
        0,
    ));
    setups
        .push((Setup { queue: "TLJSZIOTS".into(), hold: Some("I".into()), ..Setup::default() }, 0));
    let mut saved = 0;
    for p in Piece::ALL {
        let setup = Setup { save_hold: Some(p.to_string()), ..Setup::default() };
        let out = pc(&pc_request(&setup, 4, &Search::default()), Control::new()).unwrap();
        if out.report.found {
            saved += 1;
            setups.push((setup, 4));
        }
    }
    assert!(saved > 0, "no save-hold case");
    // The hint from the start is `tetris pc --json`'s solution, and the whole of it.
    let (setup, seed) = &setups[0];
    let from =
        PositionRequest::<Tetris> { setup: setup.clone(), seed: *seed, ..Default::default() };
    let h = hint(&HintRequest { from, search: Search::default() }, &Caps::NONE, Control::new())
        .unwrap();
    let report = pc(&pc_request(setup, *seed, &Search::default()), Control::new()).unwrap().report;
    assert_eq!(h.detail.report.steps, report.steps);
    assert_eq!(h.detail.report.fumen, report.fumen);
    assert_eq!(h.detail.moves, auto_game(setup, *seed).moves);
    assert_eq!(h.detail.total_height, 4);
    for (setup, seed) in &setups {
        let a = auto_game(setup, *seed);
        assert_eq!(a.stop, Stop::Ended, "{setup:?}");
        assert_eq!(a.status.phase, Phase::Won, "{setup:?}");
        let want = cli_record(setup, *seed, &Search::default());
        assert_eq!(a.record, want, "{setup:?}");
        assert_eq!(a.score, i64::from(want.height));
        // `bitarcade tetris replay` accepts it.
        let ok = replay(
            &ReplayRequest { file: bits::job::InputFile::json("live", &a.record) },
            Control::new(),
        )
        .unwrap();
        assert_eq!(ok.steps, want.steps.len());
    }
}

/// The pieces in hand from a snapshot: the current one, then the held one or (hold empty)
/// the next, with whether hold is pressed.
fn in_hand(snap: &tetris::api::contract::Snapshot, use_hold: bool) -> Vec<(Piece, bool)> {
    let piece = |s: &str| Piece::from_letter(s.chars().next().unwrap()).unwrap();
    let current = snap.current.as_deref().map(piece);
    let mut out: Vec<(Piece, bool)> = current.map(|c| (c, false)).into_iter().collect();
    if use_hold {
        let other = match &snap.hold {
            Some(h) => Some(piece(h)),
            None => snap.queue.chars().next().and_then(Piece::from_letter),
        };
        out.extend(other.filter(|&o| Some(o) != current).map(|o| (o, true)));
    }
    out
}

#[test]
fn legal_moves_are_the_reference_placements() {
    let mut rng = bits::Rng::new(17);
    let mut compared = 0;
    for trial in 0..400u64 {
        let kicks = ["srs+", "srs", "none", "srs-tetrio"][trial as usize % 4];
        let table = KickTable::named(kicks).unwrap();
        let h = rng.below(5);
        let mut text = String::new();
        for _ in 0..h {
            text.extend((0..10).map(|_| if rng.chance(2, 5) { '#' } else { '.' }));
            text.push('\n');
        }
        let use_hold = rng.chance(3, 4);
        let hold = rng.chance(1, 2).then(|| Piece::ALL[rng.below(7) as usize].to_string());
        let setup = Setup {
            field: (h > 0).then_some(text),
            queue: queue_string(&opener_queue(trial, 0, 12)),
            hold,
            use_hold,
            kicks: kicks.into(),
            ..Setup::default()
        };
        let Ok(mut s) = Tetris::start(&setup, 0) else { continue };
        for _ in 0..5 {
            let legal = Tetris::legal(&s);
            if !Tetris::status(&s).is_playing() {
                assert!(legal.is_empty());
                break;
            }
            let snap = Tetris::snapshot(&s);
            let board: Board = snap.field.parse().unwrap();
            let mut want = BTreeSet::new();
            for (p, hold) in in_hand(&snap, use_hold) {
                for cells in reference::placements(&board, snap.rows, p, &table) {
                    want.insert((hold, p, cells));
                }
            }
            let got: BTreeSet<_> = legal
                .iter()
                .map(|m| (m.hold, m.piece, m.cells().map(|(x, y)| (x as i8, y as i8))))
                .collect();
            assert_eq!(got.len(), legal.len(), "duplicate moves on\n{board}");
            assert_eq!(got, want, "trial {trial} ({kicks}) on\n{board}");
            compared += 1;
            let m = legal[rng.below(legal.len() as u64) as usize];
            Tetris::play(&mut s, &m).unwrap();
        }
    }
    assert!(compared > 300, "only {compared} positions compared");
}

#[test]
fn a_tampered_record_is_refused_naming_the_step() {
    let good = auto_game(&Setup::default(), 1).record;
    assert!(Tetris::unrecord(&good).is_ok());
    let tamper = |f: &dyn Fn(&mut PcRecord)| {
        let mut r = good.clone();
        f(&mut r);
        match Tetris::unrecord(&r) {
            Ok(_) => panic!("a tampered record was accepted"),
            Err(e) => e,
        }
    };
    let errors = [
        // One cell moved: not the piece's shape.
        tamper(&|r| r.steps[2].cells[0][1] += 1),
        // The whole piece one row up: not resting.
        tamper(&|r| r.steps[2].cells.iter_mut().for_each(|c| c[1] += 1)),
        // A hold flag the queue does not need.
        tamper(&|r| r.steps[2].hold = !r.steps[2].hold),
        // Keys that end elsewhere.
        tamper(&|r| {
            let k = r.steps[2].keys.as_deref();
            r.steps[2].keys = Some(if k == Some("HD") { "L HD" } else { "HD" }.into());
        }),
        // Another piece.
        tamper(&|r| r.steps[2].piece = if r.steps[2].piece == "I" { "O" } else { "I" }.into()),
    ];
    for e in &errors {
        assert!(matches!(e, Error::Input(_)), "{e:?}");
        assert!(e.message().starts_with("record: step 3: "), "{}", e.message());
        assert!(!e.message().contains('\n'), "{}", e.message());
    }
    // The record of a game in progress replays here, but is no solution for `tetris replay`.
    let a = auto_game(&Setup::default(), 1);
    let first = a.moves.split('-').next().unwrap().to_string();
    let req = PositionRequest::<Tetris> { seed: 1, moves: first, ..Default::default() };
    let mid = record(&req, Control::new()).unwrap();
    assert_eq!(mid.steps.len(), 1);
    assert!(frames::<Tetris>(&mid, 1, Control::new()).is_ok());
    let e =
        replay(&ReplayRequest { file: bits::job::InputFile::json("mid", &mid) }, Control::new());
    assert!(e.unwrap_err().message().contains("not empty at the end"));
}

#[test]
fn moves_read_and_write() {
    let m: Move = "TN30".parse().unwrap();
    assert_eq!(m, Move { hold: false, piece: Piece::T, facing: Facing::N, x: 3, y: 0 });
    assert_eq!(m.to_string(), "TN30");
    assert_eq!("hIE90".parse::<Move>().unwrap().to_string(), "hIE90");
    // Facings with the same cells are one placement.
    assert_eq!("SS10".parse::<Move>().unwrap(), "SN10".parse::<Move>().unwrap());
    assert_eq!("hIW90".parse::<Move>().unwrap().to_string(), "hIE90");
    assert_eq!("o20".parse::<Move>().unwrap_err(), "o20".parse::<Move>().unwrap_err());
    for bad in ["T30", "TX30", "TNA0", "xTN30", "TN300"] {
        let e = bad.parse::<Move>().unwrap_err();
        assert!(e.starts_with("is not a placement"), "{bad}: {e}");
    }
    // The hold flag must be the one the queue needs; the error names the right form.
    let s = Tetris::start(&Setup { queue: "TIOLJSZTIOL".into(), ..Setup::default() }, 0)
        .unwrap_or_else(|e| panic!("{e}"));
    let legal = Tetris::legal(&s);
    assert!(legal.iter().any(|m| m.piece == Piece::T && !m.hold));
    assert!(legal.iter().any(|m| m.piece == Piece::I && m.hold));
    assert!(legal.iter().all(|m| (m.piece == Piece::I) == m.hold));
    let held = *legal.iter().find(|m| m.hold).unwrap();
    let e = Tetris::play(&mut s.clone(), &Move { hold: false, ..held }).unwrap_err();
    assert_eq!(e, format!("takes I out of hold here: write {held}"));
    let t = legal[0];
    let e = Tetris::play(&mut s.clone(), &Move { hold: true, ..t }).unwrap_err();
    assert_eq!(e, format!("places the current piece T: write {t}"));
    let e = Tetris::play(&mut s.clone(), &"ON00".parse().unwrap()).unwrap_err();
    assert!(e.contains("O is not available (current T, hold -, next I)"), "{e}");
    let e = Tetris::play(&mut s.clone(), &"TN05".parse().unwrap()).unwrap_err();
    assert_eq!(e, "lies above the 4-row PC zone");
    let e = Tetris::play(&mut s.clone(), &"TN31".parse().unwrap()).unwrap_err();
    assert!(e.contains("not a resting placement reachable with the srs+ kicks"), "{e}");
}

fn start_error(setup: Setup) -> String {
    match Tetris::start(&setup, 1) {
        Ok(_) => panic!("{setup:?} was accepted"),
        Err(e) => {
            assert!(matches!(e, Error::Input(_)));
            e.message().to_string()
        }
    }
}

#[test]
fn setup_and_search_errors_name_their_field() {
    let d = Setup::default;
    let cases = [
        (Setup { queue: "IOX".into(), ..d() }, "setup.queue: unknown piece letter 'X'"),
        (Setup { queue: "IO".into(), ..d() }, "setup.queue: the queue is too short"),
        (Setup { pieces: Some(0), ..d() }, "setup.pieces: 0, must be 1 to 1000"),
        (Setup { hold: Some("IO".into()), ..d() }, "setup.hold: one piece letter"),
        (Setup { save_hold: Some("Q".into()), ..d() }, "setup.save_hold: one piece letter"),
        (Setup { field: Some("###\n".into()), ..d() }, "setup.field: line 1: a row must be"),
        (Setup { field: Some("#.........\n".repeat(7)), ..d() }, "setup.field: the field is 7"),
        (Setup { fumen: Some("v115@nonsense".into()), ..d() }, "setup.fumen: "),
        (Setup { kicks: "nosuch".into(), ..d() }, "setup.kicks: \"nosuch\" is not a built-in"),
        (
            Setup { kicks: "mine".into(), kick_table: Some("garbage".into()), ..d() },
            "setup.kick_table: line 1: ",
        ),
        (Setup { height: Some(7), ..d() }, "setup.height: height 7 is outside 1..=6"),
        (Setup { height: Some(3), ..d() }, "setup.height: no PC of height 3"),
        (Setup { min_height: Some(9), ..d() }, "setup.min_height: height 9 is outside"),
    ];
    for (setup, want) in cases {
        let got = start_error(setup);
        assert!(got.starts_with(want), "{got:?} should start with {want:?}");
        assert!(!got.contains("--") && !got.contains('\n'), "{got}");
    }
    for (search, want) in [
        (Search { node_limit: Some(0), millis: None }, "search.node_limit: must be at least 1"),
        (Search { node_limit: None, millis: Some(0) }, "search.millis: must be at least 1"),
    ] {
        let req = HintRequest::<Tetris> { from: PositionRequest::default(), search };
        assert_eq!(hint(&req, &Caps::NONE, Control::new()).unwrap_err().message(), want);
    }
    // A bad move names itself.
    let req = PositionRequest::<Tetris> { moves: "TN30-QQ".into(), ..Default::default() };
    let e = position(&req, Control::new()).err().unwrap();
    assert!(e.message().starts_with("moves: \"QQ\" (move 2) is not a placement"), "{e}");
}

/// 6-line PCs of S and Z pieces only: there are none, and the search is long.
fn hopeless() -> PositionRequest<Tetris> {
    let setup = Setup { queue: "SZ".repeat(11), min_height: Some(6), ..Setup::default() };
    PositionRequest { setup, ..Default::default() }
}

#[test]
fn searches_are_held_to_the_caps() {
    let caps = Caps { nodes: 3_000, ..Caps::default() };
    let req = HintRequest::<Tetris> { from: hopeless(), search: Search::default() };
    let e = hint(&req, &caps, Control::new()).unwrap_err();
    assert_eq!(
        e.message(),
        "no perfect clear found from here within the search limits (3000 nodes)"
    );
    // A deadline stops the search too.
    let search = Search { node_limit: None, millis: Some(100) };
    let t = std::time::Instant::now();
    let e = hint(&HintRequest { search, ..req.clone() }, &Caps::NONE, Control::new());
    assert!(e.unwrap_err().message().contains("within the search limits"));
    assert!(t.elapsed() < std::time::Duration::from_secs(5), "{:?}", t.elapsed());
    // An auto that finds nothing stops with no move.
    let a = AutoRequest::<Tetris> { from: hopeless(), ..Default::default() };
    let out = auto(&a, &caps, Control::new()).unwrap();
    assert_eq!((out.stop, out.played), (Stop::NoMove, 0));
    assert!(out.status.is_playing());
}

#[test]
fn a_game_without_a_perfect_clear_ends_over() {
    // Five I pieces cannot clear two rows (nor four).
    let setup = Setup { queue: "IIIII".into(), ..Setup::default() };
    let mut s = Tetris::start(&setup, 0).unwrap_or_else(|e| panic!("{e}"));
    let mut played = 0;
    while Tetris::status(&s).is_playing() {
        let m = Tetris::legal(&s)[0];
        Tetris::play(&mut s, &m).unwrap();
        played += 1;
    }
    let st = Tetris::status(&s);
    assert_eq!(st.phase, Phase::Over, "{st:?}");
    assert!(["no_pieces", "no_height", "no_placement"].contains(&st.code.as_str()), "{st:?}");
    assert!(played <= 5 && Tetris::legal(&s).is_empty());
    let e = Tetris::play(&mut s, &"IN00".parse().unwrap()).unwrap_err();
    assert!(e.starts_with("comes after the game ended"), "{e}");
    assert!(Tetris::unrecord(&Tetris::record(&s, "hand")).is_ok());
}

/// The snapshot's `bits`: the rows' words spell the zone's cells (bottom first) and pack into
/// the solver's `u64`; frames carry none.
#[test]
fn the_bits_are_the_row_words() {
    let field = "X.........\nX.........\nXXX...X...\nXXX..XXX..\n";
    let setup = Setup { field: Some(field.into()), queue: "LJSZIOT".into(), ..Setup::default() };
    let from = PositionRequest::<Tetris> { setup, ..Default::default() };
    let a = auto(
        &AutoRequest { from: from.clone(), search: Search::default(), max_moves: 20 },
        &Caps::NONE,
        Control::new(),
    )
    .unwrap();
    let moves: Vec<&str> = a.moves.split('-').filter(|m| !m.is_empty()).collect();
    assert!(!moves.is_empty());
    for k in 0..=moves.len() {
        let req =
            PositionRequest::<Tetris> { moves: moves[..k].join("-"), frames: true, ..from.clone() };
        let p = position(&req, Control::new()).unwrap();
        let bits = p.now.bits.as_ref().unwrap();
        let word = |s: &str| u64::from_str_radix(s.trim_start_matches("0x"), 16).unwrap();
        assert_eq!(bits.rows.len(), p.now.rows as usize, "move {k}");
        let mut zone = 0;
        for (y, r) in bits.rows.iter().enumerate() {
            let r = word(r);
            // `cells` is the zone top first.
            let cells = &p.now.cells[p.now.cells.len() - 1 - y];
            for (x, &cell) in cells.iter().enumerate() {
                assert_eq!(r >> x & 1, u64::from(cell), "move {k}: ({x}, {y})");
            }
            zone |= r << (10 * y);
        }
        assert_eq!(word(&bits.zone), zone, "move {k}");
        assert!(p.frames.iter().all(|f| f.bits.is_none()));
    }
}
