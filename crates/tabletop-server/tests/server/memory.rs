//! Bounded memory (issue 23 item 1): finished and idle matches leave
//! memory and are rebuilt from the store, byte for byte, when asked for;
//! a match someone holds stays; the limits on matches per client, requests
//! a second and WebSockets answer 429 with the JSON error and
//! `Retry-After`.

use crate::common;

use std::time::Duration;

use axum::http::StatusCode;
use common::*;
use serde_json::{json, Value};
use tabletop_server::{registry, router, Config, Server};

fn kuhn() -> String {
    specs()
        .into_iter()
        .find(|s| s.starts_with("kuhn"))
        .expect("the registry has Kuhn poker")
}

/// Plays a two-person match to the end with each seat's first legal move.
async fn finish(app: &axum::Router, id: i64, t: &[Option<String>; 2]) -> Value {
    for _ in 0..1000 {
        let v = send(app, "GET", &format!("/api/matches/{id}"), None, None)
            .await
            .json;
        if !v["outcome"].is_null() {
            return v;
        }
        let seat = v["to_move"].as_u64().unwrap() as usize;
        let token = t[seat].as_deref().unwrap();
        let own = send(app, "GET", &format!("/api/matches/{id}"), Some(token), None)
            .await
            .json;
        let body = json!({"action": own["legal"][0]["id"]})
            .to_string()
            .into_bytes();
        let r = send(
            app,
            "POST",
            &format!("/api/matches/{id}/actions"),
            Some(token),
            Some(body),
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json);
    }
    panic!("match {id} did not end");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_match_leaves_memory_and_is_served_from_its_stored_views() {
    let (server, app) = app(false);
    let (id, t) = create(&app, &kuhn(), ["human", "human"], 11).await;
    let end = finish(&app, id, &t).await;
    let seat_view = send(
        &app,
        "GET",
        &format!("/api/matches/{id}"),
        t[0].as_deref(),
        None,
    )
    .await;
    assert_eq!(server.in_memory(), 1);
    assert_eq!(server.sweep().await, 1, "the finished match leaves");
    assert_eq!(server.in_memory(), 0);
    let again = send(&app, "GET", &format!("/api/matches/{id}"), None, None).await;
    assert_eq!(again.json, end, "served as stored");
    let seat_again = send(
        &app,
        "GET",
        &format!("/api/matches/{id}"),
        t[0].as_deref(),
        None,
    )
    .await;
    assert_eq!(
        seat_again.bytes, seat_view.bytes,
        "the seat's view, byte for byte"
    );
    let metrics = server.metrics_text();
    assert!(
        metrics.contains("tabletop_matches_loaded_total 0\n"),
        "{metrics}"
    );
    assert!(
        metrics.contains("tabletop_views_archived_total 2\n"),
        "{metrics}"
    );
    assert_eq!(
        server.in_memory(),
        0,
        "reading it brought nothing into memory"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_match_leaves_memory_and_plays_on_when_asked_for() {
    let config = Config {
        db: ":memory:".into(),
        memory: tabletop_server::MemoryLimits {
            idle: Duration::ZERO,
            ..Default::default()
        },
        ..Config::default()
    }
    .unlimited();
    let server = Server::open(registry(), config).unwrap();
    let app = router(server.clone());
    let (id, t) = create(&app, &kuhn(), ["human", "human"], 12).await;
    let before = send(&app, "GET", &format!("/api/matches/{id}"), None, None).await;
    // A match someone holds stays, however idle.
    let held = server.cell(id).await.unwrap().unwrap();
    tokio::time::sleep(Duration::from_millis(5)).await;
    assert_eq!(server.sweep().await, 0);
    drop(held);
    assert_eq!(
        server.sweep().await,
        1,
        "idle and held by nobody: it leaves"
    );
    let after = send(&app, "GET", &format!("/api/matches/{id}"), None, None).await;
    assert_eq!(before.bytes, after.bytes);
    let end = finish(&app, id, &t).await;
    assert!(
        !end["outcome"].is_null(),
        "it plays on after leaving memory"
    );
}

/// docs/server.md, "Retention": `--retain-finished-days` deletes the
/// finished unrated matches that long after a sweep first saw them over;
/// a running match stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_retention_deletes_finished_matches_and_keeps_running_ones() {
    let config = Config {
        db: ":memory:".into(),
        retain_finished: Some(Duration::from_millis(1)),
        ..Config::default()
    }
    .unlimited();
    let server = Server::open(registry(), config).unwrap();
    let app = router(server.clone());
    let (over, t) = create(&app, &kuhn(), ["human", "human"], 21).await;
    finish(&app, over, &t).await;
    let (running, _) = create(&app, &kuhn(), ["human", "human"], 22).await;
    assert_eq!(
        server.expire().await.unwrap(),
        0,
        "the first sweep sees it over"
    );
    tokio::time::sleep(Duration::from_millis(5)).await;
    assert_eq!(server.expire().await.unwrap(), 1);
    assert_eq!(server.sweep().await, 1, "nobody holds it: it leaves memory");
    let gone = send(&app, "GET", &format!("/api/matches/{over}"), None, None).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    let kept = send(&app, "GET", &format!("/api/matches/{running}"), None, None).await;
    assert_eq!(kept.status, StatusCode::OK);
    assert!(server
        .metrics_text()
        .contains("tabletop_matches_expired_total 1"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_due_in_a_rebuilt_match_plays() {
    let db = std::env::temp_dir().join(format!("tabletop-memory-{}.db", std::process::id()));
    let path = db.display().to_string();
    let (id, token) = {
        let (server, app) = app_at(&path, false);
        let (id, t) = create(&app, &kuhn(), ["human", "bot:random"], 13).await;
        // Left memory while the person is to move.
        drop(app);
        drop(server);
        (id, t[0].clone().unwrap())
    };
    let (_server, app) = app_at(&path, false);
    let end = play_out(&app, id, &token, 13, 2000).await;
    assert!(
        !end["outcome"].is_null(),
        "the bot played after the rebuild"
    );
    remove_sqlite(&path);
}

fn limited(r: &Resp, what: &str) {
    assert_eq!(
        r.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{what}: {}",
        r.json
    );
    assert_eq!(r.json["status"], 429, "{what}");
    assert_eq!(r.json["kind"], "too_many", "{what}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_may_hold_only_so_many_unfinished_matches() {
    let mut config = Config {
        db: ":memory:".into(),
        ..Config::default()
    }
    .unlimited();
    config.memory.matches_per_client = 2;
    let server = Server::open(registry(), config).unwrap();
    let app = router(server.clone());
    let (id, t) = create(&app, &kuhn(), ["human", "human"], 1).await;
    create(&app, &kuhn(), ["human", "human"], 2).await;
    let body = json!({"game": kuhn(), "seats": ["human", "human"]})
        .to_string()
        .into_bytes();
    let r = send(&app, "POST", "/api/matches", None, Some(body.clone())).await;
    limited(&r, "a third match");
    finish(&app, id, &t).await;
    let r = send(&app, "POST", "/api/matches", None, Some(body)).await;
    assert_eq!(
        r.status,
        StatusCode::CREATED,
        "one finished: room for another"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_over_its_request_rate_gets_429_with_retry_after() {
    let mut config = Config {
        db: ":memory:".into(),
        ..Config::default()
    };
    config.http.client_rate = 1;
    config.http.client_burst = 3;
    let server = Server::open(registry(), config).unwrap();
    let app = router(server.clone());
    for _ in 0..3 {
        assert_eq!(
            send(&app, "GET", "/api/games", None, None).await.status,
            StatusCode::OK
        );
    }
    let r = send(&app, "GET", "/api/games", None, None).await;
    limited(&r, "the fourth request at once");
    let req = axum::http::Request::get("/api/games")
        .body(axum::body::Body::empty())
        .unwrap();
    let res = tower::ServiceExt::oneshot(app.clone(), req).await.unwrap();
    assert!(res.headers().contains_key("retry-after"));
    // Probes are never limited.
    for path in ["/healthz", "/readyz", "/metrics"] {
        assert_eq!(
            send(&app, "GET", path, None, None).await.status,
            StatusCode::OK,
            "{path}"
        );
    }
    assert!(server.metrics_text().contains("tabletop_limited_total 2\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websockets_are_limited_per_client_and_in_all() {
    let mut config = Config {
        db: ":memory:".into(),
        ..Config::default()
    };
    config.http.ws_per_client = 2;
    let server = Server::open(registry(), config).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = router(server.clone());
    let s = server.clone();
    tokio::spawn(async move {
        tabletop_server::listen::serve(listener, app, s, Duration::from_secs(5)).await
    });
    let (id, _) = create(&router(server.clone()), &kuhn(), ["human", "human"], 3).await;
    let url = format!("ws://{addr}/api/matches/{id}/ws");
    let a = tokio_tungstenite::connect_async(&url).await.unwrap();
    let b = tokio_tungstenite::connect_async(&url).await.unwrap();
    match tokio_tungstenite::connect_async(&url).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => {
            assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS)
        }
        other => panic!("a third socket of one client: {other:?}"),
    }
    drop(a);
    drop(b);
    // Their places free once the server sees them closed.
    let mut reopened = false;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        if let Ok(c) = tokio_tungstenite::connect_async(&url).await {
            reopened = true;
            drop(c);
            break;
        }
    }
    assert!(reopened);
}
