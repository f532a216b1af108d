//! The batch verbs in shards: [`shard`] runs part `k` of `n` of a batch (the typed API's own
//! shard, or its split by player), and [`merge`] joins the parts' responses into exactly what
//! one process prints (`--json` or the text), except the measured times: those are the
//! caller's (`seconds`, the wall time of the whole run, and `threads`).
//!
//! | verb | split |
//! |---|---|
//! | `2048.play` | the games, contiguous (each keeps its index and seed) |
//! | `tetris.sweep` | the queues, dealt round-robin (the API's shard) |
//! | `tetris.percent` | the queues by their first two pieces, dealt round-robin (the API's shard) |
//! | `snake.tournament` | the players, contiguous (each row is computed from its own games) |
//! | `drop7.play` | the games, contiguous (each keeps its index and seed) |
//! | `samegame.solve` | the boards of the file, contiguous (the standard set, say) |

use bits::job::{Control, Error, Shard};
use serde::Serialize;

use crate::long::parse;
use samegame::api::Boards as _;

/// The verbs that split, with how.
pub const BATCH_VERBS: &[(&str, &str)] = &[
    ("2048.play", "the games, contiguous: each keeps its index and seed"),
    ("tetris.sweep", "the canonical queues, dealt round-robin"),
    ("tetris.percent", "the queues by their first two pieces, dealt round-robin"),
    ("snake.tournament", "the players, contiguous: each row comes from its own games"),
    ("drop7.play", "the games, contiguous: each keeps its index and seed"),
    ("samegame.solve", "the boards of the file, contiguous"),
];

/// The boards of a SameGame solve request: its file's, or the one generated board.
fn samegame_boards(req: &samegame::api::SolveRequest) -> Result<usize, Error> {
    match &req.file {
        Some(f) => Ok(f.boards()?.len()),
        None => Ok(1),
    }
}

fn shard_of(k: u64, n: u64) -> Result<Shard, Error> {
    Shard::new(k, n)
        .ok_or_else(|| Error::input(format!("shard: {k}/{n}, expected K/N with 1 <= K <= N")))
}

fn json<T: Serialize>(v: &T) -> Result<String, Error> {
    serde_json::to_string(v).map_err(|e| Error::failed(format!("response: {e}")))
}

fn unknown(verb: &str) -> Error {
    let names: Vec<&str> = BATCH_VERBS.iter().map(|(n, _)| *n).collect();
    Error::input(format!("verb: {verb:?} does not split; the batch verbs are {}", names.join(", ")))
}

/// Checks `verb`'s request (JSON) before any shard runs: the one-line input error of a bad
/// field.
pub fn check(verb: &str, request: &str) -> Result<(), Error> {
    match verb {
        "2048.play" => parse::<twenty48::api::PlayRequest>("request", request)?.check(),
        "tetris.sweep" => parse::<tetris::api::SweepRequest>("request", request).map(|_| ()),
        "tetris.percent" => {
            let req: tetris::api::PercentRequest = parse("request", request)?;
            if req.shard != Shard::WHOLE {
                return Err(Error::input("request.shard: the batch runner sets the shards"));
            }
            Ok(())
        }
        "snake.tournament" => parse::<snake::api::TournamentRequest>("request", request)?.check(),
        "drop7.play" => {
            let req: drop7::api::PlayRequest = parse("request", request)?;
            if req.shard != Shard::WHOLE || req.search.mode == "sequence" {
                return Err(Error::input(
                    "request: a sequence game or a shard of its own does not split",
                ));
            }
            Ok(())
        }
        "samegame.solve" => {
            let req: samegame::api::SolveRequest = parse("request", request)?;
            req.check()?;
            if req.board.is_some() {
                return Err(Error::input("request.board: the batch runner picks the boards"));
            }
            samegame_boards(&req).map(|_| ())
        }
        _ => Err(unknown(verb)),
    }
}

/// Part `k` of `n` of `verb`'s batch on `request` (JSON): its whole response, as JSON.
pub fn shard(verb: &str, request: &str, k: u64, n: u64, ctl: Control<'_>) -> Result<String, Error> {
    let part = shard_of(k, n)?;
    match verb {
        "2048.play" => {
            let mut req: twenty48::api::PlayRequest = parse("request", request)?;
            if req.shard != Shard::WHOLE {
                return Err(Error::input("request.shard: the batch runner sets the shards"));
            }
            req.shard = part;
            json(&twenty48::api::play(&req, ctl)?)
        }
        "tetris.sweep" => {
            let mut req: tetris::api::SweepRequest = parse("request", request)?;
            if req.shard != Shard::WHOLE {
                return Err(Error::input("request.shard: the batch runner sets the shards"));
            }
            req.shard = part;
            json(&tetris::api::sweep(&req, ctl)?)
        }
        "tetris.percent" => {
            let mut req: tetris::api::PercentRequest = parse("request", request)?;
            if req.shard != Shard::WHOLE {
                return Err(Error::input("request.shard: the batch runner sets the shards"));
            }
            req.shard = part;
            json(&tetris::api::percent(&req, ctl)?)
        }
        "snake.tournament" => {
            let mut req: snake::api::TournamentRequest = parse("request", request)?;
            req.check()?;
            let r = part.range(req.players.len() as u64);
            req.players = req.players[r.start as usize..r.end as usize].to_vec();
            if req.players.is_empty() {
                return Ok(String::new());
            }
            json(&snake::api::tournament(&req, ctl)?)
        }
        "drop7.play" => {
            check(verb, request)?;
            let mut req: drop7::api::PlayRequest = parse("request", request)?;
            req.shard = part;
            json(&drop7::api::play(&req, ctl)?)
        }
        "samegame.solve" => {
            check(verb, request)?;
            let mut req: samegame::api::SolveRequest = parse("request", request)?;
            let r = part.range(samegame_boards(&req)? as u64);
            let mut whole: Option<samegame::api::SolveResponse> = None;
            for b in r {
                req.board = Some(b as usize + 1);
                let one = samegame::api::solve(&req, ctl)?;
                match &mut whole {
                    None => whole = Some(one),
                    Some(w) => w.boards.extend(one.boards),
                }
            }
            match whole {
                Some(w) => json(&w),
                None => Ok(String::new()),
            }
        }
        _ => Err(unknown(verb)),
    }
}

/// What one process prints: pretty JSON with `--json`, else the response's text.
fn print<T: Serialize + std::fmt::Display>(v: &T, as_json: bool) -> Result<String, Error> {
    if as_json {
        pretty(v)
    } else {
        Ok(v.to_string())
    }
}

/// The CLI's `--json`: pretty JSON and a newline.
fn pretty<T: Serialize>(v: &T) -> Result<String, Error> {
    serde_json::to_string_pretty(v)
        .map(|s| s + "\n")
        .map_err(|e| Error::failed(format!("output: {e}")))
}

fn parts<T: serde::de::DeserializeOwned>(parts: &[String]) -> Result<Vec<T>, Error> {
    parts
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.is_empty())
        .map(|(i, p)| {
            serde_json::from_str(p).map_err(|e| Error::input(format!("part {}: {e}", i + 1)))
        })
        .collect()
}

/// The parts' responses (in shard order) as one process prints the whole batch; `seconds` and
/// `threads` are the whole run's.
pub fn merge(
    verb: &str,
    request: &str,
    all: &[String],
    as_json: bool,
    seconds: f64,
    threads: usize,
) -> Result<String, Error> {
    match verb {
        "2048.play" => {
            let req: twenty48::api::PlayRequest = parse("request", request)?;
            let mut ps: Vec<twenty48::api::PlayResponse> = parts(all)?;
            if ps.is_empty() {
                return Err(Error::input("parts: none"));
            }
            let mut whole = ps.remove(0);
            for p in ps {
                whole.games.extend(p.games);
            }
            let threads = threads.min(whole.games.len()).max(1);
            whole.summary = twenty48::batch::Summary::of(&whole.games);
            whole.shard = req.shard;
            whole.threads = threads;
            whole.seconds = seconds;
            let moves = whole.summary.moves as f64;
            whole.game_moves_per_second = moves / seconds;
            whole.game_moves_per_second_per_thread = moves / seconds / threads as f64;
            whole.search_nodes_per_second = whole.summary.nodes as f64 / seconds;
            print(&whole, as_json)
        }
        "tetris.sweep" => {
            let req: tetris::api::SweepRequest = parse("request", request)?;
            let ps: Vec<tetris::api::SweepResponse> = parts(all)?;
            let mut whole = ps.first().cloned().ok_or_else(|| Error::input("parts: none"))?;
            whole.items = ps.iter().map(|p| p.items).sum();
            whole.solvable = ps.iter().map(|p| p.solvable).sum();
            whole.shard = req.shard.to_string();
            whole.seconds = seconds;
            print(&whole, as_json)
        }
        "tetris.percent" => {
            let ps: Vec<tetris::api::PercentResponse> = parts(all)?;
            let mut whole = tetris::api::PercentResponse::merge(ps)?;
            whole.seconds = seconds;
            print(&whole, as_json)
        }
        "snake.tournament" => {
            let ps: Vec<snake::api::TournamentResponse> = parts(all)?;
            let mut whole = ps.first().cloned().ok_or_else(|| Error::input("parts: none"))?;
            whole.rows = ps.into_iter().flat_map(|p| p.rows).collect();
            print(&whole, as_json)
        }
        "drop7.play" => {
            let req: drop7::api::PlayRequest = parse("request", request)?;
            let mut ps: Vec<drop7::api::PlayResponse> = parts(all)?;
            if ps.is_empty() {
                return Err(Error::input("parts: none"));
            }
            let mut whole = ps.remove(0);
            for p in ps {
                whole.report.results.extend(p.report.results);
                whole.records.extend(p.records);
                for (t, n) in whole.report.depths.iter_mut().zip(p.report.depths) {
                    *t += n;
                }
            }
            let r = &mut whole.report;
            let scores: Vec<u64> = r.results.iter().map(|g| g.result.score).collect();
            let work: u64 = r.results.iter().map(|g| g.result.stats.moves).sum();
            let decisions: u64 = r.depths.iter().sum();
            r.moves_per_decision =
                if decisions == 0 { 0.0 } else { work as f64 / decisions as f64 };
            r.first_game = req.first_game;
            r.summary = drop7::api::summary(&scores);
            r.seconds = seconds;
            r.seconds_per_game = seconds * threads as f64 / scores.len().max(1) as f64;
            r.search_moves_per_second = work as f64 / seconds;
            whole.mode = req.search.mode.clone();
            if as_json {
                pretty(&whole.report)
            } else {
                Ok(whole.to_string())
            }
        }
        "samegame.solve" => {
            let ps: Vec<samegame::api::SolveResponse> = parts(all)?;
            let mut whole = ps.first().cloned().ok_or_else(|| Error::input("parts: none"))?;
            whole.boards = ps.into_iter().flat_map(|p| p.boards).collect();
            whole.total_score = whole.boards.iter().map(|b| b.score).sum();
            whole.cleared = whole.boards.iter().filter(|b| b.cleared).count();
            whole.total_seconds = seconds;
            whole.threads = threads;
            if as_json {
                whole.boards.iter_mut().for_each(|b| b.record = None);
                return pretty(&whole);
            }
            let single = whole.boards.len() == 1;
            let mut out: String = whole.boards.iter().map(|b| b.text(single)).collect();
            out.push_str(&whole.total_text());
            Ok(out)
        }
        _ => Err(unknown(verb)),
    }
}
