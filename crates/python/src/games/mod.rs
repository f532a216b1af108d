//! Each game's [`crate::env::EnvGame`]: its observation, actions, rewards and mask.

pub mod twenty48;
