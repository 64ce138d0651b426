//! Programs of the older protocols the games know sit in seats, as in the
//! arena (`ucc:` agents of the 2012 UCC Stratego competition, `spelinski:`
//! Battle Line bots): only with `--allow-cmd-bots`, only at the rules
//! their programs play, and they play matches to the end.

use crate::common;

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use axum::Router;
use common::*;
use serde_json::{json, Value};

/// The example programs of the repository's `examples/bots/`.
fn example(file: &str) -> String {
    format!(
        "python3 {}/../../examples/bots/{file}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The rules closest to the UCC manager's (no two-square or more-squares
/// rule), as in the arena's tests.
const UCC_RULES: &str = "stratego(variant=classic,two_square_limit=none,more_squares_rule=false)";

async fn create_status(app: &Router, game: &str, seats: [&str; 2]) -> (StatusCode, Value) {
    let body = json!({ "game": game, "seats": seats, "seed": 5 });
    let r = send(
        app,
        "POST",
        "/api/matches",
        None,
        Some(body.to_string().into_bytes()),
    )
    .await;
    (r.status, r.json)
}

/// The spectator's view once the match has ended.
async fn ended(app: &Router, id: i64, within: Duration) -> Value {
    let start = Instant::now();
    loop {
        let r = send(app, "GET", &format!("/api/matches/{id}"), None, None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json);
        if !r.json["outcome"].is_null() {
            return r.json;
        }
        assert!(
            start.elapsed() < within,
            "match {id} still running: {}",
            r.json
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ucc_agent_seat_plays_classic_stratego_to_the_end() {
    let (_, app) = app(true);
    let seat = format!("ucc:{}", example("ucc_random_bot.py"));
    for seats in [
        [seat.as_str(), "bot:heuristic"],
        ["bot:heuristic", seat.as_str()],
    ] {
        let (id, _) = create(&app, UCC_RULES, seats, 5).await;
        let end = ended(&app, id, Duration::from_secs(120)).await;
        assert!(end["outcome"]["forfeit"].is_null(), "{end}");
        assert!(end["steps"].as_u64().unwrap() > 2, "{end}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spelinski_bot_seat_plays_troops_only_battle_line_to_the_end() {
    let (_, app) = app(true);
    let seat = format!("spelinski:{}", example("spelinski_bot.py"));
    let (id, _) = create(
        &app,
        "battleline(variant=troops_only)",
        [&seat, "bot:random"],
        5,
    )
    .await;
    let end = ended(&app, id, Duration::from_secs(120)).await;
    assert!(end["outcome"]["forfeit"].is_null(), "{end}");
}

#[tokio::test]
async fn legacy_seats_are_refused_at_rules_their_programs_do_not_play() {
    let (_, app) = app(true);
    let ucc = format!("ucc:{}", example("ucc_random_bot.py"));
    for game in [
        "stratego/czech",
        "stratego/srazhenie",
        "battleline",
        "cardwar",
    ] {
        let (status, body) = create_status(&app, game, [&ucc, "human"]).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{game}: {body}");
        assert!(body.to_string().contains("ucc"), "{game}: {body}");
    }
    let spelinski = format!("spelinski:{}", example("spelinski_bot.py"));
    let (status, body) = create_status(&app, "stratego", [&spelinski, "human"]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

#[tokio::test]
async fn legacy_seats_need_allow_cmd_bots() {
    let (_, app) = app(false);
    let seat = format!("ucc:{}", example("ucc_random_bot.py"));
    let (status, body) = create_status(&app, UCC_RULES, [&seat, "human"]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body.to_string().contains("--allow-cmd-bots"), "{body}");
}
