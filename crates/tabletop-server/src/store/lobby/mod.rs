//! The lobby in both backends: the seats waiting for a person and the
//! rematches, so that every process on one database lists, seats and
//! rematches alike, and a restart forgets none of them.
//!
//! An open seat is a row of `open_seats`: first a place reserved for a
//! client (no match yet), counted against the lobby's caps in the
//! transaction that inserts it, then filled with its match. Its seat
//! token is not stored, not even sealed: the token made with the match is
//! thrown away, and a person taking the seat gets a new one, whose seal
//! replaces the match's in the transaction that deletes the row (so two
//! people, in one process or two, never both take it). The invitation is
//! kept as its seal, the client that opened it as a digest of its
//! address.
//!
//! A rematch is a row of `rematches`: claimed first (no rematch yet) by
//! the seat that asks first, then set to the match made; the other seat
//! finds it made, or being made.

use super::StoreResult;

#[cfg(feature = "postgres")]
mod pg;
mod sqlite;

/// A seat to leave open in the place reserved for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenSeat {
    /// The match.
    pub id: i64,
    /// The seat a person takes.
    pub seat: u8,
    /// The invitation's seal.
    pub invite: String,
    /// Whether it is listed in the lobby (else open to the invitation
    /// only).
    pub listed: bool,
}

/// A listed seat, as the lobby shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedSeat {
    /// The match.
    pub id: i64,
    /// Its game specification.
    pub spec: String,
    /// The seat a person takes.
    pub seat: u8,
    /// When it was opened (Unix seconds).
    pub since: i64,
}

/// Why a place in the lobby is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceRefused {
    /// The lobby holds its most seats.
    Full,
    /// The client holds its most seats.
    ClientFull,
}

/// Why an open seat is not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakeRefused {
    /// The match has no seat open (none, taken, or not the one asked).
    NoSeat,
    /// The seat is not listed, and the invitation is not its.
    NotInvited,
}

/// The caps of a new place, and the age past which rows are forgotten.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// Seats open or reserved in all, at most.
    pub most: usize,
    /// Seats open or reserved by one client, at most (0: no limit).
    pub per_client: usize,
    /// Now (Unix seconds).
    pub now: i64,
    /// Seats opened before this (Unix seconds) are forgotten.
    pub seats_since: i64,
    /// Places left unfilled since before this are forgotten (their
    /// process stopped while it made the match).
    pub places_since: i64,
}

/// Who makes a rematch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RematchClaim {
    /// This caller: it makes the match, then [`Lobbies::set_rematch`]
    /// (or [`Lobbies::drop_rematch`] if it fails).
    Yours,
    /// Another caller is making it now.
    Making,
    /// It is made: this match.
    Made(i64),
}

/// What the lobby holds of one match, read with it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LobbyState {
    /// Its seat waiting for a person, if one is.
    pub waiting: Option<u8>,
    /// Its rematch, once made.
    pub rematch: Option<i64>,
}

impl LobbyState {
    /// The state of the columns `seat` (of `open_seats`) and `rematch_id`.
    pub(crate) fn of(seat: Option<i64>, rematch: Option<i64>) -> LobbyState {
        LobbyState {
            waiting: seat.and_then(|s| u8::try_from(s).ok()),
            rematch,
        }
    }
}

/// The lobby's records (both backends).
pub trait Lobbies {
    /// Reserves a place for a seat of `client` (a digest of its address)
    /// within `caps`, after forgetting the rows older than the caps say;
    /// the place's id, or why not (nothing written).
    fn reserve_place(&self, client: &str, caps: Caps) -> StoreResult<Result<i64, PlaceRefused>>;

    /// Leaves `seat` open in `place`.
    fn fill_place(&self, place: i64, seat: &OpenSeat) -> StoreResult<()>;

    /// Gives back a place whose match was not made.
    fn free_place(&self, place: i64) -> StoreResult<()>;

    /// Takes the open seat of match `id` (only `only`, if given) for a
    /// person, if it is listed or `invite` (a seal) is its invitation, and
    /// seals it with `token` (a seal): the seat taken, or why not.
    fn take_seat(
        &self,
        id: i64,
        only: Option<u8>,
        invite: Option<&str>,
        token: &str,
    ) -> StoreResult<Result<u8, TakeRefused>>;

    /// Forgets the open seat of match `id` (it ended).
    fn close_seat(&self, id: i64) -> StoreResult<()>;

    /// The listed seats opened at `since` (Unix seconds) or later, oldest
    /// first.
    fn listed_seats(&self, since: i64) -> StoreResult<Vec<ListedSeat>>;

    /// Claims the making of match `old`'s rematch.
    fn claim_rematch(&self, old: i64) -> StoreResult<RematchClaim>;

    /// Records `new` as the rematch of `old`, whose making was claimed.
    fn set_rematch(&self, old: i64, new: i64) -> StoreResult<()>;

    /// Gives back the claim on `old`'s rematch (its making failed).
    fn drop_rematch(&self, old: i64) -> StoreResult<()>;
}

/// `$N` parameters numbered in order of first use (SQLite binds them by
/// position).
mod sql {
    pub const FORGET: &str = "DELETE FROM open_seats
         WHERE (match_id IS NOT NULL AND since < $1) OR (match_id IS NULL AND since < $2)";
    pub const COUNT: &str =
        "SELECT count(*), coalesce(sum(CASE WHEN owner = $1 THEN 1 ELSE 0 END), 0)
         FROM open_seats";
    pub const RESERVE: &str = "INSERT INTO open_seats (owner, since) VALUES ($1, $2) RETURNING id";
    pub const FILL: &str =
        "UPDATE open_seats SET match_id = $1, seat = $2, invite = $3, listed = $4 WHERE id = $5";
    pub const FREE: &str = "DELETE FROM open_seats WHERE id = $1 AND match_id IS NULL";
    pub const SEAT_OF: &str = "SELECT seat, invite, listed FROM open_seats WHERE match_id = $1";
    pub const TAKE: &str = "DELETE FROM open_seats WHERE match_id = $1 AND seat = $2";
    pub const SEAL: [&str; 2] = [
        "UPDATE matches SET token0 = $1 WHERE id = $2",
        "UPDATE matches SET token1 = $1 WHERE id = $2",
    ];
    pub const CLOSE: &str = "DELETE FROM open_seats WHERE match_id = $1";
    pub const LISTED: &str = "SELECT o.match_id, m.spec, o.seat, o.since
         FROM open_seats o JOIN matches m ON m.id = o.match_id
         WHERE o.listed = 1 AND o.since >= $1 ORDER BY o.since, o.match_id";
    pub const CLAIM_REMATCH: &str =
        "INSERT INTO rematches (match_id) VALUES ($1) ON CONFLICT (match_id) DO NOTHING";
    pub const REMATCH_OF: &str = "SELECT rematch_id FROM rematches WHERE match_id = $1";
    pub const SET_REMATCH: &str = "UPDATE rematches SET rematch_id = $1 WHERE match_id = $2";
    pub const DROP_REMATCH: &str =
        "DELETE FROM rematches WHERE match_id = $1 AND rematch_id IS NULL";
    // Retention deletes a match's lobby rows before the match.
    pub const DELETE_OF: [&str; 2] = [
        "DELETE FROM open_seats WHERE match_id = $1",
        "DELETE FROM rematches WHERE match_id = $1 OR rematch_id = $1",
    ];
}

pub(super) use sql::DELETE_OF;

/// A place within `caps`, given the seats `all` counts and the client's
/// `mine`.
fn within(caps: Caps, all: i64, mine: i64) -> Result<(), PlaceRefused> {
    let (all, mine) = (all.max(0) as usize, mine.max(0) as usize);
    if all >= caps.most {
        Err(PlaceRefused::Full)
    } else if caps.per_client != 0 && mine >= caps.per_client {
        Err(PlaceRefused::ClientFull)
    } else {
        Ok(())
    }
}

/// Whether a person may take the seat whose row is (`seat`, `invite`,
/// `listed`): `only` names the seat if it must be that one.
fn may_take(
    row: (Option<i64>, Option<String>, i64),
    only: Option<u8>,
    invite: Option<&str>,
) -> Result<u8, TakeRefused> {
    let (Some(seat), stored, listed) = row else {
        return Err(TakeRefused::NoSeat);
    };
    let seat = u8::try_from(seat).map_err(|_| TakeRefused::NoSeat)?;
    if only.is_some_and(|o| o != seat) {
        return Err(TakeRefused::NoSeat);
    }
    // A seal is a digest of a 128-bit secret: comparing digests tells an
    // attacker nothing about the secret, so no constant time is needed.
    let invited = invite.is_some() && stored.as_deref() == invite;
    if only.is_none() && listed == 0 && !invited {
        return Err(TakeRefused::NotInvited);
    }
    Ok(seat)
}

/// The rematch claim a row of `rematches` gives the second caller.
fn claimed(rematch: Option<i64>) -> RematchClaim {
    rematch.map_or(RematchClaim::Making, RematchClaim::Made)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::sqlite::Sqlite;
    use crate::store::{Progress, Records};
    use std::path::Path;

    fn open() -> Sqlite {
        Sqlite::open(Path::new(":memory:"), false).unwrap()
    }

    fn a_match(store: &Sqlite) -> i64 {
        store
            .create(
                "nim",
                1,
                &["human".into(), "human".into()],
                &[Some("a".repeat(64)), Some("b".repeat(64))],
                &[],
                Progress::PersonDue,
                None,
            )
            .unwrap()
    }

    fn caps(most: usize, per_client: usize) -> Caps {
        Caps {
            most,
            per_client,
            now: 1000,
            seats_since: 0,
            places_since: 0,
        }
    }

    fn open_seat(store: &Sqlite, id: i64, listed: bool) {
        let place = store.reserve_place("c", caps(10, 0)).unwrap().unwrap();
        let seat = OpenSeat {
            id,
            seat: 1,
            invite: "i".repeat(64),
            listed,
        };
        store.fill_place(place, &seat).unwrap();
    }

    #[test]
    fn places_count_against_the_lobby_and_the_client() {
        let store = open();
        assert!(store.reserve_place("a", caps(3, 2)).unwrap().is_ok());
        assert!(store.reserve_place("a", caps(3, 2)).unwrap().is_ok());
        assert_eq!(
            store.reserve_place("a", caps(3, 2)).unwrap(),
            Err(PlaceRefused::ClientFull)
        );
        let b = store.reserve_place("b", caps(3, 2)).unwrap().unwrap();
        assert_eq!(
            store.reserve_place("c", caps(3, 2)).unwrap(),
            Err(PlaceRefused::Full)
        );
        store.free_place(b).unwrap();
        assert!(store.reserve_place("c", caps(3, 2)).unwrap().is_ok());
    }

    #[test]
    fn old_seats_and_unfilled_places_are_forgotten() {
        let store = open();
        let id = a_match(&store);
        open_seat(&store, id, true);
        store.reserve_place("x", caps(10, 0)).unwrap().unwrap();
        let later = Caps {
            now: 5000,
            seats_since: 900,
            places_since: 2000,
            ..caps(2, 0)
        };
        // The place (since 1000) is forgotten, the seat (1000 >= 900) kept.
        assert!(store.reserve_place("y", later).unwrap().is_ok());
        assert_eq!(store.listed_seats(900).unwrap().len(), 1);
        let forget_all = Caps {
            seats_since: 1001,
            ..later
        };
        assert!(store.reserve_place("z", forget_all).unwrap().is_ok());
        assert_eq!(store.listed_seats(0).unwrap().len(), 0);
    }

    #[test]
    fn a_listed_seat_is_taken_once_and_sealed_with_the_new_token() {
        let store = open();
        let id = a_match(&store);
        open_seat(&store, id, true);
        let listed = store.listed_seats(0).unwrap();
        assert_eq!(
            listed,
            vec![ListedSeat {
                id,
                spec: "nim".into(),
                seat: 1,
                since: 1000
            }]
        );
        assert_eq!(store.get(id).unwrap().unwrap().lobby.waiting, Some(1));
        let seal = "c".repeat(64);
        assert_eq!(store.take_seat(id, None, None, &seal).unwrap(), Ok(1));
        assert_eq!(
            store.take_seat(id, None, None, &seal).unwrap(),
            Err(TakeRefused::NoSeat)
        );
        let m = store.get(id).unwrap().unwrap();
        assert_eq!(m.lobby.waiting, None);
        assert_eq!(m.tokens, [Some("a".repeat(64)), Some(seal)]);
    }

    #[test]
    fn an_unlisted_seat_needs_its_invitation() {
        let store = open();
        let id = a_match(&store);
        open_seat(&store, id, false);
        assert!(store.listed_seats(0).unwrap().is_empty());
        let wrong = "j".repeat(64);
        assert_eq!(
            store.take_seat(id, None, Some(&wrong), "t").unwrap(),
            Err(TakeRefused::NotInvited)
        );
        assert_eq!(
            store.take_seat(id, None, None, "t").unwrap(),
            Err(TakeRefused::NotInvited)
        );
        let right = "i".repeat(64);
        assert_eq!(store.take_seat(id, None, Some(&right), "t").unwrap(), Ok(1));
    }

    #[test]
    fn a_rematch_is_made_by_the_first_to_claim_it() {
        let store = open();
        let old = a_match(&store);
        let new = a_match(&store);
        assert_eq!(store.claim_rematch(old).unwrap(), RematchClaim::Yours);
        assert_eq!(store.claim_rematch(old).unwrap(), RematchClaim::Making);
        store.drop_rematch(old).unwrap();
        assert_eq!(store.claim_rematch(old).unwrap(), RematchClaim::Yours);
        store.set_rematch(old, new).unwrap();
        assert_eq!(store.claim_rematch(old).unwrap(), RematchClaim::Made(new));
        // Made, it is no longer given back.
        store.drop_rematch(old).unwrap();
        assert_eq!(store.get(old).unwrap().unwrap().lobby.rematch, Some(new));
        assert_eq!(store.kept(old).unwrap().unwrap().rematch, Some(new));
    }

    #[test]
    fn the_retention_deletes_a_matchs_lobby_rows_with_it() {
        let store = open();
        let old = a_match(&store);
        let new = a_match(&store);
        open_seat(&store, new, true);
        store.claim_rematch(old).unwrap();
        store.set_rematch(old, new).unwrap();
        for id in [old, new] {
            store.finish(id).unwrap();
        }
        assert_eq!(store.expire(1, 2).unwrap(), vec![old, new]);
        let rows = |table: &str| -> i64 {
            let count = format!("SELECT count(*) FROM {table}");
            store.lock().query_row(&count, [], |r| r.get(0)).unwrap()
        };
        assert_eq!((rows("open_seats"), rows("rematches")), (0, 0));
    }
}
