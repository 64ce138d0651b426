//! Errors of the engine: the error vocabulary every game crate of the
//! workspace shares.

use crate::action::Action;

/// Why an action, a rule set, a state, an observation or a position was
/// refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CardWarError {
    /// The action is not legal now; the state is unchanged.
    #[error("illegal action {action}: {reason}")]
    IllegalAction {
        /// The refused action.
        action: Action,
        /// Why it is refused.
        reason: &'static str,
    },
    /// The rule set is out of range.
    #[error("invalid rules: {0}")]
    InvalidRules(&'static str),
    /// A deserialised state breaks an invariant.
    #[error("invalid state: {0}")]
    InvalidState(&'static str),
    /// An observation breaks an invariant, or no state fits it.
    #[error("invalid observation: {0}")]
    InvalidObservation(&'static str),
    /// A built position or a notation string is malformed or breaks a
    /// rule.
    #[error("invalid position: {0}")]
    InvalidPosition(&'static str),
}
