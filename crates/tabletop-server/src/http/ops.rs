//! What an operator reads: `/healthz` (the process answers), `/readyz`
//! (the database answers and the server is not stopping), `/metrics`
//! (Prometheus' text format, [`crate::metrics`]), and a log line per
//! request with its request id (tower-http's request-id and trace layers;
//! the id is `x-request-id`, taken from the request or made, and sent
//! back). Logs carry the path, never the query, which may hold a token.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use tower::ServiceBuilder;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::http::error::ApiError;
use crate::Server;

/// The operator's routes.
pub fn routes() -> Router<Arc<Server>> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
}

/// The operator's routes a public listener keeps when an admin listener
/// serves the others: the liveness probe, which tells nothing.
pub fn public_routes() -> Router<Arc<Server>> {
    Router::new().route("/healthz", get(healthz))
}

async fn healthz() -> Response {
    Json(serde_json::json!({"status": "ok"})).into_response()
}

async fn readyz(State(server): State<Arc<Server>>) -> Result<Response, ApiError> {
    if server.stopping() {
        return Err(ApiError::Unavailable("the server is stopping".into()));
    }
    server.db(|s| s.ping()).await.map_err(|e| {
        tracing::error!(error = %e, "the database does not answer");
        ApiError::Unavailable("the database does not answer".into())
    })?;
    Ok(Json(serde_json::json!({"status": "ready"})).into_response())
}

async fn metrics(State(server): State<Arc<Server>>) -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        server.metrics_text(),
    )
        .into_response()
}

/// Counts the answer and the time to answer, by route and status.
async fn measure(State(server): State<Arc<Server>>, req: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = req.method().clone();
    let path = req.uri().path().to_owned();
    let response = next.run(req).await;
    server.metrics.answered(
        method.as_str(),
        &path,
        response.status().as_u16(),
        started.elapsed(),
    );
    response
}

/// Wraps `router` in the request id, the log line and the latency count
/// (outermost, so they see every answer, refusals included).
pub fn layers(router: Router, server: &Arc<Server>) -> Router {
    let trace = TraceLayer::new_for_http()
        .make_span_with(|req: &Request| {
            let id = req
                .headers()
                .get("x-request-id")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            tracing::info_span!(
                "request",
                request_id = %id,
                method = %req.method(),
                path = %req.uri().path(),
            )
        })
        .on_request(())
        .on_response(DefaultOnResponse::new().level(Level::INFO));
    router.layer(
        ServiceBuilder::new()
            .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
            .layer(trace)
            .layer(PropagateRequestIdLayer::x_request_id())
            .layer(middleware::from_fn_with_state(server.clone(), measure)),
    )
}
