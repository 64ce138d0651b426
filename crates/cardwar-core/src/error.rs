//! Errors of the engine.

use crate::action::Action;

/// Why an action, a rule set, a state or an observation was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CardWarError {
    /// The rule set is inconsistent.
    #[error("bad rules: {0}")]
    BadRules(&'static str),
    /// The action is not legal now; the state is unchanged.
    #[error("illegal action {0}")]
    IllegalAction(Action),
    /// A deserialised state or observation breaks an invariant.
    #[error("inconsistent state: {0}")]
    Inconsistent(&'static str),
}
