//! The packed state: board size, directions, and [`Board`] (occupancy bitboard + ring-buffer
//! body + fruit), with its text form.
//!
//! # Implementation notes
//! ```text
//!  cell index = y * W + x        occupancy: Cells, 16 x u64 = 128 bytes, bit i = cell i
//!  +----+----+----+             body ring: [u16; W*H], slot `head` holds the head cell,
//!  |  0 |  1 |  2 |  ...        the `len - 1` slots before it (mod W*H) hold the rest of the
//!  +----+----+----+             body back to the tail:
//!  |  W |W+1 |    |                 ... tail ... neck head | free free ...
//!  +----+----+----+             a move writes one slot and clears one bit: O(1), no shifting.
//! ```
//! The occupancy bitboard is what searches copy as their visited set and what collision checks
//! test; the ring is what finds the tail in O(1) when it moves on.
//!
//! # Text form
//! One line per row, top row first, one character per cell: `.` empty, `*` the fruit, `H` the
//! head, and for every other body segment an arrow to the next segment towards the head
//! (`^`, `v`, `<`, `>`). The tail is the one segment no arrow points at.
//!
//! ```
//! use snake::Board;
//! let text = "....\n.>>H\n..*.\n....";
//! let board: Board = text.parse().unwrap();
//! assert_eq!(board.len(), 3);
//! assert_eq!(board.to_string(), text);
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::cells::{Cells, MAX_SIDE};

/// A board size, each side `1..=32`, at least 2 cells. Read from JSON (`{"w": 10, "h": 10}`)
/// through [`Size::new`]'s check, so no record can carry a size outside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(try_from = "SizeFields")]
pub struct Size {
    w: u8,
    h: u8,
}

/// [`Size`]'s fields as they are written, before the check.
#[derive(Deserialize, schemars::JsonSchema)]
struct SizeFields {
    w: u8,
    h: u8,
}

impl TryFrom<SizeFields> for Size {
    type Error = String;
    fn try_from(f: SizeFields) -> Result<Size, String> {
        Size::new(usize::from(f.w), usize::from(f.h))
    }
}

impl Size {
    /// A `w x h` size, or a message saying which bound broke.
    pub fn new(w: usize, h: usize) -> Result<Size, String> {
        if !(1..=MAX_SIDE).contains(&w) || !(1..=MAX_SIDE).contains(&h) {
            return Err(format!("{w}x{h}: each side must be 1..={MAX_SIDE}"));
        }
        if w * h < 2 {
            return Err(format!("{w}x{h}: a board needs at least 2 cells"));
        }
        Ok(Size { w: w as u8, h: h as u8 })
    }

    /// Width.
    #[inline]
    pub fn width(self) -> usize {
        usize::from(self.w)
    }

    /// Height.
    #[inline]
    pub fn height(self) -> usize {
        usize::from(self.h)
    }

    /// Number of cells.
    #[inline]
    pub fn cells(self) -> usize {
        self.width() * self.height()
    }

    /// The cell at column `x`, row `y`.
    #[inline]
    pub fn cell(self, x: usize, y: usize) -> usize {
        debug_assert!(x < self.width() && y < self.height());
        y * self.width() + x
    }

    /// Column and row of `cell`.
    #[inline]
    pub fn xy(self, cell: usize) -> (usize, usize) {
        (cell % self.width(), cell / self.width())
    }

    /// The neighbour of `cell` in direction `d`, or `None` past a wall.
    #[inline]
    pub fn step(self, cell: usize, d: Dir) -> Option<usize> {
        let (x, y) = self.xy(cell);
        match d {
            Dir::Up => (y > 0).then(|| cell - self.width()),
            Dir::Down => (y + 1 < self.height()).then(|| cell + self.width()),
            Dir::Left => (x > 0).then(|| cell - 1),
            Dir::Right => (x + 1 < self.width()).then(|| cell + 1),
        }
    }

    /// Manhattan distance between two cells.
    #[inline]
    pub fn manhattan(self, a: usize, b: usize) -> usize {
        let (ax, ay) = self.xy(a);
        let (bx, by) = self.xy(b);
        ax.abs_diff(bx) + ay.abs_diff(by)
    }

    /// The direction from `a` to its neighbour `b`, if they are neighbours.
    pub fn dir_between(self, a: usize, b: usize) -> Option<Dir> {
        Dir::ALL.into_iter().find(|&d| self.step(a, d) == Some(b))
    }

    /// All cells of the board.
    pub fn live(self) -> Cells {
        Cells::first(self.cells())
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.w, self.h)
    }
}

impl FromStr for Size {
    type Err = String;
    /// `WxH`, as in `10x10`.
    fn from_str(s: &str) -> Result<Size, String> {
        let (w, h) =
            s.split_once(['x', 'X']).ok_or_else(|| format!("{s:?}: a size is WxH, like 10x10"))?;
        let parse = |t: &str| {
            t.trim().parse::<usize>().map_err(|_| format!("{s:?}: a size is WxH, like 10x10"))
        };
        Size::new(parse(w)?, parse(h)?)
    }
}

/// A direction of movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dir {
    /// Towards row 0.
    Up = 0,
    /// Towards higher columns.
    Right = 1,
    /// Towards higher rows.
    Down = 2,
    /// Towards column 0.
    Left = 3,
}

impl Dir {
    /// The four directions, in the order searches try them.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Right, Dir::Down, Dir::Left];

    /// The opposite direction.
    #[inline]
    pub fn reverse(self) -> Dir {
        Dir::ALL[(self as usize + 2) & 3]
    }

    /// The record letter: `U`, `R`, `D`, `L`.
    pub fn letter(self) -> char {
        ['U', 'R', 'D', 'L'][self as usize]
    }

    /// The direction of a record letter.
    pub fn from_letter(c: char) -> Option<Dir> {
        match c {
            'U' | 'u' => Some(Dir::Up),
            'R' | 'r' => Some(Dir::Right),
            'D' | 'd' => Some(Dir::Down),
            'L' | 'l' => Some(Dir::Left),
            _ => None,
        }
    }

    fn arrow(self) -> char {
        ['^', '>', 'v', '<'][self as usize]
    }

    fn from_arrow(c: char) -> Option<Dir> {
        match c {
            '^' => Some(Dir::Up),
            '>' => Some(Dir::Right),
            'v' => Some(Dir::Down),
            '<' => Some(Dir::Left),
            _ => None,
        }
    }
}

impl std::fmt::Display for Dir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl std::str::FromStr for Dir {
    type Err = String;

    /// A record letter, either case.
    fn from_str(s: &str) -> Result<Dir, String> {
        let mut cs = s.chars();
        match (cs.next().and_then(Dir::from_letter), cs.next()) {
            (Some(d), None) => Ok(d),
            _ => Err("is not one of U, R, D, L".into()),
        }
    }
}

/// Why a move ended the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Death {
    /// The head left the board.
    Wall,
    /// The head ran into the body.
    Body,
}

/// What one move did to the board (before any new fruit is placed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moved {
    /// The snake moved; the tail moved on.
    Plain,
    /// The snake ate the fruit and grew; the board has no fruit until one is placed.
    Ate,
    /// The move was fatal; the board is unchanged.
    Died(Death),
}

/// A snake and at most one fruit on a board. Two boards are equal when their sizes, bodies
/// (head to tail) and fruits are: where the body sits in the ring does not matter.
#[derive(Clone)]
pub struct Board {
    size: Size,
    occ: Cells,
    ring: Box<[u16]>,
    head: u16,
    len: u16,
    fruit: Option<u16>,
}

/// A defect in a board's text form, or in a board built from parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// The size is out of range.
    Size(String),
    /// A row has a different width from the first row (1-based line).
    Ragged {
        /// Line number, 1-based.
        line: usize,
    },
    /// A character that is not `.`, `*`, `H` or an arrow.
    BadChar {
        /// Line number, 1-based.
        line: usize,
        /// Column, 1-based.
        col: usize,
        /// The character.
        ch: char,
    },
    /// There is no head, or more than one.
    Heads(usize),
    /// There is more than one fruit.
    Fruits(usize),
    /// A segment's arrow points off the board or at an empty cell or the fruit.
    DanglingArrow {
        /// Line number, 1-based.
        line: usize,
        /// Column, 1-based.
        col: usize,
    },
    /// The segments do not form one chain from a tail to the head.
    NotAChain,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Size(m) => write!(f, "{m}"),
            BoardError::Ragged { line } => write!(f, "line {line}: row width differs from line 1"),
            BoardError::BadChar { line, col, ch } => {
                write!(f, "line {line}, column {col}: {ch:?} is not one of . * H ^ v < >")
            }
            BoardError::Heads(n) => write!(f, "a board needs exactly one head H, found {n}"),
            BoardError::Fruits(n) => write!(f, "at most one fruit *, found {n}"),
            BoardError::DanglingArrow { line, col } => write!(
                f,
                "line {line}, column {col}: the arrow does not point at another body segment"
            ),
            BoardError::NotAChain => {
                write!(f, "the body segments do not form one chain from a tail to the head")
            }
        }
    }
}

impl std::error::Error for BoardError {}

impl Board {
    /// A board holding the snake `body` (head first, each segment a neighbour of the one
    /// before, no repeats) and an optional fruit on an empty cell.
    pub fn from_body(
        size: Size,
        body: &[usize],
        fruit: Option<usize>,
    ) -> Result<Board, BoardError> {
        let n = size.cells();
        if body.is_empty() || body.len() > n {
            return Err(BoardError::NotAChain);
        }
        let mut occ = Cells::EMPTY;
        for (i, &c) in body.iter().enumerate() {
            if c >= n || occ.contains(c) {
                return Err(BoardError::NotAChain);
            }
            if i > 0 && size.manhattan(c, body[i - 1]) != 1 {
                return Err(BoardError::NotAChain);
            }
            occ.insert(c);
        }
        if let Some(f) = fruit {
            if f >= n || occ.contains(f) {
                return Err(BoardError::Fruits(2));
            }
        }
        let mut ring = vec![0u16; n].into_boxed_slice();
        // Tail in slot 0, head in slot len - 1.
        for (slot, &c) in body.iter().rev().enumerate() {
            ring[slot] = c as u16;
        }
        let board = Board {
            size,
            occ,
            ring,
            head: (body.len() - 1) as u16,
            len: body.len() as u16,
            fruit: fruit.map(|f| f as u16),
        };
        board.debug_check();
        Ok(board)
    }

    #[inline]
    fn debug_check(&self) {
        debug_assert_eq!(self.occ.len(), usize::from(self.len));
        debug_assert!(self.occ.complement(&Cells::EMPTY).is_empty());
        debug_assert!((self.occ - self.size.live()).is_empty(), "bits past the board");
    }

    /// The board size.
    #[inline]
    pub fn size(&self) -> Size {
        self.size
    }

    /// The cells the snake occupies.
    #[inline]
    pub fn occupied(&self) -> &Cells {
        &self.occ
    }

    /// The empty cells (the fruit counts as empty).
    pub fn empty(&self) -> Cells {
        self.occ.complement(&self.size.live())
    }

    /// Length of the snake.
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Always `false`: a snake has at least its head.
    #[inline]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The segment `i` cells behind the head (0 = head, `len - 1` = tail).
    #[inline]
    pub fn segment(&self, i: usize) -> usize {
        debug_assert!(i < self.len());
        let cap = self.ring.len();
        usize::from(self.ring[(usize::from(self.head) + cap - i) % cap])
    }

    /// The head cell.
    #[inline]
    pub fn head(&self) -> usize {
        usize::from(self.ring[usize::from(self.head)])
    }

    /// The tail cell.
    #[inline]
    pub fn tail(&self) -> usize {
        self.segment(self.len() - 1)
    }

    /// The neck (the segment behind the head), if the snake is longer than 1.
    #[inline]
    pub fn neck(&self) -> Option<usize> {
        (self.len > 1).then(|| self.segment(1))
    }

    /// The body from head to tail.
    pub fn body(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        (0..self.len()).map(|i| self.segment(i))
    }

    /// The fruit cell, if a fruit is on the board.
    #[inline]
    pub fn fruit(&self) -> Option<usize> {
        self.fruit.map(usize::from)
    }

    /// Places (or removes) the fruit. The cell must be empty.
    pub fn set_fruit(&mut self, fruit: Option<usize>) {
        debug_assert!(fruit.is_none_or(|f| f < self.size.cells() && !self.occ.contains(f)));
        self.fruit = fruit.map(|f| f as u16);
    }

    /// Whether moving the head onto `cell` now would be fatal by collision with the body:
    /// the tail cell is free unless the snake eats on this move (the tail then stays).
    #[inline]
    pub fn blocked(&self, cell: usize) -> bool {
        self.occ.contains(cell)
            && !(cell == self.tail() && self.len > 1 && self.fruit() != Some(cell))
    }

    /// Whether `d` would reverse the head onto its neck.
    #[inline]
    pub fn is_reversal(&self, d: Dir) -> bool {
        self.neck().is_some() && self.size.step(self.head(), d) == self.neck()
    }

    /// Applies one move, assuming it is not a reversal (the rules of the spec): into a wall or
    /// the body is fatal and changes nothing; onto the fruit grows the snake by one (the fruit
    /// is removed, the caller places the next); otherwise the tail moves on, so the cell it
    /// leaves may be entered.
    #[inline]
    pub fn apply(&mut self, d: Dir) -> Moved {
        debug_assert!(!self.is_reversal(d));
        let Some(next) = self.size.step(self.head(), d) else {
            return Moved::Died(Death::Wall);
        };
        let eat = self.fruit() == Some(next);
        if !eat {
            let tail = self.tail();
            if self.occ.contains(next) && next != tail {
                return Moved::Died(Death::Body);
            }
            self.occ.remove(tail);
            self.len -= 1;
        } else if self.occ.contains(next) {
            return Moved::Died(Death::Body);
        }
        let cap = self.ring.len();
        self.head = ((usize::from(self.head) + 1) % cap) as u16;
        self.ring[usize::from(self.head)] = next as u16;
        self.len += 1;
        self.occ.insert(next);
        if eat {
            self.fruit = None;
        }
        self.debug_check();
        if eat {
            Moved::Ate
        } else {
            Moved::Plain
        }
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size
            && self.occ == other.occ
            && self.fruit == other.fruit
            && self.len == other.len
            && self.body().eq(other.body())
    }
}

impl Eq for Board {}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board(\n{self}\n)")
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (w, h) = (self.size.width(), self.size.height());
        let mut grid = vec!['.'; w * h];
        if let Some(fr) = self.fruit() {
            grid[fr] = '*';
        }
        grid[self.head()] = 'H';
        for i in 1..self.len() {
            let (c, toward) = (self.segment(i), self.segment(i - 1));
            let d = self.size.dir_between(c, toward).expect("body segments are neighbours");
            grid[c] = d.arrow();
        }
        for y in 0..h {
            if y > 0 {
                writeln!(f)?;
            }
            let row: String = grid[y * w..(y + 1) * w].iter().collect();
            f.write_str(&row)?;
        }
        Ok(())
    }
}

impl FromStr for Board {
    type Err = BoardError;
    fn from_str(s: &str) -> Result<Board, BoardError> {
        let rows: Vec<Vec<char>> = s
            .lines()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty())
            .map(|l| l.chars().collect())
            .collect();
        let h = rows.len();
        let w = rows.first().map_or(0, Vec::len);
        let size = Size::new(w, h).map_err(BoardError::Size)?;
        let mut heads = Vec::new();
        let mut fruits = Vec::new();
        let mut arrows: Vec<Option<Dir>> = vec![None; w * h];
        let mut segs = 0;
        for (y, row) in rows.iter().enumerate() {
            if row.len() != w {
                return Err(BoardError::Ragged { line: y + 1 });
            }
            for (x, &ch) in row.iter().enumerate() {
                let c = size.cell(x, y);
                match ch {
                    '.' => {}
                    '*' => fruits.push(c),
                    'H' => heads.push(c),
                    _ => match Dir::from_arrow(ch) {
                        Some(d) => {
                            arrows[c] = Some(d);
                            segs += 1;
                        }
                        None => return Err(BoardError::BadChar { line: y + 1, col: x + 1, ch }),
                    },
                }
            }
        }
        if heads.len() != 1 {
            return Err(BoardError::Heads(heads.len()));
        }
        if fruits.len() > 1 {
            return Err(BoardError::Fruits(fruits.len()));
        }
        let head = heads[0];
        // Every arrow must point at another segment or the head; count the pointed-at cells.
        let mut pointed = vec![0u8; w * h];
        for c in 0..w * h {
            if let Some(d) = arrows[c] {
                let (x, y) = size.xy(c);
                match size.step(c, d) {
                    Some(t) if t == head || arrows[t].is_some() => pointed[t] += 1,
                    _ => return Err(BoardError::DanglingArrow { line: y + 1, col: x + 1 }),
                }
            }
        }
        // The tail is the segment nobody points at (or the head itself for a lone head).
        let tails: Vec<usize> =
            (0..w * h).filter(|&c| arrows[c].is_some() && pointed[c] == 0).collect();
        let tail = match (segs, tails.as_slice()) {
            (0, []) => head,
            (_, [t]) => *t,
            _ => return Err(BoardError::NotAChain),
        };
        let mut chain = vec![tail];
        let mut c = tail;
        while let Some(d) = arrows[c] {
            c = size.step(c, d).ok_or(BoardError::NotAChain)?;
            chain.push(c);
            if chain.len() > segs + 1 {
                return Err(BoardError::NotAChain);
            }
        }
        if c != head || chain.len() != segs + 1 {
            return Err(BoardError::NotAChain);
        }
        chain.reverse();
        Board::from_body(size, &chain, fruits.first().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_rejects_defects() {
        for text in ["H*", "....\n.>>H\n..*.\n....", ">>v.\n^.v.\n^.>H\n*...", "H.\n.."] {
            let b: Board = text.parse().unwrap();
            assert_eq!(b.to_string(), text);
        }
        let b: Board = ">>v.\n^.v.\n^.>H\n*...".parse().unwrap();
        assert_eq!(b.len(), 8);
        assert_eq!(b.head(), b.size().cell(3, 2));
        assert_eq!(b.tail(), b.size().cell(0, 2));
        assert_eq!("..\n.".parse::<Board>(), Err(BoardError::Ragged { line: 2 }));
        assert_eq!("H#".parse::<Board>(), Err(BoardError::BadChar { line: 1, col: 2, ch: '#' }));
        assert_eq!("..\n..".parse::<Board>(), Err(BoardError::Heads(0)));
        assert_eq!("H*\n**".parse::<Board>(), Err(BoardError::Fruits(3)));
        assert_eq!("H>\n..".parse::<Board>(), Err(BoardError::DanglingArrow { line: 1, col: 2 }));
        assert_eq!(">H\n>^".parse::<Board>(), Err(BoardError::NotAChain));
    }

    #[test]
    fn tail_cell_may_be_entered_unless_eating() {
        // A 2x2 loop: the head moves into the cell the tail leaves.
        let mut b: Board = ">v\n^H".parse().unwrap();
        assert_eq!(b.len(), 4);
        let tail = b.tail();
        assert!(!b.blocked(tail));
        assert!(b.is_reversal(Dir::Up));
        assert_eq!(b.apply(Dir::Left), Moved::Plain);
        assert_eq!((b.head(), b.len()), (tail, 4));
        // Into a segment that is not the tail: fatal, nothing changes.
        let mut b: Board = "v<<\n>H.".parse().unwrap();
        let before = b.clone();
        assert_eq!(b.apply(Dir::Up), Moved::Died(Death::Body));
        assert_eq!(b, before);
        assert_eq!(b.apply(Dir::Down), Moved::Died(Death::Wall));
    }
}
