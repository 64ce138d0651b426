//! The players and ratings in PostgreSQL, shared by several processes
//! (both rating rows locked in player order before they are read).

use super::*;
use crate::store::pg::Postgres;

fn pg_standing(r: &postgres::Row) -> Standing {
    let (rating, rd, volatility) = default_columns();
    Standing {
        name: r.get(0),
        kind: Kind::of(r.get::<_, &str>(1)),
        rating: r.get::<_, Option<f64>>(2).unwrap_or(rating),
        rd: r.get::<_, Option<f64>>(3).unwrap_or(rd),
        volatility: r.get::<_, Option<f64>>(4).unwrap_or(volatility),
        games: r.get::<_, Option<i64>>(5).unwrap_or(0),
    }
}

impl Players for Postgres {
    fn add_person(&self, name: &str, folded: &str, key: &str) -> StoreResult<Option<i64>> {
        let row = self.pool.run("adding a player", |c| {
            let kind = Kind::Person.column();
            c.query_opt(sql::ADD, &[&name, &folded, &kind, &key])
        })?;
        Ok(row.map(|r| r.get(0)))
    }

    fn bot_player(&self, seat: &str) -> StoreResult<i64> {
        self.pool.run("adding a bot player", |c| {
            let kind = Kind::Bot.column();
            match c.query_opt(sql::ADD, &[&seat, &seat, &kind, &None::<String>])? {
                Some(row) => Ok(row.get(0)),
                None => Ok(c.query_one(sql::BY_FOLDED, &[&seat])?.get(0)),
            }
        })
    }

    fn player_by_key(&self, key: &str) -> StoreResult<Option<Player>> {
        let row = self
            .pool
            .run("reading a player", |c| c.query_opt(sql::BY_KEY, &[&key]))?;
        Ok(row.map(|r| Player {
            id: r.get(0),
            name: r.get(1),
            kind: Kind::of(r.get::<_, &str>(2)),
        }))
    }

    fn mark_rated(&self, id: i64, players: [Option<i64>; 2]) -> StoreResult<()> {
        self.pool
            .run("marking a match rated", |c| {
                c.execute(sql::MARK, &[&id, &players[0], &players[1]])
            })
            .map(|_| ())
    }

    fn seat_player(&self, id: i64, seat: u8, player: i64) -> StoreResult<()> {
        self.pool
            .run("seating a player", |c| {
                c.execute(sql::SEAT[usize::from(seat.min(1))], &[&player, &id])
            })
            .map(|_| ())
    }

    fn seated(&self, id: i64) -> StoreResult<Option<[Option<i64>; 2]>> {
        let row = self.pool.run("reading a match's players", |c| {
            c.query_opt(sql::SEATS, &[&id])
        })?;
        Ok(row.map(|r| [r.get(0), r.get(1)]))
    }

    fn rated_among(&self, ids: &[i64]) -> StoreResult<Vec<i64>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        self.pool
            .run("reading which matches are rated", |c| {
                c.query(&rated_among_sql(ids), &[])
            })
            .map(|rows| rows.iter().map(|r| r.get(0)).collect())
    }

    fn rated_seats(&self, id: i64, spec: &str) -> StoreResult<Option<[Option<Standing>; 2]>> {
        self.pool.run("reading a match's players", |c| {
            let Some(row) = c.query_opt(sql::SEATS, &[&id])? else {
                return Ok(None);
            };
            let mut out = [None, None];
            for (i, slot) in out.iter_mut().enumerate() {
                if let Some(p) = row.get::<_, Option<i64>>(i) {
                    *slot = c
                        .query_opt(sql::STANDING, &[&spec, &p])?
                        .map(|r| pg_standing(&r));
                }
            }
            Ok(Some(out))
        })
    }

    fn apply_rating(&self, id: i64, spec: &str, score0: f64) -> StoreResult<Option<[Rating; 2]>> {
        self.pool.run("applying a rating", |c| {
            let mut tx = c.transaction()?;
            let claimed = tx.query_opt(sql::CLAIM, &[&id])?;
            let Some(players) = claimed.and_then(|r| ratable((r.get(0), r.get(1)))) else {
                tx.commit()?;
                return Ok(None);
            };
            let (rating, rd, volatility) = default_columns();
            let mut before = [Rating::default(); 2];
            let locked = format!("{} FOR UPDATE", sql::RATING);
            for i in lock_order(players) {
                tx.execute(
                    sql::ENSURE,
                    &[&players[i], &spec, &rating, &rd, &volatility],
                )?;
                let r = tx.query_one(&locked, &[&players[i], &spec])?;
                before[i] = Rating {
                    rating: r.get(0),
                    rd: r.get(1),
                    volatility: r.get(2),
                };
            }
            let after = rating::after_game(before, score0);
            for (a, p) in after.iter().zip(players) {
                tx.execute(sql::PUT, &[&a.rating, &a.rd, &a.volatility, &p, &spec])?;
            }
            tx.commit()?;
            Ok(Some(after))
        })
    }

    fn pending_ratings(&self) -> StoreResult<Vec<i64>> {
        self.pool
            .run("listing the ratings to apply", |c| {
                c.query(sql::PENDING, &[])
            })
            .map(|rows| rows.iter().map(|r| r.get(0)).collect())
    }

    fn leaderboard(&self, spec: &str, limit: i64) -> StoreResult<Vec<Standing>> {
        self.pool
            .run("reading the leaderboard", |c| {
                c.query(sql::BOARD, &[&spec, &limit])
            })
            .map(|rows| rows.iter().map(pg_standing).collect())
    }
}
