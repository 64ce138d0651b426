//! Errors of the dynamic API and the batched environment.

use std::time::Duration;

/// Why a call of the dynamic API or the batched environment was refused.
/// Every variant carries fields, not prose: a client (the server, Python,
/// a bot referee) reads which case it is and its data, and the message is
/// for people only.
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
    /// The engine refused the action; the state is unchanged.
    #[error("illegal action {action} (id {id}): {reason}")]
    IllegalAction {
        /// The action's id.
        id: usize,
        /// The action in the game's notation.
        action: String,
        /// The engine's reason.
        reason: String,
    },
    /// An action given by its text or its wire struct names no action of
    /// the game under these rules.
    #[error("no action of this game is {given:?}: {reason}")]
    UnknownAction {
        /// What was given (the text, or the struct's JSON).
        given: String,
        /// Why it names none.
        reason: String,
    },
    /// The engine refused the rules.
    #[error("invalid rules: {0}")]
    InvalidRules(String),
    /// A serialised state or record was refused.
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
    /// A bot (built in, or a program) failed to decide.
    #[error("bot {bot} failed: {failure}")]
    Bot {
        /// The bot's name.
        bot: String,
        /// How it failed.
        failure: BotFailure,
    },
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
    /// A failure of ours, not of the caller's input (a worker pool that
    /// cannot start, a value that cannot be serialised): a bug or a
    /// resource limit, reported rather than hidden.
    #[error("internal error: {0}")]
    Internal(String),
}

/// How a bot failed to decide. A bot that fails forfeits its game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BotFailure {
    /// The program could not be started.
    #[error("cannot start {program:?}: {reason}")]
    Spawn {
        /// The program.
        program: String,
        /// The system's reason.
        reason: String,
    },
    /// No answer within the time limit.
    #[error("no answer within {0:?}")]
    Timeout(Duration),
    /// The program closed its output or exited.
    #[error("the bot exited or closed its output")]
    Exited,
    /// An answer the protocol cannot read.
    #[error("unreadable answer {0:?}")]
    Garbage(String),
    /// An action id that is not among the legal ones.
    #[error("illegal action id {0}: not among the legal ids")]
    Illegal(u64),
    /// A readable answer of a text protocol that names no legal action.
    #[error("illegal answer {answer:?}: {reason}")]
    IllegalAnswer {
        /// The answer.
        answer: String,
        /// Why it is illegal.
        reason: String,
    },
    /// The bot's input could not be written.
    #[error("cannot write to the bot: {0}")]
    Write(String),
    /// The bot was asked while nobody decides.
    #[error("no player decides now")]
    NoDecision,
    /// The bot plays another game than the state's.
    #[error("the bot plays another game")]
    WrongGame,
    /// The bot resigned: a protocol's own word for giving the game up
    /// (the UCC protocol's `SURRENDER`), a loss like any other failure
    /// but not a fault.
    #[error("the bot resigned")]
    Resigned,
}
