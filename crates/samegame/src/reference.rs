//! The slow, obvious engine: one byte per cell, flood fill, gravity by loops.
//!
//! Written straight from the rules, sharing nothing with the packed engine but the text form,
//! so that the gate tests comparing the two mean something.

use crate::board::Board;

/// A grid of `grid[x][y]` (`x` from the left, `y` from the bottom); `EMPTY` is no tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefBoard {
    /// Columns of cells, bottom first.
    pub grid: Vec<Vec<u8>>,
    /// Rows.
    pub height: usize,
}

/// The empty cell.
pub const EMPTY: u8 = u8::MAX;

/// A group as the reference sees it: its size, colour and lowest-leftmost tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefGroup {
    /// Tiles.
    pub size: u32,
    /// Colour.
    pub color: u8,
    /// Column of the representative (leftmost, then lowest) tile.
    pub x: usize,
    /// Row of the representative tile.
    pub y: usize,
}

impl RefBoard {
    /// Copies a packed board cell by cell.
    pub fn from_board(b: &Board) -> RefBoard {
        let grid = (0..b.width())
            .map(|x| (0..b.height()).map(|y| b.cell(x, y as u32).unwrap_or(EMPTY)).collect())
            .collect();
        RefBoard { grid, height: b.height() }
    }

    /// Renders like [`Board`]'s text form.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for y in (0..self.height).rev() {
            for col in &self.grid {
                let c = col[y];
                s.push(if c == EMPTY { '.' } else { (b'0' + c) as char });
            }
            s.push('\n');
        }
        s
    }

    /// The cells of the group containing `(x, y)` by a plain flood fill with an explicit stack.
    pub fn flood(&self, x: usize, y: usize) -> Vec<(usize, usize)> {
        let w = self.grid.len();
        let c = self.grid[x][y];
        if c == EMPTY {
            return Vec::new();
        }
        let mut seen = vec![vec![false; self.height]; w];
        let mut stack = vec![(x, y)];
        let mut out = Vec::new();
        seen[x][y] = true;
        while let Some((cx, cy)) = stack.pop() {
            out.push((cx, cy));
            let mut nbrs = Vec::with_capacity(4);
            if cx > 0 {
                nbrs.push((cx - 1, cy));
            }
            if cx + 1 < w {
                nbrs.push((cx + 1, cy));
            }
            if cy > 0 {
                nbrs.push((cx, cy - 1));
            }
            if cy + 1 < self.height {
                nbrs.push((cx, cy + 1));
            }
            for (nx, ny) in nbrs {
                if !seen[nx][ny] && self.grid[nx][ny] == c {
                    seen[nx][ny] = true;
                    stack.push((nx, ny));
                }
            }
        }
        out
    }

    /// Every group of at least `min_group` tiles, ordered by representative (x, then y).
    pub fn groups(&self, min_group: u32) -> Vec<RefGroup> {
        let w = self.grid.len();
        let mut done = vec![vec![false; self.height]; w];
        let mut out = Vec::new();
        for x in 0..w {
            for y in 0..self.height {
                if done[x][y] || self.grid[x][y] == EMPTY {
                    continue;
                }
                let cells = self.flood(x, y);
                for &(cx, cy) in &cells {
                    done[cx][cy] = true;
                }
                // Scanning x then y finds the leftmost column's lowest tile first.
                if cells.len() as u32 >= min_group {
                    out.push(RefGroup { size: cells.len() as u32, color: self.grid[x][y], x, y });
                }
            }
        }
        out
    }

    /// Removes the group at `(x, y)` (any size), applies gravity and closes empty columns.
    /// Returns the number of tiles removed.
    pub fn remove(&mut self, x: usize, y: usize) -> usize {
        let cells = self.flood(x, y);
        for &(cx, cy) in &cells {
            self.grid[cx][cy] = EMPTY;
        }
        // Gravity: tiles fall one cell at a time until nothing moves.
        for col in &mut self.grid {
            loop {
                let mut moved = false;
                for yy in 1..col.len() {
                    if col[yy] != EMPTY && col[yy - 1] == EMPTY {
                        col.swap(yy, yy - 1);
                        moved = true;
                    }
                }
                if !moved {
                    break;
                }
            }
        }
        // Close empty columns: move each non-empty column left past empty ones.
        let w = self.grid.len();
        let mut x = 0;
        let mut empties_seen = 0;
        while x + empties_seen < w {
            if self.grid[x].iter().all(|&c| c == EMPTY) {
                let col = self.grid.remove(x);
                self.grid.push(col);
                empties_seen += 1;
            } else {
                x += 1;
            }
        }
        cells.len()
    }

    /// Tiles left.
    pub fn tiles(&self) -> usize {
        self.grid.iter().flatten().filter(|&&c| c != EMPTY).count()
    }
}

/// A plain one-pass beam search on the reference engine, with the classic objective (score
/// plus the points of every current group): the baseline the packed beam is timed against.
/// Children are deduplicated by their text; ties break on the text, so the answer may differ
/// from the packed search's (which breaks ties on a hash), but the work per layer is the same.
/// Returns the best finished game's score and moves, and the children generated.
pub fn beam(
    board: &RefBoard,
    width: usize,
    rules: &crate::Rules,
) -> (i64, Vec<(usize, usize)>, u64) {
    #[derive(Clone)]
    struct St {
        b: RefBoard,
        score: i64,
        moves: Vec<(usize, usize)>,
    }
    let mut layer = vec![St { b: board.clone(), score: 0, moves: Vec::new() }];
    let mut best: Option<(i64, Vec<(usize, usize)>)> = None;
    let mut nodes = 0u64;
    while !layer.is_empty() {
        let mut children: Vec<(i64, String, St)> = Vec::new();
        for st in &layer {
            for g in st.b.groups(rules.min_group) {
                nodes += 1;
                let mut b = st.b.clone();
                b.remove(g.x, g.y);
                let mut score = st.score + rules.points(g.size);
                if b.tiles() == 0 {
                    score += rules.clear_bonus;
                }
                let mut moves = st.moves.clone();
                moves.push((g.x, g.y));
                let next = b.groups(rules.min_group);
                if next.is_empty() {
                    if best
                        .as_ref()
                        .is_none_or(|(s, m)| score > *s || (score == *s && moves.len() < m.len()))
                    {
                        best = Some((score, moves));
                    }
                    continue;
                }
                let obj = score + next.iter().map(|g| rules.points(g.size)).sum::<i64>();
                children.push((obj, b.to_text(), St { b, score, moves }));
            }
        }
        // Same board: keep the best objective (= the best score).
        children.sort_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)));
        children.dedup_by(|a, b| a.1 == b.1);
        children.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        children.truncate(width);
        layer = children.into_iter().map(|(_, _, st)| st).collect();
    }
    let (score, moves) = best.unwrap_or((0, Vec::new()));
    (score, moves, nodes)
}
