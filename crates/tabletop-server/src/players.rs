//! Players and rated matches. A person picks a name and gets a secret
//! key (no password: the browser keeps the key, and nobody without it
//! plays under that name); every bot kind is a player of its own, named
//! by its seat description (`bot:heuristic`), in the same pool.
//!
//! A match is rated when created so and every human seat brings a
//! player key (a person joining a rated match brings theirs); when it
//! ends, however it ends, both seats' Glicko-2 ratings ([`crate::rating`])
//! move once: the store marks the match applied in the transaction that
//! writes the ratings, and a start applies those a stopped process left.

use std::sync::Arc;

use game_traits::{Outcome, PlayerId};
use serde::Serialize;

use crate::refusal::{MatchError, PlayerError};
use crate::room::Room;
use crate::seat::{self, Seat};
use crate::server::{Server, StartError};
use crate::store::{Player, Standing};
use crate::token::Token;

/// The shortest name.
pub const MIN_NAME: usize = 2;
/// The longest name, in characters.
pub const MAX_NAME: usize = 24;

/// Checks a person's name: [`MIN_NAME`] to [`MAX_NAME`] characters,
/// letters (any script), digits, `_`, `-` and `.`, starting with a letter
/// or a digit (so no name looks like a bot's `bot:...`). Returns the name
/// in lower case, under which names are unique.
pub fn check_name(name: &str) -> Result<String, PlayerError> {
    let count = name.chars().count();
    if !(MIN_NAME..=MAX_NAME).contains(&count) {
        return Err(PlayerError::BadName(format!(
            "{MIN_NAME} to {MAX_NAME} characters, got {count}"
        )));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.')))
    {
        return Err(PlayerError::BadName(format!(
            "letters, digits, _, - and . only, not {c:?}"
        )));
    }
    if !name.chars().next().is_some_and(char::is_alphanumeric) {
        return Err(PlayerError::BadName(
            "it starts with a letter or a digit".into(),
        ));
    }
    Ok(name.to_lowercase())
}

/// Seat 0's score in the finished `room` (1 a win, ½ a draw, 0 a loss):
/// a forfeit loses, an agreed draw is a draw, else the game's outcome.
pub fn score0(room: &Room) -> Option<f64> {
    if room.agreed_draw() {
        return Some(0.5);
    }
    if let Some((seat, _)) = room.forfeit() {
        return Some(if *seat == PlayerId::P0 { 0.0 } else { 1.0 });
    }
    Some(match room.state().outcome()? {
        Outcome::Win(PlayerId::P0) => 1.0,
        Outcome::Win(_) => 0.0,
        Outcome::Draw => 0.5,
    })
}

/// What `POST /api/players` returns.
#[derive(Debug, Serialize)]
pub struct NewPlayer {
    /// The player's id.
    pub id: i64,
    /// The name as given.
    pub name: String,
    /// The secret key (32 hex digits) that plays under the name.
    pub key: String,
}

impl Server {
    /// Adds a person named `name`.
    pub async fn add_person(&self, name: &str) -> Result<NewPlayer, MatchError> {
        let folded = check_name(name)?;
        let secret = Token::new()?;
        let key = secret.to_string();
        let (n, k) = (name.to_owned(), secret.seal().to_string());
        let id = self
            .db(move |s| s.add_person(&n, &folded, &k))
            .await?
            .ok_or_else(|| PlayerError::NameTaken(name.to_owned()))?;
        Ok(NewPlayer {
            id,
            name: name.to_owned(),
            key,
        })
    }

    /// The person whose key is `key`, if one is given.
    pub async fn person(&self, key: Option<&str>) -> Result<Option<Player>, MatchError> {
        let Some(key) = key else { return Ok(None) };
        let token = Token::parse(key).ok_or(PlayerError::UnknownKey)?;
        let seal = token.seal().to_string();
        let found = self.db(move |s| s.player_by_key(&seal)).await?;
        Ok(Some(found.ok_or(PlayerError::UnknownKey)?))
    }

    /// The player of each seat of a rated match to be created with
    /// `seats`, `person` in its human seat (`None` for a seat left open
    /// for a person, when `open` is that seat).
    pub async fn rated_players(
        &self,
        seats: &[String],
        person: Option<&Player>,
        open: Option<PlayerId>,
    ) -> Result<[Option<i64>; 2], MatchError> {
        let mut players = [None, None];
        let mut people = 0;
        for (i, text) in seats.iter().enumerate().take(2) {
            if open.is_some_and(|p| p.index() == i) {
                continue;
            }
            let seat = seat::parse(text, self.config.allow_cmd_bots)?;
            players[i] = match seat {
                Seat::Human => {
                    people += 1;
                    let p = person.ok_or_else(|| {
                        PlayerError::Unratable("a person's seat needs a player key".into())
                    })?;
                    Some(p.id)
                }
                Seat::Cmd(_) | Seat::Legacy { .. } => {
                    return Err(
                        PlayerError::Unratable("a cmd: program is no rated player".into()).into(),
                    )
                }
                bot => {
                    let seat = bot.to_string();
                    Some(self.db(move |s| s.bot_player(&seat)).await?)
                }
            };
        }
        if people > 1 {
            return Err(PlayerError::Unratable(
                "two people rate a match through the lobby, each joining with their key".into(),
            )
            .into());
        }
        if people == 0 && open.is_none() {
            return Err(PlayerError::Unratable("no person plays in it".into()).into());
        }
        Ok(players)
    }

    /// The players of a match to be created with `seats` (`open` the
    /// seat left for a person to join): `None` unless `rated`. A `key`
    /// given is checked even for an unrated match.
    pub async fn players_for(
        &self,
        seats: &[String],
        rated: bool,
        key: Option<&str>,
        open: Option<PlayerId>,
    ) -> Result<Option<[Option<i64>; 2]>, MatchError> {
        let person = self.person(key).await?;
        if !rated {
            return Ok(None);
        }
        Ok(Some(
            self.rated_players(seats, person.as_ref(), open).await?,
        ))
    }

    /// Marks the new match `id` rated between `players` (if some), then
    /// applies its rating if it already ended (a bot may end a match
    /// before this runs). Returns whether it is rated.
    pub async fn mark_rated(
        self: &Arc<Self>,
        id: i64,
        players: Option<[Option<i64>; 2]>,
    ) -> Result<bool, MatchError> {
        let Some(players) = players else {
            return Ok(false);
        };
        self.db(move |s| s.mark_rated(id, players)).await?;
        if let Some(cell) = self.cell(id).await? {
            let room = cell.room().read().await;
            self.settle(&room).await;
        }
        Ok(true)
    }

    /// Before the person of `key` takes the open seat of match `id`: the
    /// player to seat if the match is rated (then a key is needed, and
    /// not the one of the player already seated).
    pub async fn joining(&self, id: i64, key: Option<&str>) -> Result<Option<i64>, MatchError> {
        let person = self.person(key).await?;
        let Some(seated) = self.db(move |s| s.seated(id)).await? else {
            return Ok(None);
        };
        let person = person.ok_or_else(|| {
            PlayerError::Unratable("it is rated: join it with your player key".into())
        })?;
        if seated.contains(&Some(person.id)) {
            return Err(PlayerError::Unratable("one player cannot take both seats".into()).into());
        }
        Ok(Some(person.id))
    }

    /// After `player` (from [`Server::joining`]) took `seat` of match `id`.
    pub async fn joined(&self, id: i64, seat: u8, player: Option<i64>) -> Result<(), MatchError> {
        if let Some(p) = player {
            self.db(move |s| s.seat_player(id, seat, p)).await?;
        }
        Ok(())
    }

    /// Which of the matches `ids` are rated.
    pub async fn rated_among(&self, ids: Vec<i64>) -> Result<Vec<i64>, MatchError> {
        Ok(self.db(move |s| s.rated_among(&ids)).await?)
    }

    /// The players of match `id` (of game `spec`) and their ratings.
    pub async fn match_players(&self, id: i64, spec: String) -> Result<MatchPlayers, MatchError> {
        let seats = self.db(move |s| s.rated_seats(id, &spec)).await?;
        Ok(MatchPlayers {
            rated: seats.is_some(),
            seats: seats.unwrap_or([None, None]),
        })
    }

    /// Applies the rating of `room` if it is a rated match just finished
    /// (nothing otherwise, and nothing twice). A failure is logged: the
    /// match stays pending and the next start applies it.
    pub(crate) async fn settle(&self, room: &Room) {
        if !room.finished() {
            return;
        }
        let Some(score) = score0(room) else { return };
        let (id, spec) = (room.id(), room.game().name().to_owned());
        if let Err(e) = self.db(move |s| s.apply_rating(id, &spec, score)).await {
            tracing::warn!(match_id = id, error = %e, "applying a rating; retried at the next start");
        }
    }

    /// Applies the ratings of the rated matches that ended while their
    /// rating was not written (a process stopped between the two).
    pub(crate) fn settle_pending(&self) -> Result<(), StartError> {
        let path = self.config.database_name();
        let db_err = |source| StartError::Database {
            path: path.clone(),
            source,
        };
        for id in self.store.pending_ratings().map_err(db_err)? {
            let Some(m) = self.store.get(id).map_err(db_err)? else {
                continue;
            };
            let room = self.room_of(m)?;
            if let Some(score) = score0(&room) {
                self.store
                    .apply_rating(id, room.game().name(), score)
                    .map_err(db_err)?;
            }
        }
        Ok(())
    }
}

/// The players of a match, as `GET /api/matches/{id}/players` shows them.
#[derive(Debug, Serialize)]
pub struct MatchPlayers {
    /// Whether the match is rated.
    pub rated: bool,
    /// Each seat's player and rating (`null` for an unrated match or a
    /// seat not taken yet).
    pub seats: [Option<Standing>; 2],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_for_length_characters_and_first_character() {
        assert_eq!(check_name("Ann_B-2.x").unwrap(), "ann_b-2.x");
        assert_eq!(check_name("Zoë").unwrap(), "zoë");
        for bad in [
            "a",
            &"x".repeat(MAX_NAME + 1),
            "bot:random",
            "a b",
            "_ann",
            "-x",
            "<b>",
        ] {
            assert!(
                matches!(check_name(bad), Err(PlayerError::BadName(_))),
                "{bad:?}"
            );
        }
        assert!(
            check_name(&"é".repeat(MAX_NAME)).is_ok(),
            "characters, not bytes"
        );
    }
}
