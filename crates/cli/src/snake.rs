//! `bitarcade snake ...`: tournaments, watching a game, playing with a record, replaying one,
//! and the BFS vs A* bench.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use clap::{Args, Subcommand};

use snake::api::{
    self, BenchRequest, Control, PlayRequest, Setup, Shard, TournamentRequest, WatchRequest,
};

use crate::common::{
    follow, input_file, print_json, print_or_json, progress, write_json_file, CliResult, JsonArg,
    RecordArg, SeedArg, ThreadsArg,
};

/// Snake: tournaments of the players, watch a game, play with a record, replay, bench.
#[derive(Args, Debug)]
pub struct SnakeArgs {
    #[command(subcommand)]
    command: SnakeCommand,
}

/// The board and rules shared by the playing verbs.
#[derive(Args, Debug, Clone)]
struct SetupArgs {
    /// Board size WxH (each side 1..=32).
    #[arg(long, default_value_t = Setup::default().size, value_name = "WxH")]
    size: String,
    /// Start length (the body trails west of the head, which starts at the centre).
    #[arg(long, default_value_t = Setup::default().start_len, value_name = "L")]
    start_len: usize,
    /// Moves without eating before a game is stopped as stalled (default max(1000, 4 * cells)).
    #[arg(long, value_name = "N")]
    stall: Option<u64>,
}

impl SetupArgs {
    fn setup(&self) -> api::Setup {
        Setup { size: self.size.clone(), start_len: self.start_len, stall: self.stall }
    }
}

#[derive(Subcommand, Debug)]
enum SnakeCommand {
    /// Every player plays the same seeded games (in parallel, deterministically); prints the
    /// table: wins, stalled, score, moves, time per game. Every game is replayed by the
    /// reference engine before it counts.
    #[command(after_help = "Examples:\n  \
        bitarcade snake tournament --games 2000 --size 10x10 --seed 1\n  \
        bitarcade snake tournament --games 200 --players shortest,astar --json\n  \
        bitarcade snake tournament --games 100 --size 30x30 --players knit --threads 2\n  \
        bitarcade snake tournament --games 100 --first 100 --size 30x30 --players dash --json")]
    Tournament {
        /// Games per player.
        #[arg(long, default_value_t = TournamentRequest::default().games)]
        games: u64,
        /// Index of the first game: game i is played with seed sub_seed(SEED, i), so a long
        /// run can be split into shards (--first 0, --first 100, ...) whose games are the same.
        #[arg(long, default_value_t = TournamentRequest::default().first)]
        first: u64,
        /// Only shard K of N (1-based): a contiguous part of the games, each with the seed it
        /// has in the whole run, so the shards' games together are the whole run's.
        #[arg(long, value_name = "K/N")]
        shard: Option<String>,
        /// Players, comma-separated (shortest, astar, longest, lookahead, cycle, repair, tree,
        /// knit, dash).
        #[arg(long, value_delimiter = ',', default_value = default_players())]
        players: Vec<String>,
        #[command(flatten)]
        setup: SetupArgs,
        #[command(flatten)]
        seed: SeedArg,
        #[command(flatten)]
        threads: ThreadsArg,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Draws one game in the terminal, move by move.
    #[command(after_help = "Examples:\n  \
        bitarcade snake watch --player cycle --seed 3\n  \
        bitarcade snake watch --player lookahead --size 8x8 --delay-ms 20\n  \
        bitarcade snake watch --player shortest --every 10 --delay-ms 0")]
    Watch {
        /// The player.
        #[arg(long, default_value_t = WatchRequest::default().player)]
        player: String,
        /// Pause between frames, in milliseconds.
        #[arg(long, default_value_t = 60)]
        delay_ms: u64,
        /// Draw every N-th move (and the last).
        #[arg(long, default_value_t = WatchRequest::default().every)]
        every: u64,
        #[command(flatten)]
        setup: SetupArgs,
        #[command(flatten)]
        seed: SeedArg,
        #[command(flatten)]
        record: RecordArg,
    },
    /// Plays one game, verifies it on the reference engine, prints the result and writes the
    /// record.
    #[command(after_help = "Examples:\n  \
        bitarcade snake play --player cycle --seed 7 --record game.json\n  \
        bitarcade snake play --player astar --size 20x20 --json\n  \
        bitarcade snake replay game.json")]
    Play {
        /// The player.
        #[arg(long, default_value_t = PlayRequest::default().player)]
        player: String,
        #[command(flatten)]
        setup: SetupArgs,
        #[command(flatten)]
        seed: SeedArg,
        #[command(flatten)]
        record: RecordArg,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Checks a game record move by move on both engines; exits 1 at the first bad step.
    #[command(after_help = "Examples:\n  \
        bitarcade snake replay game.json\n  \
        cat game.json | bitarcade snake replay - --json")]
    Replay {
        /// The record (`-` for stdin).
        file: PathBuf,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Times BFS and A* per search on a reachable mid-game board, the mean over 64 mid-game
    /// boards and a sealed-off board (10 x 10), side by side in one run.
    #[command(after_help = "Examples:\n  \
        bitarcade snake bench\n  \
        bitarcade snake bench --rounds 9 --json")]
    Bench {
        /// Timing rounds (the median is reported).
        #[arg(long, default_value_t = BenchRequest::default().rounds)]
        rounds: u32,
        /// Searches per round per board.
        #[arg(long, default_value_t = BenchRequest::default().iters)]
        iters: u32,
        #[command(flatten)]
        json: JsonArg,
    },
}

/// The request's default players as one `--players` value (`shortest,astar,...`).
fn default_players() -> &'static str {
    static PLAYERS: OnceLock<String> = OnceLock::new();
    PLAYERS.get_or_init(|| TournamentRequest::default().players.join(","))
}

/// Runs `bitarcade snake`.
pub fn run(args: SnakeArgs) -> CliResult {
    match args.command {
        SnakeCommand::Tournament { games, first, shard, players, setup, seed, threads, json } => {
            let shard: Shard = shard.as_deref().map(str::parse).transpose()?.unwrap_or_default();
            let req = TournamentRequest {
                games,
                first,
                shard,
                players,
                setup: setup.setup(),
                seed: seed.seed,
            };
            tournament(&req, threads, json.json)
        }
        SnakeCommand::Watch { player, delay_ms, every, setup, seed, record } => {
            let req = WatchRequest { player, every, setup: setup.setup(), seed: seed.seed };
            watch(&req, delay_ms, record.record)
        }
        SnakeCommand::Play { player, setup, seed, record, json } => {
            let req = PlayRequest { player, setup: setup.setup(), seed: seed.seed };
            play(&req, record.record, json.json)
        }
        SnakeCommand::Replay { file, json } => replay(&file, json.json),
        SnakeCommand::Bench { rounds, iters, json } => bench(rounds, iters, json.json),
    }
}

fn tournament(req: &api::TournamentRequest, threads: ThreadsArg, json: bool) -> CliResult {
    let bar = progress(0, "snake tournament");
    let tick = follow(&bar, "", false);
    let report =
        threads.install(|| api::tournament(req, Control::new().with_progress(&tick)))??;
    bar.finish_and_clear();
    print_or_json(json, &report)
}

fn watch(req: &api::WatchRequest, delay_ms: u64, record_path: Option<PathBuf>) -> CliResult {
    let delay = Duration::from_millis(delay_ms);
    let out = api::watch(req, Control::new(), &mut |g| {
        // Clear the screen and home the cursor, then draw.
        print!("\x1b[2J\x1b[H{}", api::frame_text(&req.player, req.seed, g));
        if !delay.is_zero() {
            std::thread::sleep(delay);
        }
    })?;
    print!("{out}");
    if let Some(path) = record_path {
        write_json_file(&path, &out.record)?;
    }
    Ok(())
}

fn play(req: &api::PlayRequest, record_path: Option<PathBuf>, json: bool) -> CliResult {
    let out = api::play(req, Control::new())?;
    if let Some(path) = &record_path {
        write_json_file(path, &out.record)?;
    }
    if json {
        return print_json(&out.report);
    }
    print!("{out}");
    Ok(())
}

fn replay(file: &Path, json: bool) -> CliResult {
    let req = api::ReplayRequest { file: input_file(file) };
    print_or_json(json, &api::replay(&req, Control::new())?)
}

fn bench(rounds: u32, iters: u32, json: bool) -> CliResult {
    print_or_json(json, &api::bench(&BenchRequest { rounds, iters }, Control::new())?)
}
