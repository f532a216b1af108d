//! The one live contract's properties (`bits::live::suite`) on SameGame.

use bits::job::Control;
use bits::live::suite::{check, Case};
use samegame::api::live::contract::{SameGame, Search, Setup};
use samegame::api::{gen, solve, BoardFile, GenRequest, Search as Method, SolveGoal, SolveRequest};

const SNAKE_RECORD: &str = r#"{"config":{"size":"4x4","start_x":2,"start_y":2,"start_len":1,"stall_limit":1000},"seed":1,"player":"hand","moves":"","fruits":[0],"score":0,"status":"Running"}"#;

#[test]
fn samegame_keeps_the_contract() {
    let setup = |width, height, colors| Setup { width, height, colors, ..Setup::default() };
    let beam = |goal, width| Search { goal, width: Some(width), ..Search::default() };
    let cases = vec![
        Case::<SameGame> {
            setup: setup(8, 6, 3),
            seed: 11,
            search: beam(SolveGoal::Score, 10),
            max_moves: u64::MAX,
        },
        Case {
            setup: setup(10, 8, 4),
            seed: u64::MAX,
            search: beam(SolveGoal::Clear, 50),
            max_moves: u64::MAX,
        },
        Case {
            setup: Setup { board: Some("1122\n2211\n1212\n".into()), ..Setup::default() },
            seed: 0,
            search: Search { search: Method::Nrpa, level: 1, iterations: 20, ..Search::default() },
            max_moves: u64::MAX,
        },
    ];
    let cli = |c: &Case<SameGame>| {
        let board = match &c.setup.board {
            Some(b) => b.clone(),
            None => {
                let g = GenRequest {
                    width: c.setup.width,
                    height: c.setup.height,
                    colors: c.setup.colors,
                    seed: c.seed,
                    ..Default::default()
                };
                gen(&g, Control::new()).unwrap().boards.remove(0)
            }
        };
        let req = SolveRequest {
            file: Some(BoardFile::text_file("board", board)),
            goal: c.search.goal,
            search: c.search.search,
            width: c.search.width,
            level: c.search.level,
            iterations: c.search.iterations,
            seed: c.search.seed,
            record: true,
            threads: Some(1),
            ..Default::default()
        };
        solve(&req, Control::new()).unwrap().boards.remove(0).record.unwrap()
    };
    check(&cases, cli, ("Snake", SNAKE_RECORD, |t| t.contains("\"fruits\"")));
}

/// The snapshot's `bits` are the engine's words: the colour its three planes spell, where
/// the occupancy bit is set, is the tile the board text shows (rows top first, `.` empty,
/// emptied columns closed up on the right); frames carry none.
#[test]
fn the_bits_are_the_bitplanes() {
    use bits::live::{auto, position, AutoRequest, Caps, PositionRequest};
    let setup = Setup { width: 10, height: 8, colors: 5, ..Setup::default() };
    let from = PositionRequest::<SameGame> { setup, seed: 21, ..Default::default() };
    let search = Search { width: Some(4), ..Search::default() };
    let a = auto(
        &AutoRequest { from: from.clone(), search, max_moves: 100 },
        &Caps::NONE,
        Control::new(),
    )
    .unwrap();
    let moves: Vec<&str> = a.moves.split('-').filter(|m| !m.is_empty()).collect();
    assert!(moves.len() > 5);
    for k in 0..=moves.len() {
        let req = PositionRequest::<SameGame> {
            moves: moves[..k].join("-"),
            frames: true,
            ..from.clone()
        };
        let p = position(&req, Control::new()).unwrap();
        let bits = p.now.bits.as_ref().unwrap();
        let word = |s: &String| u32::from_str_radix(s.trim_start_matches("0x"), 16).unwrap();
        // Rows bottom first.
        let rows: Vec<Vec<char>> = p.now.board.lines().rev().map(|l| l.chars().collect()).collect();
        for x in 0..rows[0].len() {
            for (y, row) in rows.iter().enumerate() {
                let shown = row[x];
                let occ = bits.occ.get(x).map_or(0, word);
                if occ >> y & 1 == 0 {
                    assert_eq!(shown, '.', "move {k}: ({x}, {y})");
                    continue;
                }
                let colour = (0..3).map(|b| (word(&bits.planes[b][x]) >> y & 1) << b).sum::<u32>();
                assert_eq!(shown, char::from_digit(colour, 10).unwrap(), "move {k}: ({x}, {y})");
            }
        }
        assert!(p.frames.iter().all(|f| f.bits.is_none()));
    }
}
