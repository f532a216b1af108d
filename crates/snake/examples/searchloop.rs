//! Runs one search kind in a loop over the bench boards, for `perf stat` cycle counts
//! (robust on a loaded machine): `searchloop bfs|astar|astar-heap reachable|mid64|sealed ITERS`.
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
    let kind = a[1].as_str();
    let t = std::time::Instant::now();
    for _ in 0..iters / jobs.len() {
        for (o, h, f) in &jobs {
            match kind {
                "astar" => black_box(s.astar(black_box(o), *h, *f)),
                "astar-heap" => black_box(s.astar_heap(black_box(o), *h, *f)),
                _ => black_box(s.bfs(black_box(o), *h, *f)),
            };
        }
    }
    let n = (iters / jobs.len() * jobs.len()).max(1) as f64;
    eprintln!(
        "{:.1} ns/search (wall), {:.2} cells expanded/search",
        t.elapsed().as_nanos() as f64 / n,
        s.expanded() as f64 / n
    );
}
