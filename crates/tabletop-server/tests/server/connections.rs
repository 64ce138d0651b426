//! Connections that behave (issue 35 item 5), seen by a raw TCP client:
//! an answer after which the server closes says `Connection: close`; a
//! body over the limit is refused from its `Content-Length` before it is
//! sent, and a client that sends it anyway reads the 413 and then the end
//! of the stream, never a reset; a small body refused before it is read
//! keeps the connection open.

use crate::common;

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use common::*;
use serde_json::Value;
use tabletop_server::Config;

fn config() -> Config {
    Config {
        db: ":memory:".into(),
        ..Config::default()
    }
    .unlimited()
}

/// An answer read from a raw connection.
struct Answer {
    status: u16,
    /// Header names in lower case, with their values.
    headers: Vec<(String, String)>,
    json: Value,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn closes(&self) -> bool {
        self.header("connection")
            .is_some_and(|v| v.eq_ignore_ascii_case("close"))
    }
}

fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s
}

/// Reads one answer (headers and a `Content-Length` body) from `s`.
fn read_answer(s: &mut TcpStream) -> std::io::Result<Answer> {
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    let end = loop {
        if let Some(i) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        let n = s.read(&mut buf)?;
        if n == 0 {
            return Err(ErrorKind::UnexpectedEof.into());
        }
        data.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&data[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("a status line in {head:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = data[end + 4..].to_vec();
    while body.len() < length {
        let n = s.read(&mut buf)?;
        if n == 0 {
            return Err(ErrorKind::UnexpectedEof.into());
        }
        body.extend_from_slice(&buf[..n]);
    }
    Ok(Answer {
        status,
        headers,
        json: serde_json::from_slice(&body[..length]).unwrap_or(Value::Null),
    })
}

/// Whether `s` ends with an orderly end of stream (not a reset, not more
/// bytes) within its read timeout.
fn ends_cleanly(s: &mut TcpStream) -> bool {
    let mut buf = [0u8; 64];
    matches!(s.read(&mut buf), Ok(0))
}

/// A POST's head to `path` with `Content-Length: length` and `extra`
/// header lines.
fn post_head(path: &str, length: usize, extra: &str) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Content-Length: {length}\r\n{extra}\r\n"
    )
}

/// A body of `n` bytes, far over the default limit.
fn big(n: usize) -> Vec<u8> {
    let mut body = b"{\"game\": \"".to_vec();
    body.resize(n - 2, b'x');
    body.extend_from_slice(b"\"}");
    body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_declared_over_the_limit_is_refused_before_it_is_sent() {
    let (_server, addr) = listen(config()).await;
    let answer = tokio::task::spawn_blocking(move || {
        let mut s = connect(addr);
        s.write_all(post_head("/api/matches", 1_000_000, "").as_bytes())
            .unwrap();
        // Not one byte of the body is sent.
        read_answer(&mut s).unwrap()
    })
    .await
    .unwrap();
    assert_eq!(answer.status, 413);
    assert_eq!(answer.json["kind"], "too_large");
    assert!(answer.closes(), "{:?}", answer.headers);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_sending_a_refused_body_reads_the_413_then_the_end_not_a_reset() {
    let (_server, addr) = listen(config()).await;
    let (answer, clean) = tokio::task::spawn_blocking(move || {
        let mut s = connect(addr);
        let body = big(1_000_000);
        s.write_all(post_head("/api/matches", body.len(), "").as_bytes())
            .unwrap();
        // As a simple client does: the whole body, then the answer. A
        // reset would fail the write or the read.
        s.write_all(&body).expect("the body is taken, not reset");
        let answer = read_answer(&mut s).expect("the answer is read, not reset");
        (answer, ends_cleanly(&mut s))
    })
    .await
    .unwrap();
    assert_eq!(answer.status, 413);
    assert_eq!(answer.json["kind"], "too_large");
    assert!(answer.closes(), "{:?}", answer.headers);
    assert!(clean, "the connection ends with an end of stream");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_expecting_continue_over_the_limit_gets_its_413_and_no_100() {
    let (_server, addr) = listen(config()).await;
    let (answer, clean) = tokio::task::spawn_blocking(move || {
        let mut s = connect(addr);
        let head = post_head("/api/matches", 1_000_000, "Expect: 100-continue\r\n");
        s.write_all(head.as_bytes()).unwrap();
        let answer = read_answer(&mut s).unwrap();
        (answer, ends_cleanly(&mut s))
    })
    .await
    .unwrap();
    assert_eq!(answer.status, 413, "the final answer, not 100 Continue");
    assert!(answer.closes(), "{:?}", answer.headers);
    assert!(clean, "closed without the body ever being asked for");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chunked_body_over_the_limit_is_a_413_that_says_close() {
    let (_server, addr) = listen(config()).await;
    let (answer, clean) = tokio::task::spawn_blocking(move || {
        let mut s = connect(addr);
        s.write_all(
            b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
              Transfer-Encoding: chunked\r\n\r\n",
        )
        .unwrap();
        let chunk = [b'x'; 10_000];
        for _ in 0..50 {
            s.write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
                .unwrap();
            s.write_all(&chunk).unwrap();
            s.write_all(b"\r\n").expect("the body is taken, not reset");
        }
        s.write_all(b"0\r\n\r\n").unwrap();
        let answer = read_answer(&mut s).expect("the answer is read, not reset");
        (answer, ends_cleanly(&mut s))
    })
    .await
    .unwrap();
    assert_eq!(answer.status, 413);
    assert_eq!(answer.json["kind"], "too_large");
    assert!(answer.closes(), "{:?}", answer.headers);
    assert!(clean, "the connection ends with an end of stream");
}

/// Sends a POST to `path` whose body comes in a second write, after the
/// server has had time to refuse it unread, then reads the answer.
fn refused_then_body(s: &mut TcpStream, path: &str, body: &[u8]) -> Answer {
    s.write_all(post_head(path, body.len(), "").as_bytes())
        .unwrap();
    std::thread::sleep(Duration::from_millis(50));
    s.write_all(body).unwrap();
    read_answer(s).expect("an answer on the kept connection")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_body_refused_before_it_is_read_keeps_the_connection() {
    let (_server, addr) = listen(config()).await;
    let answers = tokio::task::spawn_blocking(move || {
        let mut s = connect(addr);
        let mut answers = Vec::new();
        for _ in 0..5 {
            // No token: a 401 before the body is read.
            answers.push(refused_then_body(
                &mut s,
                "/api/matches/1/actions",
                b"{\"action\": 0}",
            ));
            s.write_all(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                .unwrap();
            answers.push(read_answer(&mut s).expect("the next request is answered"));
        }
        answers
    })
    .await
    .unwrap();
    for pair in answers.chunks(2) {
        assert_eq!([pair[0].status, pair[1].status], [404, 200]);
        assert!(!pair[0].closes() && !pair[1].closes());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_keeps_the_connection() {
    let mut c = config();
    c.http.client_rate = 1;
    c.http.client_burst = 1;
    let (_server, addr) = listen(c).await;
    let answers = tokio::task::spawn_blocking(move || {
        let mut s = connect(addr);
        let body = b"{\"name\": \"ann\"}";
        (0..3)
            .map(|_| refused_then_body(&mut s, "/api/players", body))
            .collect::<Vec<_>>()
    })
    .await
    .unwrap();
    assert_eq!(answers[0].status, 201);
    for a in &answers[1..] {
        assert_eq!(a.status, 429);
        assert_eq!(a.json["kind"], "too_many");
        assert!(!a.closes(), "{:?}", a.headers);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_while_the_server_stops_says_close() {
    let (server, addr) = listen(config()).await;
    let body = b"{\"name\": \"ann\"}";
    let mut s = tokio::task::spawn_blocking(move || {
        let mut s = connect(addr);
        s.write_all(post_head("/api/players", body.len(), "").as_bytes())
            .unwrap();
        s.write_all(&body[..4]).unwrap();
        s
    })
    .await
    .unwrap();
    // The request is in flight when the server starts stopping (hyper
    // says close: the stop turned keep-alive off before the answer).
    tokio::time::sleep(Duration::from_millis(100)).await;
    server.begin_shutdown();
    let (answer, clean) = tokio::task::spawn_blocking(move || {
        s.write_all(&body[4..]).unwrap();
        let answer = read_answer(&mut s).unwrap();
        (answer, ends_cleanly(&mut s))
    })
    .await
    .unwrap();
    assert_eq!(answer.status, 201);
    assert!(answer.closes(), "{:?}", answer.headers);
    assert!(clean);
}
