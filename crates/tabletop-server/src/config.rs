//! How the server runs: the database, whether programs may sit in seats,
//! their time, durability and the body limit; `main.rs` fills it from the
//! command line.

use std::path::PathBuf;
use std::time::Duration;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The SQLite database (`:memory:` for a throw-away one).
    pub db: PathBuf,
    /// Whether `cmd:` seats (programs run on this machine) are admitted.
    pub allow_cmd_bots: bool,
    /// A protocol bot's time per decision.
    pub cmd_time_limit: Duration,
    /// Whether every commit is synced to the disk (survives power loss,
    /// not only a killed process).
    pub fsync: bool,
    /// The largest request body, in bytes.
    pub max_body: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            db: PathBuf::from("tabletop.db"),
            allow_cmd_bots: false,
            cmd_time_limit: Duration::from_secs(10),
            fsync: false,
            max_body: 16 * 1024,
        }
    }
}
