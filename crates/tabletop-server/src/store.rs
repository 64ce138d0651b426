//! The records database (SQLite, compiled in). A match is its rules
//! specification, seed, seats, seat tokens and every action id in order
//! (decisions and chance outcomes); its state is a replay of that record.
//!
//! Every write is a committed transaction in WAL mode before the server
//! acknowledges it, so a process killed with `kill -9` loses nothing it
//! acknowledged (`synchronous=NORMAL` survives a process crash; a power
//! failure may lose the last transactions, `--fsync` makes it FULL).

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{params, Connection, OptionalExtension};

/// The schema, one step per version (`PRAGMA user_version` counts the
/// steps applied): a database written by an older server is brought up to
/// date when opened, and a step is never edited once released.
pub const MIGRATIONS: &[&str] = &[
    // 1: matches and their actions.
    "CREATE TABLE IF NOT EXISTS matches (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         spec TEXT NOT NULL,
         seed INTEGER NOT NULL,
         seat0 TEXT NOT NULL,
         seat1 TEXT NOT NULL,
         token0 TEXT,
         token1 TEXT,
         forfeit_seat INTEGER,
         forfeit_reason TEXT
     );
     CREATE TABLE IF NOT EXISTS actions (
         match_id INTEGER NOT NULL REFERENCES matches(id),
         step INTEGER NOT NULL,
         action INTEGER NOT NULL,
         PRIMARY KEY (match_id, step)
     );",
    // 2: whether a match is over, so that a start replays only the others
    // (records of older servers are 0 until replayed once).
    "ALTER TABLE matches ADD COLUMN finished INTEGER NOT NULL DEFAULT 0;
     CREATE INDEX matches_unfinished ON matches(id) WHERE finished = 0;",
];

/// Applies the steps of [`MIGRATIONS`] the database has not had, each in
/// its own transaction with the version it reaches.
fn migrate(conn: &mut Connection) -> StoreResult<()> {
    let done: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(StoreError::Open)?;
    for (i, step) in MIGRATIONS.iter().enumerate().skip(done.max(0) as usize) {
        let tx = conn.transaction().map_err(StoreError::Open)?;
        tx.execute_batch(step).map_err(StoreError::Open)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)
            .map_err(StoreError::Open)?;
        tx.commit().map_err(StoreError::Open)?;
    }
    Ok(())
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
}

/// The database, one connection behind a lock (callers run it off the
/// async runtime).
pub struct Store {
    conn: Mutex<Connection>,
}

/// Why the database failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database could not be opened or set up.
    #[error("opening the database: {0}")]
    Open(#[source] rusqlite::Error),
    /// A statement failed.
    #[error("{op}: {source}")]
    Query {
        /// What was being done (`appending actions`, ...).
        op: &'static str,
        /// SQLite's error.
        #[source]
        source: rusqlite::Error,
    },
    /// A stored record is not one the server writes.
    #[error("match {id}: {reason}")]
    Corrupt {
        /// The match.
        id: i64,
        /// What is wrong with it.
        reason: Corruption,
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
}

/// A database result.
pub type StoreResult<T> = Result<T, StoreError>;

/// Tags a SQLite error with what was being done.
fn query(op: &'static str) -> impl FnOnce(rusqlite::Error) -> StoreError {
    move |source| StoreError::Query { op, source }
}

impl Store {
    /// Opens (or creates) the database at `path`; `:memory:` for a
    /// throw-away one. `fsync` makes every commit reach the disk. The
    /// schema is brought up to date by [`MIGRATIONS`].
    pub fn open(path: &Path, fsync: bool) -> StoreResult<Store> {
        let mut conn = Connection::open(path).map_err(StoreError::Open)?;
        let sync = if fsync { "FULL" } else { "NORMAL" };
        conn.execute_batch(&format!(
            "PRAGMA journal_mode=WAL;
             PRAGMA synchronous={sync};
             PRAGMA busy_timeout=5000;"
        ))
        .map_err(StoreError::Open)?;
        migrate(&mut conn)?;
        Ok(Store {
            conn: Mutex::new(conn),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a half transaction
        // (SQLite rolls it back), so a poisoned lock is still usable.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Stores a new match with its first actions (the chance events before
    /// the first decision); returns its id.
    pub fn create(
        &self,
        spec: &str,
        seed: u64,
        seats: &[String; 2],
        tokens: &[Option<String>; 2],
        actions: &[usize],
    ) -> StoreResult<i64> {
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(query("creating a match"))?;
        tx.execute(
            "INSERT INTO matches (spec, seed, seat0, seat1, token0, token1) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![spec, seed as i64, seats[0], seats[1], tokens[0], tokens[1]],
        )
        .map_err(query("creating a match"))?;
        let id = tx.last_insert_rowid();
        insert_actions(&tx, id, 0, actions)?;
        tx.commit().map_err(query("creating a match"))?;
        Ok(id)
    }

    /// Appends `actions` at steps `from..`, and marks the match over if
    /// `finished`; refused (and nothing written) if any of those steps is
    /// already stored.
    pub fn append(
        &self,
        id: i64,
        from: usize,
        actions: &[usize],
        finished: bool,
    ) -> StoreResult<()> {
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(query("appending actions"))?;
        insert_actions(&tx, id, from, actions)?;
        if finished {
            mark_finished(&tx, id)?;
        }
        tx.commit().map_err(query("appending actions"))
    }

    /// Marks a match over (a record of an older server, found over when
    /// replayed).
    pub fn finish(&self, id: i64) -> StoreResult<()> {
        mark_finished(&self.lock(), id)
    }

    /// The ids of the matches not marked over, in order.
    pub fn unfinished(&self) -> StoreResult<Vec<i64>> {
        let conn = self.lock();
        let mut stmt = conn
            .prepare("SELECT id FROM matches WHERE finished = 0 ORDER BY id")
            .map_err(query("listing the unfinished matches"))?;
        let ids = stmt
            .query_map([], |r| r.get(0))
            .map_err(query("listing the unfinished matches"))?
            .collect::<Result<_, _>>()
            .map_err(query("listing the unfinished matches"))?;
        Ok(ids)
    }

    /// Whether the database answers (for `/readyz`).
    pub fn ping(&self) -> StoreResult<()> {
        self.lock()
            .query_row("SELECT 1", [], |_| Ok(()))
            .map_err(query("checking the database"))
    }

    /// Records that `seat` forfeited the match (which is then over).
    pub fn forfeit(&self, id: i64, seat: u8, reason: &str) -> StoreResult<()> {
        self.lock()
            .execute(
                "UPDATE matches SET forfeit_seat = ?2, forfeit_reason = ?3, finished = 1 WHERE id = ?1",
                params![id, seat, reason],
            )
            .map(|_| ())
            .map_err(query("recording a forfeit"))
    }

    /// One match, if stored.
    pub fn get(&self, id: i64) -> StoreResult<Option<StoredMatch>> {
        let conn = self.lock();
        let row = conn
            .query_row(
                "SELECT id, spec, seed, seat0, seat1, token0, token1, forfeit_seat, forfeit_reason FROM matches WHERE id = ?1",
                params![id],
                read_match,
            )
            .optional()
            .map_err(query("reading a match"))?;
        match row {
            Some(mut m) => {
                m.actions = actions_of(&conn, id)?;
                Ok(Some(m))
            }
            None => Ok(None),
        }
    }
}

fn read_match(row: &rusqlite::Row<'_>) -> rusqlite::Result<StoredMatch> {
    let forfeit_seat: Option<u8> = row.get(7)?;
    let forfeit_reason: Option<String> = row.get(8)?;
    Ok(StoredMatch {
        id: row.get(0)?,
        spec: row.get(1)?,
        seed: row.get::<_, i64>(2)? as u64,
        seats: [row.get(3)?, row.get(4)?],
        tokens: [row.get(5)?, row.get(6)?],
        actions: Vec::new(),
        forfeit: forfeit_seat.map(|s| (s, forfeit_reason.unwrap_or_default())),
    })
}

fn actions_of(conn: &Connection, id: i64) -> StoreResult<Vec<usize>> {
    let mut stmt = conn
        .prepare_cached("SELECT step, action FROM actions WHERE match_id = ?1 ORDER BY step")
        .map_err(query("reading actions"))?;
    let rows = stmt
        .query_map(params![id], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))
        })
        .map_err(query("reading actions"))?;
    let mut out = Vec::new();
    for (i, row) in rows.enumerate() {
        let (step, action) = row.map_err(query("reading actions"))?;
        if step != i as i64 || action < 0 {
            return Err(StoreError::Corrupt {
                id,
                reason: Corruption::Gap { step: i },
            });
        }
        out.push(action as usize);
    }
    Ok(out)
}

fn mark_finished(conn: &Connection, id: i64) -> StoreResult<()> {
    conn.execute("UPDATE matches SET finished = 1 WHERE id = ?1", params![id])
        .map(|_| ())
        .map_err(query("marking a match over"))
}

fn insert_actions(
    tx: &rusqlite::Transaction<'_>,
    id: i64,
    from: usize,
    actions: &[usize],
) -> StoreResult<()> {
    let mut stmt = tx
        .prepare_cached("INSERT INTO actions (match_id, step, action) VALUES (?1, ?2, ?3)")
        .map_err(query("appending actions"))?;
    for (i, &a) in actions.iter().enumerate() {
        stmt.execute(params![id, (from + i) as i64, a as i64])
            .map_err(query("appending actions"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_and_actions_round_trip_and_steps_are_never_overwritten() {
        let store = Store::open(Path::new(":memory:"), false).unwrap();
        let seats = ["human".to_owned(), "bot:random".to_owned()];
        let tokens = [Some("ab".repeat(16)), None];
        let id = store
            .create("kuhn", u64::MAX, &seats, &tokens, &[2, 1])
            .unwrap();
        store.append(id, 2, &[0], false).unwrap();
        assert_eq!(store.unfinished().unwrap(), vec![id]);
        assert!(
            matches!(
                store.append(id, 1, &[5], true),
                Err(StoreError::Query {
                    op: "appending actions",
                    ..
                })
            ),
            "step 1 is taken"
        );
        store.forfeit(id, 1, "timeout").unwrap();
        assert_eq!(
            store.unfinished().unwrap(),
            Vec::<i64>::new(),
            "a forfeit ends it"
        );
        let m = store.get(id).unwrap().unwrap();
        assert_eq!(m.seed, u64::MAX);
        assert_eq!(m.actions, vec![2, 1, 0]);
        assert_eq!(m.tokens, tokens);
        assert_eq!(m.forfeit, Some((1, "timeout".to_owned())));
        assert_eq!(store.get(id + 1).unwrap(), None);
    }

    /// A database of the first schema (an older server's, without the
    /// finished mark) opens, gains the mark, and keeps its records.
    #[test]
    fn an_older_database_is_migrated_when_opened() {
        let dir = std::env::temp_dir().join(format!("tabletop-migrate-{}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        {
            let conn = Connection::open(&dir).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.execute(
                "INSERT INTO matches (spec, seed, seat0, seat1) VALUES ('kuhn', 3, 'human', 'human')",
                [],
            )
            .unwrap();
        }
        let store = Store::open(&dir, false).unwrap();
        let version: i64 = store
            .lock()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, MIGRATIONS.len() as i64);
        assert_eq!(store.unfinished().unwrap(), vec![1]);
        store.finish(1).unwrap();
        assert_eq!(store.unfinished().unwrap(), Vec::<i64>::new());
        assert_eq!(store.get(1).unwrap().unwrap().seed, 3);
        drop(store);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", dir.display()));
        }
    }

    #[test]
    fn a_gap_in_the_stored_actions_is_a_corrupt_record() {
        let store = Store::open(Path::new(":memory:"), false).unwrap();
        let seats = ["human".to_owned(), "human".to_owned()];
        let id = store
            .create("kuhn", 1, &seats, &[None, None], &[2, 1])
            .unwrap();
        store
            .lock()
            .execute("DELETE FROM actions WHERE step = 0", [])
            .unwrap();
        match store.get(id) {
            Err(StoreError::Corrupt { id: at, reason }) => {
                assert_eq!(at, id);
                assert_eq!(reason, Corruption::Gap { step: 0 });
            }
            other => panic!("expected a corrupt record, got {other:?}"),
        }
    }
}
