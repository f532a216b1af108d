//! The n-tuple network: the fast path (bit-trick symmetries, PEXT indexes) against the slow
//! reference (4x4 array, coordinate maps, arithmetic index); the weight file and its errors;
//! training determinism; and a learning check that can fail.

use bits::Rng;
use twenty48::game::{play_game, RandomPlayer};
use twenty48::ntuple::{
    decode, decode_coherence, encode, encode_coherence, expect_shape, train_game, train_game_tc,
    Coherence, FileError, GreedyPlayer, Meta, NTuple, NetEval, Shape,
};
use twenty48::search::{Depth, SearchConfig, Searcher};
use twenty48::Board;

/// A random board with every rank 0..=15 likely, high tiles included.
fn random_board(rng: &mut Rng) -> Board {
    let mut b = Board::EMPTY;
    for cell in 0..16 {
        let rank = match rng.below(4) {
            0 => 0,
            1 => rng.below(16) as u8,
            2 => 11 + rng.below(5) as u8,
            _ => 1 + rng.below(6) as u8,
        };
        b = b.with(cell, rank);
    }
    b
}

/// A network with pseudo-random weights, so every read matters.
fn noisy(shape: Shape, seed: u64) -> NTuple {
    let mut net = NTuple::new(shape);
    let mut rng = Rng::new(seed);
    for t in 0..net.shape().tuples().len() {
        for w in net.table_mut(t) {
            *w = (rng.below(2001) as f32 - 1000.0) / 64.0;
        }
    }
    net
}

#[test]
fn fast_value_and_touched_weights_equal_the_reference() {
    let shapes = [
        "0,1,2,3,4,5/4,5,6,7,8,9/0,1,2,4,5,6/4,5,6,8,9,10".parse::<Shape>().unwrap(),
        "0,1/5,6/3,15".parse().unwrap(),
        "0,5,10,15/3,6,9,12/1,2,3".parse().unwrap(),
        "7".parse().unwrap(),
    ];
    let mut rng = Rng::new(48);
    for (i, shape) in shapes.into_iter().enumerate() {
        let small = shape.weights() < 1 << 20;
        let net = if small { noisy(shape, i as u64) } else { NTuple::new(shape) };
        let boards = if small { 20_000 } else { 3_000 };
        for _ in 0..boards {
            let b = random_board(&mut rng);
            let touched = net.touched(b);
            assert_eq!(touched, net.touched_reference(b), "{b}");
            assert_eq!(touched.len(), 8 * net.shape().tuples().len());
            let fast = f64::from(net.value(b));
            let slow = net.value_reference(b);
            assert!((fast - slow).abs() <= 1e-3 * slow.abs().max(1.0), "{b}: {fast} vs {slow}");
        }
    }
}

#[test]
fn update_moves_exactly_the_touched_weights() {
    let shape: Shape = "0,1,2/4,5/10,11,14,15".parse().unwrap();
    let mut rng = Rng::new(7);
    for _ in 0..300 {
        let b = random_board(&mut rng);
        let mut net = noisy(shape.clone(), 3);
        let before = net.clone();
        net.update(b, 0.5);
        let mut expected = before.clone();
        for (t, i) in before.touched_reference(b) {
            expected.table_mut(t)[i] += 0.5;
        }
        for t in 0..shape.tuples().len() {
            assert_eq!(net.table(t), expected.table(t), "{b}, tuple {t}");
        }
        // A weight read m times moves by m * delta and counts m times: the value moves by
        // delta times the sum of the squared multiplicities (24 reads when all differ).
        let touched = before.touched_reference(b);
        let mut squares = 0usize;
        for (k, pair) in touched.iter().enumerate() {
            if k == 0 || touched[k - 1] != *pair {
                squares += touched.iter().filter(|&p| p == pair).count().pow(2);
            }
        }
        let moved = net.value(b) - before.value(b);
        assert!((moved - 0.5 * squares as f32).abs() < 1e-2, "{b}: {moved} vs {squares}");
    }
}

#[test]
fn weight_file_round_trips_and_every_defect_is_named() {
    let shape: Shape = "0,1,2/5,6".parse().unwrap();
    let net = noisy(shape.clone(), 11);
    let meta = Meta { games: 1234, seed: 99, alpha: 0.0025 };
    let bytes = encode(&net, &meta);
    let (back, m) = decode(&bytes).unwrap();
    assert_eq!(m, meta);
    assert_eq!(back.shape(), &shape);
    assert_eq!(back.fingerprint(), net.fingerprint());
    assert_eq!(encode(&back, &m), bytes);

    let mut bad = bytes.clone();
    bad[0] = b'X';
    assert_eq!(decode(&bad).unwrap_err(), FileError::Magic);
    assert_eq!(decode(b"B48").unwrap_err(), FileError::Magic);
    let mut bad = bytes.clone();
    bad[8] = 9;
    assert_eq!(decode(&bad).unwrap_err(), FileError::Version(9));
    // Cut in the header, in the weights, and one byte short.
    assert!(matches!(decode(&bytes[..14]).unwrap_err(), FileError::Truncated { .. }));
    for cut in [bytes.len() / 2, bytes.len() - 1] {
        let e = decode(&bytes[..cut]).unwrap_err();
        assert!(matches!(e, FileError::Length { found, .. } if found == cut), "{e}");
        assert!(e.to_string().starts_with("truncated"));
    }
    // One flipped bit in a weight.
    let mut bad = bytes.clone();
    bad[200] ^= 0x10;
    let e = decode(&bad).unwrap_err();
    assert!(matches!(e, FileError::Checksum { .. }), "{e}");
    // A header whose tuple names a cell twice.
    let mut bad = bytes.clone();
    bad[17 + 1] = 0;
    assert!(matches!(decode(&bad).unwrap_err(), FileError::Shape(_)));
    // A valid file of another shape than the one asked for.
    let e = expect_shape(&back, &"0,1/5,6".parse().unwrap()).unwrap_err();
    assert_eq!(e.to_string(), "shape mismatch: the file has tuples 0,1,2/5,6, expected 0,1/5,6");
    assert!(expect_shape(&back, &shape).is_ok());
}

fn train(shape: &Shape, first: u64, games: u64, seed: u64, net: Option<NTuple>) -> NTuple {
    let mut net = net.unwrap_or_else(|| NTuple::new(shape.clone()));
    for i in first..first + games {
        train_game(&mut net, bits::rng::sub_seed(seed, i), 0.01);
    }
    net
}

#[test]
fn training_is_deterministic_and_resumable() {
    let shape: Shape = "0,1,2,3/4,5,6,7".parse().unwrap();
    let a = train(&shape, 0, 60, 5, None);
    let b = train(&shape, 0, 60, 5, None);
    assert_eq!(a.fingerprint(), b.fingerprint());
    // 30 games, then 30 more from the saved file: the same weights as 60 in one go.
    let half = train(&shape, 0, 30, 5, None);
    let (half, _) = decode(&encode(&half, &Meta { games: 30, seed: 5, alpha: 0.01 })).unwrap();
    let resumed = train(&shape, 30, 30, 5, Some(half));
    assert_eq!(resumed.fingerprint(), a.fingerprint());
    // Another seed learns other weights.
    assert_ne!(train(&shape, 0, 60, 6, None).fingerprint(), a.fingerprint());
}

#[test]
fn a_trained_network_outplays_the_untrained_one() {
    // Rows and 2x2 squares (4-tuples, 64K weights each), 1,500 training games: greedy play on
    // the trained values against greedy play on the immediate reward alone (all weights 0),
    // and against random play, on the same 60 spawn seeds.
    let shape: Shape = "0,1,2,3/4,5,6,7/0,1,4,5/5,6,9,10".parse().unwrap();
    let trained = train(&shape, 0, 1_500, 2048, None);
    let untrained = NTuple::new(shape);
    let average = |f: &mut dyn FnMut(u64) -> u64| (0..60).map(|s| f(900 + s)).sum::<u64>() / 60;
    let t = average(&mut |s| play_game(s, &mut GreedyPlayer(&trained), u64::MAX).score());
    let u = average(&mut |s| play_game(s, &mut GreedyPlayer(&untrained), u64::MAX).score());
    let r = average(&mut |s| play_game(s, &mut RandomPlayer::new(s), u64::MAX).score());
    assert!(t > u + u / 2, "trained {t}, reward-greedy {u}");
    assert!(u > r, "reward-greedy {u}, random {r}");
}

#[test]
fn depth_one_search_on_the_network_plays_the_greedy_move() {
    // The search values a leaf by merged_value + V, which ranks the root's moves exactly as
    // reward + V does.
    let shape: Shape = "0,1,2,3/4,5,6,7/0,1,4,5".parse().unwrap();
    let net = train(&shape, 0, 200, 3, None);
    let eval = NetEval(&net);
    let cfg = SearchConfig { depth: Depth::Fixed(1), tt_bits: 8, ..Default::default() };
    let mut s = Searcher::with_evaluator(&eval, cfg);
    let mut game = twenty48::Game::new(77);
    let mut agree = 0;
    let mut total = 0;
    while game.status() == twenty48::Status::Playing && total < 300 {
        let g = twenty48::ntuple::greedy(&net, game.board()).unwrap();
        let c = s.best_move(game.board()).unwrap();
        total += 1;
        agree += u32::from(c.dir == g.0);
        game.play(g.0).unwrap();
    }
    // Rounding (the root sum is added in f32) may split a near tie, nothing more.
    assert!(agree + 2 >= total, "{agree} of {total}");
    // Depth 2 searches the spawns and finds legal moves; a dead end is its built score.
    let cfg2 = SearchConfig { depth: Depth::Fixed(2), tt_bits: 12, ..cfg };
    let g = play_game(
        5,
        &mut twenty48::search::SearchPlayer { searcher: Searcher::with_evaluator(&eval, cfg2) },
        200,
    );
    assert_eq!(g.moves(), 200);
    let dead: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2".parse().unwrap();
    use twenty48::search::Evaluator;
    assert_eq!(eval.dead_end(dead), 8.0 * 4.0);
}

/// A network trained by TC from `net` (or zero weights) and `acc` (or zero accumulators).
fn train_tc(
    shape: &Shape,
    first: u64,
    games: u64,
    seed: u64,
    beta: f32,
    from: Option<(NTuple, Coherence)>,
) -> (NTuple, Coherence) {
    let (mut net, mut acc) =
        from.unwrap_or_else(|| (NTuple::new(shape.clone()), Coherence::new(shape)));
    for i in first..first + games {
        train_game_tc(&mut net, &mut acc, bits::rng::sub_seed(seed, i), beta);
    }
    (net, acc)
}

/// Tables of two networks, bit for bit.
fn same_bits(a: &NTuple, b: &NTuple) -> bool {
    (0..a.shape().tuples().len())
        .all(|t| a.table(t).iter().zip(b.table(t)).all(|(x, y)| x.to_bits() == y.to_bits()))
}

#[test]
fn tc_update_equals_the_reference_bit_for_bit() {
    // Random weights and accumulators (some weights unseen, A = 0), random boards (symmetric
    // ones included, where a weight is read twice), errors of both signs.
    let shape: Shape = "0,1,2/4,5/10,11,14,15".parse().unwrap();
    let mut rng = Rng::new(31);
    let mut fast = noisy(shape.clone(), 5);
    let mut acc_fast = Coherence::new(&shape);
    // Warm the accumulators with reference steps on random boards.
    let mut slow = fast.clone();
    let mut acc_slow = Coherence::new(&shape);
    for k in 0..3_000 {
        let b = if k % 7 == 0 {
            // A board equal to its transpose: some weights are read twice.
            let g = random_board(&mut rng).to_ranks();
            let mut sym = Board::EMPTY;
            for r in 0..4 {
                for c in 0..4 {
                    sym = sym.with(4 * r + c, g[r.min(c)][r.max(c)]);
                }
            }
            assert_eq!(sym.transpose(), sym);
            sym
        } else {
            random_board(&mut rng)
        };
        let err = (rng.below(20_001) as f32 - 10_000.0) / 7.0;
        fast.update_tc(&mut acc_fast, b, err, 0.03);
        slow.update_tc_reference(&mut acc_slow, b, err, 0.03);
        assert!(same_bits(&fast, &slow), "weights differ after step {k} on {b}");
        assert_eq!(acc_fast.fingerprint(), acc_slow.fingerprint(), "accumulators, step {k}");
    }
}

#[test]
fn tc_rates_follow_the_sign_of_the_errors() {
    // One weight read once on this board: its step, E and A after each error.
    let shape: Shape = "0,1/2,3".parse().unwrap();
    let b: Board = "2 4 8 16/32 64 128 256/512 1024 2048 4096/8192 16384 32768 .".parse().unwrap();
    let mut net = NTuple::new(shape.clone());
    let mut acc = Coherence::new(&shape);
    let (t, i) = net.touched_reference(b)[0];
    assert_eq!(net.touched_reference(b).iter().filter(|&&p| p == (t, i)).count(), 1);
    // First error: rate 1, the full step.
    net.update_tc(&mut acc, b, 10.0, 0.5);
    assert_eq!((net.table(t)[i], acc.get(t, i)), (5.0, [10.0, 10.0]));
    // Same sign: |E| / A = 1 still.
    net.update_tc(&mut acc, b, 10.0, 0.5);
    assert_eq!((net.table(t)[i], acc.get(t, i)), (10.0, [20.0, 20.0]));
    // Opposite sign: rate 1 (|20| / 20), then the errors start to cancel.
    net.update_tc(&mut acc, b, -20.0, 0.5);
    assert_eq!((net.table(t)[i], acc.get(t, i)), (0.0, [0.0, 40.0]));
    // E = 0: rate 0, the weight no longer moves.
    net.update_tc(&mut acc, b, 40.0, 0.5);
    assert_eq!((net.table(t)[i], acc.get(t, i)), (0.0, [40.0, 80.0]));
    // |E| / A = 1/2.
    net.update_tc(&mut acc, b, 8.0, 0.5);
    assert_eq!((net.table(t)[i], acc.get(t, i)), (2.0, [48.0, 88.0]));
}

#[test]
fn an_optimistic_network_values_every_board_at_init() {
    let shape = Shape::default_6tuples();
    let net = NTuple::optimistic(shape, 320_000.0);
    assert_eq!(net.table(2)[12345], 10_000.0);
    let mut rng = Rng::new(8);
    for _ in 0..200 {
        assert_eq!(net.value(random_board(&mut rng)), 320_000.0);
    }
    let zero = NTuple::optimistic("0,1/2,3".parse().unwrap(), 0.0);
    assert_eq!(zero.fingerprint(), NTuple::new("0,1/2,3".parse().unwrap()).fingerprint());
}

#[test]
fn tc_training_is_deterministic_and_resumes_from_weights_and_accumulators() {
    let shape: Shape = "0,1,2,3/4,5,6,7".parse().unwrap();
    let (a, acc_a) = train_tc(&shape, 0, 60, 5, 0.0625, None);
    let (b, acc_b) = train_tc(&shape, 0, 60, 5, 0.0625, None);
    assert_eq!((a.fingerprint(), acc_a.fingerprint()), (b.fingerprint(), acc_b.fingerprint()));
    // TC is not TD: the same games learn other weights.
    assert_ne!(a.fingerprint(), train(&shape, 0, 60, 5, None).fingerprint());
    // 30 games, both files written and read back, 30 more: the 60-game weights.
    let (half, acc_half) = train_tc(&shape, 0, 30, 5, 0.0625, None);
    let meta = Meta { games: 30, seed: 5, alpha: 0.0625 };
    let (net, _) = decode(&encode(&half, &meta)).unwrap();
    let side = encode_coherence(&acc_half, 30, half.fingerprint());
    let acc = decode_coherence(&side, &net, 30).unwrap();
    let (resumed, acc_resumed) = train_tc(&shape, 30, 30, 5, 0.0625, Some((net, acc)));
    assert_eq!(resumed.fingerprint(), a.fingerprint());
    assert_eq!(acc_resumed.fingerprint(), acc_a.fingerprint());
    // Fresh accumulators with the same weights continue differently.
    let (net, _) = decode(&encode(&half, &meta)).unwrap();
    let (other, _) = train_tc(&shape, 30, 30, 5, 0.0625, Some((net, Coherence::new(&shape))));
    assert_ne!(other.fingerprint(), a.fingerprint());

    // The side file's defects, each named.
    assert_eq!(decode_coherence(&side, &a, 30).unwrap_err(), FileError::Unpaired("weights"));
    assert_eq!(
        decode_coherence(&side, &half, 31).unwrap_err(),
        FileError::Unpaired("games counts")
    );
    let mut bad = side.clone();
    bad[100] ^= 4;
    assert!(matches!(decode_coherence(&bad, &half, 30), Err(FileError::Checksum { .. })));
    assert!(matches!(
        decode_coherence(&side[..side.len() - 1], &half, 30),
        Err(FileError::Length { .. })
    ));
    assert_eq!(decode_coherence(&encode(&half, &meta), &half, 30).unwrap_err(), FileError::Magic);
    let other_shape = NTuple::new("0,1,2,3/4,5,6".parse().unwrap());
    assert!(matches!(decode_coherence(&side, &other_shape, 30), Err(FileError::Length { .. })));
    assert!(FileError::Unpaired("weights").to_string().contains("another weight file"));
}

/// Greedy 1-ply average over 60 fixed spawn seeds.
fn greedy_average(net: &NTuple) -> u64 {
    (0..60).map(|s| play_game(900 + s, &mut GreedyPlayer(net), u64::MAX).score()).sum::<u64>() / 60
}

#[test]
fn tc_and_optimistic_networks_outplay_the_untrained_one() {
    // As a_trained_network_outplays_the_untrained_one, 1,500 games each: TC at beta 1/32
    // (Jaskowski's beta = 1 per value for 4 tuples), and TD from an optimistic start.
    let shape: Shape = "0,1,2,3/4,5,6,7/0,1,4,5/5,6,9,10".parse().unwrap();
    let u = greedy_average(&NTuple::new(shape.clone()));
    let (tc, _) = train_tc(&shape, 0, 1_500, 2048, 1.0 / 32.0, None);
    let t = greedy_average(&tc);
    assert!(t > u + u / 2, "tc {t}, reward-greedy {u}");
    let opt = train(&shape, 0, 1_500, 2048, Some(NTuple::optimistic(shape.clone(), 20_000.0)));
    let o = greedy_average(&opt);
    assert!(o > u + u / 2, "optimistic td {o}, reward-greedy {u}");
    let (otc, _) = train_tc(
        &shape,
        0,
        1_500,
        2048,
        1.0 / 32.0,
        Some((NTuple::optimistic(shape.clone(), 20_000.0), Coherence::new(&shape))),
    );
    let ot = greedy_average(&otc);
    assert!(ot > u + u / 2, "optimistic tc {ot}, reward-greedy {u}");
    eprintln!("reward-greedy {u}, td-optimistic {o}, tc {t}, tc-optimistic {ot}");
}

/// The weights (and TC accumulators) a fixed short training makes, pinned: any change to the
/// learning code that moves a bit (storage, the order of the updates, rounding) shows here,
/// so a refactor of the shared n-tuple code is proven byte-identical.
#[test]
fn training_weights_are_pinned() {
    let shape: Shape = "0,1,2,3/4,5,6,7/0,1,4,5".parse().unwrap();
    let td = train(&shape, 0, 40, 9, None);
    let mut tc = NTuple::new(shape.clone());
    let mut acc = Coherence::new(&shape);
    for i in 0..40 {
        train_game_tc(&mut tc, &mut acc, bits::rng::sub_seed(9, i), 0.05);
    }
    let opt = train(&shape, 0, 20, 9, Some(NTuple::optimistic(shape.clone(), 5000.0)));
    let got = [td.fingerprint(), tc.fingerprint(), acc.fingerprint(), opt.fingerprint()];
    assert_eq!(
        got,
        [
            0xcc55_884e_9339_86ae,
            0x0afc_ccf3_62e4_15ca,
            0x6612_9f62_5c18_d796,
            0x17c8_4f2c_4f42_7789
        ],
        "{got:#x?}"
    );
}

/// The largest network a shape allows (64 tuples) lists all its 512 reads through the shared
/// crate, and they sum to its value.
#[test]
fn the_largest_shape_lists_its_reads() {
    let shape: Shape = vec!["0,1"; 64].join("/").parse().unwrap();
    let net = noisy(shape, 5);
    let mut rng = Rng::new(8);
    let b = random_board(&mut rng);
    let reads = net.net().reads(&b);
    assert_eq!(reads.as_slice().len(), 512);
    assert_eq!(net.net().weights().sum_f32(reads.as_slice()), net.value(b));
}
