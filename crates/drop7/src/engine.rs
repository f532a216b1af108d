//! The rules on bitboards: drops, cascades, grays, level rises, and the random stream.
//!
//! # Implementation notes
//! Everything works on the seven column words of [`Board`] (nibble per cell, bottom row in
//! the low nibble) and on *flag words*: a `u32` with bit 0 of nibble `r` set for each
//! selected cell of one column (so `flags * 0xF` turns a flag word into a nibble mask).
//!
//! One wave of a cascade, with no per-cell loop:
//!
//! ```text
//!  occ[c]   = nonzero nibbles of col[c]                   (flags; height h[c] = lzcnt)
//!  L[c]     = (L[c-1] + occ[c]) & 0xF*occ[c]              run length so far, left to right,
//!  R[c]     = (R[c+1] + occ[c]) & 0xF*occ[c]              and right to left: seven nibble
//!  run[c]   = L[c] + R[c] - occ[c]                        lanes in parallel, no carries
//!  pop[c]   = occ[c] & (eq(col[c], run[c]) | eq(col[c], h[c] * 0x1111111))
//!  up,down  = pop[c] << 4, pop[c] >> 4 ; left,right = pop[c-1], pop[c+1]
//!  any      = up | down | left | right                    bitwise parallel counter:
//!  two      = (up & down) | (left & right) | ((up | down) & (left | right))
//!  crack    = solid & any & !two ; reveal = (cracked & any) | (solid & two)
//!  col[c]   = pext(col[c] + crack, 0xF * (occ[c] & !pop[c]))   gravity: one PEXT
//! ```
//!
//! `eq(x, y)` is the SWAR nibble equality `!nonzero_nibbles(x ^ y)`. The row run-length
//! "table" is the pair of prefix scans `L`/`R`: a 7-lane nibble vector per column replaces a
//! 128-entry table lookup per row followed by a 7x7 nibble transpose. Gray codes (8, 9) never
//! equal a run length (1-7), so grays are never marked. Reveals are the only per-cell step: a
//! revealed gray draws its value from the stream, in row-major order from the top-left
//! (row 6 first, column 0 to 6 within a row), on the board before the wave's removals.
//!
//! # The random stream ([`RandomDraws`])
//! One xoshiro256** generator [`bits::Rng::new`]`(seed)` feeds every draw of a game, in the
//! order the game needs them: the opening (Normal only), the first next disc, then for each
//! turn the reveals of each wave in order and finally the next disc. A numbered disc or a
//! revealed value is `1 + below(7)`. In Normal mode a next disc is first a gray with
//! probability `num/den` (`below(den) < num`), otherwise `1 + below(7)`. Hardcore draws no
//! grays. See [`Rules`] for the disputed rules, each a named switch.

use bits::pext::PextImpl;
use bits::Rng;

use crate::board::{col_height, nonzero_nibbles, Board, Disc, Position, LIVE, ONES, SIZE};

/// The points for clearing the board.
pub const CLEAR_BONUS: u64 = 70_000;

const fn isqrt(x: u64) -> u64 {
    // Binary search for the largest r with r * r <= x.
    let mut lo = 0u64;
    let mut hi = 1u64 << 32;
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if mid * mid <= x {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// How many chain levels [`chain_value`] tabulates; later waves saturate at the last value.
pub const CHAIN_TABLE: usize = 128;

const CHAIN_VALUES: [u64; CHAIN_TABLE] = {
    let mut t = [0u64; CHAIN_TABLE];
    let mut n = 1;
    while n < CHAIN_TABLE {
        let n5 = (n as u64) * (n as u64) * (n as u64) * (n as u64) * (n as u64);
        t[n] = isqrt(49 * n5);
        n += 1;
    }
    assert!(t[1] == 7 && t[2] == 39 && t[10] == 2213 && t[15] == 6099);
    t
};

/// Points per marked disc at chain level `n >= 1`: `floor(7 * n^2.5) = isqrt(49 * n^5)`.
#[inline]
pub fn chain_value(n: u32) -> u64 {
    CHAIN_VALUES[(n as usize).min(CHAIN_TABLE - 1)]
}

/// The game mode.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Normal: `drops(L) = max(31 - L, 5)`, level bonus 7,000, a share of gray next discs.
    Normal,
    /// Hardcore (later called Blitz): 5 drops a level, level bonus 17,000, no gray discs.
    Hardcore,
    /// Sequence: Normal's levels, discs and reveals from a user-supplied stream.
    Sequence,
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Mode, String> {
        match s {
            "normal" => Ok(Mode::Normal),
            "hardcore" | "blitz" => Ok(Mode::Hardcore),
            "sequence" => Ok(Mode::Sequence),
            _ => Err(format!("unknown mode {s:?} (normal, hardcore, sequence)")),
        }
    }
}

/// The rules of a game: the mode and every disputed rule as a named switch.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
pub struct Rules {
    /// The mode.
    pub mode: Mode,
    /// Normal mode's share of gray next discs, `num/den` (default 1/8, as in every clone;
    /// the real Sequence stream has about 31%).
    pub gray_share: (u32, u32),
    /// Pay the level bonus before the fatal rise (some clones do; default `false`).
    pub fatal_rise_bonus: bool,
    /// After a rise the chain level continues from the turn's waves + 1 (default `true`);
    /// `false` restarts it at 1.
    pub rise_chain_continues: bool,
}

impl Rules {
    /// The default rules of a mode.
    pub const fn new(mode: Mode) -> Rules {
        Rules { mode, gray_share: (1, 8), fatal_rise_bonus: false, rise_chain_continues: true }
    }

    /// Drops in level `level`.
    #[inline]
    pub fn drops(&self, level: u32) -> u32 {
        match self.mode {
            Mode::Hardcore => 5,
            Mode::Normal | Mode::Sequence => 31u32.saturating_sub(level).max(5),
        }
    }

    /// The bonus for finishing a level.
    #[inline]
    pub fn level_bonus(&self) -> u64 {
        match self.mode {
            Mode::Hardcore => 17_000,
            Mode::Normal | Mode::Sequence => 7_000,
        }
    }

    /// The probability that a next disc is gray.
    pub fn gray_probability(&self) -> f64 {
        match self.mode {
            Mode::Hardcore => 0.0,
            Mode::Normal | Mode::Sequence => {
                f64::from(self.gray_share.0) / f64::from(self.gray_share.1.max(1))
            }
        }
    }
}

/// Where a game's random draws come from: the seeded stream, a recorded game, or the search.
pub trait Draws {
    /// The next disc to deal.
    fn next_disc(&mut self) -> Disc;
    /// The value (1-7) of a revealed gray.
    fn reveal(&mut self) -> u8;
}

/// The seeded random stream (see the [module docs](self) for the exact order of draws).
#[derive(Clone, Debug)]
pub struct RandomDraws {
    rng: Rng,
    gray: (u32, u32),
}

impl RandomDraws {
    /// The stream of a game with these rules and seed.
    pub fn new(rules: &Rules, seed: u64) -> RandomDraws {
        let gray = if rules.mode == Mode::Hardcore { (0, 1) } else { rules.gray_share };
        RandomDraws { rng: Rng::new(seed), gray }
    }

    /// The opening board, drawn from the stream. Hardcore and Sequence start from one solid
    /// gray row (no draws). Normal draws `11 + below(11)` discs; each is
    /// `column = below(7)` (drawn again if full) then `value = 1 + below(7)`, and is taken back
    /// if the board then has a disc to pop (at most 200 attempts in all).
    pub fn opening(&mut self, rules: &Rules) -> Board {
        match rules.mode {
            Mode::Normal => normal_opening(&mut self.rng),
            Mode::Hardcore | Mode::Sequence => Board::GRAY_ROW,
        }
    }
}

impl Draws for RandomDraws {
    #[inline]
    fn next_disc(&mut self) -> Disc {
        if self.gray.0 > 0 && self.rng.below(u64::from(self.gray.1)) < u64::from(self.gray.0) {
            return Disc::GRAY;
        }
        Disc::number(1 + self.rng.below(7) as u8).expect("1..=7")
    }

    #[inline]
    fn reveal(&mut self) -> u8 {
        1 + self.rng.below(7) as u8
    }
}

/// A record of a game's draws, replayed in order (for `replay` and Sequence mode).
#[derive(Clone, Debug, Default)]
pub struct ListDraws {
    /// Next discs, in order.
    pub discs: Vec<Disc>,
    /// Reveal values, in order.
    pub reveals: Vec<u8>,
    /// How many discs have been taken.
    pub disc_pos: usize,
    /// How many reveals have been taken.
    pub reveal_pos: usize,
    /// Set when a draw was asked for beyond the end of a list.
    pub exhausted: bool,
}

impl ListDraws {
    /// Parses a Sequence-mode stream: the first non-empty line lists the next discs (`1`-`7`,
    /// `#` for gray; spaces and commas ignored), the optional second line the values revealed
    /// grays take, in the engine's reveal order (digits `1`-`7`). Errors name the line and
    /// column.
    pub fn parse_stream(text: &str) -> Result<ListDraws, String> {
        let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
        let (n, first) = lines.next().ok_or("the stream is empty")?;
        let mut out = ListDraws::default();
        for (i, ch) in first.chars().enumerate() {
            if ch.is_whitespace() || ch == ',' {
                continue;
            }
            out.discs.push(Disc::from_char(ch).ok_or_else(|| {
                format!("line {}, column {}: {ch:?} is not a disc (1-7 or #)", n + 1, i + 1)
            })?);
        }
        if let Some((n, second)) = lines.next() {
            for (i, ch) in second.chars().enumerate() {
                if ch.is_whitespace() || ch == ',' {
                    continue;
                }
                match ch {
                    '1'..='7' => out.reveals.push(ch as u8 - b'0'),
                    _ => {
                        return Err(format!(
                            "line {}, column {}: {ch:?} is not a reveal value (1-7)",
                            n + 1,
                            i + 1
                        ))
                    }
                }
            }
        }
        if let Some((n, _)) = lines.next() {
            return Err(format!("line {}: a stream has at most two lines", n + 1));
        }
        if out.discs.is_empty() {
            return Err("the stream lists no discs".into());
        }
        Ok(out)
    }
}

impl Draws for ListDraws {
    fn next_disc(&mut self) -> Disc {
        let d = self.discs.get(self.disc_pos).copied();
        self.disc_pos += 1;
        d.unwrap_or_else(|| {
            self.exhausted = true;
            Disc::GRAY
        })
    }

    fn reveal(&mut self) -> u8 {
        let v = self.reveals.get(self.reveal_pos).copied();
        self.reveal_pos += 1;
        v.unwrap_or_else(|| {
            self.exhausted = true;
            1
        })
    }
}

/// Wraps a [`Draws`] and records every draw it hands out.
#[derive(Clone, Debug)]
pub struct Recording<D> {
    /// The wrapped source.
    pub inner: D,
    /// Reveal values handed out since the last [`take`](Self::take_reveals).
    pub reveals: Vec<u8>,
}

impl<D: Draws> Recording<D> {
    /// Starts recording.
    pub fn new(inner: D) -> Self {
        Recording { inner, reveals: Vec::new() }
    }

    /// The reveals recorded so far, clearing the list.
    pub fn take_reveals(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.reveals)
    }
}

impl<D: Draws> Draws for Recording<D> {
    fn next_disc(&mut self) -> Disc {
        self.inner.next_disc()
    }
    fn reveal(&mut self) -> u8 {
        let v = self.inner.reveal();
        self.reveals.push(v);
        v
    }
}

/// Run lengths of a 7-bit row occupancy mask: nibble `c` of `RUNS[m]` is the length of the
/// run of set bits through bit `c` (0 where bit `c` is clear).
pub const RUNS: [u32; 128] = {
    let mut t = [0u32; 128];
    let mut m = 0;
    while m < 128 {
        let mut c = 0;
        while c < 7 {
            if m >> c & 1 != 0 {
                let mut lo = c;
                while lo > 0 && m >> (lo - 1) & 1 != 0 {
                    lo -= 1;
                }
                let mut hi = c;
                while hi < 6 && m >> (hi + 1) & 1 != 0 {
                    hi += 1;
                }
                t[m] |= ((hi - lo + 1) as u32) << (4 * c);
            }
            c += 1;
        }
        m += 1;
    }
    assert!(t[0b111_1111] == 0x0777_7777 && t[0b101] == 0x101);
    t
};

/// After a disc lands at (`col`, `row`) on a board that was at rest, only the cells of that
/// column (its height changed) and of that row (its runs changed) can be marked in the first
/// wave. This tests exactly those: the column with one SWAR compare against its height, the
/// row by gathering its seven nibbles and comparing them with the run-length table entry of
/// its occupancy mask. `false` means the first wave marks nothing.
#[inline]
pub fn landing_may_pop(cols: &[u32; SIZE], col: usize, row: u32) -> bool {
    landing_poppers(cols, col, row).iter().any(|&p| p != 0)
}

/// The first wave's marked discs after a disc lands at (`col`, `row`) on a board that was at
/// rest, as flag words per column (equal to [`poppers`] on such a board; see
/// [`landing_may_pop`] for why only one row and one column are tested).
#[inline]
pub fn landing_poppers(cols: &[u32; SIZE], col: usize, row: u32) -> [u32; SIZE] {
    let (row_pop, col_pop) = landing_marks(cols, col, row);
    scatter_landing(row_pop, col_pop, col, row)
}

/// The landing test in compact form: `(row, column)` where nibble `c` of `row` flags the
/// landing row's cell in column `c`, and `column` is the landing column's flag word.
#[inline(always)]
fn landing_marks(cols: &[u32; SIZE], col: usize, row: u32) -> (u32, u32) {
    landing_marks_with(cols, col, row, 0)
}

/// [`landing_marks`] for a disc `code` landing at (`col`, `row`) of `cols`, the board
/// *before* the drop (`code = 0` when `cols` already holds it). The turn tests the landing
/// this way so that the gather does not read back the column word it has just stored: a
/// load after a store to a column chosen a moment before stalled the turn (about 7% of the
/// random-policy loop's time in a `perf` profile).
#[inline(always)]
fn landing_marks_with(cols: &[u32; SIZE], col: usize, row: u32, code: u32) -> (u32, u32) {
    let shift = 4 * row;
    // The landing row's seven nibbles side by side, column c in nibble c.
    let mut values = code << (4 * col);
    for (c, &w) in cols.iter().enumerate() {
        values |= ((w >> shift) & 0xF) << (4 * c);
    }
    let occ = nonzero_high(values);
    let runs = RUNS[bits::pext_u32(occ, ONES << 3) as usize];
    let row_pop = occ & !nonzero_high(values ^ runs);
    let w = cols[col] | code << shift;
    let col_pop = nonzero_high(w) & !nonzero_high(w ^ ((row + 1) * ONES));
    (row_pop, col_pop)
}

/// [`landing_marks`] as flag words per column.
#[inline(always)]
fn scatter_landing(row_pop: u32, col_pop: u32, col: usize, row: u32) -> [u32; SIZE] {
    let mut pop = [0u32; SIZE];
    for (c, p) in pop.iter_mut().enumerate() {
        *p = ((row_pop >> (4 * c + 3)) & 1) << (4 * row);
    }
    pop[col] |= col_pop >> 3;
    pop
}

/// The first wave's marked discs after a rise of a board that was at rest: every row's cells
/// and runs moved up unchanged and the new bottom row is gray, so only column runs (every
/// height grew by one) can mark a disc. Equal to [`poppers`] on such a board.
#[inline(always)]
pub fn rise_poppers(cols: &[u32; SIZE]) -> [u32; SIZE] {
    let mut pop = [0u32; SIZE];
    for (p, &w) in pop.iter_mut().zip(cols) {
        *p = nonzero_nibbles(w) & !nonzero_nibbles(w ^ (col_height(w) * ONES));
    }
    pop
}

/// Bit 3 of each live nibble of `x` that is non-zero (the carry of `(x & 7) + 7` reaches
/// bit 3 exactly when one of bits 0-2 is set): four operations where [`nonzero_nibbles`]
/// takes seven.
#[inline(always)]
fn nonzero_high(x: u32) -> u32 {
    (((x & 0x0777_7777) + 0x0777_7777) | x) & 0x0888_8888
}

/// One wave's marked discs, as flag words per column (for tests and tools).
#[inline(always)]
pub fn poppers(cols: &[u32; SIZE]) -> [u32; SIZE] {
    poppers_occ(cols).0
}

/// [`poppers`] and the occupied cells (flag words), which the cascade's gravity reuses
/// (a wave's cracks and reveals keep every cell occupied).
#[inline(always)]
fn poppers_occ(cols: &[u32; SIZE]) -> ([u32; SIZE], [u32; SIZE]) {
    let mut occ_high = [0u32; SIZE];
    let mut occ = [0u32; SIZE];
    for c in 0..SIZE {
        occ_high[c] = nonzero_high(cols[c]);
        occ[c] = occ_high[c] >> 3;
    }
    let mut left = [0u32; SIZE];
    let mut acc = 0u32;
    for c in 0..SIZE {
        acc = (acc + occ[c]) & (occ[c] * 0xF);
        left[c] = acc;
    }
    let mut pop = [0u32; SIZE];
    acc = 0;
    for c in (0..SIZE).rev() {
        acc = (acc + occ[c]) & (occ[c] * 0xF);
        let run = left[c] + acc - occ[c];
        let w = cols[c];
        // The column's height: `occ * ONES` sums its occupied flags into nibble 6.
        let h = ((occ[c].wrapping_mul(ONES) >> 24) & 0xF) * ONES;
        // A cell is marked unless it differs from both its row run and its column height.
        let neither = nonzero_high(w ^ run) & nonzero_high(w ^ h);
        pop[c] = (occ_high[c] & !neither) >> 3;
    }
    (pop, occ)
}

/// [`poppers`] the way the issue first drew it: each row's occupancy mask (7 bits, gathered
/// from the column words), its run lengths looked up in [`RUNS`], and the runs scattered back
/// into per-column words; the comparisons are then the same SWAR tests. Kept beside the SWAR
/// prefix scan as a measured alternative (`bitarcade drop7 bench` times both on the same
/// boards) and gated against it.
#[inline]
pub fn poppers_table(cols: &[u32; SIZE]) -> [u32; SIZE] {
    let mut occ = [0u32; SIZE];
    for c in 0..SIZE {
        occ[c] = nonzero_nibbles(cols[c]);
    }
    let mut run = [0u32; SIZE];
    for r in 0..SIZE {
        let shift = 4 * r;
        let mut m = 0usize;
        for (c, &o) in occ.iter().enumerate() {
            m |= ((o >> shift) & 1) as usize * (1 << c);
        }
        if m == 0 {
            break; // columns are bottom packed: nothing above an empty row
        }
        let t = RUNS[m];
        for (c, w) in run.iter_mut().enumerate() {
            *w |= ((t >> (4 * c)) & 0xF) << shift;
        }
    }
    let mut pop = [0u32; SIZE];
    for c in 0..SIZE {
        let w = cols[c];
        let h = col_height(w) * ONES;
        pop[c] = occ[c] & (!nonzero_nibbles(w ^ run[c]) | !nonzero_nibbles(w ^ h));
    }
    pop
}

/// Resolves the board from chain level `first_chain`, one wave at a time, drawing reveal
/// values from `draws`. Returns `(waves, points)`.
#[inline]
pub fn resolve<D: Draws>(board: &mut Board, first_chain: u32, draws: &mut D) -> (u32, u64) {
    let pop = poppers(board.cols());
    cascade(board, pop, first_chain, draws)
}

/// [`resolve`] with the first wave's marked discs already known (`pop`, as [`poppers`] would
/// find them): the turn knows them from the landing or the rise for a fraction of a full scan.
#[inline]
fn cascade<D: Draws>(
    board: &mut Board,
    pop: [u32; SIZE],
    first_chain: u32,
    draws: &mut D,
) -> (u32, u64) {
    // The PEXT path is chosen once per cascade rather than once per column (see `bits::pext`).
    #[cfg(target_arch = "x86_64")]
    if bits::pext::active_path() == bits::PextPath::Bmi2 {
        if let Some(hw) = bits::pext::Bmi2::detect() {
            return cascade_with(hw, board, pop, first_chain, draws);
        }
    }
    cascade_with(bits::pext::Portable, board, pop, first_chain, draws)
}

#[inline(always)]
fn cascade_with<P: PextImpl, D: Draws>(
    pext: P,
    board: &mut Board,
    mut pop: [u32; SIZE],
    first_chain: u32,
    draws: &mut D,
) -> (u32, u64) {
    let cols = board.cols_mut();
    let mut occ = [0u32; SIZE];
    for c in 0..SIZE {
        occ[c] = nonzero_high(cols[c]) >> 3;
    }
    let mut n = first_chain;
    let mut points = 0u64;
    loop {
        if pop.iter().fold(0, |a, &p| a | p) == 0 {
            return (n - first_chain, points);
        }
        let marked: u32 = pop.iter().map(|p| p.count_ones()).sum();
        points += u64::from(marked) * chain_value(n);
        // Gray hits for the whole board: four shifted popper words and a parallel counter.
        let mut reveal_rows = 0u32;
        let mut reveal = [0u32; SIZE];
        for c in 0..SIZE {
            let w = cols[c];
            let up = (pop[c] << 4) & LIVE;
            let down = pop[c] >> 4;
            let left = if c > 0 { pop[c - 1] } else { 0 };
            let right = if c + 1 < SIZE { pop[c + 1] } else { 0 };
            let vert = up | down;
            let horz = left | right;
            let any = vert | horz;
            let two = (up & down) | (left & right) | (vert & horz);
            let gray = (w >> 3) & ONES;
            let solid = gray & !w;
            let cracked = gray & w;
            let crack = solid & any & !two;
            reveal[c] = (cracked & any) | (solid & two);
            reveal_rows |= reveal[c];
            cols[c] = w + crack;
        }
        // Reveals draw in row-major order from the top-left. The revealed cells become one
        // u64 with cell (row r, column c) at bit 8r + 7 - c, so that visiting its bits from
        // the top is that order: one branch per reveal instead of one per row and column
        // (those mispredicted ~1 time a move, the largest share of the engine's misses).
        if reveal_rows != 0 {
            let mut order = 0u64;
            for (c, &r) in reveal.iter().enumerate() {
                let rows = u64::from(pext.pext_u32(r, ONES));
                order |= pext.pdep_u64(rows, 0x0101_0101_0101_0101) << (7 - c);
            }
            while order != 0 {
                let p = 63 - order.leading_zeros();
                order &= !(1u64 << p);
                let (shift, c) = (4 * (p >> 3), (7 - (p & 7)) as usize % SIZE);
                let v = u32::from(draws.reveal());
                cols[c] = (cols[c] & !(0xF << shift)) | (v << shift);
            }
        }
        // Gravity on every column, branch-free (a PEXT keeping all of a bottom-packed column
        // returns it unchanged; testing which columns popped mispredicted about once a wave).
        // The wave's cracks and reveals left every cell occupied, so `occ` is still exact.
        for c in 0..SIZE {
            let keep = (occ[c] & !pop[c]) * 0xF;
            cols[c] = pext.pext_u32(cols[c], keep);
        }
        n += 1;
        (pop, occ) = poppers_occ(cols);
    }
}

/// What one turn did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Turn {
    /// Waves resolved (after the drop and after a rise, together).
    pub waves: u32,
    /// Points scored this turn (pops, clear bonuses, level bonus).
    pub points: u64,
    /// `true` when the turn ended the game.
    pub over: bool,
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game is over.
    GameOver,
    /// The column is not 0-6.
    NoSuchColumn(usize),
    /// The column is full.
    ColumnFull(usize),
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::GameOver => write!(f, "the game is over"),
            PlayError::NoSuchColumn(c) => write!(f, "column {} does not exist (1-7)", c + 1),
            PlayError::ColumnFull(c) => write!(f, "column {} is full", c + 1),
        }
    }
}

impl std::error::Error for PlayError {}

impl Position {
    /// The start of a game on `board`: level 1, the first next disc drawn from `draws`.
    pub fn start<D: Draws>(rules: &Rules, board: Board, draws: &mut D) -> Position {
        Position {
            board,
            next: draws.next_disc(),
            level: 1,
            drops_left: rules.drops(1),
            score: 0,
            over: false,
        }
    }

    /// A new game from the seeded stream: the mode's opening (drawn first, see
    /// [`RandomDraws::opening`]) and the first next disc.
    pub fn new_game(rules: &Rules, draws: &mut RandomDraws) -> Position {
        let board = draws.opening(rules);
        Position::start(rules, board, draws)
    }

    /// Plays the next disc in column `col` (0-6): checked.
    pub fn play<D: Draws>(
        &mut self,
        rules: &Rules,
        col: usize,
        draws: &mut D,
    ) -> Result<Turn, PlayError> {
        if self.over {
            return Err(PlayError::GameOver);
        }
        if col >= SIZE {
            return Err(PlayError::NoSuchColumn(col));
        }
        if !self.board.can_drop(col) {
            return Err(PlayError::ColumnFull(col));
        }
        Ok(self.play_unchecked(rules, col, draws))
    }

    /// Plays the next disc in column `col` and deals the following disc (unless the game
    /// ended). Precondition: the game is not over and `board.can_drop(col)`.
    #[inline]
    pub fn play_unchecked<D: Draws>(&mut self, rules: &Rules, col: usize, draws: &mut D) -> Turn {
        let turn = self.drop_and_resolve(rules, col, draws);
        if !turn.over {
            self.next = draws.next_disc();
        }
        turn
    }

    /// Steps 1-5 of a turn (everything but dealing the next disc). Precondition as
    /// [`play_unchecked`](Self::play_unchecked).
    #[inline]
    pub fn drop_and_resolve<D: Draws>(&mut self, rules: &Rules, col: usize, draws: &mut D) -> Turn {
        debug_assert!(!self.over && self.board.can_drop(col));
        let start = self.score;
        let row = self.board.height(col);
        let code = u32::from(self.next.code());
        // Positions at rest are an invariant (parsing checks it, every turn restores it), so
        // the first wave can only mark cells of the landing row and column.
        let (row_pop, col_pop) = landing_marks_with(self.board.cols(), col, row, code);
        self.board.cols_mut()[col] |= code << (4 * row);
        let mut waves = 0;
        if row_pop | col_pop != 0 {
            let pop = scatter_landing(row_pop, col_pop, col, row);
            let (w, pts) = cascade(&mut self.board, pop, 1, draws);
            waves = w;
            self.score += pts;
            // Only a turn that popped something can empty the board.
            if self.board.is_empty() {
                self.score += CLEAR_BONUS;
            }
        }
        self.drops_left -= 1;
        if self.drops_left == 0 {
            if self.board.any_full() {
                if rules.fatal_rise_bonus {
                    self.score += rules.level_bonus();
                }
                self.over = true;
                return Turn { waves, points: self.score - start, over: true };
            }
            self.score += rules.level_bonus();
            self.level += 1;
            self.board.rise();
            let first = if rules.rise_chain_continues { waves + 1 } else { 1 };
            // The board was at rest before the rise: only column runs changed.
            let pop = rise_poppers(self.board.cols());
            if pop.iter().fold(0, |a, &p| a | p) != 0 {
                let (w2, p2) = cascade(&mut self.board, pop, first, draws);
                waves += w2;
                self.score += p2;
                if self.board.is_empty() {
                    self.score += CLEAR_BONUS;
                }
            }
            self.drops_left = rules.drops(self.level);
        }
        // Every column full implies the landing column is full.
        if !self.board.can_drop(col) && self.board.open_columns() == 0 {
            self.over = true;
        }
        Turn { waves, points: self.score - start, over: self.over }
    }
}

/// The engine throughput workload: `games` random-policy games with these rules, game `i`
/// from the stream [`RandomDraws::new`]`(rules, s)` with `s = sub_seed(seed, i)`, each move a
/// uniform open column drawn from a second stream `Rng::new(sub_seed(s, 1))`
/// (`below(open count)`, then the k-th open column). Returns the moves played. Kept out of
/// line so the bench, the profiling example and callgrind all time the same code.
#[inline(never)]
pub fn random_policy_games(rules: &Rules, seed: u64, games: u64) -> u64 {
    let mut moves = 0u64;
    for i in 0..games {
        let s = bits::rng::sub_seed(seed, i);
        let mut draws = RandomDraws::new(rules, s);
        let mut pos = Position::new_game(rules, &mut draws);
        let mut policy = Rng::new(bits::rng::sub_seed(s, 1));
        while !pos.over {
            let open = pos.board.open_columns();
            let k = policy.below(u64::from(open.count_ones())) as u32;
            let col = bits::iter::select_u64(u64::from(open), k).unwrap_or(0) as usize;
            pos.play_unchecked(rules, col, &mut draws);
            moves += 1;
        }
    }
    moves
}

fn normal_opening(rng: &mut Rng) -> Board {
    let want = 11 + rng.below(11) as u32;
    let mut board = Board::EMPTY;
    let mut placed = 0;
    let mut attempts = 0;
    while placed < want && attempts < 200 {
        attempts += 1;
        let c = rng.below(7) as usize;
        if !board.can_drop(c) {
            continue;
        }
        let v = 1 + rng.below(7) as u8;
        let mut trial = board;
        trial.drop_code(c, v);
        if poppers(trial.cols()).iter().all(|&p| p == 0) {
            board = trial;
            placed += 1;
        }
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chain_values_match_the_spec() {
        let want = [7, 39, 109, 224, 391, 617, 907, 1267, 1701, 2213, 2809, 3491, 4265, 5133, 6099];
        for (i, &w) in want.iter().enumerate() {
            assert_eq!(chain_value(i as u32 + 1), w, "n = {}", i + 1);
        }
    }

    #[test]
    fn a_simple_cascade() {
        // 3 and 5 at rest; a 1 dropped beside them makes a row run of 3: the 3 pops (row run
        // 3) and so does the 1 (column run 1), in one wave.
        let mut pos: Position =
            "......./......./......./......./......./......./35..... next=1 level=1 drops=5 score=0"
                .parse()
                .unwrap();
        let rules = Rules::new(Mode::Hardcore);
        let mut d = ListDraws { discs: vec![Disc::number(3).unwrap()], ..Default::default() };
        let t = pos.play(&rules, 2, &mut d).unwrap();
        assert_eq!(t.waves, 1);
        assert_eq!(pos.score, 2 * 7);
        assert_eq!(
            pos.board.to_string(),
            "......./......./......./......./......./......./.5....."
        );
    }

    #[test]
    fn landing_check_matches_full_poppers() {
        // On boards at rest, the landing test agrees with a full popper scan after a drop.
        let mut rng = bits::Rng::new(3);
        let mut checked = 0;
        while checked < 20_000 {
            let mut b = Board::EMPTY;
            for _ in 0..rng.below(30) {
                let c = rng.below(7) as usize;
                if b.can_drop(c) {
                    let v = if rng.below(4) == 0 { 8 } else { 1 + rng.below(7) as u8 };
                    let mut t = b;
                    t.drop_code(c, v);
                    if poppers(t.cols()).iter().all(|&p| p == 0) {
                        b = t;
                    }
                }
            }
            for c in 0..7 {
                if b.can_drop(c) {
                    let row = b.height(c);
                    let mut t = b;
                    t.drop_code(c, 1 + rng.below(7) as u8);
                    let full = poppers(t.cols()).iter().any(|&p| p != 0);
                    assert_eq!(landing_may_pop(t.cols(), c, row), full, "{t} column {c}");
                    checked += 1;
                }
            }
        }
    }

    #[test]
    fn gray_hits_crack_and_reveal() {
        // Two 1s pop (column run 1 each) next to a solid gray: one hit cracks it.
        let rules = Rules::new(Mode::Hardcore);
        let mut pos: Position = "......./......./......./......./......./......./.#..... next=1 level=1 drops=5 score=0"
            .parse()
            .unwrap();
        let mut d = ListDraws {
            discs: vec![Disc::number(1).unwrap(); 4],
            reveals: vec![6],
            ..Default::default()
        };
        pos.play(&rules, 0, &mut d).unwrap();
        assert_eq!(
            pos.board.to_string(),
            "......./......./......./......./......./......./.x....."
        );
        pos.play(&rules, 2, &mut d).unwrap();
        assert_eq!(
            pos.board.to_string(),
            "......./......./......./......./......./......./.6....."
        );
        assert_eq!(d.reveal_pos, 1);
    }
}
