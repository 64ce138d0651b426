//! Operations (issue 23 item 4): the probes, the Prometheus page, the
//! request id on every answer, and a graceful stop that answers the move
//! in flight, closes the WebSockets with 1001 and ends the binary on
//! SIGTERM.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::*;
use futures_util::StreamExt;
use serde_json::json;
use tabletop_server::{registry, router, Config, Server};
use tower::ServiceExt;

fn kuhn() -> String {
    specs()
        .into_iter()
        .find(|s| s.starts_with("kuhn"))
        .expect("the registry has Kuhn poker")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_probes_and_the_metrics_page_answer() {
    let (server, app) = app(false);
    let health = send(&app, "GET", "/healthz", None, None).await;
    assert_eq!(
        (health.status, health.json.clone()),
        (StatusCode::OK, json!({"status": "ok"}))
    );
    let ready = send(&app, "GET", "/readyz", None, None).await;
    assert_eq!(
        (ready.status, ready.json.clone()),
        (StatusCode::OK, json!({"status": "ready"}))
    );
    let (id, t) = create(&app, &kuhn(), ["human", "bot:random"], 4).await;
    play_out(&app, id, t[0].as_deref().unwrap(), 4, 1000).await;
    let res = app
        .clone()
        .oneshot(Request::get("/metrics").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/plain"));
    let page = send(&app, "GET", "/metrics", None, None).await;
    let text = String::from_utf8(page.bytes).unwrap();
    let value = |name: &str| -> f64 {
        text.lines()
            .find_map(|l| l.strip_prefix(name).and_then(|v| v.strip_prefix(' ')))
            .unwrap_or_else(|| panic!("{name} in\n{text}"))
            .parse()
            .unwrap()
    };
    assert_eq!(value("tabletop_matches_created_total"), 1.0);
    assert!(
        value("tabletop_moves_total") >= 2.0,
        "a person's and a bot's moves"
    );
    assert!(value("tabletop_bot_decision_seconds_count") >= 1.0);
    assert!(value("tabletop_request_seconds_count{route=\"act\"}") >= 1.0);
    assert!(value("tabletop_request_seconds_count{route=\"create\"}") == 1.0);
    assert_eq!(value("tabletop_store_errors_total"), 0.0);
    assert_eq!(value("tabletop_matches_in_memory"), 1.0);
    // Answers by route and status class: the creation, and a refusal.
    assert_eq!(
        value("tabletop_requests_total{route=\"create\",status=\"2xx\"}"),
        1.0
    );
    let refused = send(&app, "GET", "/api/matches/999999", None, None).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    let page = String::from_utf8(send(&app, "GET", "/metrics", None, None).await.bytes).unwrap();
    assert!(
        page.contains("tabletop_requests_total{route=\"view\",status=\"4xx\"} 1"),
        "{page}"
    );
    assert!(
        value("tabletop_db_seconds_count") >= 2.0,
        "the creation and the moves"
    );
    assert!(value("process_resident_memory_bytes") > 1e6);
    assert!(value("process_open_fds") >= 3.0);
    // Stopping: not ready any more, still healthy.
    server.begin_shutdown();
    let ready = send(&app, "GET", "/readyz", None, None).await;
    assert_eq!(ready.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(ready.json["kind"], "unavailable");
    assert_eq!(
        send(&app, "GET", "/healthz", None, None).await.status,
        StatusCode::OK
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_carries_a_request_id() {
    let (_, app) = app(false);
    for path in ["/api/games", "/no/such/page"] {
        let res = app
            .clone()
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        let id = res.headers()["x-request-id"].to_str().unwrap().to_owned();
        assert_eq!(id.len(), 36, "a UUID is made: {id}");
    }
    let res = app
        .clone()
        .oneshot(
            Request::get("/api/games")
                .header("x-request-id", "trace-me-7")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(
        res.headers()["x-request-id"],
        "trace-me-7",
        "a given id is kept"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_answers_the_move_in_flight_and_closes_the_websockets() {
    let config = Config {
        db: ":memory:".into(),
        ..Config::default()
    };
    let server = Server::open(registry(), config).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = router(server.clone());
    let (id, t) = create(&app, &kuhn(), ["human", "human"], 6).await;
    let s = server.clone();
    let serving = tokio::spawn(async move {
        tabletop_server::listen::serve(listener, app.clone(), s, Duration::from_secs(10)).await
    });
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/matches/{id}/ws"))
        .await
        .unwrap();
    ws.next().await.unwrap().unwrap();
    let view = send(
        &router(server.clone()),
        "GET",
        &format!("/api/matches/{id}"),
        None,
        None,
    )
    .await;
    let seat = view.json["to_move"].as_u64().unwrap() as usize;
    let token = t[seat].clone().unwrap();
    let own = send(
        &router(server.clone()),
        "GET",
        &format!("/api/matches/{id}"),
        Some(&token),
        None,
    )
    .await;
    let body = json!({"action": own.json["legal"][0]["id"]}).to_string();
    // The move's headers and half its body are sent, then the stop begins,
    // then the rest of the body: the move is answered and stored.
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    let head = format!(
        "POST /api/matches/{id}/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(&body.as_bytes()[..5]).unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    server.begin_shutdown();
    tokio::time::sleep(Duration::from_millis(200)).await;
    s.write_all(&body.as_bytes()[5..]).unwrap();
    let answer = tokio::task::spawn_blocking(move || {
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut reader = BufReader::new(s);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        let mut rest = Vec::new();
        let _ = reader.read_to_end(&mut rest);
        status
    })
    .await
    .unwrap();
    assert!(
        answer.starts_with("HTTP/1.1 200"),
        "the move in flight: {answer}"
    );
    // The socket was told the server goes away.
    let mut close = None;
    while let Ok(Some(m)) = tokio::time::timeout(Duration::from_secs(5), ws.next()).await {
        if let Ok(tokio_tungstenite::tungstenite::Message::Close(frame)) = m {
            close = frame.map(|f| u16::from(f.code));
            break;
        }
    }
    assert_eq!(close, Some(1001));
    assert!(
        serving.await.unwrap(),
        "everything finished within the grace time"
    );
    assert!(
        std::net::TcpStream::connect(addr).is_err(),
        "no longer listening"
    );
    let stored = send(
        &router(server.clone()),
        "GET",
        &format!("/api/matches/{id}"),
        None,
        None,
    )
    .await;
    assert!(
        stored.json["steps"].as_u64() > view.json["steps"].as_u64(),
        "the move is in"
    );
}

#[test]
fn the_binary_stops_on_sigterm() {
    let db = std::env::temp_dir().join(format!("tabletop-ops-{}.db", std::process::id()));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tabletop-server"))
        .args(["--port", "0", "--log", "warn", "--db"])
        .arg(&db)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.starts_with("listening on http://"), "{line}");
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "it stops in time"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status}");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}

/// The binary with `args`, run to its end: its status and standard output.
fn run_binary(args: &[&std::ffi::OsStr]) -> (std::process::ExitStatus, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tabletop-server"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status,
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// docs/server.md, "Backup and restore": `--backup` copies the database of
/// a running server; a server started on the copy has its matches, and the
/// seats' tokens still open them.
#[test]
fn a_backup_of_a_running_servers_database_restores_its_matches() {
    let dir = std::env::temp_dir().join(format!("tabletop-backup-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (db, copy) = (dir.join("live.db"), dir.join("copy.db"));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let http = reqwest::Client::new();
    let (mut live, base) = spawn_server(0, |c| c.arg("--db").arg(&db));
    let (id, token, before) = runtime.block_on(two_people_over_http(&http, &base, &kuhn()));
    let (status, said) = run_binary(&[
        "--db".as_ref(),
        db.as_os_str(),
        "--backup".as_ref(),
        copy.as_os_str(),
    ]);
    assert!(status.success(), "{said}");
    assert!(said.starts_with("backed up "), "{said}");
    let (again, _) = run_binary(&[
        "--db".as_ref(),
        db.as_os_str(),
        "--backup".as_ref(),
        copy.as_os_str(),
    ]);
    assert!(!again.success(), "a backup never overwrites");
    let missing = dir.join("no-such.db");
    let (none, _) = run_binary(&[
        "--db".as_ref(),
        missing.as_os_str(),
        "--backup".as_ref(),
        dir.join("x.db").as_os_str(),
    ]);
    assert!(
        !none.success() && !missing.exists(),
        "no database is made up"
    );
    live.kill().unwrap();
    live.wait().unwrap();
    let (mut restored, base) = spawn_server(0, |c| c.arg("--db").arg(&copy));
    runtime.block_on(async {
        let (_, view) = view_over_http(&http, &base, id, None).await;
        assert_eq!(view, before, "the public view of the match");
        let (status, seat) = view_over_http(&http, &base, id, Some(&token)).await;
        assert_eq!(status, 200, "the token opens its seat");
        assert_ne!(seat, before, "the seat's view shows its card: {seat}");
        let (wrong, _) = view_over_http(&http, &base, id, Some(&"0".repeat(32))).await;
        assert_eq!(wrong, 403);
    });
    restored.kill().unwrap();
    restored.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// docs/server.md, "Operations": with `--admin-port`, `/readyz` and
/// `/metrics` answer on the admin listener only; the public one keeps the
/// liveness probe.
#[test]
fn an_admin_port_takes_the_readiness_probe_and_the_metrics_off_the_public_one() {
    let db = std::env::temp_dir().join(format!("tabletop-admin-{}.db", std::process::id()));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tabletop-server"))
        .args(["--port", "0", "--admin-port", "0", "--log", "warn", "--db"])
        .arg(&db)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = |prefix: &str| {
        let mut text = String::new();
        out.read_line(&mut text).unwrap();
        text.trim()
            .strip_prefix(prefix)
            .unwrap_or_else(|| panic!("{text:?}"))
            .to_owned()
    };
    let public = line("listening on ");
    let admin = line("admin on ");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let http = reqwest::Client::new();
    runtime.block_on(async {
        let status = |url: String| {
            let http = http.clone();
            async move { http.get(url).send().await.unwrap().status().as_u16() }
        };
        assert_eq!(status(format!("{public}/metrics")).await, 404);
        assert_eq!(status(format!("{public}/readyz")).await, 404);
        assert_eq!(status(format!("{public}/healthz")).await, 200);
        assert_eq!(status(format!("{public}/api/games")).await, 200);
        assert_eq!(status(format!("{admin}/readyz")).await, 200);
        assert_eq!(status(format!("{admin}/api/games")).await, 404);
        let page = http.get(format!("{admin}/metrics")).send().await.unwrap();
        assert_eq!(page.status(), 200);
        let text = page.text().await.unwrap();
        assert!(
            text.contains("tabletop_requests_total{route=\"other\",status=\"2xx\"}"),
            "{text}"
        );
    });
    child.kill().unwrap();
    child.wait().unwrap();
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}

/// Without `--db` the database goes to the data folder, never to the
/// working directory (often a checkout).
#[test]
fn without_db_the_database_goes_to_the_data_folder() {
    let home = std::env::temp_dir().join(format!("tabletop-home-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    let (mut child, _) = spawn_server(0, |c| {
        c.env("HOME", &home)
            .env_remove("XDG_DATA_HOME")
            .current_dir(&home)
    });
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(home.join(".local/share/tabletop/tabletop.db").exists());
    assert!(!home.join("tabletop.db").exists());
    let (status, _) = run_binary(&["--backup".as_ref(), home.join("b.db").as_os_str()]);
    assert_eq!(
        status.code(),
        Some(2),
        "--backup names the database it copies"
    );
    let _ = std::fs::remove_dir_all(&home);
}
