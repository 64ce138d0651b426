//! `GET /api/setups`: for every Stratego rule set, each kind of suggestion
//! is a setup the engine takes (played square by square in a match, it
//! stands on the board as suggested), a seed reproduces its setup, and a
//! bad game, kind or seed is a typed 400.

use crate::common;

use std::collections::HashMap;

use axum::http::StatusCode;
use common::*;
use serde_json::{json, Value};

fn stratego_specs() -> Vec<String> {
    let specs: Vec<String> = specs()
        .into_iter()
        .filter(|s| s.starts_with("stratego"))
        .collect();
    assert!(specs.len() >= 3, "classic, srazhenie and czech: {specs:?}");
    specs
}

/// `spec` with the characters a query cannot hold raw percent-escaped.
fn escape(spec: &str) -> String {
    spec.replace('(', "%28")
        .replace(')', "%29")
        .replace('=', "%3D")
        .replace(',', "%2C")
}

async fn suggestion(app: &axum::Router, spec: &str, kind: &str, seed: u64) -> Value {
    let uri = format!("/api/setups?game={}&kind={kind}&seed={seed}", escape(spec));
    let r = send(app, "GET", &uri, None, None).await;
    assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.json);
    r.json
}

fn squares(s: &Value) -> Vec<String> {
    s["squares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap().to_owned())
        .collect()
}

/// The board square of setup square `index` for the first seat: front row
/// on rank 4, the owner's left on file a.
fn first_seat_square(index: usize) -> String {
    let (row, col) = (index / 10, index % 10);
    format!("{}{}", (b'a' + col as u8) as char, 4 - row)
}

/// What a person reads of a suggestion is the rule set's declared title
/// (the listing's) and each square's piece by its name in that rule set;
/// the kind codes stay beside them for programs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_suggestion_names_its_pieces_and_its_rule_set_by_their_titles() {
    let (_, app) = app(false);
    let listing = send(&app, "GET", "/api/games", None, None).await.json;
    let stratego = listing["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "stratego")
        .unwrap();
    for preset in stratego["presets"].as_array().unwrap() {
        let spec = preset["spec"].as_str().unwrap();
        let s = suggestion(&app, spec, "random", 3).await;
        assert_eq!(
            s["title"],
            format!(
                "{}, {}",
                stratego["title"].as_str().unwrap(),
                preset["title"].as_str().unwrap()
            ),
            "{spec}"
        );
        let name_of: HashMap<&str, &str> = s["army"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["kind"].as_str().unwrap(), p["piece"].as_str().unwrap()))
            .collect();
        let pieces: Vec<&str> = s["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        let named: Vec<&str> = squares(&s)
            .iter()
            .map(|code| name_of[code.as_str()])
            .collect();
        assert_eq!(pieces, named, "{spec}");
        assert!(
            !pieces.iter().any(|p| name_of.contains_key(p)),
            "{spec}: no code among the names"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_rule_sets_suggestion_is_a_legal_setup_the_match_takes() {
    let (_, app) = app(false);
    for (n, spec) in stratego_specs().iter().enumerate() {
        for kind in ["random", "human"] {
            let s = suggestion(&app, spec, kind, 40 + n as u64).await;
            assert_eq!(s["kind"], kind);
            assert_eq!(
                (s["rows"].as_u64(), s["cols"].as_u64()),
                (Some(4), Some(10))
            );
            let kinds = squares(&s);
            assert_eq!(kinds.len(), 40, "{spec}");
            let mut counts: HashMap<&str, u64> = HashMap::new();
            for k in &kinds {
                *counts.entry(k.as_str()).or_default() += 1;
            }
            let army = s["army"].as_array().unwrap();
            let name_of: HashMap<&str, &str> = army
                .iter()
                .map(|p| (p["kind"].as_str().unwrap(), p["piece"].as_str().unwrap()))
                .collect();
            for p in army {
                let code = p["kind"].as_str().unwrap();
                assert_eq!(
                    counts.get(code).copied().unwrap_or(0),
                    p["count"].as_u64().unwrap(),
                    "{spec} {kind} {code}"
                );
            }
            assert_eq!(counts.len(), army.len(), "{spec}: only the army's kinds");

            // The engine takes it, square by square, and the first seat's
            // own view shows exactly it.
            let (id, tokens) = create(&app, spec, ["human", "human"], 9).await;
            let token = tokens[0].as_deref().unwrap();
            for code in &kinds {
                let v = send(
                    &app,
                    "GET",
                    &format!("/api/matches/{id}"),
                    Some(token),
                    None,
                )
                .await;
                let legal = v.json["legal"].as_array().unwrap();
                let action = legal
                    .iter()
                    .find(|a| {
                        a["action"]["type"] == "place" && a["action"]["kind"] == code.as_str()
                    })
                    .unwrap_or_else(|| panic!("{spec}: no placement of {code}: {}", v.json));
                let body = json!({ "action": action["id"] }).to_string().into_bytes();
                let r = send(
                    &app,
                    "POST",
                    &format!("/api/matches/{id}/actions"),
                    Some(token),
                    Some(body),
                )
                .await;
                assert_eq!(r.status, StatusCode::OK, "{spec}: {}", r.json);
            }
            let v = send(
                &app,
                "GET",
                &format!("/api/matches/{id}"),
                Some(token),
                None,
            )
            .await;
            let board: HashMap<String, String> = v.json["observation"]["board"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| p["owner"] == 0)
                .map(|p| {
                    (
                        p["square"].as_str().unwrap().to_owned(),
                        p["piece"].as_str().unwrap().to_owned(),
                    )
                })
                .collect();
            assert_eq!(board.len(), 40, "{spec}");
            for (i, code) in kinds.iter().enumerate() {
                assert_eq!(
                    board.get(&first_seat_square(i)).map(String::as_str),
                    name_of.get(code.as_str()).copied(),
                    "{spec} square {i}"
                );
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seed_reproduces_its_setup_and_seeds_differ() {
    let (_, app) = app(false);
    for spec in stratego_specs() {
        for kind in ["random", "human"] {
            let a = squares(&suggestion(&app, &spec, kind, 7).await);
            let b = squares(&suggestion(&app, &spec, kind, 7).await);
            assert_eq!(a, b, "{spec} {kind}");
            let mut differ = false;
            for seed in 8..12 {
                differ |= squares(&suggestion(&app, &spec, kind, seed).await) != a;
            }
            assert!(differ, "{spec} {kind}: other seeds, other setups");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn human_like_setups_keep_the_flag_behind_the_front_row() {
    // The model's people never put the flag in the front row: the
    // human-like generator is the model, not the shuffle.
    let (_, app) = app(false);
    for spec in stratego_specs() {
        for seed in 0..20 {
            let kinds = squares(&suggestion(&app, &spec, "human", seed).await);
            let flag = kinds.iter().position(|k| k == "FLAG").unwrap();
            assert!(flag >= 10, "{spec} seed {seed}: flag on square {flag}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_game_kind_or_seed_is_a_typed_400() {
    let (_, app) = app(false);
    let classic = escape("stratego(variant=classic)");
    let cases = [
        (
            format!(
                "/api/setups?game={}&kind=random&seed=1",
                escape("battleline(variant=default)")
            ),
            "bad_request",
        ),
        (
            "/api/setups?game=nosuchgame&kind=random&seed=1".to_owned(),
            "bad_game",
        ),
        (
            format!(
                "/api/setups?game={}&kind=random&seed=1",
                escape("stratego(variant=nope)")
            ),
            "bad_game",
        ),
        (
            format!("/api/setups?game={classic}&kind=smart&seed=1"),
            "bad_request",
        ),
        (
            format!("/api/setups?game={classic}&kind=human&seed=-1"),
            "bad_request",
        ),
        (
            format!("/api/setups?game={classic}&kind=human"),
            "bad_request",
        ),
        ("/api/setups?kind=human&seed=1".to_owned(), "bad_request"),
        // A malformed escape stays as written (as browsers leave it), and
        // names no game.
        (
            "/api/setups?game=%ZZ&kind=human&seed=1".to_owned(),
            "bad_game",
        ),
    ];
    for (uri, kind) in cases {
        let r = send(&app, "GET", &uri, None, None).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{uri}: {}", r.json);
        assert_eq!(r.json["kind"], kind, "{uri}: {}", r.json);
        assert!(
            r.json["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{uri}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_without_a_setup_suggester_is_a_typed_400() {
    let (_, app) = app(false);
    let without: Vec<String> = specs()
        .into_iter()
        .filter(|s| !s.starts_with("stratego"))
        .collect();
    assert!(
        without.iter().any(|s| s.starts_with("kuhn_poker")),
        "{without:?}"
    );
    for spec in without {
        for kind in ["random", "human"] {
            let uri = format!("/api/setups?game={}&kind={kind}&seed=1", escape(&spec));
            let r = send(&app, "GET", &uri, None, None).await;
            assert_eq!(r.status, StatusCode::BAD_REQUEST, "{uri}: {}", r.json);
            assert_eq!(r.json["kind"], "bad_request", "{uri}: {}", r.json);
            let error = r.json["error"].as_str().unwrap_or_default();
            assert!(error.contains(&spec), "{uri}: the game is named: {error}");
        }
    }
}
