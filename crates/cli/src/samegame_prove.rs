//! `bitarcade samegame prove`: the exact clearability decider.

use std::path::Path;
use std::time::Instant;

use serde::Serialize;

use samegame::prove::{prove as decide, Verdict};
use samegame::{trace, Rules};

use crate::common::{print_json, CliError, CliResult};

#[derive(Serialize)]
struct Proof {
    board: usize,
    verdict: &'static str,
    moves: Option<Vec<[u8; 2]>>,
    nodes: u64,
    table_hits: u64,
    refuted: u64,
    seconds: f64,
}

/// Decides every board of `file`.
pub fn prove(file: &Path, refutations: bool, max_nodes: u64, json: bool) -> CliResult {
    let boards = crate::samegame::load_boards(file)?;
    let mut out = Vec::new();
    let mut undecided = false;
    for (i, (board, mg)) in boards.iter().enumerate() {
        let min_group = mg.unwrap_or(2).max(2);
        let start = Instant::now();
        let (verdict, stats) = decide(board, min_group, refutations, max_nodes);
        let seconds = start.elapsed().as_secs_f64();
        let (name, moves) = match &verdict {
            Verdict::Clearable(m) => {
                let rules = Rules { min_group, ..Rules::default() };
                let v = trace::verify(board, m, &rules).map_err(|(k, e)| {
                    CliError::failed(format!("internal error: move {} illegal: {e}", k + 1))
                })?;
                if !v.cleared {
                    return Err(CliError::failed(
                        "internal error: the clearing sequence does not clear",
                    ));
                }
                ("clearable", Some(m.iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>()))
            }
            Verdict::Unclearable => ("unclearable", None),
            Verdict::Unknown => {
                undecided = true;
                ("unknown (node budget exhausted)", None)
            }
        };
        let p = Proof {
            board: i + 1,
            verdict: name,
            moves,
            nodes: stats.nodes,
            table_hits: stats.table_hits,
            refuted: stats.refuted,
            seconds,
        };
        if !json {
            println!(
                "board {}: {} ({} positions, {} table hits, {} refuted, {:.3} s)",
                p.board, p.verdict, p.nodes, p.table_hits, p.refuted, p.seconds
            );
            if let Some(m) = &p.moves {
                let s: Vec<String> = m.iter().map(|[x, y]| format!("({x},{y})")).collect();
                println!("moves: {}", s.join(" "));
            }
        }
        out.push(p);
    }
    if json {
        print_json(&out)?;
    }
    if undecided {
        return Err(CliError::failed("some boards were not decided within --max-nodes"));
    }
    Ok(())
}
