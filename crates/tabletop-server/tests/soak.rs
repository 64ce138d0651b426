//! Soak (issue 23 item 1): creates and finishes many matches through the
//! router on a database file, and shows the resident memory flat. Matches
//! are Kuhn poker (a few moves each: many matches in little time), two
//! people in nine of ten, a person against `bot:random` in the tenth.
//! SOAK_MATCHES sets how many (default 2,000; the documented run is
//! 100,000 in release mode, see `docs/server.md`).

mod common;

use std::time::Instant;

use axum::http::StatusCode;
use common::*;
use serde_json::json;

/// Resident memory of this process in bytes (`/proc/self/statm`, in
/// pages of 4 KiB on the machines this runs on).
fn resident() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("Linux /proc");
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .expect("statm's second field");
    pages * 4096
}

fn mib(b: u64) -> f64 {
    b as f64 / (1024.0 * 1024.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resident_memory_stays_flat_over_many_finished_matches() {
    let n: usize = std::env::var("SOAK_MATCHES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000);
    let db = std::env::temp_dir().join(format!("tabletop-soak-{}.db", std::process::id()));
    let path = db.display().to_string();
    let (server, app) = app_at(&path, false);
    let kuhn = specs()
        .into_iter()
        .find(|s| s.starts_with("kuhn"))
        .expect("the registry has Kuhn poker");
    let warmup = (n / 10).max(50);
    let mut baseline = 0;
    let mut samples = Vec::new();
    let started = Instant::now();
    for i in 0..warmup + n {
        let seed = i as u64;
        let with_bot = i % 10 == 9;
        let seats = if with_bot {
            ["human", "bot:random"]
        } else {
            ["human", "human"]
        };
        let (id, t) = create(&app, &kuhn, seats, seed).await;
        if with_bot {
            play_out(&app, id, t[0].as_deref().unwrap(), seed, 1000).await;
        } else {
            loop {
                let v = send(&app, "GET", &format!("/api/matches/{id}"), None, None)
                    .await
                    .json;
                if !v["outcome"].is_null() {
                    break;
                }
                let seat = v["to_move"].as_u64().unwrap() as usize;
                let token = t[seat].as_deref().unwrap();
                let own = send(
                    &app,
                    "GET",
                    &format!("/api/matches/{id}"),
                    Some(token),
                    None,
                )
                .await;
                let legal = own.json["legal"].as_array().unwrap();
                let a = &legal[pick(seed, own.json["steps"].as_u64().unwrap(), legal.len())];
                let body = json!({"action": a["id"]}).to_string().into_bytes();
                let r = send(
                    &app,
                    "POST",
                    &format!("/api/matches/{id}/actions"),
                    Some(token),
                    Some(body),
                )
                .await;
                assert_eq!(r.status, StatusCode::OK, "{}", r.json);
            }
        }
        let done = i + 1;
        if done.is_multiple_of(50) {
            // The sweep the server runs every second, run here at a fixed
            // pace so that the figures do not depend on the machine's speed.
            server.sweep().await;
        }
        if done == warmup {
            server.sweep().await;
            baseline = resident();
        } else if done > warmup && (done - warmup).is_multiple_of((n / 10).max(1)) {
            server.sweep().await;
            samples.push((done - warmup, resident()));
        }
    }
    let secs = started.elapsed().as_secs_f64();
    server.sweep().await;
    let in_memory = server.in_memory();
    let last = samples.last().map_or(baseline, |s| s.1);
    let peak = samples.iter().map(|s| s.1).max().unwrap_or(baseline);
    println!(
        "soak: {n} matches after {warmup} of warm-up in {secs:.1} s; resident {:.1} MiB after the warm-up, {:.1} MiB at the end, peak {:.1} MiB; {in_memory} matches in memory",
        mib(baseline),
        mib(last),
        mib(peak)
    );
    for (done, rss) in &samples {
        println!("  after {done:>7} matches: {:.1} MiB", mib(*rss));
    }
    drop(app);
    drop(server);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{path}{suffix}"));
    }
    assert!(
        in_memory <= 1,
        "finished matches left memory: {in_memory} stay"
    );
    // Flat: the growth after the warm-up is bounded by a constant (the
    // allocator's and SQLite's caches settling), not by the matches; the
    // old server kept about 8 KiB per Kuhn match, 16 MiB per 2,000.
    let growth = peak.saturating_sub(baseline);
    assert!(
        growth < 12 * 1024 * 1024,
        "resident memory grew by {:.1} MiB over {n} matches",
        mib(growth)
    );
}
