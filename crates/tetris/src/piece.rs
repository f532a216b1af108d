//! The seven tetrominoes, their four facings and their SRS "true rotation" shapes.
//!
//! Coordinates are x from the left, y from the bottom (y up). J L S T Z live in a 3x3 box,
//! I in a 4x4 box and O in a 2x2 box; a clockwise turn maps box cell `(x, y)` to
//! `(y, n - 1 - x)` for a box of side `n` (a turn about the box centre). A piece position is
//! the box's bottom-left corner `(bx, by)`; kicks translate that corner.
//!
//! The engines mostly use the *normalized anchor*: the bottom-left corner of the cells'
//! bounding box. Two facings that cover the same cells (S north and S south, say) share the
//! same normalized anchor, which is how duplicate placements are merged.

use std::fmt;
use std::str::FromStr;

/// A tetromino.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// The straight piece.
    I = 0,
    /// The square.
    O = 1,
    /// T.
    T = 2,
    /// S.
    S = 3,
    /// Z.
    Z = 4,
    /// J.
    J = 5,
    /// L.
    L = 6,
}

impl Piece {
    /// All seven, in index order.
    pub const ALL: [Piece; 7] =
        [Piece::I, Piece::O, Piece::T, Piece::S, Piece::Z, Piece::J, Piece::L];

    /// The index `0..7` (I O T S Z J L).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece of index `i` (`i < 7`).
    #[inline]
    pub const fn from_index(i: usize) -> Piece {
        Piece::ALL[i]
    }

    /// The letter.
    pub const fn letter(self) -> char {
        ['I', 'O', 'T', 'S', 'Z', 'J', 'L'][self as usize]
    }

    /// The piece for a letter (case-insensitive).
    pub fn from_letter(c: char) -> Option<Piece> {
        Some(match c.to_ascii_uppercase() {
            'I' => Piece::I,
            'O' => Piece::O,
            'T' => Piece::T,
            'S' => Piece::S,
            'Z' => Piece::Z,
            'J' => Piece::J,
            'L' => Piece::L,
            _ => return None,
        })
    }

    /// Side of the rotation box (4 for I, 2 for O, 3 for the others).
    pub const fn box_size(self) -> i8 {
        match self {
            Piece::I => 4,
            Piece::O => 2,
            _ => 3,
        }
    }

    /// The four cells in box coordinates for `facing`.
    #[inline]
    pub const fn cells(self, facing: Facing) -> [(i8, i8); 4] {
        SHAPES[self as usize][facing as usize]
    }

    /// The four cells relative to the normalized anchor (bounding-box bottom-left corner).
    #[inline]
    pub const fn norm_cells(self, facing: Facing) -> [(i8, i8); 4] {
        NORM[self as usize][facing as usize]
    }

    /// The box-relative position of the normalized anchor: `(min x, min y)` of the cells.
    #[inline]
    pub const fn norm_offset(self, facing: Facing) -> (i8, i8) {
        MIN[self as usize][facing as usize]
    }

    /// Width and height of the cells' bounding box.
    #[inline]
    pub const fn extent(self, facing: Facing) -> (i8, i8) {
        EXTENT[self as usize][facing as usize]
    }

    /// The facing with the smallest index that covers the same cells as `facing` (N for both
    /// N and S of I/S/Z, E for E and W; N for every O facing).
    #[inline]
    pub const fn canonical(self, facing: Facing) -> Facing {
        CANON[self as usize][facing as usize]
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Parses a queue of letters such as `IOTLJSZ` (spaces and commas ignored).
pub fn parse_queue(s: &str) -> Result<Vec<Piece>, String> {
    let mut out = Vec::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_whitespace() || c == ',' {
            continue;
        }
        match Piece::from_letter(c) {
            Some(p) => out.push(p),
            None => {
                return Err(format!(
                    "unknown piece letter {c:?} at position {} (use I O T S Z J L)",
                    i + 1
                ))
            }
        }
    }
    Ok(out)
}

/// Formats a queue as letters.
pub fn queue_string(q: &[Piece]) -> String {
    q.iter().map(|p| p.letter()).collect()
}

/// A facing: N is spawn, clockwise N -> E -> S -> W.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Facing {
    /// Spawn orientation.
    N = 0,
    /// One clockwise turn.
    E = 1,
    /// Two turns.
    S = 2,
    /// One counter-clockwise turn.
    W = 3,
}

impl Facing {
    /// All four, N E S W.
    pub const ALL: [Facing; 4] = [Facing::N, Facing::E, Facing::S, Facing::W];

    /// The facing of index `i & 3`.
    #[inline]
    pub const fn from_index(i: usize) -> Facing {
        Facing::ALL[i & 3]
    }

    /// The facing after `quarter_turns` clockwise turns.
    #[inline]
    pub const fn turned(self, quarter_turns: usize) -> Facing {
        Facing::from_index(self as usize + quarter_turns)
    }

    /// The letter N, E, S or W.
    pub const fn letter(self) -> char {
        ['N', 'E', 'S', 'W'][self as usize]
    }

    /// The facing for a letter N/E/S/W (also 0/R/2/L), case-insensitive.
    pub fn from_letter(c: char) -> Option<Facing> {
        Some(match c.to_ascii_uppercase() {
            'N' | '0' => Facing::N,
            'E' | 'R' => Facing::E,
            'S' | '2' => Facing::S,
            'W' | 'L' => Facing::W,
            _ => return None,
        })
    }
}

impl fmt::Display for Facing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Facing {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut it = s.chars();
        match (it.next(), it.next()) {
            (Some(c), None) => {
                Facing::from_letter(c).ok_or_else(|| format!("unknown facing {s:?}"))
            }
            _ => Err(format!("unknown facing {s:?}")),
        }
    }
}

/// North shapes in box coordinates (y up).
const NORTH: [[(i8, i8); 4]; 7] = [
    [(0, 2), (1, 2), (2, 2), (3, 2)], // I: .... / #### / .... / ....
    [(0, 0), (1, 0), (0, 1), (1, 1)], // O
    [(1, 2), (0, 1), (1, 1), (2, 1)], // T: .#. / ### / ...
    [(1, 2), (2, 2), (0, 1), (1, 1)], // S: .## / ##. / ...
    [(0, 2), (1, 2), (1, 1), (2, 1)], // Z: ##. / .## / ...
    [(0, 2), (0, 1), (1, 1), (2, 1)], // J: #.. / ### / ...
    [(2, 2), (0, 1), (1, 1), (2, 1)], // L: ..# / ### / ...
];

const fn box_of(p: usize) -> i8 {
    match p {
        0 => 4,
        1 => 2,
        _ => 3,
    }
}

const fn build_shapes() -> [[[(i8, i8); 4]; 4]; 7] {
    let mut out = [[[(0i8, 0i8); 4]; 4]; 7];
    let mut p = 0;
    while p < 7 {
        let n = box_of(p);
        let mut cells = NORTH[p];
        let mut f = 0;
        while f < 4 {
            out[p][f] = cells;
            let mut c = 0;
            while c < 4 {
                let (x, y) = cells[c];
                cells[c] = (y, n - 1 - x);
                c += 1;
            }
            f += 1;
        }
        p += 1;
    }
    out
}

/// Every shape: `SHAPES[piece][facing]` in box coordinates.
pub const SHAPES: [[[(i8, i8); 4]; 4]; 7] = build_shapes();

const fn build_min() -> [[(i8, i8); 4]; 7] {
    let mut out = [[(0i8, 0i8); 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut f = 0;
        while f < 4 {
            let cells = SHAPES[p][f];
            let (mut mx, mut my) = (i8::MAX, i8::MAX);
            let mut c = 0;
            while c < 4 {
                if cells[c].0 < mx {
                    mx = cells[c].0;
                }
                if cells[c].1 < my {
                    my = cells[c].1;
                }
                c += 1;
            }
            out[p][f] = (mx, my);
            f += 1;
        }
        p += 1;
    }
    out
}

const MIN: [[(i8, i8); 4]; 7] = build_min();

/// Cells per piece and facing.
type CellTable = [[[(i8, i8); 4]; 4]; 7];
/// A pair per piece and facing.
type PairTable = [[(i8, i8); 4]; 7];

const fn build_norm() -> (CellTable, PairTable) {
    let mut norm = [[[(0i8, 0i8); 4]; 4]; 7];
    let mut ext = [[(0i8, 0i8); 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut f = 0;
        while f < 4 {
            let (mx, my) = MIN[p][f];
            let (mut w, mut h) = (0, 0);
            let mut c = 0;
            while c < 4 {
                let (x, y) = SHAPES[p][f][c];
                norm[p][f][c] = (x - mx, y - my);
                if x - mx + 1 > w {
                    w = x - mx + 1;
                }
                if y - my + 1 > h {
                    h = y - my + 1;
                }
                c += 1;
            }
            ext[p][f] = (w, h);
            f += 1;
        }
        p += 1;
    }
    (norm, ext)
}

const NORM_EXT: (CellTable, PairTable) = build_norm();
const NORM: [[[(i8, i8); 4]; 4]; 7] = NORM_EXT.0;
const EXTENT: [[(i8, i8); 4]; 7] = NORM_EXT.1;

/// The 10-bit-row mask of the normalized cells (bit `y * 10 + x`).
const fn norm_mask(p: usize, f: usize) -> u64 {
    let mut m = 0u64;
    let mut c = 0;
    while c < 4 {
        let (x, y) = NORM[p][f][c];
        m |= 1u64 << (y as u32 * 10 + x as u32);
        c += 1;
    }
    m
}

const fn build_masks() -> [[u64; 4]; 7] {
    let mut out = [[0u64; 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut f = 0;
        while f < 4 {
            out[p][f] = norm_mask(p, f);
            f += 1;
        }
        p += 1;
    }
    out
}

/// `MASK10[piece][facing]`: the cells at normalized anchor (0, 0) in 10-bit rows.
pub const MASK10: [[u64; 4]; 7] = build_masks();

const fn same_cells(a: [(i8, i8); 4], b: [(i8, i8); 4]) -> bool {
    let mut i = 0;
    while i < 4 {
        let mut found = false;
        let mut j = 0;
        while j < 4 {
            if a[i].0 == b[j].0 && a[i].1 == b[j].1 {
                found = true;
            }
            j += 1;
        }
        if !found {
            return false;
        }
        i += 1;
    }
    true
}

const fn build_canon() -> [[Facing; 4]; 7] {
    let mut out = [[Facing::N; 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut f = 0;
        while f < 4 {
            let mut g = 0;
            while g <= f {
                if same_cells(NORM[p][g], NORM[p][f]) {
                    out[p][f] = Facing::from_index(g);
                    break;
                }
                g += 1;
            }
            f += 1;
        }
        p += 1;
    }
    out
}

const CANON: [[Facing; 4]; 7] = build_canon();

// The tables check themselves at compile time: every shape has four distinct cells inside its
// box, and the symmetric pieces merge exactly the facings they should.
const _: () = {
    let mut p = 0;
    while p < 7 {
        let mut f = 0;
        while f < 4 {
            let mut c = 0;
            while c < 4 {
                let (x, y) = SHAPES[p][f][c];
                assert!(x >= 0 && y >= 0 && x < box_of(p) && y < box_of(p));
                c += 1;
            }
            assert!(MASK10[p][f].count_ones() == 4);
            f += 1;
        }
        p += 1;
    }
    assert!(CANON[0][2] as u8 == 0 && CANON[0][3] as u8 == 1); // I
    assert!(CANON[1][3] as u8 == 0); // O
    assert!(CANON[3][2] as u8 == 0 && CANON[4][3] as u8 == 1); // S Z
    assert!(CANON[2][2] as u8 == 2 && CANON[5][3] as u8 == 3); // T J keep all four
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for p in Piece::ALL {
            assert_eq!(Piece::from_letter(p.letter()), Some(p));
            assert_eq!(Piece::from_index(p.index()), p);
        }
        assert_eq!(parse_queue("iot lj,SZ").unwrap().len(), 7);
        assert!(parse_queue("IOX").unwrap_err().contains("position 3"));
    }

    #[test]
    fn t_east_points_right_and_i_east_is_column_2() {
        let mut t = Piece::T.cells(Facing::E).to_vec();
        t.sort();
        assert_eq!(t, [(1, 0), (1, 1), (1, 2), (2, 1)]);
        let i: Vec<_> = Piece::I.cells(Facing::E).iter().map(|c| c.0).collect();
        assert_eq!(i, [2, 2, 2, 2]);
        assert_eq!(Piece::I.norm_offset(Facing::N), (0, 2));
        assert_eq!(Piece::I.extent(Facing::E), (1, 4));
    }
}
