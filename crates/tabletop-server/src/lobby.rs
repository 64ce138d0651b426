//! The lobby: the seats waiting for a person (listed, or open to their
//! invitation) and the rematch of each finished match that has one. The
//! matches between people that use it are `people.rs`'s.
//!
//! The lobby lives in the store (`store/lobby`), not in a process: every
//! process on one PostgreSQL database lists the same seats and seats a
//! person in any of them, and a restart forgets none. A match in memory
//! keeps a copy of its part ([`crate::room::Room::lobby`]) for its views,
//! which a process brings up to date with the match (`cluster.rs`).
//!
//! The seats are capped in all ([`MAX_OPEN`]) and per client: a match
//! between people takes its place before it is created, counted and
//! inserted in one transaction of the store, so that the caps hold across
//! requests and processes racing for the last place.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use game_traits::PlayerId;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::client::ClientKey;
use crate::memory::Cell;
use crate::metrics::Metrics;
use crate::refusal::MatchError;
use crate::room::Room;
use crate::server::Server;
use crate::store::{Caps, OpenSeat, PlaceRefused, RematchClaim, TakeRefused};
use crate::token::Token;

/// The most matches waiting for a person at once (a full lobby refuses a
/// new one until one is taken or finished).
pub const MAX_OPEN: usize = 1000;

/// How long a seat waits for a person before the lobby forgets it (its
/// match stays, playable by the seat already taken, but nobody can join).
pub const MAX_WAIT_S: u64 = 24 * 3600;

/// How long a place reserved for a seat may stay without its match: a
/// match is made in well under a second, so an older place is one whose
/// process stopped meanwhile.
const PLACE_WAIT_S: u64 = 600;

/// How long a seat asking for a rematch waits while the other seat's
/// request makes it.
const REMATCH_WAIT: Duration = Duration::from_secs(10);

/// A listed match waiting for a person, as `GET /api/lobby` shows it.
#[derive(Debug, Serialize)]
pub struct Listed {
    /// The match.
    pub id: i64,
    /// Its game specification.
    pub game: String,
    /// The seat a person joining takes (0 moves first).
    pub seat: u8,
    /// When it was opened, in seconds since 1970.
    pub since: u64,
}

/// A seat taken: the match, the seat and its token.
#[derive(Debug, Serialize)]
pub struct Taken {
    /// The match.
    pub id: i64,
    /// The seat.
    pub seat: u8,
    /// The seat's token (32 hex digits).
    pub token: String,
    /// The invitation for the seat still open, if one is (32 hex digits).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

fn now_s() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// What the store keeps of the client that opened a seat: a digest of
/// its address (enough to count its seats, not to say who it is).
fn owner(client: ClientKey) -> String {
    Sha256::digest(format!("tabletop-server lobby v1\0{client}"))
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Server {
    /// The listed matches waiting for a person, oldest first.
    pub async fn listed(&self) -> Result<Vec<Listed>, MatchError> {
        let since = now_s() - MAX_WAIT_S as i64;
        let seats = self.db(move |s| s.listed_seats(since)).await?;
        Ok(seats
            .into_iter()
            .map(|s| Listed {
                id: s.id,
                game: s.spec,
                seat: s.seat,
                since: s.since.max(0) as u64,
            })
            .collect())
    }

    /// A place in the lobby for one more seat of `client`, unless the
    /// lobby holds [`MAX_OPEN`] or `client` as many as it may.
    pub(crate) async fn reserve_place(&self, client: ClientKey) -> Result<i64, MatchError> {
        let per_client = self.config.memory.lobby_seats_per_client;
        let now = now_s();
        let caps = Caps {
            most: MAX_OPEN,
            per_client,
            now,
            seats_since: now - MAX_WAIT_S as i64,
            places_since: now - PLACE_WAIT_S as i64,
        };
        let owner = owner(client);
        let reserved = self.db(move |s| s.reserve_place(&owner, caps)).await?;
        reserved.map_err(|refused| {
            Metrics::bump(&self.metrics.limited);
            match refused {
                PlaceRefused::Full => MatchError::LobbyFull(MAX_OPEN),
                PlaceRefused::ClientFull => MatchError::TooManySeats { most: per_client },
            }
        })
    }

    /// Leaves `seat` of the match of `cell` open to a person in `place`,
    /// listed or open to `invite` only.
    pub(crate) async fn open_seat(
        &self,
        place: i64,
        cell: &Cell,
        seat: PlayerId,
        invite: Token,
        listed: bool,
    ) -> Result<(), MatchError> {
        let mut room = cell.room().write().await;
        let open = OpenSeat {
            id: room.id(),
            seat: seat.index() as u8,
            invite: invite.seal().to_string(),
            listed,
        };
        self.db(move |s| s.fill_place(place, &open)).await?;
        room.set_waiting(Some(seat));
        cell.announce(&room);
        Ok(())
    }

    /// Gives back a place whose match was not made.
    pub(crate) async fn free_place(&self, place: i64) {
        // A place left behind is forgotten after PLACE_WAIT_S.
        let _ = self.db(move |s| s.free_place(place)).await;
    }

    /// Takes the open seat of the match of `cell` (only `only`, if given:
    /// a rematch's) for a person with `invite`, if it may be taken, and
    /// gives them a new token for it.
    pub(crate) async fn take_seat(
        &self,
        cell: &Cell,
        only: Option<PlayerId>,
        invite: Option<Token>,
    ) -> Result<Taken, MatchError> {
        let mut room = cell.room().write().await;
        let id = room.id();
        if room.finished() {
            self.close_seat(&mut room).await?;
            return Err(if only.is_some() {
                MatchError::RematchTaken
            } else {
                MatchError::Over
            });
        }
        let token = Token::new()?;
        let seal = token.seal().to_string();
        let invite = invite.map(|i| i.seal().to_string());
        let only_seat = only.map(|p| p.index() as u8);
        let taken = self
            .db(move |s| s.take_seat(id, only_seat, invite.as_deref(), &seal))
            .await?;
        let seat = match taken {
            Ok(seat) => seat,
            Err(_) if only.is_some() => return Err(MatchError::RematchTaken),
            Err(TakeRefused::NoSeat) => return Err(MatchError::NoOpenSeat),
            Err(TakeRefused::NotInvited) => return Err(MatchError::NotInvited),
        };
        let player = PlayerId::from_index(usize::from(seat))
            .ok_or_else(|| MatchError::internal("an open seat out of range"))?;
        room.set_seal(player, token.seal());
        room.set_waiting(None);
        cell.announce(&room);
        Ok(Taken {
            id,
            seat,
            token: token.to_string(),
            invite: None,
        })
    }

    /// Forgets the open seat of the match in `room` (it ended).
    pub(crate) async fn close_seat(&self, room: &mut Room) -> Result<(), MatchError> {
        if room.lobby().waiting.is_none() {
            return Ok(());
        }
        let id = room.id();
        self.db(move |s| s.close_seat(id)).await?;
        room.set_waiting(None);
        Ok(())
    }

    /// Who makes the rematch of match `old`: this caller (`None`), or the
    /// match another made, waited for while it is being made.
    pub(crate) async fn claim_rematch(&self, old: i64) -> Result<Option<i64>, MatchError> {
        let deadline = tokio::time::Instant::now() + REMATCH_WAIT;
        loop {
            match self.db(move |s| s.claim_rematch(old)).await? {
                RematchClaim::Yours => return Ok(None),
                RematchClaim::Made(new) => return Ok(Some(new)),
                RematchClaim::Making if tokio::time::Instant::now() >= deadline => {
                    return Err(MatchError::Busy(old));
                }
                RematchClaim::Making => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        }
    }

    /// Records `new` as the rematch of the match of `cell` (`Err`: its
    /// making failed, and the claim is given back).
    pub(crate) async fn made_rematch(
        &self,
        cell: &Cell,
        new: &Result<Taken, MatchError>,
    ) -> Result<(), MatchError> {
        let mut room = cell.room().write().await;
        let old = room.id();
        let Ok(taken) = new else {
            // A claim left behind would make the other seat wait for a
            // rematch nobody makes.
            let _ = self.db(move |s| s.drop_rematch(old)).await;
            return Ok(());
        };
        let new = taken.id;
        self.db(move |s| s.set_rematch(old, new)).await?;
        room.set_rematch(new);
        cell.announce(&room);
        Ok(())
    }
}
