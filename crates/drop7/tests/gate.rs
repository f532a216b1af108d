//! Gates: the packed engine against the reference engine on seeded random games, every turn
//! (board, waves, score, level, drops, next disc, game over, reveals), and the leaf evaluator
//! against its reference form on every state visited. `bitarcade drop7 sweep` runs more.

use bits::rng::sub_seed;
use drop7::reference::compare_random_game;
use drop7::search::eval::{features, features_reference, FEATURES};
use drop7::search::{Crowding, Evaluator, Fitted, Pressure, Ready, Shape};
use drop7::{Mode, Rules};

#[test]
fn ten_thousand_hardcore_games_identical() {
    let rules = Rules::new(Mode::Hardcore);
    // Shape contains Crowding: both leaf evaluators are checked on every state.
    let eval = Shape::default();
    let mut turns = 0u64;
    for i in 0..10_000 {
        turns += u64::from(compare_random_game(&rules, sub_seed(0xD7, i), 10_000, &eval).unwrap());
    }
    assert!(turns > 100_000, "only {turns} turns");
}

#[test]
fn normal_sequence_and_switched_rules_identical() {
    let eval = Crowding::default();
    let mut total = 0;
    for i in 0..1_500u64 {
        let mut rules = Rules::new(if i % 3 == 0 { Mode::Sequence } else { Mode::Normal });
        rules.fatal_rise_bonus = i % 2 == 0;
        rules.rise_chain_continues = i % 5 != 0;
        rules.gray_share = [(1, 8), (5, 16), (1, 2)][(i % 3) as usize];
        total += compare_random_game(&rules, sub_seed(0x5EED, i), 400, &eval).unwrap();
    }
    let mut rules = Rules::new(Mode::Hardcore);
    rules.fatal_rise_bonus = true;
    rules.rise_chain_continues = false;
    for i in 0..1_500u64 {
        total += compare_random_game(&rules, sub_seed(0xF00, i), 10_000, &eval).unwrap();
    }
    assert!(total > 50_000);
}

#[test]
fn ready_evaluator_identical_to_its_reference_form() {
    let rules = Rules::new(Mode::Hardcore);
    // Odd weights so that every term shows in the bits.
    let eval = Ready {
        crowding: Crowding { disc: 601.0, solid: 499.0, cracked: 251.0, tall: 799.0, full: 3001.0 },
        ready: 1201.0,
        latent: 333.0,
    };
    let mut turns = 0u64;
    for i in 0..2_000 {
        turns += u64::from(compare_random_game(&rules, sub_seed(0xEAD, i), 10_000, &eval).unwrap());
    }
    assert!(turns > 20_000, "only {turns} turns");
}

#[test]
fn pressure_evaluator_identical_to_its_reference_form() {
    let rules = Rules::new(Mode::Hardcore);
    let eval = Pressure {
        crowding: Crowding { disc: 601.0, solid: 499.0, cracked: 251.0, tall: 799.0, full: 3001.0 },
        near: 1009.0,
        exposed: 211.0,
    };
    let mut turns = 0u64;
    for i in 0..2_000 {
        turns +=
            u64::from(compare_random_game(&rules, sub_seed(0x9E55, i), 10_000, &eval).unwrap());
    }
    assert!(turns > 20_000, "only {turns} turns");
}

/// Odd weights, different for every feature, so that every feature shows in the bits.
fn odd_fitted() -> Fitted {
    let mut weights = [0.0; FEATURES];
    for (j, w) in weights.iter_mut().enumerate() {
        *w = 1009.0 - 97.0 * j as f64 + 0.125 * (j % 3) as f64;
    }
    Fitted { weights }
}

#[test]
fn fitted_evaluator_identical_to_its_reference_form() {
    let rules = Rules::new(Mode::Hardcore);
    let eval = odd_fitted();
    let mut turns = 0u64;
    for i in 0..2_000 {
        turns += u64::from(compare_random_game(&rules, sub_seed(0xF17, i), 10_000, &eval).unwrap());
    }
    assert!(turns > 20_000, "only {turns} turns");
}

#[test]
fn fitted_features_equal_their_reference_form_on_arbitrary_boards() {
    // Bottom-packed boards of every shape, with every count of drops left (the Normal
    // mode's up to 30 included).
    let mut rng = bits::rng::Rng::new(0xF1_77ED);
    let eval = odd_fitted();
    for _ in 0..20_000 {
        let mut cols = [0u32; 7];
        for col in &mut cols {
            let h = rng.below(8) as u32;
            for r in 0..h {
                let code = 1 + rng.below(9) as u32;
                *col |= code << (4 * r);
            }
        }
        let board = drop7::Board::from_cols(cols);
        let grid = board.to_cells();
        let drops = 1 + rng.below(30) as u32;
        let fast = features(&board, drops);
        let slow = features_reference(&grid, drops);
        for j in 0..FEATURES {
            assert_eq!(fast[j].to_bits(), slow[j].to_bits(), "feature {j} drops {drops}\n{board}");
        }
        let v = eval.eval(&board, 1, drops);
        assert_eq!(v.to_bits(), eval.eval_reference(&grid, 1, drops).to_bits(), "{board}");
    }
}

#[test]
fn run_length_table_poppers_equal_the_swar_scan() {
    use drop7::engine::{poppers, poppers_table};
    // Every board of 300 random-policy games, before and after each drop (boards that pop).
    let rules = Rules::new(Mode::Hardcore);
    let mut rng = bits::rng::Rng::new(0x7AB);
    let mut checked = 0;
    for i in 0..300 {
        let mut draws = drop7::engine::RandomDraws::new(&rules, sub_seed(0x7AB, i));
        let mut pos = drop7::Position::new_game(&rules, &mut draws);
        while !pos.over {
            let open: Vec<usize> = (0..7).filter(|&c| pos.board.can_drop(c)).collect();
            let col = open[(rng.next_u64() % open.len() as u64) as usize];
            let mut dropped = pos.board;
            dropped.drop_code(col, pos.next.code());
            for b in [pos.board, dropped] {
                assert_eq!(poppers_table(b.cols()), poppers(b.cols()), "{b}");
                checked += 1;
            }
            pos.play(&rules, col, &mut draws).unwrap();
        }
    }
    // And 20,000 arbitrary bottom-packed boards (any heights, any cells).
    for _ in 0..20_000 {
        let mut cells = [[0u8; 7]; 7];
        for c in 0..7 {
            let h = (rng.next_u64() % 8) as usize;
            for row in cells.iter_mut().take(h) {
                row[c] = 1 + (rng.next_u64() % 9) as u8;
            }
        }
        let b = drop7::Board::from_cells(&cells).unwrap();
        assert_eq!(poppers_table(b.cols()), poppers(b.cols()), "{b}");
        checked += 1;
    }
    assert!(checked > 30_000, "{checked}");
}

#[test]
fn ready_table_form_equals_the_scan_and_the_reference_on_arbitrary_boards() {
    // Bottom-packed boards of every shape (not only the ones games reach): random heights,
    // random codes 1-7, solid and cracked grays; the default weights (no release term,
    // which the table form skips) and odd weights with one.
    let mut rng = bits::rng::Rng::new(0x7EAD);
    let weights = [
        Ready::default(),
        Ready {
            crowding: Crowding {
                disc: 601.0,
                solid: 499.0,
                cracked: 251.0,
                tall: 799.0,
                full: 3001.0,
            },
            ready: 1201.0,
            latent: 333.0,
        },
    ];
    for _ in 0..20_000 {
        let mut cols = [0u32; 7];
        for col in &mut cols {
            let h = rng.below(8) as u32;
            for r in 0..h {
                let code = 1 + rng.below(9) as u32;
                *col |= code << (4 * r);
            }
        }
        let board = drop7::Board::from_cols(cols);
        let grid = board.to_cells();
        let drops = 1 + rng.below(5) as u32;
        for eval in &weights {
            let fast = eval.eval(&board, 3, drops);
            assert_eq!(fast.to_bits(), eval.eval_scan(&board, 3, drops).to_bits(), "{board}");
            assert_eq!(fast.to_bits(), eval.eval_reference(&grid, 3, drops).to_bits(), "{board}");
        }
    }
}
