//! A tiny seeded mutator for the stable smoke test: bit flips, byte changes, inserts and
//! deletes, a chunk duplicated, two inputs spliced, tokens of the formats dropped in. The same
//! seed gives the same inputs on every machine, so a failure names a reproducible input.

use bits::Rng;

/// Pieces of the parsed formats worth inserting whole.
const TOKENS: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b"\"",
    b"\\",
    b"\\u0000",
    b"null",
    b"true",
    b"false",
    b"0",
    b"-1",
    b"1e999",
    b"4294967296",
    b"18446744073709551615",
    b"18446744073709551616",
    b"-9223372036854775809",
    b"0.5",
    b"\n",
    b"\r\n",
    b" ",
    b"\t",
    b"/",
    b".",
    b"#",
    b"x",
    b"H",
    b"*",
    b"<",
    b">",
    b"^",
    b"v",
    b"=",
    b"over",
    b"next=",
    b"level=",
    b"drops=",
    b"score=",
    b"v115@",
    b"BGF2",
    b"\"moves\":",
    b"\"seed\":",
    b"\"setup\":",
    b"\"record\":",
    b"\"from\":",
    b"\"search\":",
    b"\"frames\":true",
    b"\"index\":",
    b"\xc3\xa9",
    b"\xe2\x80\xa8",
    b"\xff",
];

/// Interesting single bytes.
const BYTES: &[u8] = b"\0\x01\x7f\x80\xff 09.#-+\"\\{}[]/\n";

/// Mutates `input` into `out` with one to four stacked edits; `pool` gives splice partners.
pub fn mutate(rng: &mut Rng, input: &[u8], pool: &[Vec<u8>], out: &mut Vec<u8>) {
    out.clear();
    out.extend_from_slice(input);
    let edits = 1 + rng.below(4);
    for _ in 0..edits {
        edit(rng, pool, out);
    }
}

fn pick(rng: &mut Rng, n: usize) -> usize {
    rng.below(n.max(1) as u64) as usize
}

fn edit(rng: &mut Rng, pool: &[Vec<u8>], out: &mut Vec<u8>) {
    let n = out.len();
    match rng.below(9) {
        // Flip one bit.
        0 if n > 0 => {
            let i = pick(rng, n);
            out[i] ^= 1 << rng.below(8);
        }
        // Set a byte to an interesting value.
        1 if n > 0 => {
            let i = pick(rng, n);
            out[i] = BYTES[pick(rng, BYTES.len())];
        }
        // Insert a random byte.
        2 => {
            let i = pick(rng, n + 1);
            out.insert(i, rng.below(256) as u8);
        }
        // Delete a range.
        3 if n > 0 => {
            let i = pick(rng, n);
            let len = 1 + pick(rng, (n - i).min(16));
            out.drain(i..i + len);
        }
        // Duplicate a chunk in place.
        4 if n > 0 => {
            let i = pick(rng, n);
            let len = 1 + pick(rng, (n - i).min(64));
            let chunk = out[i..i + len].to_vec();
            let at = pick(rng, n + 1);
            out.splice(at..at, chunk);
        }
        // Splice: this input's head, another's tail.
        5 if !pool.is_empty() => {
            let other = &pool[pick(rng, pool.len())];
            let cut = pick(rng, n + 1);
            let from = pick(rng, other.len() + 1);
            out.truncate(cut);
            out.extend_from_slice(&other[from..]);
        }
        // Insert a token.
        6 => {
            let t = TOKENS[pick(rng, TOKENS.len())];
            let at = pick(rng, n + 1);
            out.splice(at..at, t.iter().copied());
        }
        // Replace a run of digits by another number.
        7 => {
            let digits: Vec<usize> = (0..n).filter(|&i| out[i].is_ascii_digit()).collect();
            if let Some(&start) = digits.get(pick(rng, digits.len())) {
                let end = (start..n).find(|&i| !out[i].is_ascii_digit()).unwrap_or(n);
                let num: &[u8] = match rng.below(6) {
                    0 => b"0",
                    1 => b"1",
                    2 => b"255",
                    3 => b"65536",
                    4 => b"4294967295",
                    _ => b"99999999999999999999",
                };
                out.splice(start..end, num.iter().copied());
            }
        }
        // Truncate.
        _ => {
            let cut = pick(rng, n + 1);
            out.truncate(cut);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_inputs() {
        let pool = vec![b"{\"seed\": 12}".to_vec(), b"12\n21\n".to_vec()];
        let run = || {
            let mut rng = Rng::new(7);
            let mut out = Vec::new();
            (0..200)
                .map(|i| {
                    mutate(&mut rng, &pool[i % 2], &pool, &mut out);
                    out.clone()
                })
                .collect::<Vec<_>>()
        };
        let a = run();
        assert_eq!(a, run());
        assert!(a.iter().filter(|m| !pool.contains(m)).count() > 150);
    }
}
