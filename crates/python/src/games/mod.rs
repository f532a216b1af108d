//! Each game's [`crate::env::EnvGame`]: its observation, actions, rewards and mask.

use bits::job::Control;
use bits::live::{Game, PositionRequest};

pub mod drop7;
pub mod samegame;
pub mod snake;
pub mod tetris;
pub mod twenty48;

/// The record of the game of `setup`, `seed` and `moves` as the live contract writes it (the
/// CLI's record), after the contract has replayed the moves.
pub fn contract_record<G: Game>(
    setup: G::Setup,
    seed: u64,
    moves: String,
) -> Result<String, String> {
    let req = PositionRequest::<G> { setup, seed, moves, ..Default::default() };
    let rec = bits::live::record(&req, Control::new()).map_err(|e| e.message().to_string())?;
    serde_json::to_string(&rec).map_err(|e| e.to_string())
}
