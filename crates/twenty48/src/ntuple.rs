//! An n-tuple network: the value of an afterstate learned by temporal-difference learning.
//!
//! # Implementation notes
//!
//! ```text
//!   default shape (Yeh et al.; Szubert & Jaskowski's 6-tuples), cells 4 * row + col:
//!
//!    tuple 0        tuple 1        tuple 2        tuple 3
//!   # # # #        . . . .        # # # .        . . . .
//!   # # . .        # # # #        # # # .        # # # .
//!   . . . .        # # . .        . . . .        # # # .
//!   . . . .        . . . .        . . . .        . . . .
//!
//!   index of a k-tuple = its cells' nibbles, lowest cell first:
//!       PEXT(board, nibble mask of the cells)  ->  0 .. 16^k
//!   value(b) = sum over the 8 symmetries s of b, sum over tuples t: W_t[index_t(s)]
//! ```
//!
//! - One table of `16^k` `f32` weights per tuple (64 MiB for a 6-tuple, 256 MiB for the default
//!   network). A value is 8 x 4 = 32 scattered reads; the network, not the move generator,
//!   sets the speed of training and of the search over it.
//! - The eight symmetric boards (the dihedral group of the square) come from two bit tricks and
//!   the board's transpose: `flip_rows` reverses the four 16-bit rows, `flip_cols` reverses the
//!   nibbles inside each row, and each of the four boards `b, flip_cols(b), flip_rows(b),
//!   flip_rows(flip_cols(b))` is taken with its transpose.
//! - A tuple's cells are kept sorted, so one PEXT with the tuple's nibble mask is its index.
//! - [`NTuple::value_reference`] and [`NTuple::touched_reference`] are the slow twins: a 4x4
//!   array, the symmetries as explicit coordinate maps applied to each tuple's cell list, and
//!   an arithmetic index. The gate test checks the fast and slow paths agree.
//! - [`NTuple::update`] adds the same `delta` to each of the 32 weights read by
//!   [`NTuple::value`] (a weight read twice, on a symmetric board, gets it twice).
//!
//! Training ([`train_game`]) is TD(0) on afterstates (Szubert & Jaskowski 2014): play greedily
//! on `reward + V(afterstate)`, and move the previous afterstate's value towards the next
//! move's `reward + V(afterstate)` (towards 0 when the game ends). [`train_game_tc`] plays
//! the same loop with temporal coherence steps ([`NTuple::update_tc`], accumulators in
//! [`Coherence`]); [`NTuple::optimistic`] starts a network at a high value. The weight file
//! format is [`encode`] / [`decode`]; a TC run's accumulators go in a side file
//! ([`encode_coherence`]).

use std::fmt;
use std::str::FromStr;

use bits::Rng;

use crate::board::{Board, Dir};
use crate::game::{draw_spawn, Status};
use crate::multistage::{MultiStage, MAX_STAGES};
use crate::tables::OVERFLOW;

/// The most cells a tuple may have (a 6-tuple table is already 64 MiB of `f32`).
pub const MAX_TUPLE_CELLS: usize = 6;

/// The most tuples a network may have (a file that says more is refused before it is read).
pub const MAX_TUPLES: usize = 64;

/// The tuples of a network: each a sorted list of distinct cells `4 * row + col`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    tuples: Vec<Vec<u8>>,
}

/// Why a tuple shape is not acceptable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// No tuples at all.
    Empty,
    /// More tuples than [`MAX_TUPLES`].
    Count(usize),
    /// A tuple with no cells or more than [`MAX_TUPLE_CELLS`].
    Size {
        /// The tuple (0-based).
        tuple: usize,
        /// Its number of cells.
        cells: usize,
    },
    /// A cell outside `0..16`.
    Cell {
        /// The tuple (0-based).
        tuple: usize,
        /// The cell text.
        text: String,
    },
    /// A cell listed twice in one tuple.
    Repeated {
        /// The tuple (0-based).
        tuple: usize,
        /// The cell.
        cell: u8,
    },
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::Empty => write!(f, "the network has no tuples"),
            ShapeError::Count(n) => {
                write!(f, "{n} tuples (a network has 1 to {MAX_TUPLES})")
            }
            ShapeError::Size { tuple, cells } => {
                write!(f, "tuple {}: {cells} cells (a tuple has 1 to {MAX_TUPLE_CELLS})", tuple + 1)
            }
            ShapeError::Cell { tuple, text } => {
                write!(f, "tuple {}: {text:?} is not a cell 0..15", tuple + 1)
            }
            ShapeError::Repeated { tuple, cell } => {
                write!(f, "tuple {}: cell {cell} appears twice", tuple + 1)
            }
        }
    }
}

impl std::error::Error for ShapeError {}

impl Shape {
    /// The four 6-tuples of Yeh et al. (also used by Szubert & Jaskowski):
    /// `0,1,2,3,4,5 / 4,5,6,7,8,9 / 0,1,2,4,5,6 / 4,5,6,8,9,10`.
    pub fn default_6tuples() -> Shape {
        Shape::new(vec![
            vec![0, 1, 2, 3, 4, 5],
            vec![4, 5, 6, 7, 8, 9],
            vec![0, 1, 2, 4, 5, 6],
            vec![4, 5, 6, 8, 9, 10],
        ])
        .expect("the default shape is valid")
    }

    /// A shape from cell lists (each sorted here), checked.
    pub fn new(tuples: Vec<Vec<u8>>) -> Result<Shape, ShapeError> {
        if tuples.is_empty() {
            return Err(ShapeError::Empty);
        }
        if tuples.len() > MAX_TUPLES {
            return Err(ShapeError::Count(tuples.len()));
        }
        let mut out = Vec::with_capacity(tuples.len());
        for (t, mut cells) in tuples.into_iter().enumerate() {
            if cells.is_empty() || cells.len() > MAX_TUPLE_CELLS {
                return Err(ShapeError::Size { tuple: t, cells: cells.len() });
            }
            if let Some(&c) = cells.iter().find(|&&c| c >= 16) {
                return Err(ShapeError::Cell { tuple: t, text: c.to_string() });
            }
            cells.sort_unstable();
            if let Some(w) = cells.windows(2).find(|w| w[0] == w[1]) {
                return Err(ShapeError::Repeated { tuple: t, cell: w[0] });
            }
            out.push(cells);
        }
        Ok(Shape { tuples: out })
    }

    /// The tuples, each sorted.
    pub fn tuples(&self) -> &[Vec<u8>] {
        &self.tuples
    }

    /// The number of weights: the sum of `16^k` over the tuples.
    pub fn weights(&self) -> usize {
        self.tuples.iter().map(|t| 1usize << (4 * t.len())).sum()
    }
}

/// The text form: tuples separated by `/`, cells by `,`: `0,1,2,3,4,5/4,5,6,7,8,9`.
impl FromStr for Shape {
    type Err = ShapeError;

    fn from_str(s: &str) -> Result<Shape, ShapeError> {
        let mut tuples = Vec::new();
        for (t, part) in s.split('/').map(str::trim).filter(|p| !p.is_empty()).enumerate() {
            let mut cells = Vec::new();
            for text in part.split(',').map(str::trim) {
                match text.parse::<u8>() {
                    Ok(c) if c < 16 => cells.push(c),
                    _ => return Err(ShapeError::Cell { tuple: t, text: text.to_string() }),
                }
            }
            tuples.push(cells);
        }
        Shape::new(tuples)
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.tuples.iter().enumerate() {
            if i > 0 {
                write!(f, "/")?;
            }
            for (j, c) in t.iter().enumerate() {
                if j > 0 {
                    write!(f, ",")?;
                }
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// Reverses the four rows of a board (row r goes to row 3 - r): swap the row pairs by a
/// rotation, then the rows inside each pair.
#[inline(always)]
pub fn flip_rows(b: Board) -> Board {
    let x = b.0.rotate_left(32);
    Board(((x & 0x0000_FFFF_0000_FFFF) << 16) | ((x >> 16) & 0x0000_FFFF_0000_FFFF))
}

/// Reverses the cells inside every row (column c goes to column 3 - c).
#[inline(always)]
pub fn flip_cols(b: Board) -> Board {
    let x = b.0;
    let x = ((x & 0x0F0F_0F0F_0F0F_0F0F) << 4) | ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F);
    Board(((x & 0x00FF_00FF_00FF_00FF) << 8) | ((x >> 8) & 0x00FF_00FF_00FF_00FF))
}

/// The eight symmetric boards of `b` (the dihedral group of the square), `b` first.
#[inline(always)]
pub fn symmetries(b: Board) -> [Board; 8] {
    let h = flip_cols(b);
    let v = flip_rows(b);
    let hv = flip_rows(h);
    [b, b.transpose(), h, h.transpose(), v, v.transpose(), hv, hv.transpose()]
}

/// A map of board coordinates `(row, col) -> (row, col)`.
type CellMap = fn(usize, usize) -> (usize, usize);

/// The eight symmetries as coordinate maps: the reference's view.
const SYMMETRY_MAPS: [CellMap; 8] = [
    |r, c| (r, c),
    |r, c| (c, r),
    |r, c| (r, 3 - c),
    |r, c| (3 - r, c),
    |r, c| (3 - r, 3 - c),
    |r, c| (c, 3 - r),
    |r, c| (3 - c, r),
    |r, c| (3 - c, 3 - r),
];

/// What an n-tuple network of a [`Shape`] reads ([`ntuple::Features`]): on each of the eight
/// symmetric boards, each tuple's cells (a nibble mask, gathered by PEXT) index its table of
/// `16^k` weights; 8 x tuples reads a value.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuples {
    shape: Shape,
    masks: Vec<u64>,
    offsets: Vec<usize>,
}

impl Tuples {
    /// The reads of `shape`.
    pub fn new(shape: Shape) -> Tuples {
        let masks =
            shape.tuples.iter().map(|t| t.iter().fold(0u64, |m, &c| m | 0xF << (4 * c))).collect();
        let offsets = shape
            .tuples
            .iter()
            .scan(0, |acc, t| {
                let at = *acc;
                *acc += 1 << (4 * t.len());
                Some(at)
            })
            .collect();
        Tuples { shape, masks, offsets }
    }
}

impl ntuple::Features for Tuples {
    type State = Board;

    fn table_sizes(&self) -> Vec<usize> {
        self.shape.tuples.iter().map(|t| 1 << (4 * t.len())).collect()
    }

    fn reads_per_value(&self) -> usize {
        8 * self.masks.len()
    }

    /// Symmetry by symmetry ([`symmetries`]' order), tuple by tuple.
    #[inline(always)]
    fn for_each_read(&self, b: &Board, mut read: impl FnMut(usize)) {
        for s in symmetries(*b) {
            for (&m, &at) in self.masks.iter().zip(&self.offsets) {
                read(at + bits::pext_u64(s.0, m) as usize);
            }
        }
    }
}

/// An n-tuple network: a [`Shape`] and one table of `16^k` `f32` weights per tuple, kept and
/// stepped by the shared [`ntuple`] crate.
#[derive(Clone)]
pub struct NTuple {
    net: ntuple::Net<Tuples>,
}

impl fmt::Debug for NTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NTuple").field("shape", &self.shape().to_string()).finish()
    }
}

impl NTuple {
    /// A network of this shape with every weight 0.
    pub fn new(shape: Shape) -> NTuple {
        NTuple { net: ntuple::Net::new(Tuples::new(shape)) }
    }

    /// A network of this shape whose every state is worth `init` before any training: each
    /// weight is `init / (8 * tuples)` (the 8 symmetric boards times the tuples: the reads of
    /// one value). Optimistic initialisation (Guei, Chen & Wu 2022, "Optimistic temporal
    /// difference learning for 2048", IEEE Trans. Games; they start their 2048 networks at a
    /// value of the order of 320,000): training lowers the value of the states it visits, so
    /// states never seen look better than seen ones and greedy play is drawn to them, an
    /// exploration the spawns alone do not give. `init = 0` is [`NTuple::new`].
    pub fn optimistic(shape: Shape, init: f32) -> NTuple {
        NTuple { net: ntuple::Net::optimistic(Tuples::new(shape), init) }
    }

    /// The shape.
    pub fn shape(&self) -> &Shape {
        &self.net.features.shape
    }

    /// The weight table of tuple `t` (index = its cells' nibbles, lowest cell first).
    pub fn table(&self, t: usize) -> &[f32] {
        self.net.weights().table(t)
    }

    /// The weight table of tuple `t`, writable.
    pub fn table_mut(&mut self, t: usize) -> &mut [f32] {
        self.net.weights_mut().table_mut(t)
    }

    /// The network in the shared crate's terms (its reads and flat weights).
    pub fn net(&self) -> &ntuple::Net<Tuples> {
        &self.net
    }

    /// The value of a board (an afterstate): the sum, over the eight symmetric boards and the
    /// tuples, of the weight each tuple's cells select.
    #[inline]
    pub fn value(&self, b: Board) -> f32 {
        self.net.value_f32(&b)
    }

    /// Adds `delta` to each of the weights [`NTuple::value`] reads on `b`.
    #[inline]
    pub fn update(&mut self, b: Board, delta: f32) {
        self.net.update(&b, delta);
    }

    /// The temporal coherence step (Beal & Smith 1999, "Temporal coherence and prediction
    /// decay in TD learning", IJCAI; for 2048 Jaśkowski 2016, "Mastering 2048 with delayed
    /// temporal coherence learning, multi-stage weight promotion, redundant encoding and
    /// carousel shaping", IEEE Trans. Games) with TD error `err`: each weight `w` that
    /// [`NTuple::value`] reads on `b`, with its accumulators `E` (sum of the errors it has
    /// seen) and `A` (sum of their absolute values), becomes
    ///
    /// ```text
    ///   w += beta * (A == 0 ? 1 : |E| / A) * err;   E += err;   A += |err|
    /// ```
    ///
    /// so a weight whose errors keep one sign keeps a large step and one whose errors cancel
    /// (noise around its target) slows down by itself: no step schedule. A weight read twice
    /// on a symmetric board is updated twice, the second time with the accumulators the
    /// first left (as [`NTuple::update`] adds `delta` twice). `beta` is the step per weight
    /// at full coherence, the analogue of TD's `alpha`: `beta = 1 / (8 * tuples)` moves a
    /// value by its whole error on a first visit (Jaśkowski's `beta = 1`, stated per
    /// value). [`NTuple::update_tc_reference`] is the slow twin.
    #[inline]
    pub fn update_tc(&mut self, acc: &mut Coherence, b: Board, err: f32, beta: f32) {
        self.net.update_tc(&mut acc.acc, &b, err, beta);
    }

    /// The slow twin of [`NTuple::update_tc`]: the same per-weight rule over the pairs of
    /// [`NTuple::touched_reference`] (sorted, so a weight read twice is stepped twice in a
    /// row; no other weight's step reads it, so the order does not change a bit).
    pub fn update_tc_reference(&mut self, acc: &mut Coherence, b: Board, err: f32, beta: f32) {
        for (t, i) in self.touched_reference(b) {
            let [e, a] = acc.get(t, i);
            let rate = if a == 0.0 { 1.0 } else { e.abs() / a };
            self.table_mut(t)[i] += beta * rate * err;
            acc.acc.all_mut()[acc.offsets[t] + i] = [e + err, a + err.abs()];
        }
    }

    /// The `(tuple, index)` pairs [`NTuple::value`] reads on `b`, sorted (a pair read twice
    /// appears twice).
    pub fn touched(&self, b: Board) -> Vec<(usize, usize)> {
        let f = &self.net.features;
        let mut v: Vec<(usize, usize)> = symmetries(b)
            .into_iter()
            .flat_map(|s| {
                f.masks.iter().enumerate().map(move |(t, &m)| (t, bits::pext_u64(s.0, m) as usize))
            })
            .collect();
        v.sort_unstable();
        v
    }

    /// The slow twin of [`NTuple::touched`]: the board as a 4x4 array, each symmetry applied
    /// to each tuple's coordinate list, the index computed as `sum rank * 16^i`.
    pub fn touched_reference(&self, b: Board) -> Vec<(usize, usize)> {
        let grid = b.to_ranks();
        let mut v = Vec::new();
        for map in SYMMETRY_MAPS {
            for (t, cells) in self.shape().tuples.iter().enumerate() {
                let mut index = 0usize;
                let mut place = 1usize;
                for &cell in cells {
                    let (r, c) = map(usize::from(cell) / 4, usize::from(cell) % 4);
                    index += usize::from(grid[r][c]) * place;
                    place *= 16;
                }
                v.push((t, index));
            }
        }
        v.sort_unstable();
        v
    }

    /// The slow twin of [`NTuple::value`] (summed in `f64` over [`NTuple::touched_reference`]).
    pub fn value_reference(&self, b: Board) -> f64 {
        self.touched_reference(b).into_iter().map(|(t, i)| f64::from(self.table(t)[i])).sum()
    }

    /// FNV-1a over the weights' bytes (a quick fingerprint for tests and logs).
    pub fn fingerprint(&self) -> u64 {
        self.net.fingerprint()
    }
}

/// The temporal coherence accumulators of a network ([`NTuple::update_tc`]): per weight,
/// `E` (the sum of the TD errors it has been moved by) and `A` (the sum of their absolute
/// values), kept side by side (`[E, A]`) so one step touches one more cache line, not two.
/// Twice the network's memory (512 MiB for the default shape). They are training state, not
/// part of the value: a TC run continues exactly only from its weights *and* these
/// ([`encode_coherence`]).
#[derive(Clone)]
pub struct Coherence {
    acc: ntuple::Coherence,
    offsets: Vec<usize>,
}

impl fmt::Debug for Coherence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Coherence").field("tables", &self.offsets.len()).finish()
    }
}

impl Coherence {
    /// Zero accumulators for a network of `shape` (every weight starts at rate 1).
    pub fn new(shape: &Shape) -> Coherence {
        let offsets = Tuples::new(shape.clone()).offsets;
        Coherence { acc: ntuple::Coherence::new(shape.weights()), offsets }
    }

    /// `[E, A]` of weight `i` of tuple `t`.
    pub fn get(&self, t: usize, i: usize) -> [f32; 2] {
        self.acc.get(self.offsets[t] + i)
    }

    /// The number of weights covered.
    pub fn weights(&self) -> usize {
        self.acc.weights()
    }

    /// FNV-1a over the accumulators' bytes.
    pub fn fingerprint(&self) -> u64 {
        self.acc.fingerprint()
    }
}

/// The value of a board's tiles as the score that built them: `sum over tiles of rank r >= 1
/// of (r - 1) * 2^r` (a 2 counts 0, a 4 counts 4, an 8 counts 16, ...). A move's reward is
/// exactly the growth of this sum (a merge of two `2^r` adds `2^(r+1)`), so a search that
/// evaluates leaves by `merged_value(leaf) + V(leaf)` maximises the rewards collected along
/// the path plus `V(leaf)`, up to terms common to all the moves it compares (the root's sum,
/// and 4 per spawned 4, which all lines below a node share) — see [`NetEval`].
#[inline]
pub fn merged_value(b: Board) -> f32 {
    let mut x = b.0;
    let mut sum = 0u32;
    while x != 0 {
        let r = (x & 0xF) as u32;
        if r >= 2 {
            sum += (r - 1) << r;
        }
        x >>= 4;
    }
    sum as f32
}

/// The network as the search's evaluator: a leaf (an afterstate) is worth
/// [`merged_value`] + `V`, a dead end its [`merged_value`] alone (no future score), so the
/// expectimax maximises (rewards along the path + `V(leaf afterstate)`), the quantity the
/// network was trained to predict, rather than a heuristic's shape score.
#[derive(Clone, Copy, Debug)]
pub struct NetEval<'n>(pub &'n NTuple);

impl crate::search::Evaluator for NetEval<'_> {
    #[inline]
    fn eval(&self, b: Board) -> f32 {
        merged_value(b) + self.0.value(b)
    }

    #[inline]
    fn dead_end(&self, b: Board) -> f32 {
        merged_value(b)
    }
}

/// The reward a move that would create a 65536 is valued at in training (the merge's score,
/// with no future: the game ends there with [`Status::Overflow`]).
pub const OVERFLOW_REWARD: f32 = 65536.0;

/// One training game's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TrainGame {
    /// Final score.
    pub score: u64,
    /// Moves played.
    pub moves: u64,
    /// Largest tile (65536 when the game ended on an overflow move).
    pub max_tile: u32,
    /// How it ended: [`Status::Over`] or [`Status::Overflow`].
    pub status: Status,
}

/// The greedy move on `board`: the legal move with the largest `reward + V(afterstate)`
/// (first in [`Dir::ALL`] order on ties), as `(dir, afterstate, reward, value)`. An overflow
/// move is worth [`OVERFLOW_REWARD`] and is returned with the board unchanged and reward
/// [`OVERFLOW`] (the flag). `None` when no move is legal.
#[inline]
pub fn greedy(net: &NTuple, board: Board) -> Option<(Dir, Board, u32, f32)> {
    greedy_by(board, |b| net.value(b))
}

/// [`greedy`] with any value of afterstates (the multistage network's, for one): the legal
/// move with the largest `reward + value(afterstate)`, ties and overflow as in [`greedy`].
#[inline]
pub fn greedy_by(board: Board, value: impl Fn(Board) -> f32) -> Option<(Dir, Board, u32, f32)> {
    let mut best: Option<(Dir, Board, u32, f32)> = None;
    for d in Dir::ALL {
        let (nb, s) = board.slide(d);
        let cand = if s & OVERFLOW != 0 {
            (d, board, OVERFLOW, OVERFLOW_REWARD)
        } else if nb == board {
            continue;
        } else {
            (d, nb, s, s as f32 + value(nb))
        };
        if best.is_none_or(|b| cand.3 > b.3) {
            best = Some(cand);
        }
    }
    best
}

/// Plays one training game from `seed` (spawns by the documented rule of [`crate::game`]) and
/// learns from it by TD(0) on afterstates with step `alpha` per weight: after each move, the
/// previous afterstate's value moves towards `reward + V(afterstate)` of the move just chosen
/// (a change of `alpha * error` to each of its 32 weights); at the end of the game towards 0
/// (or towards [`OVERFLOW_REWARD`] if the greedy move was an overflow move, which ends the
/// game unplayed as in [`crate::Game::play`]). Deterministic: same network, seed and alpha,
/// same result.
pub fn train_game(net: &mut NTuple, seed: u64, alpha: f32) -> TrainGame {
    let (start, mut rng) = opening(seed);
    td_game(&mut Learn { net, alpha }, start, &mut rng)
}

/// [`train_game`] with temporal coherence learning ([`NTuple::update_tc`], step `beta` per
/// weight at full coherence) instead of TD(0)'s constant step: the same games, moves and
/// targets, a different step per weight. Deterministic: same network, accumulators, seed
/// and beta, same result.
pub fn train_game_tc(net: &mut NTuple, acc: &mut Coherence, seed: u64, beta: f32) -> TrainGame {
    let (start, mut rng) = opening(seed);
    td_game(&mut LearnTc { net, acc, beta }, start, &mut rng)
}

/// The generator of game `seed` and the board after the first of the two opening spawns
/// (`td_game` draws the second).
fn opening(seed: u64) -> (Board, Rng) {
    let mut rng = Rng::new(seed);
    let mut start = Board::EMPTY;
    if let Some(s) = draw_spawn(start, &mut rng) {
        start = start.with(s.cell, s.rank);
    }
    (start, rng)
}

/// What the self-play loop [`td_game`] needs of a network: the value of an afterstate, and
/// the TD(0) step of a previous afterstate towards its target (a no-op when nothing learns,
/// or for afterstates the caller does not train).
pub(crate) trait TdNet {
    /// The value of afterstate `b`.
    fn value(&self, b: Board) -> f32;
    /// Moves the value of afterstate `prev` towards `target`.
    fn learn(&mut self, prev: Board, target: f32);
}

/// A single network learning with step `alpha` per weight.
struct Learn<'n> {
    net: &'n mut NTuple,
    alpha: f32,
}

impl TdNet for Learn<'_> {
    #[inline]
    fn value(&self, b: Board) -> f32 {
        self.net.value(b)
    }

    #[inline]
    fn learn(&mut self, prev: Board, target: f32) {
        let err = target - self.net.value(prev);
        self.net.update(prev, self.alpha * err);
    }
}

/// A single network learning by temporal coherence with step `beta` at full coherence.
struct LearnTc<'n> {
    net: &'n mut NTuple,
    acc: &'n mut Coherence,
    beta: f32,
}

impl TdNet for LearnTc<'_> {
    #[inline]
    fn value(&self, b: Board) -> f32 {
        self.net.value(b)
    }

    #[inline]
    fn learn(&mut self, prev: Board, target: f32) {
        let err = target - self.net.value(prev);
        self.net.update_tc(self.acc, prev, err, self.beta);
    }
}

/// The greedy 1-ply self-play loop of every training and held-out game: from `start` (an
/// afterstate: the first thing that happens is a spawn drawn from `rng`), the move with the
/// largest reward + value ([`greedy_by`]) until no move is legal or an overflow move ends the
/// game; after each move the previous afterstate learns towards this move's reward +
/// V(afterstate) (towards 0 at the end, towards [`OVERFLOW_REWARD`] on an overflow move). The
/// score counts this game's rewards only.
pub(crate) fn td_game<N: TdNet>(net: &mut N, start: Board, rng: &mut Rng) -> TrainGame {
    let mut board = start;
    let mut prev: Option<Board> = None;
    let mut score = 0u64;
    let mut moves = 0u64;
    loop {
        if let Some(s) = draw_spawn(board, rng) {
            board = board.with(s.cell, s.rank);
        }
        let choice = greedy_by(board, |b| net.value(b));
        // The target of the previous afterstate: this move's reward + V(afterstate), or the
        // end of the game.
        let (target, next) = match choice {
            None => (0.0, None),
            Some((_, _, OVERFLOW, v)) => (v, None),
            Some((_, nb, r, v)) => (v, Some((nb, r))),
        };
        if let Some(p) = prev {
            net.learn(p, target);
        }
        let Some((nb, r)) = next else {
            let overflow = choice.is_some();
            return TrainGame {
                score,
                moves,
                max_tile: if overflow { 65536 } else { 1 << board.max_rank() },
                status: if overflow { Status::Overflow } else { Status::Over },
            };
        };
        score += u64::from(r);
        moves += 1;
        prev = Some(nb);
        board = nb;
    }
}

/// A [`crate::Player`] that plays the greedy move of [`greedy`] (1-ply, no learning).
#[derive(Clone, Copy, Debug)]
pub struct GreedyPlayer<'n>(pub &'n NTuple);

impl crate::game::Player for GreedyPlayer<'_> {
    fn choose(&mut self, board: Board) -> Option<Dir> {
        greedy(self.0, board).map(|c| c.0)
    }
}

use bits::sealed::{f32s, seal, seal_pairs, unseal, unseal_pairs, Reader};
/// FNV-1a, 64 bits: the weight file's checksum (the shared one in `bits`).
pub use bits::Fnv;

/// How a weight file's weights were made (the header both games' network files share).
pub use bits::sealed::Meta;

/// The first 8 bytes of a weight file.
pub const MAGIC: [u8; 8] = *b"B48NTUPL";

/// The format version of a single network ([`encode`]); this code also reads
/// [`VERSION_STAGES`].
pub const VERSION: u32 = 1;

/// The format version of a multistage network ([`encode_stages`]).
pub const VERSION_STAGES: u32 = 2;

bits::weight_file_error! {
    /// Why bytes are not a weight file.
    pub enum FileError {
        /// The header's tuple shape is not valid.
        Shape(ShapeError),
        /// A stage count outside `1..=MAX_STAGES` (version 2 files).
        Stages(u32),
        /// A multistage file where one network was asked for.
        NotSingle(usize),
        /// The file's shape is not the one asked for.
        ShapeMismatch {
            /// The file's.
            file: String,
            /// The one asked for.
            expected: String,
        },
    }
    display |f| {
        FileError::Magic => write!(f, "not a 2048 n-tuple weight file (bad magic)"),
        FileError::Version(v) => {
            write!(f, "weight file version {v} (this program reads {VERSION} and {VERSION_STAGES})")
        }
        FileError::Stages(n) => {
            write!(f, "stage count {n} in the header (a network has 1 to {MAX_STAGES} stages)")
        }
        FileError::NotSingle(n) => {
            write!(f, "the file holds a {n}-stage network where one network was expected")
        }
        FileError::Shape(e) => write!(f, "bad tuple shape in the header: {e}"),
        FileError::ShapeMismatch { file, expected } => {
            write!(f, "shape mismatch: the file has tuples {file}, expected {expected}")
        }
    }
}

/// The weight file of `net`:
///
/// ```text
///   magic "B48NTUPL" (8) | version u32 | tuple count u32 | per tuple: k u8, k cells u8
///   | games u64 | seed u64 | alpha f32 | weights: f32, tuple by tuple, 16^k each
///   | FNV-1a 64 of everything before (u64)
/// ```
///
/// All numbers little-endian.
pub fn encode(net: &NTuple, meta: &Meta) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + 4 * net.shape().weights());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    push_shape(&mut out, net.shape());
    push_meta(&mut out, meta);
    push_weights(&mut out, net);
    seal(out)
}

/// The shape's bytes: the tuple count, then each tuple's length and cells.
fn push_shape(out: &mut Vec<u8>, shape: &Shape) {
    out.extend_from_slice(&(shape.tuples.len() as u32).to_le_bytes());
    for t in &shape.tuples {
        out.push(t.len() as u8);
        out.extend_from_slice(t);
    }
}

/// A meta's bytes: games, seed, alpha.
fn push_meta(out: &mut Vec<u8>, meta: &Meta) {
    out.extend_from_slice(&meta.games.to_le_bytes());
    out.extend_from_slice(&meta.seed.to_le_bytes());
    out.extend_from_slice(&meta.alpha.to_le_bytes());
}

/// A network's weights, table by table, as little-endian `f32`.
fn push_weights(out: &mut Vec<u8>, net: &NTuple) {
    for x in net.net.weights().all() {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

/// Reads a weight file written by [`encode`] (or a one-stage file of [`encode_stages`]),
/// checking the magic, version, shape, length and checksum.
pub fn decode(bytes: &[u8]) -> Result<(NTuple, Meta), FileError> {
    let (net, mut metas) = decode_stages(bytes)?;
    if net.count() != 1 {
        return Err(FileError::NotSingle(net.count()));
    }
    let meta = metas.pop().expect("one stage, one meta");
    Ok((net.into_stages().pop().expect("one stage"), meta))
}

/// Reads a weight file of either version: a version-1 file ([`encode`]) is a one-stage
/// network. Checks the magic, version, stage count, shape, length and checksum; the metas
/// are one per stage.
pub fn decode_stages(bytes: &[u8]) -> Result<(MultiStage, Vec<Meta>), FileError> {
    let mut r = Reader::new(bytes);
    if r.take(8, "magic").map_err(|_| FileError::Magic)? != MAGIC {
        return Err(FileError::Magic);
    }
    let version = r.u32("header")?;
    let stages = match version {
        VERSION => 1,
        VERSION_STAGES => {
            let n = r.u32("header")?;
            if n == 0 || n as usize > MAX_STAGES {
                return Err(FileError::Stages(n));
            }
            n as usize
        }
        v => return Err(FileError::Version(v)),
    };
    let count = r.u32("header")?;
    if count == 0 {
        return Err(FileError::Shape(ShapeError::Empty));
    }
    if count as usize > MAX_TUPLES {
        return Err(FileError::Shape(ShapeError::Count(count as usize)));
    }
    let mut tuples = Vec::new();
    for t in 0..count as usize {
        let k = usize::from(r.take(1, "header")?[0]);
        if k == 0 || k > MAX_TUPLE_CELLS {
            return Err(FileError::Shape(ShapeError::Size { tuple: t, cells: k }));
        }
        tuples.push(r.take(k, "header")?.to_vec());
    }
    let shape = Shape::new(tuples).map_err(FileError::Shape)?;
    let mut metas = Vec::with_capacity(stages);
    for _ in 0..stages {
        let games = r.u64("header")?;
        let seed = r.u64("header")?;
        let alpha = r.f32("header")?;
        metas.push(Meta { games, seed, alpha });
    }
    let expected = r.position() + 4 * stages * shape.weights() + 8;
    if bytes.len() != expected {
        return Err(FileError::Length { expected, found: bytes.len() });
    }
    let body = unseal(bytes)?;
    let mut values = f32s(&body[r.position()..]);
    let mut nets = Vec::with_capacity(stages);
    for _ in 0..stages {
        let mut net = NTuple::new(shape.clone());
        for (x, v) in net.net.weights_mut().all_mut().iter_mut().zip(values.by_ref()) {
            *x = v;
        }
        nets.push(net);
    }
    let net = MultiStage::new(nets).map_err(|_| FileError::Stages(stages as u32))?;
    Ok((net, metas))
}

/// The weight file of a multistage network, one [`Meta`] per stage (how each stage's
/// training was run):
///
/// ```text
///   magic "B48NTUPL" (8) | version u32 = 2 | stage count u32 (1..=3)
///   | tuple count u32 | per tuple: k u8, k cells u8
///   | per stage: games u64 | seed u64 | alpha f32
///   | weights: f32, stage by stage, in each tuple by tuple, 16^k each
///   | FNV-1a 64 of everything before (u64)
/// ```
///
/// All numbers little-endian; all stages share the shape. Panics if `metas` does not have
/// one entry per stage.
pub fn encode_stages(net: &MultiStage, metas: &[Meta]) -> Vec<u8> {
    assert_eq!(metas.len(), net.count(), "one meta per stage");
    let shape = net.stage(0).shape();
    let mut out = Vec::with_capacity(64 + 4 * net.count() * shape.weights());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION_STAGES.to_le_bytes());
    out.extend_from_slice(&(net.count() as u32).to_le_bytes());
    push_shape(&mut out, shape);
    for m in metas {
        push_meta(&mut out, m);
    }
    for stage in net.stages() {
        push_weights(&mut out, stage);
    }
    seal(out)
}

/// The first 8 bytes of a TC accumulator file ([`encode_coherence`]).
pub const MAGIC_TC: [u8; 8] = *b"B48TCACC";

/// The format version of [`encode_coherence`].
pub const VERSION_TC: u32 = 1;

/// The accumulator file of a temporal coherence run, kept beside its weight file (the CLI
/// names it `FILE.tc`), so that a run continued from the pair gives the bytes of one run:
///
/// ```text
///   magic "B48TCACC" (8) | version u32 = 1 | games u64 | the weights' fingerprint u64
///   | weight count u64 | per weight, tuple by tuple: E f32, A f32
///   | FNV-1a 64 of everything before (u64)
/// ```
///
/// `games` and the fingerprint ([`NTuple::fingerprint`]) tie it to one weight file
/// ([`decode_coherence`] checks both). All numbers little-endian.
pub fn encode_coherence(acc: &Coherence, games: u64, weights_fingerprint: u64) -> Vec<u8> {
    seal_pairs(&MAGIC_TC, VERSION_TC, games, weights_fingerprint, &[acc.acc.all()])
}

/// Reads an accumulator file of [`encode_coherence`] for `net` after `games` training
/// games, checking the magic, version, length, checksum and that it is `net`'s (games and
/// fingerprint).
pub fn decode_coherence(bytes: &[u8], net: &NTuple, games: u64) -> Result<Coherence, FileError> {
    let mut acc = Coherence::new(net.shape());
    let mut pairs =
        unseal_pairs(bytes, &MAGIC_TC, VERSION_TC, acc.weights(), games, net.fingerprint())?;
    for (ea, pair) in acc.acc.all_mut().iter_mut().zip(pairs.by_ref()) {
        *ea = pair;
    }
    Ok(acc)
}

/// `Ok` when `net` has `expected`'s shape, else [`FileError::ShapeMismatch`].
pub fn expect_shape(net: &NTuple, expected: &Shape) -> Result<(), FileError> {
    if net.shape() == expected {
        Ok(())
    } else {
        Err(FileError::ShapeMismatch {
            file: net.shape().to_string(),
            expected: expected.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_the_eight_distinct_maps() {
        let b: Board =
            "2 4 8 16/32 64 128 256/512 1024 2048 4096/8192 16384 32768 .".parse().unwrap();
        let s = symmetries(b);
        let set: std::collections::HashSet<Board> = s.iter().copied().collect();
        assert_eq!(set.len(), 8);
        assert_eq!(flip_rows(flip_rows(b)), b);
        assert_eq!(flip_cols(flip_cols(b)), b);
        assert_eq!(
            flip_rows(b).to_string(),
            "8192 16384 32768 ./512 1024 2048 4096/32 64 128 256/2 4 8 16"
        );
        assert_eq!(
            flip_cols(b).to_string(),
            "16 8 4 2/256 128 64 32/4096 2048 1024 512/. 32768 16384 8192"
        );
    }

    #[test]
    fn shape_text_round_trips_and_errors_name_the_tuple() {
        let s = Shape::default_6tuples();
        assert_eq!(s.to_string().parse::<Shape>().unwrap(), s);
        assert_eq!(s.weights(), 4 << 24);
        assert_eq!("1,0/5,4".parse::<Shape>().unwrap().to_string(), "0,1/4,5");
        assert_eq!(
            "0,1/4,16".parse::<Shape>().unwrap_err(),
            ShapeError::Cell { tuple: 1, text: "16".into() }
        );
        assert_eq!(
            "0,1,1".parse::<Shape>().unwrap_err(),
            ShapeError::Repeated { tuple: 0, cell: 1 }
        );
        assert_eq!("".parse::<Shape>().unwrap_err(), ShapeError::Empty);
        let many = vec!["0,1"; MAX_TUPLES + 1].join("/");
        let e = many.parse::<Shape>().unwrap_err();
        assert_eq!(e, ShapeError::Count(MAX_TUPLES + 1));
        assert_eq!(e.to_string(), "65 tuples (a network has 1 to 64)");
        assert!("0,1,2,3,4,5,6".parse::<Shape>().is_err());
    }

    #[test]
    fn greedy_takes_and_flags_the_65536_merge() {
        let net = NTuple::new("0,1/4,5".parse().unwrap());
        let b: Board = "32768 32768 2 4/4 2 4 2/2 4 2 4/. 2 4 2".parse().unwrap();
        let (d, after, r, v) = greedy(&net, b).unwrap();
        assert_eq!(b.play(d), Err(crate::MoveError::Overflow));
        assert_eq!((after, r, v), (b, OVERFLOW, OVERFLOW_REWARD));
        // A dead board has no greedy move.
        let dead: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2".parse().unwrap();
        assert_eq!(greedy(&net, dead), None);
    }

    #[test]
    fn merged_value_grows_by_the_reward() {
        let b: Board = "2 2 4 4/8 8 . ./16 . . 16/. . . .".parse().unwrap();
        let m = b.play(Dir::Left).unwrap();
        assert_eq!(merged_value(m.board) - merged_value(b), m.score as f32);
        assert_eq!(merged_value("4 8 . ./. . . ./. . . ./. . . .".parse().unwrap()), 4.0 + 16.0);
    }
}
