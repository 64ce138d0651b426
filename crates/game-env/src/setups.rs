//! Setups a game suggests for a setup phase (Stratego's 40 placements):
//! declared by the game ([`Knowledge::setups`](crate::Knowledge::setups)),
//! asked through [`DynGame::suggest_setup`](crate::DynGame::suggest_setup),
//! which a setup editor starts from.

use game_traits::{Game, GameRng, PlayerId};
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

/// How a person writes a whole setup and names its squares, so that a
/// terminal sets an army up in one step and edits it by swapping two
/// squares (Stratego: 40 letters front row first; squares `a1`..`j4`).
pub struct SetupForms<G: Game> {
    /// The placements of the setup `text` writes, in the order the setup
    /// phase plays them, or why it writes none.
    pub read: SetupReader<G>,
    /// The setup these placements make, as text that `read` reads back;
    /// `None` when they make none.
    pub write: fn(&G::Rules, &[G::Action]) -> Option<String>,
    /// Where, in the order of the placements, `seat`'s setup square named
    /// `name` is filled; `None` when `name` is not one of his setup
    /// squares.
    pub square: fn(&G::Rules, PlayerId, &str) -> Option<usize>,
    /// How to write a setup and its squares under the rules, for a help
    /// screen.
    pub help: fn(&G::Rules) -> String,
}

/// See [`SetupForms::read`].
pub type SetupReader<G> = fn(&<G as Game>::Rules, &str) -> Result<Vec<<G as Game>::Action>, String>;

impl<G: Game> Clone for SetupForms<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for SetupForms<G> {}
