//! The routes of matches between people: the lobby's list, opening a
//! match with a seat left for a person, joining it, and the rematch.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use game_traits::PlayerId;
use serde::Deserialize;

use crate::client::ClientKey;
use crate::clock::{Asked, Word};
use crate::http::error::ApiError;
use crate::http::extract::{JsonBody, MatchAt, Rematch, Seated};
use crate::http::respond::private;
use crate::token::Token;
use crate::Server;

/// `GET /api/lobby`: the listed matches waiting for a person, each with
/// whether it is rated.
pub(super) async fn listed(State(server): State<Arc<Server>>) -> Result<Response, ApiError> {
    let listed = server.listed().await?;
    let ids: Vec<i64> = listed.iter().map(|l| l.id).collect();
    let rated = server.rated_among(ids).await?;
    let open = listed
        .iter()
        .map(|l| super::players::with_rated(l, rated.contains(&l.id)))
        .collect::<Result<Vec<_>, _>>()?;
    private(
        StatusCode::OK,
        &serde_json::json!({ "open": open }),
        "serialising the lobby",
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct OpenBody {
    game: String,
    #[serde(default)]
    rated: bool,
    player: Option<String>,
    seat: u8,
    #[serde(default)]
    listed: bool,
    seed: Option<u64>,
    /// Untimed when absent.
    time_control: Option<Asked>,
}

/// `POST /api/lobby`: a match with the other seat left for a person.
pub(super) async fn open(
    State(server): State<Arc<Server>>,
    client: ClientKey,
    JsonBody(req): JsonBody<OpenBody>,
) -> Result<Response, ApiError> {
    let seat = PlayerId::from_index(usize::from(req.seat))
        .ok_or_else(|| ApiError::BadRequest(format!("seat: expected 0 or 1, got {}", req.seat)))?;
    let humans = ["human".to_owned(), "human".to_owned()];
    let players = server
        .players_for(
            &humans,
            req.rated,
            req.player.as_deref(),
            Some(seat.other()),
        )
        .await?;
    let taken = server
        .open_match(
            client,
            &req.game,
            seat,
            req.listed,
            req.seed,
            req.time_control.unwrap_or(Asked::Word(Word::None)),
        )
        .await?;
    let rated = server.mark_rated(taken.id, players).await?;
    let answer = super::players::with_rated(&taken, rated)?;
    private(StatusCode::CREATED, &answer, "serialising a seat")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct JoinBody {
    invite: Option<String>,
    player: Option<String>,
}

/// `POST /api/matches/{id}/join`: takes the seat left open.
pub(super) async fn join(
    State(server): State<Arc<Server>>,
    MatchAt(cell): MatchAt,
    JsonBody(req): JsonBody<JoinBody>,
) -> Result<Response, ApiError> {
    let invite = match req.invite.as_deref() {
        None => None,
        Some(text) => Some(Token::parse(text).ok_or_else(|| {
            ApiError::BadRequest("invite must be the invitation's 32 hex digits".into())
        })?),
    };
    let id = cell.room().read().await.id();
    let player = server.joining(id, req.player.as_deref()).await?;
    let taken = server.join(&cell, invite).await?;
    server.joined(id, taken.seat, player).await?;
    private(StatusCode::OK, &taken, "serialising a seat")
}

/// `POST /api/matches/{id}/rematch`.
pub(super) async fn rematch(
    State(server): State<Arc<Server>>,
    client: ClientKey,
    Seated { cell, seat, .. }: Seated<Rematch>,
) -> Result<Response, ApiError> {
    let taken = server.rematch(client, &cell, seat).await?;
    private(StatusCode::OK, &taken, "serialising a seat")
}
