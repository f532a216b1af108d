//! The text form of the responses: what `bitarcade 2048 ...` prints, so that every front end
//! (the CLI, a server, Python's `__str__`) shows the same lines. Each `Display` ends every
//! line with a newline.

use std::fmt::{self, Display, Formatter};

use super::{
    BenchResponse, BestResponse, FromStartsResponse, Method, PlayResponse, ReplayResponse,
    StartsResponse, TrainResponse, TrainWindow, TuneGeneration, TuneResponse,
};
use crate::search::Params;

/// `params` as one JSON line (the form `--params` and `--start` read).
fn params_json(params: &Params) -> String {
    serde_json::to_string(params).unwrap_or_default()
}

impl Display for PlayResponse {
    /// The table: setting, games, average, median, best, reach rates, speed and nodes.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let s = &self.summary;
        writeln!(f, "setting            {}", self.setting)?;
        match &self.seeds {
            Some(range) => writeln!(
                f,
                "games              {} (one per master seed {range}, {} threads)",
                s.games, self.threads
            )?,
            None => writeln!(
                f,
                "games              {} (seed {}, {} threads)",
                s.games, self.seed, self.threads
            )?,
        }
        writeln!(f, "average score      {:.0} ± {:.0} (95%)", s.average, s.average_ci95)?;
        writeln!(f, "median score       {:.0}", s.median)?;
        writeln!(f, "best score         {} (best tile {})", s.best, s.best_tile)?;
        for t in &s.reach {
            writeln!(
                f,
                "reached {:<6}     {:>4}/{}  {:5.1}%  95% CI [{:.1}, {:.1}]",
                t.tile,
                t.count,
                s.games,
                100.0 * t.rate,
                100.0 * t.low,
                100.0 * t.high
            )?;
        }
        writeln!(
            f,
            "game moves/s       {:.1} in all, {:.1} per thread ({} moves in {:.1} s)",
            self.game_moves_per_second,
            self.game_moves_per_second_per_thread,
            s.moves,
            self.seconds
        )?;
        writeln!(
            f,
            "search nodes/s     {:.3e} (move-generator calls)",
            self.search_nodes_per_second
        )?;
        writeln!(
            f,
            "nodes per move     {:.0} (move-generator calls per game move)",
            s.nodes as f64 / s.moves.max(1) as f64
        )?;
        if s.table_moves > 0 {
            writeln!(
                f,
                "table moves        {} ({:.1}% of the moves chose an endgame table)",
                s.table_moves,
                100.0 * s.table_moves as f64 / s.moves.max(1) as f64
            )?;
        }
        Ok(())
    }
}

impl Display for BestResponse {
    /// The board, then the best move with its value, depth and nodes.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.board.parse::<crate::Wide>() {
            Ok(b) => writeln!(f, "{b:#}")?,
            Err(_) => writeln!(f, "{}", self.board)?,
        }
        if let Some(t) = &self.table {
            writeln!(f, "endgame table {t}")?;
        }
        if let Some(v) = &self.view {
            writeln!(f, "searched as {v} (tiles past 32768 squeezed; see docs/2048.md)")?;
        }
        match &self.choice {
            Some(c) => writeln!(
                f,
                "best move {} (value {:.0}, depth {}, {} nodes)",
                c.dir, c.value, c.depth, self.nodes
            ),
            None => writeln!(f, "no legal move: the game is over"),
        }
    }
}

impl Display for ReplayResponse {
    /// The boards asked for (`index<TAB>board<TAB>move`), else a line per record and a total.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.listed {
            for b in &self.boards {
                writeln!(f, "{}\t{}\t{}", b.index, b.board, b.dir)?;
            }
            return Ok(());
        }
        for (i, (s, t)) in self.scores.iter().zip(&self.max_tiles).enumerate() {
            writeln!(f, "record {i}: ok, score {s}, max tile {t}")?;
        }
        writeln!(f, "{} record(s), {} moves: all replay", self.records, self.moves)
    }
}

impl Display for BenchResponse {
    /// The table of the fast and the reference engine side by side, and the run's settings.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let (r, x) = (&self.fast, &self.reference);
        writeln!(f, "{:<40} {:>14} {:>14} {:>9}", "", "table engine", "reference", "speedup")?;
        let row = |f: &mut Formatter<'_>, label: &str, a: f64, b: f64, ratio: f64| {
            writeln!(f, "{label:<40} {a:>14.2} {b:>14.2} {ratio:>8.1}x")
        };
        row(
            f,
            "one move per call, ns (Board::shift)",
            r.move_ns_per_call,
            x.move_ns_per_call,
            self.move_speedup,
        )?;
        row(
            f,
            "four moves per call, ns per move (search)",
            r.four_moves_ns_per_move,
            x.four_moves_ns_per_move,
            self.four_moves_speedup,
        )?;
        writeln!(
            f,
            "{:<40} {:>14.2} {:>14} {:>8}",
            "one move per call, up/down by transpose",
            r.transpose_move_ns_per_call,
            "",
            format!("{:.2}x", self.column_over_transpose)
        )?;
        row(
            f,
            "  with the score (play path)",
            r.scored_move_ns_per_call,
            x.move_ns_per_call,
            x.move_ns_per_call / r.scored_move_ns_per_call,
        )?;
        writeln!(
            f,
            "{:<40} {:>14.0} {:>14.0} {:>8.1}x",
            "random games per second, one thread",
            r.random_games_per_second_per_thread,
            x.random_games_per_second_per_thread,
            self.random_games_speedup
        )?;
        writeln!(
            f,
            "{:<40} {:>14.3e} {:>14.3e} {:>8.1}x",
            "search nodes per second (depth 3)",
            r.search_nodes_per_second,
            x.search_nodes_per_second,
            self.search_speedup
        )?;
        if self.late_positions > 0 {
            let late = |f: &mut Formatter<'_>, label: &str, a: f64, b: f64, ratio: f64| {
                writeln!(f, "{label:<40} {a:>14.3e} {b:>14.3e} {ratio:>8.2}x")
            };
            late(
                f,
                "nneonneo rule: incremental vs prefetch",
                self.late_nodes_per_second_shipped,
                self.late_nodes_per_second_prefetch,
                self.incremental_speedup,
            )?;
            late(
                f,
                "nneonneo depth rule: prefetch vs none",
                self.late_nodes_per_second_prefetch,
                self.late_nodes_per_second_plain,
                self.prefetch_speedup,
            )?;
        }
        writeln!(
            f,
            "(medians of {} rounds; {} boards x 4 moves; {} / {} random games; {} search \
             positions; {} late positions; seed {}; engines agree: {}; incremental and \
             prefetch change nothing: {})",
            self.repeats,
            self.boards,
            self.random_games_fast,
            self.random_games_reference,
            self.search_positions,
            self.late_positions,
            self.seed,
            self.engines_agree,
            self.variants_agree
        )
    }
}

impl BenchResponse {
    /// `Err(Error::Failed)` when the engines or the search variants disagreed.
    pub fn verdict(&self) -> Result<(), super::Error> {
        if !self.engines_agree {
            return Err(super::Error::failed("the table engine and the reference engine disagree"));
        }
        if !self.variants_agree {
            return Err(super::Error::failed(
                "the search with incremental spawns or the table prefetch chose differently",
            ));
        }
        Ok(())
    }
}

impl TuneGeneration<'_> {
    /// The progress line of a generation (no newline).
    pub fn text(&self) -> String {
        match self {
            TuneGeneration::Plus(g) => {
                let best = g.child_scores.iter().copied().fold(f64::MIN, f64::max);
                format!(
                    "generation {:>3}: parent {:>9.0}, best child {:>9.0}{}",
                    g.generation,
                    g.parent_score,
                    best,
                    if g.improved { "  (replaced)" } else { "" }
                )
            }
            TuneGeneration::Gradient(g) => format!(
                "generation {:>3}: mean {:>9.0}, gradient {:?}, params {}",
                g.generation,
                g.mean_score,
                g.gradient.map(|x| (x * 1000.0).round() / 1000.0),
                params_json(&g.params)
            ),
        }
    }
}

impl Display for TuneResponse {
    /// `params {...}`: the final weights as JSON.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(f, "params {}", params_json(&self.params))
    }
}

impl Display for TrainWindow {
    /// One progress line (no newline): games, mean and best score, reach rates, speed.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "games {:>9}  mean {:>8.0}  max {:>7}  2048 {:5.1}%  8192 {:5.1}%  16384 {:5.1}%  \
             32768 {:4.1}%  moves/game {:>6.0}  {:>6.1} games/s  {:.2e} moves/s",
            self.games,
            self.mean_score,
            self.max_score,
            100.0 * self.reach_2048,
            100.0 * self.reach_8192,
            100.0 * self.reach_16384,
            100.0 * self.reach_32768,
            self.mean_moves,
            self.games_per_second,
            self.moves_per_second
        )
    }
}

impl TrainResponse {
    /// The report of a run whose weights went to `out`.
    pub fn text(&self, out: &str) -> String {
        let mut o = Vec::new();
        if self.stage == 1 {
            o.push(format!("network      {} ({} weights)", self.shape, self.weights));
            let rule = match self.method {
                Method::Td => format!("td, alpha {}", self.alpha),
                Method::Tc => format!("tc, beta {} (step at full coherence)", self.alpha),
            };
            let init =
                if self.init == 0.0 { String::new() } else { format!(", init {}", self.init) };
            o.push(format!(
                "training     {rule}{init}, seed {}, games {}..{}",
                self.seed, self.first_game, self.games_total
            ));
        } else {
            o.push(format!("network      {} stages of {}", self.stages, self.shape));
            o.push(format!(
                "training     stage {}, seed {}, alpha {}, games {}..{}, starts {}",
                self.stage,
                self.seed,
                self.alpha,
                self.first_game,
                self.games_total,
                self.starts.as_deref().unwrap_or("")
            ));
        }
        o.push(format!(
            "played       {} games, {} moves in {:.1} s{}",
            self.games_played,
            self.moves,
            self.seconds,
            if self.stopped_by_clock { " (stopped by max_seconds)" } else { "" }
        ));
        if let Some(w) = self.curve.last() {
            o.push(format!("last window  mean score {:.0} over {} games", w.mean_score, w.window));
        }
        o.push(format!("weights      {out} (fingerprint {})", self.fingerprint));
        o.iter().map(|l| format!("{l}\n")).collect()
    }
}

impl super::TablesResponse {
    /// The report of a build whose table went to `out`.
    pub fn text(&self, out: &str) -> String {
        format!(
            "{} table for {} (slack {}): {} positions in {} layers, {} with a chance above 0 \
             ({:.1} s)\n\
             chance from the first layer: best {:.4}, mean {:.4}\n\
             checked {} positions of the last layers against the plain recursion: largest \
             difference {:.1e} ({:.1} s)\n\
             written to {out} ({:.1} MB)\n",
            self.formation,
            self.target,
            self.slack,
            self.positions,
            self.layers,
            self.winnable,
            self.build_seconds,
            self.best_start,
            self.mean_start,
            self.verified,
            self.worst_difference,
            self.verify_seconds,
            self.table.as_ref().map_or(0, crate::endgame::Table::file_size) as f64 / 1e6,
        )
    }
}

impl super::TableInfo {
    /// A line per layer: the free-tile sum, positions, the share with a chance, best and
    /// median chance.
    pub fn text(&self, file: &str) -> String {
        let sum = self.checksum.as_ref().map(|c| format!(", checksum {c}"));
        let mut out = format!(
            "{file}: {} table for {} (slack {}), {} positions in {} layers{}\n\
             {:>6} {:>10} {:>9} {:>8} {:>8}\n",
            self.formation,
            self.target,
            self.slack,
            self.positions,
            self.layers.len(),
            sum.unwrap_or_default(),
            "sum",
            "positions",
            "winnable",
            "best",
            "median"
        );
        for l in &self.layers {
            out += &format!(
                "{:>6} {:>10} {:>8.1}% {:>8.4} {:>8.4}\n",
                l.sum,
                l.positions,
                100.0 * l.winnable as f64 / l.positions.max(1) as f64,
                l.best,
                l.median
            );
        }
        out
    }
}

impl StartsResponse {
    /// The one-line report of a run whose boards went to `out`.
    pub fn text(&self, out: &str) -> String {
        format!(
            "{} of {} games reached stage {} ({:.2}%): {out} ({:.1} s)\n",
            self.starts,
            self.games,
            self.stage,
            100.0 * self.rate,
            self.seconds
        )
    }
}

impl Display for FromStartsResponse {
    /// The games, the average score with its interval, the reach counts.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} games from {} with {} ({} stage(s)), seed {}",
            self.games, self.starts, self.ntuple, self.stages, self.seed
        )?;
        writeln!(f, "average score from the start {:.0} ± {:.0}", self.average, self.average_ci95)?;
        writeln!(
            f,
            "32768 {}/{}  65536 {}/{}  moves {}  ({:.1} s)",
            self.reach_32768.count,
            self.games,
            self.reach_65536.count,
            self.games,
            self.moves,
            self.seconds
        )
    }
}
