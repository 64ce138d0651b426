//! The routes that describe rather than play: the games and their seats,
//! the OpenAPI description, the wire schema, and the setup suggestions of
//! the games that make them.

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use game_env::BotSpec;
use serde::Deserialize;

use crate::http::error::ApiError;
use crate::http::query;
use crate::http::respond::internal;
use crate::setups::{suggest, SetupKind};
use crate::Server;

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
pub const OPENAPI: &str = include_str!("../../openapi.json");

/// The JSON Schema of every game's wire forms (what views, legal actions
/// and log entries carry), generated from the engines' types
/// ([`game_env::Registry::wire_schema`]; a test keeps the file equal).
pub const WIRE_SCHEMA: &str = include_str!("../../wire-schema.json");

/// `GET /api/openapi.json`.
pub(super) async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI).into_response()
}

/// `GET /api/wire-schema.json`.
pub(super) async fn wire_schema() -> Response {
    (
        [(header::CONTENT_TYPE, "application/schema+json")],
        WIRE_SCHEMA,
    )
        .into_response()
}

/// `GET /api/games`: every game with its title, presets (each with its
/// title and one line on what differs), legend, bots, drawing, the
/// operator's policies and standard time control, and the seats offered.
pub(super) async fn games(State(server): State<Arc<Server>>) -> Result<Response, ApiError> {
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
        let mut value =
            serde_json::to_value(&listing).map_err(|e| internal("serialising a listing", e))?;
        if let Some(obj) = value.as_object_mut() {
            obj.insert("legend".into(), legend.into());
            obj.insert(
                "renderer".into(),
                super::web::renderer(&listing.name).into(),
            );
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
            if let Ok(game) = &loaded {
                let standard = crate::clock::TimeControl::standard(game.as_ref());
                obj.insert("time_control".into(), serde_json::json!(standard));
            }
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

/// The query of `GET /api/setups`: `?game=SPEC&kind=random|human&seed=N`,
/// each required.
#[derive(Deserialize)]
struct SetupQuery {
    game: String,
    kind: SetupKind,
    seed: u64,
}

/// `GET /api/setups`: a setup to start the page's setup editor from
/// ([`suggest`]).
pub(super) async fn setups(
    State(server): State<Arc<Server>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let SetupQuery {
        game: spec,
        kind,
        seed,
    } = query::params(query.as_deref(), "?game=SPEC&kind=random|human&seed=N")?;
    let game = server.registry().load(&spec)?;
    let suggestion = suggest(game.as_ref(), kind, seed)?;
    let bytes = serde_json::to_vec(&suggestion).map_err(|e| internal("serialising a setup", e))?;
    Ok((
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        bytes,
    )
        .into_response())
}
