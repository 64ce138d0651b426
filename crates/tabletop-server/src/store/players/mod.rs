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

use serde::Serialize;

use super::{query, StoreResult};
use crate::rating::{self, Rating};

#[cfg(feature = "postgres")]
mod pg;
mod sqlite;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::sqlite::Sqlite;
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
