//! Every integration test of the crate, in one test binary: one link and one pool of test
//! threads instead of one per file. Each file stays a module: run one file's tests with
//! `cargo test -p tetris --test all FILE::` (for example `gate::`).
mod contract;
mod gate;
mod inputs;
mod kicks;
mod percent;
mod requests;
mod signature;
mod solver;
mod sweep;
