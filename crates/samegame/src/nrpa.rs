//! Nested Rollout Policy Adaptation (Rosin, IJCAI 2011) with a prior bias on every move
//! (Cazenave's generalized NRPA, "GNRPA", 2020), for the score goal.
//!
//! # Algorithm
//! A *policy* maps a move's code to a weight (0 when never seen). A level-0 search is one
//! playout from the root: at every position each removable group `m` is drawn with
//! probability proportional to `exp(w(code(m)) + bias(m))`. A level-`n` search runs
//! `iterations` level-`n - 1` searches, each with a copy of its current policy, keeps the
//! best whole game seen (ties go to the newer one) and after every iteration *adapts* the
//! policy towards that game: along its moves, the chosen move's weight gains `alpha` and every
//! legal move's weight loses `alpha` times its probability under the policy before the update.
//! One level-`n` search costs `iterations^n` playouts.
//!
//! - **Code of a move**: the group's colour, size and representative tile (its leftmost
//!   column's lowest tile), so "the same group in the same place" is one code however the
//!   board was reached.
//! - **Bias** (the prior): groups of the *tabu* colour (the most frequent one on the root
//!   board) are either left out while any other group remains ([`Tabu::Strict`], the
//!   selective policy of the tabu-colour playouts) or get a fixed logit penalty
//!   ([`Tabu::Bias`]), so the policy can learn to play them early; every group also gets
//!   `size_bias * (size - 2)`, a lean towards big groups.
//! - A known answer (from the beam, say) can seed the top level's best game: the top level
//!   adapts towards it until something better is found, and never returns anything worse.
//!
//! # Determinism
//! One run draws from a single [`bits::Rng`] seeded by `seed` and plays its playouts in a
//! fixed order, so the answer depends only on the board, the settings and the seed.
//! [`search`] with `runs > 1` runs independent searches (seeds derived with
//! [`bits::rng::sub_seed`]) in parallel and keeps the best by a total order (score, then fewer
//! moves, then the lexicographically smaller move list): the same answer on any number of
//! threads.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::beam::Outcome;
use crate::board::{Board, MAX_COLORS};
use crate::groups::{group_at, Group, Groups};
use crate::rules::Rules;
use crate::trace::Move;

/// How the tabu colour (the most frequent colour of the root board) is treated. In JSON it
/// is its text form: `"strict"`, `"off"` or a logit such as `"-2"`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Tabu {
    /// No tabu colour: every group is a candidate with bias 0 (plus the size bias).
    Off,
    /// Groups of the tabu colour are candidates only when no other group is left.
    Strict,
    /// Groups of the tabu colour are always candidates, with this logit added (negative).
    Bias(f64),
}

impl std::str::FromStr for Tabu {
    type Err = String;

    /// `strict`, `off`, or a finite logit such as `-2` (a [`Tabu::Bias`]).
    fn from_str(s: &str) -> Result<Tabu, String> {
        match s.trim() {
            "strict" => Ok(Tabu::Strict),
            "off" => Ok(Tabu::Off),
            t => match t.parse::<f64>() {
                Ok(b) if b.is_finite() => Ok(Tabu::Bias(b)),
                _ => Err(format!("prior `{t}`: expected strict, off or a finite logit like -2")),
            },
        }
    }
}

impl TryFrom<String> for Tabu {
    type Error = String;

    fn try_from(s: String) -> Result<Tabu, String> {
        s.parse()
    }
}

impl From<Tabu> for String {
    fn from(t: Tabu) -> String {
        t.to_string()
    }
}

impl std::fmt::Display for Tabu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tabu::Off => f.write_str("off"),
            Tabu::Strict => f.write_str("strict"),
            Tabu::Bias(b) => write!(f, "{b}"),
        }
    }
}

/// Settings of an NRPA search.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Nesting level (1: `iterations` adapted playouts; each level multiplies the playouts
    /// by `iterations`).
    pub level: u32,
    /// Iterations per level.
    pub iterations: u32,
    /// Learning rate of the adaptation.
    pub alpha: f64,
    /// Treatment of the tabu colour.
    pub tabu: Tabu,
    /// Logit added per tile above two of a group (a lean towards big groups; 0 for none).
    pub size_bias: f64,
    /// Independent searches (seeds derived from `seed`), run in parallel; the best is kept.
    pub runs: u32,
    /// Scoring and minimum group size.
    pub rules: Rules,
    /// Seed of the playouts.
    pub seed: u64,
}

impl Config {
    /// Level `level`, 100 iterations, alpha 1, strict tabu colour, no size bias, one run.
    pub fn new(level: u32) -> Config {
        Config {
            level,
            iterations: 100,
            alpha: 1.0,
            tabu: Tabu::Strict,
            size_bias: 0.0,
            runs: 1,
            rules: Rules::default(),
            seed: 1,
        }
    }
}

/// Reported after each iteration of the top level.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Top-level iterations done (of the first run when `runs > 1`: only it reports).
    pub iteration: u32,
    /// Best score found so far by this run.
    pub best: i64,
    /// Playouts run so far by this run.
    pub playouts: u64,
}

/// A move's code: colour, size, representative tile (never 0, the empty key).
#[inline]
fn code(g: &Group) -> u32 {
    1 << 31
        | (g.size.min(0x7FF) << 17)
        | (u32::from(g.color & 7) << 14)
        | (u32::from(g.x & 0x3F) << 8)
        | u32::from(g.y)
}

/// Move code -> weight, open addressing (linear probing, key 0 = empty).
#[derive(Clone, Debug)]
struct Policy {
    keys: Vec<u32>,
    vals: Vec<f64>,
    len: usize,
}

impl Policy {
    fn new() -> Policy {
        Policy { keys: vec![0; 1024], vals: vec![0.0; 1024], len: 0 }
    }

    #[inline]
    fn slot(&self, key: u32) -> usize {
        (key.wrapping_mul(0x9E37_79B1) >> 8) as usize & (self.keys.len() - 1)
    }

    #[inline]
    fn get(&self, key: u32) -> f64 {
        let mask = self.keys.len() - 1;
        let mut i = self.slot(key);
        loop {
            let k = self.keys[i];
            if k == key {
                return self.vals[i];
            }
            if k == 0 {
                return 0.0;
            }
            i = (i + 1) & mask;
        }
    }

    fn add(&mut self, key: u32, delta: f64) {
        if (self.len + 1) * 2 > self.keys.len() {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = self.slot(key);
        loop {
            let k = self.keys[i];
            if k == key {
                self.vals[i] += delta;
                return;
            }
            if k == 0 {
                self.keys[i] = key;
                self.vals[i] = delta;
                self.len += 1;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::replace(
            self,
            Policy {
                keys: vec![0; self.keys.len() * 2],
                vals: vec![0.0; self.keys.len() * 2],
                len: 0,
            },
        );
        for (k, v) in old.keys.into_iter().zip(old.vals) {
            if k != 0 {
                self.add(k, v);
            }
        }
    }
}

/// A whole game from the root with what the adaptation needs: at step `t` the candidates
/// were `codes[starts[t]..starts[t + 1]]` (with their biases) and `chosen[t]` was played.
#[derive(Clone, Debug, Default)]
struct Game {
    score: i64,
    tiles_left: u32,
    moves: Vec<Move>,
    codes: Vec<u32>,
    bias: Vec<f64>,
    starts: Vec<u32>,
    chosen: Vec<u32>,
}

impl Game {
    fn clear(&mut self) {
        self.score = 0;
        self.tiles_left = 0;
        self.moves.clear();
        self.codes.clear();
        self.bias.clear();
        self.starts.clear();
        self.chosen.clear();
        self.starts.push(0);
    }

    /// Whether `self` beats `other`: higher score, then fewer moves, then smaller moves.
    fn better_than(&self, other: &Game) -> bool {
        self.score
            .cmp(&other.score)
            .then(other.moves.len().cmp(&self.moves.len()))
            .then(other.moves.cmp(&self.moves))
            == std::cmp::Ordering::Greater
    }
}

/// The most frequent colour (the lowest of equals).
fn tabu_color(board: &Board) -> u8 {
    let counts = board.color_counts();
    let mut tabu = 0usize;
    for c in 1..MAX_COLORS {
        if counts[c] > counts[tabu] {
            tabu = c;
        }
    }
    tabu as u8
}

/// One search's fixed context and buffers.
struct Run<'a> {
    cfg: &'a Config,
    root: &'a Board,
    tabu: u8,
    rng: bits::Rng,
    groups: Groups,
    board: Board,
    cand: Vec<usize>,
    weight: Vec<f64>,
    probs: Vec<f64>,
    playouts: u64,
    abort: Option<&'a AtomicBool>,
    /// Set once the abort flag has been seen: every level stops at its next iteration.
    stopped: bool,
}

impl<'a> Run<'a> {
    fn new(cfg: &'a Config, root: &'a Board, seed: u64, abort: Option<&'a AtomicBool>) -> Run<'a> {
        Run {
            cfg,
            root,
            tabu: tabu_color(root),
            rng: bits::Rng::new(seed),
            groups: Groups::new(),
            board: root.clone(),
            cand: Vec::new(),
            weight: Vec::new(),
            probs: Vec::new(),
            playouts: 0,
            abort,
            stopped: false,
        }
    }

    /// Whether the caller's abort flag is set (remembered in `stopped`).
    #[inline]
    fn stop(&mut self) -> bool {
        if self.abort.is_some_and(|a| a.load(Ordering::Relaxed)) {
            self.stopped = true;
        }
        self.stopped
    }

    /// The candidates of the current list (indices) and their biases, into `self.cand` and
    /// `out.bias`/`out.codes` (appended).
    #[inline]
    fn candidates(&mut self, out: &mut Game) {
        let list = self.groups.list();
        self.cand.clear();
        let strict_free = match self.cfg.tabu {
            Tabu::Strict => list.iter().any(|g| g.color != self.tabu),
            _ => false,
        };
        for (i, g) in list.iter().enumerate() {
            if strict_free && g.color == self.tabu {
                continue;
            }
            let mut b = self.cfg.size_bias * f64::from(g.size - 2);
            if let Tabu::Bias(t) = self.cfg.tabu {
                if g.color == self.tabu {
                    b += t;
                }
            }
            self.cand.push(i);
            out.codes.push(code(g));
            out.bias.push(b);
        }
    }

    /// One playout from the root under `pol`, written to `out`.
    fn playout(&mut self, pol: &Policy, out: &mut Game) {
        self.playouts += 1;
        out.clear();
        let rules = self.cfg.rules;
        self.board.clone_from(self.root);
        let mut score = 0;
        loop {
            if self.groups.find(&self.board, rules.min_group).is_empty() {
                break;
            }
            let base = out.codes.len();
            self.candidates(out);
            let n = self.cand.len();
            self.weight.clear();
            let mut top = f64::NEG_INFINITY;
            for k in 0..n {
                let w = pol.get(out.codes[base + k]) + out.bias[base + k];
                self.weight.push(w);
                top = top.max(w);
            }
            let mut sum = 0.0;
            for w in &mut self.weight {
                *w = (*w - top).exp();
                sum += *w;
            }
            let mut r = self.rng.unit_f64() * sum;
            let mut pick = n - 1;
            for (k, w) in self.weight.iter().enumerate() {
                if r < *w {
                    pick = k;
                    break;
                }
                r -= w;
            }
            let g = self.groups.list()[self.cand[pick]];
            self.groups.remove(&mut self.board, &g);
            score += rules.points(g.size);
            out.moves.push((g.x, g.y));
            out.chosen.push(pick as u32);
            out.starts.push(out.codes.len() as u32);
        }
        score += rules.end_bonus(out.moves.len(), self.board.is_clear());
        out.score = score;
        out.tiles_left = self.board.tiles();
    }

    /// Adapts `pol` towards `best` (probabilities from `pol` before the update).
    fn adapt(&mut self, pol: &mut Policy, best: &Game) {
        let alpha = self.cfg.alpha;
        self.probs.clear();
        for t in 0..best.chosen.len() {
            let (lo, hi) = (best.starts[t] as usize, best.starts[t + 1] as usize);
            let mut top = f64::NEG_INFINITY;
            let first = self.probs.len();
            for k in lo..hi {
                let w = pol.get(best.codes[k]) + best.bias[k];
                self.probs.push(w);
                top = top.max(w);
            }
            let mut sum = 0.0;
            for p in &mut self.probs[first..] {
                *p = (*p - top).exp();
                sum += *p;
            }
            for p in &mut self.probs[first..] {
                *p /= sum;
            }
        }
        for t in 0..best.chosen.len() {
            let (lo, hi) = (best.starts[t] as usize, best.starts[t + 1] as usize);
            pol.add(best.codes[lo + best.chosen[t] as usize], alpha);
            for k in lo..hi {
                pol.add(best.codes[k], -alpha * self.probs[k]);
            }
        }
    }

    /// A level-`level` search (`level >= 1`) with a copy of `pol`, starting from `start` as
    /// its best game if given. `None` only when stopped before any whole game was seen (or
    /// with zero iterations).
    fn nested(
        &mut self,
        level: u32,
        pol: &Policy,
        start: Option<Game>,
        progress: &mut dyn FnMut(&Progress),
    ) -> Option<Game> {
        let mut pol = pol.clone();
        let mut best = start;
        if let Some(b) = &best {
            self.adapt(&mut pol, b);
        }
        let mut cur = Game::default();
        for it in 0..self.cfg.iterations {
            if self.stop() {
                break;
            }
            if level == 1 {
                self.playout(&pol, &mut cur);
            } else {
                cur = match self.nested(level - 1, &pol, None, &mut |_| {}) {
                    Some(g) => g,
                    // Cut short before the level below saw a whole game.
                    None if self.stopped => break,
                    None => Game::default(),
                };
            }
            match &mut best {
                Some(b) if cur.score < b.score => {}
                Some(b) => std::mem::swap(b, &mut cur),
                None => best = Some(std::mem::take(&mut cur)),
            }
            self.adapt(&mut pol, best.as_ref().expect("set above"));
            progress(&Progress {
                iteration: it + 1,
                best: best.as_ref().map_or(0, |b| b.score),
                playouts: self.playouts,
            });
        }
        best
    }

    /// `moves` replayed from the root as a [`Game`] (candidates as a playout would record
    /// them; a move outside the candidates adds every group of that step); `None` if a move
    /// is illegal or the game does not end.
    fn replay(&mut self, moves: &[Move]) -> Option<Game> {
        let rules = self.cfg.rules;
        let mut out = Game::default();
        out.clear();
        self.board.clone_from(self.root);
        let mut score = 0;
        for &(x, y) in moves {
            let (color, cells) = group_at(&self.board, usize::from(x), usize::from(y))?;
            let list = self.groups.find(&self.board, rules.min_group);
            let idx = list
                .iter()
                .position(|g| g.color == color && cells[usize::from(g.x)] >> g.y & 1 == 1)?;
            let base = out.codes.len();
            self.candidates(&mut out);
            let pick = match self.cand.iter().position(|&i| i == idx) {
                Some(p) => p,
                None => {
                    // A move the playouts would not make: list every group at this step.
                    out.codes.truncate(base);
                    out.bias.truncate(base);
                    for g in self.groups.list() {
                        out.codes.push(code(g));
                        out.bias.push(0.0);
                    }
                    idx
                }
            };
            let g = self.groups.list()[idx];
            self.groups.remove(&mut self.board, &g);
            score += rules.points(g.size);
            out.moves.push((g.x, g.y));
            out.chosen.push(pick as u32);
            out.starts.push(out.codes.len() as u32);
        }
        if !self.groups.find(&self.board, rules.min_group).is_empty() {
            return None;
        }
        score += rules.end_bonus(out.moves.len(), self.board.is_clear());
        out.score = score;
        out.tiles_left = self.board.tiles();
        Some(out)
    }
}

fn outcome(g: Game, playouts: u64) -> Outcome {
    Outcome {
        cleared: g.tiles_left == 0,
        tiles_left: g.tiles_left,
        score: g.score,
        layers: g.moves.len(),
        moves: g.moves,
        nodes: playouts,
        aborted: false,
    }
}

/// One run from `board` with `seed`.
fn run_one(
    board: &Board,
    cfg: &Config,
    seed: u64,
    known: Option<&Outcome>,
    abort: Option<&AtomicBool>,
    progress: &mut dyn FnMut(&Progress),
) -> Outcome {
    let mut run = Run::new(cfg, board, seed, abort);
    if run.groups.find(board, cfg.rules.min_group).is_empty() {
        let g = Game { tiles_left: board.tiles(), ..Game::default() };
        // No move to make: no points, and no bonus for a board that starts empty.
        return outcome(g, 0);
    }
    let start = known.and_then(|k| run.replay(&k.moves));
    let pol = Policy::new();
    let best = if cfg.level == 0 {
        let mut g = Game::default();
        run.playout(&pol, &mut g);
        match start {
            Some(s) if !g.better_than(&s) => s,
            _ => g,
        }
    } else {
        match run.nested(cfg.level, &pol, start, progress) {
            Some(g) => g,
            // Stopped before any whole game: no moves from the root (not a finished game).
            None if run.stopped => Game { tiles_left: board.tiles(), ..Game::default() },
            None => Game::default(),
        }
    };
    Outcome { aborted: run.stopped, ..outcome(best, run.playouts) }
}

/// Runs the search from `board` (`cfg.runs` independent runs, in parallel, the best kept);
/// `progress` is called after each top-level iteration of the first run.
pub fn search(board: &Board, cfg: &Config, progress: impl FnMut(&Progress) + Send) -> Outcome {
    search_from(board, cfg, None, progress)
}

/// Like [`search`], but every run's top level starts with `known` (an answer from any other
/// search) as its best game, so the result is never worse than `known`. `known` is replayed
/// first (any tile of a group may name it); if it is illegal or unfinished it is ignored.
pub fn search_from(
    board: &Board,
    cfg: &Config,
    known: Option<&Outcome>,
    progress: impl FnMut(&Progress) + Send,
) -> Outcome {
    search_from_with_abort(board, cfg, known, None, progress)
}

/// Like [`search_from`], but `abort` stops every run (checked before each iteration of every
/// level, so within about one playout). A stopped search returns, with `aborted` set, the
/// best whole game it had found (or `known`); when it had none yet, an empty move list from
/// `board` (not a finished game). Without the flag set the answer is exactly that of
/// [`search_from`].
pub fn search_from_with_abort(
    board: &Board,
    cfg: &Config,
    known: Option<&Outcome>,
    abort: Option<&AtomicBool>,
    progress: impl FnMut(&Progress) + Send,
) -> Outcome {
    let runs = cfg.runs.max(1);
    if runs == 1 {
        let mut progress = progress;
        return run_one(board, cfg, cfg.seed, known, abort, &mut progress);
    }
    let progress = std::sync::Mutex::new(progress);
    let outs: Vec<Outcome> = (0..runs)
        .into_par_iter()
        .map(|r| {
            let seed = bits::rng::sub_seed(cfg.seed, u64::from(r));
            if r == 0 {
                let mut report = |p: &Progress| {
                    if let Ok(mut f) = progress.lock() {
                        f(p);
                    }
                };
                run_one(board, cfg, seed, known, abort, &mut report)
            } else {
                run_one(board, cfg, seed, known, abort, &mut |_| {})
            }
        })
        .collect();
    best_of(outs)
}

/// The best of several searches' answers by [`Outcome::better_than`], with their nodes summed.
fn best_of(outs: Vec<Outcome>) -> Outcome {
    let nodes = outs.iter().map(|o| o.nodes).sum();
    let aborted = outs.iter().any(|o| o.aborted);
    let mut out = outs
        .into_iter()
        .reduce(|a, b| if b.better_than(&a) { b } else { a })
        .expect("at least one search");
    out.nodes = nodes;
    out.aborted = aborted;
    out
}

/// A portfolio: one [`search_from`] per prior in `priors` (each with `cfg` but that
/// [`Tabu`], and the same seed, so every member's answer is the one it gives alone), run in
/// parallel; the best answer is kept by the total order of [`Outcome::better_than`] and the
/// playouts of all members are summed. No two priors search the same way, and which one
/// wins differs from board to board: the strict tabu colour and a soft logit win about as
/// often as each other on the standard set. An empty `priors` means `cfg.tabu` alone.
/// `progress` follows the first member. The same answer on any number of threads.
pub fn search_portfolio(
    board: &Board,
    cfg: &Config,
    priors: &[Tabu],
    known: Option<&Outcome>,
    progress: impl FnMut(&Progress) + Send,
) -> Outcome {
    search_portfolio_with_abort(board, cfg, priors, known, None, progress)
}

/// Like [`search_portfolio`], but `abort` stops every member as in
/// [`search_from_with_abort`]; the best of the members' answers is kept as usual and
/// `aborted` is set if any member was stopped.
pub fn search_portfolio_with_abort(
    board: &Board,
    cfg: &Config,
    priors: &[Tabu],
    known: Option<&Outcome>,
    abort: Option<&AtomicBool>,
    progress: impl FnMut(&Progress) + Send,
) -> Outcome {
    if priors.len() <= 1 {
        let cfg = Config { tabu: priors.first().copied().unwrap_or(cfg.tabu), ..*cfg };
        return search_from_with_abort(board, &cfg, known, abort, progress);
    }
    let progress = std::sync::Mutex::new(progress);
    let outs: Vec<Outcome> = priors
        .par_iter()
        .enumerate()
        .map(|(i, &tabu)| {
            let cfg = Config { tabu, ..*cfg };
            if i == 0 {
                search_from_with_abort(board, &cfg, known, abort, |p: &Progress| {
                    if let Ok(mut f) = progress.lock() {
                        f(p);
                    }
                })
            } else {
                search_from_with_abort(board, &cfg, known, abort, |_: &Progress| {})
            }
        })
        .collect();
    best_of(outs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priors_parse_and_print() {
        for (s, t) in [("strict", Tabu::Strict), ("off", Tabu::Off), ("-2", Tabu::Bias(-2.0))] {
            assert_eq!(s.parse::<Tabu>(), Ok(t));
            assert_eq!(t.to_string(), s);
        }
        for bad in ["", "soft", "nan", "inf", "-2x"] {
            assert!(bad.parse::<Tabu>().is_err(), "{bad}");
        }
    }

    /// The portfolio's answer is its best member's, each member the answer of a lone search.
    #[test]
    fn portfolio_keeps_the_best_member() {
        let priors = [Tabu::Strict, Tabu::Bias(-2.0), Tabu::Off];
        for seed in 0..6 {
            let b = Board::random(7, 7, 4, 100 + seed);
            let cfg = Config { iterations: 8, seed, ..Config::new(2) };
            let alone: Vec<Outcome> =
                priors.iter().map(|&tabu| search(&b, &Config { tabu, ..cfg }, |_| {})).collect();
            let port = search_portfolio(&b, &cfg, &priors, None, |_| {});
            let best = alone.iter().map(|o| o.score).max().unwrap();
            assert_eq!(port.score, best);
            assert!(alone.iter().any(|o| o.moves == port.moves));
            assert_eq!(port.nodes, alone.iter().map(|o| o.nodes).sum::<u64>());
        }
    }

    #[test]
    fn policy_map_grows_and_keeps_values() {
        let mut p = Policy::new();
        for k in 1..5000u32 {
            p.add((k * 7919) | (1 << 31), f64::from(k));
        }
        for k in 1..5000u32 {
            assert_eq!(p.get((k * 7919) | (1 << 31)), f64::from(k));
        }
        assert_eq!(p.get(12345), 0.0);
    }

    /// Adapting towards a game raises the probability of each of its moves.
    #[test]
    fn adaptation_favours_the_best_game() {
        let b = Board::random(8, 8, 4, 3);
        let cfg = Config::new(1);
        let mut run = Run::new(&cfg, &b, 5, None);
        let mut pol = Policy::new();
        let mut g = Game::default();
        run.playout(&pol, &mut g);
        let prob = |pol: &Policy, t: usize| {
            let (lo, hi) = (g.starts[t] as usize, g.starts[t + 1] as usize);
            let z: f64 = (lo..hi).map(|k| (pol.get(g.codes[k]) + g.bias[k]).exp()).sum();
            let k = lo + g.chosen[t] as usize;
            (pol.get(g.codes[k]) + g.bias[k]).exp() / z
        };
        let before: Vec<f64> = (0..g.chosen.len()).map(|t| prob(&pol, t)).collect();
        run.adapt(&mut pol, &g);
        for (t, p) in before.iter().enumerate() {
            if g.starts[t + 1] - g.starts[t] > 1 {
                assert!(prob(&pol, t) > *p, "step {t}");
            }
        }
    }
}
