//! The multistage network: the stage rule against its slow twin, the value against the right
//! stage's single network, the version-2 weight file and its errors, old files as one-stage
//! networks that play identically, training determinism, and a learning check that can fail.

use bits::Rng;
use twenty48::game::play_game;
use twenty48::multistage::{
    first_reaching, play_from, stage_of, stage_of_reference, train_stage_game, MultiEval,
    MultiStage, StageError,
};
use twenty48::ntuple::{
    decode, decode_stages, encode, encode_stages, train_game, FileError, Meta, NTuple, NetEval,
    Shape,
};
use twenty48::search::{Depth, Evaluator, SearchConfig, Searcher};
use twenty48::Board;

/// A random board, high tiles likely (16384, 8192 and beyond in about half of them).
fn random_board(rng: &mut Rng) -> Board {
    let mut b = Board::EMPTY;
    for cell in 0..16 {
        let rank = match rng.below(6) {
            0 | 1 => 0,
            2 => rng.below(16) as u8,
            3 if rng.below(4) == 0 => 13 + rng.below(3) as u8,
            _ => 1 + rng.below(8) as u8,
        };
        b = b.with(cell, rank);
    }
    b
}

fn noisy(shape: &Shape, seed: u64) -> NTuple {
    let mut net = NTuple::new(shape.clone());
    let mut rng = Rng::new(seed);
    for t in 0..shape.tuples().len() {
        for w in net.table_mut(t) {
            *w = (rng.below(2001) as f32 - 1000.0) / 64.0;
        }
    }
    net
}

#[test]
fn stage_rule_equals_the_reference_and_value_is_the_stage_network() {
    let shape: Shape = "0,1,2/4,5,6,7/3,9".parse().unwrap();
    let nets: Vec<NTuple> = (0..3).map(|s| noisy(&shape, 100 + s)).collect();
    let two = MultiStage::new(nets[..2].to_vec()).unwrap();
    let three = MultiStage::new(nets.clone()).unwrap();
    let mut rng = Rng::new(9);
    let mut seen = [[0usize; 3]; 2];
    for _ in 0..40_000 {
        let b = random_board(&mut rng);
        for k in 1..=3 {
            assert_eq!(stage_of(b, k), stage_of_reference(b, k), "{b}, {k} stages");
        }
        let (s2, s3) = (stage_of(b, 2), stage_of(b, 3));
        seen[0][s2] += 1;
        seen[1][s3] += 1;
        assert_eq!(two.value(b), nets[s2].value(b), "{b}");
        assert_eq!(three.value(b), nets[s3].value(b), "{b}");
        assert_eq!(MultiEval(&two).eval(b), NetEval(&nets[s2]).eval(b), "{b}");
        assert_eq!(MultiEval(&two).dead_end(b), NetEval(&nets[s2]).dead_end(b));
    }
    // Both stages (and all three) were met often.
    assert!(seen[0][0] > 5_000 && seen[0][1] > 5_000, "{seen:?}");
    assert!(seen[1].iter().all(|&n| n > 2_000), "{seen:?}");
    // Construction errors.
    assert_eq!(MultiStage::new(vec![]).unwrap_err(), StageError::Count(0));
    assert_eq!(MultiStage::new(vec![nets[0].clone(); 4]).unwrap_err(), StageError::Count(4));
    let other = NTuple::new("0,1".parse().unwrap());
    assert_eq!(
        MultiStage::new(vec![nets[0].clone(), other]).unwrap_err(),
        StageError::Shape { stage: 1 }
    );
    let mut grow = MultiStage::single(nets[0].clone());
    assert!(grow.push_copy() && grow.push_copy() && !grow.push_copy());
    assert_eq!(grow.count(), 3);
    assert_eq!(grow.stage(2).fingerprint(), nets[0].fingerprint());
}

#[test]
fn stage_file_round_trips_and_every_defect_is_named() {
    let shape: Shape = "0,1,2/5,6".parse().unwrap();
    let net = MultiStage::new(vec![noisy(&shape, 1), noisy(&shape, 2)]).unwrap();
    let metas = [
        Meta { games: 1_000_000, seed: 7, alpha: 0.001 },
        Meta { games: 5_000, seed: 9, alpha: 0.0025 },
    ];
    let bytes = encode_stages(&net, &metas);
    let (back, m) = decode_stages(&bytes).unwrap();
    assert_eq!(m, metas);
    assert_eq!(back.count(), 2);
    assert_eq!(back.fingerprint(), net.fingerprint());
    assert_eq!(encode_stages(&back, &m), bytes);
    // One network asked for, two stages found.
    assert_eq!(decode(&bytes).unwrap_err(), FileError::NotSingle(2));
    // Stage count 0 and 4 (bytes 12..16).
    for n in [0u32, 4] {
        let mut bad = bytes.clone();
        bad[12..16].copy_from_slice(&n.to_le_bytes());
        let e = decode_stages(&bad).unwrap_err();
        assert_eq!(e, FileError::Stages(n));
        assert!(e.to_string().starts_with(&format!("stage count {n}")), "{e}");
    }
    // A count of 1 where the file holds 2: the length no longer matches.
    let mut bad = bytes.clone();
    bad[12..16].copy_from_slice(&1u32.to_le_bytes());
    assert!(matches!(decode_stages(&bad).unwrap_err(), FileError::Length { .. }));
    // A flipped bit in stage 2's weights, a cut inside them, an unknown version.
    let mut bad = bytes.clone();
    let at = bytes.len() - 100;
    bad[at] ^= 4;
    assert!(matches!(decode_stages(&bad).unwrap_err(), FileError::Checksum { .. }));
    let e = decode_stages(&bytes[..bytes.len() - 3]).unwrap_err();
    assert!(e.to_string().starts_with("truncated"), "{e}");
    let mut bad = bytes.clone();
    bad[8] = 3;
    assert_eq!(decode_stages(&bad).unwrap_err(), FileError::Version(3));
    // A version-1 file reads as a one-stage network with its meta.
    let meta = Meta { games: 12, seed: 3, alpha: 0.01 };
    let (one, m1) = decode_stages(&encode(net.stage(0), &meta)).unwrap();
    assert_eq!((one.count(), m1), (1, vec![meta]));
    assert_eq!(one.stage(0).fingerprint(), net.stage(0).fingerprint());
    // A one-stage version-2 file reads as a single network too.
    let single = MultiStage::single(net.stage(1).clone());
    let (n, m) = decode(&encode_stages(&single, &metas[1..])).unwrap();
    assert_eq!((n.fingerprint(), m), (net.stage(1).fingerprint(), metas[1]));
}

#[test]
fn an_old_single_network_plays_identically_as_one_stage() {
    let shape: Shape = "0,1,2,3/4,5,6,7/0,1,4,5".parse().unwrap();
    let mut net = NTuple::new(shape);
    for i in 0..150 {
        train_game(&mut net, bits::rng::sub_seed(4, i), 0.01);
    }
    let meta = Meta { games: 150, seed: 4, alpha: 0.01 };
    let (one, _) = decode_stages(&encode(&net, &meta)).unwrap();
    let cfg = SearchConfig { depth: Depth::Fixed(2), tt_bits: 14, ..Default::default() };
    let (ea, eb) = (NetEval(&net), MultiEval(&one));
    for seed in [1u64, 2] {
        let mut a = twenty48::search::SearchPlayer { searcher: Searcher::with_evaluator(&ea, cfg) };
        let mut b = twenty48::search::SearchPlayer { searcher: Searcher::with_evaluator(&eb, cfg) };
        let ga = play_game(seed, &mut a, 400);
        let gb = play_game(seed, &mut b, 400);
        assert_eq!(ga.record(), gb.record(), "seed {seed}");
        assert!(ga.moves() > 50);
    }
}

/// Boards holding a 16384 in a corner and a few small tiles: synthetic stage-1 starts.
fn starts(seed: u64, n: usize) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let mut b = Board::EMPTY.with(0, 14);
            for _ in 0..6 {
                let cell = 1 + rng.below(15) as usize;
                b = b.with(cell, 1 + rng.below(5) as u8);
            }
            b
        })
        .collect()
}

fn stage_one_net() -> MultiStage {
    let shape: Shape = "0,1,2,3/4,5,6,7/0,1,4,5".parse().unwrap();
    let mut net = NTuple::new(shape);
    for i in 0..200 {
        train_game(&mut net, bits::rng::sub_seed(11, i), 0.01);
    }
    let mut ms = MultiStage::single(net);
    assert!(ms.push_copy());
    ms
}

#[test]
fn stage_training_is_deterministic_and_touches_only_its_stage() {
    let train = stage_one_net();
    let pool = starts(1, 50);
    let run = |seed: u64| {
        let mut ms = train.clone();
        let mut scores = Vec::new();
        for i in 0..40 {
            scores.push(train_stage_game(&mut ms, 1, &pool, bits::rng::sub_seed(seed, i), 0.01));
        }
        (ms, scores)
    };
    let (a, sa) = run(5);
    let (b, sb) = run(5);
    assert_eq!(sa, sb);
    assert_eq!(a.fingerprint(), b.fingerprint());
    assert_ne!(a.stage(1).fingerprint(), train.stage(1).fingerprint());
    assert_eq!(a.stage(0).fingerprint(), train.stage(0).fingerprint());
    let (c, _) = run(6);
    assert_ne!(c.fingerprint(), a.fingerprint());
    // The greedy player from a start of the first stage's own player: none in 40 games here
    // (the tiny network never builds a 16384), and the search never panics on the result.
    assert!((0..40).all(|i| first_reaching(&a, bits::rng::sub_seed(3, i), 2, 1).is_none()));
    assert!(first_reaching(&a, 1, 2, 0).is_some());
}

#[test]
fn stage_training_improves_the_greedy_player_on_held_out_starts() {
    let untrained = stage_one_net();
    let train_pool = starts(21, 200);
    let held_out = starts(22, 60);
    let mean = |ms: &MultiStage| {
        let total: u64 = held_out
            .iter()
            .enumerate()
            .map(|(i, &b)| play_from(ms, b, bits::rng::sub_seed(77, i as u64)).score)
            .sum();
        total as f64 / held_out.len() as f64
    };
    let mut trained = untrained.clone();
    for i in 0..300 {
        train_stage_game(&mut trained, 1, &train_pool, bits::rng::sub_seed(8, i), 0.01);
    }
    let (before, after) = (mean(&untrained), mean(&trained));
    eprintln!("held-out mean score: untrained {before:.0}, trained {after:.0}");
    assert!(after > 1.2 * before, "held-out mean score {before:.0} untrained, {after:.0} trained");
}
