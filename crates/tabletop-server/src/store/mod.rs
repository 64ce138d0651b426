//! The records database. A match is its rules specification, seed, seats,
//! seat tokens and every action id in order (decisions and chance
//! outcomes); its state is a replay of that record.
//!
//! Two backends behind one interface ([`Records`]) and one schema
//! ([`MIGRATIONS`], the same steps in both dialects): SQLite compiled in
//! ([`Store::open`], one process, the default) and PostgreSQL
//! ([`Store::connect`], several processes on one database, which then
//! share matches through [`Shared`]: advisory locks and `LISTEN/NOTIFY`),
//! the latter with the `postgres` feature only (its client and its
//! cryptography are a third of the server's build).
//! Every write is a committed transaction before the server acknowledges
//! it, so a process killed with `kill -9` loses nothing it acknowledged.

mod backup;
mod lobby;
#[cfg(feature = "postgres")]
mod pg;
#[cfg(not(feature = "postgres"))]
#[path = "pg_absent.rs"]
mod pg;
#[cfg(feature = "postgres")]
mod pg_tls;
mod players;
mod schema;
mod sqlite;

use std::ops::Deref;
use std::path::Path;

use game_traits::PlayerId;

pub use backup::backup;
pub use lobby::{
    Caps, ListedSeat, Lobbies, LobbyState, OpenSeat, PlaceRefused, RematchClaim, TakeRefused,
};
#[cfg(feature = "postgres")]
pub use pg::migrate_postgres;
pub use pg::Shared;
#[cfg(feature = "postgres")]
pub use pg_tls::TlsSetupError;
pub use players::{Kind, Player, Players, Standing};
pub use schema::{Dialect, MIGRATIONS};

use crate::config::Config;

/// The statements both backends run (`$N` parameters, numbered in order
/// of first use, which SQLite binds by position too).
mod sql {
    pub const CREATE: &str =
        "INSERT INTO matches (spec, seed, seat0, seat1, token0, token1, finished, bot_due, clock)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id";
    pub const INSERT_ACTION: &str =
        "INSERT INTO actions (match_id, step, action) VALUES ($1, $2, $3)";
    pub const PROGRESS: &str =
        "UPDATE matches SET finished = $1, bot_due = $2, clock = $3, draw_offer = $4 WHERE id = $5";
    pub const OFFER: &str = "UPDATE matches SET draw_offer = $1 WHERE id = $2";
    pub const CLOCK: &str = "UPDATE matches SET clock = $1 WHERE id = $2";
    pub const DRAW: &str = "UPDATE matches SET agreed_draw = 1, finished = 1, bot_due = 0,
         draw_offer = NULL WHERE id = $1";
    pub const FINISH: &str = "UPDATE matches SET finished = 1, bot_due = 0 WHERE id = $1";
    pub const UNFINISHED: &str = "SELECT id FROM matches WHERE finished = 0 ORDER BY id";
    pub const FORFEIT: &str =
        "UPDATE matches SET forfeit_seat = $1, forfeit_reason = $2, finished = 1, bot_due = 0,
         draw_offer = NULL WHERE id = $3";
    // With what the lobby holds of the match (`store/lobby`): its seat
    // waiting for a person and its rematch.
    pub const MATCH: &str = "SELECT m.id, m.spec, m.seed, m.seat0, m.seat1, m.token0, m.token1,
             m.forfeit_seat, m.forfeit_reason, m.clock, m.agreed_draw, o.seat, r.rematch_id,
             m.draw_offer
         FROM matches m
         LEFT JOIN open_seats o ON o.match_id = m.id
         LEFT JOIN rematches r ON r.match_id = m.id
         WHERE m.id = $1";
    pub const FORFEIT_OF: &str = "SELECT m.forfeit_seat, m.forfeit_reason, m.clock, m.agreed_draw,
             m.token0, m.token1, o.seat, r.rematch_id, m.draw_offer
         FROM matches m
         LEFT JOIN open_seats o ON o.match_id = m.id
         LEFT JOIN rematches r ON r.match_id = m.id
         WHERE m.id = $1";
    pub const ACTIONS: &str =
        "SELECT step, action FROM actions WHERE match_id = $1 AND step >= $2 ORDER BY step";
    #[cfg(feature = "postgres")]
    pub const BOTS_DUE: &str =
        "SELECT id FROM matches WHERE finished = 0 AND bot_due = 1 ORDER BY id";
    // Secrets a server from before seals stored as given (32 hex digits;
    // a seal has 64), sealed when the store opens.
    pub const PLAIN_TOKENS: &str =
        "SELECT id, token0, token1 FROM matches WHERE length(token0) = 32 OR length(token1) = 32";
    pub const SEAL_TOKENS: &str = "UPDATE matches SET token0 = $1, token1 = $2 WHERE id = $3";
    pub const PLAIN_KEYS: &str = "SELECT id, key FROM players WHERE length(key) = 32";
    pub const SEAL_KEY: &str = "UPDATE players SET key = $1 WHERE id = $2";
    // Retention: finished matches get the time a sweep first sees them
    // over; the unrated ones among them older than the cut go, actions
    // first.
    pub const STAMP_FINISHED: &str =
        "UPDATE matches SET finished_ms = $1 WHERE finished = 1 AND finished_ms IS NULL";
    pub const EXPIRED: &str = "SELECT id FROM matches WHERE finished = 1 AND finished_ms < $1
         AND id NOT IN (SELECT match_id FROM rated_matches) ORDER BY id";
    pub const DELETE_ACTIONS: &str = "DELETE FROM actions WHERE match_id = $1";
    pub const DELETE_VIEWS: &str = "DELETE FROM final_views WHERE match_id = $1";
    // A match's game, seats, whether it is over and its final views
    // (NULL until stored).
    pub const KEPT: &str =
        "SELECT m.spec, m.token0, m.token1, m.finished, v.spectator, v.seat0, v.seat1, r.rematch_id
         FROM matches m LEFT JOIN final_views v ON v.match_id = m.id
         LEFT JOIN rematches r ON r.match_id = m.id WHERE m.id = $1";
    pub const KEEP_VIEWS: &str = "INSERT INTO final_views (match_id, spectator, seat0, seat1)
         VALUES ($1, $2, $3, $4) ON CONFLICT (match_id) DO NOTHING";
    pub const DELETE_MATCH: &str = "DELETE FROM matches WHERE id = $1";
}

/// The stored form of a seat token or player key read as `text`: its seal
/// when `text` is a secret stored as given by a server from before seals,
/// else `text` unchanged (already a seal, or no secret).
fn sealed_text(text: Option<String>) -> Option<String> {
    match text {
        Some(t) if t.len() == 32 => crate::token::Seal::parse(&t)
            .map(|s| s.to_string())
            .or(Some(t)),
        other => other,
    }
}

/// What a match waits for after a write: stored with it, so that a start
/// replays only unfinished matches and a process finds the bot turns
/// another one left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The match is over.
    Over,
    /// A bot seat is to decide.
    BotDue,
    /// A person (or chance, never left pending) is to act.
    PersonDue,
}

impl Progress {
    /// The `finished` and `bot_due` columns.
    fn columns(self) -> (i64, i64) {
        match self {
            Progress::Over => (1, 0),
            Progress::BotDue => (0, 1),
            Progress::PersonDue => (0, 0),
        }
    }
}

/// One stored match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMatch {
    /// Its id.
    pub id: i64,
    /// The game specification (canonical name).
    pub spec: String,
    /// The seed of its chance events and bots.
    pub seed: u64,
    /// The seats as written (`human`, `bot:random`, ...).
    pub seats: [String; 2],
    /// Each human seat's token (32 hex digits).
    pub tokens: [Option<String>; 2],
    /// Every action id in order.
    pub actions: Vec<usize>,
    /// Why the match ended by forfeit: (seat, reason).
    pub forfeit: Option<(u8, String)>,
    /// The clocks as last written (`crate::clock::Clock::stored`).
    pub clock: Option<String>,
    /// Whether the seats agreed a draw.
    pub agreed_draw: bool,
    /// What the lobby holds of it.
    pub lobby: LobbyState,
    /// The seat whose offer of a draw is open.
    pub draw_offer: Option<u8>,
}

impl StoredMatch {
    /// The forfeit with its seat as a player (`None` for a seat out of
    /// range, which the store refuses when it reads one).
    pub fn forfeit_by(&self) -> Option<(PlayerId, String)> {
        let (seat, reason) = self.forfeit.as_ref()?;
        PlayerId::from_index(usize::from(*seat)).map(|p| (p, reason.clone()))
    }
}

/// The end of a stored match from some step on: what another process
/// wrote since this one last looked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tail {
    /// The action ids from that step on, in order.
    pub actions: Vec<usize>,
    /// The forfeit, if the match ended by one.
    pub forfeit: Option<(u8, String)>,
    /// The clocks as last written.
    pub clock: Option<String>,
    /// Whether the seats agreed a draw.
    pub agreed_draw: bool,
    /// Each human seat's token seal (a person taking a seat changes it).
    pub tokens: [Option<String>; 2],
    /// What the lobby holds of it.
    pub lobby: LobbyState,
    /// The seat whose offer of a draw is open.
    pub draw_offer: Option<u8>,
}

/// A match as the store keeps it for readers: enough to check a token
/// and, once it is over, serve a view without replaying it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    /// The game specification (canonical name).
    pub spec: String,
    /// Each human seat's token seal.
    pub tokens: [Option<String>; 2],
    /// Whether it is over.
    pub finished: bool,
    /// Its views as it ended, once stored: [`FinalViews`].
    pub views: Option<FinalViews>,
    /// Its rematch, if one was made (its stored views do not name it).
    pub rematch: Option<i64>,
}

/// A finished match's views as it ended, each the gzip-compressed JSON
/// that [`crate::views::view`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinalViews {
    /// The spectator's view.
    pub spectator: Vec<u8>,
    /// Each seat's view.
    pub seats: [Vec<u8>; 2],
}

/// What both backends store and read. Every method blocks (the server
/// runs them on blocking threads, `Server::db`).
pub trait Records: Players + Lobbies + Send + Sync {
    /// Stores a new match with its first actions (the chance events before
    /// the first decision) and its clocks; returns its id.
    #[allow(clippy::too_many_arguments)]
    fn create(
        &self,
        spec: &str,
        seed: u64,
        seats: &[String; 2],
        tokens: &[Option<String>; 2],
        actions: &[usize],
        progress: Progress,
        clock: Option<&str>,
    ) -> StoreResult<i64>;

    /// Appends `actions` at steps `from..` with where the match then
    /// stands, its clocks and the seat whose draw offer stands after them
    /// (a move declines the offer made to the mover); refused (and nothing
    /// written) if any of those steps is already stored.
    fn append(
        &self,
        id: i64,
        from: usize,
        actions: &[usize],
        progress: Progress,
        clock: Option<&str>,
        offer: Option<u8>,
    ) -> StoreResult<()>;

    /// Records that `seat` offers a draw in match `id` (`None`: the offer
    /// was declined or withdrawn).
    fn offer_draw(&self, id: i64, seat: Option<u8>) -> StoreResult<()>;

    /// Deletes the finished unrated matches that a sweep first saw over
    /// before `cut_ms` (Unix ms), and stamps the finished matches not yet
    /// seen with `now_ms`; returns the ids deleted. Rated matches stay:
    /// the ratings are computed from them.
    fn expire(&self, now_ms: i64, cut_ms: i64) -> StoreResult<Vec<i64>>;

    /// Writes the clocks of match `id` (started, or stopped by a flag).
    fn set_clock(&self, id: i64, clock: Option<&str>) -> StoreResult<()>;

    /// Records that the seats of match `id` agreed a draw (it is then
    /// over).
    fn agree_draw(&self, id: i64) -> StoreResult<()>;

    /// Marks a match over (a record of an older server, found over when
    /// replayed).
    fn finish(&self, id: i64) -> StoreResult<()>;

    /// The ids of the matches not marked over, in order.
    fn unfinished(&self) -> StoreResult<Vec<i64>>;

    /// Whether the database answers (for `/readyz`).
    fn ping(&self) -> StoreResult<()>;

    /// Records that `seat` forfeited the match (which is then over).
    fn forfeit(&self, id: i64, seat: u8, reason: &str) -> StoreResult<()>;

    /// One match, if stored.
    fn get(&self, id: i64) -> StoreResult<Option<StoredMatch>>;

    /// The actions of match `id` from step `from` on, its forfeit, clocks
    /// and agreed draw.
    fn tail(&self, id: i64, from: usize) -> StoreResult<Tail>;

    /// Match `id` if it is stored, with its final views if they are.
    fn kept(&self, id: i64) -> StoreResult<Option<Kept>>;

    /// Stores the final views of the finished match `id` (nothing if they
    /// are already stored: they never change).
    fn keep_views(&self, id: i64, views: &FinalViews) -> StoreResult<()>;
}

/// A row of [`sql::KEPT`]: the views count as stored only when all three
/// are.
type KeptRow = (
    String,
    Option<String>,
    Option<String>,
    i64,
    Option<Vec<u8>>,
    Option<Vec<u8>>,
    Option<Vec<u8>>,
    Option<i64>,
);

fn kept_of((spec, token0, token1, finished, spectator, seat0, seat1, rematch): KeptRow) -> Kept {
    let views = match (spectator, seat0, seat1) {
        (Some(spectator), Some(seat0), Some(seat1)) => Some(FinalViews {
            spectator,
            seats: [seat0, seat1],
        }),
        _ => None,
    };
    Kept {
        spec,
        tokens: [token0, token1],
        finished: finished != 0,
        views,
        rematch,
    }
}

/// The database: a backend, and for PostgreSQL what lets several
/// processes share it.
pub struct Store {
    records: Box<dyn Records>,
    shared: Option<Shared>,
}

impl Deref for Store {
    type Target = dyn Records;

    fn deref(&self) -> &Self::Target {
        &*self.records
    }
}

impl Store {
    /// Opens (or creates) the SQLite database at `path`; `:memory:` for a
    /// throw-away one. `fsync` makes every commit reach the disk. The
    /// schema is brought up to date by [`MIGRATIONS`].
    pub fn open(path: &Path, fsync: bool) -> StoreResult<Store> {
        Ok(Store {
            records: Box::new(sqlite::Sqlite::open(path, fsync)?),
            shared: None,
        })
    }

    /// Connects to the PostgreSQL database at `url`
    /// (`postgres://USER:PASSWORD@HOST:PORT/NAME`, over TLS with
    /// `?sslmode=require`, the server's certificate checked against the
    /// PEM authorities of `ca` or the system's), brings its schema up to
    /// date, and joins the processes sharing it. Safe to call from an
    /// async task (the connections are made on a thread of their own).
    #[cfg(feature = "postgres")]
    pub fn connect(url: &str, ca: Option<&Path>) -> StoreResult<Store> {
        let (records, shared) = pg::connect(url, ca)?;
        Ok(Store {
            records: Box::new(records),
            shared: Some(shared),
        })
    }

    /// Refuses: this build has no PostgreSQL client (the `postgres`
    /// feature).
    #[cfg(not(feature = "postgres"))]
    pub fn connect(_url: &str, _ca: Option<&Path>) -> StoreResult<Store> {
        Err(StoreError::Open(BackendError::PostgresNotBuilt))
    }

    /// The database of `config`: PostgreSQL if it names one, else its
    /// SQLite file.
    pub fn of(config: &Config) -> StoreResult<Store> {
        match &config.postgres {
            Some(url) => Store::connect(url, config.database_ca.as_deref()),
            None => Store::open(&config.db, config.fsync),
        }
    }

    /// For PostgreSQL, what several processes share: match claims, the
    /// bot turns due, the changes other processes make.
    pub fn shared(&self) -> Option<&Shared> {
        self.shared.as_ref()
    }
}

/// A match another process changed, as its notice said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Match `id` is now at `version` (actions, plus one if forfeited).
    Match {
        /// The match.
        id: i64,
        /// Its version.
        version: u64,
    },
    /// The listening connection was lost and made again: notices may
    /// have been missed, so every match in memory may be behind.
    Missed,
}

/// Why a database call failed, as the backend said.
#[derive(Debug, thiserror::Error)]
pub enum BackendError {
    /// SQLite's error.
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL's (or its connection's) error.
    #[cfg(feature = "postgres")]
    #[error(transparent)]
    Postgres(#[from] postgres::Error),
    /// The TLS set-up of the PostgreSQL connections.
    #[cfg(feature = "postgres")]
    #[error(transparent)]
    Tls(#[from] TlsSetupError),
    /// A PostgreSQL database was named to a build without its client.
    #[cfg(not(feature = "postgres"))]
    #[error(
        "this server was built without PostgreSQL: build it with `--features postgres` \
         (cargo run --release -p tabletop-server --features postgres), or use --db for SQLite"
    )]
    PostgresNotBuilt,
}

/// Why the database failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database could not be opened or set up.
    #[error("opening the database: {0}")]
    Open(#[source] BackendError),
    /// A statement failed.
    #[error("{op}: {source}")]
    Query {
        /// What was being done (`appending actions`, ...).
        op: &'static str,
        /// The backend's error.
        #[source]
        source: BackendError,
    },
    /// A stored record is not one the server writes.
    #[error("match {id}: {reason}")]
    Corrupt {
        /// The match.
        id: i64,
        /// What is wrong with it.
        reason: Corruption,
    },
    /// A backup refused before the database is read.
    #[error("backing up to {}: {reason}", path.display())]
    Backup {
        /// Where the backup was to go.
        path: std::path::PathBuf,
        /// Why not.
        reason: &'static str,
    },
    /// The blocking task running the statement did not finish (it
    /// panicked or the runtime is shutting down).
    #[error("the database task stopped: {0}")]
    Task(#[from] tokio::task::JoinError),
}

/// How a stored record is broken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Corruption {
    /// The action steps are not 0, 1, 2, ... (or an action id is negative).
    #[error("the stored actions have a gap at step {step}")]
    Gap {
        /// The first step that is missing or wrong.
        step: usize,
    },
    /// A stored forfeit names no seat.
    #[error("the forfeit names seat {seat}")]
    Seat {
        /// The stored seat.
        seat: i64,
    },
}

/// A database result.
pub type StoreResult<T> = Result<T, StoreError>;

/// Tags a backend error with what was being done.
fn query<E: Into<BackendError>>(op: &'static str) -> impl FnOnce(E) -> StoreError {
    move |source| StoreError::Query {
        op,
        source: source.into(),
    }
}

/// Tags a backend error met while opening the database.
fn opening<E: Into<BackendError>>(e: E) -> StoreError {
    StoreError::Open(e.into())
}

/// The action ids of rows `(step, action)` read from step `from` on,
/// checked to be `from, from + 1, ...`.
fn checked_actions(
    id: i64,
    from: usize,
    rows: impl IntoIterator<Item = (i64, i64)>,
) -> StoreResult<Vec<usize>> {
    let mut out = Vec::new();
    for (i, (step, action)) in rows.into_iter().enumerate() {
        let want = from + i;
        if step != want as i64 || action < 0 {
            return Err(StoreError::Corrupt {
                id,
                reason: Corruption::Gap { step: want },
            });
        }
        out.push(action as usize);
    }
    Ok(out)
}

/// A seat stored in an integer column (`draw_offer`): `None` when it is
/// NULL or no seat.
fn seat_column(seat: Option<i64>) -> Option<u8> {
    seat.and_then(|s| u8::try_from(s).ok()).filter(|&s| s < 2)
}

/// A stored forfeit from its columns.
fn forfeit_of(
    id: i64,
    seat: Option<i64>,
    reason: Option<String>,
) -> StoreResult<Option<(u8, String)>> {
    match seat {
        None => Ok(None),
        Some(s) => match u8::try_from(s) {
            Ok(seat) if seat < 2 => Ok(Some((seat, reason.unwrap_or_default()))),
            _ => Err(StoreError::Corrupt {
                id,
                reason: Corruption::Seat { seat: s },
            }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_postgres_dialect_has_64_bit_integers_and_an_identity_column() {
        for step in MIGRATIONS {
            let pg = Dialect::Postgres.render(step);
            assert!(
                !pg.contains("INTEGER") && !pg.contains("AUTOINCREMENT"),
                "{pg}"
            );
            assert_eq!(Dialect::Sqlite.render(step), *step);
        }
        assert!(Dialect::Postgres
            .render(MIGRATIONS[0])
            .contains("id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"));
    }

    #[test]
    fn a_forfeit_of_no_seat_is_a_corrupt_record() {
        assert!(matches!(
            forfeit_of(4, Some(2), None),
            Err(StoreError::Corrupt {
                id: 4,
                reason: Corruption::Seat { seat: 2 }
            })
        ));
        assert_eq!(
            forfeit_of(4, Some(1), None).unwrap(),
            Some((1, String::new()))
        );
    }
}
