//! The arcade's routes in process (tower `oneshot`), the pool's limits, and the streams.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arcade::{router, AppState, Caps};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

fn app() -> axum::Router {
    router(AppState::new(2, Caps::default()))
}

async fn call(
    app: axum::Router,
    method: &str,
    uri: &str,
    body: Option<String>,
) -> (StatusCode, String) {
    let req = Request::builder().method(method).uri(uri).header("content-type", "application/json");
    let req = req.body(body.map(Body::from).unwrap_or_else(Body::empty)).unwrap();
    let res = app.oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(bytes.to_vec()).unwrap())
}

async fn post(app: axum::Router, uri: &str, body: Value) -> (StatusCode, Value) {
    let (s, text) = call(app, "POST", uri, Some(body.to_string())).await;
    (s, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")))
}

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    let (s, html) = call(app(), "GET", "/", None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(html.contains("/assets/app.js"));
    for a in ["app.js", "app.css", "timeline.js", "2048.js", "snake.js", "samegame.js"] {
        let (s, body) = call(app(), "GET", &format!("/assets/{a}"), None).await;
        assert_eq!(s, StatusCode::OK, "{a}");
        assert!(body.len() > 500, "{a}");
    }
    let (s, body) = call(app(), "GET", "/assets/nope.js", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(body, r#"{"error":"no asset \"nope.js\""}"#);
    let (s, body) = call(app(), "GET", "/api/health", None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(body.contains(r#""workers":2"#), "{body}");
}

#[tokio::test]
async fn position_is_the_api_answer() {
    let (s, v) = post(app(), "/api/2048/position", json!({"seed": 5, "moves": "LU"})).await;
    assert_eq!(s, StatusCode::OK);
    let want = twenty48::api::position(
        &twenty48::api::PositionRequest { seed: 5, moves: "LU".into(), ..Default::default() },
        bits::job::Control::new(),
    )
    .unwrap();
    assert_eq!(v, serde_json::to_value(&want).unwrap());
}

#[tokio::test]
async fn bad_requests_are_400_with_one_line() {
    let cases = [
        (json!({"seed": 5, "moves": "LX"}), "moves: 'X' (move 2) is not one of U, D, L, R"),
        (json!({"seed": "five"}), "request body: "),
        (json!({"seed": -1}), "request body: "),
    ];
    for (body, msg) in cases {
        let (s, v) = post(app(), "/api/2048/position", body.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
        let e = v["error"].as_str().unwrap();
        assert!(e.starts_with(msg) && !e.contains('\n'), "{body}: {e}");
    }
    let (s, text) = call(app(), "POST", "/api/2048/position", Some("{not json".into())).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(text.starts_with(r#"{"error":"request body: "#), "{text}");
    // A body over the limit is refused before it is parsed.
    let small = router(AppState::new(1, Caps { max_body: 1000, ..Caps::default() }));
    let big = json!({"seed": 1, "moves": "L".repeat(5000)}).to_string();
    let (s, text) = call(small, "POST", "/api/2048/position", Some(big)).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(text.contains("length limit"), "{text}");
    let (s, _) = call(app(), "GET", "/api/2048/auto?seed=x", None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, v) = post(app(), "/api/nope", json!({})).await;
    assert_eq!((s, v["error"].as_str().unwrap()), (StatusCode::NOT_FOUND, "no such page"));
}

#[tokio::test]
async fn hint_gives_every_legal_move_a_value_within_the_caps() {
    let (s, v) = post(
        app(),
        "/api/2048/hint",
        json!({"seed": 5, "moves": "LU", "search": {"budget": 20000}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let values = v["values"].as_array().unwrap();
    assert_eq!(values.len(), 4);
    let best =
        values.iter().max_by(|a, b| a["value"].as_f64().partial_cmp(&b["value"].as_f64()).unwrap());
    assert_eq!(best.unwrap()["dir"], v["best"]);
    // Whatever the request asks, the server's caps hold: nodes (within one deepening step
    // over the cap) and depth.
    let caps = Caps { max_nodes: 2_000, max_depth: 3, ..Caps::default() };
    let (s, v) = post(
        router(AppState::new(1, caps)),
        "/api/2048/hint",
        json!({"seed": 5, "search": {"budget": 1_000_000_000u64}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["nodes"].as_u64().unwrap() < 20_000, "{v}");
    let (s, v) = post(
        router(AppState::new(1, caps)),
        "/api/2048/hint",
        json!({"seed": 5, "search": {"depth": 200}}),
    )
    .await;
    assert_eq!((s, v["depth"].as_u64()), (StatusCode::OK, Some(3)), "{v}");
}

#[tokio::test]
async fn frames_and_records_round_trip() {
    let (s, text) = call(
        app(),
        "POST",
        "/api/2048/record",
        Some(json!({"seed": 3, "moves": "LURD"}).to_string()),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let rec: twenty48::GameRecord = serde_json::from_str(&text).unwrap();
    assert_eq!(twenty48::replay(&rec).unwrap().moves, 4);
    // Sent back as written (the seed is past 2^53), alone or in a list.
    for body in
        [format!(r#"{{"record": {text}}}"#), format!(r#"{{"record": [{text}], "index": 0}}"#)]
    {
        let (s, out) = call(app(), "POST", "/api/2048/frames", Some(body)).await;
        assert_eq!(s, StatusCode::OK, "{out}");
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["frames"].as_array().unwrap().len(), 5);
        assert_eq!(v["spawn_seed"], json!(rec.seed.unwrap().to_string()));
    }
    let mut bad = rec.clone();
    bad.spawns[2] = [bad.spawns[2][0], 4096];
    let (s, v) = post(app(), "/api/2048/frames", json!({"record": bad})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().starts_with("record: "), "{v}");
}

#[tokio::test]
async fn auto_streams_every_move_then_the_record() {
    let (s, body) = call(app(), "GET", "/api/2048/auto?seed=5&budget=5000&max_moves=6", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(body.matches("event: step").count(), 6, "{body}");
    let done = body.split("event: done\ndata: ").nth(1).expect("a done event");
    let v: Value = serde_json::from_str(done.lines().next().unwrap()).unwrap();
    let rec: twenty48::GameRecord = serde_json::from_value(v["record"].clone()).unwrap();
    assert_eq!(rec.moves.len(), 6);
    twenty48::replay(&rec).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pool_runs_at_most_its_workers_and_keeps_order() {
    let pool = Arc::new(arcade::pool::Pool::new(2));
    let running = Arc::new(AtomicU64::new(0));
    let peak = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for _ in 0..6 {
        let (pool, running, peak) = (pool.clone(), running.clone(), peak.clone());
        tasks.push(tokio::spawn(async move {
            pool.run(
                Duration::from_secs(5),
                Arc::new(AtomicBool::new(false)),
                |_| {},
                move |_| {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    peak.fetch_max(now, Ordering::SeqCst);
                    // Wait (a while, on a loaded machine) for a second job to join.
                    let t = Instant::now();
                    while running.load(Ordering::SeqCst) < 2 && t.elapsed() < Duration::from_secs(1)
                    {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    std::thread::sleep(Duration::from_millis(20));
                    running.fetch_sub(1, Ordering::SeqCst);
                },
            )
            .await
        }));
    }
    for t in tasks {
        assert!(t.await.unwrap().is_some());
    }
    assert_eq!(peak.load(Ordering::SeqCst), 2);
    let s = pool.stats();
    assert_eq!((s.finished, s.running, s.queued, s.over_budget), (6, 0, 0, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deadline_or_a_client_gone_stops_the_job() {
    let pool = Arc::new(arcade::pool::Pool::new(1));
    let spin = |abort: &AtomicBool| {
        let start = Instant::now();
        while !abort.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
        start.elapsed()
    };
    // The deadline sets the flag.
    let took = pool
        .run(Duration::from_millis(100), Arc::new(AtomicBool::new(false)), |_| {}, spin)
        .await
        .unwrap();
    assert!(
        took >= Duration::from_millis(100)
            && took < Duration::from_millis(100) + arcade::pool::GRACE,
        "{took:?}"
    );
    // Dropping the request's future (the client went away) sets it too.
    let flag = Arc::new(AtomicBool::new(false));
    let p = pool.clone();
    let f = flag.clone();
    let job = tokio::spawn(async move { p.run(Duration::from_secs(60), f, |_| {}, spin).await });
    tokio::time::sleep(Duration::from_millis(50)).await;
    job.abort();
    let start = Instant::now();
    while pool.stats().running > 0 {
        assert!(start.elapsed() < Duration::from_millis(500), "the job did not stop");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(flag.load(Ordering::Relaxed));
    let s = pool.stats();
    assert_eq!((s.finished, s.aborted, s.over_budget), (2, 2, 0));
}

#[tokio::test]
async fn snake_position_hint_and_bad_input() {
    let body = json!({"setup": {"size": "8x6"}, "seed": 4, "moves": "RRUL", "frames": true});
    let (s, v) = post(app(), "/api/snake/position", body.clone()).await;
    assert_eq!(s, StatusCode::OK);
    let req: snake::api::live::PositionRequest = serde_json::from_value(body).unwrap();
    let want = snake::api::live::position(&req, bits::job::Control::new()).unwrap();
    assert_eq!(v, serde_json::to_value(&want).unwrap());
    // The start, then one frame per move.
    assert_eq!(v["frames"].as_array().unwrap().len(), 5);

    let (s, h) =
        post(app(), "/api/snake/hint", json!({"from": {"seed": 4}, "player": "astar"})).await;
    assert_eq!(s, StatusCode::OK, "{h}");
    assert_eq!(h["player"], "astar");
    assert_eq!(h["dir"].as_str().unwrap(), &h["moves"].as_str().unwrap()[..1]);
    assert_eq!(h["route"].as_array().unwrap().len(), h["moves"].as_str().unwrap().len());

    let cases = [
        ("/api/snake/position", json!({"moves": "RX"}), "move"),
        ("/api/snake/position", json!({"setup": {"size": "99x2"}}), "size"),
        ("/api/snake/hint", json!({"player": "nobody"}), "nobody"),
        ("/api/snake/frames", json!({"record": {"moves": 3}}), "record: "),
    ];
    for (uri, body, has) in cases {
        let (s, v) = post(app(), uri, body.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{uri} {body}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(has) && !e.contains('\n'), "{uri} {body}: {e}");
    }
    let (s, body) = call(app(), "GET", "/api/snake/auto?player=nobody", None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
}

#[tokio::test]
async fn snake_record_round_trips_and_auto_plays_the_cli_game() {
    let q = json!({"setup": {"size": "6x6"}, "seed": 9, "moves": "RRDDLL"});
    let (s, text) = call(app(), "POST", "/api/snake/record", Some(q.to_string())).await;
    assert_eq!(s, StatusCode::OK);
    let rec: Value = serde_json::from_str(&text).unwrap();
    let (s, v) = post(app(), "/api/snake/frames", json!({ "record": rec })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["seed"].as_str(), v["moves"].as_str()), (Some("9"), Some("RRDDLL")));
    assert_eq!(v["setup"]["size"], "6x6");
    let mut forged = rec.clone();
    forged["score"] = json!(rec["score"].as_u64().unwrap() + 1);
    let (s, _) = post(app(), "/api/snake/frames", json!({ "record": forged })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);

    let (s, body) = call(app(), "GET", "/api/snake/auto?size=6x6&seed=9&player=cycle", None).await;
    assert_eq!(s, StatusCode::OK);
    let moves: String = body
        .split("event: chunk\ndata: ")
        .skip(1)
        .map(|c| serde_json::from_str::<Value>(c.lines().next().unwrap()).unwrap())
        .map(|c| c["moves"].as_str().unwrap().to_string())
        .collect();
    let done = body.split("event: done\ndata: ").nth(1).expect("a done event");
    let done: Value = serde_json::from_str(done.lines().next().unwrap()).unwrap();
    let played = snake::api::play(
        &snake::api::PlayRequest {
            player: "cycle".into(),
            setup: snake::api::Setup { size: "6x6".into(), ..Default::default() },
            seed: 9,
        },
        bits::job::Control::new(),
    )
    .unwrap();
    assert_eq!(moves, played.record.moves);
    assert_eq!(done["score"], json!(played.record.score));
}

/// The SameGame board the CLI's `samegame gen` makes from these settings.
fn samegame_board(width: usize, height: usize, colors: usize, seed: u64) -> String {
    let req = samegame::api::GenRequest { width, height, colors, seed, ..Default::default() };
    samegame::api::gen(&req, bits::job::Control::new()).unwrap().boards.remove(0)
}

#[tokio::test]
async fn samegame_position_hint_and_bad_input() {
    let body = json!({"start": {"width": 8, "height": 6, "colors": 3, "seed": 11}, "frames": true});
    let (s, v) = post(app(), "/api/samegame/position", body.clone()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["start"].as_str().unwrap(), samegame_board(8, 6, 3, 11));
    // Click the first group the answer lists, by its tile on screen.
    let g = &v["now"]["groups"][0];
    let at = g["at"].clone();
    let body = json!({"start": {"width": 8, "height": 6, "colors": 3, "seed": 11}, "moves": [at], "frames": true});
    let (s, v) = post(app(), "/api/samegame/position", body.clone()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let req: samegame::api::live::PositionRequest = serde_json::from_value(body).unwrap();
    let want = samegame::api::live::position(&req, bits::job::Control::new()).unwrap();
    assert_eq!(v, serde_json::to_value(&want).unwrap());
    assert_eq!(v["frames"].as_array().unwrap().len(), 2);
    assert_eq!(v["now"]["removed"], g["size"]);
    assert_eq!(v["now"]["score"], g["points"]);

    // The hint is the solver's whole plan from the position, checked, a frame per click.
    let from = json!({"start": {"width": 8, "height": 6, "colors": 3, "seed": 11}, "moves": [at]});
    let (s, h) = post(app(), "/api/samegame/hint", json!({"from": from, "width": 10})).await;
    assert_eq!(s, StatusCode::OK, "{h}");
    let n = h["moves"].as_array().unwrap().len();
    assert!(n > 0);
    assert_eq!(h["frames"].as_array().unwrap().len(), n);
    assert_eq!(h["frames"][n - 1]["score"], h["score"]);
    assert_eq!(
        h["score"].as_i64().unwrap(),
        v["now"]["score"].as_i64().unwrap() + h["points"].as_i64().unwrap()
    );

    let start = json!({"width": 8, "height": 6, "colors": 3, "seed": 11});
    let cases = [
        ("/api/samegame/position", json!({"start": start, "moves": [[9, 0]]}), "click 1"),
        ("/api/samegame/position", json!({"start": {"width": 99}}), "width"),
        ("/api/samegame/position", json!({"start": {"board": "01\n2x"}}), "board"),
        ("/api/samegame/position", json!({"start": start, "rules": {"points": "n^3"}}), "rules"),
        ("/api/samegame/hint", json!({"from": {"start": start}, "search": "nested"}), "search"),
        ("/api/samegame/hint", json!({"from": {"start": {"board": "01\n23"}}}), "over"),
        ("/api/samegame/frames", json!({"record": {"moves": 3}}), "record: "),
    ];
    for (uri, body, has) in cases {
        let (s, v) = post(app(), uri, body.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{uri} {body}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(has) && !e.contains('\n'), "{uri} {body}: {e}");
    }
    for q in ["moves=1.x", "search=nested", "width=0", "board=01/2x"] {
        let (s, body) = call(app(), "GET", &format!("/api/samegame/auto?{q}"), None).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{q}: {body}");
        assert!(!body.contains('\n'), "{q}: {body}");
    }
}

#[tokio::test]
async fn samegame_record_round_trips_and_auto_plays_the_cli_solution() {
    let start = json!({"width": 10, "height": 8, "colors": 4, "seed": 5});
    let (_, v) = post(app(), "/api/samegame/position", json!({"start": start})).await;
    let first = v["now"]["groups"][0]["at"].clone();
    let q = json!({"start": start, "moves": [first], "rules": {"clear_bonus": 500}});
    let (s, text) = call(app(), "POST", "/api/samegame/record", Some(q.to_string())).await;
    assert_eq!(s, StatusCode::OK, "{text}");
    let rec: Value = serde_json::from_str(&text).unwrap();
    let (s, v) = post(app(), "/api/samegame/frames", json!({ "record": rec })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["start"]["board"].as_str().unwrap(), samegame_board(10, 8, 4, 5));
    assert_eq!(v["moves"], json!([first]));
    assert_eq!(v["rules"]["clear_bonus"], 500);
    let mut forged = rec.clone();
    forged["score"] = json!(rec["score"].as_i64().unwrap() + 1);
    let (s, _) = post(app(), "/api/samegame/frames", json!({ "record": forged })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);

    // The whole game from the start: the stream's plan is what `samegame solve` answers.
    let (s, body) =
        call(app(), "GET", "/api/samegame/auto?width=10&height=8&colors=4&seed=5&beam=20", None)
            .await;
    assert_eq!(s, StatusCode::OK);
    let data = |name: &str| -> Value {
        let d = body
            .split(&format!("event: {name}\ndata: "))
            .nth(1)
            .unwrap_or_else(|| panic!("no {name}: {body}"));
        serde_json::from_str(d.lines().next().unwrap()).unwrap()
    };
    let (plan, done) = (data("plan"), data("done"));
    let solved = samegame::api::solve(
        &samegame::api::SolveRequest {
            file: Some(samegame::api::BoardFile::text("b", samegame_board(10, 8, 4, 5))),
            width: Some(20),
            threads: Some(1),
            ..Default::default()
        },
        bits::job::Control::new(),
    )
    .unwrap();
    let want = &solved.boards[0];
    assert_eq!(plan["moves"], serde_json::to_value(&want.moves).unwrap());
    assert_eq!(done["score"], json!(want.score));
    assert_eq!(done["cleared"], json!(want.cleared));
    assert_eq!(plan["frames"].as_array().unwrap().len(), want.moves.len());
}
