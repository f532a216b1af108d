//! Fumen (`v115@...`), the community's board exchange format, through the `fumen` crate.
//!
//! In: the first page's field becomes a [`Board`]. Out: one page per placement, the first
//! page holding the starting field in grey; fumen's own page rules apply each lock and line
//! clear, so the link replays the solution in any fumen viewer.
//!
//! Fumen places a piece by its SRS rotation centre: the cells are fixed offsets from `(x, y)`
//! (y up), N shapes `I (-1,0)(0,0)(1,0)(2,0)`, `O (0,0)(1,0)(0,1)(1,1)`,
//! `T (-1,0)(0,0)(1,0)(0,1)`, `L (-1,0)(0,0)(1,0)(1,1)`, `J (-1,0)(0,0)(1,0)(-1,1)`,
//! `S (-1,0)(0,0)(0,1)(1,1)`, `Z (1,0)(0,0)(0,1)(-1,1)`, each turned clockwise by
//! `(x, y) -> (y, -x)`. [`fumen_piece`] finds the centre and rotation that cover given cells.

use fumen::{CellColor, Fumen, Page, PieceType, RotationState};

use crate::board::{Board, WIDTH};
use crate::piece::Piece;
use crate::solver::Step;

fn kind(p: Piece) -> PieceType {
    match p {
        Piece::I => PieceType::I,
        Piece::O => PieceType::O,
        Piece::T => PieceType::T,
        Piece::S => PieceType::S,
        Piece::Z => PieceType::Z,
        Piece::J => PieceType::J,
        Piece::L => PieceType::L,
    }
}

fn base(p: Piece) -> [(i32, i32); 4] {
    match p {
        Piece::I => [(-1, 0), (0, 0), (1, 0), (2, 0)],
        Piece::O => [(0, 0), (1, 0), (0, 1), (1, 1)],
        Piece::T => [(-1, 0), (0, 0), (1, 0), (0, 1)],
        Piece::L => [(-1, 0), (0, 0), (1, 0), (1, 1)],
        Piece::J => [(-1, 0), (0, 0), (1, 0), (-1, 1)],
        Piece::S => [(-1, 0), (0, 0), (0, 1), (1, 1)],
        Piece::Z => [(1, 0), (0, 0), (0, 1), (-1, 1)],
    }
}

const ROTATIONS: [RotationState; 4] =
    [RotationState::North, RotationState::East, RotationState::South, RotationState::West];

/// Fumen's cells of a piece at centre `(x, y)` after `turns` clockwise turns.
fn fumen_cells(p: Piece, turns: usize, x: i32, y: i32) -> [(i32, i32); 4] {
    base(p).map(|(mut cx, mut cy)| {
        for _ in 0..turns {
            (cx, cy) = (cy, -cx);
        }
        (cx + x, cy + y)
    })
}

/// The fumen piece covering `cells` (any order), if it fits fumen's field.
pub fn fumen_piece(p: Piece, cells: &[(u8, u8); 4]) -> Option<fumen::Piece> {
    let mut want: Vec<(i32, i32)> =
        cells.iter().map(|&(x, y)| (i32::from(x), i32::from(y))).collect();
    want.sort_unstable();
    for (turns, &rotation) in ROTATIONS.iter().enumerate() {
        for y in 0..23 {
            for x in 0..WIDTH as i32 {
                let mut got = fumen_cells(p, turns, x, y).to_vec();
                got.sort_unstable();
                if got == want {
                    return Some(fumen::Piece {
                        kind: kind(p),
                        rotation,
                        x: x as u32,
                        y: y as u32,
                    });
                }
            }
        }
    }
    None
}

/// The board of a fumen's first page (any non-empty cell is filled; the garbage row is
/// ignored).
pub fn decode_board(data: &str) -> Result<Board, String> {
    let f = Fumen::decode(data.trim())
        .map_err(|_| "not a valid fumen (expected v115@...)".to_string())?;
    let page = f.pages.first().ok_or_else(|| "the fumen has no page".to_string())?;
    let mut b = Board::EMPTY;
    for (y, row) in page.field.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            if c != CellColor::Empty {
                if y >= crate::board::MAX_ROWS {
                    return Err(format!("cell ({x}, {y}) is above the 40 rows a field may have"));
                }
                b.set(x, y);
            }
        }
    }
    Ok(b)
}

/// A fumen of the solution: page 1 shows the starting field and the first piece, each later
/// page the next piece after fumen's lock and line-clear rules.
pub fn encode_solution(board: &Board, steps: &[Step]) -> Result<String, String> {
    let mut f = Fumen::default();
    let first: &mut Page = f.add_page();
    for y in 0..23 {
        for x in 0..WIDTH {
            if board.filled(x as i32, y as i32) {
                first.field[y][x] = CellColor::Grey;
            }
        }
    }
    for (i, s) in steps.iter().enumerate() {
        let piece = fumen_piece(s.piece, &s.cells)
            .ok_or_else(|| format!("step {}: no fumen piece covers {:?}", i + 1, s.cells))?;
        let page = if i == 0 { &mut f.pages[0] } else { f.add_page() };
        page.piece = Some(piece);
    }
    Ok(f.encode())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bag::opener_queue;
    use crate::solver::{Outcome, PcRequest, Solver};
    use crate::KickTable;

    /// Encode solutions, decode them with the fumen crate and replay fumen's pages: every
    /// page's field must match our field before that step, and the last page must end empty.
    #[test]
    fn solutions_round_trip_through_fumen() {
        let kicks = KickTable::srs_plus();
        let mut solver = Solver::new(&kicks);
        for i in 0..30 {
            let req = PcRequest::opener(opener_queue(3, i, 11));
            let Outcome::Found(sol) = solver.solve(&req).unwrap() else { panic!() };
            let data = encode_solution(&req.board, &sol.steps).unwrap();
            assert!(data.starts_with("v115@"));
            let f = Fumen::decode(&data).unwrap();
            assert_eq!(f.pages.len(), sol.steps.len());
            let mut board = req.board;
            for (page, step) in f.pages.iter().zip(&sol.steps) {
                let mut want = Board::EMPTY;
                for (y, row) in page.field.iter().enumerate() {
                    for (x, &c) in row.iter().enumerate() {
                        if c != CellColor::Empty {
                            want.set(x, y);
                        }
                    }
                }
                assert_eq!(want, board);
                for &(x, y) in &step.cells {
                    board.set(usize::from(x), usize::from(y));
                }
                board.clear_lines();
            }
            assert!(f
                .pages
                .last()
                .unwrap()
                .next_page()
                .field
                .iter()
                .flatten()
                .all(|&c| c == CellColor::Empty));
        }
        assert_eq!(decode_board("v115@vhAAgH").unwrap(), Board::EMPTY);
        assert!(decode_board("nonsense").is_err());
    }
}
