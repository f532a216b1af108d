//! The API's contracts: an abort flag stops even a single huge move within milliseconds,
//! shards concatenate into the whole batch, and the verbs agree with the engine's checks.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use twenty48::api::{self, Control, Error, PlayRequest, SearchSpec, Shard};

/// Runs `verb` with an abort flag set from another thread after 50 ms; returns its result
/// and how long after the flag it returned.
fn abort_after_50ms<R: Send>(verb: impl FnOnce(Control) -> R + Send) -> (R, Duration) {
    let flag = AtomicBool::new(false);
    std::thread::scope(|s| {
        let setter = s.spawn(|| {
            std::thread::sleep(Duration::from_millis(50));
            flag.store(true, Ordering::Relaxed);
            Instant::now()
        });
        let r = verb(Control::new().with_abort(&flag));
        let end = Instant::now();
        let set_at = setter.join().unwrap();
        (r, end.saturating_duration_since(set_at))
    })
}

#[test]
fn an_aborted_batch_skips_its_games_not_yet_started() {
    // 100,000 games at depth 3: each game not yet started used to set up its search (a 16 MB
    // table) before seeing the flag, so an abort took tens of seconds (found from Python's
    // Ctrl-C test).
    let req = PlayRequest {
        games: 100_000,
        search: SearchSpec { depth: Some(3), ..SearchSpec::default() },
        ..PlayRequest::default()
    };
    let (r, late) = abort_after_50ms(|ctl| api::play(&req, ctl));
    assert!(matches!(r, Err(Error::Aborted)), "{r:?}");
    assert!(late < Duration::from_millis(500), "returned {late:?} after the flag");
}

#[test]
fn play_with_a_huge_budget_stops_within_100ms_of_the_flag() {
    // nneonneo's rule is ~4.7 M nodes a move; this budget is far beyond it, so the first
    // move alone would run for minutes.
    let req = PlayRequest {
        games: 1,
        search: SearchSpec { budget: Some(1 << 40), min_depth: Some(3), ..SearchSpec::default() },
        ..PlayRequest::default()
    };
    let (r, late) = abort_after_50ms(|ctl| api::play(&req, ctl));
    assert!(matches!(r, Err(Error::Aborted)), "{r:?}");
    assert!(late < Duration::from_millis(100), "returned {late:?} after the flag");
}

#[test]
fn best_and_tune_and_train_stop_within_100ms_of_the_flag() {
    let req = api::BestRequest {
        board: "2 8 2 ./32 8 4 ./8192 512 128 16/16384 4096 256 64".into(),
        search: SearchSpec { depth_offset: Some(0), min_depth: Some(9), ..SearchSpec::default() },
    };
    let (r, late) = abort_after_50ms(|ctl| api::best(&req, ctl));
    assert!(matches!(r, Err(Error::Aborted)), "{r:?}");
    assert!(late < Duration::from_millis(100), "best: {late:?}");

    let req = api::TuneRequest { budget: Some(1 << 30), ..api::TuneRequest::default() };
    let (r, late) = abort_after_50ms(|ctl| api::tune(&req, ctl, &mut |_| {}));
    assert!(matches!(r, Err(Error::Aborted)), "{r:?}");
    assert!(late < Duration::from_millis(100), "tune: {late:?}");

    let req = api::TrainRequest {
        games: 100_000_000,
        tuples: Some("0,1,2,3/4,5,6,7".into()),
        ..api::TrainRequest::default()
    };
    let (r, late) = abort_after_50ms(|ctl| {
        api::train(&req, api::TrainInput::default(), ctl, &mut |_| Ok(())).map(|r| r.games_played)
    });
    assert!(matches!(r, Err(Error::Aborted)), "{r:?}");
    assert!(late < Duration::from_millis(100), "train: {late:?}");
}

#[test]
fn shards_concatenate_into_the_whole_batch() {
    let req = |shard: Shard| PlayRequest {
        games: 5,
        seed: 3,
        max_moves: 40,
        shard,
        search: SearchSpec { depth: Some(1), tt_bits: 10, ..SearchSpec::default() },
        ..PlayRequest::default()
    };
    let key = |r: &api::PlayResponse| {
        r.games.iter().map(|g| (g.index, g.seed, g.score, g.moves, g.nodes)).collect::<Vec<_>>()
    };
    let whole = api::play(&req(Shard::WHOLE), Control::new()).unwrap();
    let parts: Vec<_> = (1..=3)
        .flat_map(|k| key(&api::play(&req(Shard::new(k, 3).unwrap()), Control::new()).unwrap()))
        .collect();
    assert_eq!(parts, key(&whole));
    assert_eq!(whole.summary.games, 5);
}

#[test]
fn replay_lists_the_boards_the_moves_were_chosen_on() {
    let req = PlayRequest {
        games: 1,
        seed: 2,
        max_moves: 30,
        search: SearchSpec { depth: Some(1), tt_bits: 10, ..SearchSpec::default() },
        ..PlayRequest::default()
    };
    let rec = api::play(&req, Control::new()).unwrap().games[0].record.clone().unwrap();
    let spec = api::BoardsSpec { from: 0.5, step: 4 };
    let r = api::replay(
        &api::ReplayRequest {
            file: bits::job::InputFile::json("g", &vec![rec.clone()]),
            boards: Some(spec),
        },
        Control::new(),
    )
    .unwrap();
    let idx: Vec<u64> = r.boards.iter().map(|b| b.index).collect();
    assert_eq!(idx, [16, 20, 24, 28]);
    // Each board is the game's board before that move: replaying the moves up to it agrees.
    let mut g = twenty48::Game::new(rec.seed.unwrap());
    for (i, letter) in rec.moves.chars().enumerate() {
        if let Some(b) = r.boards.iter().find(|b| b.index == i as u64) {
            assert_eq!(b.board, g.board().to_string());
            assert_eq!(b.dir, letter.to_string());
        }
        let d = twenty48::Dir::ALL.into_iter().find(|d| d.letter() == letter).unwrap();
        g.play(d).unwrap();
    }
}

#[test]
fn requests_check_their_ranges_and_name_the_field() {
    let err = |r: Result<(), Error>| r.unwrap_err().message().to_string();
    // The defaults pass their own checks.
    PlayRequest::default().check().unwrap();
    api::BestRequest::default().search.check().unwrap();
    api::TuneRequest::default().check().unwrap();
    api::TrainRequest::default().check().unwrap();
    api::StartsRequest::default().check().unwrap();
    api::BenchRequest::default().check().unwrap();
    // One range per option, the API's; the message names the request's field.
    let search = |s: SearchSpec| PlayRequest { search: s, ..PlayRequest::default() }.check();
    search(SearchSpec { tt_bits: 4, ..SearchSpec::default() }).unwrap();
    search(SearchSpec { tt_bits: 30, depth: Some(16), ..SearchSpec::default() }).unwrap();
    assert_eq!(
        err(search(SearchSpec { tt_bits: 31, ..SearchSpec::default() })),
        "search.tt_bits: 31, must be 4 to 30"
    );
    assert_eq!(
        err(search(SearchSpec { depth: Some(17), ..SearchSpec::default() })),
        "search.depth: 17, must be 1 to 16"
    );
    assert_eq!(
        err(search(SearchSpec { budget: Some(0), ..SearchSpec::default() })),
        "search.budget: 0, must be at least 1"
    );
    assert_eq!(
        err(PlayRequest { games: 0, ..PlayRequest::default() }.check()),
        "games: 0, must be 1 to 1000000"
    );
    assert_eq!(
        err(api::TuneRequest { depth: 9, ..api::TuneRequest::default() }.check()),
        "depth: 9, must be 1 to 8"
    );
    assert_eq!(
        err(api::TrainRequest { stage: 4, ..api::TrainRequest::default() }.check()),
        "stage: 4, must be 1 to 3"
    );
}

#[test]
fn the_corner_evaluation_is_opt_in_checked_and_named() {
    use api::LeafEval;
    let err = |r: Result<(), Error>| r.unwrap_err().message().to_string();
    let search = |s: SearchSpec| PlayRequest { search: s, ..PlayRequest::default() }.check();
    // Old requests still parse, with the row heuristic and no pruning.
    let old: SearchSpec = serde_json::from_str(r#"{"depth": 2}"#).unwrap();
    assert_eq!((old.eval, old.prune_below_pass), (LeafEval::Heuristic, false));
    let new: SearchSpec =
        serde_json::from_str(r#"{"depth": 2, "eval": "corner", "prune_below_pass": true}"#)
            .unwrap();
    assert_eq!((new.eval, new.prune_below_pass), (LeafEval::Corner, true));
    search(new.clone()).unwrap();
    // Bad combinations, named by field.
    let prune = SearchSpec { prune_below_pass: true, ..SearchSpec::default() };
    assert!(err(search(prune)).starts_with("search.prune_below_pass: needs search.eval corner"));
    let with_params = SearchSpec { params: Some(twenty48::search::Params::SHIPPED), ..new.clone() };
    assert!(err(search(with_params)).starts_with("search.params:"));
    let with_net = SearchSpec { ntuple: Some("net.b48".into()), ..new.clone() };
    assert!(err(search(with_net)).starts_with("search.eval: corner"));
    // The default setting's words are unchanged; the corner setting names itself.
    let cfg = SearchSpec::default().config().unwrap();
    assert!(!cfg.prune_below_pass);
    assert!(!SearchSpec::default().describe(&cfg).contains("corner"));
    let req = PlayRequest {
        games: 2,
        seed: 30000,
        max_moves: 150,
        search: SearchSpec { depth: Some(2), tt_bits: 12, ..new },
        ..PlayRequest::default()
    };
    let res = api::play(&req, Control::new()).unwrap();
    assert_eq!(
        res.setting,
        "expectimax, depth 2 move layers, probability cutoff 0.0001, table 2^12, corner \
         evaluation (macroxue/2048-ai), pruned below the pass score"
    );
    assert_eq!(res.summary.moves, 300);
    // `best` answers with the corner values: a disordered board is worth less than 0.
    let best = api::best(
        &api::BestRequest {
            board: ". . . 2/. . . 4/. . . 8/2 4 8 1024".into(),
            search: SearchSpec { depth: Some(2), tt_bits: 10, ..req.search.clone() },
        },
        Control::new(),
    )
    .unwrap();
    assert!(best.values.iter().all(|v| v.value < 0.0), "{:?}", best.values);
}

#[test]
fn a_table_built_on_disk_leaves_a_checked_file_or_nothing() {
    let dir = std::env::temp_dir().join(format!("b48t-to-file-{}", std::process::id()));
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let files = || {
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    // The in-memory build's file, for comparison.
    let six = api::TablesRequest { target: 16, verify: 50, ..api::TablesRequest::default() };
    let r = api::tables(&six, Control::new()).unwrap();
    let whole = r.table.as_ref().unwrap().write_to(Vec::new()).unwrap();
    let out = dir.join("l3b-16.b48t");
    let disk = api::tables_to_file(&six, &work, &out, Control::new()).unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), whole);
    assert!(disk.table.is_none());
    assert_eq!((disk.positions, disk.best_start, disk.verified), (r.positions, r.best_start, 50));
    assert!(disk.worst_difference < 1e-4, "{disk:?}");
    assert_eq!(files(), ["l3b-16.b48t", "work"]);
    // A chained build given the wrong `then` (the table for 16, for an L5b 32) fails with
    // the build's own error, after the temporary was made: no file, no temporary.
    let five = api::TablesRequest {
        formation: "L5b".into(),
        target: 32,
        then: Some(out.display().to_string()),
        ..api::TablesRequest::default()
    };
    let bad = dir.join("l5b-32.b48t");
    let e = api::tables_to_file(&five, &work, &bad, Control::new()).unwrap_err();
    assert!(e.to_string().contains("needs L3b for 32"), "{e}");
    assert_eq!(files(), ["l3b-16.b48t", "work"]);
    // A stopped build: the same.
    let flag = AtomicBool::new(true);
    let big = api::TablesRequest { target: 64, ..api::TablesRequest::default() };
    let e = api::tables_to_file(&big, &work, &bad, Control::new().with_abort(&flag));
    assert!(matches!(e, Err(Error::Aborted)), "{e:?}");
    assert_eq!(files(), ["l3b-16.b48t", "work"]);
    assert_eq!(std::fs::read_dir(&work).unwrap().count(), 0);
    // A work directory that is not one: the input error naming the field.
    let e = api::tables_to_file(&six, &dir.join("none"), &bad, Control::new()).unwrap_err();
    assert!(e.to_string().contains("work_dir:"), "{e}");
    assert_eq!(files(), ["l3b-16.b48t", "work"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
