//! The lobby: the seats waiting for a person (listed, or open to their
//! invitation) and the rematch of each finished match that has one. The
//! matches between people that use it are `people.rs`'s.
//!
//! The open seats and the rematches live in memory only: after a restart
//! the matches are in the store, but nobody can join a seat left open.
//! The seats are capped in all ([`MAX_OPEN`]) and per client: a match
//! between people takes its place (`Lobby::reserve`) before it is
//! created, checked and taken under the lock of the seats.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use game_traits::PlayerId;
use serde::Serialize;

use crate::client::ClientKey;
use crate::refusal::MatchError;
use crate::token::Token;
use crate::views::Extra;

/// The most matches waiting for a person at once (a full lobby refuses a
/// new one until one is taken or finished).
pub const MAX_OPEN: usize = 1000;

/// How long a seat waits for a person before the lobby forgets it (its
/// match stays, playable by the seat already taken, but nobody can join).
pub const MAX_WAIT_S: u64 = 24 * 3600;

/// A seat waiting for a person.
struct Open {
    game: String,
    seat: PlayerId,
    token: Token,
    invite: Token,
    listed: bool,
    since: u64,
    /// The client that opened it.
    owner: ClientKey,
}

/// The seats waiting, and the places reserved for seats about to open.
#[derive(Default)]
struct Seats {
    open: HashMap<i64, Open>,
    reserved: HashMap<ClientKey, usize>,
}

impl Seats {
    fn release(&mut self, client: ClientKey) {
        if let Some(n) = self.reserved.get_mut(&client) {
            *n -= 1;
            if *n == 0 {
                self.reserved.remove(&client);
            }
        }
    }
}

/// A place in the lobby reserved for a client's seat, until the seat
/// opens ([`Lobby::open_seat`]) or its match fails to be made (dropped).
pub(crate) struct SeatPlace<'a> {
    lobby: &'a Lobby,
    /// The client; `None` once its seat is open.
    client: Option<ClientKey>,
}

impl Drop for SeatPlace<'_> {
    fn drop(&mut self) {
        if let Some(client) = self.client {
            lock(&self.lobby.seats).release(client);
        }
    }
}

/// The open seats and the rematches.
#[derive(Default)]
pub struct Lobby {
    seats: Mutex<Seats>,
    /// Finished match → its rematch.
    rematches: Mutex<HashMap<i64, i64>>,
    /// Held while a rematch is created, so that the two seats asking at
    /// once make one match.
    creating: tokio::sync::Mutex<()>,
}

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

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn now_s() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl Lobby {
    /// What the views of match `id` say beyond the room.
    pub fn extra(&self, id: i64) -> Extra {
        Extra {
            waiting: lock(&self.seats).open.get(&id).map(|o| o.seat),
            rematch: lock(&self.rematches).get(&id).copied(),
            replay_of: None,
        }
    }

    /// Forgets the seats that waited longer than [`MAX_WAIT_S`].
    fn prune(&self) {
        let now = now_s();
        lock(&self.seats)
            .open
            .retain(|_, o| now.saturating_sub(o.since) <= MAX_WAIT_S);
    }

    /// The listed matches waiting for a person, oldest first.
    pub fn listed(&self) -> Vec<Listed> {
        self.prune();
        let mut out: Vec<Listed> = lock(&self.seats)
            .open
            .iter()
            .filter(|(_, o)| o.listed)
            .map(|(&id, o)| Listed {
                id,
                game: o.game.clone(),
                seat: o.seat.index() as u8,
                since: o.since,
            })
            .collect();
        out.sort_by_key(|l| (l.since, l.id));
        out
    }

    /// Forgets the open seat of match `id` (it finished).
    pub(crate) fn close(&self, id: i64) {
        lock(&self.seats).open.remove(&id);
    }

    /// A place for one more seat of `client`, unless the lobby holds
    /// [`MAX_OPEN`] or `client` has `per_client` (0: no limit) open or
    /// reserved.
    pub(crate) fn reserve(
        &self,
        client: ClientKey,
        per_client: usize,
    ) -> Result<SeatPlace<'_>, MatchError> {
        self.prune();
        let mut seats = lock(&self.seats);
        let reserved: usize = seats.reserved.values().sum();
        if seats.open.len() + reserved >= MAX_OPEN {
            return Err(MatchError::LobbyFull(MAX_OPEN));
        }
        let mine = seats.open.values().filter(|o| o.owner == client).count()
            + seats.reserved.get(&client).copied().unwrap_or(0);
        if per_client != 0 && mine >= per_client {
            return Err(MatchError::TooManySeats { most: per_client });
        }
        *seats.reserved.entry(client).or_insert(0) += 1;
        Ok(SeatPlace {
            lobby: self,
            client: Some(client),
        })
    }

    /// Leaves `seat` of match `id` (of `game`) open to a person, with its
    /// `token`, listed or open to `invite` only, in the `place` reserved
    /// for it.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn open_seat(
        &self,
        mut place: SeatPlace<'_>,
        id: i64,
        game: String,
        seat: PlayerId,
        token: Token,
        invite: Token,
        listed: bool,
    ) {
        let Some(owner) = place.client.take() else {
            return;
        };
        let open = Open {
            game,
            seat,
            token,
            invite,
            listed,
            since: now_s(),
            owner,
        };
        let mut seats = lock(&self.seats);
        seats.release(owner);
        seats.open.insert(id, open);
    }

    /// Whether a seat of match `id` waits for a person.
    pub(crate) fn waiting(&self, id: i64) -> bool {
        lock(&self.seats).open.contains_key(&id)
    }

    /// Takes the open seat of match `id` (`finished` if it is over) with
    /// `invite`, if it may be taken.
    pub(crate) fn take(
        &self,
        id: i64,
        finished: bool,
        invite: Option<Token>,
    ) -> Result<Taken, MatchError> {
        let mut seats = lock(&self.seats);
        let open = &mut seats.open;
        let Some(o) = open.get(&id) else {
            return Err(MatchError::NoOpenSeat);
        };
        if finished {
            open.remove(&id);
            return Err(MatchError::Over);
        }
        let invited = invite.is_some_and(|i| o.invite.same(&i));
        if !(o.listed || invited) {
            return Err(MatchError::NotInvited);
        }
        let taken = Taken {
            id,
            seat: o.seat.index() as u8,
            token: o.token.to_string(),
            invite: None,
        };
        open.remove(&id);
        Ok(taken)
    }

    /// Held while a rematch is created, so that the two seats asking at
    /// once make one match.
    pub(crate) async fn creating(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.creating.lock().await
    }

    /// The rematch of match `old`, if one was made.
    pub(crate) fn rematch_of(&self, old: i64) -> Option<i64> {
        lock(&self.rematches).get(&old).copied()
    }

    /// Records that match `new` replays `old` with seats swapped.
    pub(crate) fn set_rematch(&self, old: i64, new: i64) {
        lock(&self.rematches).insert(old, new);
    }

    /// Takes the seat of the rematch `new` left for `seat` of the match
    /// it replays (the other seat: seats swap), if it is still open.
    pub(crate) fn take_rematch(&self, new: i64, seat: PlayerId) -> Option<Taken> {
        let mut seats = lock(&self.seats);
        let open = &mut seats.open;
        match open.get(&new) {
            Some(o) if o.seat == seat.other() => {
                let taken = Taken {
                    id: new,
                    seat: o.seat.index() as u8,
                    token: o.token.to_string(),
                    invite: None,
                };
                open.remove(&new);
                Some(taken)
            }
            _ => None,
        }
    }
}
