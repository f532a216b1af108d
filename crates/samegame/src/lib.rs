#![doc = include_str!("../README.md")]

pub mod api;
pub mod beam;
pub mod board;
pub mod groups;
pub mod nested;
pub mod nrpa;
pub mod prove;
pub mod reference;
pub mod rules;
pub mod screen;
pub mod trace;

pub use board::{Board, BoardError, Col, Setup};
pub use groups::{has_pair, play, Group, Groups, PlayError, Potential, Sweeps};
pub use rules::{Points, Rules};
