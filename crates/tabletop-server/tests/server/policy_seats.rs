//! `policy:NAME` seats: a trained policy from the operator's directory
//! plays a match to its end; a name that is a path, a policy the server
//! has not or one of another game is refused before the match exists.

use crate::common;

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

/// The listing's `policies` by rule set: the game's own (its default
/// rules, keyed by the game's name) and each preset's.
async fn listed(app: &Router) -> Vec<(String, serde_json::Value)> {
    let r = send(app, "GET", "/api/games", None, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json);
    let mut out = Vec::new();
    for game in r.json["games"].as_array().unwrap() {
        out.push((
            game["name"].as_str().unwrap().to_owned(),
            game["policies"].clone(),
        ));
        for preset in game["presets"].as_array().unwrap() {
            out.push((
                preset["spec"].as_str().unwrap().to_owned(),
                preset["policies"].clone(),
            ));
        }
    }
    out
}

#[tokio::test]
async fn the_listing_offers_each_policy_under_the_rules_it_was_trained_on_only() {
    let cardwar = json!([{ "seat": "policy:cardwar.onnx", "name": "cardwar" }]);
    let kuhn = json!([{ "seat": "policy:kuhn_poker.onnx", "name": "kuhn_poker" }]);
    let listing = listed(&app_with(shelf())).await;
    assert!(listing.len() > 10, "every game and preset: {listing:?}");
    for (spec, policies) in &listing {
        let expected = match spec.as_str() {
            "cardwar" | "cardwar(variant=default)" => &cardwar,
            "kuhn_poker" | "kuhn_poker(variant=classic)" => &kuhn,
            _ => &json!([]),
        };
        assert_eq!(policies, expected, "{spec}");
    }
    // The names the tests expect are the registry's.
    for spec in ["cardwar(variant=default)", "kuhn_poker(variant=classic)"] {
        assert!(listing.iter().any(|(s, _)| s == spec), "{spec} is listed");
    }
    // Without a policy directory the field is there, empty.
    for (spec, policies) in listed(&app_with(Policies::default())).await {
        assert_eq!(policies, json!([]), "{spec}");
    }
}

#[tokio::test]
async fn a_policy_file_that_does_not_load_is_left_out_of_the_listing() {
    let dir = std::env::temp_dir().join(format!("policy-listing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../game-policy/tests/fixtures");
    std::fs::copy(fixtures.join("cardwar.onnx"), dir.join("cardwar.onnx")).unwrap();
    std::fs::write(dir.join("broken.onnx"), b"not a model").unwrap();
    std::fs::write(dir.join("empty.onnx"), b"").unwrap();
    let app = app_with(Policies::from_dir(dir.clone()).unwrap());
    let listing = listed(&app).await;
    let cardwar = &listing.iter().find(|(s, _)| s == "cardwar").unwrap().1;
    assert_eq!(
        cardwar,
        &json!([{ "seat": "policy:cardwar.onnx", "name": "cardwar" }])
    );
    assert!(listing
        .iter()
        .all(|(_, p)| !p.to_string().contains("broken") && !p.to_string().contains("empty")));
    // The page's seat creates the match; the left-out file is refused.
    create(&app, "cardwar", ["policy:cardwar.onnx", "human"], 1).await;
    refused(&app, "cardwar", "policy:broken.onnx").await;
    std::fs::remove_dir_all(&dir).unwrap();
}
