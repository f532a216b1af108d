//! End-to-end checks of `bitarcade drop7`: play, record and replay, decide, bad input.

use std::process::{Command, Output};

fn bitarcade(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bitarcade"))
        .args(args)
        .env_remove("BITARCADE_PEXT")
        .output()
        .expect("the bitarcade binary runs")
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

/// The per-game results without their CPU times (which vary from run to run).
fn games(v: &serde_json::Value) -> serde_json::Value {
    let mut r = v["results"].clone();
    for g in r.as_array_mut().expect("results is an array") {
        assert!(g["cpu_seconds"].is_number() || g["cpu_seconds"].is_null());
        g.as_object_mut().unwrap().remove("cpu_seconds");
    }
    r
}

const START: &str =
    "......./......./......./......./......./......./####### next=4 level=1 drops=5 score=0";

#[test]
fn play_is_thread_independent_and_records_replay() {
    let dir = std::env::temp_dir().join(format!("drop7-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("games.json");
    let rec_s = rec.to_str().unwrap();
    let args = ["drop7", "play", "--depth", "1", "--games", "3", "--seed", "5", "--json"];
    let one = json(&bitarcade(&[&args[..], &["-j", "1", "--record", rec_s]].concat()));
    let two = json(&bitarcade(&[&args[..], &["-j", "2"]].concat()));
    assert_eq!(games(&one), games(&two));
    assert_eq!(one["summary"]["games"], 3);
    assert!(one["summary"]["mean"].as_f64().unwrap() > 0.0);
    let ok = json(&bitarcade(&["drop7", "replay", rec_s, "--json"]));
    assert_eq!(ok["ok"], true);
    assert_eq!(ok["games"][0]["score"], one["results"][0]["score"]);
    // A tampered score fails the replay with exit code 1 and names the turn.
    let text = std::fs::read_to_string(&rec).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let s = v[0]["turns"][3]["score"].as_u64().unwrap();
    v[0]["turns"][3]["score"] = (s + 7).into();
    std::fs::write(&rec, v.to_string()).unwrap();
    let bad = bitarcade(&["drop7", "replay", rec_s]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("turn 4"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn decide_gives_seven_values() {
    let v = json(&bitarcade(&["drop7", "decide", START, "--depth", "2", "--json"]));
    let values = v["values"].as_array().unwrap();
    assert_eq!(values.len(), 7);
    let best = v["best_column"].as_u64().unwrap() as usize;
    let max = values.iter().filter_map(|x| x.as_f64()).fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(values[best - 1].as_f64().unwrap(), max);
}

#[test]
fn bad_input_exits_2_with_one_line() {
    for args in [
        vec!["drop7", "decide", "......./......./z next=1 level=1 drops=5 score=0"],
        vec!["drop7", "decide", &START.replace("next=4", "next=9")],
        vec!["drop7", "play", "--mode", "arcade"],
        vec!["drop7", "play", "--eval", "crowding:1,2"],
        vec!["drop7", "play", "--table", "huge"],
        vec!["drop7", "replay", "/nonexistent/record.json"],
    ] {
        let out = bitarcade(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn sequence_mode_plays_the_stream_and_rejects_bad_streams() {
    let dir = std::env::temp_dir().join(format!("drop7-seq-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let stream = dir.join("stream.txt");
    std::fs::write(&stream, "4#2715#3612345\n6457513\n").unwrap();
    let s = stream.to_str().unwrap();
    let v = json(&bitarcade(&[
        "drop7", "play", "--mode", "sequence", "--stream", s, "--depth", "1", "--json",
    ]));
    assert_eq!(v["results"][0]["moves"], 13);
    std::fs::write(&stream, "4#2z\n").unwrap();
    let bad = bitarcade(&["drop7", "play", "--mode", "sequence", "--stream", s]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("line 1, column 4"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn paired_reveals_with_root_samples_play_and_bad_lists_exit_2() {
    let args = [
        "drop7",
        "play",
        "--depth",
        "2",
        "--games",
        "2",
        "--seed",
        "9",
        "--reveals",
        "paired",
        "--reveal-samples",
        "3,1",
        "--eval",
        "ready",
        "--json",
    ];
    let one = json(&bitarcade(&[&args[..], &["-j", "1"]].concat()));
    let two = json(&bitarcade(&[&args[..], &["-j", "2"]].concat()));
    assert_eq!(games(&one), games(&two));
    assert_eq!(one["reveals"], "paired");
    for bad in ["0", "2,x", ""] {
        let out = bitarcade(&["drop7", "play", "--depth", "1", "--reveal-samples", bad]);
        assert_eq!(out.status.code(), Some(2), "--reveal-samples {bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("search.reveal_samples: "), "{err}");
    }
}

#[test]
fn stratified_reveals_play_thread_independently_and_differ_from_paired() {
    let args = ["drop7", "play", "--depth", "2", "--games", "3", "--seed", "5", "--json"];
    let strat = [&args[..], &["--reveals", "stratified"]].concat();
    let one = json(&bitarcade(&[&strat[..], &["-j", "1"]].concat()));
    let two = json(&bitarcade(&[&strat[..], &["-j", "2"]].concat()));
    assert_eq!(games(&one), games(&two));
    assert_eq!(one["reveals"], "stratified");
    let paired = json(&bitarcade(&[&args[..], &["--reveals", "paired"]].concat()));
    assert_ne!(games(&one), games(&paired));
    let out = bitarcade(&["drop7", "play", "--depth", "1", "--reveals", "strata"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("stratified"));
}

#[test]
fn strata_schedules_play_thread_independently_and_bad_lists_exit_2() {
    let args = [
        "drop7",
        "play",
        "--depth",
        "3",
        "--games",
        "2",
        "--seed",
        "4",
        "--reveals",
        "paired",
        "--strata-schedule",
        "0,3",
        "--json",
    ];
    let one = json(&bitarcade(&[&args[..], &["-j", "1"]].concat()));
    let two = json(&bitarcade(&[&args[..], &["-j", "2"]].concat()));
    assert_eq!(games(&one), games(&two));
    assert_eq!(one["chance"], "strata schedule 0,3");
    for bad in ["8", "0,x", ""] {
        let out = bitarcade(&["drop7", "play", "--depth", "1", "--strata-schedule", bad]);
        assert_eq!(out.status.code(), Some(2), "--strata-schedule {bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("search.strata_schedule: "), "{err}");
    }
}

#[test]
fn shards_with_first_game_concatenate_into_the_full_run_and_replay() {
    let dir = std::env::temp_dir().join(format!("drop7-shard-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("shard.json");
    let rec_s = rec.to_str().unwrap();
    let args = ["drop7", "play", "--depth", "2", "--reveals", "paired", "--seed", "3", "--json"];
    let full = json(&bitarcade(&[&args[..], &["--games", "4", "-j", "2"]].concat()));
    let a = json(&bitarcade(&[&args[..], &["--first-game", "0", "--games", "1"]].concat()));
    let b = json(&bitarcade(
        &[&args[..], &["--first-game", "1", "--games", "3", "-j", "2", "--record", rec_s]].concat(),
    ));
    let mut joined = games(&a).as_array().unwrap().clone();
    joined.extend(games(&b).as_array().unwrap().iter().cloned());
    assert_eq!(serde_json::Value::Array(joined), games(&full));
    assert_eq!(b["first_game"], 1);
    assert_eq!(b["results"][0]["index"], 1);
    assert_eq!(full["results"][3]["index"], 3);
    // The shard's records replay on their own.
    let ok = json(&bitarcade(&["drop7", "replay", rec_s, "--json"]));
    assert_eq!(ok["ok"], true);
    assert_eq!(ok["games"][2]["score"], full["results"][3]["score"]);
    // Sequence mode plays one stream: --first-game is refused with exit 2.
    std::fs::write(dir.join("s.txt"), "4#27\n645\n").unwrap();
    let s = dir.join("s.txt");
    let out = bitarcade(&[
        "drop7",
        "play",
        "--mode",
        "sequence",
        "--stream",
        s.to_str().unwrap(),
        "--first-game",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("first_game: "));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn fit_writes_weights_that_fitted_reads_and_bad_weights_exit_2() {
    let dir = std::env::temp_dir().join(format!("drop7-fit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let w = dir.join("w.txt");
    let w_s = w.to_str().unwrap();
    let args = ["drop7", "fit", "--depth", "1", "--games", "6", "--seed", "9", "--json"];
    let one = json(&bitarcade(&[&args[..], &["-j", "1", "--out", w_s]].concat()));
    let two = json(&bitarcade(&[&args[..], &["-j", "2"]].concat()));
    assert_eq!(one["fits"], two["fits"]);
    let one = &one["fits"][0];
    assert_eq!(one["weight_list"].as_array().unwrap().len(), 33);
    assert!(one["samples"].as_u64().unwrap() > 60);
    // The file plays, scaled or not, and equals the same weights given inline.
    let list: Vec<String> =
        one["weight_list"].as_array().unwrap().iter().map(|x| x.to_string()).collect();
    let inline = format!("fitted:{}", list.join(","));
    let file = format!("fitted:@{w_s}");
    let play = |eval: &str| {
        json(&bitarcade(&[
            "drop7", "play", "--eval", eval, "--depth", "1", "--games", "2", "--json",
        ]))
    };
    assert_eq!(games(&play(&file)), games(&play(&inline)));
    assert_eq!(play(&format!("{file}*0.5"))["summary"]["games"], 2);
    // The built-in weights are the committed file's.
    let builtin = "fitted:@../drop7/results/fitted/mix-ready-bigend.txt";
    assert_eq!(games(&play("fitted")), games(&play(builtin)));
    // Bad weights: exit 2, one line naming the source.
    std::fs::write(dir.join("bad.txt"), "bias 1\nv1 x\n").unwrap();
    let bad_file = format!("fitted:@{}", dir.join("bad.txt").to_str().unwrap());
    for bad in ["fitted:1,2,3", "fitted*zero", &bad_file, "fitted:@/nonexistent/w.txt", "fittedx"] {
        let out = bitarcade(&["drop7", "play", "--eval", bad, "--depth", "1"]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{bad}: {err}");
    }
    let err = String::from_utf8_lossy(&bitarcade(&["drop7", "play", "--eval", &bad_file]).stderr)
        .to_string();
    assert!(err.contains("bad.txt:2"), "{err}");
    let out = bitarcade(&["drop7", "fit", "--target", "discount:2", "--games", "2"]);
    assert_eq!(out.status.code(), Some(2));
    // Several targets, one harvest: one file each.
    let args = ["drop7", "fit", "--depth", "1", "--games", "4", "--target", "end,horizon:5"];
    let two = json(&bitarcade(&[&args[..], &["--out", w_s, "--json"]].concat()));
    assert_eq!(two["fits"].as_array().unwrap().len(), 2);
    assert!(dir.join("w.end.txt").exists() && dir.join("w.horizon-5.txt").exists());
    // Sibling rollouts: centred within each position, the same on any thread count.
    let args = ["drop7", "fit", "--depth", "1", "--games", "3", "--rollouts", "3"];
    let args = [&args[..], &["--rollout-depth", "1", "--horizon", "6", "--json"]].concat();
    let one = json(&bitarcade(&[&args[..], &["-j", "1"]].concat()));
    assert_eq!(one["fits"], json(&bitarcade(&[&args[..], &["-j", "2"]].concat()))["fits"]);
    assert!(one["fits"][0]["samples"].as_u64().unwrap() > 20);
    assert!(one["fits"][0]["mean_target"].as_f64().unwrap().abs() < 1e-6);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn train_is_deterministic_resumable_and_its_file_plays() {
    let dir = std::env::temp_dir().join(format!("drop7-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let (all, half, rest, again) =
        (path("all.d7n"), path("half.d7n"), path("rest.d7n"), path("again.d7n"));
    let train = |games: &str, out: &str, from: Option<&str>| {
        let mut args = vec!["drop7", "train", "--games", games, "--seed", "3", "--alpha", "0.02"];
        args.extend(["--shape", "rows=0111222 size=4099", "--out", out, "--json"]);
        if let Some(f) = from {
            args.extend(["--from", f]);
        }
        json(&bitarcade(&args))
    };
    let a = train("60", &all, None);
    assert_eq!(a["games_total"], 60);
    train("60", &again, None);
    train("25", &half, None);
    let r = train("35", &rest, Some(&half));
    assert_eq!(r["games_total"], 60);
    let bytes = std::fs::read(&all).unwrap();
    assert_eq!(bytes, std::fs::read(&again).unwrap(), "same arguments, same bytes");
    assert_eq!(bytes, std::fs::read(&rest).unwrap(), "25 then 35 --from equals 60");
    // The file is a leaf evaluator for play and ab.
    let eval = format!("ntuple:@{all}");
    let play = |j: &str| {
        json(&bitarcade(&[
            "drop7", "play", "--eval", &eval, "--depth", "2", "--games", "2", "--seed", "4", "-j",
            j, "--json",
        ]))
    };
    assert_eq!(games(&play("1")), games(&play("2")));
    let ab = json(&bitarcade(&[
        "drop7", "ab", "--a", &eval, "--b", "ready", "--depth", "1", "--games", "4", "--json",
    ]));
    assert_eq!(ab["a"], eval.as_str());
    // Bad files and flags: one line, exit 2.
    let mut broken = bytes.clone();
    let n = broken.len();
    broken[n - 20] ^= 0x40;
    std::fs::write(path("broken.d7n"), &broken).unwrap();
    std::fs::write(path("short.d7n"), &bytes[..40]).unwrap();
    std::fs::write(path("text.d7n"), "hello").unwrap();
    for (file, what) in
        [("broken.d7n", "checksum"), ("short.d7n", "truncated"), ("text.d7n", "magic")]
    {
        let out = bitarcade(&["drop7", "play", "--eval", &format!("ntuple:@{}", path(file))]);
        assert_eq!(out.status.code(), Some(2), "{file}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(what) && err.contains(file), "{err}");
    }
    let seed_mismatch = bitarcade(&[
        "drop7",
        "train",
        "--games",
        "1",
        "--seed",
        "4",
        "--from",
        &all,
        "--out",
        &path("x.d7n"),
    ]);
    assert_eq!(seed_mismatch.status.code(), Some(2));
    for bad in [
        &["--shape", "rows=0123 size=9"][..],
        &["--alpha", "-1"],
        &["--shape", "rows=0112233 size=0"],
    ] {
        let mut args = vec!["drop7", "train", "--games", "1", "--out", &again];
        args.extend_from_slice(bad);
        assert_eq!(bitarcade(&args).status.code(), Some(2), "{bad:?}");
    }
    assert_eq!(bitarcade(&["drop7", "play", "--eval", "ntuple"]).status.code(), Some(2));
    // Blocks added to a trained file, trained on by a depth-2 behaviour policy: deterministic,
    // and the extended file plays.
    let deep = |out: &str, shape: &str| {
        bitarcade(&[
            "drop7",
            "train",
            "--games",
            "3",
            "--seed",
            "3",
            "--alpha",
            "0.01",
            "--from",
            &all,
            "--shape",
            shape,
            "--policy-depth",
            "2",
            "--out",
            out,
            "--json",
        ])
    };
    let blocks = "rows=0111222 size=4099 blocks=2x3";
    let d = json(&deep(&path("deep.d7n"), blocks));
    assert_eq!((d["games_total"].as_u64(), d["policy_depth"].as_u64()), (Some(63), Some(2)));
    assert_eq!(d["shape"], blocks);
    json(&deep(&path("deep2.d7n"), blocks));
    assert_eq!(std::fs::read(path("deep.d7n")).unwrap(), std::fs::read(path("deep2.d7n")).unwrap());
    let eval = format!("ntuple:@{}", path("deep.d7n"));
    json(&bitarcade(&["drop7", "play", "--eval", &eval, "--depth", "1", "--games", "2", "--json"]));
    let both = format!("ntuple:@{all}+@{}", path("deep.d7n"));
    let mean = json(&bitarcade(&[
        "drop7", "ab", "--a", &both, "--b", &eval, "--depth", "1", "--games", "2", "--json",
    ]));
    assert_eq!(mean["a"], both.as_str());
    let other = deep(&path("x.d7n"), "rows=0112233 size=4099 blocks=2x3");
    assert_eq!(other.status.code(), Some(2), "a --shape that is not the file's shape");
}

#[test]
fn budget_play_is_thread_independent_replays_and_names_its_rule() {
    let dir = std::env::temp_dir().join(format!("drop7-cli-budget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("games.json");
    let rec_s = rec.to_str().unwrap();
    let base = ["drop7", "play", "--reveals", "paired", "--games", "3", "--seed", "6"];
    let budget =
        [&base[..], &["--max-moves", "25", "--budget", "12000", "--min-depth", "1"]].concat();
    let budget = [&budget[..], &["--max-depth", "3", "--json"]].concat();
    let one = json(&bitarcade(&[&budget[..], &["-j", "1", "--record", rec_s]].concat()));
    let two = json(&bitarcade(&[&budget[..], &["-j", "2"]].concat()));
    assert_eq!(games(&one), games(&two));
    assert_eq!(one["depth"], serde_json::Value::Null);
    assert_eq!(one["rule"]["budget"]["moves"], 12000);
    let depths: Vec<u64> =
        one["depths"].as_array().unwrap().iter().map(|d| d.as_u64().unwrap()).collect();
    assert_eq!(depths.iter().sum::<u64>(), 75, "{depths:?}");
    assert!(depths[2] > 0 && depths[3] > 0 && depths[4..].iter().all(|&n| n == 0), "{depths:?}");
    let ok = json(&bitarcade(&["drop7", "replay", rec_s, "--json"]));
    assert_eq!(ok["ok"], true);
    let text = std::fs::read_to_string(&rec).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v[0]["rule"]["budget"]["min"], 1);
    // A budget that cannot deepen plays the fixed depth's games.
    let fixed = [&base[..], &["--max-moves", "25", "--depth", "2", "--json"]].concat();
    let zero = [&base[..], &["--max-moves", "25", "--budget", "0", "--min-depth", "2"]].concat();
    let zero = [&zero[..], &["--json"]].concat();
    let (f, z) = (json(&bitarcade(&fixed)), json(&bitarcade(&zero)));
    assert_eq!(games(&f), games(&z));
    assert_eq!(f["depth"], 2);
    assert!(f.get("rule").is_none());
    // decide reports the depth it reached and the moves it spent.
    let d = json(&bitarcade(&[
        "drop7",
        "decide",
        START,
        "--budget",
        "0",
        "--min-depth",
        "2",
        "--json",
    ]));
    assert_eq!(d["depth"], 2);
    let d = ["drop7", "decide", START, "--budget", "99999999", "--max-depth", "4", "--json"];
    let d = json(&bitarcade(&d));
    assert_eq!(d["depth"], 4);
    assert!(d["stats"]["moves"].as_u64().unwrap() > 0);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_budgets_exit_2_with_one_line() {
    for extra in [
        vec!["--budget", "1000", "--min-depth", "5", "--max-depth", "4"],
        vec!["--budget", "1000", "--max-depth", "8"],
        vec!["--budget", "0", "--min-depth", "0"],
        vec!["--budget", "1000", "--reveal-samples", "2,1"],
    ] {
        for verb in ["play", "decide", "ab"] {
            let mut args = vec!["drop7", verb];
            match verb {
                "decide" => args.push(START),
                "ab" => args.extend(["--a", "ready", "--b", "points"]),
                _ => {}
            }
            args.extend(&extra);
            let out = bitarcade(&args);
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        }
    }
    // --budget and --depth conflict; --min-depth needs --budget.
    for args in [
        vec!["drop7", "play", "--budget", "1000", "--depth", "3"],
        vec!["drop7", "play", "--min-depth", "3"],
        vec!["drop7", "fit", "--budget", "1000"],
    ] {
        assert_eq!(bitarcade(&args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn tc_training_is_reproducible_continues_exactly_and_refuses_unpaired_files() {
    let dir = std::env::temp_dir().join(format!("drop7-tc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let train = |games: &str, out: &str, method: &str, from: Option<&str>| {
        let mut args = vec!["drop7", "train", "--games", games, "--seed", "3", "--alpha", "0.05"];
        args.extend(["--method", method, "--shape", "rows=0111222 size=4099", "--out", out]);
        if let Some(f) = from {
            args.extend(["--from", f]);
        }
        args.push("--json");
        bitarcade(&args)
    };
    let (all, half, rest, td) =
        (path("all.d7n"), path("half.d7n"), path("rest.d7n"), path("td.d7n"));
    let a = json(&train("40", &all, "tc", None));
    assert_eq!((a["games_total"].as_u64(), a["method"].as_str()), (Some(40), Some("tc")));
    json(&train("15", &half, "tc", None));
    json(&train("25", &rest, "tc", Some(&half)));
    json(&train("40", &td, "td", None));
    let read = |p: &str| std::fs::read(p).unwrap();
    assert_eq!(read(&all), read(&rest), "15 then 25 --from equals 40 (weights)");
    assert_eq!(read(&format!("{all}.tc")), read(&format!("{rest}.tc")), "and accumulators");
    assert_ne!(read(&all), read(&td), "tc learns other weights than td");
    assert!(!std::path::Path::new(&format!("{td}.tc")).exists(), "td writes no accumulators");
    let tmp = |e: std::io::Result<std::fs::DirEntry>| e.unwrap().path().display().to_string();
    let left: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(tmp).filter(|p| p.ends_with(".tmp")).collect();
    assert!(left.is_empty(), "files are written through a renamed temporary: {left:?}");
    // The file plays as a leaf.
    let eval = format!("ntuple:@{all}");
    let play = json(&bitarcade(&[
        "drop7", "play", "--eval", &eval, "--depth", "1", "--games", "2", "--seed", "4", "--json",
    ]));
    assert_eq!(games(&play).as_array().map(Vec::len), Some(2));
    // Continuing with tc needs the accumulators that go with the file: one line, exit 2.
    let one_line = |out: Output, what: &str| {
        assert_eq!(out.status.code(), Some(2), "{what}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(what), "{err}");
    };
    one_line(train("5", &path("x.d7n"), "tc", Some(&td)), "cannot read");
    std::fs::copy(format!("{half}.tc"), format!("{all}.tc")).unwrap();
    one_line(train("5", &path("y.d7n"), "tc", Some(&all)), "another weight file");
    let mut args = vec!["drop7", "train", "--games", "2", "--method", "tc", "--policy-depth", "2"];
    args.extend(["--out", &td]);
    one_line(bitarcade(&args), "method: tc trains with policy_depth 1 only");
    // Continuing without --alpha keeps the file's step (0.05 here, not the new-file 0.005),
    // so 15 then 25 TD games are the 40 of one run; another step is said and recorded.
    let td_from = |games: &str, out: &str, from: &str, alpha: Option<&str>| {
        let mut args = vec!["drop7", "train", "--games", games, "--seed", "3", "--from", from];
        args.extend(["--out", out, "--json"]);
        if let Some(a) = alpha {
            args.extend(["--alpha", a]);
        }
        bitarcade(&args)
    };
    let td_half = path("td-half.d7n");
    json(&train("15", &td_half, "td", None));
    let cont = json(&td_from("25", &path("td-rest.d7n"), &td_half, None));
    assert_eq!(cont["alpha"].as_f64(), Some(f64::from(0.05f32)));
    assert_eq!(read(&td), read(&path("td-rest.d7n")), "the file's step, continued exactly");
    let out = td_from("5", &path("td-new.d7n"), &td_half, Some("0.01"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("trained with alpha 0.05"));
    assert_eq!(json(&out)["alpha"].as_f64(), Some(f64::from(0.01f32)));
    std::fs::remove_dir_all(&dir).ok();
}

/// Stdout of a successful run.
fn stdout(out: Output) -> String {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

const DECIDE_AT: &str =
    "......./......./......./......./......./..3..../####### next=5 level=1 drops=4 score=0";

#[test]
fn decide_text_is_frozen() {
    let text = stdout(bitarcade(&["drop7", "decide", DECIDE_AT, "--depth", "3"]));
    let want = "\
......./......./......./......./......./..3..../####### next=5 level=1 drops=4 score=0
column 1:        -9251.5
column 2:        -9203.3  <- best
column 3:        -9801.1
column 4:        -9295.5
column 5:        -9247.5
column 6:        -9226.0
column 7:        -9281.1
after: ......./......./......./......./......./.53..../####### next=# level=1 drops=3 score=0
depth 3 (3): 16221 moves searched in ";
    assert!(text.starts_with(want), "{text}");
    let args = ["--reveals", "paired", "--budget", "40000", "--min-depth", "2", "--max-depth", "4"];
    let text = stdout(bitarcade(&[&["drop7", "decide", DECIDE_AT][..], &args[..]].concat()));
    assert!(text.contains("column 4:        -9165.0  <- best\n"), "{text}");
    assert!(text.contains("\ndepth 3 (budget 40000 (2..4)): 15816 moves searched in "), "{text}");
}

#[test]
fn play_ab_and_fit_text_is_frozen() {
    let args = ["drop7", "play", "--depth", "1", "--games", "3", "--seed", "5", "-j", "1"];
    let text =
        stdout(bitarcade(&[&args[..], &["--eval", "crowding", "--max-moves", "20"]].concat()));
    assert_eq!(
        text.lines().nth(3),
        Some("3 games, hardcore mode, depth 1, eval crowding:600,500,250,800,3000, reveals stratified, table direct: mean 69062 (95% CI 67440..70684), median 68710, best 69815, worst 68660")
    );
    let args = ["drop7", "ab", "--a", "crowding", "--b", "points", "--games", "6", "--depth", "1"];
    let text = stdout(bitarcade(&[&args[..], &["-j", "1", "--max-moves", "60"]].concat()));
    assert_eq!(
        text,
        "\
A crowding:600,500,250,800,3000 (reveals stratified, samples 1): mean 118672, median 112922, best 158411
B points (reveals stratified, samples 1): mean 97790, median 103028, best 104903
A - B over 6 paired games: 20881 (95% CI -6521..48284), paired t = 1.96, p = 0.0501; A better in 5, B in 1
"
    );
    let text = stdout(bitarcade(&["drop7", "fit", "--depth", "1", "--games", "6", "--seed", "9"]));
    assert!(text.starts_with("\
# drop7 fit: --eval ready:900,500,375,800,4500,1200,0 --depth 1 --reveals stratified --games 6 --seed 9 --target end --ridge 0.001
# 284 boards, mean target 76526, R^2 0.8398, held out (2 folds by game) 0.6359
bias 139465.54293607062
v1 -13631.570909018801
"), "{text}");
}

#[test]
fn shards_of_play_and_sweep_concatenate_and_bad_shards_exit_2() {
    let args = ["drop7", "play", "--depth", "1", "--games", "5", "--seed", "2", "--json"];
    let args = [&args[..], &["--max-moves", "30", "--first-game", "3"]].concat();
    let full = json(&bitarcade(&args));
    let mut parts = Vec::new();
    for s in ["1/3", "2/3", "3/3"] {
        let part = json(&bitarcade(&[&args[..], &["--shard", s]].concat()));
        parts.extend(games(&part).as_array().unwrap().clone());
    }
    assert_eq!(serde_json::Value::Array(parts), games(&full));
    let sweep = |extra: &[&str]| {
        let args =
            ["drop7", "sweep", "--mode", "normal", "--games", "100", "--seed", "9", "--json"];
        json(&bitarcade(&[&args[..], extra].concat()))["turns"].as_u64().unwrap()
    };
    assert_eq!(sweep(&[]), 13145);
    assert_eq!(sweep(&["--shard", "1/2"]) + sweep(&["--shard", "2/2"]), 13145);
    let out = bitarcade(&["drop7", "play", "--depth", "1", "--shard", "3/2"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim(), "bitarcade: error: --shard \"3/2\": expected K/N with 1 <= K <= N");
}

#[test]
fn mix_writes_what_mix_weights_py_wrote() {
    let fitted = concat!(env!("CARGO_MANIFEST_DIR"), "/../drop7/results/fitted");
    let body = |text: &str| text.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    let file = |name: &str| std::fs::read_to_string(format!("{fitted}/{name}")).unwrap();
    let ready = stdout(bitarcade(&["drop7", "mix", "1", "ready"]));
    assert_eq!(ready.lines().next(), Some("# drop7 mix: 1 * ready"));
    assert_eq!(body(&ready), body(&file("ready.txt")));
    let big = format!("{fitted}/big.end.txt");
    let mixed = stdout(bitarcade(&["drop7", "mix", "0.5", "ready", "0.5", &big]));
    assert_eq!(body(&mixed), body(&file("mix-ready-bigend.txt")));
    let out = bitarcade(&["drop7", "mix", "1", "ready", "2"]);
    assert_eq!(out.status.code(), Some(2));
    let out = bitarcade(&["drop7", "mix", "1", "/nonexistent/w.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/w.txt: cannot read"));
}

#[test]
fn tune_is_deterministic_its_best_replays_and_bad_starts_exit_2() {
    let args = ["drop7", "tune", "--depth", "1", "--games", "3", "--seed", "4", "--passes", "1"];
    let args = [&args[..], &["--max-moves", "40"]].concat();
    let text = stdout(bitarcade(&args));
    assert_eq!(text, stdout(bitarcade(&[&args[..], &["-j", "1"]].concat())));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("start ready:600,500,250,800,3000,1200,0 mean "), "{text}");
    assert!((8..=16).contains(&lines.len()), "{text}");
    // The best line's weights, played as a plain batch, give its mean.
    let best: Vec<&str> = lines.last().unwrap().split(' ').collect();
    assert_eq!(best[0], "best", "{text}");
    let play = json(&bitarcade(&[
        "drop7",
        "play",
        "--eval",
        best[1],
        "--depth",
        "1",
        "--games",
        "3",
        "--seed",
        "4",
        "--max-moves",
        "40",
        "--json",
    ]));
    let mean = play["summary"]["mean"].as_f64().unwrap();
    assert_eq!(format!("{mean:.0}"), best[2], "{text}");
    for bad in ["1,2", "a,b,c,d,e,f,g"] {
        let out = bitarcade(&["drop7", "tune", "--start", bad, "--games", "1"]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("start: "), "{err}");
    }
}

#[test]
fn anchor_networks_train_resume_play_and_bad_flags_exit_2() {
    let dir = std::env::temp_dir().join(format!("drop7-anchor-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let (all, half, rest) = (path("all.d7n"), path("half.d7n"), path("rest.d7n"));
    let train = |games: &str, out: &str, extra: &[&str]| {
        let mut args = vec!["drop7", "train", "--games", games, "--seed", "9", "--alpha", "0.001"];
        args.extend(["--out", out, "--json"]);
        args.extend(extra);
        bitarcade(&args)
    };
    let new = ["--shape", "anchor size=1009", "--optimistic", "5000"];
    let a = json(&train("40", &all, &new));
    assert_eq!(a["shape"], "anchor size=1009");
    json(&train("15", &half, &new));
    json(&train("25", &rest, &["--from", &half]));
    let bytes = std::fs::read(&all).unwrap();
    assert_eq!(bytes, std::fs::read(&rest).unwrap(), "15 then 25 --from equals 40");
    // 74 tables of 5 phases: 14 lines and 60 windows of 1009 entries a phase, after a header
    assert!(bytes.len() > 4 * 74 * 5 * 1009, "{}", bytes.len());
    // drop7-bench's recipe (TC, optimistic start, clamp, 7 reveal samples) on a folded anchor:
    // the settings are reported, and the run is deterministic.
    let recipe = [
        "--shape",
        "anchor size=1009",
        "--method",
        "tc",
        "--optimistic",
        "340000",
        "--clamp",
        "510000",
        "--reveal-samples",
        "7",
    ];
    let (r1, r2) = (path("r1.d7n"), path("r2.d7n"));
    let r = json(&train("30", &r1, &recipe));
    assert_eq!((r["reveal_samples"].as_u64(), r["clamp"].as_f64()), (Some(7), Some(510000.0)));
    json(&train("30", &r2, &recipe));
    // The text report names the policy's settings (the weight file does not keep them).
    let r3 = path("r3.d7n");
    let mut args = vec!["drop7", "train", "--games", "2", "--out", &r3];
    args.extend(recipe);
    let text = String::from_utf8(bitarcade(&args).stdout).unwrap();
    assert!(text.contains("tc alpha 0.005, 7 reveal samples, clamp 510000)"), "{text}");
    assert_eq!(std::fs::read(&r1).unwrap(), std::fs::read(&r2).unwrap());
    assert_eq!(std::fs::read(r1.clone() + ".tc").unwrap(), std::fs::read(r2 + ".tc").unwrap());
    let eval = format!("ntuple:@{all}");
    let play = json(&bitarcade(&[
        "drop7", "play", "--eval", &eval, "--depth", "2", "--games", "2", "--seed", "4", "--json",
    ]));
    assert_eq!(play["results"].as_array().unwrap().len(), 2);
    // Refusals: one line, exit 2, naming the flag.
    let refused = |out: Output, word: &str| {
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(word), "{word}: {err}");
    };
    let x = path("x.d7n");
    // TC continued from a 2.1 GB weight file would hold 24 bytes a weight while loading: refused
    // before a byte is read (the file is sparse: it takes no disk).
    let big = path("big.d7n");
    std::fs::File::create(&big).unwrap().set_len(2_100_000_000).unwrap();
    refused(train("1", &x, &["--from", &big, "--method", "tc"]), "(by its size, unread)");
    refused(train("1", &x, &["--clamp", "0"]), "clamp");
    refused(train("1", &x, &["--clamp", "nan"]), "clamp");
    let out = train("1", &x, &["--reveal-samples", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("'--reveal-samples <K>': 0 is not in 1..=7")
    );
    refused(train("1", &x, &["--reveal-samples", "3", "--policy-depth", "2"]), "reveal_samples");
    refused(train("1", &x, &["--shape", "anchor size=0"]), "size");
    refused(train("1", &x, &["--shape", "anchor blocks=2x3"]), "blocks");
    refused(train("1", &x, &["--from", &all, "--optimistic", "10"]), "optimistic");
    refused(train("1", &x, &["--shape", "anchor size=7", "--optimistic", "inf"]), "optimistic");
    assert!(!std::path::Path::new(&x).exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn average_writes_the_mean_network_that_values_as_the_two_file_leaf() {
    let dir = std::env::temp_dir().join(format!("drop7-average-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let train = |seed: &str, shape: &str, out: &str| {
        let out = bitarcade(&[
            "drop7", "train", "--games", "30", "--seed", seed, "--alpha", "0.02", "--shape", shape,
            "--out", out, "--json",
        ]);
        json(&out)
    };
    let (a, b, c) = (path("a.d7n"), path("b.d7n"), path("c.d7n"));
    train("3", "rows=0111222 size=4099", &a);
    train("4", "rows=0111222 size=4099", &b);
    train("5", "rows=0112233 size=4099", &c);
    let (m, again) = (path("m.d7n"), path("again.d7n"));
    let r = json(&bitarcade(&["drop7", "average", &a, &b, "--out", &m, "--json"]));
    assert_eq!((r["games"].as_u64(), r["seed"].as_u64()), (Some(30), Some(3)), "a's header");
    assert_eq!(r["weights"], 20495);
    let text = bitarcade(&["drop7", "average", &a, &b, "--out", &again]);
    assert!(text.status.success());
    let line = String::from_utf8_lossy(&text.stdout);
    assert!(
        line.contains("the mean of 2 networks")
            && line.contains(r["fingerprint"].as_str().unwrap()),
        "{line}"
    );
    assert_eq!(
        std::fs::read(&m).unwrap(),
        std::fs::read(&again).unwrap(),
        "same files, same bytes"
    );
    // `info` reads the header and fingerprint back.
    let info = json(&bitarcade(&["drop7", "info", &m, &a, "--json"]));
    assert_eq!(info[0]["fingerprint"], r["fingerprint"]);
    assert_eq!((info[0]["games"].as_u64(), info[1]["games"].as_u64()), (Some(30), Some(30)));
    assert_ne!(info[0]["fingerprint"], info[1]["fingerprint"]);
    let text = bitarcade(&["drop7", "info", &m]);
    let line = String::from_utf8_lossy(&text.stdout);
    assert!(
        line.contains(r["fingerprint"].as_str().unwrap()) && line.contains("30 games"),
        "{line}"
    );
    // The mean file values every column as the two-file leaf does, up to f32 rounding.
    let values = |eval: &str| {
        let v =
            json(&bitarcade(&["drop7", "decide", START, "--eval", eval, "--depth", "2", "--json"]));
        v["values"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect::<Vec<_>>()
    };
    let (one, two) = (values(&format!("ntuple:@{m}")), values(&format!("ntuple:@{a}+@{b}")));
    let (va, vb) = (values(&format!("ntuple:@{a}")), values(&format!("ntuple:@{b}")));
    assert_ne!(va, vb, "the two networks differ");
    for (x, y) in one.iter().zip(&two) {
        assert!((x - y).abs() <= 1e-4 * y.abs().max(1.0), "{one:?} vs {two:?}");
    }
    // Bad input: one line, exit 2.
    std::fs::write(path("text.d7n"), "hello").unwrap();
    for (args, what) in [
        (vec![a.as_str()], "2 values required"),
        (vec![&a, &c], "shape"),
        (vec![&a, &path("missing.d7n")], "cannot read"),
        (vec![&a, &path("text.d7n")], "magic"),
    ] {
        let x = path("x.d7n");
        let mut all = vec!["drop7", "average"];
        all.extend(args.iter().copied());
        all.extend(["--out", &x]);
        let out = bitarcade(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(what), "{err}");
        if what != "2 values required" {
            assert_eq!(err.trim().lines().count(), 1, "{err}");
        }
    }
    assert!(!dir.join("x.d7n").exists(), "nothing written on error");
    for bad in [path("text.d7n"), path("missing.d7n")] {
        let out = bitarcade(&["drop7", "info", &m, &bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.trim().lines().count() == 1 && err.contains(&bad), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
