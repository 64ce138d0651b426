//! The game's own bots, beside the rules and built on them alone (feature
//! `bots`, on by default): the heuristic, the expert with its frozen first
//! generation, and `prob`, its per-flag-odds sparring partner. Nothing in
//! the rules imports this module, so `--no-default-features` builds the
//! rules without it.

mod expert;
mod heuristic;
mod prob;

pub use expert::{Expert, ExpertV1, Weights};
pub use heuristic::Heuristic;
pub use prob::Prob;
