//! SameGame as an environment: the observation is the board, row by row from the top (0
//! empty, 1 to 8 a colour), as shown (empty columns closed up to the left); action
//! `row * width + column` clicks that cell and removes its group; the reward is the group's
//! points (`(n - 2)^2`, plus the clear bonus for the last group). A cell outside every group
//! of the smallest removable size is an illegal action.

use samegame::api::live::contract::{SameGame as Contract, Setup};
use samegame::{Board, Rules};
use serde::Deserialize;

use crate::env::{EnvGame, Stepped};

/// The board, as the CLI's `samegame gen` options.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Opts {
    /// Columns (1 to 64).
    pub width: usize,
    /// Rows (1 to 32).
    pub height: usize,
    /// Colours (1 to 8).
    pub colors: usize,
}

impl Default for Opts {
    fn default() -> Self {
        let s = Setup::default();
        Opts { width: s.width, height: s.height, colors: s.colors }
    }
}

impl Opts {
    fn setup(&self) -> Setup {
        Setup { width: self.width, height: self.height, colors: self.colors, ..Setup::default() }
    }
}

/// A board and its clicks (for the record).
#[derive(Clone)]
pub struct SameGame {
    board: Board,
    seed: u64,
    score: i64,
    clicks: Vec<(u8, u8)>,
}

/// The cells that belong to a group of two or more, per column (bit `y` from the bottom).
fn pairs(board: &Board, out: &mut [u32; samegame::board::MAX_WIDTH]) {
    let cols = board.cols();
    for (i, c) in cols.iter().enumerate() {
        let below = c.same_as_below();
        let mut m = below | below >> 1;
        if i > 0 {
            m |= cols[i - 1].same_as(c);
        }
        if i + 1 < cols.len() {
            m |= c.same_as(&cols[i + 1]);
        }
        out[i] = m;
    }
    for o in out.iter_mut().skip(cols.len()) {
        *o = 0;
    }
}

impl EnvGame for SameGame {
    type Opts = Opts;

    fn check(o: &mut Opts) -> Result<(), String> {
        use bits::live::Game;
        Contract::start(&o.setup(), 0).map(|_| ()).map_err(|e| format!("options.{}", e.message()))
    }

    fn shape(o: &Opts) -> Vec<usize> {
        vec![o.height, o.width]
    }

    fn actions(o: &Opts) -> usize {
        o.height * o.width
    }

    fn start(o: &Opts, seed: u64) -> SameGame {
        SameGame {
            board: Board::random(o.width, o.height, o.colors, seed),
            seed,
            score: 0,
            clicks: Vec::new(),
        }
    }

    fn step(&mut self, o: &Opts, a: usize) -> Stepped {
        let (x, y) = (a % o.width, o.height - 1 - a / o.width);
        match samegame::play(&mut self.board, x, y, &Rules::default()) {
            Ok((_, points)) => {
                self.score += points;
                self.clicks.push((x as u8, y as u8));
                Stepped {
                    reward: points as f64,
                    legal: true,
                    over: !samegame::has_pair(&self.board),
                    cut: false,
                }
            }
            Err(_) => Stepped { reward: 0.0, legal: false, over: false, cut: false },
        }
    }

    fn observe(&self, o: &Opts, out: &mut [u8]) {
        out.fill(0);
        for (x, c) in self.board.cols().iter().enumerate() {
            for y in 0..c.height() {
                out[(o.height - 1 - y as usize) * o.width + x] = c.color(y) + 1;
            }
        }
    }

    fn mask(&self, o: &Opts, out: &mut [i8]) {
        let mut m = [0u32; samegame::board::MAX_WIDTH];
        pairs(&self.board, &mut m);
        for (r, row) in out.chunks_mut(o.width).enumerate() {
            let y = o.height - 1 - r;
            for (x, v) in row.iter_mut().enumerate() {
                *v = ((m[x] >> y) & 1) as i8;
            }
        }
    }

    fn score(&self) -> i64 {
        self.score
    }

    fn text(&self) -> String {
        self.board.to_string()
    }

    fn record(&self, o: &Opts) -> Result<String, String> {
        let moves: Vec<String> = self.clicks.iter().map(|(x, y)| format!("{x}.{y}")).collect();
        super::contract_record::<Contract>(o.setup(), self.seed, moves.join("-"))
    }
}
