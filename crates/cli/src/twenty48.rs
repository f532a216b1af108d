//! `bitarcade 2048 ...`: play batches with the expectimax player, benchmark the engine
//! against the reference engine, tune the heuristic, and replay game records.
//!
//! The verbs themselves are `twenty48::api`'s; this file turns the flags into requests,
//! reads and writes the files, and prints the responses.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bits::job::{Control, Shard};
use clap::{Args, Subcommand};
use serde::Serialize;
use twenty48::api::{
    self, BenchRequest, BoardsSpec, PlayRequest, SearchSpec, StartsRequest, TablesRequest,
    TrainEvent, TrainFiles, TrainRequest, TuneGeneration, TuneRequest,
};
use twenty48::GameRecord;

use bits::job::InputFile;

use crate::common::{
    clap_range, coherence_path, follow, input_file, print_json, print_or_json, progress,
    read_bytes, read_input, read_json_file, write_file_atomic, write_records, write_stream_atomic,
    CliError, CliResult, JsonArg, LearnMethod, RecordArg, SeedArg, ThreadsArg, WithOut,
};

/// Commands for 2048.
#[derive(Args, Debug)]
pub struct Twenty48Args {
    #[command(subcommand)]
    command: Twenty48Command,
}

#[derive(Subcommand, Debug)]
enum Twenty48Command {
    /// Play games with the expectimax player and print the table the field reports.
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 play --games 4 --depth 2\n  \
        bitarcade 2048 play --games 100 --seed 7 --threads 2 --json\n  \
        bitarcade 2048 play --games 1 --seed 3 --depth 3 --record game.json\n  \
        bitarcade 2048 play --games 10 --time-per-move 50\n  \
        bitarcade 2048 play --games 20 --budget 200000   (deterministic)\n  \
        bitarcade 2048 play --games 2 --depth-offset 1   (nneonneo/2048-ai's depth rule)\n  \
        bitarcade 2048 play --games 1000 --seed 2048 --ntuple net.b48 --depth 1   (greedy on the network)\n  \
        bitarcade 2048 play --games 100 --ntuple net.b48 --depth 2\n  \
        bitarcade 2048 play --games 2 --eval corner --prune-below-pass --depth 3   \
        (macroxue/2048-ai's corner leaf and pruning)\n  \
        bitarcade 2048 play --games 2 --tables L3b-512.b48t,L3b-256.b48t,L3b-128.b48t --boost 2.5 \
        --boost-tile 16384 --boost-tiles 1   (2.5x the search from the first 16384 on)\n  \
        bitarcade 2048 play --seeds 30000..30095 --threads 2 --json   (the standard seeds: \
        game S is the game of --games 1 --seed S)\n\n\
        With --ntuple FILE the leaves are valued by an n-tuple network made by `2048 train` \
        (score built so far + the network's estimate of the score to come) and the default \
        rule is --depth 2 (two move layers); --depth 1 is greedy on reward + value.\n\n\
        Default setting: iterative deepening under a budget of 500,000 nodes per move from 2 \
        layers, probability cutoff 1e-4, nneonneo/2048-ai's published weights (the measured \
        setting of BENCHMARKS.md; --depth-offset 1 --min-depth 4 is nneonneo's own adaptive \
        rule: ~30x the nodes per move, ~20 game moves per second on one core, its 100-game \
        strength being measured in BENCHMARKS.md). Game i uses spawn seed \
        sub_seed(S, i): the games are identical for any --threads (but not with \
        --time-per-move, which follows the clock).")]
    Play(PlayArgs),
    /// Train an n-tuple network by TD(0) or temporal coherence on afterstates: seeded
    /// self-play on one thread.
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 train --games 2000 --out net.b48\n  \
        bitarcade 2048 train --games 1000000 --seed 7 --out /work/t48s7/net.b48 \
        --checkpoint-every 25000 --max-seconds 3000\n  \
        bitarcade 2048 train --games 50000 --from net.b48 --out net2.b48   (continue: same seed \
        and alpha, games numbered on from the file's count)\n  \
        bitarcade 2048 train --games 300 --tuples 0,1,2,3/4,5,6,7 --out tiny.b48 --json\n  \
        bitarcade 2048 train --games 25000 --method tc --out tc.b48   (temporal coherence, \
        beta 1/32; writes tc.b48 and its accumulators tc.b48.tc)\n  \
        bitarcade 2048 train --games 5000 --method tc --from tc.b48 --out tc.b48   (continue: \
        needs tc.b48.tc; the same bytes as one run)\n  \
        bitarcade 2048 train --games 25000 --method tc --init 320000 --out otc.b48   \
        (optimistic start)\n\n\
        Game i (counting from 0 over the whole training, across --from) uses spawn seed \
        sub_seed(S, i) and the documented spawn rule; moves are greedy on reward + V(afterstate), \
        ties to the first of U D L R; the previous afterstate's 32 weights move by \
        alpha * (reward + V(afterstate) - V(previous)), towards 0 at the end of the game \
        (with --method tc, by alpha * |E|/A * that error, per weight). \
        Same arguments, byte-identical weights file. Progress every --report-every games on \
        stderr: mean score and reach rates of the last window, games/s. The default network \
        is four 6-tuples (256 MiB): keep the files outside git and reproduce them from the \
        seed and this command.")]
    Train(TrainArgs),
    /// Collect start boards for a later stage's training: seeded greedy 1-ply games on a
    /// network, each game's first afterstate of the stage.
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 starts --ntuple net-1m.b48 --games 60000 --seed 11 --out starts.txt\n  \
        bitarcade 2048 starts --ntuple net.b48 --games 200 --seed 3 --out s.txt --json\n\n\
        Game i uses spawn seed sub_seed(S, i) (two spawns to open, as train) and plays the \
        greedy move on reward + V; the first afterstate of the stage (stage 2: a tile of 16384 \
        or more; stage 3: a tile of 16384 or more and an 8192) is written, one board per line \
        in the text form, in game order; games that end first write nothing. The same \
        arguments give the same file for any --threads.")]
    Starts(StartsArgs),
    /// Play greedy 1-ply games from start boards (no learning): the held-out measure of a
    /// stage's training.
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 from-starts --starts held-out.txt --ntuple ms.b48 --seed 5\n  \
        bitarcade 2048 from-starts --starts held-out.txt --ntuple net-1m.b48 --json\n\n\
        Game i starts from line i's board (an afterstate: a spawn comes first) with spawn \
        seed sub_seed(S, i); the score counts that game's merges only. Prints the average \
        score with its 95% normal interval and the reach rates of 32768 and 65536 with their \
        Wilson intervals; --json lists every game.")]
    FromStarts(FromStartsArgs),
    /// Time the move generator, random games and search, each beside the reference engine.
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 bench\n  \
        bitarcade 2048 bench --json --random-games 20000\n\n\
        Run it on a release build: cargo run --release -- 2048 bench")]
    Bench(BenchArgs),
    /// Tune the heuristic weights with a seeded evolution strategy ((1+lambda) or gradient).
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 tune --generations 4 --lambda 3 --games 8 --depth 2\n  \
        bitarcade 2048 tune --seed 5 --json\n  \
        bitarcade 2048 tune --generations 30 --lambda 6 --games 32 --depth 2 --seed 2   \
        (the run behind TUNED_DEPTH2)\n  \
        bitarcade 2048 tune --method gradient --budget 32000 --lambda 48 --games 4 \
        --generations 7 --sigma 0.25 --tt-bits 16 --seed 61   (session 6)")]
    Tune(TuneArgs),
    /// Build an endgame table: the exact chance (held in 16 bits) of building a tile in the
    /// cells a formation of locked big tiles leaves free, over every position play reaches.
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 tables --target 512 --out /data/L3b-512.b48t   (the default formation, L3b)\n  \
        bitarcade 2048 tables --formation L3 --target 256 --out l3-256.b48t --verify 1000\n  \
        bitarcade 2048 tables --formation 442 --target 64 --out small.b48t --json\n  \
        bitarcade 2048 tables --target 1024 --out /data/L3b-1024.b48t   (the 65536 stage's \
        last step: 5 minutes, 4.7 GB peak, a 3.5 GB file)\n  \
        bitarcade 2048 tables --formation L5b --target 512 --then /data/L3b-512.b48t \
        --out /data/L5b-512.b48t   (the stage before L3b-512's, eleven cells)\n  \
        bitarcade 2048 tables --formation L5w --target 1024 --count   (size it first: 2.08 G \
        positions, a 12.5 GB file)\n  \
        bitarcade 2048 tables --formation L5w --target 1024 --work-dir /data/work \
        --out /data/L5w-1024.b48t   (the layers on disk while it is built)\n  \
        bitarcade 2048 tables --target 512 --slack 192 --out /data/L3b-512-s192.b48t   (lines \
        may leave 192 in small tiles beside the 512 instead of 96)\n\n\
        Formations: 442 locks the bottom row and the two right cells above it (a snake; the \
        target counts at row 3, column 2, beside the smallest locked tile); L3 locks the 3x2 \
        block of rows 3-4, columns 2-4 (the target counts in any free cell); L3b is the same \
        block with its smallest tile at row 3, column 2 (the target counts only beside it, \
        at row 2, column 2 or row 3, column 1); L5b locks only the block's five largest \
        (eleven cells free, each capped) to build the sixth at row 3, column 2, a won \
        position worth the L3b table's chance from it (--then names that table); L5w locks the same \
        five to build their smallest one's twin at row 3, column 2, the tiles below it free to \
        move throughout (the whole last block tile in one table); L5c is L5b with looser caps \
        (a tile one rank larger allowed in eight of the free cells: macroxue/2048-ai's big \
        tables' caps; needs --then). The locked tiles' \
        values do not matter, so one table serves every stage where the largest tiles stand \
        so. A sample of the last layers is checked against a plain recursion before the file \
        is trusted (in memory before it is written; with --work-dir, from the written file \
        before it takes the --out name). Targets run from 8 to 512, and to 1024 for 442, L3b, \
        L5b, L5c and L5w (their locked stand-ins stay above a 1024). Keep the files outside git: L3b-512 is \
        1.6 GB (see \
        docs/2048.md for sizes and times).")]
    Tables(TablesArgs),
    /// What an endgame table file holds, layer by layer: positions, the share with a chance
    /// above 0, and the best and median chance, by the free tiles' sum.
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 table-info /data/L3b-512.b48t\n  \
        bitarcade 2048 table-info /data/L3b-512.b48t --json | jq '.layers[] | [.sum, .best]'\n\n\
        A layer's best chance says what the stage is worth from any start with that much \
        already built in the free cells (docs/2048.md). The first line ends with the file's \
        checksum, which `play --tables` also names each table by in its setting: two builds \
        of a table are the same file exactly when their checksums agree (an L5b table built \
        today reads its L3b table's 16-bit chances, so it differs slightly from one built \
        before 2026-12-07 and converted). The file is checked as `play \
        --tables` checks it. `play --tables` serves a table from its file (a few MB of memory); \
        with --tables-in-memory it takes about its file's size (half of it for a file from \
        before 2026-12-07).")]
    TableInfo {
        /// The table file (from `2048 tables`).
        file: PathBuf,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Rewrite a table file in the current form (keys as key sets, chances in 16 bits: about
    /// 6 bytes a position), without building it again.
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 table-convert /data/L3b-512.b48t --out /data/L3b-512.v2.b48t\n\n\
        Tables written before 2026-12-07 (B48END01: every key 8 bytes, every chance 4) take 12 \
        bytes a position on disk; `play --tables` still reads them, into 6 bytes a position \
        in memory as it holds any table (its chances in 16 bits). The rewritten file holds the same positions and \
        the chances `play` would hold, in half the space; it is read back and compared before \
        this verb reports.")]
    TableConvert {
        /// The table file to read (either form).
        file: PathBuf,
        /// The file to write.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Check a game record (or a list of them): every move legal, every spawn legal and, when
    /// the record has a seed, equal to the seeded generator's; the final score and board.
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 play --games 1 --depth 2 --record game.json && bitarcade 2048 replay game.json\n  \
        cat game.json | bitarcade 2048 replay -\n  \
        bitarcade 2048 replay g30029.rec.json --boards --from 0.5 --step 97   (the boards of every \
        97th move of the second half)\n\n\
        Checking a build against a record played by another one (session 17, BENCHMARKS.md):\n  \
        bitarcade 2048 replay g.rec.json --boards --from 0.5 --step 97 | while IFS=$'\\t' read -r i b m; do\n    \
        got=$(bitarcade 2048 best \"$b\" --depth-offset 1 --min-depth 4 --json | jq -r .best)\n    \
        [ \"$got\" = \"$m\" ] || echo \"move $i: recorded $m, chose $got\"\n  \
        done\n\
        (`best` searches with a fresh table, as `play` does every move by default, so a move's \
        choice depends only on its board and the search options.)")]
    Replay {
        /// The record file (`-` for stdin).
        file: PathBuf,
        /// Print the board each move was chosen on instead, one line per move:
        /// `index<TAB>board<TAB>move`, the board in the text form `2048 best` reads (to check
        /// a build's decisions against a record played by another).
        #[arg(long)]
        boards: bool,
        /// With --boards: from move F x moves on (F a fraction, default 0).
        #[arg(long, value_name = "F", requires = "boards",
              default_value_t = BoardsSpec::default().from)]
        from: f64,
        /// With --boards: every K-th move (index divisible by K).
        #[arg(long, value_name = "K", requires = "boards",
              default_value_t = BoardsSpec::default().step,
              value_parser = clap::value_parser!(u64).range(BoardsSpec::STEP))]
        step: u64,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Show the expectimax player's choice on a board given in the text form.
    #[command(after_help = "Examples:\n  \
        bitarcade 2048 best '2 . . 4/. . . ./. 8 . ./. . . 2'\n  \
        bitarcade 2048 best '2 4 8 16/. . . ./. . . ./. . . .' --depth 3 --json\n  \
        bitarcade 2048 best '2 4 8 16/. . . ./. . . ./. . . .' --budget 500000 --min-depth 2\n\n\
        The search options are play's (default: a budget of 500,000 nodes, as play).")]
    Best {
        /// The board: four rows separated by `/`, cells `.` or tile values.
        board: String,
        #[command(flatten)]
        search: SearchArgs,
        #[command(flatten)]
        json: JsonArg,
    },
}

#[derive(Args, Debug)]
struct SearchArgs {
    /// Fixed search depth in move layers (default: the node budget rule, --budget 500000).
    #[arg(long, value_parser = clap::value_parser!(u8).range(clap_range(SearchSpec::DEPTH)),
          conflicts_with = "time_per_move")]
    depth: Option<u8>,
    /// Search by iterative deepening until about MS milliseconds per move (not deterministic).
    #[arg(long, value_name = "MS")]
    time_per_move: Option<u64>,
    /// Iterative deepening under a node budget: about NODES move-generator calls per move
    /// (deterministic), from --min-depth up to --max-depth layers.
    #[arg(long, value_name = "NODES", conflicts_with_all = ["depth", "time_per_move"],
          value_parser = clap::value_parser!(u64).range(SearchSpec::BUDGET))]
    budget: Option<u64>,
    /// Budget rule: when the last two iterations chose different moves, multiply this move's
    /// budget by F, once (1 = off).
    #[arg(long, value_name = "F", default_value_t = SearchSpec::default().extend)]
    extend: f32,
    /// Use the adaptive rule: layers = distinct tiles - OFFSET, clamped to
    /// --min-depth..--max-depth (1 with --min-depth 4 is nneonneo/2048-ai's rule).
    #[arg(long, value_name = "OFFSET", conflicts_with_all = ["depth", "budget", "time_per_move"])]
    depth_offset: Option<u8>,
    /// Budget rule: multiply the budget by F on boards holding at least --boost-tiles tiles of
    /// --boost-tile or more (1 = off).
    #[arg(long, value_name = "F", default_value_t = SearchSpec::default().boost)]
    boost: f32,
    /// Budget rule: the number of tiles of --boost-tile or more that triggers --boost.
    #[arg(long, value_name = "N", default_value_t = SearchSpec::default().boost_tiles,
          value_parser = clap::value_parser!(u8).range(clap_range(SearchSpec::BOOST_TILES)))]
    boost_tiles: u8,
    /// Budget rule: the tile --boost-tiles counts, a power of two from 2 to 32768
    /// (`--boost-tile 16384 --boost-tiles 1`: every move from the first 16384 on).
    #[arg(long, value_name = "TILE", default_value_t = SearchSpec::default().boost_tile)]
    boost_tile: u32,
    /// Keep the transposition table from move to move (default: a fresh table per move).
    #[arg(long)]
    keep_table: bool,
    /// Smallest depth of the adaptive and budget rules (default: 2 for the budget rule, 4
    /// for the adaptive rule).
    #[arg(long, value_parser = clap::value_parser!(u8).range(clap_range(SearchSpec::DEPTH)))]
    min_depth: Option<u8>,
    /// Largest depth of the adaptive and budget rules.
    #[arg(long, default_value_t = SearchSpec::default().max_depth,
          value_parser = clap::value_parser!(u8).range(clap_range(SearchSpec::DEPTH)))]
    max_depth: u8,
    /// Chance nodes below this path probability are evaluated, not expanded.
    #[arg(long, default_value_t = SearchSpec::default().prob_cutoff)]
    prob_cutoff: f32,
    /// log2 of the transposition table's entries (16 bytes each).
    #[arg(long, default_value_t = SearchSpec::default().tt_bits,
          value_parser = clap::value_parser!(u8).range(clap_range(SearchSpec::TT_BITS)))]
    tt_bits: u8,
    /// Heuristic weights as a JSON file (the `params` printed by `tune`); default: shipped
    /// (nneonneo/2048-ai's published weights).
    #[arg(long, value_name = "FILE")]
    params: Option<PathBuf>,
    /// Value the leaves with an n-tuple network weight file (from `2048 train`) instead of
    /// the row heuristic; the default depth rule becomes --depth 2.
    #[arg(long, value_name = "FILE", conflicts_with = "params")]
    ntuple: Option<PathBuf>,
    /// Leaf evaluation without --ntuple: `heuristic` (nneonneo/2048-ai's row heuristic,
    /// --params) or `corner` (macroxue/2048-ai's: rows read left to right and columns top to
    /// bottom, large tiles pulled to the top-left corner, negative values allowed, a dead end
    /// worth -max(2^17, 2 r 2^r) for the root's largest rank r).
    #[arg(long, value_enum, default_value_t = LeafEval::Heuristic)]
    eval: LeafEval,
    /// With --eval corner: before each move's search, if the root's own evaluation is at
    /// least 0, chance nodes whose evaluation is below 2 r 2^r (r: the root's largest rank)
    /// are valued so instead of expanded (macroxue/2048-ai's pass score).
    #[arg(long)]
    prune_below_pass: bool,
    /// Endgame tables (from `2048 tables`), comma-separated: where one applies (the largest
    /// tiles, six or five, in its formation, the next of the smallest to build), its move is
    /// played instead of the search's (with --table-slack, the search chooses among the
    /// moves it allows). Each is served from its file: checked whole when opened, then only
    /// its index held (a few MB) and every lookup read from the file (the page cache keeps
    /// it); --tables-in-memory reads them whole instead. Either way, the same games. The
    /// report's setting names each file with its checksum (as `table-info` prints it).
    #[arg(long, value_name = "FILE,...", value_delimiter = ',')]
    tables: Vec<PathBuf>,
    /// With --tables: hold each table whole in memory (about its file's size; needed for a
    /// file written before 2026-12-07, or rewrite that with `2048 table-convert`).
    #[arg(long)]
    tables_in_memory: bool,
    /// With --tables: where a table applies, the table allows the moves it rates within EPS
    /// of its best chance (0.01: a move may cost the table's stage at most one point), and
    /// the search plays its own move if allowed, else its best allowed one; default: the
    /// table's move, unsearched.
    #[arg(long, value_name = "EPS")]
    table_slack: Option<f32>,
}

impl SearchArgs {
    /// The search options as the API's, with the --params and --ntuple files read.
    fn spec(&self) -> CliResult<SearchSpec> {
        let mut spec = SearchSpec {
            depth: self.depth,
            time_per_move: self.time_per_move,
            budget: self.budget,
            extend: self.extend,
            depth_offset: self.depth_offset,
            boost: self.boost,
            boost_tiles: self.boost_tiles,
            boost_tile: self.boost_tile,
            keep_table: self.keep_table,
            min_depth: self.min_depth,
            max_depth: self.max_depth,
            prob_cutoff: self.prob_cutoff,
            tt_bits: self.tt_bits,
            params: None,
            eval: self.eval.into(),
            prune_below_pass: self.prune_below_pass,
            ntuple: self.ntuple.as_ref().map(|p| p.display().to_string()),
            network: None,
            node_cap: None,
            table_names: self.tables.iter().map(|p| p.display().to_string()).collect(),
            tables: None,
            table_slack: self.table_slack,
        };
        // The options are checked before the files are read (the order of the messages).
        if self.table_slack.is_some() && self.tables.is_empty() {
            return Err(CliError::input(
                "--table-slack: needs --tables (the tables that rate the moves)",
            ));
        }
        if self.tables_in_memory && self.tables.is_empty() {
            return Err(CliError::input("--tables-in-memory: needs --tables (the tables to hold)"));
        }
        spec.config()?;
        spec.network = self.ntuple.as_ref().map(|p| read_network(p)).transpose()?.map(Arc::new);
        spec.params = self.params.as_ref().map(|p| read_json_file(p)).transpose()?;
        if !self.tables.is_empty() {
            use twenty48::endgame::{Served, Tables};
            // Each table is named in the setting with its file's checksum, so a report says
            // which build of a table it was played with.
            let open = |p: &PathBuf| -> CliResult<(Served, String)> {
                let (table, sum) = if self.tables_in_memory {
                    let (t, sum) = api::read_table_sealed(p)?;
                    (Served::Memory(t), sum)
                } else {
                    let t = api::open_table(p)?;
                    let sum = t.checksum();
                    (Served::File(t), sum)
                };
                Ok((table, format!("{} ({})", p.display(), api::checksum_hex(sum))))
            };
            let (tables, names) =
                self.tables.iter().map(open).collect::<CliResult<(Vec<_>, Vec<_>)>>()?;
            spec.table_names = names;
            spec.tables = Some(Arc::new(Tables::served(tables)));
        }
        Ok(spec)
    }
}

/// Reads a weight file of either version (a version-1 file is a one-stage network).
fn read_network(path: &Path) -> CliResult<twenty48::multistage::MultiStage> {
    api::load_network(&path.display().to_string(), &read_bytes(path)?)
}

/// Writes a network's files: the weights to `path`, the TC accumulators to `path.tc`.
fn write_files(path: &Path, files: &TrainFiles) -> CliResult {
    write_file_atomic(path, &files.weights)?;
    match &files.coherence {
        Some(acc) => write_file_atomic(&coherence_path(path), acc),
        None => Ok(()),
    }
}

#[derive(Args, Debug)]
struct TrainArgs {
    /// Training games to play in this run.
    #[arg(long, value_parser = clap::value_parser!(u64).range(TrainRequest::GAMES))]
    games: u64,
    /// The weight file to write (at the end and at every checkpoint).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Seed of the spawns (default: the --from file's, else 1).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Step size per weight (default: the --from file's, else 0.0025; with --method tc the
    /// step at full coherence, beta, default 1 / (8 x tuples) = 1/32 for four tuples). With
    /// --from, another value continues with a new step (a schedule); the file records the
    /// last one.
    #[arg(long, value_name = "A")]
    alpha: Option<f32>,
    /// The step stated per value, as the literature often states it (TDL2048-Demo's TD(0):
    /// 0.1): --alpha is this divided over the 8 x tuples weights a value reads (0.1 with four
    /// tuples: 0.003125).
    #[arg(long, value_name = "A", conflicts_with = "alpha")]
    alpha_per_value: Option<f32>,
    /// Write --out every N games.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(TrainRequest::CHECKPOINT_EVERY))]
    checkpoint_every: Option<u64>,
    /// Also keep each checkpoint as `FILE.<games>`.
    #[arg(long, requires = "checkpoint_every")]
    keep_checkpoints: bool,
    /// Continue from this weight file (its games, seed, alpha and shape).
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    /// The stage to train: 1 (the default) is the network from the empty board; 2 (or 3)
    /// trains that stage of a multistage network from --starts boards, --from a file of one
    /// stage less (the new stage starts as a copy of the last: warm start) or of that many
    /// stages (continue). Stage 2: afterstates with a tile >= 16384; stage 3 (with 3
    /// stages): a tile >= 16384 and an 8192.
    #[arg(long, default_value_t = TrainRequest::default().stage,
          value_parser = clap::value_parser!(u8).range(clap_range(TrainRequest::STAGE)))]
    stage: u8,
    /// Start boards of --stage 2/3 (from `2048 starts`): game i starts from the board
    /// `Rng::new(sub_seed(S, i))` picks, the same generator then drawing its spawns.
    #[arg(long, value_name = "FILE")]
    starts: Option<PathBuf>,
    /// The tuples: cells 0..15 (4 * row + col) separated by `,`, tuples by `/` (default: the
    /// four 6-tuples 0,1,2,3,4,5/4,5,6,7,8,9/0,1,2,4,5,6/4,5,6,8,9,10).
    #[arg(long, value_name = "SHAPE")]
    tuples: Option<String>,
    /// The learning rule (stage 1 only). td: TD(0), each weight a value reads moves by
    /// alpha * error. tc: temporal coherence (Beal & Smith 1999; Jaskowski 2016): weight i
    /// moves by alpha * |E_i| / A_i * error, E_i and A_i the sum and the sum of absolute
    /// values of the errors it has seen (rate 1 before the first), so --alpha is the step at
    /// full coherence and the steps shrink by themselves (no schedule). TC keeps E and A
    /// (twice the network's memory) in FILE.tc beside each weight file it writes; --from F
    /// with tc continues from F and F.tc, exactly as one run.
    #[arg(long, value_enum, default_value_t = TrainRequest::default().method.into())]
    method: LearnMethod,
    /// Optimistic initialisation (stage 1, not with --from): every state starts worth V,
    /// each of the 8 x tuples weights a value reads at V / (8 x tuples) (Guei, Chen & Wu
    /// 2022 start at the order of 320000). Default 0.
    #[arg(long, value_name = "V")]
    init: Option<f32>,
    /// Progress line every N games (mean score and reach rates of those N games).
    #[arg(long, value_name = "N", default_value_t = TrainRequest::default().report_every,
          value_parser = clap::value_parser!(u64).range(TrainRequest::REPORT_EVERY))]
    report_every: u64,
    /// Stop after the game in progress once this many seconds have passed (the file records
    /// the games actually played, so the result is reproduced by --games with that count).
    #[arg(long, value_name = "SECS")]
    max_seconds: Option<u64>,
    /// With --method tc --from F: start the TC accumulators afresh instead of reading F.tc,
    /// to fine-tune a TD network by TC (TD then TC, as Guei, Chen & Wu 2022). The step is
    /// then --alpha or TC's default beta, not F's TD step
    #[arg(long)]
    fresh_accumulators: bool,
    #[command(flatten)]
    json: JsonArg,
}

fn train(a: TrainArgs) -> CliResult {
    let named = |p: &Path, why: &str| {
        let name = p.display().to_string();
        match read_bytes(p) {
            Ok(bytes) => InputFile::new(name, bytes),
            Err(e) => InputFile::unreadable(name, format!("{}{why}", e.message())),
        }
    };
    let coherence = match (&a.from, a.method, a.stage) {
        (Some(_), LearnMethod::Tc, 1) if a.fresh_accumulators => None,
        (Some(p), LearnMethod::Tc, 1) => Some(named(
            &coherence_path(p),
            " (--method tc continues from the weights and their accumulators)",
        )),
        (Some(p), LearnMethod::Td, 1) if coherence_path(p).exists() => {
            Some(InputFile::new(coherence_path(p).display().to_string(), Vec::new()))
        }
        _ => None,
    };
    let starts = a.starts.as_ref().map(|p| input_file(p));
    let from = a.from.as_ref().map(|p| named(p, ""));
    let req = api::TrainRequest {
        games: a.games,
        seed: a.seed,
        alpha: a.alpha,
        alpha_per_value: a.alpha_per_value,
        checkpoint_every: a.checkpoint_every,
        stage: a.stage,
        tuples: a.tuples.clone(),
        method: a.method.into(),
        init: a.init,
        report_every: a.report_every,
        max_seconds: a.max_seconds,
        fresh_accumulators: a.fresh_accumulators,
    };
    let mut events = |e: TrainEvent<'_>| -> Result<(), api::Error> {
        match e {
            TrainEvent::Note(note) => eprintln!("{note}"),
            TrainEvent::Window(w) => eprintln!("{w}"),
            TrainEvent::Checkpoint(c) => {
                write_files(&a.out, &c.files)?;
                if a.keep_checkpoints {
                    write_files(
                        &PathBuf::from(format!("{}.{}", a.out.display(), c.games)),
                        &c.files,
                    )?;
                }
                eprintln!("checkpoint: {} games -> {}", c.games, a.out.display());
            }
        }
        Ok(())
    };
    let input = api::TrainInput { from, coherence, starts };
    let r = api::train(&req, input, Control::new(), &mut events)?;
    write_files(&a.out, &r.files)?;
    let out = a.out.display().to_string();
    if a.json.json {
        return print_json(&WithOut { out, report: &r });
    }
    print!("{}", r.text(&out));
    Ok(())
}

#[derive(Args, Debug)]
struct StartsArgs {
    /// The network that plays (a weight file of either version).
    #[arg(long, value_name = "FILE")]
    ntuple: PathBuf,
    /// Games to play.
    #[arg(long, value_parser = clap::value_parser!(u64).range(StartsRequest::GAMES))]
    games: u64,
    /// The stage whose first afterstate is collected (2 or 3).
    #[arg(long, default_value_t = StartsRequest::default().stage,
          value_parser = clap::value_parser!(u8).range(clap_range(StartsRequest::STAGE)))]
    stage: u8,
    /// The start file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Args, Debug)]
struct TablesArgs {
    /// The formation: L3b (the 3x2 corner block the expectimax player builds, the target built
    /// beside its smallest tile; the measured best), L3 (the same block, the target anywhere
    /// free), 442 (snake), L5b (the block's five largest, building its sixth; needs --then),
    /// L5c (L5b with looser caps; needs --then) or L5w (the block's five largest, building
    /// the smallest one's twin at (2,1) whole).
    #[arg(long, default_value = "L3b")]
    formation: String,
    /// The tile to build (8 to 512; to 1024 for 442, L3b, L5b, L5c and L5w).
    #[arg(long, default_value_t = 512)]
    target: u32,
    /// Count the positions the table would hold (the build's forward pass alone, about two
    /// layers in memory) and print the count and the file's size, without building it.
    #[arg(long, conflicts_with_all = ["then", "out", "verify"])]
    count: bool,
    /// For L5b: the L3b table for the same target, which values its won positions.
    #[arg(long, value_name = "FILE")]
    then: Option<PathBuf>,
    /// The table file to write (needed unless --count).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Build with the layers on disk in DIR (memory holds a few layers, and DIR needs about
    /// the file's size again), for a table larger than memory; the written file is checked
    /// from disk before it takes the --out name. The same file as without it. A build that
    /// is killed leaves its work files (`*.keys.N`, `*.values.N`) in DIR.
    #[arg(long, value_name = "DIR", conflicts_with = "count")]
    work_dir: Option<PathBuf>,
    /// The free-tile sum a position may hold past the target's own (its leftover small
    /// tiles) before it counts as lost: even, 2 to 1024. More slack holds more positions
    /// (more layers) and loses fewer lines to the cut. The file records it.
    #[arg(long, value_name = "SUM", default_value_t = TablesRequest::default().slack)]
    slack: u32,
    /// Positions of the last layers checked against the plain recursion before the file is
    /// trusted.
    #[arg(long, default_value_t = TablesRequest::default().verify as u64,
          value_parser = clap::value_parser!(u64).range(0..=100_000))]
    verify: u64,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
}

fn tables(a: TablesArgs) -> CliResult {
    let req = TablesRequest {
        formation: a.formation.clone(),
        target: a.target,
        then: a.then.as_ref().map(|p| p.display().to_string()),
        verify: a.verify as usize,
        seed: a.seed.seed,
        slack: a.slack,
    };
    if a.count {
        req.shape()?;
        let bar = progress(0, "layers");
        let tick = follow(&bar, "", false);
        let ctl = Control::new().with_progress(&tick);
        let r = a.threads.install(|| api::count_table(&req, ctl))??;
        bar.finish_and_clear();
        if a.json.json {
            return print_json(&r);
        }
        print!("{}", r.text());
        return Ok(());
    }
    req.parse()?;
    let Some(out) = &a.out else {
        return Err(CliError::input("--out: the table file to write (or --count to size it)"));
    };
    if let Some(dir) = &a.work_dir {
        let bar = progress(0, "layers");
        let tick = follow(&bar, "", false);
        let ctl = Control::new().with_progress(&tick);
        let r = a.threads.install(|| api::tables_to_file(&req, dir, out, ctl))??;
        bar.finish_and_clear();
        let out = out.display().to_string();
        if a.json.json {
            return print_json(&WithOut { out, report: &r });
        }
        print!("{}", r.text(&out));
        return Ok(());
    }
    // The verb reports its layer count with its first progress.
    let bar = progress(0, "layers");
    let tick = follow(&bar, "", false);
    let r = a.threads.install(|| api::tables(&req, Control::new().with_progress(&tick)))??;
    bar.finish_and_clear();
    let table = r.table.as_ref().expect("a built table");
    write_stream_atomic(out, |w| table.write_to(w).map(drop))?;
    let out = out.display().to_string();
    if a.json.json {
        return print_json(&WithOut { out, report: &r });
    }
    print!("{}", r.text(&out));
    Ok(())
}

fn table_convert(file: &std::path::Path, out: &std::path::Path, json: bool) -> CliResult {
    let size = |p: &std::path::Path| std::fs::metadata(p).map_or(0, |m| m.len());
    let table = api::read_table(file)?;
    let before = size(file);
    write_stream_atomic(out, |w| table.write_to(w).map(drop))?;
    // Read back before reporting: the new file must hold exactly what was read.
    let back = api::read_table(out)?;
    let report = api::TableConvertReport::new(&table, &back, before, size(out))?;
    let out = out.display().to_string();
    if json {
        return print_json(&WithOut { out, report: &report });
    }
    print!("{}", report.text(&out));
    Ok(())
}

fn starts(a: StartsArgs) -> CliResult {
    let req = api::StartsRequest {
        games: a.games,
        stage: a.stage,
        seed: a.seed.seed,
        ntuple: a.ntuple.display().to_string(),
        network: Some(Arc::new(read_network(&a.ntuple)?)),
    };
    let bar = progress(a.games, "2048 games");
    let tick = follow(&bar, "", false);
    let r = a.threads.install(|| api::starts(&req, Control::new().with_progress(&tick)))??;
    bar.finish_and_clear();
    // The file's comment line is the command that wrote it.
    let comment = format!(
        "2048 starts --ntuple {} --games {} --stage {} --seed {}: {} boards",
        req.ntuple,
        req.games,
        req.stage,
        req.seed,
        r.boards.len()
    );
    let text = twenty48::multistage::format_starts(&comment, &r.boards);
    write_file_atomic(&a.out, text.as_bytes())?;
    let out = a.out.display().to_string();
    if a.json.json {
        return print_json(&WithOut { out, report: &r });
    }
    print!("{}", r.text(&out));
    Ok(())
}

fn from_starts(a: FromStartsArgs) -> CliResult {
    let net = read_network(&a.ntuple)?;
    let text = read_input(&a.starts)?;
    let name = a.starts.display().to_string();
    let req = api::FromStartsRequest {
        boards: api::load_starts(&name, &text)?,
        starts: name,
        ntuple: a.ntuple.display().to_string(),
        seed: a.seed.seed,
        network: Some(Arc::new(net)),
    };
    let r = a.threads.install(|| api::from_starts(&req, Control::new()))??;
    print_or_json(a.json.json, &r)
}

#[derive(Args, Debug)]
struct FromStartsArgs {
    /// The start boards (from `2048 starts`).
    #[arg(long, value_name = "FILE")]
    starts: PathBuf,
    /// The network that plays (a weight file of either version).
    #[arg(long, value_name = "FILE")]
    ntuple: PathBuf,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Args, Debug)]
struct PlayArgs {
    /// Number of games.
    #[arg(long, default_value_t = PlayRequest::default().games,
          value_parser = clap::value_parser!(u64).range(PlayRequest::GAMES))]
    games: u64,
    /// One game per master seed S from FIRST to LAST (inclusive), each the game that
    /// `--games 1 --seed S` plays (spawn seed sub_seed(S, 0)): the standard seeds of
    /// BENCHMARKS.md in one run. Replaces --games and --seed.
    #[arg(long, value_name = "FIRST..LAST", conflicts_with = "games")]
    seeds: Option<String>,
    /// Stop a game after this many moves.
    #[arg(long, default_value_t = PlayRequest::default().max_moves)]
    max_moves: u64,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
    #[command(flatten)]
    record: RecordArg,
    /// Play part K of N of the batch (contiguous; each game keeps its index and seed in the
    /// whole batch, so the shards 1/N..N/N concatenate into the whole run).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Boards (from random games) to time the move generator on.
    #[arg(long, default_value_t = BenchRequest::default().boards,
          value_parser = clap::value_parser!(u64).range(BenchRequest::BOARDS))]
    boards: u64,
    /// Random games to time per engine (the reference engine plays a tenth of them).
    #[arg(long, default_value_t = BenchRequest::default().random_games,
          value_parser = clap::value_parser!(u64).range(BenchRequest::RANDOM_GAMES))]
    random_games: u64,
    /// Positions to search (depth 3) per engine.
    #[arg(long, default_value_t = BenchRequest::default().positions,
          value_parser = clap::value_parser!(u64).range(BenchRequest::POSITIONS))]
    positions: u64,
    /// Late-game positions (from a depth-3 game) to search under nneonneo/2048-ai's depth rule,
    /// with the incremental spawns and the table prefetch each on and off (0 skips the rows).
    #[arg(long, default_value_t = BenchRequest::default().late_positions,
          value_parser = clap::value_parser!(u64).range(BenchRequest::LATE_POSITIONS))]
    late_positions: u64,
    /// Rounds; every figure is the median over the rounds.
    #[arg(long, default_value_t = BenchRequest::default().repeats,
          value_parser = clap::value_parser!(u8).range(clap_range(BenchRequest::REPEATS)))]
    repeats: u8,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Args, Debug)]
struct TuneArgs {
    /// Generations.
    #[arg(long, default_value_t = TuneRequest::default().generations)]
    generations: u32,
    /// Children per generation.
    #[arg(long, default_value_t = TuneRequest::default().lambda)]
    lambda: u32,
    /// Games per candidate per generation.
    #[arg(long, default_value_t = TuneRequest::default().games)]
    games: u64,
    /// Mutation step size.
    #[arg(long, default_value_t = TuneRequest::default().sigma)]
    sigma: f64,
    /// Fixed search depth of the tuning games.
    #[arg(long, default_value_t = TuneRequest::default().depth,
          value_parser = clap::value_parser!(u8).range(clap_range(TuneRequest::DEPTH)),
          conflicts_with = "budget")]
    depth: u8,
    /// Play the tuning games under the node-budget rule (as `play --budget`) instead of a
    /// fixed depth.
    #[arg(long, value_name = "NODES",
          value_parser = clap::value_parser!(u64).range(TuneRequest::BUDGET))]
    budget: Option<u64>,
    /// Smallest depth of the budget rule.
    #[arg(long, default_value_t = TuneRequest::default().min_depth,
          value_parser = clap::value_parser!(u8).range(clap_range(TuneRequest::MIN_DEPTH)))]
    min_depth: u8,
    /// log2 of the transposition table's entries in the tuning games.
    #[arg(long, default_value_t = TuneRequest::default().tt_bits,
          value_parser = clap::value_parser!(u8).range(clap_range(TuneRequest::TT_BITS)))]
    tt_bits: u8,
    /// `plus`: (1+lambda) selection (a child replaces the parent when its average is higher);
    /// `gradient`: antithetic evolution-strategy gradient over lambda pairs of candidates.
    #[arg(long, value_enum, default_value_t = TuneRequest::default().method.into())]
    method: TuneMethod,
    /// Gradient method: step size (the weights move by RATE times the relative-score
    /// gradient).
    #[arg(long, default_value_t = TuneRequest::default().rate)]
    rate: f64,
    /// Gradient method: largest move of one coordinate per generation.
    #[arg(long, default_value_t = TuneRequest::default().max_step)]
    max_step: f64,
    /// Move cap of the tuning games.
    #[arg(long, default_value_t = TuneRequest::default().max_moves)]
    max_moves: u64,
    /// Starting weights as a JSON file (default: nneonneo/2048-ai's published weights, the
    /// start of the run that produced the shipped weights).
    #[arg(long, value_name = "FILE")]
    start: Option<PathBuf>,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
}

/// `--eval`: the API's [`api::LeafEval`].
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum LeafEval {
    Heuristic,
    Corner,
}

impl From<LeafEval> for api::LeafEval {
    fn from(e: LeafEval) -> Self {
        match e {
            LeafEval::Heuristic => api::LeafEval::Heuristic,
            LeafEval::Corner => api::LeafEval::Corner,
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum TuneMethod {
    Plus,
    Gradient,
}

impl From<api::TuneMethod> for TuneMethod {
    fn from(m: api::TuneMethod) -> Self {
        match m {
            api::TuneMethod::Plus => TuneMethod::Plus,
            api::TuneMethod::Gradient => TuneMethod::Gradient,
        }
    }
}

/// Runs `bitarcade 2048`.
pub fn run(args: Twenty48Args) -> CliResult {
    match args.command {
        Twenty48Command::Play(a) => play(a),
        Twenty48Command::Train(a) => train(a),
        Twenty48Command::Starts(a) => starts(a),
        Twenty48Command::FromStarts(a) => from_starts(a),
        Twenty48Command::Bench(a) => bench(a),
        Twenty48Command::Tune(a) => tune(a),
        Twenty48Command::Tables(a) => tables(a),
        Twenty48Command::TableInfo { file, json } => {
            let name = file.display().to_string();
            // Read a block at a time: one copy of the table in memory.
            let info = api::table_info_file(&file)?;
            if json.json {
                return print_json(&info);
            }
            print!("{}", info.text(&name));
            Ok(())
        }
        Twenty48Command::TableConvert { file, out, json } => table_convert(&file, &out, json.json),
        Twenty48Command::Replay { file, boards, from, step, json } => {
            let spec = boards.then_some(api::BoardsSpec { from, step });
            replay(file, spec, json.json)
        }
        Twenty48Command::Best { board, search, json } => best(board, &search, json.json),
    }
}

fn play(a: PlayArgs) -> CliResult {
    let req = api::PlayRequest {
        games: a.games,
        seed: a.seed.seed,
        seeds: a.seeds.clone(),
        max_moves: a.max_moves,
        search: a.search.spec()?,
        shard: a.shard.unwrap_or(Shard::WHOLE),
    };
    let bar = progress(req.game_count()?, "2048 games");
    // Games that run for minutes (nneonneo's depth rule spends ~30 minutes on a game to
    // 32768) report every 1,000 moves.
    let tick = follow(&bar, "2048", false);
    let r = a.threads.install(|| api::play(&req, Control::new().with_progress(&tick)))??;
    bar.finish_and_clear();
    if let Some(path) = &a.record.record {
        let recs: Vec<&GameRecord> = r.games.iter().filter_map(|g| g.record.as_ref()).collect();
        write_records(path, &recs)?;
    }
    print_or_json(a.json.json, &r)
}

fn bench(a: BenchArgs) -> CliResult {
    let req = api::BenchRequest {
        boards: a.boards,
        random_games: a.random_games,
        positions: a.positions,
        late_positions: a.late_positions,
        repeats: a.repeats,
        seed: a.seed.seed,
    };
    let r = api::bench(&req, Control::new())?;
    print_or_json(a.json.json, &r)?;
    r.verdict()
}

fn tune(a: TuneArgs) -> CliResult {
    let req = api::TuneRequest {
        generations: a.generations,
        lambda: a.lambda,
        games: a.games,
        sigma: a.sigma,
        depth: a.depth,
        budget: a.budget,
        min_depth: a.min_depth,
        tt_bits: a.tt_bits,
        method: match a.method {
            TuneMethod::Plus => api::TuneMethod::Plus,
            TuneMethod::Gradient => api::TuneMethod::Gradient,
        },
        rate: a.rate,
        max_step: a.max_step,
        max_moves: a.max_moves,
        start: a.start.as_ref().map(|p| read_json_file(p)).transpose()?,
        seed: a.seed.seed,
    };
    let json = a.json.json;
    let r = a.threads.install(|| {
        // A gradient run is long: its generations go to stderr in both modes.
        let mut each = |g: TuneGeneration<'_>| {
            if !json || matches!(g, TuneGeneration::Gradient(_)) {
                eprintln!("{}", g.text());
            }
        };
        api::tune(&req, Control::new(), &mut each)
    })??;
    print_or_json(json, &r)
}

fn replay(file: PathBuf, boards: Option<api::BoardsSpec>, json: bool) -> CliResult {
    let req = api::ReplayRequest { file: input_file(&file), boards };
    print_or_json(json, &api::replay(&req, Control::new())?)
}

fn best(board: String, search: &SearchArgs, json: bool) -> CliResult {
    // A bad board is reported before the search options' files are read.
    board
        .parse::<twenty48::Wide>()
        .map_err(|e| CliError::input(format!("board {board:?}: {e}")))?;
    let req = api::BestRequest { board, search: search.spec()? };
    print_or_json(json, &api::best(&req, Control::new())?)
}
