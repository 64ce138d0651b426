//! The SQLite backend (compiled in): one process, one connection behind
//! a lock, in WAL mode. `synchronous=NORMAL` survives a process crash; a
//! power failure may lose the last transactions, `--fsync` makes it FULL.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{params, Connection, OptionalExtension};

use super::{
    checked_actions, forfeit_of, kept_of, opening, query, sealed_text, seat_column, sql, Dialect,
    FinalViews, Kept, LobbyState, Progress, Records, StoreResult, StoredMatch, Tail, MIGRATIONS,
};

/// Applies the steps of [`MIGRATIONS`] the database has not had, each in
/// its own transaction with the version it reaches (`PRAGMA
/// user_version`).
fn migrate(conn: &mut Connection) -> StoreResult<()> {
    let done: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(opening)?;
    for (i, step) in MIGRATIONS.iter().enumerate().skip(done.max(0) as usize) {
        let tx = conn.transaction().map_err(opening)?;
        tx.execute_batch(&Dialect::Sqlite.render(step))
            .map_err(opening)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)
            .map_err(opening)?;
        tx.commit().map_err(opening)?;
    }
    Ok(())
}

/// Seals the seat tokens and player keys that a server from before seals
/// stored as given, in one transaction.
fn seal_plain_secrets(conn: &mut Connection) -> StoreResult<()> {
    let tx = conn.transaction().map_err(opening)?;
    let tokens: Vec<(i64, Option<String>, Option<String>)> = tx
        .prepare(sql::PLAIN_TOKENS)
        .and_then(|mut q| {
            q.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect()
        })
        .map_err(opening)?;
    for (id, t0, t1) in tokens {
        tx.execute(
            sql::SEAL_TOKENS,
            params![sealed_text(t0), sealed_text(t1), id],
        )
        .map_err(opening)?;
    }
    let keys: Vec<(i64, Option<String>)> = tx
        .prepare(sql::PLAIN_KEYS)
        .and_then(|mut q| q.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect())
        .map_err(opening)?;
    for (id, key) in keys {
        tx.execute(sql::SEAL_KEY, params![sealed_text(key), id])
            .map_err(opening)?;
    }
    tx.commit().map_err(opening)
}

/// The SQLite database, one connection behind a lock.
pub struct Sqlite {
    conn: Mutex<Connection>,
}

impl Sqlite {
    /// Opens (or creates) the database at `path` and migrates it.
    pub fn open(path: &Path, fsync: bool) -> StoreResult<Sqlite> {
        let mut conn = Connection::open(path).map_err(opening)?;
        let sync = if fsync { "FULL" } else { "NORMAL" };
        conn.execute_batch(&format!(
            "PRAGMA journal_mode=WAL;
             PRAGMA synchronous={sync};
             PRAGMA busy_timeout=5000;"
        ))
        .map_err(opening)?;
        migrate(&mut conn)?;
        seal_plain_secrets(&mut conn)?;
        Ok(Sqlite {
            conn: Mutex::new(conn),
        })
    }

    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a half transaction
        // (SQLite rolls it back), so a poisoned lock is still usable.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Records for Sqlite {
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
        let op = "creating a match";
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(query(op))?;
        let (finished, bot_due) = progress.columns();
        let id: i64 = tx
            .query_row(
                sql::CREATE,
                params![
                    spec,
                    seed as i64,
                    seats[0],
                    seats[1],
                    tokens[0],
                    tokens[1],
                    finished,
                    bot_due,
                    clock
                ],
                |r| r.get(0),
            )
            .map_err(query(op))?;
        insert_actions(&tx, id, 0, actions)?;
        tx.commit().map_err(query(op))?;
        Ok(id)
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
        let op = "appending actions";
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(query(op))?;
        insert_actions(&tx, id, from, actions)?;
        let (finished, bot_due) = progress.columns();
        tx.execute(
            sql::PROGRESS,
            params![finished, bot_due, clock, offer.map(i64::from), id],
        )
        .map_err(query(op))?;
        tx.commit().map_err(query(op))
    }

    fn offer_draw(&self, id: i64, seat: Option<u8>) -> StoreResult<()> {
        self.lock()
            .execute(sql::OFFER, params![seat.map(i64::from), id])
            .map(|_| ())
            .map_err(query("recording a draw offer"))
    }

    fn set_clock(&self, id: i64, clock: Option<&str>) -> StoreResult<()> {
        self.lock()
            .execute(sql::CLOCK, params![clock, id])
            .map(|_| ())
            .map_err(query("writing the clocks"))
    }

    fn agree_draw(&self, id: i64) -> StoreResult<()> {
        self.lock()
            .execute(sql::DRAW, params![id])
            .map(|_| ())
            .map_err(query("recording an agreed draw"))
    }

    fn finish(&self, id: i64) -> StoreResult<()> {
        self.lock()
            .execute(sql::FINISH, params![id])
            .map(|_| ())
            .map_err(query("marking a match over"))
    }

    fn expire(&self, now_ms: i64, cut_ms: i64) -> StoreResult<Vec<i64>> {
        let op = "deleting expired matches";
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(query(op))?;
        tx.execute(sql::STAMP_FINISHED, params![now_ms])
            .map_err(query(op))?;
        let ids: Vec<i64> = tx
            .prepare(sql::EXPIRED)
            .and_then(|mut q| q.query_map(params![cut_ms], |r| r.get(0))?.collect())
            .map_err(query(op))?;
        for id in &ids {
            tx.execute(sql::DELETE_ACTIONS, params![id])
                .map_err(query(op))?;
            tx.execute(sql::DELETE_VIEWS, params![id])
                .map_err(query(op))?;
            for delete in super::lobby::DELETE_OF {
                tx.execute(delete, params![id]).map_err(query(op))?;
            }
            tx.execute(sql::DELETE_MATCH, params![id])
                .map_err(query(op))?;
        }
        tx.commit().map_err(query(op))?;
        Ok(ids)
    }

    fn unfinished(&self) -> StoreResult<Vec<i64>> {
        let op = "listing the unfinished matches";
        let conn = self.lock();
        let mut stmt = conn.prepare(sql::UNFINISHED).map_err(query(op))?;
        let ids = stmt
            .query_map([], |r| r.get(0))
            .map_err(query(op))?
            .collect::<Result<_, _>>()
            .map_err(query(op))?;
        Ok(ids)
    }

    fn ping(&self) -> StoreResult<()> {
        self.lock()
            .query_row("SELECT 1", [], |_| Ok(()))
            .map_err(query("checking the database"))
    }

    fn forfeit(&self, id: i64, seat: u8, reason: &str) -> StoreResult<()> {
        self.lock()
            .execute(sql::FORFEIT, params![i64::from(seat), reason, id])
            .map(|_| ())
            .map_err(query("recording a forfeit"))
    }

    fn get(&self, id: i64) -> StoreResult<Option<StoredMatch>> {
        let op = "reading a match";
        let conn = self.lock();
        let row = conn
            .query_row(sql::MATCH, params![id], |r| {
                Ok((
                    StoredMatch {
                        id: r.get(0)?,
                        spec: r.get(1)?,
                        seed: r.get::<_, i64>(2)? as u64,
                        seats: [r.get(3)?, r.get(4)?],
                        tokens: [r.get(5)?, r.get(6)?],
                        actions: Vec::new(),
                        forfeit: None,
                        clock: r.get(9)?,
                        agreed_draw: r.get::<_, i64>(10)? != 0,
                        lobby: LobbyState::of(r.get(11)?, r.get(12)?),
                        draw_offer: seat_column(r.get(13)?),
                    },
                    r.get::<_, Option<i64>>(7)?,
                    r.get::<_, Option<String>>(8)?,
                ))
            })
            .optional()
            .map_err(query(op))?;
        let Some((mut m, seat, reason)) = row else {
            return Ok(None);
        };
        m.forfeit = forfeit_of(id, seat, reason)?;
        m.actions = actions_of(&conn, id, 0)?;
        Ok(Some(m))
    }

    fn tail(&self, id: i64, from: usize) -> StoreResult<Tail> {
        let conn = self.lock();
        let row = conn
            .query_row(sql::FORFEIT_OF, params![id], |r| {
                Ok((
                    (r.get::<_, Option<i64>>(0)?, r.get::<_, Option<String>>(1)?),
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, i64>(3)? != 0,
                    [r.get(4)?, r.get(5)?],
                    LobbyState::of(r.get(6)?, r.get(7)?),
                    seat_column(r.get(8)?),
                ))
            })
            .optional()
            .map_err(query("reading a forfeit"))?;
        let Some(((seat, reason), clock, agreed_draw, tokens, lobby, draw_offer)) = row else {
            return Ok(Tail {
                actions: actions_of(&conn, id, from)?,
                ..Tail::default()
            });
        };
        Ok(Tail {
            actions: actions_of(&conn, id, from)?,
            forfeit: forfeit_of(id, seat, reason)?,
            clock,
            agreed_draw,
            tokens,
            lobby,
            draw_offer,
        })
    }

    fn kept(&self, id: i64) -> StoreResult<Option<Kept>> {
        self.lock()
            .prepare_cached(sql::KEPT)
            .and_then(|mut q| {
                q.query_row(params![id], |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                        r.get(7)?,
                    ))
                })
                .optional()
            })
            .map(|row| row.map(kept_of))
            .map_err(query("reading a match"))
    }

    fn keep_views(&self, id: i64, views: &FinalViews) -> StoreResult<()> {
        let [seat0, seat1] = &views.seats;
        self.lock()
            .execute(sql::KEEP_VIEWS, params![id, views.spectator, seat0, seat1])
            .map(|_| ())
            .map_err(query("storing a match's final views"))
    }
}

fn actions_of(conn: &Connection, id: i64, from: usize) -> StoreResult<Vec<usize>> {
    let op = "reading actions";
    let mut stmt = conn.prepare_cached(sql::ACTIONS).map_err(query(op))?;
    let rows = stmt
        .query_map(params![id, from as i64], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))
        })
        .map_err(query(op))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(query(op))?;
    checked_actions(id, from, rows)
}

fn insert_actions(
    tx: &rusqlite::Transaction<'_>,
    id: i64,
    from: usize,
    actions: &[usize],
) -> StoreResult<()> {
    let op = "appending actions";
    let mut stmt = tx.prepare_cached(sql::INSERT_ACTION).map_err(query(op))?;
    for (i, &a) in actions.iter().enumerate() {
        stmt.execute(params![id, (from + i) as i64, a as i64])
            .map_err(query(op))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{Corruption, Store, StoreError};
    use super::*;

    #[test]
    fn matches_and_actions_round_trip_and_steps_are_never_overwritten() {
        let store = Store::open(Path::new(":memory:"), false).unwrap();
        let seats = ["human".to_owned(), "bot:random".to_owned()];
        let tokens = [Some("ab".repeat(16)), None];
        let id = store
            .create(
                "kuhn",
                u64::MAX,
                &seats,
                &tokens,
                &[2, 1],
                Progress::PersonDue,
                None,
            )
            .unwrap();
        store
            .append(id, 2, &[0], Progress::BotDue, None, None)
            .unwrap();
        assert_eq!(store.unfinished().unwrap(), vec![id]);
        assert!(
            matches!(
                store.append(id, 1, &[5], Progress::Over, None, None),
                Err(StoreError::Query {
                    op: "appending actions",
                    ..
                })
            ),
            "step 1 is taken"
        );
        assert_eq!(store.tail(id, 1).unwrap().actions, vec![1, 0]);
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
        assert_eq!(
            store.tail(id, 3).unwrap(),
            Tail {
                actions: vec![],
                forfeit: Some((1, "timeout".to_owned())),
                clock: None,
                agreed_draw: false,
                tokens: tokens.clone(),
                lobby: LobbyState::default(),
                draw_offer: None,
            }
        );
        assert_eq!(store.get(id + 1).unwrap(), None);
    }

    /// A database of the first schema (an older server's, without the
    /// finished and bot marks) opens, gains them, and keeps its records.
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
        let store = Sqlite::open(&dir, false).unwrap();
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

    /// A server from before Battle Line's presets were snake_case stored
    /// their kebab-case names: the next start rewrites its matches' and
    /// ratings' specifications, so the leaderboard of
    /// `battleline(variant=troops_only)` keeps the ratings.
    #[test]
    fn kebab_case_preset_names_an_older_server_stored_are_rewritten_when_opened() {
        use crate::store::Players;
        let dir = std::env::temp_dir().join(format!("tabletop-presets-{}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        {
            let conn = Connection::open(&dir).unwrap();
            for step in &MIGRATIONS[..6] {
                conn.execute_batch(step).unwrap();
            }
            conn.pragma_update(None, "user_version", 6).unwrap();
            conn.execute_batch(
                "INSERT INTO matches (spec, seed, seat0, seat1) VALUES
                     ('battleline(variant=troops-only,first_player=1)', 3, 'human', 'human'),
                     ('battleline(variant=unseen-wilds)', 4, 'human', 'human'),
                     ('stratego(variant=classic_gravon)', 5, 'human', 'human');
                 INSERT INTO players (name, folded, kind) VALUES ('Ann', 'ann', 'person');
                 INSERT INTO ratings (player_id, spec, rating, rd, volatility, games)
                     VALUES (1, 'battleline(variant=troops-only)', 1600, 80, 0.06, 3);",
            )
            .unwrap();
        }
        let store = Sqlite::open(&dir, false).unwrap();
        let spec = |id| store.get(id).unwrap().unwrap().spec;
        assert_eq!(spec(1), "battleline(variant=troops_only,first_player=1)");
        assert_eq!(spec(2), "battleline(variant=unseen_wilds)");
        assert_eq!(spec(3), "stratego(variant=classic_gravon)");
        let board = store
            .leaderboard("battleline(variant=troops_only)", 10)
            .unwrap();
        assert_eq!(board.len(), 1);
        assert_eq!((board[0].name.as_str(), board[0].games), ("Ann", 3));
        drop(store);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", dir.display()));
        }
    }

    /// A server from before seals stored seat tokens and player keys as
    /// given: the next start keeps only their seals, which the tokens and
    /// keys still open.
    #[test]
    fn secrets_an_older_server_stored_as_given_are_sealed_when_opened() {
        use crate::store::Players;
        use crate::token::{Seal, Token};
        let dir = std::env::temp_dir().join(format!("tabletop-seal-{}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        let (token, key) = (Token::new().unwrap(), Token::new().unwrap());
        {
            let mut conn = Connection::open(&dir).unwrap();
            migrate(&mut conn).unwrap();
            conn.execute(
                "INSERT INTO matches (spec, seed, seat0, seat1, token0) VALUES ('kuhn', 3, 'human', 'bot:random', ?1)",
                [token.to_string()],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO players (name, folded, kind, key) VALUES ('Ann', 'ann', 'person', ?1)",
                [key.to_string()],
            )
            .unwrap();
        }
        let store = Sqlite::open(&dir, false).unwrap();
        let m = store.get(1).unwrap().unwrap();
        let stored = m.tokens[0].clone().unwrap();
        assert_eq!(stored.len(), 64);
        assert!(Seal::parse(&stored).unwrap().opens(&token));
        assert_eq!(m.tokens[1], None);
        let stored_key: String = store
            .lock()
            .query_row("SELECT key FROM players", [], |r| r.get(0))
            .unwrap();
        assert_eq!(stored_key, key.seal().to_string());
        let ann = store.player_by_key(&key.seal().to_string()).unwrap();
        assert_eq!(ann.map(|p| p.name), Some("Ann".to_owned()));
        assert_eq!(store.player_by_key(&key.to_string()).unwrap(), None);
        drop(store);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", dir.display()));
        }
    }

    #[test]
    fn the_retention_deletes_finished_unrated_matches_a_sweep_saw_over_before_the_cut() {
        let store = Sqlite::open(Path::new(":memory:"), false).unwrap();
        let seats = ["human".to_owned(), "human".to_owned()];
        let make = |progress| {
            store
                .create("kuhn", 1, &seats, &[None, None], &[0, 1], progress, None)
                .unwrap()
        };
        let old = make(Progress::Over);
        let rated = make(Progress::Over);
        let running = make(Progress::PersonDue);
        store
            .lock()
            .execute("INSERT INTO rated_matches (match_id) VALUES (?1)", [rated])
            .unwrap();
        // The first sweep only stamps what it sees over.
        assert_eq!(store.expire(1_000, 0).unwrap(), Vec::<i64>::new());
        let late = make(Progress::Over);
        assert_eq!(store.expire(2_000, 1_500).unwrap(), vec![old]);
        assert_eq!(store.get(old).unwrap(), None);
        let left: i64 = store
            .lock()
            .query_row(
                "SELECT count(*) FROM actions WHERE match_id = ?1",
                [old],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(left, 0, "its actions go with it");
        for kept in [rated, running, late] {
            assert!(store.get(kept).unwrap().is_some(), "match {kept} stays");
        }
        assert_eq!(store.expire(3_000, 2_500).unwrap(), vec![late]);
        assert_eq!(store.unfinished().unwrap(), vec![running]);
    }

    #[test]
    fn a_gap_in_the_stored_actions_is_a_corrupt_record() {
        let store = Sqlite::open(Path::new(":memory:"), false).unwrap();
        let seats = ["human".to_owned(), "human".to_owned()];
        let id = store
            .create(
                "kuhn",
                1,
                &seats,
                &[None, None],
                &[2, 1],
                Progress::PersonDue,
                None,
            )
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
