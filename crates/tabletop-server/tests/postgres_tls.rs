//! PostgreSQL over TLS (issue 35 item 3, `sslmode` for PostgreSQL): a
//! URL with `sslmode=require` connects only over TLS, to a server whose
//! certificate an authority of `--database-ca` (or of the system) signs
//! for the URL's host; anything else is refused before a byte of the
//! records moves. PostgreSQL is started from Debian's package with a
//! certificate for 127.0.0.1 made by OpenSSL's command line
//! (`tests/pg_cluster`); the test fails when either is missing.

mod common;
mod pg_cluster;

use pg_cluster::Postgres;
use tabletop_server::store::{BackendError, Store, StoreError, TlsSetupError};

fn require(url: &str) -> String {
    format!("{url}?sslmode=require")
}

/// How many of the server's client connections from `tabletop` are over
/// TLS, and how many are not (this one, in the clear, among them).
/// An error and its causes, as the server's start line prints them.
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text
}

fn connections(pg: &Postgres) -> (i64, i64) {
    let mut plain = postgres::Client::connect(&pg.url(), postgres::NoTls).unwrap();
    let row = plain
        .query_one(
            "SELECT count(*) FILTER (WHERE s.ssl), count(*) FILTER (WHERE NOT s.ssl)
             FROM pg_stat_ssl s JOIN pg_stat_activity a ON a.pid = s.pid
             WHERE a.usename = 'tabletop'",
            &[],
        )
        .unwrap();
    (row.get(0), row.get(1))
}

#[test]
fn sslmode_require_connects_over_tls_to_a_certificate_the_given_authority_signs() {
    let (pg, ca) = Postgres::start_tls();
    let store = Store::connect(&require(&pg.url()), Some(&ca)).unwrap();
    let id = store
        .create(
            "kuhn_poker",
            1,
            &["human".to_owned(), "human".to_owned()],
            &[None, None],
            &[0, 1],
            tabletop_server::store::Progress::PersonDue,
            None,
        )
        .unwrap();
    assert_eq!(store.get(id).unwrap().unwrap().actions, vec![0, 1]);
    let (tls, clear) = connections(&pg);
    assert!(tls >= 2, "the store's connections are over TLS ({tls})");
    assert_eq!(clear, 1, "only the test's own connection is in the clear");
}

#[test]
fn sslmode_require_refuses_a_certificate_no_given_authority_signs() {
    let (pg, _) = Postgres::start_tls();
    let other = pg.other_authority();
    let refused = Store::connect(&require(&pg.url()), Some(&other)).err();
    let text = refused.map(|e| chain(&e)).unwrap_or_default();
    assert!(
        text.contains("invalid peer certificate: UnknownIssuer"),
        "{text}"
    );
    assert_eq!(connections(&pg), (0, 1), "no connection was left open");
}

#[test]
fn sslmode_require_refuses_a_server_without_tls() {
    let pg = Postgres::start();
    let (_tls, ca) = Postgres::start_tls();
    let refused = Store::connect(&require(&pg.url()), Some(&ca)).err();
    let text = refused.map(|e| chain(&e)).unwrap_or_default();
    assert!(text.contains("opening the database"), "{text}");
    assert!(
        text.to_lowercase().contains("tls") || text.contains("SSL"),
        "{text}"
    );
}

#[test]
fn a_ca_file_for_a_connection_in_the_clear_is_refused_with_what_to_add() {
    let (pg, ca) = Postgres::start_tls();
    match Store::connect(&pg.url(), Some(&ca)) {
        Err(StoreError::Open(BackendError::Tls(TlsSetupError::CaWithoutTls))) => {}
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("a CA file without sslmode=require was taken"),
    }
    let not_pem = ca.with_extension("txt");
    std::fs::write(&not_pem, "not a certificate").unwrap();
    match Store::connect(&require(&pg.url()), Some(&not_pem)) {
        Err(StoreError::Open(BackendError::Tls(TlsSetupError::CaFile { path, .. }))) => {
            assert_eq!(path, not_pem)
        }
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("a file with no certificate was taken"),
    }
}

#[test]
fn the_server_binary_takes_database_ca_and_serves_over_tls() {
    use std::io::{Read, Write};
    let (pg, ca) = Postgres::start_tls();
    let url = require(&pg.url());
    let (mut child, base) = common::spawn_server(0, |c| {
        c.env("TABLETOP_DATABASE", &url)
            .arg("--database-ca")
            .arg(&ca)
    });
    let address = base.trim_start_matches("http://").to_owned();
    let mut stream = std::net::TcpStream::connect(&address).unwrap();
    write!(
        stream,
        "GET /readyz HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (tls, clear) = connections(&pg);
    child.kill().ok();
    child.wait().ok();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(tls >= 2, "the server's connections are over TLS ({tls})");
    assert_eq!(clear, 1, "nothing of the server in the clear");
}
