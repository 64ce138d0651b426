//! The PostgreSQL backend, for several server processes on one database:
//! rust-postgres' blocking client on the server's blocking threads, like
//! SQLite. Besides the records it gives [`Shared`]: a process holds a
//! match through an advisory lock of its claim session (released by a
//! process that dies, with its connection), finds the bot turns that no
//! process plays, and hears through `LISTEN/NOTIFY` which matches others
//! changed. Every append notifies in its transaction, so the notice is
//! sent only once the actions are committed.

use std::path::Path;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, Transaction};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use super::pg_tls::Database;
use super::{
    checked_actions, forfeit_of, kept_of, opening, query, sealed_text, seat_column, sql, Change,
    Dialect, FinalViews, Kept, LobbyState, Progress, Records, StoreResult, StoredMatch, Tail,
    MIGRATIONS,
};

/// The channel of the change notices; the payload is `ID VERSION`.
const CHANNEL: &str = "tabletop_changes";
/// The advisory lock key under which processes migrate one at a time
/// (match ids, the other keys, are positive).
const MIGRATION_LOCK: i64 = -1;
/// Connections a process opens for statements at most.
const POOL_SIZE: usize = 16;

/// Runs `f` on a thread of its own: the blocking client runs (and drops)
/// a runtime of its own, which tokio forbids on an async worker thread.
fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| match s.spawn(f).join() {
        Ok(v) => v,
        Err(panic) => std::panic::resume_unwind(panic),
    })
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every critical section below leaves the data whole.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Brings the schema up to `steps` steps of [`MIGRATIONS`] (all of them
/// when a server connects; fewer only to make an older server's database
/// in a test), in one transaction under an advisory lock, so that
/// processes starting together migrate once. The `schema_version` table
/// counts the steps applied.
pub fn migrate_postgres(client: &mut Client, steps: usize) -> StoreResult<()> {
    let mut tx = client.transaction().map_err(opening)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .map_err(opening)?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        .map_err(opening)?;
    let done = match tx
        .query_opt("SELECT version FROM schema_version", &[])
        .map_err(opening)?
    {
        Some(row) => row.get::<_, i64>(0).max(0) as usize,
        None => {
            tx.execute("INSERT INTO schema_version (version) VALUES (0)", &[])
                .map_err(opening)?;
            0
        }
    };
    for step in MIGRATIONS.iter().take(steps).skip(done) {
        tx.batch_execute(&Dialect::Postgres.render(step))
            .map_err(opening)?;
    }
    let version = done.max(steps.min(MIGRATIONS.len())) as i64;
    tx.execute("UPDATE schema_version SET version = $1", &[&version])
        .map_err(opening)?;
    tx.commit().map_err(opening)
}

/// Seals the seat tokens and player keys that a server from before seals
/// stored as given, in one transaction. Processes starting together may
/// both seal a row: each writes the same seal.
fn seal_plain_secrets(client: &mut Client) -> StoreResult<()> {
    let mut tx = client.transaction().map_err(opening)?;
    for row in tx.query(sql::PLAIN_TOKENS, &[]).map_err(opening)? {
        let (id, t0, t1): (i64, Option<String>, Option<String>) =
            (row.get(0), row.get(1), row.get(2));
        tx.execute(sql::SEAL_TOKENS, &[&sealed_text(t0), &sealed_text(t1), &id])
            .map_err(opening)?;
    }
    for row in tx.query(sql::PLAIN_KEYS, &[]).map_err(opening)? {
        let (id, key): (i64, Option<String>) = (row.get(0), row.get(1));
        tx.execute(sql::SEAL_KEY, &[&sealed_text(key), &id])
            .map_err(opening)?;
    }
    tx.commit().map_err(opening)
}

/// Connects to `url`, migrates, and returns the records and what the
/// processes share.
pub(super) fn connect(url: &str, ca: Option<&Path>) -> StoreResult<(Postgres, Shared)> {
    let db = Arc::new(Database::new(url, ca).map_err(opening)?);
    off_runtime(move || {
        let mut first = db.connect().map_err(opening)?;
        migrate_postgres(&mut first, MIGRATIONS.len())?;
        seal_plain_secrets(&mut first)?;
        let claims = db.connect().map_err(opening)?;
        let pool = Arc::new(Pool {
            db: db.clone(),
            state: Mutex::new(PoolState {
                idle: vec![first],
                open: 1,
            }),
            freed: Condvar::new(),
        });
        let shared = Shared {
            db,
            claims: Mutex::new(Some(claims)),
            pool: pool.clone(),
            listening: Mutex::new(false),
        };
        Ok((Postgres { pool }, shared))
    })
}

/// At most [`POOL_SIZE`] connections, reused.
pub(super) struct Pool {
    db: Arc<Database>,
    state: Mutex<PoolState>,
    freed: Condvar,
}

struct PoolState {
    idle: Vec<Client>,
    open: usize,
}

impl Pool {
    /// Runs `f` on a connection of the pool; `op` names it in the error.
    pub(super) fn run<T>(
        &self,
        op: &'static str,
        f: impl FnOnce(&mut Client) -> Result<T, postgres::Error>,
    ) -> StoreResult<T> {
        let mut client = self.take().map_err(query(op))?;
        let result = f(&mut client);
        let mut state = lock(&self.state);
        if client.is_closed() {
            state.open -= 1;
            drop(state);
            drop(client);
        } else {
            state.idle.push(client);
            drop(state);
        }
        self.freed.notify_one();
        result.map_err(query(op))
    }

    fn take(&self) -> Result<Client, postgres::Error> {
        let mut state = lock(&self.state);
        loop {
            if let Some(client) = state.idle.pop() {
                return Ok(client);
            }
            if state.open < POOL_SIZE {
                state.open += 1;
                drop(state);
                return self.db.connect().inspect_err(|_| {
                    lock(&self.state).open -= 1;
                    self.freed.notify_one();
                });
            }
            state = self.freed.wait(state).unwrap_or_else(|p| p.into_inner());
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        let idle = std::mem::take(&mut lock(&self.state).idle);
        off_runtime(move || drop(idle));
    }
}

/// The records in PostgreSQL.
pub struct Postgres {
    pub(super) pool: Arc<Pool>,
}

/// Tells the other processes that match `id` is at `version` (its
/// actions, plus one if forfeited), once `tx` commits.
fn notify(tx: &mut Transaction<'_>, id: i64, version: u64) -> Result<(), postgres::Error> {
    tx.execute(
        "SELECT pg_notify($1, $2)",
        &[&CHANNEL, &format!("{id} {version}")],
    )
    .map(|_| ())
}

/// Tells the other processes that the lobby of match `id` changed (a
/// seat opened, taken or closed, a rematch made, a draw offered or
/// declined), once `tx` commits: the
/// highest version, which every copy is below, so each brings it up to
/// date.
pub(super) fn notify_lobby(tx: &mut Transaction<'_>, id: i64) -> Result<(), postgres::Error> {
    notify(tx, id, u64::MAX)
}

fn insert_actions(
    tx: &mut Transaction<'_>,
    id: i64,
    from: usize,
    actions: &[usize],
) -> Result<(), postgres::Error> {
    let insert = tx.prepare(sql::INSERT_ACTION)?;
    for (i, &a) in actions.iter().enumerate() {
        tx.execute(&insert, &[&id, &((from + i) as i64), &(a as i64)])?;
    }
    Ok(())
}

impl Records for Postgres {
    fn create(
        &self,
        spec: &str,
        seed: u64,
        seats: &[String; 2],
        tokens: &[Option<String>; 2],
        actions: &[usize],
        progress: Progress,
        clock: Option<&str>,
    ) -> StoreResult<i64> {
        let (finished, bot_due) = progress.columns();
        self.pool.run("creating a match", |c| {
            let mut tx = c.transaction()?;
            let row = tx.query_one(
                sql::CREATE,
                &[
                    &spec,
                    &(seed as i64),
                    &seats[0],
                    &seats[1],
                    &tokens[0],
                    &tokens[1],
                    &finished,
                    &bot_due,
                    &clock,
                ],
            )?;
            let id: i64 = row.get(0);
            insert_actions(&mut tx, id, 0, actions)?;
            tx.commit()?;
            Ok(id)
        })
    }

    fn append(
        &self,
        id: i64,
        from: usize,
        actions: &[usize],
        progress: Progress,
        clock: Option<&str>,
        offer: Option<u8>,
    ) -> StoreResult<()> {
        let (finished, bot_due) = progress.columns();
        let offer = offer.map(i64::from);
        self.pool.run("appending actions", |c| {
            let mut tx = c.transaction()?;
            insert_actions(&mut tx, id, from, actions)?;
            tx.execute(sql::PROGRESS, &[&finished, &bot_due, &clock, &offer, &id])?;
            notify(&mut tx, id, (from + actions.len()) as u64)?;
            tx.commit()
        })
    }

    fn offer_draw(&self, id: i64, seat: Option<u8>) -> StoreResult<()> {
        let seat = seat.map(i64::from);
        self.pool.run("recording a draw offer", |c| {
            let mut tx = c.transaction()?;
            tx.execute(sql::OFFER, &[&seat, &id])?;
            notify_lobby(&mut tx, id)?;
            tx.commit()
        })
    }

    fn set_clock(&self, id: i64, clock: Option<&str>) -> StoreResult<()> {
        self.pool
            .run("writing the clocks", |c| {
                c.execute(sql::CLOCK, &[&clock, &id])
            })
            .map(|_| ())
    }

    fn agree_draw(&self, id: i64) -> StoreResult<()> {
        self.pool.run("recording an agreed draw", |c| {
            let mut tx = c.transaction()?;
            tx.execute(sql::DRAW, &[&id])?;
            let steps: i64 = tx
                .query_one("SELECT count(*) FROM actions WHERE match_id = $1", &[&id])?
                .get(0);
            notify(&mut tx, id, steps.max(0) as u64 + 1)?;
            tx.commit()
        })
    }

    fn finish(&self, id: i64) -> StoreResult<()> {
        self.pool
            .run("marking a match over", |c| c.execute(sql::FINISH, &[&id]))
            .map(|_| ())
    }

    fn expire(&self, now_ms: i64, cut_ms: i64) -> StoreResult<Vec<i64>> {
        self.pool.run("deleting expired matches", |c| {
            let mut tx = c.transaction()?;
            tx.execute(sql::STAMP_FINISHED, &[&now_ms])?;
            let ids: Vec<i64> = tx
                .query(sql::EXPIRED, &[&cut_ms])?
                .iter()
                .map(|r| r.get(0))
                .collect();
            for id in &ids {
                tx.execute(sql::DELETE_ACTIONS, &[id])?;
                tx.execute(sql::DELETE_VIEWS, &[id])?;
                for delete in super::lobby::DELETE_OF {
                    tx.execute(delete, &[id])?;
                }
                tx.execute(sql::DELETE_MATCH, &[id])?;
            }
            tx.commit()?;
            Ok(ids)
        })
    }

    fn unfinished(&self) -> StoreResult<Vec<i64>> {
        self.pool
            .run("listing the unfinished matches", |c| {
                c.query(sql::UNFINISHED, &[])
            })
            .map(|rows| rows.iter().map(|r| r.get(0)).collect())
    }

    fn ping(&self) -> StoreResult<()> {
        self.pool
            .run("checking the database", |c| c.batch_execute("SELECT 1"))
    }

    fn forfeit(&self, id: i64, seat: u8, reason: &str) -> StoreResult<()> {
        self.pool.run("recording a forfeit", |c| {
            let mut tx = c.transaction()?;
            tx.execute(sql::FORFEIT, &[&i64::from(seat), &reason, &id])?;
            let steps: i64 = tx
                .query_one("SELECT count(*) FROM actions WHERE match_id = $1", &[&id])?
                .get(0);
            notify(&mut tx, id, steps.max(0) as u64 + 1)?;
            tx.commit()
        })
    }

    fn get(&self, id: i64) -> StoreResult<Option<StoredMatch>> {
        let found = self.pool.run("reading a match", |c| {
            let Some(row) = c.query_opt(sql::MATCH, &[&id])? else {
                return Ok(None);
            };
            Ok(Some((row, c.query(sql::ACTIONS, &[&id, &0_i64])?)))
        })?;
        let Some((r, actions)) = found else {
            return Ok(None);
        };
        Ok(Some(StoredMatch {
            id: r.get(0),
            spec: r.get(1),
            seed: r.get::<_, i64>(2) as u64,
            seats: [r.get(3), r.get(4)],
            tokens: [r.get(5), r.get(6)],
            forfeit: forfeit_of(id, r.get(7), r.get(8))?,
            clock: r.get(9),
            agreed_draw: r.get::<_, i64>(10) != 0,
            lobby: LobbyState::of(r.get(11), r.get(12)),
            draw_offer: seat_column(r.get(13)),
            actions: checked_actions(id, 0, actions.iter().map(|r| (r.get(0), r.get(1))))?,
        }))
    }

    fn tail(&self, id: i64, from: usize) -> StoreResult<Tail> {
        let (forfeit, actions) = self.pool.run("reading actions", |c| {
            let forfeit = c.query_opt(sql::FORFEIT_OF, &[&id])?;
            Ok((forfeit, c.query(sql::ACTIONS, &[&id, &(from as i64)])?))
        })?;
        Ok(Tail {
            actions: checked_actions(id, from, actions.iter().map(|r| (r.get(0), r.get(1))))?,
            forfeit: match &forfeit {
                Some(r) => forfeit_of(id, r.get(0), r.get(1))?,
                None => None,
            },
            clock: forfeit.as_ref().and_then(|r| r.get(2)),
            agreed_draw: forfeit.as_ref().is_some_and(|r| r.get::<_, i64>(3) != 0),
            tokens: forfeit
                .as_ref()
                .map_or([None, None], |r| [r.get(4), r.get(5)]),
            lobby: forfeit
                .as_ref()
                .map_or_else(LobbyState::default, |r| LobbyState::of(r.get(6), r.get(7))),
            draw_offer: forfeit.as_ref().and_then(|r| seat_column(r.get(8))),
        })
    }

    fn kept(&self, id: i64) -> StoreResult<Option<Kept>> {
        let row = self
            .pool
            .run("reading a match", |c| c.query_opt(sql::KEPT, &[&id]))?;
        Ok(row.map(|r| {
            kept_of((
                r.get(0),
                r.get(1),
                r.get(2),
                r.get(3),
                r.get(4),
                r.get(5),
                r.get(6),
                r.get(7),
            ))
        }))
    }

    fn keep_views(&self, id: i64, views: &FinalViews) -> StoreResult<()> {
        let [seat0, seat1] = &views.seats;
        self.pool.run("storing a match's final views", |c| {
            c.execute(sql::KEEP_VIEWS, &[&id, &views.spectator, seat0, seat1])
                .map(|_| ())
        })
    }
}

/// What the processes on one PostgreSQL database share.
pub struct Shared {
    db: Arc<Database>,
    /// The session whose advisory locks are this process's claims: if
    /// the process dies, the connection closes and the claims go with it.
    claims: Mutex<Option<Client>>,
    pool: Arc<Pool>,
    /// Whether [`Shared::changes`] started the listener.
    listening: Mutex<bool>,
}

impl Shared {
    /// Runs `sql` (one boolean or no column) on the claim session,
    /// connecting it again if it was lost: the claims it held are then
    /// void, and the actions' primary key still refuses a second step N.
    fn on_claims(&self, op: &'static str, sql: &str, id: i64) -> StoreResult<bool> {
        let mut session = lock(&self.claims);
        if session.as_ref().is_none_or(Client::is_closed) {
            *session = Some(self.db.connect().map_err(query(op))?);
        }
        let Some(client) = session.as_mut() else {
            return Ok(false);
        };
        let row = client.query_one(sql, &[&id]).map_err(query(op))?;
        Ok(row.get::<_, Option<bool>>(0).unwrap_or(false))
    }

    /// Claims match `id` for this process if no other holds it; whether
    /// it did. A process may claim a match it holds again (each claim is
    /// then released once).
    pub fn claim(&self, id: i64) -> StoreResult<bool> {
        self.on_claims("claiming a match", "SELECT pg_try_advisory_lock($1)", id)
    }

    /// Releases one claim of match `id`.
    pub fn release(&self, id: i64) -> StoreResult<()> {
        self.on_claims("releasing a match", "SELECT pg_advisory_unlock($1)", id)
            .map(|_| ())
    }

    /// The unfinished matches where a bot is to decide.
    pub fn bots_due(&self) -> StoreResult<Vec<i64>> {
        self.pool
            .run("listing the bot turns due", |c| c.query(sql::BOTS_DUE, &[]))
            .map(|rows| rows.iter().map(|r| r.get(0)).collect())
    }

    /// The changes every process (this one included) commits from now
    /// on, heard on a connection of their own; `None` after the first
    /// call.
    pub fn changes(&self) -> Option<UnboundedReceiver<Change>> {
        let mut listening = lock(&self.listening);
        if *listening {
            return None;
        }
        *listening = true;
        let (tx, rx) = unbounded_channel();
        let db = self.db.clone();
        // Listening before this returns: no change committed after it is
        // missed (a failure here is retried by the listener, which then
        // reports the gap as `Missed`).
        let first = off_runtime(|| subscribe(&db));
        std::thread::Builder::new()
            .name("tabletop-listen".into())
            .spawn(move || listen(&db, first, &tx))
            .ok()?;
        Some(rx)
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        let session = lock(&self.claims).take();
        off_runtime(move || drop(session));
    }
}

/// A connection listening for the change notices.
fn subscribe(db: &Database) -> Result<Client, postgres::Error> {
    let mut client = db.connect()?;
    client.batch_execute(&format!("LISTEN {CHANNEL}"))?;
    Ok(client)
}

/// Hears the change notices on `first`, then until the receiver is
/// dropped on a new connection (after a second) whenever one is lost.
fn listen(db: &Database, first: Result<Client, postgres::Error>, tx: &UnboundedSender<Change>) {
    let mut connection = first;
    while !tx.is_closed() {
        let mut client = match connection {
            Ok(c) => c,
            Err(e) => {
                tracing::warn!(error = %e, "listening for changes: cannot connect");
                std::thread::sleep(Duration::from_secs(1));
                connection = subscribe(db);
                if connection.is_ok() && tx.send(Change::Missed).is_err() {
                    return;
                }
                continue;
            }
        };
        'heard: while !tx.is_closed() && !client.is_closed() {
            let mut notices = client.notifications();
            let mut heard = notices.timeout_iter(Duration::from_millis(500));
            loop {
                match heard.next() {
                    Ok(Some(n)) => {
                        if let Some(change) = parse(n.payload()) {
                            if tx.send(change).is_err() {
                                return;
                            }
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        tracing::warn!(error = %e, "listening for changes: connection lost");
                        break 'heard;
                    }
                }
            }
        }
        connection = subscribe(db);
        if connection.is_ok() && tx.send(Change::Missed).is_err() {
            return;
        }
    }
}

/// A notice's payload, `ID VERSION`.
fn parse(payload: &str) -> Option<Change> {
    let (id, version) = payload.split_once(' ')?;
    Some(Change::Match {
        id: id.parse().ok()?,
        version: version.parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_notice_is_an_id_and_a_version() {
        assert_eq!(
            parse("12 40"),
            Some(Change::Match {
                id: 12,
                version: 40
            })
        );
        assert_eq!(parse("12"), None);
        assert_eq!(parse("x 1"), None);
    }
}
