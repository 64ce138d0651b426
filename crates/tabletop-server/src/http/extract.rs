//! What a route reads from a request before it runs, each a refusal of
//! its own when it cannot: the match of the path ([`MatchAt`]), the seat
//! of the token that must come with a seat's action ([`Seated`]), a read
//! before the match is loaded ([`Reader`]), and a JSON body ([`JsonBody`]).
//! Axum runs them in the order of the handler's arguments, so a route
//! refuses an unknown match (404) before a missing token (401), a token of
//! another match (403) before a bad body (4xx).

use std::marker::PhantomData;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use game_traits::PlayerId;
use serde::de::{DeserializeOwned, IgnoredAny};

use crate::client::ClientKey;
use crate::http::error::ApiError;
use crate::http::hygiene::{client_of, require_json};
use crate::memory::Cell;
use crate::server::Server;
use crate::token::Token;

impl<S: Send + Sync> FromRequestParts<S> for ClientKey {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<ClientKey, Self::Rejection> {
        Ok(client_of(&parts.extensions))
    }
}

/// A read of the match named by the path's `{id}`, before it is loaded:
/// its id, the client, and the request's `Authorization` header, read by
/// [`Reader::token`] once the match is known to exist (an unknown match
/// is a 404 before a bad header is a 401). A finished match is read from
/// the store (`src/archive.rs`); [`Reader::cell`] loads any other.
pub struct Reader {
    /// The match's id.
    pub id: i64,
    /// Who asks.
    pub client: ClientKey,
    /// The path's id as given, cut short, for the 404.
    short: String,
    authorization: Option<HeaderValue>,
}

impl FromRequestParts<Arc<Server>> for Reader {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        server: &Arc<Server>,
    ) -> Result<Reader, ApiError> {
        let Path(id) = Path::<String>::from_request_parts(parts, server)
            .await
            .map_err(|r| ApiError::Http(r.status()))?;
        let short = id.chars().take(40).collect::<String>();
        let id: i64 = id.parse().map_err(|_| ApiError::NoMatch(short.clone()))?;
        Ok(Reader {
            id,
            client: client_of(&parts.extensions),
            short,
            authorization: parts.headers.get(header::AUTHORIZATION).cloned(),
        })
    }
}

impl Reader {
    /// The token of the request's `Authorization` header, if one came.
    pub fn token(&self) -> Result<Option<Token>, ApiError> {
        bearer_value(self.authorization.as_ref())
    }

    /// The match, from memory or rebuilt from its record; a 404 if there
    /// is none.
    pub async fn cell(&self, server: &Arc<Server>) -> Result<Arc<Cell>, ApiError> {
        server
            .cell(self.id)
            .await?
            .ok_or_else(|| ApiError::NoMatch(self.short.clone()))
    }
}

/// The match named by the path's `{id}`, from memory or rebuilt from its
/// record; a 404 if there is none.
pub struct MatchAt(pub Arc<Cell>);

impl FromRequestParts<Arc<Server>> for MatchAt {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        server: &Arc<Server>,
    ) -> Result<MatchAt, ApiError> {
        let read = Reader::from_request_parts(parts, server).await?;
        Ok(MatchAt(read.cell(server).await?))
    }
}

/// What a seat does on a route, named in the refusal of a request that
/// brings no token.
pub trait SeatAction {
    /// "playing", "resigning", ...
    const WHAT: &'static str;
}

/// Playing an action (`POST /api/matches/{id}/actions`).
pub struct Playing;
/// Resigning (`POST /api/matches/{id}/resign`).
pub struct Resigning;
/// Offering, taking or declining a draw (`POST /api/matches/{id}/draw`).
pub struct DrawOffer;
/// Asking for a rematch (`POST /api/matches/{id}/rematch`).
pub struct Rematch;

impl SeatAction for Playing {
    const WHAT: &'static str = "playing";
}
impl SeatAction for Resigning {
    const WHAT: &'static str = "resigning";
}
impl SeatAction for DrawOffer {
    const WHAT: &'static str = "a draw offer";
}
impl SeatAction for Rematch {
    const WHAT: &'static str = "a rematch";
}

/// The match of the path and the seat whose token came with
/// `Authorization: Bearer TOKEN`, which a seat's action `A` needs (401
/// without it, 403 for a token of no seat of this match).
pub struct Seated<A> {
    /// The match.
    pub cell: Arc<Cell>,
    /// The seat acting.
    pub seat: PlayerId,
    action: PhantomData<A>,
}

impl<A: SeatAction> FromRequestParts<Arc<Server>> for Seated<A> {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        server: &Arc<Server>,
    ) -> Result<Seated<A>, ApiError> {
        let MatchAt(cell) = MatchAt::from_request_parts(parts, server).await?;
        let token = bearer(&parts.headers)?.ok_or_else(|| {
            ApiError::Unauthorized(format!("{} needs `Authorization: Bearer TOKEN`", A::WHAT))
        })?;
        let seat = seat_of(&cell, Some(token))
            .await?
            .ok_or(ApiError::Forbidden)?;
        Ok(Seated {
            cell,
            seat,
            action: PhantomData,
        })
    }
}

/// The token of `Authorization: Bearer TOKEN`, if the header is there.
pub fn bearer(headers: &HeaderMap) -> Result<Option<Token>, ApiError> {
    bearer_value(headers.get(header::AUTHORIZATION))
}

fn bearer_value(value: Option<&HeaderValue>) -> Result<Option<Token>, ApiError> {
    let Some(value) = value else {
        return Ok(None);
    };
    let bad = || {
        ApiError::Unauthorized(
            "the Authorization header must be `Bearer TOKEN` with the seat's 32 hex digits".into(),
        )
    };
    let text = value.to_str().map_err(|_| bad())?;
    let token = text
        .strip_prefix("Bearer ")
        .map(str::trim)
        .and_then(Token::parse)
        .ok_or_else(bad)?;
    Ok(Some(token))
}

/// The seat of `cell` that `token` opens (`None` without a token); a
/// token of no seat is refused.
pub async fn seat_of(cell: &Cell, token: Option<Token>) -> Result<Option<PlayerId>, ApiError> {
    match token {
        None => Ok(None),
        Some(t) => {
            let room = cell.room().read().await;
            room.seat_of(&t).map(Some).ok_or(ApiError::Forbidden)
        }
    }
}

/// A JSON object body (declared `application/json`) read into `T`, every
/// failure a 4xx with the reason. Every body of the API is an object: an
/// array or a scalar is refused (400, `bad_request`), where serde would
/// read an array into `T`'s fields in order (`[3]` as `{"action": 3}`).
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<JsonBody<T>, ApiError> {
        require_json(req.headers())?;
        let bytes = Bytes::from_request(req, state).await.map_err(|r| {
            if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::TooLarge(format!(
                    "the body is larger than the limit: {}",
                    r.body_text()
                ))
            } else if timed_out(&r) {
                ApiError::Http(StatusCode::REQUEST_TIMEOUT)
            } else {
                ApiError::BadRequest(r.body_text())
            }
        })?;
        // JSON's whitespace, then the object's brace: any other first
        // byte is another value, or no JSON (serde's reason then).
        let first = bytes
            .iter()
            .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
        if first.is_some_and(|b| *b != b'{') && serde_json::from_slice::<IgnoredAny>(&bytes).is_ok()
        {
            return Err(ApiError::BadRequest(
                "the body must be a JSON object".into(),
            ));
        }
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|e| ApiError::BadRequest(format!("bad JSON body: {e}")))
    }
}

/// Whether `error` or one of its sources is tower-http's body timeout.
fn timed_out(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(e) = cause {
        if e.is::<tower_http::timeout::TimeoutError>() {
            return true;
        }
        cause = e.source();
    }
    false
}
