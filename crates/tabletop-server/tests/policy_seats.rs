//! `policy:NAME` seats: a trained policy from the operator's directory
//! plays a match to its end; a name that is a path, a policy the server
//! has not or one of another game is refused before the match exists.

mod common;

use std::path::PathBuf;

use axum::http::StatusCode;
use axum::Router;
use common::*;
use serde_json::json;
use tabletop_server::{registry, router, Config, Policies, Server};

/// The fixtures of game-policy: tiny card war and Kuhn poker policies.
fn shelf() -> Policies {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../game-policy/tests/fixtures");
    Policies::from_dir(dir).unwrap()
}

fn app_with(policies: Policies) -> Router {
    let config = Config {
        db: ":memory:".into(),
        policies,
        ..Config::default()
    }
    .unlimited();
    router(Server::open(registry(), config).unwrap())
}

async fn refused(app: &Router, game: &str, seat: &str) -> String {
    let body = json!({ "game": game, "seats": [seat, "human"], "seed": 1 });
    let r = send(
        app,
        "POST",
        "/api/matches",
        None,
        Some(body.to_string().into_bytes()),
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{seat}: {}", r.json);
    r.json.to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_policy_seat_plays_a_match_to_its_end() {
    let app = app_with(shelf());
    for seed in 0..3 {
        let (id, tokens) = create(
            &app,
            "kuhn_poker",
            ["policy:kuhn_poker.onnx", "human"],
            seed,
        )
        .await;
        let token = tokens[1].as_deref().unwrap();
        let end = play_out(&app, id, token, seed, 200).await;
        assert!(end["outcome"]["forfeit"].is_null(), "{end}");
        assert!(end["steps"].as_u64().unwrap() >= 2, "{end}");
    }
}

#[tokio::test]
async fn policy_seats_are_refused_unless_the_server_has_that_policy_for_that_game() {
    let without = app_with(Policies::default());
    assert!(refused(&without, "kuhn_poker", "policy:kuhn_poker.onnx")
        .await
        .contains("--policy-dir"));
    let app = app_with(shelf());
    for path in [
        "policy:../fixtures/kuhn_poker.onnx",
        "policy:/etc/passwd",
        "policy:README.md",
    ] {
        refused(&app, "kuhn_poker", path).await;
    }
    assert!(refused(&app, "kuhn_poker", "policy:absent.onnx")
        .await
        .contains("absent.onnx"));
    assert!(refused(&app, "kuhn_poker", "policy:cardwar.onnx")
        .await
        .contains("cardwar"));
    assert!(
        refused(&app, "kuhn_poker(ante=2)", "policy:kuhn_poker.onnx")
            .await
            .contains("rules")
    );
}
