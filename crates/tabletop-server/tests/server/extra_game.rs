//! A game is added in one place (issue 36): Nim, a game no file of the
//! server or the page knows, registered beside the real games, is listed by
//! the titles it declares, drawn by the generic drawing, and played to the
//! end against a bot.

use crate::common;

use axum::http::StatusCode;
use common::*;
use game_env::{GameDef, Knowledge};
use game_traits::testkit::nim::Nim;
use serde_json::json;

/// The registry of the server with Nim added the way every game is added.
fn with_nim() -> game_env::Registry {
    let mut games = tabletop_server::registry();
    games.register::<Nim>(GameDef {
        name: "nim",
        doc: "Nim: take one to a few stones, the last one wins",
        preset_key: "variant",
        aliases: &[],
        value_aliases: &[],
        knowledge: Knowledge::default(),
    });
    games
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_extra_game_is_listed_by_its_declared_titles_and_played() {
    let (_, app) = app_of(with_nim(), ":memory:", false);
    let listing = send(&app, "GET", "/api/games", None, None).await.json;
    let nim = listing["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "nim")
        .expect("the server lists the extra game")
        .clone();
    assert_eq!(nim["title"], "Nim");
    assert_eq!(nim["renderer"], "renderers/generic.js");
    let presets: Vec<(&str, &str)> = nim["presets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["title"].as_str().unwrap(), p["spec"].as_str().unwrap()))
        .collect();
    assert_eq!(
        presets,
        [
            ("Fifteen stones", "nim(variant=fifteen)"),
            ("Long heap", "nim(variant=long)")
        ]
    );
    assert!(nim["presets"][0]["differences"]
        .as_str()
        .unwrap()
        .contains("takes the last wins"));
    assert!(nim["bots"]
        .as_array()
        .unwrap()
        .contains(&json!("bot:random")));
    let (id, tokens) = create(&app, "nim(variant=long)", ["human", "bot:random"], 3).await;
    let token = tokens[0].as_deref().unwrap();
    let end = play_out(&app, id, token, 3, 200).await;
    assert!(!end["outcome"].is_null(), "{end}");
    let r = send(&app, "GET", "/web/renderers/generic.js", None, None).await;
    assert_eq!(r.status, StatusCode::OK);
}
