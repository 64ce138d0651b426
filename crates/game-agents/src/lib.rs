#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod flat;
mod ismcts;
mod meter;
mod playout;

pub use flat::{FlatMonteCarlo, FlatMonteCarloConfig};
pub use game_traits::RandomAgent;
/// Re-exported from `game-traits`, where a game's own bots find it too.
pub use game_traits::{Budget, BudgetError};
pub use ismcts::{Ismcts, IsmctsConfig};
pub use playout::Evaluator;
