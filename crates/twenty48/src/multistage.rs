//! A multistage n-tuple network (Yeh et al. 2017, "Multistage temporal difference learning
//! for 2048-like games"): one [`NTuple`] of the same shape per stage of the game, the stage of
//! an afterstate decided by the tiles it holds.
//!
//! # Implementation notes
//!
//! ```text
//!   stage rule (documented, fixed; `stages` = the network's stage count):
//!     stage 0   no tile >= 16384
//!     stage 1   a tile >= 16384 (with 3 stages: and no 8192 beside it)
//!     stage 2   (3 stages only) a tile >= 16384 and an 8192
//!
//!   "a tile >= 16384": a nibble >= 14, i.e. its bits 3, 2 and 1 all set:
//!       x & (x >> 1) & (x >> 2) & 0x2222_2222_2222_2222 != 0
//!   "an 8192": a nibble equal to 13: z = x ^ 0xDDDD..., a zero nibble of z
//!       (z - 0x1111...) & !z & 0x8888... != 0   (exact as a yes/no)
//! ```
//!
//! - The value of a board is the value its stage's network gives it: one stage test (a
//!   handful of register operations) and then the same 32 table reads as [`NTuple::value`];
//!   a one-stage network is exactly its single network.
//! - Training a later stage ([`train_stage_game`]) starts from boards where a player of the
//!   earlier stages first reached the stage ([`first_reaching`]); its games are greedy on
//!   reward + the multistage value (each afterstate valued by its own stage), and TD(0)
//!   updates only the afterstates of the stage being trained, so the earlier stages stay as
//!   they are. A new stage starts as a copy of the one before it (warm start,
//!   [`MultiStage::push_copy`]).
//! - The weight file is [`crate::ntuple::encode_stages`] / [`crate::ntuple::decode_stages`]
//!   (format version 2; version-1 files are one-stage networks).

use std::fmt;

use bits::Rng;

use crate::board::Board;
use crate::game::draw_spawn;
use crate::ntuple::{greedy_by, merged_value, td_game, NTuple, TdNet, TrainGame};
use crate::tables::OVERFLOW;

/// The most stages a network may have.
pub const MAX_STAGES: usize = 3;

/// The rank of the tile that opens stage 1 (16384).
pub const STAGE_RANK: u8 = 14;

/// `true` when `b` holds a tile of 16384 or more (a nibble >= 14).
#[inline(always)]
pub fn holds_16384(b: Board) -> bool {
    let x = b.0;
    x & (x >> 1) & (x >> 2) & 0x2222_2222_2222_2222 != 0
}

/// `true` when `b` holds an 8192 (a nibble equal to 13).
#[inline(always)]
pub fn holds_8192(b: Board) -> bool {
    let z = b.0 ^ 0xDDDD_DDDD_DDDD_DDDD;
    z.wrapping_sub(0x1111_1111_1111_1111) & !z & 0x8888_8888_8888_8888 != 0
}

/// The stage of `b` in a network of `stages` stages (the rule of the module notes).
#[inline(always)]
pub fn stage_of(b: Board, stages: usize) -> usize {
    if stages < 2 || !holds_16384(b) {
        0
    } else if stages == 2 || !holds_8192(b) {
        1
    } else {
        2
    }
}

/// The slow twin of [`stage_of`]: the board's ranks as a 4x4 array, compared one by one.
pub fn stage_of_reference(b: Board, stages: usize) -> usize {
    let ranks = b.to_ranks();
    let any = |p: &dyn Fn(u8) -> bool| ranks.iter().flatten().any(|&r| p(r));
    let big = any(&|r| r >= STAGE_RANK);
    let eight = any(&|r| r == STAGE_RANK - 1);
    match stages {
        0 | 1 => 0,
        2 => usize::from(big),
        _ if !big => 0,
        _ if eight => 2,
        _ => 1,
    }
}

/// Why a list of networks is not a multistage network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StageError {
    /// No networks, or more than [`MAX_STAGES`].
    Count(usize),
    /// A stage whose shape is not stage 0's.
    Shape {
        /// The stage (0-based).
        stage: usize,
    },
}

impl fmt::Display for StageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StageError::Count(n) => write!(f, "{n} stages (a network has 1 to {MAX_STAGES})"),
            StageError::Shape { stage } => {
                write!(f, "stage {} has another tuple shape than stage 1", stage + 1)
            }
        }
    }
}

impl std::error::Error for StageError {}

/// A network of 1 to [`MAX_STAGES`] stages, each an [`NTuple`] of the same shape.
#[derive(Clone, Debug)]
pub struct MultiStage {
    stages: Vec<NTuple>,
}

impl MultiStage {
    /// The network of these stages (stage 0 first), checked: 1 to [`MAX_STAGES`] of one shape.
    pub fn new(stages: Vec<NTuple>) -> Result<MultiStage, StageError> {
        if stages.is_empty() || stages.len() > MAX_STAGES {
            return Err(StageError::Count(stages.len()));
        }
        if let Some(s) = stages.iter().position(|n| n.shape() != stages[0].shape()) {
            return Err(StageError::Shape { stage: s });
        }
        Ok(MultiStage { stages })
    }

    /// A one-stage network: `net` itself.
    pub fn single(net: NTuple) -> MultiStage {
        MultiStage { stages: vec![net] }
    }

    /// The number of stages.
    pub fn count(&self) -> usize {
        self.stages.len()
    }

    /// The stages, stage 0 first.
    pub fn stages(&self) -> &[NTuple] {
        &self.stages
    }

    /// The stages, taken out.
    pub fn into_stages(self) -> Vec<NTuple> {
        self.stages
    }

    /// Stage `i`'s network.
    pub fn stage(&self, i: usize) -> &NTuple {
        &self.stages[i]
    }

    /// Stage `i`'s network, writable.
    pub fn stage_mut(&mut self, i: usize) -> &mut NTuple {
        &mut self.stages[i]
    }

    /// Adds a stage, a copy of the last one (the warm start of a new stage's training).
    /// Returns `false`, and adds nothing, when there are already [`MAX_STAGES`].
    pub fn push_copy(&mut self) -> bool {
        if self.stages.len() >= MAX_STAGES {
            return false;
        }
        let last = self.stages[self.stages.len() - 1].clone();
        self.stages.push(last);
        true
    }

    /// The stage of `b` in this network ([`stage_of`] with this network's count).
    #[inline(always)]
    pub fn stage_of(&self, b: Board) -> usize {
        stage_of(b, self.stages.len())
    }

    /// The value of an afterstate: its stage's network's value.
    #[inline]
    pub fn value(&self, b: Board) -> f32 {
        self.stages[self.stage_of(b)].value(b)
    }

    /// FNV-1a over every stage's fingerprint, in order.
    pub fn fingerprint(&self) -> u64 {
        let mut h = bits::Fnv::new();
        for s in &self.stages {
            h.write(&s.fingerprint().to_le_bytes());
        }
        h.finish()
    }
}

/// The multistage network as the search's evaluator, as [`crate::ntuple::NetEval`]: a leaf
/// afterstate is worth [`merged_value`] + the value of its stage's network, a dead end its
/// [`merged_value`].
#[derive(Clone, Copy, Debug)]
pub struct MultiEval<'n>(pub &'n MultiStage);

impl crate::search::Evaluator for MultiEval<'_> {
    #[inline]
    fn eval(&self, b: Board) -> f32 {
        merged_value(b) + self.0.value(b)
    }

    #[inline]
    fn dead_end(&self, b: Board) -> f32 {
        merged_value(b)
    }
}

/// The multistage network in the self-play loop [`td_game`]: afterstates valued by their
/// own stage; the afterstates of stage `stage` (only) move towards their targets with step
/// `alpha`, in that stage's network.
struct StageLearn<'n> {
    net: &'n mut MultiStage,
    stage: usize,
    alpha: f32,
}

impl TdNet for StageLearn<'_> {
    #[inline]
    fn value(&self, b: Board) -> f32 {
        self.net.value(b)
    }

    #[inline]
    fn learn(&mut self, prev: Board, target: f32) {
        if self.net.stage_of(prev) == self.stage {
            let table = self.net.stage_mut(self.stage);
            let err = target - table.value(prev);
            table.update(prev, self.alpha * err);
        }
    }
}

/// The multistage network in [`td_game`] without learning (held-out games).
struct Frozen<'n>(&'n MultiStage);

impl TdNet for Frozen<'_> {
    #[inline]
    fn value(&self, b: Board) -> f32 {
        self.0.value(b)
    }

    #[inline]
    fn learn(&mut self, _prev: Board, _target: f32) {}
}

/// The start board of a stage-training game with spawn seed `seed`: `starts[rng.below(n)]`
/// with `rng = Rng::new(seed)`, the same generator then drawing the game's spawns.
fn pick_start(starts: &[Board], seed: u64) -> (Board, Rng) {
    assert!(!starts.is_empty(), "no start boards");
    let mut rng = Rng::new(seed);
    let start = starts[rng.below(starts.len() as u64) as usize];
    (start, rng)
}

/// One training game of stage `stage` (>= 1): the start board is chosen among `starts` by
/// the seed (`Rng::new(seed)` draws the start's index `below(n)`, then the spawns),
/// the game is greedy 1-ply on reward + the multistage value, and TD(0) with step `alpha`
/// moves only the afterstates of `stage` (in stage `stage`'s network). Deterministic: same
/// network, starts, seed and alpha, same result. The score counts this game's rewards only.
pub fn train_stage_game(
    net: &mut MultiStage,
    stage: usize,
    starts: &[Board],
    seed: u64,
    alpha: f32,
) -> TrainGame {
    assert!(stage < net.count(), "stage {stage} of a {}-stage network", net.count());
    let (start, mut rng) = pick_start(starts, seed);
    td_game(&mut StageLearn { net, stage, alpha }, start, &mut rng)
}

/// Plays one greedy 1-ply game (no learning) from `start` (an afterstate) with spawns from
/// `Rng::new(seed)`: the held-out measure of a stage's training. The score counts this
/// game's rewards only.
pub fn play_from(net: &MultiStage, start: Board, seed: u64) -> TrainGame {
    td_game(&mut Frozen(net), start, &mut Rng::new(seed))
}

/// Plays a greedy 1-ply game on `net` from the empty board with spawn seed `seed` (the
/// documented spawn rule, two spawns to open, as [`crate::ntuple::train_game`]) and returns
/// the first afterstate whose stage in a `stages`-stage network is `stage`, or `None` if the
/// game ends first. The boards a stage's training starts from.
pub fn first_reaching(net: &MultiStage, seed: u64, stages: usize, stage: usize) -> Option<Board> {
    let mut rng = Rng::new(seed);
    let mut board = Board::EMPTY;
    if let Some(s) = draw_spawn(board, &mut rng) {
        board = board.with(s.cell, s.rank);
    }
    loop {
        if let Some(s) = draw_spawn(board, &mut rng) {
            board = board.with(s.cell, s.rank);
        }
        match greedy_by(board, |b| net.value(b)) {
            None | Some((_, _, OVERFLOW, _)) => return None,
            Some((_, nb, _, _)) => {
                if stage_of(nb, stages) == stage {
                    return Some(nb);
                }
                board = nb;
            }
        }
    }
}

/// Why a start file's line is not a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartsError {
    /// The line (1-based).
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for StartsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for StartsError {}

/// Reads a start file: one board per line in the text form (`2 4 . ./...`), blank lines and
/// lines starting with `#` skipped. At least one board.
pub fn parse_starts(text: &str) -> Result<Vec<Board>, StartsError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let b: Board =
            line.parse().map_err(|e| StartsError { line: i + 1, message: format!("{e}") })?;
        out.push(b);
    }
    if out.is_empty() {
        return Err(StartsError { line: 0, message: "no boards".to_string() });
    }
    Ok(out)
}

/// The text of a start file: a comment line, then one board per line.
pub fn format_starts(comment: &str, boards: &[Board]) -> String {
    let mut s = format!("# {comment}\n");
    for b in boards {
        s += &format!("{b}\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_rule_on_edges() {
        let b = |t: &str| t.parse::<Board>().unwrap();
        let low = b("8192 8192 4096 ./. . . ./. . . ./. . . 2");
        assert_eq!((stage_of(low, 1), stage_of(low, 2), stage_of(low, 3)), (0, 0, 0));
        let one = b("16384 4096 . ./. . . ./. . . ./. . . 2");
        assert_eq!((stage_of(one, 1), stage_of(one, 2), stage_of(one, 3)), (0, 1, 1));
        let two = b("16384 8192 . ./. . . ./. . . ./. . . 2");
        assert_eq!((stage_of(two, 1), stage_of(two, 2), stage_of(two, 3)), (0, 1, 2));
        let big = b("32768 8192 . ./. . . ./. . . ./. . . 2");
        assert_eq!((stage_of(big, 2), stage_of(big, 3)), (1, 2));
        assert!(holds_16384(Board::EMPTY.with(5, 15)));
        assert!(!holds_8192(b("4096 16384 . ./. . . ./. . . ./. . . .")));
    }

    #[test]
    fn starts_text_round_trips_and_names_the_line() {
        let boards: Vec<Board> = vec![
            "16384 2 . ./. . . ./. . . ./. . . 4".parse().unwrap(),
            "2 4 8 16/32 64 128 256/512 1024 2048 4096/8192 16384 . .".parse().unwrap(),
        ];
        let text = format_starts("test", &boards);
        assert_eq!(parse_starts(&text).unwrap(), boards);
        let e =
            parse_starts("# c\n2 . . ./. . . ./. . . ./. . . .\n2 3 . ./. . . ./. . . ./. . . .")
                .unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(parse_starts("# nothing\n\n").unwrap_err().line, 0);
    }
}
