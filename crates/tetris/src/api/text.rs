//! The text form of the responses: what `bitarcade tetris ...` prints, so that every front
//! end (the CLI, a server, Python's `__str__`) shows the same lines. Each `Display` ends
//! every line with a newline.

use std::fmt::{self, Display, Formatter};

use super::{
    BenchResponse, PcReport, PercentResponse, ReplayResponse, SweepResponse, TrainResponse,
};

impl Display for PcReport {
    /// The perfect clear step by step (cells, hold, keys) and its fumen link, or why none.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if !self.found {
            return writeln!(
                f,
                "{}",
                if self.aborted {
                    "no perfect clear found within the node limit"
                } else {
                    "no perfect clear"
                }
            );
        }
        writeln!(
            f,
            "{}-line perfect clear ({} kicks, {} nodes, {:.3} ms), verified:",
            self.height.unwrap_or(0),
            self.kicks,
            self.nodes,
            self.millis
        )?;
        for (i, s) in self.steps.iter().enumerate() {
            let cells: Vec<String> =
                s.cells.iter().map(|c| format!("({},{})", c[0], c[1])).collect();
            writeln!(
                f,
                "{:>2}. {} {} {}{}  keys: {}{}",
                i + 1,
                s.piece,
                s.facing,
                cells.join(" "),
                if s.hold { "  [hold]" } else { "" },
                if s.hold { "HOLD " } else { "" },
                s.keys.as_deref().unwrap_or("(none from spawn with this kick table)")
            )?;
        }
        match &self.fumen {
            Some(fumen) => writeln!(f, "https://harddrop.com/fumen/?{fumen}"),
            None => Ok(()),
        }
    }
}

impl Display for ReplayResponse {
    /// `ok: N placements replay to an empty field (H-line PC)`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "ok: {} placements replay to an empty field ({}-line PC)",
            self.steps, self.height
        )
    }
}

impl Display for SweepResponse {
    /// The count of queues with a PC.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}-line sweep ({} kicks, shard {}): {} of {} canonical queues have a PC ({:.1} s)",
            self.height, self.kicks, self.shard, self.solvable, self.items, self.seconds
        )
    }
}

/// `a` of `b` with the percentage, `5032 / 5040 (99.84%)`.
fn rate(a: u64, b: u64) -> String {
    let pct = if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
    format!("{a} / {b} ({pct:.2}%)")
}

/// Fails printed in full before the rest are only counted.
const FAILS_SHOWN: usize = 20;

impl Display for PercentResponse {
    /// The success rate, per pattern when there are several, the tree (indented by depth), the
    /// first failing queues and what the count cost.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let shard =
            if self.shard == "1/1" { String::new() } else { format!(", shard {}", self.shard) };
        writeln!(
            f,
            "{}-line PC ({} pieces, {}, {} kicks{shard}): {} queues have a PC",
            self.height,
            self.pieces,
            if self.hold { "hold" } else { "no hold" },
            self.kicks,
            rate(self.solvable, self.total)
        )?;
        if self.patterns.len() > 1 {
            for p in &self.patterns {
                writeln!(f, "  {}: {}", p.pattern, rate(p.solvable, p.total))?;
            }
        }
        if !self.tree.is_empty() {
            writeln!(f, "by first pieces:")?;
            for t in &self.tree {
                let pat = if self.patterns.len() > 1 {
                    format!("[{}] ", t.pattern + 1)
                } else {
                    String::new()
                };
                writeln!(
                    f,
                    "  {}{pat}{}: {}",
                    "  ".repeat(t.prefix.len().saturating_sub(1)),
                    t.prefix,
                    rate(t.solvable, t.total)
                )?;
            }
        }
        if !self.fails.is_empty() {
            writeln!(f, "queues with no PC ({}):", self.fails.len())?;
            for q in self.fails.iter().take(FAILS_SHOWN) {
                writeln!(f, "  {q}")?;
            }
            if self.fails.len() > FAILS_SHOWN {
                writeln!(
                    f,
                    "  ... {} more (--fails FILE writes them all)",
                    self.fails.len() - FAILS_SHOWN
                )?;
            }
        }
        let beam = if self.exact_orders {
            "all".to_string()
        } else {
            format!("beam {}; {} queues decided by the DFS solver", self.beam, self.solver_queues)
        };
        writeln!(
            f,
            "{} clearing orders of {} pieces from {} fields ({:.1} MB, {beam}) in {:.2} s; {} \
             queues re-solved by the DFS solver and verified, all agree; {:.2} s in all",
            self.orders,
            self.pieces,
            self.fields,
            self.order_bytes as f64 / 1e6,
            self.order_seconds,
            self.checked,
            self.seconds
        )?;
        if !self.exact_orders && self.solver_queues >= HINT_SOLVER_QUEUES {
            writeln!(
                f,
                "(--beam 0 finds every clearing order once and needs no solver call; for a 4-line \
                 PC from an empty field about 5 CPU-minutes and 8 GB)"
            )?;
        }
        Ok(())
    }
}

/// Solver calls past which a beam run suggests the exact order set.
const HINT_SOLVER_QUEUES: u64 = 1000;

impl Display for BenchResponse {
    /// The move-generation ratio, then a line per line count with its signature.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let mg = &self.movegen;
        writeln!(
            f,
            "movegen on {} random zones: bitboard {:.3} us, per-cell reference {:.1} us per piece \
             ({:.0}x)",
            mg.fields, mg.fast_us, mg.reference_us, mg.ratio
        )?;
        for b in &self.results {
            writeln!(
                f,
                "{}-line ({} pieces, {} queues, {} kicks, seed {}): solved {}/{}; time mean {:.3} \
                 ms (CPU {}), median {:.3} ms, max {:.3} ms{}; nodes mean {:.0}, max {}; memory \
                 mean {:.1} KiB, max {:.1} KiB; signature {}",
                b.lines,
                b.pieces,
                b.queues,
                self.kicks,
                self.seed,
                b.solved,
                b.queues,
                b.mean_ms,
                b.cpu_mean_ms.map_or("n/a".to_string(), |c| format!("{c:.3} ms")),
                b.median_ms,
                b.max_ms,
                if b.runs > 1 { format!(" (medians of {} runs)", b.runs) } else { String::new() },
                b.mean_nodes,
                b.max_nodes,
                b.mean_memory_kib,
                b.max_memory_kib,
                b.signature
            )?;
        }
        Ok(())
    }
}

impl Display for TrainResponse {
    /// The best weights with their cost, and the features they weigh.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "best weights {:?} (total nodes {} over {} training queues x 2)",
            self.best_weights, self.best_cost_nodes, self.queues
        )?;
        writeln!(f, "features: {}", crate::solver::FEATURE_NAMES.join(", "))
    }
}
