//! Where a player spends its moves: `profile PLAYER SIZE GAMES` prints, per tenth of the board
//! filled, the mean moves per fruit and the mean shortest route at each fruit's spawn.
use snake::{play_game, Config, PlayerKind, Searcher, Size};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind: PlayerKind = args.get(1).map_or("repair", String::as_str).parse().unwrap();
    let size: Size = args.get(2).map_or("30x30", String::as_str).parse().unwrap();
    let games: u64 = args.get(3).map_or(1, |s| s.parse().unwrap());
    let n = size.cells();
    let mut moves = [0u64; 10];
    let mut ideal = [0u64; 10];
    let mut fruits = [0u64; 10];
    let mut search: Searcher = Searcher::new(size);
    let mut total = 0;
    for g in 0..games {
        let mut p = kind.build(size);
        let mut last_len = 0;
        let (s, _) = play_game(Config::new(size), bits::rng::sub_seed(1, g), p.as_mut(), |game| {
            let b = game.board();
            let bucket = (b.len() * 10 / n).min(9);
            moves[bucket] += 1;
            if b.len() != last_len {
                last_len = b.len();
                fruits[bucket] += 1;
                if let Some(f) = b.fruit() {
                    if let Some(r) = search.bfs(b.occupied(), b.head(), f) {
                        ideal[bucket] += r.len as u64;
                    }
                }
            }
        });
        total += s.moves;
    }
    println!("mean moves {:.1}", total as f64 / games as f64);
    for i in 0..10 {
        println!(
            "{:>3}%-{:>3}%: moves/game {:>8.1}  per fruit {:>6.1}  shortest {:>6.1}",
            i * 10,
            i * 10 + 10,
            moves[i] as f64 / games as f64,
            moves[i] as f64 / fruits[i].max(1) as f64,
            ideal[i] as f64 / fruits[i].max(1) as f64
        );
    }
}
