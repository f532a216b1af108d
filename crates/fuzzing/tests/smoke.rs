//! The fuzz targets' smoke test, on the stable toolchain (it runs in `cargo test --workspace`):
//! every target runs every file of its seed corpus `corpus/<target>/`, then a fixed number of
//! seeded mutations of them (`fuzzing::mutate`; the seed is the target's name, so a failure is
//! reproducible). A panic fails the test with the input that caused it, unless it is one of
//! the known defects (`fuzzing::KNOWN`, `src/known.rs`), which are counted and reported
//! instead. The inputs that show each known defect are kept in `crashes/<target>/`;
//! `known_defects_still_crash` runs them and fails once one no longer crashes (the defect is
//! fixed: move the file into the corpus and drop its entry from `KNOWN`).
//!
//! `FUZZ_SMOKE_SCALE=10 cargo test -p fuzzing --test smoke` runs ten times the mutations;
//! `FUZZ_SMOKE_SLOW_MS=50` prints every input that takes 50 ms or more.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Once;
use std::time::Instant;

use fuzzing::mutate::mutate;
use fuzzing::{Known, KNOWN};

thread_local! {
    /// The last panic on this thread: its message and its location.
    static LAST: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
    /// Whether [`run`] is catching this thread's panics.
    static CATCHING: Cell<bool> = const { Cell::new(false) };
}

/// A panic hook that records the panics [`run`] catches instead of printing them.
fn quiet_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let print = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !CATCHING.with(Cell::get) {
                return print(info);
            }
            let msg = fuzzing::known::panic_message(info.payload());
            let at =
                info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
            LAST.with(|l| *l.borrow_mut() = Some((msg, at)));
        }));
    });
}

/// Runs `target` on `input`; the panic's message and location if it panicked.
fn run(target: fuzzing::Target, input: &[u8]) -> Option<(String, String)> {
    quiet_panics();
    LAST.with(|l| *l.borrow_mut() = None);
    CATCHING.with(|c| c.set(true));
    let out = panic::catch_unwind(AssertUnwindSafe(|| target(input)));
    CATCHING.with(|c| c.set(false));
    match out {
        Ok(()) => None,
        Err(_) => Some(LAST.with(|l| l.borrow_mut().take()).unwrap_or_default()),
    }
}

fn known(name: &str, (msg, at): &(String, String)) -> Option<&'static Known> {
    fuzzing::known::known(name, msg, at)
}

fn dir(kind: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(kind).join(name)
}

/// The files of a directory, by name (none when it does not exist).
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out: Vec<(String, Vec<u8>)> = entries
        .map(|e| {
            let e = e.expect("a directory entry");
            (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).expect("read"))
        })
        .collect();
    out.sort();
    out
}

fn target(name: &str) -> fuzzing::Target {
    fuzzing::TARGETS.iter().find(|(n, _)| *n == name).expect("a target").1
}

fn shown(input: &[u8]) -> String {
    let s = format!("{:?}", String::from_utf8_lossy(input));
    if s.len() > 600 {
        format!("{}... ({} bytes)", &s[..600], input.len())
    } else {
        s
    }
}

/// Every corpus file of `name`, then `mutations` seeded mutations of them.
fn smoke(name: &str, mutations: u64) {
    let f = target(name);
    let corpus = files(&dir("corpus", name));
    assert!(!corpus.is_empty(), "{name}: no corpus in corpus/{name}/");
    let scale: u64 =
        std::env::var("FUZZ_SMOKE_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let seed = name
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    let mut rng = bits::Rng::new(seed);
    let pool: Vec<Vec<u8>> = corpus.iter().map(|(_, b)| b.clone()).collect();
    let mut failures = Vec::new();
    let mut known_hits: BTreeMap<&str, (u64, String)> = BTreeMap::new();
    let slow_ms: Option<u128> =
        std::env::var("FUZZ_SMOKE_SLOW_MS").ok().and_then(|s| s.parse().ok());
    let mut check = |label: String, input: &[u8], failures: &mut Vec<String>| {
        let t = Instant::now();
        let panicked = run(f, input);
        if slow_ms.is_some_and(|ms| t.elapsed().as_millis() >= ms) {
            eprintln!("{name}: {label}: {} ms: {}", t.elapsed().as_millis(), shown(input));
        }
        if let Some(p) = panicked {
            match known(name, &p) {
                Some(k) => {
                    let e = known_hits.entry(k.about).or_insert((0, shown(input)));
                    e.0 += 1;
                }
                None => failures.push(format!(
                    "{label}: {}\n  at {}\n  input {}",
                    p.0,
                    p.1,
                    shown(input)
                )),
            }
        }
    };
    let start = Instant::now();
    for (file, input) in &corpus {
        check(format!("corpus/{name}/{file}"), input, &mut failures);
    }
    let mut out = Vec::new();
    for i in 0..mutations * scale {
        let base = &pool[(i % pool.len() as u64) as usize];
        mutate(&mut rng, base, &pool, &mut out);
        let input = out.clone();
        check(format!("mutation {i} (seed {seed:#x})"), &input, &mut failures);
        if failures.len() >= 5 {
            break;
        }
    }
    eprintln!(
        "{name}: {} corpus files, {} mutations, {:.2} s",
        corpus.len(),
        mutations * scale,
        start.elapsed().as_secs_f64()
    );
    for (about, (n, first)) in &known_hits {
        eprintln!("{name}: known defect hit {n} times: {about}\n  first input {first}");
    }
    assert!(failures.is_empty(), "{name}: {} failures:\n{}", failures.len(), failures.join("\n"));
}

macro_rules! smoke_tests {
    ($($name:ident: $mutations:expr;)*) => {
        $(
            #[test]
            fn $name() {
                smoke(stringify!($name), $mutations);
            }
        )*

        #[test]
        fn every_target_is_smoked() {
            let smoked = [$(stringify!($name)),*];
            for (name, _) in fuzzing::TARGETS {
                assert!(smoked.contains(name), "{name} has no smoke test");
            }
        }
    };
}

smoke_tests! {
    samegame_board: 100_000;
    tetris_field: 100_000;
    tetris_fumen: 100_000;
    tetris_pattern: 50_000;
    drop7_position: 100_000;
    twenty48_board: 100_000;
    snake_board: 100_000;
    samegame_record: 20_000;
    tetris_record: 20_000;
    drop7_record: 20_000;
    twenty48_record: 20_000;
    snake_record: 20_000;
    router_samegame: 5_000;
    router_tetris: 5_000;
    router_drop7: 5_000;
    router_twenty48: 5_000;
    router_snake: 5_000;
    router_auto: 300;
}

/// Every known defect's inputs still crash their target; every listed defect has one.
#[test]
fn known_defects_still_crash() {
    for (name, f) in fuzzing::TARGETS {
        for (file, input) in files(&dir("crashes", name)) {
            match run(*f, &input) {
                None => panic!(
                    "crashes/{name}/{file} no longer crashes: the defect is fixed; move the file \
                     to corpus/{name}/ and drop its entry from KNOWN in src/known.rs"
                ),
                Some(p) => assert!(
                    known(name, &p).is_some(),
                    "crashes/{name}/{file} crashes, but not as a KNOWN defect: {}\n  at {}",
                    p.0,
                    p.1
                ),
            }
        }
    }
    for k in KNOWN {
        let shown = k.targets.iter().any(|t| !files(&dir("crashes", t)).is_empty());
        assert!(shown, "KNOWN defect without an input in crashes/: {}", k.about);
    }
}

/// Every target has a cargo-fuzz binary in `fuzz/` calling the function of its name.
#[test]
fn every_target_has_a_cargo_fuzz_binary() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let manifest = std::fs::read_to_string(fuzz.join("Cargo.toml")).expect("fuzz/Cargo.toml");
    for (name, _) in fuzzing::TARGETS {
        let src = std::fs::read_to_string(fuzz.join(format!("fuzz_targets/{name}.rs")))
            .unwrap_or_else(|e| panic!("fuzz/fuzz_targets/{name}.rs: {e}"));
        let call = format!("fuzzing::skip_known(\"{name}\", || fuzzing::{name}(data))");
        assert!(src.contains(&call), "fuzz_targets/{name}.rs does not call {call}");
        assert!(
            manifest.contains(&format!("name = \"{name}\"")),
            "fuzz/Cargo.toml has no bin {name}"
        );
    }
}
