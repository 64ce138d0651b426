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
use crate::http::extract::{
    bearer, seat_of, DrawOffer, JsonBody, MatchAt, Playing, Resigning, Seated, Viewer,
};
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

/// `GET /api/matches/{id}`.
pub(super) async fn view(
    State(server): State<Arc<Server>>,
    Viewer { cell, seat }: Viewer,
) -> Result<Response, ApiError> {
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
/// a bad query is refused first.
pub(super) async fn replay(
    MatchAt(cell): MatchAt,
    RawQuery(query): RawQuery,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    let (step, view) = replay_query(query.as_deref())?;
    let asker = seat_of(&cell, bearer(&headers)?).await?;
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

/// `GET /api/matches/{id}/record`.
pub(super) async fn record(MatchAt(cell): MatchAt) -> Result<Response, ApiError> {
    let body = replay::record(&cell).await?;
    let name = format!("match-{}.json", cell.room().read().await.id());
    Ok(download("application/json", name, body))
}

/// `GET /api/matches/{id}/notation`.
pub(super) async fn notation(MatchAt(cell): MatchAt) -> Result<Response, ApiError> {
    let body = replay::notation(&cell).await?;
    let name = format!("match-{}.txt", cell.room().read().await.id());
    Ok(download("text/plain; charset=utf-8", name, body))
}
