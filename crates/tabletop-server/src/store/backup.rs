//! A copy of a live SQLite database for an operator's backup
//! (`tabletop-server --backup`; PostgreSQL's are `pg_dump`'s,
//! `docs/server.md`).

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use super::{opening, query, StoreError, StoreResult};

/// Writes a consistent copy of the database at `db` to the new file `to`
/// (SQLite's `VACUUM INTO`), while a server may be writing to it: the
/// copy is the database as of one commit, compacted. Opens `db` read-only,
/// so a missing database is an error rather than a new empty one; an
/// existing `to` is refused.
pub fn backup(db: &Path, to: &Path) -> StoreResult<()> {
    let refused = |reason| StoreError::Backup {
        path: to.to_owned(),
        reason,
    };
    if to.exists() {
        return Err(refused("the file exists (a backup never overwrites)"));
    }
    let target = to
        .to_str()
        .ok_or_else(|| refused("the path is not UTF-8"))?;
    let conn =
        Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(opening)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(opening)?;
    conn.execute("VACUUM INTO ?1", [target])
        .map_err(query("backing up"))?;
    Ok(())
}
