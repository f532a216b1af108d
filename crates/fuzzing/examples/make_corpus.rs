//! Regenerates the seed corpus `crates/fuzzing/corpus/<target>/` (deterministic: the same
//! files on every run): the test fixtures of the game crates, boards from each game's
//! generator and positions of short games, records written by each game's play/solve verb with
//! small settings, fumen strings from the tetris tests and the solver, and request bodies for
//! every JSON route.
//!
//! ```text
//! cargo run -p fuzzing --example make_corpus            # into crates/fuzzing/corpus
//! cargo run -p fuzzing --example make_corpus -- DIR     # elsewhere
//! ```
//!
//! Files are written over their old versions; other files of a target's directory stay (the
//! inputs of fixed defects, moved there from `crates/fuzzing/crashes/<target>/`). Inputs that
//! crash a target today (known defects) are not written here: they live in `crashes/`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bits::job::Control;
use bits::live::{self, AutoRequest, Caps, Game, HintRequest, PositionRequest};
use serde::Serialize;
use serde_json::{json, Value};

use drop7::api::contract::{Drop7, Search as D7Search, Setup as D7Setup};
use samegame::api::live::contract::{SameGame, Search as SgSearch, Setup as SgSetup};
use snake::api::contract::{Search as SnSearch, Snake};
use tetris::api::contract::{Search as TeSearch, Setup as TeSetup, Tetris};
use twenty48::api::contract::Twenty48;

/// The corpus: target name to (file name, bytes).
#[derive(Default)]
struct Corpus(BTreeMap<&'static str, BTreeMap<String, Vec<u8>>>);

impl Corpus {
    fn add(&mut self, target: &'static str, name: &str, bytes: impl AsRef<[u8]>) {
        let files = self.0.entry(target).or_default();
        let bytes = bytes.as_ref().to_vec();
        if files.values().any(|b| *b == bytes) {
            return;
        }
        assert!(files.insert(name.to_string(), bytes).is_none(), "{target}/{name} twice");
    }

    fn json(&mut self, target: &'static str, name: &str, v: &impl Serialize) {
        self.add(target, name, serde_json::to_string_pretty(v).expect("JSON") + "\n");
    }
}

fn root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Plays `auto` from `from` for at most `max_moves` moves (no caps: the settings are small).
fn auto<G: Game>(
    from: &PositionRequest<G>,
    search: &G::Search,
    max_moves: u64,
) -> live::AutoResponse<G> {
    let req = AutoRequest { from: from.clone(), search: search.clone(), max_moves };
    live::auto(&req, &Caps::NONE, Control::new())
        .unwrap_or_else(|e| panic!("{}: auto: {e}", G::NAME))
}

fn position<G: Game>(req: &PositionRequest<G>) -> live::PositionResponse<G> {
    live::position(req, Control::new()).unwrap_or_else(|e| panic!("{}: position: {e}", G::NAME))
}

fn at<G: Game>(setup: G::Setup, seed: u64, moves: &str) -> PositionRequest<G> {
    PositionRequest { setup, seed, moves: moves.into(), frames: false, record: false }
}

/// The first `k` moves of a move list.
fn prefix<G: Game>(moves: &str, k: usize) -> String {
    let m = live::parse_moves::<G>(moves).expect("moves");
    live::format_moves::<G>(&m[..k.min(m.len())])
}

/// Request bodies for every route of `G`: positions (with frames and the record), hints and
/// checks with `search` (not from the default setup: a default SameGame hint is slow), and the
/// frames of `records`.
fn routes<G: Game>(
    c: &mut Corpus,
    target: &'static str,
    games: &[(&str, PositionRequest<G>)],
    search: &G::Search,
    records: &[(&str, Value)],
) {
    c.add(target, "empty-object", "{}\n");
    for (name, from) in games {
        let mut p = from.clone();
        p.frames = true;
        p.record = true;
        c.json(target, &format!("position-{name}"), &p);
        if *name != "default" {
            let hint = HintRequest { from: from.clone(), search: search.clone() };
            c.json(target, &format!("hint-{name}"), &hint);
        }
    }
    for (name, r) in records {
        c.json(target, &format!("frames-{name}"), &json!({ "record": r, "index": 0 }));
    }
    if let [(_, a), (_, b), ..] = records {
        c.json(target, "frames-list-second", &json!({ "record": [a, b], "index": 1 }));
    }
    // The streamed run: the first byte picks the game (`fuzzing::router_auto`).
    let pick = ["samegame", "tetris", "drop7", "2048", "snake"]
        .iter()
        .position(|n| *n == G::NAME)
        .expect("a game") as u8;
    c.add("router_auto", &format!("{}-no-request", G::NAME), [pick]);
    for (name, from) in games.iter().take(3) {
        let r = AutoRequest { from: from.clone(), search: search.clone(), max_moves: 3 };
        let mut bytes = vec![pick];
        bytes.extend(serde_json::to_vec(&r).expect("JSON"));
        c.add("router_auto", &format!("{}-{name}", G::NAME), bytes);
    }
}

fn samegame(c: &mut Corpus) {
    use samegame::api::{
        gen, solve, BoardFile, GenRequest, Search as Method, SolveGoal, SolveRequest,
    };
    use samegame::board::Board;
    let t = "samegame_board";
    // The crate's test fixtures.
    for (name, text) in [
        ("test-round-trip", "12.\n013\n"),
        ("test-contract", "1122\n2211\n1212\n"),
        ("test-bad-cell", "12\n1x\n"),
        ("test-floating", "1.\n.1\n"),
        ("test-gap-column", "..\n.1\n"),
        ("test-ragged", "12\n1\n"),
        ("test-comment-only", "# only a comment\n"),
        ("test-two-boards", "# two boards\n12\n21\n\n# second\n33\n31\n"),
        ("test-two-boards-bad", "12\n21\n\n3x\n31\n"),
        ("crlf-comments", "# a board\r\n  1122 \r\n2211\r\n"),
    ] {
        c.add(t, name, text);
    }
    let gen_board = |w, h, colors, seed| {
        let g = GenRequest { width: w, height: h, colors, seed, ..Default::default() };
        gen(&g, Control::new()).expect("gen").boards.remove(0)
    };
    for (w, h, colors, seed) in
        [(5, 5, 3, 1), (8, 6, 3, 11), (10, 8, 4, u64::MAX), (15, 15, 5, 1), (20, 10, 8, 2)]
    {
        c.add(t, &format!("gen-{w}x{h}-c{colors}-s{seed}"), gen_board(w, h, colors, seed));
    }
    c.add(t, "random-64x32-c8", Board::random(64, 32, 8, 1).to_string());
    c.add(t, "bgf2-9x7", Board::random(9, 7, 5, 3).to_bgf2(2));
    c.add(t, "bgf2-short", b"BGF2\x02\x02\x02\x01\x01\x01");

    // Positions of short games: boards with holes and empty columns.
    let setup = |w, h, colors| SgSetup { width: w, height: h, colors, ..SgSetup::default() };
    let beam = SgSearch { goal: SolveGoal::Score, width: Some(4), ..SgSearch::default() };
    let a = auto(&at::<SameGame>(setup(8, 6, 3), 11, ""), &beam, u64::MAX);
    let n = live::parse_moves::<SameGame>(&a.moves).unwrap().len();
    for k in [n / 2, n] {
        let p = position(&at::<SameGame>(setup(8, 6, 3), 11, &prefix::<SameGame>(&a.moves, k)));
        c.add(t, &format!("played-8x6-s11-m{k}"), p.text);
    }

    // Records: `samegame solve --record` with small beams and NRPA.
    let t = "samegame_record";
    let solve_record = |board: String, goal, search, width, iterations| {
        let req = SolveRequest {
            file: Some(BoardFile::text_file("board", board)),
            goal,
            search,
            width: Some(width),
            level: 1,
            iterations,
            record: true,
            threads: Some(1),
            ..Default::default()
        };
        solve(&req, Control::new()).expect("solve").boards.remove(0).record.expect("a record")
    };
    let r1 = solve_record(gen_board(8, 6, 3, 11), SolveGoal::Score, Method::Beam, 10, 10);
    let r2 = solve_record(gen_board(10, 8, 4, 5), SolveGoal::Clear, Method::Beam, 20, 10);
    let r3 = solve_record("1122\n2211\n1212\n".into(), SolveGoal::Score, Method::Nrpa, 1, 20);
    c.json(t, "solve-8x6-beam", &r1);
    c.json(t, "solve-10x8-clear", &r2);
    c.json(t, "solve-nrpa-4x3", &r3);
    c.json(t, "list-of-two", &json!([r1, r3]));
    let mid = live::record(
        &at::<SameGame>(setup(8, 6, 3), 11, &prefix::<SameGame>(&a.moves, 3)),
        Control::new(),
    )
    .expect("record");
    c.json(t, "hand-3-moves", &mid);
    let records: Vec<(&str, Value)> = vec![
        ("solve-8x6", serde_json::to_value(&r1).unwrap()),
        ("hand-3-moves", serde_json::to_value(&mid).unwrap()),
    ];

    // Route bodies.
    let games = [
        ("default", at::<SameGame>(SgSetup::default(), 1, "")),
        ("8x6-mid", at::<SameGame>(setup(8, 6, 3), 11, &prefix::<SameGame>(&a.moves, 3))),
        (
            "board-given",
            at::<SameGame>(
                SgSetup { board: Some("1122\n2211\n1212\n".into()), ..SgSetup::default() },
                0,
                "0.0",
            ),
        ),
    ];
    let nrpa = SgSearch { search: Method::Nrpa, level: 1, iterations: 5, ..SgSearch::default() };
    routes(c, "router_samegame", &games, &beam, &records);
    c.json("router_samegame", "hint-nrpa", &HintRequest { from: games[1].1.clone(), search: nrpa });
}

/// The field of `bitarcade tetris pc`'s help example.
const FIELD: &str = "X.........\nX.........\nXXX...X...\nXXX..XXX..\n";

fn tetris(c: &mut Corpus) {
    use tetris::api::{pc, PcSolveRequest};
    use tetris::bag::opener_queue;
    use tetris::piece::queue_string;
    let t = "tetris_field";
    for (name, text) in [
        ("help-example", FIELD),
        ("test-round-trip", "#.........\n##..######\n"),
        ("empty", "..........\n"),
        ("test-too-wide", "..........\n...........\n"),
        ("test-any-char-filled", "xxxxxxxxxx"),
        ("crlf", "#.........\r\n##..######\r\n"),
        ("spaces", " ........#\n##..######  \n"),
    ] {
        c.add(t, name, text);
    }
    let mut rng = bits::Rng::new(4);
    for rows in [3u64, 6, 40] {
        let r: Vec<u16> = (0..rows).map(|_| rng.below(1024) as u16).collect();
        c.add(t, &format!("random-{rows}-rows"), tetris::Board::from_rows(&r).to_string());
    }
    c.add(t, "too-tall-41", "#.........\n".repeat(41));

    // Fumen: the tests' and docs' strings, and the solver's.
    let t = "tetris_fumen";
    for (name, f) in [
        ("empty-field", "v115@vhAAgH"),
        ("help-example", "v115@9gA8IeA8IeC8CeA8CeC8BeC8LeAgH"),
        ("cli-test", "v115@vhETJJTqBTrBTsBTtB"),
        ("garbage", "v115@garbage"),
        ("nonsense", "nonsense"),
        ("url", "https://harddrop.com/fumen/?v115@vhETJJTqBTrBTsBTtB"),
    ] {
        c.add(t, name, f);
    }
    let solve = |queue: &str, field: Option<&str>, use_hold: bool| {
        let req = PcSolveRequest {
            queue: queue.into(),
            field: field.map(|f| bits::job::InputFile::text_file("field", f)),
            use_hold,
            ..PcSolveRequest::default()
        };
        pc(&req, Control::new()).expect("pc")
    };
    let s1 = solve("LJSZIOT", Some(FIELD), true);
    let s2 = solve(&queue_string(&opener_queue(1, 0, 11)), None, true);
    let s3 = solve("IOTLJSZIOTS", None, false);
    for (name, s) in [("pc-help", &s1), ("pc-opener", &s2), ("pc-no-hold", &s3)] {
        if let Some(f) = &s.report.fumen {
            c.add(t, name, f);
        }
    }

    // Patterns: `tetris percent --pattern`, the docs' and the tests' (good and bad).
    let t = "tetris_pattern";
    for (name, text) in [
        ("opener", "*p7"),
        ("opener-11", "*p7,*p4"),
        ("fixed-first", "I,*p6"),
        ("sets", "[IJL]p2,T,[^SZ]"),
        ("bang", "[TIO]!,*"),
        ("letters", "TSZ"),
        ("spaces", " T , S,Z "),
        ("several", "*p6;*p5,*\n*p4,*p2"),
        ("p-too-big", "*p8"),
        ("not-a-piece", "[IJX]"),
        ("double-comma", "I,,T"),
        ("open-set", "[IJ"),
        ("p-no-number", "*p"),
        ("set-twice", "[II]"),
        ("empty-set", "[^IOTSZJL]"),
        ("only-separators", " ; "),
    ] {
        c.add(t, name, text);
    }

    // Records: `tetris pc --record`.
    let t = "tetris_record";
    let mut records = Vec::new();
    for (name, s) in [("pc-help", &s1), ("pc-opener", &s2), ("pc-no-hold", &s3)] {
        if let Some(r) = &s.record {
            c.json(t, name, r);
            records.push((name, serde_json::to_value(r).unwrap()));
        }
    }
    let a = auto(&at::<Tetris>(TeSetup::default(), 1, ""), &TeSearch::default(), u64::MAX);
    let mid = live::record(
        &at::<Tetris>(TeSetup::default(), 1, &prefix::<Tetris>(&a.moves, 2)),
        Control::new(),
    )
    .expect("record");
    c.json(t, "hand-2-moves", &mid);
    if let [(_, a), (_, b), ..] = records.as_slice() {
        c.json(t, "list-of-two", &json!([a, b]));
    }
    records.push(("hand-2-moves", serde_json::to_value(&mid).unwrap()));
    // A field from a live snapshot, and its fumen.
    let p = position(&at::<Tetris>(
        TeSetup { field: Some(FIELD.into()), queue: "LJSZIOT".into(), ..TeSetup::default() },
        0,
        "",
    ));
    c.add("tetris_fumen", "snapshot-help", p.now.fumen.clone());

    let games = [
        ("default", at::<Tetris>(TeSetup::default(), 1, "")),
        ("seed1-mid", at::<Tetris>(TeSetup::default(), 1, &prefix::<Tetris>(&a.moves, 2))),
        (
            "field-queue",
            at::<Tetris>(
                TeSetup {
                    field: Some(FIELD.into()),
                    queue: "LJSZIOT".into(),
                    height: Some(4),
                    ..TeSetup::default()
                },
                3,
                "",
            ),
        ),
        (
            "hold-srs",
            at::<Tetris>(
                TeSetup {
                    queue: "TLJSZIOTS".into(),
                    hold: Some("I".into()),
                    kicks: "srs".into(),
                    ..TeSetup::default()
                },
                0,
                "",
            ),
        ),
        (
            "fumen-no-hold",
            at::<Tetris>(
                TeSetup {
                    fumen: Some("v115@9gA8IeA8IeC8CeA8CeC8BeC8LeAgH".into()),
                    queue: "LJSZIOT".into(),
                    use_hold: false,
                    ..TeSetup::default()
                },
                0,
                "",
            ),
        ),
    ];
    let refs: Vec<(&str, Value)> = records.iter().map(|(n, v)| (*n, v.clone())).collect();
    routes(c, "router_tetris", &games, &TeSearch { node_limit: Some(1000), millis: None }, &refs);
}

fn drop7(c: &mut Corpus) {
    use drop7::api::{play, PlayRequest, SearchOptions};
    use drop7::Mode;
    let t = "drop7_position";
    let fixture = "......./......./..6..../..x..../..#4.../3#6#4#5/####### next=# level=3 drops=2 score=12345 over";
    c.add(t, "test-round-trip", fixture);
    c.add(t, "test-multi-line", fixture.replace('/', "\n"));
    c.add(
        t,
        "test-floating",
        "......./......./..7..../......./......./......./....... next=1 level=1 drops=5 score=0",
    );
    c.add(t, "test-unstable", fixture.replace("3#6#4#5", "2#6#4#5"));
    c.add(t, "test-bad-next", fixture.replace("next=#", "next=9"));
    c.add(t, "test-board-only", "......./......./......./......./......./......./2345662");
    c.add(t, "test-row-count", "......./z");
    for (i, line) in read("crates/drop7/examples/positions.txt")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(6)
        .enumerate()
    {
        c.add(t, &format!("example-{i}"), line);
    }
    let search = D7Search { depth: 1, table_bits: 10, ..D7Search::default() };
    let a = auto(&at::<Drop7>(D7Setup::default(), 7, ""), &search, 40);
    for k in [0usize, 20, 40] {
        let p = position(&at::<Drop7>(D7Setup::default(), 7, &prefix::<Drop7>(&a.moves, k)));
        c.add(t, &format!("played-s7-m{k}"), p.text);
    }

    // Records: `drop7 play --games 1 --depth 1 --max-moves M`.
    let t = "drop7_record";
    let play_record = |mode: &str, seed, max_moves| {
        let req = PlayRequest {
            search: SearchOptions { mode: mode.into(), depth: 1, ..SearchOptions::default() },
            games: 1,
            seed,
            max_moves,
            ..PlayRequest::default()
        };
        play(&req, Control::new()).expect("play").records.remove(0)
    };
    let r1 = play_record("hardcore", 7, 12);
    let r2 = play_record("normal", 3, 8);
    c.json(t, "play-hardcore-s7", &r1);
    c.json(t, "play-normal-s3", &r2);
    c.json(t, "list-of-two", &json!([r1, r2]));
    let mid = live::record(
        &at::<Drop7>(D7Setup::default(), 7, &prefix::<Drop7>(&a.moves, 3)),
        Control::new(),
    )
    .expect("record");
    c.json(t, "hand-3-moves", &mid);
    let records: Vec<(&str, Value)> = vec![
        ("play-hardcore", serde_json::to_value(&r1).unwrap()),
        ("hand-3-moves", serde_json::to_value(&mid).unwrap()),
    ];

    let games = [
        ("default", at::<Drop7>(D7Setup::default(), 1, "")),
        ("s7-mid", at::<Drop7>(D7Setup::default(), 7, &prefix::<Drop7>(&a.moves, 5))),
        (
            "normal",
            at::<Drop7>(
                D7Setup { mode: Mode::Normal, gray_share: (5, 16), ..D7Setup::default() },
                2,
                "44",
            ),
        ),
        (
            "sequence",
            at::<Drop7>(
                D7Setup {
                    mode: Mode::Sequence,
                    stream: Some("1234567#1234567\n1234\n".into()),
                    ..D7Setup::default()
                },
                0,
                "1",
            ),
        ),
    ];
    routes(
        c,
        "router_drop7",
        &games,
        &D7Search { depth: 2, table_bits: 10, ..D7Search::default() },
        &records,
    );
}

fn twenty48(c: &mut Corpus) {
    use twenty48::api::contract::Setup;
    use twenty48::api::{play, PlayRequest, SearchSpec};
    let t = "twenty48_board";
    c.add(t, "doc-example", "2 . . 4/. . . ./. . . ./. . . 2");
    let aligned = "    2     .     .     4\n    .     .     .     .\n".repeat(2);
    c.add(t, "aligned", aligned);
    c.add(t, "zeros-plus", "0 +2 0 4/0 0 0 0/0 0 0 0/0 0 0 32768");
    c.add(t, "bad-tile", "2 . . 3/. . . ./. . . ./. . . .");
    c.add(t, "too-big", "65536 . . ./. . . ./. . . ./. . . .");
    c.add(t, "three-rows", "2 . . ./. . . ./. . . .");
    let perft = read("crates/twenty48/tests/data/perft.txt");
    for (i, board) in perft
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains(';'))
        .map(|l| l.split(';').next().unwrap().trim())
        .take(5)
        .enumerate()
    {
        c.add(t, &format!("perft-{i}"), board);
    }
    let search = SearchSpec { depth: Some(1), tt_bits: 12, ..SearchSpec::default() };
    let a = auto(&at::<Twenty48>(Setup::default(), 9, ""), &search, 200);
    let n = live::parse_moves::<Twenty48>(&a.moves).unwrap().len();
    for k in [n / 2, n] {
        let p = position(&at::<Twenty48>(Setup::default(), 9, &prefix::<Twenty48>(&a.moves, k)));
        c.add(t, &format!("played-s9-m{k}"), p.text);
    }

    // Records: `2048 play --games 1 --depth 1 --max-moves M`.
    let t = "twenty48_record";
    let play_record = |seed, max_moves| {
        let req =
            PlayRequest { games: 1, seed, max_moves, search: search.clone(), ..Default::default() };
        play(&req, Control::new()).expect("play").games[0].record.clone().expect("a record")
    };
    let r1 = play_record(9, 40);
    let r2 = play_record(3, 15);
    c.json(t, "play-s9-40", &r1);
    c.json(t, "play-s3-15", &r2);
    c.json(t, "list-of-two", &json!([r1, r2]));
    // The other games' tests use this one to check that records are told apart.
    c.add(t, "contract-test", r#"{"game":"2048","seed":5,"moves":"","spawns":[[0,2],[5,2]],"overflow_move":null,"score":0,"final_board":"2 . . ./. 2 . ./. . . ./. . . .","status":"playing"}"#);
    let records: Vec<(&str, Value)> = vec![
        ("play-s9", serde_json::to_value(&r1).unwrap()),
        ("play-s3", serde_json::to_value(&r2).unwrap()),
    ];

    let games = [
        ("default", at::<Twenty48>(Setup::default(), 1, "")),
        ("s9-mid", at::<Twenty48>(Setup::default(), 9, &prefix::<Twenty48>(&a.moves, 30))),
        ("spawn-seed", at::<Twenty48>(Setup { spawn_seed: Some(5) }, 0, "")),
    ];
    routes(c, "router_twenty48", &games, &search, &records);
}

fn snake(c: &mut Corpus) {
    use snake::api::{play, PlayRequest, Setup};
    let t = "snake_board";
    for (name, text) in [
        ("test-two-cells", "H*"),
        ("test-4x4", "....\n.>>H\n..*.\n...."),
        ("test-long", ">>v.\n^.v.\n^.>H\n*..."),
        ("test-no-fruit", "H.\n.."),
        ("test-loop", ">v\n^H"),
        ("test-hook", "v<<\n>H."),
        ("test-ragged", "..\n."),
        ("test-bad-char", "H#"),
        ("test-no-head", "..\n.."),
        ("test-fruits", "H*\n**"),
        ("test-dangling", "H>\n.."),
        ("test-not-a-chain", ">H\n>^"),
    ] {
        c.add(t, name, text);
    }
    let setup = |size: &str, start_len| Setup { size: size.into(), start_len, stall: None };
    let cycle = SnSearch { player: "cycle".into(), steps: None };
    let a = auto(&at::<Snake>(setup("6x6", 1), 7, ""), &cycle, u64::MAX);
    let n = a.moves.len();
    for k in [n / 3, 2 * n / 3, n] {
        let p = position(&at::<Snake>(setup("6x6", 1), 7, &a.moves[..k]));
        c.add(t, &format!("played-6x6-s7-m{k}"), p.text);
    }

    // Records: `snake play` on small boards.
    let t = "snake_record";
    let play_record = |player: &str, size: &str, start_len, seed| {
        let req = PlayRequest { player: player.into(), setup: setup(size, start_len), seed };
        play(&req, Control::new()).expect("play").record
    };
    let r1 = play_record("cycle", "4x4", 1, 1);
    let r2 = play_record("shortest", "6x5", 3, 2);
    c.json(t, "play-cycle-4x4", &r1);
    c.json(t, "play-shortest-6x5", &r2);
    c.json(t, "list-of-two", &json!([r1, r2]));
    c.add(t, "contract-test", r#"{"config":{"size":"4x4","start_x":2,"start_y":2,"start_len":1,"stall_limit":1000},"seed":1,"player":"hand","moves":"","fruits":[0],"score":0,"status":"Running"}"#);
    let mid = live::record(&at::<Snake>(setup("6x6", 1), 7, &a.moves[..10.min(n)]), Control::new())
        .expect("record");
    c.json(t, "hand-10-moves", &mid);
    let records: Vec<(&str, Value)> = vec![
        ("play-cycle", serde_json::to_value(&r1).unwrap()),
        ("hand-10-moves", serde_json::to_value(&mid).unwrap()),
    ];

    let games = [
        ("default", at::<Snake>(Setup::default(), 1, "")),
        ("6x6-mid", at::<Snake>(setup("6x6", 1), 7, &a.moves[..n / 2])),
        ("long-start", at::<Snake>(setup("10x8", 3), 5, "UUR")),
    ];
    routes(
        c,
        "router_snake",
        &games,
        &SnSearch { player: "shortest".into(), steps: Some(20) },
        &records,
    );
}

/// Records of the other games, for each game's record target (a record of another game is
/// refused, naming both games).
fn cross(c: &mut Corpus) {
    let targets =
        ["samegame_record", "tetris_record", "drop7_record", "twenty48_record", "snake_record"];
    let firsts: Vec<(&str, Vec<u8>)> = targets
        .iter()
        .map(|t| {
            let files = &c.0[t];
            let (_, b) = files.iter().find(|(n, _)| !n.starts_with("list")).expect("a record");
            (*t, b.clone())
        })
        .collect();
    for (i, t) in targets.iter().enumerate() {
        let (other, bytes) = &firsts[(i + 1) % firsts.len()];
        let name = format!("other-game-{}", other.trim_end_matches("_record"));
        c.add(t, &name, bytes);
    }
}

fn main() {
    let out =
        std::env::args().nth(1).map_or_else(|| root().join("crates/fuzzing/corpus"), PathBuf::from);
    let mut c = Corpus::default();
    samegame(&mut c);
    tetris(&mut c);
    drop7(&mut c);
    twenty48(&mut c);
    snake(&mut c);
    cross(&mut c);
    let names: Vec<&str> = fuzzing::TARGETS.iter().map(|(n, _)| *n).collect();
    let (mut files, mut bytes) = (0, 0);
    for (target, inputs) in &c.0 {
        assert!(names.contains(target), "{target} is no target");
        let dir = out.join(target);
        std::fs::create_dir_all(&dir).expect("corpus dir");
        for (name, b) in inputs {
            std::fs::write(dir.join(name), b).expect("write");
            files += 1;
            bytes += b.len();
        }
        println!("{target}: {} files", inputs.len());
    }
    for n in names {
        assert!(c.0.contains_key(n), "no corpus for {n}");
    }
    println!("{files} files, {bytes} bytes in {}", out.display());
}
