//! Every integration test of the crate, in one test binary: one link and one pool of test
//! threads instead of one per file. Each file stays a module: run one file's tests with
//! `cargo test -p samegame --test all FILE::` (for example `gate::`).
mod api;
mod beam;
mod contract;
mod gate;
mod nested;
mod nrpa;
mod prove;
mod requests;
mod screen;
mod signature;
