//! `bitarcade bits ...`: the shared primitives, and which PEXT path this machine uses.

use clap::{Args, Subcommand};

use crate::common::{print_or_json, CliResult, JsonArg};

/// Commands about the shared bit primitives.
#[derive(Args, Debug)]
pub struct BitsArgs {
    #[command(subcommand)]
    command: BitsCommand,
}

#[derive(Subcommand, Debug)]
enum BitsCommand {
    /// Report the active PEXT path, check it against the portable one and time both.
    #[command(after_help = "Examples:\n  \
        bitarcade bits check\n  \
        bitarcade bits check --json\n  \
        BITARCADE_PEXT=portable bitarcade bits check\n  \
        bitarcade --portable-pext bits check --cases 1000000")]
    Check {
        /// Random cases to compare the paths on.
        #[arg(long, default_value_t = 200_000)]
        cases: u64,
        /// Seed of the random cases.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        json: JsonArg,
    },
}

/// Runs `bitarcade bits`.
pub fn run(args: BitsArgs) -> CliResult {
    match args.command {
        BitsCommand::Check { cases, seed, json } => {
            let report = bits::check::check(cases, seed)?;
            print_or_json(json.json, &report)?;
            report.verdict()
        }
    }
}
