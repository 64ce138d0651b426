//! A request body the routes did not read to its end: a refusal that
//! comes before the body (401, 404, 429, a 413 from `Content-Length`) or
//! in its middle (a 413 once a chunked body passes the limit, a 408).
//! Left alone, hyper reads what has already arrived of such a body and
//! otherwise closes the connection after the answer without saying so (no
//! `Connection: close`); the body's bytes still on their way then make the
//! close a reset, which may reach the client before it has read the
//! answer. A client that sends its headers and its body in two writes
//! lost its connection that way on loopback: Python's `http.client`
//! about once in eleven such refusals, `tests/keepalive.rs` (a body 1 ms
//! after its headers) every time.
//!
//! So the listener watches each body ([`watch`]) and, once the answer is
//! ready, settles what is left of it ([`Leftover::settle`]):
//!
//! - a rest of declared length within the body limit is read and thrown
//!   away while the answer goes out: the connection stays open;
//! - a larger rest (a 413 from `Content-Length`), one of unknown length
//!   (chunked), or the rest of a body that timed out (408): the answer
//!   says `Connection: close`, and the rest is read and thrown away for
//!   at most the body timeout before the connection closes (a lingering
//!   close: the client reads the answer, then an end of stream);
//! - a body the client holds back until told to send it (`Expect:
//!   100-continue`) and that was never asked for: the answer says
//!   `Connection: close` and the body is never asked for, so it is never
//!   sent.

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, HeaderValue, Request, StatusCode};
use axum::response::Response;
use hyper::body::{Body as HttpBody, Bytes, Frame, Incoming, SizeHint};

/// What the watched body tells the listener: the rest of it if the
/// routes dropped it unread, and whether it was ever asked for.
#[derive(Default)]
struct Shared {
    rest: Mutex<Option<Incoming>>,
    asked: AtomicBool,
}

/// A request body that hands its unread rest to the listener when the
/// routes drop it.
struct Watched {
    body: Option<Incoming>,
    ended: bool,
    shared: Arc<Shared>,
}

impl HttpBody for Watched {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let this = self.get_mut();
        this.shared.asked.store(true, Ordering::Relaxed);
        let Some(body) = this.body.as_mut() else {
            return Poll::Ready(None);
        };
        let frame = Pin::new(body).poll_frame(cx);
        if let Poll::Ready(None) = frame {
            this.ended = true;
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        self.ended || self.body.as_ref().is_none_or(Incoming::is_end_stream)
    }

    fn size_hint(&self) -> SizeHint {
        self.body
            .as_ref()
            .map_or_else(|| SizeHint::with_exact(0), Incoming::size_hint)
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        if self.is_end_stream() {
            return;
        }
        if let Some(body) = self.body.take() {
            *self.shared.rest.lock().unwrap_or_else(|p| p.into_inner()) = Some(body);
        }
    }
}

/// The listener's side of a watched request: what is left of its body
/// once the routes answered.
pub struct Leftover {
    shared: Arc<Shared>,
    expects_continue: bool,
}

/// `request` with its body watched, for the routes, and the listener's
/// side of it.
pub fn watch(request: Request<Incoming>) -> (Request<Body>, Leftover) {
    let shared = Arc::new(Shared::default());
    let expects_continue = request
        .headers()
        .get(header::EXPECT)
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"100-continue"));
    let request = request.map(|body| {
        Body::new(Watched {
            body: Some(body),
            ended: false,
            shared: shared.clone(),
        })
    });
    (
        request,
        Leftover {
            shared,
            expects_continue,
        },
    )
}

/// Marks `response` as the connection's last.
fn close(response: &mut Response) {
    if response.status() != StatusCode::SWITCHING_PROTOCOLS {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
}

impl Leftover {
    /// Settles the body's unread rest, if any, before `response` goes out
    /// (see the module): reads it away in the background, for at most
    /// `linger`, and says `Connection: close` unless it is a declared rest
    /// of at most `max_body` bytes that keeps the connection open.
    pub fn settle(self, response: &mut Response, max_body: usize, linger: Duration) {
        let rest = self
            .shared
            .rest
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        let Some(mut rest) = rest else {
            return;
        };
        if self.expects_continue && !self.shared.asked.load(Ordering::Relaxed) {
            // Never asked for: hyper sends no `100 Continue`, the client
            // sends no body.
            close(response);
            return;
        }
        let small = rest
            .size_hint()
            .exact()
            .is_some_and(|left| left <= max_body as u64);
        if !small || response.status() == StatusCode::REQUEST_TIMEOUT {
            close(response);
        }
        tokio::spawn(async move {
            let read_away = async {
                while let Some(Ok(_)) =
                    std::future::poll_fn(|cx| Pin::new(&mut rest).poll_frame(cx)).await
                {
                }
            };
            // Past the linger, dropping the rest closes the connection.
            let _ = tokio::time::timeout(linger, read_away).await;
        });
    }
}
