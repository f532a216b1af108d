//! BFS vs A* per search, on a reachable mid-game board and a sealed-off board.
//!
//! `cargo bench -p snake --bench search`

// `criterion_group!` generates an undocumented function.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use snake::fixtures::{midgame_boards, SEALED};
use snake::{Board, Searcher, Size};

fn searches(c: &mut Criterion) {
    let size: Size = "10x10".parse().unwrap();
    let boards = midgame_boards(size, 30, 64, 1);
    let mid = &boards[0];
    let sealed: Board = SEALED.parse().unwrap();
    let mut s: Searcher = Searcher::new(size);
    let mut group = c.benchmark_group("snake-search");
    for (name, b) in [("reachable", mid), ("sealed", &sealed)] {
        let (occ, head, fruit) = (*b.occupied(), b.head(), b.fruit().unwrap());
        group.bench_function(format!("bfs/{name}"), |bench| {
            bench.iter(|| s.bfs(black_box(&occ), black_box(head), black_box(fruit)))
        });
        group.bench_function(format!("astar/{name}"), |bench| {
            bench.iter(|| s.astar(black_box(&occ), black_box(head), black_box(fruit)))
        });
        group.bench_function(format!("astar-heap/{name}"), |bench| {
            bench.iter(|| s.astar_heap(black_box(&occ), black_box(head), black_box(fruit)))
        });
    }
    // The mean over 64 mid-game boards (one search each per iteration), so one board's
    // geometry does not decide the ratio.
    let set: Vec<_> =
        boards.iter().map(|b| (*b.occupied(), b.head(), b.fruit().unwrap())).collect();
    group.bench_function("bfs/reachable-64", |bench| {
        bench.iter(|| {
            for (occ, h, f) in &set {
                black_box(s.bfs(occ, *h, *f));
            }
        })
    });
    group.bench_function("astar/reachable-64", |bench| {
        bench.iter(|| {
            for (occ, h, f) in &set {
                black_box(s.astar(occ, *h, *f));
            }
        })
    });
    group.bench_function("astar-heap/reachable-64", |bench| {
        bench.iter(|| {
            for (occ, h, f) in &set {
                black_box(s.astar_heap(occ, *h, *f));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, searches);
criterion_main!(benches);
