//! Request bodies are JSON objects, as documented (issue 35 item 5): an
//! array or a scalar is a 400 of kind `bad_request` on every route that
//! reads a body, and changes nothing (`[3]` used to play action 3).

use crate::common;

use axum::http::StatusCode;
use common::*;

/// JSON values that are not objects, among them an array that serde
/// would read field by field.
const NOT_OBJECTS: [&str; 8] = ["[0]", "[3]", "[]", "3", "\"x\"", "null", "true", " [0, 1]"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_is_not_an_object_is_a_400_on_every_route_that_reads_one() {
    let (_server, app) = app(false);
    let kuhn = specs()
        .into_iter()
        .find(|s| s.starts_with("kuhn"))
        .expect("the registry has Kuhn poker");
    let (id, tokens) = create(&app, &kuhn, ["human", "human"], 7).await;
    let view = |token: Option<String>| {
        let app = app.clone();
        async move {
            send(
                &app,
                "GET",
                &format!("/api/matches/{id}"),
                token.as_deref(),
                None,
            )
            .await
        }
    };
    let before = view(None).await;
    let mover = before.json["to_move"].as_u64().unwrap() as usize;
    let token = tokens[mover].clone().unwrap();
    let routes = [
        ("/api/matches".to_owned(), None),
        (format!("/api/matches/{id}/actions"), Some(token.clone())),
        (format!("/api/matches/{id}/draw"), Some(token.clone())),
        (format!("/api/matches/{id}/join"), None),
        ("/api/lobby".to_owned(), None),
        ("/api/players".to_owned(), None),
    ];
    for (path, token) in &routes {
        for body in NOT_OBJECTS {
            let r = send(
                &app,
                "POST",
                path,
                token.as_deref(),
                Some(body.as_bytes().to_vec()),
            )
            .await;
            assert_eq!(
                r.status,
                StatusCode::BAD_REQUEST,
                "{path} {body}: {}",
                r.json
            );
            assert_eq!(r.json["kind"], "bad_request", "{path} {body}");
            assert_eq!(r.json["status"], 400, "{path} {body}");
        }
    }
    let after = view(None).await;
    assert_eq!(before.bytes, after.bytes, "no action was played");
    let lobby = send(&app, "GET", "/api/lobby", None, None).await;
    assert_eq!(
        lobby.json["open"],
        serde_json::json!([]),
        "no seat was opened"
    );
    // An object is read as ever.
    let legal = view(Some(token.clone())).await.json["legal"][0]["id"].clone();
    let body = serde_json::json!({ "action": legal }).to_string();
    let r = send(
        &app,
        "POST",
        &format!("/api/matches/{id}/actions"),
        Some(&token),
        Some(body.into_bytes()),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json);
}
