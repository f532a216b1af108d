//! `bitarcade bits ...`: the shared primitives, and which PEXT path this machine uses.

use std::hint::black_box;
use std::time::Instant;

use bits::pext::{self, PextImpl};
use clap::{Args, Subcommand};
use serde::Serialize;

use crate::common::{print_json, CliError, CliResult, JsonArg};

/// Commands about the shared bit primitives.
#[derive(Args, Debug)]
pub struct BitsArgs {
    #[command(subcommand)]
    command: BitsCommand,
}

#[derive(Subcommand, Debug)]
enum BitsCommand {
    /// Report the active PEXT path, check it against the portable one and time both.
    #[command(after_help = "Examples:\n  \
        bitarcade bits check\n  \
        bitarcade bits check --json\n  \
        BITARCADE_PEXT=portable bitarcade bits check\n  \
        bitarcade --portable-pext bits check --cases 1000000")]
    Check {
        /// Random cases to compare the paths on.
        #[arg(long, default_value_t = 200_000)]
        cases: u64,
        /// Seed of the random cases.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        json: JsonArg,
    },
}

#[derive(Serialize)]
struct CheckReport {
    cpu_has_bmi2: bool,
    env_request: Option<String>,
    active_path: &'static str,
    cases: u64,
    seed: u64,
    paths_agree: Option<bool>,
    ns_per_pext_u64_active: f64,
    ns_per_pext_u64_portable: f64,
    ns_per_pext_u64_bmi2: Option<f64>,
}

/// Runs `bitarcade bits`.
pub fn run(args: BitsArgs) -> CliResult {
    match args.command {
        BitsCommand::Check { cases, seed, json } => check(cases, seed, json.json),
    }
}

fn time_ns(cases: &[(u64, u64)], f: impl Fn(u64, u64) -> u64) -> f64 {
    let start = Instant::now();
    let mut acc = 0u64;
    for &(x, m) in cases {
        acc ^= f(black_box(x), black_box(m));
    }
    black_box(acc);
    start.elapsed().as_nanos() as f64 / cases.len().max(1) as f64
}

fn check(cases: u64, seed: u64, json: bool) -> CliResult {
    if cases == 0 || cases > 100_000_000 {
        return Err(CliError::input("--cases must be between 1 and 100000000"));
    }
    let env_request = match pext::env_request() {
        Ok(Some(p)) => Some(p.name().to_string()),
        Ok(None) => None,
        Err(v) => {
            return Err(CliError::input(format!(
                "{}={v:?} is not understood (use portable, bmi2 or auto)",
                pext::ENV_VAR
            )))
        }
    };
    let mut rng = bits::Rng::new(seed);
    let data: Vec<(u64, u64)> =
        (0..cases).map(|_| (rng.next_u64(), rng.next_u64() & rng.next_u64())).collect();
    let hw = pext::Bmi2::detect();
    let paths_agree = hw.map(|hw| {
        data.iter().all(|&(x, m)| {
            hw.pext_u64(x, m) == pext::pext_u64_portable(x, m)
                && hw.pdep_u64(x, m) == pext::pdep_u64_portable(x, m)
                && hw.pext_u32(x as u32, m as u32) == pext::pext_u32_portable(x as u32, m as u32)
                && hw.pdep_u32(x as u32, m as u32) == pext::pdep_u32_portable(x as u32, m as u32)
        })
    });
    let report = CheckReport {
        cpu_has_bmi2: pext::bmi2_available(),
        env_request,
        active_path: pext::active_path().name(),
        cases,
        seed,
        paths_agree,
        ns_per_pext_u64_active: time_ns(&data, bits::pext_u64),
        ns_per_pext_u64_portable: time_ns(&data, pext::pext_u64_portable),
        ns_per_pext_u64_bmi2: hw.map(|hw| time_ns(&data, |x, m| hw.pext_u64(x, m))),
    };
    if json {
        print_json(&report)?;
    } else {
        println!("CPU has BMI2:      {}", if report.cpu_has_bmi2 { "yes" } else { "no" });
        println!(
            "{}:    {}",
            pext::ENV_VAR,
            report.env_request.as_deref().unwrap_or("(unset: auto)")
        );
        println!("active PEXT path:  {}", report.active_path);
        match report.paths_agree {
            Some(ok) => println!(
                "bmi2 vs portable:  {} on {cases} random cases (seed {seed})",
                if ok { "agree" } else { "DISAGREE" }
            ),
            None => println!("bmi2 vs portable:  not compared (no BMI2)"),
        }
        println!("ns per pext_u64:   active {:.2}", report.ns_per_pext_u64_active);
        println!("                   portable {:.2}", report.ns_per_pext_u64_portable);
        if let Some(ns) = report.ns_per_pext_u64_bmi2 {
            println!("                   bmi2 {ns:.2}");
        }
    }
    if report.paths_agree == Some(false) {
        return Err(CliError::failed("the BMI2 and portable paths disagree"));
    }
    Ok(())
}
