//! `tabletop-server`: serves every registered game over HTTP on loopback
//! (or `--host`), records in SQLite (`--db`) or in PostgreSQL shared with
//! other processes (`--database`). Logs are JSON lines on
//! standard error; SIGTERM or Ctrl-C stops it gracefully.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use tabletop_server::client::{Cidr, RealIpHeader};
use tabletop_server::{
    admin_router, registry, router, Config, HttpLimits, MemoryLimits, Policies, Server,
};

/// The game server: HTTP/JSON API, WebSocket, browser page at `/`.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Port to listen on (0: any free port, printed on start).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on; the default is loopback only.
    #[arg(long, default_value = "127.0.0.1")]
    host: std::net::IpAddr,
    /// The SQLite database of the game records (created if missing); by
    /// default `tabletop.db` in `$XDG_DATA_HOME/tabletop`, else in
    /// `~/.local/share/tabletop` (never the working directory, which is
    /// often a checkout).
    #[arg(long)]
    db: Option<PathBuf>,
    /// A PostgreSQL database, `postgres://USER:PASSWORD@HOST:PORT/NAME`,
    /// instead of `--db`: several processes may serve it together (best
    /// given in the environment, out of the process list). Needs a server
    /// built with `--features postgres`.
    #[arg(
        long,
        env = "TABLETOP_DATABASE",
        hide_env_values = true,
        value_parser = postgres_url,
        conflicts_with_all = ["db", "fsync"]
    )]
    database: Option<String>,
    /// With `?sslmode=require` in the `--database` URL (TLS, the server's
    /// certificate checked and naming the URL's host): the certificate
    /// authorities that sign it, a PEM file; the system's without it.
    #[arg(long, value_name = "FILE", requires = "database")]
    database_ca: Option<PathBuf>,
    /// Admit `cmd:PROGRAM ARGS` seats: any client may then run programs on
    /// this machine. Only for a trusted network.
    #[arg(long)]
    allow_cmd_bots: bool,
    /// A directory of trained policies (ONNX files of
    /// python/examples/selfplay.py --onnx): a seat `policy:NAME.onnx`
    /// names one of its files; clients never name a path.
    #[arg(long, value_name = "DIR")]
    policy_dir: Option<PathBuf>,
    /// A `cmd:` bot's time per decision, in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    cmd_time_limit_ms: u64,
    /// Sync every commit to the disk (survives power loss too).
    #[arg(long)]
    fsync: bool,
    /// Largest request body, in bytes.
    #[arg(long, default_value_t = 16 * 1024)]
    max_body: usize,
    /// A host name clients may use in `Host` (repeatable), besides
    /// localhost, 127.0.0.1, [::1] and the address listened on.
    #[arg(long = "allow-host")]
    allow_hosts: Vec<String>,
    /// Answer any `Host` (behind a proxy that checks it).
    #[arg(long)]
    any_host: bool,
    /// Seconds to receive a request's headers (and between requests).
    #[arg(long, default_value_t = 10)]
    header_timeout: u64,
    /// Seconds to receive each part of a request's body.
    #[arg(long, default_value_t = 10)]
    body_timeout: u64,
    /// Requests a second per client address (0: no limit).
    #[arg(long, default_value_t = HttpLimits::default().client_rate)]
    client_rate: u32,
    /// Requests a client may make at once above its rate.
    #[arg(long, default_value_t = HttpLimits::default().client_burst)]
    client_burst: u32,
    /// WebSockets a client may hold open (0: no limit).
    #[arg(long, default_value_t = HttpLimits::default().ws_per_client)]
    ws_per_client: usize,
    /// WebSockets open in all (0: no limit).
    #[arg(long, default_value_t = HttpLimits::default().ws_total)]
    ws_total: usize,
    /// Messages a second a WebSocket client may send (0: no limit).
    #[arg(long, default_value_t = HttpLimits::default().ws_rate)]
    ws_rate: u32,
    /// Unfinished matches a client may have in memory (0: no limit).
    #[arg(long, default_value_t = MemoryLimits::default().matches_per_client)]
    matches_per_client: usize,
    /// Seats a client may leave waiting in the lobby (0: no limit; the
    /// lobby holds 1000 in all).
    #[arg(
        long,
        env = "TABLETOP_LOBBY_SEATS_PER_CLIENT",
        default_value_t = MemoryLimits::default().lobby_seats_per_client
    )]
    lobby_seats_per_client: usize,
    /// A reverse proxy, as an address or a network (`10.0.0.0/8`), whose
    /// forwarded client address the limits count by (repeatable, or
    /// comma-separated); requests from any other peer are their peer's.
    #[arg(
        long = "trusted-proxy",
        value_name = "CIDR",
        env = "TABLETOP_TRUSTED_PROXIES",
        value_delimiter = ','
    )]
    trusted_proxies: Vec<Cidr>,
    /// The header the trusted proxies write the client's address in:
    /// x-forwarded-for or forwarded (RFC 7239). Read from the right: the
    /// right-most address that is no trusted proxy is the client.
    #[arg(
        long,
        value_name = "HEADER",
        env = "TABLETOP_REAL_IP_HEADER",
        default_value = "x-forwarded-for"
    )]
    real_ip_header: RealIpHeader,
    /// TCP connections open in all, WebSockets included (0: no limit);
    /// more are closed at accept.
    #[arg(
        long,
        env = "TABLETOP_MAX_CONNECTIONS",
        default_value_t = HttpLimits::default().max_connections
    )]
    max_connections: usize,
    /// TCP connections one peer address (an IPv6 /64) may hold open (0: no
    /// limit); a trusted proxy's count in all only. More are closed at
    /// accept.
    #[arg(
        long,
        env = "TABLETOP_MAX_CONNECTIONS_PER_ADDRESS",
        default_value_t = HttpLimits::default().max_connections_per_address
    )]
    max_connections_per_address: usize,
    /// Seconds an untouched unfinished match stays in memory.
    #[arg(long, default_value_t = 600)]
    idle_secs: u64,
    /// Seconds a stop waits for requests in flight and bots deciding.
    #[arg(long, default_value_t = 20)]
    shutdown_grace: u64,
    /// Serve `/readyz` and `/metrics` on this port of `--admin-host` only
    /// (0: any free port, printed on start), not on the public one.
    #[arg(long)]
    admin_port: Option<u16>,
    /// The address of the admin listener; the default is loopback only.
    #[arg(long, default_value = "127.0.0.1")]
    admin_host: std::net::IpAddr,
    /// Delete finished unrated matches this many days after they ended
    /// (checked hourly); by default every match is kept. Rated matches
    /// stay: the ratings come from them.
    #[arg(long, value_name = "DAYS")]
    retain_finished_days: Option<u32>,
    /// Write a consistent copy of the SQLite database (`--db`) to this new
    /// file and exit, while a server may be running on it. To restore:
    /// stop the server, put the copy in the database's place (removing
    /// its `-wal` and `-shm` files), start it (docs/server.md, "Backup
    /// and restore").
    #[arg(long, value_name = "FILE", conflicts_with = "database")]
    backup: Option<PathBuf>,
    /// Log level: error, warn, info, debug or trace.
    #[arg(long, default_value = "info")]
    log: tracing::Level,
}

/// A `--database` value: a PostgreSQL URL, in a build that has its client.
fn postgres_url(url: &str) -> Result<String, String> {
    if cfg!(not(feature = "postgres")) {
        return Err(
            "this server was built without PostgreSQL: build it with `--features \
                    postgres` (cargo run --release -p tabletop-server --features postgres), \
                    or use --db for SQLite"
                .into(),
        );
    }
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(url.to_owned())
    } else {
        Err("expected postgres://USER:PASSWORD@HOST:PORT/NAME (use --db for SQLite)".into())
    }
}

/// The database when `--db` is not given: `tabletop.db` in the data
/// folder ([`game_env::data_dir`]), made if missing.
fn default_db() -> Result<PathBuf, String> {
    let dir = game_env::data_dir().ok_or(
        "no data folder: neither XDG_DATA_HOME nor HOME is an absolute path; give --db FILE",
    )?;
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    Ok(dir.join("tabletop.db"))
}

/// `error` and each of its causes that its message does not already say:
/// PostgreSQL's own reason (`FATAL: password authentication failed for
/// user "tabletop"`) after the client's `db error`. No cause holds the
/// database password: the URL is shown by `Config::database_name`.
fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(c) = cause {
        let said = c.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        cause = c.source();
    }
    text
}

/// Hears SIGTERM (a service manager's stop) from now on, and Ctrl-C; the
/// future resolves on either. Called before the server says it listens:
/// a SIGTERM sent as soon as the address is printed (by a supervisor or a
/// test) must stop it gracefully, not find no handler and kill it.
fn stop_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    async move {
        #[cfg(unix)]
        if let Some(mut term) = term {
            tokio::select! {
                _ = term.recv() => {}
                _ = tokio::signal::ctrl_c() => {}
            }
            return;
        }
        let _ = tokio::signal::ctrl_c().await;
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    tracing_subscriber::fmt()
        .json()
        .with_max_level(args.log)
        .with_writer(std::io::stderr)
        .init();
    if let Some(to) = &args.backup {
        let Some(db) = &args.db else {
            eprintln!("tabletop-server: --backup needs --db, the database to copy");
            return ExitCode::from(2);
        };
        return match tabletop_server::store::backup(db, to) {
            Ok(()) => {
                println!("backed up {} to {}", db.display(), to.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("tabletop-server: {}", with_causes(&e));
                ExitCode::FAILURE
            }
        };
    }
    let addr = SocketAddr::new(args.host, args.port);
    let mut allowed_hosts = HttpLimits::default().allowed_hosts;
    if !args.host.is_unspecified() {
        allowed_hosts.push(match args.host {
            std::net::IpAddr::V6(ip) => format!("[{ip}]"),
            ip => ip.to_string(),
        });
    }
    allowed_hosts.extend(args.allow_hosts);
    if args.any_host {
        allowed_hosts.clear();
    }
    let policies = match args.policy_dir.map(Policies::from_dir).transpose() {
        Ok(policies) => policies.unwrap_or_default(),
        Err(e) => {
            eprintln!("tabletop-server: --policy-dir: {e}");
            return ExitCode::from(2);
        }
    };
    let db = match (args.db, &args.database) {
        (Some(db), _) => db,
        // Unused: PostgreSQL holds the records.
        (None, Some(_)) => PathBuf::new(),
        (None, None) => match default_db() {
            Ok(db) => db,
            Err(e) => {
                eprintln!("tabletop-server: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let config = Config {
        db,
        policies,
        postgres: args.database,
        database_ca: args.database_ca,
        allow_cmd_bots: args.allow_cmd_bots,
        cmd_time_limit: Duration::from_millis(args.cmd_time_limit_ms),
        fsync: args.fsync,
        max_body: args.max_body,
        http: HttpLimits {
            header_timeout: Duration::from_secs(args.header_timeout),
            body_timeout: Duration::from_secs(args.body_timeout),
            allowed_hosts,
            client_rate: args.client_rate,
            client_burst: args.client_burst,
            ws_per_client: args.ws_per_client,
            ws_total: args.ws_total,
            ws_rate: args.ws_rate,
            trusted_proxies: args.trusted_proxies,
            real_ip_header: args.real_ip_header,
            max_connections: args.max_connections,
            max_connections_per_address: args.max_connections_per_address,
        },
        memory: MemoryLimits {
            idle: Duration::from_secs(args.idle_secs),
            matches_per_client: args.matches_per_client,
            lobby_seats_per_client: args.lobby_seats_per_client,
            ..MemoryLimits::default()
        },
        ops_apart: args.admin_port.is_some(),
        retain_finished: args
            .retain_finished_days
            .map(|days| Duration::from_secs(u64::from(days) * 86_400)),
    };
    let server = match Server::open(registry(), config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("tabletop-server: {}", with_causes(&e));
            return ExitCode::FAILURE;
        }
    };
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("tabletop-server: cannot listen on {addr}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let admin = match args.admin_port {
        Some(port) => {
            let at = SocketAddr::new(args.admin_host, port);
            match tokio::net::TcpListener::bind(at).await {
                Ok(l) => Some(l),
                Err(e) => {
                    eprintln!("tabletop-server: cannot listen on {at} (--admin-port): {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        None => None,
    };
    let local = listener.local_addr().unwrap_or(addr);
    let stop = stop_signal();
    println!("listening on http://{local}");
    tracing::info!(%local, "listening");
    if let Some(admin) = admin {
        if let Ok(at) = admin.local_addr() {
            println!("admin on http://{at}");
            tracing::info!(%at, "admin listening");
        }
        // Ends with the process, after the public listener's graceful
        // stop: /readyz answers 503 meanwhile.
        let app = admin_router(server.clone());
        tokio::spawn(async move {
            if let Err(e) = axum::serve(admin, app).await {
                tracing::warn!(error = %e, "the admin listener stopped");
            }
        });
    }
    server.resume().await;
    let stopper = server.clone();
    tokio::spawn(async move {
        stop.await;
        tracing::info!("stopping: finishing the requests in flight");
        stopper.begin_shutdown();
    });
    let grace = Duration::from_secs(args.shutdown_grace);
    let app = router(server.clone());
    if tabletop_server::listen::serve(listener, app, server, grace).await {
        tracing::info!("stopped");
    } else {
        tracing::warn!("stopped with requests or bots unfinished after the grace time");
    }
    ExitCode::SUCCESS
}
