//! The text form of the responses: what `bitarcade samegame ...` prints, so that every front
//! end (the CLI, a server, Python's `__str__`) shows the same lines. Each `Display` ends
//! every line with a newline.

use std::fmt::{self, Display, Formatter};

use super::{
    BenchEvent, Proof, ProveResponse, ReplayResponse, ShowResponse, SolveResponse, Solved, Suite,
};

/// Clicks as `(x,y) (x,y) ...`.
pub fn format_moves(moves: &[[u8; 2]]) -> String {
    moves.iter().map(|[x, y]| format!("({x},{y})")).collect::<Vec<_>>().join(" ")
}

impl Solved {
    /// The board's line; with `moves`, a second line of its clicks (as the CLI prints a
    /// lone board).
    pub fn text(&self, moves: bool) -> String {
        let mut o = format!(
            "board {}: score {} {} ({} moves, {} tiles left, {} nodes, {:.2} s)\n",
            self.board,
            self.score,
            if self.cleared { "cleared" } else { "not cleared" },
            self.moves.len(),
            self.tiles_left,
            self.nodes,
            self.seconds
        );
        if moves {
            o += &format!("moves: {}\n", format_moves(&self.moves));
        }
        o
    }
}

impl SolveResponse {
    /// The total line of several boards (nothing for one).
    pub fn total_text(&self) -> String {
        if self.boards.len() <= 1 {
            return String::new();
        }
        format!(
            "total: {} points, {}/{} cleared, {:.1} s\n",
            self.total_score,
            self.cleared,
            self.boards.len(),
            self.total_seconds
        )
    }
}

impl Display for SolveResponse {
    /// Every board's line (a lone board's with its clicks), then the total of several.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for b in &self.boards {
            f.write_str(&b.text(self.boards.len() == 1))?;
        }
        f.write_str(&self.total_text())
    }
}

impl Display for Proof {
    /// The verdict with the search's counts, and the clearing clicks when there are some.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "board {}: {} ({} positions, {} table hits, {} refuted, {:.3} s)",
            self.board, self.verdict, self.nodes, self.table_hits, self.refuted, self.seconds
        )?;
        match &self.moves {
            Some(m) => writeln!(f, "moves: {}", format_moves(m)),
            None => Ok(()),
        }
    }
}

impl Display for ProveResponse {
    /// Every board's verdict.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.boards.iter().try_for_each(|p| write!(f, "{p}"))
    }
}

impl Display for ReplayResponse {
    /// `ok: N moves, P points, T tiles left[, cleared]`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "ok: {} moves, {} points, {} tiles left{}",
            self.moves,
            self.score,
            self.tiles_left,
            if self.cleared { ", cleared" } else { "" }
        )
    }
}

impl Display for ShowResponse {
    /// Every click with the board it was made on (the group marked `*`), then the end.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for (i, m) in self.steps.iter().enumerate() {
            writeln!(
                f,
                "move {}: ({}, {}) removes {} for {} points",
                i + 1,
                m.x,
                m.y,
                m.removed,
                m.points
            )?;
            for row in &m.rows {
                writeln!(f, "  {row}")?;
            }
        }
        writeln!(
            f,
            "final ({} tiles left, {} points{}):",
            self.tiles_left,
            self.points,
            if self.cleared { ", cleared" } else { "" }
        )?;
        for line in &self.last {
            writeln!(f, "  {line}")?;
        }
        Ok(())
    }
}

impl Display for BenchEvent<'_> {
    /// A suite's heading or a row, as the bench prints them as they come (nothing for the
    /// start of the standard suite, whose heading comes with its boards).
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            BenchEvent::Start(Suite::Engine) => {
                writeln!(
                    f,
                    "engine vs reference (ns per call, median of rounds; ratio = reference / \
                     engine)"
                )?;
                writeln!(
                    f,
                    "{:>7} {:>3} {:>10} {:>10} {:>6} {:>10} {:>10} {:>6}",
                    "size", "col", "find", "ref find", "x", "child", "ref child", "x"
                )
            }
            BenchEvent::Start(Suite::Game) => {
                writeln!(f, "\nwhole game, classic beam, one thread (ms, median of rounds)")
            }
            BenchEvent::Start(Suite::Passes) => {
                writeln!(f, "\ntwo-pass vs one-pass beam, one thread (ms, median of rounds)")
            }
            BenchEvent::Start(Suite::Threads) => {
                writeln!(f, "\nthread scaling, two-pass beam (ms, median of rounds)")
            }
            BenchEvent::Start(Suite::Clear) => {
                writeln!(f, "\nclear goal, width 5000, all threads (seconds per board)")
            }
            BenchEvent::Start(Suite::Prove) => writeln!(
                f,
                "\nprover positions with and without refutations (5 colours, budget 20M \
                 positions)"
            ),
            BenchEvent::Start(Suite::Standard) => Ok(()),
            BenchEvent::StandardStart { boards, search } => {
                writeln!(f, "\nstandard set ({boards} boards): {search}")
            }
            BenchEvent::Engine(r) => writeln!(
                f,
                "{:>7} {:>3} {:>10.0} {:>10.0} {:>6.1} {:>10.0} {:>10.0} {:>6.1}",
                format!("{}x{}", r.width, r.height),
                r.colors,
                r.find_ns_fast,
                r.find_ns_ref,
                r.find_ratio,
                r.child_ns_fast,
                r.child_ns_ref,
                r.child_ratio
            ),
            BenchEvent::Game(r) => writeln!(
                f,
                "{:>9} width {:>4}: engine {:>9.1} ms ({} nodes, score {}), reference {:>9.1} ms \
                 ({} nodes, score {}), {:.1}x",
                r.board,
                r.width,
                r.fast_ms,
                r.nodes_fast,
                r.fast_score,
                r.ref_ms,
                r.nodes_ref,
                r.ref_score,
                r.ratio
            ),
            BenchEvent::Pass(r) => writeln!(
                f,
                "15x15/5 width {}: one pass {:.0} ms, two passes {:.0} ms ({:.2}x), same answer: {}",
                r.width, r.one_pass_ms, r.two_pass_ms, r.ratio, r.same_answer
            ),
            BenchEvent::Thread(r) => writeln!(
                f,
                "{} thread(s): {:.0} ms, speedup {:.2}, same answer: {}",
                r.threads, r.ms, r.speedup, r.same_answer
            ),
            BenchEvent::Clear(r) => writeln!(
                f,
                "{} widen {}: {}/{} cleared, median {:.3} s, max {:.3} s",
                r.size, r.widen, r.cleared, r.boards, r.median_s, r.max_s
            ),
            BenchEvent::Prove(r) => writeln!(
                f,
                "{}: {} boards ({} clearable, {} not, {} undecided), positions {} with \
                 refutations, {} without ({:.1}% saved)",
                r.size,
                r.boards,
                r.clearable,
                r.unclearable,
                r.undecided,
                r.nodes_with,
                r.nodes_without,
                r.saved_pct
            ),
            BenchEvent::Standard(r) => writeln!(
                f,
                "total {}, {}/{} cleared, {:.1} s wall, {} CPU",
                r.total,
                r.cleared,
                r.boards,
                r.wall_s,
                r.cpu_s.map_or("unknown".to_string(), |c| format!("{c:.1} s"))
            ),
        }
    }
}
