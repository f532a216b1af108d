//! Key inputs: the shortest key sequence that takes a piece from spawn to a placement, and a
//! replay of a key sequence that says where the piece ends up.
//!
//! The movement model is the reference's ([`reference`](mod@crate::reference)): per-cell
//! collision, the lowest cell never above row [`CEILING`], rotations trying their kick tests
//! in order. The piece spawns facing N in the spec's columns (3-5 for J L S T Z, 3-6 for I,
//! 4-5 for O) with its lowest cell on row `CEILING - 1`, above any PC zone (at most 6 rows). The
//! keys: `L`, `R`, `D` (soft drop one row), `SD` (soft drop to the bottom), `CW`, `CCW`, `180`
//! (when the table has 180 turns), and a final `HD` (hard drop, which locks the piece where it
//! rests). [`find`] is a breadth-first search over (box x, box y, facing) that returns a sequence
//! with the fewest keys; [`replay`] applies keys one by one, which is how its answers are
//! checked.

use std::collections::{HashMap, VecDeque};
use std::fmt;

use crate::board::Board;
use crate::kicks::KickTable;
use crate::piece::{Facing, Piece};
use crate::reference::{sorted_cells, Cells, CEILING};

/// One key press.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// One column left.
    Left,
    /// One column right.
    Right,
    /// Soft drop one row.
    Down,
    /// Soft drop to the bottom.
    SoftDrop,
    /// Clockwise turn.
    Cw,
    /// Counter-clockwise turn.
    Ccw,
    /// 180-degree turn.
    Flip,
    /// Hard drop: drop to the bottom and lock (the last key).
    HardDrop,
}

impl Key {
    /// The key's token (`L R D SD CW CCW 180 HD`).
    pub const fn token(self) -> &'static str {
        match self {
            Key::Left => "L",
            Key::Right => "R",
            Key::Down => "D",
            Key::SoftDrop => "SD",
            Key::Cw => "CW",
            Key::Ccw => "CCW",
            Key::Flip => "180",
            Key::HardDrop => "HD",
        }
    }

    /// The key for a token.
    pub fn from_token(s: &str) -> Option<Key> {
        Some(match s {
            "L" => Key::Left,
            "R" => Key::Right,
            "D" => Key::Down,
            "SD" => Key::SoftDrop,
            "CW" => Key::Cw,
            "CCW" => Key::Ccw,
            "180" => Key::Flip,
            "HD" => Key::HardDrop,
            _ => return None,
        })
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// Formats keys as space-separated tokens.
pub fn keys_string(keys: &[Key]) -> String {
    keys.iter().map(|k| k.token()).collect::<Vec<_>>().join(" ")
}

/// A piece position: rotation-box corner and facing.
type Pos = (i32, i32, Facing);

fn legal(board: &Board, piece: Piece, (bx, by, f): Pos) -> bool {
    let cells = piece.cells(f).map(|(x, y)| (bx + i32::from(x), by + i32::from(y)));
    let low = cells.iter().map(|c| c.1).min().unwrap_or(0);
    low <= CEILING && cells.iter().all(|&(x, y)| !board.filled(x, y))
}

/// The spawn position of `piece`.
pub fn spawn(piece: Piece) -> (i32, i32, Facing) {
    let bx = if piece == Piece::O { 4 } else { 3 };
    let by = CEILING - 1 - i32::from(piece.norm_offset(Facing::N).1);
    (bx, by, Facing::N)
}

/// The position after `key` (`None`: blocked). `HardDrop` and `SoftDrop` drop to the bottom.
fn step(board: &Board, piece: Piece, kicks: &KickTable, p: Pos, key: Key) -> Option<Pos> {
    let (bx, by, f) = p;
    let turn = |q: usize| {
        let to = f.turned(q);
        kicks
            .list(piece, f, to)
            .tests()
            .iter()
            .map(|&(dx, dy)| (bx + i32::from(dx), by + i32::from(dy), to))
            .find(|&n| legal(board, piece, n))
    };
    match key {
        Key::Left => Some((bx - 1, by, f)).filter(|&n| legal(board, piece, n)),
        Key::Right => Some((bx + 1, by, f)).filter(|&n| legal(board, piece, n)),
        Key::Down => Some((bx, by - 1, f)).filter(|&n| legal(board, piece, n)),
        Key::SoftDrop | Key::HardDrop => {
            let mut y = by;
            while legal(board, piece, (bx, y - 1, f)) {
                y -= 1;
            }
            Some((bx, y, f))
        }
        Key::Cw => turn(1),
        Key::Ccw => turn(3),
        Key::Flip => turn(2),
    }
}

/// The fewest keys (ending with `HD`) that take `piece` from spawn to the placement with
/// cells `target` (sorted, as the reference gives them) on `board`; `None` if it is not
/// reachable from spawn.
pub fn find(board: &Board, piece: Piece, kicks: &KickTable, target: &Cells) -> Option<Vec<Key>> {
    const MOVES: [Key; 7] =
        [Key::Left, Key::Right, Key::Down, Key::SoftDrop, Key::Cw, Key::Ccw, Key::Flip];
    let start = spawn(piece);
    if !legal(board, piece, start) {
        return None;
    }
    let mut prev: HashMap<Pos, (Pos, Key)> = HashMap::new();
    let mut queue = VecDeque::from([start]);
    prev.insert(start, (start, Key::HardDrop));
    while let Some(p) = queue.pop_front() {
        let (bx, by, f) = p;
        if sorted_cells(piece, f, bx, by) == *target && !legal(board, piece, (bx, by - 1, f)) {
            let mut keys = vec![Key::HardDrop];
            let mut at = p;
            while at != start {
                let (from, key) = prev[&at];
                keys.push(key);
                at = from;
            }
            keys.reverse();
            // A trailing soft drop before the hard drop is redundant.
            if keys.len() >= 2 && keys[keys.len() - 2] == Key::SoftDrop {
                keys.remove(keys.len() - 2);
            }
            return Some(keys);
        }
        for key in MOVES {
            if let Some(n) = step(board, piece, kicks, p, key) {
                if n != p && !prev.contains_key(&n) {
                    prev.insert(n, (p, key));
                    queue.push_back(n);
                }
            }
        }
    }
    None
}

/// Plays `keys` from spawn; returns the sorted cells where the piece locks (the last key must
/// be `HD` and no earlier one), or which key was blocked.
pub fn replay(
    board: &Board,
    piece: Piece,
    kicks: &KickTable,
    keys: &[Key],
) -> Result<Cells, String> {
    let mut p = spawn(piece);
    if !legal(board, piece, p) {
        return Err("the spawn position is blocked".into());
    }
    for (i, &key) in keys.iter().enumerate() {
        if key == Key::HardDrop && i + 1 != keys.len() {
            return Err(format!("key {}: HD before the last key", i + 1));
        }
        p = step(board, piece, kicks, p, key)
            .ok_or_else(|| format!("key {} ({key}) is blocked", i + 1))?;
    }
    if keys.last() != Some(&Key::HardDrop) {
        return Err("the keys do not end with HD".into());
    }
    Ok(sorted_cells(piece, p.2, p.0, p.1))
}

/// The keys of every step of a solution from `board`, each found by [`find`] on the field as
/// it stands and checked by [`replay`]. A step is `None` when its placement cannot be reached
/// from spawn: the solver starts pieces in every facing above the PC zone, which spawn matches
/// whenever the table can turn the piece (every built-in table can, `none` with (0,0) turns);
/// with a table that cannot turn a piece, its other facings have no keys. An error means keys
/// were found that do not replay to the placement (a bug).
pub fn solution_keys(
    board: &Board,
    kicks: &KickTable,
    steps: &[crate::solver::Step],
) -> Result<Vec<Option<Vec<Key>>>, String> {
    let mut board = *board;
    let mut out = Vec::with_capacity(steps.len());
    for (i, s) in steps.iter().enumerate() {
        let target: Cells = s.cells.map(|(x, y)| (x as i8, y as i8));
        let keys = find(&board, s.piece, kicks, &target);
        if let Some(keys) = &keys {
            let end =
                replay(&board, s.piece, kicks, keys).map_err(|e| format!("step {}: {e}", i + 1))?;
            if end != target {
                return Err(format!("step {}: the keys end at {end:?}", i + 1));
            }
        }
        out.push(keys);
        for &(x, y) in &s.cells {
            board.set(usize::from(x), usize::from(y));
        }
        board.clear_lines();
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_board_moves() {
        let k = KickTable::srs_plus();
        let b = Board::EMPTY;
        // T flat on the floor at columns 3-5: just a hard drop.
        let target = sorted_cells(Piece::T, Facing::N, 3, -1);
        assert_eq!(find(&b, Piece::T, &k, &target).unwrap(), [Key::HardDrop]);
        // I upright against the left wall: a turn and moves left, then a hard drop.
        let target = [(0, 0), (0, 1), (0, 2), (0, 3)];
        let keys = find(&b, Piece::I, &k, &target).unwrap();
        assert_eq!(replay(&b, Piece::I, &k, &keys).unwrap(), target);
        assert!(keys.len() <= 6, "{}", keys_string(&keys));
        for t in ["L", "R", "D", "SD", "CW", "CCW", "180", "HD"] {
            assert_eq!(Key::from_token(t).unwrap().token(), t);
        }
        assert!(replay(&b, Piece::I, &k, &[Key::HardDrop, Key::Left]).is_err());
    }

    /// The TSD slot of the kick tests: reached with a turn at the end.
    #[test]
    fn tsd_needs_a_turn() {
        let b: Board = "##........\n#...######\n##.#######\n".parse().unwrap();
        let k = KickTable::srs();
        let target = [(1, 1), (2, 0), (2, 1), (3, 1)];
        let keys = find(&b, Piece::T, &k, &target).unwrap();
        assert!(keys.iter().any(|&k| matches!(k, Key::Cw | Key::Ccw)), "{}", keys_string(&keys));
        assert_eq!(replay(&b, Piece::T, &k, &keys).unwrap(), target);
    }
}
