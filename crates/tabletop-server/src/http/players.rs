//! The routes of players: a new person, the players of a match and the
//! leaderboard.

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};

use crate::http::error::ApiError;
use crate::http::extract::{JsonBody, Reader};
use crate::http::query;
use crate::http::respond::internal;
use crate::Server;

/// `value` (an object) with `rated` added: how a match or a seat created
/// is answered, and how the lobby lists a match.
pub(super) fn with_rated<T: Serialize>(
    value: &T,
    rated: bool,
) -> Result<serde_json::Value, ApiError> {
    let mut v = serde_json::to_value(value).map_err(|e| internal("serialising", e))?;
    if let Some(obj) = v.as_object_mut() {
        obj.insert("rated".into(), rated.into());
    }
    Ok(v)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AddBody {
    name: String,
}

/// `POST /api/players`.
pub(super) async fn add(
    State(server): State<Arc<Server>>,
    JsonBody(req): JsonBody<AddBody>,
) -> Result<Response, ApiError> {
    let player = server.add_person(&req.name).await?;
    Ok((StatusCode::CREATED, Json(player)).into_response())
}

/// `GET /api/matches/{id}/players`: a match not in memory is read from
/// the store alone.
pub(super) async fn of_match(
    State(server): State<Arc<Server>>,
    read: Reader,
) -> Result<Response, ApiError> {
    let spec = match server.archived(read.id).await? {
        Some(kept) => kept.spec,
        None => {
            let cell = read.cell(&server).await?;
            let room = cell.room().read().await;
            room.game().name().to_owned()
        }
    };
    Ok(Json(server.match_players(read.id, spec).await?).into_response())
}

#[derive(Deserialize)]
struct BoardQuery {
    game: String,
}

/// `GET /api/leaderboard?game=SPEC`.
pub(super) async fn leaderboard(
    State(server): State<Arc<Server>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let BoardQuery { game } = query::params(query.as_deref(), "?game=SPEC")?;
    Ok(Json(server.leaderboard(&game).await?).into_response())
}
