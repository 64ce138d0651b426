//! The listener: accepts connections and serves HTTP/1.1 on them with
//! hyper, as `axum::serve` does, plus what it cannot be told: a header read
//! timeout (a connection that sends its headers slowly, or sits idle
//! between requests, is closed: no slow-loris), the peer address of every
//! request ([`Peer`], from which the HTTP layer tells the client), and a
//! graceful stop that answers the requests in flight (moves included)
//! before returning.
//!
//! Connections are capped at accept, per peer address and in all
//! (`--max-connections-per-address`, `--max-connections`): one over a cap
//! is closed at once, unanswered. An answer (a 503) would need its
//! request read first, which holds the connection for up to the header
//! timeout: the very place the cap protects, kept by whoever floods it.
//! A trusted proxy's connections carry many clients, so they count in
//! all only. The place is held by the connection's stream itself
//! (`Counted`), so an upgraded WebSocket keeps it until it closes.
//!
//! An answer after which the connection closes says `Connection: close`:
//! hyper writes it when it knows before the answer (a stop, a malformed
//! request), `leftover.rs` when a body the routes did not read is
//! the reason.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

use crate::client::{ClientKey, Peer};
use crate::leftover;
use crate::limits::Ticket;
use crate::metrics::Metrics;
use crate::Server;

/// A connection's stream with its place among the connections open: the
/// place frees when the stream is dropped, after its HTTP requests or
/// its WebSocket.
struct Counted {
    stream: TcpStream,
    _place: Ticket,
}

impl AsyncRead for Counted {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// A place among the connections open for a connection from `peer`, or
/// `None` (counted) over a cap.
fn admit(server: &Server, peer: std::net::IpAddr) -> Option<Ticket> {
    let proxy = server
        .config()
        .http
        .trusted_proxies
        .iter()
        .any(|net| net.contains(peer));
    let key = (!proxy).then(|| ClientKey::of(peer));
    match server.gate.connections.enter(key) {
        Ok(place) => Some(place),
        Err(full) => {
            Metrics::bump(&server.metrics.connections_refused);
            tracing::debug!(client = %ClientKey::of(peer), ?full, "connection refused");
            None
        }
    }
}

/// Serves `app` on `listener` until `server` starts stopping
/// ([`Server::begin_shutdown`]); then stops accepting, waits at most
/// `grace` for the requests in flight and for the bots deciding to store
/// their move, and returns whether everything finished in time.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    server: Arc<Server>,
    grace: Duration,
) -> bool {
    // Each connection's task holds a receiver: when all are gone, every
    // connection has finished.
    let (open_tx, open_rx) = tokio::sync::watch::channel(());
    let header_timeout = server.config().http.header_timeout;
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file descriptors and the like: the listener
                    // goes on once some connection closes.
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = server.stopped() => break,
        };
        let Some(place) = admit(&server, peer.ip()) else {
            drop(stream);
            continue;
        };
        let stream = Counted {
            stream,
            _place: place,
        };
        let client = Peer(peer.ip());
        let app = app.clone();
        let for_requests = server.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(client);
            let (req, leftover) = leftover::watch(req);
            let app = app.clone();
            let server = for_requests.clone();
            async move {
                let mut response = app.oneshot(req).await?;
                let config = server.config();
                leftover.settle(&mut response, config.max_body, config.http.body_timeout);
                Ok::<_, std::convert::Infallible>(response)
            }
        });
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder.timer(TokioTimer::new());
        builder.header_read_timeout(header_timeout);
        let conn = builder
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        let open = open_rx.clone();
        let server = server.clone();
        tokio::spawn(async move {
            let mut conn = std::pin::pin!(conn);
            let ended = tokio::select! {
                r = conn.as_mut() => r,
                () = server.stopped() => {
                    // Ends the connection after the request in flight (an
                    // upgraded WebSocket is closed by its own task).
                    conn.as_mut().graceful_shutdown();
                    conn.await
                }
            };
            if let Err(e) = ended {
                tracing::debug!(error = %e, "connection ended");
            }
            drop(open);
        });
    }
    drop(listener);
    drop(open_rx);
    let started = tokio::time::Instant::now();
    let requests = tokio::time::timeout(grace, open_tx.closed()).await.is_ok();
    let left = grace.saturating_sub(started.elapsed());
    let bots = server.bots_stopped(left).await;
    requests && bots
}
