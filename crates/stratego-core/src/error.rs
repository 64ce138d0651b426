//! Errors of the engine.

use thiserror::Error;

/// Why an action, a rule set, a setup, an observation or a stored state was
/// refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StrategoError {
    /// The rule options do not fit together.
    #[error("invalid rules: {0}")]
    Rules(String),
    /// The action is not legal now.
    #[error("illegal action {0}")]
    IllegalAction(String),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// A setup is malformed.
    #[error("invalid setup: {0}")]
    Setup(String),
    /// An observation is inconsistent (for instance tampered with).
    #[error("inconsistent observation: {0}")]
    Observation(String),
    /// A stored state is inconsistent.
    #[error("inconsistent state: {0}")]
    State(String),
}
