//! End-to-end checks of `bitarcade snake ...`: tables, determinism across thread counts,
//! records that replay, tampered records that fail at the right step, bad input.

use std::process::{Command, Output};

fn bitarcade(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bitarcade")).args(args).output().expect("runs")
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

fn without_times(mut v: serde_json::Value) -> serde_json::Value {
    for row in v["rows"].as_array_mut().unwrap() {
        row.as_object_mut().unwrap().remove("ms_per_game");
    }
    v
}

#[test]
fn tournament_is_deterministic_for_any_thread_count() {
    let args = ["snake", "tournament", "--games", "12", "--size", "8x8", "--seed", "5", "--json"];
    let one = without_times(json(&bitarcade(&[&args[..], &["--threads", "1"]].concat())));
    let three = without_times(json(&bitarcade(&[&args[..], &["--threads", "3"]].concat())));
    assert_eq!(one, three);
    let rows = one["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 9);
    for solver in ["cycle", "repair", "tree", "knit", "dash"] {
        let row = rows.iter().find(|r| r["solver"] == solver).unwrap();
        assert_eq!(row["wins"], 12, "{solver} wins every 8x8 game");
        assert_eq!(row["avg_score"], 63.0);
    }
}

#[test]
fn tournament_shards_play_the_same_games() {
    let run = |games: &str, first: &str| {
        let args = ["snake", "tournament", "--games", games, "--first", first, "--size", "8x8"];
        let v = json(&bitarcade(&[&args[..], &["--players", "cycle", "--json"]].concat()));
        assert_eq!(v["first"], first.parse::<u64>().unwrap());
        v["rows"][0]["avg_moves"].as_f64().unwrap()
    };
    let whole = run("6", "0");
    let halves = (run("3", "0") + run("3", "3")) / 2.0;
    assert!((whole - halves).abs() < 1e-9, "{whole} vs {halves}");
}

#[test]
fn play_records_replay_and_tampering_is_caught() {
    let dir = std::env::temp_dir().join(format!("bitarcade-snake-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("game.json");
    let rec_s = rec.to_str().unwrap();
    let out = json(&bitarcade(&[
        "snake",
        "play",
        "--player",
        "lookahead",
        "--size",
        "8x8",
        "--seed",
        "3",
        "--record",
        rec_s,
        "--json",
    ]));
    assert_eq!(out["verified"], true);
    let replayed = json(&bitarcade(&["snake", "replay", rec_s, "--json"]));
    assert_eq!(replayed["score"], out["score"]);
    assert_eq!(replayed["moves"], out["moves"]);

    // Change move 5 to a reversal or another direction: the replay must stop at or after it.
    let mut record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    let moves = record["moves"].as_str().unwrap().to_string();
    let mut chars: Vec<char> = moves.chars().collect();
    chars[4] = match chars[4] {
        'U' => 'D',
        'D' => 'U',
        'L' => 'R',
        _ => 'L',
    };
    record["moves"] = serde_json::Value::String(chars.into_iter().collect());
    let bad = dir.join("bad.json");
    std::fs::write(&bad, record.to_string()).unwrap();
    let out = bitarcade(&["snake", "replay", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("move "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    // A wrong fruit cell is caught too.
    let mut record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    let f = record["fruits"][1].as_u64().unwrap();
    record["fruits"][1] = serde_json::json!((f + 1) % 64);
    std::fs::write(&bad, record.to_string()).unwrap();
    let out = bitarcade(&["snake", "replay", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("fruit 2"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bench_and_watch_run() {
    let b = json(&bitarcade(&["snake", "bench", "--rounds", "1", "--iters", "200", "--json"]));
    assert_eq!(b["lines"].as_array().unwrap().len(), 3);
    let out = bitarcade(&["snake", "watch", "--size", "6x6", "--delay-ms", "0", "--every", "50"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Won"));
}

#[test]
fn bad_input_exits_2_with_one_line() {
    for args in [
        vec!["snake", "tournament", "--size", "40x40", "--games", "1"],
        vec!["snake", "tournament", "--players", "greedy", "--games", "1"],
        vec!["snake", "play", "--start-len", "200"],
        vec!["snake", "replay", "/nonexistent/record.json"],
        vec!["snake", "tournament", "--games", "0"],
    ] {
        let out = bitarcade(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    let dir = std::env::temp_dir().join(format!("bitarcade-snake-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("r.json");
    std::fs::write(&f, "{\"seed\": 1,\n \"moves\": oops}").unwrap();
    let out = bitarcade(&["snake", "replay", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(":2:"));
    std::fs::remove_dir_all(&dir).ok();
}

/// The text of a command's stdout, which must succeed.
fn stdout(args: &[&str]) -> String {
    let out = bitarcade(args);
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The exact text of `play`, `replay` and the `tournament` table (time column cut off), frozen
/// when the verbs moved into `snake::api`.
#[test]
fn frozen_text_of_play_replay_and_tournament() {
    let dir = std::env::temp_dir().join(format!("bitarcade-snake-frozen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("game.json");
    let rec = rec.to_str().unwrap();
    assert_eq!(
        stdout(&["snake", "play", "--player", "cycle", "--seed", "7", "--record", rec]),
        ">>>>>>>>>v\n^v<<<<<<<<\n^>>>>>>>>v\n^v<<<<<<<<\n^>>>>>>>>v\n^v<<H<<<<<\n^>>>>>>>>v\n\
         ^v<<<<<<<<\n^>>>>>>>>v\n^<<<<<<<<<\n\n\
         cycle on 10x10 seed 7: Won with score 99 of 99 in 1687 moves (replayed on the reference \
         engine)\n"
    );
    assert_eq!(
        stdout(&["snake", "replay", rec]),
        format!("{rec}: ok, 1687 moves replayed, Won with score 99\n")
    );
    let table = stdout(&[
        "snake",
        "tournament",
        "--games",
        "20",
        "--size",
        "8x8",
        "--players",
        "shortest,astar,cycle",
    ]);
    let cut: Vec<String> = table.lines().map(|l| l.chars().take(78).collect()).collect();
    assert_eq!(
        cut,
        [
            "snake tournament: 20 games per player (games 0..20) on 8x8 from length 1, seed",
            "solver       games    wins stalled avg score  best worst  avg moves  (95% CI) ",
            "shortest        20       0       0     22.35    32    13      146.4     ±17.6 ",
            "astar           20       0       0     22.00    30    13      142.7     ±20.4 ",
            "cycle           20      20       0     63.00    63    63      711.5     ±19.5 ",
            "(every game replayed on the reference engine; all columns but time are the sam",
        ]
    );
    let bench = stdout(&["snake", "bench", "--rounds", "1", "--iters", "64"]);
    assert!(bench.ends_with("signature (cells expanded, BFS / A*): 1874 / 828\n"), "{bench}");
}

/// `--shard K/N` plays contiguous games with their seeds in the whole run: the shards' rows
/// are those of `--first`/`--games` runs of the same games.
#[test]
fn tournament_shard_flag_cuts_contiguous_games() {
    let args =
        ["snake", "tournament", "--games", "10", "--size", "6x6", "--players", "knit", "--json"];
    let part = without_times(json(&bitarcade(&[&args[..], &["--shard", "2/3"]].concat())));
    assert_eq!((part["first"].as_u64(), part["games"].as_u64()), (Some(3), Some(3)));
    let alone = ["snake", "tournament", "--games", "3", "--first", "3", "--size", "6x6"];
    let same =
        without_times(json(&bitarcade(&[&alone[..], &["--players", "knit", "--json"]].concat())));
    assert_eq!(part, same);
    let bad = bitarcade(&[&args[..], &["--shard", "4/3"]].concat());
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&bad.stderr),
        "bitarcade: error: --shard \"4/3\": expected K/N with 1 <= K <= N\n"
    );
}
