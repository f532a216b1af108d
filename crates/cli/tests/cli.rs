//! End-to-end checks of the `bitarcade` binary: exit codes, JSON output, the PEXT switch.

use std::process::{Command, Output};

fn bitarcade(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bitarcade"));
    cmd.args(args).env_remove("BITARCADE_PEXT");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the bitarcade binary runs")
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

#[test]
fn portable_switch_from_flag_and_env() {
    let flag =
        json(&bitarcade(&["--portable-pext", "bits", "check", "--cases", "1000", "--json"], &[]));
    assert_eq!(flag["active_path"], "portable");
    let env = json(&bitarcade(
        &["bits", "check", "--cases", "1000", "--json"],
        &[("BITARCADE_PEXT", "portable")],
    ));
    assert_eq!(env["active_path"], "portable");
    let auto = json(&bitarcade(&["bits", "check", "--cases", "1000", "--json"], &[]));
    let want = if auto["cpu_has_bmi2"] == true { "bmi2" } else { "portable" };
    assert_eq!(auto["active_path"], want);
    assert_ne!(auto["paths_agree"], false);
}

#[test]
fn bad_input_exits_2_with_one_line() {
    for (args, env) in [
        (vec!["bits", "check", "--cases", "0"], vec![]),
        (vec!["bits", "check"], vec![("BITARCADE_PEXT", "fast")]),
        (vec!["bits", "nonsense"], vec![]),
    ] {
        let out = bitarcade(&args, &env);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("error"), "{args:?}: {err}");
    }
}
