//! The HTTP layer: the router, what a route reads from a request
//! (`extract.rs`), the one HTTP error ([`ApiError`], every refusal of the
//! match service mapped to a status in one place), the routes grouped by
//! resource, the WebSocket, the page's files and the layers every request
//! goes through. Nothing below this folder knows HTTP: the routes call the
//! match service and turn its answers and refusals into responses. The
//! routes are documented in `docs/server.md` and the OpenAPI description
//! served at `/api/openapi.json`.

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::http::Uri;
use axum::routing::{get, post};
use axum::Router;

use crate::Server;

pub(crate) mod error;
mod extract;
mod forwarded;
mod games;
mod hygiene;
mod lobby;
mod matches;
mod ops;
mod players;
mod query;
mod respond;
mod socket;
mod web;

pub use error::ApiError;
pub use games::{API_ROUTES, OPENAPI, WIRE_SCHEMA};
pub use hygiene::CONTENT_SECURITY_POLICY;

/// The router of `server`: the API, the WebSocket, the web page and the
/// operator's routes, behind the HTTP hygiene layers (host check, rate
/// limit, body limit and timeout, security headers, JSON errors) and the
/// operator's layers (request id, log line, latency).
pub fn router(server: Arc<Server>) -> Router {
    let limit = server.config().max_body;
    let routes = Router::new()
        .route("/api/games", get(games::games))
        .route("/api/matches", post(matches::create))
        .route("/api/matches/{id}", get(matches::view))
        .route("/api/matches/{id}/actions", post(matches::act))
        .route("/api/matches/{id}/ws", get(socket::ws))
        .route("/api/matches/{id}/join", post(lobby::join))
        .route("/api/matches/{id}/resign", post(matches::resign))
        .route("/api/matches/{id}/draw", post(matches::draw))
        .route("/api/matches/{id}/rematch", post(lobby::rematch))
        .route("/api/matches/{id}/replay", get(matches::replay))
        .route("/api/matches/{id}/record", get(matches::record))
        .route("/api/matches/{id}/notation", get(matches::notation))
        .route("/api/lobby", get(lobby::listed).post(lobby::open))
        .route("/api/openapi.json", get(games::openapi))
        .route("/api/wire-schema.json", get(games::wire_schema))
        .route("/api/setups", get(games::setups))
        .route("/api/players", post(players::add))
        .route("/api/matches/{id}/players", get(players::of_match))
        .route("/api/leaderboard", get(players::leaderboard))
        .route("/", get(web::index))
        .route("/m/{id}", get(web::index))
        .route("/m/{id}/replay", get(web::index))
        .route("/leaderboard", get(web::index))
        .route("/favicon.ico", get(web::favicon))
        .route("/web/{*file}", get(web::file))
        .merge(match server.config().ops_apart {
            true => ops::public_routes(),
            false => ops::routes(),
        })
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(limit))
        .with_state(server.clone());
    let routes = hygiene::layers(routes, &server);
    ops::layers(routes, &server)
}

/// The admin listener's routes (`--admin-port`): the probes and the
/// metrics, which [`Config::ops_apart`](crate::Config::ops_apart) takes
/// off the public listener, with the same request ids, logs, host check
/// and counts.
pub fn admin_router(server: Arc<Server>) -> Router {
    let routes = ops::routes().fallback(not_found).with_state(server.clone());
    let routes = hygiene::layers(routes, &server);
    ops::layers(routes, &server)
}

async fn not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(uri.path().chars().take(200).collect())
}
