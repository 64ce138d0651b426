//! The names of each game's codes as the game declares them
//! (`Wire::glossary`), served where clients read them: every preset of
//! `/api/games` lists the glossary of its own rules (Stratego's pieces
//! are named and drawn differently in each rule set), and a match's view
//! carries that of its rules, also when no preset declares them.

use crate::common;

use axum::http::StatusCode;
use common::*;
use serde_json::{json, Value};

fn entry<'a>(glossary: &'a Value, code: &str) -> &'a Value {
    glossary
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["code"] == code)
        .unwrap_or_else(|| panic!("{code} not in {glossary}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_preset_lists_the_glossary_of_its_own_rules() {
    let (server, app) = app(false);
    let r = send(&app, "GET", "/api/games", None, None).await;
    assert_eq!(r.status, StatusCode::OK);
    for (g, declared) in r.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .zip(server.registry().list())
    {
        for (p, preset) in g["presets"]
            .as_array()
            .unwrap()
            .iter()
            .zip(&declared.presets)
        {
            assert_eq!(p["glossary"], json!(preset.glossary), "{}", preset.spec);
            let loaded = server.registry().load(&preset.spec).unwrap();
            assert_eq!(json!(loaded.glossary()), p["glossary"], "{}", preset.spec);
        }
        // The game's own glossary is its default preset's.
        assert_eq!(
            g["glossary"], g["presets"][0]["glossary"],
            "{}",
            declared.name
        );
    }
    let stratego = r.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "stratego")
        .unwrap();
    let preset = |name: &str| {
        stratego["presets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap()["glossary"]
            .clone()
    };
    assert_eq!(
        entry(&preset("classic"), "R0"),
        &json!({"code": "R0", "name": "Marshal", "group": "piece", "symbol": "10",
                "note": "the strongest; falls to the Spy if the Spy strikes first."})
    );
    let czech = preset("czech");
    assert_eq!(
        (&entry(&czech, "R0")["name"], &entry(&czech, "R0")["symbol"]),
        (&json!("Maršál"), &json!("Ma"))
    );
    assert_eq!(entry(&preset("srazhenie"), "R0")["symbol"], "1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_matchs_view_carries_the_glossary_of_its_rules_even_without_a_preset() {
    let (server, app) = app(false);
    // Czech rules with one option changed: no preset names them.
    let spec = "stratego(variant=czech,max_moves=4321)";
    let (id, tokens) = create(&app, spec, ["human", "bot:random"], 3).await;
    let token = tokens[0].clone().unwrap();
    let czech = server.registry().load("stratego(variant=czech)").unwrap();
    for viewer in [Some(token.as_str()), None] {
        let view = send(&app, "GET", &format!("/api/matches/{id}"), viewer, None)
            .await
            .json;
        assert!(
            !server
                .registry()
                .list()
                .iter()
                .flat_map(|g| &g.presets)
                .any(|p| p.spec == view["game"]),
            "{} is a preset",
            view["game"]
        );
        assert_eq!(view["glossary"], json!(czech.glossary()));
        assert_eq!(entry(&view["glossary"], "MINE")["name"], "Minové pole");
    }
}
