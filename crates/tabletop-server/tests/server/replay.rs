//! Replays: any step of a match from a viewpoint. While the match runs
//! the replay shows only what the asker could see live (never the full
//! view, another seat's view only with that seat's token); once it is
//! over everything opens, with the record and the notation.
use crate::common;

use axum::http::StatusCode;
use common::{app, create, play_out, send};
use serde_json::{json, Value};

fn replay_uri(id: i64, step: usize, view: &str) -> String {
    format!("/api/matches/{id}/replay?step={step}&view={view}")
}

/// Two running Kuhn poker matches whose deals differ, with the same
/// public history (seat 0 checked): every step of their spectator replays
/// is the same bytes but for the id, while seat 0's own replay differs
/// (its card), so the comparison can fail.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_matchs_replay_never_shows_hidden_information() {
    let (_, app) = app(false);
    let mut matches = Vec::new();
    let mut seed = 0;
    while matches.len() < 2 {
        seed += 1;
        let (id, t) = create(&app, "kuhn_poker", ["human", "human"], seed).await;
        let t0 = t[0].clone().unwrap();
        let v = send(&app, "GET", &format!("/api/matches/{id}"), Some(&t0), None)
            .await
            .json;
        let card = v["observation"].clone();
        if matches
            .iter()
            .any(|(_, _, c): &(i64, String, Value)| *c == card)
        {
            continue;
        }
        let check = v["legal"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["text"] == "check" || a["text"] == "pass")
            .cloned()
            .unwrap_or_else(|| v["legal"][0].clone());
        let r = send(
            &app,
            "POST",
            &format!("/api/matches/{id}/actions"),
            Some(&t0),
            Some(json!({"action": check["id"]}).to_string().into_bytes()),
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json);
        assert!(r.json["outcome"].is_null(), "the match still runs");
        matches.push((id, t0, card));
    }
    let steps = send(
        &app,
        "GET",
        &format!("/api/matches/{}", matches[0].0),
        None,
        None,
    )
    .await
    .json["steps"]
        .as_u64()
        .unwrap() as usize;
    let public = |bytes: &[u8], id: i64| -> Value {
        let mut v: Value = serde_json::from_slice(bytes).unwrap();
        assert_eq!(v["id"], id);
        v["id"] = Value::Null;
        v
    };
    let mut differs = false;
    for step in 0..=steps {
        let mut seen = Vec::new();
        let mut own = Vec::new();
        for (id, t0, _) in &matches {
            let r = send(&app, "GET", &replay_uri(*id, step, "spectator"), None, None).await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.json);
            assert!(r.json["observation"].is_null());
            assert_eq!(r.json["legal"], json!([]));
            seen.push(public(&r.bytes, *id));
            let full = send(&app, "GET", &replay_uri(*id, step, "full"), Some(t0), None).await;
            assert_eq!(
                full.status,
                StatusCode::CONFLICT,
                "no full view while it runs"
            );
            for seat in ["0", "1"] {
                let r = send(&app, "GET", &replay_uri(*id, step, seat), None, None).await;
                assert_eq!(
                    r.status,
                    StatusCode::FORBIDDEN,
                    "a seat's view needs its token"
                );
            }
            let other = send(&app, "GET", &replay_uri(*id, step, "1"), Some(t0), None).await;
            assert_eq!(
                other.status,
                StatusCode::FORBIDDEN,
                "seat 0 cannot see seat 1's view"
            );
            let mine = send(&app, "GET", &replay_uri(*id, step, "0"), Some(t0), None).await;
            assert_eq!(mine.status, StatusCode::OK);
            assert_eq!(
                mine.json["legal"],
                json!([]),
                "nothing is playable in a replay"
            );
            own.push(public(&mine.bytes, *id));
        }
        assert_eq!(
            seen[0], seen[1],
            "step {step}: the spectator's replays are the same"
        );
        differs |= own[0] != own[1];
    }
    assert!(differs, "seat 0's own replays show its differing cards");
    for (id, _, _) in &matches {
        let r = send(
            &app,
            "GET",
            &format!("/api/matches/{id}/record"),
            None,
            None,
        )
        .await;
        assert_eq!(r.status, StatusCode::CONFLICT, "no record while it runs");
        let r = send(
            &app,
            "GET",
            &format!("/api/matches/{id}/notation"),
            None,
            None,
        )
        .await;
        assert_eq!(r.status, StatusCode::CONFLICT, "no notation while it runs");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_match_replays_step_by_step_from_every_viewpoint() {
    let (_, app) = app(false);
    let (id, t) = create(
        &app,
        "battleline(variant=troops_only)",
        ["human", "bot:random"],
        9,
    )
    .await;
    let end = play_out(&app, id, t[0].as_deref().unwrap(), 7, 5000).await;
    let total = end["steps"].as_u64().unwrap() as usize;
    for step in [0, 1, total / 2, total] {
        for view in ["spectator", "0", "1"] {
            let r = send(&app, "GET", &replay_uri(id, step, view), None, None).await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.json);
            assert_eq!(r.json["steps"], step);
            assert_eq!(r.json["replay_of"], total);
            assert_eq!(r.json["log"].as_array().unwrap().len(), step);
        }
        let full = send(&app, "GET", &replay_uri(id, step, "full"), None, None).await;
        assert_eq!(full.status, StatusCode::OK);
        assert_eq!(full.json["views"][0]["you"], 0);
        assert_eq!(full.json["views"][1]["you"], 1);
    }
    let last = send(
        &app,
        "GET",
        &replay_uri(id, usize::MAX / 2, "0"),
        None,
        None,
    )
    .await;
    assert_eq!(
        last.json["steps"], total,
        "a step past the end shows the end"
    );
    assert_eq!(last.json["outcome"], end["outcome"]);
    let live = send(
        &app,
        "GET",
        &format!("/api/matches/{id}"),
        t[0].as_deref(),
        None,
    )
    .await;
    assert_eq!(
        last.json["log"], live.json["log"],
        "the last step is the match as played"
    );
    let bad = send(
        &app,
        "GET",
        &format!("/api/matches/{id}/replay?view=everything"),
        None,
        None,
    )
    .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let record = send(
        &app,
        "GET",
        &format!("/api/matches/{id}/record"),
        None,
        None,
    )
    .await;
    assert_eq!(record.status, StatusCode::OK);
    assert_eq!(
        record.json["actions"].as_array().map(Vec::len),
        Some(total),
        "{}",
        record.json
    );
    let notation = send(
        &app,
        "GET",
        &format!("/api/matches/{id}/notation"),
        None,
        None,
    )
    .await;
    assert_eq!(notation.status, StatusCode::OK);
    let text = String::from_utf8(notation.bytes).unwrap();
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), total);
}
