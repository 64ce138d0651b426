//! The lobby of two servers on one PostgreSQL database (Debian's server,
//! started for the test as in `tests/postgres.rs`), each on its own
//! listener as two processes behind a proxy would be: a seat opened on
//! one is listed, joined and played on the other; an invitation opens its
//! seat on either; a draw offered on one is accepted on the other; a
//! rematch asked on both makes one match; the caps of
//! seats per client hold when both servers race for the last places; a
//! person's seat never opens with a token the database holds.
use crate::common::{self, listen};
use crate::pg_cluster::Postgres;

use serde_json::{json, Value};
use tabletop_server::Config;

/// Two servers on `pg`'s database, with `per_client` lobby seats a
/// client (0: no limit); their `http://ADDRESS:PORT`.
async fn two_servers(pg: &Postgres, per_client: usize) -> [String; 2] {
    let mut bases = Vec::new();
    for _ in 0..2 {
        let mut config = Config {
            postgres: Some(pg.url()),
            ..Config::default()
        }
        .unlimited();
        config.memory.lobby_seats_per_client = per_client;
        let (server, addr) = listen(config).await;
        server.resume().await;
        bases.push(format!("http://{addr}"));
    }
    [bases[0].clone(), bases[1].clone()]
}

async fn post(
    http: &reqwest::Client,
    url: String,
    token: Option<&str>,
    body: Value,
) -> (u16, Value) {
    let mut request = http.post(url).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let answer = request.send().await.unwrap();
    (answer.status().as_u16(), answer.json().await.unwrap())
}

async fn view(http: &reqwest::Client, base: &str, id: i64, token: Option<&str>) -> Value {
    let (status, text) = common::view_over_http(http, base, id, token).await;
    assert_eq!(status, 200, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// Plays `token`'s seat of match `id` on `base` until it is the other
/// seat's turn or the match ends; whether it moved.
async fn move_once(http: &reqwest::Client, base: &str, id: i64, token: &str) -> bool {
    let v = view(http, base, id, Some(token)).await;
    let Some(first) = v["legal"].as_array().and_then(|a| a.first()) else {
        return false;
    };
    let (status, answer) = post(
        http,
        format!("{base}/api/matches/{id}/actions"),
        Some(token),
        json!({ "action": first["id"] }),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    true
}

/// Waits until `f` holds of match `id`'s view on `base` (another server's
/// change reaches this one through the database's notices).
async fn eventually(
    http: &reqwest::Client,
    base: &str,
    id: i64,
    token: Option<&str>,
    f: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let v = view(http, base, id, token).await;
        if f(&v) {
            return v;
        }
        assert!(std::time::Instant::now() < deadline, "never: {v}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_is_the_databases_so_two_servers_list_seat_and_rematch_alike() {
    let pg = Postgres::start();
    let [a, b] = two_servers(&pg, 0).await;
    let http = reqwest::Client::new();

    // Opened on A, listed by B, taken on B, played on A with B's token.
    let (status, mine) = post(
        &http,
        format!("{a}/api/lobby"),
        None,
        json!({"game": "kuhn_poker", "seat": 0, "listed": true, "seed": 3}),
    )
    .await;
    assert_eq!(status, 201, "{mine}");
    let id = mine["id"].as_i64().unwrap();
    let my_token = mine["token"].as_str().unwrap().to_owned();
    let listed = http
        .get(format!("{b}/api/lobby"))
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(listed["open"][0]["id"], id, "{listed}");
    assert_eq!(listed["open"][0]["seat"], 1);
    assert_eq!(view(&http, &b, id, None).await["waiting"], 1);
    let (status, joined) = post(&http, format!("{b}/api/matches/{id}/join"), None, json!({})).await;
    assert_eq!(status, 200, "{joined}");
    let their_token = joined["token"].as_str().unwrap().to_owned();
    let (status, again) = post(&http, format!("{a}/api/matches/{id}/join"), None, json!({})).await;
    assert_eq!(
        status, 409,
        "a seat is taken once, whichever server asks: {again}"
    );
    // A learns of the join from the database: the seat no longer waits,
    // and the new token opens it there.
    eventually(&http, &a, id, None, |v| v["waiting"].is_null()).await;
    assert_eq!(view(&http, &a, id, Some(&their_token)).await["you"], 1);
    let listed = http.get(format!("{a}/api/lobby")).send().await.unwrap();
    assert_eq!(listed.json::<Value>().await.unwrap()["open"], json!([]));
    // Played to the end, each seat's moves sent to the other server.
    let tokens = [my_token.clone(), their_token.clone()];
    let bases = [b.clone(), a.clone()];
    for _ in 0..20 {
        let v = view(&http, &a, id, None).await;
        if !v["outcome"].is_null() {
            break;
        }
        let seat = v["to_move"].as_u64().unwrap_or(0) as usize;
        move_once(&http, &bases[seat], id, &tokens[seat]).await;
    }
    eventually(&http, &b, id, None, |v| !v["outcome"].is_null()).await;

    // A rematch asked on both servers at once makes one match; each
    // person gets the other seat in it.
    let ask = |base: String, token: String| {
        let http = http.clone();
        async move {
            post(
                &http,
                format!("{base}/api/matches/{id}/rematch"),
                Some(&token),
                json!({}),
            )
            .await
        }
    };
    let (first, second) = tokio::join!(
        ask(a.clone(), my_token.clone()),
        ask(b.clone(), their_token.clone())
    );
    assert_eq!(first.0, 200, "{}", first.1);
    assert_eq!(second.0, 200, "{}", second.1);
    assert_eq!(first.1["id"], second.1["id"], "one rematch");
    assert_eq!(first.1["seat"], 1, "seats swap");
    assert_eq!(second.1["seat"], 0);
    let rematch = first.1["id"].as_i64().unwrap();
    for base in [&a, &b] {
        eventually(&http, base, id, None, |v| v["rematch"] == rematch).await;
        let v = eventually(&http, base, rematch, None, |v| v["waiting"].is_null()).await;
        assert!(v["outcome"].is_null());
    }
    let t0 = second.1["token"].as_str().unwrap();
    let t1 = first.1["token"].as_str().unwrap();
    assert_eq!(view(&http, &a, rematch, Some(t0)).await["you"], 0);
    assert_eq!(view(&http, &b, rematch, Some(t1)).await["you"], 1);

    // An unlisted seat opened on B opens to its invitation on A, and to
    // nothing else.
    let (status, unlisted) = post(
        &http,
        format!("{b}/api/lobby"),
        None,
        json!({"game": "kuhn_poker", "seat": 1, "listed": false}),
    )
    .await;
    assert_eq!(status, 201, "{unlisted}");
    let other = unlisted["id"].as_i64().unwrap();
    let invite = unlisted["invite"].as_str().unwrap();
    let (status, refused) = post(
        &http,
        format!("{a}/api/matches/{other}/join"),
        None,
        json!({}),
    )
    .await;
    assert_eq!(status, 403, "{refused}");
    let (status, joined) = post(
        &http,
        format!("{a}/api/matches/{other}/join"),
        None,
        json!({ "invite": invite }),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["seat"], 0);

    // A draw offered through B is seen, and accepted, through A.
    let creator = unlisted["token"].as_str().unwrap();
    let joiner = joined["token"].as_str().unwrap();
    let (status, offered) = post(
        &http,
        format!("{b}/api/matches/{other}/draw"),
        Some(creator),
        json!({"offer": true}),
    )
    .await;
    assert_eq!(status, 200, "{offered}");
    eventually(&http, &a, other, Some(joiner), |v| v["draw_offer"] == 1).await;
    let (status, agreed) = post(
        &http,
        format!("{a}/api/matches/{other}/draw"),
        Some(joiner),
        json!({"offer": true}),
    )
    .await;
    assert_eq!(status, 200, "{agreed}");
    assert_eq!(agreed["outcome"]["ending"], "agreed_draw", "{agreed}");
    let v = eventually(&http, &b, other, None, |v| !v["outcome"].is_null()).await;
    assert_eq!(v["outcome"]["ending"], "agreed_draw");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seats_a_client_may_open_are_capped_across_servers_racing() {
    let pg = Postgres::start();
    let [a, b] = two_servers(&pg, 3).await;
    let http = reqwest::Client::new();
    // 16 requests from one client, half to each server, all at once.
    let asks = (0..16).map(|i| {
        let http = http.clone();
        let base = if i % 2 == 0 { a.clone() } else { b.clone() };
        async move {
            post(
                &http,
                format!("{base}/api/lobby"),
                None,
                json!({"game": "kuhn_poker", "seat": 0, "listed": true}),
            )
            .await
        }
    });
    let answers = futures_util::future::join_all(asks).await;
    let opened = answers.iter().filter(|(s, _)| *s == 201).count();
    let refused: Vec<_> = answers.iter().filter(|(s, _)| *s != 201).collect();
    assert_eq!(opened, 3, "{answers:?}");
    assert!(
        refused
            .iter()
            .all(|(s, v)| *s == 429 && v["kind"] == "too_many"),
        "{refused:?}"
    );
    let listed = http.get(format!("{b}/api/lobby")).send().await.unwrap();
    let listed: Value = listed.json().await.unwrap();
    assert_eq!(listed["open"].as_array().unwrap().len(), 3);
}

#[test]
fn an_open_seats_token_is_never_in_the_database() {
    let pg = Postgres::start();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let secrets: Vec<String> = runtime.block_on(async {
        let [a, _] = two_servers(&pg, 0).await;
        let http = reqwest::Client::new();
        let (_, mine) = post(
            &http,
            format!("{a}/api/lobby"),
            None,
            json!({"game": "kuhn_poker", "seat": 0, "listed": false}),
        )
        .await;
        let id = mine["id"].as_i64().unwrap();
        let invite = mine["invite"].as_str().unwrap().to_owned();
        let (_, joined) = post(
            &http,
            format!("{a}/api/matches/{id}/join"),
            None,
            json!({ "invite": invite }),
        )
        .await;
        let token = joined["token"].as_str().unwrap().to_owned();
        vec![token, invite, mine["token"].as_str().unwrap().to_owned()]
    });
    // The blocking client runs a runtime of its own: outside the test's.
    let mut db = postgres::Client::connect(&pg.url(), postgres::NoTls).unwrap();
    let stored: String = db
        .query(
            "SELECT coalesce(token0, '') || coalesce(token1, '') FROM matches \
             UNION ALL SELECT coalesce(invite, '') || owner FROM open_seats",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| r.get::<_, String>(0))
        .collect();
    assert!(stored.len() >= 128, "both seats are sealed: {stored}");
    for secret in &secrets {
        assert!(!stored.contains(secret.as_str()), "{secret} is stored");
    }
}
