//! A game in progress: the board, the score, and the seeded spawns.
//!
//! # Spawn rule (so another program can reproduce our games from a seed)
//! The generator is [`bits::Rng`] (xoshiro256** seeded through SplitMix64) started at the
//! game's seed. A spawn draws twice: first `k = rng.below(e)` where `e` is the number of empty
//! cells, choosing the `k`-th empty cell counting cells in order `0..16` (cell = 4 * row + col,
//! row 0 on top, column 0 on the left); then `rng.below(10)`: 0 gives a 4, anything else a 2
//! (probability 0.1 and 0.9). A game starts with two spawns on the empty board, and every
//! move that changes the board is followed by one spawn.

use bits::Rng;

use crate::board::{Board, Dir, MoveError};
use crate::wide::Wide;

/// How a game stands.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Moves remain.
    Playing,
    /// No move is legal: the game is over.
    Over,
    /// The move merges two 32768 tiles and the game ended there, the move not applied: in
    /// records written before games went past 32768 (which [`crate::replay`] still reads)
    /// and in n-tuple training and its greedy games, which play the packed board. A
    /// [`Game`] goes on (see [`crate::wide`]).
    Overflow,
    /// The game was stopped by a move limit.
    MoveLimit,
}

/// One spawned tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spawn {
    /// The cell, `4 * row + col`.
    pub cell: usize,
    /// The rank: 1 for a 2, 2 for a 4.
    pub rank: u8,
}

/// Draws one spawn on `board` by the documented rule; `None` if the board is full.
pub fn draw_spawn(board: Board, rng: &mut Rng) -> Option<Spawn> {
    let e = board.empty_count();
    if e == 0 {
        return None;
    }
    let k = rng.below(u64::from(e)) as u32;
    let rank = if rng.below(10) == 0 { 2 } else { 1 };
    let (_, cell) = board.spawn_at_empty(k, rank);
    Some(Spawn { cell, rank })
}

/// A game: board, score, move count and the spawn generator. The game is played on a
/// [`Wide`] board, so it goes on past 32768 by the rules; players see its packed
/// [`Wide::view`] through [`Game::board`].
#[derive(Clone, Debug)]
pub struct Game {
    tiles: Wide,
    board: Board,
    score: u64,
    moves: u64,
    rng: Rng,
    status: Status,
    spawns: Vec<Spawn>,
    dirs: Vec<Dir>,
    seed: u64,
}

impl Game {
    /// A new game from `seed`: two spawns on the empty board.
    pub fn new(seed: u64) -> Game {
        let mut g = Game {
            tiles: Wide::EMPTY,
            board: Board::EMPTY,
            score: 0,
            moves: 0,
            rng: Rng::new(seed),
            status: Status::Playing,
            spawns: Vec::new(),
            dirs: Vec::new(),
            seed,
        };
        for _ in 0..2 {
            g.spawn();
        }
        g
    }

    fn spawn(&mut self) {
        // The view has the board's empty cells, and draws the spawn as the packed board would.
        if let Some(s) = draw_spawn(self.tiles.view(), &mut self.rng) {
            self.tiles = self.tiles.with(s.cell, s.rank);
            self.spawns.push(s);
        }
        self.board = self.tiles.view();
    }

    /// The board as the players see it: the packed [`Wide::view`] of [`Game::tiles`] (the
    /// board itself until a tile passes 32768 or two 32768 tiles stand).
    pub fn board(&self) -> Board {
        self.board
    }

    /// The board itself, every tile exact.
    pub fn tiles(&self) -> Wide {
        self.tiles
    }

    /// The largest tile on the board.
    pub fn max_tile(&self) -> u32 {
        1 << self.tiles.max_rank()
    }

    /// The score so far.
    pub fn score(&self) -> u64 {
        self.score
    }

    /// The number of moves played.
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// How the game stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The seed the game started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Plays `dir` and spawns a tile. A move that changes nothing (or any move once the game
    /// has ended) is [`MoveError::Illegal`] and changes nothing. Every merge is made, two
    /// 32768 tiles included. After a move the status becomes [`Status::Over`] if no move is
    /// legal.
    pub fn play(&mut self, dir: Dir) -> Result<(), MoveError> {
        if self.status != Status::Playing {
            return Err(MoveError::Illegal);
        }
        let m = self.tiles.play(dir).ok_or(MoveError::Illegal)?;
        self.tiles = m.board;
        self.score += m.score;
        self.moves += 1;
        self.dirs.push(dir);
        self.spawn();
        if !self.tiles.can_move() {
            self.status = Status::Over;
        }
        Ok(())
    }

    /// Stops the game by a move limit.
    pub fn stop(&mut self) {
        if self.status == Status::Playing {
            self.status = Status::MoveLimit;
        }
    }

    /// The game's record (see [`crate::trace`]).
    pub fn record(&self) -> crate::trace::GameRecord {
        crate::trace::GameRecord {
            game: "2048".to_string(),
            seed: Some(self.seed),
            moves: self.dirs.iter().map(|d| d.letter()).collect(),
            spawns: self.spawns.iter().map(|s| [s.cell as u32, 1 << s.rank]).collect(),
            overflow_move: None,
            score: self.score,
            final_board: self.tiles.to_string(),
            status: self.status,
        }
    }
}

/// Anything that chooses moves.
pub trait Player {
    /// The move to play on `board`, or `None` to resign. Must be a move that is not
    /// [`MoveError::Illegal`] on `board`.
    fn choose(&mut self, board: Board) -> Option<Dir>;
}

/// Plays a whole game from `seed` with `player`, stopping after `max_moves` moves.
pub fn play_game(seed: u64, player: &mut impl Player, max_moves: u64) -> Game {
    let mut g = Game::new(seed);
    while g.status() == Status::Playing {
        if g.moves() >= max_moves {
            g.stop();
            break;
        }
        match player.choose(g.board()) {
            Some(d) => {
                let r = g.play(d);
                debug_assert!(r != Err(MoveError::Illegal), "player chose an illegal move");
                if r == Err(MoveError::Illegal) {
                    g.stop();
                }
            }
            None => g.stop(),
        }
    }
    g
}

/// The random player: a uniformly random move among those that are not illegal, drawn with
/// `rng.below(n)` over the playable moves in [`Dir::ALL`] order. Its own generator, apart from
/// the spawn generator.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    /// A random player seeded with `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { rng: Rng::new(seed) }
    }
}

impl Player for RandomPlayer {
    fn choose(&mut self, board: Board) -> Option<Dir> {
        let mut legal = [Dir::Up; 4];
        let mut n = 0;
        for d in Dir::ALL {
            if board.play(d) != Err(MoveError::Illegal) {
                legal[n] = d;
                n += 1;
            }
        }
        (n > 0).then(|| legal[self.rng.below(n as u64) as usize])
    }
}

/// The end of a random playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playout {
    /// The final board.
    pub board: Board,
    /// The final score.
    pub score: u64,
    /// Moves played.
    pub moves: u64,
}

/// A whole random game on any move generator, as fast as the engine allows: the opening and
/// the spawns follow the documented rule with `Rng::new(seed)`, and the moves are chosen by
/// the same rule as [`RandomPlayer`] (a uniform choice among the playable moves in
/// [`Dir::ALL`] order) drawn from `Rng::new(!seed)`. The game ends when no move is legal or
/// on an overflow move (not applied). The same seed gives the same game on every engine.
pub fn random_playout<G: crate::search::MoveGen>(seed: u64, gen: &G) -> Playout {
    let mut spawns = Rng::new(seed);
    let mut moves_rng = Rng::new(!seed);
    let mut board = Board::EMPTY;
    let mut fours = 0u64;
    for _ in 0..2 {
        if let Some(s) = draw_spawn(board, &mut spawns) {
            board = board.with(s.cell, s.rank);
            fours += u64::from(s.rank == 2);
        }
    }
    let mut moves = 0u64;
    loop {
        let mut next = [board; 4];
        let mut n = 0;
        let mut overflow = [false; 4];
        let shifts = gen.shift_all(board);
        for (i, b) in shifts.boards.into_iter().enumerate() {
            let o = shifts.overflow & (1 << i) != 0;
            if b != board || o {
                next[n] = b;
                overflow[n] = o;
                n += 1;
            }
        }
        if n == 0 {
            break;
        }
        let pick = moves_rng.below(n as u64) as usize;
        if overflow[pick] {
            break;
        }
        board = next[pick];
        moves += 1;
        if let Some(sp) = draw_spawn(board, &mut spawns) {
            board = board.with(sp.cell, sp.rank);
            fours += u64::from(sp.rank == 2);
        }
    }
    Playout { board, score: score_from_board(board, fours), moves }
}

/// The score of a game from its board alone: every tile of rank `r >= 2` on the board was
/// built by merges worth `(r - 1) * 2^r` in all, except that spawned 4s were not merged, so
/// `fours` (the number of 4s spawned) times 4 is subtracted.
pub fn score_from_board(board: Board, fours: u64) -> u64 {
    let merged: u64 =
        (0..16).map(|c| u64::from(board.rank(c))).filter(|&r| r >= 2).map(|r| (r - 1) << r).sum();
    merged - 4 * fours
}

/// Perft: the number of (move, spawn) sequences of `depth` plies from `board`, where a ply
/// is a legal move followed by one spawn (each empty cell with a 2 and with a 4 counts as a
/// different spawn). A move that would create a 65536 ends the line and counts as one leaf.
/// Computed through any move generator, so the engines can be compared on exact counts.
pub fn perft<G: crate::search::MoveGen>(board: Board, depth: u32, gen: &G) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    let moves = gen.shift_all(board);
    for (i, b) in moves.boards.into_iter().enumerate() {
        let overflow = moves.overflow & (1 << i) != 0;
        if overflow {
            total += 1;
            continue;
        }
        if b == board {
            continue;
        }
        let mut empty = b.empty_mask();
        if depth == 1 {
            total += 2 * u64::from(empty.count_ones());
            continue;
        }
        while empty != 0 {
            let bit = empty & empty.wrapping_neg();
            empty &= empty - 1;
            total += perft(Board(b.0 | bit), depth - 1, gen);
            total += perft(Board(b.0 | (bit << 1)), depth - 1, gen);
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_goes_on_through_65536() {
        // No player reaches 65536 in a test's time, so the board is set by hand.
        let mut g = Game::new(1);
        g.tiles = "32768 32768 . ./4 . . ./. . . ./. . . 2".parse().unwrap();
        g.board = g.tiles.view();
        assert_eq!(g.board().to_string(), "16384 16384 . ./4 . . ./. . . ./. . . 2");
        g.play(Dir::Left).unwrap();
        assert_eq!(g.status(), Status::Playing);
        assert_eq!(g.score(), 65536);
        assert_eq!(g.max_tile(), 65536);
        assert_eq!(g.tiles().rank(0), 16);
        assert_eq!(g.board(), g.tiles().view());
        assert_eq!(g.board().rank(0), 15);
        let rec = g.record();
        assert!(rec.final_board.starts_with("65536 "), "{}", rec.final_board);
        assert_eq!((rec.overflow_move, rec.status), (None, Status::Playing));
        // Play on to the end: the 65536 stays, and every chosen move is legal on the tiles.
        let mut p = RandomPlayer::new(5);
        while g.status() == Status::Playing {
            let d = p.choose(g.board()).unwrap();
            g.play(d).unwrap();
        }
        assert_eq!(g.max_tile(), 65536);
        assert!(!g.tiles().can_move());
    }

    #[test]
    fn new_game_has_two_tiles_and_is_seeded() {
        let a = Game::new(7);
        assert_eq!(a.board().empty_count(), 14);
        assert_eq!(Game::new(7).board(), a.board());
        let distinct =
            (0..20).map(|s| Game::new(s).board()).collect::<std::collections::HashSet<_>>();
        assert!(distinct.len() > 10);
    }

    #[test]
    fn random_games_end_and_score_matches_board() {
        for seed in 0..20 {
            let g = play_game(seed, &mut RandomPlayer::new(seed ^ 99), u64::MAX);
            assert_eq!(g.status(), Status::Over);
            assert!(!g.board().can_move());
            // Score from the board: each tile of rank r >= 2 was made by merges worth
            // (r - 1) * 2^r, minus 4 for every spawned 4 (spawned, not merged).
            let fours = g.record().spawns.iter().filter(|s| s[1] == 4).count() as u64;
            assert_eq!(g.score(), score_from_board(g.board(), fours), "seed {seed}");
        }
    }

    #[test]
    fn playouts_agree_between_engines() {
        use crate::search::{FastMoves, ReferenceMoves};
        for seed in 0..30 {
            let a = random_playout(seed, &FastMoves);
            assert_eq!(a, random_playout(seed, &ReferenceMoves), "seed {seed}");
            assert!(!a.board.can_move() && a.moves > 20);
        }
    }
}
