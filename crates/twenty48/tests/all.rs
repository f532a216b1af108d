//! Every integration test of the crate, in one test binary: one link and one pool of test
//! threads instead of one per file. Each file stays a module: run one file's tests with
//! `cargo test -p twenty48 --test all FILE::` (for example `gate::`).
mod api;
mod contract;
mod corner_gate;
mod gate;
mod multistage;
mod ntuple;
mod perft;
mod props;
mod requests;
mod search_signature;
mod wide;
