//! Tetris perfect clears as an environment, on the live contract's game (the CLI's `pc` on the
//! queue of `tetris bench --seed S`): each step places one piece. Action
//! `hold * 240 + facing * 60 + y * 10 + x` places the current piece (or, with `hold` 1, the
//! piece hold gives) in facing `facing` (N E S W) with its lowest cell on row `y` (from the
//! bottom) and its leftmost on column `x`; the mask holds the placements reachable through the
//! kick table. The observation is 7 rows of 10: the 6-row zone from the top (0 empty, 1
//! filled, 2 above the perfect clear's height), then `[current, hold, next five pieces, rows
//! left, placements, lines]` with pieces as 0-6 (I O T S Z J L) and 7 for none. The reward
//! is the lines a placement clears, plus `pc_reward` for the perfect clear.

use bits::live::{Game, Phase};
use serde::Deserialize;
use tetris::api::contract::{Move, Setup, State, Tetris as Contract};
use tetris::piece::Piece;

use crate::env::{EnvGame, Stepped};

/// Rows of the zone in the observation (the tallest perfect clear the contract plays).
const ZONE: usize = 6;
/// Placements per piece: 4 facings, 6 rows, 10 columns.
const PER_PIECE: usize = 4 * ZONE * 10;

/// The game, as the contract's setup (the CLI's `pc` options), and the perfect clear's reward.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Opts {
    /// Starting field as text (rows top first, `.` empty, 10 per row).
    pub field: Option<String>,
    /// Starting field as a fumen string, when `field` is absent.
    pub fumen: Option<String>,
    /// The queue, current piece first (empty: drawn from the seed).
    pub queue: String,
    /// Length of a queue drawn from the seed.
    pub pieces: Option<u32>,
    /// The piece already in hold.
    pub hold: Option<String>,
    /// Whether hold may be used.
    pub use_hold: bool,
    /// Kick table: `none`, `srs`, `srs+`, `srs-tetrio`.
    pub kicks: String,
    /// Only this PC height (lines).
    pub height: Option<u32>,
    /// Only PC heights of at least this many lines.
    pub min_height: Option<u32>,
    /// The reward of the perfect clear, on top of its lines.
    pub pc_reward: f64,
}

impl Default for Opts {
    fn default() -> Self {
        let s = Setup::default();
        Opts {
            field: s.field,
            fumen: s.fumen,
            queue: s.queue,
            pieces: s.pieces,
            hold: s.hold,
            use_hold: s.use_hold,
            kicks: s.kicks,
            height: s.height,
            min_height: s.min_height,
            pc_reward: 10.0,
        }
    }
}

impl Opts {
    fn setup(&self) -> Setup {
        Setup {
            field: self.field.clone(),
            fumen: self.fumen.clone(),
            queue: self.queue.clone(),
            pieces: self.pieces,
            hold: self.hold.clone(),
            use_hold: self.use_hold,
            kicks: self.kicks.clone(),
            height: self.height,
            min_height: self.min_height,
            ..Setup::default()
        }
    }
}

/// The contract's game, its legal placements by action, and its moves.
#[derive(Clone)]
pub struct Tetris {
    state: State,
    seed: u64,
    legal: Vec<(usize, Move)>,
    moves: Vec<Move>,
    lines: u32,
}

/// The action of a placement.
pub fn action(m: &Move) -> usize {
    usize::from(m.hold) * PER_PIECE
        + m.facing as usize * 60
        + usize::from(m.y) * 10
        + usize::from(m.x)
}

fn piece_code(p: Option<&str>) -> u8 {
    p.and_then(|s| s.chars().next()).and_then(Piece::from_letter).map_or(7, |p| p as u8)
}

impl Tetris {
    fn refresh(&mut self) {
        self.legal = Contract::legal(&self.state).into_iter().map(|m| (action(&m), m)).collect();
        self.legal.sort_by_key(|(a, _)| *a);
    }
}

impl EnvGame for Tetris {
    type Opts = Opts;

    fn check(o: &mut Opts) -> Result<(), String> {
        if !o.pc_reward.is_finite() {
            return Err("options.pc_reward: not a finite number".into());
        }
        Contract::start(&o.setup(), 0)
            .map(|_| ())
            .map_err(|e| e.message().replace("setup.", "options."))
    }

    fn shape(_: &Opts) -> Vec<usize> {
        vec![ZONE + 1, 10]
    }

    fn actions(_: &Opts) -> usize {
        2 * PER_PIECE
    }

    fn start(o: &Opts, seed: u64) -> Tetris {
        let state = Contract::start(&o.setup(), seed).expect("checked options");
        let mut t = Tetris { state, seed, legal: Vec::new(), moves: Vec::new(), lines: 0 };
        t.refresh();
        t
    }

    fn step(&mut self, o: &Opts, a: usize) -> Stepped {
        let Ok(i) = self.legal.binary_search_by_key(&a, |(a, _)| *a) else {
            return Stepped { reward: 0.0, legal: false, over: false, cut: false };
        };
        let m = self.legal[i].1;
        let before = Contract::score(&self.state);
        Contract::play(&mut self.state, &m).expect("a legal placement plays");
        self.moves.push(m);
        let cleared = Contract::score(&self.state) - before;
        let status = Contract::status(&self.state);
        let won = status.phase == Phase::Won;
        self.lines += cleared as u32;
        self.refresh();
        Stepped {
            reward: cleared as f64 + if won { o.pc_reward } else { 0.0 },
            legal: true,
            over: !status.is_playing(),
            cut: false,
        }
    }

    fn observe(&self, _: &Opts, out: &mut [u8]) {
        let s = Contract::snapshot(&self.state);
        let rows = s.cells.len().min(ZONE);
        for (r, row) in out[..ZONE * 10].chunks_mut(10).enumerate() {
            // Zone row `r` from the top of the 6 rows: the snapshot's rows are its top rows.
            let k = r as isize - (ZONE - rows) as isize;
            if k < 0 {
                row.fill(2);
            } else {
                row.copy_from_slice(&s.cells[k as usize]);
            }
        }
        let tail = &mut out[ZONE * 10..];
        tail.fill(7);
        tail[0] = piece_code(s.current.as_deref());
        tail[1] = piece_code(s.hold.as_deref());
        for (t, c) in tail[2..7].iter_mut().zip(s.queue.chars()) {
            *t = Piece::from_letter(c).map_or(7, |p| p as u8);
        }
        tail[7] = s.rows.min(255) as u8;
        tail[8] = s.placed.min(255) as u8;
        tail[9] = s.lines.min(255) as u8;
    }

    fn mask(&self, _: &Opts, out: &mut [i8]) {
        out.fill(0);
        for (a, _) in &self.legal {
            out[*a] = 1;
        }
    }

    fn score(&self) -> i64 {
        Contract::score(&self.state)
    }

    fn text(&self) -> String {
        Contract::text(&self.state)
    }

    fn record(&self, o: &Opts) -> Result<String, String> {
        let moves: Vec<String> = self.moves.iter().map(|m| m.to_string()).collect();
        super::contract_record::<Contract>(o.setup(), self.seed, moves.join("-"))
    }
}
