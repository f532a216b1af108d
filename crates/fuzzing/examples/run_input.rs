//! Runs one fuzz target on input files, on the stable toolchain (to reproduce a crash that
//! cargo-fuzz found, or to try an input by hand):
//!
//! ```text
//! cargo run -p fuzzing --example run_input -- tetris_fumen crates/fuzzing/crashes/tetris_fumen/*
//! ```
//!
//! Prints each file with the time it took; a failing input panics with the invariant it broke.

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(name) = args.next() else {
        eprintln!("usage: run_input TARGET FILE...");
        eprintln!(
            "targets: {}",
            fuzzing::TARGETS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(" ")
        );
        std::process::exit(2);
    };
    let Some((_, target)) = fuzzing::TARGETS.iter().find(|(n, _)| *n == name) else {
        eprintln!("no target {name}");
        std::process::exit(2);
    };
    for file in args {
        let data = std::fs::read(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let t = Instant::now();
        target(&data);
        println!("{file}: ok, {:.1} ms", t.elapsed().as_secs_f64() * 1000.0);
    }
}
