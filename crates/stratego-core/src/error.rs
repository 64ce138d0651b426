//! Errors of the engine.

use crate::action::Action;

/// Why an action, a rule set, a setup, a position, an observation or a
/// stored state was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StrategoError {
    /// The action is not legal now; the state is unchanged.
    #[error("illegal action {action}: {reason}")]
    IllegalAction {
        /// The refused action.
        action: Action,
        /// Why it is refused.
        reason: &'static str,
    },
    /// The rule options do not fit together.
    #[error("invalid rules: {0}")]
    InvalidRules(&'static str),
    /// A stored (deserialised) state is inconsistent.
    #[error("invalid state: {0}")]
    InvalidState(&'static str),
    /// An observation is inconsistent (for instance tampered with).
    #[error("invalid observation: {0}")]
    InvalidObservation(&'static str),
    /// A setup is malformed.
    #[error("invalid setup: {0}")]
    InvalidSetup(&'static str),
    /// A position given to the [`PositionBuilder`](crate::PositionBuilder)
    /// or in notation is malformed or breaks a rule.
    #[error("invalid position: {0}")]
    InvalidPosition(&'static str),
}
