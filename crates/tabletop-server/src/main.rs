//! `tabletop-server`: serves every registered game over HTTP on loopback
//! (or `--host`), records in SQLite (`--db`).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use tabletop_server::{registry, router, Config, Server};

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
    /// The SQLite database of the game records (created if missing).
    #[arg(long, default_value = "tabletop.db")]
    db: PathBuf,
    /// Admit `cmd:PROGRAM ARGS` seats: any client may then run programs on
    /// this machine. Only for a trusted network.
    #[arg(long)]
    allow_cmd_bots: bool,
    /// A `cmd:` bot's time per decision, in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    cmd_time_limit_ms: u64,
    /// Sync every commit to the disk (survives power loss too).
    #[arg(long)]
    fsync: bool,
    /// Largest request body, in bytes.
    #[arg(long, default_value_t = 16 * 1024)]
    max_body: usize,
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    let config = Config {
        db: args.db,
        allow_cmd_bots: args.allow_cmd_bots,
        cmd_time_limit: Duration::from_millis(args.cmd_time_limit_ms),
        fsync: args.fsync,
        max_body: args.max_body,
    };
    let server = match Server::open(registry(), config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("tabletop-server: {e}");
            return ExitCode::FAILURE;
        }
    };
    let addr = SocketAddr::new(args.host, args.port);
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("tabletop-server: cannot listen on {addr}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let local = listener.local_addr().unwrap_or(addr);
    println!("listening on http://{local}");
    server.resume().await;
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    match axum::serve(listener, router(server))
        .with_graceful_shutdown(shutdown)
        .await
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tabletop-server: {e}");
            ExitCode::FAILURE
        }
    }
}
