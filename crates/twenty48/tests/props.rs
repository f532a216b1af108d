//! Property tests, one invariant each, over arbitrary packed boards.

use proptest::prelude::*;
use twenty48::{Board, Dir, MoveError};

fn dir() -> impl Strategy<Value = Dir> {
    prop_oneof![Just(Dir::Up), Just(Dir::Down), Just(Dir::Left), Just(Dir::Right)]
}

proptest! {
    #[test]
    fn text_form_round_trips(x in any::<u64>()) {
        let b = Board(x);
        prop_assert_eq!(b.to_string().parse::<Board>().unwrap(), b);
        prop_assert_eq!(format!("{b:#}").parse::<Board>().unwrap(), b);
    }

    #[test]
    fn transpose_is_an_involution(x in any::<u64>()) {
        prop_assert_eq!(Board(x).transpose().transpose(), Board(x));
    }

    #[test]
    fn moves_conserve_tile_value(x in any::<u64>(), d in dir()) {
        let b = Board(x);
        if let Ok(m) = b.play(d) {
            prop_assert_eq!(m.board.tile_sum(), b.tile_sum());
            prop_assert!(m.board.empty_count() >= b.empty_count());
        }
    }

    #[test]
    fn search_path_agrees_with_play_path(x in any::<u64>(), d in dir()) {
        let b = Board(x);
        let (s, overflow) = b.shift(d);
        match b.play(d) {
            Ok(m) => prop_assert_eq!(s, m.board),
            Err(MoveError::Overflow) => prop_assert!(overflow),
            Err(MoveError::Illegal) => prop_assert_eq!(s, b),
        }
    }

    #[test]
    fn mirror_symmetry_left_right(x in any::<u64>()) {
        // Left on a board equals right on its mirror image, mirrored back.
        let b = Board(x);
        let mirror = |b: Board| {
            let mut m = Board::EMPTY;
            for r in 0..4 {
                for c in 0..4 {
                    m = m.with(4 * r + 3 - c, b.rank(4 * r + c));
                }
            }
            m
        };
        let l = b.play(Dir::Left).map(|m| (mirror(m.board), m.score));
        let r = mirror(b).play(Dir::Right).map(|m| (m.board, m.score));
        prop_assert_eq!(l, r);
    }
}
