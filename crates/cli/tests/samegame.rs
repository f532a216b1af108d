//! End-to-end checks of `bitarcade samegame`.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bitarcade"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bitarcade runs");
    if let Some(text) = stdin {
        child.stdin.take().expect("stdin").write_all(text.as_bytes()).expect("write stdin");
    }
    drop(child.stdin.take());
    child.wait_with_output().expect("bitarcade finishes")
}

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).expect("utf-8")
}

#[test]
fn gen_solve_record_replay_show() {
    let dir = std::env::temp_dir().join(format!("bitarcade-sg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let board = ok(&run(
        &["samegame", "gen", "--width", "8", "--height", "6", "--colors", "3", "--seed", "5"],
        None,
    ));
    assert_eq!(board.lines().count(), 6);
    let rec = dir.join("game.json");
    let json = ok(&run(
        &["samegame", "solve", "-", "--width", "50", "--json", "--record", rec.to_str().unwrap()],
        Some(&board),
    ));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let score = v["boards"][0]["score"].as_i64().unwrap();
    let replay = ok(&run(&["samegame", "replay", rec.to_str().unwrap(), "--json"], None));
    let r: serde_json::Value = serde_json::from_str(&replay).unwrap();
    assert_eq!(r["score"].as_i64(), Some(score));
    let shown = ok(&run(&["samegame", "show", rec.to_str().unwrap()], None));
    assert!(shown.contains('*') && shown.contains("final"));

    // A tampered record fails replay with exit code 1 and names the move.
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    doc["moves"][0]["points"] = serde_json::json!(12345);
    std::fs::write(&rec, doc.to_string()).unwrap();
    let bad = run(&["samegame", "replay", rec.to_str().unwrap()], None);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("move 1"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn same_output_on_any_thread_count() {
    let a = ok(&run(&["samegame", "solve", "--width", "8", "--threads", "1", "--seed", "3"], None));
    let b = ok(&run(&["samegame", "solve", "--width", "8", "--threads", "2", "--seed", "3"], None));
    let strip = |s: &str| {
        s.lines().map(|l| l.split(" nodes,").next().unwrap_or(l).to_string()).collect::<Vec<_>>()
    };
    assert_eq!(strip(&a), strip(&b));
}

#[test]
fn nested_search_and_restarts() {
    // A small generated board through the nested search and through beam restarts: the CLI
    // replays every answer before printing it; restarts report the best of their runs.
    let board =
        ok(&run(&["samegame", "gen", "--width", "8", "--height", "8", "--colors", "4"], None));
    let solve = |extra: &[&str]| {
        let mut args = vec!["samegame", "solve", "-", "--json"];
        args.extend_from_slice(extra);
        let v: serde_json::Value = serde_json::from_str(&ok(&run(&args, Some(&board)))).unwrap();
        v["boards"][0]["score"].as_i64().unwrap()
    };
    let nested = solve(&["--search", "nested", "--level", "1", "--threads", "2"]);
    let beam = solve(&["--width", "4"]);
    let both = solve(&["--search", "beam-nested", "--width", "4", "--level", "1"]);
    assert!(both >= beam, "beam-nested {both} < beam {beam}");
    assert_eq!(nested, solve(&["--search", "nested", "--level", "1", "--threads", "1"]));
    let seeds: Vec<i64> =
        (1..=3).map(|s| solve(&["--width", "4", "--seed", &s.to_string()])).collect();
    let best = solve(&["--width", "4", "--seed", "1", "--restarts", "3"]);
    assert_eq!(best, *seeds.iter().max().unwrap());
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for (args, stdin, needle) in [
        (vec!["samegame", "solve", "-"], Some("012\n0x2\n"), "line 2, column 2"),
        (vec!["samegame", "solve", "-"], Some("01\n0\n"), "line 2"),
        (vec!["samegame", "solve", "-"], Some(""), "no board"),
        (vec!["samegame", "gen", "--width", "65"], None, "width: 65, must be 1 to 64"),
        (vec!["samegame", "solve", "--width", "0"], None, "width: 0, must be 1 to 10000000"),
        (vec!["samegame", "solve", "--points", "n^3"], None, "scoring"),
        (vec!["samegame", "solve", "/nonexistent/board.txt"], None, "cannot read"),
        (vec!["samegame", "solve", "--search", "nested", "--level", "9"], None, "level: 9, must"),
        (
            vec!["samegame", "solve", "--search", "nested", "--goal", "clear"],
            None,
            "search: only beam supports goal clear",
        ),
        (vec!["samegame", "solve", "--restarts", "0"], None, "restarts: 0, must be 1 to 10000"),
        (vec!["samegame", "bench", "--suite", "standard", "--set", "/nonexistent"], None, "--set"),
    ] {
        let out = run(&args, stdin);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn prove_small_boards() {
    let out = ok(&run(&["samegame", "prove", "-", "--json"], Some("12\n12\n\n12\n21\n")));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["verdict"], "clearable");
    assert_eq!(v[1]["verdict"], "unclearable");
}

#[test]
fn bgf2_files_are_read() {
    let dir = std::env::temp_dir().join(format!("bitarcade-bgf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("g.bgf");
    ok(&run(
        &["samegame", "gen", "--width", "6", "--height", "5", "--bgf", f.to_str().unwrap()],
        None,
    ));
    let out = ok(&run(&["samegame", "solve", f.to_str().unwrap(), "--width", "20"], None));
    assert!(out.starts_with("board 1: score"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `text` with every `<digits>.<digits> s` (a wall time) replaced by `T s`.
fn mask_seconds(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let mut j = i;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        let int_end = j;
        if int_end > start && j < b.len() && b[j] == b'.' {
            j += 1;
            let frac = j;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            let at_word = start == 0 || !b[start - 1].is_ascii_digit();
            if at_word && j > frac && text[j..].starts_with(" s") {
                out.push('T');
                i = j;
                continue;
            }
        }
        let next = if int_end > start { int_end } else { start + 1 };
        out.push_str(&text[start..next]);
        i = next;
    }
    out
}

/// The exact text of gen, a multi-board solve, NRPA, prove, replay and show (frozen when
/// the verbs moved into `samegame::api`; only wall times are masked).
#[test]
fn exact_text_of_the_verbs() {
    let gen = ok(&run(
        &[
            "samegame", "gen", "--width", "5", "--height", "4", "--colors", "3", "--count", "3",
            "--seed", "9",
        ],
        None,
    ));
    assert_eq!(
        gen,
        "00022\n22101\n22022\n20122\n\n21001\n02021\n20012\n12221\n\n00010\n01210\n01201\n20002\n"
    );
    let three = ok(&run(
        &[
            "samegame", "gen", "--width", "6", "--height", "5", "--count", "3", "--seed", "11",
            "--colors", "3",
        ],
        None,
    ));
    let multi = ok(&run(&["samegame", "solve", "-", "--width", "20"], Some(&three)));
    assert_eq!(
        mask_seconds(&multi),
        "board 1: score 1096 cleared (7 moves, 0 tiles left, 308 nodes, T s)\n\
         board 2: score 1096 cleared (5 moves, 0 tiles left, 161 nodes, T s)\n\
         board 3: score 1102 cleared (5 moves, 0 tiles left, 304 nodes, T s)\n\
         total: 3294 points, 3/3 cleared, T s\n"
    );
    let b8 = ok(&run(&["samegame", "gen", "--width", "8", "--height", "8", "--colors", "4"], None));
    let nrpa = ok(&run(
        &["samegame", "solve", "-", "--search", "nrpa", "--level", "2", "--iterations", "10"],
        Some(&b8),
    ));
    assert_eq!(
        mask_seconds(&nrpa),
        "board 1: score 97 not cleared (15 moves, 15 tiles left, 100 nodes, T s)\n\
         moves: (2,5) (4,1) (2,5) (0,2) (0,6) (4,0) (4,4) (5,4) (3,1) (2,1) (4,1) (0,2) (1,0) (2,0) (1,0)\n"
    );
    let json = ok(&run(
        &[
            "samegame",
            "solve",
            "-",
            "--search",
            "nrpa",
            "--level",
            "1",
            "--iterations",
            "10",
            "--portfolio",
            "strict,-2",
            "--json",
        ],
        Some(&b8),
    ));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        v["eval"],
        "nrpa Config { level: 1, iterations: 10, alpha: 1.0, tabu: Strict, size_bias: 0.0, \
         runs: 1, rules: Rules { points: MinusTwoSquared, clear_bonus: 1000, min_group: 2 }, \
         seed: 1 }, portfolio [strict, -2]"
    );
    // The fields, in this order, at the top level of the document.
    let keys =
        ["goal", "width", "eval", "threads", "boards", "total_score", "cleared", "total_seconds"];
    let at: Vec<usize> =
        keys.iter().map(|k| json.find(&format!("\n  \"{k}\": ")).expect(k)).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{json}");
    assert_eq!(v.as_object().unwrap().len(), keys.len());
    let prove = ok(&run(&["samegame", "prove", "-"], Some("12\n12\n\n12\n21\n")));
    assert_eq!(
        mask_seconds(&prove).replace("0.000 s", "T s"),
        "board 1: clearable (2 positions, 0 table hits, 0 refuted, T s)\n\
         moves: (0,0) (0,0)\n\
         board 2: unclearable (1 positions, 0 table hits, 0 refuted, T s)\n"
    );
    let dir = std::env::temp_dir().join(format!("bitarcade-sg-text-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("game.json");
    let rec_s = rec.to_str().unwrap();
    ok(&run(&["samegame", "solve", "-", "--width", "10", "--record", rec_s], Some(&b8)));
    let replay = ok(&run(&["samegame", "replay", rec_s], None));
    assert_eq!(replay, "ok: 20 moves, 1192 points, 0 tiles left, cleared\n");
    let show = ok(&run(&["samegame", "show", rec_s], None));
    assert!(show.starts_with(
        "move 1: (0, 2) removes 2 for 0 points\n  22212001\n  32333223\n  01001121\n  \
         10133303\n  11200311\n  **121122\n  31023330\n  20232213\nmove 2: (4, 5) removes 2 \
         for 0 points\n  ..212001\n"
    ));
    let last = format!("final (0 tiles left, 1192 points, cleared):\n{}", "  ........\n".repeat(8));
    assert!(show.ends_with(&last), "{show}");
    let _ = std::fs::remove_dir_all(&dir);
}
