//! The n-tuple leaf: its fast index path against the grid form (on every state of random
//! games and on arbitrary boards), and a learning check that can fail: a network trained for
//! a few hundred games plays better, 1-ply, than an untrained one on fixed seeds.

use std::sync::Arc;

use bits::rng::sub_seed;
use drop7::reference::compare_random_game;
use drop7::search::ntuple::{
    greedy_game, train_game, train_game_tc, Coherence, NTuple, NTupleEval, NTupleMean, Shape,
};
use drop7::search::Evaluator;
use drop7::{Board, Mode, Rules};

/// A network whose every weight differs (so a wrong slot shows in the value's bits).
fn odd_net(shape: Shape) -> NTuple {
    let w = (0..shape.weights())
        .map(|i| ((i as u64).wrapping_mul(0x9E37_79B9) % 4001) as f32 * 0.375 - 700.0)
        .collect();
    NTuple::from_weights(shape, w).unwrap()
}

#[test]
fn ntuple_evaluator_identical_to_its_reference_form() {
    let rules = Rules::new(Mode::Hardcore);
    // A prime size folds the indices (the modulo path); the exact path is checked below.
    let eval = NTupleEval(Arc::new(odd_net(Shape::new([0, 1, 1, 2, 2, 3, 3], 1_000_003).unwrap())));
    let mut turns = 0u64;
    for i in 0..2_000 {
        turns +=
            u64::from(compare_random_game(&rules, sub_seed(0x47_1E, i), 10_000, &eval).unwrap());
    }
    assert!(turns > 20_000, "only {turns} turns");
}

#[test]
fn network_mean_identical_to_its_reference_form_and_to_one_network() {
    let rules = Rules::new(Mode::Hardcore);
    let a = Arc::new(odd_net(Shape::new([0, 1, 1, 2, 2, 3, 3], 65_537).unwrap()));
    let b = Arc::new(odd_net(Shape::new([0, 0, 1, 1, 1, 2, 2], 40_009).unwrap().with_blocks(true)));
    let mean = NTupleMean(vec![a.clone(), b]);
    for i in 0..300 {
        compare_random_game(&rules, sub_seed(0x3EA4, i), 10_000, &mean).unwrap();
    }
    let twice = NTupleMean(vec![a.clone(), a.clone()]);
    let board: Board = "......./......./..6..../..x..../..#4.../3#6#4#5/#######".parse().unwrap();
    assert_eq!(twice.eval(&board, 1, 3).to_bits(), NTupleEval(a).eval(&board, 1, 3).to_bits());
}

#[test]
fn block_evaluator_identical_to_its_reference_form() {
    let rules = Rules::new(Mode::Hardcore);
    // Folded (prime size) and exact block tables.
    for size in [65_537, 2_000_003] {
        let shape = Shape::new([0, 1, 1, 2, 2, 3, 3], size).unwrap().with_blocks(true);
        let eval = NTupleEval(Arc::new(odd_net(shape)));
        let mut turns = 0u64;
        for i in 0..500 {
            turns +=
                u64::from(compare_random_game(&rules, sub_seed(0xB10C, i), 10_000, &eval).unwrap());
        }
        assert!(turns > 5_000, "only {turns} turns");
    }
}

#[test]
fn standard_slots_equal_their_reference_form_on_arbitrary_boards() {
    let mut rng = bits::rng::Rng::new(0x5_1075);
    let shapes = [
        Shape::standard(),
        Shape::new([0, 1, 2, 3, 4, 5, 6], Shape::FULL).unwrap(),
        Shape::standard().with_blocks(true),
    ];
    for _ in 0..20_000 {
        let mut cols = [0u32; 7];
        for col in &mut cols {
            let h = rng.below(8) as u32;
            for r in 0..h {
                *col |= (1 + rng.below(9) as u32) << (4 * r);
            }
        }
        let board = Board::from_cols(cols);
        let grid = board.to_cells();
        let drops = 1 + rng.below(30) as u32;
        for shape in &shapes {
            let mut fast = shape.slots(&board, drops).to_vec();
            if shape.blocks() {
                fast.extend(shape.block_slots(&board));
            }
            assert_eq!(fast, shape.slots_reference(&grid, drops), "{shape} drops {drops}\n{board}");
            assert!(fast.iter().all(|&s| s < shape.weights()));
        }
    }
}

#[test]
fn tc_step_identical_to_its_reference_form() {
    // Every state of random games, on folded rows, folded blocks and an anchor shape: the fast step and its
    // plain twin, run in lockstep from the same weights and accumulators (warmed by a few TC
    // training games, so the rates are not all 1) with arbitrary errors, leave the same bits
    // in every slot read, and the same networks at the end.
    let rules = Rules::new(Mode::Hardcore);
    for shape in [
        Shape::new([0, 1, 1, 2, 2, 3, 3], 65_537).unwrap(),
        Shape::new([0, 0, 1, 1, 1, 2, 2], 40_009).unwrap().with_blocks(true),
        Shape::anchor(65_537).unwrap(),
    ] {
        let mut fast = odd_net(shape);
        let mut fast_acc = Coherence::new(&shape);
        for i in 0..10 {
            train_game_tc(&mut fast, &mut fast_acc, &rules, sub_seed(0x7C, i), 0.02);
        }
        let (mut slow, mut slow_acc) = (fast.clone(), fast_acc.clone());
        let (mut checked, mut moved) = (0u32, 0u32);
        for i in 0..20 {
            let mut rng = bits::Rng::new(sub_seed(0x7D, i));
            let mut draws = drop7::engine::RandomDraws::new(&rules, sub_seed(0x7E, i));
            let mut pos = drop7::Position::new_game(&rules, &mut draws);
            while !pos.over {
                let open: Vec<usize> = (0..7).filter(|&c| pos.board.can_drop(c)).collect();
                let col = open[rng.below(open.len() as u64) as usize];
                pos.play(&rules, col, &mut draws).unwrap();
                let (grid, d) = (pos.board.to_cells(), pos.drops_left);
                let err = (rng.below(2001) as f32 - 1000.0) * 0.75;
                let before = fast.value(&pos.board, d);
                fast.update_tc(&mut fast_acc, &pos.board, d, err, 0.03);
                slow.update_tc_reference(&mut slow_acc, &grid, d, err, 0.03);
                for s in shape.slots_reference(&grid, d) {
                    assert_eq!(fast.weights()[s].to_bits(), slow.weights()[s].to_bits(), "{i}");
                    assert_eq!(fast_acc.get(s), slow_acc.get(s), "game {i}, slot {s}");
                }
                // (a zero error, or weights whose errors cancelled exactly, move nothing)
                moved += u32::from(fast.value(&pos.board, d) != before);
                checked += 1;
            }
        }
        assert_eq!(fast.fingerprint(), slow.fingerprint());
        assert_eq!(fast_acc.fingerprint(), slow_acc.fingerprint());
        assert!(checked > 300, "only {checked} states");
        assert!(moved * 10 > checked * 9, "only {moved} of {checked} steps moved the value");
    }
}

#[test]
fn a_few_hundred_tc_training_games_beat_the_untrained_network() {
    let rules = Rules::new(Mode::Hardcore);
    let shape = Shape::new([0, 1, 1, 2, 2, 3, 3], 1 << 16).unwrap();
    let untrained = NTuple::new(shape);
    let mut net = NTuple::new(shape);
    let mut acc = Coherence::new(&shape);
    for i in 0..GAMES {
        train_game_tc(&mut net, &mut acc, &rules, sub_seed(11, i), 0.05);
    }
    let score = |n: &NTuple| -> u64 {
        (0..48).map(|i| greedy_game(n, &rules, sub_seed(12, i), 100_000).score).sum::<u64>() / 48
    };
    let (before, after) = (score(&untrained), score(&net));
    eprintln!("untrained {before}, tc-trained {after}");
    assert!(after * 100 > before * 115, "untrained {before}, tc-trained {after}");
}

#[test]
fn a_few_hundred_training_games_beat_the_untrained_network() {
    let rules = Rules::new(Mode::Hardcore);
    let shape = Shape::new([0, 1, 1, 2, 2, 3, 3], 1 << 16).unwrap();
    let untrained = NTuple::new(shape);
    let mut net = NTuple::new(shape);
    for i in 0..GAMES {
        train_game(&mut net, &rules, sub_seed(11, i), ALPHA);
    }
    // Evaluation seeds disjoint from the training stream's.
    let score = |n: &NTuple| -> u64 {
        (0..48).map(|i| greedy_game(n, &rules, sub_seed(12, i), 100_000).score).sum::<u64>() / 48
    };
    let (before, after) = (score(&untrained), score(&net));
    eprintln!("untrained {before}, trained {after}");
    // Greedy on points alone (the untrained network) averages about 96,000 on these seeds;
    // 600 games of TD(0) lift the 1-ply player by about a third.
    assert!(after * 100 > before * 115, "untrained {before}, trained {after}");
}

/// Training games and step for the learning check (about 1 s in the test profile).
const GAMES: u64 = 600;
const ALPHA: f32 = 0.03;

/// The weights (and TC accumulators) a fixed short training makes, pinned: any change to the
/// learning code that moves a bit shows here, so a refactor of the shared n-tuple code is
/// proven byte-identical.
#[test]
fn training_weights_are_pinned() {
    let rules = Rules::new(Mode::Hardcore);
    let shape = Shape::new([0, 1, 1, 2, 2, 3, 3], 1 << 16).unwrap();
    let mut td = NTuple::new(shape);
    for i in 0..30 {
        train_game(&mut td, &rules, sub_seed(21, i), 0.005);
    }
    let blocks = shape.with_blocks(true);
    let mut tc = NTuple::new(blocks);
    let mut acc = Coherence::new(&blocks);
    for i in 0..30 {
        train_game_tc(&mut tc, &mut acc, &rules, sub_seed(21, i), 0.02);
    }
    let got = [td.fingerprint(), tc.fingerprint(), acc.fingerprint()];
    assert_eq!(
        got,
        [0xfaa1_7cca_df22_971d, 0x24b1_6a21_d79c_a715, 0xa1a0_f44f_797a_3a16],
        "{got:#x?}"
    );
}

/// The shared crate's generic path (the shape's reads summed by `ntuple::Net`) gives the
/// network's own value, bit for bit, with and without blocks.
#[test]
fn the_shared_crates_reads_give_the_same_value() {
    let rules = Rules::new(Mode::Hardcore);
    for blocks in [false, true] {
        let shape = Shape::new([0, 1, 1, 2, 2, 3, 3], 1 << 16).unwrap().with_blocks(blocks);
        let net = odd_net(shape);
        let generic = ntuple::Net::with_weights(
            shape,
            ntuple::Weights::from_vec(&shape.table_sizes(), net.weights().to_vec()).unwrap(),
        )
        .unwrap();
        let mut seen = 0;
        for g in 0..6 {
            let mut draws = drop7::engine::RandomDraws::new(&rules, sub_seed(31, g));
            let mut pos = drop7::Position::new_game(&rules, &mut draws);
            while let Some((_, after, _)) = drop7::search::ntuple::greedy(&net, &rules, &pos) {
                let want = net.value(&after.board, after.drops_left);
                assert_eq!(generic.value_f64(&(after.board, after.drops_left)), want);
                seen += 1;
                if after.over {
                    break;
                }
                pos = after;
                pos.next = drop7::engine::Draws::next_disc(&mut draws);
            }
        }
        assert!(seen > 50, "{seen}");
    }
}

/// Random boards (any heights, any codes), some of them mirror images of themselves.
fn arbitrary_boards(seed: u64, n: usize) -> Vec<(Board, u32)> {
    let mut rng = bits::rng::Rng::new(seed);
    (0..n)
        .map(|i| {
            let mut cols = [0u32; 7];
            for col in &mut cols {
                let h = rng.below(8) as u32;
                for r in 0..h {
                    *col |= (1 + rng.below(9) as u32) << (4 * r);
                }
            }
            if i % 5 == 0 {
                for c in 0..3 {
                    cols[6 - c] = cols[c];
                }
            }
            (Board::from_cols(cols), 1 + rng.below(30) as u32)
        })
        .collect()
}

#[test]
fn anchor_slots_equal_their_reference_form_and_read_one_weight_a_table() {
    let shapes = [
        Shape::anchor(Shape::LINE_FULL).unwrap(),
        Shape::anchor(1_000_003).unwrap(),
        Shape::anchor(65_537).unwrap(),
    ];
    for shape in &shapes {
        assert_eq!(shape.slot_count(), 74);
        let sizes = shape.table_sizes();
        assert_eq!(sizes.len(), 74);
        let ends: Vec<usize> =
            sizes.iter().scan(0, |a, s| Some(std::mem::replace(a, *a + s))).collect();
        for (board, drops) in arbitrary_boards(0xA4C, 20_000) {
            let grid = board.to_cells();
            let fast = shape.anchor_slots(&board, drops);
            assert_eq!(
                fast.to_vec(),
                shape.slots_reference(&grid, drops),
                "{shape} drops {drops}\n{board}"
            );
            // slot t lies in table t, in the phase of the drops left
            let phase = (drops.clamp(1, 5) - 1) as usize;
            for (t, &s) in fast.iter().enumerate() {
                let per = sizes[t] / 5;
                assert!(
                    s >= ends[t] + phase * per && s < ends[t] + (phase + 1) * per,
                    "{shape} slot {t}"
                );
            }
            // the board and its mirror read the same weights
            let c = board.cols();
            let mirror = Board::from_cols([c[6], c[5], c[4], c[3], c[2], c[1], c[0]]);
            assert_eq!(fast, shape.anchor_slots(&mirror, drops));
        }
    }
    let exact = &shapes[0];
    assert_eq!(exact.weights(), 1_000_000_000);
    // Exact: different boards (up to the mirror) read different row weights somewhere.
    // (column words, not text: a row 1234567 on grays would pop)
    let on_grays = |discs: [u32; 7]| Board::from_cols(discs.map(|d| 8 | d << 4));
    let a = on_grays([1, 2, 3, 4, 5, 6, 7]);
    let b = on_grays([1, 2, 3, 4, 5, 7, 6]);
    assert_ne!(exact.anchor_slots(&a, 3), exact.anchor_slots(&b, 3));
    assert_ne!(exact.anchor_slots(&a, 3), exact.anchor_slots(&a, 4));
    assert_eq!(exact.anchor_slots(&a, 5), exact.anchor_slots(&a, 30), "5 or more drops: one phase");
}

#[test]
fn anchor_shape_text_round_trips_and_refuses_bad_sizes() {
    for text in ["anchor", "anchor size=65537"] {
        let s: Shape = text.parse().unwrap();
        assert!(s.is_anchor());
        assert_eq!(s.to_string().parse::<Shape>().unwrap(), s);
    }
    assert_eq!("anchor".parse::<Shape>().unwrap().to_string(), "anchor size=10000000");
    for bad in [
        "anchor size=0",
        "anchor size=10000001",
        "anchor blocks=2x3",
        "anchor rows=0112233",
        "anchor size=x",
    ] {
        assert!(bad.parse::<Shape>().is_err(), "{bad}");
    }
    // An anchor network is not extended by blocks.
    let net = NTuple::new(Shape::anchor(101).unwrap());
    assert!(net.extended(Shape::anchor(101).unwrap().with_blocks(true)).is_none());
}

#[test]
fn anchor_evaluator_identical_to_its_reference_form() {
    // (its TC step: `tc_step_identical_to_its_reference_form`)
    let rules = Rules::new(Mode::Hardcore);
    let shape = Shape::anchor(65_537).unwrap();
    let eval = NTupleEval(Arc::new(odd_net(shape)));
    let mut turns = 0u64;
    for i in 0..400 {
        turns +=
            u64::from(compare_random_game(&rules, sub_seed(0xA4C0, i), 10_000, &eval).unwrap());
    }
    assert!(turns > 4_000, "only {turns} turns");
}

#[test]
fn a_few_hundred_training_games_teach_the_anchor_shape() {
    let rules = Rules::new(Mode::Hardcore);
    let shape = Shape::anchor(1 << 16).unwrap();
    let untrained = NTuple::new(shape);
    // An optimistic start: every afterstate worth 20,000 points, each weight 20,000 / 74.
    let mut net = NTuple::optimistic(shape, 20_000.0);
    let b: Board = "......./......./......./......./......./..3..../#######".parse().unwrap();
    assert!((net.value(&b, 2) - 20_000.0).abs() < 0.5, "{}", net.value(&b, 2));
    for i in 0..GAMES {
        train_game(&mut net, &rules, sub_seed(11, i), ALPHA / 5.0);
    }
    let score = |n: &NTuple| -> u64 {
        (0..48).map(|i| greedy_game(n, &rules, sub_seed(12, i), 100_000).score).sum::<u64>() / 48
    };
    let (before, after) = (score(&untrained), score(&net));
    eprintln!("anchor: untrained {before}, trained {after}");
    assert!(after * 100 > before * 115, "untrained {before}, trained {after}");
}

/// One training game written plainly: the greedy column by the mean over `samples` reveal
/// samples (a column whose sample 0 reveals nothing valued once), values read through the
/// reference slots, the chosen column replayed on the real stream, and each TD error cut to
/// `clamp` before a TC step ([`NTuple::update_tc_reference`]) or a TD step. Returns how many
/// errors the clamp cut.
fn reference_training_game(
    net: &mut NTuple,
    acc: Option<&mut Coherence>,
    rules: &Rules,
    seed: u64,
    rate: f32,
    samples: u32,
    clamp: f32,
) -> u32 {
    use drop7::engine::{Draws, RandomDraws};
    use drop7::search::SearchDraws;
    let value = |n: &NTuple, p: &drop7::Position| {
        if p.over {
            0.0
        } else {
            n.value_reference(&p.board.to_cells(), p.drops_left)
        }
    };
    let mut acc = acc;
    let mut cut = 0;
    let mut draws = RandomDraws::new(rules, seed);
    let mut pos = drop7::Position::new_game(rules, &mut draws);
    let mut prev: Option<drop7::Position> = None;
    loop {
        let mut best: Option<(usize, f64)> = None;
        for c in (0..7).filter(|&c| pos.board.can_drop(c)) {
            let mut total = 0.0;
            let mut n = 0;
            for k in 0..samples {
                let mut child = pos;
                let mut d = SearchDraws::sample(&pos.board, c, pos.next, k);
                let points = child.drop_and_resolve(rules, c, &mut d).points as f64;
                total += points + value(net, &child);
                n += 1;
                if k == 0 && d.count == 0 {
                    break;
                }
            }
            let v = total / f64::from(n);
            if best.is_none_or(|b| v > b.1) {
                best = Some((c, v));
            }
        }
        let Some((col, _)) = best else { break };
        let mut after = pos;
        after.drop_and_resolve(rules, col, &mut draws);
        let target = (after.score - pos.score) as f64 + value(net, &after);
        if let Some(p) = prev {
            let err = (target - value(net, &p)) as f32;
            let e = err.clamp(-clamp, clamp);
            cut += u32::from(e != err);
            let grid = p.board.to_cells();
            match acc.as_deref_mut() {
                Some(acc) => net.update_tc_reference(acc, &grid, p.drops_left, e, rate),
                None => net.update_reference(&grid, p.drops_left, rate * e),
            }
        }
        if after.over {
            break;
        }
        prev = Some(after);
        pos = after;
        pos.next = draws.next_disc();
    }
    cut
}

/// Training with reveal samples and a clamp (drop7-bench's policy and step) gives the bits of
/// its plain twin, for TD and TC, on a classic and an anchor shape; and both settings change
/// the network (so neither can be silently ignored).
#[test]
fn sampled_and_clamped_training_identical_to_its_reference_form() {
    use drop7::search::ntuple::{train_game_tc_with, train_game_with, Play};
    let rules = Rules::new(Mode::Hardcore);
    for shape in [
        Shape::new([0, 1, 1, 2, 2, 3, 3], 65_537).unwrap(),
        Shape::new([0, 0, 1, 1, 1, 2, 2], 40_009).unwrap().with_blocks(true),
        Shape::anchor(40_009).unwrap(),
    ] {
        let play = Play { reveal_samples: 7, clamp: 3_000.0 };
        for tc in [false, true] {
            let (rate, start) = if tc { (0.02, 90_000.0) } else { (0.01, 0.0) };
            let mut fast = NTuple::optimistic(shape, start);
            let mut slow = fast.clone();
            let mut one = fast.clone();
            let mut unclamped = fast.clone();
            let (mut fa, mut sa) = (Coherence::new(&shape), Coherence::new(&shape));
            let (mut oa, mut ua) = (fa.clone(), fa.clone());
            let mut cut = 0;
            for i in 0..12 {
                let seed = sub_seed(0x5A_3D, i);
                let wide = Play { clamp: f32::INFINITY, ..play };
                let single = Play { reveal_samples: 1, ..play };
                if tc {
                    train_game_tc_with(&mut fast, &mut fa, &rules, seed, rate, play);
                    train_game_tc_with(&mut one, &mut oa, &rules, seed, rate, single);
                    train_game_tc_with(&mut unclamped, &mut ua, &rules, seed, rate, wide);
                } else {
                    train_game_with(&mut fast, &rules, seed, rate, play);
                    train_game_with(&mut one, &rules, seed, rate, single);
                    train_game_with(&mut unclamped, &rules, seed, rate, wide);
                }
                let acc = tc.then_some(&mut sa);
                cut += reference_training_game(&mut slow, acc, &rules, seed, rate, 7, 3_000.0);
            }
            assert_eq!(fast.fingerprint(), slow.fingerprint(), "{shape} tc {tc}");
            assert_eq!(fa.fingerprint(), sa.fingerprint(), "{shape} tc {tc}");
            assert!(cut > 10, "{shape} tc {tc}: the clamp cut only {cut} errors");
            assert_ne!(fast.fingerprint(), one.fingerprint(), "{shape} tc {tc}: samples ignored");
            assert_ne!(
                fast.fingerprint(),
                unclamped.fingerprint(),
                "{shape} tc {tc}: clamp ignored"
            );
        }
    }
}
