//! The server's request handling on arbitrary requests, through the whole
//! router (layers included) on an in-memory database holding one match of
//! two people. The first byte picks the method; the rest is read as the
//! path, header lines, a blank line and the body, where `{id}`, `{t0}` and
//! `{t1}` stand for that match's id and its seats' tokens (so that moves
//! are reached). Whatever the request: no 5xx but a 503, and every refusal
//! carries the documented JSON error with its status (but an answer to HEAD,
//! which has no body).
#![no_main]

use std::sync::OnceLock;

use axum::body::Body;
use axum::http::Request;
use axum::Router;
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use tabletop_server::clock::{Asked, Word};
use tabletop_server::{registry, router, Config, Server};
use tower::ServiceExt;

struct Harness {
    runtime: tokio::runtime::Runtime,
    app: Router,
    id: String,
    tokens: [String; 2],
}

const METHODS: [&str; 7] = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];

fn harness() -> &'static Harness {
    static HARNESS: OnceLock<Harness> = OnceLock::new();
    HARNESS.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let config = Config {
            db: ":memory:".into(),
            ..Config::default()
        }
        .unlimited();
        let server = Server::open(registry(), config).expect("the server opens");
        let app = router(server.clone());
        let kuhn = registry()
            .list()
            .into_iter()
            .find(|g| g.name.starts_with("kuhn"))
            .expect("Kuhn poker is registered")
            .name;
        let seats = ["human".to_owned(), "human".to_owned()];
        let created = runtime
            .block_on(server.create(
                tabletop_server::client::ClientKey::UNKNOWN,
                &kuhn,
                &seats,
                Some(1),
                Asked::Word(Word::None),
                true,
            ))
            .expect("a match");
        let tokens = [0, 1].map(|i| created.tokens[i].token.clone());
        Harness {
            runtime,
            app,
            id: created.id.to_string(),
            tokens,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&m, rest)) = data.split_first() else {
        return;
    };
    let h = harness();
    let text = String::from_utf8_lossy(rest)
        .replace("{id}", &h.id)
        .replace("{t0}", &h.tokens[0])
        .replace("{t1}", &h.tokens[1]);
    let (head, body) = text.split_once("\n\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let path = lines.next().unwrap_or("/");
    let method = METHODS[m as usize % METHODS.len()];
    let mut req = Request::builder().method(method).uri(path);
    for line in lines {
        if let Some((name, value)) = line.split_once(':') {
            req = req.header(name.trim(), value.trim());
        }
    }
    // A request the HTTP types refuse never reaches a server.
    let Ok(req) = req.body(Body::from(body.to_owned())) else {
        return;
    };
    let (status, bytes) = h.runtime.block_on(async {
        let res = h
            .app
            .clone()
            .oneshot(req)
            .await
            .expect("the router answers");
        let status = res.status();
        let bytes = res.into_body().collect().await.map(|b| b.to_bytes());
        (status, bytes)
    });
    assert!(
        !status.is_server_error() || status.as_u16() == 503,
        "a 5xx: {status}"
    );
    // An answer to HEAD has no body, by HTTP's rules.
    if status.is_client_error() && method != "HEAD" {
        let bytes = bytes.expect("an error body");
        let error: serde_json::Value =
            serde_json::from_slice(&bytes).expect("the error body is JSON");
        assert_eq!(error["status"], status.as_u16(), "{error}");
        assert!(error["error"].is_string(), "{error}");
        assert!(error["kind"].is_string(), "{error}");
    }
});
