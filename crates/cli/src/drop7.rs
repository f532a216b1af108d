//! `bitarcade drop7 ...`: play, decide, bench, replay, sweep and A/B-test Drop7.
//!
//! Clap arguments, their conversion into `drop7::api` requests, one call, printing and
//! files: the logic lives in `drop7::api`.

use std::fmt::Display;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use clap::{Args, Subcommand};
use drop7::api::{
    self, AbRequest, BenchRequest, Control, EvalSpec, FitRequest, InputFile, PlayRequest, Progress,
    SearchOptions, Shard, SweepRequest, TrainRequest, TuneRequest,
};
use serde::Serialize;

use crate::common::{
    clap_range, coherence_path, follow, input_file, print_json, print_or_json, progress,
    read_bytes, read_input, write_file_atomic, write_records, write_stream_atomic, CliError,
    CliResult, JsonArg, LearnMethod, RecordArg, SeedArg, ThreadsArg,
};

/// Drop7: a nibble-packed bitboard engine and a fair expectimax.
#[derive(Args, Debug)]
pub struct Drop7Args {
    #[command(subcommand)]
    command: Drop7Command,
}

#[derive(Subcommand, Debug)]
enum Drop7Command {
    /// Play seeded games with the expectimax and report mean, median, best and a 95% CI.
    #[command(after_help = "Examples:\n  \
        bitarcade drop7 play --mode hardcore --seed 1 --depth 3\n  \
        bitarcade drop7 play --depth 3 --games 64 --json\n  \
        bitarcade drop7 play --depth 4 --reveals paired --strata-schedule 0,4 --games 64 -j 1\n  \
        bitarcade drop7 play --depth 2 --games 1 --record game.json && bitarcade drop7 replay game.json\n  \
        bitarcade drop7 play --reveals paired --depth 5 --first-game 8 --games 4 -j 1 --json\n  \
        bitarcade drop7 play --reveals paired --budget 16000000 --min-depth 3 --max-depth 6 --games 64 -j 1 --json\n  \
        bitarcade drop7 play --mode normal --gray-share 5/16 --depth 2 --games 8 -j 2\n  \
        printf '4#2715#36\\n6457513\\n' | bitarcade drop7 play --mode sequence --stream - --depth 2")]
    Play(PlayArgs),
    /// The value of every column for a position (text form), and the best one.
    #[command(after_help = "Examples:\n  \
        bitarcade drop7 decide '......./......./......./......./......./..3..../####### next=5 level=1 drops=4 score=0'\n  \
        echo '......./......./......./......./......./......./####### next=7 level=1 drops=5 score=0' | bitarcade drop7 decide - --depth 4 --json\n  \
        bitarcade drop7 decide '......./......./......./......./......./..3..../####### next=5 level=1 drops=4 score=0' --reveals paired --budget 4000000 --min-depth 3 --max-depth 6")]
    Decide(DecideArgs),
    /// Engine throughput vs the reference, and decision time with and without each table.
    #[command(after_help = "Examples:\n  \
        bitarcade drop7 bench\n  \
        bitarcade drop7 bench --games 20000 --positions 24 --depths 3,4 --runs 5 --json")]
    Bench(BenchArgs),
    /// Check a game record (from `play --record`): exits 1 at the first bad turn.
    #[command(after_help = "Examples:\n  \
        bitarcade drop7 replay game.json\n  \
        cat game.json | bitarcade drop7 replay -")]
    Replay(ReplayArgs),
    /// Gate sweep: random-policy games on the engine and the reference, compared every turn.
    #[command(after_help = "Examples:\n  \
        bitarcade drop7 sweep --games 1000000\n  \
        bitarcade drop7 sweep --mode normal --games 100000 --seed 9 --json")]
    Sweep(SweepArgs),
    /// A/B test two evaluators (or reveal-sample counts) on the same seeds: paired difference
    /// and its significance.
    #[command(after_help = "Examples:\n  \
        bitarcade drop7 ab --a crowding --b points --games 64 --depth 2\n  \
        bitarcade drop7 ab --a crowding:600,500,250,800,3000 --b crowding:400,500,250,1200,3000 --games 128\n  \
        bitarcade drop7 ab --a crowding --b crowding --a-reveal-samples 8 --depth 3 --games 64\n  \
        bitarcade drop7 ab --a ready --b crowding --reveals paired --depth 3 --games 512 --seed 3")]
    Ab(AbArgs),
    /// Fit the `fitted` evaluator's weights: harvest the boards of searched games, pair each
    /// with the points scored after it, and solve a ridge regression on its features.
    #[command(after_help = "Examples:\n  \
        bitarcade drop7 fit --eval ready --reveals paired --depth 2 --games 2000 --seed 100 --out w.txt\n  \
        bitarcade drop7 fit --depth 2 --games 500 --target discount:0.97 --ridge 0.001 --json\n  \
        bitarcade drop7 ab --a fitted:@w.txt --b ready --reveals paired --depth 3 --games 128 --seed 4")]
    Fit(FitArgs),
    /// Train an n-tuple network (the `ntuple:@FILE` leaf) by TD(0) or temporal coherence on
    /// afterstates of greedy Hardcore games; progress on stderr, the weight file to --out.
    #[command(after_help = "Examples:\n  \
        bitarcade drop7 train --games 20000 --seed 1 --alpha 0.01 --out net.d7n\n  \
        bitarcade drop7 train --games 20000 --seed 1 --alpha 0.01 --from net.d7n --out net2.d7n\n  \
        bitarcade drop7 train --games 1000 --shape 'rows=0112233 size=65536' --out small.d7n --json\n  \
        bitarcade drop7 train --games 10000000 --max-seconds 1800 --checkpoint-every 50000 --out big.d7n\n  \
        bitarcade drop7 train --games 100000 --seed 1 --alpha 0.001 --policy-depth 2 --from net.d7n --out deep.d7n\n  \
        bitarcade drop7 train --games 20000 --seed 1 --method tc --alpha 0.02 --out tc.d7n   (writes tc.d7n and tc.d7n.tc)\n  \
        bitarcade drop7 train --games 20000 --seed 1 --method tc --alpha 0.02 --from tc.d7n --out tc2.d7n\n  \
        bitarcade drop7 train --games 1000000 --shape anchor --optimistic 340000 --alpha 0.001 --checkpoint-every 100000 --out anchor.d7n   (4 GB)\n  \
        bitarcade drop7 train --games 4000000 --shape anchor --method tc --alpha 0.0135 --optimistic 340000 --clamp 510000 --reveal-samples 7 --out tc.d7n   (12 GB)\n  \
        bitarcade drop7 ab --a ntuple:@net.d7n --b ready --reveals paired --depth 3 --games 256 --seed 5")]
    Train(TrainArgs),
    /// The weight-by-weight mean of n-tuple networks of one shape (from `drop7 train`), as
    /// one weight file: the leaf `ntuple:@A+@B..` at one network's memory and lookups.
    #[command(after_help = "Examples:\n  \
        bitarcade drop7 average anchor2.d7n anchor3.d7n --out mean.d7n\n  \
        bitarcade drop7 average a.d7n b.d7n c.d7n --out mean.d7n --json\n  \
        bitarcade drop7 play --eval ntuple:@mean.d7n --depth 3 --games 512 --seed 6 -j 2\n\n\
        The header written is the first file's (games, seed, alpha), so `train --from mean.d7n` \
        continues the first file's stream of training games. Memory: the running sum and one \
        file (8 GB for the 4 GB anchor shape).")]
    Average(AverageArgs),
    /// What n-tuple weight files hold (shape, training games, seed, step, fingerprint),
    /// after the checks a load makes.
    #[command(after_help = "Examples:\n  \
        bitarcade drop7 info anchor2.d7n\n  \
        bitarcade drop7 info anchor2.d7n mean.d7n --json")]
    Info(InfoArgs),
    /// Linear mixes of `fitted` weight files: K1 * FILE1 + K2 * FILE2 + ... feature by
    /// feature, for `--eval fitted:@OUT`.
    #[command(after_help = "Examples:\n  \
        bitarcade drop7 mix 0.5 ready 0.5 results/fitted/big.end.txt > mix.txt\n  \
        bitarcade drop7 mix 1 ready --out ready.txt\n  \
        bitarcade drop7 ab --a fitted:@mix.txt --b ready --reveals paired --depth 3 --games 128")]
    Mix(MixArgs),
    /// Seeded coordinate search over the `ready` evaluator's seven weights: each weight
    /// scaled up, then down, kept when the mean over the same seeded games rises.
    #[command(after_help = "Examples:\n  \
        bitarcade drop7 tune --depth 2 --reveal-samples 8 --games 512 --seed 1000 --passes 2\n  \
        bitarcade drop7 tune --depth 1 --games 16 --passes 1 --start 900,500,375,800,4500,1200,0 --json")]
    Tune(TuneArgs),
}

/// The rules and the searcher.
#[derive(Args, Debug, Clone)]
struct SearchOpts {
    /// Mode: hardcore (alias blitz), normal, sequence.
    #[arg(long, default_value_t = SearchOptions::default().mode)]
    mode: String,
    /// Search depth in moves (1 = the known disc only).
    #[arg(long, default_value_t = SearchOptions::default().depth,
          value_parser = clap::value_parser!(u32).range(clap_range(SearchOptions::DEPTH)))]
    depth: u32,
    /// Leaf evaluator: `crowding[:DISC,SOLID,CRACKED,TALL,FULL]`, `shape[:..,MISMATCH]`,
    /// `options[:..,OPTIONS]`, `ready[:..,READY,LATENT]`, `pressure[:..,NEAR,EXPOSED]`,
    /// `fitted[:W1,..,W33|:@FILE][*SCALE]` (weights as `drop7 fit` writes them, all times
    /// SCALE), `ntuple:@FILE` (a network from `drop7 train`; `ntuple:@A+@B..` the mean of several) or `points`. The default, `ready`, is `ready:900,500,375,800,4500,1200,0`.
    #[arg(long, default_value_t = SearchOptions::default().eval.text)]
    eval: String,
    /// Transposition table: none, direct, 2way, 4way.
    #[arg(long, default_value_t = SearchOptions::default().table)]
    table: String,
    /// log2 of the table's entries (48 bytes each).
    #[arg(long, default_value_t = SearchOptions::default().table_bits,
          value_parser = clap::value_parser!(u32).range(clap_range(SearchOptions::TABLE_BITS)))]
    table_bits: u32,
    /// Chance nodes over K equal strata of 1-7 instead of every value (0 = every value).
    #[arg(long, default_value_t = SearchOptions::default().strata,
          value_parser = clap::value_parser!(u8).range(clap_range(SearchOptions::STRATA)))]
    strata: u8,
    /// Strata by chance level from the root down for `play` and `ab` (`0,0,3`: every value
    /// at the two chance levels below the root, 3 strata deeper; the last entry repeats);
    /// overrides --strata there.
    #[arg(long, value_name = "K,K,..")]
    strata_schedule: Option<String>,
    /// Normal mode's share of gray next discs, NUM/DEN.
    #[arg(long, default_value_t = SearchOptions::default().gray_share)]
    gray_share: String,
    /// Pay the level bonus before the fatal rise (a clone variant).
    #[arg(long)]
    fatal_rise_bonus: bool,
    /// Restart the chain level at 1 after a rise (instead of continuing it).
    #[arg(long)]
    no_rise_chain: bool,
    /// The search's penalty for a move that ends the game.
    #[arg(long, default_value_t = SearchOptions::default().death)]
    death: f64,
    /// Reveal samples averaged for a searched move that reveals a gray (1 = one sample), or
    /// a list from the root down (`8,2,2,8`: 8 at the root, 2 at the next two levels, 8 for
    /// the moves above the leaves; the last entry repeats deeper).
    #[arg(long, default_value_t = SearchOptions::default().reveal_samples)]
    reveal_samples: String,
    /// How a searched move that reveals grays is valued: `stratified` (the default and the
    /// strongest measured: one reveal sample per chance outcome, each followed by that
    /// outcome's next disc, with sample k giving every reveal the value of stratum k, so
    /// each reveal takes each value once over the 7 outcomes, and the same draws for every
    /// column of a node), `paired` (as stratified, with plain random draws per column;
    /// levels given more than one --reveal-samples average those instead), or `sampled`
    /// (the --reveal-samples average; cheapest, weakest).
    #[arg(long, default_value_t = SearchOptions::default().reveals,
          value_parser = SearchOptions::REVEALS)]
    reveals: String,
    /// A work budget per decision instead of a fixed depth (`play`, `decide`, and `ab`, where
    /// it is one rule for both sides; not `fit`):
    /// search --min-depth moves deep, then one move deeper while the search moves (engine
    /// calls) spent on the decision plus the next depth's predicted moves stay within
    /// MOVES, up to --max-depth. Deterministic: it counts moves, not time. Boards whose
    /// tree grows less get deeper searches. The first step's growth is a fixed guess (35x
    /// on an open board) and later steps use the measured growth, so starting one below
    /// the depth to deepen from (`--min-depth 3` to choose between 4 and 5) costs ~5% and
    /// predicts better. Conflicts with --depth.
    #[arg(long, value_name = "MOVES", conflicts_with = "depth")]
    budget: Option<u64>,
    /// The shallowest depth of a --budget search (default 3).
    #[arg(long, value_name = "D", requires = "budget")]
    min_depth: Option<u32>,
    /// The deepest depth of a --budget search, at most 7 (default 6).
    #[arg(long, value_name = "D", requires = "budget")]
    max_depth: Option<u32>,
}

#[derive(Args, Debug)]
struct PlayArgs {
    #[command(flatten)]
    search: SearchOpts,
    /// Games to play (game i uses seed sub_seed(S, i)).
    #[arg(long, default_value_t = PlayRequest::default().games,
          value_parser = clap::value_parser!(u64).range(PlayRequest::GAMES))]
    games: u64,
    /// Index of the first game: plays games K..K+N of the batch seeded by --seed, each with
    /// the seed it has in the whole batch, so shards (`--first-game 0 --games 8`,
    /// `--first-game 8 --games 8`, ...) concatenate into exactly the full run.
    #[arg(long, default_value_t = PlayRequest::default().first_game, value_name = "K",
          value_parser = clap::value_parser!(u64).range(PlayRequest::FIRST_GAME))]
    first_game: u64,
    /// Play part K of N of those games (contiguous, each game with its seed in the whole
    /// batch), so the shards 1/N..N/N concatenate into exactly the full run.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Stop a game after this many moves.
    #[arg(long, default_value_t = PlayRequest::default().max_moves)]
    max_moves: u32,
    /// Sequence mode's stream (`-` for stdin): line 1 the discs (1-7, # for gray), line 2
    /// the reveal values in the engine's order. The game stops when the discs run out.
    #[arg(long, value_name = "FILE")]
    stream: Option<PathBuf>,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
    #[command(flatten)]
    record: RecordArg,
}

#[derive(Args, Debug)]
struct DecideArgs {
    /// The position in text form (`-` reads standard input).
    position: String,
    #[command(flatten)]
    search: SearchOpts,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Random-policy games for the engine throughput (per engine, per run).
    #[arg(long, default_value_t = BenchRequest::default().games)]
    games: u64,
    /// Positions harvested from real games for the decision timings.
    #[arg(long, default_value_t = BenchRequest::default().positions)]
    positions: usize,
    /// Depths to time decisions at, comma-separated.
    #[arg(long, default_value_t = BenchRequest::default().depths)]
    depths: String,
    /// Repetitions (medians are reported).
    #[arg(long, default_value_t = BenchRequest::default().runs,
          value_parser = clap::value_parser!(u32).range(clap_range(BenchRequest::RUNS)))]
    runs: u32,
    /// log2 of each table's entries.
    #[arg(long, default_value_t = BenchRequest::default().table_bits,
          value_parser = clap::value_parser!(u32).range(clap_range(BenchRequest::TABLE_BITS)))]
    table_bits: u32,
    /// Leaf evaluator of the timed decisions (as `play --eval`).
    #[arg(long, default_value_t = BenchRequest::default().eval.text)]
    eval: String,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Args, Debug)]
struct ReplayArgs {
    /// The record file (`-` for standard input): one record or a list of them.
    file: PathBuf,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Args, Debug)]
struct SweepArgs {
    /// Mode: hardcore, normal, sequence.
    #[arg(long, default_value_t = SweepRequest::default().mode)]
    mode: String,
    /// Games to compare.
    #[arg(long, default_value_t = SweepRequest::default().games)]
    games: u64,
    /// Move cap per game.
    #[arg(long, default_value_t = SweepRequest::default().max_moves)]
    max_moves: u32,
    /// Compare part K of N of the games (contiguous; the turn counts of the shards add up
    /// to the full run's).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Args, Debug)]
struct FitArgs {
    /// The searcher that plays the harvested games (its --eval is the policy's evaluator).
    #[command(flatten)]
    search: SearchOpts,
    /// Games to harvest (game i uses seed sub_seed(S, i); keep S apart from evaluation seeds).
    #[arg(long, default_value_t = FitRequest::default().games,
          value_parser = clap::value_parser!(u64).range(FitRequest::GAMES))]
    games: u64,
    /// Stop a game after this many moves.
    #[arg(long, default_value_t = FitRequest::default().max_moves)]
    max_moves: u32,
    /// What a board is fitted to: `end` (every point after it), `discount:G` (the turns
    /// after it weighted 1, G, G^2, ...) or `horizon:K` (the next K turns); a comma list
    /// fits each target to the same harvest.
    #[arg(long, default_value_t = FitRequest::default().target)]
    target: String,
    /// Ridge penalty on the standardised weights (times the number of samples): one, or one
    /// per target.
    #[arg(long, default_value_t = FitRequest::default().ridge)]
    ridge: String,
    /// Sibling rollouts instead of the game's own future: at every K-th position of each
    /// game, play every column and roll out from each on a copy of the game's stream (the
    /// same luck for all), and fit the differences between the moves from one position
    /// (0: off, fit the boards of the game itself).
    #[arg(long, default_value_t = FitRequest::default().rollouts, value_name = "K")]
    rollouts: u32,
    /// Depth of the rollouts' searcher (same evaluator and reveals as the harvest).
    #[arg(long, default_value_t = FitRequest::default().rollout_depth,
          value_parser = clap::value_parser!(u32).range(clap_range(FitRequest::ROLLOUT_DEPTH)))]
    rollout_depth: u32,
    /// Moves per rollout (after the sibling's own move).
    #[arg(long, default_value_t = FitRequest::default().horizon)]
    horizon: u32,
    /// Write the weights here (one `name weight` line per feature), for `--eval fitted:@FILE`;
    /// with several targets, `FILE` gets `.TARGET` before its extension.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Args, Debug)]
struct AbArgs {
    /// Evaluator A (as `--eval`).
    #[arg(long)]
    a: String,
    /// Evaluator B (as `--eval`).
    #[arg(long)]
    b: String,
    /// Reveal samples for A (as --reveal-samples; default: --reveal-samples).
    #[arg(long)]
    a_reveal_samples: Option<String>,
    /// Reveal samples for B (as --reveal-samples; default: --reveal-samples).
    #[arg(long)]
    b_reveal_samples: Option<String>,
    /// Reveal handling for A (as --reveals; default: --reveals).
    #[arg(long, value_parser = SearchOptions::REVEALS)]
    a_reveals: Option<String>,
    /// Reveal handling for B (as --reveals; default: --reveals).
    #[arg(long, value_parser = SearchOptions::REVEALS)]
    b_reveals: Option<String>,
    #[command(flatten)]
    search: SearchOpts,
    /// Games per evaluator (the same seeds for both).
    #[arg(long, default_value_t = AbRequest::default().games,
          value_parser = clap::value_parser!(u64).range(AbRequest::GAMES))]
    games: u64,
    /// Stop a game after this many moves.
    #[arg(long, default_value_t = AbRequest::default().max_moves)]
    max_moves: u32,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
}

/// Runs `bitarcade drop7`.
pub fn run(args: Drop7Args) -> CliResult {
    match args.command {
        Drop7Command::Play(a) => play(a),
        Drop7Command::Decide(a) => decide(a),
        Drop7Command::Bench(a) => bench(a),
        Drop7Command::Replay(a) => replay(a),
        Drop7Command::Sweep(a) => sweep(a),
        Drop7Command::Ab(a) => ab(a),
        Drop7Command::Fit(a) => fit(a),
        Drop7Command::Train(a) => train(a),
        Drop7Command::Mix(a) => mix(a),
        Drop7Command::Average(a) => average(a),
        Drop7Command::Info(a) => info(a),
        Drop7Command::Tune(a) => tune(a),
    }
}

#[derive(Args, Debug)]
struct TrainArgs {
    /// Training games to play in this run (game i of the file's history uses the stream
    /// `sub_seed(S, i)`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(TrainRequest::GAMES))]
    games: u64,
    /// Step size per weight (each update adds `alpha * error` to the 15 weights read; with
    /// --method tc, the step at full coherence). Default: the --from file's, else 0.005;
    /// another value with --from continues with a new step (a schedule; the file records it).
    #[arg(long)]
    alpha: Option<f32>,
    /// The learning rule. td: TD(0), each weight a value reads moves by alpha * error. tc:
    /// temporal coherence (Beal & Smith 1999; Jaskowski 2016): weight i moves by
    /// alpha * |E_i| / A_i * error, E_i and A_i the sum and the sum of absolute values of the
    /// errors it has seen (rate 1 before the first), so the steps shrink by themselves where
    /// the errors cancel. TC keeps E and A (twice the network's memory) in FILE.tc beside each
    /// weight file it writes; --from F with tc continues from F and F.tc, exactly as one run.
    #[arg(long, value_enum, default_value_t = TrainRequest::default().method.into())]
    method: LearnMethod,
    /// The weight file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Continue from this weight file (its shape, its games count, the same --seed): N
    /// games, then M more `--from` the result, give the same bytes as N + M games.
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    /// The network's shape for a new file: `standard` (= `rows=0112233 size=10485760`,
    /// 252 MB) or `rows=DDDDDDD size=N` (row classes bottom first, entries per table), either
    /// with ` blocks=2x3` for the 2x3 block tables (72 MB more); or `anchor [size=N]`:
    /// drop7-bench's feature set (every row, column, 2x3 and 3x2 window its own table, split 5
    /// ways by the drops left before the rise, 74 weights read a value; exact = 10^9 weights,
    /// 4 GB; size=N, N < 10^7, folds each line table to N entries a phase, for pilots). With
    /// --from: omitted, or the file's shape, or the file's shape plus ` blocks=2x3` (the block
    /// tables added at 0).
    #[arg(long)]
    shape: Option<String>,
    /// Start a new network with every afterstate worth V points (optimistic initialisation:
    /// V spread evenly over the weights a value reads). Default: every weight 0.
    #[arg(long, value_name = "V")]
    optimistic: Option<f32>,
    /// Write --out every N games as well as at the end (0: only at the end).
    #[arg(long, default_value_t = TrainRequest::default().checkpoint_every, value_name = "N")]
    checkpoint_every: u64,
    /// Stop after the game running when this many seconds have passed (the file records
    /// the games actually played; a run stopped by the clock is not reproducible by
    /// --games alone, but is by `--games <recorded count>`).
    #[arg(long, value_name = "S")]
    max_seconds: Option<f64>,
    /// Print a progress line every N games (mean score of those N games, games/s, moves/s).
    #[arg(long, default_value_t = TrainRequest::default().report_every, value_name = "N",
          value_parser = clap::value_parser!(u64).range(TrainRequest::REPORT_EVERY))]
    report_every: u64,
    /// The behaviour policy's depth: 1 = greedy on `points + V(afterstate)`; D > 1 = the fair
    /// expectimax D moves deep over the current network (paired reveals, all 7 disc values,
    /// as `play --depth D --reveals paired`), so training sees the states a searcher reaches.
    /// Not recorded in the file: a run continued `--from` it should name the same depth.
    #[arg(long, default_value_t = TrainRequest::default().policy_depth, value_name = "D",
          value_parser = clap::value_parser!(u32).range(clap_range(TrainRequest::POLICY_DEPTH)))]
    policy_depth: u32,
    /// The greedy policy values a column that reveals grays by the mean over K reveal
    /// samples (the search's own, never the game's), as drop7-bench's training does with 7;
    /// 1 = one sample. Costs up to K times the work on revealing moves. Not recorded in the
    /// file: a run continued `--from` it should name the same K.
    #[arg(long, default_value_t = TrainRequest::default().reveal_samples, value_name = "K",
          value_parser = clap::value_parser!(u32).range(clap_range(TrainRequest::REVEAL_SAMPLES)))]
    reveal_samples: u32,
    /// Cut every TD error to at most P points either way before it steps the weights
    /// (drop7-bench: 510000, 30 rises). Default: no clamp. Not recorded in the file.
    #[arg(long, value_name = "P")]
    clamp: Option<f32>,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    json: JsonArg,
}

// ---------------------------------------------------------------------------------------
// Requests

impl SearchOpts {
    /// The search options of a request, with the evaluator's files read (`flag` names the
    /// flag in read errors).
    fn options(&self, flag: &str, eval: &str) -> SearchOptions {
        SearchOptions {
            mode: self.mode.clone(),
            depth: self.depth,
            eval: eval_spec(flag, eval),
            table: self.table.clone(),
            table_bits: self.table_bits,
            strata: self.strata,
            strata_schedule: self.strata_schedule.clone(),
            gray_share: self.gray_share.clone(),
            fatal_rise_bonus: self.fatal_rise_bonus,
            no_rise_chain: self.no_rise_chain,
            death: self.death,
            reveal_samples: self.reveal_samples.clone(),
            reveals: self.reveals.clone(),
            budget: self.budget,
            min_depth: self.min_depth,
            max_depth: self.max_depth,
        }
    }
}

/// An `--eval` text with every `@FILE` it names read (a file that cannot be read carries
/// the message the verb reports if it gets that far).
/// The networks of an `ntuple:` text are decoded here and their bytes dropped (a 4 GB
/// network is then held once); a file that does not decode is passed on as bytes, for the
/// verb to report.
fn eval_spec(flag: &str, text: &str) -> EvalSpec {
    let mut spec = EvalSpec::new(text);
    for name in api::eval_files(text) {
        match std::fs::read(&name) {
            Ok(bytes) if text.starts_with("ntuple") => {
                match api::decode_eval_net(flag, &name, &bytes) {
                    Ok(net) => spec.decoded.push((name, net)),
                    Err(_) => spec.files.push(InputFile::new(name, bytes)),
                }
            }
            Ok(bytes) => spec.files.push(InputFile::new(name, bytes)),
            Err(e) => {
                let msg = format!("{flag}: cannot read {name}: {e}");
                spec.files.push(InputFile::unreadable(name, msg));
            }
        }
    }
    spec
}

/// `--shard K/N`.
fn shard(text: Option<&str>) -> CliResult<Shard> {
    Ok(text.map(str::parse).transpose()?.unwrap_or(Shard::WHOLE))
}

/// Prints `value` as JSON with every object's keys sorted (as `serde_json::json!` built the
/// reports that are printed this way), or with `json` false its text.
fn print_sorted<T: Serialize + Display>(json: bool, value: &T) -> CliResult {
    if !json {
        print!("{value}");
        return Ok(());
    }
    let v = serde_json::to_value(value)
        .map_err(|e| CliError::failed(format!("cannot encode JSON: {e}")))?;
    print_json(&v)
}

// ---------------------------------------------------------------------------------------
// play

fn play(a: PlayArgs) -> CliResult {
    let req = PlayRequest {
        search: a.search.options("--eval", &a.search.eval),
        games: a.games,
        first_game: a.first_game,
        shard: shard(a.shard.as_deref())?,
        max_moves: a.max_moves,
        seed: a.seed.seed,
        stream: a.stream.as_deref().map(input_file),
    };
    let bar = progress(req.shard.range(a.games).count() as u64, "drop7 play");
    let report = follow(&bar, "drop7", true);
    let out = a.threads.install(|| api::play(&req, Control::new().with_progress(&report)))??;
    bar.finish_and_clear();
    if let Some(path) = &a.record.record {
        write_records(path, &out.records)?;
    }
    if a.json.json {
        return print_json(&out.report);
    }
    print!("{out}");
    Ok(())
}

// ---------------------------------------------------------------------------------------
// decide

fn decide(a: DecideArgs) -> CliResult {
    let position = if a.position == "-" { read_input(Path::new("-"))? } else { a.position };
    let req = api::DecideRequest { position, search: a.search.options("--eval", &a.search.eval) };
    print_or_json(a.json.json, &api::decide(&req, Control::new())?)
}

// ---------------------------------------------------------------------------------------
// replay

fn replay(a: ReplayArgs) -> CliResult {
    let req = api::ReplayRequest { file: input_file(&a.file) };
    print_sorted(a.json.json, &api::replay(&req, Control::new())?)
}

// ---------------------------------------------------------------------------------------
// sweep

fn sweep(a: SweepArgs) -> CliResult {
    let req = SweepRequest {
        mode: a.mode.clone(),
        games: a.games,
        shard: shard(a.shard.as_deref())?,
        max_moves: a.max_moves,
        seed: a.seed.seed,
    };
    let bar = progress(req.shard.range(a.games).count() as u64, "drop7 sweep");
    let report = follow(&bar, "drop7", true);
    let out = a.threads.install(|| api::sweep(&req, Control::new().with_progress(&report)))??;
    bar.finish_and_clear();
    print_sorted(a.json.json, &out)
}

// ---------------------------------------------------------------------------------------
// ab

fn ab(a: AbArgs) -> CliResult {
    let req = AbRequest {
        a: eval_spec("--a", &a.a),
        b: eval_spec("--b", &a.b),
        a_reveal_samples: a.a_reveal_samples.clone(),
        b_reveal_samples: a.b_reveal_samples.clone(),
        a_reveals: a.a_reveals.clone(),
        b_reveals: a.b_reveals.clone(),
        search: a.search.options("--eval", &a.search.eval),
        games: a.games,
        max_moves: a.max_moves,
        seed: a.seed.seed,
    };
    let bar = progress(2 * a.games, "drop7 ab");
    let report = follow(&bar, "drop7", true);
    let r = a.threads.install(|| api::ab(&req, Control::new().with_progress(&report)))??;
    bar.finish_and_clear();
    print_sorted(a.json.json, &r)
}

// ---------------------------------------------------------------------------------------
// bench

fn bench(a: BenchArgs) -> CliResult {
    let req = BenchRequest {
        games: a.games,
        positions: a.positions,
        depths: a.depths.clone(),
        runs: a.runs,
        table_bits: a.table_bits,
        eval: eval_spec("--eval", &a.eval),
        seed: a.seed.seed,
    };
    let out = api::bench(&req, Control::new())?;
    print_sorted(a.json.json, &out)?;
    out.verdict()
}

// ---------------------------------------------------------------------------------------
// fit

/// The weights file of one target: `--out` itself for one target, else `--out` with
/// `.TARGET` (`:` as `-`) before its extension.
fn out_path(out: &Path, target: &str, several: bool) -> PathBuf {
    if !several {
        return out.to_path_buf();
    }
    let tag = target.replace(':', "-");
    let stem = out.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let name = match out.extension() {
        Some(ext) => format!("{stem}.{tag}.{}", ext.to_string_lossy()),
        None => format!("{stem}.{tag}"),
    };
    out.with_file_name(name)
}

fn fit(a: FitArgs) -> CliResult {
    let req = FitRequest {
        search: a.search.options("--eval", &a.search.eval),
        games: a.games,
        max_moves: a.max_moves,
        target: a.target.clone(),
        ridge: a.ridge.clone(),
        rollouts: a.rollouts,
        rollout_depth: a.rollout_depth,
        horizon: a.horizon,
        seed: a.seed.seed,
    };
    let bar = progress(a.games, "harvest");
    let report = follow(&bar, "drop7", true);
    let mut out = a.threads.install(|| api::fit(&req, Control::new().with_progress(&report)))??;
    bar.finish_and_clear();
    // A weight file's first line is the command that fits it again.
    let rollouts = match req.rollouts {
        0 => String::new(),
        k => format!(
            " --rollouts {k} --rollout-depth {} --horizon {}",
            req.rollout_depth, req.horizon
        ),
    };
    for f in &mut out.fits {
        let body = f.text.split_once('\n').map_or("", |(_, rest)| rest);
        f.text = format!(
            "# drop7 fit: --eval {} --depth {} --reveals {} --games {} --seed {} --target {} \
             --ridge {}{rollouts}\n{body}",
            out.policy, out.depth, out.reveals, out.games, out.seed, f.target, f.ridge
        );
    }
    if let Some(file) = &a.out {
        for f in &out.fits {
            let path = out_path(file, &f.target, out.fits.len() > 1);
            std::fs::write(&path, &f.text)
                .map_err(|e| CliError::failed(format!("cannot write {}: {e}", path.display())))?;
        }
    }
    print_sorted(a.json.json, &out)
}

// ---------------------------------------------------------------------------------------
// mix

#[derive(Args, Debug)]
struct MixArgs {
    /// Factor and weight file pairs: `K1 FILE1 [K2 FILE2 ...]` (`ready` as FILE stands for
    /// the default `ready` evaluator written as fitted weights).
    #[arg(value_name = "K FILE", num_args = 2.., required = true, allow_negative_numbers = true)]
    terms: Vec<String>,
    /// Write the weights here instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

fn mix(a: MixArgs) -> CliResult {
    if a.terms.len() % 2 != 0 {
        return Err(CliError::input("mix: give K FILE pairs (K1 FILE1 [K2 FILE2 ...])"));
    }
    let mut terms = Vec::new();
    for pair in a.terms.chunks(2) {
        let file = if pair[1] == "ready" {
            InputFile::new("ready", Vec::new())
        } else {
            input_file(Path::new(&pair[1]))
        };
        terms.push((pair[0].clone(), file));
    }
    let out = api::mix(&api::MixRequest { terms }, Control::new())?;
    match &a.out {
        Some(path) => write_file_atomic(path, out.text.as_bytes()),
        None => {
            print!("{}", out.text);
            Ok(())
        }
    }
}

/// A report on a file written to `out`: as JSON with an `out` field added, or its text.
fn print_with_out<T: Serialize>(
    json: bool,
    report: &T,
    out: &Path,
    text: impl FnOnce(&str) -> String,
) -> CliResult {
    let name = out.display().to_string();
    if json {
        let mut v = serde_json::to_value(report)
            .map_err(|e| CliError::failed(format!("cannot encode JSON: {e}")))?;
        v["out"] = name.into();
        return print_json(&v);
    }
    print!("{}", text(&name));
    Ok(())
}

// ---------------------------------------------------------------------------------------
// average

#[derive(Args, Debug)]
struct AverageArgs {
    /// The weight files, at least two, of one shape.
    #[arg(value_name = "FILE", num_args = 2.., required = true)]
    files: Vec<PathBuf>,
    /// Write the mean network here (atomically).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    #[command(flatten)]
    json: JsonArg,
}

/// A weight file's bytes, or why they could not be read.
fn weight_file(path: &Path) -> InputFile {
    let name = path.display().to_string();
    match std::fs::read(path) {
        Ok(bytes) => InputFile::new(name, bytes),
        Err(e) => InputFile::unreadable(name, format!("{}: cannot read: {e}", path.display())),
    }
}

fn average(a: AverageArgs) -> CliResult {
    let mut avg = api::Average::new();
    for path in &a.files {
        avg.add(&weight_file(path), Control::new())?;
    }
    let (net, meta, r) = avg.finish()?;
    write_stream_atomic(&a.out, |f| drop7::search::ntuple::write_to(&net, &meta, f))?;
    print_with_out(a.json.json, &r, &a.out, |out| r.text(out))
}

#[derive(Args, Debug)]
struct InfoArgs {
    /// The weight files (from `drop7 train` or `drop7 average`).
    #[arg(value_name = "FILE", num_args = 1.., required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    json: JsonArg,
}

fn info(a: InfoArgs) -> CliResult {
    let mut all = Vec::new();
    for path in &a.files {
        // One file in memory at a time (4 GB for the anchor shape).
        let i = api::weight_info(&weight_file(path))?;
        if !a.json.json {
            print!("{}", i.text());
        }
        all.push(i);
    }
    if a.json.json {
        return print_json(&all);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// tune

#[derive(Args, Debug)]
struct TuneArgs {
    /// The searcher every candidate plays with (`--eval` is replaced by the candidates).
    #[command(flatten)]
    search: SearchOpts,
    /// The seven starting `ready` weights (disc, solid, cracked, tall, full, ready, latent).
    #[arg(long, default_value = default_start(), value_name = "W1,..,W7")]
    start: String,
    /// Games each candidate plays (the same seeded games for all).
    #[arg(long, default_value_t = TuneRequest::default().games,
          value_parser = clap::value_parser!(u64).range(TuneRequest::GAMES))]
    games: u64,
    /// Passes over the seven weights (x1.5 and /1.5 in the first, x1.25 and x0.8 after).
    #[arg(long, default_value_t = TuneRequest::default().passes)]
    passes: u32,
    /// Stop a game after this many moves.
    #[arg(long, default_value_t = TuneRequest::default().max_moves)]
    max_moves: u32,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
}

/// The request's default starting weights as one `--start` value (`W1,..,W7`).
fn default_start() -> &'static str {
    static START: OnceLock<String> = OnceLock::new();
    START.get_or_init(|| {
        let w = TuneRequest::default().start.map(|x| x.to_string());
        w.join(",")
    })
}

fn tune(a: TuneArgs) -> CliResult {
    let req = TuneRequest {
        search: a.search.options("--eval", "ready"),
        start: api::parse_start(&a.start)?,
        games: a.games,
        seed: a.seed.seed,
        passes: a.passes,
        max_moves: a.max_moves,
    };
    let bar = progress(1 + u64::from(a.passes) * 14, "drop7 tune");
    let report = follow(&bar, "drop7", true);
    let out = a.threads.install(|| api::tune(&req, Control::new().with_progress(&report)))??;
    bar.finish_and_clear();
    print_or_json(a.json.json, &out)
}

// ---------------------------------------------------------------------------------------
// train

fn train(a: TrainArgs) -> CliResult {
    if let (Some(path), LearnMethod::Tc) = (a.from.as_deref(), a.method) {
        // Refused before the files are read: their bytes alone would take the memory.
        if let Ok(m) = std::fs::metadata(path) {
            let name = format!("{} (by its size, unread)", path.display());
            TrainRequest::check_tc_from(&name, m.len())?;
        }
    }
    let from = a.from.as_deref().map(|path| match std::fs::read(path) {
        Ok(bytes) => InputFile::new(path.display().to_string(), bytes),
        Err(e) => InputFile::unreadable(
            path.display().to_string(),
            format!("--from: cannot read {}: {e}", path.display()),
        ),
    });
    // The accumulators beside --from: read for tc; for td only noted when they exist.
    let coherence = a.from.as_deref().map(coherence_path).and_then(|p| {
        let name = p.display().to_string();
        if a.method == LearnMethod::Td {
            return p.exists().then(|| InputFile::new(name, Vec::new()));
        }
        Some(match read_bytes(&p) {
            Ok(bytes) => InputFile::new(name, bytes),
            Err(e) => InputFile::unreadable(
                name,
                format!(
                    "{} (--method tc continues from the weights and their accumulators)",
                    e.message()
                ),
            ),
        })
    });
    let req = TrainRequest {
        games: a.games,
        alpha: a.alpha,
        method: a.method.into(),
        seed: a.seed.seed,
        from,
        coherence,
        shape: a.shape.clone(),
        checkpoint_every: a.checkpoint_every,
        max_seconds: a.max_seconds,
        report_every: a.report_every,
        policy_depth: a.policy_depth,
        optimistic: a.optimistic,
        reveal_samples: a.reveal_samples,
        clamp: a.clamp,
    };
    let lines = |p: Progress| {
        if !p.message.is_empty() {
            eprintln!("{}", p.message);
        }
    };
    let mut write = |c: &api::TrainCheckpoint<'_>| -> Result<(), api::Error> {
        write_stream_atomic(&a.out, |f| c.write_weights(f))?;
        if c.coherence.is_some() {
            write_stream_atomic(&coherence_path(&a.out), |f| {
                c.write_coherence(f).expect("TC has accumulators")
            })?;
        }
        Ok(())
    };
    let r = api::train(&req, Control::new().with_progress(&lines), &mut write)?;
    print_with_out(a.json.json, &r, &a.out, |out| r.text(out))
}
