//! Deterministic bench signature: the node counts of the shipped solver (trained weights,
//! restarts, tiling check) on the first benchmark queues. A change to these numbers is a
//! deliberate change of the search and must be explained in the commit that updates
//! `tests/data/signature.txt` (regenerate the figures with `bitarcade tetris bench`).

use tetris::bag::opener_queue;
use tetris::solver::{Outcome, PcRequest};
use tetris::trace::verify;
use tetris::{KickTable, Solver};

fn frozen() -> Vec<(u32, u64, u64)> {
    include_str!("data/signature.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<u64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            (f[0] as u32, f[1], f[2])
        })
        .collect()
}

#[test]
fn node_counts_on_the_first_benchmark_queues_are_frozen() {
    let kicks = KickTable::srs_plus();
    for (lines, queues, want_nodes) in frozen() {
        let mut total = 0;
        for i in 0..queues {
            let mut req = PcRequest::opener(opener_queue(1, i, if lines == 4 { 11 } else { 16 }));
            req.height = Some(lines);
            let mut solver = Solver::new(&kicks);
            let Outcome::Found(sol) = solver.solve(&req).unwrap() else { panic!("queue {i}") };
            verify(&req, &kicks, &sol).unwrap();
            total += solver.stats().nodes;
        }
        assert_eq!(total, want_nodes, "{lines}-line, {queues} queues");
    }
}
