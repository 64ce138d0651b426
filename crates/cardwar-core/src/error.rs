//! Errors: the shared vocabulary of `game-traits`, for this game's actions.

use crate::action::Action;

/// Why an action, a rule set, a state, an observation, a position or a
/// setup was refused: the error every game of the workspace shares
/// ([`game_traits::GameError`]), for this game's actions.
pub type CardWarError = game_traits::GameError<Action>;
