//! The server's counters in Prometheus' text format (`GET /metrics`):
//! matches, moves, requests by route and status class with their latency,
//! bot decision time, database call time and errors, what is in memory,
//! and the process's resident memory and open files. Written by hand: a
//! few atomics and fixed histogram buckets are all it needs, no registry
//! crate.

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
];

/// A histogram of durations over fixed buckets from 1 ms to 10 s.
#[derive(Default)]
pub struct Histogram {
    counts: [AtomicU64; BUCKETS.len()],
    count: AtomicU64,
    sum_micros: AtomicU64,
}

impl Histogram {
    /// Counts one duration.
    pub fn observe(&self, d: Duration) {
        let secs = d.as_secs_f64();
        for (bound, count) in BUCKETS.iter().zip(&self.counts) {
            if secs <= *bound {
                count.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        let micros = u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        self.sum_micros.fetch_add(micros, Ordering::Relaxed);
    }

    fn write(&self, out: &mut String, name: &str, labels: &str) {
        let sep = if labels.is_empty() { "" } else { "," };
        for (bound, count) in BUCKETS.iter().zip(&self.counts) {
            let n = count.load(Ordering::Relaxed);
            let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"{bound}\"}} {n}");
        }
        let n = self.count.load(Ordering::Relaxed);
        let sum = self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"+Inf\"}} {n}");
        let braces = |l: &str| {
            if l.is_empty() {
                String::new()
            } else {
                format!("{{{l}}}")
            }
        };
        let _ = writeln!(out, "{name}_sum{} {sum}", braces(labels));
        let _ = writeln!(out, "{name}_count{} {n}", braces(labels));
    }
}

/// The routes whose latency is counted apart (every other path is
/// `other`, so that a client cannot grow the label set).
pub const ROUTES: [&str; 5] = ["create", "view", "act", "ws", "other"];

/// The status classes answers are counted by.
pub const STATUSES: [&str; 5] = ["1xx", "2xx", "3xx", "4xx", "5xx"];

/// Every counter of the server.
#[derive(Default)]
pub struct Metrics {
    /// Matches created.
    pub matches_created: AtomicU64,
    /// Matches rebuilt from the store after leaving memory.
    pub matches_loaded: AtomicU64,
    /// Matches that left memory.
    pub matches_evicted: AtomicU64,
    /// Views of finished matches served as stored (no replay).
    pub views_archived: AtomicU64,
    /// Matches rebuilt outside memory for a read (a replay's steps, a
    /// notation, the first read of a finished match whose views were not
    /// stored, the view of a running match no one plays now).
    pub matches_rebuilt: AtomicU64,
    /// Finished unrated matches deleted by the retention.
    pub matches_expired: AtomicU64,
    /// Actions decided by a seat (a person's or a bot's).
    pub moves: AtomicU64,
    /// Store calls that failed.
    pub store_errors: AtomicU64,
    /// Requests refused by a limit (429).
    pub limited: AtomicU64,
    /// Connections closed at accept, over a connection cap.
    pub connections_refused: AtomicU64,
    /// Time a bot took to decide.
    pub bot_time: Histogram,
    /// Time to answer a request, by [`ROUTES`].
    pub latency: [Histogram; ROUTES.len()],
    /// Answers by [`ROUTES`] and [`STATUSES`].
    pub answers: [[AtomicU64; STATUSES.len()]; ROUTES.len()],
    /// Time a database call took (queued for a blocking thread included).
    pub db_time: Histogram,
}

/// What is in memory now (read when the page is asked for).
pub struct Gauges {
    /// Matches in memory.
    pub matches_in_memory: usize,
    /// WebSockets open.
    pub websockets: usize,
    /// TCP connections open.
    pub connections: usize,
}

impl Metrics {
    /// Adds one to `counter`.
    pub fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts an answer of `status` to `method` `path` that took
    /// `elapsed`.
    pub fn answered(&self, method: &str, path: &str, status: u16, elapsed: Duration) {
        let route = Metrics::route(method, path);
        self.latency[route].observe(elapsed);
        let class = usize::from(status / 100).clamp(1, STATUSES.len()) - 1;
        Metrics::bump(&self.answers[route][class]);
    }

    /// The index in [`ROUTES`] of the route of `method` and `path`.
    fn route(method: &str, path: &str) -> usize {
        let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let route = match (method, segments.as_slice()) {
            ("POST", ["api", "matches"]) => "create",
            ("GET", ["api", "matches", _]) => "view",
            ("POST", ["api", "matches", _, "actions"]) => "act",
            ("GET", ["api", "matches", _, "ws"]) => "ws",
            _ => "other",
        };
        ROUTES
            .iter()
            .position(|r| *r == route)
            .unwrap_or(ROUTES.len() - 1)
    }

    /// The page in Prometheus' text format.
    pub fn render(&self, gauges: &Gauges) -> String {
        let mut out = String::new();
        let counters: [(&str, &str, &AtomicU64); 10] = [
            (
                "tabletop_matches_created_total",
                "Matches created.",
                &self.matches_created,
            ),
            (
                "tabletop_matches_loaded_total",
                "Matches rebuilt from the store.",
                &self.matches_loaded,
            ),
            (
                "tabletop_matches_evicted_total",
                "Matches that left memory.",
                &self.matches_evicted,
            ),
            (
                "tabletop_views_archived_total",
                "Views of finished matches served as stored, without a replay.",
                &self.views_archived,
            ),
            (
                "tabletop_matches_rebuilt_total",
                "Matches rebuilt outside memory for a read, then dropped.",
                &self.matches_rebuilt,
            ),
            (
                "tabletop_matches_expired_total",
                "Finished unrated matches deleted by the retention.",
                &self.matches_expired,
            ),
            (
                "tabletop_moves_total",
                "Actions decided by a seat.",
                &self.moves,
            ),
            (
                "tabletop_store_errors_total",
                "Store calls that failed.",
                &self.store_errors,
            ),
            (
                "tabletop_limited_total",
                "Requests refused by a limit (429).",
                &self.limited,
            ),
            (
                "tabletop_connections_refused_total",
                "Connections closed at accept, over a connection cap.",
                &self.connections_refused,
            ),
        ];
        for (name, help, value) in counters {
            let v = value.load(Ordering::Relaxed);
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} counter\n{name} {v}"
            );
        }
        // The last two are the process's, under Prometheus' standard
        // names, where the system tells them (Linux's /proc); a gauge the
        // system does not tell is left out.
        let gauges = [
            (
                "tabletop_matches_in_memory",
                "Matches in memory.",
                Some(gauges.matches_in_memory as u64),
            ),
            (
                "tabletop_websockets_open",
                "WebSockets open.",
                Some(gauges.websockets as u64),
            ),
            (
                "tabletop_connections_open",
                "TCP connections open.",
                Some(gauges.connections as u64),
            ),
            (
                "process_resident_memory_bytes",
                "Resident memory size in bytes.",
                resident_bytes(),
            ),
            (
                "process_open_fds",
                "Number of open file descriptors.",
                open_fds(),
            ),
        ];
        for (name, help, v) in gauges {
            if let Some(v) = v {
                let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {v}");
            }
        }
        let name = "tabletop_request_seconds";
        let _ = writeln!(
            out,
            "# HELP {name} Time to answer a request, by route.\n# TYPE {name} histogram"
        );
        for (route, h) in ROUTES.iter().zip(&self.latency) {
            h.write(&mut out, name, &format!("route=\"{route}\""));
        }
        let name = "tabletop_requests_total";
        let _ = writeln!(
            out,
            "# HELP {name} Answers, by route and status class.\n# TYPE {name} counter"
        );
        for (route, classes) in ROUTES.iter().zip(&self.answers) {
            for (status, n) in STATUSES.iter().zip(classes) {
                let n = n.load(Ordering::Relaxed);
                let _ = writeln!(out, "{name}{{route=\"{route}\",status=\"{status}\"}} {n}");
            }
        }
        let name = "tabletop_db_seconds";
        let _ = writeln!(
            out,
            "# HELP {name} Time a database call took.\n# TYPE {name} histogram"
        );
        self.db_time.write(&mut out, name, "");
        let name = "tabletop_bot_decision_seconds";
        let _ = writeln!(
            out,
            "# HELP {name} Time a bot took to decide.\n# TYPE {name} histogram"
        );
        self.bot_time.write(&mut out, name, "");
        out
    }
}

/// The process's resident memory, from `VmRSS` of `/proc/self/status`
/// (in KiB there, whatever the page size).
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The process's open file descriptors, from `/proc/self/fd`.
fn open_fds() -> Option<u64> {
    Some(std::fs::read_dir("/proc/self/fd").ok()?.count() as u64)
}
