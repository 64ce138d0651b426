//! The API's errors: each a 4xx (or a 503 when the database fails) with a
//! JSON body `{"error": message, "status": code}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// Why a request was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ApiError {
    /// Malformed JSON, a missing or unknown field, a bad seat or budget.
    #[error("{0}")]
    BadRequest(String),
    /// The game specification was refused by the registry.
    #[error("{0}")]
    Game(String),
    /// No match with this id.
    #[error("no match {0:?}")]
    NoMatch(String),
    /// No route here.
    #[error("no such resource: {0}")]
    NotFound(String),
    /// No `Authorization: Bearer TOKEN` where one is needed, or a header
    /// that is not of that form.
    #[error("{0}")]
    Unauthorized(String),
    /// A token that is none of this match's seats.
    #[error("the token is not a seat of this match")]
    Forbidden,
    /// The seat is not to move, or the match is over.
    #[error("{0}")]
    Conflict(String),
    /// The engine refused the action (its reason); nothing changed.
    #[error("{0}")]
    Illegal(String),
    /// The body is larger than the limit.
    #[error("{0}")]
    TooLarge(String),
    /// The database failed; nothing was acknowledged.
    #[error("storage failed: {0}")]
    Storage(String),
}

impl ApiError {
    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) | ApiError::Game(_) => StatusCode::BAD_REQUEST,
            ApiError::NoMatch(_) | ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden => StatusCode::FORBIDDEN,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Illegal(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Storage(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let body = serde_json::json!({ "error": self.to_string(), "status": status.as_u16() });
        (status, Json(body)).into_response()
    }
}
