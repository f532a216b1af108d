//! The text of the summaries and pairs: what `bitarcade stats` prints (`Display`).

use std::fmt::{self, Display, Formatter, Write as _};

use super::{Drop7Pair, Drop7Summary, Method, Pair, Summary, Twenty48Compare, Twenty48Summary};
use crate::text::{group_digits, grouped, pval};

impl Display for Summary {
    /// The summary's lines, each ending in a newline.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(&match self {
            Summary::Drop7(s) => drop7_summary(s),
            Summary::Twenty48(s) => twenty48_summary(s),
        })
    }
}

impl Display for Pair {
    /// The comparison's lines, each ending in a newline.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(&match self {
            Pair::Drop7(p) => drop7_pair(p),
            Pair::Twenty48(p) => twenty48_compare(p),
        })
    }
}

fn drop7_summary(s: &Drop7Summary) -> String {
    let mut o = String::new();
    let missing = if s.missing.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = s.missing.iter().map(u64::to_string).collect();
        format!(", missing {}", list.join(", "))
    };
    let _ = writeln!(o, "games {} (indices {}..{}{missing})", s.games, s.first_index, s.last_index);
    let mut line = format!("mean {}", grouped(s.mean, 0));
    if let Some([lo, hi]) = s.ci95 {
        let _ = write!(line, " (95% CI {} .. {})", grouped(lo, 0), grouped(hi, 0));
    }
    let _ = writeln!(
        o,
        "{line}, median {}, best {}, worst {}",
        grouped(s.median, 0),
        group_digits(&s.best.to_string()),
        group_digits(&s.worst.to_string())
    );
    let mut line =
        format!("moves {} ({:.1} a game)", group_digits(&s.moves.to_string()), s.moves_per_game);
    if let (Some(c), Some(per)) = (s.cpu_seconds, s.cpu_seconds_per_move) {
        let _ = write!(line, ", CPU s {} ({per:.2} a move)", grouped(c, 0));
    }
    let _ = writeln!(o, "{line}");
    o
}

fn drop7_pair(p: &Drop7Pair) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "games {} (indices {}..{})", p.games, p.first_index, p.last_index);
    let _ = writeln!(o, "A mean {:.0}, B mean {:.0}", p.a_mean, p.b_mean);
    if let (Some([lo, hi]), Some(t), Some(pv)) = (p.ci95, p.t, p.p) {
        let how = match p.method {
            Method::Published => "normal approx.".to_string(),
            Method::Exact => format!("Student t, {} df", p.games - 1),
        };
        let pv = match p.method {
            Method::Published => format!("{pv:.4}"),
            Method::Exact => pval(pv),
        };
        let _ = writeln!(
            o,
            "A - B {:.0} (95% CI {lo:.0} .. {hi:.0}), paired t {t:.2}, p {pv} (two-sided, {how})",
            p.mean_difference
        );
    }
    let _ = write!(o, "A better in {}, worse in {}", p.a_better, p.a_worse);
    if p.method == Method::Exact {
        let _ = write!(o, " (sign test p {}, exact, ties dropped)", pval(p.sign_p));
    }
    o.push('\n');
    for g in &p.game_list {
        let d = g.a as i128 - g.b as i128;
        let _ = writeln!(o, "  game {}: {} vs {} ({d:+})", g.index, g.a, g.b);
    }
    o
}

fn twenty48_summary(s: &Twenty48Summary) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "games {} (seeds {}..{})", s.games, s.first_seed, s.last_seed);
    let _ = writeln!(
        o,
        "average {} +- {}, median {}, best {}",
        grouped(s.average, 0),
        grouped(s.half, 0),
        grouped(s.median, 0),
        group_digits(&s.best.to_string())
    );
    for t in &s.reach {
        let r = &t.rate;
        let _ = writeln!(
            o,
            "{}: {}/{} = {:.0}% [{:.1}, {:.1}]",
            t.tile,
            r.count,
            r.trials,
            (100 * r.count) as f64 / r.trials as f64,
            100.0 * r.low,
            100.0 * r.high
        );
    }
    let mut line = format!("nodes per move {}", grouped(s.nodes_per_move, 0));
    if let (Some(c), Some(m)) = (s.cpu_seconds_per_game, s.moves_per_cpu_second) {
        let _ = write!(line, ", CPU s per game {c:.1}, game moves per CPU s {m:.1}");
    }
    let _ = writeln!(o, "{line}");
    o
}

fn twenty48_compare(c: &Twenty48Compare) -> String {
    let mut o = String::new();
    for t in &c.tiles {
        let _ = write!(
            o,
            "{}: A {}/{}, B {}/{}, Fisher two-sided p = {:.4}",
            t.tile, t.a_count, t.a_games, t.b_count, t.b_games, t.fisher_p
        );
        if let (Method::Exact, Some(m)) = (c.method, &t.paired) {
            let _ = write!(
                o,
                "; on the common seeds A only {}, B only {}, McNemar p = {}",
                m.a_only,
                m.b_only,
                pval(m.p)
            );
        }
        o.push('\n');
    }
    if let Some(p) = &c.paired {
        let _ = write!(
            o,
            "paired on {} seeds: A - B {} (95% CI {} .. {}), A better in {}, worse in {}",
            p.seeds,
            grouped(p.mean, 0),
            grouped(p.ci95[0], 0),
            grouped(p.ci95[1], 0),
            p.a_better,
            p.a_worse
        );
        if c.method == Method::Exact {
            let _ = write!(
                o,
                "; paired t {:.2}, p {} (Student t, {} df), sign test p {}",
                p.t,
                pval(p.p),
                p.seeds - 1,
                pval(p.sign_p)
            );
        }
        o.push('\n');
    }
    o
}
