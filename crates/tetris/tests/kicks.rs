//! User kick tables from text files (`crates/tetris/kicks/*.txt`, the documented text form)
//! tested against known spins: a T-spin double (needs a turn), a T-spin triple (needs the 5th
//! SRS test, the (+-1, -2) "TST kick") and a 180-degree spin (needs SRS+'s 180 kicks). Each
//! spin is reachable with the file's table and not once the kicks it relies on are deleted
//! from the text, in both the reference search and the bitboard generator.

use std::collections::BTreeSet;

use tetris::movegen::{placement_mask, MoveGen};
use tetris::{reference, Board, KickTable, Piece};

const SRS_FILE: &str = include_str!("../kicks/srs.txt");
const SRS_PLUS_FILE: &str = include_str!("../kicks/srs-plus.txt");

/// The placements of `piece` as cell masks: the reference's and the fast generator's, which
/// must agree.
fn reachable(b: &Board, rows: u32, piece: Piece, k: &KickTable) -> BTreeSet<u64> {
    let slow: BTreeSet<u64> = reference::placements(b, rows, piece, k)
        .iter()
        .map(|c| c.iter().fold(0u64, |m, &(x, y)| m | 1 << (10 * y as u32 + x as u32)))
        .collect();
    let fast: BTreeSet<u64> = MoveGen::new(k)
        .placements(b.to_zone(rows).unwrap(), rows, piece)
        .iter()
        .map(|(f, x, y)| placement_mask(piece, f, x, y))
        .collect();
    assert_eq!(fast, slow, "{piece} on\n{b}");
    slow
}

fn cells(list: &[(u32, u32)]) -> u64 {
    list.iter().fold(0u64, |m, &(x, y)| m | 1 << (10 * y + x))
}

/// The text with every line starting with one of `prefixes` edited by `edit`.
fn edit_lines(text: &str, prefixes: &[&str], edit: impl Fn(&str) -> Option<String>) -> String {
    text.lines()
        .filter_map(|l| {
            if prefixes.iter().any(|p| l.starts_with(p)) {
                edit(l)
            } else {
                Some(l.to_string())
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_shipped_files_are_the_builtin_tables() {
    for (text, name) in [(SRS_FILE, "srs"), (SRS_PLUS_FILE, "srs+")] {
        let file = KickTable::parse(text).unwrap();
        let builtin = KickTable::named(name).unwrap();
        assert_eq!(file.to_text(), builtin.to_text(), "{name}");
        assert_eq!(file.name(), "custom");
    }
}

/// TSD: the T fills the slot pointing down (clearing the two bottom rows); under the roof it
/// can only get there by turning.
#[test]
fn t_spin_double() {
    let b: Board = "\
        ##........\n\
        #...######\n\
        ##.#######\n"
        .parse()
        .unwrap();
    let tsd = cells(&[(1, 1), (2, 1), (3, 1), (2, 0)]);
    let srs = KickTable::parse(SRS_FILE).unwrap();
    assert!(reachable(&b, 3, Piece::T, &srs).contains(&tsd));
    assert!(reachable(&b, 3, Piece::T, &KickTable::parse(SRS_PLUS_FILE).unwrap()).contains(&tsd));
    // Without T turns (the JLSTZ lines dropped) the slot is out of reach.
    let no_t = KickTable::parse(&edit_lines(SRS_FILE, &["JLSTZ"], |_| None)).unwrap();
    assert!(!reachable(&b, 3, Piece::T, &no_t).contains(&tsd));
    // The placement clears two rows.
    let full = b.to_zone(3).unwrap() | tsd;
    assert_eq!(tetris::board::zone_clear(full, 3).1, 2);
}

/// TST: a T-spin triple, T upright pointing right into the notch, under a roof. It is only
/// reached through the 5th test of an SRS turn, (+-1, -2): delete the last test of every
/// J L S T Z quarter turn and it is gone.
#[test]
fn t_spin_triple_needs_the_fifth_test() {
    let b: Board = "\
        ##........\n\
        #.........\n\
        #.########\n\
        #..#######\n\
        #.########\n"
        .parse()
        .unwrap();
    let tst = cells(&[(1, 0), (1, 1), (1, 2), (2, 1)]);
    for text in [SRS_FILE, SRS_PLUS_FILE] {
        let k = KickTable::parse(text).unwrap();
        assert!(reachable(&b, 5, Piece::T, &k).contains(&tst));
        let quarter = ["JLSTZ N E", "JLSTZ E N", "JLSTZ E S", "JLSTZ S E", "JLSTZ S W"];
        let quarter = [&quarter[..], &["JLSTZ W S", "JLSTZ W N", "JLSTZ N W"]].concat();
        let four_tests = edit_lines(text, &quarter, |l| {
            let cut = l.rfind('(').unwrap_or(l.len());
            Some(l[..cut].trim_end().to_string())
        });
        let k4 = KickTable::parse(&four_tests).unwrap();
        assert_eq!(k4.list(Piece::T, tetris::Facing::N, tetris::Facing::E).tests().len(), 4);
        assert!(!reachable(&b, 5, Piece::T, &k4).contains(&tst));
    }
    let full = b.to_zone(5).unwrap() | tst;
    assert_eq!(tetris::board::zone_clear(full, 5).1, 3);
}

/// A 180-degree spin: the T ends pointing down under a roof over its stem; only SRS+'s 180
/// turns get it there (the SRS file, or the SRS+ file without its 180 lines, do not).
#[test]
fn spin_180_needs_the_180_lines() {
    let b: Board = "\
        ###..#..##\n\
        ####....##\n\
        #####.####\n"
        .parse()
        .unwrap();
    let spin = cells(&[(4, 1), (5, 1), (6, 1), (5, 0)]);
    let plus = KickTable::parse(SRS_PLUS_FILE).unwrap();
    assert!(reachable(&b, 3, Piece::T, &plus).contains(&spin));
    let halves = ["JLSTZ N S", "JLSTZ S N", "JLSTZ E W", "JLSTZ W E", "I N S", "I S N"];
    let halves = [&halves[..], &["I E W", "I W E"]].concat();
    let no180 = KickTable::parse(&edit_lines(SRS_PLUS_FILE, &halves, |_| None)).unwrap();
    assert!(!reachable(&b, 3, Piece::T, &no180).contains(&spin));
    assert!(!reachable(&b, 3, Piece::T, &KickTable::parse(SRS_FILE).unwrap()).contains(&spin));
}
