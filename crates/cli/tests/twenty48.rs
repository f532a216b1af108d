//! End-to-end checks of `bitarcade 2048`: play, record and replay, bench, bad input.

use std::process::{Command, Output};

fn bitarcade(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bitarcade")).args(args).output().expect("the binary runs")
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

#[test]
fn play_is_the_same_for_any_thread_count_and_replays() {
    let dir = std::env::temp_dir().join(format!("bitarcade-2048-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("games.json");
    let rec_s = rec.to_str().unwrap();
    let base = ["2048", "play", "--games", "3", "--depth", "1", "--seed", "5", "--json"];
    let one = json(&bitarcade(&[&base[..], &["--threads", "1", "--record", rec_s]].concat()));
    let two = json(&bitarcade(&[&base[..], &["--threads", "2"]].concat()));
    assert_eq!(one["summary"], two["summary"]);
    assert_eq!(one["summary"]["games"], 3);
    assert!(one["summary"]["average"].as_f64().unwrap() > 500.0);
    let rep = json(&bitarcade(&["2048", "replay", rec_s, "--json"]));
    assert_eq!(rep["records"], 3);
    assert_eq!(rep["scores"][0], one["games"][0]["score"]);

    // A tampered record fails with exit code 1 and names the step.
    let text = std::fs::read_to_string(&rec).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let moves = v[0]["moves"].as_str().unwrap().to_string();
    let flipped: String = moves
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if i == 5 {
                if c == 'U' {
                    'D'
                } else {
                    'U'
                }
            } else {
                c
            }
        })
        .collect();
    v[0]["moves"] = serde_json::Value::String(flipped);
    std::fs::write(&rec, serde_json::to_string(&v).unwrap()).unwrap();
    let out = bitarcade(&["2048", "replay", rec_s]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("step "));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn budget_play_is_deterministic_and_thread_independent() {
    let base = [
        "2048",
        "play",
        "--games",
        "2",
        "--budget",
        "3000",
        "--min-depth",
        "1",
        "--seed",
        "9",
        "--max-moves",
        "300",
        "--json",
    ];
    let one = json(&bitarcade(&[&base[..], &["--threads", "1"]].concat()));
    let two = json(&bitarcade(&[&base[..], &["--threads", "2"]].concat()));
    assert_eq!(one["summary"], two["summary"]);
    assert!(one["setting"].as_str().unwrap().contains("3000 nodes"));
    // The budget bounds the work: far fewer nodes per move than a fixed depth 4 search.
    let moves = one["summary"]["moves"].as_f64().unwrap();
    assert!(one["summary"]["nodes"].as_f64().unwrap() / moves < 3000.0 * 4.0);
    // The default rule is the budget rule at 500,000 nodes; --depth-offset selects the
    // adaptive rule.
    let short = ["2048", "play", "--games", "1", "--max-moves", "20", "--json"];
    let default = json(&bitarcade(&short));
    assert!(default["setting"].as_str().unwrap().contains("500000 nodes per move, 2..16"));
    let adaptive = json(&bitarcade(&[&short[..], &["--depth-offset", "3"]].concat()));
    assert!(adaptive["setting"].as_str().unwrap().contains("clamp(distinct - 3, 4, 16)"));
    let out = bitarcade(&["2048", "play", "--budget", "100", "--depth", "3"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bench_and_best_run() {
    let b = json(&bitarcade(&[
        "2048",
        "bench",
        "--boards",
        "2000",
        "--random-games",
        "50",
        "--positions",
        "2",
        "--late-positions",
        "2",
        "--json",
    ]));
    assert_eq!(b["engines_agree"], true);
    assert_eq!(b["late_positions"], 2);
    assert_eq!(b["variants_agree"], true);
    assert!(b["fast"]["move_ns_per_call"].as_f64().unwrap() > 0.0);
    let best = json(&bitarcade(&["2048", "best", "2 4 2 4/4 2 4 2/2 4 2 4/4 2 8 8", "--json"]));
    assert!(best["best"] == "L" || best["best"] == "R");
    // `best` takes play's search options: a node budget gives a deterministic answer.
    let board = "2 8 2 ./32 8 4 ./8192 512 128 16/16384 4096 256 64";
    let args = ["2048", "best", board, "--budget", "20000", "--min-depth", "2", "--json"];
    let one = json(&bitarcade(&args));
    assert_eq!(one, json(&bitarcade(&args)));
    assert!(one["depth"].as_u64().unwrap() >= 2 && one["nodes"].as_u64().unwrap() > 0);
    let fixed = json(&bitarcade(&["2048", "best", board, "--depth", "2", "--json"]));
    assert_eq!(fixed["depth"], 2);
}

#[test]
fn gradient_tune_under_a_budget_is_thread_independent() {
    let base = [
        "2048",
        "tune",
        "--method",
        "gradient",
        "--budget",
        "300",
        "--lambda",
        "2",
        "--games",
        "2",
        "--generations",
        "2",
        "--max-moves",
        "80",
        "--tt-bits",
        "10",
        "--json",
    ];
    let one = json(&bitarcade(&[&base[..], &["--threads", "1"]].concat()));
    let two = json(&bitarcade(&[&base[..], &["--threads", "2"]].concat()));
    assert_eq!(one, two);
    assert_eq!(one["method"], "gradient");
    let gens = one["gradient_generations"].as_array().unwrap();
    assert_eq!(gens.len(), 2);
    assert_eq!(gens[1]["params"], one["params"]);
    assert_eq!(gens[0]["plus_scores"].as_array().unwrap().len(), 2);
    assert!(gens[0]["mean_score"].as_f64().unwrap() > 0.0);
}

#[test]
fn bad_input_exits_2_with_one_line() {
    for args in [
        vec!["2048", "best", "2 2 2/. . . ./. . . ./. . . ."],
        vec!["2048", "best", "3 . . ./. . . ./. . . ./. . . ."],
        vec!["2048", "replay", "/nonexistent/game.json"],
        vec!["2048", "play", "--games", "0"],
        vec!["2048", "tune", "--method", "gradient", "--sigma", "0"],
        vec!["2048", "play", "--prob-cutoff", "2"],
        vec!["2048", "best", "2 . . ./. . . ./. . . ./. . . .", "--budget", "9", "--extend", "0.5"],
        vec!["2048", "best", "2 . . ./. . . ./. . . ./. . . .", "--budget", "9", "--boost", "0"],
    ] {
        let out = bitarcade(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        // Our own errors are one line; clap's usage errors add a "--help" hint line.
        assert!(err.lines().next().unwrap_or("").contains("error"), "{args:?}: {err}");
        assert!(!err.contains("panicked") && out.stdout.is_empty(), "{args:?}: {err}");
        if args[1] != "play" {
            assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        }
    }
    let dir = std::env::temp_dir().join(format!("bitarcade-2048-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.json");
    std::fs::write(&f, "{\"game\": \"2048\",\n \"moves\": 7}").unwrap();
    let out = bitarcade(&["2048", "replay", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.json:"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn train_is_reproducible_and_its_network_plays() {
    let dir = std::env::temp_dir().join(format!("bitarcade-2048-nt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let (a, b, c) = (path("a.b48"), path("b.b48"), path("c.b48"));
    let tiny = ["2048", "train", "--tuples", "0,1,2,3/4,5,6,7/0,1,4,5", "--seed", "3"];
    let run = |extra: &[&str]| json(&bitarcade(&[&tiny[..], extra, &["--json"]].concat()));
    let one = run(&["--games", "40", "--out", &a, "--report-every", "20"]);
    assert_eq!(one["games_total"], 40);
    assert_eq!(one["curve"].as_array().unwrap().len(), 2);
    run(&["--games", "40", "--out", &b]);
    // Same arguments, byte-identical file; 20 + 20 from a checkpoint file gives it too.
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    run(&["--games", "20", "--out", &c]);
    let cont =
        json(&bitarcade(&["2048", "train", "--games", "20", "--from", &c, "--out", &c, "--json"]));
    assert_eq!(cont["first_game"], 20);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&c).unwrap());
    // A step per value is divided over the 8 x 3 reads: 0.06 per value is 0.0025 per weight,
    // the default, so the same file; with --alpha as well, one line and exit 2.
    let d = path("d.b48");
    let pv = run(&["--games", "40", "--out", &d, "--alpha-per-value", "0.06"]);
    assert_eq!(pv["alpha"].as_f64().map(|x| x as f32), Some(0.06f32 / 24.0));
    let e = path("e.b48");
    run(&["--games", "40", "--out", &e, "--alpha", &(0.06f32 / 24.0).to_string()]);
    assert_eq!(std::fs::read(&d).unwrap(), std::fs::read(&e).unwrap());
    let both = bitarcade(
        &[&tiny[..], &["--games", "1", "--out", &d, "--alpha", "0.1"]]
            .concat()
            .into_iter()
            .chain(["--alpha-per-value", "0.1"])
            .collect::<Vec<_>>(),
    );
    assert_eq!(both.status.code(), Some(2));

    // Play with the network: greedy and depth 2, same games for any thread count, replayed.
    let base = ["2048", "play", "--games", "3", "--ntuple", &a, "--seed", "4", "--json"];
    let d1 = json(&bitarcade(&[&base[..], &["--depth", "1", "--threads", "1"]].concat()));
    let d1b = json(&bitarcade(&[&base[..], &["--depth", "1", "--threads", "2"]].concat()));
    assert_eq!(d1["summary"], d1b["summary"]);
    assert!(d1["setting"].as_str().unwrap().contains("n-tuple network"));
    let d2 = json(&bitarcade(&[&base[..], &["--max-moves", "150"]].concat()));
    assert!(d2["setting"].as_str().unwrap().contains("depth 2"));
    assert_eq!(d2["summary"]["moves"], 450);
    let best = json(&bitarcade(&[
        "2048",
        "best",
        "2 4 2 4/4 2 4 2/2 4 2 4/4 2 8 8",
        "--ntuple",
        &a,
        "--json",
    ]));
    assert!(best["best"] == "L" || best["best"] == "R");

    // Bad weight files: exit 2, one line naming the file and the defect.
    let bytes = std::fs::read(&a).unwrap();
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"not a weight file at all".to_vec(), "bad magic"),
        (bytes[..bytes.len() - 100].to_vec(), "truncated"),
        (
            {
                let mut v = bytes.clone();
                v[100] ^= 1;
                v
            },
            "checksum mismatch",
        ),
    ];
    let bad = path("bad.b48");
    for (content, what) in cases {
        std::fs::write(&bad, content).unwrap();
        let out = bitarcade(&["2048", "play", "--games", "1", "--ntuple", &bad, "--depth", "1"]);
        assert_eq!(out.status.code(), Some(2), "{what}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains("bad.b48") && err.contains(what), "{err}");
    }
    // A file of another shape than --tuples asks for.
    let out = bitarcade(&[
        "2048", "train", "--games", "1", "--from", &a, "--out", &c, "--tuples", "0,1/4,5",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("shape mismatch"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_seed_range_plays_the_single_seed_games() {
    let range = json(&bitarcade(&[
        "2048",
        "play",
        "--seeds",
        "30000..30002",
        "--depth",
        "1",
        "--threads",
        "2",
        "--json",
    ]));
    assert_eq!(range["summary"]["games"], 3);
    for (i, s) in ["30000", "30001", "30002"].into_iter().enumerate() {
        let one = json(&bitarcade(&[
            "2048", "play", "--games", "1", "--seed", s, "--depth", "1", "--json",
        ]));
        assert_eq!(range["games"][i]["seed"], one["games"][0]["seed"]);
        assert_eq!(range["games"][i]["score"], one["games"][0]["score"]);
    }
    let out = bitarcade(&["2048", "play", "--seeds", "5..2"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_second_stage_trains_reproducibly_plays_and_rejects_bad_files() {
    let dir = std::env::temp_dir().join(format!("bitarcade-2048-ms-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let (one, starts, m1, m2, m3) =
        (path("one.b48"), path("s.txt"), path("m1.b48"), path("m2.b48"), path("m3.b48"));
    json(&bitarcade(&[
        "2048",
        "train",
        "--tuples",
        "0,1,2,3/4,5,6,7/0,1,4,5",
        "--seed",
        "3",
        "--games",
        "30",
        "--out",
        &one,
        "--json",
    ]));
    // The tiny network never builds a 16384: `starts` finds none and writes a file of none.
    let none = path("none.txt");
    let found = json(&bitarcade(&[
        "2048", "starts", "--ntuple", &one, "--games", "6", "--out", &none, "--json",
    ]));
    assert_eq!(found["starts"], 0);
    std::fs::write(
        &starts,
        "# test starts\n16384 2 . ./4 . . ./. . . ./. . . 2\n\
         16384 8 4 ./2 . . ./. . 2 ./. . . .\n8 16384 2 ./. 4 . ./. . . ./2 . . .\n",
    )
    .unwrap();
    let stage = |games: &str, from: &str, out: &str| {
        json(&bitarcade(&[
            "2048", "train", "--stage", "2", "--starts", &starts, "--from", from, "--out", out,
            "--games", games, "--seed", "9", "--json",
        ]))
    };
    let r = stage("20", &one, &m1);
    assert_eq!((r["stage"].as_u64(), r["games_total"].as_u64()), (Some(2), Some(20)));
    stage("20", &one, &m2);
    assert_eq!(std::fs::read(&m1).unwrap(), std::fs::read(&m2).unwrap());
    // 10, then 10 more continuing the two-stage file: the same bytes.
    stage("10", &one, &m3);
    let cont = stage("10", &m3, &m3);
    assert_eq!(cont["first_game"], 10);
    assert_eq!(std::fs::read(&m1).unwrap(), std::fs::read(&m3).unwrap());

    // The two-stage file plays (every game replayed by play) and from the starts.
    let p = json(&bitarcade(&[
        "2048",
        "play",
        "--games",
        "2",
        "--ntuple",
        &m1,
        "--depth",
        "2",
        "--max-moves",
        "60",
        "--json",
    ]));
    assert_eq!(p["summary"]["moves"], 120);
    let fs = json(&bitarcade(&[
        "2048",
        "from-starts",
        "--starts",
        &starts,
        "--ntuple",
        &m1,
        "--threads",
        "2",
        "--json",
    ]));
    let fs1 = json(&bitarcade(&[
        "2048",
        "from-starts",
        "--starts",
        &starts,
        "--ntuple",
        &m1,
        "--threads",
        "1",
        "--json",
    ]));
    assert_eq!((fs["games"].as_u64(), fs["stages"].as_u64()), (Some(3), Some(2)));
    assert_eq!(fs["game_list"], fs1["game_list"]);

    // Bad input: exit 2 and one line naming the file and the defect.
    let fails = |args: &[&str], what: &str| {
        let out = bitarcade(args);
        assert_eq!(out.status.code(), Some(2), "{what}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(what), "{what}: {err}");
    };
    let mut bytes = std::fs::read(&m1).unwrap();
    bytes[12..16].copy_from_slice(&7u32.to_le_bytes());
    let bad = path("bad.b48");
    std::fs::write(&bad, &bytes).unwrap();
    fails(&["2048", "play", "--games", "1", "--ntuple", &bad, "--depth", "1"], "stage count 7");
    fails(
        &["2048", "train", "--games", "1", "--from", &m1, "--out", &bad],
        "2-stage network where one network was expected",
    );
    fails(
        &["2048", "train", "--stage", "2", "--games", "1", "--from", &one, "--out", &bad],
        "stage: 2, needs from (the earlier stages) and starts",
    );
    fails(
        &[
            "2048", "train", "--stage", "3", "--games", "1", "--from", &one, "--out", &bad,
            "--starts", &starts,
        ],
        "has 1 stage(s)",
    );
    fails(&["2048", "from-starts", "--starts", &none, "--ntuple", &m1], "no boards");
    let bad_starts = path("bad.txt");
    std::fs::write(
        &bad_starts,
        "16384 2 . ./. . . ./. . . ./. . . .\n16384 3 . ./. . . ./. . . ./. . . .\n",
    )
    .unwrap();
    fails(&["2048", "from-starts", "--starts", &bad_starts, "--ntuple", &m1], "bad.txt: line 2");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn tc_and_optimistic_training_are_reproducible_and_continue_exactly() {
    let dir = std::env::temp_dir().join(format!("bitarcade-2048-tc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let (a, b, c) = (path("a.b48"), path("b.b48"), path("c.b48"));
    let read = |p: &str| std::fs::read(p).unwrap();
    let tiny = ["2048", "train", "--tuples", "0,1,2,3/4,5,6,7/0,1,4,5", "--seed", "3"];
    let run = |extra: &[&str]| json(&bitarcade(&[&tiny[..], extra, &["--json"]].concat()));
    let tc = ["--method", "tc", "--init", "20000"];
    let one = run(&[&tc[..], &["--games", "40", "--out", &a]].concat());
    assert_eq!((one["method"].as_str(), one["init"].as_f64()), (Some("tc"), Some(20000.0)));
    // The default beta of TC: 1 / (8 x 3 tuples).
    assert_eq!(one["alpha"].as_f64().unwrap() as f32, 1.0 / 24.0);
    run(&[&tc[..], &["--games", "40", "--out", &b]].concat());
    assert_eq!(read(&a), read(&b));
    assert_eq!(read(&format!("{a}.tc")), read(&format!("{b}.tc")));
    // 20 games, then 20 more --from the pair: the same weights and accumulators.
    run(&[&tc[..], &["--games", "20", "--out", &c, "--checkpoint-every", "10"]].concat());
    let cont = json(&bitarcade(&[
        "2048", "train", "--method", "tc", "--games", "20", "--from", &c, "--out", &c, "--json",
    ]));
    assert_eq!(cont["first_game"], 20);
    assert_eq!(read(&a), read(&c));
    assert_eq!(read(&format!("{a}.tc")), read(&format!("{c}.tc")));
    let tmp = |e: std::io::Result<std::fs::DirEntry>| e.unwrap().path().display().to_string();
    let left: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(tmp).filter(|p| p.ends_with(".tmp")).collect();
    assert!(left.is_empty(), "checkpoints go through a renamed temporary: {left:?}");
    // TD from the same optimistic start is another network, and writes no accumulators.
    let d = path("d.b48");
    run(&["--init", "20000", "--games", "40", "--out", &d]);
    assert_ne!(read(&a), read(&d));
    assert!(!std::path::Path::new(&format!("{d}.tc")).exists());
    // TD then TC: fine-tuning the TD network d by TC starts fresh accumulators at TC's
    // beta (not d's TD step), writes them, and changes the weights.
    let e = path("e.b48");
    let ft = run(&[
        "--method",
        "tc",
        "--fresh-accumulators",
        "--games",
        "10",
        "--from",
        &d,
        "--out",
        &e,
    ]);
    assert_eq!((ft["method"].as_str(), ft["first_game"].as_u64()), (Some("tc"), Some(40)));
    assert_eq!(ft["alpha"].as_f64().unwrap() as f32, 1.0 / 24.0);
    assert!(std::path::Path::new(&format!("{e}.tc")).exists());
    assert_ne!(read(&d), read(&e));

    // Bad combinations: exit 2, one line.
    std::fs::copy(&a, path("lone.b48")).unwrap();
    let lone = path("lone.b48");
    for (args, what) in [
        (vec!["--method", "tc", "--games", "1", "--from", &lone, "--out", &c], "lone.b48.tc"),
        (vec!["--init", "5", "--games", "1", "--from", &a, "--out", &c], "init: sets new"),
        (vec!["--fresh-accumulators", "--games", "1", "--from", &d, "--out", &c], "fresh_accum"),
        (
            vec!["--method", "tc", "--fresh-accumulators", "--stage", "2", "--games", "1"]
                .into_iter()
                .chain(["--from", &d, "--out", &c, "--starts", "s.txt"])
                .collect(),
            "fresh_accum",
        ),
        (vec!["--init", "inf", "--games", "1", "--out", &c], "init: inf, must be a finite"),
        // A TC file continued as TD at its own step (beta) would diverge: refused unless an
        // alpha is given.
        (vec!["--games", "1", "--from", &c, "--out", &d], "trained by temporal coherence"),
        (
            vec!["--method", "tc", "--stage", "2", "--games", "1", "--from", &a, "--out", &c]
                .into_iter()
                .chain(["--starts", "starts.txt"])
                .collect(),
            "method tc and init are for stage 1",
        ),
    ] {
        let out = bitarcade(&[&["2048", "train"][..], &args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(what), "{args:?}: {err}");
    }
    // Accumulators of another network (same games count): refused, named.
    std::fs::copy(format!("{c}.tc"), format!("{d}.tc")).unwrap();
    let out =
        bitarcade(&["2048", "train", "--method", "tc", "--games", "1", "--from", &d, "--out", &c]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("d.b48.tc") && err.contains("another weight file"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn old_weight_files_load_play_and_train_as_before() {
    // tests/data/2048-tiny-v1.b48 was written by the binary of 5cc2f2b (before --method and
    // --init): `2048 train --games 300 --seed 3 --alpha 0.01 --tuples 0,1,2/4,5,6`. Today's
    // default (td, init 0) writes the same bytes, and the file plays the same games.
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/2048-tiny-v1.b48");
    let dir = std::env::temp_dir().join(format!("bitarcade-2048-v1-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("v1.b48").to_str().unwrap().to_string();
    let args = ["--games", "300", "--seed", "3", "--alpha", "0.01", "--tuples", "0,1,2/4,5,6"];
    json(&bitarcade(&[&["2048", "train"][..], &args, &["--out", &out, "--json"]].concat()));
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(data).unwrap());
    let play = ["2048", "play", "--games", "5", "--seed", "4", "--ntuple", data, "--depth", "1"];
    let p =
        json(&bitarcade(&[&play[..], &["--tt-bits", "8", "--threads", "1", "--json"]].concat()));
    // The old binary's summary of these 5 games.
    assert_eq!(p["summary"]["average"], 5215.2);
    assert_eq!(p["summary"]["moves"], 1822);
    assert_eq!(p["summary"]["best"], 6344);
    std::fs::remove_dir_all(&dir).ok();
}

/// Standard output without the lines that report timings.
fn untimed(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("game moves/s") && !l.starts_with("search nodes/s"))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn play_best_and_replay_print_exactly_this_text() {
    let play = bitarcade(&[
        "2048",
        "play",
        "--games",
        "2",
        "--depth",
        "1",
        "--seed",
        "5",
        "--threads",
        "1",
        "--max-moves",
        "200",
    ]);
    assert_eq!(
        untimed(&play),
        "setting            expectimax, depth 1 move layers, probability cutoff 0.0001, table 2^20
games              2 (seed 5, 1 threads)
average score      2416 ± 94 (95%)
median score       2416
best score         2464 (best tile 256)
reached 2048          0/2    0.0%  95% CI [0.0, 65.8]
reached 4096          0/2    0.0%  95% CI [0.0, 65.8]
reached 8192          0/2    0.0%  95% CI [0.0, 65.8]
reached 16384         0/2    0.0%  95% CI [0.0, 65.8]
reached 32768         0/2    0.0%  95% CI [0.0, 65.8]
reached 65536         0/2    0.0%  95% CI [0.0, 65.8]
nodes per move     4 (move-generator calls per game move)
"
    );
    let best = bitarcade(&["2048", "best", "2 4 8 16/. . . ./. . . ./. . . .", "--depth", "3"]);
    assert_eq!(
        untimed(&best),
        "    2     4     8    16
    .     .     .     .
    .     .     .     .
    .     .     .     .
best move D (value 1602989, depth 3, 2332 nodes)
"
    );
    let dir = std::env::temp_dir().join(format!("bitarcade-2048-text-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("r12.json");
    let rec_s = rec.to_str().unwrap();
    let args = ["2048", "play", "--games", "1", "--seed", "3", "--depth", "1", "--max-moves", "12"];
    untimed(&bitarcade(&[&args[..], &["--record", rec_s]].concat()));
    assert_eq!(
        untimed(&bitarcade(&["2048", "replay", rec_s])),
        "record 0: ok, score 60, max tile 16\n1 record(s), 12 moves: all replay\n"
    );
    // The boards the moves were chosen on (what scripts/record_boards.py printed).
    let boards = bitarcade(&["2048", "replay", rec_s, "--boards", "--from", "0.5", "--step", "2"]);
    assert_eq!(
        untimed(&boards),
        "6\t4 2 . ./4 . . 2/4 . . ./. . . .\tL\n\
         8\t4 2 . ./4 2 . ./4 2 . ./. . 4 .\tL\n\
         10\t4 2 . ./4 2 . ./4 4 . ./4 . 2 .\tU\n"
    );
    let all = untimed(&bitarcade(&["2048", "replay", rec_s, "--boards"]));
    assert_eq!(all.lines().count(), 12);
    assert!(all.starts_with("0\t. . . ./. . . ./. 2 . ./. . . 2\tL\n"), "{all}");
    let j = json(&bitarcade(&["2048", "replay", rec_s, "--boards", "--step", "5", "--json"]));
    assert_eq!(j["boards"].as_array().unwrap().len(), 3);
    assert_eq!(j["boards"][1]["index"], 5);
    let plain = json(&bitarcade(&["2048", "replay", rec_s, "--json"]));
    assert!(plain.get("boards").is_none());
    let out = bitarcade(&["2048", "replay", rec_s, "--step", "2"]);
    assert_eq!(out.status.code(), Some(2), "--step needs --boards");
}

#[test]
fn train_prints_exactly_this_text() {
    let dir = std::env::temp_dir().join(format!("bitarcade-2048-ttext-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("tt.b48");
    let out_s = out.to_str().unwrap();
    let args = ["2048", "train", "--games", "30", "--tuples", "0,1,2,3/4,5,6,7", "--seed", "3"];
    let run = bitarcade(&[&args[..], &["--out", out_s, "--report-every", "10"]].concat());
    let text: String = untimed(&run)
        .lines()
        .filter(|l| !l.starts_with("played"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        text,
        format!(
            "network      0,1,2,3/4,5,6,7 (131072 weights)
training     td, alpha 0.0025, seed 3, games 0..30
last window  mean score 3158 over 10 games
weights      {out_s} (fingerprint 8ced2a58b984ac12)
"
        )
    );
    let err = String::from_utf8(run.stderr).unwrap();
    assert_eq!(err.lines().count(), 3, "{err}");
    assert!(err.lines().nth(1).unwrap().starts_with(
        "games        20  mean     2412  max    5276  2048   0.0%  8192   0.0%  16384   0.0%"
    ));
}

#[test]
fn play_shards_concatenate_into_the_whole_batch() {
    let base = ["2048", "play", "--games", "5", "--depth", "1", "--seed", "8", "--max-moves", "50"];
    let games = |extra: &[&str]| {
        json(&bitarcade(&[&base[..], extra, &["--json"]].concat()))["games"]
            .as_array()
            .unwrap()
            .clone()
    };
    let whole = games(&[]);
    let mut parts = games(&["--shard", "1/2"]);
    parts.extend(games(&["--shard", "2/2"]));
    assert_eq!(parts, whole);
    let out = bitarcade(&[&base[..], &["--shard", "3/2"]].concat());
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn endgame_tables_build_check_and_advise() {
    let dir = std::env::temp_dir().join(format!("bitarcade-2048-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("442-16.b48t").display().to_string();
    let out = bitarcade(&[
        "2048",
        "tables",
        "--formation",
        "442",
        "--target",
        "16",
        "--out",
        &file,
        "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r = json(&out);
    assert_eq!((r["formation"].as_str(), r["target"].as_u64()), (Some("442"), Some(16)));
    let positions = r["positions"].as_u64().unwrap();
    assert!(positions > 1000);
    // Counted without building: the same positions, and no file.
    let count = ["2048", "tables", "--formation", "442", "--target", "16", "--count", "--json"];
    let c = json(&bitarcade(&count));
    assert_eq!(
        (c["positions"].as_u64(), c["layers"].as_u64()),
        (Some(positions), r["layers"].as_u64())
    );
    assert_eq!(c["file_bytes"].as_u64(), Some(6 * positions));
    assert_eq!((r["slack"].as_u64(), c["slack"].as_u64()), (Some(96), Some(96)));
    // A slack of 40: 28 layers fewer, counted and built alike, and the file says so.
    let narrow = dir.join("442-16-s40.b48t").display().to_string();
    let mut args = vec!["2048", "tables", "--formation", "442", "--target", "16", "--json"];
    args.extend(["--slack", "40"]);
    let run40 = |extra: &[&str]| {
        let mut a = args.clone();
        a.extend_from_slice(extra);
        json(&bitarcade(&a))
    };
    let (c40, r40) = (run40(&["--count"]), run40(&["--out", &narrow]));
    let layers = r["layers"].as_u64().unwrap();
    assert_eq!((r40["layers"].as_u64(), r40["slack"].as_u64()), (Some(layers - 28), Some(40)));
    assert_eq!(c40["positions"], r40["positions"]);
    assert!(r40["positions"].as_u64().unwrap() < positions, "{r40}");
    let info40 = json(&bitarcade(&["2048", "table-info", &narrow, "--json"]));
    assert_eq!(info40["slack"].as_u64(), Some(40));
    // The chances are held in 16 bits: within half a step (1/131,070) of the recursion's.
    assert!(r["worst_difference"].as_f64().unwrap() < 0.5 / 65_535.0 + 1e-6);
    // The snake with 16 to build beside its smallest locked tile: the table answers, with
    // the chance as the value and no search.
    let board = ". . . ./. . . 2/2 8 16 256/4096 2048 1024 512";
    let best = json(&bitarcade(&["2048", "best", board, "--tables", &file, "--json"]));
    assert_eq!(best["nodes"], 0);
    let chance = best["value"].as_f64().unwrap();
    assert!(chance > 0.5 && chance <= 1.0, "{best}");
    // Served from the file (the default) or held in memory: the same answer.
    let memory = ["2048", "best", board, "--tables", &file, "--tables-in-memory", "--json"];
    assert_eq!(json(&bitarcade(&memory)), best);
    // With slack the search chooses among the moves the table rates within it of its best.
    // On this board the table wants down (0.9999) and the search right, which lifts nothing
    // locked: with slack 1 right is played as without tables; with slack 0 only down is
    // allowed, and the search plays it (its value, not the table's chance).
    let split = ". 4 2 4/2 . . 4/. . 16 256/4096 2048 1024 512";
    let run = |extra: &[&str]| {
        let mut args = vec!["2048", "best", split, "--depth", "2", "--json"];
        args.extend_from_slice(extra);
        json(&bitarcade(&args))
    };
    let table = json(&bitarcade(&["2048", "best", split, "--tables", &file, "--json"]));
    let plain = run(&[]);
    assert_eq!((&table["best"], &plain["best"]), (&"D".into(), &"R".into()), "{table} {plain}");
    let any = run(&["--tables", &file, "--table-slack", "1"]);
    let strict = run(&["--tables", &file, "--table-slack", "0"]);
    assert_eq!((&any["best"], &any["value"]), (&plain["best"], &plain["value"]), "{any}");
    assert_eq!(strict["best"], table["best"], "{strict}");
    assert!(strict["value"].as_f64().unwrap() > 1.0, "{strict}");
    assert!(any["table"].is_null() && strict["table"].is_null(), "{any} {strict}");
    // Where no formation stands, the search answers as without tables.
    let other = "2 4 . ./. . . ./. . . ./. . . 2";
    let with =
        json(&bitarcade(&["2048", "best", other, "--tables", &file, "--depth", "2", "--json"]));
    let without = json(&bitarcade(&["2048", "best", other, "--depth", "2", "--json"]));
    assert_eq!(with, without);
    // A lost board past 32768 whose packed view shows two equal 32768s: no move, no search.
    let dead = "2 4 8 16/256 128 64 32/512 1024 2048 4096/65536 32768 16384 8192";
    let r = json(&bitarcade(&["2048", "best", dead, "--json"]));
    assert_eq!(r["best"], serde_json::Value::Null, "{r}");
    // What the file holds, by layer: the layers' positions add up to the build's count.
    let info = json(&bitarcade(&["2048", "table-info", &file, "--json"]));
    assert_eq!((info["formation"].as_str(), info["target"].as_u64()), (Some("442"), Some(16)));
    let layers = info["layers"].as_array().unwrap();
    let sum: u64 = layers.iter().map(|l| l["positions"].as_u64().unwrap()).sum();
    assert_eq!(sum, positions);
    assert_eq!(layers[0]["sum"], 4);
    let text = bitarcade(&["2048", "table-info", &file]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert_eq!(text.lines().count(), layers.len() + 2, "{text}");
    // Rewritten by table-convert: the same table (the same answer and the same layers).
    let copy = dir.join("copy.b48t").display().to_string();
    let r = json(&bitarcade(&["2048", "table-convert", &file, "--out", &copy, "--json"]));
    assert_eq!((r["positions"].as_u64(), r["out"].as_str()), (Some(positions), Some(&*copy)));
    assert_eq!(r["bytes_after"], std::fs::metadata(&copy).unwrap().len());
    assert_eq!(json(&bitarcade(&["2048", "table-info", &copy, "--json"])), info);
    assert_eq!(json(&bitarcade(&["2048", "best", board, "--tables", &copy, "--json"])), best);
    // Bad input: exit 2, one line, naming what.
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[30] ^= 4;
    let bad = dir.join("bad.b48t").display().to_string();
    std::fs::write(&bad, &bytes).unwrap();
    let l5b = dir.join("l5b.b48t").display().to_string();
    for (args, what) in [
        (vec!["2048", "tables", "--formation", "T4", "--out", &file], "formation"),
        (vec!["2048", "tables", "--formation", "T4", "--count"], "formation"),
        (vec!["2048", "tables", "--target", "16"], "--out"),
        (vec!["2048", "tables", "--target", "2048", "--out", &file], "target: 2048"),
        (vec!["2048", "tables", "--target", "16", "--slack", "97", "--out", &file], "slack: 97"),
        (vec!["2048", "tables", "--target", "16", "--slack", "0", "--count"], "slack: 0"),
        (vec!["2048", "tables", "--slack", "2000", "--count"], "slack: 2000"),
        (vec!["2048", "tables", "--formation", "L3", "--target", "1024", "--out", &file], "L3"),
        (vec!["2048", "best", board, "--tables", &bad], "bad.b48t"),
        (vec!["2048", "table-info", &bad], "bad.b48t"),
        (vec!["2048", "table-convert", &bad, "--out", &copy], "bad.b48t: checksum"),
        (vec!["2048", "table-convert", "no-such.b48t", "--out", &copy], "no-such.b48t"),
        (vec!["2048", "best", board, "--tables", &file, "--table-slack", "2"], "table_slack: 2"),
        (vec!["2048", "best", board, "--table-slack", "0.1"], "--tables"),
        (vec!["2048", "best", board, "--tables-in-memory"], "--tables"),
        (vec!["2048", "best", board, "--boost", "2", "--boost-tile", "3"], "boost_tile: 3"),
        (vec!["2048", "best", board, "--boost", "2", "--boost-tile", "65536"], "boost_tile"),
        (vec!["2048", "table-info", "no-such.b48t"], "no-such.b48t"),
        (vec!["2048", "tables", "--formation", "L5b", "--out", &file], "needs the L3b table"),
        (vec!["2048", "tables", "--target", "16", "--then", &file, "--out", &file], "no second"),
        (
            vec![
                "2048",
                "tables",
                "--formation",
                "L5b",
                "--target",
                "16",
                "--then",
                &file,
                "--out",
                &l5b,
            ],
            "is a 442 table for 16, L5b needs L3b for 16",
        ),
    ] {
        let out = bitarcade(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(what), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_five_block_table_is_built_on_its_l3b_table_and_answers_first() {
    let dir = std::env::temp_dir().join(format!("bitarcade-2048-l5b-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).display().to_string();
    let build = |args: &[&str]| {
        let mut all = vec!["2048", "tables", "--verify", "300", "--json"];
        all.extend_from_slice(args);
        let out = bitarcade(&all);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        json(&out)
    };
    let six = build(&["--target", "16", "--out", &path("l3b-16.b48t")]);
    build(&["--target", "8", "--out", &path("l3b-8.b48t")]);
    let five = build(&[
        "--formation",
        "L5b",
        "--target",
        "16",
        "--then",
        &path("l3b-16.b48t"),
        "--out",
        &path("l5b-16.b48t"),
    ]);
    assert_eq!(five["formation"], "L5b", "{five}");
    // Built with its layers on disk (and its L3b table served from its file): the same
    // file, checked from disk, and nothing left in the work directory.
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let spilled = build(&[
        "--formation",
        "L5b",
        "--target",
        "16",
        "--then",
        &path("l3b-16.b48t"),
        "--out",
        &path("l5b-16-disk.b48t"),
        "--work-dir",
        &work.display().to_string(),
    ]);
    assert_eq!(
        std::fs::read(path("l5b-16-disk.b48t")).unwrap(),
        std::fs::read(path("l5b-16.b48t")).unwrap()
    );
    for key in ["positions", "winnable", "best_start", "verified"] {
        assert_eq!(spilled[key], five[key], "{key}: {spilled} {five}");
    }
    assert!(spilled["worst_difference"].as_f64().unwrap() < 0.5 / 65_535.0 + 1e-6, "{spilled}");
    assert_eq!(std::fs::read_dir(&work).unwrap().count(), 0);
    let no_dir =
        ["2048", "tables", "--target", "8", "--out", &path("x.b48t"), "--work-dir", "no-such-dir"];
    let out = bitarcade(&no_dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("work_dir: no-such-dir"));
    assert!(!std::path::Path::new(&path("x.b48t")).exists());
    // Within half a 16-bit step of the recursion (and its f32 rounding).
    assert!(five["worst_difference"].as_f64().unwrap() < 0.5 / 65_535.0 + 1e-6, "{five}");
    // Its caps for a 16 (4s in row 0, in column 0 and beside the block) keep it far
    // smaller than the six-tile table.
    assert!(five["positions"].as_u64() < six["positions"].as_u64(), "{five} {six}");
    // The block's five largest (the smallest a 32), an 8 at (2,1): L3b's table for 8 stands
    // (the 8 the sixth block tile) and so does L5b's for 16; L5b answers, with its chance
    // of building the 16 there and then playing the L3b stage out.
    let board = ". . . ./2 . . ./. 8 32 64/2 128 256 512";
    let all = [path("l3b-8.b48t"), path("l3b-16.b48t"), path("l5b-16.b48t")].join(",");
    let best = json(&bitarcade(&["2048", "best", board, "--tables", &all, "--json"]));
    assert_eq!(best["nodes"], 0, "{best}");
    assert!(best["table"].as_str().unwrap().starts_with("L5b 16: chance"), "{best}");
    let chance = best["value"].as_f64().unwrap();
    assert!(chance > 0.0 && chance < 1.0, "{best}");
    let eight =
        json(&bitarcade(&["2048", "best", board, "--tables", &path("l3b-8.b48t"), "--json"]));
    assert!(eight["table"].as_str().unwrap().starts_with("L3b 8: chance"), "{eight}");
    // Whole games with the three tables served from their files play exactly as with the
    // tables in memory, and the tables play some of their moves.
    let play = |extra: &[&str]| {
        let mut args = vec!["2048", "play", "--games", "3", "--depth", "2", "--tables", &all];
        args.extend_from_slice(extra);
        args.push("--json");
        json(&bitarcade(&args))
    };
    let (served, memory) = (play(&[]), play(&["--tables-in-memory"]));
    assert_eq!(served["games"], memory["games"]);
    assert_eq!(served["setting"], memory["setting"]);
    // The setting names each table with its file's checksum (the file's last 8 bytes), as
    // table-info reports it.
    for name in ["l3b-8.b48t", "l3b-16.b48t", "l5b-16.b48t"] {
        let bytes = std::fs::read(path(name)).unwrap();
        let sum = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap());
        let named = format!("{} ({sum:016x})", path(name));
        assert!(served["setting"].as_str().unwrap().contains(&named), "{named}: {served}");
        let info = json(&bitarcade(&["2048", "table-info", &path(name), "--json"]));
        assert_eq!(info["checksum"], format!("{sum:016x}"), "{info}");
    }
    let served = served["games"].clone();
    let table_moves: u64 =
        served.as_array().unwrap().iter().map(|g| g["table_moves"].as_u64().unwrap_or(0)).sum();
    assert!(table_moves > 0, "{served}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_corner_evaluation_and_its_pruning_are_opt_in() {
    let board = "2 . . ./. . . 4/. 8 . ./. . . 2";
    // Pruning by the pass score needs the corner evaluation; a network cannot be combined
    // with it: exit 2, one line naming the field.
    for (args, what) in [
        (vec!["2048", "best", board, "--prune-below-pass"], "search.prune_below_pass"),
        (vec!["2048", "play", "--games", "1", "--prune-below-pass"], "search.prune_below_pass"),
        (vec!["2048", "best", board, "--eval", "corner", "--ntuple", "n.b48"], "search.eval"),
    ] {
        let out = bitarcade(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(what) && out.stdout.is_empty(), "{args:?}: {err}");
    }
    // With it, the search runs and the setting names the evaluation.
    let b = json(&bitarcade(&[
        "2048",
        "best",
        board,
        "--eval",
        "corner",
        "--prune-below-pass",
        "--depth",
        "2",
        "--json",
    ]));
    assert!(b["best"].is_string(), "{b}");
    let p = json(&bitarcade(&[
        "2048",
        "play",
        "--games",
        "1",
        "--seed",
        "3",
        "--depth",
        "1",
        "--max-moves",
        "100",
        "--eval",
        "corner",
        "--json",
    ]));
    assert!(p["setting"].as_str().unwrap().ends_with("corner evaluation (macroxue/2048-ai)"));
    assert_eq!(p["summary"]["moves"], 100);
}
