//! Runs one search kind in a loop over the bench boards, for `perf stat` cycle counts
//! (robust on a loaded machine): `searchloop bfs|astar reachable|mid64|sealed ITERS`.
use snake::fixtures::{midgame_boards, SEALED};
use snake::{Board, Searcher, Size};
use std::hint::black_box;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let size: Size = "10x10".parse().unwrap();
    let mids = midgame_boards(size, 30, 64, 1);
    let boards: Vec<Board> = match a[2].as_str() {
        "reachable" => vec![mids[0].clone()],
        "mid64" => mids,
        _ => vec![SEALED.parse().unwrap()],
    };
    let iters: usize = a[3].parse().unwrap();
    let jobs: Vec<_> =
        boards.iter().map(|b| (*b.occupied(), b.head(), b.fruit().unwrap())).collect();
    let mut s: Searcher = Searcher::new(size);
    let astar = a[1] == "astar";
    let t = std::time::Instant::now();
    for _ in 0..iters / jobs.len() {
        for (o, h, f) in &jobs {
            if astar {
                black_box(s.astar(black_box(o), *h, *f));
            } else {
                black_box(s.bfs(black_box(o), *h, *f));
            }
        }
    }
    eprintln!("{} ns/search (wall)", t.elapsed().as_nanos() as f64 / iters as f64);
}
