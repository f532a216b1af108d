//! Timing and instruction-count loops for the engine work (the figures in BENCHMARKS.md).
//!
//! ```text
//! cargo run --release -p samegame --example speed -- find          # ns per call, 3 sizes
//! valgrind --tool=callgrind target/release/examples/speed ir 0 15 15 5
//!     # MODE 0 find, 1 summarize, 2 potential, 3 nothing (subtract it); W H COLOURS
//! RAYON_NUM_THREADS=1 target/release/examples/speed clear 1    # fixed-width clear, 15x10
//! RAYON_NUM_THREADS=1 target/release/examples/speed clear30 1 1000  # 30x20, width 1000
//! ```
use samegame::beam::{search, Config, Goal};
use samegame::{Board, Groups, Rules};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map(String::as_str).unwrap_or("find");
    match what {
        "find" => {
            for (w, h, c) in [(15, 15, 3), (15, 15, 5), (20, 20, 5)] {
                let boards: Vec<Board> = (0..200).map(|s| Board::random(w, h, c, s)).collect();
                let mut g = Groups::new();
                let rules = Rules::default();
                for mode in 0..3 {
                    let mut best = f64::MAX;
                    for _ in 0..5 {
                        let t = Instant::now();
                        let mut k = 0usize;
                        for _ in 0..20 {
                            for b in &boards {
                                k += match mode {
                                    0 => g.find(b, 2).len(),
                                    1 => g.summarize(b, 2).len(),
                                    _ => g.potential(b, &rules).groups as usize,
                                };
                            }
                        }
                        std::hint::black_box(k);
                        best = best.min(t.elapsed().as_nanos() as f64 / 4000.0);
                    }
                    println!("{w}x{h} c{c} mode {mode}: {best:.0} ns");
                }
            }
        }
        "ir" => {
            // One mode, for instruction counts: speed ir MODE W H C
            let mode: usize = args[2].parse().unwrap();
            let (w, h, c): (usize, usize, usize) =
                (args[3].parse().unwrap(), args[4].parse().unwrap(), args[5].parse().unwrap());
            let boards: Vec<Board> = (0..200).map(|s| Board::random(w, h, c, s)).collect();
            let mut g = Groups::new();
            let rules = Rules::default();
            let mut k = 0usize;
            for _ in 0..10 {
                for b in &boards {
                    k += match mode {
                        0 => g.find(b, 2).len(),
                        1 => g.summarize(b, 2).len(),
                        2 => g.potential(b, &rules).groups as usize,
                        _ => 0,
                    };
                }
            }
            println!("{k}");
        }
        _ => {
            let (w, h) = if what == "clear30" { (30, 20) } else { (15, 10) };
            let n = args.get(2).map_or(5, |a| a.parse().unwrap());
            let width = args.get(3).map_or(5000, |a| a.parse().unwrap());
            for s in 0..n {
                let b = Board::random(w, h, 3, 1000 + s);
                let mut cfg = Config::new(Goal::Clear, width);
                cfg.widen = false;
                let t = Instant::now();
                let out = search(&b, &cfg, None, |_| {});
                println!(
                    "seed {}: cleared {} nodes {} {:.3} s",
                    1000 + s,
                    out.cleared,
                    out.nodes,
                    t.elapsed().as_secs_f64()
                );
            }
        }
    }
}
