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
        (vec!["samegame", "gen", "--width", "65"], None, "--width"),
        (vec!["samegame", "solve", "--width", "0"], None, "--width"),
        (vec!["samegame", "solve", "--points", "n^3"], None, "scoring"),
        (vec!["samegame", "solve", "/nonexistent/board.txt"], None, "cannot read"),
        (vec!["samegame", "solve", "--search", "nested", "--level", "9"], None, "--level 9"),
        (
            vec!["samegame", "solve", "--search", "nested", "--goal", "clear"],
            None,
            "--search nested",
        ),
        (vec!["samegame", "solve", "--restarts", "0"], None, "--restarts"),
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
