//! Ratings: people pick a name and get a key, rated matches move both
//! seats' Glicko-2 ratings once when they end (however they end), unrated
//! ones move nothing, a match that cannot be rated is refused with a typed
//! error, a restart applies nothing twice (and applies what a stopped
//! process left), and the leaderboard lists a game's players best first.
use crate::common;

use axum::http::StatusCode;
use axum::Router;
use common::{app, app_at, play_out, remove_sqlite, send};
use serde_json::{json, Value};
use tabletop_server::rating::{after_game, Rating};

const KUHN: &str = "kuhn_poker";

fn body(v: Value) -> Option<Vec<u8>> {
    Some(v.to_string().into_bytes())
}

/// Picks `name`; returns the player's key.
async fn pick_name(app: &Router, name: &str) -> String {
    let r = send(
        app,
        "POST",
        "/api/players",
        None,
        body(json!({ "name": name })),
    )
    .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json);
    assert_eq!(r.json["name"], name);
    let key = r.json["key"].as_str().unwrap().to_owned();
    assert_eq!(key.len(), 32);
    key
}

async fn board(app: &Router, game: &str) -> Vec<Value> {
    let r = send(
        app,
        "GET",
        &format!("/api/leaderboard?game={game}"),
        None,
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json);
    r.json["rows"].as_array().unwrap().clone()
}

fn rating_of(rows: &[Value], name: &str) -> Rating {
    let row = rows
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("{name} is not on the board: {rows:?}"));
    Rating {
        rating: row["rating"].as_f64().unwrap(),
        rd: row["rd"].as_f64().unwrap(),
        volatility: 0.0,
    }
}

fn assert_rating(got: Rating, want: Rating) {
    assert!(
        (got.rating - want.rating).abs() < 1e-9 && (got.rd - want.rd).abs() < 1e-9,
        "{got:?} vs {want:?}"
    );
}

/// Creates a Kuhn match of a person (seat 0) against `bot`; returns
/// (id, the person's token).
async fn against_bot(app: &Router, bot: &str, rated: bool, key: Option<&str>) -> (i64, String) {
    let r = send(
        app,
        "POST",
        "/api/matches",
        None,
        body(json!({"game": KUHN, "seats": ["human", bot], "seed": 3, "rated": rated, "player": key})),
    )
    .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json);
    assert_eq!(r.json["rated"], rated);
    let token = r.json["tokens"][0]["token"].as_str().unwrap().to_owned();
    (r.json["id"].as_i64().unwrap(), token)
}

/// Seat 0's score in a finished view.
fn score0(view: &Value) -> f64 {
    match view["outcome"]["winner"].as_u64() {
        Some(0) => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_match_against_a_bot_moves_both_ratings_by_glicko2() {
    let (_, app) = app(false);
    let key = pick_name(&app, "Ann").await;
    let (id, token) = against_bot(&app, "bot:random", true, Some(&key)).await;
    let players = send(
        &app,
        "GET",
        &format!("/api/matches/{id}/players"),
        None,
        None,
    )
    .await;
    assert_eq!(players.json["rated"], true);
    assert_eq!(players.json["seats"][0]["name"], "Ann");
    assert_eq!(players.json["seats"][1]["name"], "bot:random");
    assert_eq!(players.json["seats"][1]["kind"], "bot");
    let end = play_out(&app, id, &token, 7, 200).await;
    let want = after_game([Rating::default(); 2], score0(&end));
    let rows = board(&app, KUHN).await;
    assert_eq!(rows.len(), 2);
    assert_rating(rating_of(&rows, "Ann"), want[0]);
    assert_rating(rating_of(&rows, "bot:random"), want[1]);
    assert!(rows.iter().all(|r| r["games"] == 1));
    let players = send(
        &app,
        "GET",
        &format!("/api/matches/{id}/players"),
        None,
        None,
    )
    .await;
    assert_eq!(players.json["seats"][0]["games"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unrated_match_moves_no_rating() {
    let (_, app) = app(false);
    let key = pick_name(&app, "Ann").await;
    let (id, token) = against_bot(&app, "bot:random", false, Some(&key)).await;
    play_out(&app, id, &token, 7, 200).await;
    assert!(board(&app, KUHN).await.is_empty());
    let players = send(
        &app,
        "GET",
        &format!("/api/matches/{id}/players"),
        None,
        None,
    )
    .await;
    assert_eq!(players.json["rated"], false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_that_cannot_be_rated_is_refused_with_a_typed_error() {
    let (_, app) = app(true);
    let key = pick_name(&app, "Ann").await;
    let refused = |seats: Value, player: Value| {
        body(json!({"game": KUHN, "seats": seats, "rated": true, "player": player}))
    };
    for (seats, player, status, kind) in [
        (
            json!(["human", "bot:random"]),
            Value::Null,
            400,
            "unratable",
        ),
        (json!(["human", "human"]), json!(key), 400, "unratable"),
        (json!(["human", "cmd:true"]), json!(key), 400, "unratable"),
        (
            json!(["bot:random", "bot:random"]),
            Value::Null,
            400,
            "unratable",
        ),
        (
            json!(["human", "bot:random"]),
            json!("0".repeat(32)),
            403,
            "unknown_player",
        ),
        (
            json!(["human", "bot:random"]),
            json!("not a key"),
            403,
            "unknown_player",
        ),
    ] {
        let r = send(
            &app,
            "POST",
            "/api/matches",
            None,
            refused(seats.clone(), player),
        )
        .await;
        assert_eq!(r.status.as_u16(), status, "{seats}: {}", r.json);
        assert_eq!(r.json["kind"], kind, "{seats}");
    }
    // A rated match between people: the joiner needs a key of their own.
    let opened = send(
        &app,
        "POST",
        "/api/lobby",
        None,
        body(json!({"game": KUHN, "seat": 0, "listed": true, "rated": true, "player": key})),
    )
    .await;
    assert_eq!(opened.status, StatusCode::CREATED, "{}", opened.json);
    assert_eq!(opened.json["rated"], true);
    let id = opened.json["id"].as_i64().unwrap();
    let lobby = send(&app, "GET", "/api/lobby", None, None).await;
    assert_eq!(lobby.json["open"][0]["rated"], true);
    let join = format!("/api/matches/{id}/join");
    let r = send(&app, "POST", &join, None, body(json!({}))).await;
    assert_eq!(
        (r.status.as_u16(), &r.json["kind"]),
        (400, &json!("unratable"))
    );
    let r = send(&app, "POST", &join, None, body(json!({ "player": key }))).await;
    assert_eq!(r.json["kind"], "unratable", "one player in both seats");
    let bob = pick_name(&app, "Bob").await;
    let r = send(&app, "POST", &join, None, body(json!({ "player": bob }))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json);
}

/// Ann (seat 0) and Bob play a rated match through the lobby; Bob
/// resigns. Returns the match id.
async fn ann_beats_bob(app: &Router, ann: &str, bob: &str) -> i64 {
    let opened = send(
        app,
        "POST",
        "/api/lobby",
        None,
        body(json!({"game": KUHN, "seat": 0, "rated": true, "player": ann})),
    )
    .await;
    let id = opened.json["id"].as_i64().unwrap();
    let invite = opened.json["invite"].as_str().unwrap();
    let joined = send(
        app,
        "POST",
        &format!("/api/matches/{id}/join"),
        None,
        body(json!({ "invite": invite, "player": bob })),
    )
    .await;
    assert_eq!(joined.status, StatusCode::OK, "{}", joined.json);
    let token = joined.json["token"].as_str().unwrap();
    let r = send(
        app,
        "POST",
        &format!("/api/matches/{id}/resign"),
        Some(token),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json);
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resignation_ends_a_rated_match_between_people_and_the_board_is_best_first() {
    let (_, app) = app(false);
    let ann = pick_name(&app, "Ann").await;
    let bob = pick_name(&app, "Bob").await;
    ann_beats_bob(&app, &ann, &bob).await;
    let rows = board(&app, KUHN).await;
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Ann", "Bob"]);
    assert_eq!(
        (rows[0]["rank"].clone(), rows[1]["rank"].clone()),
        (json!(1), json!(2))
    );
    assert_eq!(rows[0]["kind"], "person");
    let want = after_game([Rating::default(); 2], 1.0);
    assert_rating(rating_of(&rows, "Ann"), want[0]);
    assert_rating(rating_of(&rows, "Bob"), want[1]);
    // A second win moves Ann further up, by the figures from her new rating.
    ann_beats_bob(&app, &ann, &bob).await;
    let again = board(&app, KUHN).await;
    let want = after_game(
        [
            Rating {
                volatility: want[0].volatility,
                ..rating_of(&rows, "Ann")
            },
            Rating {
                volatility: want[1].volatility,
                ..rating_of(&rows, "Bob")
            },
        ],
        1.0,
    );
    assert_rating(rating_of(&again, "Ann"), want[0]);
    assert_eq!(again[0]["games"], 2);
    let other = board(&app, "stratego").await;
    assert!(other.is_empty(), "a board per game and rule set");
    let r = send(&app, "GET", "/api/leaderboard?game=nope", None, None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_are_validated_and_a_taken_name_is_refused() {
    let (_, app) = app(false);
    for bad in ["a", "bot:random", "two words", "<script>", &"x".repeat(25)] {
        let r = send(
            &app,
            "POST",
            "/api/players",
            None,
            body(json!({ "name": bad })),
        )
        .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}");
        assert_eq!(r.json["kind"], "bad_name", "{bad}");
    }
    pick_name(&app, "Ann").await;
    let r = send(
        &app,
        "POST",
        "/api/players",
        None,
        body(json!({ "name": "ANN" })),
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert_eq!(r.json["kind"], "name_taken");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_does_not_apply_a_rating_twice_and_applies_one_left_pending() {
    let path = std::env::temp_dir().join(format!("tabletop-ratings-{}.db", std::process::id()));
    let db = path.to_str().unwrap().to_owned();
    let rows = {
        let (_, app) = app_at(&db, false);
        let ann = pick_name(&app, "Ann").await;
        let bob = pick_name(&app, "Bob").await;
        ann_beats_bob(&app, &ann, &bob).await;
        board(&app, KUHN).await
    };
    {
        let (_, app) = app_at(&db, false);
        assert_eq!(board(&app, KUHN).await, rows, "a restart changes nothing");
    }
    {
        // A process stopped after the match ended, before its rating.
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch("UPDATE rated_matches SET applied = 0; DELETE FROM ratings;")
            .unwrap();
    }
    {
        let (_, app) = app_at(&db, false);
        assert_eq!(board(&app, KUHN).await, rows, "the start applies it, once");
    }
    let (_, app) = app_at(&db, false);
    assert_eq!(board(&app, KUHN).await, rows);
    drop(app);
    remove_sqlite(&db);
}
