//! Rows from the JSON report of one `play --json` run.

use serde_json::Value;

use super::{Drop7Row, Error, RowFile, Twenty48Row};

/// The rows of one `bitarcade drop7 play --json` or `bitarcade 2048 play --json` report
/// (the game is told by its fields: Drop7's `results`, 2048's `games`), in the report's
/// order. `name` is the report's file name, for messages.
///
/// - Drop7: one row a game of `results`; a game without `index` gets `first_game + k`.
/// - 2048: the master seed of each game is `FIRST + index` for a `--seeds FIRST..LAST`
///   run and the run's `seed` for a one-game run; a `--games N` run with N > 1 has no
///   master seed per game and is refused. `cpu_time` is the text of `RUN.time` (from
///   `/usr/bin/time -f "%U ..." -o RUN.time`) when that file exists: its first field,
///   the user seconds, becomes `cpu_seconds` of a one-game run.
///
/// ```
/// let json = r#"{"seed": 7, "games": [{"index": 0, "score": 4512, "moves": 367,
///                "max_tile": 256, "nodes": 1468}]}"#;
/// let rows = trials::rows::run_rows("g7.json", json, Some("241.5 300.2\n")).unwrap();
/// assert_eq!(rows.lines(), ["7\t4512\t367\t256\t1468\t241.50"]);
/// ```
pub fn run_rows(name: &str, json: &str, cpu_time: Option<&str>) -> Result<RowFile, Error> {
    let v: Value = serde_json::from_str(json)
        .map_err(|e| Error::input(format!("{name}:{}:{}: not JSON: {e}", e.line(), e.column())))?;
    if let Some(results) = v.get("results") {
        drop7(name, &v, results).map(RowFile::Drop7)
    } else if let Some(games) = v.get("games") {
        twenty48(name, &v, games, cpu_time).map(RowFile::Twenty48)
    } else {
        Err(Error::input(format!(
            "{name}: neither a `drop7 play --json` report (no `results`) nor a \
             `2048 play --json` one (no `games`)"
        )))
    }
}

fn array<'a>(name: &str, v: &'a Value, field: &str) -> Result<&'a Vec<Value>, Error> {
    v.as_array().ok_or_else(|| Error::input(format!("{name}: `{field}` is not a list")))
}

fn uint(name: &str, at: &str, v: &Value, field: &str) -> Result<u64, Error> {
    v.get(field)
        .and_then(Value::as_u64)
        .ok_or_else(|| Error::input(format!("{name}: {at}: no whole number `{field}`")))
}

fn drop7(name: &str, report: &Value, results: &Value) -> Result<Vec<Drop7Row>, Error> {
    let first = report.get("first_game").and_then(Value::as_u64).unwrap_or(0);
    let mut out = Vec::new();
    for (k, g) in array(name, results, "results")?.iter().enumerate() {
        let at = format!("results[{k}]");
        let index = match g.get("index") {
            None => first + k as u64,
            Some(_) => uint(name, &at, g, "index")?,
        };
        let over = g
            .get("over")
            .and_then(Value::as_bool)
            .ok_or_else(|| Error::input(format!("{name}: {at}: no true/false `over`")))?;
        let cpu_seconds = match g.get("cpu_seconds") {
            None | Some(Value::Null) => None,
            Some(c) => Some(c.as_f64().ok_or_else(|| {
                Error::input(format!("{name}: {at}: `cpu_seconds` is not a number"))
            })?),
        };
        let stats =
            g.get("stats").ok_or_else(|| Error::input(format!("{name}: {at}: no `stats`")))?;
        out.push(Drop7Row {
            index,
            seed: uint(name, &at, g, "seed")?,
            score: uint(name, &at, g, "score")?,
            moves: uint(name, &at, g, "moves")?,
            level: uint(name, &at, g, "level")?,
            over,
            cpu_seconds,
            search_moves: uint(name, &format!("{at}.stats"), stats, "moves")?,
        });
    }
    Ok(out)
}

fn twenty48(
    name: &str,
    report: &Value,
    games: &Value,
    cpu_time: Option<&str>,
) -> Result<Vec<Twenty48Row>, Error> {
    let games = array(name, games, "games")?;
    let masters: Vec<u64> = if let Some(seeds) = report.get("seeds") {
        let first = seeds
            .as_str()
            .and_then(|s| s.split("..").next())
            .and_then(|s| s.parse::<u64>().ok())
            .ok_or_else(|| Error::input(format!("{name}: `seeds` is not FIRST..LAST")))?;
        games
            .iter()
            .enumerate()
            .map(|(k, g)| Ok(first + uint(name, &format!("games[{k}]"), g, "index")?))
            .collect::<Result<_, Error>>()?
    } else if games.len() == 1 {
        vec![uint(name, "the report", report, "seed")?]
    } else {
        return Err(Error::input(format!(
            "{name}: a --games {} run has no master seed per game",
            games.len()
        )));
    };
    let cpu_seconds = match cpu_time {
        Some(t) if games.len() == 1 => {
            let stem = name.strip_suffix(".json").unwrap_or(name);
            let first = t.split_whitespace().next().unwrap_or("");
            Some(first.parse::<f64>().map_err(|_| {
                Error::input(format!("{stem}.time:1: expected user seconds, found `{first}`"))
            })?)
        }
        _ => None,
    };
    games
        .iter()
        .zip(masters)
        .enumerate()
        .map(|(k, (g, seed))| {
            let at = format!("games[{k}]");
            Ok(Twenty48Row {
                seed,
                score: uint(name, &at, g, "score")?,
                moves: uint(name, &at, g, "moves")?,
                max_tile: uint(name, &at, g, "max_tile")?,
                nodes: uint(name, &at, g, "nodes")?,
                cpu_seconds,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drop7_first_game_and_errors() {
        let json = r#"{"first_game": 3, "results": [{"seed": 5, "score": 100, "moves": 4,
            "level": 1, "over": true, "cpu_seconds": 0.25, "stats": {"moves": 9}}]}"#;
        let r = run_rows("r.json", json, None).unwrap();
        assert_eq!(r.lines(), ["3\t5\t100\t4\t1\ttrue\t0.2\t9"]);
        let bad = r#"{"results": [{"seed": 5, "score": -1}]}"#;
        assert_eq!(
            run_rows("r.json", bad, None).unwrap_err().to_string(),
            "r.json: results[0]: no true/false `over`"
        );
        assert_eq!(
            run_rows("r.json", "{\n  \"results\": [,]}", None).unwrap_err().to_string(),
            "r.json:2:15: not JSON: expected value at line 2 column 15"
        );
        assert!(run_rows("r.json", "{}", None).unwrap_err().to_string().contains("neither"));
    }

    #[test]
    fn twenty48_seeds() {
        let json = r#"{"seed": 1, "seeds": "40..41", "games": [
            {"index": 0, "score": 10, "moves": 2, "max_tile": 8, "nodes": 4},
            {"index": 1, "score": 20, "moves": 3, "max_tile": 16, "nodes": 5}]}"#;
        let r = run_rows("s.json", json, Some("9.0")).unwrap();
        assert_eq!(r.lines(), ["40\t10\t2\t8\t4\t", "41\t20\t3\t16\t5\t"]);
        let many = r#"{"seed": 1, "games": [{}, {}]}"#;
        assert_eq!(
            run_rows("m.json", many, None).unwrap_err().to_string(),
            "m.json: a --games 2 run has no master seed per game"
        );
    }
}
