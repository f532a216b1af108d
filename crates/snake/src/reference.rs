//! The slow, obvious engine: a grid of booleans, the body as a `VecDeque` of coordinates, and
//! fruit spawns by listing the empty cells. The gate tests play it side by side with
//! [`Game`](crate::Game); replay verification uses it as the independent checker.

use std::collections::VecDeque;

use bits::Rng;

use crate::board::{Death, Dir};
use crate::game::{Config, Event, PlayError, Status};

/// A game on plain arrays.
#[derive(Clone, Debug)]
pub struct RefGame {
    w: i64,
    h: i64,
    grid: Vec<Vec<bool>>,
    body: VecDeque<(i64, i64)>,
    fruit: Option<(i64, i64)>,
    rng: Rng,
    start_len: usize,
    stall_limit: u64,
    since_fruit: u64,
    moves: u64,
    status: Status,
}

impl RefGame {
    /// A new game, with the same setup and first fruit as [`Game::new`](crate::Game::new).
    pub fn new(config: Config, seed: u64) -> RefGame {
        config.validate().expect("valid config");
        let (w, h) = (config.size.width() as i64, config.size.height() as i64);
        let mut g = RefGame {
            w,
            h,
            grid: vec![vec![false; w as usize]; h as usize],
            body: VecDeque::new(),
            fruit: None,
            rng: Rng::new(seed),
            start_len: config.start_len,
            stall_limit: config.stall_limit,
            since_fruit: 0,
            moves: 0,
            status: Status::Running,
        };
        for i in 0..config.start_len as i64 {
            let (x, y) = (config.start_x as i64 - i, config.start_y as i64);
            g.body.push_back((x, y));
            g.grid[y as usize][x as usize] = true;
        }
        g.fruit = g.spawn();
        g
    }

    fn spawn(&mut self) -> Option<(i64, i64)> {
        let mut empty = Vec::new();
        for y in 0..self.h {
            for x in 0..self.w {
                if !self.grid[y as usize][x as usize] {
                    empty.push((x, y));
                }
            }
        }
        if empty.is_empty() {
            return None;
        }
        let k = self.rng.below(empty.len() as u64) as usize;
        Some(empty[k])
    }

    /// The body from head to tail as cell indices `y * W + x`.
    pub fn body(&self) -> Vec<usize> {
        self.body.iter().map(|&(x, y)| (y * self.w + x) as usize).collect()
    }

    /// The fruit cell.
    pub fn fruit(&self) -> Option<usize> {
        self.fruit.map(|(x, y)| (y * self.w + x) as usize)
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Fruits eaten.
    pub fn score(&self) -> usize {
        self.body.len() - self.start_len
    }

    /// Moves played.
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// Plays one move by the rules of the spec, spelled out cell by cell.
    pub fn play(&mut self, d: Dir) -> Result<Event, PlayError> {
        if self.status != Status::Running {
            return Err(PlayError::Over(self.status));
        }
        let (dx, dy) = match d {
            Dir::Up => (0, -1),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
            Dir::Right => (1, 0),
        };
        let (hx, hy) = self.body[0];
        let (nx, ny) = (hx + dx, hy + dy);
        if self.body.len() > 1 && self.body[1] == (nx, ny) {
            return Err(PlayError::Reversal);
        }
        self.moves += 1;
        if nx < 0 || ny < 0 || nx >= self.w || ny >= self.h {
            self.status = Status::Died(Death::Wall);
            return Ok(Event::Died(Death::Wall));
        }
        let eats = self.fruit == Some((nx, ny));
        let tail = *self.body.back().expect("non-empty body");
        let occupied = self.grid[ny as usize][nx as usize];
        let leaving_tail = !eats && tail == (nx, ny);
        if occupied && !leaving_tail {
            self.status = Status::Died(Death::Body);
            return Ok(Event::Died(Death::Body));
        }
        if !eats {
            self.body.pop_back();
            self.grid[tail.1 as usize][tail.0 as usize] = false;
        }
        self.body.push_front((nx, ny));
        self.grid[ny as usize][nx as usize] = true;
        if eats {
            self.since_fruit = 0;
            self.fruit = self.spawn();
            return Ok(match self.fruit {
                Some((x, y)) => Event::Ate((y * self.w + x) as usize),
                None => {
                    self.status = Status::Won;
                    Event::Won
                }
            });
        }
        self.since_fruit += 1;
        if self.since_fruit >= self.stall_limit {
            self.status = Status::Stalled;
            return Ok(Event::Stalled);
        }
        Ok(Event::Moved)
    }
}
