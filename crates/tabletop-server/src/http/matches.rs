//! The routes of a match: create one, view it, play, resign, offer a
//! draw, and its replay, record and notation.

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::client::ClientKey;
use crate::clock::{Asked, Word};
use crate::http::error::ApiError;
use crate::http::extract::{seat_of, DrawOffer, JsonBody, Playing, Reader, Resigning, Seated};
use crate::http::respond::{private, private_json};
use crate::replay::{self, Viewpoint};
use crate::Server;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CreateBody {
    game: String,
    seats: Vec<String>,
    seed: Option<u64>,
    #[serde(default)]
    rated: bool,
    player: Option<String>,
    /// Untimed when absent.
    time_control: Option<Asked>,
}

/// `POST /api/matches`.
pub(super) async fn create(
    State(server): State<Arc<Server>>,
    client: ClientKey,
    JsonBody(req): JsonBody<CreateBody>,
) -> Result<Response, ApiError> {
    let players = server
        .players_for(&req.seats, req.rated, req.player.as_deref(), None)
        .await?;
    let created = server
        .create(
            client,
            &req.game,
            &req.seats,
            req.seed,
            req.time_control.unwrap_or(Asked::Word(Word::None)),
            true,
        )
        .await?;
    let rated = server.mark_rated(created.id, players).await?;
    let answer = super::players::with_rated(&created, rated)?;
    private(StatusCode::CREATED, &answer, "serialising a match")
}

/// `GET /api/matches/{id}`: a finished match's view as stored, a
/// running one's from memory, or rebuilt outside it when no one plays it
/// in this process now.
pub(super) async fn view(
    State(server): State<Arc<Server>>,
    read: Reader,
) -> Result<Response, ApiError> {
    let outside = match server.archived(read.id).await? {
        Some(kept) if kept.finished => {
            let token = read.token()?;
            server
                .archived_view(read.id, kept, token, read.client)
                .await?
        }
        Some(_) => {
            let token = read.token()?;
            server
                .view_outside_memory(read.id, token, read.client)
                .await?
        }
        None => None,
    };
    if let Some(bytes) = outside {
        return Ok(private_json(StatusCode::OK, bytes));
    }
    let cell = read.cell(&server).await?;
    let seat = seat_of(&cell, read.token()?).await?;
    let bytes = server.live_view(&*cell.room().read().await, seat)?;
    Ok(private_json(StatusCode::OK, bytes))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ActBody {
    action: u64,
}

/// `POST /api/matches/{id}/actions`.
pub(super) async fn act(
    State(server): State<Arc<Server>>,
    Seated { cell, seat, .. }: Seated<Playing>,
    JsonBody(req): JsonBody<ActBody>,
) -> Result<Response, ApiError> {
    let bytes = server.play(&cell, seat, req.action).await?;
    Ok(private_json(StatusCode::OK, bytes))
}

/// `POST /api/matches/{id}/resign`.
pub(super) async fn resign(
    State(server): State<Arc<Server>>,
    Seated { cell, seat, .. }: Seated<Resigning>,
) -> Result<Response, ApiError> {
    let bytes = server.resign(&cell, seat).await?;
    Ok(private_json(StatusCode::OK, bytes))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DrawBody {
    offer: bool,
}

/// `POST /api/matches/{id}/draw`.
pub(super) async fn draw(
    State(server): State<Arc<Server>>,
    Seated { cell, seat, .. }: Seated<DrawOffer>,
    JsonBody(req): JsonBody<DrawBody>,
) -> Result<Response, ApiError> {
    let bytes = server.draw(&cell, seat, req.offer).await?;
    Ok(private_json(StatusCode::OK, bytes))
}

/// `step=N&view=V` of a replay's query: the step (the whole match if
/// absent) and the viewpoint (`spectator` if absent).
fn replay_query(query: Option<&str>) -> Result<(usize, Viewpoint), ApiError> {
    let mut step = usize::MAX;
    let mut view = Viewpoint::Spectator;
    for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        match key {
            "step" => {
                step = value
                    .parse()
                    .map_err(|_| ApiError::BadRequest("step: expected a number of steps".into()))?;
            }
            "view" => {
                view = Viewpoint::parse(value).ok_or_else(|| {
                    ApiError::BadRequest("view: expected spectator, 0, 1 or full".into())
                })?;
            }
            _ => {}
        }
    }
    Ok((step, view))
}

/// `GET /api/matches/{id}/replay`: the query is read before the token, so
/// a bad query is refused first. A finished match is rebuilt outside
/// memory.
pub(super) async fn replay(
    State(server): State<Arc<Server>>,
    read: Reader,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let (step, view) = replay_query(query.as_deref())?;
    if let Some(kept) = server.archived(read.id).await?.filter(|k| k.finished) {
        let token = read.token()?;
        if let Some(bytes) = server
            .archived_replay(read.id, kept, step, view, token, read.client)
            .await?
        {
            return Ok(private_json(StatusCode::OK, bytes));
        }
    }
    let cell = read.cell(&server).await?;
    let asker = seat_of(&cell, read.token()?).await?;
    let bytes = replay::view(&cell, step, view, asker).await?;
    Ok(private_json(StatusCode::OK, bytes))
}

/// A download: its content type and file name.
fn download(mime: &'static str, name: String, body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, mime.to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        body,
    )
        .into_response()
}

/// `GET /api/matches/{id}/record`: a finished match's from the store.
pub(super) async fn record(
    State(server): State<Arc<Server>>,
    read: Reader,
) -> Result<Response, ApiError> {
    let archived = match server.archived(read.id).await?.filter(|k| k.finished) {
        Some(_) => server.archived_record(read.id).await?,
        None => None,
    };
    let body = match archived {
        Some(body) => body,
        None => replay::record(&*read.cell(&server).await?).await?,
    };
    let name = format!("match-{}.json", read.id);
    Ok(download("application/json", name, body))
}

/// `GET /api/matches/{id}/notation`: a finished match's rebuilt outside
/// memory.
pub(super) async fn notation(
    State(server): State<Arc<Server>>,
    read: Reader,
) -> Result<Response, ApiError> {
    let archived = match server.archived(read.id).await?.filter(|k| k.finished) {
        Some(_) => server.archived_notation(read.id, read.client).await?,
        None => None,
    };
    let body = match archived {
        Some(body) => body,
        None => replay::notation(&*read.cell(&server).await?).await?,
    };
    let name = format!("match-{}.txt", read.id);
    Ok(download("text/plain; charset=utf-8", name, body))
}
