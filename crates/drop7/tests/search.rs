//! Search checks: the table changes no decision value, strata of 7 equal the exact model,
//! depth 1 is the obvious one-ply value, batches are identical for any thread count, and
//! every played game's record replays.

use drop7::engine::{RandomDraws, Recording};
use drop7::search::{
    play_game, play_games, reveal_by_depth, BatchSpec, ChanceModel, Crowding, DepthRule, Direct,
    Evaluator, GameEvent, NoTable, Ready, SearchDraws, Searcher, SetAssoc,
};
use drop7::trace::verify;
use drop7::{Mode, Position, Rules};

/// Positions from real (depth-1 searched) games.
fn harvest(n: usize) -> Vec<Position> {
    let rules = Rules::new(Mode::Hardcore);
    let mut s = Searcher::new(rules, ChanceModel::Exact, Crowding::default(), NoTable);
    let mut out = Vec::new();
    for seed in 0..40u64 {
        let mut draws = Recording::new(RandomDraws::new(&rules, seed));
        let mut pos = Position::new_game(&rules, &mut draws.inner);
        let mut k = 0;
        while !pos.over && out.len() < n {
            if k % 9 == 4 {
                out.push(pos);
            }
            let d = s.decide(&pos, 1);
            pos.play(&rules, d.best, &mut draws).unwrap();
            k += 1;
        }
    }
    out
}

#[test]
fn tables_change_no_decision_value() {
    let rules = Rules::new(Mode::Hardcore);
    let positions = harvest(12);
    let mut none = Searcher::new(rules, ChanceModel::Exact, Crowding::default(), NoTable);
    let mut direct = Searcher::new(rules, ChanceModel::Exact, Crowding::default(), Direct::new(10));
    let mut two =
        Searcher::new(rules, ChanceModel::Exact, Crowding::default(), SetAssoc::<2>::new(10));
    let mut four =
        Searcher::new(rules, ChanceModel::Exact, Crowding::default(), SetAssoc::<4>::new(10));
    // Two reveal samples per revealing move: sampled values are pure functions of the node too.
    none.reveal_samples = 2;
    direct.reveal_samples = 2;
    two.reveal_samples = 2;
    four.reveal_samples = 2;
    for p in &positions {
        // Depth 3 with all 7 values, tables shared across the successive decisions.
        let want = none.decide(p, 3);
        for got in [direct.decide(p, 3), two.decide(p, 3), four.decide(p, 3)] {
            assert_eq!(got.best, want.best, "{p}");
            for c in 0..7 {
                assert_eq!(
                    got.values[c].map(f64::to_bits),
                    want.values[c].map(f64::to_bits),
                    "{p}"
                );
            }
        }
    }
    assert!(direct.stats.hits > 0 && four.stats.hits > 0);
    assert!(direct.stats.moves < none.stats.moves);
    assert!(four.stats.moves < none.stats.moves);
    assert_eq!(none.stats.probes, 0);
}

#[test]
fn seven_strata_equal_exact_in_hardcore() {
    let rules = Rules::new(Mode::Hardcore);
    let mut a = Searcher::new(rules, ChanceModel::Exact, Crowding::default(), NoTable);
    let mut b = Searcher::new(rules, ChanceModel::Strata(7), Crowding::default(), NoTable);
    let mut c = Searcher::new(rules, ChanceModel::Strata(3), Crowding::default(), NoTable);
    for p in harvest(6) {
        assert_eq!(a.decide(&p, 2), b.decide(&p, 2));
        c.decide(&p, 2);
    }
    assert!(c.stats.moves * 2 < a.stats.moves);
}

#[test]
fn depth_one_is_points_plus_leaf() {
    let rules = Rules::new(Mode::Hardcore);
    let eval = Crowding::default();
    let mut s = Searcher::new(rules, ChanceModel::Exact, eval, NoTable);
    for p in harvest(10) {
        let d = s.decide(&p, 1);
        for c in 0..7 {
            if !p.board.can_drop(c) {
                assert_eq!(d.values[c], None);
                continue;
            }
            let mut child = p;
            let t =
                child.drop_and_resolve(&rules, c, &mut SearchDraws::for_move(&p.board, c, p.next));
            let want = if child.over {
                t.points as f64 - s.death
            } else {
                t.points as f64 + eval.eval(&child.board, child.level, child.drops_left)
            };
            assert_eq!(d.values[c], Some(want), "{p} column {}", c + 1);
        }
        let best = d.values.iter().flatten().cloned().fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(d.values[d.best], Some(best));
    }
}

#[test]
fn batches_are_identical_for_any_thread_count_and_replay() {
    let spec = BatchSpec {
        rules: Rules::new(Mode::Hardcore),
        chance: ChanceModel::Exact,
        seed: 11,
        first: 0,
        games: 4,
        depth: DepthRule::Fixed(1),
        max_moves: 60,
        record: true,
        death: 1_000_000.0,
        reveal_samples: 2,
        reveal_by_depth: [0; 8],
        paired_reveals: false,
        stratified_reveals: false,
        chance_schedule: None,
    };
    let run = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| play_games(&spec, &Crowding::default(), || Direct::new(8), |_| {}))
    };
    let one = run(1);
    let two = run(2);
    assert_eq!(one, two);
    for (res, rec) in &one {
        let rec = rec.as_ref().unwrap();
        let end = verify(rec).unwrap();
        assert_eq!(end.score, res.score);
        // Tampering with a recorded reveal or score is caught.
        let mut bad = rec.clone();
        if let Some(t) = bad.turns.iter_mut().find(|t| t.score > 0) {
            t.score += 1;
            assert!(verify(&bad).is_err());
        }
    }
    let mut s = Searcher::new(spec.rules, spec.chance, Crowding::default(), NoTable);
    s.reveal_samples = spec.reveal_samples;
    let (r, _) = play_game(&mut s, bits::rng::sub_seed(11, 0), 1, 60, false);
    assert_eq!(r, one[0].0);
    // The batch observer hears every move of every game, in order within a game, with the
    // score the game had after it.
    let events = std::sync::Mutex::new(Vec::new());
    let heard = play_games(
        &spec,
        &Crowding::default(),
        || Direct::new(8),
        |e| {
            events.lock().unwrap().push(e);
        },
    );
    assert_eq!(heard, one);
    let events = events.into_inner().unwrap();
    for (i, (res, _)) in one.iter().enumerate() {
        let moved: Vec<(u32, u64)> = events
            .iter()
            .filter_map(|e| match *e {
                GameEvent::Moved { game, moves, score, .. } if game == i as u64 => {
                    Some((moves, score))
                }
                _ => None,
            })
            .collect();
        assert_eq!(moved.len() as u32, res.moves, "game {i}");
        assert!(moved.iter().enumerate().all(|(k, m)| m.0 == k as u32 + 1));
        assert_eq!(moved.last().map(|m| m.1), Some(res.score));
    }
}

#[test]
fn ready_scores_planted_boards() {
    let only = |ready, latent| Ready {
        crowding: Crowding { disc: 0.0, solid: 0.0, cracked: 0.0, tall: 0.0, full: 0.0 },
        ready,
        latent,
    };
    let board = |s: &str| s.parse::<drop7::Board>().unwrap();
    // A lone 3: two drops on it (1/2) or two drops beside it (1/2): 1 - (1/2)(1/2).
    let b = board("......./......./......./......./......./......./3......");
    assert_eq!(only(1.0, 0.0).eval(&b, 1, 5), 0.75);
    assert_eq!(only(0.0, 1.0).eval(&b, 1, 5), 0.0);
    // At rest: a 1 under a gray beside a 3. The 1 (column 2 high, row run 2) needs one
    // disc gone either way: release 1, no addition. The 3 (height 1, run 2) needs two drops
    // on it (1/2) or one drop in column 3 (1): addition 1, no release.
    let b = board("......./......./......./......./......./#....../13.....");
    assert_eq!(only(0.0, 1.0).eval(&b, 1, 5), 1.0);
    assert_eq!(only(1.0, 0.0).eval(&b, 1, 5), 1.0);
    // A 2 between gray walls of height 2: its row run is 3 (release 1), and one drop on it
    // pops it (addition 1); a window of 2 bounded by empty cells does not exist.
    let b = board("......./......./......./......./......./#.#..../#2#....");
    assert_eq!(only(1.0, 0.0).eval(&b, 1, 5), 1.0);
    assert_eq!(only(0.0, 1.0).eval(&b, 1, 5), 1.0);
    // The reference form agrees on all three.
    for s in [
        "......./......./......./......./......./......./3......",
        "......./......./......./......./......./#....../13.....",
        "......./......./......./......./......./#.#..../#2#....",
    ] {
        let b = board(s);
        let e = only(3.0, 5.0);
        assert_eq!(e.eval(&b, 1, 5), e.eval_reference(&b.to_cells(), 1, 5), "{s}");
    }
}

#[test]
fn reveal_schedules_read_from_the_root_down() {
    assert_eq!(reveal_by_depth(&[8, 2], 4), [0, 2, 2, 2, 8, 0, 0, 0]);
    assert_eq!(reveal_by_depth(&[8, 2, 2, 8], 4), [0, 8, 2, 2, 8, 0, 0, 0]);
    assert_eq!(reveal_by_depth(&[3], 2), [0, 3, 3, 0, 0, 0, 0, 0]);
    assert_eq!(reveal_by_depth(&[], 2), [0, 1, 1, 0, 0, 0, 0, 0]);
}

#[test]
fn paired_reveals_average_one_sample_per_outcome_and_tables_stay_exact() {
    let rules = Rules::new(Mode::Hardcore);
    let eval = Crowding::default();
    let mut none = Searcher::new(rules, ChanceModel::Exact, eval, NoTable);
    let mut direct = Searcher::new(rules, ChanceModel::Exact, eval, Direct::new(10));
    none.paired_reveals = true;
    direct.paired_reveals = true;
    let mut revealing = 0;
    for p in harvest(12) {
        // Depth 1: a revealing move is the mean of its 7 reveal samples.
        let d = none.decide(&p, 1);
        for c in (0..7).filter(|&c| p.board.can_drop(c)) {
            let value = |k: u32| {
                let mut child = p;
                let mut draws = SearchDraws::sample(&p.board, c, p.next, k);
                let t = child.drop_and_resolve(&rules, c, &mut draws);
                let v = if child.over {
                    t.points as f64 - none.death
                } else {
                    t.points as f64 + eval.eval(&child.board, child.level, child.drops_left)
                };
                (v, draws.count, child.over)
            };
            let (v0, count, over) = value(0);
            let want = if count == 0 || over {
                v0
            } else {
                revealing += 1;
                (0..7).map(|k| value(k).0 / 7.0).sum()
            };
            let got = d.values[c].unwrap();
            assert!((got - want).abs() < 1e-6, "{p} column {}: {got} vs {want}", c + 1);
        }
        // Depth 3: the table changes no value.
        assert_eq!(none.decide(&p, 3), direct.decide(&p, 3), "{p}");
    }
    assert!(revealing > 0);
    assert!(direct.stats.hits > 0 && direct.stats.moves < none.stats.moves);
}

#[test]
fn root_samples_over_paired_reveals_stay_table_exact() {
    let rules = Rules::new(Mode::Hardcore);
    let mut none = Searcher::new(rules, ChanceModel::Exact, Crowding::default(), NoTable);
    let mut direct = Searcher::new(rules, ChanceModel::Exact, Crowding::default(), Direct::new(10));
    let mut paired = Searcher::new(rules, ChanceModel::Exact, Crowding::default(), NoTable);
    none.paired_reveals = true;
    none.set_reveal_schedule(&[3, 1], 3);
    direct.paired_reveals = true;
    direct.set_reveal_schedule(&[3, 1], 3);
    paired.paired_reveals = true;
    let mut differ = 0;
    for p in harvest(8) {
        let d = none.decide(&p, 3);
        assert_eq!(d, direct.decide(&p, 3), "{p}");
        // Three samples at the root change some root values (the revealing moves).
        differ += usize::from(d != paired.decide(&p, 3));
    }
    assert!(differ > 0);
}

#[test]
fn chance_schedules_stay_table_exact_and_all_exact_changes_nothing() {
    let rules = Rules::new(Mode::Hardcore);
    let positions = harvest(8);
    let schedule = [ChanceModel::Exact, ChanceModel::Strata(3)];
    let mut plain = Searcher::new(rules, ChanceModel::Exact, Ready::default(), NoTable);
    let mut exact = Searcher::new(rules, ChanceModel::Exact, Ready::default(), NoTable);
    exact.set_chance_schedule(&[ChanceModel::Exact], 3);
    let mut none = Searcher::new(rules, ChanceModel::Exact, Ready::default(), NoTable);
    let mut direct = Searcher::new(rules, ChanceModel::Exact, Ready::default(), Direct::new(10));
    for s in [&mut plain, &mut exact] {
        s.paired_reveals = true;
    }
    none.paired_reveals = true;
    none.set_chance_schedule(&schedule, 3);
    direct.paired_reveals = true;
    direct.set_chance_schedule(&schedule, 3);
    let mut differs = 0;
    for p in &positions {
        let want = plain.decide(p, 3);
        assert_eq!(exact.decide(p, 3), want, "{p}");
        let a = none.decide(p, 3);
        let b = direct.decide(p, 3);
        for c in 0..7 {
            assert_eq!(a.values[c].map(f64::to_bits), b.values[c].map(f64::to_bits), "{p}");
        }
        differs += usize::from(a.values != want.values);
    }
    // The strata below the first chance level do change values.
    assert!(differs > 0);
}

/// The paired-reveal expectimax written plainly (no table, no shared replays, no leaf
/// cache), Hardcore's 7 equally likely discs: the searcher must give the same bits. With
/// `stratified`, replay `k` of a move draws from `SearchDraws::stratified` for the move's
/// node (its board, next disc, drops left and depth; not its column).
mod plain {
    use super::*;
    use drop7::Disc;

    pub struct Plain<E: Evaluator> {
        pub rules: Rules,
        pub eval: E,
        pub death: f64,
        pub stratified: bool,
    }

    impl<E: Evaluator> Plain<E> {
        pub fn move_value(&self, pos: &Position, col: usize, depth: u32) -> f64 {
            let play = |k: u32| {
                let mut child = *pos;
                let mut draws = if self.stratified {
                    SearchDraws::stratified(&pos.board, pos.next, pos.drops_left, depth, k)
                } else {
                    SearchDraws::sample(&pos.board, col, pos.next, k)
                };
                let t = child.drop_and_resolve(&self.rules, col, &mut draws);
                (child, t.points as f64, draws.count)
            };
            let (child, gain, count) = play(0);
            if child.over {
                return gain - self.death;
            }
            if count == 0 {
                return gain + self.chance(&child, depth - 1);
            }
            let mut sum = 0.0;
            for i in 0..7u32 {
                let (mut child, gain, _) = play(i);
                let v = if child.over {
                    gain - self.death
                } else if depth == 1 {
                    gain + self.eval.eval(&child.board, child.level, child.drops_left)
                } else {
                    child.next = Disc::number(i as u8 + 1).unwrap();
                    gain + self.best(&child, depth - 1)
                };
                sum += (1.0 - 0.0) / 7.0 * v;
            }
            sum
        }

        fn best(&self, pos: &Position, depth: u32) -> f64 {
            let mut best = f64::NEG_INFINITY;
            for c in (0..7).filter(|&c| pos.board.can_drop(c)) {
                best = best.max(self.move_value(pos, c, depth));
            }
            best
        }

        fn chance(&self, pos: &Position, depth: u32) -> f64 {
            if depth == 0 {
                return self.eval.eval(&pos.board, pos.level, pos.drops_left);
            }
            let mut sum = 0.0;
            for v in 1..=7u8 {
                let mut p = *pos;
                p.next = Disc::number(v).unwrap();
                sum += (1.0 - 0.0) / 7.0 * self.best(&p, depth);
            }
            sum
        }
    }
}

#[test]
fn shared_replays_and_the_leaf_cache_change_no_value() {
    let rules = Rules::new(Mode::Hardcore);
    for stratified in [false, true] {
        let plain = plain::Plain { rules, eval: Ready::default(), death: 1_000_000.0, stratified };
        let mut fast = Searcher::new(rules, ChanceModel::Exact, Ready::default(), Direct::new(12));
        fast.paired_reveals = true;
        fast.stratified_reveals = stratified;
        let mut cached = Searcher::new(rules, ChanceModel::Exact, Ready::default(), NoTable);
        cached.paired_reveals = true;
        cached.stratified_reveals = stratified;
        cached.leaf_cache = drop7::search::LeafCache::new(8);
        let mut differ = 0;
        for p in harvest(30).into_iter().skip(8).step_by(4) {
            let a = fast.decide(&p, 3);
            let b = cached.decide(&p, 3);
            for c in 0..7 {
                let want = p.board.can_drop(c).then(|| plain.move_value(&p, c, 3).to_bits());
                assert_eq!(a.values[c].map(f64::to_bits), want, "{p} column {}", c + 1);
                assert_eq!(b.values[c].map(f64::to_bits), want, "{p} column {}", c + 1);
            }
            let other =
                plain::Plain { rules, eval: Ready::default(), death: 1e6, stratified: !stratified };
            differ += (0..7)
                .filter(|&c| {
                    p.board.can_drop(c)
                        && other.move_value(&p, c, 2).to_bits()
                            != plain.move_value(&p, c, 2).to_bits()
                })
                .count();
        }
        // The shortcuts were taken (sharing needs replays that draw alike: not stratified).
        assert!(stratified || fast.stats.replays_shared > 0 && cached.stats.replays_shared > 0);
        assert!(cached.stats.leaves_cached > 0);
        // The draws matter: stratified and plain sampling value some moves differently.
        assert!(differ > 0);
    }
}

/// `SearchDraws::stratified`: over samples 0..7 every reveal of a move takes every value
/// once; the stream depends on the node (board, disc, drops left, depth), not the column;
/// the hashed form draws the same.
#[test]
fn stratified_reveals_take_every_value_once_and_ignore_the_column() {
    use drop7::engine::Draws;
    let rules = Rules::new(Mode::Hardcore);
    let mut moves_checked = 0;
    for p in harvest(60) {
        for depth in [1, 3] {
            for c in (0..7).filter(|&c| p.board.can_drop(c)) {
                // The reveals each sample's move makes, in order.
                let logs: Vec<Vec<u8>> = (0..7)
                    .map(|k| {
                        let mut child = p;
                        let mut d = Recording::new(SearchDraws::stratified(
                            &p.board,
                            p.next,
                            p.drops_left,
                            depth,
                            k,
                        ));
                        child.drop_and_resolve(&rules, c, &mut d);
                        d.reveals
                    })
                    .collect();
                // The first reveal is the same event in every sample; it takes 1..=7 once.
                if logs.iter().all(|l| !l.is_empty()) {
                    let mut first: Vec<u8> = logs.iter().map(|l| l[0]).collect();
                    first.sort_unstable();
                    assert_eq!(first, (1..=7).collect::<Vec<u8>>(), "{p} column {}", c + 1);
                    moves_checked += 1;
                }
            }
            // Reveal j of sample k is 1 + (k + r_j) mod 7 with r_j the node's, for any column.
            let mut base = SearchDraws::stratified(&p.board, p.next, p.drops_left, depth, 0);
            let r: Vec<u8> = (0..12).map(|_| base.reveal() - 1).collect();
            for k in 0..7u32 {
                let mut a = SearchDraws::stratified(&p.board, p.next, p.drops_left, depth, k);
                let mut h = SearchDraws::stratified_hashed(
                    p.board.hash64(),
                    p.next,
                    p.drops_left,
                    depth,
                    k,
                );
                for &rj in &r {
                    let want = 1 + (k as u8 + rj) % 7;
                    assert_eq!((a.reveal(), h.reveal()), (want, want));
                }
            }
        }
        // Another depth or drops count draws another stream.
        let a: Vec<u8> = {
            let mut d = SearchDraws::stratified(&p.board, p.next, p.drops_left, 2, 0);
            (0..12).map(|_| d.reveal()).collect()
        };
        let b: Vec<u8> = {
            let mut d = SearchDraws::stratified(&p.board, p.next, p.drops_left, 3, 0);
            (0..12).map(|_| d.reveal()).collect()
        };
        assert_ne!(a, b, "{p}");
    }
    assert!(moves_checked > 20, "only {moves_checked} revealing moves");
}

#[test]
fn shards_of_a_batch_concatenate_into_the_whole_batch() {
    let spec = BatchSpec {
        rules: Rules::new(Mode::Hardcore),
        chance: ChanceModel::Exact,
        seed: 21,
        first: 0,
        games: 5,
        depth: DepthRule::Fixed(2),
        max_moves: 40,
        record: true,
        death: 1_000_000.0,
        reveal_samples: 1,
        reveal_by_depth: [0; 8],
        paired_reveals: true,
        stratified_reveals: false,
        chance_schedule: None,
    };
    let run = |first, games| {
        let s = BatchSpec { first, games, ..spec };
        play_games(&s, &Ready::default(), || Direct::new(8), |_| {})
    };
    let whole = run(0, 5);
    let mut shards = run(0, 2);
    shards.extend(run(2, 1));
    shards.extend(run(3, 2));
    assert_eq!(shards, whole);
    for (i, (res, _)) in whole.iter().enumerate() {
        assert_eq!(res.index, i as u64);
        assert_eq!(res.seed, bits::rng::sub_seed(21, i as u64));
    }
}

#[test]
fn fitted_features_of_a_planted_board() {
    use drop7::search::eval::{features, FEATURE_NAMES};
    // A 1 under a solid gray beside a 3, two drops before the rise.
    let b = "......./......./......./......./......./#....../13.....".parse::<drop7::Board>();
    let f = features(&b.unwrap(), 2);
    let want = [
        ("bias", 1.0),
        ("v1", 1.0),
        ("v3", 1.0),
        ("solid", 1.0),
        ("h1", 1.0),
        ("h2", 1.0),
        // As in `ready_scores_planted_boards`.
        ("ready", 1.0),
        ("latent", 1.0),
        // The 1: run 2, height 2; the 3: run 2, height 1.
        ("mismatch", 2.0),
        // The gray sits on the 1.
        ("exposed", 1.0),
        ("d2", 1.0),
        // Heights 2, 1, 0, ...
        ("bumps", 2.0),
    ];
    for (j, name) in FEATURE_NAMES.iter().enumerate() {
        let w = want.iter().find(|(n, _)| n == name).map_or(0.0, |x| x.1);
        assert_eq!(f[j], w, "{name}");
    }
    // A full column one drop before the rise, and one of height 6.
    let b = "3....../3#...../4#...../5#...../6#...../1#...../1######".parse::<drop7::Board>();
    let b = b.unwrap();
    let f = features(&b, 1);
    let at = |name| f[FEATURE_NAMES.iter().position(|n| *n == name).unwrap()];
    assert_eq!(
        (at("full_d1"), at("six_d1"), at("h7"), at("h6"), at("d2")),
        (1.0, 1.0, 1.0, 1.0, 0.0)
    );
    let f = features(&b, 5);
    let at = |name| f[FEATURE_NAMES.iter().position(|n| *n == name).unwrap()];
    assert_eq!((at("full_d1"), at("full_d5"), at("six_d1"), at("d5")), (0.0, 1.0, 0.0, 1.0));
}

#[test]
fn fit_harvest_is_thread_independent_and_the_fit_explains_it() {
    use drop7::search::fit::{harvest, r_squared, ridge, samples, Target};
    let spec = BatchSpec {
        rules: Rules::new(Mode::Hardcore),
        chance: ChanceModel::Exact,
        seed: 77,
        first: 0,
        games: 24,
        depth: DepthRule::Fixed(1),
        max_moves: 10_000,
        record: false,
        death: 1e6,
        reveal_samples: 1,
        reveal_by_depth: [0; 8],
        paired_reveals: false,
        stratified_reveals: false,
        chance_schedule: None,
    };
    let run = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| harvest(&spec, &Ready::default(), || NoTable))
    };
    let games = run(1);
    assert_eq!(games, run(2));
    let one = samples(&games, Target::ToEnd);
    assert!(one.len() > 24 * 10, "{} boards", one.len());
    // Boards in game order; points are never negative.
    assert!(one.windows(2).all(|w| w[0].game <= w[1].game));
    assert!(one.iter().all(|s| s.target >= 0.0));
    let fit = ridge(&one, 1e-3).unwrap();
    assert!(r_squared(&fit, &one) > 0.1);
}

#[test]
fn sibling_rollouts_share_the_stream_and_centre_within_positions() {
    use drop7::search::fit::{group_samples, rollouts, Target};
    let spec = BatchSpec {
        rules: Rules::new(Mode::Hardcore),
        chance: ChanceModel::Exact,
        seed: 78,
        first: 0,
        games: 3,
        depth: DepthRule::Fixed(1),
        max_moves: 10_000,
        record: false,
        death: 1e6,
        reveal_samples: 1,
        reveal_by_depth: [0; 8],
        paired_reveals: false,
        stratified_reveals: false,
        chance_schedule: None,
    };
    let groups = rollouts(&spec, &Ready::default(), || NoTable, 4, 1, 8);
    assert!(groups.len() >= 3, "{} groups", groups.len());
    for g in &groups {
        assert!((2..=7).contains(&g.siblings.len()));
        for s in &g.siblings {
            // The sibling's own move, then at most 8 rollout moves.
            assert!((1..=9).contains(&s.points.len()));
        }
    }
    let samples = group_samples(&groups, Target::ToEnd);
    assert_eq!(samples.len(), groups.iter().map(|g| g.siblings.len()).sum::<usize>());
    // Within each position the centred targets and features sum to zero.
    let mut k = 0;
    for g in &groups {
        let part = &samples[k..k + g.siblings.len()];
        k += g.siblings.len();
        assert!(part.iter().map(|s| s.target).sum::<f64>().abs() < 1e-6);
        for j in 1..drop7::search::eval::FEATURES {
            assert!(part.iter().map(|s| s.features[j]).sum::<f64>().abs() < 1e-9);
        }
    }
}

/// [`Ready::default`] written as `fitted` weights: every one of its terms is in the span of
/// the features (discs by value and grays, Σ max(0, h - 4)^2 by the height counts, the full
/// columns' urgency by `full_d1..5`).
fn ready_as_fitted() -> drop7::search::Fitted {
    let r = Ready::default();
    let c = r.crowding;
    let mut w = [0.0; drop7::search::eval::FEATURES];
    let mut set = |name: &str, x: f64| {
        let j = drop7::search::eval::FEATURE_NAMES.iter().position(|n| *n == name).unwrap();
        w[j] = x;
    };
    for v in 1..=7 {
        set(&format!("v{v}"), -c.disc);
    }
    set("solid", -c.disc - c.solid);
    set("cracked", -c.disc - c.cracked);
    for h in 5..=7 {
        set(&format!("h{h}"), -c.tall * f64::from((h - 4) * (h - 4)));
    }
    for d in 1..=5 {
        set(&format!("full_d{d}"), -c.full * f64::from(6 - d));
    }
    set("ready", r.ready);
    drop7::search::Fitted { weights: w }
}

#[test]
fn fitted_spans_ready() {
    let rules = Rules::new(Mode::Hardcore);
    let (ready, fitted) = (Ready::default(), ready_as_fitted());
    let mut s = Searcher::new(rules, ChanceModel::Exact, Ready::default(), NoTable);
    let mut checked = 0;
    for seed in 0..20u64 {
        let mut draws = RandomDraws::new(&rules, seed);
        let mut pos = Position::new_game(&rules, &mut draws);
        while !pos.over {
            let (a, b) = (
                ready.eval(&pos.board, 1, pos.drops_left),
                fitted.eval(&pos.board, 1, pos.drops_left),
            );
            assert!((a - b).abs() <= 1e-9 * a.abs().max(1.0), "{a} {b}\n{pos}");
            checked += 1;
            let d = s.decide(&pos, 1);
            pos.play_unchecked(&rules, d.best, &mut draws);
        }
    }
    assert!(checked > 300, "{checked}");
}
