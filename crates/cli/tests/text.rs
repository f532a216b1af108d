//! The text of the verbs no other test froze, frozen before the text rendering moved from the
//! CLI into the game crates' api modules: exact where the output is deterministic, and with
//! every number masked (`#`, white space folded) where it holds times.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn bitarcade(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bitarcade"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("runs")
}

/// Stdout and stderr of a run that must succeed, with the temporary folder written `DIR`.
fn ok(args: &[&str], dir: &std::path::Path) -> (String, String) {
    let out = bitarcade(args);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{args:?}: {err}");
    let d = dir.to_str().unwrap();
    (String::from_utf8(out.stdout).unwrap().replace(d, "DIR"), err.replace(d, "DIR"))
}

/// One line with every number (`12`, `0.5`, `2.1e5`) as `#` and its white space folded.
fn mask_line(line: &str) -> String {
    let c: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        if !c[i].is_ascii_digit() {
            out.push(c[i]);
            i += 1;
            continue;
        }
        while i < c.len() && (c[i].is_ascii_digit() || c[i] == '.') {
            i += 1;
        }
        if i < c.len() && c[i] == 'e' {
            let mut j = i + 1;
            if j < c.len() && (c[j] == '-' || c[j] == '+') {
                j += 1;
            }
            if j < c.len() && c[j].is_ascii_digit() {
                while j < c.len() && c[j].is_ascii_digit() {
                    j += 1;
                }
                i = j;
            }
        }
        out.push('#');
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` with the lines that start with `prefix` masked (`""`: every line).
fn mask(text: &str, prefix: &str) -> String {
    text.lines()
        .map(|l| if l.starts_with(prefix) { mask_line(l) } else { l.to_string() } + "\n")
        .collect()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bitarcade-text-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn twenty48_tune_bench_train_starts_and_best() {
    let dir = tmp("2048");
    let (out, err) = ok(
        &["2048", "tune", "--generations", "2", "--lambda", "2", "--games", "2", "--depth", "1"]
            .iter()
            .chain(&["--seed", "3", "--threads", "2"])
            .copied()
            .collect::<Vec<_>>(),
        &dir,
    );
    assert_eq!(
        out,
        "params {\"base\":200000.0,\"mono_power\":4.0,\"mono_weight\":47.0,\"sum_power\":3.5,\
         \"sum_weight\":11.0,\"merges_weight\":700.0,\"empty_weight\":270.0}\n"
    );
    assert_eq!(
        err,
        "generation   0: parent      5922, best child      5112\n\
         generation   1: parent      5610, best child      5182\n"
    );
    let (out, err) = ok(
        &[
            "2048",
            "tune",
            "--method",
            "gradient",
            "--budget",
            "2000",
            "--lambda",
            "2",
            "--games",
            "1",
            "--generations",
            "2",
            "--tt-bits",
            "12",
            "--seed",
            "61",
            "--threads",
            "2",
        ],
        &dir,
    );
    assert_eq!(
        out,
        "params {\"base\":200000.0,\"mono_power\":3.5561965,\"mono_weight\":47.0,\"sum_power\":3.0,\
         \"sum_weight\":10.530124,\"merges_weight\":692.8305,\"empty_weight\":307.75198}\n"
    );
    assert_eq!(
        err,
        "generation   0: mean     58843, gradient [-0.194, 0.616, -0.878, -2.604, 0.119, -0.119], \
         params {\"base\":200000.0,\"mono_power\":3.8061965,\"mono_weight\":60.349194,\
         \"sum_power\":3.25,\"sum_weight\":8.566809,\"merges_weight\":788.71924,\
         \"empty_weight\":239.67749}\n\
         generation   1: mean     83108, gradient [-1.828, -0.829, -0.546, 0.206, -0.13, 0.74], \
         params {\"base\":200000.0,\"mono_power\":3.5561965,\"mono_weight\":47.0,\
         \"sum_power\":3.0,\"sum_weight\":10.530124,\"merges_weight\":692.8305,\
         \"empty_weight\":307.75198}\n"
    );
    let (out, _) = ok(
        &["2048", "bench", "--boards", "1000", "--random-games", "10", "--positions", "1"]
            .iter()
            .chain(&["--late-positions", "1", "--repeats", "1"])
            .copied()
            .collect::<Vec<_>>(),
        &dir,
    );
    assert_eq!(
        mask(&out, ""),
        "table engine reference speedup
one move per call, ns (Board::shift) # # #x
four moves per call, ns per move (search) # # #x
one move per call, up/down by transpose # #x
with the score (play path) # # #x
random games per second, one thread # # #x
search nodes per second (depth #) # # #x
nneonneo rule: incremental vs prefetch # # #x
nneonneo depth rule: prefetch vs none # # #x
(medians of # rounds; # boards x # moves; # / # random games; # search positions; # late \
positions; seed #; engines agree: true; incremental and prefetch change nothing: true)
"
    );
    let net = dir.join("t.b48");
    let net_s = net.to_str().unwrap();
    let tc = dir.join("tc.b48");
    let train = ["2048", "train", "--games", "20", "--tuples", "0,1,2,3/4,5,6,7", "--seed", "3"];
    let (out, err) = ok(
        &[&train[..], &["--out", tc.to_str().unwrap(), "--report-every", "10"]]
            .concat()
            .iter()
            .chain(&["--method", "tc", "--init", "1000"])
            .copied()
            .collect::<Vec<_>>(),
        &dir,
    );
    assert_eq!(
        mask(&out, "played"),
        "network      0,1,2,3/4,5,6,7 (131072 weights)
training     tc, beta 0.0625 (step at full coherence), init 1000, seed 3, games 0..20
played # games, # moves in # s
last window  mean score 2635 over 10 games
weights      DIR/tc.b48 (fingerprint e1563d221dd1045e)
"
    );
    let window = "games # mean # max # # #% # #% # #% # #% moves/game # # games/s # moves/s\n";
    assert_eq!(mask(&err, ""), window.repeat(2));
    ok(&[&train[..], &["--out", net_s, "--report-every", "10"]].concat(), &dir);
    let starts = dir.join("st.txt");
    let starts_s = starts.to_str().unwrap();
    std::fs::write(
        &starts,
        "16384 2 . ./. . . ./. . . ./. . . .\n16384 8192 . ./2 . . ./. . . ./. . . .\n",
    )
    .unwrap();
    let t2 = dir.join("t2.b48");
    let (out, err) = ok(
        &["2048", "train", "--stage", "2", "--from", net_s, "--starts", starts_s, "--games", "4"]
            .iter()
            .chain(&["--out", t2.to_str().unwrap(), "--report-every", "2"])
            .copied()
            .collect::<Vec<_>>(),
        &dir,
    );
    assert_eq!(
        mask(&out, "played"),
        "network      2 stages of 0,1,2,3/4,5,6,7
training     stage 2, seed 1, alpha 0.0025, games 0..4, starts DIR/st.txt (2 boards)
played # games, # moves in # s
last window  mean score 886 over 2 games
weights      DIR/t2.b48 (fingerprint 9badcac5b3cfa06e)
"
    );
    assert_eq!(mask(&err, ""), window.repeat(2));
    let s = dir.join("s.txt");
    let (out, _) = ok(
        &["2048", "starts", "--ntuple", net_s, "--games", "20", "--seed", "3"]
            .iter()
            .chain(&["--out", s.to_str().unwrap()])
            .copied()
            .collect::<Vec<_>>(),
        &dir,
    );
    assert_eq!(mask(&out, ""), "# of # games reached stage # (#%): DIR/s.txt (# s)\n");
    let (out, _) =
        ok(&["2048", "from-starts", "--starts", starts_s, "--ntuple", net_s, "--seed", "5"], &dir);
    assert_eq!(
        mask(&out, "32768"),
        "2 games from DIR/st.txt with DIR/t.b48 (1 stage(s)), seed 5
average score from the start 1328 ± 102
# #/# # #/# moves # (# s)
"
    );
    let (out, _) = ok(&["2048", "best", "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2"], &dir);
    assert_eq!(
        out,
        "    2     4     2     4\n    4     2     4     2\n    2     4     2     4\n    \
         4     2     4     2\nno legal move: the game is over\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn drop7_replay_sweep_bench_budget_and_train() {
    let dir = tmp("drop7");
    let rec = dir.join("d7.json");
    let rec_s = rec.to_str().unwrap();
    ok(&["drop7", "play", "--depth", "1", "--games", "2", "--seed", "4", "--record", rec_s], &dir);
    let (out, _) = ok(&["drop7", "replay", rec_s], &dir);
    assert_eq!(out, "game 1: ok, 70 turns, score 227930\ngame 2: ok, 75 turns, score 243986\n");
    let (out, _) = ok(&["drop7", "sweep", "--games", "20", "--seed", "3"], &dir);
    assert_eq!(mask(&out, ""), "# games, # turns: engine and reference identical (# s)\n");
    let bench = ["drop7", "bench", "--games", "50", "--positions", "2", "--depths", "2"];
    let (out, _) = ok(&[&bench[..], &["--runs", "1"]].concat(), &dir);
    assert_eq!(
        mask(&out, ""),
        "engine (Hardcore, random policy, # games x # runs, one thread):
wall: fast # M moves/s, reference # M moves/s
ratio #x (median of per-run ratios)
poppers on # boards (CPU time, medians): SWAR scan # ns, run-length table # ns, table/SWAR #
decisions on # harvested positions (all # values at chance nodes, eval crowding:#,#,#,#,#):
depth table ms/decision moves/decision nodes/decision nodes removed hit rate speedup same values
# none # # # #% #% #x yes
# direct # # # #% #% #x yes
# #way # # # #% #% #x yes
# #way # # # #% #% #x yes
"
    );
    let budget = ["drop7", "play", "--budget", "20000", "--min-depth", "1", "--max-depth", "2"];
    let (out, _) = ok(&[&budget[..], &["--games", "3", "--seed", "4"]].concat(), &dir);
    assert_eq!(
        mask(&out, ""),
        "game # seed # score # level # moves # cpu # s
game # seed # score # level # moves # cpu # s
game # seed # score # level # moves # cpu # s
# games, hardcore mode, depth budget # (#), eval ready:#,#,#,#,#,#,#, reveals stratified, table \
direct: mean # (#% CI #), median #, best #, worst #
decisions by depth: #: #; # search moves per decision
# s wall, # s per game per thread, # M search moves/s; every record replayed
leaf: `ready`, the hand-made default; a learned leaf plays stronger: train one with `drop# \
train` and play it with --eval ntuple:@FILE (docs/drop#md, leaf evaluators)
"
    );
    // Under a weaker reveal handling than the default, the report says so and names it.
    let (out, _) =
        ok(&[&budget[..], &["--games", "1", "--seed", "4", "--reveals", "paired"]].concat(), &dir);
    assert!(
        out.contains(
            "\nreveals: paired; --reveals stratified plays stronger (docs/drop7.md, the search)\n"
        ),
        "{out}"
    );
    let net = dir.join("n.d7n");
    let (out, err) = ok(
        &["drop7", "train", "--games", "30", "--seed", "1", "--shape", "rows=0112233 size=4096"]
            .iter()
            .chain(&["--out", net.to_str().unwrap(), "--report-every", "10", "--method", "tc"])
            .copied()
            .collect::<Vec<_>>(),
        &dir,
    );
    assert_eq!(
        mask(&out, ""),
        "trained # games (# in all, seed #, tc alpha #) in # s: # moves, # moves/s; wrote \
         DIR/n.d#n (rows=# size=#)\n"
    );
    assert_eq!(
        mask(&err, ""),
        "train: # games, last # mean score # (# moves), # games/s, # moves/s\n".repeat(3)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tetris_sweep_and_bench_snake_bench_and_watch() {
    let dir = tmp("ts");
    let (out, _) = ok(&["tetris", "sweep", "--height", "2", "--shard", "1/500"], &dir);
    assert_eq!(
        mask(&out, ""),
        "#-line sweep (srs kicks, shard #/#): # of # canonical queues have a PC (# s)\n"
    );
    let (out, _) = ok(&["tetris", "bench", "--count", "3", "--lines", "4"], &dir);
    assert_eq!(
        mask(&out, ""),
        "movegen on # random zones: bitboard # us, per-cell reference # us per piece (#x)
#-line (# pieces, # queues, srs+ kicks, seed #): solved #/#; time mean # ms (CPU # ms), median # \
ms, max # ms; nodes mean #, max #; memory mean # KiB, max # KiB; signature f#f#f#d#d#
"
    );
    let (out, _) = ok(&["snake", "bench", "--rounds", "1", "--iters", "10"], &dir);
    assert_eq!(
        mask(&out, ""),
        "snake bench: ns per search, median of # rounds, #x# boards
board BFS ns A* ns BFS/A* BFS cells A* cells
reachable (first mid-game board) # # # # #
reachable (mean of # mid-game boards) # # # # #
sealed-off # # # # #
signature (cells expanded, BFS / A*): # / #
"
    );
    let watch = ["snake", "watch", "--player", "cycle", "--size", "4x4", "--seed", "2"];
    let (out, _) = ok(&[&watch[..], &["--every", "100", "--delay-ms", "0"]].concat(), &dir);
    assert_eq!(
        out,
        "\x1b[2J\x1b[Hcycle on 4x4  seed 2  move 0  score 0  length 1\n.*..\n....\n..H.\n....\n\
         \x1b[2J\x1b[Hcycle on 4x4  seed 2  move 70  score 15  length 16\n>>>v\n^H<<\n^>>v\n^<<<\n\
         Won: score 15 in 70 moves (replayed)\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn samegame_bench_and_bits_check() {
    let dir = tmp("sg");
    let suites = ["samegame", "bench", "--quick", "--suite", "engine", "--suite", "prove"];
    let (out, _) = ok(&[&suites[..], &["--rounds", "1"]].concat(), &dir);
    assert_eq!(
        mask(&out, ""),
        format!(
            "engine vs reference (ns per call, median of rounds; ratio = reference / engine)
size col find ref find x child ref child x
{}
prover positions with and without refutations (# colours, budget #M positions)
#x#/#: # boards (# clearable, # not, # undecided), positions # with refutations, # without (#% \
saved)
",
            "#x# # # # # # # #\n".repeat(6)
        )
    );
    let set = dir.join("set.txt");
    std::fs::write(&set, "12\n12\n\n112\n221\n").unwrap();
    let standard = ["samegame", "bench", "--suite", "standard", "--rounds", "1"];
    let (out, _) = ok(&[&standard[..], &["--set", set.to_str().unwrap()]].concat(), &dir);
    assert_eq!(
        mask(&out, ""),
        "
standard set (# boards): beam width #, # playouts, seed #, all threads
total #, #/# cleared, # s wall, # s CPU
"
    );
    let (out, _) = ok(&["bits", "check", "--cases", "1000"], &dir);
    let labels: Vec<&str> = out.lines().take(5).map(|l| l.split(':').next().unwrap()).collect();
    assert_eq!(
        labels,
        [
            "CPU has BMI2",
            "BITARCADE_PEXT",
            "active PEXT path",
            "bmi2 vs portable",
            "ns per pext_u64"
        ]
    );
    assert!(out.lines().nth(5).unwrap().starts_with("                   portable "), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
