//! Limits for a server on the public internet (issue 35 item 2): the
//! client behind a trusted proxy, IPv6 clients by /64, connection caps
//! at accept, lobby seats per client, and caps that hold when requests
//! race for their last places.

use crate::common;

use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use common::*;
use serde_json::json;
use tabletop_server::client::{Cidr, Peer};
use tabletop_server::{registry, router, Config, Server};
use tower::ServiceExt;

fn kuhn() -> String {
    specs()
        .into_iter()
        .find(|s| s.starts_with("kuhn"))
        .expect("the registry has Kuhn poker")
}

/// A configuration without per-client limits but the ones a test sets.
fn config() -> Config {
    Config {
        db: ":memory:".into(),
        ..Config::default()
    }
    .unlimited()
}

/// The status of `GET /api/games` sent with `X-Forwarded-For: forwarded`.
async fn games_forwarding(addr: SocketAddr, forwarded: &str) -> StatusCode {
    let status = reqwest::Client::new()
        .get(format!("http://{addr}/api/games"))
        .header("x-forwarded-for", forwarded)
        .send()
        .await
        .unwrap()
        .status();
    StatusCode::from_u16(status.as_u16()).unwrap()
}

/// A rate of one request a second, burst one: a client's second request
/// at once is refused, so the status tells which client a request was.
fn one_request_each(trusted: &[&str]) -> Config {
    let mut c = config();
    c.http.client_rate = 1;
    c.http.client_burst = 1;
    c.http.trusted_proxies = trusted.iter().map(|n| n.parse::<Cidr>().unwrap()).collect();
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_proxys_forwarded_client_is_the_client() {
    let (_server, addr) = listen(one_request_each(&["127.0.0.0/8"])).await;
    assert_eq!(games_forwarding(addr, "198.51.100.1").await, StatusCode::OK);
    assert_eq!(
        games_forwarding(addr, "198.51.100.1").await,
        StatusCode::TOO_MANY_REQUESTS,
        "the same client again"
    );
    assert_eq!(
        games_forwarding(addr, "198.51.100.2").await,
        StatusCode::OK,
        "another client behind the proxy has its own rate"
    );
    assert_eq!(
        games_forwarding(addr, "203.0.113.5, 198.51.100.3").await,
        StatusCode::OK,
        "the right-most untrusted hop, not the client's own word"
    );
    assert_eq!(
        games_forwarding(addr, "203.0.113.5, 198.51.100.3").await,
        StatusCode::TOO_MANY_REQUESTS,
        "198.51.100.3 again"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_untrusted_peers_forwarded_address_is_ignored() {
    let (_server, addr) = listen(one_request_each(&["10.0.0.0/8"])).await;
    assert_eq!(games_forwarding(addr, "198.51.100.1").await, StatusCode::OK);
    assert_eq!(
        games_forwarding(addr, "198.51.100.2").await,
        StatusCode::TOO_MANY_REQUESTS,
        "a header of its own does not make the peer another client"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_forwarded_header_counts_the_proxy() {
    let (_server, addr) = listen(one_request_each(&["127.0.0.1"])).await;
    assert_eq!(
        games_forwarding(addr, "not an address").await,
        StatusCode::OK
    );
    assert_eq!(
        games_forwarding(addr, "198.51.100.1, [::1").await,
        StatusCode::TOO_MANY_REQUESTS,
        "both fell back to the proxy's address"
    );
    assert_eq!(games_forwarding(addr, "198.51.100.1").await, StatusCode::OK);
}

/// `GET /api/games` through the router from peer `ip`.
async fn games_from(app: &Router, ip: &str) -> StatusCode {
    let mut req = Request::get("/api/games").body(Body::empty()).unwrap();
    req.extensions_mut()
        .insert(Peer(ip.parse::<IpAddr>().unwrap()));
    app.clone().oneshot(req).await.unwrap().status()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ipv6_clients_are_counted_by_slash_64() {
    let server = Server::open(registry(), one_request_each(&[])).unwrap();
    let app = router(server);
    assert_eq!(games_from(&app, "2001:db8:0:1::1").await, StatusCode::OK);
    assert_eq!(
        games_from(&app, "2001:db8:0:1:ffff::2").await,
        StatusCode::TOO_MANY_REQUESTS,
        "another address of the same /64"
    );
    assert_eq!(
        games_from(&app, "2001:db8:0:2::1").await,
        StatusCode::OK,
        "the next /64 is another client"
    );
    assert_eq!(games_from(&app, "192.0.2.1").await, StatusCode::OK);
    assert_eq!(
        games_from(&app, "::ffff:192.0.2.2").await,
        StatusCode::OK,
        "IPv4 clients of a dual-stack listener are not one /64"
    );
    assert_eq!(
        games_from(&app, "::ffff:192.0.2.1").await,
        StatusCode::TOO_MANY_REQUESTS,
        "192.0.2.1 written as IPv6"
    );
}

/// A connection that has been answered once (so the listener accepted
/// it), kept alive.
fn served(addr: SocketAddr) -> Option<TcpStream> {
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .ok()?;
    let mut buf = [0u8; 512];
    let n = s.read(&mut buf).ok()?;
    buf[..n].starts_with(b"HTTP/1.1 200").then_some(s)
}

/// Connections from one peer until one is refused (at most `most` + 1).
fn connect_until_refused(addr: SocketAddr, most: usize) -> Vec<TcpStream> {
    let mut held = Vec::new();
    while held.len() <= most {
        match served(addr) {
            Some(s) => held.push(s),
            None => break,
        }
    }
    held
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_are_capped_per_address_at_accept() {
    let mut c = config();
    c.http.max_connections_per_address = 3;
    let (server, addr) = listen(c).await;
    let mut held = tokio::task::spawn_blocking(move || connect_until_refused(addr, 3))
        .await
        .unwrap();
    assert_eq!(held.len(), 3, "three connections, the fourth closed");
    assert!(server
        .metrics_text()
        .contains("tabletop_connections_refused_total 1\n"));
    held.pop();
    // Its place frees once the server sees it closed.
    let again = tokio::task::spawn_blocking(move || {
        (0..100).any(|_| {
            std::thread::sleep(Duration::from_millis(20));
            served(addr).is_some()
        })
    })
    .await
    .unwrap();
    assert!(again, "a closed connection frees its place");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_are_capped_in_all_even_from_a_trusted_proxy() {
    let mut c = config();
    c.http.max_connections = 4;
    c.http.max_connections_per_address = 1;
    c.http.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    let (server, addr) = listen(c).await;
    let held = tokio::task::spawn_blocking(move || connect_until_refused(addr, 4))
        .await
        .unwrap();
    assert_eq!(
        held.len(),
        4,
        "a proxy's connections pass the per-address cap, not the total"
    );
    assert!(server
        .metrics_text()
        .contains("tabletop_connections_open 4\n"));
}

/// `POST /api/lobby` of a listed Kuhn match, from peer `ip`.
async fn open_from(app: &Router, ip: &str) -> (StatusCode, serde_json::Value) {
    let body = json!({"game": kuhn(), "seat": 0, "listed": true}).to_string();
    let mut req = Request::post("/api/lobby")
        .header("content-type", "application/json")
        .body(Body::from(body))
        .unwrap();
    req.extensions_mut()
        .insert(Peer(ip.parse::<IpAddr>().unwrap()));
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = http_body_util::BodyExt::collect(res.into_body())
        .await
        .unwrap()
        .to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap_or_default())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_may_leave_only_so_many_seats_in_the_lobby() {
    let mut c = config();
    c.memory.lobby_seats_per_client = 2;
    let server = Server::open(registry(), c).unwrap();
    let app = router(server);
    let (first, answer) = open_from(&app, "198.51.100.1").await;
    assert_eq!(first, StatusCode::CREATED, "{answer}");
    assert_eq!(open_from(&app, "198.51.100.1").await.0, StatusCode::CREATED);
    let (third, refusal) = open_from(&app, "198.51.100.1").await;
    assert_eq!(third, StatusCode::TOO_MANY_REQUESTS, "{refusal}");
    assert_eq!(refusal["kind"], "too_many");
    assert_eq!(
        open_from(&app, "198.51.100.2").await.0,
        StatusCode::CREATED,
        "another client has seats of its own"
    );
    let id = answer["id"].as_i64().unwrap();
    let join = send(
        &app,
        "POST",
        &format!("/api/matches/{id}/join"),
        None,
        Some(b"{}".to_vec()),
    )
    .await;
    assert_eq!(join.status, StatusCode::OK, "{}", join.json);
    assert_eq!(
        open_from(&app, "198.51.100.1").await.0,
        StatusCode::CREATED,
        "a seat taken frees its place"
    );
}

/// Sends `n` copies of a request at once from one client, each on a task
/// of its own; their statuses.
async fn race(app: &Router, n: usize, uri: &'static str, body: String) -> Vec<StatusCode> {
    let start = Arc::new(tokio::sync::Barrier::new(n));
    let tasks: Vec<_> = (0..n)
        .map(|_| {
            let (app, body, start) = (app.clone(), body.clone(), start.clone());
            tokio::spawn(async move {
                let mut req = Request::post(uri)
                    .header("content-type", "application/json")
                    .body(Body::from(body))
                    .unwrap();
                req.extensions_mut()
                    .insert(Peer("198.51.100.7".parse::<IpAddr>().unwrap()));
                start.wait().await;
                app.oneshot(req).await.unwrap().status()
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.unwrap());
    }
    statuses
}

fn count(statuses: &[StatusCode], status: StatusCode) -> usize {
    statuses.iter().filter(|s| **s == status).count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_creations_get_exactly_the_match_cap() {
    let mut c = config();
    c.memory.matches_per_client = 5;
    let server = Server::open(registry(), c).unwrap();
    let app = router(server);
    let body = json!({"game": kuhn(), "seats": ["human", "human"]}).to_string();
    let statuses = race(&app, 40, "/api/matches", body).await;
    assert_eq!(count(&statuses, StatusCode::CREATED), 5, "{statuses:?}");
    assert_eq!(count(&statuses, StatusCode::TOO_MANY_REQUESTS), 35);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_lobby_seats_get_exactly_the_seat_cap() {
    let mut c = config();
    c.memory.lobby_seats_per_client = 3;
    let server = Server::open(registry(), c).unwrap();
    let app = router(server);
    let body = json!({"game": kuhn(), "seat": 1, "listed": true}).to_string();
    let statuses = race(&app, 30, "/api/lobby", body).await;
    assert_eq!(count(&statuses, StatusCode::CREATED), 3, "{statuses:?}");
    assert_eq!(count(&statuses, StatusCode::TOO_MANY_REQUESTS), 27);
}
