//! Setups a game suggests for a setup phase (Stratego's 40 placements):
//! declared by the game ([`Knowledge::setups`](crate::Knowledge::setups)),
//! asked through [`DynGame::suggest_setup`](crate::DynGame::suggest_setup),
//! which a setup editor starts from.

use game_traits::{Game, GameRng};
use serde::{Deserialize, Serialize};

/// Which generator a suggestion comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SetupKind {
    /// Uniformly random.
    Random,
    /// Drawn from a model of the setups people play.
    Human,
}

/// A setup as its game suggests it: the setup area's shape and the
/// placements that make it, in the order the setup phase plays them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuggestedSetup<A> {
    /// Rows of the setup area (front row first).
    pub rows: usize,
    /// Squares a row (the owner's left first).
    pub cols: usize,
    /// One placement a square, `rows * cols` of them, row by row from the
    /// front.
    pub placements: Vec<A>,
}

/// A game's setup generator: the setup of `kind` under the rules, drawn
/// from the generator given.
pub type SetupSuggester<G> =
    fn(&<G as Game>::Rules, SetupKind, &mut GameRng) -> SuggestedSetup<<G as Game>::Action>;
