//! Boards for benchmarks and bench signatures, built by documented rules (not picked by hand).

use crate::board::Board;
use crate::board::Size;
use crate::game::{Config, Status};
use crate::players::PlayerKind;
use crate::search::Searcher;

/// A sealed-off board: the head is walled into a 4-cell pocket in the top-left corner by its
/// own body, the fruit in the opposite corner.
pub const SEALED: &str = ".H<.......\n..^.......\n>>^.......\n^.........\n^.........\n\
^.........\n..........\n..........\n..........\n.........*";

/// Mid-game boards with a reachable fruit: game `i` of the `shortest` player on `size` with
/// seed `bits::rng::sub_seed(seed, i)` contributes the first board (right after a fruit is
/// placed) where the snake is at least `min_len` long and the fruit is reachable. Games that
/// end before that contribute nothing.
pub fn midgame_boards(size: Size, min_len: usize, count: usize, seed: u64) -> Vec<Board> {
    let mut out = Vec::with_capacity(count);
    let mut search: Searcher = Searcher::new(size);
    let mut i = 0u64;
    while out.len() < count && i < 100 * count as u64 + 100 {
        let mut player = PlayerKind::Shortest.build(size);
        let mut game = crate::Game::new(Config::new(size), bits::rng::sub_seed(seed, i));
        i += 1;
        while game.status() == Status::Running {
            let b = game.board();
            if b.len() >= min_len {
                if let Some(f) = b.fruit() {
                    if search.bfs(b.occupied(), b.head(), f).is_some() {
                        out.push(b.clone());
                        break;
                    }
                }
            }
            let d = player.choose(&game);
            let _ = game.play(d);
        }
    }
    out
}
