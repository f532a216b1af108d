//! Queue patterns in solution-finder's syntax, the sets of queues `tetris percent` counts.
//!
//! A pattern is a comma-separated list of elements, each dealing one or more pieces:
//!
//! | element | deals |
//! |---|---|
//! | `T` | the piece T (any of `IOTSZJL`; letters may also follow each other: `TSZ` is `T,S,Z`) |
//! | `*` | any one piece |
//! | `[IJL]` | one piece of the set |
//! | `[^IJL]` | one piece not in the set |
//! | `*p4`, `[IJL]p2` | 4 (2) distinct pieces of the set, in any order (a bag's draw) |
//! | `*!`, `[TIO]!` | every piece of the set once, in any order (`[TIO]p3`) |
//!
//! The queues of a pattern are every sequence its elements deal, in order: `*p7,*p4` is the
//! 4,233,600 queues of an opener's first 11 pieces. Several patterns may be joined by `;` (or
//! newlines); each is counted on its own and the counts add up, so a queue two patterns deal is
//! counted twice. Spaces are ignored. A pattern deals at most [`MAX_PIECES`] pieces. Anything
//! else is refused with an error that says where (the character's column, counted from 1).
//!
//! A pattern is read as a deterministic automaton: the state is the element and the pieces it
//! has dealt so far, so every distinct queue is one path and the queues can be walked as a tree.

use crate::piece::Piece;

/// One element: `count` distinct pieces from the `set` mask (bit = piece index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Element {
    /// The pieces it may deal.
    pub set: u8,
    /// How many it deals (distinct, in any order).
    pub count: u8,
}

/// One pattern: elements dealt in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The elements.
    pub elements: Vec<Element>,
}

/// A place in a pattern: the element and the pieces it has dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Cursor {
    element: u16,
    used: u8,
    dealt: u8,
}

/// `a! / (a - b)!`: ordered draws of `b` from `a`.
fn perms(a: u32, b: u32) -> u64 {
    if b > a {
        return 0;
    }
    (a - b + 1..=a).map(u64::from).product()
}

impl Pattern {
    /// Pieces per queue.
    pub fn len(&self) -> usize {
        self.elements.iter().map(|e| usize::from(e.count)).sum()
    }

    /// Whether the pattern deals nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The pattern cut to its first `n` pieces (the last element kept in part).
    pub fn truncated(&self, n: usize) -> Pattern {
        let mut left = n;
        let mut elements = Vec::new();
        for e in &self.elements {
            if left == 0 {
                break;
            }
            let c = usize::from(e.count).min(left);
            elements.push(Element { set: e.set, count: c as u8 });
            left -= c;
        }
        Pattern { elements }
    }

    /// The start.
    pub fn start(&self) -> Cursor {
        Cursor::default()
    }

    /// The pieces that may come next (a mask; 0 at the end).
    #[inline]
    pub fn next(&self, c: Cursor) -> u8 {
        match self.elements.get(usize::from(c.element)) {
            Some(e) => e.set & !c.used,
            None => 0,
        }
    }

    /// The cursor after dealing `p` (which must be in [`Pattern::next`]).
    #[inline]
    pub fn step(&self, c: Cursor, p: Piece) -> Cursor {
        let e = self.elements[usize::from(c.element)];
        let dealt = c.dealt + 1;
        if dealt == e.count {
            Cursor { element: c.element + 1, used: 0, dealt: 0 }
        } else {
            Cursor { element: c.element, used: c.used | 1 << p.index(), dealt }
        }
    }

    /// How many queue endings there are from `c`.
    pub fn completions(&self, c: Cursor) -> u64 {
        let mut total = 1u64;
        for (i, e) in self.elements.iter().enumerate().skip(usize::from(c.element)) {
            let (avail, need) = if i == usize::from(c.element) {
                ((e.set & !c.used).count_ones(), u32::from(e.count - c.dealt))
            } else {
                (e.set.count_ones(), u32::from(e.count))
            };
            total = total.saturating_mul(perms(avail, need));
        }
        total
    }

    /// How many queues the pattern deals.
    pub fn queues(&self) -> u64 {
        self.completions(self.start())
    }

    /// Every piece that some queue has at position `i`, per position.
    pub fn pieces_at(&self) -> Vec<u8> {
        self.elements
            .iter()
            .flat_map(|e| std::iter::repeat_n(e.set, usize::from(e.count)))
            .collect()
    }

    /// Every queue, in piece order (tests and small patterns).
    pub fn for_each(&self, mut visit: impl FnMut(&[Piece])) {
        self.walk_from(self.start(), &mut Vec::new(), &mut |q| {
            visit(q);
            true
        });
    }

    /// Every queue that starts with `buf` (the pieces dealt to reach `c`), in piece order,
    /// until `visit` returns `false`; returns whether it never did. `buf` is restored.
    pub fn walk_from(
        &self,
        c: Cursor,
        buf: &mut Vec<Piece>,
        visit: &mut impl FnMut(&[Piece]) -> bool,
    ) -> bool {
        let next = self.next(c);
        if next == 0 {
            return visit(buf);
        }
        for piece in Piece::ALL {
            if next >> piece.index() & 1 == 1 {
                buf.push(piece);
                let go = self.walk_from(self.step(c, piece), buf, visit);
                buf.pop();
                if !go {
                    return false;
                }
            }
        }
        true
    }
}

impl std::fmt::Display for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, e) in self.elements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            let n = e.set.count_ones() as u8;
            if n == 1 {
                f.write_str(
                    &Piece::from_index(e.set.trailing_zeros() as usize).letter().to_string(),
                )?;
                continue;
            }
            if e.set == 0x7F {
                f.write_str("*")?;
            } else {
                f.write_str("[")?;
                for p in Piece::ALL {
                    if e.set >> p.index() & 1 == 1 {
                        write!(f, "{}", p.letter())?;
                    }
                }
                f.write_str("]")?;
            }
            if e.count == n {
                f.write_str("!")?;
            } else if e.count > 1 {
                write!(f, "p{}", e.count)?;
            }
        }
        Ok(())
    }
}

/// The most pieces one pattern may deal (a queue's length): far past any perfect clear's
/// queue, and small enough that walking a queue piece by piece stays shallow.
pub const MAX_PIECES: usize = 1000;

/// Parses one or more patterns (joined by `;` or newlines). Errors say what is wrong and at
/// which column (from 1) of the text.
pub fn parse_patterns(text: &str) -> Result<Vec<Pattern>, String> {
    let mut out = Vec::new();
    let mut start = 0;
    for part in text.split([';', '\n']) {
        if !part.trim().is_empty() {
            out.push(parse_one(part, start)?);
        }
        start += part.chars().count() + 1;
    }
    if out.is_empty() {
        return Err("empty pattern: give pieces such as *p7 or I,*p6".into());
    }
    Ok(out)
}

/// One pattern; `base` is its first character's offset in the whole text.
fn parse_one(text: &str, base: usize) -> Result<Pattern, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut elements = Vec::new();
    let at = |i: usize| base + i + 1;
    let skip = |i: &mut usize| {
        while *i < chars.len() && chars[*i].is_whitespace() {
            *i += 1;
        }
    };
    let mut need_element = true;
    // Pieces dealt so far; past MAX_PIECES the pattern is refused where it goes past.
    let mut pieces = 0usize;
    let too_long =
        |i: usize| format!("column {}: a pattern deals at most {MAX_PIECES} pieces", base + i + 1);
    loop {
        skip(&mut i);
        if i >= chars.len() {
            if need_element && !elements.is_empty() {
                return Err(format!("column {}: the pattern ends after a comma", at(i)));
            }
            break;
        }
        let c = chars[i];
        if c == ',' {
            if need_element {
                return Err(format!("column {}: a comma with no element before it", at(i)));
            }
            need_element = true;
            i += 1;
            continue;
        }
        let start = i;
        let set: u8 = if c == '*' {
            i += 1;
            0x7F
        } else if c == '[' {
            i += 1;
            let negate = chars.get(i) == Some(&'^');
            if negate {
                i += 1;
            }
            let mut s = 0u8;
            loop {
                skip(&mut i);
                match chars.get(i) {
                    None => return Err(format!("column {}: '[' is never closed", at(start))),
                    Some(']') => {
                        i += 1;
                        break;
                    }
                    Some(&ch) => match Piece::from_letter(ch) {
                        Some(p) => {
                            if s >> p.index() & 1 == 1 {
                                return Err(format!(
                                    "column {}: {} appears twice in the set",
                                    at(i),
                                    p.letter()
                                ));
                            }
                            s |= 1 << p.index();
                            i += 1;
                        }
                        None => {
                            return Err(format!(
                                "column {}: {ch:?} is not a piece (use I O T S Z J L)",
                                at(i)
                            ))
                        }
                    },
                }
            }
            let s = if negate { !s & 0x7F } else { s };
            if s == 0 {
                return Err(format!("column {}: the set has no piece", at(start)));
            }
            s
        } else if let Some(p) = Piece::from_letter(c) {
            // A run of letters: each is its own element.
            let mut letter = Some(p);
            while let Some(p) = letter {
                pieces += 1;
                if pieces > MAX_PIECES {
                    return Err(too_long(i));
                }
                elements.push(Element { set: 1 << p.index(), count: 1 });
                i += 1;
                letter = chars.get(i).and_then(|&ch| Piece::from_letter(ch));
            }
            need_element = false;
            skip(&mut i);
            if let Some(&ch) = chars.get(i) {
                if ch != ',' {
                    return Err(format!(
                        "column {}: {ch:?} after a piece letter (a p or ! goes after * or [...])",
                        at(i)
                    ));
                }
            }
            continue;
        } else {
            return Err(format!(
                "column {}: {c:?} does not start an element (a piece letter, * or [...])",
                at(i)
            ));
        };
        // The count: p<digits>, !, or one piece.
        skip(&mut i);
        let n = set.count_ones() as u8;
        let count = match chars.get(i) {
            Some('!') => {
                i += 1;
                n
            }
            Some('p') | Some('P') => {
                let pstart = i;
                i += 1;
                let dstart = i;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                let digits: String = chars[dstart..i].iter().collect();
                let k: u32 = digits.parse().map_err(|_| {
                    format!("column {}: p must be followed by a number", at(pstart))
                })?;
                if k == 0 || k > u32::from(n) {
                    return Err(format!(
                        "column {}: p{k} draws from a set of {n} piece{}: use p1 to p{n}",
                        at(pstart),
                        if n == 1 { "" } else { "s" }
                    ));
                }
                k as u8
            }
            _ => 1,
        };
        pieces += usize::from(count);
        if pieces > MAX_PIECES {
            return Err(too_long(start));
        }
        elements.push(Element { set, count });
        need_element = false;
        skip(&mut i);
        if let Some(&ch) = chars.get(i) {
            if ch != ',' {
                return Err(format!(
                    "column {}: {ch:?} where a comma or the end was expected",
                    at(i)
                ));
            }
        }
    }
    Ok(Pattern { elements })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn one(s: &str) -> Pattern {
        let mut v = parse_patterns(s).unwrap();
        assert_eq!(v.len(), 1);
        v.remove(0)
    }

    #[test]
    fn counts_of_common_patterns() {
        assert_eq!(one("*p7").queues(), 5_040);
        assert_eq!(one("*p7,*p4").queues(), 4_233_600);
        assert_eq!(one("*").queues(), 7);
        assert_eq!(one("I,*p6").queues(), 5_040);
        assert_eq!(one("[IJL]p2").queues(), 6);
        assert_eq!(one("[TIO]!").queues(), 6);
        assert_eq!(one("*!").queues(), 5_040);
        assert_eq!(one("[^IJL]").queues(), 4);
        assert_eq!(one("TSZ").queues(), 1);
        assert_eq!(one(" T , S,Z ").len(), 3);
        assert_eq!(one("*,*p7,*p3").queues(), 7 * 1_058_400);
        let many = parse_patterns("*p6;*p5,*\n*p4,*p2").unwrap();
        assert_eq!(many.iter().map(Pattern::queues).sum::<u64>(), 5_040 + 17_640 + 35_280);
    }

    #[test]
    fn bad_patterns_say_where() {
        for (s, col) in [
            ("*p8", 2),
            ("[IJX]", 4),
            ("I,,T", 3),
            ("I,", 3),
            ("[IJ", 1),
            ("*p", 2),
            ("Tp2", 2),
            ("[II]", 3),
            ("*p3x", 4),
            ("#", 1),
            ("T;Q", 3),
            ("[^IOTSZJL]", 1),
        ] {
            let e = parse_patterns(s).unwrap_err();
            assert!(e.starts_with(&format!("column {col}:")), "{s}: {e}");
        }
        assert!(parse_patterns(" ; ").is_err());
    }

    #[test]
    fn a_pattern_deals_at_most_max_pieces() {
        assert_eq!(one(&"I".repeat(MAX_PIECES)).len(), MAX_PIECES);
        assert_eq!(one(&["*p5"; MAX_PIECES / 5].join(",")).len(), MAX_PIECES);
        // One piece more: refused at the letter, or at the element, that goes past.
        let e = parse_patterns(&"I".repeat(MAX_PIECES + 1)).unwrap_err();
        assert_eq!(e, format!("column {}: a pattern deals at most 1000 pieces", MAX_PIECES + 1));
        let e = parse_patterns(&format!("{},T", ["*p5"; MAX_PIECES / 5].join(","))).unwrap_err();
        assert!(e.starts_with(&format!("column {}:", 4 * MAX_PIECES / 5 + 1)), "{e}");
        let e = parse_patterns(&format!("T,{}", ["*p5"; MAX_PIECES / 5].join(","))).unwrap_err();
        assert!(e.starts_with(&format!("column {}:", 2 + 4 * (MAX_PIECES / 5 - 1) + 1)), "{e}");
        // Each pattern of several has its own count.
        let two = format!("{};{}", "I".repeat(MAX_PIECES), "O".repeat(MAX_PIECES));
        assert_eq!(parse_patterns(&two).unwrap().len(), 2);
    }

    #[test]
    fn display_round_trips() {
        for s in ["*p7,*p4", "I,*p6", "[IJL]p2,T,[^SZ]", "[TIO]!,*"] {
            let p = one(s);
            assert_eq!(one(&p.to_string()), p, "{s} -> {p}");
        }
    }

    /// The walk deals exactly the sequences a brute force over all sequences accepts, each once,
    /// and `completions` counts them from every cursor.
    #[test]
    fn walk_matches_brute_force() {
        for s in ["*p3,*p2", "[IJL]p2,*,[^T]", "[TIO]!,[SZ]", "T,*p2,[OI]p2"] {
            let p = one(s);
            let mut seen = HashSet::new();
            p.for_each(|q| assert!(seen.insert(q.to_vec())));
            assert_eq!(seen.len() as u64, p.queues(), "{s}");
            let n = p.len();
            let mut brute = HashSet::new();
            for mut code in 0..7usize.pow(n as u32) {
                let mut q = Vec::new();
                for _ in 0..n {
                    q.push(Piece::from_index(code % 7));
                    code /= 7;
                }
                q.reverse();
                let mut at = 0;
                let ok = p.elements.iter().all(|e| {
                    let part = &q[at..at + usize::from(e.count)];
                    at += usize::from(e.count);
                    let mut m = 0u8;
                    part.iter().all(|x| {
                        let b = 1 << x.index();
                        let fresh = m & b == 0 && e.set & b != 0;
                        m |= b;
                        fresh
                    })
                });
                if ok {
                    brute.insert(q);
                }
            }
            assert_eq!(brute, seen, "{s}");
            let t = p.truncated(n - 1);
            let mut cut = HashSet::new();
            t.for_each(|q| {
                cut.insert(q.to_vec());
            });
            let want: HashSet<_> = seen.iter().map(|q| q[..n - 1].to_vec()).collect();
            assert_eq!(cut, want, "{s} cut");
        }
    }
}
