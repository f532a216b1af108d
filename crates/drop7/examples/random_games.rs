//! Random-policy Hardcore games on the packed engine, for profiling (`valgrind --tool=callgrind`)
//! and CPU timing: `random_games [GAMES] [SEED]` prints the moves played and, on Linux, the
//! thread CPU time. The policy is the bench's: a uniform open column drawn from its own stream.

use drop7::engine::random_policy_games;
use drop7::{Mode, Rules};

fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let rules = Rules::new(Mode::Hardcore);
    let c0 = cpu_ns();
    let moves = std::hint::black_box(random_policy_games(&rules, seed, games));
    match (c0, cpu_ns()) {
        (Some(a), Some(b)) if b > a => {
            let s = (b - a) as f64 * 1e-9;
            println!(
                "{moves} moves, {s:.3} CPU s, {:.2} M moves per CPU second",
                moves as f64 / s / 1e6
            )
        }
        _ => println!("{moves} moves"),
    }
}
