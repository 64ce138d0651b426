//! Errors.

use crate::action::Action;
use crate::flag::FlagError;

/// Why an action, a rule set, a state or an observation was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BattleLineError {
    /// The action is not legal now.
    #[error("illegal action {action}: {reason}")]
    Illegal {
        /// The action.
        action: Action,
        /// Why.
        reason: &'static str,
    },
    /// A flag refused the card.
    #[error("flag refused the action: {0}")]
    Flag(#[from] FlagError),
    /// The rules are inconsistent.
    #[error("invalid rules")]
    InvalidRules,
    /// A deserialised state contradicts itself.
    #[error("invalid state: {0}")]
    InvalidState(&'static str),
    /// An observation contradicts itself.
    #[error("invalid observation: {0}")]
    InvalidObservation(&'static str),
}
