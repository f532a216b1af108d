//! Tiles past 32768: the wide board against the reference engine and the packed engine, the
//! view's promises, and games that go on through a 65536.

use proptest::prelude::*;
use twenty48::reference::RefBoard;
use twenty48::{Board, Dir, Game, GameRecord, MoveError, Status, Wide};

fn dir() -> impl Strategy<Value = Dir> {
    prop_oneof![Just(Dir::Up), Just(Dir::Down), Just(Dir::Left), Just(Dir::Right)]
}

/// Boards with every rank a game can hold, big ones common: each cell empty, small, or big.
fn wide() -> impl Strategy<Value = Wide> {
    let cell = prop_oneof![3 => Just(0u8), 3 => 1u8..=4, 2 => 5u8..=12, 3 => 13u8..=17];
    proptest::array::uniform16(cell).prop_map(|r| Wide::from_ranks(r).unwrap())
}

fn to_ref(w: &Wide) -> RefBoard {
    let mut grid = [[0u32; 4]; 4];
    for (c, t) in (0..16).map(|c| (c, w.tile(c))) {
        grid[c / 4][c % 4] = t;
    }
    RefBoard { grid }
}

/// Which cells are empty, and which pairs of cells hold equal tiles.
fn shape(b: [u8; 16]) -> (Vec<bool>, Vec<bool>) {
    let empty = b.iter().map(|&r| r == 0).collect();
    let equal = (0..16).flat_map(|i| (0..16).map(move |j| (i, j))).map(|(i, j)| b[i] == b[j]);
    (empty, equal.collect())
}

fn ranks(b: Board) -> [u8; 16] {
    std::array::from_fn(|c| b.rank(c))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// The wide move is the reference engine's move, tile for tile and point for point.
    #[test]
    fn wide_moves_are_the_reference_moves(w in wide(), d in dir()) {
        let r = to_ref(&w).play(d);
        match w.play(d) {
            Some(m) => {
                prop_assert!(r.changed);
                prop_assert_eq!(to_ref(&m.board), r.board);
                prop_assert_eq!(m.score, u64::from(r.score));
            }
            None => prop_assert!(!r.changed),
        }
    }

    /// Where every tile fits a nibble, the wide move is the packed engine's, and the packed
    /// engine's overflow is exactly a wide move that makes a 65536.
    #[test]
    fn wide_moves_are_the_packed_moves_where_both_hold(x in any::<u64>(), d in dir()) {
        let b = Board(x);
        let w = Wide::from_board(b);
        prop_assert_eq!(w.exact(), Some(b));
        match b.play(d) {
            Ok(m) => {
                let wm = w.play(d).unwrap();
                prop_assert_eq!(wm.board, Wide::from_board(m.board));
                prop_assert_eq!(wm.score, u64::from(m.score));
            }
            Err(MoveError::Overflow) => prop_assert_eq!(w.play(d).unwrap().board.max_rank(), 16),
            Err(MoveError::Illegal) => prop_assert_eq!(w.play(d), None),
        }
    }

    /// The view keeps empty cells and equal tiles, so every move is legal on the view exactly
    /// when it is on the board and fills the same cells; and it fits: no move on the view
    /// overflows, unless no gap is left to squeeze (a full board of sixteen different tiles).
    #[test]
    fn the_view_moves_as_the_board_does(w in wide()) {
        let v = w.view();
        // The two full boards with no gap (see the module docs) are checked by unit tests.
        let full = w.ranks().iter().all(|&r| r > 0);
        let no_gap = (1..w.max_rank()).all(|k| w.ranks().contains(&k));
        if full && no_gap && w.max_rank() >= 15 {
            return Ok(());
        }
        prop_assert_eq!(shape(ranks(v)), shape(w.ranks()));
        for d in Dir::ALL {
            match (w.play(d), v.play(d)) {
                (Some(wm), Ok(vm)) => {
                    // The same cells fill, and tiles equal on the board are equal in the
                    // view; the view may also see a new tile equal to one a rank above it
                    // (the squeeze's documented estimate), so not the converse.
                    let (we, wq) = shape(wm.board.ranks());
                    let (ve, vq) = shape(ranks(vm.board));
                    prop_assert_eq!(we, ve);
                    prop_assert!(wq.iter().zip(&vq).all(|(&w, &v)| !w || v));
                }
                (None, Err(MoveError::Illegal)) => {}
                (a, b) => prop_assert!(false, "{d}: board {w} gives {a:?}, view {v} gives {b:?}"),
            }
        }
        if let Some(e) = w.exact() {
            if v == e {
                prop_assert!(w.max_rank() < 15 || ranks(v).iter().filter(|&&r| r == 15).count() < 2);
            }
        }
    }

    #[test]
    fn wide_text_round_trips(w in wide()) {
        prop_assert_eq!(w.to_string().parse::<Wide>().unwrap(), w);
        prop_assert_eq!(format!("{w:#}").parse::<Wide>().unwrap(), w);
    }
}

/// Seeded games through `Game`: on the wide board, the moves the players choose on the
/// view are legal, and every game replays with its final board, score and largest tile.
#[test]
fn games_are_played_on_the_wide_board_and_replay() {
    use twenty48::{play_game, RandomPlayer};
    for seed in 0..40 {
        let g = play_game(seed, &mut RandomPlayer::new(seed + 1000), u64::MAX);
        assert_eq!(g.status(), Status::Over);
        assert_eq!(g.board(), g.tiles().view());
        let rec: GameRecord = g.record();
        assert_eq!(rec.overflow_move, None);
        let s = twenty48::replay(&rec).unwrap();
        assert_eq!((s.board, s.score, s.max_tile), (g.tiles(), g.score(), g.max_tile()));
        let json = serde_json::to_string(&rec).unwrap();
        assert!(!json.contains("overflow_move"), "{json}");
    }
}

/// A record from before games went past 32768, ending on an overflow move, still replays;
/// one whose overflow move does not make a 65536 is refused.
#[test]
fn old_overflow_records_still_replay() {
    let mut g = Game::new(3);
    while g.status() == Status::Playing && g.moves() < 30 {
        let d = Dir::ALL.into_iter().find(|&d| g.tiles().play(d).is_some()).unwrap();
        g.play(d).unwrap();
    }
    let mut rec = g.record();
    // No move on this board makes a 65536, so an overflow ending is refused.
    rec.overflow_move = Some("L".into());
    rec.status = Status::Overflow;
    let e = twenty48::replay(&rec).unwrap_err();
    assert!(e.message.contains("does not create a 65536"), "{e}");
    rec.overflow_move = None;
    let e = twenty48::replay(&rec).unwrap_err();
    assert!(e.message.contains("without an overflow move"), "{e}");
}
