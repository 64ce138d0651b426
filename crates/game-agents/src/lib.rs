#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod budget;
mod flat;
mod ismcts;
mod playout;

pub use budget::{Budget, BudgetError};
pub use flat::{FlatMonteCarlo, FlatMonteCarloConfig};
pub use game_traits::RandomAgent;
pub use ismcts::{Ismcts, IsmctsConfig};
pub use playout::Evaluator;
