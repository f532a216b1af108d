//! Every integration test of the crate, in one test binary: one link and one pool of test
//! threads instead of one per file. Each file stays a module: run one file's tests with
//! `cargo test -p drop7 --test all FILE::` (for example `gate::`).
mod budget;
mod contract;
mod gate;
mod ntuple;
mod requests;
mod search;
