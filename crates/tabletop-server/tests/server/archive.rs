//! Old matches cost what a page costs (issue 35 item 1): a finished
//! match's views are stored when it leaves memory and served as stored;
//! its replay, record, notation and players are read without bringing it
//! back into memory; a match that finished before views were kept is
//! rebuilt once, then served as stored; every answer is the one the live
//! match gave, byte for byte, and each seat's view still needs its token.

use crate::common;

use axum::http::StatusCode;
use common::*;
use serde_json::Value;
use tabletop_server::store::Store;

/// A card war match of two people played out to its end; its id and
/// tokens.
async fn finished_match(app: &axum::Router, seed: u64) -> (i64, [String; 2]) {
    let spec = specs()
        .into_iter()
        .find(|s| s.starts_with("cardwar"))
        .expect("the registry has the card war");
    let (id, t) = create(app, &spec, ["human", "human"], seed).await;
    let t = [0, 1].map(|i| t[i].clone().expect("a person's seat has a token"));
    let (a, b) = (app.clone(), t[1].clone());
    let other = tokio::spawn(async move { play_out(&a, id, &b, seed + 1, 5000).await });
    let end = play_out(app, id, &t[0], seed, 5000).await;
    other.await.expect("the other seat plays");
    assert!(!end["outcome"].is_null(), "match {id} ended");
    (id, t)
}

/// Every read of match `id`: the spectator's and each seat's view, a
/// replay from each viewpoint at a middle step and at the end, the
/// record, the notation and the players.
async fn reads(app: &axum::Router, id: i64, t: &[String; 2]) -> Vec<(String, Vec<u8>)> {
    let mut uris: Vec<(String, Option<&str>)> = vec![
        (format!("/api/matches/{id}"), None),
        (format!("/api/matches/{id}"), Some(&t[0])),
        (format!("/api/matches/{id}"), Some(&t[1])),
        (format!("/api/matches/{id}/record"), None),
        (format!("/api/matches/{id}/notation"), None),
        (format!("/api/matches/{id}/players"), None),
    ];
    for view in ["spectator", "0", "1", "full"] {
        uris.push((format!("/api/matches/{id}/replay?step=7&view={view}"), None));
        uris.push((format!("/api/matches/{id}/replay?view={view}"), Some(&t[0])));
    }
    let mut out = Vec::new();
    for (uri, token) in uris {
        let r = send(app, "GET", &uri, token, None).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.json);
        out.push((
            format!("{uri} {}", token.map_or("spectator", |_| "seat")),
            r.bytes,
        ));
    }
    out
}

fn counter(server: &tabletop_server::Server, name: &str) -> u64 {
    metric(&server.metrics_text(), name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_match_is_read_from_the_store_without_entering_memory() {
    let (server, app) = app(false);
    let (id, t) = finished_match(&app, 31).await;
    let live = reads(&app, id, &t).await;
    assert_eq!(server.sweep().await, 1, "the finished match leaves memory");
    let stored = reads(&app, id, &t).await;
    for ((what, before), (_, after)) in live.iter().zip(&stored) {
        assert!(
            before == after,
            "{what}: the stored answer differs from the live one"
        );
    }
    assert_eq!(server.in_memory(), 0, "no read brought it back into memory");
    assert_eq!(counter(&server, "tabletop_matches_loaded_total"), 0);
    assert_eq!(
        counter(&server, "tabletop_views_archived_total"),
        3,
        "the three views were served as stored"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_seat_view_needs_that_seats_token() {
    let (server, app) = app(false);
    let (id, t) = finished_match(&app, 32).await;
    let (other, u) = finished_match(&app, 33).await;
    server.sweep().await;
    let uri = format!("/api/matches/{id}");
    let foreign = send(&app, "GET", &uri, Some(&u[0]), None).await;
    assert_eq!(foreign.status, StatusCode::FORBIDDEN, "{}", foreign.json);
    assert_eq!(foreign.json["kind"], "forbidden");
    let bad = send(&app, "GET", &uri, Some("not-a-token"), None).await;
    assert_eq!(bad.status, StatusCode::UNAUTHORIZED, "{}", bad.json);
    let unknown = send(
        &app,
        "GET",
        "/api/matches/999999",
        Some("not-a-token"),
        None,
    )
    .await;
    assert_eq!(
        unknown.status,
        StatusCode::NOT_FOUND,
        "an unknown match first"
    );
    // Each seat's stored view is its own: the hidden cards it saw differ.
    let seat = |i: usize| {
        let app = app.clone();
        let (uri, token) = (uri.clone(), t[i].clone());
        async move { send(&app, "GET", &uri, Some(&token), None).await.json }
    };
    let (v0, v1) = (seat(0).await, seat(1).await);
    assert_eq!((v0["you"].as_u64(), v1["you"].as_u64()), (Some(0), Some(1)));
    let spectator = send(&app, "GET", &uri, None, None).await.json;
    assert!(spectator["you"].is_null() && spectator["observation"].is_null());
    assert_ne!(other, id);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_finished_before_views_were_kept_is_rebuilt_once_then_served_as_stored() {
    let db = std::env::temp_dir().join(format!("tabletop-archive-{}.db", std::process::id()));
    let path = db.display().to_string();
    let (id, t, live) = {
        let (server, app) = app_at(&path, false);
        let (id, t) = finished_match(&app, 34).await;
        let live = send(
            &app,
            "GET",
            &format!("/api/matches/{id}"),
            Some(&t[1]),
            None,
        )
        .await;
        // The process stops with the match still in memory: no views
        // stored, as for a match of a server from before they were kept.
        drop(app);
        drop(server);
        (id, t, live.bytes)
    };
    let unkept = Store::open(&db, false).unwrap().kept(id).unwrap().unwrap();
    assert!(unkept.views.is_none(), "no views stored yet");
    let (server, app) = app_at(&path, false);
    let uri = format!("/api/matches/{id}");
    let first = send(&app, "GET", &uri, Some(&t[1]), None).await;
    assert_eq!(first.bytes, live, "the rebuilt view is the live one");
    assert_eq!(counter(&server, "tabletop_matches_rebuilt_total"), 1);
    let again = send(&app, "GET", &uri, Some(&t[1]), None).await;
    assert_eq!(again.bytes, live);
    assert_eq!(
        counter(&server, "tabletop_matches_rebuilt_total"),
        1,
        "the second read is served as stored"
    );
    assert_eq!(counter(&server, "tabletop_views_archived_total"), 1);
    assert_eq!(server.in_memory(), 0);
    drop(app);
    drop(server);
    remove_sqlite(&path);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_match_with_a_rematch_is_read_live_with_the_rematch() {
    let (server, app) = app(false);
    let (id, t) = finished_match(&app, 35).await;
    server.sweep().await;
    let r = send(
        &app,
        "POST",
        &format!("/api/matches/{id}/rematch"),
        Some(&t[0]),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json);
    let new = r.json["id"].as_i64().unwrap();
    let v: Value = send(
        &app,
        "GET",
        &format!("/api/matches/{id}"),
        Some(&t[1]),
        None,
    )
    .await
    .json;
    assert_eq!(v["rematch"], new, "the other seat sees the offer");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retention_deletes_a_finished_matchs_stored_views_with_it() {
    let db = std::env::temp_dir().join(format!("tabletop-archive-rt-{}.db", std::process::id()));
    let path = db.display().to_string();
    let (server, app) = app_at(&path, false);
    let (id, _) = finished_match(&app, 36).await;
    server.sweep().await;
    let store = Store::open(&db, false).unwrap();
    assert!(
        store.kept(id).unwrap().unwrap().views.is_some(),
        "kept on leaving memory"
    );
    assert_eq!(
        store.expire(1, 0).unwrap(),
        Vec::<i64>::new(),
        "stamped first"
    );
    assert_eq!(store.expire(2, 2).unwrap(), vec![id], "then expired");
    assert!(store.kept(id).unwrap().is_none());
    let gone = send(&app, "GET", &format!("/api/matches/{id}"), None, None).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    drop(app);
    drop(server);
    remove_sqlite(&path);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_match_no_one_plays_now_is_read_without_entering_memory() {
    let db = std::env::temp_dir().join(format!("tabletop-archive-run-{}.db", std::process::id()));
    let path = db.display().to_string();
    let spec = specs().into_iter().find(|s| s.starts_with("kuhn")).unwrap();
    let (id, t, live) = {
        let (server, app) = app_at(&path, false);
        let (id, t) = create(&app, &spec, ["human", "human"], 37).await;
        let uri = format!("/api/matches/{id}");
        let live = [None, t[0].as_deref(), t[1].as_deref()];
        let mut views = Vec::new();
        for token in live {
            views.push(send(&app, "GET", &uri, token, None).await.bytes);
        }
        drop(app);
        drop(server);
        (id, t, views)
    };
    let (server, app) = app_at(&path, false);
    assert_eq!(
        server.in_memory(),
        0,
        "waiting for a person: not loaded at start"
    );
    let uri = format!("/api/matches/{id}");
    for (token, before) in [None, t[0].as_deref(), t[1].as_deref()]
        .into_iter()
        .zip(&live)
    {
        let r = send(&app, "GET", &uri, token, None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json);
        assert!(
            &r.bytes == before,
            "the view rebuilt outside memory is the live one"
        );
    }
    assert_eq!(
        server.in_memory(),
        0,
        "reading it brought nothing into memory"
    );
    assert_eq!(counter(&server, "tabletop_matches_rebuilt_total"), 3);
    let foreign = send(&app, "GET", &uri, Some(&"0".repeat(32)), None).await;
    assert_eq!(foreign.status, StatusCode::FORBIDDEN, "{}", foreign.json);
    // A seat's move brings it into memory, where it is played.
    let v = send(&app, "GET", &uri, t[0].as_deref(), None).await.json;
    let mover = t[v["to_move"].as_u64().unwrap() as usize].as_deref();
    let legal = send(&app, "GET", &uri, mover, None).await.json["legal"][0]["id"].clone();
    let body = serde_json::json!({ "action": legal })
        .to_string()
        .into_bytes();
    let r = send(&app, "POST", &format!("{uri}/actions"), mover, Some(body)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json);
    assert_eq!(server.in_memory(), 1, "a seat that acts plays it in memory");
    drop(app);
    drop(server);
    remove_sqlite(&path);
}
