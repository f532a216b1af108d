//! End-to-end checks of `bitarcade tetris`: solving with fumen output, records and replay,
//! bad input, sweep and bench.

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

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("bitarcade-tetris-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn pc_prints_a_verified_solution_with_fumen_and_replays() {
    let rec = tmp("pc.json");
    let v = json(&bitarcade(&[
        "tetris",
        "pc",
        "--queue",
        "IOTLJSZIOTS",
        "--json",
        "--record",
        rec.to_str().unwrap(),
    ]));
    assert_eq!(v["found"], true);
    assert_eq!(v["verified"], true);
    assert_eq!(v["height"], 4);
    assert_eq!(v["steps"].as_array().unwrap().len(), 10);
    assert!(v["fumen"].as_str().unwrap().starts_with("v115@"));
    for s in v["steps"].as_array().unwrap() {
        assert!(s["keys"].as_str().unwrap().ends_with("HD"), "{s}");
    }
    let ok = bitarcade(&["tetris", "replay", rec.to_str().unwrap()]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    let text = std::fs::read_to_string(&rec).unwrap();
    // Recorded keys are replayed too: keys that hit the wall fail with exit 1.
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    doc["steps"][0]["keys"] = serde_json::json!("L L L L L L L HD");
    std::fs::write(&rec, doc.to_string()).unwrap();
    let bad = bitarcade(&["tetris", "replay", rec.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(1), "{}", String::from_utf8_lossy(&bad.stderr));
    // A tampered record fails with exit 1.
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    doc["steps"][3]["cells"][0][0] = serde_json::json!(9);
    std::fs::write(&rec, doc.to_string()).unwrap();
    let bad = bitarcade(&["tetris", "replay", rec.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(1));
}

#[test]
fn field_and_fumen_inputs() {
    let field = tmp("field.txt");
    std::fs::write(&field, "##........\n##........\n").unwrap();
    let v = json(&bitarcade(&[
        "tetris",
        "pc",
        "--queue",
        "OOIOO",
        "--field",
        field.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(v["height"], 2);
    // The same field through the solution's fumen (its first page holds the start field).
    let fumen = v["fumen"].as_str().unwrap().to_string();
    let again =
        json(&bitarcade(&["tetris", "pc", "--queue", "OOIOO", "--fumen", &fumen, "--json"]));
    assert_eq!(again["height"], 2);
    assert_eq!(again["steps"], v["steps"]);
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let wide = tmp("wide.txt");
    std::fs::write(&wide, "...........\n").unwrap();
    for args in [
        vec!["tetris", "pc", "--queue", "IOX"],
        vec!["tetris", "pc", "--queue", "IOT"],
        vec!["tetris", "pc", "--queue", "IOTLJSZIOTS", "--field", wide.to_str().unwrap()],
        vec!["tetris", "pc", "--queue", "IOTLJSZIOTS", "--kicks", "nope"],
        vec!["tetris", "pc", "--queue", "IOTLJSZIOTS", "--hold", "IT"],
        vec!["tetris", "pc", "--queue", "IOTLJSZIOTS", "--fumen", "v115@garbage"],
        vec!["tetris", "sweep", "--height", "3"],
        vec!["tetris", "sweep", "--shard", "0/4"],
        vec!["tetris", "percent", "--pattern", "*p8"],
        vec!["tetris", "percent", "--pattern", "[IJX]"],
        vec!["tetris", "percent", "--pattern", "*p7"],
        vec!["tetris", "percent", "--pattern", "*p7", "--height", "7"],
        vec!["tetris", "percent", "--pattern", "*p7", "--height", "2", "--shard", "3/2"],
        vec!["tetris", "percent", "--pattern", "*p7", "--field", wide.to_str().unwrap()],
    ] {
        let out = bitarcade(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
}

#[test]
fn sweep_shard_and_bench_run() {
    let v = json(&bitarcade(&["tetris", "sweep", "--height", "2", "--shard", "1/50", "--json"]));
    assert_eq!(v["items"], 1_155);
    let one = json(&bitarcade(&[
        "tetris",
        "sweep",
        "--height",
        "2",
        "--shard",
        "1/50",
        "--json",
        "--threads",
        "1",
    ]));
    assert_eq!(one["solvable"], v["solvable"]);
    let b = json(&bitarcade(&["tetris", "bench", "--count", "5", "--json"]));
    assert_eq!(b["results"][0]["solved"], 5);
    assert_eq!(b["results"][1]["solved"], 5);
    // Repeated runs: one mean per run, the same answers (signature) as a single run.
    let r = json(&bitarcade(&[
        "tetris", "bench", "--count", "3", "--lines", "4", "--runs", "3", "--json",
    ]));
    let line = &r["results"][0];
    assert_eq!(line["runs"], 3);
    assert_eq!(line["run_means_ms"].as_array().map(Vec::len), Some(3));
    let one = json(&bitarcade(&["tetris", "bench", "--count", "3", "--lines", "4", "--json"]));
    assert_eq!(line["signature"], one["results"][0]["signature"]);
    if cfg!(target_os = "linux") {
        assert!(line["cpu_mean_ms"].as_f64().is_some_and(|c| c > 0.0), "{line}");
    }
}

#[test]
fn kick_file_no_hold_and_save_hold() {
    let kicks = tmp("kicks.txt");
    // SRS for J L S T Z only, written by hand in the documented text form.
    std::fs::write(
        &kicks,
        "# JLSTZ SRS\n\
         JLSTZ N E (0,0) (-1,0) (-1,+1) (0,-2) (-1,-2)\n\
         JLSTZ E N (0,0) (+1,0) (+1,-1) (0,+2) (+1,+2)\n\
         JLSTZ E S (0,0) (+1,0) (+1,-1) (0,+2) (+1,+2)\n\
         JLSTZ S E (0,0) (-1,0) (-1,+1) (0,-2) (-1,-2)\n\
         JLSTZ S W (0,0) (+1,0) (+1,+1) (0,-2) (+1,-2)\n\
         JLSTZ W S (0,0) (-1,0) (-1,-1) (0,+2) (-1,+2)\n\
         JLSTZ W N (0,0) (-1,0) (-1,-1) (0,+2) (-1,+2)\n\
         JLSTZ N W (0,0) (+1,0) (+1,+1) (0,-2) (+1,-2)\n",
    )
    .unwrap();
    let v = json(&bitarcade(&[
        "tetris",
        "pc",
        "--queue",
        "IOTLJSZIOTS",
        "--kicks",
        kicks.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(v["found"], true);
    assert_eq!(v["kicks"], "custom");
    let nohold = json(&bitarcade(&["tetris", "pc", "--queue", "OOOOO", "--no-hold", "--json"]));
    assert_eq!(nohold["steps"].as_array().unwrap().len(), 5);
    assert!(nohold["steps"].as_array().unwrap().iter().all(|s| s["hold"] == false));
    let keep =
        json(&bitarcade(&["tetris", "pc", "--queue", "IOTLJSZIOTS", "--save-hold", "Z", "--json"]));
    if keep["found"] == true {
        let placed: Vec<&str> = keep["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["piece"].as_str().unwrap())
            .collect();
        assert_eq!(placed.iter().filter(|&&p| p == "Z").count(), 0);
    }
    std::fs::write(&kicks, "T N E (0,0) (1 0)\n").unwrap();
    let bad =
        bitarcade(&["tetris", "pc", "--queue", "IOTLJSZIOTS", "--kicks", kicks.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("line 1"));
}

/// The shipped kick table files load through `--kicks FILE` and solve a 3-line PC on the
/// T-spin double field of the tetris crate's `tests/kicks.rs` (where the spins themselves are
/// tested).
#[test]
fn shipped_kick_files_load_and_solve() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tetris/kicks");
    let field = tmp("tsd.txt");
    std::fs::write(&field, "##........\n#...######\n##.#######\n").unwrap();
    for file in ["srs.txt", "srs-plus.txt"] {
        let kicks = dir.join(file);
        let v = json(&bitarcade(&[
            "tetris",
            "pc",
            "--queue",
            "TII",
            "--no-hold",
            "--field",
            field.to_str().unwrap(),
            "--kicks",
            kicks.to_str().unwrap(),
            "--json",
        ]));
        assert_eq!(v["kicks"], "custom");
        assert_eq!(v["found"], true, "{file}");
        assert_eq!(v["height"], 3);
    }
}

#[test]
fn min_height_picks_the_smallest_height_from_there() {
    // 16 pieces: 2, 4 and 6 lines are feasible; from 3 up the answer is 4 lines.
    let q = "IOTLJSZIOTSZLJOI";
    let v = json(&bitarcade(&["tetris", "pc", "--queue", q, "--min-height", "3", "--json"]));
    assert_eq!(v["found"], true);
    assert_eq!(v["verified"], true);
    assert_eq!(v["height"], 4);
    let bad = bitarcade(&["tetris", "pc", "--queue", q, "--min-height", "9"]);
    assert_eq!(bad.status.code(), Some(2), "{}", String::from_utf8_lossy(&bad.stderr));
    let both = bitarcade(&["tetris", "pc", "--queue", q, "--min-height", "3", "--height", "4"]);
    assert_eq!(both.status.code(), Some(2));
}

/// The text of a command's stdout, which must succeed.
fn stdout(args: &[&str]) -> String {
    let out = bitarcade(args);
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The one-line message and exit code of a command that must fail.
fn failure(args: &[&str]) -> (String, i32) {
    let out = bitarcade(args);
    (String::from_utf8(out.stderr).unwrap(), out.status.code().unwrap_or(-1))
}

/// The exact text of `pc` (minus the time), `replay` and `train`, frozen when the verbs moved
/// into `tetris::api`.
#[test]
fn frozen_text_of_pc_replay_and_train() {
    let rec = tmp("frozen.json");
    let text = stdout(&["tetris", "pc", "--queue", "OOOOO", "--record", rec.to_str().unwrap()]);
    let (first, rest) = text.split_once('\n').unwrap();
    assert!(first.starts_with("2-line perfect clear (srs+ kicks, 5 nodes, "), "{first}");
    assert!(first.ends_with(" ms), verified:"), "{first}");
    assert_eq!(
        rest,
        " 1. O N (0,0) (0,1) (1,0) (1,1)  keys: L L L L HD\n \
         2. O N (2,0) (2,1) (3,0) (3,1)  keys: L L HD\n \
         3. O N (4,0) (4,1) (5,0) (5,1)  keys: HD\n \
         4. O N (6,0) (6,1) (7,0) (7,1)  keys: R R HD\n \
         5. O N (8,0) (8,1) (9,0) (9,1)  keys: R R R R HD\n\
         https://harddrop.com/fumen/?v115@vhETJJTqBTrBTsBTtB\n"
    );
    assert_eq!(
        stdout(&["tetris", "replay", rec.to_str().unwrap()]),
        "ok: 5 placements replay to an empty field (2-line PC)\n"
    );
    assert_eq!(
        stdout(&["tetris", "replay", rec.to_str().unwrap(), "--json"]),
        "{\n  \"height\": 2,\n  \"ok\": true,\n  \"steps\": 5\n}\n"
    );
    assert_eq!(
        stdout(&["tetris", "pc", "--queue", "TLJSZIOT", "--hold", "I", "--kicks", "srs"]),
        "no perfect clear\n"
    );
    assert_eq!(
        stdout(&["tetris", "pc", "--queue", "IOTLJSZIOTSZLJOI", "--node-limit", "5"]),
        "no perfect clear found within the node limit\n"
    );
    let train = ["tetris", "train", "--queues", "3", "--generations", "2", "--lambda", "2"];
    assert_eq!(
        stdout(&[&train[..], &["--lines", "4", "--start", "trained"]].concat()),
        "best weights [-58, 0, -20, 0, 7, 0, -12, 0, 6, -30, 15] (total nodes 48 over 3 \
         training queues x 2)\nfeatures: holes, max_height, row_transitions, col_transitions, \
         checker_imbalance, column_imbalance, lines_cleared, used_hold, bumpiness, narrow_gaps, \
         piece_top\n"
    );
}

/// Exact messages and exit codes of bad input and bad records.
#[test]
fn frozen_error_messages() {
    let cases: [(&[&str], &str); 6] = [
        (&["tetris", "pc", "--queue", ""], "queue: must hold at least one piece"),
        (
            &["tetris", "pc", "--queue", "IOT", "--hold", "IO"],
            "hold: \"IO\", must be one piece letter",
        ),
        (
            &["tetris", "pc", "--queue", "IOTLJSZIOTS", "--height", "41"],
            "height 41 is outside 1..=40",
        ),
        (
            &["tetris", "sweep", "--height", "2", "--shard", "4/3"],
            "--shard \"4/3\": expected K/N with 1 <= K <= N",
        ),
        (
            &["tetris", "bench", "--lines", "5"],
            "lines: 5, use an even height from 2 to 40 or 0 for 4 and 6",
        ),
        (
            &["tetris", "train", "--start", "bogus"],
            "start: \"bogus\", use trained, trained4, hand, zero or 11 comma-separated integers",
        ),
    ];
    for (args, msg) in cases {
        assert_eq!(failure(args), (format!("bitarcade: error: {msg}\n"), 2), "{args:?}");
    }
    let rec = tmp("held.json");
    assert!(bitarcade(&[
        "tetris",
        "pc",
        "--queue",
        "IOTLJSZIOTS",
        "--record",
        rec.to_str().unwrap()
    ])
    .status
    .success());
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    doc["steps"][2]["hold"] = serde_json::json!(false);
    std::fs::write(&rec, doc.to_string()).unwrap();
    let (msg, code) = failure(&["tetris", "replay", rec.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(
        msg,
        format!(
            "bitarcade: error: {}: step 3: the record says hold=false but the queue needs hold=true\n",
            rec.display()
        )
    );
}

/// Sweep counts (round-robin shards) and the bench signature, frozen with the move.
#[test]
fn frozen_sweep_counts_and_bench_signature() {
    let v = json(&bitarcade(&["tetris", "sweep", "--height", "2", "--shard", "3/50", "--json"]));
    assert_eq!((v["items"].as_u64(), v["solvable"].as_u64()), (Some(1155), Some(52)));
    assert_eq!(v["shard"], "3/50");
    let b = json(&bitarcade(&["tetris", "bench", "--count", "4", "--lines", "4", "--json"]));
    assert_eq!(b["results"][0]["signature"], "ab6e700b8c7560cf");
    assert_eq!(b["results"][0]["max_nodes"], 519);
    assert_eq!(b["threads"], 1);
}

/// Every example of `tetris pc --help` runs (in order, in a scratch folder, so `--record
/// pc.json` is there for `replay pc.json`) and finds its perfect clear.
#[test]
fn pc_help_examples_work() {
    let help = stdout(&["tetris", "pc", "--help"]);
    let examples: Vec<&str> = help
        .split("Examples:\n")
        .nth(1)
        .expect("an Examples section")
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    assert!(examples.len() >= 5, "{help}");
    let dir = tmp("help-examples");
    std::fs::create_dir_all(&dir).unwrap();
    let exe = env!("CARGO_BIN_EXE_bitarcade");
    for example in examples {
        let line = example.replace("bitarcade ", &format!("{exe} "));
        let out = Command::new("sh").arg("-c").arg(&line).current_dir(&dir).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{example}: {}", String::from_utf8_lossy(&out.stderr));
        let solved = text.contains("-line perfect clear (")
            || text.contains("\"found\": true")
            || text.starts_with("ok: ");
        assert!(solved, "{example}: {text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `percent`: the 2-line counts, shards that add up to the whole, the same answer on one
/// thread, the failing queues in a file and the tree.
#[test]
fn percent_counts_shards_fails_and_tree() {
    let all = "*p6; *p5,*; *p4,*p2; *p3,*p3; *p2,*p4; *,*p5";
    let v = json(&bitarcade(&["tetris", "percent", "--pattern", all, "--height", "2", "--json"]));
    assert_eq!((v["solvable"].as_u64(), v["total"].as_u64()), (Some(5_148), Some(154_980)));
    assert_eq!(v["patterns"].as_array().unwrap().len(), 6);
    assert!(v["checked"].as_u64().unwrap() >= 500);
    let mut sum = (0, 0);
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let s = json(&bitarcade(&[
            "tetris",
            "percent",
            "--pattern",
            all,
            "--height",
            "2",
            "--shard",
            &shard,
            "--json",
            "--threads",
            "1",
            "--check",
            "0",
        ]));
        sum.0 += s["solvable"].as_u64().unwrap();
        sum.1 += s["total"].as_u64().unwrap();
    }
    assert_eq!(sum, (5_148, 154_980));
    // Fails to a file: exactly the queues without a PC.
    let fails = tmp("percent-fails.txt");
    let out = stdout(&[
        "tetris",
        "percent",
        "--pattern",
        "T,*p5",
        "--height",
        "2",
        "--fails",
        fails.to_str().unwrap(),
        "--tree",
        "2",
    ]);
    let listed = std::fs::read_to_string(&fails).unwrap();
    let v =
        json(&bitarcade(&["tetris", "percent", "--pattern", "T,*p5", "--height", "2", "--json"]));
    let bad = v["total"].as_u64().unwrap() - v["solvable"].as_u64().unwrap();
    assert_eq!(listed.lines().count() as u64, bad);
    assert!(listed.lines().all(|q| q.len() == 6 && q.starts_with('T')));
    assert!(out.contains("by first pieces:") && out.contains("  T: "), "{out}");
    assert!(out.contains(&format!("{bad} queues with no PC written to")), "{out}");
}
