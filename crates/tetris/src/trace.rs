//! Solution records and their independent verification.
//!
//! [`verify`] replays a solution with nothing from the fast path: the Guideline hold rule is
//! simulated on `(current, hold, queue)`, each placement's cells must be the piece's shape in
//! some facing and must be among the placements the slow [`reference`](mod@crate::reference)
//! search reaches on the field as it stands, line clears are applied on a general [`Board`],
//! and the field must end empty.

use crate::board::Board;
use crate::kicks::KickTable;
use crate::piece::{Facing, Piece};
use crate::reference;
use crate::solver::{PcRequest, Solution};

/// A step that does not replay, with its 0-based index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    /// The index of the bad step (the number of steps for a final check).
    pub step: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "step {}: {}", self.step + 1, self.message)
    }
}

impl std::error::Error for VerifyError {}

/// Guideline hold bookkeeping: which piece is current, which is held, what comes next.
#[derive(Clone, Debug)]
pub struct HoldState<'q> {
    current: Option<Piece>,
    hold: Option<Piece>,
    queue: &'q [Piece],
    use_hold: bool,
}

impl<'q> HoldState<'q> {
    /// The state before the first piece: current is the queue's first piece.
    pub fn new(queue: &'q [Piece], hold: Option<Piece>, use_hold: bool) -> HoldState<'q> {
        let (current, rest) = match queue.split_first() {
            Some((&c, rest)) => (Some(c), rest),
            None => (None, queue),
        };
        HoldState { current, hold, queue: rest, use_hold }
    }

    fn pop(&mut self) -> Option<Piece> {
        let (&p, rest) = self.queue.split_first()?;
        self.queue = rest;
        Some(p)
    }

    /// Places `piece`; returns whether hold was pressed, or an error if the piece is not
    /// available (not current, not in hold, not next behind an empty hold).
    pub fn place(&mut self, piece: Piece) -> Result<bool, String> {
        if self.current == Some(piece) {
            self.current = self.pop();
            return Ok(false);
        }
        if !self.use_hold {
            return Err(format!(
                "{piece} is not the current piece ({}) and hold is off",
                self.current.map_or('-', |p| p.letter())
            ));
        }
        if self.hold == Some(piece) {
            self.hold = self.current;
            self.current = self.pop();
            return Ok(true);
        }
        if self.hold.is_none() && self.queue.first() == Some(&piece) {
            self.hold = self.current;
            self.pop();
            self.current = self.pop();
            return Ok(true);
        }
        Err(format!(
            "{piece} is not available (current {}, hold {}, next {})",
            self.current.map_or('-', |p| p.letter()),
            self.hold.map_or('-', |p| p.letter()),
            self.queue.first().map_or('-', |p| p.letter())
        ))
    }

    /// The piece in hold.
    pub fn hold(&self) -> Option<Piece> {
        self.hold
    }

    /// The current piece.
    pub fn current(&self) -> Option<Piece> {
        self.current
    }

    /// The pieces still to come after the current one.
    pub fn queue(&self) -> &'q [Piece] {
        self.queue
    }
}

/// The facing in which `piece` covers `cells` (sorted), if any.
pub fn shape_facing(piece: Piece, cells: &[(u8, u8); 4]) -> Option<Facing> {
    let min_x = cells.iter().map(|c| c.0).min()?;
    let min_y = cells.iter().map(|c| c.1).min()?;
    Facing::ALL.into_iter().find(|&f| {
        let mut shape = piece.norm_cells(f).map(|(x, y)| (x as u8 + min_x, y as u8 + min_y));
        shape.sort_unstable();
        &shape == cells
    })
}

/// Replays `solution` for `req` under `kicks`; returns the Guideline hold presses per step.
pub fn verify(
    req: &PcRequest,
    kicks: &KickTable,
    solution: &Solution,
) -> Result<Vec<bool>, VerifyError> {
    let err = |step: usize, message: String| VerifyError { step, message };
    let (holds, board, hs, rows) = replay_steps(req, kicks, solution)?;
    if !board.is_empty() {
        return Err(err(
            solution.steps.len(),
            format!("the field is not empty at the end: {}", one_line(&board)),
        ));
    }
    if rows != 0 {
        let h = solution.height;
        return Err(err(
            solution.steps.len(),
            format!("the placements clear {} lines, not the {h} of a {h}-line PC", h - rows),
        ));
    }
    if let Some(want) = req.save_hold {
        // The piece left over after the PC: the held one, else the current one.
        if hs.hold().or(hs.current()) != Some(want) {
            return Err(err(solution.steps.len(), format!("{want} was to stay in hold")));
        }
    }
    Ok(holds)
}

/// The step checks of [`verify`] without its end checks (an empty field, the piece left in
/// hold): a solution's first steps, a game in progress. Returns the hold presses per step and
/// the field after the last step.
pub fn verify_steps(
    req: &PcRequest,
    kicks: &KickTable,
    solution: &Solution,
) -> Result<(Vec<bool>, Board), VerifyError> {
    replay_steps(req, kicks, solution).map(|(holds, board, _, _)| (holds, board))
}

/// A field on one line, its rows top first between `/` (for one-line errors).
pub fn one_line(board: &Board) -> String {
    board.to_string().trim_end().replace('\n', "/")
}

/// The steps of `solution` replayed: the hold presses, the field after them, the hold
/// state and the PC's rows left to clear.
fn replay_steps<'q>(
    req: &'q PcRequest,
    kicks: &KickTable,
    solution: &Solution,
) -> Result<(Vec<bool>, Board, HoldState<'q>, u32), VerifyError> {
    let err = |step: usize, message: String| VerifyError { step, message };
    let mut board = req.board;
    let h = solution.height;
    if board.height() > h as usize {
        return Err(err(0, format!("the stack is taller than the PC height {h}")));
    }
    let mut rows = h;
    let mut hs = HoldState::new(&req.queue, req.hold, req.use_hold);
    let mut holds = Vec::with_capacity(solution.steps.len());
    for (i, s) in solution.steps.iter().enumerate() {
        if board.is_empty() && i > 0 {
            return Err(err(i, "the field is already clear".into()));
        }
        holds.push(hs.place(s.piece).map_err(|m| err(i, m))?);
        let mut cells = s.cells;
        cells.sort_unstable();
        if shape_facing(s.piece, &cells).is_none() {
            return Err(err(i, format!("cells {cells:?} are not a {} shape", s.piece)));
        }
        let want: reference::Cells = cells.map(|(x, y)| (x as i8, y as i8));
        if !reference::reachable(&board, rows, s.piece, kicks, &want) {
            return Err(err(
                i,
                format!(
                    "{} at {cells:?} is not a reachable resting placement below row {rows} on {}",
                    s.piece,
                    one_line(&board)
                ),
            ));
        }
        for &(x, y) in &cells {
            board.set(usize::from(x), usize::from(y));
        }
        rows -= board.clear_lines();
    }
    Ok((holds, board, hs, rows))
}
