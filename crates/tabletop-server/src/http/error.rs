//! The server's errors in HTTP terms, mapped here and nowhere else: each a
//! 4xx (a 503 when the database fails, a 500 for our own failures) with a
//! JSON body `{"error": message, "status": code, "kind": KIND}`, and for
//! an action the engine refused also its `id`, `action` and `reason`:
//! clients read the fields, the message is for people. A 5xx of our own
//! failures answers a fixed message and logs the failure's text. The match service
//! refuses with a [`MatchError`], one case per refusal, and the engines
//! with an [`EnvError`]; each becomes an [`ApiError`] by the `From` impls
//! below, the only place that knows their status and kind.

use game_env::EnvError;

use crate::refusal::{MatchError, PlayerError, ReplayError};
use crate::setups::SetupError;
use crate::store::StoreError;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

/// Why a request was refused.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Malformed JSON, a missing or unknown field, a bad seat or budget.
    #[error("{0}")]
    BadRequest(String),
    /// The game specification was refused by the registry.
    #[error("{0}")]
    Game(EnvError),
    /// No match with this id.
    #[error("no match {0:?}")]
    NoMatch(String),
    /// No route here.
    #[error("no such resource: {0}")]
    NotFound(String),
    /// No `Authorization: Bearer TOKEN` where one is needed, or a header
    /// that is not of that form.
    #[error("{0}")]
    Unauthorized(String),
    /// A token that is none of this match's seats.
    #[error("the token is not a seat of this match")]
    Forbidden,
    /// The seat is not to move, or the match is over.
    #[error("{0}")]
    Conflict(String),
    /// The engine refused the action (its reason); nothing changed.
    #[error("{0}")]
    Illegal(EnvError),
    /// The body is larger than the limit.
    #[error("{0}")]
    TooLarge(String),
    /// A body that is not declared `application/json` where JSON is read.
    #[error("{0}")]
    NotJson(String),
    /// A `Host` header naming a host this server does not answer for.
    #[error("this server does not answer for host {0:?}")]
    BadHost(String),
    /// A limit of this client or of the server is reached; try again in
    /// `retry_after` seconds (sent as `Retry-After`).
    #[error("{message}")]
    TooMany {
        /// Which limit.
        message: String,
        /// Seconds until a new try may pass.
        retry_after: u64,
    },
    /// The server is stopping, or its database does not answer.
    #[error("{0}")]
    Unavailable(String),
    /// A refusal by the HTTP layers (a wrong method, a body too slow, ...)
    /// that came without a body: answered with this error's JSON.
    #[error("{}", .0.canonical_reason().unwrap_or("refused"))]
    Http(StatusCode),
    /// A record given to import does not replay.
    #[error("{0}")]
    Record(#[from] ReplayError),
    /// The database failed; nothing was acknowledged.
    #[error("storage failed: {0}")]
    Storage(#[from] StoreError),
    /// The operating system gave no randomness for a token or a seed:
    /// nothing was created, and the client may try again (a 503 with the
    /// kind `storage`, like a database that cannot take the match now).
    #[error("no randomness for a token or a seed: {0}")]
    NoRandomness(#[from] rand::rand_core::OsError),
    /// A player or a rated match refused.
    #[error(transparent)]
    Player(#[from] PlayerError),
    /// A failure of ours (a view that cannot be serialised, a bot task that
    /// panicked): reported, never answered with an empty body.
    #[error("internal error: {0}")]
    Internal(EnvError),
}

/// The dynamic API's refusals in HTTP terms, in one place.
impl From<EnvError> for ApiError {
    fn from(e: EnvError) -> Self {
        match e {
            EnvError::UnknownActionId { .. }
            | EnvError::IllegalAction { .. }
            | EnvError::UnknownAction { .. } => ApiError::Illegal(e),
            EnvError::NoDecision => ApiError::Conflict(e.to_string()),
            EnvError::UnknownGame { .. }
            | EnvError::UnknownParameter { .. }
            | EnvError::BadParameter { .. }
            | EnvError::BadSpec(_)
            | EnvError::InvalidRules(_) => ApiError::Game(e),
            EnvError::InvalidState(_) | EnvError::InvalidObservation(_) => {
                ApiError::BadRequest(e.to_string())
            }
            _ => ApiError::Internal(e),
        }
    }
}

/// The match service's refusals in HTTP terms, in one place: each
/// conflict a 409 with its reason, each refusal of the request a 400.
impl From<MatchError> for ApiError {
    fn from(e: MatchError) -> Self {
        match e {
            MatchError::BadSeat(_)
            | MatchError::SeatCount(_)
            | MatchError::UnplayableSeat(_)
            | MatchError::UnplayablePolicy(_)
            | MatchError::TimeControl(_) => ApiError::BadRequest(e.to_string()),
            MatchError::Game(e) => ApiError::Game(e),
            MatchError::Engine(e) => ApiError::from(e),
            MatchError::Over
            | MatchError::NotYourTurn(_)
            | MatchError::NobodyToMove
            | MatchError::TimeRanOut(_)
            | MatchError::NoOpenSeat
            | MatchError::BotOpponent
            | MatchError::SeatStillOpen
            | MatchError::NoDrawOffered
            | MatchError::RematchTooEarly
            | MatchError::RematchTaken
            | MatchError::RematchWithoutPerson
            | MatchError::FullViewTooEarly
            | MatchError::RecordTooEarly
            | MatchError::NotationTooEarly => ApiError::Conflict(e.to_string()),
            MatchError::NotInvited | MatchError::NotYourView | MatchError::NotASeat => {
                ApiError::Forbidden
            }
            MatchError::TooManyMatches { retry_after, .. } => ApiError::TooMany {
                message: e.to_string(),
                retry_after,
            },
            MatchError::LobbyFull(_) | MatchError::TooManySeats { .. } => ApiError::TooMany {
                message: e.to_string(),
                retry_after: 60,
            },
            MatchError::Busy(_) => ApiError::Unavailable(e.to_string()),
            MatchError::Record(e) => ApiError::Record(e),
            MatchError::Store(e) => ApiError::Storage(e),
            MatchError::NoRandomness(e) => ApiError::NoRandomness(e),
            MatchError::Player(e) => ApiError::Player(e),
        }
    }
}

/// A setup suggestion refused (a 400) or failed (a 500).
impl From<SetupError> for ApiError {
    fn from(e: SetupError) -> Self {
        match e {
            SetupError::NoSetup(_) => ApiError::BadRequest(e.to_string()),
            SetupError::Engine(e) => ApiError::Internal(e),
        }
    }
}

impl ApiError {
    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) | ApiError::Game(_) | ApiError::Record(_) => {
                StatusCode::BAD_REQUEST
            }
            ApiError::NoMatch(_) | ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden => StatusCode::FORBIDDEN,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Illegal(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::NotJson(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::BadHost(_) => StatusCode::MISDIRECTED_REQUEST,
            ApiError::TooMany { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Http(status) => *status,
            ApiError::Storage(_) | ApiError::NoRandomness(_) | ApiError::Unavailable(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Player(e) => match e {
                PlayerError::BadName(_) | PlayerError::Unratable(_) => StatusCode::BAD_REQUEST,
                PlayerError::NameTaken(_) => StatusCode::CONFLICT,
                PlayerError::UnknownKey => StatusCode::FORBIDDEN,
            },
        }
    }

    /// The case as a client reads it.
    pub fn kind(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) | ApiError::Record(_) => "bad_request",
            ApiError::Game(_) => "bad_game",
            ApiError::NoMatch(_) => "no_match",
            ApiError::NotFound(_) => "not_found",
            ApiError::Unauthorized(_) => "unauthorized",
            ApiError::Forbidden => "forbidden",
            ApiError::Conflict(_) => "conflict",
            ApiError::Illegal(EnvError::IllegalAction { .. }) => "illegal_action",
            ApiError::Illegal(_) => "unknown_action",
            ApiError::TooLarge(_) => "too_large",
            ApiError::NotJson(_) => "not_json",
            ApiError::BadHost(_) => "bad_host",
            ApiError::TooMany { .. } => "too_many",
            ApiError::Unavailable(_) => "unavailable",
            ApiError::Http(status) => match status.as_u16() {
                405 => "method_not_allowed",
                408 => "timeout",
                413 => "too_large",
                415 => "not_json",
                429 => "too_many",
                s if s >= 500 => "internal",
                _ => "bad_request",
            },
            ApiError::Storage(_) | ApiError::NoRandomness(_) => "storage",
            ApiError::Internal(_) => "internal",
            ApiError::Player(e) => match e {
                PlayerError::BadName(_) => "bad_name",
                PlayerError::NameTaken(_) => "name_taken",
                PlayerError::UnknownKey => "unknown_player",
                PlayerError::Unratable(_) => "unratable",
            },
        }
    }

    /// The message a client reads: the error's own, but for a failure of
    /// the database, the operating system or the server, whose text (a
    /// query, a path, an engine's state) is logged here, never answered.
    fn public_message(&self) -> String {
        let fixed = match self {
            ApiError::Storage(_) => "the database failed: nothing was acknowledged, try again",
            ApiError::NoRandomness(_) => {
                "no randomness for a token or a seed: nothing was created, try again"
            }
            ApiError::Internal(_) => "internal error (logged by the server)",
            _ => return self.to_string(),
        };
        tracing::error!(kind = self.kind(), error = %self, "answered {}", self.status());
        fixed.into()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let mut body = serde_json::json!({
            "error": self.public_message(),
            "status": status.as_u16(),
            "kind": self.kind(),
        });
        if let ApiError::Illegal(EnvError::IllegalAction { id, action, reason }) = &self {
            body["id"] = (*id).into();
            body["action"] = action.as_str().into();
            body["reason"] = reason.as_str().into();
        }
        let mut response = (status, Json(body)).into_response();
        if let ApiError::TooMany { retry_after, .. } = &self {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(*retry_after));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use game_traits::PlayerId;

    use super::*;

    #[tokio::test]
    async fn a_5xx_of_our_own_failures_keeps_its_kind_and_not_its_text() {
        let secret = "no such table: matches (/srv/tabletop.db)";
        let query = rusqlite::Error::InvalidParameterName(secret.into());
        let cases = [
            ApiError::Storage(StoreError::Query {
                op: "appending actions",
                source: query.into(),
            }),
            ApiError::Internal(EnvError::Internal(secret.into())),
            ApiError::from(MatchError::internal(secret)),
        ];
        for e in cases {
            let (status, kind) = (e.status(), e.kind());
            assert!(status.is_server_error(), "{e}");
            let body = axum::body::to_bytes(e.into_response().into_body(), 4096)
                .await
                .unwrap();
            let json: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert_eq!(json["kind"], kind);
            assert_eq!(json["status"], status.as_u16());
            let text = String::from_utf8_lossy(&body);
            assert!(!text.contains("no such table"), "{text}");
            assert!(!text.contains("/srv"), "{text}");
        }
    }

    #[test]
    fn every_conflict_of_the_match_service_is_a_409_with_its_reason() {
        let conflicts = [
            (MatchError::Over, "the match is over"),
            (
                MatchError::NotYourTurn(PlayerId::P1),
                "it is not your turn: P1 is to move",
            ),
            (MatchError::NobodyToMove, "no player decides now"),
            (
                MatchError::TimeRanOut(PlayerId::P0),
                "the match is over: P0's time ran out",
            ),
            (
                MatchError::NoOpenSeat,
                "no seat of this match is open: it is taken or the match is over",
            ),
            (
                MatchError::BotOpponent,
                "the other seat is a bot: bots do not take draw offers",
            ),
            (
                MatchError::SeatStillOpen,
                "nobody sits in the other seat yet",
            ),
            (MatchError::NoDrawOffered, "no draw is offered"),
            (
                MatchError::RematchTooEarly,
                "a rematch is offered once the match is over",
            ),
            (
                MatchError::RematchTaken,
                "the rematch is already taken: open it from its link",
            ),
            (
                MatchError::RematchWithoutPerson,
                "the rematch has no seat for a person",
            ),
            (
                MatchError::FullViewTooEarly,
                "the full view opens once the match is over",
            ),
            (
                MatchError::RecordTooEarly,
                "the record opens once the match is over (it holds every hidden card)",
            ),
            (
                MatchError::NotationTooEarly,
                "the notation opens once the match is over",
            ),
            (
                MatchError::Engine(EnvError::NoDecision),
                &EnvError::NoDecision.to_string(),
            ),
        ];
        for (refusal, reason) in conflicts {
            let e = ApiError::from(refusal);
            assert_eq!(e.status(), StatusCode::CONFLICT, "{reason}");
            assert_eq!(e.kind(), "conflict");
            assert_eq!(e.to_string(), reason);
        }
    }

    #[test]
    fn the_match_services_other_refusals_keep_their_status_and_kind() {
        let cases = [
            (MatchError::NotInvited, 403, "forbidden"),
            (MatchError::NotYourView, 403, "forbidden"),
            (MatchError::NotASeat, 403, "forbidden"),
            (MatchError::SeatCount(3), 400, "bad_request"),
            (
                MatchError::BadSeat(crate::seat::parse("robot", false).unwrap_err()),
                400,
                "bad_request",
            ),
            (MatchError::Busy(7), 503, "unavailable"),
            (MatchError::LobbyFull(1000), 429, "too_many"),
            (MatchError::TooManySeats { most: 10 }, 429, "too_many"),
            (
                MatchError::TooManyMatches {
                    most: 2,
                    retry_after: 9,
                },
                429,
                "too_many",
            ),
            (
                MatchError::Player(PlayerError::NameTaken("ann".into())),
                409,
                "name_taken",
            ),
            (MatchError::internal("a view"), 500, "internal"),
        ];
        for (refusal, status, kind) in cases {
            let text = refusal.to_string();
            let e = ApiError::from(refusal);
            assert_eq!((e.status().as_u16(), e.kind()), (status, kind), "{text}");
        }
        let forbidden = ApiError::from(MatchError::NotInvited).to_string();
        assert_eq!(forbidden, "the token is not a seat of this match");
        let limited = ApiError::from(MatchError::TooManyMatches {
            most: 2,
            retry_after: 9,
        });
        assert!(matches!(limited, ApiError::TooMany { retry_after: 9, .. }));
    }
}
