//! `bitarcade`: fast bitboard engines and search solvers for five grid puzzles.
//!
//! Every game follows one convention: `bitarcade <game> <verb> ...`, with `--seed S`,
//! `--threads N` (same output for any N), `--json` (one JSON document on stdout),
//! `--record FILE` on verbs that play or solve, and `replay FILE` to check a record.
//! Bad input exits with code 2 and a one-line message; a failed check exits with code 1.

mod bits_cmd;
mod common;
mod drop7;
mod samegame;
mod serve;
mod snake;
mod stats;
mod tetris;
mod twenty48;

use clap::{Parser, Subcommand};

use common::CliError;

/// Fast bitboard engines and search solvers for five grid puzzles.
#[derive(Parser, Debug)]
#[command(name = "bitarcade", version, propagate_version = true)]
#[command(after_help = "Examples:\n  \
    bitarcade bits check\n  \
    bitarcade --portable-pext bits check --json\n\n\
    Every game takes --seed S, --threads N and --json the same way; \
    `bitarcade <game> --help` lists its verbs.")]
struct Cli {
    /// Force the portable PEXT/PDEP path (same as BITARCADE_PEXT=portable); for CPUs where
    /// the BMI2 instructions are slow, such as AMD before Zen 3.
    #[arg(long, global = true)]
    portable_pext: bool,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The shared bit primitives: which PEXT path is active, and a self-check.
    Bits(bits_cmd::BitsArgs),
    /// Drop7: play with a fair expectimax, decide a position, bench, replay, sweep, A/B.
    Drop7(drop7::Drop7Args),
    /// SameGame: generate, solve (max score or full clear), show, prove, replay.
    Samegame(samegame::SameGameArgs),
    /// Tetris perfect clears: pc (the first PC of a queue; fumen in and out), sweep, bench, train, replay.
    Tetris(tetris::TetrisArgs),
    /// Snake: tournaments of the players (BFS, A*, longest, look-ahead, cycle, repair, tree, knit, dash), watch, play, replay, bench.
    Snake(snake::SnakeArgs),
    /// 2048: play batches with expectimax, best (a position's move), bench, tune, train, starts, replay.
    #[command(name = "2048")]
    Twenty48(twenty48::Twenty48Args),
    /// Result rows of long Drop7 and 2048 runs: rows from play reports, summary, pair/compare.
    Stats(stats::StatsArgs),
    /// The web arcade: play, watch and replay in a browser (http://127.0.0.1:8080/).
    Serve(serve::ServeArgs),
}

fn run(cli: Cli) -> common::CliResult {
    if cli.portable_pext {
        bits::pext::set_path(bits::PextPath::Portable).map_err(CliError::failed)?;
    }
    match cli.command {
        Command::Bits(args) => bits_cmd::run(args),
        Command::Drop7(args) => drop7::run(args),
        Command::Samegame(args) => samegame::run(args),
        Command::Tetris(args) => tetris::run(args),
        Command::Snake(args) => snake::run(args),
        Command::Twenty48(args) => twenty48::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Serve(args) => serve::run(args),
    }
}

/// A closed stdout (`bitarcade ... | head`) is not an error worth a backtrace: exit quietly.
/// Any other panic is a bug; it is reported by the default hook.
fn quiet_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}

fn main() {
    quiet_broken_pipe();
    let cli = Cli::parse();
    if let Err(e) = run(cli) {
        eprintln!("bitarcade: error: {}", e.message());
        std::process::exit(common::exit_code(&e));
    }
}
