//! A crawler over old matches (issue 35 item 1): the server binary on
//! 127.0.0.1 plays N card war matches bot against bot to their end (500
//! steps each on average), and once they have left memory a crawler reads
//! every one of them at full speed (the spectator's view and the players,
//! as the page does, from several connections) while a person reads the
//! view of a match they are playing. Every finished match must be served
//! from its stored views (no replay, nothing brought into memory), the
//! server's resident memory must stay under 150 MiB throughout, and the
//! person's reads keep a p99 under 50 ms. The figures are printed.
//!
//! CRAWL_MATCHES sets N (default 300; the documented run is 10,000
//! against a release build, see `docs/server.md`, "Old matches").

mod common;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{create_over_http, metric, spawn_server, specs};
use serde_json::json;

/// The resident memory ceiling of the target, in KiB.
const RSS_LIMIT_KIB: u64 = 150 * 1024;
/// Old matches played at once while they are made.
const BATCH: i64 = 32;
/// Concurrent connections of the crawler.
const CRAWLERS: usize = 6;

/// The server process, killed when the test ends, passed or not.
struct Stop(std::process::Child);

impl Drop for Stop {
    fn drop(&mut self) {
        self.0.kill().ok();
        self.0.wait().ok();
    }
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

async fn metrics(http: &reqwest::Client, base: &str) -> String {
    http.get(format!("{base}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crawler_reads_old_matches_from_the_store_in_bounded_memory() {
    let n: i64 = std::env::var("CRAWL_MATCHES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let dir = std::env::temp_dir().join(format!("tabletop-crawl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("crawl.db");
    let (child, base) = spawn_server(0, |c| c.arg("--db").arg(&db));
    let pid = child.id();
    let _server = Stop(child);
    let http = reqwest::Client::new();
    let cardwar = specs()
        .into_iter()
        .find(|s| s.starts_with("cardwar"))
        .expect("the registry has the card war");

    // The old matches: bots play them to the end, then they leave memory,
    // a few dozen at a time (as a site's matches end over the days).
    let started = Instant::now();
    let mut created = 0;
    while created < n {
        for _ in 0..BATCH.min(n - created) {
            let r = http
                .post(format!("{base}/api/matches"))
                .json(&json!({"game": cardwar, "seats": ["bot:random", "bot:random"]}))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
            created += 1;
        }
        loop {
            let m = metrics(&http, &base).await;
            if metric(&m, "tabletop_matches_evicted_total") >= created as u64 {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(3600),
                "the bots did not finish"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    println!(
        "{n} matches played and left memory in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    // A person plays: their match stays in memory, they read its view.
    let mine = create_over_http(&http, &base, &cardwar, ["human", "bot:random"]).await;
    let (live, token) = (
        mine["id"].as_i64().unwrap(),
        mine["tokens"][0]["token"].as_str().unwrap().to_owned(),
    );
    let before = metrics(&http, &base).await;
    let rss_before = rss_kib(pid);

    let done = Arc::new(AtomicBool::new(false));
    let peak = Arc::new(AtomicU64::new(rss_before));
    let sampler = {
        let (done, peak) = (done.clone(), peak.clone());
        tokio::spawn(async move {
            while !done.load(Ordering::Relaxed) {
                peak.fetch_max(rss_kib(pid), Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
    };
    let person = {
        let (done, http, base, token) = (done.clone(), http.clone(), base.clone(), token.clone());
        tokio::spawn(async move {
            let mut latencies = Vec::new();
            while !done.load(Ordering::Relaxed) {
                let t = Instant::now();
                let r = http
                    .get(format!("{base}/api/matches/{live}"))
                    .bearer_auth(&token)
                    .send()
                    .await
                    .unwrap();
                assert_eq!(r.status(), 200);
                r.bytes().await.unwrap();
                latencies.push(t.elapsed());
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            latencies
        })
    };
    let next = Arc::new(Mutex::new(1i64));
    let crawl_started = Instant::now();
    let crawlers: Vec<_> = (0..CRAWLERS)
        .map(|_| {
            let (next, http, base) = (next.clone(), http.clone(), base.clone());
            tokio::spawn(async move {
                let mut bytes = 0u64;
                loop {
                    let id = {
                        let mut next = next.lock().unwrap();
                        *next += 1;
                        *next - 1
                    };
                    if id > n {
                        return bytes;
                    }
                    for path in ["", "/players"] {
                        let r = http
                            .get(format!("{base}/api/matches/{id}{path}"))
                            .send()
                            .await
                            .unwrap();
                        assert_eq!(r.status(), 200, "match {id}{path}");
                        bytes += r.bytes().await.unwrap().len() as u64;
                    }
                }
            })
        })
        .collect();
    let mut bytes = 0;
    for c in crawlers {
        bytes += c.await.unwrap();
    }
    let crawl = crawl_started.elapsed();
    done.store(true, Ordering::Relaxed);
    sampler.await.unwrap();
    let mut latencies = person.await.unwrap();
    latencies.sort();
    let after = metrics(&http, &base).await;
    let peak = peak.load(Ordering::Relaxed);
    let (p50, p99) = (percentile(&latencies, 0.50), percentile(&latencies, 0.99));
    println!(
        "crawled {n} matches ({:.1} MB of views) in {:.1} s: {:.0} matches/s from {CRAWLERS} connections",
        bytes as f64 / 1e6,
        crawl.as_secs_f64(),
        n as f64 / crawl.as_secs_f64()
    );
    println!(
        "the person's reads meanwhile: {} reads, p50 {:.1} ms, p99 {:.1} ms",
        latencies.len(),
        p50.as_secs_f64() * 1e3,
        p99.as_secs_f64() * 1e3
    );
    println!(
        "server resident memory: {:.0} MiB before, {:.0} MiB at most, {:.0} MiB after",
        rss_before as f64 / 1024.0,
        peak as f64 / 1024.0,
        rss_kib(pid) as f64 / 1024.0
    );
    let grew = |name| metric(&after, name) - metric(&before, name);
    assert_eq!(
        grew("tabletop_views_archived_total"),
        n as u64,
        "every view served as stored"
    );
    assert_eq!(
        grew("tabletop_matches_rebuilt_total"),
        0,
        "no finished match replayed"
    );
    assert_eq!(
        grew("tabletop_matches_loaded_total"),
        0,
        "nothing brought into memory"
    );
    assert!(peak < RSS_LIMIT_KIB, "resident memory reached {peak} KiB");
    assert!(
        p99 < Duration::from_millis(50),
        "the person's p99 was {p99:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
