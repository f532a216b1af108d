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
