//! `bitarcade drop7 ...`: play, decide, bench, replay, sweep and A/B-test Drop7.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use clap::{Args, Subcommand};
use drop7::engine::{poppers, poppers_table, ListDraws, RandomDraws, Recording};
use drop7::reference::{compare_random_game, RefGame};
use drop7::search::ntuple::{self, Meta, NTuple, NTupleEval, NTupleMean};
use drop7::search::{
    play_games, BatchSpec, ChanceModel, Crowding, DepthRule, Direct, Evaluator, Fitted, GameEvent,
    GameResult, NoTable, Options, PointsOnly, Pressure, Ready, SearchDraws, Searcher, SetAssoc,
    Shape, Stats, Table, MAX_DEPTH,
};
use drop7::trace::{verify, GameRecord};
use drop7::{Mode, Position, Rules};
use serde::Serialize;

use crate::common::{
    coherence_path, print_json, progress, read_input, write_file_atomic, write_json_file, CliError,
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
        bitarcade drop7 ab --a ntuple:@net.d7n --b ready --reveals paired --depth 3 --games 256 --seed 5")]
    Train(TrainArgs),
}

/// The rules and the searcher.
#[derive(Args, Debug, Clone)]
struct SearchOpts {
    /// Mode: hardcore (alias blitz), normal, sequence.
    #[arg(long, default_value = "hardcore")]
    mode: String,
    /// Search depth in moves (1 = the known disc only).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=6))]
    depth: u32,
    /// Leaf evaluator: `crowding[:DISC,SOLID,CRACKED,TALL,FULL]`, `shape[:..,MISMATCH]`,
    /// `options[:..,OPTIONS]`, `ready[:..,READY,LATENT]`, `pressure[:..,NEAR,EXPOSED]`,
    /// `fitted[:W1,..,W33|:@FILE][*SCALE]` (weights as `drop7 fit` writes them, all times
    /// SCALE), `ntuple:@FILE` (a network from `drop7 train`; `ntuple:@A+@B..` the mean of several) or `points`. The default, `ready`, is `ready:900,500,375,800,4500,1200,0`.
    #[arg(long, default_value = "ready")]
    eval: String,
    /// Transposition table: none, direct, 2way, 4way.
    #[arg(long, default_value = "direct")]
    table: String,
    /// log2 of the table's entries (48 bytes each).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(4..=26))]
    table_bits: u32,
    /// Chance nodes over K equal strata of 1-7 instead of every value (0 = every value).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=7))]
    strata: u8,
    /// Strata by chance level from the root down for `play` and `ab` (`0,0,3`: every value
    /// at the two chance levels below the root, 3 strata deeper; the last entry repeats);
    /// overrides --strata there.
    #[arg(long, value_name = "K,K,..")]
    strata_schedule: Option<String>,
    /// Normal mode's share of gray next discs, NUM/DEN.
    #[arg(long, default_value = "1/8")]
    gray_share: String,
    /// Pay the level bonus before the fatal rise (a clone variant).
    #[arg(long)]
    fatal_rise_bonus: bool,
    /// Restart the chain level at 1 after a rise (instead of continuing it).
    #[arg(long)]
    no_rise_chain: bool,
    /// The search's penalty for a move that ends the game.
    #[arg(long, default_value_t = 1_000_000.0)]
    death: f64,
    /// Reveal samples averaged for a searched move that reveals a gray (1 = one sample), or
    /// a list from the root down (`8,2,2,8`: 8 at the root, 2 at the next two levels, 8 for
    /// the moves above the leaves; the last entry repeats deeper).
    #[arg(long, default_value = "1")]
    reveal_samples: String,
    /// How a searched move that reveals grays is valued: `paired` (one reveal sample per
    /// chance outcome, each followed by that outcome's next disc: as many samples as
    /// outcomes at the cost of one; levels given more than one --reveal-samples average
    /// those instead) or `sampled` (the --reveal-samples average).
    #[arg(long, default_value = "sampled", value_parser = ["paired", "sampled"])]
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

impl SearchOpts {
    /// The depth rule: --depth, or --budget with --min-depth and --max-depth.
    fn rule(&self) -> CliResult<DepthRule> {
        let Some(moves) = self.budget else {
            return Ok(DepthRule::Fixed(self.depth));
        };
        let min = self.min_depth.unwrap_or(3);
        let max = self.max_depth.unwrap_or(6);
        if !(1..=MAX_DEPTH).contains(&min) {
            return Err(CliError::input(format!("--min-depth {min}: expected 1..={MAX_DEPTH}")));
        }
        if !(1..=MAX_DEPTH).contains(&max) {
            return Err(CliError::input(format!("--max-depth {max}: expected 1..={MAX_DEPTH}")));
        }
        if min > max {
            return Err(CliError::input(format!("--min-depth {min} is above --max-depth {max}")));
        }
        if self.reveal_samples.contains(',') {
            return Err(CliError::input(
                "--reveal-samples with a list is keyed to one depth: not with --budget",
            ));
        }
        Ok(DepthRule::Budget { moves, min, max })
    }

    /// The reveal samples by remaining depth.
    fn reveal_by_depth(&self) -> CliResult<[u32; 8]> {
        let bad = || {
            CliError::input(format!(
                "--reveal-samples {:?}: expected N or N,N,... with each N in 1..=64",
                self.reveal_samples
            ))
        };
        let list: Vec<u32> = self
            .reveal_samples
            .split(',')
            .map(|x| x.trim().parse::<u32>().ok().filter(|n| (1..=64).contains(n)))
            .collect::<Option<_>>()
            .ok_or_else(bad)?;
        Ok(drop7::search::reveal_by_depth(&list, self.rule()?.max_depth()))
    }
}

#[derive(Args, Debug)]
struct PlayArgs {
    #[command(flatten)]
    search: SearchOpts,
    /// Games to play (game i uses seed sub_seed(S, i)).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    games: u64,
    /// Index of the first game: plays games K..K+N of the batch seeded by --seed, each with
    /// the seed it has in the whole batch, so shards (`--first-game 0 --games 8`,
    /// `--first-game 8 --games 8`, ...) concatenate into exactly the full run.
    #[arg(long, default_value_t = 0, value_name = "K", value_parser = clap::value_parser!(u64).range(0..=1_000_000_000))]
    first_game: u64,
    /// Stop a game after this many moves.
    #[arg(long, default_value_t = 100_000)]
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
    #[arg(long, default_value_t = 5_000)]
    games: u64,
    /// Positions harvested from real games for the decision timings.
    #[arg(long, default_value_t = 12)]
    positions: usize,
    /// Depths to time decisions at, comma-separated.
    #[arg(long, default_value = "3,4")]
    depths: String,
    /// Repetitions (medians are reported).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
    runs: u32,
    /// log2 of each table's entries.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(4..=26))]
    table_bits: u32,
    /// Leaf evaluator of the timed decisions (as `play --eval`).
    #[arg(long, default_value = "crowding")]
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
    #[arg(long, default_value = "hardcore")]
    mode: String,
    /// Games to compare.
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    /// Move cap per game.
    #[arg(long, default_value_t = 10_000)]
    max_moves: u32,
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
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(2..=1_000_000))]
    games: u64,
    /// Stop a game after this many moves.
    #[arg(long, default_value_t = 100_000)]
    max_moves: u32,
    /// What a board is fitted to: `end` (every point after it), `discount:G` (the turns
    /// after it weighted 1, G, G^2, ...) or `horizon:K` (the next K turns); a comma list
    /// fits each target to the same harvest.
    #[arg(long, default_value = "end")]
    target: String,
    /// Ridge penalty on the standardised weights (times the number of samples): one, or one
    /// per target.
    #[arg(long, default_value = "0.001")]
    ridge: String,
    /// Sibling rollouts instead of the game's own future: at every K-th position of each
    /// game, play every column and roll out from each on a copy of the game's stream (the
    /// same luck for all), and fit the differences between the moves from one position
    /// (0: off, fit the boards of the game itself).
    #[arg(long, default_value_t = 0, value_name = "K")]
    rollouts: u32,
    /// Depth of the rollouts' searcher (same evaluator and reveals as the harvest).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=5))]
    rollout_depth: u32,
    /// Moves per rollout (after the sibling's own move).
    #[arg(long, default_value_t = 40)]
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
    #[arg(long, value_parser = ["paired", "sampled"])]
    a_reveals: Option<String>,
    /// Reveal handling for B (as --reveals; default: --reveals).
    #[arg(long, value_parser = ["paired", "sampled"])]
    b_reveals: Option<String>,
    #[command(flatten)]
    search: SearchOpts,
    /// Games per evaluator (the same seeds for both).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(2..=100_000))]
    games: u64,
    /// Stop a game after this many moves.
    #[arg(long, default_value_t = 100_000)]
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
    }
}

// ---------------------------------------------------------------------------------------
// Options

fn parse_mode(s: &str) -> CliResult<Mode> {
    s.parse::<Mode>().map_err(|e| CliError::input(format!("--mode: {e}")))
}

fn rules_of(o: &SearchOpts) -> CliResult<Rules> {
    let mut rules = Rules::new(parse_mode(&o.mode)?);
    let bad = || {
        CliError::input(format!(
            "--gray-share {:?}: expected NUM/DEN with 0 <= NUM <= DEN, DEN >= 1",
            o.gray_share
        ))
    };
    let (n, d) = o.gray_share.split_once('/').ok_or_else(bad)?;
    let n: u32 = n.trim().parse().map_err(|_| bad())?;
    let d: u32 = d.trim().parse().map_err(|_| bad())?;
    if d == 0 || n > d {
        return Err(bad());
    }
    rules.gray_share = (n, d);
    rules.fatal_rise_bonus = o.fatal_rise_bonus;
    rules.rise_chain_continues = !o.no_rise_chain;
    Ok(rules)
}

fn reveals_label(o: &SearchOpts) -> String {
    if o.reveals == "paired" {
        "paired".into()
    } else {
        format!("sampled:{}", o.reveal_samples)
    }
}

fn chance_schedule_of(o: &SearchOpts) -> CliResult<Option<[ChanceModel; 8]>> {
    let Some(text) = &o.strata_schedule else { return Ok(None) };
    let bad = || {
        CliError::input(format!(
            "--strata-schedule {text:?}: expected K or K,K,... with each K in 0..=7"
        ))
    };
    let list: Vec<u8> = text
        .split(',')
        .map(|x| x.trim().parse::<u8>().ok().filter(|k| *k <= 7))
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    if list.is_empty() || list.len() > 8 {
        return Err(bad());
    }
    let mut out = [ChanceModel::Exact; 8];
    for (i, m) in out.iter_mut().enumerate() {
        let k = *list.get(i).or(list.last()).expect("non-empty");
        *m = if k == 0 { ChanceModel::Exact } else { ChanceModel::Strata(k) };
    }
    Ok(Some(out))
}

fn chance_of(o: &SearchOpts) -> ChanceModel {
    if o.strata == 0 {
        ChanceModel::Exact
    } else {
        ChanceModel::Strata(o.strata)
    }
}

/// A parsed evaluator choice.
#[derive(Clone, Debug)]
enum EvalChoice {
    Crowding(Crowding),
    Shape(Shape),
    Options(Options),
    Ready(Ready),
    Pressure(Pressure),
    /// The weights and the label they were given by.
    Fitted(Box<Fitted>, String),
    /// An n-tuple network and the label it was given by.
    NTuple(NTupleEval, String),
    NTupleMean(NTupleMean, String),
    Points,
}

/// Parses weights in the form `drop7 fit --out` writes: one weight per line, optionally
/// after its feature's name (which must then be the feature's); blank lines and `#` lines
/// are skipped. `what` names the source in errors.
fn parse_weights(what: &str, text: &str) -> CliResult<Fitted> {
    use drop7::search::eval::{FEATURES, FEATURE_NAMES};
    let mut w = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: String| CliError::input(format!("{what}:{}: {why}", i + 1));
        let mut parts = line.split_whitespace();
        let (name, value) = match (parts.next(), parts.next(), parts.next()) {
            (Some(v), None, _) => (None, v),
            (Some(n), Some(v), None) => (Some(n), v),
            _ => return Err(bad("expected `NAME WEIGHT` or `WEIGHT`".into())),
        };
        if w.len() >= FEATURES {
            return Err(bad(format!("more than {FEATURES} weights")));
        }
        if let Some(n) = name {
            if n != FEATURE_NAMES[w.len()] {
                return Err(bad(format!(
                    "feature {} is {:?}, not {n:?}",
                    w.len() + 1,
                    FEATURE_NAMES[w.len()]
                )));
            }
        }
        let x: f64 = value
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite())
            .ok_or_else(|| bad(format!("{value:?} is not a finite number")))?;
        w.push(x);
    }
    let weights: [f64; FEATURES] = w.try_into().map_err(|w: Vec<f64>| {
        CliError::input(format!("{what}: {} weights, expected {FEATURES}", w.len()))
    })?;
    Ok(Fitted { weights })
}

/// `fitted[:W1,..,W33|:@FILE][*SCALE]`.
fn parse_fitted(flag: &str, s: &str) -> CliResult<Fitted> {
    let bad = |why: &str| CliError::input(format!("{flag} {s:?}: {why}"));
    let (body, scale) = match s.rsplit_once('*') {
        Some((b, k)) => {
            let k: f64 = k
                .trim()
                .parse()
                .ok()
                .filter(|k: &f64| k.is_finite())
                .ok_or_else(|| bad("the scale after `*` must be a finite number"))?;
            (b, k)
        }
        None => (s, 1.0),
    };
    let fitted = match body.strip_prefix("fitted") {
        Some("") => Fitted::default(),
        Some(rest) => match rest.strip_prefix(':') {
            Some(file) if file.starts_with('@') => {
                let path = PathBuf::from(&file[1..]);
                let text = std::fs::read_to_string(&path).map_err(|e| {
                    CliError::input(format!("{flag}: cannot read {}: {e}", path.display()))
                })?;
                parse_weights(&path.display().to_string(), &text)?
            }
            Some(list) => parse_weights(flag, &list.replace(',', "\n"))?,
            None => return Err(bad("use fitted, fitted:W1,..,W33 or fitted:@FILE, then *SCALE")),
        },
        None => return Err(bad("use fitted, fitted:W1,..,W33 or fitted:@FILE, then *SCALE")),
    };
    Ok(if scale == 1.0 { fitted } else { fitted.scaled(scale) })
}

impl EvalChoice {
    fn parse(flag: &str, s: &str) -> CliResult<EvalChoice> {
        let bad = |why: &str| CliError::input(format!("{flag} {s:?}: {why}"));
        if s.starts_with("fitted") {
            return Ok(EvalChoice::Fitted(Box::new(parse_fitted(flag, s)?), s.to_string()));
        }
        if let Some(rest) = s.strip_prefix("ntuple") {
            let Some(files) = rest.strip_prefix(":@") else {
                return Err(bad(
                    "use ntuple:@FILE (a weight file from `drop7 train`) or ntuple:@A+@B..",
                ));
            };
            let mut nets = Vec::new();
            for file in files.split("+@") {
                nets.push(Arc::new(read_net(flag, std::path::Path::new(file))?.0));
            }
            return Ok(if nets.len() == 1 {
                EvalChoice::NTuple(NTupleEval(nets.remove(0)), s.to_string())
            } else {
                EvalChoice::NTupleMean(NTupleMean(nets), s.to_string())
            });
        }
        match s.split_once(':') {
            None if s == "points" => Ok(EvalChoice::Points),
            None if s == "crowding" => Ok(EvalChoice::Crowding(Crowding::default())),
            None if s == "shape" => Ok(EvalChoice::Shape(Shape::default())),
            None if s == "options" => Ok(EvalChoice::Options(Options::default())),
            None if s == "ready" => Ok(EvalChoice::Ready(Ready::default())),
            None if s == "pressure" => Ok(EvalChoice::Pressure(Pressure::default())),
            Some((name @ ("crowding" | "shape" | "options" | "ready" | "pressure"), w)) => {
                let v: Vec<f64> = w
                    .split(',')
                    .map(|x| x.trim().parse::<f64>())
                    .collect::<Result<_, _>>()
                    .map_err(|_| bad("weights must be numbers"))?;
                let want = match name {
                    "crowding" => 5,
                    "ready" | "pressure" => 7,
                    _ => 6,
                };
                if v.len() != want || v.iter().any(|x| !x.is_finite()) {
                    return Err(bad(
                        "crowding takes 5 weights DISC,SOLID,CRACKED,TALL,FULL; shape adds MISMATCH, options OPTIONS, ready READY,LATENT, pressure NEAR,EXPOSED",
                    ));
                }
                let c = Crowding { disc: v[0], solid: v[1], cracked: v[2], tall: v[3], full: v[4] };
                Ok(match name {
                    "crowding" => EvalChoice::Crowding(c),
                    "shape" => EvalChoice::Shape(Shape { crowding: c, mismatch: v[5] }),
                    "ready" => EvalChoice::Ready(Ready { crowding: c, ready: v[5], latent: v[6] }),
                    "pressure" => {
                        EvalChoice::Pressure(Pressure { crowding: c, near: v[5], exposed: v[6] })
                    }
                    _ => EvalChoice::Options(Options { crowding: c, options: v[5] }),
                })
            }
            _ => {
                Err(bad("use crowding[:W1,..,W5], shape[:W1,..,W6], options[:W1,..,W6], ready[:W1,..,W7], pressure[:W1,..,W7], fitted[:W1,..,W33|:@FILE][*SCALE], ntuple:@FILE or points"))
            }
        }
    }

    fn label(&self) -> String {
        match self {
            EvalChoice::Points => "points".into(),
            EvalChoice::Fitted(_, label) => label.clone(),
            EvalChoice::NTuple(_, label) | EvalChoice::NTupleMean(_, label) => label.clone(),
            EvalChoice::Crowding(c) => {
                format!("crowding:{},{},{},{},{}", c.disc, c.solid, c.cracked, c.tall, c.full)
            }
            EvalChoice::Shape(s) => {
                let c = s.crowding;
                format!(
                    "shape:{},{},{},{},{},{}",
                    c.disc, c.solid, c.cracked, c.tall, c.full, s.mismatch
                )
            }
            EvalChoice::Ready(r) => {
                let c = r.crowding;
                format!(
                    "ready:{},{},{},{},{},{},{}",
                    c.disc, c.solid, c.cracked, c.tall, c.full, r.ready, r.latent
                )
            }
            EvalChoice::Pressure(p) => {
                let c = p.crowding;
                format!(
                    "pressure:{},{},{},{},{},{},{}",
                    c.disc, c.solid, c.cracked, c.tall, c.full, p.near, p.exposed
                )
            }
            EvalChoice::Options(o) => {
                let c = o.crowding;
                format!(
                    "options:{},{},{},{},{},{}",
                    c.disc, c.solid, c.cracked, c.tall, c.full, o.options
                )
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TableChoice {
    None,
    Direct,
    Two,
    Four,
}

impl TableChoice {
    fn parse(s: &str) -> CliResult<TableChoice> {
        match s {
            "none" => Ok(TableChoice::None),
            "direct" => Ok(TableChoice::Direct),
            "2way" => Ok(TableChoice::Two),
            "4way" => Ok(TableChoice::Four),
            _ => Err(CliError::input(format!("--table {s:?}: use none, direct, 2way or 4way"))),
        }
    }

    fn name(self) -> &'static str {
        match self {
            TableChoice::None => "none",
            TableChoice::Direct => "direct",
            TableChoice::Two => "2way",
            TableChoice::Four => "4way",
        }
    }
}

/// Work generic over the evaluator and the table: the CLI picks both at run time once, and
/// everything below is monomorphised (static dispatch in the search).
trait Job {
    type Out;
    fn run<E, T>(self, eval: E, make_table: impl Fn() -> T + Sync) -> Self::Out
    where
        E: Evaluator + Clone + Send,
        T: Table + Send;
}

fn dispatch<J: Job>(eval: &EvalChoice, table: TableChoice, bits: u32, job: J) -> J::Out {
    fn with_table<J: Job, E: Evaluator + Clone + Send>(
        e: E,
        t: TableChoice,
        bits: u32,
        job: J,
    ) -> J::Out {
        match t {
            TableChoice::None => job.run(e, || NoTable),
            TableChoice::Direct => job.run(e, || Direct::new(bits)),
            TableChoice::Two => job.run(e, || SetAssoc::<2>::new(bits)),
            TableChoice::Four => job.run(e, || SetAssoc::<4>::new(bits)),
        }
    }
    match eval {
        EvalChoice::Crowding(c) => with_table(*c, table, bits, job),
        EvalChoice::Shape(s) => with_table(*s, table, bits, job),
        EvalChoice::Options(o) => with_table(*o, table, bits, job),
        EvalChoice::Ready(r) => with_table(*r, table, bits, job),
        EvalChoice::Pressure(p) => with_table(*p, table, bits, job),
        EvalChoice::Fitted(f, _) => with_table(**f, table, bits, job),
        EvalChoice::NTuple(n, _) => with_table(n.clone(), table, bits, job),
        EvalChoice::NTupleMean(n, _) => with_table(n.clone(), table, bits, job),
        EvalChoice::Points => with_table(PointsOnly, table, bits, job),
    }
}

// ---------------------------------------------------------------------------------------
// Statistics

#[derive(Serialize, Debug, Clone)]
struct Summary {
    games: usize,
    mean: f64,
    median: f64,
    best: u64,
    worst: u64,
    sd: f64,
    /// 95% confidence interval of the mean (Student t).
    ci95: [f64; 2],
}

/// The two-sided 95% Student t quantile for `df` degrees of freedom (Cornish-Fisher
/// expansion around z = 1.959964; within 0.1% for df >= 3).
fn t95(df: f64) -> f64 {
    let z: f64 = 1.959_964;
    let df = df.max(1.0);
    z + (z.powi(3) + z) / (4.0 * df)
        + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * df * df)
}

fn summary(scores: &[u64]) -> Summary {
    let n = scores.len();
    let mut s = scores.to_vec();
    s.sort_unstable();
    let mean = s.iter().map(|&x| x as f64).sum::<f64>() / n.max(1) as f64;
    let median = if n == 0 {
        0.0
    } else if n % 2 == 1 {
        s[n / 2] as f64
    } else {
        (s[n / 2 - 1] as f64 + s[n / 2] as f64) / 2.0
    };
    let var = if n > 1 {
        s.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    let sd = var.sqrt();
    let half = t95((n.max(2) - 1) as f64) * sd / (n.max(1) as f64).sqrt();
    Summary {
        games: n,
        mean,
        median,
        best: s.last().copied().unwrap_or(0),
        worst: s.first().copied().unwrap_or(0),
        sd,
        ci95: [mean - half, mean + half],
    }
}

/// The standard normal upper tail, `P(Z > z)`, via `erfc` (Abramowitz-Stegun 7.1.26).
fn normal_tail(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erfc = poly * (-x * x).exp();
    let upper = erfc / 2.0;
    if z >= 0.0 {
        upper
    } else {
        1.0 - upper
    }
}

// ---------------------------------------------------------------------------------------
// play

struct BatchJob<'a> {
    spec: BatchSpec,
    bar: &'a indicatif::ProgressBar,
}

impl Job for BatchJob<'_> {
    /// The games, each with the CPU seconds of the thread that played it (when known).
    type Out = Vec<(GameResult, Option<GameRecord>, Option<f64>)>;
    fn run<E, T>(self, eval: E, make_table: impl Fn() -> T + Sync) -> Self::Out
    where
        E: Evaluator + Clone + Send,
        T: Table + Send,
    {
        // A game is played start to end on one thread: its CPU time is that thread's
        // CPU time between the two events.
        let first = self.spec.first;
        let clock = std::sync::Mutex::new(vec![(None, None); self.spec.games as usize]);
        // A long game (depth 5 spends hours on one) reports its progress: in the bar's
        // message on a terminal, otherwise (a log file) as a stderr line at most once a minute.
        let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
        let started = Instant::now();
        let last_line = std::sync::Mutex::new(vec![started; self.spec.games as usize]);
        let out = play_games(&self.spec, &eval, make_table, |event| {
            if let GameEvent::Moved { game, moves, score, level } = event {
                let what = format!("game {game}: move {moves}, level {level}, score {score}");
                if terminal {
                    self.bar.set_message(what);
                    return;
                }
                let mut last = last_line.lock().unwrap_or_else(|e| e.into_inner());
                let t = &mut last[(game - first) as usize];
                if t.elapsed().as_secs() >= 60 {
                    *t = Instant::now();
                    eprintln!("drop7 {what} ({:.0} s)", started.elapsed().as_secs_f64());
                }
                return;
            }
            let now = thread_cpu_ns();
            let mut c = clock.lock().unwrap_or_else(|e| e.into_inner());
            match event {
                GameEvent::Started(i) => c[(i - first) as usize].0 = now,
                GameEvent::Finished(i) => {
                    c[(i - first) as usize].1 = now;
                    self.bar.inc(1);
                }
                GameEvent::Moved { .. } => {}
            }
        });
        let clock = clock.into_inner().unwrap_or_else(|e| e.into_inner());
        out.into_iter()
            .zip(clock)
            .map(|((res, rec), t)| {
                let cpu = match t {
                    (Some(a), Some(b)) if b >= a => Some((b - a) as f64 * 1e-9),
                    _ => None,
                };
                (res, rec, cpu)
            })
            .collect()
    }
}

/// A played game, its verified record and the CPU seconds it took (when known).
type PlayedGame = (GameResult, GameRecord, Option<f64>);

/// A game of a `play` report: its result and the CPU seconds it took.
#[derive(Serialize)]
struct GameRow {
    #[serde(flatten)]
    result: GameResult,
    /// CPU seconds of the thread that played it (Linux; absent elsewhere).
    cpu_seconds: Option<f64>,
}

#[derive(Serialize)]
struct PlayReport {
    rules: Rules,
    /// The fixed depth (null under a budget rule).
    depth: Option<u32>,
    /// The budget rule, if one (absent for a fixed depth).
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<DepthRule>,
    /// Decisions of all games by the depth they reached (index = depth).
    depths: [u64; 8],
    /// Mean search moves per decision over all games.
    moves_per_decision: f64,
    eval: String,
    table: &'static str,
    chance: String,
    /// `paired`, or `sampled:LIST` (reveal samples from the root down).
    reveals: String,
    seed: u64,
    /// Index of the first game played (`--first-game`): the games are
    /// `first_game..first_game + games` of the batch seeded by `seed`.
    first_game: u64,
    summary: Summary,
    seconds: f64,
    seconds_per_game: f64,
    search_moves_per_second: f64,
    results: Vec<GameRow>,
}

#[allow(clippy::too_many_arguments)]
fn run_batch(
    o: &SearchOpts,
    eval: &EvalChoice,
    seed: u64,
    first: u64,
    games: u64,
    max_moves: u32,
    threads: &ThreadsArg,
    label: &str,
) -> CliResult<(Vec<PlayedGame>, f64)> {
    let rules = rules_of(o)?;
    let table = TableChoice::parse(&o.table)?;
    if !o.death.is_finite() {
        return Err(CliError::input("--death must be a finite number"));
    }
    let spec = BatchSpec {
        rules,
        chance: chance_of(o),
        seed,
        first,
        games,
        depth: o.rule()?,
        max_moves,
        record: true,
        death: o.death,
        reveal_samples: 1,
        reveal_by_depth: o.reveal_by_depth()?,
        paired_reveals: o.reveals == "paired",
        chance_schedule: chance_schedule_of(o)?,
    };
    let bar = progress(games, label);
    let start = Instant::now();
    let out =
        threads.install(|| dispatch(eval, table, o.table_bits, BatchJob { spec, bar: &bar }))?;
    let secs = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    // Every game is replayed by the independent verifier before anything is printed.
    let mut checked = Vec::with_capacity(out.len());
    for (res, rec, cpu) in out {
        let rec = rec.ok_or_else(|| CliError::failed("a game lost its record"))?;
        let end = verify(&rec).map_err(|e| {
            CliError::failed(format!(
                "game with seed {}: the record does not replay: {e}",
                res.seed
            ))
        })?;
        if end.score != res.score {
            return Err(CliError::failed(format!("game with seed {}: score mismatch", res.seed)));
        }
        checked.push((res, rec, cpu));
    }
    Ok((checked, secs))
}

struct SequenceJob {
    death: f64,
    reveal_by_depth: [u32; 8],
    paired_reveals: bool,
    rules: Rules,
    chance: ChanceModel,
    draws: ListDraws,
    depth: DepthRule,
    max_moves: u32,
}

impl Job for SequenceJob {
    type Out = (GameResult, Option<GameRecord>);
    fn run<E, T>(mut self, eval: E, make_table: impl Fn() -> T + Sync) -> Self::Out
    where
        E: Evaluator + Clone + Send,
        T: Table + Send,
    {
        let mut s = Searcher::new(self.rules, self.chance, eval, make_table());
        s.death = self.death;
        s.reveal_by_depth = self.reveal_by_depth;
        s.paired_reveals = self.paired_reveals;
        let start = Position::start(&self.rules, drop7::Board::GRAY_ROW, &mut self.draws);
        let n = self.draws.discs.len();
        drop7::search::play_from(
            &mut s,
            start,
            self.draws,
            None,
            self.depth,
            self.max_moves,
            true,
            move |d: &ListDraws, _: &Position, _: u32| d.disc_pos >= n,
        )
    }
}

fn sequence_game(a: &PlayArgs, eval: &EvalChoice) -> CliResult<(Vec<PlayedGame>, f64)> {
    let path =
        a.stream.as_ref().ok_or_else(|| CliError::input("--mode sequence needs --stream FILE"))?;
    if a.games != 1 {
        return Err(CliError::input("--mode sequence plays its one stream: use --games 1"));
    }
    let text = read_input(path)?;
    let draws = ListDraws::parse_stream(&text)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    let rules = rules_of(&a.search)?;
    let table = TableChoice::parse(&a.search.table)?;
    let start = Instant::now();
    let cpu0 = thread_cpu_ns();
    let job = SequenceJob {
        death: a.search.death,
        reveal_by_depth: a.search.reveal_by_depth()?,
        paired_reveals: a.search.reveals == "paired",
        rules,
        chance: chance_of(&a.search),
        draws,
        depth: a.search.rule()?,
        max_moves: a.max_moves,
    };
    let (res, rec) = dispatch(eval, table, a.search.table_bits, job);
    let secs = start.elapsed().as_secs_f64();
    let cpu = match (cpu0, thread_cpu_ns()) {
        (Some(x), Some(y)) if y >= x => Some((y - x) as f64 * 1e-9),
        _ => None,
    };
    let rec = rec.ok_or_else(|| CliError::failed("the game lost its record"))?;
    verify(&rec).map_err(|e| CliError::failed(format!("the record does not replay: {e}")))?;
    Ok((vec![(res, rec, cpu)], secs))
}

fn play(a: PlayArgs) -> CliResult {
    let eval = EvalChoice::parse("--eval", &a.search.eval)?;
    let sequence = parse_mode(&a.search.mode)? == Mode::Sequence;
    if a.stream.is_some() && !sequence {
        return Err(CliError::input("--stream is only for --mode sequence"));
    }
    if sequence && a.first_game != 0 {
        return Err(CliError::input("--first-game is for seeded batches, not --mode sequence"));
    }
    let (games, secs) = if sequence {
        sequence_game(&a, &eval)?
    } else {
        run_batch(
            &a.search,
            &eval,
            a.seed.seed,
            a.first_game,
            a.games,
            a.max_moves,
            &a.threads,
            "drop7 play",
        )?
    };
    let scores: Vec<u64> = games.iter().map(|g| g.0.score).collect();
    let work: u64 = games.iter().map(|g| g.0.stats.moves).sum();
    let rule = a.search.rule()?;
    let mut depths = [0u64; 8];
    for g in &games {
        for (t, &n) in depths.iter_mut().zip(&g.0.depths) {
            *t += u64::from(n);
        }
    }
    let decisions: u64 = depths.iter().sum();
    let report = PlayReport {
        rules: rules_of(&a.search)?,
        depth: match rule {
            DepthRule::Fixed(d) => Some(d),
            DepthRule::Budget { .. } => None,
        },
        rule: matches!(rule, DepthRule::Budget { .. }).then_some(rule),
        depths,
        moves_per_decision: if decisions == 0 { 0.0 } else { work as f64 / decisions as f64 },
        eval: eval.label(),
        table: TableChoice::parse(&a.search.table)?.name(),
        chance: match &a.search.strata_schedule {
            Some(list) => format!("strata schedule {list}"),
            None => format!("{:?}", chance_of(&a.search)),
        },
        reveals: reveals_label(&a.search),
        seed: a.seed.seed,
        first_game: a.first_game,
        summary: summary(&scores),
        seconds: secs,
        seconds_per_game: secs * a.threads.count() as f64 / games.len() as f64,
        search_moves_per_second: work as f64 / secs,
        results: games.iter().map(|g| GameRow { result: g.0.clone(), cpu_seconds: g.2 }).collect(),
    };
    if let Some(path) = &a.record.record {
        if games.len() == 1 {
            write_json_file(path, &games[0].1)?;
        } else {
            let recs: Vec<&GameRecord> = games.iter().map(|g| &g.1).collect();
            write_json_file(path, &recs)?;
        }
    }
    if a.json.json {
        return print_json(&report);
    }
    if games.len() <= 16 {
        for (g, _, cpu) in &games {
            println!(
                "game {:>3}  seed {:>20}  score {:>9}  level {:>3}  moves {:>5}{}{}",
                g.index,
                g.seed,
                g.score,
                g.level,
                g.moves,
                cpu.map_or(String::new(), |c| format!("  cpu {c:.1} s")),
                if g.over { "" } else { "  (stopped before game over)" }
            );
        }
    }
    let s = &report.summary;
    println!(
        "{} games, {} mode, depth {}, eval {}, reveals {}, table {}: mean {:.0} (95% CI {:.0}..{:.0}), median {:.0}, best {}, worst {}",
        s.games, a.search.mode, rule, report.eval, report.reveals, report.table, s.mean, s.ci95[0], s.ci95[1], s.median, s.best, s.worst
    );
    if let DepthRule::Budget { .. } = rule {
        println!(
            "decisions by depth: {}; {:.0} search moves per decision",
            depth_histogram(&report.depths),
            report.moves_per_decision
        );
    }
    println!(
        "{:.1} s wall, {:.2} s per game per thread, {:.2} M search moves/s; every record replayed",
        report.seconds,
        report.seconds_per_game,
        report.search_moves_per_second / 1e6
    );
    Ok(())
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

// ---------------------------------------------------------------------------------------
// decide

struct DecideJob {
    death: f64,
    reveal_by_depth: [u32; 8],
    paired_reveals: bool,
    rules: Rules,
    chance: ChanceModel,
    pos: Position,
    depth: DepthRule,
}

impl Job for DecideJob {
    type Out = (drop7::search::RuleDecision, Stats);
    fn run<E, T>(self, eval: E, make_table: impl Fn() -> T + Sync) -> Self::Out
    where
        E: Evaluator + Clone + Send,
        T: Table + Send,
    {
        let mut s = Searcher::new(self.rules, self.chance, eval, make_table());
        s.death = self.death;
        s.reveal_by_depth = self.reveal_by_depth;
        s.paired_reveals = self.paired_reveals;
        let d = s.decide_rule(&self.pos, self.depth);
        (d, s.stats)
    }
}

#[derive(Serialize)]
struct DecideReport {
    position: String,
    /// The depth searched (under a budget: the deepest completed iteration's).
    depth: u32,
    /// The budget rule, if one (absent for a fixed depth).
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<DepthRule>,
    values: Vec<Option<f64>>,
    best_column: usize,
    after: String,
    stats: Stats,
    seconds: f64,
}

fn decide(a: DecideArgs) -> CliResult {
    let text =
        if a.position == "-" { read_input(std::path::Path::new("-"))? } else { a.position.clone() };
    let pos: Position =
        text.trim().parse().map_err(|e| CliError::input(format!("position: {e}")))?;
    if pos.over {
        return Err(CliError::input("position: the game is over"));
    }
    if pos.board.open_columns() == 0 {
        return Err(CliError::input("position: no column can take a disc"));
    }
    let rules = rules_of(&a.search)?;
    let eval = EvalChoice::parse("--eval", &a.search.eval)?;
    let table = TableChoice::parse(&a.search.table)?;
    let rule = a.search.rule()?;
    let start = Instant::now();
    let (rd, stats) = dispatch(
        &eval,
        table,
        a.search.table_bits,
        DecideJob {
            death: a.search.death,
            reveal_by_depth: a.search.reveal_by_depth()?,
            paired_reveals: a.search.reveals == "paired",
            rules,
            chance: chance_of(&a.search),
            pos,
            depth: rule,
        },
    );
    let d = rd.decision;
    let seconds = start.elapsed().as_secs_f64();
    // Check the answer with the checked engine and the reference before printing it.
    let mut after = pos;
    let mut draws = Recording::new(SearchDraws::for_move(&pos.board, d.best, pos.next));
    after
        .play(&rules, d.best, &mut draws)
        .map_err(|e| CliError::failed(format!("the chosen column is illegal: {e}")))?;
    let mut refg = RefGame::from_position(&pos);
    let mut list =
        ListDraws { reveals: draws.reveals.clone(), discs: vec![after.next], ..Default::default() };
    refg.play(&rules, d.best, &mut list)
        .ok_or_else(|| CliError::failed("the reference engine refuses the chosen column"))?;
    if refg.board() != after.board || refg.score != after.score {
        return Err(CliError::failed("the reference engine disagrees on the chosen move"));
    }
    let report = DecideReport {
        position: pos.to_string(),
        depth: rd.depth,
        rule: matches!(rule, DepthRule::Budget { .. }).then_some(rule),
        values: d.values.to_vec(),
        best_column: d.best + 1,
        after: after.to_string(),
        stats,
        seconds,
    };
    if a.json.json {
        return print_json(&report);
    }
    println!("{}", report.position);
    for (c, v) in d.values.iter().enumerate() {
        match v {
            Some(v) => println!(
                "column {}: {v:>14.1}{}",
                c + 1,
                if c == d.best { "  <- best" } else { "" }
            ),
            None => println!("column {}: full", c + 1),
        }
    }
    println!("after: {}", report.after);
    println!("depth {} ({}): {} moves searched in {:.3} s", rd.depth, rule, stats.moves, seconds);
    Ok(())
}

// ---------------------------------------------------------------------------------------
// replay

fn replay(a: ReplayArgs) -> CliResult {
    let text = read_input(&a.file)?;
    let name = a.file.display().to_string();
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        CliError::input(format!("{name}:{}:{}: not JSON: {e}", e.line(), e.column()))
    })?;
    let records: Vec<GameRecord> = if value.is_array() {
        serde_json::from_value(value)
    } else {
        serde_json::from_value(value).map(|r| vec![r])
    }
    .map_err(|e| CliError::input(format!("{name}: not a drop7 game record: {e}")))?;
    let mut out = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let end =
            verify(r).map_err(|e| CliError::failed(format!("{name}: game {}: {e}", i + 1)))?;
        out.push(serde_json::json!({"game": i + 1, "turns": r.turns.len(), "score": end.score, "over": end.over}));
    }
    if a.json.json {
        return print_json(&serde_json::json!({"file": name, "ok": true, "games": out}));
    }
    for o in &out {
        println!("game {}: ok, {} turns, score {}", o["game"], o["turns"], o["score"]);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// sweep

fn sweep(a: SweepArgs) -> CliResult {
    use rayon::prelude::*;
    let rules = Rules::new(parse_mode(&a.mode)?);
    let bar = progress(a.games, "drop7 sweep");
    let start = Instant::now();
    let eval = Crowding::default();
    let results: Vec<Result<u32, String>> = a.threads.install(|| {
        (0..a.games)
            .into_par_iter()
            .map(|i| {
                let r = compare_random_game(
                    &rules,
                    bits::rng::sub_seed(a.seed.seed, i),
                    a.max_moves,
                    &eval,
                );
                bar.inc(1);
                r
            })
            .collect()
    })?;
    bar.finish_and_clear();
    let mut turns = 0u64;
    for r in results {
        turns += u64::from(
            r.map_err(|e| CliError::failed(format!("engine and reference differ: {e}")))?,
        );
    }
    let secs = start.elapsed().as_secs_f64();
    if a.json.json {
        return print_json(&serde_json::json!({
            "mode": a.mode, "games": a.games, "turns": turns, "identical": true, "seconds": secs
        }));
    }
    println!("{} games, {turns} turns: engine and reference identical ({secs:.1} s)", a.games);
    Ok(())
}

// ---------------------------------------------------------------------------------------
// ab

fn ab(a: AbArgs) -> CliResult {
    let ea = EvalChoice::parse("--a", &a.a)?;
    let eb = EvalChoice::parse("--b", &a.b)?;
    let mut oa = a.search.clone();
    oa.reveal_samples = a.a_reveal_samples.clone().unwrap_or(oa.reveal_samples);
    oa.reveals = a.a_reveals.clone().unwrap_or(oa.reveals);
    let mut ob = a.search.clone();
    ob.reveal_samples = a.b_reveal_samples.clone().unwrap_or(ob.reveal_samples);
    ob.reveals = a.b_reveals.clone().unwrap_or(ob.reveals);
    // One depth rule for both sides: a fixed depth, or one budget.
    let rule = a.search.rule()?;
    let (ab_depth, ab_rule) = match rule {
        DepthRule::Fixed(d) => (Some(d), None),
        DepthRule::Budget { .. } => (None, Some(rule)),
    };
    let (ga, _) = run_batch(&oa, &ea, a.seed.seed, 0, a.games, a.max_moves, &a.threads, "A")?;
    let (gb, _) = run_batch(&ob, &eb, a.seed.seed, 0, a.games, a.max_moves, &a.threads, "B")?;
    let sa: Vec<u64> = ga.iter().map(|g| g.0.score).collect();
    let sb: Vec<u64> = gb.iter().map(|g| g.0.score).collect();
    let diffs: Vec<f64> = sa.iter().zip(&sb).map(|(&x, &y)| x as f64 - y as f64).collect();
    let n = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / n;
    let sd = (diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    let se = sd / n.sqrt();
    let t = if se > 0.0 { mean / se } else { 0.0 };
    let p = 2.0 * normal_tail(t.abs());
    let wins = diffs.iter().filter(|&&d| d > 0.0).count();
    let losses = diffs.iter().filter(|&&d| d < 0.0).count();
    let half = t95(n - 1.0) * se;
    let report = serde_json::json!({
        "a": ea.label(), "b": eb.label(), "games": a.games, "depth": ab_depth, "rule": ab_rule,
        "a_reveal_samples": oa.reveal_samples, "b_reveal_samples": ob.reveal_samples,
        "a_reveals": oa.reveals, "b_reveals": ob.reveals,
        "a_summary": summary(&sa), "b_summary": summary(&sb),
        "mean_difference": mean, "difference_ci95": [mean - half, mean + half],
        "paired_t": t, "p_two_sided_normal_approx": p, "a_wins": wins, "b_wins": losses,
    });
    if a.json.json {
        return print_json(&report);
    }
    let (x, y) = (summary(&sa), summary(&sb));
    println!(
        "A {} (reveals {}, samples {}): mean {:.0}, median {:.0}, best {}",
        ea.label(),
        oa.reveals,
        oa.reveal_samples,
        x.mean,
        x.median,
        x.best
    );
    println!(
        "B {} (reveals {}, samples {}): mean {:.0}, median {:.0}, best {}",
        eb.label(),
        ob.reveals,
        ob.reveal_samples,
        y.mean,
        y.median,
        y.best
    );
    println!(
        "A - B over {} paired games: {mean:.0} (95% CI {:.0}..{:.0}), paired t = {t:.2}, p = {p:.4}; A better in {wins}, B in {losses}",
        a.games,
        mean - half,
        mean + half
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------
// bench

fn random_games_fast(rules: &Rules, seed: u64, games: u64) -> u64 {
    drop7::engine::random_policy_games(rules, seed, games)
}

fn random_games_reference(rules: &Rules, seed: u64, games: u64) -> u64 {
    let mut moves = 0u64;
    for i in 0..games {
        let s = bits::rng::sub_seed(seed, i);
        let mut draws = RandomDraws::new(rules, s);
        let mut g = RefGame::from_position(&Position::new_game(rules, &mut draws));
        let mut policy = bits::Rng::new(bits::rng::sub_seed(s, 1));
        while !g.over {
            let open: u64 = (0..7).filter(|&c| g.grid[6][c] == 0).fold(0, |m, c| m | 1 << c);
            let k = policy.below(u64::from(open.count_ones())) as u32;
            let col = bits::iter::select_u64(open, k).unwrap_or(0) as usize;
            g.play(rules, col, &mut draws);
            moves += 1;
        }
    }
    moves
}

/// CPU time of the calling thread in nanoseconds (Linux `/proc/thread-self/schedstat`), so
/// throughput per core can be measured on a machine shared with other work.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Wall seconds and, when available, CPU seconds of `f`.
/// Every board of `games` random-policy games, at rest and with the next disc dropped (the
/// boards the popper search sees first).
fn popper_boards(rules: &Rules, seed: u64, games: u64) -> Vec<[u32; 7]> {
    let mut out = Vec::new();
    for i in 0..games {
        let s = bits::rng::sub_seed(seed, i);
        let mut draws = RandomDraws::new(rules, s);
        let mut pos = Position::new_game(rules, &mut draws);
        let mut policy = bits::Rng::new(bits::rng::sub_seed(s, 1));
        while !pos.over {
            let open = pos.board.open_columns();
            let k = policy.below(u64::from(open.count_ones())) as u32;
            let col = bits::iter::select_u64(u64::from(open), k).unwrap_or(0) as usize;
            let mut dropped = pos.board;
            dropped.drop_code(col, pos.next.code());
            out.push(*pos.board.cols());
            out.push(*dropped.cols());
            pos.play_unchecked(rules, col, &mut draws);
        }
    }
    out
}

/// Sums every popper word over `boards` (so nothing is optimised away).
fn popper_pass(boards: &[[u32; 7]], f: fn(&[u32; 7]) -> [u32; 7]) -> u64 {
    let mut acc = 0u64;
    for b in boards {
        let p = f(std::hint::black_box(b));
        acc = acc.wrapping_add(p.iter().map(|&w| u64::from(w)).sum::<u64>());
    }
    acc
}

fn timed<R>(f: impl FnOnce() -> R) -> (R, f64, Option<f64>) {
    let c0 = thread_cpu_ns();
    let t = Instant::now();
    let r = f();
    let wall = t.elapsed().as_secs_f64();
    let cpu = match (c0, thread_cpu_ns()) {
        (Some(a), Some(b)) if b > a => Some((b - a) as f64 * 1e-9),
        _ => None,
    };
    (r, wall, cpu)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Positions from real games: depth-2 searched Hardcore games, every 7th position.
fn harvest(seed: u64, n: usize) -> Vec<Position> {
    let rules = Rules::new(Mode::Hardcore);
    let mut s = Searcher::new(rules, ChanceModel::Exact, Crowding::default(), Direct::new(14));
    let mut out = Vec::new();
    let mut g = 0;
    while out.len() < n {
        let mut draws = RandomDraws::new(&rules, bits::rng::sub_seed(seed ^ 0xBE7C, g));
        let mut pos = Position::new_game(&rules, &mut draws);
        let mut k = 0;
        while !pos.over && out.len() < n {
            if k % 7 == 3 {
                out.push(pos);
            }
            let d = s.decide(&pos, 2);
            pos.play_unchecked(&rules, d.best, &mut draws);
            k += 1;
        }
        g += 1;
    }
    out
}

struct TimeJob<'a> {
    rules: Rules,
    positions: &'a [Position],
    depth: u32,
}

impl Job for TimeJob<'_> {
    /// (seconds, stats, every decision's values as bits)
    type Out = (f64, Stats, Vec<[Option<u64>; 7]>);
    fn run<E, T>(self, eval: E, make_table: impl Fn() -> T + Sync) -> Self::Out
    where
        E: Evaluator + Clone + Send,
        T: Table + Send,
    {
        let mut stats = Stats::default();
        let mut values = Vec::new();
        let start = Instant::now();
        for p in self.positions {
            // A fresh table per decision: the figure is the work one decision saves.
            let mut s = Searcher::new(self.rules, ChanceModel::Exact, eval.clone(), make_table());
            let d = s.decide(p, self.depth);
            values.push(d.values.map(|v| v.map(f64::to_bits)));
            stats += s.stats;
        }
        (start.elapsed().as_secs_f64(), stats, values)
    }
}

#[derive(Serialize)]
struct EngineBench {
    games: u64,
    moves_fast: u64,
    moves_reference: u64,
    fast_moves_per_second: f64,
    reference_moves_per_second: f64,
    /// Moves per second of thread CPU time (per core, unaffected by other load).
    fast_moves_per_cpu_second: Option<f64>,
    /// The reference's moves per second of thread CPU time.
    reference_moves_per_cpu_second: Option<f64>,
    /// Reference time / fast time (CPU time when available), median over runs.
    ratio_median: f64,
    /// Boards the two popper searches were timed on.
    popper_boards: usize,
    /// ns per call of the SWAR prefix scan (`engine::poppers`), median over runs.
    popper_swar_ns: f64,
    /// ns per call of the run-length table (`engine::poppers_table`), median over runs.
    popper_table_ns: f64,
    /// table time / SWAR time, median of the per-run ratios.
    popper_table_over_swar: f64,
}

#[derive(Serialize)]
struct DecisionBench {
    depth: u32,
    table: &'static str,
    positions: usize,
    ms_per_decision_median: f64,
    moves_per_decision: f64,
    /// Moves + leaf evaluations + chance nodes.
    nodes_per_decision: f64,
    work_removed_vs_none: f64,
    nodes_removed_vs_none: f64,
    probes: u64,
    hits: u64,
    node_hit_rate: f64,
    speedup_vs_none_median: f64,
    values_identical_to_none: bool,
}

fn bench(a: BenchArgs) -> CliResult {
    let depths: Vec<u32> = a
        .depths
        .split(',')
        .map(|d| d.trim().parse::<u32>().ok().filter(|d| (1..=6).contains(d)))
        .collect::<Option<_>>()
        .ok_or_else(|| CliError::input(format!("--depths {:?}: a list of depths 1-6", a.depths)))?;
    if a.games == 0 || a.positions == 0 {
        return Err(CliError::input("--games and --positions must be at least 1"));
    }
    let rules = Rules::new(Mode::Hardcore);
    // Engine throughput, fast and reference in the same run, alternating.
    let (mut fast, mut refr, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    let (mut fast_cpu, mut ref_cpu) = (Vec::new(), Vec::new());
    let (mut mf, mut mr) = (0, 0);
    for run in 0..a.runs {
        let seed = a.seed.seed.wrapping_add(u64::from(run));
        let (m, tf, cf) = timed(|| std::hint::black_box(random_games_fast(&rules, seed, a.games)));
        mf = m;
        let (m, tr, cr) =
            timed(|| std::hint::black_box(random_games_reference(&rules, seed, a.games)));
        mr = m;
        if mf != mr {
            return Err(CliError::failed("engine and reference played different games"));
        }
        fast.push(mf as f64 / tf);
        refr.push(mr as f64 / tr);
        if let (Some(cf), Some(cr)) = (cf, cr) {
            fast_cpu.push(mf as f64 / cf);
            ref_cpu.push(mr as f64 / cr);
            ratios.push(cr / cf);
        } else {
            ratios.push(tr / tf);
        }
    }
    // The two popper searches on the same boards, alternately, 20 passes per run.
    let boards = popper_boards(&rules, a.seed.seed, a.games.min(2_000));
    let (mut swar_ns, mut table_ns, mut pop_ratio) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..a.runs {
        let calls = (20 * boards.len()) as f64;
        let (x, tw, cw) = timed(|| (0..20).map(|_| popper_pass(&boards, poppers)).sum::<u64>());
        let (y, tt, ct) =
            timed(|| (0..20).map(|_| popper_pass(&boards, poppers_table)).sum::<u64>());
        if x != y {
            return Err(CliError::failed("the two popper searches disagree"));
        }
        let (sw, st) = (cw.unwrap_or(tw), ct.unwrap_or(tt));
        swar_ns.push(sw * 1e9 / calls);
        table_ns.push(st * 1e9 / calls);
        pop_ratio.push(st / sw);
    }
    let engine = EngineBench {
        popper_boards: boards.len(),
        popper_swar_ns: median(&mut swar_ns),
        popper_table_ns: median(&mut table_ns),
        popper_table_over_swar: median(&mut pop_ratio),
        games: a.games,
        moves_fast: mf,
        moves_reference: mr,
        fast_moves_per_second: median(&mut fast),
        reference_moves_per_second: median(&mut refr),
        fast_moves_per_cpu_second: (!fast_cpu.is_empty()).then(|| median(&mut fast_cpu)),
        reference_moves_per_cpu_second: (!ref_cpu.is_empty()).then(|| median(&mut ref_cpu)),
        ratio_median: median(&mut ratios),
    };
    // Decisions on harvested positions.
    let positions = harvest(a.seed.seed, a.positions);
    let mut decisions = Vec::new();
    let eval = EvalChoice::parse("--eval", &a.eval)?;
    let nodes = |s: &Stats| (s.moves + s.leaves + s.chance_nodes) as f64;
    for &depth in &depths {
        let tables = [TableChoice::None, TableChoice::Direct, TableChoice::Two, TableChoice::Four];
        let mut times: Vec<Vec<f64>> = vec![Vec::new(); 4];
        let mut stats = [Stats::default(); 4];
        let mut values: Vec<Vec<[Option<u64>; 7]>> = vec![Vec::new(); 4];
        let mut speedups: Vec<Vec<f64>> = vec![Vec::new(); 4];
        for _ in 0..a.runs {
            let mut none_t = 0.0;
            for (i, &t) in tables.iter().enumerate() {
                let (secs, s, v) = dispatch(
                    &eval,
                    t,
                    a.table_bits,
                    TimeJob { rules, positions: &positions, depth },
                );
                if i == 0 {
                    none_t = secs;
                }
                times[i].push(secs);
                speedups[i].push(none_t / secs);
                stats[i] = s;
                values[i] = v;
            }
        }
        for (i, &t) in tables.iter().enumerate() {
            let s = stats[i];
            decisions.push(DecisionBench {
                depth,
                table: t.name(),
                positions: positions.len(),
                ms_per_decision_median: median(&mut times[i]) * 1e3 / positions.len() as f64,
                moves_per_decision: s.moves as f64 / positions.len() as f64,
                nodes_per_decision: nodes(&s) / positions.len() as f64,
                work_removed_vs_none: 1.0 - s.moves as f64 / stats[0].moves as f64,
                nodes_removed_vs_none: 1.0 - nodes(&s) / nodes(&stats[0]),
                probes: s.probes,
                hits: s.hits,
                node_hit_rate: if s.probes > 0 { s.hits as f64 / s.probes as f64 } else { 0.0 },
                speedup_vs_none_median: median(&mut speedups[i]),
                values_identical_to_none: values[i] == values[0],
            });
        }
    }
    let ok = decisions.iter().all(|d| d.values_identical_to_none);
    if a.json.json {
        print_json(
            &serde_json::json!({"engine": engine, "decisions": decisions, "runs": a.runs, "seed": a.seed.seed}),
        )?;
    } else {
        println!(
            "engine (Hardcore, random policy, {} games x {} runs, one thread):",
            a.games, a.runs
        );
        println!(
            "  wall: fast {:.2} M moves/s, reference {:.2} M moves/s",
            engine.fast_moves_per_second / 1e6,
            engine.reference_moves_per_second / 1e6,
        );
        if let (Some(f), Some(r)) =
            (engine.fast_moves_per_cpu_second, engine.reference_moves_per_cpu_second)
        {
            println!(
                "  per CPU second: fast {:.2} M moves/s, reference {:.2} M moves/s",
                f / 1e6,
                r / 1e6
            );
        }
        println!("  ratio {:.1}x (median of per-run ratios)", engine.ratio_median);
        println!(
            "poppers on {} boards (CPU time, medians): SWAR scan {:.2} ns, run-length table {:.2} ns, table/SWAR {:.2}",
            engine.popper_boards,
            engine.popper_swar_ns,
            engine.popper_table_ns,
            engine.popper_table_over_swar
        );
        println!(
            "decisions on {} harvested positions (all 7 values at chance nodes, eval {}):",
            positions.len(),
            eval.label()
        );
        println!("  depth table    ms/decision  moves/decision  nodes/decision  nodes removed  hit rate  speedup  same values");
        for d in &decisions {
            println!(
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
            );
        }
    }
    if !ok {
        return Err(CliError::failed("a table changed a decision value"));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// fit

struct HarvestJob<'a> {
    spec: BatchSpec,
    /// (every, depth, horizon) of sibling rollouts, if any.
    rollouts: Option<(u32, u32, u32)>,
    bar: &'a indicatif::ProgressBar,
}

/// What a harvest gives: boards of the games, or groups of sibling rollouts.
enum Harvest {
    Games(Vec<drop7::search::fit::GameBoards>),
    Groups(Vec<drop7::search::fit::Group>),
}

impl Job for HarvestJob<'_> {
    type Out = Harvest;
    fn run<E, T>(self, eval: E, make_table: impl Fn() -> T + Sync) -> Self::Out
    where
        E: Evaluator + Clone + Send,
        T: Table + Send,
    {
        use rayon::prelude::*;
        // One game per call, so the bar moves; still in game order for any thread count.
        let one = |i: u64| BatchSpec { first: self.spec.first + i, games: 1, ..self.spec };
        if let Some((every, depth, horizon)) = self.rollouts {
            let groups: Vec<Vec<drop7::search::fit::Group>> = (0..self.spec.games)
                .into_par_iter()
                .map(|i| {
                    let out = drop7::search::fit::rollouts(
                        &one(i),
                        &eval,
                        &make_table,
                        every,
                        depth,
                        horizon,
                    );
                    self.bar.inc(1);
                    out
                })
                .collect();
            return Harvest::Groups(groups.into_iter().flatten().collect());
        }
        let games: Vec<Vec<drop7::search::fit::GameBoards>> = (0..self.spec.games)
            .into_par_iter()
            .map(|i| {
                let out = drop7::search::fit::harvest(&one(i), &eval, &make_table);
                self.bar.inc(1);
                out
            })
            .collect();
        Harvest::Games(games.into_iter().flatten().collect())
    }
}

fn parse_target(s: &str) -> CliResult<drop7::search::fit::Target> {
    use drop7::search::fit::Target;
    let bad = || {
        CliError::input(format!(
            "--target {s:?}: use end, discount:G (0 < G <= 1) or horizon:K (K >= 1)"
        ))
    };
    match s.split_once(':') {
        None if s == "end" => Ok(Target::ToEnd),
        Some(("discount", g)) => {
            let g: f64 = g.trim().parse().map_err(|_| bad())?;
            if g > 0.0 && g <= 1.0 {
                Ok(Target::Discount(g))
            } else {
                Err(bad())
            }
        }
        Some(("horizon", k)) => {
            let k: u32 = k.trim().parse().map_err(|_| bad())?;
            if k >= 1 {
                Ok(Target::Horizon(k))
            } else {
                Err(bad())
            }
        }
        _ => Err(bad()),
    }
}

/// The weights file of one target: `--out` itself for one target, else `--out` with
/// `.TARGET` (`:` as `-`) before its extension.
fn out_path(out: &std::path::Path, target: &str, several: bool) -> PathBuf {
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
    use drop7::search::eval::FEATURE_NAMES;
    use drop7::search::fit::{group_samples, r_squared, ridge, samples, Sample};
    let eval = EvalChoice::parse("--eval", &a.search.eval)?;
    let names: Vec<&str> = a.target.split(',').map(str::trim).collect();
    let targets: Vec<_> = names.iter().map(|t| parse_target(t)).collect::<CliResult<_>>()?;
    let ridges: Vec<f64> = a
        .ridge
        .split(',')
        .map(|x| x.trim().parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0))
        .collect::<Option<_>>()
        .ok_or_else(|| {
            CliError::input(format!(
                "--ridge {:?}: expected numbers >= 0, comma-separated",
                a.ridge
            ))
        })?;
    if ridges.len() != 1 && ridges.len() != targets.len() {
        return Err(CliError::input("--ridge: give one penalty, or one per --target"));
    }
    let o = &a.search;
    if o.budget.is_some() {
        return Err(CliError::input("--budget is for play, ab and decide, not fit: use --depth"));
    }
    let rules = rules_of(o)?;
    let table = TableChoice::parse(&o.table)?;
    let spec = BatchSpec {
        rules,
        chance: chance_of(o),
        seed: a.seed.seed,
        first: 0,
        games: a.games,
        depth: DepthRule::Fixed(o.depth),
        max_moves: a.max_moves,
        record: false,
        death: o.death,
        reveal_samples: 1,
        reveal_by_depth: o.reveal_by_depth()?,
        paired_reveals: o.reveals == "paired",
        chance_schedule: chance_schedule_of(o)?,
    };
    let bar = progress(a.games, "harvest");
    let start = Instant::now();
    let rollouts = (a.rollouts > 0).then_some((a.rollouts, a.rollout_depth, a.horizon));
    let job = HarvestJob { spec, rollouts, bar: &bar };
    let harvest = a.threads.install(|| dispatch(&eval, table, o.table_bits, job))?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let mut reports = Vec::new();
    for (k, (&target, name)) in targets.iter().zip(&names).enumerate() {
        let lambda = ridges[k.min(ridges.len() - 1)];
        let samples = match &harvest {
            Harvest::Games(games) => samples(games, target),
            Harvest::Groups(groups) => group_samples(groups, target),
        };
        let none = || CliError::failed("the regression has no solution (too few samples?)");
        let fitted = ridge(&samples, lambda).ok_or_else(none)?;
        let r2 = r_squared(&fitted, &samples);
        // Two folds by game parity: fit on one half of the games, score on the other.
        let (even, odd): (Vec<Sample>, Vec<Sample>) = samples.iter().partition(|s| s.game % 2 == 0);
        let held_out = match (ridge(&even, lambda), ridge(&odd, lambda)) {
            (Some(fe), Some(fo)) => Some((r_squared(&fe, &odd) + r_squared(&fo, &even)) / 2.0),
            _ => None,
        };
        let n = samples.len().max(1) as f64;
        let mean_target = samples.iter().map(|s| s.target).sum::<f64>() / n;
        let mut text = format!(
            "# drop7 fit: --eval {} --depth {} --reveals {} --games {} --seed {} --target {name} --ridge {lambda}{}\n",
            eval.label(),
            o.depth,
            reveals_label(o),
            a.games,
            a.seed.seed,
            rollouts.map_or(String::new(), |(k, d, h)| format!(
                " --rollouts {k} --rollout-depth {d} --horizon {h}"
            )),
        );
        text.push_str(&format!(
            "# {} boards, mean target {mean_target:.0}, R^2 {r2:.4}, held out (2 folds by game) {}\n",
            samples.len(),
            held_out.map_or("-".into(), |x| format!("{x:.4}"))
        ));
        for (f, w) in FEATURE_NAMES.iter().zip(&fitted.weights) {
            text.push_str(&format!("{f} {w}\n"));
        }
        if let Some(out) = &a.out {
            let path = out_path(out, name, targets.len() > 1);
            std::fs::write(&path, &text)
                .map_err(|e| CliError::failed(format!("cannot write {}: {e}", path.display())))?;
        }
        let weights: serde_json::Map<String, serde_json::Value> = FEATURE_NAMES
            .iter()
            .zip(&fitted.weights)
            .map(|(n, w)| ((*n).to_string(), serde_json::json!(w)))
            .collect();
        reports.push((
            text,
            serde_json::json!({
                "target": name, "ridge": lambda, "samples": samples.len(),
                "mean_target": mean_target, "r_squared": r2, "r_squared_held_out": held_out,
                "weights": weights, "weight_list": fitted.weights.to_vec(),
            }),
        ));
    }
    if a.json.json {
        let fits: Vec<_> = reports.into_iter().map(|r| r.1).collect();
        return print_json(&serde_json::json!({
            "policy": eval.label(), "depth": o.depth, "reveals": reveals_label(o),
            "games": a.games, "seed": a.seed.seed, "seconds": secs, "fits": fits,
        }));
    }
    for (text, _) in reports {
        print!("{text}");
    }
    println!("harvest: {} games in {secs:.1} s", a.games);
    Ok(())
}

// ---------------------------------------------------------------------------------------
// train

#[derive(Args, Debug)]
struct TrainArgs {
    /// Training games to play in this run (game i of the file's history uses the stream
    /// `sub_seed(S, i)`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Step size per weight (each update adds `alpha * error` to the 15 weights read; with
    /// --method tc, the step at full coherence).
    #[arg(long, default_value_t = 0.005)]
    alpha: f32,
    /// The learning rule. td: TD(0), each weight a value reads moves by alpha * error. tc:
    /// temporal coherence (Beal & Smith 1999; Jaskowski 2016): weight i moves by
    /// alpha * |E_i| / A_i * error, E_i and A_i the sum and the sum of absolute values of the
    /// errors it has seen (rate 1 before the first), so the steps shrink by themselves where
    /// the errors cancel. TC keeps E and A (twice the network's memory) in FILE.tc beside each
    /// weight file it writes; --from F with tc continues from F and F.tc, exactly as one run.
    #[arg(long, value_enum, default_value_t = LearnMethod::Td)]
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
    /// with ` blocks=2x3` for the 2x3 block tables (72 MB more). With --from: omitted, or the
    /// file's shape, or the file's shape plus ` blocks=2x3` (the block tables added at 0).
    #[arg(long)]
    shape: Option<String>,
    /// Write --out every N games as well as at the end (0: only at the end).
    #[arg(long, default_value_t = 0, value_name = "N")]
    checkpoint_every: u64,
    /// Stop after the game running when this many seconds have passed (the file records
    /// the games actually played; a run stopped by the clock is not reproducible by
    /// --games alone, but is by `--games <recorded count>`).
    #[arg(long, value_name = "S")]
    max_seconds: Option<f64>,
    /// Print a progress line every N games (mean score of those N games, games/s, moves/s).
    #[arg(long, default_value_t = 1000, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    report_every: u64,
    /// The behaviour policy's depth: 1 = greedy on `points + V(afterstate)`; D > 1 = the fair
    /// expectimax D moves deep over the current network (paired reveals, all 7 disc values,
    /// as `play --depth D --reveals paired`), so training sees the states a searcher reaches.
    /// Not recorded in the file: a run continued `--from` it should name the same depth.
    #[arg(long, default_value_t = 1, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=3))]
    policy_depth: u32,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    json: JsonArg,
}

/// The --shape argument, if given.
fn parse_shape(text: Option<&str>) -> CliResult<Option<ntuple::Shape>> {
    text.map(|t| t.parse().map_err(|e| CliError::input(format!("--shape {t:?}: {e}")))).transpose()
}

/// Reads and checks a weight file; errors name the flag and the file (exit 2).
fn read_net(flag: &str, path: &Path) -> CliResult<(NTuple, Meta)> {
    let bytes = std::fs::read(path)
        .map_err(|e| CliError::input(format!("{flag}: cannot read {}: {e}", path.display())))?;
    ntuple::decode(&bytes).map_err(|e| CliError::input(format!("{flag} {}: {e}", path.display())))
}

fn write_net(path: &Path, net: &NTuple, meta: &Meta) -> CliResult {
    write_file_atomic(path, &ntuple::encode(net, meta))
}

/// Writes the TC accumulators of `net` after `games` games beside weight file `path`.
fn save_coherence(path: &Path, acc: &ntuple::Coherence, games: u64, net: &NTuple) -> CliResult {
    write_file_atomic(
        &coherence_path(path),
        &ntuple::encode_coherence(acc, games, net.fingerprint()),
    )
}

/// Reads the TC accumulators beside weight file `path` for `net` after `games` games.
fn load_coherence(path: &Path, net: &NTuple, games: u64) -> CliResult<ntuple::Coherence> {
    let path = coherence_path(path);
    let bytes = std::fs::read(&path).map_err(|e| {
        CliError::input(format!(
            "{}: cannot read: {e} (--method tc continues from the weights and their accumulators)",
            path.display()
        ))
    })?;
    ntuple::decode_coherence(&bytes, net, games)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))
}

#[derive(Serialize)]
struct TrainWindow {
    /// Games in the file when the window ended.
    games: u64,
    mean_score: f64,
    mean_moves: f64,
}

fn train(a: TrainArgs) -> CliResult {
    if !(a.alpha.is_finite() && a.alpha > 0.0) {
        return Err(CliError::input(format!("--alpha {}: must be a positive number", a.alpha)));
    }
    let tc = a.method == LearnMethod::Tc;
    if tc && a.policy_depth > 1 {
        return Err(CliError::input("--method tc trains with --policy-depth 1 only"));
    }
    let rules = Rules::new(Mode::Hardcore);
    let (mut net, first) = match &a.from {
        Some(path) => {
            let (net, meta) = read_net("--from", path)?;
            if meta.seed != a.seed.seed {
                return Err(CliError::input(format!(
                    "--from {}: trained with seed {}; continue it with --seed {}",
                    path.display(),
                    meta.seed,
                    meta.seed
                )));
            }
            match parse_shape(a.shape.as_deref())? {
                Some(shape) if shape != *net.shape() => {
                    let Some(ext) = net.extended(shape) else {
                        return Err(CliError::input(format!(
                            "--shape {:?}: --from {} has shape {:?}; give that shape or it plus blocks=2x3",
                            a.shape.as_deref().unwrap_or_default(),
                            path.display(),
                            net.shape().to_string()
                        )));
                    };
                    if tc {
                        return Err(CliError::input(
                            "--method tc cannot add block tables to a file (its accumulators \
                             would not match); add them with --method td",
                        ));
                    }
                    (ext, meta.games)
                }
                _ => (net, meta.games),
            }
        }
        None => {
            (NTuple::new(parse_shape(a.shape.as_deref())?.unwrap_or(ntuple::Shape::standard())), 0)
        }
    };
    let mut acc = match (&a.from, tc) {
        (Some(p), true) => Some(load_coherence(p, &net, first)?),
        (None, true) => Some(ntuple::Coherence::new(net.shape())),
        (Some(p), false) => {
            if coherence_path(p).exists() {
                eprintln!(
                    "note: {} (TC accumulators) is not used by --method td",
                    coherence_path(p).display()
                );
            }
            None
        }
        (None, false) => None,
    };
    let start = Instant::now();
    let mut played = 0u64;
    let mut moves = 0u64;
    let (mut win_score, mut win_moves, mut win_games) = (0u64, 0u64, 0u64);
    let mut win_start = Instant::now();
    let mut windows = Vec::new();
    let meta = |played: u64| Meta { games: first + played, seed: a.seed.seed, alpha: a.alpha };
    while played < a.games {
        if a.max_seconds.is_some_and(|s| start.elapsed().as_secs_f64() >= s) {
            break;
        }
        let seed = bits::rng::sub_seed(a.seed.seed, first + played);
        let g = match &mut acc {
            Some(acc) => ntuple::train_game_tc(&mut net, acc, &rules, seed, a.alpha),
            None => ntuple::train_game_searched(&mut net, &rules, seed, a.alpha, a.policy_depth),
        };
        played += 1;
        moves += g.moves;
        win_score += g.score;
        win_moves += g.moves;
        win_games += 1;
        if win_games == a.report_every || played == a.games {
            let secs = win_start.elapsed().as_secs_f64().max(1e-9);
            let w = TrainWindow {
                games: first + played,
                mean_score: win_score as f64 / win_games as f64,
                mean_moves: win_moves as f64 / win_games as f64,
            };
            eprintln!(
                "train: {} games, last {} mean score {:.0} ({:.0} moves), {:.0} games/s, {:.0} moves/s",
                w.games,
                win_games,
                w.mean_score,
                w.mean_moves,
                win_games as f64 / secs,
                win_moves as f64 / secs
            );
            windows.push(w);
            (win_score, win_moves, win_games) = (0, 0, 0);
            win_start = Instant::now();
        }
        if a.checkpoint_every > 0 && played % a.checkpoint_every == 0 && played < a.games {
            write_net(&a.out, &net, &meta(played))?;
            if let Some(acc) = &acc {
                save_coherence(&a.out, acc, first + played, &net)?;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    write_net(&a.out, &net, &meta(played))?;
    if let Some(acc) = &acc {
        save_coherence(&a.out, acc, first + played, &net)?;
    }
    let report = serde_json::json!({
        "out": a.out.display().to_string(), "shape": net.shape().to_string(),
        "games_this_run": played, "games_total": first + played, "seed": a.seed.seed,
        "alpha": a.alpha, "method": a.method, "policy_depth": a.policy_depth, "moves": moves, "seconds": secs,
        "moves_per_second": moves as f64 / secs.max(1e-9), "fingerprint": format!("{:016x}", net.fingerprint()),
        "windows": windows,
    });
    if a.json.json {
        return print_json(&report);
    }
    println!(
        "trained {played} games ({} in all, seed {}, {} alpha {}) in {secs:.1} s: {moves} moves, {:.0} moves/s; wrote {} ({})",
        first + played,
        a.seed.seed,
        if tc { "tc" } else { "td" },
        a.alpha,
        moves as f64 / secs.max(1e-9),
        a.out.display(),
        net.shape()
    );
    Ok(())
}
