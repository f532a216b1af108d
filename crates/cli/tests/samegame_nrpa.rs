//! End-to-end checks of `bitarcade samegame solve --search nrpa` and `beam-nrpa`.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bitarcade")).args(args).output().expect("bitarcade runs")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = run(args);
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("json")
}

#[test]
fn nrpa_records_replay_and_threads_agree() {
    let dir = std::env::temp_dir().join(format!("bitarcade-sg-nrpa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let board = dir.join("b.txt");
    let text = run(&["samegame", "gen", "--width", "9", "--height", "8", "--colors", "4"]).stdout;
    std::fs::write(&board, text).unwrap();
    let b = board.to_str().unwrap();
    let rec = dir.join("game.json");
    let args = ["samegame", "solve", b, "--search", "nrpa", "--level", "2", "--iterations", "8"];
    let one = json(&[&args[..], &["--runs", "3", "-j1", "--json"]].concat());
    let two = json(
        &[&args[..], &["--runs", "3", "-j2", "--json", "--record"], &[rec.to_str().unwrap()]]
            .concat(),
    );
    assert_eq!(one["boards"][0]["moves"], two["boards"][0]["moves"]);
    assert_eq!(one["total_score"], two["total_score"]);
    let replay = json(&["samegame", "replay", rec.to_str().unwrap(), "--json"]);
    assert_eq!(replay["score"], one["total_score"], "{replay}");
    // Seeded from the beam (and a nested search): never below the beam alone.
    let beam = json(&["samegame", "solve", b, "-w", "10", "--json"]);
    let seeded = json(&[
        "samegame",
        "solve",
        b,
        "--search",
        "beam-nrpa",
        "-w",
        "10",
        "--nested-level",
        "1",
        "--level",
        "1",
        "--iterations",
        "20",
        "--tabu-bias",
        "-2",
        "--json",
    ]);
    assert!(seeded["total_score"].as_i64() >= beam["total_score"].as_i64());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A portfolio of priors is the best of the lone searches, on any thread count.
#[test]
fn portfolio_is_the_best_lone_prior() {
    let dir = std::env::temp_dir().join(format!("bitarcade-sg-port-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let board = dir.join("b.txt");
    let text = run(&["samegame", "gen", "--width", "8", "--height", "8", "--colors", "4"]).stdout;
    std::fs::write(&board, text).unwrap();
    let b = board.to_str().unwrap();
    let args = ["samegame", "solve", b, "--search", "nrpa", "--level", "2", "--iterations", "6"];
    let mut best = i64::MIN;
    for prior in ["--portfolio=strict", "--portfolio=-2", "--portfolio=off"] {
        let lone = json(&[&args[..], &[prior, "--json"]].concat());
        best = best.max(lone["total_score"].as_i64().unwrap());
    }
    let one = json(&[&args[..], &["--portfolio", "strict,-2,off", "-j1", "--json"]].concat());
    let two = json(&[&args[..], &["--portfolio", "strict,-2,off", "-j2", "--json"]].concat());
    assert_eq!(one["total_score"].as_i64(), Some(best));
    for key in ["score", "moves", "nodes"] {
        assert_eq!(one["boards"][0][key], two["boards"][0][key], "{key}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_nrpa_flags_exit_2() {
    for bad in [
        &["--iterations", "0"][..],
        &["--alpha", "-1"],
        &["--runs", "0"],
        &["--tabu-bias", "inf"],
        &["--portfolio", "strict,soft"],
        &["--portfolio", "-2", "--no-tabu"],
    ] {
        let out = run(&[&["samegame", "solve", "--search", "nrpa"][..], bad].concat());
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}
