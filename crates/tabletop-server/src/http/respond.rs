//! How a route answers: a match's JSON, never cached, and our own
//! failures while answering.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::http::error::ApiError;

/// A match's answer: JSON, never stored by a cache (it holds a seat's
/// view or tokens).
pub(super) fn private_json(status: StatusCode, bytes: Vec<u8>) -> Response {
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

/// `value` serialised as a match's answer (see [`private_json`]); `what`
/// names it if it cannot be.
pub(super) fn private<T: serde::Serialize>(
    status: StatusCode,
    value: &T,
    what: &str,
) -> Result<Response, ApiError> {
    let bytes = serde_json::to_vec(value).map_err(|e| internal(what, e))?;
    Ok(private_json(status, bytes))
}

/// A failure of ours while answering: `what` failed with `e`.
pub(super) fn internal(what: &str, e: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(game_env::EnvError::Internal(format!("{what}: {e}")))
}
