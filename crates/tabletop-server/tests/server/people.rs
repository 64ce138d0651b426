//! Matches between people: the lobby lists an open seat until a person
//! takes it, an unlisted seat opens only to its invitation, a seat
//! resigns (a stored forfeit), a rematch swaps the seats and the other
//! person takes theirs from the finished match.
use crate::common;

use axum::http::StatusCode;
use common::{app, play_out, send};
use serde_json::{json, Value};

fn body(v: Value) -> Option<Vec<u8>> {
    Some(v.to_string().into_bytes())
}

async fn open(app: &axum::Router, game: &str, seat: u8, listed: bool) -> Value {
    let r = send(
        app,
        "POST",
        "/api/lobby",
        None,
        body(json!({"game": game, "seat": seat, "listed": listed, "seed": 5})),
    )
    .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json);
    r.json
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listed_match_waits_in_the_lobby_until_a_person_joins() {
    let (_, app) = app(false);
    let mine = open(&app, "kuhn_poker", 1, true).await;
    let id = mine["id"].as_i64().unwrap();
    assert_eq!(mine["seat"], 1);
    let lobby = send(&app, "GET", "/api/lobby", None, None).await.json;
    assert_eq!(lobby["open"][0]["id"], id);
    assert_eq!(
        lobby["open"][0]["seat"], 0,
        "the joiner takes the other seat"
    );
    assert_eq!(lobby["open"][0]["game"], "kuhn_poker(variant=classic)");
    let token = mine["token"].as_str().unwrap();
    let view = send(
        &app,
        "GET",
        &format!("/api/matches/{id}"),
        Some(token),
        None,
    )
    .await;
    assert_eq!(view.json["waiting"], 0);
    let joined = send(
        &app,
        "POST",
        &format!("/api/matches/{id}/join"),
        None,
        body(json!({})),
    )
    .await;
    assert_eq!(joined.status, StatusCode::OK, "{}", joined.json);
    assert_eq!(joined.json["seat"], 0);
    let theirs = joined.json["token"].as_str().unwrap().to_owned();
    let view = send(
        &app,
        "GET",
        &format!("/api/matches/{id}"),
        Some(&theirs),
        None,
    )
    .await;
    assert_eq!(view.json["you"], 0);
    assert_eq!(view.json["waiting"], Value::Null);
    let again = send(
        &app,
        "POST",
        &format!("/api/matches/{id}/join"),
        None,
        body(json!({})),
    )
    .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "a seat is taken once");
    let lobby = send(&app, "GET", "/api/lobby", None, None).await.json;
    assert_eq!(lobby["open"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unlisted_seat_opens_only_to_its_invitation() {
    let (_, app) = app(false);
    let mine = open(&app, "battleline", 0, false).await;
    let id = mine["id"].as_i64().unwrap();
    let lobby = send(&app, "GET", "/api/lobby", None, None).await.json;
    assert_eq!(
        lobby["open"],
        json!([]),
        "an unlisted match is not in the lobby"
    );
    let uri = format!("/api/matches/{id}/join");
    let r = send(&app, "POST", &uri, None, body(json!({}))).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let wrong = "0".repeat(32);
    let r = send(&app, "POST", &uri, None, body(json!({ "invite": wrong }))).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = send(&app, "POST", &uri, None, body(json!({ "invite": "xyz" }))).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let r = send(
        &app,
        "POST",
        &uri,
        None,
        body(json!({ "invite": mine["invite"] })),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json);
    assert_eq!(r.json["seat"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_resigns_and_the_other_wins() {
    let (_, app) = app(false);
    let mine = open(&app, "stratego", 0, true).await;
    let id = mine["id"].as_i64().unwrap();
    let theirs = send(
        &app,
        "POST",
        &format!("/api/matches/{id}/join"),
        None,
        body(json!({})),
    )
    .await
    .json;
    let uri = format!("/api/matches/{id}/resign");
    assert_eq!(
        send(&app, "POST", &uri, None, None).await.status,
        StatusCode::UNAUTHORIZED
    );
    let r = send(&app, "POST", &uri, theirs["token"].as_str(), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json);
    assert_eq!(r.json["outcome"]["winner"], 0);
    assert_eq!(r.json["outcome"]["forfeit"]["seat"], 1);
    assert_eq!(r.json["outcome"]["forfeit"]["reason"], "resigned");
    let again = send(&app, "POST", &uri, mine["token"].as_str(), None).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "the match is over");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resignation_is_stored_and_survives_a_restart() {
    let dir = std::env::temp_dir().join(format!("people-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("r.db");
    let id = {
        let (_, app) = common::app_at(db.to_str().unwrap(), false);
        let mine = open(&app, "kuhn_poker", 0, true).await;
        let id = mine["id"].as_i64().unwrap();
        let r = send(
            &app,
            "POST",
            &format!("/api/matches/{id}/resign"),
            mine["token"].as_str(),
            None,
        )
        .await;
        assert_eq!(r.status, StatusCode::OK);
        id
    };
    let (_, app) = common::app_at(db.to_str().unwrap(), false);
    let v = send(&app, "GET", &format!("/api/matches/{id}"), None, None)
        .await
        .json;
    assert_eq!(v["outcome"]["forfeit"]["reason"], "resigned");
    std::fs::remove_dir_all(&dir).ok();
}

/// The lobby is the database's: a seat left open, listed or to its
/// invitation, is still open after a restart, and taken then.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_seat_survives_a_restart_and_is_taken_after_it() {
    let dir = std::env::temp_dir().join(format!("people-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("o.db");
    let (listed, invited, invite) = {
        let (_, app) = common::app_at(db.to_str().unwrap(), false);
        let listed = open(&app, "kuhn_poker", 0, true).await;
        let invited = open(&app, "kuhn_poker", 1, false).await;
        (
            listed["id"].as_i64().unwrap(),
            invited["id"].as_i64().unwrap(),
            invited["invite"].clone(),
        )
    };
    let (_, app) = common::app_at(db.to_str().unwrap(), false);
    let lobby = send(&app, "GET", "/api/lobby", None, None).await.json;
    assert_eq!(lobby["open"].as_array().unwrap().len(), 1, "{lobby}");
    assert_eq!(lobby["open"][0]["id"], listed);
    let v = send(&app, "GET", &format!("/api/matches/{invited}"), None, None).await;
    assert_eq!(v.json["waiting"], 0);
    for (id, join) in [(listed, json!({})), (invited, json!({ "invite": invite }))] {
        let r = send(
            &app,
            "POST",
            &format!("/api/matches/{id}/join"),
            None,
            body(join),
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json);
        let token = r.json["token"].as_str().unwrap();
        let v = send(
            &app,
            "GET",
            &format!("/api/matches/{id}"),
            Some(token),
            None,
        )
        .await;
        assert_eq!(v.status, StatusCode::OK, "the new token opens the seat");
        assert_eq!(v.json["waiting"], Value::Null);
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_swaps_the_seats_and_the_other_person_takes_theirs() {
    let (_, app) = app(false);
    let mine = open(&app, "kuhn_poker", 0, false).await;
    let id = mine["id"].as_i64().unwrap();
    let theirs = send(
        &app,
        "POST",
        &format!("/api/matches/{id}/join"),
        None,
        body(json!({ "invite": mine["invite"] })),
    )
    .await
    .json;
    let (a, b) = (
        mine["token"].as_str().unwrap(),
        theirs["token"].as_str().unwrap(),
    );
    let uri = format!("/api/matches/{id}/rematch");
    let early = send(&app, "POST", &uri, Some(a), None).await;
    assert_eq!(
        early.status,
        StatusCode::CONFLICT,
        "no rematch before the end"
    );
    let (app2, id2, b2) = (app.clone(), id, b.to_owned());
    let other = tokio::spawn(async move { play_out(&app2, id2, &b2, 2, 500).await });
    play_out(&app, id, a, 1, 500).await;
    other.await.unwrap();
    let first = send(&app, "POST", &uri, Some(a), None).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.json);
    assert_eq!(first.json["seat"], 1, "seat 0 plays seat 1 in the rematch");
    let new = first.json["id"].as_i64().unwrap();
    let offered = send(&app, "GET", &format!("/api/matches/{id}"), Some(b), None).await;
    assert_eq!(
        offered.json["rematch"], new,
        "the other seat sees the offer"
    );
    let second = send(&app, "POST", &uri, Some(b), None).await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.json);
    assert_eq!(second.json["id"], new);
    assert_eq!(second.json["seat"], 0);
    let v = send(
        &app,
        "GET",
        &format!("/api/matches/{new}"),
        second.json["token"].as_str(),
        None,
    )
    .await;
    assert_eq!(v.json["you"], 0);
    assert_eq!(v.json["waiting"], Value::Null);
    let third = send(&app, "POST", &uri, Some(b), None).await;
    assert_eq!(
        third.status,
        StatusCode::CONFLICT,
        "the rematch's seats are taken"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_against_a_bot_starts_at_once_with_seats_swapped() {
    let (_, app) = app(false);
    let (id, tokens) = common::create(&app, "kuhn_poker", ["human", "bot:random"], 4).await;
    let t = tokens[0].clone().unwrap();
    play_out(&app, id, &t, 3, 500).await;
    let r = send(
        &app,
        "POST",
        &format!("/api/matches/{id}/rematch"),
        Some(&t),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json);
    assert_eq!(r.json["seat"], 1);
    let new = r.json["id"].as_i64().unwrap();
    let v = send(
        &app,
        "GET",
        &format!("/api/matches/{new}"),
        r.json["token"].as_str(),
        None,
    )
    .await;
    assert_eq!(v.json["seats"], json!(["bot:random", "human"]));
    assert_eq!(v.json["waiting"], Value::Null);
}
