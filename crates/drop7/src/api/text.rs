//! The text form of the responses: what `bitarcade drop7 ...` prints, so that every front end
//! (the CLI, a server, Python's `__str__`) shows the same lines. Each `Display` ends every
//! line with a newline.

use std::fmt::{self, Display, Formatter};

use super::{
    ready_spec, AbResponse, BenchResponse, DecideResponse, FitResponse, PlayResponse,
    ReplayResponse, SweepResponse, TrainResponse, TuneResponse,
};
use crate::search::DepthRule;

impl Display for PlayResponse {
    /// Up to 16 game lines, the summary line, the depth histogram of a budget rule and the
    /// speed line.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let (report, rule) = (&self.report, self.rule);
        if report.results.len() <= 16 {
            for row in &report.results {
                let (g, cpu) = (&row.result, row.cpu_seconds);
                writeln!(
                    f,
                    "game {:>3}  seed {:>20}  score {:>9}  level {:>3}  moves {:>5}{}{}",
                    g.index,
                    g.seed,
                    g.score,
                    g.level,
                    g.moves,
                    cpu.map_or(String::new(), |c| format!("  cpu {c:.1} s")),
                    if g.over { "" } else { "  (stopped before game over)" }
                )?;
            }
        }
        let s = &report.summary;
        writeln!(
            f,
            "{} games, {} mode, depth {}, eval {}, reveals {}, table {}: mean {:.0} (95% CI \
             {:.0}..{:.0}), median {:.0}, best {}, worst {}",
            s.games,
            self.mode,
            rule,
            report.eval,
            report.reveals,
            report.table,
            s.mean,
            s.ci95[0],
            s.ci95[1],
            s.median,
            s.best,
            s.worst
        )?;
        if let DepthRule::Budget { .. } = rule {
            writeln!(
                f,
                "decisions by depth: {}; {:.0} search moves per decision",
                depth_histogram(&report.depths),
                report.moves_per_decision
            )?;
        }
        writeln!(
            f,
            "{:.1} s wall, {:.2} s per game per thread, {:.2} M search moves/s; every record \
             replayed",
            report.seconds,
            report.seconds_per_game,
            report.search_moves_per_second / 1e6
        )?;
        if report.reveals != "stratified" {
            writeln!(
                f,
                "reveals: {}; --reveals stratified plays stronger (docs/drop7.md, the search)",
                report.reveals
            )?;
        }
        if report.eval.starts_with("ready") {
            writeln!(
                f,
                "leaf: `ready`, the hand-made default; a learned leaf plays stronger: train one \
                 with `drop7 train` and play it with --eval ntuple:@FILE (docs/drop7.md, leaf \
                 evaluators)"
            )?;
        }
        Ok(())
    }
}

/// `4: 120, 5: 30` (the depths with decisions).
fn depth_histogram(depths: &[u64; 8]) -> String {
    let parts: Vec<String> = depths
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(d, n)| format!("{d}: {n}"))
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

impl Display for DecideResponse {
    /// The position, every column's value (the best marked), the position after the best
    /// drop and the search's depth, moves and time.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let best = self.best_column - 1;
        writeln!(f, "{}", self.position)?;
        for (c, v) in self.values.iter().enumerate() {
            match v {
                Some(v) => {
                    let mark = if c == best { "  <- best" } else { "" };
                    writeln!(f, "column {}: {v:>14.1}{mark}", c + 1)?
                }
                None => writeln!(f, "column {}: full", c + 1)?,
            }
        }
        writeln!(f, "after: {}", self.after)?;
        let rule = self.rule.unwrap_or(DepthRule::Fixed(self.depth));
        writeln!(
            f,
            "depth {} ({}): {} moves searched in {:.3} s",
            self.depth, rule, self.stats.moves, self.seconds
        )
    }
}

impl Display for ReplayResponse {
    /// A line per game.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for g in &self.games {
            writeln!(f, "game {}: ok, {} turns, score {}", g.game, g.turns, g.score)?;
        }
        Ok(())
    }
}

impl Display for SweepResponse {
    /// Games and turns compared.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} games, {} turns: engine and reference identical ({:.1} s)",
            self.games, self.turns, self.seconds
        )
    }
}

impl Display for AbResponse {
    /// Each side's scores, then the paired difference with its interval and test.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let (x, y) = (&self.a_summary, &self.b_summary);
        writeln!(
            f,
            "A {} (reveals {}, samples {}): mean {:.0}, median {:.0}, best {}",
            self.a, self.a_reveals, self.a_reveal_samples, x.mean, x.median, x.best
        )?;
        writeln!(
            f,
            "B {} (reveals {}, samples {}): mean {:.0}, median {:.0}, best {}",
            self.b, self.b_reveals, self.b_reveal_samples, y.mean, y.median, y.best
        )?;
        writeln!(
            f,
            "A - B over {} paired games: {:.0} (95% CI {:.0}..{:.0}), paired t = {:.2}, p = \
             {:.4}; A better in {}, B in {}",
            self.games,
            self.mean_difference,
            self.difference_ci95[0],
            self.difference_ci95[1],
            self.paired_t,
            self.p_two_sided_normal_approx,
            self.a_wins,
            self.b_wins
        )
    }
}

impl Display for BenchResponse {
    /// The engine's throughput against the reference, the poppers, and a table of the
    /// decision timings by depth and table.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let e = &self.engine;
        writeln!(
            f,
            "engine (Hardcore, random policy, {} games x {} runs, one thread):",
            e.games, self.runs
        )?;
        writeln!(
            f,
            "  wall: fast {:.2} M moves/s, reference {:.2} M moves/s",
            e.fast_moves_per_second / 1e6,
            e.reference_moves_per_second / 1e6,
        )?;
        if let (Some(x), Some(r)) = (e.fast_moves_per_cpu_second, e.reference_moves_per_cpu_second)
        {
            writeln!(
                f,
                "  per CPU second: fast {:.2} M moves/s, reference {:.2} M moves/s",
                x / 1e6,
                r / 1e6
            )?;
        }
        writeln!(f, "  ratio {:.1}x (median of per-run ratios)", e.ratio_median)?;
        writeln!(
            f,
            "poppers on {} boards (CPU time, medians): SWAR scan {:.2} ns, run-length table \
             {:.2} ns, table/SWAR {:.2}",
            e.popper_boards, e.popper_swar_ns, e.popper_table_ns, e.popper_table_over_swar
        )?;
        writeln!(
            f,
            "decisions on {} harvested positions (all 7 values at chance nodes, eval {}):",
            self.positions, self.eval
        )?;
        writeln!(
            f,
            "  depth table    ms/decision  moves/decision  nodes/decision  nodes removed  hit \
             rate  speedup  same values"
        )?;
        for d in &self.decisions {
            writeln!(
                f,
                "  {:>5} {:<8} {:>11.2} {:>15.0} {:>15.0} {:>13.1}% {:>8.2}% {:>7.2}x  {}",
                d.depth,
                d.table,
                d.ms_per_decision_median,
                d.moves_per_decision,
                d.nodes_per_decision,
                d.nodes_removed_vs_none * 100.0,
                d.node_hit_rate * 100.0,
                d.speedup_vs_none_median,
                if d.values_identical_to_none { "yes" } else { "NO" }
            )?;
        }
        Ok(())
    }
}

impl BenchResponse {
    /// `Err(Error::Failed)` when a table changed a decision value.
    pub fn verdict(&self) -> Result<(), super::Error> {
        if self.ok() {
            Ok(())
        } else {
            Err(super::Error::failed("a table changed a decision value"))
        }
    }
}

impl Display for FitResponse {
    /// Every target's weights file, then the harvest's games and time.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for fit in &self.fits {
            f.write_str(&fit.text)?;
        }
        writeln!(f, "harvest: {} games in {:.1} s", self.games, self.seconds)
    }
}

impl Display for TuneResponse {
    /// The start, every candidate (`KEEP` where it became the best) and the best.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(f, "start {} mean {:.0}", ready_spec(&self.start), self.start_mean)?;
        for st in &self.steps {
            let kept = if st.kept { " KEEP" } else { "" };
            writeln!(
                f,
                "pass {} {} x{:.2}: {} mean {:.0}{kept}",
                st.pass,
                st.weight,
                st.factor,
                ready_spec(&st.weights),
                st.mean
            )?;
        }
        writeln!(f, "best {} {:.0}", ready_spec(&self.best), self.best_mean)
    }
}

impl TrainResponse {
    /// The one-line report of a run whose network went to `out`.
    pub fn text(&self, out: &str) -> String {
        let method = match self.method {
            super::Method::Td => "td",
            super::Method::Tc => "tc",
        };
        // The policy's settings are not in the weight file: said when not the defaults.
        let mut policy = String::new();
        if self.policy_depth > 1 {
            policy += &format!(", policy depth {}", self.policy_depth);
        }
        if self.reveal_samples > 1 {
            policy += &format!(", {} reveal samples", self.reveal_samples);
        }
        if let Some(c) = self.clamp {
            policy += &format!(", clamp {c}");
        }
        format!(
            "trained {} games ({} in all, seed {}, {method} alpha {}{policy}) in {:.1} s: {} \
             moves, {:.0} moves/s; wrote {out} ({})\n",
            self.games_this_run,
            self.games_total,
            self.seed,
            self.alpha,
            self.seconds,
            self.moves,
            self.moves_per_second,
            self.shape
        )
    }
}
