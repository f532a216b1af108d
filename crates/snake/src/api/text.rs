//! The text form of the responses: what `bitarcade snake ...` prints, so that every front end
//! (the CLI, a server, Python's `__str__`) shows the same lines. Each `Display` ends every
//! line with a newline.

use std::fmt::{self, Display, Formatter};

use super::{BenchResponse, PlayResponse, ReplayResponse, TournamentResponse, WatchResponse};
use crate::Game;

impl Display for TournamentResponse {
    /// The setting, then the table: a row per player.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "snake tournament: {} games per player (games {}..{}) on {} from length {}, seed {}, \
             stall limit {}",
            self.games,
            self.first,
            self.first + self.games,
            self.size,
            self.start_len,
            self.seed,
            self.stall_limit
        )?;
        writeln!(
            f,
            "{:<10} {:>7} {:>7} {:>7} {:>9} {:>5} {:>5} {:>10} {:>9} {:>12}",
            "solver",
            "games",
            "wins",
            "stalled",
            "avg score",
            "best",
            "worst",
            "avg moves",
            "(95% CI)",
            "ms per game"
        )?;
        for r in &self.rows {
            writeln!(
                f,
                "{:<10} {:>7} {:>7} {:>7} {:>9.2} {:>5} {:>5} {:>10.1} {:>9} {:>12.3}",
                r.solver,
                r.games,
                r.wins,
                r.stalled,
                r.avg_score,
                r.best,
                r.worst,
                r.avg_moves,
                format!("±{:.1}", r.moves_ci95),
                r.ms_per_game
            )?;
        }
        writeln!(
            f,
            "(every game replayed on the reference engine; all columns but time are the same for \
             any number of threads)"
        )
    }
}

/// One frame of `watch`: the player, seed, move, score and length, then the board.
pub fn frame_text(player: &str, seed: u64, g: &Game) -> String {
    format!(
        "{player} on {}  seed {seed}  move {}  score {}  length {}\n{}\n",
        g.config().size,
        g.moves(),
        g.score(),
        g.board().len(),
        g.board()
    )
}

impl Display for WatchResponse {
    /// How the watched game ended.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(f, "{:?}: score {} in {} moves (replayed)", self.status, self.score, self.moves)
    }
}

impl Display for PlayResponse {
    /// The final board, then how the game ended.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let r = &self.report;
        writeln!(f, "{}\n", r.board)?;
        writeln!(
            f,
            "{} on {} seed {}: {} with score {} of {} in {} moves (replayed on the reference \
             engine)",
            r.player, r.size, r.seed, r.status, r.score, self.max_score, r.moves
        )
    }
}

impl Display for ReplayResponse {
    /// `FILE: ok, N moves replayed, STATUS with score S`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: ok, {} moves replayed, {} with score {}",
            self.file, self.moves, self.status, self.score
        )
    }
}

impl Display for BenchResponse {
    /// BFS against A* per board, and the signature.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(f, "snake bench: ns per search, median of {} rounds, 10x10 boards", self.rounds)?;
        writeln!(
            f,
            "{:<40} {:>9} {:>9} {:>8} {:>10} {:>10}",
            "board", "BFS ns", "A* ns", "BFS/A*", "BFS cells", "A* cells"
        )?;
        for l in &self.lines {
            writeln!(
                f,
                "{:<40} {:>9.1} {:>9.1} {:>8.2} {:>10.1} {:>10.1}",
                l.board, l.bfs_ns, l.astar_ns, l.bfs_over_astar, l.bfs_expanded, l.astar_expanded
            )?;
        }
        let (bfs, astar) = self.signature;
        writeln!(f, "signature (cells expanded, BFS / A*): {bfs} / {astar}")
    }
}
