//! The players and ratings in SQLite (one writer at a time).

use rusqlite::{params, OptionalExtension};

use super::*;
use crate::store::sqlite::Sqlite;

impl Players for Sqlite {
    fn add_person(&self, name: &str, folded: &str, key: &str) -> StoreResult<Option<i64>> {
        self.lock()
            .query_row(
                sql::ADD,
                params![name, folded, Kind::Person.column(), key],
                |r| r.get(0),
            )
            .optional()
            .map_err(query("adding a player"))
    }

    fn bot_player(&self, seat: &str) -> StoreResult<i64> {
        let op = "adding a bot player";
        let conn = self.lock();
        let added = conn
            .query_row(
                sql::ADD,
                params![seat, seat, Kind::Bot.column(), None::<String>],
                |r| r.get(0),
            )
            .optional()
            .map_err(query(op))?;
        match added {
            Some(id) => Ok(id),
            None => conn
                .query_row(sql::BY_FOLDED, params![seat], |r| r.get(0))
                .map_err(query(op)),
        }
    }

    fn player_by_key(&self, key: &str) -> StoreResult<Option<Player>> {
        self.lock()
            .query_row(sql::BY_KEY, params![key], |r| {
                Ok(Player {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    kind: Kind::of(&r.get::<_, String>(2)?),
                })
            })
            .optional()
            .map_err(query("reading a player"))
    }

    fn mark_rated(&self, id: i64, players: [Option<i64>; 2]) -> StoreResult<()> {
        self.lock()
            .execute(sql::MARK, params![id, players[0], players[1]])
            .map(|_| ())
            .map_err(query("marking a match rated"))
    }

    fn seat_player(&self, id: i64, seat: u8, player: i64) -> StoreResult<()> {
        self.lock()
            .execute(sql::SEAT[usize::from(seat.min(1))], params![player, id])
            .map(|_| ())
            .map_err(query("seating a player"))
    }

    fn seated(&self, id: i64) -> StoreResult<Option<[Option<i64>; 2]>> {
        self.lock()
            .query_row(sql::SEATS, params![id], |r| Ok([r.get(0)?, r.get(1)?]))
            .optional()
            .map_err(query("reading a match's players"))
    }

    fn rated_among(&self, ids: &[i64]) -> StoreResult<Vec<i64>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let op = "reading which matches are rated";
        let conn = self.lock();
        let mut stmt = conn.prepare(&rated_among_sql(ids)).map_err(query(op))?;
        let rows = stmt
            .query_map([], |r| r.get(0))
            .map_err(query(op))?
            .collect::<Result<_, _>>()
            .map_err(query(op))?;
        Ok(rows)
    }

    fn rated_seats(&self, id: i64, spec: &str) -> StoreResult<Option<[Option<Standing>; 2]>> {
        let op = "reading a match's players";
        let conn = self.lock();
        let Some((p0, p1)) = conn
            .query_row(sql::SEATS, params![id], |r| {
                Ok((r.get::<_, Option<i64>>(0)?, r.get::<_, Option<i64>>(1)?))
            })
            .optional()
            .map_err(query(op))?
        else {
            return Ok(None);
        };
        let standing = |p: Option<i64>| -> StoreResult<Option<Standing>> {
            let Some(p) = p else { return Ok(None) };
            conn.query_row(sql::STANDING, params![spec, p], |r| {
                let (rating, rd, volatility) = default_columns();
                Ok(Standing {
                    name: r.get(0)?,
                    kind: Kind::of(&r.get::<_, String>(1)?),
                    rating: r.get::<_, Option<f64>>(2)?.unwrap_or(rating),
                    rd: r.get::<_, Option<f64>>(3)?.unwrap_or(rd),
                    volatility: r.get::<_, Option<f64>>(4)?.unwrap_or(volatility),
                    games: r.get::<_, Option<i64>>(5)?.unwrap_or(0),
                })
            })
            .optional()
            .map_err(query(op))
        };
        Ok(Some([standing(p0)?, standing(p1)?]))
    }

    fn apply_rating(&self, id: i64, spec: &str, score0: f64) -> StoreResult<Option<[Rating; 2]>> {
        let op = "applying a rating";
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(query(op))?;
        let claimed = tx
            .query_row(sql::CLAIM, params![id], |r| {
                Ok((r.get::<_, Option<i64>>(0)?, r.get::<_, Option<i64>>(1)?))
            })
            .optional()
            .map_err(query(op))?;
        let Some(players) = claimed.and_then(ratable) else {
            tx.commit().map_err(query(op))?;
            return Ok(None);
        };
        let (rating, rd, volatility) = default_columns();
        let mut before = [Rating::default(); 2];
        for i in lock_order(players) {
            tx.execute(
                sql::ENSURE,
                params![players[i], spec, rating, rd, volatility],
            )
            .map_err(query(op))?;
            before[i] = tx
                .query_row(sql::RATING, params![players[i], spec], |r| {
                    Ok(Rating {
                        rating: r.get(0)?,
                        rd: r.get(1)?,
                        volatility: r.get(2)?,
                    })
                })
                .map_err(query(op))?;
        }
        let after = rating::after_game(before, score0);
        for i in 0..2 {
            let a = after[i];
            tx.execute(
                sql::PUT,
                params![a.rating, a.rd, a.volatility, players[i], spec],
            )
            .map_err(query(op))?;
        }
        tx.commit().map_err(query(op))?;
        Ok(Some(after))
    }

    fn pending_ratings(&self) -> StoreResult<Vec<i64>> {
        let op = "listing the ratings to apply";
        let conn = self.lock();
        let mut stmt = conn.prepare(sql::PENDING).map_err(query(op))?;
        let ids = stmt
            .query_map([], |r| r.get(0))
            .map_err(query(op))?
            .collect::<Result<_, _>>()
            .map_err(query(op))?;
        Ok(ids)
    }

    fn leaderboard(&self, spec: &str, limit: i64) -> StoreResult<Vec<Standing>> {
        let op = "reading the leaderboard";
        let conn = self.lock();
        let mut stmt = conn.prepare(sql::BOARD).map_err(query(op))?;
        let rows = stmt
            .query_map(params![spec, limit], |r| {
                Ok(Standing {
                    name: r.get(0)?,
                    kind: Kind::of(&r.get::<_, String>(1)?),
                    rating: r.get(2)?,
                    rd: r.get(3)?,
                    volatility: r.get(4)?,
                    games: r.get(5)?,
                })
            })
            .map_err(query(op))?
            .collect::<Result<_, _>>()
            .map_err(query(op))?;
        Ok(rows)
    }
}
