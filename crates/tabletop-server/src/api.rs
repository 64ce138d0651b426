//! The HTTP routes (documented in `docs/server.md` and the OpenAPI
//! description served at `/api/openapi.json`).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{DefaultBodyLimit, Path, RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use game_env::{BotSpec, EnvError};
use game_traits::PlayerId;
use serde::de::DeserializeOwned;
use serde::Deserialize;

use crate::clock::{Asked, Word};
use crate::error::ApiError;
use crate::limits::ClientAddr;
use crate::lobby::Taken;
use crate::metrics::Metrics;
use crate::replay::Viewpoint;
use crate::token::Token;
use crate::{Cell, Server};

/// Every API route as (method, path in OpenAPI's spelling); the OpenAPI
/// description lists exactly these (a test checks both ways).
pub const API_ROUTES: &[(&str, &str)] = &[
    ("get", "/api/games"),
    ("post", "/api/matches"),
    ("get", "/api/matches/{id}"),
    ("post", "/api/matches/{id}/actions"),
    ("get", "/api/matches/{id}/ws"),
    ("post", "/api/matches/{id}/join"),
    ("post", "/api/matches/{id}/resign"),
    ("post", "/api/matches/{id}/draw"),
    ("post", "/api/matches/{id}/rematch"),
    ("get", "/api/matches/{id}/replay"),
    ("get", "/api/matches/{id}/record"),
    ("get", "/api/matches/{id}/notation"),
    ("get", "/api/lobby"),
    ("post", "/api/lobby"),
    ("get", "/api/openapi.json"),
    ("get", "/api/wire-schema.json"),
    ("get", "/api/setups"),
    ("post", "/api/players"),
    ("get", "/api/matches/{id}/players"),
    ("get", "/api/leaderboard"),
];

/// The OpenAPI description of the API.
pub const OPENAPI: &str = include_str!("../openapi.json");

/// The JSON Schema of every game's wire forms (what views, legal actions
/// and log entries carry), generated from the engines' types
/// ([`game_env::Registry::wire_schema`]; a test keeps the file equal).
pub const WIRE_SCHEMA: &str = include_str!("../wire-schema.json");

/// The router of `server`: the API, the WebSocket, the web page and the
/// operator's routes, behind the HTTP hygiene layers (host check, rate
/// limit, body limit and timeout, security headers, JSON errors) and the
/// operator's layers (request id, log line, latency).
pub fn router(server: Arc<Server>) -> Router {
    let limit = server.config().max_body;
    let routes = Router::new()
        .route("/api/games", get(games))
        .route("/api/matches", post(create))
        .route("/api/matches/{id}", get(view))
        .route("/api/matches/{id}/actions", post(act))
        .route("/api/matches/{id}/ws", get(ws))
        .route("/api/matches/{id}/join", post(join))
        .route("/api/matches/{id}/resign", post(resign))
        .route("/api/matches/{id}/draw", post(draw))
        .route("/api/matches/{id}/rematch", post(rematch))
        .route("/api/matches/{id}/replay", get(replay))
        .route("/api/matches/{id}/record", get(record))
        .route("/api/matches/{id}/notation", get(notation))
        .route("/api/lobby", get(lobby).post(open_match))
        .route("/api/openapi.json", get(openapi))
        .route("/api/wire-schema.json", get(wire_schema))
        .route("/api/setups", get(crate::setups::setups))
        .route("/", get(crate::web::index))
        .route("/m/{id}", get(crate::web::index))
        .route("/m/{id}/replay", get(crate::web::index))
        .route("/web/{*file}", get(crate::web::file))
        .merge(crate::players::routes())
        .merge(crate::ops::routes())
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(limit))
        .with_state(server.clone());
    let routes = crate::hygiene::layers(routes, &server);
    crate::ops::layers(routes, &server)
}

/// A match's answer: JSON, never stored by a cache (it holds a seat's
/// view or tokens).
fn private_json(status: StatusCode, bytes: Vec<u8>) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        bytes,
    )
        .into_response()
}

async fn not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(uri.path().chars().take(200).collect())
}

async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI).into_response()
}

async fn wire_schema() -> Response {
    (
        [(header::CONTENT_TYPE, "application/schema+json")],
        WIRE_SCHEMA,
    )
        .into_response()
}

async fn games(State(server): State<Arc<Server>>) -> Result<Response, ApiError> {
    let mut out = Vec::new();
    for listing in server.registry().list() {
        let loaded = server.registry().load(&listing.name);
        let (legend, heuristic) = match &loaded {
            Ok(g) => (g.legend().to_owned(), g.bot(BotSpec::Heuristic).is_ok()),
            Err(_) => (String::new(), false),
        };
        let expert = loaded
            .as_ref()
            .is_ok_and(|g| g.bot(BotSpec::Expert(None)).is_ok());
        let mut bots = vec!["bot:random", "bot:flat:200", "bot:ismcts:200"];
        if heuristic {
            bots.insert(1, "bot:heuristic");
        }
        if expert {
            bots.push("bot:expert");
        }
        let mut value = serde_json::to_value(&listing).map_err(|e| {
            ApiError::Internal(EnvError::Internal(format!("serialising a listing: {e}")))
        })?;
        if let Some(obj) = value.as_object_mut() {
            obj.insert("legend".into(), legend.into());
            obj.insert("bots".into(), serde_json::json!(bots));
            // The operator's trained policies, per rule set they fit.
            let policies = &server.config().policies;
            let listed = |spec: &str| serde_json::json!(policies.listed(server.registry(), spec));
            obj.insert("policies".into(), listed(&listing.name));
            if let Some(presets) = obj.get_mut("presets").and_then(|p| p.as_array_mut()) {
                for (preset, info) in presets.iter_mut().zip(&listing.presets) {
                    if let Some(preset) = preset.as_object_mut() {
                        preset.insert("policies".into(), listed(&info.spec));
                    }
                }
            }
            let standard = crate::clock::TimeControl::standard(&listing.name);
            obj.insert("time_control".into(), serde_json::json!(standard));
        }
        out.push(value);
    }
    Ok(Json(serde_json::json!({
        "games": out,
        "seats": ["human", "bot:random", "bot:heuristic", "bot:flat:N", "bot:ismcts:N", "bot:expert"],
        "cmd_bots": server.config().allow_cmd_bots,
        "max_budget": crate::seat::MAX_BUDGET,
    }))
    .into_response())
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

/// Reads a JSON body (declared `application/json`), every failure a 4xx
/// with the reason.
pub(crate) fn body<T: DeserializeOwned>(
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    crate::hygiene::require_json(headers)?;
    let bytes = body.map_err(|r| {
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
    serde_json::from_slice(&bytes).map_err(|e| ApiError::BadRequest(format!("bad JSON body: {e}")))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateBody {
    game: String,
    seats: Vec<String>,
    seed: Option<u64>,
    #[serde(default)]
    rated: bool,
    player: Option<String>,
    /// Untimed when absent.
    time_control: Option<Asked>,
}

async fn create(
    State(server): State<Arc<Server>>,
    client: ClientAddr,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: CreateBody = body(&headers, raw)?;
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
    let bytes = serde_json::to_vec(&crate::players::rated_json(&created, rated)?)
        .map_err(|e| ApiError::Internal(EnvError::Internal(format!("serialising a match: {e}"))))?;
    Ok(private_json(StatusCode::CREATED, bytes))
}

pub(crate) async fn match_of(server: &Arc<Server>, id: &str) -> Result<Arc<Cell>, ApiError> {
    let short = || id.chars().take(40).collect::<String>();
    let n: i64 = id.parse().map_err(|_| ApiError::NoMatch(short()))?;
    server
        .cell(n)
        .await?
        .ok_or_else(|| ApiError::NoMatch(short()))
}

/// The token of `Authorization: Bearer TOKEN`, if the header is there.
fn bearer(headers: &HeaderMap) -> Result<Option<Token>, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
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

async fn seat_for(cell: &Cell, token: Option<Token>) -> Result<Option<PlayerId>, ApiError> {
    match token {
        None => Ok(None),
        Some(t) => {
            let room = cell.room().read().await;
            room.seat_of(&t).map(Some).ok_or(ApiError::Forbidden)
        }
    }
}

async fn view(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let cell = match_of(&server, &id).await?;
    let seat = seat_for(&cell, bearer(&headers)?).await?;
    let bytes = server.live_view(&*cell.room().read().await, seat)?;
    Ok(private_json(StatusCode::OK, bytes))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActBody {
    action: u64,
}

async fn act(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let cell = match_of(&server, &id).await?;
    let seat = seat_required(&cell, &headers, "playing").await?;
    let req: ActBody = body(&headers, raw)?;
    let bytes = server.play(&cell, seat, req.action).await?;
    Ok(private_json(StatusCode::OK, bytes))
}

/// `token=...` in a query string (browsers cannot set headers on a
/// WebSocket).
fn query_token(query: Option<&str>) -> Result<Option<Token>, ApiError> {
    let Some(q) = query else { return Ok(None) };
    for pair in q.split('&') {
        if let Some(v) = pair.strip_prefix("token=") {
            return Token::parse(v).map(Some).ok_or_else(|| {
                ApiError::Unauthorized("token must be the seat's 32 hex digits".into())
            });
        }
    }
    Ok(None)
}

async fn ws(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    client: ClientAddr,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let cell = match_of(&server, &id).await?;
    let token = match bearer(&headers)? {
        Some(t) => Some(t),
        None => query_token(query.as_deref())?,
    };
    let seat = seat_for(&cell, token).await?;
    let upgrade = upgrade.map_err(|r| ApiError::BadRequest(r.body_text()))?;
    let ticket = server.sockets.enter(client).map_err(|why| {
        Metrics::bump(&server.metrics.limited);
        ApiError::TooMany {
            message: why.into(),
            retry_after: 10,
        }
    })?;
    Ok(upgrade
        .max_message_size(4096)
        .on_upgrade(move |socket| crate::socket::push_views(socket, server, cell, seat, ticket)))
}

/// The seat of the token of `Authorization: Bearer TOKEN`, which must be
/// there and be a seat of `cell`.
async fn seat_required(cell: &Cell, headers: &HeaderMap, what: &str) -> Result<PlayerId, ApiError> {
    let token = bearer(headers)?.ok_or_else(|| {
        ApiError::Unauthorized(format!("{what} needs `Authorization: Bearer TOKEN`"))
    })?;
    seat_for(cell, Some(token))
        .await?
        .ok_or(ApiError::Forbidden)
}

fn taken_json(status: StatusCode, taken: &Taken) -> Result<Response, ApiError> {
    let bytes = serde_json::to_vec(taken)
        .map_err(|e| ApiError::Internal(EnvError::Internal(format!("serialising a seat: {e}"))))?;
    Ok(private_json(status, bytes))
}

async fn lobby(State(server): State<Arc<Server>>) -> Result<Response, ApiError> {
    let listed = server.lobby.listed().into_iter().map(|l| (l.id, l));
    let open = server.with_rated(listed.collect()).await?;
    let bytes = serde_json::to_vec(&serde_json::json!({ "open": open })).map_err(|e| {
        ApiError::Internal(EnvError::Internal(format!("serialising the lobby: {e}")))
    })?;
    Ok(private_json(StatusCode::OK, bytes))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OpenBody {
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

async fn open_match(
    State(server): State<Arc<Server>>,
    client: ClientAddr,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: OpenBody = body(&headers, raw)?;
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
    let bytes = serde_json::to_vec(&crate::players::rated_json(&taken, rated)?)
        .map_err(|e| ApiError::Internal(EnvError::Internal(format!("serialising a seat: {e}"))))?;
    Ok(private_json(StatusCode::CREATED, bytes))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinBody {
    invite: Option<String>,
    player: Option<String>,
}

async fn join(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let cell = match_of(&server, &id).await?;
    let req: JoinBody = body(&headers, raw)?;
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
    taken_json(StatusCode::OK, &taken)
}

async fn resign(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let cell = match_of(&server, &id).await?;
    let seat = seat_required(&cell, &headers, "resigning").await?;
    let bytes = server.resign(&cell, seat).await?;
    Ok(private_json(StatusCode::OK, bytes))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DrawBody {
    offer: bool,
}

async fn draw(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let cell = match_of(&server, &id).await?;
    let seat = seat_required(&cell, &headers, "a draw offer").await?;
    let req: DrawBody = body(&headers, raw)?;
    let bytes = server.draw(&cell, seat, req.offer).await?;
    Ok(private_json(StatusCode::OK, bytes))
}

async fn rematch(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    client: ClientAddr,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let cell = match_of(&server, &id).await?;
    let seat = seat_required(&cell, &headers, "a rematch").await?;
    let taken = server.rematch(client, &cell, seat).await?;
    taken_json(StatusCode::OK, &taken)
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

async fn replay(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let cell = match_of(&server, &id).await?;
    let (step, view) = replay_query(query.as_deref())?;
    let asker = seat_for(&cell, bearer(&headers)?).await?;
    let bytes = server.replay_view(&cell, step, view, asker).await?;
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

async fn record(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let cell = match_of(&server, &id).await?;
    let body = server.record(&cell).await?;
    let name = format!("match-{}.json", cell.room().read().await.id());
    Ok(download("application/json", name, body))
}

async fn notation(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let cell = match_of(&server, &id).await?;
    let body = server.notation(&cell).await?;
    let name = format!("match-{}.txt", cell.room().read().await.id());
    Ok(download("text/plain; charset=utf-8", name, body))
}
