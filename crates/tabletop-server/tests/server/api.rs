//! The HTTP API on every registered game: listing, creating, playing to
//! the end against each bot, errors as 4xx, restart by replay, WebSocket,
//! and the OpenAPI description in sync with the routes.

use crate::common;

use axum::http::StatusCode;
use common::*;
use serde_json::{json, Value};
use tabletop_server::http::{API_ROUTES, OPENAPI};

fn bytes(v: Value) -> Option<Vec<u8>> {
    Some(v.to_string().into_bytes())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_listing_names_every_game_with_presets_bots_and_legend() {
    let (_, app) = app(false);
    let r = send(&app, "GET", "/api/games", None, None).await;
    assert_eq!(r.status, StatusCode::OK);
    let names: Vec<&str> = r.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    let expected: Vec<String> = tabletop_server::registry()
        .list()
        .into_iter()
        .map(|g| g.name)
        .collect();
    assert_eq!(names, expected);
    for g in r.json["games"].as_array().unwrap() {
        assert!(g["bots"].as_array().unwrap().contains(&json!("bot:random")));
        assert!(g["legend"].is_string());
        assert!(g["parameters"].is_array());
    }
}

/// The page names games and rule sets by the titles each game declares
/// beside its presets, read from the listing: one name per rule set
/// everywhere a person reads it ("International" for Stratego's classic
/// rules, as the terminal's and the arena's titles say too).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_listing_gives_every_game_and_preset_its_declared_title() {
    let (server, app) = app(false);
    let listing = send(&app, "GET", "/api/games", None, None).await.json;
    let games = listing["games"].as_array().unwrap();
    for (g, declared) in games.iter().zip(server.registry().list()) {
        assert_eq!(g["title"], declared.title.as_str());
        assert!(!declared.title.is_empty());
        for (p, declared) in g["presets"]
            .as_array()
            .unwrap()
            .iter()
            .zip(&declared.presets)
        {
            assert_eq!(p["title"], declared.title.as_str());
            assert_eq!(p["differences"], declared.differences.as_str());
            assert!(!declared.title.is_empty() && !declared.differences.is_empty());
        }
    }
    let stratego = games.iter().find(|g| g["name"] == "stratego").unwrap();
    assert_eq!(stratego["title"], "Stratego");
    assert_eq!(stratego["presets"][0]["title"], "International");
    let game = server.registry().load("stratego").unwrap();
    assert_eq!(game.title(), "Stratego, International");
}

/// Each game's drawing is the one list of drawings the server serves: the
/// listing names a game's own module when the page has one, the generic
/// one otherwise, and the server serves what it names.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_listing_names_each_games_drawing_and_the_server_serves_it() {
    let (_, app) = app(false);
    let listing = send(&app, "GET", "/api/games", None, None).await.json;
    let renderer = |name: &str| {
        listing["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == name)
            .map(|g| g["renderer"].as_str().unwrap().to_owned())
    };
    assert_eq!(
        renderer("battleline").as_deref(),
        Some("renderers/battleline.js")
    );
    assert_eq!(
        renderer("kuhn_poker").as_deref(),
        Some("renderers/generic.js")
    );
    for g in listing["games"].as_array().unwrap() {
        let path = format!("/web/{}", g["renderer"].as_str().unwrap());
        let r = send(&app, "GET", &path, None, None).await;
        assert_eq!(r.status, StatusCode::OK, "{path}");
    }
}

/// `stratego` alone is the international classic game: the first Stratego
/// option of the listing (the page's first), and what a match created by
/// the bare name plays; «Сражение» and the Czech rules are named variants.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stratego_alone_is_the_classic_game_and_its_first_listed_preset() {
    let (_, app) = app(false);
    let listing = send(&app, "GET", "/api/games", None, None).await.json;
    let stratego = listing["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "stratego")
        .expect("the server lists stratego")
        .clone();
    let presets: Vec<&str> = stratego["presets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["spec"].as_str().unwrap())
        .collect();
    assert_eq!(presets[0], "stratego(variant=classic)");
    for variant in ["stratego(variant=srazhenie)", "stratego(variant=czech)"] {
        assert!(presets.contains(&variant), "{variant} in {presets:?}");
    }
    let body = json!({"game": "stratego", "seats": ["human", "human"], "seed": 1});
    let created = send(&app, "POST", "/api/matches", None, bytes(body)).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.json);
    assert_eq!(created.json["game"], "stratego(variant=classic)");
}

/// Every game the OpenAPI description gives as an example is one the
/// registry loads, under the name it gives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_openapi_examples_name_registered_games() {
    let (_, app) = app(false);
    let doc: Value = serde_json::from_str(OPENAPI).unwrap();
    let example = doc["components"]["schemas"]["CreateMatch"]["properties"]["game"]["example"]
        .as_str()
        .expect("CreateMatch.game has an example");
    let body = json!({"game": example, "seats": ["human", "human"], "seed": 1});
    let created = send(&app, "POST", "/api/matches", None, bytes(body)).await;
    assert_eq!(
        created.status,
        StatusCode::CREATED,
        "{example}: {}",
        created.json
    );
    assert_eq!(created.json["game"], example);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_every_game_to_the_end_against_each_bot_from_either_seat() {
    let (_, app) = app(false);
    let mut played = 0;
    for spec in specs() {
        let listing = send(&app, "GET", "/api/games", None, None).await.json;
        let game = listing["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| spec.starts_with(g["name"].as_str().unwrap()))
            .unwrap()
            .clone();
        let mut bots: Vec<String> = vec![
            "bot:random".into(),
            "bot:ismcts:30".into(),
            "bot:flat:20".into(),
        ];
        if game["bots"]
            .as_array()
            .unwrap()
            .contains(&json!("bot:heuristic"))
        {
            bots.push("bot:heuristic".into());
        }
        for (k, bot) in bots.iter().enumerate() {
            for human in 0..2 {
                let seats = if human == 0 {
                    ["human", bot.as_str()]
                } else {
                    [bot.as_str(), "human"]
                };
                let seed = 100 + k as u64 * 2 + human as u64;
                let (id, tokens) = create(&app, &spec, seats, seed).await;
                assert!(tokens[1 - human].is_none(), "a bot seat has no token");
                let token = tokens[human].clone().unwrap();
                let end = play_out(&app, id, &token, seed, 20_000).await;
                let public = send(&app, "GET", &format!("/api/matches/{id}"), None, None)
                    .await
                    .json;
                assert_eq!(end["outcome"], public["outcome"], "{spec} {bot}");
                assert_eq!(end["you"], json!(human));
                assert!(public["you"].is_null() && public["observation"].is_null());
                assert_eq!(
                    end["log"].as_array().unwrap().len(),
                    end["steps"].as_u64().unwrap() as usize
                );
                played += 1;
            }
        }
    }
    assert!(played >= 8);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_play_with_their_tokens_and_a_replayed_record_is_identical() {
    let dir = std::env::temp_dir().join(format!("tabletop-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("records.db");
    let _ = std::fs::remove_file(&db);
    let db = db.to_str().unwrap().to_owned();
    let mut views = Vec::new();
    {
        let (_, app) = app_at(&db, false);
        for (i, spec) in specs().iter().enumerate() {
            let (id, tokens) = create(&app, spec, ["human", "human"], 7 + i as u64).await;
            let t = [tokens[0].clone().unwrap(), tokens[1].clone().unwrap()];
            // A few moves by whoever is to move, then stop mid-game.
            for step in 0..3 {
                let v = send(&app, "GET", &format!("/api/matches/{id}"), None, None)
                    .await
                    .json;
                let Some(p) = v["to_move"].as_u64() else {
                    break;
                };
                let seat_view = send(
                    &app,
                    "GET",
                    &format!("/api/matches/{id}"),
                    Some(&t[p as usize]),
                    None,
                )
                .await
                .json;
                let legal = seat_view["legal"].as_array().unwrap();
                let a = &legal[pick(3, step, legal.len())];
                let r = send(
                    &app,
                    "POST",
                    &format!("/api/matches/{id}/actions"),
                    Some(&t[p as usize]),
                    bytes(json!({"action": a["id"]})),
                )
                .await;
                assert_eq!(r.status, StatusCode::OK, "{}", r.json);
            }
            for tok in [Some(t[0].as_str()), Some(t[1].as_str()), None] {
                let v = send(&app, "GET", &format!("/api/matches/{id}"), tok, None).await;
                views.push((id, tok.map(str::to_owned), v.bytes));
            }
        }
    }
    // A new server on the same file replays every match to the same views.
    let (_, app) = app_at(&db, false);
    for (id, tok, before) in views {
        let after = send(
            &app,
            "GET",
            &format!("/api/matches/{id}"),
            tok.as_deref(),
            None,
        )
        .await;
        assert_eq!(
            String::from_utf8(after.bytes).unwrap(),
            String::from_utf8(before).unwrap()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_a_4xx_with_a_message_and_changes_nothing() {
    let (_, app) = app(false);
    let spec = specs()[0].clone();
    let (id, tokens) = create(&app, &spec, ["human", "human"], 1).await;
    let t0 = tokens[0].clone().unwrap();
    let t1 = tokens[1].clone().unwrap();
    let before = send(&app, "GET", &format!("/api/matches/{id}"), None, None)
        .await
        .bytes;
    let mover = send(&app, "GET", &format!("/api/matches/{id}"), None, None)
        .await
        .json["to_move"]
        .as_u64()
        .unwrap();
    let (tm, tw) = if mover == 0 { (&t0, &t1) } else { (&t1, &t0) };
    let act = format!("/api/matches/{id}/actions");
    let huge = "x".repeat(100_000);
    type Case<'a> = (
        &'a str,
        String,
        Option<&'a str>,
        Option<Vec<u8>>,
        StatusCode,
    );
    let cases: Vec<Case> = vec![
        ("POST", "/api/matches".into(), None, Some(b"{not json".to_vec()), StatusCode::BAD_REQUEST),
        ("POST", "/api/matches".into(), None, bytes(json!({"game": spec, "seats": ["human", "human"], "colour": 1})), StatusCode::BAD_REQUEST),
        ("POST", "/api/matches".into(), None, bytes(json!({"game": "no-such-game", "seats": ["human", "human"]})), StatusCode::BAD_REQUEST),
        ("POST", "/api/matches".into(), None, bytes(json!({"game": format!("{}(no_such_param=1)", spec.split('(').next().unwrap()), "seats": ["human", "human"]})), StatusCode::BAD_REQUEST),
        ("POST", "/api/matches".into(), None, Some(format!(r#"{{"game": "{spec}", "seats": ["human", "human"], "seed": 1e30}}"#).into_bytes()), StatusCode::BAD_REQUEST),
        ("POST", "/api/matches".into(), None, Some(format!(r#"{{"game": "{spec}", "seats": ["human", "human"], "seed": 18446744073709551616}}"#).into_bytes()), StatusCode::BAD_REQUEST),
        ("POST", "/api/matches".into(), None, bytes(json!({"game": spec, "seats": ["human", "human"], "seed": -1})), StatusCode::BAD_REQUEST),
        ("POST", "/api/matches".into(), None, bytes(json!({"game": spec, "seats": ["human"]})), StatusCode::BAD_REQUEST),
        ("POST", "/api/matches".into(), None, bytes(json!({"game": spec, "seats": ["human", "bot:ismcts:999999999"]})), StatusCode::BAD_REQUEST),
        ("POST", "/api/matches".into(), None, bytes(json!({"game": spec, "seats": ["human", "cmd:sh"]})), StatusCode::BAD_REQUEST),
        ("POST", "/api/matches".into(), None, bytes(json!({"game": huge, "seats": ["human", "human"]})), StatusCode::PAYLOAD_TOO_LARGE),
        ("GET", "/api/matches/999999".into(), None, None, StatusCode::NOT_FOUND),
        ("GET", "/api/matches/abc".into(), None, None, StatusCode::NOT_FOUND),
        ("GET", "/api/matches/99999999999999999999999".into(), None, None, StatusCode::NOT_FOUND),
        ("GET", format!("/api/matches/{id}"), Some("00000000000000000000000000000000"), None, StatusCode::FORBIDDEN),
        ("GET", format!("/api/matches/{id}"), Some("not-a-token"), None, StatusCode::UNAUTHORIZED),
        ("POST", act.clone(), None, bytes(json!({"action": 0})), StatusCode::UNAUTHORIZED),
        ("POST", act.clone(), Some("ffffffffffffffffffffffffffffffff"), bytes(json!({"action": 0})), StatusCode::FORBIDDEN),
        ("POST", act.clone(), Some(tw.as_str()), bytes(json!({"action": 0})), StatusCode::CONFLICT),
        ("POST", act.clone(), Some(tm.as_str()), bytes(json!({"action": 1u64 << 40})), StatusCode::UNPROCESSABLE_ENTITY),
        ("POST", act.clone(), Some(tm.as_str()), bytes(json!({"action": u64::MAX})), StatusCode::UNPROCESSABLE_ENTITY),
        ("POST", act.clone(), Some(tm.as_str()), bytes(json!({"action": -3})), StatusCode::BAD_REQUEST),
        ("POST", act.clone(), Some(tm.as_str()), bytes(json!({"action": "1"})), StatusCode::BAD_REQUEST),
        ("POST", act.clone(), Some(tm.as_str()), Some(b"".to_vec()), StatusCode::BAD_REQUEST),
        ("POST", act.clone(), Some(tm.as_str()), Some(vec![b'['; 200_000]), StatusCode::PAYLOAD_TOO_LARGE),
        ("GET", "/api/nothing".into(), None, None, StatusCode::NOT_FOUND),
        ("GET", "/web/../Cargo.toml".into(), None, None, StatusCode::NOT_FOUND),
        ("GET", format!("/api/matches/{id}/ws"), None, None, StatusCode::BAD_REQUEST),
    ];
    for (method, uri, token, body, status) in cases {
        let r = send(&app, method, &uri, token, body).await;
        assert_eq!(r.status, status, "{method} {uri}: {}", r.json);
        assert!(
            !r.json["error"].as_str().unwrap_or("").is_empty(),
            "{method} {uri} says why"
        );
    }
    // An action id the engine refuses at this point (any id not legal now).
    let seat_view = send(&app, "GET", &format!("/api/matches/{id}"), Some(tm), None)
        .await
        .json;
    let legal: Vec<u64> = seat_view["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_u64().unwrap())
        .collect();
    let space = tabletop_server::registry()
        .load(&spec)
        .unwrap()
        .info()
        .action_space as u64;
    if let Some(bad) = (0..space).find(|i| !legal.contains(i)) {
        let r = send(&app, "POST", &act, Some(tm), bytes(json!({"action": bad}))).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.json);
    }
    // Seeded random bytes as bodies: every one refused, none a 5xx.
    for i in 0..200u64 {
        let len = pick(i, 0, 64);
        let junk: Vec<u8> = (0..len).map(|k| pick(i, k as u64 + 1, 256) as u8).collect();
        for uri in ["/api/matches", act.as_str()] {
            let r = send(&app, "POST", uri, Some(tm), Some(junk.clone())).await;
            assert!(r.status.is_client_error(), "{uri} {junk:?}: {}", r.status);
        }
    }
    let after = send(&app, "GET", &format!("/api/matches/{id}"), None, None)
        .await
        .bytes;
    assert_eq!(before, after, "refused requests changed nothing");
    // A finished match refuses further actions.
    let end = play_two(&app, id, [&t0, &t1]).await;
    let p = 0;
    let r = send(
        &app,
        "POST",
        &act,
        Some([&t0, &t1][p]),
        bytes(json!({"action": 0})),
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.json);
    assert!(!end["outcome"].is_null());
}

async fn play_two(app: &axum::Router, id: i64, t: [&str; 2]) -> Value {
    for step in 0..100_000u64 {
        let v = send(app, "GET", &format!("/api/matches/{id}"), None, None)
            .await
            .json;
        let Some(p) = v["to_move"].as_u64() else {
            return v;
        };
        let sv = send(
            app,
            "GET",
            &format!("/api/matches/{id}"),
            Some(t[p as usize]),
            None,
        )
        .await
        .json;
        let legal = sv["legal"].as_array().unwrap();
        let a = &legal[pick(9, step, legal.len())];
        let r = send(
            app,
            "POST",
            &format!("/api/matches/{id}/actions"),
            Some(t[p as usize]),
            bytes(json!({"action": a["id"]})),
        )
        .await;
        assert_eq!(r.status, StatusCode::OK);
    }
    panic!("no end");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_openapi_description_lists_exactly_the_routes_and_each_answers() {
    let (_, app) = app(false);
    let doc: Value = serde_json::from_str(OPENAPI).unwrap();
    let mut documented = Vec::new();
    for (path, ops) in doc["paths"].as_object().unwrap() {
        for method in ops.as_object().unwrap().keys() {
            documented.push((method.clone(), path.clone()));
        }
    }
    documented.sort();
    let mut routes: Vec<(String, String)> = API_ROUTES
        .iter()
        .map(|(m, p)| (m.to_string(), p.to_string()))
        .collect();
    routes.sort();
    assert_eq!(documented, routes);
    let served = send(&app, "GET", "/api/openapi.json", None, None).await;
    assert_eq!(served.json, doc);
    // Each route exists on the router (not the 404 fallback, not 405).
    let (id, _) = create(&app, &specs()[0], ["human", "human"], 3).await;
    for (method, path) in API_ROUTES {
        let uri = path.replace("{id}", &id.to_string());
        let body = (*method == "post").then(|| b"{}".to_vec());
        let r = send(&app, &method.to_uppercase(), &uri, None, body).await;
        assert_ne!(r.status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
        assert!(
            !r.json["error"]
                .as_str()
                .unwrap_or("")
                .starts_with("no such resource"),
            "{method} {path}"
        );
    }
    for page in [
        "/",
        "/web/app.js",
        "/web/api.js",
        "/web/style.css",
        "/web/renderers/index.js",
        "/web/renderers/generic.js",
    ] {
        assert_eq!(
            send(&app, "GET", page, None, None).await.status,
            StatusCode::OK,
            "{page}"
        );
    }
}

/// Whether Battle Line card code `code` is a tactics card (a troop card is
/// a colour letter and its value).
fn is_tactic(code: &str) -> bool {
    let mut chars = code.chars();
    let colour = chars.next().is_some_and(|c| "ROYGBP".contains(c));
    !(colour && chars.as_str().chars().all(|c| c.is_ascii_digit()))
}

/// A seat's log tells each action in the game's words (`told`): a tactics
/// card by its name, never by its code as the action's text has it; a
/// spectator is told what both seats were told alike, in words naming no
/// one "you", and nothing (`null`) where they were told apart (a card
/// drawn).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seats_log_tells_each_action_in_the_games_words() {
    let (_, app) = app(false);
    let (id, tokens) = create(&app, "battleline", ["human", "human"], 11).await;
    let uri = format!("/api/matches/{id}");
    // Both seats play tactics cards whenever they can and draw from the
    // tactics deck, until one is played.
    let mut played = None;
    for step in 0..400u64 {
        let spectator = send(&app, "GET", &uri, None, None).await.json;
        let seat = spectator["to_move"].as_u64().expect("a seat to move") as usize;
        let token = tokens[seat].as_deref();
        let view = send(&app, "GET", &uri, token, None).await.json;
        if let Some(e) = view["log"].as_array().unwrap().iter().rev().find(|e| {
            e["view"]["type"] == "public"
                && e["view"]["action"]["type"] == "play"
                && is_tactic(e["view"]["action"]["card"].as_str().unwrap_or(""))
        }) {
            played = Some(e["step"].as_u64().unwrap());
            break;
        }
        let legal = view["legal"].as_array().unwrap();
        let wanted = |a: &&Value| {
            let act = &a["action"];
            (act["type"] == "play" && is_tactic(act["card"].as_str().unwrap()))
                || act["deck"] == "tactics"
        };
        let action = legal
            .iter()
            .find(wanted)
            .unwrap_or(&legal[pick(11, step, legal.len())]);
        let body = json!({ "action": action["id"] }).to_string().into_bytes();
        let r = send(&app, "POST", &format!("{uri}/actions"), token, Some(body)).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json);
    }
    let step = played.expect("a tactics card was played") as usize;
    for token in &tokens {
        let view = send(&app, "GET", &uri, token.as_deref(), None).await.json;
        let entry = &view["log"][step];
        let code = entry["view"]["action"]["card"].as_str().unwrap();
        let told = entry["told"].as_str().expect("a seat is told");
        assert!(entry["text"].as_str().unwrap().contains(code), "{entry}");
        assert!(!told.split(' ').any(|w| w == code), "{told}");
        assert_ne!(told, entry["text"].as_str().unwrap());
    }
    let public = send(&app, "GET", &uri, None, None).await.json;
    let log = public["log"].as_array().unwrap();
    for e in log {
        assert_eq!(e["told"].is_null(), e["events"].is_null(), "{e}");
        if let Some(told) = e["told"].as_str() {
            assert!(!told.split(' ').any(|w| w == "you"), "{told}");
        }
    }
    assert!(log[step]["told"].is_string(), "a public play is told");
    assert!(
        log.iter().any(|e| e["told"].is_null()),
        "a draw is told apart"
    );
}

/// Every log entry of a view carries the action's events as data beside
/// their words: `events` with the schema's version and its items, each
/// tagged by `"kind"`; a claim's event names its flag and both sides.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_views_log_entries_carry_versioned_events() {
    let (_, app) = app(false);
    let (id, tokens) = create(&app, "battleline", ["human", "bot:random"], 3).await;
    let view = play_out(&app, id, tokens[0].as_deref().unwrap(), 3, 2000).await;
    let log = view["log"].as_array().unwrap();
    assert!(!log.is_empty());
    let mut claims = 0;
    for e in log {
        let events = &e["events"];
        assert_eq!(events["version"], game_traits::EVENTS_VERSION, "{e}");
        let items = events["items"].as_array().unwrap();
        assert!(!items.is_empty(), "{e}");
        assert!(items.iter().all(|i| i["kind"].is_string()), "{e}");
        assert!(!e["told"].as_str().unwrap().is_empty(), "{e}");
        if e["view"]["action"]["type"] == "claim" {
            claims += 1;
            let claim = &items[0];
            assert_eq!(claim["kind"], "claim", "{e}");
            assert_eq!(claim["flag"], e["view"]["action"]["flag"], "{e}");
            assert!(claim["claimant"]["cards"].is_array(), "{e}");
            assert!(claim["opponent"]["cards"].is_array(), "{e}");
        }
    }
    assert!(claims > 0, "a game is won by claims");
    let last = &log[log.len() - 1]["events"]["items"];
    let end = last.as_array().unwrap().last().unwrap();
    assert_eq!(end["kind"], "game_over", "{last}");
    assert_eq!(end["winner"], view["outcome"]["winner"], "{last}");
}

/// The page links its icon, and `/favicon.ico` (asked by browsers
/// whatever a page links) answers the same icon, not a 404.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_has_an_icon_at_its_link_and_at_favicon_ico() {
    let (_, app) = app(false);
    let page = send(&app, "GET", "/", None, None).await;
    let html = String::from_utf8(page.bytes).unwrap();
    assert!(html.contains(r#"<link rel="icon" href="/web/favicon.svg""#));
    let linked = send(&app, "GET", "/web/favicon.svg", None, None).await;
    let asked = send(&app, "GET", "/favicon.ico", None, None).await;
    assert_eq!(
        (linked.status, asked.status),
        (StatusCode::OK, StatusCode::OK)
    );
    assert!(linked.bytes.starts_with(b"<svg "));
    assert_eq!(linked.bytes, asked.bytes);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_websocket_pushes_the_seat_view_after_every_change() {
    use futures_util::{SinkExt, StreamExt};
    let (server, app) = app(false);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let http = reqwest::Client::new();
    let base = format!("http://{addr}");
    let created: Value = http
        .post(format!("{base}/api/matches"))
        .json(&json!({"game": specs()[0], "seats": ["human", "human"], "seed": 5}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_i64().unwrap();
    let tok = |s: usize| created["tokens"][s]["token"].as_str().unwrap().to_owned();
    let (mut ws, _) = tokio_tungstenite::connect_async(format!(
        "ws://{addr}/api/matches/{id}/ws?token={}",
        tok(0)
    ))
    .await
    .unwrap();
    let next = |m: Option<Result<tokio_tungstenite::tungstenite::Message, _>>| -> Value {
        serde_json::from_str(m.unwrap().unwrap().to_text().unwrap()).unwrap()
    };
    let first = next(
        tokio::time::timeout(std::time::Duration::from_secs(5), ws.next())
            .await
            .unwrap(),
    );
    assert_eq!(first["you"], json!(0));
    let mover = first["to_move"].as_u64().unwrap() as usize;
    let seat_view: Value = http
        .get(format!("{base}/api/matches/{id}"))
        .bearer_auth(tok(mover))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let a = seat_view["legal"][0]["id"].clone();
    let r = http
        .post(format!("{base}/api/matches/{id}/actions"))
        .bearer_auth(tok(mover))
        .json(&json!({"action": a}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let pushed = next(
        tokio::time::timeout(std::time::Duration::from_secs(5), ws.next())
            .await
            .unwrap(),
    );
    assert!(pushed["steps"].as_u64() > first["steps"].as_u64());
    let get: Value = http
        .get(format!("{base}/api/matches/{id}"))
        .bearer_auth(tok(0))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(pushed, get, "the pushed view is the seat's view");
    ws.send(tokio_tungstenite::tungstenite::Message::Close(None))
        .await
        .unwrap();
    // A wrong token is refused before the upgrade.
    let bad = tokio_tungstenite::connect_async(format!(
        "ws://{addr}/api/matches/{id}/ws?token={}",
        "0".repeat(32)
    ))
    .await;
    assert!(bad.is_err());
    drop(server);
}
