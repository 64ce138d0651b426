//! The game's own bots, beside the rules and built on them alone (feature
//! `bots`, on by default): the heuristic, with the material evaluation that
//! search bots use for playouts cut off before the end, and the expert.
//! Nothing in the rules imports this module, so `--no-default-features`
//! builds the rules without it.

mod expert;
mod heuristic;

pub use expert::{Expert, Weights, EXPERT_DEFAULT_BUDGET};
pub use heuristic::{material_evaluation, piece_value, Heuristic};
