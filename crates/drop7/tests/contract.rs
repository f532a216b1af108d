//! The one live contract's properties (`bits::live::suite`) on Drop7, and what the suite
//! cannot check for it: records equal to `drop7 play`'s, Sequence games, records that are
//! not their seed's, and the caps.

use bits::job::{Control, Error};
use bits::live::suite::{check, Case};
use bits::live::{
    auto, frames, hint, position, AutoRequest, Caps, Game, HintRequest, PositionRequest, Stop,
};
use drop7::api::contract::{game_seed, Drop7, Reveals, Search, Setup, TableKind};
use drop7::api::{play, EvalSpec, InputFile, PlayRequest, SearchOptions};
use drop7::Mode;

const TWENTY48_RECORD: &str = r#"{"game":"2048","seed":5,"moves":"","spawns":[[0,2],[5,2]],"overflow_move":null,"score":0,"final_board":"2 . . ./. 2 . ./. . . ./. . . .","status":"playing"}"#;

/// `bitarcade drop7 play --games 1 --seed S --max-moves M` with the case's rule and search
/// flags (and `--stream` for a Sequence game), as the CLI builds its request.
fn cli_request(c: &Case<Drop7>) -> PlayRequest {
    let (s, setup) = (&c.search, &c.setup);
    let list = |v: Vec<String>| v.join(",");
    let search = SearchOptions {
        mode: match setup.mode {
            Mode::Normal => "normal",
            Mode::Hardcore => "hardcore",
            Mode::Sequence => "sequence",
        }
        .into(),
        depth: s.depth,
        eval: EvalSpec::new(s.eval.as_str()),
        table: match s.table {
            TableKind::None => "none",
            TableKind::Direct => "direct",
            TableKind::TwoWay => "2way",
            TableKind::FourWay => "4way",
        }
        .into(),
        table_bits: s.table_bits,
        strata: s.strata,
        strata_schedule: s
            .strata_schedule
            .as_ref()
            .map(|v| list(v.iter().map(ToString::to_string).collect())),
        gray_share: format!("{}/{}", setup.gray_share.0, setup.gray_share.1),
        fatal_rise_bonus: setup.fatal_rise_bonus,
        no_rise_chain: setup.no_rise_chain,
        death: s.death,
        reveal_samples: list(s.reveal_samples.iter().map(ToString::to_string).collect()),
        reveals: match s.reveals {
            Reveals::Sampled => "sampled",
            Reveals::Paired => "paired",
            Reveals::Stratified => "stratified",
        }
        .into(),
        budget: s.budget,
        min_depth: s.min_depth,
        max_depth: s.max_depth,
    };
    PlayRequest {
        search,
        games: 1,
        seed: c.seed,
        max_moves: u32::try_from(c.max_moves).unwrap_or(u32::MAX),
        stream: setup.stream.as_ref().map(|t| InputFile::new("stream.txt", t.as_bytes())),
        ..PlayRequest::default()
    }
}

fn cli(c: &Case<Drop7>) -> drop7::trace::GameRecord {
    let mut out = play(&cli_request(c), Control::new()).unwrap();
    assert_eq!(out.records.len(), 1);
    out.records.remove(0)
}

fn auto_of(c: &Case<Drop7>) -> bits::live::AutoResponse<Drop7> {
    let req = AutoRequest::<Drop7> {
        from: PositionRequest { setup: c.setup.clone(), seed: c.seed, ..Default::default() },
        search: c.search.clone(),
        max_moves: c.max_moves,
    };
    auto(&req, &Caps::NONE, Control::new()).unwrap()
}

fn cases() -> Vec<Case<Drop7>> {
    let normal = Setup { mode: Mode::Normal, ..Setup::default() };
    vec![
        // Hardcore, the CLI's defaults but depth 2, played to its end.
        Case::<Drop7> {
            setup: Setup::default(),
            seed: 7,
            search: Search { depth: 2, ..Search::default() },
            max_moves: 100_000,
        },
        // Normal (its opening and grays), seed u64::MAX, depth 1 with a small 2-way table,
        // played to its end.
        Case {
            setup: normal.clone(),
            seed: u64::MAX,
            search: Search {
                depth: 1,
                table: TableKind::TwoWay,
                table_bits: 10,
                ..Search::default()
            },
            max_moves: 100_000,
        },
        // Hardcore under a work budget (the table kept across moves changes the depths),
        // paired reveals.
        Case {
            setup: Setup::default(),
            seed: 3,
            search: Search {
                budget: Some(20_000),
                min_depth: Some(1),
                max_depth: Some(3),
                reveals: Reveals::Paired,
                table_bits: 12,
                ..Search::default()
            },
            max_moves: 40,
        },
        // Normal with every rule switch, a strata schedule and two reveal samples.
        Case {
            setup: Setup {
                gray_share: (5, 16),
                fatal_rise_bonus: true,
                no_rise_chain: true,
                ..normal
            },
            seed: 11,
            search: Search {
                depth: 2,
                strata_schedule: Some(vec![0, 3]),
                reveal_samples: vec![2],
                eval: "crowding".into(),
                ..Search::default()
            },
            max_moves: 60,
        },
    ]
}

#[test]
fn drop7_keeps_the_contract() {
    check(&cases(), cli, ("2048", TWENTY48_RECORD, |t| t.contains("\"spawns\"")));
}

#[test]
fn auto_writes_the_record_drop7_play_writes() {
    for c in cases() {
        let a = auto_of(&c);
        let want = serde_json::to_value(cli(&c)).unwrap();
        assert_eq!(serde_json::to_value(&a.record).unwrap(), want, "seed {}", c.seed);
        assert_eq!(a.record.seed, Some(game_seed(c.seed)));
        // The record comes back as its game seed, with the same moves and end.
        let f = frames::<Drop7>(&a.record, 1, Control::new()).unwrap();
        assert_eq!(f.position.setup.game_seed, Some(game_seed(c.seed)));
        assert_eq!(f.position.moves, a.moves);
        assert_eq!(f.position.score, a.score);
    }
}

const STREAM: &str = "4#2715#36163#5#2274153#6#1452#37\n645751332615744\n";

#[test]
fn sequence_games_are_dealt_from_their_stream() {
    let setup = Setup { mode: Mode::Sequence, stream: Some(STREAM.into()), ..Setup::default() };
    let c = Case::<Drop7> {
        setup,
        seed: 9,
        search: Search { depth: 2, ..Search::default() },
        max_moves: 100_000,
    };
    let a = auto_of(&c);
    let cli_rec = cli(&c);
    assert_eq!(serde_json::to_value(&a.record).unwrap(), serde_json::to_value(&cli_rec).unwrap());
    assert_eq!(a.record.seed, None);
    let discs = STREAM.lines().next().unwrap().len();
    if a.status.is_playing() {
        panic!("a Sequence game stops with its stream: {:?}", a.status);
    }
    if a.status.code == "stream_ended" {
        assert_eq!(a.played as usize, discs - 1, "the last disc is dealt, never dropped");
        assert_eq!(a.stop, Stop::Ended);
    }
    // The seed plays no part.
    let other = auto_of(&Case { seed: 1, setup: c.setup.clone(), search: c.search.clone(), ..c });
    assert_eq!(other.moves, a.moves);
    // The CLI's record comes back as the stream of the discs it dealt: the same game.
    let f = frames::<Drop7>(&cli_rec, 1, Control::new()).unwrap();
    assert_eq!(f.position.moves, a.moves);
    assert_eq!(f.position.status, a.status);
    let p = position(
        &PositionRequest::<Drop7> {
            setup: c.setup.clone(),
            moves: a.moves.clone(),
            frames: true,
            ..Default::default()
        },
        Control::new(),
    )
    .unwrap();
    assert_eq!(f.position.frames, p.frames);
    // A hint mid-game.
    let h = hint(
        &HintRequest::<Drop7> {
            from: PositionRequest {
                setup: c.setup,
                moves: a.moves[..4].into(),
                ..Default::default()
            },
            search: c.search,
        },
        &Caps::default(),
        Control::new(),
    )
    .unwrap();
    assert!(h.values.iter().any(|v| v.mv == h.mv));
}

fn input_message(e: Error) -> String {
    match e {
        Error::Input(m) => m,
        other => panic!("not an input error: {other:?}"),
    }
}

#[test]
fn records_not_dealt_by_their_seed_are_refused() {
    let c = &cases()[0];
    let rec = cli(c);
    assert!(Drop7::unrecord(&rec).is_ok());
    // Another seed: the record's own check passes, the seed's draws do not.
    let mut other = rec.clone();
    other.seed = Some(game_seed(c.seed) ^ 1);
    assert!(drop7::trace::verify(&other).is_ok());
    let m = input_message(Drop7::unrecord(&other).unwrap_err());
    assert!(m.starts_with("record: turn "), "{m}");
    assert!(m.contains("not the draws of seed"), "{m}");
    // No seed at all.
    other.seed = None;
    let m = input_message(Drop7::unrecord(&other).unwrap_err());
    assert!(m.starts_with("record: ") && m.contains("no seed"), "{m}");
    // A record that does not replay names its turn.
    let mut broken = rec.clone();
    broken.turns[2].score += 1;
    let m = input_message(Drop7::unrecord(&broken).unwrap_err());
    assert!(m.starts_with("record: turn 3: "), "{m}");
}

#[test]
fn moves_and_setups_are_checked() {
    let req = |setup: Setup, moves: &str| PositionRequest::<Drop7> {
        setup,
        seed: 4,
        moves: moves.into(),
        ..Default::default()
    };
    let e = |r| match position(&r, Control::new()) {
        Ok(p) => panic!("accepted: {}", p.text),
        Err(e) => input_message(e),
    };
    assert_eq!(e(req(Setup::default(), "18")), "moves: \"8\" (move 2) is not a column (1-7)");
    // Drop in column 4 until it is full (or the game ends), then once more.
    let mut s = Drop7::start(&Setup::default(), 4).unwrap();
    let four: drop7::api::contract::Column = "4".parse().unwrap();
    let mut moves = String::new();
    while Drop7::legal(&s).contains(&four) {
        Drop7::play(&mut s, &four).unwrap();
        moves.push('4');
    }
    let m = e(req(Setup::default(), &format!("{moves}4")));
    let n = moves.len() + 1;
    if Drop7::status(&s).is_playing() {
        assert_eq!(m, format!("moves: 4 (move {n}) column 4 is full"));
        assert_eq!(Drop7::play(&mut s, &four).unwrap_err(), "column 4 is full");
    } else {
        assert!(m.starts_with(&format!("moves: 4 (move {n}) comes after the game ended")), "{m}");
        assert_eq!(Drop7::play(&mut s, &four).unwrap_err(), "the game is over");
    }
    let m = e(req(Setup { gray_share: (3, 2), ..Setup::default() }, ""));
    assert!(m.starts_with("setup.gray_share: "), "{m}");
    let m = e(req(Setup { mode: Mode::Sequence, ..Setup::default() }, ""));
    assert!(m.starts_with("setup.stream: "), "{m}");
    let m = e(req(Setup { stream: Some("123".into()), ..Setup::default() }, ""));
    assert!(m.starts_with("setup.stream: "), "{m}");
    let bad = Setup { mode: Mode::Sequence, stream: Some("12x".into()), ..Setup::default() };
    assert!(e(req(bad, "")).starts_with("setup.stream: line 1, column 3"));
}

#[test]
fn searches_are_checked_and_held_to_the_caps() {
    let from = PositionRequest::<Drop7> { seed: 2, moves: "4".into(), ..Default::default() };
    let h = |search: Search, caps: &Caps| {
        hint(&HintRequest { from: from.clone(), search }, caps, Control::new())
    };
    for (search, field) in [
        (Search { depth: 9, ..Search::default() }, "search.depth: "),
        (Search { table_bits: 40, ..Search::default() }, "search.table_bits: "),
        (Search { eval: "nonsense".into(), ..Search::default() }, "search.eval: \"nonsense\", "),
        (Search { eval: "ntuple:@net.d7n".into(), ..Search::default() }, "search.eval: "),
        (Search { reveal_samples: vec![], ..Search::default() }, "search.reveal_samples: "),
        (
            Search { strata_schedule: Some(vec![9]), ..Search::default() },
            "search.strata_schedule: ",
        ),
        (
            Search {
                budget: Some(10),
                min_depth: Some(5),
                max_depth: Some(4),
                ..Search::default()
            },
            "search.min_depth: ",
        ),
    ] {
        let m = input_message(h(search, &Caps::NONE).unwrap_err());
        assert!(m.starts_with(field), "{m}");
        assert!(!m.contains("--"), "{m}");
    }
    // The CLI's default search is not clamped by the default caps.
    let d = h(Search::default(), &Caps::default()).unwrap();
    assert_eq!(d.detail.depth, 3);
    assert_eq!(d.values.len(), 7);
    // A deep search is held to the nodes and depth of the caps.
    let caps = Caps { nodes: 20_000, ..Caps::default() };
    let d = h(Search { depth: 6, ..Search::default() }, &caps).unwrap();
    assert_eq!(d.detail.depth, 2);
    assert!(d.detail.stats.moves <= 20_000, "{:?}", d.detail.stats);
    let caps = Caps { depth: 2, nodes: 100_000, ..Caps::default() };
    let d = h(Search { budget: Some(u64::MAX), max_depth: Some(7), ..Search::default() }, &caps)
        .unwrap();
    assert!(d.detail.depth <= 2);
    let mut s = Search { budget: Some(u64::MAX), ..Search::default() };
    Drop7::cap(&mut s, &caps).unwrap();
    assert_eq!((s.budget, s.min_depth, s.max_depth), (Some(100_000), Some(2), Some(2)));
}

/// The snapshot's `bits` are the engine's column words: nibble `r` of word `c` is the code
/// of the disc the structured snapshot shows at column `c`, row `r`; frames carry none.
#[test]
fn the_bits_are_the_column_words() {
    use drop7::api::contract::Piece;
    let from = PositionRequest::<Drop7> { seed: 5, ..Default::default() };
    let search = Search { depth: 1, ..Search::default() };
    let a = auto(
        &AutoRequest { from: from.clone(), search, max_moves: 40 },
        &Caps::NONE,
        Control::new(),
    )
    .unwrap();
    for k in 0..=a.moves.len() {
        let req =
            PositionRequest::<Drop7> { moves: a.moves[..k].into(), frames: true, ..from.clone() };
        let p = position(&req, Control::new()).unwrap();
        let words = p.now.bits.as_ref().unwrap();
        assert_eq!(words.len(), 7);
        for (c, (w, col)) in words.iter().zip(&p.now.columns).enumerate() {
            let w = u32::from_str_radix(w.trim_start_matches("0x"), 16).unwrap();
            for r in 0..7 {
                let code = (w >> (4 * r)) & 15;
                let want = match col.get(r) {
                    None => 0,
                    Some(Piece::Number { number }) => u32::from(*number),
                    Some(Piece::Hidden) => 8,
                    Some(Piece::Cracked) => 9,
                };
                assert_eq!(code, want, "move {k}, column {c}, row {r}");
            }
            assert_eq!(w >> 28, 0, "the top nibble is always zero");
        }
        assert!(p.frames.iter().all(|f| f.bits.is_none()));
    }
}
