//! Why the match service refuses: [`MatchError`], one case per refusal,
//! returned by the rooms, the lobby, the players and the match service.
//! Nothing here knows HTTP: the HTTP layer maps every case to a status
//! and a `kind` in one place (`http/error.rs`). The errors a refusal
//! carries live here too ([`PlayerError`], [`ReplayError`]), so that this
//! module imports no other of the server's but the store's error and the
//! clock's and the policies' reasons.

use game_env::EnvError;
use game_traits::PlayerId;

use crate::clock::ControlError;
use crate::policies::PolicySeatError;
use crate::seat::SeatError;
use crate::store::StoreError;

/// Why a request to the match service was refused, or failed.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A seat description that does not parse (the seat's reason).
    #[error(transparent)]
    BadSeat(#[from] SeatError),
    /// Not two seats.
    #[error("seats: expected 2 seats, got {0}")]
    SeatCount(usize),
    /// A bot the game has not (a missing heuristic), or a program at rules
    /// its protocol does not play.
    #[error("{0}")]
    UnplayableSeat(EnvError),
    /// A policy the server has not, or one trained on another game.
    #[error("{0}")]
    UnplayablePolicy(PolicySeatError),
    /// A time control out of its bounds.
    #[error("{0}")]
    TimeControl(ControlError),
    /// The registry refused the game specification.
    #[error("{0}")]
    Game(EnvError),
    /// The engine refused (an action unknown or illegal, no decision
    /// now), or failed.
    #[error(transparent)]
    Engine(#[from] EnvError),
    /// The match is over.
    #[error("the match is over")]
    Over,
    /// Another seat is to move.
    #[error("it is not your turn: {0} is to move")]
    NotYourTurn(PlayerId),
    /// Nobody decides now (chance is due).
    #[error("no player decides now")]
    NobodyToMove,
    /// The seat's time ran out: the move came after its flag, which fell.
    #[error("the match is over: {0}'s time ran out")]
    TimeRanOut(PlayerId),
    /// No seat of the match waits for a person.
    #[error("no seat of this match is open: it is taken or the match is over")]
    NoOpenSeat,
    /// An unlisted seat taken without its invitation.
    #[error("the seat is open to its invitation only")]
    NotInvited,
    /// A draw offered to a bot.
    #[error("the other seat is a bot: bots do not take draw offers")]
    BotOpponent,
    /// A draw offered while the other seat waits for a person.
    #[error("nobody sits in the other seat yet")]
    SeatStillOpen,
    /// A draw declined where none is offered.
    #[error("no draw is offered")]
    NoDrawOffered,
    /// A rematch asked for before the match ended.
    #[error("a rematch is offered once the match is over")]
    RematchTooEarly,
    /// The rematch's seat for this person is taken.
    #[error("the rematch is already taken: open it from its link")]
    RematchTaken,
    /// A rematch created without a seat for a person.
    #[error("the rematch has no seat for a person")]
    RematchWithoutPerson,
    /// The full view of a replay asked for before the match ended.
    #[error("the full view opens once the match is over")]
    FullViewTooEarly,
    /// A seat's view of a replay asked for, before the match ended, by
    /// anyone but that seat.
    #[error("a seat's view of a running match is that seat's only")]
    NotYourView,
    /// A token that is none of the match's seats.
    #[error("the token is none of this match's seats")]
    NotASeat,
    /// The record asked for before the match ended.
    #[error("the record opens once the match is over (it holds every hidden card)")]
    RecordTooEarly,
    /// The notation asked for before the match ended.
    #[error("the notation opens once the match is over")]
    NotationTooEarly,
    /// The client has as many unfinished matches in memory as it may;
    /// it may try again in `retry_after` seconds.
    #[error(
        "this client has {most} unfinished matches, as many as it may: finish one or leave one idle"
    )]
    TooManyMatches {
        /// How many it may have.
        most: usize,
        /// Seconds until one may have gone idle.
        retry_after: u64,
    },
    /// As many matches wait for a person as the lobby holds.
    #[error("{0} matches wait for a person already")]
    LobbyFull(usize),
    /// The client has as many seats waiting in the lobby as it may.
    #[error(
        "this client has {most} seats waiting for a person, as many as it may: wait until one is taken"
    )]
    TooManySeats {
        /// How many it may have.
        most: usize,
    },
    /// Another server process holds the match (a bot decides there).
    #[error("match {0} is busy in another server process")]
    Busy(i64),
    /// A record given to import does not replay.
    #[error(transparent)]
    Record(#[from] ReplayError),
    /// The database failed; nothing was acknowledged.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The operating system gave no randomness for a token or a seed.
    #[error(transparent)]
    NoRandomness(#[from] rand::rand_core::OsError),
    /// A player or a rated match refused.
    #[error(transparent)]
    Player(#[from] PlayerError),
}

impl MatchError {
    /// A failure of ours (a view that cannot be serialised, a task that
    /// panicked) described by `what`.
    pub fn internal(what: impl std::fmt::Display) -> MatchError {
        MatchError::Engine(EnvError::Internal(what.to_string()))
    }
}

/// Why a player or a rated match was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerError {
    /// A name of the wrong length or with a character not allowed.
    #[error("name: {0}")]
    BadName(String),
    /// Someone has this name already (compared without case).
    #[error("the name {0:?} is taken")]
    NameTaken(String),
    /// A player key that is no player's.
    #[error("no player has this key: pick a name again")]
    UnknownKey,
    /// A rated match that cannot be: a person without a key, a seat that
    /// is no player (a `cmd:` program), or one player in both seats.
    #[error("this match cannot be rated: {0}")]
    Unratable(String),
}

/// A stored record that does not replay: the engine refused one of its
/// actions.
#[derive(Debug, Clone, thiserror::Error)]
#[error("match {id}: step {step} (action {action}) does not replay: {error}")]
pub struct ReplayError {
    /// The match.
    pub id: i64,
    /// The step refused.
    pub step: usize,
    /// Its action id.
    pub action: usize,
    /// The engine's refusal.
    #[source]
    pub error: EnvError,
}
