//! Errors.

use crate::action::Action;

/// Why an action, a rule set, a state, an observation or a position was
/// refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BattleLineError {
    /// The action is not legal now; the state is unchanged.
    #[error("illegal action {action}: {reason}")]
    IllegalAction {
        /// The refused action.
        action: Action,
        /// Why it is refused.
        reason: &'static str,
    },
    /// The rules are inconsistent.
    #[error("invalid rules: {0}")]
    InvalidRules(&'static str),
    /// A deserialised state contradicts itself.
    #[error("invalid state: {0}")]
    InvalidState(&'static str),
    /// An observation contradicts itself: no state gives it.
    #[error("invalid observation: {0}")]
    InvalidObservation(&'static str),
    /// A position given to the [`PositionBuilder`](crate::PositionBuilder)
    /// or in [notation](crate::BattleLine::from_notation) is malformed or
    /// contradicts itself.
    #[error("invalid position: {0}")]
    InvalidPosition(&'static str),
}
