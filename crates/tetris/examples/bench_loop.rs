//! The public benchmark loop alone (no verifier, no reference timing), for instruction counts:
//! `valgrind --tool=callgrind target/release/examples/bench_loop 4` (or `6`). It uses only API
//! that session 1 (commit e462b13) already had, so the same file measures the old solver too.

use tetris::bag::opener_queue;
use tetris::solver::{Outcome, PcRequest, Solver};
use tetris::KickTable;

fn main() {
    let lines: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let kicks = KickTable::srs_plus();
    let pieces = if lines == 4 { 11 } else { 16 };
    let mut nodes = 0;
    for i in 0..200 {
        let mut req = PcRequest::opener(opener_queue(1, i, pieces));
        req.height = Some(lines);
        let mut solver = Solver::new(&kicks);
        let out = solver.solve(&req).expect("a valid request");
        assert!(matches!(out, Outcome::Found(_)), "queue {i}");
        nodes += solver.stats().nodes;
    }
    println!("{lines}-line: 200 queues, {nodes} nodes");
}
