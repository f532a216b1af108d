//! `bitarcade samegame bench`: printing the measurements of `samegame::api::bench` as they
//! come (the harness itself lives in the game crate).

use std::path::Path;

use samegame::api::{self, BenchEvent, BenchRequest, Control, Suite};

use crate::common::{print_json, CliError, CliResult};

/// This process's CPU time (user + system) in seconds, from `/proc/self/stat` (Linux).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Runs the benchmark suites named in `suites` (engine, game, passes, threads, clear, prove,
/// and standard, which reads the standard set from `set`).
pub fn bench(suites: Vec<String>, rounds: usize, quick: bool, set: &Path, json: bool) -> CliResult {
    let set = if suites.iter().any(|s| s == "standard") {
        if !set.exists() {
            return Err(CliError::input(format!(
                "--suite standard needs the standard set: {} not found (give it with --set FILE)",
                set.display()
            )));
        }
        Some(crate::samegame::read_board_file(set)?)
    } else {
        None
    };
    let req = BenchRequest { suites, set, rounds, quick };
    let out = api::bench_each(&req, Control::new(), &cpu_seconds, &mut |ev| {
        if !json {
            print_event(ev);
        }
    })?;
    if json {
        print_json(&out)?;
    }
    Ok(())
}

fn print_event(ev: BenchEvent<'_>) {
    match ev {
        BenchEvent::Start(Suite::Engine) => {
            println!("engine vs reference (ns per call, median of rounds; ratio = reference / engine)");
            println!(
                "{:>7} {:>3} {:>10} {:>10} {:>6} {:>10} {:>10} {:>6}",
                "size", "col", "find", "ref find", "x", "child", "ref child", "x"
            );
        }
        BenchEvent::Start(Suite::Game) => {
            println!("\nwhole game, classic beam, one thread (ms, median of rounds)");
        }
        BenchEvent::Start(Suite::Passes) => {
            println!("\ntwo-pass vs one-pass beam, one thread (ms, median of rounds)");
        }
        BenchEvent::Start(Suite::Threads) => {
            println!("\nthread scaling, two-pass beam (ms, median of rounds)");
        }
        BenchEvent::Start(Suite::Clear) => {
            println!("\nclear goal, width 5000, all threads (seconds per board)");
        }
        BenchEvent::Start(Suite::Prove) => println!(
            "\nprover positions with and without refutations (5 colours, budget 20M positions)"
        ),
        BenchEvent::Start(Suite::Standard) => {}
        BenchEvent::StandardStart { boards, search } => {
            println!("\nstandard set ({boards} boards): {search}");
        }
        BenchEvent::Engine(r) => println!(
            "{:>7} {:>3} {:>10.0} {:>10.0} {:>6.1} {:>10.0} {:>10.0} {:>6.1}",
            format!("{}x{}", r.width, r.height),
            r.colors,
            r.find_ns_fast,
            r.find_ns_ref,
            r.find_ratio,
            r.child_ns_fast,
            r.child_ns_ref,
            r.child_ratio
        ),
        BenchEvent::Game(r) => println!(
            "{:>9} width {:>4}: engine {:>9.1} ms ({} nodes, score {}), reference {:>9.1} ms ({} nodes, score {}), {:.1}x",
            r.board, r.width, r.fast_ms, r.nodes_fast, r.fast_score, r.ref_ms, r.nodes_ref, r.ref_score, r.ratio
        ),
        BenchEvent::Pass(r) => println!(
            "15x15/5 width {}: one pass {:.0} ms, two passes {:.0} ms ({:.2}x), same answer: {}",
            r.width, r.one_pass_ms, r.two_pass_ms, r.ratio, r.same_answer
        ),
        BenchEvent::Thread(r) => println!(
            "{} thread(s): {:.0} ms, speedup {:.2}, same answer: {}",
            r.threads, r.ms, r.speedup, r.same_answer
        ),
        BenchEvent::Clear(r) => println!(
            "{} widen {}: {}/{} cleared, median {:.3} s, max {:.3} s",
            r.size, r.widen, r.cleared, r.boards, r.median_s, r.max_s
        ),
        BenchEvent::Prove(r) => println!(
            "{}: {} boards ({} clearable, {} not, {} undecided), positions {} with refutations, {} without ({:.1}% saved)",
            r.size, r.boards, r.clearable, r.unclearable, r.undecided, r.nodes_with, r.nodes_without, r.saved_pct
        ),
        BenchEvent::Standard(r) => println!(
            "total {}, {}/{} cleared, {:.1} s wall, {} CPU",
            r.total,
            r.cleared,
            r.boards,
            r.wall_s,
            r.cpu_s.map_or("unknown".to_string(), |c| format!("{c:.1} s"))
        ),
    }
}
