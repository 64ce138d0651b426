//! HTTP hygiene (issue 23 item 2): header and body read timeouts, the body
//! limit, JSON required where JSON is read, the Host allow-list, security
//! headers, `no-store` on private views, the JSON error on every 4xx, a
//! 503 of a failed database without the database's text, and a WebSocket
//! that answers only what is asked and closes on a flood.

use crate::common;

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use common::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tabletop_server::{router, Config};
use tokio_tungstenite::tungstenite::Message;
use tower::ServiceExt;

/// Sends `req` through the router: status, headers and JSON body.
async fn call(app: &Router, req: Request<Body>) -> (StatusCode, axum::http::HeaderMap, Value) {
    let res = app.clone().oneshot(req).await.unwrap();
    let (parts, body) = res.into_parts();
    let bytes = http_body_util::BodyExt::collect(body)
        .await
        .unwrap()
        .to_bytes();
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (parts.status, parts.headers, json)
}

/// The documented error body: `error`, `status` equal to the status, `kind`.
fn assert_json_error(status: StatusCode, body: &Value, what: &str) {
    assert!(body["error"].is_string(), "{what}: {body}");
    assert_eq!(body["status"], json!(status.as_u16()), "{what}: {body}");
    assert!(body["kind"].is_string(), "{what}: {body}");
}

fn config() -> Config {
    Config {
        db: ":memory:".into(),
        ..Config::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_sending_its_headers_slowly_is_cut() {
    let mut c = config();
    c.http.header_timeout = Duration::from_millis(800);
    let (_server, addr) = listen(c).await;
    let started = Instant::now();
    let cut = tokio::task::spawn_blocking(move || {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.write_all(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            .unwrap();
        // One header byte at a time, never the blank line that ends them.
        for _ in 0..40 {
            std::thread::sleep(Duration::from_millis(100));
            if s.write_all(b"X").is_err() {
                return true;
            }
        }
        let mut buf = [0u8; 64];
        s.set_read_timeout(Some(Duration::from_secs(1))).unwrap();
        matches!(s.read(&mut buf), Ok(0) | Err(_))
    })
    .await
    .unwrap();
    assert!(cut, "the slow connection was closed");
    assert!(started.elapsed() < Duration::from_secs(6));
    // An idle connection (no byte at all) is closed too.
    let idle = tokio::task::spawn_blocking(move || {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut buf = [0u8; 64];
        let t = Instant::now();
        let closed = matches!(s.read(&mut buf), Ok(0));
        closed && t.elapsed() < Duration::from_secs(4)
    })
    .await
    .unwrap();
    assert!(
        idle,
        "an idle connection is closed after the header timeout"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_sent_slowly_is_a_408_with_the_json_error() {
    let mut c = config();
    c.http.body_timeout = Duration::from_millis(500);
    let (_server, addr) = listen(c).await;
    let answer = tokio::task::spawn_blocking(move || {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.write_all(
            b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"game\"",
        )
        .unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut out = Vec::new();
        let mut buf = [0u8; 1024];
        while let Ok(n) = s.read(&mut buf) {
            if n == 0 {
                break;
            }
            out.extend_from_slice(&buf[..n]);
            if out.windows(4).any(|w| w == b"\r\n\r\n") && out.ends_with(b"}") {
                break;
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    })
    .await
    .unwrap();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let body: Value = serde_json::from_str(answer.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_json_error(StatusCode::REQUEST_TIMEOUT, &body, "slow body");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_over_the_limit_is_a_413_with_the_json_error() {
    let (_, app) = app(false);
    let limit = Config::default().max_body;
    let big = format!("{{\"game\": \"{}\"}}", "x".repeat(limit));
    // Declared by Content-Length (refused before reading) and streamed.
    for declared in [true, false] {
        let mut req = Request::post("/api/matches").header("content-type", "application/json");
        if declared {
            req = req.header("content-length", big.len());
        }
        let body = if declared {
            Body::from(big.clone())
        } else {
            Body::from_stream(futures_util::stream::iter(vec![Ok::<_, std::io::Error>(
                big.clone(),
            )]))
        };
        let (status, _, json) = call(&app, req.body(body).unwrap()).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "declared {declared}");
        assert_json_error(status, &json, "too large");
        assert_eq!(json["kind"], "too_large");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_not_declared_json_is_a_415_and_creates_nothing() {
    let (_, app) = app(false);
    let body = json!({"game": specs()[0], "seats": ["human", "human"], "seed": 1}).to_string();
    for content_type in [
        None,
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
    ] {
        let mut req = Request::post("/api/matches");
        if let Some(t) = content_type {
            req = req.header("content-type", t);
        }
        let (status, _, json) = call(&app, req.body(Body::from(body.clone())).unwrap()).await;
        assert_eq!(
            status,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{content_type:?}"
        );
        assert_json_error(status, &json, "not json");
        assert_eq!(json["kind"], "not_json");
    }
    let r = send(&app, "GET", "/api/matches/1", None, None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "no match was created");
    // An action is refused the same way, and nothing is played.
    let (id, t) = create(&app, &specs()[0], ["human", "human"], 1).await;
    let before = send(&app, "GET", &format!("/api/matches/{id}"), None, None).await;
    for token in &t {
        let req = Request::post(format!("/api/matches/{id}/actions"))
            .header(
                "authorization",
                format!("Bearer {}", token.as_ref().unwrap()),
            )
            .header("content-type", "text/plain")
            .body(Body::from("{\"action\": 0}"))
            .unwrap();
        let (status, _, json) = call(&app, req).await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert_json_error(status, &json, "action not json");
    }
    let after = send(&app, "GET", &format!("/api/matches/{id}"), None, None).await;
    assert_eq!(before.bytes, after.bytes);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_outside_the_allow_list_is_a_421() {
    let (_, app) = app(false);
    let get = |host: &'static str| {
        Request::get("/api/games")
            .header("host", host)
            .body(Body::empty())
            .unwrap()
    };
    for host in ["localhost:8080", "127.0.0.1", "[::1]:80", "LOCALHOST"] {
        let (status, _, _) = call(&app, get(host)).await;
        assert_eq!(status, StatusCode::OK, "{host}");
    }
    for host in [
        "evil.example:8080",
        "evil.example",
        "localhost.evil.example",
        "",
    ] {
        let (status, _, json) = call(&app, get(host)).await;
        assert_eq!(status, StatusCode::MISDIRECTED_REQUEST, "{host}");
        assert_json_error(status, &json, host);
        assert_eq!(json["kind"], "bad_host");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_has_the_security_headers_and_private_views_are_not_stored() {
    let (_, app) = app(false);
    for path in ["/", "/web/app.js", "/api/games", "/no/such/page"] {
        let (_, headers, _) = call(&app, Request::get(path).body(Body::empty()).unwrap()).await;
        assert_eq!(
            headers["content-security-policy"],
            tabletop_server::CONTENT_SECURITY_POLICY,
            "{path}"
        );
        assert!(headers["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("frame-ancestors 'none'"));
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["x-frame-options"], "DENY", "{path}");
    }
    let body = json!({"game": specs()[0], "seats": ["human", "human"], "seed": 2}).to_string();
    let req = Request::post("/api/matches")
        .header("content-type", "application/json")
        .body(Body::from(body))
        .unwrap();
    let (status, headers, created) = call(&app, req).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(
        headers["cache-control"], "no-store",
        "the tokens are private"
    );
    let id = created["id"].as_i64().unwrap();
    let token = created["tokens"][0]["token"].as_str().unwrap();
    let req = Request::get(format!("/api/matches/{id}"))
        .header("authorization", format!("Bearer {token}"))
        .body(Body::empty())
        .unwrap();
    let (status, headers, _) = call(&app, req).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        headers["cache-control"], "no-store",
        "a seat's view is private"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_4xx_has_the_json_error_including_405_and_404() {
    let (_, app) = app(false);
    let (id, t) = create(&app, &specs()[0], ["human", "human"], 3).await;
    let cases: Vec<(&str, String, Option<&str>, Option<&str>)> = vec![
        ("DELETE", "/api/games".into(), None, None),
        ("PUT", "/api/matches".into(), None, Some("{}")),
        ("POST", format!("/api/matches/{id}"), None, None),
        ("GET", format!("/api/matches/{id}/actions"), None, None),
        ("PATCH", "/".into(), None, None),
        ("GET", "/nothing/here".into(), None, None),
        ("GET", "/web/missing.js".into(), None, None),
        ("GET", "/api/matches/99999".into(), None, None),
        ("GET", "/api/matches/abc".into(), None, None),
        ("GET", format!("/api/matches/{id}"), Some("Basic x"), None),
        (
            "GET",
            format!("/api/matches/{id}"),
            Some("Bearer 00000000000000000000000000000000"),
            None,
        ),
        (
            "POST",
            format!("/api/matches/{id}/actions"),
            None,
            Some("{\"action\": 0}"),
        ),
        ("POST", "/api/matches".into(), None, Some("{not json")),
        ("GET", format!("/api/matches/{id}/ws"), None, None),
    ];
    for (method, path, auth, body) in cases {
        let mut req = Request::builder().method(method).uri(&path);
        if let Some(a) = auth {
            req = req.header("authorization", a);
        }
        let req = match body {
            Some(b) => req
                .header("content-type", "application/json")
                .body(Body::from(b)),
            None => req.body(Body::empty()),
        }
        .unwrap();
        let (status, headers, json) = call(&app, req).await;
        assert!(status.is_client_error(), "{method} {path}: {status}");
        assert_json_error(status, &json, &format!("{method} {path}"));
        assert_eq!(
            headers["content-type"], "application/json",
            "{method} {path}"
        );
        if status == StatusCode::METHOD_NOT_ALLOWED {
            assert_eq!(json["kind"], "method_not_allowed");
            assert!(headers.contains_key("allow"), "{method} {path} keeps Allow");
        }
    }
    assert!(t[0].is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_websocket_answers_only_a_request_and_closes_on_a_flood() {
    let mut c = config();
    c.http.ws_rate = 5;
    let (server, addr) = listen(c).await;
    let app = router(server.clone());
    let (id, t) = create(&app, &specs()[0], ["human", "human"], 5).await;
    let url = format!(
        "ws://{addr}/api/matches/{id}/ws?token={}",
        t[0].as_ref().unwrap()
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let first = tokio::time::timeout(Duration::from_secs(5), ws.next())
        .await
        .unwrap();
    assert!(first.unwrap().unwrap().is_text(), "the view on connect");
    // Stray messages get no answer.
    for stray in ["x", "{}", "{\"type\":\"move\"}"] {
        ws.send(Message::Text(stray.into())).await.unwrap();
    }
    ws.send(Message::Binary(vec![1u8].into())).await.unwrap();
    let quiet = tokio::time::timeout(Duration::from_millis(400), ws.next()).await;
    assert!(quiet.is_err(), "no answer to a stray message: {quiet:?}");
    // Asking is answered with the view.
    ws.send(Message::Text("{\"type\":\"view\"}".into()))
        .await
        .unwrap();
    let view = tokio::time::timeout(Duration::from_secs(5), ws.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let v: Value = serde_json::from_str(view.to_text().unwrap()).unwrap();
    assert_eq!(v["id"], json!(id));
    // A flood of requests: a few views (the burst), then a close 1008.
    for _ in 0..100 {
        if ws
            .send(Message::Text("{\"type\":\"view\"}".into()))
            .await
            .is_err()
        {
            break;
        }
    }
    let mut views = 0;
    let code = loop {
        match tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .unwrap()
        {
            Some(Ok(Message::Text(_))) => views += 1,
            Some(Ok(Message::Close(frame))) => break frame.map(|f| u16::from(f.code)),
            Some(Ok(_)) => {}
            other => panic!("the socket ended without a close frame: {other:?}"),
        }
    };
    assert_eq!(code, Some(1008));
    assert!(views <= 10, "at most the burst was answered: {views}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_503_of_a_failed_database_keeps_its_kind_and_not_its_text() {
    let path = std::env::temp_dir().join(format!("tabletop-failing-{}.db", std::process::id()));
    let db = path.to_str().unwrap().to_owned();
    let (_server, app) = app_at(&db, false);
    // The records' tables are gone under the server: its next write fails
    // with SQLite's text, which names them.
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("DROP TABLE actions; DROP TABLE matches;")
        .unwrap();
    let body = json!({"game": specs()[0], "seats": ["human", "human"], "seed": 1}).to_string();
    let r = send(&app, "POST", "/api/matches", None, Some(body.into_bytes())).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.json);
    assert_json_error(r.status, &r.json, "failed database");
    assert_eq!(r.json["kind"], "storage");
    let text = String::from_utf8_lossy(&r.bytes).to_lowercase();
    for internal in ["table", "matches", "sqlite", "tabletop-failing"] {
        assert!(!text.contains(internal), "{internal:?} in {text}");
    }
    drop(app);
    remove_sqlite(&db);
}
