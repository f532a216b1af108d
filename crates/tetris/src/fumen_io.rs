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

/// Fumen's 64 digits, in value order.
const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Fumen's field: 23 rows and a garbage row below, 10 wide, written top row first.
const FIELD_CELLS: usize = 240;

/// Reads fumen's base-64 numbers (least significant digit first).
struct Digits<'a> {
    data: &'a [u8],
    at: usize,
}

impl Digits<'_> {
    /// The next `n`-digit number; `what` names it in the error.
    fn poll(&mut self, n: usize, what: &str) -> Result<usize, String> {
        let mut v = 0;
        for i in 0..n {
            let Some(&c) = self.data.get(self.at) else {
                return Err(format!("the data ends inside the {what}"));
            };
            let d = DIGITS.iter().position(|&x| x == c).ok_or_else(|| {
                format!("{:?} at character {} is not a fumen digit", char::from(c), self.at + 1)
            })?;
            v += d << (6 * i);
            self.at += 1;
        }
        Ok(v)
    }
}

/// The board of a fumen's first page (any non-empty cell is filled; the garbage row is
/// ignored). Accepts the data alone (`v115@...`) or a viewer's address that ends in it; the
/// `?` that viewers insert are skipped.
///
/// Only the first page's field is read (runs of two digits, `(change + 8) * 240 + run - 1`,
/// from the top-left cell, on an empty field); the digits of its piece must follow, and the
/// rest (the piece itself, comments, later pages) is not read. A change that leaves a cell
/// outside its 9 values, a run past the field's 240 cells or a character that is not a
/// digit is refused with its place.
pub fn decode_board(data: &str) -> Result<Board, String> {
    let data = data.trim();
    let at =
        data.find("v115@").ok_or_else(|| "not a valid fumen (expected v115@...)".to_string())?;
    let body: Vec<u8> = data[at + 5..].bytes().filter(|&c| c != b'?').collect();
    let mut digits = Digits { data: &body, at: 0 };
    let mut b = Board::EMPTY;
    let mut cell = 0;
    let mut unchanged = false;
    while cell < FIELD_CELLS {
        let v = digits.poll(2, "field")?;
        unchanged = v == 9 * FIELD_CELLS - 1;
        let (change, run) = (v / FIELD_CELLS, v % FIELD_CELLS + 1);
        // On the first page every cell starts empty (0); a cell holds 0 (empty) to 8 (grey).
        if !(8..=16).contains(&change) {
            return Err(format!(
                "the field's run at character {} gives its cells the value {}, outside 0 to 8",
                digits.at - 1,
                change as i64 - 8
            ));
        }
        if cell + run > FIELD_CELLS {
            return Err(format!(
                "the field's run at character {} covers {} cells past the field's 240",
                digits.at - 1,
                cell + run - FIELD_CELLS
            ));
        }
        if change > 8 {
            for c in cell..cell + run {
                // Rows from the top: cell 0 is (0, 22); the last row (y = -1) is garbage.
                let y = 22 - (c / WIDTH) as i64;
                if y >= 0 {
                    b.set(c % WIDTH, y as usize);
                }
            }
        }
        cell += run;
    }
    if unchanged {
        // An unchanged field is followed by how many pages repeat it.
        digits.poll(1, "page count")?;
    }
    digits.poll(3, "first page's piece")?;
    if let Some(i) = body.iter().position(|c| !DIGITS.contains(c)) {
        return Err(format!(
            "{:?} at character {} is not a fumen digit",
            char::from(body[i]),
            i + 1
        ));
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

    /// Our first-page decoder against the `fumen` crate's (the reference) on fumens the crate
    /// encodes: random fields in every colour, a garbage row, pieces, comments and more pages.
    #[test]
    fn the_decoder_agrees_with_the_fumen_crate() {
        const COLOURS: [CellColor; 9] = [
            CellColor::Empty,
            CellColor::I,
            CellColor::L,
            CellColor::O,
            CellColor::Z,
            CellColor::T,
            CellColor::J,
            CellColor::S,
            CellColor::Grey,
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for case in 0..2000 {
            let mut f = Fumen::default();
            for p in 0..1 + next(3) {
                let page = f.add_page();
                let fill = next(100);
                let top = next(24) as usize;
                for y in 0..top {
                    for x in 0..WIDTH {
                        if next(100) < fill {
                            page.field[y][x] = COLOURS[1 + next(8) as usize];
                        }
                    }
                }
                if case % 3 == 0 {
                    page.garbage_row[next(10) as usize] = CellColor::Grey;
                }
                if next(2) == 0 {
                    let piece =
                        [Piece::I, Piece::O, Piece::T, Piece::S, Piece::Z, Piece::J, Piece::L]
                            [next(7) as usize];
                    page.piece = fumen_piece(piece, &[(4, 10), (5, 10), (6, 10), (5, 11)])
                        .filter(|_| piece == Piece::T)
                        .or(fumen_piece(Piece::O, &[(0, 20), (1, 20), (0, 21), (1, 21)]));
                }
                if next(4) == 0 {
                    page.comment = Some(format!("page {p} of case {case}"));
                }
            }
            let data = f.encode();
            let want = Fumen::decode(&data).unwrap();
            let mut board = Board::EMPTY;
            for (y, row) in want.pages[0].field.iter().enumerate() {
                for (x, &c) in row.iter().enumerate() {
                    if c != CellColor::Empty {
                        board.set(x, y);
                    }
                }
            }
            assert_eq!(decode_board(&data), Ok(board), "case {case}: {data}");
            // A viewer's address, with the `?` viewers insert, reads the same.
            let url = format!("https://fumen.zui.jp/?{}?{}", &data[..9], &data[9..]);
            assert_eq!(decode_board(&url), Ok(board), "case {case}: {url}");
        }
    }

    /// Data the crate panics on, and other broken data, is refused with a one-line error.
    #[test]
    fn broken_fumens_are_refused_on_one_line() {
        for f in [
            "v115@vD",
            "v115@",
            "v115@vhAAgH garbage",
            "v115@vh",
            "v115@vhA",
            "v115@vhAAg",
            "v115@vh!AgH",
            "v115@/h",
            "v115@AAAAAAAA",
            "v114@vhAAgH",
        ] {
            let e = decode_board(f).expect_err(f);
            assert!(!e.is_empty() && !e.contains('\n'), "{f}: {e:?}");
        }
        // Pieces the crate panics on (past the field's top, through the floor) are not read:
        // the field is.
        for f in ["v115@vhAh3B", "v115@vhAXuB", "v115@vhAFwBA"] {
            assert_eq!(decode_board(f), Ok(Board::EMPTY), "{f}");
        }
        // The smallest changed fields: one grey cell at the bottom-left, then the rest.
        let one = "v115@bhA8SeAgH";
        assert_eq!(Fumen::decode(one).unwrap().pages[0].field[0][0], CellColor::Grey);
        let b = decode_board(one).unwrap();
        assert_eq!(b.count(), 1);
        assert!(b.filled(0, 0));
    }
}
