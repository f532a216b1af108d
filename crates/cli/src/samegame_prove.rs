//! `bitarcade samegame prove`: printing the exact clearability decider's answers.

use samegame::api::{self, Control, ProveRequest};

use crate::common::{print_json, CliError, CliResult};

/// Decides every board of the request, printing each decision as it is made.
pub fn prove(req: &ProveRequest, json: bool) -> CliResult {
    let out = api::prove_each(req, Control::new(), &mut |p| {
        if !json {
            println!(
                "board {}: {} ({} positions, {} table hits, {} refuted, {:.3} s)",
                p.board, p.verdict, p.nodes, p.table_hits, p.refuted, p.seconds
            );
            if let Some(m) = &p.moves {
                println!("moves: {}", crate::samegame::format_moves(m));
            }
        }
        Ok(())
    })?;
    if json {
        print_json(&out.boards)?;
    }
    if out.undecided {
        return Err(CliError::failed("some boards were not decided within --max-nodes"));
    }
    Ok(())
}
