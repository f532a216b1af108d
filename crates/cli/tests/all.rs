//! Every integration test of the crate, in one test binary: one link and one pool of test
//! threads instead of one per file. Each file stays a module: run one file's tests with
//! `cargo test -p bitarcade --test all FILE::` (for example `twenty48::`).
mod cli;
mod drop7;
mod samegame;
mod samegame_nrpa;
mod snake;
mod stats;
mod tetris;
mod text;
mod twenty48;
