//! The reference engine: a plain 7x7 array and loops, written straight from the spec, with
//! none of the packed engine's tricks. The gate tests play the same games on both and demand
//! identical trajectories.

// Index loops over rows and columns are the point here: they read like the spec.
#![allow(clippy::needless_range_loop)]

use crate::board::{Board, Disc, CRACKED, EMPTY, SIZE, SOLID};
use crate::engine::{Draws, Rules, CLEAR_BONUS};

/// A game on a plain array: `grid[row][col]`, row 0 at the bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefGame {
    /// Cells, `grid[row][col]`, row 0 at the bottom, codes as in [`crate::board`].
    pub grid: [[u8; SIZE]; SIZE],
    /// The next disc.
    pub next: Disc,
    /// The level.
    pub level: u32,
    /// Drops left in the level.
    pub drops_left: u32,
    /// The score.
    pub score: u64,
    /// Game over.
    pub over: bool,
}

/// Points per marked disc at chain level `n`: the largest `k` with `k * k <= 49 * n^5`,
/// found by counting up (obviously correct, slow).
pub fn ref_chain_value(n: u32) -> u64 {
    let n = u64::from(n.min(127));
    let target = 49 * n * n * n * n * n;
    let mut k = ((target as f64).sqrt() as u64).saturating_sub(2);
    while (k + 1) * (k + 1) <= target {
        k += 1;
    }
    k
}

fn is_number(v: u8) -> bool {
    (1..=7).contains(&v)
}

impl RefGame {
    /// A reference game from a packed position.
    pub fn from_position(p: &crate::Position) -> RefGame {
        RefGame {
            grid: p.board.to_cells(),
            next: p.next,
            level: p.level,
            drops_left: p.drops_left,
            score: p.score,
            over: p.over,
        }
    }

    /// The packed board of this grid.
    pub fn board(&self) -> Board {
        Board::from_cells(&self.grid).expect("the reference keeps columns packed")
    }

    fn height(&self, c: usize) -> usize {
        (0..SIZE).take_while(|&r| self.grid[r][c] != EMPTY).count()
    }

    /// One wave: marks, scores, hits grays, reveals, removes, falls. Returns the number of
    /// marked discs.
    fn wave<D: Draws>(&mut self, n: u32, draws: &mut D) -> u32 {
        let g = &self.grid;
        let mut marked = [[false; SIZE]; SIZE];
        let mut count = 0;
        for r in 0..SIZE {
            for c in 0..SIZE {
                let v = g[r][c];
                if !is_number(v) {
                    continue;
                }
                // Run through (r, c) in its row.
                let mut lo = c;
                while lo > 0 && g[r][lo - 1] != EMPTY {
                    lo -= 1;
                }
                let mut hi = c;
                while hi + 1 < SIZE && g[r][hi + 1] != EMPTY {
                    hi += 1;
                }
                let row_run = hi - lo + 1;
                // Run through (r, c) in its column.
                let mut bot = r;
                while bot > 0 && g[bot - 1][c] != EMPTY {
                    bot -= 1;
                }
                let mut top = r;
                while top + 1 < SIZE && g[top + 1][c] != EMPTY {
                    top += 1;
                }
                let col_run = top - bot + 1;
                if usize::from(v) == row_run || usize::from(v) == col_run {
                    marked[r][c] = true;
                    count += 1;
                }
            }
        }
        if count == 0 {
            return 0;
        }
        self.score += u64::from(count) * ref_chain_value(n);
        // Grays: count marked neighbours on the board before removal.
        let mut reveal = [[false; SIZE]; SIZE];
        for r in 0..SIZE {
            for c in 0..SIZE {
                let v = self.grid[r][c];
                if v != SOLID && v != CRACKED {
                    continue;
                }
                let mut hits = 0;
                if r + 1 < SIZE && marked[r + 1][c] {
                    hits += 1;
                }
                if r > 0 && marked[r - 1][c] {
                    hits += 1;
                }
                if c > 0 && marked[r][c - 1] {
                    hits += 1;
                }
                if c + 1 < SIZE && marked[r][c + 1] {
                    hits += 1;
                }
                if (v == CRACKED && hits >= 1) || (v == SOLID && hits >= 2) {
                    reveal[r][c] = true;
                } else if v == SOLID && hits == 1 {
                    self.grid[r][c] = CRACKED;
                }
            }
        }
        // Reveals in row-major order from the top-left.
        for r in (0..SIZE).rev() {
            for c in 0..SIZE {
                if reveal[r][c] {
                    self.grid[r][c] = draws.reveal();
                }
            }
        }
        // Remove the marked discs and let every column fall.
        for c in 0..SIZE {
            let mut kept = Vec::new();
            for r in 0..SIZE {
                if self.grid[r][c] != EMPTY && !marked[r][c] {
                    kept.push(self.grid[r][c]);
                }
            }
            for r in 0..SIZE {
                self.grid[r][c] = kept.get(r).copied().unwrap_or(EMPTY);
            }
        }
        count
    }

    fn resolve<D: Draws>(&mut self, first: u32, draws: &mut D) -> u32 {
        let mut n = first;
        while self.wave(n, draws) > 0 {
            n += 1;
        }
        n - first
    }

    fn is_empty(&self) -> bool {
        self.grid.iter().all(|row| row.iter().all(|&v| v == EMPTY))
    }

    /// Plays the next disc in column `col`: the spec's turn, steps 1-6. Returns the waves, or
    /// `None` if the move is illegal.
    pub fn play<D: Draws>(&mut self, rules: &Rules, col: usize, draws: &mut D) -> Option<u32> {
        if self.over || col >= SIZE || self.height(col) == SIZE {
            return None;
        }
        let h = self.height(col);
        self.grid[h][col] = if self.next.is_gray() { SOLID } else { self.next.code() };
        let mut waves = self.resolve(1, draws);
        if self.is_empty() {
            self.score += CLEAR_BONUS;
        }
        self.drops_left -= 1;
        if self.drops_left == 0 {
            if (0..SIZE).any(|c| self.height(c) == SIZE) {
                if rules.fatal_rise_bonus {
                    self.score += rules.level_bonus();
                }
                self.over = true;
                return Some(waves);
            }
            self.score += rules.level_bonus();
            self.level += 1;
            for r in (1..SIZE).rev() {
                self.grid[r] = self.grid[r - 1];
            }
            self.grid[0] = [SOLID; SIZE];
            let first = if rules.rise_chain_continues { waves + 1 } else { 1 };
            waves += self.resolve(first, draws);
            if self.is_empty() {
                self.score += CLEAR_BONUS;
            }
            self.drops_left = rules.drops(self.level);
        }
        if (0..SIZE).all(|c| self.height(c) == SIZE) {
            self.over = true;
            return Some(waves);
        }
        self.next = draws.next_disc();
        Some(waves)
    }
}

/// Plays one random-policy game (columns drawn uniformly among the open ones from
/// `Rng::new(sub_seed(seed, 1))`) on the packed engine and on this reference, from the same
/// seeded stream, and compares every turn: board, next disc, level, drops left, score, game
/// over, waves, the values revealed, and `eval` against its reference form. Returns the
/// number of turns, or the first difference as a message with a pasteable position.
pub fn compare_random_game<E: crate::search::Evaluator>(
    rules: &Rules,
    seed: u64,
    max_moves: u32,
    eval: &E,
) -> Result<u32, String> {
    use crate::engine::{RandomDraws, Recording};
    use crate::Position;
    let mut fast_draws = Recording::new(RandomDraws::new(rules, seed));
    let mut ref_draws = Recording::new(RandomDraws::new(rules, seed));
    let mut pos = Position::new_game(rules, &mut fast_draws.inner);
    let mut refg = RefGame::from_position(&Position::new_game(rules, &mut ref_draws.inner));
    if RefGame::from_position(&pos) != refg {
        return Err(format!("seed {seed}: openings differ"));
    }
    let mut policy = bits::Rng::new(bits::rng::sub_seed(seed, 1));
    let mut moves = 0;
    while !pos.over && moves < max_moves {
        let open: Vec<usize> = (0..SIZE).filter(|&c| pos.board.can_drop(c)).collect();
        let col = open[policy.below(open.len() as u64) as usize];
        let before = pos;
        let turn = pos.play(rules, col, &mut fast_draws).map_err(|e| e.to_string())?;
        let waves = refg
            .play(rules, col, &mut ref_draws)
            .ok_or_else(|| format!("seed {seed}: the reference refuses column {}", col + 1))?;
        moves += 1;
        if RefGame::from_position(&pos) != refg
            || turn.waves != waves
            || fast_draws.reveals != ref_draws.reveals
        {
            return Err(format!(
                "seed {seed}, turn {moves}: from {before} column {}\n fast {pos} waves {}\n ref  {} next={} level={} drops={} score={} over={} waves {waves}",
                col + 1,
                turn.waves,
                refg.board(),
                refg.next,
                refg.level,
                refg.drops_left,
                refg.score,
                refg.over
            ));
        }
        fast_draws.reveals.clear();
        ref_draws.reveals.clear();
        let fe = eval.eval(&pos.board, pos.level, pos.drops_left);
        let re = eval.eval_reference(&refg.grid, refg.level, refg.drops_left);
        if fe.to_bits() != re.to_bits() {
            return Err(format!(
                "seed {seed}, turn {moves}: leaf value {fe} vs reference {re} on {pos}"
            ));
        }
    }
    Ok(moves)
}
