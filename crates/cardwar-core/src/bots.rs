//! The game's own bots, beside the rules and built on them alone (feature
//! `bots`, on by default): the heuristic and the expert, the heuristic
//! with a reserve. Nothing in the rules imports this module, so
//! `--no-default-features` builds the rules without it.

mod expert;
mod heuristic;

pub use expert::{Expert, RESERVE_BELOW};
pub use heuristic::Heuristic;
