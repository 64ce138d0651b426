//! The listener: accepts connections and serves HTTP/1.1 on them with
//! hyper, as `axum::serve` does, plus what it cannot be told: a header read
//! timeout (a connection that sends its headers slowly, or sits idle
//! between requests, is closed: no slow-loris), the peer address of every
//! request ([`ClientAddr`], for the per-client limits), and a graceful stop
//! that answers the requests in flight (moves included) before returning.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tower::ServiceExt;

use crate::limits::ClientAddr;
use crate::Server;

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
        let client = ClientAddr(peer.ip());
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(client);
            app.clone().oneshot(req.map(Body::new))
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
