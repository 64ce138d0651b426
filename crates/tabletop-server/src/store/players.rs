//! The players and their ratings in both backends: people (a name and a
//! secret key) and bots (one player per seat description, `bot:heuristic`),
//! each player's Glicko-2 rating per game specification, and the rated
//! matches with the player in each seat.
//!
//! A rated match's ratings are applied once: the statement that marks the
//! match applied (`applied = 0` → `1`) is in the transaction that writes
//! both ratings, so a restart, a second call or a second process sharing
//! PostgreSQL finds it applied and changes nothing. PostgreSQL locks both
//! rating rows (in player order, so two transactions never wait on each
//! other) before reading them; SQLite has one writer at a time.

use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use super::pg::Postgres;
use super::sqlite::Sqlite;
use super::{query, StoreResult};
use crate::rating::{self, Rating};

/// What a player is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A person, who holds the player's key.
    Person,
    /// A bot (the player's name is its seat description).
    Bot,
}

impl Kind {
    fn column(self) -> &'static str {
        match self {
            Kind::Person => "person",
            Kind::Bot => "bot",
        }
    }

    fn of(text: &str) -> Kind {
        if text == "bot" {
            Kind::Bot
        } else {
            Kind::Person
        }
    }
}

/// A player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Player {
    /// Its id.
    pub id: i64,
    /// Its name (a bot's is its seat description).
    pub name: String,
    /// Person or bot.
    pub kind: Kind,
}

/// A player with its rating in one game specification.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// The player's name (a bot's is its seat description).
    pub name: String,
    /// Person or bot.
    pub kind: Kind,
    /// The Glicko-2 rating.
    pub rating: f64,
    /// Its deviation.
    pub rd: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Rated games played.
    pub games: i64,
}

/// The players and ratings (both backends).
pub trait Players {
    /// Adds a person; `None` if the name is taken (compared by `folded`,
    /// the name in lower case).
    fn add_person(&self, name: &str, folded: &str, key: &str) -> StoreResult<Option<i64>>;

    /// The player of bot seat `seat` (its description), added if new.
    fn bot_player(&self, seat: &str) -> StoreResult<i64>;

    /// The person holding `key`, if any.
    fn player_by_key(&self, key: &str) -> StoreResult<Option<Player>>;

    /// Marks match `id` rated, with the player of each seat (`None` for a
    /// seat a person has not taken yet).
    fn mark_rated(&self, id: i64, players: [Option<i64>; 2]) -> StoreResult<()>;

    /// The player who took `seat` of rated match `id`.
    fn seat_player(&self, id: i64, seat: u8, player: i64) -> StoreResult<()>;

    /// The player of each seat of match `id`, if it is rated.
    fn seated(&self, id: i64) -> StoreResult<Option<[Option<i64>; 2]>>;

    /// Which of the matches `ids` are rated.
    fn rated_among(&self, ids: &[i64]) -> StoreResult<Vec<i64>>;

    /// The players of rated match `id` with their ratings in `spec`
    /// (`None` if the match is not rated).
    fn rated_seats(&self, id: i64, spec: &str) -> StoreResult<Option<[Option<Standing>; 2]>>;

    /// Applies the result of rated match `id` of `spec` (`score0` seat 0's
    /// score) to both players' ratings, once: the new ratings, or `None`
    /// if the match is not rated, already applied, or has a seat without
    /// a player.
    fn apply_rating(&self, id: i64, spec: &str, score0: f64) -> StoreResult<Option<[Rating; 2]>>;

    /// The rated matches that are over but not applied (a process stopped
    /// between the two writes).
    fn pending_ratings(&self) -> StoreResult<Vec<i64>>;

    /// The `limit` best players of `spec`, best first.
    fn leaderboard(&self, spec: &str, limit: i64) -> StoreResult<Vec<Standing>>;
}

/// `$N` parameters numbered in order of first use (SQLite binds them by
/// position).
mod sql {
    pub const ADD: &str = "INSERT INTO players (name, folded, kind, key) VALUES ($1, $2, $3, $4)
         ON CONFLICT (folded) DO NOTHING RETURNING id";
    pub const BY_FOLDED: &str = "SELECT id FROM players WHERE folded = $1";
    pub const BY_KEY: &str = "SELECT id, name, kind FROM players WHERE key = $1";
    pub const MARK: &str =
        "INSERT INTO rated_matches (match_id, player0, player1) VALUES ($1, $2, $3)";
    pub const SEAT: [&str; 2] = [
        "UPDATE rated_matches SET player0 = $1 WHERE match_id = $2",
        "UPDATE rated_matches SET player1 = $1 WHERE match_id = $2",
    ];
    pub const SEATS: &str = "SELECT player0, player1 FROM rated_matches WHERE match_id = $1";
    pub const STANDING: &str = "SELECT p.name, p.kind, r.rating, r.rd, r.volatility, r.games
         FROM players p LEFT JOIN ratings r ON r.player_id = p.id AND r.spec = $1
         WHERE p.id = $2";
    pub const CLAIM: &str = "UPDATE rated_matches SET applied = 1
         WHERE match_id = $1 AND applied = 0 RETURNING player0, player1";
    pub const ENSURE: &str = "INSERT INTO ratings (player_id, spec, rating, rd, volatility, games)
         VALUES ($1, $2, $3, $4, $5, 0) ON CONFLICT (player_id, spec) DO NOTHING";
    pub const RATING: &str =
        "SELECT rating, rd, volatility FROM ratings WHERE player_id = $1 AND spec = $2";
    pub const PUT: &str = "UPDATE ratings SET rating = $1, rd = $2, volatility = $3,
         games = games + 1 WHERE player_id = $4 AND spec = $5";
    pub const PENDING: &str = "SELECT r.match_id FROM rated_matches r
         JOIN matches m ON m.id = r.match_id
         WHERE r.applied = 0 AND m.finished = 1 ORDER BY r.match_id";
    pub const BOARD: &str = "SELECT p.name, p.kind, r.rating, r.rd, r.volatility, r.games
         FROM ratings r JOIN players p ON p.id = r.player_id
         WHERE r.spec = $1 AND r.games > 0
         ORDER BY r.rating DESC, r.games DESC, p.name LIMIT $2";
}

/// The statement selecting which of `ids` are rated (the ids are
/// numbers, written into the statement as such).
fn rated_among_sql(ids: &[i64]) -> String {
    let list: Vec<String> = ids.iter().map(i64::to_string).collect();
    format!(
        "SELECT match_id FROM rated_matches WHERE match_id IN ({})",
        list.join(", ")
    )
}

/// The two players of a claimed match, if both seats have one and they
/// differ (then in the order their rating rows are locked).
fn ratable(players: (Option<i64>, Option<i64>)) -> Option<[i64; 2]> {
    match players {
        (Some(a), Some(b)) if a != b => Some([a, b]),
        _ => None,
    }
}

/// Locking order of the two rating rows (lowest player id first).
fn lock_order(players: [i64; 2]) -> [usize; 2] {
    if players[0] <= players[1] {
        [0, 1]
    } else {
        [1, 0]
    }
}

fn default_columns() -> (f64, f64, f64) {
    let r = Rating::default();
    (r.rating, r.rd, r.volatility)
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn open() -> Sqlite {
        Sqlite::open(Path::new(":memory:"), false).unwrap()
    }

    /// A match over (its actions do not matter here).
    fn finished_match(store: &Sqlite) -> i64 {
        let conn = store.lock();
        conn.execute(
            "INSERT INTO matches (spec, seed, seat0, seat1, finished)
             VALUES ('kuhn', 1, 'human', 'bot:random', 1)",
            [],
        )
        .unwrap();
        conn.last_insert_rowid()
    }

    #[test]
    fn a_rated_match_is_applied_once_and_moves_both_ratings() {
        let store = open();
        let ann = store
            .add_person("Ann", "ann", &"a".repeat(32))
            .unwrap()
            .unwrap();
        let bot = store.bot_player("bot:random").unwrap();
        assert_eq!(
            store.bot_player("bot:random").unwrap(),
            bot,
            "one player per bot"
        );
        let id = finished_match(&store);
        store.mark_rated(id, [Some(ann), Some(bot)]).unwrap();
        assert_eq!(store.seated(id).unwrap(), Some([Some(ann), Some(bot)]));
        assert_eq!(store.rated_among(&[id, id + 1]).unwrap(), vec![id]);
        assert_eq!(store.seated(id + 1).unwrap(), None);
        assert_eq!(store.pending_ratings().unwrap(), vec![id]);
        let after = store.apply_rating(id, "kuhn", 1.0).unwrap().unwrap();
        assert_eq!(after, rating::after_game([Rating::default(); 2], 1.0));
        assert_eq!(
            store.apply_rating(id, "kuhn", 1.0).unwrap(),
            None,
            "applied once"
        );
        assert!(store.pending_ratings().unwrap().is_empty());
        let board = store.leaderboard("kuhn", 10).unwrap();
        assert_eq!(board.len(), 2);
        assert_eq!(
            (board[0].name.as_str(), board[0].kind, board[0].games),
            ("Ann", Kind::Person, 1)
        );
        assert_eq!(
            (board[1].name.as_str(), board[1].kind),
            ("bot:random", Kind::Bot)
        );
        assert!(
            store.leaderboard("stratego", 10).unwrap().is_empty(),
            "per game"
        );
    }

    #[test]
    fn a_taken_name_is_refused_whatever_its_case() {
        let store = open();
        assert!(store
            .add_person("Ann", "ann", &"a".repeat(32))
            .unwrap()
            .is_some());
        assert_eq!(
            store.add_person("ANN", "ann", &"b".repeat(32)).unwrap(),
            None
        );
        let found = store.player_by_key(&"a".repeat(32)).unwrap().unwrap();
        assert_eq!((found.name.as_str(), found.kind), ("Ann", Kind::Person));
        assert_eq!(store.player_by_key(&"b".repeat(32)).unwrap(), None);
    }

    #[test]
    fn a_rated_match_with_a_seat_never_taken_applies_nothing() {
        let store = open();
        let ann = store
            .add_person("Ann", "ann", &"a".repeat(32))
            .unwrap()
            .unwrap();
        let id = finished_match(&store);
        store.mark_rated(id, [Some(ann), None]).unwrap();
        assert_eq!(store.apply_rating(id, "kuhn", 0.0).unwrap(), None);
        assert!(store.pending_ratings().unwrap().is_empty(), "settled");
        assert!(store.leaderboard("kuhn", 10).unwrap().is_empty());
    }
}
