//! The error vocabulary every game shares: one enum, generic over the
//! game's action, so that every game refuses an action, a rule set, a
//! state, an observation, a position or a setup in the same words and with
//! the same fields.

/// Why an action, a rule set, a state, an observation, a position or a
/// setup was refused. Each game names it for its action
/// (`pub type BattleLineError = GameError<Action>`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GameError<A> {
    /// The action is not legal now; the state is unchanged.
    #[error("illegal action {action}: {reason}")]
    IllegalAction {
        /// The refused action.
        action: A,
        /// Why it is refused.
        reason: &'static str,
    },
    /// The rule set is out of range or its options do not fit together.
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
    /// A setup (an army's starting placement, in games that have one) does
    /// not fit the rules.
    #[error("invalid setup: {0}")]
    InvalidSetup(&'static str),
}

/// Why a text is not a card, a piece, a square or another of a game's
/// small values: what was expected, and what was given. The parsers of
/// those values return it, so that reading a card does not claim to be a
/// refused position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{given:?} is not {expected}")]
pub struct ParseError {
    /// What the text should have been, in words (`"a card such as R7 or
    /// FOG"`).
    pub expected: &'static str,
    /// The text given (cut to 40 characters).
    pub given: String,
}

impl ParseError {
    /// `given` is not `expected`.
    pub fn new(expected: &'static str, given: &str) -> Self {
        ParseError {
            expected,
            given: given.chars().take(40).collect(),
        }
    }
}
