//! Gates: the packed engine against the reference engine on seeded random games, every turn
//! (board, waves, score, level, drops, next disc, game over), and the leaf evaluator against
//! its reference form on every state visited.

use bits::rng::sub_seed;
use bits::Rng;
use drop7::engine::{RandomDraws, Recording};
use drop7::reference::RefGame;
use drop7::search::{Crowding, Evaluator};
use drop7::{Mode, Position, Rules};

/// Plays one random-policy game on both engines; returns the number of turns.
fn gate_game(rules: &Rules, seed: u64, max_moves: u32) -> u32 {
    let eval = Crowding::default();
    let mut fast_draws = Recording::new(RandomDraws::new(rules, seed));
    let mut ref_draws = Recording::new(RandomDraws::new(rules, seed));
    let mut pos = Position::new_game(rules, &mut fast_draws.inner);
    let mut refg = RefGame::from_position(&Position::new_game(rules, &mut ref_draws.inner));
    assert_eq!(RefGame::from_position(&pos), refg, "seed {seed}: openings differ");
    let mut policy = Rng::new(sub_seed(seed, 1));
    let mut moves = 0;
    while !pos.over && moves < max_moves {
        let open: Vec<usize> = (0..7).filter(|&c| pos.board.can_drop(c)).collect();
        let col = open[policy.below(open.len() as u64) as usize];
        let before = pos;
        let turn = pos.play(rules, col, &mut fast_draws).expect("legal");
        let waves = refg.play(rules, col, &mut ref_draws).expect("legal in the reference");
        moves += 1;
        let want = RefGame::from_position(&pos);
        assert!(
            want == refg && turn.waves == waves && fast_draws.reveals == ref_draws.reveals,
            "seed {seed}, turn {moves}: from {before} column {}\n fast {pos} waves {}\n ref  {} next={} level={} drops={} score={} over={} waves {waves}",
            col + 1,
            turn.waves,
            refg.board(),
            refg.next,
            refg.level,
            refg.drops_left,
            refg.score,
            refg.over
        );
        fast_draws.reveals.clear();
        ref_draws.reveals.clear();
        let fe = eval.eval(&pos.board, pos.level, pos.drops_left);
        let re = eval.eval_reference(&refg.grid, refg.level, refg.drops_left);
        assert_eq!(fe.to_bits(), re.to_bits(), "seed {seed}, turn {moves}: leaf {pos}");
    }
    moves
}

#[test]
fn ten_thousand_hardcore_games_identical() {
    let rules = Rules::new(Mode::Hardcore);
    let mut turns = 0u64;
    for i in 0..10_000 {
        turns += u64::from(gate_game(&rules, sub_seed(0xD7, i), 10_000));
    }
    assert!(turns > 100_000, "only {turns} turns");
}

#[test]
fn normal_and_switched_rules_identical() {
    let mut total = 0;
    for i in 0..1_500u64 {
        let mut rules = Rules::new(if i % 3 == 0 { Mode::Sequence } else { Mode::Normal });
        rules.fatal_rise_bonus = i % 2 == 0;
        rules.rise_chain_continues = i % 5 != 0;
        rules.gray_share = [(1, 8), (5, 16), (1, 2)][(i % 3) as usize];
        total += gate_game(&rules, sub_seed(0x5EED, i), 400);
    }
    let mut rules = Rules::new(Mode::Hardcore);
    rules.fatal_rise_bonus = true;
    rules.rise_chain_continues = false;
    for i in 0..1_500u64 {
        total += gate_game(&rules, sub_seed(0xF00, i), 10_000);
    }
    assert!(total > 50_000);
}
