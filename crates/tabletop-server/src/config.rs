//! How the server runs: the database (an SQLite file, or PostgreSQL for
//! several processes), whether programs may sit in seats,
//! their time, durability, the HTTP limits and the bounds on memory;
//! `main.rs` fills it from the command line.

use std::path::PathBuf;
use std::time::Duration;

use crate::client::{Cidr, RealIpHeader};
use crate::policies::Policies;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The SQLite database (`:memory:` for a throw-away one), unless
    /// `postgres` is set.
    pub db: PathBuf,
    /// A PostgreSQL database, `postgres://USER:PASSWORD@HOST:PORT/NAME`,
    /// which several server processes may share (then `db` and `fsync`
    /// are unused: PostgreSQL's own settings decide durability).
    pub postgres: Option<String>,
    /// The certificate authorities (a PEM file) that sign the PostgreSQL
    /// server's certificate, for a URL with `sslmode=require`; the
    /// system's without it.
    pub database_ca: Option<PathBuf>,
    /// Whether `cmd:` seats (programs run on this machine) are admitted.
    pub allow_cmd_bots: bool,
    /// A protocol bot's time per decision.
    pub cmd_time_limit: Duration,
    /// The trained policies `policy:NAME` seats may name, by file name in
    /// the operator's directory (`--policy-dir`); none without it.
    pub policies: Policies,
    /// Whether every commit is synced to the disk (survives power loss,
    /// not only a killed process).
    pub fsync: bool,
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// The HTTP limits: timeouts, hosts, rates.
    pub http: HttpLimits,
    /// What stays in memory and how much one client may hold.
    pub memory: MemoryLimits,
    /// Whether `/readyz` and `/metrics` are left to the admin listener
    /// (`--admin-port`, [`crate::admin_router`]): the public one then
    /// answers them 404.
    pub ops_apart: bool,
    /// How long a finished unrated match is kept after it ended (counted
    /// from the first hourly sweep that sees it over); `None` keeps every
    /// match.
    pub retain_finished: Option<Duration>,
}

/// The HTTP limits. A limit of 0 means none.
#[derive(Clone, Debug)]
pub struct HttpLimits {
    /// Time to receive a request's headers; a slower connection is closed.
    pub header_timeout: Duration,
    /// Time to receive each part of a request's body; slower is a 408.
    pub body_timeout: Duration,
    /// The host names (without port) a request may name in `Host`; others
    /// are refused (421), which stops DNS rebinding. Empty: any host.
    pub allowed_hosts: Vec<String>,
    /// Requests a second one client (IP address) may make on average.
    pub client_rate: u32,
    /// Requests one client may make at once above its rate.
    pub client_burst: u32,
    /// WebSockets one client may hold open.
    pub ws_per_client: usize,
    /// WebSockets open in all.
    pub ws_total: usize,
    /// Messages a second a WebSocket client may send (more closes it).
    pub ws_rate: u32,
    /// The proxies whose forwarded client address the limits count by
    /// (nginx's `set_real_ip_from`); any other peer is the client itself.
    pub trusted_proxies: Vec<Cidr>,
    /// The header those proxies write the client's address in.
    pub real_ip_header: RealIpHeader,
    /// TCP connections open in all (WebSockets included).
    pub max_connections: usize,
    /// TCP connections one peer address (an IPv6 /64) may hold open; a
    /// trusted proxy's are counted in all only.
    pub max_connections_per_address: usize,
}

impl Default for HttpLimits {
    fn default() -> Self {
        HttpLimits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            allowed_hosts: vec!["localhost".into(), "127.0.0.1".into(), "[::1]".into()],
            client_rate: 50,
            client_burst: 200,
            ws_per_client: 16,
            ws_total: 2048,
            ws_rate: 5,
            trusted_proxies: Vec::new(),
            real_ip_header: RealIpHeader::XForwardedFor,
            max_connections: 4096,
            max_connections_per_address: 64,
        }
    }
}

/// What stays in memory. A limit of 0 means none.
#[derive(Clone, Debug)]
pub struct MemoryLimits {
    /// An unfinished match nobody touched for this long leaves memory (it
    /// is rebuilt from its record when next asked for); a finished one
    /// leaves as soon as no request, WebSocket or bot holds it.
    pub idle: Duration,
    /// How often the matches in memory are swept.
    pub sweep: Duration,
    /// Unfinished matches in memory that one client created.
    pub matches_per_client: usize,
    /// Seats one client may leave waiting in the lobby (of the
    /// [`crate::lobby::MAX_OPEN`] in all).
    pub lobby_seats_per_client: usize,
}

impl Default for MemoryLimits {
    fn default() -> Self {
        MemoryLimits {
            idle: Duration::from_secs(600),
            sweep: Duration::from_secs(1),
            matches_per_client: 32,
            lobby_seats_per_client: 10,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            db: PathBuf::from("tabletop.db"),
            postgres: None,
            database_ca: None,
            allow_cmd_bots: false,
            cmd_time_limit: Duration::from_secs(10),
            policies: Policies::default(),
            fsync: false,
            max_body: 16 * 1024,
            http: HttpLimits::default(),
            memory: MemoryLimits::default(),
            ops_apart: false,
            retain_finished: None,
        }
    }
}

impl Config {
    /// The database as an operator may read it in a message: the SQLite
    /// path, or the PostgreSQL URL without its password.
    pub fn database_name(&self) -> String {
        match &self.postgres {
            None => self.db.display().to_string(),
            Some(url) => without_password(url),
        }
    }

    /// A configuration without the per-client limits (rates, WebSockets,
    /// connections, matches and lobby seats per client): for tests and
    /// benchmarks that play many matches from one address.
    pub fn unlimited(mut self) -> Config {
        self.http.client_rate = 0;
        self.http.ws_per_client = 0;
        self.http.ws_total = 0;
        self.http.max_connections = 0;
        self.http.max_connections_per_address = 0;
        self.memory.matches_per_client = 0;
        self.memory.lobby_seats_per_client = 0;
        self
    }
}

/// `url` with the password of its user part (`USER:PASSWORD@`) masked.
fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => match rest[..at].split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***{}", &rest[at..]),
            None => url.to_owned(),
        },
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_name_never_shows_the_password() {
        let config = |url: &str| Config {
            postgres: Some(url.to_owned()),
            ..Config::default()
        };
        assert_eq!(
            config("postgres://game:s3cret@db.example:5432/tabletop").database_name(),
            "postgres://game:***@db.example:5432/tabletop"
        );
        assert_eq!(
            config("postgres://game@db/tabletop").database_name(),
            "postgres://game@db/tabletop"
        );
        assert_eq!(Config::default().database_name(), "tabletop.db");
    }
}
