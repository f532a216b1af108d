//! The work-budget depth rule: a budget that cannot deepen is the fixed depth, bit for bit;
//! a budget search's answer is the fixed-depth answer at the depth it reached; it never
//! passes its maximum; batches are the same for any thread count and shards concatenate.

use drop7::search::{
    play_game, play_games, BatchSpec, ChanceModel, DepthRule, Direct, Ready, Searcher,
};
use drop7::trace::verify;
use drop7::{Mode, Position, Rules};

fn positions() -> Vec<Position> {
    include_str!("../examples/positions.txt")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.trim().parse().unwrap())
        .collect()
}

fn searcher(bits: u32) -> Searcher<Ready, Direct> {
    let mut s = Searcher::new(
        Rules::new(Mode::Hardcore),
        ChanceModel::Exact,
        Ready::default(),
        Direct::new(bits),
    );
    s.paired_reveals = true;
    s
}

fn bits(d: &drop7::search::Decision) -> Vec<Option<u64>> {
    d.values.iter().map(|v| v.map(f64::to_bits)).collect()
}

#[test]
fn a_budget_that_cannot_deepen_is_the_fixed_depth() {
    for p in positions() {
        for d in 1..=3 {
            let mut fixed = searcher(12);
            let f = fixed.decide_rule(&p, DepthRule::Fixed(d));
            assert_eq!(f.decision, searcher(12).decide(&p, d), "{p}");
            assert_eq!(f.depth, d);
            // min = max: any budget stops at d; budget 0 stops at min.
            for rule in [
                DepthRule::Budget { moves: u64::MAX, min: d, max: d },
                DepthRule::Budget { moves: 0, min: d, max: 3 },
            ] {
                let mut s = searcher(12);
                let b = s.decide_rule(&p, rule);
                assert_eq!(b.depth, d, "{p} {rule}");
                assert_eq!(b.decision.best, f.decision.best, "{p} {rule}");
                assert_eq!(bits(&b.decision), bits(&f.decision), "{p} {rule}");
                assert_eq!((b.moves, s.stats), (f.moves, fixed.stats), "{p} {rule}");
            }
        }
    }
}

#[test]
fn a_budget_search_answers_as_the_fixed_depth_it_reached() {
    let (mut deeper, mut shallow) = (0, 0);
    for p in positions() {
        // A small table, so that the iterations' entries meet and compete for slots.
        let mut s = searcher(10);
        let r = s.decide_rule(&p, DepthRule::Budget { moves: 40_000, min: 1, max: 3 });
        assert!((1..=3).contains(&r.depth), "{p}: depth {}", r.depth);
        assert_eq!(r.moves, s.stats.moves);
        let want = searcher(16).decide(&p, r.depth);
        assert_eq!(r.decision.best, want.best, "{p}");
        assert_eq!(bits(&r.decision), bits(&want), "{p}");
        if r.depth > 1 {
            deeper += 1;
        }
        if r.depth < 3 {
            shallow += 1;
        }
        // A huge budget goes all the way, and no further.
        let r = searcher(10).decide_rule(&p, DepthRule::Budget { moves: u64::MAX, min: 1, max: 3 });
        assert_eq!(r.depth, 3, "{p}");
        assert_eq!(bits(&r.decision), bits(&searcher(16).decide(&p, 3)), "{p}");
    }
    // The mid budget deepens on some positions and not on all.
    assert!(deeper > 0 && shallow > 0, "deeper {deeper}, shallow {shallow}");
}

#[test]
fn a_budget_search_sets_the_chance_schedule_for_each_depth() {
    let schedule = [ChanceModel::Exact, ChanceModel::Strata(3)];
    for p in positions().into_iter().take(4) {
        let mut s = searcher(12);
        s.set_chance_schedule(&schedule, 1);
        let r = s.decide_rule(&p, DepthRule::Budget { moves: u64::MAX, min: 1, max: 3 });
        let mut f = searcher(12);
        f.set_chance_schedule(&schedule, 3);
        assert_eq!(bits(&r.decision), bits(&f.decide(&p, 3)), "{p}");
    }
}

fn spec(depth: DepthRule) -> BatchSpec {
    BatchSpec {
        rules: Rules::new(Mode::Hardcore),
        chance: ChanceModel::Exact,
        seed: 31,
        first: 0,
        games: 4,
        depth,
        max_moves: 30,
        record: true,
        death: 1_000_000.0,
        reveal_samples: 1,
        reveal_by_depth: [0; 8],
        paired_reveals: true,
        stratified_reveals: false,
        chance_schedule: None,
    }
}

#[test]
fn budget_games_equal_fixed_games_when_the_budget_cannot_deepen() {
    let run = |rule| play_games(&spec(rule), &Ready::default(), || Direct::new(10), |_| {});
    let fixed = run(DepthRule::Fixed(2));
    for rule in [
        DepthRule::Budget { moves: u64::MAX, min: 2, max: 2 },
        DepthRule::Budget { moves: 0, min: 2, max: 4 },
    ] {
        let budget = run(rule);
        for ((f, fr), (b, br)) in fixed.iter().zip(&budget) {
            assert_eq!(f, b, "{rule}");
            assert_eq!(f.depths, [0, 0, f.moves, 0, 0, 0, 0, 0]);
            let (fr, br) = (fr.as_ref().unwrap(), br.as_ref().unwrap());
            assert_eq!(fr.turns, br.turns);
            assert_eq!((fr.depth, fr.rule), (Some(2), None));
            assert_eq!((br.depth, br.rule), (None, Some(rule)));
        }
    }
    // The same game alone, from a u32 depth.
    let mut s = spec(DepthRule::Fixed(2)).searcher(Ready::default(), Direct::new(10));
    let (r, _) = play_game(&mut s, bits::rng::sub_seed(31, 0), 2, 30, false);
    assert_eq!(r, fixed[0].0);
}

#[test]
fn budget_batches_are_thread_independent_shard_and_replay() {
    let rule = DepthRule::Budget { moves: 12_000, min: 1, max: 3 };
    let spec = spec(rule);
    let run = |threads, first, games| {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(|| {
            let s = BatchSpec { first, games, ..spec };
            play_games(&s, &Ready::default(), || Direct::new(10), |_| {})
        })
    };
    let one = run(1, 0, 4);
    assert_eq!(one, run(2, 0, 4));
    let mut shards = run(2, 0, 1);
    shards.extend(run(1, 1, 3));
    assert_eq!(shards, one);
    let mut reached = [0u32; 8];
    for (res, rec) in &one {
        let rec = rec.as_ref().unwrap();
        assert_eq!(verify(rec).unwrap().score, res.score);
        // Every decision counted once, none beyond the maximum.
        assert_eq!(res.depths.iter().sum::<u32>(), res.moves);
        assert_eq!(res.depths[0] + res.depths[4..].iter().sum::<u32>(), 0);
        assert!(res.max_decision_moves as f64 >= res.moves_per_decision());
        for (t, n) in reached.iter_mut().zip(res.depths) {
            *t += n;
        }
        // The record names the rule and survives JSON.
        let text = serde_json::to_string(rec).unwrap();
        let back: drop7::trace::GameRecord = serde_json::from_str(&text).unwrap();
        assert_eq!(back.rule, Some(rule));
        assert_eq!(&back, rec);
    }
    // The budget mixes depths.
    assert!(reached[2] > 0 && reached[3] > 0, "{reached:?}");
}

#[test]
fn depth_rules_check_their_bounds() {
    assert!(DepthRule::Budget { moves: 1, min: 4, max: 6 }.check().is_ok());
    assert!(DepthRule::Budget { moves: 1, min: 5, max: 4 }.check().is_err());
    assert!(DepthRule::Budget { moves: 1, min: 0, max: 4 }.check().is_err());
    assert!(DepthRule::Budget { moves: 1, min: 4, max: 8 }.check().is_err());
    assert!(DepthRule::Fixed(0).check().is_err());
    assert!(DepthRule::Fixed(7).check().is_ok());
    assert_eq!(DepthRule::from(3), DepthRule::Fixed(3));
    assert_eq!(DepthRule::Budget { moves: 5, min: 4, max: 6 }.to_string(), "budget 5 (4..6)");
}
