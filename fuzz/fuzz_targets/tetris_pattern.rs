#![no_main]

// With FUZZ_SKIP_KNOWN=1 the known defects (crates/fuzzing/src/known.rs) return quietly.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    fuzzing::skip_known("tetris_pattern", || fuzzing::tetris_pattern(data));
});
