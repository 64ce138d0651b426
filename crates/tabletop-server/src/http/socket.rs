//! The WebSocket of a match (`GET /api/matches/{id}/ws`): the view now
//! and after every change. A client message is answered only when it asks
//! for something: the text `{"type":"view"}` asks for the view again;
//! anything else is ignored. Messages beyond the configured rate close
//! the socket (code 1008), so that no client makes the server send a view
//! per stray byte; a stopping server closes it (code 1001). Each socket
//! holds a place of [`crate::limits::SocketGate`] while it is open.

use std::sync::Arc;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use game_traits::PlayerId;
use serde::Deserialize;

use crate::client::ClientKey;
use crate::http::error::ApiError;
use crate::http::extract::{bearer, seat_of, MatchAt};
use crate::limits::{Bucket, Full, Ticket};
use crate::memory::Cell;
use crate::metrics::Metrics;
use crate::server::Server;
use crate::token::Token;

/// WebSocket close code: the client broke the policy (too many messages).
const POLICY: u16 = 1008;
/// WebSocket close code: the server is going away.
const GOING_AWAY: u16 = 1001;

/// What a client may ask over the socket.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum Ask {
    /// The view again.
    View,
}

/// What to do after a client message.
enum Next {
    Send,
    Wait,
    Close(u16, &'static str),
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

/// `GET /api/matches/{id}/ws`: the seat of the token of the
/// `Authorization` header, or else of the query's `token=`, or a
/// spectator; refused while the client or the server has as many
/// WebSockets open as it may.
pub(super) async fn ws(
    State(server): State<Arc<Server>>,
    MatchAt(cell): MatchAt,
    RawQuery(query): RawQuery,
    client: ClientKey,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let token = match bearer(&headers)? {
        Some(t) => Some(t),
        None => query_token(query.as_deref())?,
    };
    let seat = seat_of(&cell, token).await?;
    let upgrade = upgrade.map_err(|r| ApiError::BadRequest(r.body_text()))?;
    let ticket = server.gate.sockets.enter(Some(client)).map_err(|full| {
        Metrics::bump(&server.metrics.limited);
        let message = match full {
            Full::Total => "the server has as many WebSockets open as it takes",
            Full::Client => "this client has as many WebSockets open as it may",
        };
        ApiError::TooMany {
            message: message.into(),
            retry_after: 10,
        }
    })?;
    Ok(upgrade
        .max_message_size(4096)
        .on_upgrade(move |socket| push_views(socket, server, cell, seat, ticket)))
}

/// Sends the view now and after every change, until the client goes, the
/// client sends too much, or the server stops.
async fn push_views(
    mut socket: WebSocket,
    server: Arc<Server>,
    cell: Arc<Cell>,
    seat: Option<PlayerId>,
    _ticket: Ticket,
) {
    let mut changed = cell.subscribe();
    let rate = server.config().http.ws_rate;
    let burst = rate.saturating_mul(2).max(1);
    let mut bucket = Bucket::full(burst);
    let mut next = Next::Send;
    loop {
        match next {
            Next::Send => {
                let view = match server.live_view(&*cell.room().read().await, seat) {
                    Ok(view) => view,
                    // A view that cannot be built ends the push; the
                    // client sees the socket close and its GET gets the
                    // error.
                    Err(_) => return,
                };
                // serde_json writes UTF-8; were it not, the push ends.
                let Ok(text) = String::from_utf8(view) else {
                    return;
                };
                if socket.send(Message::Text(text.into())).await.is_err() {
                    return;
                }
            }
            Next::Close(code, reason) => {
                let frame = CloseFrame {
                    code,
                    reason: reason.into(),
                };
                let _ = socket.send(Message::Close(Some(frame))).await;
                return;
            }
            Next::Wait => {}
        }
        next = tokio::select! {
            r = changed.changed() => match r {
                Ok(()) => Next::Send,
                Err(_) => return,
            },
            () = server.stopped() => Next::Close(GOING_AWAY, "the server is stopping"),
            m = socket.recv() => match m {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(message)) => {
                    if rate != 0 && bucket.take(rate, burst).is_err() {
                        Next::Close(POLICY, "too many messages")
                    } else {
                        answer(&message)
                    }
                }
            },
        };
    }
}

/// Whether `message` asks for the view.
fn answer(message: &Message) -> Next {
    match message {
        Message::Text(text) => match serde_json::from_str::<Ask>(text.as_str()) {
            Ok(Ask::View) => Next::Send,
            Err(_) => Next::Wait,
        },
        _ => Next::Wait,
    }
}
