//! Load and faults on loopback: the server binary is started on 127.0.0.1,
//! N matches (every registered game, human seats scripted by clients, some
//! against a bot) are played to the end in parallel; requests/s and the
//! 50th/99th percentile of a move's latency are printed. Then the same run
//! with the server killed (`kill -9`) and restarted twice in the middle:
//! every match finishes, with the same records as the run without faults.
//!
//! N is 40 by default; `TABLETOP_LOAD_MATCHES=200` for the documented run.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{pick, spawn_server, specs};
use serde_json::{json, Value};
use tabletop_server::store::Store;

fn start(db: &Path, port: u16) -> (Child, u16) {
    let (child, base) = spawn_server(port, |c| c.arg("--db").arg(db));
    let port = base
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {base:?}"));
    (child, port)
}

struct Stats {
    requests: AtomicU64,
    errors_retried: AtomicU64,
    moves: AtomicU64,
    latencies: std::sync::Mutex<Vec<Duration>>,
}

/// Retries a request through connection failures and 503s (the server
/// may be down for a restart), for at most 60 s.
async fn call(
    http: &reqwest::Client,
    stats: &Stats,
    req: impl Fn() -> reqwest::RequestBuilder,
) -> (u16, Value) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        stats.requests.fetch_add(1, Ordering::Relaxed);
        match req().send().await {
            Ok(res) if res.status().as_u16() != 503 => {
                let status = res.status().as_u16();
                // A body cut off by a kill is retried.
                if let Ok(v) = res.json::<Value>().await {
                    return (status, v);
                }
            }
            _ => {}
        }
        stats.errors_retried.fetch_add(1, Ordering::Relaxed);
        assert!(Instant::now() < deadline, "the server stayed unreachable");
        tokio::time::sleep(Duration::from_millis(20)).await;
        let _ = http;
    }
}

/// Plays match `id` to the end: each human seat's move picked from
/// `seed` and the number of actions so far, so any replay of the run
/// plays the same moves. After a failed POST the view is read again
/// before deciding, so an action is never sent twice.
async fn client(
    http: reqwest::Client,
    base: String,
    id: i64,
    tokens: Vec<(usize, String)>,
    seed: u64,
    stats: Arc<Stats>,
) {
    let uri = format!("{base}/api/matches/{id}");
    for _ in 0..100_000 {
        let (status, public) = call(&http, &stats, || http.get(&uri)).await;
        assert_eq!(status, 200, "{public}");
        if !public["outcome"].is_null() {
            return;
        }
        let Some(mover) = public["to_move"].as_u64() else {
            tokio::time::sleep(Duration::from_millis(2)).await;
            continue;
        };
        let Some((_, token)) = tokens.iter().find(|(s, _)| *s as u64 == mover) else {
            tokio::time::sleep(Duration::from_millis(2)).await;
            continue;
        };
        let (_, view) = call(&http, &stats, || http.get(&uri).bearer_auth(token)).await;
        let legal = view["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() {
            continue;
        }
        let a = &legal[pick(seed, view["steps"].as_u64().unwrap(), legal.len())];
        let t0 = Instant::now();
        stats.requests.fetch_add(1, Ordering::Relaxed);
        let res = http
            .post(format!("{uri}/actions"))
            .bearer_auth(token)
            .json(&json!({"action": a["id"]}))
            .send()
            .await;
        match res {
            Ok(r) if r.status() == 200 => {
                let _ = r.bytes().await;
                stats.latencies.lock().unwrap().push(t0.elapsed());
                stats.moves.fetch_add(1, Ordering::Relaxed);
            }
            Ok(r) if r.status().is_client_error() => {
                panic!(
                    "match {id}: move refused: {} {}",
                    r.status(),
                    r.text().await.unwrap_or_default()
                )
            }
            _ => {
                stats.errors_retried.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
    panic!("match {id} did not end");
}

struct Run {
    records: BTreeMap<u64, (String, Vec<usize>)>,
    requests: u64,
    moves: u64,
    secs: f64,
    p50: Duration,
    p99: Duration,
    retried: u64,
}

async fn run(n: usize, restarts: usize, dir: &Path) -> Run {
    let db: PathBuf = dir.join(format!("load-{restarts}.db"));
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
    }
    let (mut child, port) = start(&db, 0);
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(256)
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap();
    let stats = Arc::new(Stats {
        requests: AtomicU64::new(0),
        errors_retried: AtomicU64::new(0),
        moves: AtomicU64::new(0),
        latencies: std::sync::Mutex::new(Vec::new()),
    });
    let specs = specs();
    // Every match is created before any fault, so none is created twice.
    let mut clients = Vec::new();
    let began = Instant::now();
    for i in 0..n {
        let spec = &specs[i % specs.len()];
        let seats = match i % 4 {
            0 => json!(["human", "bot:random"]),
            1 => json!(["bot:random", "human"]),
            _ => json!(["human", "human"]),
        };
        let seed = 10_000 + i as u64;
        let (status, created) = call(&http, &stats, || {
            http.post(format!("{base}/api/matches"))
                .json(&json!({"game": spec, "seats": seats, "seed": seed}))
        })
        .await;
        assert_eq!(status, 201, "{created}");
        let id = created["id"].as_i64().unwrap();
        let tokens = created["tokens"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                (
                    t["seat"].as_u64().unwrap() as usize,
                    t["token"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        clients.push(tokio::spawn(client(
            http.clone(),
            base.clone(),
            id,
            tokens,
            seed,
            stats.clone(),
        )));
    }
    // The faults: kill -9 once a third and once two thirds of the moves
    // of the clean run are made (estimated as 2 per match per third).
    for k in 0..restarts {
        let target = (k as u64 + 1) * n as u64 * 2 / (restarts as u64 + 1);
        let wait = Instant::now();
        while stats.moves.load(Ordering::Relaxed) < target.max(1)
            && !clients.iter().all(|c| c.is_finished())
            && wait.elapsed() < Duration::from_secs(60)
        {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        let (c, _) = start(&db, port);
        child = c;
    }
    for c in clients {
        c.await.expect("every client ends without error");
    }
    let secs = began.elapsed().as_secs_f64();
    child.kill().unwrap();
    child.wait().unwrap();
    let store = Store::open(&db, false).unwrap();
    // Ids are given in order from 1, so the records are 1, 2, ... .
    let records = (1..)
        .map_while(|id| store.get(id).unwrap())
        .map(|m| (m.seed, (m.spec, m.actions)))
        .collect();
    let mut lat = stats.latencies.lock().unwrap().clone();
    lat.sort();
    let q = |f: f64| {
        lat.get(((lat.len() as f64 * f) as usize).min(lat.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    Run {
        records,
        requests: stats.requests.load(Ordering::Relaxed),
        moves: stats.moves.load(Ordering::Relaxed),
        secs,
        p50: q(0.50),
        p99: q(0.99),
        retried: stats.errors_retried.load(Ordering::Relaxed),
    }
}

fn report(label: &str, n: usize, r: &Run) {
    println!(
        "{label}: {n} matches, {} requests, {} moves in {:.2} s: {:.0} requests/s, move latency p50 {:.2} ms, p99 {:.2} ms, {} retried",
        r.requests,
        r.moves,
        r.secs,
        r.requests as f64 / r.secs,
        r.p50.as_secs_f64() * 1e3,
        r.p99.as_secs_f64() * 1e3,
        r.retried
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn matches_in_parallel_finish_and_two_kill_9_restarts_change_no_record() {
    let n: usize = std::env::var("TABLETOP_LOAD_MATCHES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40)
        .clamp(1, 1000);
    let dir = std::env::temp_dir().join(format!("tabletop-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let clean = run(n, 0, &dir).await;
    report("no faults", n, &clean);
    let faulty = run(n, 2, &dir).await;
    report("kill -9 and restart twice", n, &faulty);
    assert_eq!(clean.records.len(), n);
    let registry = tabletop_server::registry();
    for (seed, (spec, actions)) in &clean.records {
        // Every match ended.
        let game = registry.load(spec).unwrap();
        let mut s = game.new_state();
        for &a in actions {
            s.apply_id(a).unwrap();
        }
        assert!(s.is_terminal(), "match of seed {seed} ended");
    }
    assert_eq!(
        clean.records, faulty.records,
        "the faults changed no record"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
