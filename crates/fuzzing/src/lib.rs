//! bitarcade's fuzz targets: one function per parser and per game's JSON routes, each taking
//! arbitrary bytes and asserting the invariants the code under it must keep. A target panics
//! exactly when an invariant breaks, so the same functions serve two drivers:
//!
//! - `tests/smoke.rs` (stable, part of `cargo test --workspace`): every file of the seed corpus
//!   `corpus/<target>/` and 5,000 to 100,000 seeded mutations of them ([`mutate`]);
//! - `fuzz/` at the repository root (cargo-fuzz, nightly): one libFuzzer binary per target,
//!   `fuzz/fuzz_targets/<target>.rs` calling the function of the same name through
//!   [`skip_known`] (see [`known`] for the defects found and not fixed yet).
//!
//! The invariants:
//!
//! - nothing panics (no index out of range, no overflow: the drivers build with overflow checks
//!   and debug assertions on);
//! - text that parses prints (`Display`) as text that parses back to an equal value, and prints
//!   the same again;
//! - every error message is one non-empty line;
//! - a record that reads replays to `Ok`, or to a one-line [`Error::Input`]; the record as
//!   written back reads to the same record;
//! - the server answers no 5xx; a 4xx is a JSON `{"error": "one line"}`; a 2xx is JSON whose
//!   game replays (the position's own `setup`/`seed`/`moves` give the same position, a record
//!   it writes loads back through `frames`).
//!
//! `docs/fuzzing.md` says how to run both drivers.
//!
//! ```
//! // Every target takes any bytes; these do not parse, and that is fine.
//! for (_, target) in fuzzing::TARGETS.iter().filter(|(n, _)| !n.starts_with("router_")) {
//!     target(b"not a board {");
//!     target(b"\xff\xfe");
//! }
//! ```

use std::fmt::{Debug, Display};
use std::str::FromStr;

use bits::job::{Control, Error};
use bits::live::{self, Game, OtherGame};
use drop7::api::contract::Drop7;
use samegame::api::live::contract::SameGame;
use snake::api::contract::Snake;
use tetris::api::contract::Tetris;
use twenty48::api::contract::Twenty48;

pub mod known;
pub mod mutate;
mod router;

pub use known::{skip_known, Known, KNOWN};
pub use router::{
    caps, router_auto, router_drop7, router_samegame, router_snake, router_tetris, router_twenty48,
};

/// A fuzz target: any bytes in, a panic when an invariant breaks.
pub type Target = fn(&[u8]);

/// Every target by name (the names of `corpus/<name>/` and `fuzz/fuzz_targets/<name>.rs`).
pub const TARGETS: &[(&str, Target)] = &[
    ("samegame_board", samegame_board),
    ("tetris_field", tetris_field),
    ("tetris_fumen", tetris_fumen),
    ("tetris_pattern", tetris_pattern),
    ("drop7_position", drop7_position),
    ("twenty48_board", twenty48_board),
    ("snake_board", snake_board),
    ("samegame_record", samegame_record),
    ("tetris_record", tetris_record),
    ("drop7_record", drop7_record),
    ("twenty48_record", twenty48_record),
    ("snake_record", snake_record),
    ("router_samegame", router_samegame),
    ("router_tetris", router_tetris),
    ("router_drop7", router_drop7),
    ("router_twenty48", router_twenty48),
    ("router_snake", router_snake),
    ("router_auto", router_auto),
];

/// Asserts that `msg` is one non-empty line.
pub fn assert_one_line(what: &str, msg: &str) {
    assert!(
        !msg.trim().is_empty() && !msg.contains(['\n', '\r']),
        "{what}: the error message is not one line: {msg:?}"
    );
}

/// Asserts that `e` is an input error with a one-line message.
pub fn assert_input_error(what: &str, e: &Error) {
    match e {
        Error::Input(m) => assert_one_line(what, m),
        other => panic!("{what}: not an input error: {other:?}"),
    }
}

/// The text of `data`, when it is UTF-8 (every text parser takes `&str`).
fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Parses `text` as `T`; an error is one line; a value prints as text that parses back to an
/// equal value and prints the same. Returns the value.
pub fn round_trip<T>(what: &str, text: &str) -> Option<T>
where
    T: FromStr + Display + PartialEq + Debug,
    T::Err: Display,
{
    match text.parse::<T>() {
        Err(e) => {
            assert_one_line(what, &e.to_string());
            None
        }
        Ok(v) => {
            let shown = v.to_string();
            let back: T = shown.parse().unwrap_or_else(|e| {
                panic!("{what}: {text:?} parses, but its text form {shown:?} does not: {e}")
            });
            assert_eq!(back, v, "{what}: {text:?} prints as {shown:?}, which reads otherwise");
            assert_eq!(back.to_string(), shown, "{what}: {text:?}: the text form is not stable");
            Some(v)
        }
    }
}

/// `samegame::Board`'s text form (and, on the same bytes, the multi-board file reader and the
/// binary BGF2 reader): round trips, one-line errors, BGF2 written back byte for byte.
pub fn samegame_board(data: &[u8]) {
    use samegame::board::{parse_many, Board};
    if data.starts_with(b"BGF2") {
        match Board::from_bgf2(data) {
            Err(e) => assert_one_line("samegame BGF2", &e.to_string()),
            Ok((b, min_group)) => {
                assert_eq!(b.to_bgf2(min_group), data, "samegame BGF2: not written back the same");
                let back: Board = b.to_string().parse().unwrap_or_else(|e| {
                    panic!("samegame BGF2: the board's text form does not read: {e}\n{b}")
                });
                assert_eq!(back, b, "samegame BGF2: the text form reads as another board");
            }
        }
        return;
    }
    let Some(text) = text(data) else { return };
    if let Some(b) = round_trip::<Board>("samegame board", text) {
        assert!(b.width() >= 1 && b.height() >= 1 && b.live_width() <= b.width());
        let (back, mg) = Board::from_bgf2(&b.to_bgf2(3))
            .unwrap_or_else(|e| panic!("samegame board: its BGF2 does not read: {e}\n{b}"));
        assert_eq!((back, mg), (b, 3), "samegame board: BGF2 reads as another board");
    }
    match parse_many(text) {
        Err((line, e)) => {
            assert!(line <= text.lines().count() + 1, "samegame boards: line {line} past the end");
            assert_one_line("samegame boards", &e.to_string());
        }
        Ok(boards) => {
            for (line, b) in boards {
                assert!(line >= 1 && line <= text.lines().count(), "samegame boards: line {line}");
                let back: Board = b.to_string().parse().unwrap_or_else(|e| {
                    panic!("samegame boards: the text form of a board does not read: {e}\n{b}")
                });
                assert_eq!(back, b, "samegame boards: the text form reads as another board");
            }
        }
    }
}

/// `tetris::Board`'s text form (the `field` of `tetris pc` and of the live setup).
pub fn tetris_field(data: &[u8]) {
    let Some(text) = text(data) else { return };
    if let Some(b) = round_trip::<tetris::Board>("tetris field", text) {
        assert!(b.height() <= tetris::board::MAX_ROWS);
        let n = b.count();
        let mut cleared = b;
        let lines = cleared.clear_lines();
        assert_eq!(cleared.count(), n - lines * tetris::board::WIDTH as u32);
    }
}

/// The fumen decoder (`tetris::fumen_io::decode_board`, behind `--fumen` and `setup.fumen`):
/// no panic, one-line errors; a decoded board's text form round-trips, and the board encoded
/// as a fumen decodes to the same board.
pub fn tetris_fumen(data: &[u8]) {
    use tetris::fumen_io::{decode_board, encode_solution};
    let Some(text) = text(data) else { return };
    match decode_board(text) {
        Err(e) => assert_one_line("fumen", &e),
        Ok(b) => {
            let shown = b.to_string();
            let back: tetris::Board = shown.parse().unwrap_or_else(|e| {
                panic!("fumen: {text:?} decodes, but its text form does not read: {e}\n{shown}")
            });
            assert_eq!(back, b, "fumen: {text:?}: the text form reads as another board");
            let again = encode_solution(&b, &[])
                .unwrap_or_else(|e| panic!("fumen: {text:?}: the board does not encode: {e}"));
            let b2 = decode_board(&again).unwrap_or_else(|e| {
                panic!(
                    "fumen: {text:?}: the board encodes as {again:?}, which does not decode: {e}"
                )
            });
            assert_eq!(b2, b, "fumen: {text:?}: encoded as {again:?}, decodes to another board");
        }
    }
}

/// `tetris::pattern::parse_patterns` (`tetris percent --pattern`): an error says its column;
/// every pattern prints as text that reads back as the same pattern, and its counts agree
/// with its queues walked one by one (for patterns of up to [`PATTERN_WALK`] queues of up to
/// [`PATTERN_WALK_PIECES`] pieces).
pub fn tetris_pattern(data: &[u8]) {
    use tetris::pattern::parse_patterns;
    let Some(text) = text(data) else { return };
    let patterns = match parse_patterns(text) {
        Err(e) => {
            assert_one_line("pattern", &e);
            assert!(
                e.starts_with("column ") || e.starts_with("empty pattern"),
                "pattern: {text:?}: the error does not say where: {e}"
            );
            return;
        }
        Ok(p) => p,
    };
    assert!(!patterns.is_empty(), "pattern: {text:?} reads as no pattern");
    for p in &patterns {
        let shown = p.to_string();
        let back = parse_patterns(&shown)
            .unwrap_or_else(|e| panic!("pattern: {text:?} prints as {shown:?}, which fails: {e}"));
        assert_eq!(
            back,
            std::slice::from_ref(p),
            "pattern: {text:?} prints as {shown:?}, read as another"
        );
        assert_eq!(back[0].to_string(), shown, "pattern: {text:?}: printed twice, differs");
        let n = p.len();
        let at = p.pieces_at();
        assert_eq!(at.len(), n, "pattern: {shown}: pieces_at");
        for k in [0, 1, n / 2, n] {
            assert_eq!(p.truncated(k).len(), k.min(n), "pattern: {shown}: truncated({k})");
        }
        let count = p.queues();
        assert!(count >= 1, "pattern: {shown} deals no queue");
        if count > PATTERN_WALK || n > PATTERN_WALK_PIECES {
            continue;
        }
        let mut seen = std::collections::HashSet::new();
        p.for_each(|q| {
            assert_eq!(q.len(), n, "pattern: {shown}: a queue of {} pieces", q.len());
            for (i, piece) in q.iter().enumerate() {
                assert!(at[i] >> piece.index() & 1 == 1, "pattern: {shown}: piece {i} of {q:?}");
            }
            assert!(seen.insert(q.to_vec()), "pattern: {shown}: {q:?} dealt twice");
        });
        assert_eq!(seen.len() as u64, count, "pattern: {shown}: counted, walked");
    }
}

/// The most queues [`tetris_pattern`] walks one by one.
pub const PATTERN_WALK: u64 = 2_000;
/// The longest queues [`tetris_pattern`] walks (a walk recurses once per piece).
pub const PATTERN_WALK_PIECES: usize = 64;

/// `drop7::Position`'s text form (and `drop7::Board`'s, on the same text).
pub fn drop7_position(data: &[u8]) {
    let Some(text) = text(data) else { return };
    if let Some(p) = round_trip::<drop7::Position>("drop7 position", text) {
        assert!(p.level >= 1 && p.drops_left <= 30, "drop7 position: {p:?}");
        assert!(p.drops_left > 0 || p.over, "drop7 position: {p:?}");
    }
    round_trip::<drop7::Board>("drop7 board", text);
}

/// `twenty48::Board`'s text form, both the one-line (`{}`) and the aligned (`{:#}`) one.
pub fn twenty48_board(data: &[u8]) {
    let Some(text) = text(data) else { return };
    if let Some(b) = round_trip::<twenty48::Board>("2048 board", text) {
        let aligned = format!("{b:#}");
        let back: twenty48::Board = aligned.parse().unwrap_or_else(|e| {
            panic!("2048 board: {text:?}: the aligned form {aligned:?} does not read: {e}")
        });
        assert_eq!(back, b, "2048 board: {text:?}: the aligned form reads as another board");
    }
}

/// `snake::Board`'s text form.
pub fn snake_board(data: &[u8]) {
    let Some(text) = text(data) else { return };
    if let Some(b) = round_trip::<snake::Board>("snake board", text) {
        let size = b.size();
        assert!((1..=size.cells()).contains(&b.len()), "snake board: length {}", b.len());
        let body: Vec<usize> = b.body().collect();
        for w in body.windows(2) {
            assert_eq!(size.manhattan(w[0], w[1]), 1, "snake board: body not connected\n{b}");
        }
        assert!(b.fruit().is_none_or(|f| !b.occupied().contains(f)), "snake board: fruit on body");
    }
}

/// Every game the arcade serves, as its `frames` route tells their records apart.
fn others() -> Vec<OtherGame<'static>> {
    vec![
        (SameGame::TITLE, live::is_record::<SameGame>),
        (Tetris::TITLE, live::is_record::<Tetris>),
        (Drop7::TITLE, live::is_record::<Drop7>),
        (Twenty48::TITLE, live::is_record::<Twenty48>),
        (Snake::TITLE, live::is_record::<Snake>),
    ]
}

/// A record of `G` as JSON, through `bits::live::read_record` (one record, or a list: the first
/// and the last are read) and, when it reads, `bits::live::frames`.
pub fn record<G: Game>(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let what = format!("{} record", G::NAME);
    let others = others();
    let first = live::read_record::<G>(text, 0, &others);
    let mut picks = Vec::new();
    match first {
        Err(e) => assert_input_error(&what, &e),
        Ok((rec, count)) => {
            assert!(count >= 1, "{what}: a list of {count}");
            picks.push(rec);
            if count > 1 {
                match live::read_record::<G>(text, count - 1, &others) {
                    Ok((last, n)) => {
                        assert_eq!(n, count, "{what}: the list changed length");
                        picks.push(last);
                    }
                    Err(e) => assert_input_error(&what, &e),
                }
                let past = live::read_record::<G>(text, count, &others);
                assert!(past.is_err(), "{what}: record {} of a list of {count} reads", count + 1);
                assert_input_error(&what, &past.err().unwrap());
            }
            for rec in picks {
                check_record::<G>(&what, &rec, count);
            }
        }
    }
}

fn check_record<G: Game>(what: &str, rec: &G::Record, count: usize) {
    // The record as written reads back as the same record.
    let json = serde_json::to_string(rec).unwrap_or_else(|e| panic!("{what}: not written: {e}"));
    let (again, n) = live::read_record::<G>(&json, 0, &others())
        .unwrap_or_else(|e| panic!("{what}: the record as written does not read: {e}\n{json}"));
    assert_eq!(n, 1);
    assert_eq!(
        serde_json::to_value(&again).ok(),
        serde_json::to_value(rec).ok(),
        "{what}: the record as written reads as another record"
    );
    match live::frames::<G>(rec, count, Control::new()) {
        Err(e) => assert_input_error(what, &e),
        Ok(f) => {
            assert_eq!(f.count, count, "{what}: count");
            let p = &f.position;
            assert_eq!(
                p.frames.len(),
                p.played + 1,
                "{what}: {} frames, {} moves",
                p.frames.len(),
                p.played
            );
            assert_eq!(
                live::parse_moves::<G>(&p.moves).map(|m| m.len()).ok(),
                Some(p.played),
                "{what}: the moves {:?} do not read back",
                p.moves
            );
        }
    }
}

/// `samegame::trace::Record` through the live contract.
pub fn samegame_record(data: &[u8]) {
    record::<SameGame>(data);
}

/// `tetris::api::PcRecord` through the live contract.
pub fn tetris_record(data: &[u8]) {
    record::<Tetris>(data);
}

/// `drop7::trace::GameRecord` through the live contract.
pub fn drop7_record(data: &[u8]) {
    record::<Drop7>(data);
}

/// `twenty48::GameRecord` through the live contract.
pub fn twenty48_record(data: &[u8]) {
    record::<Twenty48>(data);
}

/// `snake::Record` through the live contract.
pub fn snake_record(data: &[u8]) {
    record::<Snake>(data);
}
