//! `bitarcade snake ...`: tournaments, watching a game, playing with a record, replaying one,
//! and the BFS vs A* bench.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use rayon::prelude::*;
use serde::Serialize;

use snake::fixtures::{midgame_boards, SEALED};
use snake::{play_game, verify, Board, Config, PlayerKind, Record, Searcher, Size, Status};

use crate::common::{
    print_json, progress, read_json_file, write_json_file, CliError, CliResult, JsonArg, RecordArg,
    SeedArg, ThreadsArg,
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
    #[arg(long, default_value = "10x10", value_name = "WxH")]
    size: String,
    /// Start length (the body trails west of the head, which starts at the centre).
    #[arg(long, default_value_t = 1, value_name = "L")]
    start_len: usize,
    /// Moves without eating before a game is stopped as stalled (default max(1000, 4 * cells)).
    #[arg(long, value_name = "N")]
    stall: Option<u64>,
}

impl SetupArgs {
    fn config(&self) -> CliResult<Config> {
        let size: Size = self.size.parse().map_err(|e| CliError::input(format!("--size {e}")))?;
        let mut config = Config::new(size);
        config.start_len = self.start_len;
        if config.start_len > config.start_x + 1 {
            config.start_x = config.start_len - 1;
        }
        if let Some(s) = self.stall {
            config.stall_limit = s;
        }
        config.validate().map_err(|e| CliError::input(format!("bad setup: {e}")))?;
        Ok(config)
    }
}

fn parse_player(s: &str) -> CliResult<PlayerKind> {
    s.parse().map_err(|e: String| CliError::input(format!("--player {e}")))
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
        #[arg(long, default_value_t = 2000)]
        games: u64,
        /// Index of the first game: game i is played with seed sub_seed(SEED, i), so a long
        /// run can be split into shards (--first 0, --first 100, ...) whose games are the same.
        #[arg(long, default_value_t = 0)]
        first: u64,
        /// Players, comma-separated (shortest, astar, longest, lookahead, cycle, repair, tree,
        /// knit, dash).
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "shortest,astar,longest,lookahead,cycle,repair,tree,knit,dash"
        )]
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
        #[arg(long, default_value = "cycle")]
        player: String,
        /// Pause between frames, in milliseconds.
        #[arg(long, default_value_t = 60)]
        delay_ms: u64,
        /// Draw every N-th move (and the last).
        #[arg(long, default_value_t = 1)]
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
        #[arg(long, default_value = "cycle")]
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
        #[arg(long, default_value_t = 7)]
        rounds: u32,
        /// Searches per round per board.
        #[arg(long, default_value_t = 20_000)]
        iters: u32,
        #[command(flatten)]
        json: JsonArg,
    },
}

/// Runs `bitarcade snake`.
pub fn run(args: SnakeArgs) -> CliResult {
    match args.command {
        SnakeCommand::Tournament { games, first, players, setup, seed, threads, json } => {
            tournament(games, first, &players, &setup, seed.seed, threads, json.json)
        }
        SnakeCommand::Watch { player, delay_ms, every, setup, seed, record } => {
            watch(&player, delay_ms, every, &setup, seed.seed, record.record)
        }
        SnakeCommand::Play { player, setup, seed, record, json } => {
            play(&player, &setup, seed.seed, record.record, json.json)
        }
        SnakeCommand::Replay { file, json } => replay(&file, json.json),
        SnakeCommand::Bench { rounds, iters, json } => bench(rounds, iters, json.json),
    }
}

#[derive(Serialize, Clone, Debug)]
struct Row {
    solver: String,
    games: u64,
    wins: u64,
    stalled: u64,
    avg_score: f64,
    best: usize,
    worst: usize,
    avg_moves: f64,
    /// Half-width of the 95% confidence interval of `avg_moves` (1.96 standard errors).
    moves_ci95: f64,
    /// Mean wall time per game in milliseconds (the one column that varies run to run).
    ms_per_game: f64,
}

#[derive(Serialize)]
struct TournamentReport {
    size: String,
    start_len: usize,
    stall_limit: u64,
    seed: u64,
    first: u64,
    games: u64,
    rows: Vec<Row>,
}

fn tournament(
    games: u64,
    first: u64,
    players: &[String],
    setup: &SetupArgs,
    seed: u64,
    threads: ThreadsArg,
    json: bool,
) -> CliResult {
    if games == 0 || games > 10_000_000 {
        return Err(CliError::input("--games must be between 1 and 10000000"));
    }
    if first > u64::MAX / 2 {
        return Err(CliError::input("--first is too large"));
    }
    let config = setup.config()?;
    let kinds: Vec<PlayerKind> =
        players.iter().map(|p| parse_player(p)).collect::<Result<_, _>>()?;
    let bar = progress(games * kinds.len() as u64, "snake tournament");
    let mut rows = Vec::new();
    for kind in kinds {
        let results: Vec<Result<(snake::Summary, Duration), String>> = threads.install(|| {
            (first..first + games)
                .into_par_iter()
                .map(|i| {
                    let game_seed = bits::rng::sub_seed(seed, i);
                    let start = Instant::now();
                    let mut p = kind.build(config.size);
                    let (summary, record) = play_game(config, game_seed, p.as_mut(), |_| {});
                    let elapsed = start.elapsed();
                    bar.inc(1);
                    match verify(&record) {
                        Ok(v) if v == summary => Ok((summary, elapsed)),
                        Ok(v) => {
                            Err(format!("game {i}: replay gives {v:?}, play gave {summary:?}"))
                        }
                        Err(e) => Err(format!("game {i} does not replay: {e}")),
                    }
                })
                .collect()
        })?;
        let mut ok = Vec::with_capacity(results.len());
        for r in results {
            ok.push(r.map_err(|e| CliError::failed(format!("{}: {e}", kind.name())))?);
        }
        let n = ok.len() as f64;
        let mean_moves = ok.iter().map(|(s, _)| s.moves as f64).sum::<f64>() / n;
        let var = ok.iter().map(|(s, _)| (s.moves as f64 - mean_moves).powi(2)).sum::<f64>()
            / (n - 1.0).max(1.0);
        rows.push(Row {
            solver: kind.name().to_string(),
            games,
            wins: ok.iter().filter(|(s, _)| s.status == Status::Won).count() as u64,
            stalled: ok.iter().filter(|(s, _)| s.status == Status::Stalled).count() as u64,
            avg_score: ok.iter().map(|(s, _)| s.score as f64).sum::<f64>() / n,
            best: ok.iter().map(|(s, _)| s.score).max().unwrap_or(0),
            worst: ok.iter().map(|(s, _)| s.score).min().unwrap_or(0),
            avg_moves: mean_moves,
            moves_ci95: 1.96 * (var / n).sqrt(),
            ms_per_game: ok.iter().map(|(_, t)| t.as_secs_f64() * 1e3).sum::<f64>() / n,
        });
    }
    bar.finish_and_clear();
    let report = TournamentReport {
        size: config.size.to_string(),
        start_len: config.start_len,
        stall_limit: config.stall_limit,
        seed,
        first,
        games,
        rows,
    };
    if json {
        return print_json(&report);
    }
    println!(
        "snake tournament: {} games per player (games {}..{}) on {} from length {}, seed {}, \
         stall limit {}",
        games,
        first,
        first + games,
        report.size,
        report.start_len,
        seed,
        report.stall_limit
    );
    println!(
        "{:<10} {:>7} {:>7} {:>7} {:>9} {:>5} {:>5} {:>10} {:>9} {:>12}",
        "solver",
        "games",
        "wins",
        "stalled",
        "avg score",
        "best",
        "worst",
        "avg moves",
        "(95% CI)",
        "ms per game"
    );
    for r in &report.rows {
        println!(
            "{:<10} {:>7} {:>7} {:>7} {:>9.2} {:>5} {:>5} {:>10.1} {:>9} {:>12.3}",
            r.solver,
            r.games,
            r.wins,
            r.stalled,
            r.avg_score,
            r.best,
            r.worst,
            r.avg_moves,
            format!("±{:.1}", r.moves_ci95),
            r.ms_per_game
        );
    }
    println!("(every game replayed on the reference engine; all columns but time are the same for any --threads)");
    Ok(())
}

fn watch(
    player: &str,
    delay_ms: u64,
    every: u64,
    setup: &SetupArgs,
    seed: u64,
    record_path: Option<PathBuf>,
) -> CliResult {
    let kind = parse_player(player)?;
    if every == 0 {
        return Err(CliError::input("--every must be at least 1"));
    }
    let config = setup.config()?;
    let mut p = kind.build(config.size);
    let delay = Duration::from_millis(delay_ms);
    let (summary, record) = play_game(config, seed, p.as_mut(), |g| {
        if g.moves() % every == 0 || g.status() != Status::Running {
            // Clear the screen and home the cursor, then draw.
            print!("\x1b[2J\x1b[H");
            println!(
                "{} on {}  seed {}  move {}  score {}  length {}",
                kind.name(),
                config.size,
                seed,
                g.moves(),
                g.score(),
                g.board().len()
            );
            println!("{}", g.board());
            if !delay.is_zero() {
                std::thread::sleep(delay);
            }
        }
    });
    let checked =
        verify(&record).map_err(|e| CliError::failed(format!("the game does not replay: {e}")))?;
    println!("{:?}: score {} in {} moves (replayed)", checked.status, summary.score, summary.moves);
    if let Some(path) = record_path {
        write_json_file(&path, &record)?;
    }
    Ok(())
}

#[derive(Serialize)]
struct PlayReport {
    player: String,
    size: String,
    seed: u64,
    status: String,
    score: usize,
    moves: u64,
    verified: bool,
    board: String,
}

fn play(
    player: &str,
    setup: &SetupArgs,
    seed: u64,
    record_path: Option<PathBuf>,
    json: bool,
) -> CliResult {
    let kind = parse_player(player)?;
    let config = setup.config()?;
    let mut p = kind.build(config.size);
    let mut last = None;
    let (summary, record) = play_game(config, seed, p.as_mut(), |g| {
        if g.status() != Status::Running {
            last = Some(g.board().clone());
        }
    });
    let checked =
        verify(&record).map_err(|e| CliError::failed(format!("the game does not replay: {e}")))?;
    if checked != summary {
        return Err(CliError::failed("the replay disagrees with the game"));
    }
    if let Some(path) = &record_path {
        write_json_file(path, &record)?;
    }
    let report = PlayReport {
        player: kind.name().into(),
        size: config.size.to_string(),
        seed,
        status: format!("{:?}", summary.status),
        score: summary.score,
        moves: summary.moves,
        verified: true,
        board: last.map(|b| b.to_string()).unwrap_or_default(),
    };
    if json {
        return print_json(&report);
    }
    println!("{}\n", report.board);
    println!(
        "{} on {} seed {}: {} with score {} of {} in {} moves (replayed on the reference engine)",
        report.player,
        report.size,
        seed,
        report.status,
        report.score,
        config.max_score(),
        report.moves
    );
    Ok(())
}

#[derive(Serialize)]
struct ReplayReport {
    file: String,
    ok: bool,
    status: String,
    score: usize,
    moves: u64,
}

fn replay(file: &Path, json: bool) -> CliResult {
    let record: Record = read_json_file(file)?;
    let summary =
        verify(&record).map_err(|e| CliError::failed(format!("{}: {e}", file.display())))?;
    let report = ReplayReport {
        file: file.display().to_string(),
        ok: true,
        status: format!("{:?}", summary.status),
        score: summary.score,
        moves: summary.moves,
    };
    if json {
        return print_json(&report);
    }
    println!(
        "{}: ok, {} moves replayed, {} with score {}",
        report.file, report.moves, report.status, report.score
    );
    Ok(())
}

#[derive(Serialize)]
struct BenchLine {
    board: String,
    route_len: Option<usize>,
    bfs_ns: f64,
    astar_ns: f64,
    bfs_over_astar: f64,
    bfs_expanded: f64,
    astar_expanded: f64,
}

#[derive(Serialize)]
struct BenchReport {
    rounds: u32,
    iters: u32,
    lines: Vec<BenchLine>,
    /// Deterministic signature: total cells expanded by each search over the bench boards.
    signature: (u64, u64),
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn bench(rounds: u32, iters: u32, json: bool) -> CliResult {
    if rounds == 0 || iters == 0 || rounds > 1000 || iters > 100_000_000 {
        return Err(CliError::input("--rounds must be 1..=1000 and --iters 1..=100000000"));
    }
    let size: Size = "10x10".parse().map_err(CliError::failed)?;
    let mids = midgame_boards(size, 30, 64, 1);
    let sealed: Board = SEALED.parse().map_err(|e| CliError::failed(format!("{e}")))?;
    let sets: Vec<(&str, Vec<Board>)> = vec![
        ("reachable (first mid-game board)", vec![mids[0].clone()]),
        ("reachable (mean of 64 mid-game boards)", mids.clone()),
        ("sealed-off", vec![sealed]),
    ];
    let mut lines = Vec::new();
    let mut sig = (0, 0);
    for (name, boards) in &sets {
        let jobs: Vec<_> =
            boards.iter().map(|b| (*b.occupied(), b.head(), b.fruit().unwrap_or(0))).collect();
        let mut bfs: Searcher = Searcher::new(size);
        let mut ast: Searcher = Searcher::new(size);
        // Same routes first: equal lengths on every board.
        let mut route_len = None;
        for (occ, h, f) in &jobs {
            let (a, b) = (bfs.bfs(occ, *h, *f), ast.astar(occ, *h, *f));
            if a.map(|r| r.len) != b.map(|r| r.len) {
                return Err(CliError::failed(format!(
                    "{name}: BFS and A* routes differ in length"
                )));
            }
            route_len = a.map(|r| r.len);
        }
        let (be, ae) = (bfs.expanded(), ast.expanded());
        sig.0 += be;
        sig.1 += ae;
        let per = (iters as usize / jobs.len()).max(1);
        let mut tb = Vec::new();
        let mut ta = Vec::new();
        for _ in 0..rounds {
            let t = Instant::now();
            for _ in 0..per {
                for (occ, h, f) in &jobs {
                    black_box(bfs.bfs(black_box(occ), *h, *f));
                }
            }
            tb.push(t.elapsed().as_nanos() as f64 / (per * jobs.len()) as f64);
            let t = Instant::now();
            for _ in 0..per {
                for (occ, h, f) in &jobs {
                    black_box(ast.astar(black_box(occ), *h, *f));
                }
            }
            ta.push(t.elapsed().as_nanos() as f64 / (per * jobs.len()) as f64);
        }
        let (b, a) = (median(tb), median(ta));
        lines.push(BenchLine {
            board: name.to_string(),
            route_len: if jobs.len() == 1 { route_len } else { None },
            bfs_ns: b,
            astar_ns: a,
            bfs_over_astar: b / a,
            bfs_expanded: be as f64 / jobs.len() as f64,
            astar_expanded: ae as f64 / jobs.len() as f64,
        });
    }
    let report = BenchReport { rounds, iters, lines, signature: sig };
    if json {
        return print_json(&report);
    }
    println!("snake bench: ns per search, median of {rounds} rounds, 10x10 boards");
    println!(
        "{:<40} {:>9} {:>9} {:>8} {:>10} {:>10}",
        "board", "BFS ns", "A* ns", "BFS/A*", "BFS cells", "A* cells"
    );
    for l in &report.lines {
        println!(
            "{:<40} {:>9.1} {:>9.1} {:>8.2} {:>10.1} {:>10.1}",
            l.board, l.bfs_ns, l.astar_ns, l.bfs_over_astar, l.bfs_expanded, l.astar_expanded
        );
    }
    println!("signature (cells expanded, BFS / A*): {} / {}", sig.0, sig.1);
    Ok(())
}
