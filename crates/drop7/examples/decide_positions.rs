//! Depth-`D` decisions on positions read from a file (one text-form position a line), for
//! profiling and CPU timing of the search:
//! `decide_positions FILE [DEPTH] [TABLE_BITS] [LEAF_CACHE_BITS]`; DEPTH may be a work
//! budget `MOVES:MIN:MAX` ([`DepthRule::Budget`]: each line then shows the depth reached).
//! Hardcore rules, the `ready` evaluator, paired reveals, a direct table per decision (the
//! `play` defaults). Prints each decision's best column, work counters, a hash of its values
//! (bits) and, on Linux, the thread CPU time. `examples/positions.txt` holds the 11 positions
//! of the session-5 measurements (turns of depth-2 games, seeds 5-12):
//! `decide_positions crates/drop7/examples/positions.txt 5 16`,
//! `decide_positions crates/drop7/examples/positions.txt 8000000:4:6 16`.

use drop7::search::{ChanceModel, DepthRule, Direct, Ready, Searcher};
use drop7::{Mode, Position, Rules};

fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let file =
        args.next().expect("usage: decide_positions FILE [DEPTH] [TABLE_BITS] [LEAF_CACHE_BITS]");
    let rule = match args.next() {
        None => DepthRule::Fixed(4),
        Some(s) => match s.split(':').map(|x| x.parse::<u64>()).collect::<Result<Vec<_>, _>>() {
            Ok(v) if v.len() == 1 => DepthRule::Fixed(v[0] as u32),
            Ok(v) if v.len() == 3 => {
                DepthRule::Budget { moves: v[0], min: v[1] as u32, max: v[2] as u32 }
            }
            _ => panic!("DEPTH: D or MOVES:MIN:MAX, not {s:?}"),
        },
    };
    let rule = rule.check().expect("a valid depth rule");
    let mut depths = [0u32; 8];
    let mut per_decision = Vec::new();
    let bits = args.next().and_then(|s| s.parse().ok()).unwrap_or(16);
    let leaf_bits = args.next().and_then(|s| s.parse().ok());
    let text = std::fs::read_to_string(&file).expect("readable positions file");
    let rules = Rules::new(Mode::Hardcore);
    let (mut total_moves, mut total_cpu, mut all_hash) = (0u64, 0.0, 0u64);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let pos: Position = line.trim().parse().expect("a position");
        let mut s = Searcher::new(rules, ChanceModel::Exact, Ready::default(), Direct::new(bits));
        s.paired_reveals = true;
        if let Some(b) = leaf_bits {
            s.leaf_cache = drop7::search::LeafCache::new(b);
        }
        let c0 = cpu_ns();
        let r = std::hint::black_box(s.decide_rule(&pos, rule));
        let d = r.decision;
        depths[r.depth as usize] += 1;
        per_decision.push(r.moves);
        let secs = match (c0, cpu_ns()) {
            (Some(a), Some(b)) => (b - a) as f64 * 1e-9,
            _ => 0.0,
        };
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for v in d.values {
            h = (h ^ v.map_or(0, f64::to_bits)).wrapping_mul(0x100_0000_01b3);
        }
        all_hash = (all_hash ^ h).wrapping_mul(0x100_0000_01b3);
        total_moves += s.stats.moves;
        total_cpu += secs;
        println!(
            "depth {} best {} moves {} leaves {} chance {} probes {} hits {} replays {} shared {} cached {} values {h:016x} cpu {secs:.3}",
            r.depth,
            d.best + 1,
            s.stats.moves,
            s.stats.leaves,
            s.stats.chance_nodes,
            s.stats.probes,
            s.stats.hits,
            s.stats.replays,
            s.stats.replays_shared,
            s.stats.leaves_cached
        );
    }
    println!("total moves {total_moves} cpu {total_cpu:.3} hash {all_hash:016x}");
    per_decision.sort_unstable();
    let n = per_decision.len().max(1);
    let median = if per_decision.is_empty() {
        0.0
    } else if n % 2 == 1 {
        per_decision[n / 2] as f64
    } else {
        (per_decision[n / 2 - 1] + per_decision[n / 2]) as f64 / 2.0
    };
    println!(
        "rule {rule}: mean moves {:.0} median {median:.0} max {}; decisions by depth {:?}",
        total_moves as f64 / n as f64,
        per_decision.last().copied().unwrap_or(0),
        &depths[1..]
    );
}
