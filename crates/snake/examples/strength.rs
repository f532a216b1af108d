//! Quick strength check: `cargo run --release -p snake --example strength -- cycle 10x10 100`
//! (games 0..100; a fourth argument starts at another game index).
use snake::{play_game, Config, PlayerKind, Size, Status};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind: PlayerKind = args.get(1).map_or("cycle", String::as_str).parse().unwrap();
    let size: Size = args.get(2).map_or("10x10", String::as_str).parse().unwrap();
    let games: u64 = args.get(3).map_or(100, |s| s.parse().unwrap());
    let first: u64 = args.get(4).map_or(0, |s| s.parse().unwrap());
    let start = std::time::Instant::now();
    let (mut wins, mut score, mut moves) = (0, 0, 0);
    for g in first..first + games {
        let mut p = kind.build(size);
        let (s, _) = play_game(Config::new(size), bits::rng::sub_seed(1, g), p.as_mut(), |_| {});
        wins += u64::from(s.status == Status::Won);
        score += s.score as u64;
        moves += s.moves;
    }
    let n = games as f64;
    println!(
        "{} {size}: games {games} wins {wins} avg score {:.2} avg moves {:.1} ms/game {:.2}",
        kind.name(),
        score as f64 / n,
        moves as f64 / n,
        start.elapsed().as_secs_f64() * 1e3 / n
    );
}
