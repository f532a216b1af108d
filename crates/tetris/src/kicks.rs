//! Kick tables as data.
//!
//! A rotation from facing `a` to facing `b` tries its tests in order and takes the first
//! offset `(dx, dy)` (y up) at which the turned piece does not collide; the offset moves the
//! piece's rotation box. A rotation with no tests is not allowed.
//!
//! # Text form (`--kicks FILE`)
//! One rotation per line: the pieces it applies to, the facing before and after, then the
//! tests as `(dx,dy)` pairs with y **up**. `#` starts a comment; blank lines are ignored.
//! Facings are `N E S W` (also `0 R 2 L`). A rotation that is not listed is not allowed, so a
//! table without 180 lines has no 180 turns. A later line for the same piece and rotation
//! replaces an earlier one.
//!
//! ```text
//! # JLSTZ clockwise from spawn, SRS
//! JLSTZ N E (0,0) (-1,0) (-1,+1) (0,-2) (-1,-2)
//! I     N S (0,0) (0,+1)
//! ```
//!
//! Built-in tables: `none` (quarter turns with only `(0,0)`), `srs`, `srs+` (Tetr.io SRS+,
//! with 180 turns) and `srs-tetrio` (SRS with Tetr.io's 180 kicks, I 180 only `(0,0)`). None
//! of them gives O a rotation: O covers the same cells in every facing, so O rotations are
//! skipped unless a user table lists an O kick other than `(0,0)` first.

use std::fmt;

use crate::piece::{Facing, Piece};

/// Most tests one rotation may have.
pub const MAX_TESTS: usize = 8;

/// The tests of one rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct KickList {
    len: u8,
    tests: [(i8, i8); MAX_TESTS],
}

impl KickList {
    /// The offsets, in the order they are tried.
    #[inline]
    pub fn tests(&self) -> &[(i8, i8)] {
        &self.tests[..usize::from(self.len)]
    }

    /// Whether the rotation is allowed at all.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A full kick table: for each piece, each rotation `from -> to`, the list of tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KickTable {
    name: String,
    lists: [[[KickList; 4]; 4]; 7],
}

/// An error in a kick table text, with its 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KickParseError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for KickParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for KickParseError {}

const JLSTZ_SRS: &str = "
JLSTZ N E (0,0) (-1,0) (-1,+1) (0,-2) (-1,-2)
JLSTZ E N (0,0) (+1,0) (+1,-1) (0,+2) (+1,+2)
JLSTZ E S (0,0) (+1,0) (+1,-1) (0,+2) (+1,+2)
JLSTZ S E (0,0) (-1,0) (-1,+1) (0,-2) (-1,-2)
JLSTZ S W (0,0) (+1,0) (+1,+1) (0,-2) (+1,-2)
JLSTZ W S (0,0) (-1,0) (-1,-1) (0,+2) (-1,+2)
JLSTZ W N (0,0) (-1,0) (-1,-1) (0,+2) (-1,+2)
JLSTZ N W (0,0) (+1,0) (+1,+1) (0,-2) (+1,-2)
";

const I_SRS: &str = "
I N E (0,0) (-2,0) (+1,0) (-2,-1) (+1,+2)
I E N (0,0) (+2,0) (-1,0) (+2,+1) (-1,-2)
I E S (0,0) (-1,0) (+2,0) (-1,+2) (+2,-1)
I S E (0,0) (+1,0) (-2,0) (+1,-2) (-2,+1)
I S W (0,0) (+2,0) (-1,0) (+2,+1) (-1,-2)
I W S (0,0) (-2,0) (+1,0) (-2,-1) (+1,+2)
I W N (0,0) (+1,0) (-2,0) (+1,-2) (-2,+1)
I N W (0,0) (-1,0) (+2,0) (-1,+2) (+2,-1)
";

const I_SRS_PLUS: &str = "
I N E (0,0) (+1,0) (-2,0) (-2,-1) (+1,+2)
I E N (0,0) (-1,0) (+2,0) (-1,-2) (+2,+1)
I E S (0,0) (-1,0) (+2,0) (-1,+2) (+2,-1)
I S E (0,0) (-2,0) (+1,0) (-2,+1) (+1,-2)
I S W (0,0) (+2,0) (-1,0) (+2,+1) (-1,-2)
I W S (0,0) (+1,0) (-2,0) (+1,+2) (-2,-1)
I W N (0,0) (+1,0) (-2,0) (+1,-2) (-2,+1)
I N W (0,0) (-1,0) (+2,0) (+2,-1) (-1,+2)
";

const JLSTZ_180: &str = "
JLSTZ N S (0,0) (0,+1) (+1,+1) (-1,+1) (+1,0) (-1,0)
JLSTZ E W (0,0) (+1,0) (+1,+2) (+1,+1) (0,+2) (0,+1)
JLSTZ S N (0,0) (0,-1) (-1,-1) (+1,-1) (-1,0) (+1,0)
JLSTZ W E (0,0) (-1,0) (-1,+2) (-1,+1) (0,+2) (0,+1)
";

const I_180_PLUS: &str = "
I N S (0,0) (0,+1)
I E W (0,0) (+1,0)
I S N (0,0) (0,-1)
I W E (0,0) (-1,0)
";

const I_180_TETRIO: &str = "
I N S (0,0)
I E W (0,0)
I S N (0,0)
I W E (0,0)
";

const NONE: &str = "
IOTSZJL N E (0,0)
IOTSZJL E S (0,0)
IOTSZJL S W (0,0)
IOTSZJL W N (0,0)
IOTSZJL N W (0,0)
IOTSZJL W S (0,0)
IOTSZJL S E (0,0)
IOTSZJL E N (0,0)
";

impl KickTable {
    /// The names of the built-in tables.
    pub const NAMES: [&'static str; 4] = ["none", "srs", "srs+", "srs-tetrio"];

    /// The text of a built-in table, in the documented text form.
    pub fn builtin_text(name: &str) -> Option<String> {
        Some(match name {
            "none" => NONE.to_string(),
            "srs" => format!("{JLSTZ_SRS}{I_SRS}"),
            "srs+" => format!("{JLSTZ_SRS}{I_SRS_PLUS}{JLSTZ_180}{I_180_PLUS}"),
            "srs-tetrio" => format!("{JLSTZ_SRS}{I_SRS}{JLSTZ_180}{I_180_TETRIO}"),
            _ => return None,
        })
    }

    /// A built-in table by name (`none`, `srs`, `srs+`, `srs-tetrio`).
    pub fn named(name: &str) -> Option<KickTable> {
        let text = Self::builtin_text(name)?;
        let mut t = KickTable::parse(&text).ok()?;
        t.name = name.to_string();
        Some(t)
    }

    /// SRS+ with 180 turns (the benchmark's table).
    pub fn srs_plus() -> KickTable {
        Self::named("srs+").unwrap_or_else(|| KickTable::empty("srs+"))
    }

    /// Classic SRS (no 180 turns).
    pub fn srs() -> KickTable {
        Self::named("srs").unwrap_or_else(|| KickTable::empty("srs"))
    }

    fn empty(name: &str) -> KickTable {
        KickTable { name: name.to_string(), lists: [[[KickList::default(); 4]; 4]; 7] }
    }

    /// The table's name (`custom` for a parsed text).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Parses the text form (see the [module docs](self)).
    pub fn parse(text: &str) -> Result<KickTable, KickParseError> {
        let mut t = KickTable::empty("custom");
        for (ln, raw) in text.lines().enumerate() {
            let line = ln + 1;
            let err = |message: String| KickParseError { line, message };
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let mut words = content.split_whitespace();
            let pieces_word = words.next().unwrap_or("");
            let mut pieces = Vec::new();
            for c in pieces_word.chars() {
                pieces.push(Piece::from_letter(c).ok_or_else(|| {
                    err(format!("unknown piece letter {c:?} (use I O T S Z J L)"))
                })?);
            }
            let from: Facing = words
                .next()
                .ok_or_else(|| err("missing the facing before the turn".into()))?
                .parse()
                .map_err(err)?;
            let to: Facing = words
                .next()
                .ok_or_else(|| err("missing the facing after the turn".into()))?
                .parse()
                .map_err(err)?;
            if from == to {
                return Err(err(format!("{from} -> {to} is not a rotation")));
            }
            let rest: String = words.collect::<Vec<_>>().join("");
            let mut list = KickList::default();
            let mut s = rest.as_str();
            while !s.is_empty() {
                let open =
                    s.strip_prefix('(').ok_or_else(|| err(format!("expected '(' at {s:?}")))?;
                let close = open.find(')').ok_or_else(|| err("missing ')'".into()))?;
                let inner = &open[..close];
                let (a, b) = inner
                    .split_once(',')
                    .ok_or_else(|| err(format!("expected (dx,dy), got ({inner})")))?;
                let num = |v: &str| -> Result<i8, KickParseError> {
                    let v = v.trim().trim_start_matches('+');
                    v.parse::<i8>()
                        .ok()
                        .filter(|n| (-4..=4).contains(n))
                        .ok_or_else(|| err(format!("offset {v:?} is not an integer in -4..=4")))
                };
                if usize::from(list.len) == MAX_TESTS {
                    return Err(err(format!("more than {MAX_TESTS} tests")));
                }
                list.tests[usize::from(list.len)] = (num(a)?, num(b)?);
                list.len += 1;
                s = &open[close + 1..];
            }
            if list.is_empty() {
                return Err(err("a rotation needs at least one test such as (0,0)".into()));
            }
            for p in pieces {
                t.lists[p.index()][from as usize][to as usize] = list;
            }
        }
        Ok(t)
    }

    /// The tests of the turn `from -> to` for `piece` (empty: not allowed).
    #[inline]
    pub fn list(&self, piece: Piece, from: Facing, to: Facing) -> &KickList {
        &self.lists[piece.index()][from as usize][to as usize]
    }

    /// Whether O rotations can change anything: some O turn exists whose first test is not
    /// `(0,0)` (an O turned in place covers the same cells, so `(0,0)` always succeeds first).
    pub fn o_rotations_matter(&self) -> bool {
        self.lists[Piece::O.index()]
            .iter()
            .flatten()
            .any(|l| l.tests().first().is_some_and(|&t| t != (0, 0)))
    }

    /// The table in the text form (parses back to an equal table, name aside).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for p in Piece::ALL {
            for from in Facing::ALL {
                for to in Facing::ALL {
                    let l = self.list(p, from, to);
                    if l.is_empty() {
                        continue;
                    }
                    out.push_str(&format!("{} {} {}", p.letter(), from, to));
                    for (dx, dy) in l.tests() {
                        out.push_str(&format!(" ({dx:+},{dy:+})"));
                    }
                    out.push('\n');
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_parse_and_round_trip() {
        for name in KickTable::NAMES {
            let t = KickTable::named(name).unwrap();
            let back = KickTable::parse(&t.to_text()).unwrap();
            assert_eq!(back.lists, t.lists, "{name}");
            assert!(!t.o_rotations_matter());
        }
        let plus = KickTable::srs_plus();
        assert_eq!(plus.list(Piece::T, Facing::N, Facing::S).tests().len(), 6);
        assert_eq!(plus.list(Piece::I, Facing::N, Facing::E).tests()[1], (1, 0));
        assert!(KickTable::srs().list(Piece::T, Facing::N, Facing::S).is_empty());
        let tetrio = KickTable::named("srs-tetrio").unwrap();
        assert_eq!(tetrio.list(Piece::I, Facing::E, Facing::W).tests(), &[(0, 0)]);
    }

    #[test]
    fn parse_errors_name_the_line() {
        let e = KickTable::parse("JLSTZ N E (0,0)\nX N E (0,0)").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(KickTable::parse("T N N (0,0)").unwrap_err().message.contains("not a rotation"));
        assert!(KickTable::parse("T N E (0,9)").is_err());
        assert!(KickTable::parse("T N E").is_err());
        assert!(KickTable::parse("T N E (0,0) (1 0)").is_err());
        let t = KickTable::parse("# only T\nT N E (0,0) # trailing\n").unwrap();
        assert!(t.list(Piece::J, Facing::N, Facing::E).is_empty());
    }
}
