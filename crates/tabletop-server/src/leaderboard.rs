//! The leaderboard of one game under one rule set: its rated players,
//! people and bots in one pool, best rating first
//! (`GET /api/leaderboard?game=SPEC`).

use serde::Serialize;

use crate::refusal::MatchError;
use crate::server::Server;
use crate::store::Kind;

/// The most rows a leaderboard shows.
pub const MAX_ROWS: i64 = 100;

/// One row of a leaderboard.
#[derive(Debug, Serialize)]
pub struct Row {
    /// 1 for the best.
    pub rank: usize,
    /// The player's name (a bot's is its seat description, `bot:heuristic`).
    pub name: String,
    /// Person or bot.
    pub kind: Kind,
    /// The Glicko-2 rating.
    pub rating: f64,
    /// Its deviation.
    pub rd: f64,
    /// Rated games played.
    pub games: i64,
}

/// A leaderboard.
#[derive(Debug, Serialize)]
pub struct Board {
    /// The game specification (canonical).
    pub game: String,
    /// Best first: by rating, then by games played, then by name.
    pub rows: Vec<Row>,
}

impl Server {
    /// The leaderboard of `game` (a specification, made canonical).
    pub async fn leaderboard(&self, game: &str) -> Result<Board, MatchError> {
        let spec = self
            .registry
            .load(game)
            .map_err(MatchError::Game)?
            .name()
            .to_owned();
        let key = spec.clone();
        let standings = self.db(move |s| s.leaderboard(&key, MAX_ROWS)).await?;
        Ok(Board {
            game: spec,
            rows: standings
                .into_iter()
                .enumerate()
                .map(|(i, s)| Row {
                    rank: i + 1,
                    name: s.name,
                    kind: s.kind,
                    rating: s.rating,
                    rd: s.rd,
                    games: s.games,
                })
                .collect(),
        })
    }
}
