//! The games' verbs by name (`samegame.solve`, `tetris.pc`, `2048.play`, ...): a request as
//! JSON (the typed API's request, as the CLI fills it from its options) in, the typed API's
//! whole response as JSON out. Python's `bitarcade.run` and the batch runner call these.

use bits::job::{Control, Error};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Every verb: its name and what it does.
pub const VERBS: &[(&str, &str)] = &[
    ("samegame.gen", "generate seeded boards (`samegame gen`)"),
    ("samegame.solve", "solve boards with the beam, nested search or NRPA (`samegame solve`)"),
    ("samegame.prove", "decide whether a board can be cleared (`samegame prove`)"),
    ("samegame.replay", "check a game record (`samegame replay`)"),
    ("tetris.pc", "find a perfect clear (`tetris pc`)"),
    ("tetris.percent", "PC odds over every queue of a pattern (`tetris percent`)"),
    ("tetris.sweep", "solve every canonical queue of a height and count (`tetris sweep`)"),
    ("tetris.replay", "check a solution record (`tetris replay`)"),
    ("drop7.play", "play seeded games with the expectimax (`drop7 play`)"),
    ("drop7.decide", "every column's value for a position (`drop7 decide`)"),
    ("drop7.sweep", "the engine against the reference, turn by turn (`drop7 sweep`)"),
    ("drop7.replay", "check a game record (`drop7 replay`)"),
    ("2048.play", "play seeded games with the expectimax (`2048 play`)"),
    ("2048.best", "the expectimax's move on a board (`2048 best`)"),
    ("2048.replay", "check game records (`2048 replay`)"),
    ("snake.play", "play one game with a player (`snake play`)"),
    ("snake.tournament", "every player on the same seeded games (`snake tournament`)"),
    ("snake.replay", "check a game record (`snake replay`)"),
];

fn call<Req: DeserializeOwned, Resp: Serialize>(
    f: fn(&Req, Control<'_>) -> Result<Resp, Error>,
    request: &str,
    ctl: Control<'_>,
) -> Result<String, Error> {
    let req: Req = crate::long::parse("request", request)?;
    let resp = f(&req, ctl)?;
    serde_json::to_string(&resp).map_err(|e| Error::failed(format!("response: {e}")))
}

/// Runs `verb` on `request` (JSON).
pub fn run(verb: &str, request: &str, ctl: Control<'_>) -> Result<String, Error> {
    match verb {
        "samegame.gen" => call(samegame::api::gen, request, ctl),
        "samegame.solve" => call(samegame::api::solve, request, ctl),
        "samegame.prove" => call(samegame::api::prove, request, ctl),
        "samegame.replay" => call(samegame::api::replay, request, ctl),
        "tetris.pc" => call(tetris::api::pc, request, ctl),
        "tetris.percent" => call(tetris::api::percent, request, ctl),
        "tetris.sweep" => call(tetris::api::sweep, request, ctl),
        "tetris.replay" => call(tetris::api::replay, request, ctl),
        "drop7.play" => call(drop7::api::play, request, ctl),
        "drop7.decide" => call(drop7::api::decide, request, ctl),
        "drop7.sweep" => call(drop7::api::sweep, request, ctl),
        "drop7.replay" => call(drop7::api::replay, request, ctl),
        "2048.play" => call(twenty48::api::play, request, ctl),
        "2048.best" => call(twenty48::api::best, request, ctl),
        "2048.replay" => call(twenty48::api::replay, request, ctl),
        "snake.play" => call(snake::api::play, request, ctl),
        "snake.tournament" => call(snake::api::tournament, request, ctl),
        "snake.replay" => call(snake::api::replay, request, ctl),
        _ => {
            let names: Vec<&str> = VERBS.iter().map(|(n, _)| *n).collect();
            Err(Error::input(format!("verb: {verb:?} is not one of {}", names.join(", "))))
        }
    }
}
