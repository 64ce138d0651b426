//! Errors of the dynamic API and the batched environment.

/// Why a call of the dynamic API or the batched environment was refused.
/// The engine's own error, where there is one, is kept as its message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EnvError {
    /// The id names no action of the game's action space.
    #[error("action id {id} is outside the action space of {space}")]
    UnknownActionId {
        /// The id given.
        id: usize,
        /// The size of the space.
        space: usize,
    },
    /// A text that names no action of the game (the game's parse error).
    #[error("{reason}")]
    UnreadableAction {
        /// The text given.
        text: String,
        /// Why it names no action.
        reason: String,
    },
    /// The engine refused the action; the state is unchanged.
    #[error("{0}")]
    IllegalAction(String),
    /// The engine refused the rules.
    #[error("invalid rules: {0}")]
    InvalidRules(String),
    /// A serialised state or observation was refused.
    #[error("invalid state: {0}")]
    InvalidState(String),
    /// Determinisation refused the observation.
    #[error("invalid observation: {0}")]
    InvalidObservation(String),
    /// A buffer has the wrong length.
    #[error("the {name} buffer holds {given} values, {expected} needed")]
    BufferSize {
        /// Which buffer.
        name: &'static str,
        /// Its length.
        given: usize,
        /// The length needed.
        expected: usize,
    },
    /// A seat index other than 0 or 1.
    #[error("seat {0} is not 0 or 1")]
    UnknownSeat(usize),
    /// The game is over (or at a chance event) and takes no decision.
    #[error("no player decides now")]
    NoDecision,
    /// The opponent chose an action the engine refused: a bug in the bot.
    #[error("the opponent bot chose an illegal action")]
    OpponentIllegal,
    /// A game name the registry does not know.
    #[error("unknown game {given:?}; known: {known}")]
    UnknownGame {
        /// The name given.
        given: String,
        /// The registered names, comma-separated.
        known: String,
    },
    /// A parameter the game does not have.
    #[error("{game} has no parameter {given:?}; its parameters: {known}")]
    UnknownParameter {
        /// The game.
        game: String,
        /// The parameter given.
        given: String,
        /// Its parameters, comma-separated.
        known: String,
    },
    /// A parameter value that does not fit the parameter.
    #[error("{game}: bad value {value:?} for {name}: {reason}")]
    BadParameter {
        /// The game.
        game: String,
        /// The parameter.
        name: String,
        /// The value given.
        value: String,
        /// Why it does not fit.
        reason: String,
    },
    /// A game specification that is not `name` or `name(key=value,...)`.
    #[error("bad game specification {0:?}: expected name or name(key=value,...)")]
    BadSpec(String),
}
