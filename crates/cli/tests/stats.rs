//! `bitarcade stats`: every result file under `crates/drop7/results/` and
//! `crates/twenty48/results/` summarises (and pairs) to exactly what the Python
//! `results_tsv.py` scripts it replaced printed (their outputs, frozen in
//! `tests/data/stats/`), and to the figures published in README.md.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bitarcade(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bitarcade"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the bitarcade binary runs")
}

fn stdout(args: &[&str]) -> String {
    let out = bitarcade(args);
    assert!(
        out.status.success(),
        "{args:?}: exit {:?}, stderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout(args)).expect("one JSON document")
}

/// `(code 2, the one line of stderr)` of a command that must fail on bad input.
fn bad_input(args: &[&str]) -> String {
    let out = bitarcade(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).expect("UTF-8");
    assert_eq!(err.lines().count(), 1, "{err}");
    err.trim_end().to_string()
}

const DATA: &str = "tests/data/stats";

/// `drop7_depth3-seed5_ready` -> `../drop7/results/depth3-seed5/ready.tsv`.
fn results_file(key: &str) -> String {
    let (game, rest) = key.split_once('_').expect("game_name");
    let dir = match game {
        "drop7" => "../drop7/results",
        "2048" => "../twenty48/results",
        other => panic!("unknown game {other}"),
    };
    format!("{dir}/{}.tsv", rest.replace('_', "/"))
}

fn expected(dir: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(DATA).join(dir))
            .expect("frozen outputs")
            .map(|e| {
                let p: PathBuf = e.expect("entry").path();
                let key = p.file_stem().expect("stem").to_string_lossy().to_string();
                (key, std::fs::read_to_string(&p).expect("text"))
            })
            .collect();
    out.sort();
    out
}

// The 2048 files' 65536 lines were added to the script's output when the summary and the
// comparison grew that column (the rest is the script's, unchanged).
#[test]
fn every_result_file_summarises_as_the_script_did() {
    let cases = expected("summary");
    assert_eq!(cases.len(), 16, "14 Drop7 and 2 2048 result files");
    for (key, want) in cases {
        let file = results_file(&key);
        assert_eq!(stdout(&["stats", "summary", &file]), want, "{file}");
    }
}

#[test]
fn pairs_and_compares_as_the_script_did() {
    let cases = expected("pair");
    assert_eq!(cases.len(), 12);
    for (key, want) in cases {
        let (a, b) = key.split_once("__").expect("A__B");
        let game = a.split('_').next().expect("game");
        let (fa, fb) = (results_file(a), results_file(&format!("{game}_{b}")));
        let verb = if game == "2048" { "compare" } else { "pair" };
        assert_eq!(stdout(&["stats", verb, &fa, &fb]), want, "{fa} {fb}");
        // One verb under two names.
        let other = if verb == "pair" { "compare" } else { "pair" };
        assert_eq!(stdout(&["stats", other, &fa, &fb]), want);
    }
}

#[test]
fn rows_as_the_script_wrote_them() {
    let r = |f: &str| format!("{DATA}/runs/{f}");
    let d7 = stdout(&["stats", "rows", &r("d7-run.json"), &r("d7-run-first3.json")]);
    assert_eq!(d7, std::fs::read_to_string(r("d7-rows.tsv")).unwrap());
    // t48-one.json has t48-one.time beside it (its CPU seconds); t48-notime.json has none.
    let t48 =
        stdout(&["stats", "rows", &r("t48-notime.json"), &r("t48-one.json"), &r("t48-seeds.json")]);
    assert_eq!(t48, std::fs::read_to_string(r("t48-rows.tsv")).unwrap());
    let j = json(&["stats", "rows", &r("t48-seeds.json"), "--json"]);
    assert_eq!(j["game"], "2048");
    assert_eq!(j["rows"][2]["seed"], 42);
    assert_eq!(
        bad_input(&["stats", "rows", &r("t48-games2.json")]),
        format!("bitarcade: error: {DATA}/runs/t48-games2.json: a --games 2 run has no master seed per game")
    );
    assert_eq!(
        bad_input(&["stats", "rows", &r("d7-run.json"), &r("t48-one.json")]),
        format!("bitarcade: error: {DATA}/runs/t48-one.json: a 2048 report after drop7 ones: rows of one game at a time")
    );
}

/// The figures README.md and BENCHMARKS.md publish for the complete rows.
#[test]
fn published_figures() {
    let s = json(&["stats", "summary", "../drop7/results/depth5-seed1-ntuple-tcb.tsv", "--json"]);
    assert_eq!(s["game"], "drop7");
    assert_eq!(s["games"], 64);
    assert_eq!(s["mean"].as_f64().unwrap().round(), 365_593.0);
    let ci = &s["ci95"];
    assert_eq!(
        (ci[0].as_f64().unwrap().round(), ci[1].as_f64().unwrap().round()),
        (310_576.0, 420_609.0)
    );

    let s =
        json(&["stats", "summary", "../twenty48/results/reference-rule-seeds30000.tsv", "--json"]);
    assert_eq!(s["game"], "2048");
    assert_eq!(s["games"], 100);
    assert_eq!(s["median"], 387_280.0);
    assert_eq!(s["average"].as_f64().unwrap().round(), 472_660.0);
    assert_eq!(s["half"].as_f64().unwrap().round(), 34_197.0);
    let reach: Vec<(u64, u64)> = s["reach"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["tile"].as_u64().unwrap(), r["rate"]["count"].as_u64().unwrap()))
        .collect();
    assert_eq!(reach, [(8192, 99), (16384, 94), (32768, 41), (65536, 0)]);
    // G35 (BENCHMARKS.md): "65536 in 4 (1.3% [0.5, 3.4])" over the 300 standard seeds.
    let file = "../twenty48/results/budget500k-boost2.5from16384-tables-l3b1024-seeds30000.tsv";
    let s = json(&["stats", "summary", file, "--json"]);
    let top = &s["reach"][3];
    assert_eq!((top["tile"].as_u64(), top["rate"]["count"].as_u64()), (Some(65536), Some(4)));
    assert_eq!(s["games"], 300);
    let text = stdout(&["stats", "summary", file]);
    assert!(text.contains("\n65536: 4/300 = 1% [0.5, 3.4]\n"), "{text}");

    // BENCHMARKS.md: "+124,188 (CI 82,475 .. 165,901) on 96 paired seeds, 32768 41/100
    // against 15/96 (Fisher p 0.0001)".
    let c = json(&[
        "stats",
        "compare",
        "../twenty48/results/reference-rule-seeds30000.tsv",
        "../twenty48/results/budget500k-boost16x5-seeds30000.tsv",
        "--json",
    ]);
    assert_eq!(c["paired"]["seeds"], 96);
    assert_eq!(c["paired"]["mean"].as_f64().unwrap().round(), 124_188.0);
    assert_eq!(c["tiles"][1]["a_count"], 41);
    assert_eq!(c["tiles"][1]["b_count"], 15);
    assert!(c["tiles"][1]["fisher_p"].as_f64().unwrap() < 0.00015);
}

/// --exact: Student t everywhere. The 64-game Drop7 interval widens from 1.96 to t(63) =
/// 1.998; the 53-game depth-5 row gets the figure README.md printed (264,765 .. 379,223,
/// from t(52) = 2.0066), not the table's 2.000.
#[test]
fn exact_figures() {
    let out = stdout(&["stats", "summary", "../drop7/results/depth5-seed1.tsv", "--exact"]);
    assert!(out.contains("mean 321,994 (95% CI 264,765 .. 379,223)"), "{out}");
    let s = json(&[
        "stats",
        "summary",
        "../drop7/results/depth5-seed1-ntuple-tcb.tsv",
        "--exact",
        "--json",
    ]);
    assert_eq!(s["method"], "exact");
    assert!((s["critical"].as_f64().unwrap() - 1.998_340_5).abs() < 1e-6);
    let p = stdout(&[
        "stats",
        "pair",
        "../drop7/results/depth4-seed1-ntuple.tsv",
        "../drop7/results/depth4-seed1.tsv",
        "--exact",
    ]);
    assert!(p.contains("(two-sided, Student t, 63 df)"), "{p}");
    assert!(p.contains("A better in 39, worse in 25 (sign test p "), "{p}");
    let c = stdout(&[
        "stats",
        "compare",
        "../twenty48/results/reference-rule-seeds30000.tsv",
        "../twenty48/results/budget500k-boost16x5-seeds30000.tsv",
        "--exact",
    ]);
    assert!(c.contains("McNemar p = "), "{c}");
    assert!(c.contains("(Student t, 95 df), sign test p "), "{c}");
}

#[test]
fn malformed_rows_name_file_and_line() {
    let dir = std::env::temp_dir().join(format!("bitarcade-stats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let row = "0\t11\t1000\t40\t8\ttrue\t1.5\t900\n";
    let twice = write("twice.tsv", &format!("# c\n{row}{row}"));
    assert_eq!(
        bad_input(&["stats", "summary", &twice]),
        format!("bitarcade: error: {twice}:3: game 0 appears twice (first at line 2)")
    );
    let bad = write("bad.tsv", &format!("{row}1\t12\t3000\tx\t16\ttrue\t\t1800\n"));
    assert_eq!(
        bad_input(&["stats", "summary", &bad]),
        format!("bitarcade: error: {bad}:2: `moves`: expected a whole number, found `x`")
    );
    let t48 = write("t48.tsv", "30000\t5\t6\t2048\t9\t\n");
    let good = write("good.tsv", row);
    assert_eq!(
        bad_input(&["stats", "pair", &good, &t48]),
        "bitarcade: error: A holds drop7 rows and B 2048 rows: pair files of one game"
    );
    let empty = write("empty.tsv", "# nothing yet\n");
    assert_eq!(
        bad_input(&["stats", "summary", &empty]),
        format!("bitarcade: error: {empty}: no game rows")
    );
    let other = write("other.tsv", "0\t99\t1000\t40\t8\ttrue\t1.5\t900\n");
    assert_eq!(
        bad_input(&["stats", "pair", &good, &other]),
        "bitarcade: error: game 0: seeds differ (11 vs 99)"
    );
    assert_eq!(
        bad_input(&["stats", "summary", &t48, "--game", "drop7"]),
        format!(
            "bitarcade: error: {t48}:1: expected 8 tab-separated cells (drop7: index seed score \
             moves level over cpu_seconds search_moves), found 6"
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
