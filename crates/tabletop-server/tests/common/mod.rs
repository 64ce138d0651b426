//! Helpers of the server's tests: an in-process server, requests through
//! the router, and the registry's games with every preset.
#![allow(dead_code)]

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::Value;
use tabletop_server::{registry, router, Config, Server};
use tower::ServiceExt;

/// A server on a throw-away database.
pub fn app(allow_cmd: bool) -> (Arc<Server>, Router) {
    app_at(":memory:", allow_cmd)
}

/// A server on the database at `db`.
pub fn app_at(db: &str, allow_cmd: bool) -> (Arc<Server>, Router) {
    app_of(registry(), db, allow_cmd)
}

/// A server of the games of `games` on the database at `db`.
pub fn app_of(games: game_env::Registry, db: &str, allow_cmd: bool) -> (Arc<Server>, Router) {
    let config = Config {
        db: db.into(),
        allow_cmd_bots: allow_cmd,
        cmd_time_limit: std::time::Duration::from_secs(5),
        ..Config::default()
    }
    .unlimited();
    let server = Server::open(games, config).expect("the server opens");
    let r = router(server.clone());
    (server, r)
}

/// A response: status, JSON body (Null if not JSON) and raw bytes.
pub struct Resp {
    pub status: StatusCode,
    pub json: Value,
    pub bytes: Vec<u8>,
}

/// Sends one request through the router.
pub async fn send(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Vec<u8>>,
) -> Resp {
    let (status, bytes) = send_raw(app, method, uri, token, body).await;
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Resp {
        status,
        json,
        bytes,
    }
}

/// Sends one request through the router; the status and the body's bytes,
/// unparsed (a test comparing bytes by the hundred thousand pays for no
/// JSON tree it never reads).
pub async fn send_raw(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Vec<u8>>,
) -> (StatusCode, Vec<u8>) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let req = match body {
        Some(b) => req
            .header("content-type", "application/json")
            .body(Body::from(b)),
        None => req.body(Body::empty()),
    }
    .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes().to_vec();
    (status, bytes)
}

/// Every game specification to test: each game's presets (or its name).
pub fn specs() -> Vec<String> {
    let mut out = Vec::new();
    for g in registry().list() {
        if g.presets.is_empty() {
            out.push(g.name.clone());
        }
        out.extend(g.presets.iter().map(|p| p.spec.clone()));
    }
    assert!(!out.is_empty(), "the registry lists games");
    out
}

/// Creates a match; returns (id, tokens by seat).
pub async fn create(
    app: &Router,
    game: &str,
    seats: [&str; 2],
    seed: u64,
) -> (i64, [Option<String>; 2]) {
    let body = serde_json::json!({ "game": game, "seats": seats, "seed": seed });
    let r = send(
        app,
        "POST",
        "/api/matches",
        None,
        Some(body.to_string().into_bytes()),
    )
    .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json);
    let mut tokens = [None, None];
    for t in r.json["tokens"].as_array().unwrap() {
        tokens[t["seat"].as_u64().unwrap() as usize] =
            Some(t["token"].as_str().unwrap().to_owned());
    }
    (r.json["id"].as_i64().unwrap(), tokens)
}

/// A small seeded generator for picking moves in tests.
pub fn pick(seed: u64, step: u64, n: usize) -> usize {
    let mut x = seed ^ step.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    (x % n as u64) as usize
}

/// Plays `seat` of match `id` (a human seat with `token`) to the end,
/// picking moves from `seed`; the other seat is a bot or another
/// caller. Returns the final view. Panics after `limit` requests.
pub async fn play_out(app: &Router, id: i64, token: &str, seed: u64, limit: usize) -> Value {
    for _ in 0..limit {
        let r = send(app, "GET", &format!("/api/matches/{id}"), Some(token), None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json);
        let v = r.json;
        if !v["outcome"].is_null() {
            return v;
        }
        if v["to_move"] == v["you"] {
            let legal = v["legal"].as_array().unwrap();
            assert!(!legal.is_empty(), "the seat to move has legal actions");
            let a = &legal[pick(seed, v["steps"].as_u64().unwrap(), legal.len())];
            let body = serde_json::json!({ "action": a["id"] })
                .to_string()
                .into_bytes();
            let r = send(
                app,
                "POST",
                &format!("/api/matches/{id}/actions"),
                Some(token),
                Some(body),
            )
            .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.json);
        } else {
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
    }
    panic!("match {id} did not end within {limit} requests");
}

/// Starts the server's binary on loopback at `port` (0: any free one), with
/// no per-client limit (every client is the test) and warnings-only logs;
/// `database` adds how it finds its database (`--db PATH`, or
/// `TABLETOP_DATABASE`). Returns the process and its `http://ADDRESS:PORT`,
/// read from its first line.
pub fn spawn_server(
    port: u16,
    database: impl FnOnce(&mut std::process::Command) -> &mut std::process::Command,
) -> (std::process::Child, String) {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let mut command = Command::new(env!("CARGO_BIN_EXE_tabletop-server"));
    command
        .args([
            "--host",
            "127.0.0.1",
            "--port",
            &port.to_string(),
            "--log",
            "warn",
        ])
        .args(["--client-rate", "0", "--matches-per-client", "0"])
        .args(["--ws-per-client", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    let mut child = database(&mut command).spawn().expect("the server starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected start line {line:?}"))
        .to_owned();
    (child, base)
}

/// A server with `config` served by the real listener on loopback; returns
/// it and its address (the listener stops with the test's runtime).
pub async fn listen(config: Config) -> (Arc<Server>, std::net::SocketAddr) {
    let server = Server::open(registry(), config).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = router(server.clone());
    let s = server.clone();
    tokio::spawn(async move {
        tabletop_server::listen::serve(listener, app, s, std::time::Duration::from_secs(5)).await
    });
    (server, addr)
}

/// Over HTTP at `base` (a server process): creates a match of two people
/// playing `game` and returns its id, seat 0's token and the public view.
pub async fn two_people_over_http(
    http: &reqwest::Client,
    base: &str,
    game: &str,
) -> (i64, String, String) {
    let created = create_over_http(http, base, game, ["human", "human"]).await;
    let id = created["id"].as_i64().unwrap();
    let token = created["tokens"][0]["token"].as_str().unwrap().to_owned();
    let (status, view) = view_over_http(http, base, id, None).await;
    assert_eq!(status, 200);
    (id, token, view)
}

/// Over HTTP at `base`: match `id` as `token`'s seat sees it (the public
/// view without one): the status and the body.
pub async fn view_over_http(
    http: &reqwest::Client,
    base: &str,
    id: i64,
    token: Option<&str>,
) -> (u16, String) {
    let mut request = http.get(format!("{base}/api/matches/{id}"));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let answer = request.send().await.unwrap();
    (answer.status().as_u16(), answer.text().await.unwrap())
}

/// Removes the SQLite database at `path` with its write-ahead log and
/// shared-memory files.
pub fn remove_sqlite(path: &str) {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{path}{suffix}"));
    }
}

/// The value of counter or gauge `name` (no labels) in the Prometheus
/// text `metrics`.
pub fn metric(metrics: &str, name: &str) -> u64 {
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {metrics}"))
}

/// Over HTTP at `base`: creates a match of `game` with `seats`; returns
/// the answer (its `id` and the people's `tokens`).
pub async fn create_over_http(
    http: &reqwest::Client,
    base: &str,
    game: &str,
    seats: [&str; 2],
) -> Value {
    http.post(format!("{base}/api/matches"))
        .json(&serde_json::json!({"game": game, "seats": seats}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}
