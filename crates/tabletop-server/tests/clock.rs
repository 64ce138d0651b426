//! Clocks kept by the server and draws agreed between people: a flag
//! falls with nobody asking, increments and delays are charged per move,
//! bots play under the clock, a draw is offered, declined and accepted,
//! and a restart keeps the clocks, an open draw offer and the ending.
//!
//! Most tests run on paused time (`start_paused`): the runtime's clock
//! jumps to the next timer when every task waits, so a minute passes at
//! once and a request takes no time at all (a blocking database call
//! holds the clock still). The bot and restart tests need the wall clock.
mod common;

use std::time::Duration;

use axum::http::StatusCode;
use common::{app, app_at, send, Resp};
use serde_json::{json, Value};

fn body(v: Value) -> Option<Vec<u8>> {
    Some(v.to_string().into_bytes())
}

/// Creates a match of `game` between `seats` under `control`; returns its
/// id and the tokens by seat.
async fn timed(
    app: &axum::Router,
    game: &str,
    seats: [&str; 2],
    control: Value,
) -> (i64, [Option<String>; 2]) {
    let r = send(
        app,
        "POST",
        "/api/matches",
        None,
        body(json!({"game": game, "seats": seats, "seed": 3, "time_control": control})),
    )
    .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json);
    let mut tokens = [None, None];
    for t in r.json["tokens"].as_array().unwrap() {
        tokens[t["seat"].as_u64().unwrap() as usize] =
            Some(t["token"].as_str().unwrap().to_owned());
    }
    (r.json["id"].as_i64().unwrap(), tokens)
}

async fn view(app: &axum::Router, id: i64, token: Option<&str>) -> Value {
    let r = send(app, "GET", &format!("/api/matches/{id}"), token, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json);
    r.json
}

/// Plays the first legal action of the seat of `token`.
async fn first_move(app: &axum::Router, id: i64, token: &str) -> Resp {
    let v = view(app, id, Some(token)).await;
    assert_eq!(v["to_move"], v["you"], "{v}");
    let action = v["legal"][0]["id"].clone();
    send(
        app,
        "POST",
        &format!("/api/matches/{id}/actions"),
        Some(token),
        body(json!({ "action": action })),
    )
    .await
}

async fn draw(app: &axum::Router, id: i64, token: Option<&str>, offer: bool) -> Resp {
    send(
        app,
        "POST",
        &format!("/api/matches/{id}/draw"),
        token,
        body(json!({ "offer": offer })),
    )
    .await
}

fn fischer(base_ms: u64, increment_ms: u64) -> Value {
    json!({"kind": "fischer", "base_ms": base_ms, "increment_ms": increment_ms})
}

#[tokio::test(start_paused = true)]
async fn a_flag_falls_with_no_request() {
    let (_, app) = app(false);
    let (id, tokens) = timed(&app, "kuhn_poker", ["human", "human"], fischer(2_000, 0)).await;
    let v = view(&app, id, None).await;
    assert_eq!(v["clock"]["remaining_ms"], json!([2_000, 2_000]));
    assert_eq!(v["clock"]["running"], 0);
    assert_eq!(v["clock"]["control"], fischer(2_000, 0));
    // Nothing is sent meanwhile; a GET only reads what the flag's task
    // recorded.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let v = view(&app, id, None).await;
    let outcome = &v["outcome"];
    assert_eq!(outcome["ending"], "time", "{v}");
    assert_eq!(outcome["winner"], 1, "the flagged seat loses");
    assert_eq!(outcome["forfeit"], json!({"seat": 0, "reason": "time"}));
    assert_eq!(v["clock"]["remaining_ms"], json!([0, 2_000]));
    assert_eq!(v["clock"]["running"], Value::Null);
    let late = first_move_after_the_end(&app, id, tokens[0].as_deref().unwrap()).await;
    assert_eq!(late.status, StatusCode::CONFLICT, "{}", late.json);
}

/// Tries seat 0's first action of the deal (its legal actions are gone
/// once the match is over, so the id comes from the action space).
async fn first_move_after_the_end(app: &axum::Router, id: i64, token: &str) -> Resp {
    send(
        app,
        "POST",
        &format!("/api/matches/{id}/actions"),
        Some(token),
        body(json!({ "action": 0 })),
    )
    .await
}

#[tokio::test(start_paused = true)]
async fn a_move_past_the_time_is_refused_and_the_flag_falls() {
    let (_, app) = app(false);
    let (id, tokens) = timed(&app, "kuhn_poker", ["human", "human"], fischer(1_000, 0)).await;
    // Whether the flag's task or the move notices first, the move is
    // refused and the match ends on time.
    tokio::time::advance(Duration::from_millis(1_500)).await;
    let r = first_move(&app, id, tokens[0].as_deref().unwrap()).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.json);
    let v = view(&app, id, None).await;
    assert_eq!(v["outcome"]["ending"], "time");
    assert_eq!(v["steps"], 2, "only the deal: the late move is not played");
}

#[tokio::test(start_paused = true)]
async fn fischer_adds_the_increment_and_bronstein_gives_back_the_delay() {
    let (_, app) = app(false);
    let (id, tokens) = timed(
        &app,
        "kuhn_poker",
        ["human", "human"],
        fischer(60_000, 5_000),
    )
    .await;
    tokio::time::sleep(Duration::from_secs(10)).await;
    let r = first_move(&app, id, tokens[0].as_deref().unwrap()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json);
    assert_eq!(r.json["clock"]["remaining_ms"], json!([55_000, 60_000]));
    assert_eq!(r.json["clock"]["running"], 1);

    let isf = json!({"kind": "bronstein", "base_ms": 60_000, "delay_ms": 4_000});
    let (id, tokens) = timed(&app, "kuhn_poker", ["human", "human"], isf).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let r = first_move(&app, id, tokens[0].as_deref().unwrap()).await;
    assert_eq!(
        r.json["clock"]["remaining_ms"],
        json!([60_000, 60_000]),
        "a move within the delay costs nothing"
    );
    tokio::time::sleep(Duration::from_secs(10)).await;
    let r = first_move(&app, id, tokens[1].as_deref().unwrap()).await;
    assert_eq!(
        r.json["clock"]["remaining_ms"],
        json!([60_000, 54_000]),
        "10 s spent, 4 s given back"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_plays_under_the_clock() {
    let (_, app) = app(true);
    // A bot that answers in no time is charged that time and gets the
    // increment.
    let (id, _) = timed(
        &app,
        "kuhn_poker",
        ["bot:random", "human"],
        fischer(60_000, 1_000),
    )
    .await;
    let mut v = view(&app, id, None).await;
    for _ in 0..500 {
        if v["clock"]["running"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
        v = view(&app, id, None).await;
    }
    assert_eq!(v["clock"]["running"], 1, "the bot moved: {v}");
    let bot_left = v["clock"]["remaining_ms"][0].as_u64().unwrap();
    assert!((59_000..=61_000).contains(&bot_left), "{bot_left}");
    // A bot that thinks past its time loses on time (its program sleeps
    // longer than the control's second; the answer it never gives is
    // not waited for).
    let (id, _) = timed(
        &app,
        "kuhn_poker",
        ["cmd:sleep 3", "human"],
        fischer(1_000, 0),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let v = view(&app, id, None).await;
    assert_eq!(v["outcome"]["ending"], "time", "{v}");
    assert_eq!(v["outcome"]["winner"], 1);
}

#[tokio::test(start_paused = true)]
async fn a_draw_offered_and_accepted_ends_the_match_and_a_restart_keeps_it() {
    let db = std::env::temp_dir().join(format!("tabletop-draw-{}.db", std::process::id()));
    let path = db.display().to_string();
    let id = {
        let (_, app) = app_at(&path, false);
        let (id, tokens) = timed(&app, "kuhn_poker", ["human", "human"], json!("standard")).await;
        let [Some(t0), Some(t1)] = tokens else {
            panic!("two people")
        };
        let r = draw(&app, id, Some(&t0), true).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json);
        assert_eq!(r.json["draw_offer"], 0);
        assert_eq!(view(&app, id, Some(&t1)).await["draw_offer"], 0);
        let r = draw(&app, id, Some(&t1), true).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json);
        let outcome = &r.json["outcome"];
        assert_eq!(outcome["ending"], "agreed_draw", "{}", r.json);
        assert_eq!(outcome["winner"], Value::Null);
        assert_eq!(r.json["clock"]["running"], Value::Null, "the clocks stop");
        let again = draw(&app, id, Some(&t0), true).await;
        assert_eq!(again.status, StatusCode::CONFLICT);
        id
    };
    let (_, app) = app_at(&path, false);
    let v = view(&app, id, None).await;
    assert_eq!(v["outcome"]["ending"], "agreed_draw", "{v}");
    let replay = send(
        &app,
        "GET",
        &format!("/api/matches/{id}/replay"),
        None,
        None,
    )
    .await;
    assert_eq!(replay.json["outcome"]["ending"], "agreed_draw");
    let notation = send(
        &app,
        "GET",
        &format!("/api/matches/{id}/notation"),
        None,
        None,
    )
    .await;
    assert!(String::from_utf8_lossy(&notation.bytes).contains("# draw agreed"));
    drop(app);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{path}{suffix}"));
    }
}

#[tokio::test(start_paused = true)]
async fn a_draw_offer_is_declined_or_withdrawn_by_a_move() {
    let (_, app) = app(false);
    let (id, tokens) = timed(&app, "kuhn_poker", ["human", "human"], json!("none")).await;
    let [Some(t0), Some(t1)] = tokens else {
        panic!("two people")
    };
    let none = draw(&app, id, Some(&t1), false).await;
    assert_eq!(none.status, StatusCode::CONFLICT, "no offer to decline");
    draw(&app, id, Some(&t1), true).await;
    let r = draw(&app, id, Some(&t0), false).await;
    assert_eq!(r.json["draw_offer"], Value::Null, "declined");
    draw(&app, id, Some(&t1), true).await;
    let r = first_move(&app, id, &t0).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(
        r.json["draw_offer"],
        Value::Null,
        "moving declines the offer made to the mover"
    );
    assert_eq!(r.json["clock"], Value::Null, "untimed");
}

/// An open offer is stored: a restart shows it, and the move that
/// declines it is stored with the offer gone.
#[tokio::test(start_paused = true)]
async fn an_open_draw_offer_survives_a_restart_and_a_move_declines_it_for_good() {
    let db = std::env::temp_dir().join(format!("tabletop-offer-{}.db", std::process::id()));
    let path = db.display().to_string();
    let (id, t0) = {
        let (_, app) = app_at(&path, false);
        let (id, tokens) = timed(&app, "kuhn_poker", ["human", "human"], json!("none")).await;
        let [Some(t0), Some(t1)] = tokens else {
            panic!("two people")
        };
        assert_eq!(draw(&app, id, Some(&t1), true).await.status, StatusCode::OK);
        (id, t0)
    };
    let (_, app) = app_at(&path, false);
    assert_eq!(view(&app, id, None).await["draw_offer"], 1, "kept");
    assert_eq!(first_move(&app, id, &t0).await.status, StatusCode::OK);
    drop(app);
    let (_, app) = app_at(&path, false);
    assert_eq!(
        view(&app, id, None).await["draw_offer"],
        Value::Null,
        "declined by the move, and stored so"
    );
    drop(app);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{path}{suffix}"));
    }
}

#[tokio::test(start_paused = true)]
async fn a_draw_offer_by_a_non_seat_is_refused() {
    let (_, app) = app(false);
    let (id, _) = timed(&app, "kuhn_poker", ["human", "human"], json!("none")).await;
    let r = draw(&app, id, None, true).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert_eq!(r.json["kind"], "unauthorized");
    let stranger = "0123456789abcdef0123456789abcdef";
    let r = draw(&app, id, Some(stranger), true).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(r.json["kind"], "forbidden");
    let (id, tokens) = timed(&app, "kuhn_poker", ["human", "bot:random"], json!("none")).await;
    let r = draw(&app, id, tokens[0].as_deref(), true).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "a bot takes no offer");
    assert_eq!(view(&app, id, None).await["draw_offer"], Value::Null);
}

#[tokio::test(start_paused = true)]
async fn time_controls_are_checked_and_named_per_game() {
    let (_, app) = app(false);
    for bad in [
        fischer(0, 0),
        fischer(u64::MAX, 0),
        json!({"kind": "bronstein", "base_ms": 60_000, "delay_ms": 3_600_000}),
        json!("blitz"),
    ] {
        let r = send(
            &app,
            "POST",
            "/api/matches",
            None,
            body(json!({"game": "kuhn_poker", "seats": ["human", "human"], "time_control": bad})),
        )
        .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}: {}", r.json);
        assert_eq!(r.json["kind"], "bad_request");
    }
    let (id, _) = timed(&app, "stratego", ["human", "human"], json!("standard")).await;
    assert_eq!(
        view(&app, id, None).await["clock"]["control"],
        json!({"kind": "bronstein", "base_ms": 720_000, "delay_ms": 4_000}),
        "Stratego's standard is the ISF clock"
    );
    let (id, _) = common::create(&app, "kuhn_poker", ["human", "human"], 1).await;
    assert_eq!(
        view(&app, id, None).await["clock"],
        Value::Null,
        "untimed by default"
    );
}

#[tokio::test(start_paused = true)]
async fn a_lobby_clock_starts_when_the_second_person_joins() {
    let (_, app) = app(false);
    let r = send(
        &app,
        "POST",
        "/api/lobby",
        None,
        body(json!({"game": "kuhn_poker", "seat": 1, "listed": true, "time_control": fischer(5_000, 0)})),
    )
    .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json);
    let id = r.json["id"].as_i64().unwrap();
    tokio::time::sleep(Duration::from_secs(10)).await;
    let v = view(&app, id, None).await;
    assert_eq!(
        v["outcome"],
        Value::Null,
        "nobody's time runs while waiting"
    );
    assert_eq!(v["clock"]["running"], Value::Null);
    let joined = send(
        &app,
        "POST",
        &format!("/api/matches/{id}/join"),
        None,
        body(json!({})),
    )
    .await;
    assert_eq!(joined.status, StatusCode::OK);
    let v = view(&app, id, None).await;
    assert_eq!(v["clock"]["running"], 0);
    assert_eq!(v["clock"]["remaining_ms"], json!([5_000, 5_000]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_charges_the_time_down_and_the_flag_still_falls() {
    let db = std::env::temp_dir().join(format!("tabletop-clock-{}.db", std::process::id()));
    let path = db.display().to_string();
    let (id, long) = {
        let (_, app) = app_at(&path, false);
        let (id, _) = timed(&app, "kuhn_poker", ["human", "human"], fischer(1_000, 0)).await;
        let (long, _) = timed(&app, "kuhn_poker", ["human", "human"], fischer(60_000, 0)).await;
        (id, long)
    };
    // Down longer than the first match's second.
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let (server, app) = app_at(&path, false);
    assert_eq!(server.in_memory(), 2, "running clocks are loaded at start");
    server.resume().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let v = view(&app, id, None).await;
    assert_eq!(v["outcome"]["ending"], "time", "{v}");
    let v = view(&app, long, None).await;
    let left = v["clock"]["remaining_ms"][0].as_u64().unwrap();
    assert!(left <= 58_800, "the time down is charged: {left} ms left");
    drop((server, app));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{path}{suffix}"));
    }
}
