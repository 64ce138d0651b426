//! Matches between people: a match waits with one seat open until a person
//! takes it (anyone, if it is listed in the lobby; otherwise whoever holds
//! its invitation), a seat resigns (a forfeit, stored like a bot's), and a
//! finished match is played again with seats swapped (the rematch: the
//! first of the two to ask creates it, the second takes its other seat,
//! under the same time control). A seat offers a draw, the other accepts
//! (an agreed draw, stored) or declines; moving declines an offer made to
//! the mover.
//!
//! The open seats and the rematches live in memory only: after a restart
//! the matches are in the store, but nobody can join a seat left open.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use game_traits::PlayerId;
use serde::Serialize;

use crate::clock::Asked;
use crate::limits::ClientAddr;
use crate::refusal::MatchError;
use crate::room::Room;
use crate::seat::Seat;
use crate::server::{Cell, Server};
use crate::token::{self, Token};
use crate::views::{self, Extra};

/// The most matches waiting for a person at once (a full lobby refuses a
/// new one until one is taken or finished).
pub const MAX_OPEN: usize = 1000;

/// How long a seat waits for a person before the lobby forgets it (its
/// match stays, playable by the seat already taken, but nobody can join).
pub const MAX_WAIT_S: u64 = 24 * 3600;

/// The reason stored when a seat resigns.
pub const RESIGNED: &str = "resigned";

/// A seat waiting for a person.
struct Open {
    game: String,
    seat: PlayerId,
    token: Token,
    invite: Token,
    listed: bool,
    since: u64,
}

/// The open seats and the rematches.
#[derive(Default)]
pub struct Lobby {
    open: Mutex<HashMap<i64, Open>>,
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
            waiting: lock(&self.open).get(&id).map(|o| o.seat),
            rematch: lock(&self.rematches).get(&id).copied(),
            replay_of: None,
        }
    }

    /// Forgets the seats that waited longer than [`MAX_WAIT_S`].
    fn prune(&self) {
        let now = now_s();
        lock(&self.open).retain(|_, o| now.saturating_sub(o.since) <= MAX_WAIT_S);
    }

    /// The listed matches waiting for a person, oldest first.
    pub fn listed(&self) -> Vec<Listed> {
        self.prune();
        let mut out: Vec<Listed> = lock(&self.open)
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
    fn close(&self, id: i64) {
        lock(&self.open).remove(&id);
    }
}

impl Server {
    /// The view of `seat` (or a spectator's) of the live `room`.
    pub(crate) fn live_view(
        &self,
        room: &Room,
        seat: Option<PlayerId>,
    ) -> Result<Vec<u8>, MatchError> {
        Ok(views::view(room, seat, self.lobby.extra(room.id()))?)
    }

    /// Creates a match of `game` under `control` between people: the
    /// creator sits in `seat`, the other seat waits for a person (the
    /// clock starts when they join), listed in the lobby if `listed`.
    /// Returns the creator's seat and token and the invitation.
    pub async fn open_match(
        self: &Arc<Self>,
        client: ClientAddr,
        game: &str,
        seat: PlayerId,
        listed: bool,
        seed: Option<u64>,
        control: Asked,
    ) -> Result<Taken, MatchError> {
        self.lobby.prune();
        if lock(&self.lobby.open).len() >= MAX_OPEN {
            return Err(MatchError::LobbyFull(MAX_OPEN));
        }
        let humans = ["human".to_owned(), "human".to_owned()];
        let created = self
            .create(client, game, &humans, seed, control, false)
            .await?;
        let token_of = |p: PlayerId| {
            created
                .tokens
                .iter()
                .find(|t| usize::from(t.seat) == p.index())
                .and_then(|t| Token::parse(&t.token))
                .ok_or_else(|| MatchError::internal("a seat without a token"))
        };
        let mine = token_of(seat)?;
        let open = Open {
            game: created.game.clone(),
            seat: seat.other(),
            token: token_of(seat.other())?,
            invite: Token::new()?,
            listed,
            since: now_s(),
        };
        let invite = open.invite.to_string();
        lock(&self.lobby.open).insert(created.id, open);
        Ok(Taken {
            id: created.id,
            seat: seat.index() as u8,
            token: mine.to_string(),
            invite: Some(invite),
        })
    }

    /// Takes the open seat of match `cell`: anyone may take a listed one,
    /// an unlisted one needs its `invite`. The clock starts.
    pub async fn join(
        self: &Arc<Self>,
        cell: &Arc<Cell>,
        invite: Option<Token>,
    ) -> Result<Taken, MatchError> {
        let mut room = cell.room().write().await;
        let id = room.id();
        let taken = self.take_seat(id, room.finished(), invite)?;
        if room.clock().control().timed() {
            let now = tokio::time::Instant::now();
            room.start_clock(now);
            let stored = room.clock().stored(now, crate::clock::unix_ms());
            // A failed write leaves the stored clock stopped: a restart
            // gives the seat to move back the time since the join, no
            // more.
            let _ = self.db(move |s| s.set_clock(id, stored.as_deref())).await;
        }
        cell.announce(&room);
        drop(room);
        self.watch_flag(cell.clone());
        Ok(taken)
    }

    /// Takes the open seat of match `id` (`finished` if it is over) with
    /// `invite`, if it may be taken.
    fn take_seat(
        &self,
        id: i64,
        finished: bool,
        invite: Option<Token>,
    ) -> Result<Taken, MatchError> {
        let mut open = lock(&self.lobby.open);
        let Some(o) = open.get(&id) else {
            return Err(MatchError::NoOpenSeat);
        };
        if finished {
            open.remove(&id);
            return Err(MatchError::Over);
        }
        let invited = invite.is_some_and(|i| token::seat_of(&[Some(o.invite), None], &i).is_some());
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

    /// `seat` of match `cell` offers a draw (`offer`), or accepts the
    /// other seat's offer (`offer` again: an agreed draw, stored), or
    /// declines it or withdraws its own (`!offer`). Answers the seat's
    /// view. Refused when the match is over, when no person sits in the
    /// other seat (a bot never accepts), and a decline with no offer.
    pub async fn draw(
        &self,
        cell: &Arc<Cell>,
        seat: PlayerId,
        offer: bool,
    ) -> Result<Vec<u8>, MatchError> {
        let mut room = cell.room().write().await;
        let _claim = self.own(cell, &mut room).await?;
        if let Some(flagged) = room.flag_due(tokio::time::Instant::now()) {
            self.record_flag(&mut room, flagged).await?;
            cell.announce(&room);
        }
        if room.finished() {
            return Err(MatchError::Over);
        }
        if !room.seats()[seat.other().index()].is_human() {
            return Err(MatchError::BotOpponent);
        }
        let waiting = lock(&self.lobby.open).contains_key(&room.id());
        if waiting {
            return Err(MatchError::SeatStillOpen);
        }
        match (offer, room.draw_offer()) {
            (true, Some(by)) if by == seat.other() => {
                let id = room.id();
                self.db(move |s| s.agree_draw(id)).await?;
                room.set_agreed_draw();
                self.settle(&room).await;
            }
            (true, _) => room.set_draw_offer(Some(seat)),
            (false, Some(_)) => room.set_draw_offer(None),
            (false, None) => return Err(MatchError::NoDrawOffered),
        }
        cell.announce(&room);
        self.live_view(&room, Some(seat))
    }

    /// `seat` of match `cell` resigns: a forfeit, stored, then shown to
    /// both seats; answers the seat's view.
    pub async fn resign(&self, cell: &Arc<Cell>, seat: PlayerId) -> Result<Vec<u8>, MatchError> {
        let mut room = cell.room().write().await;
        if room.finished() {
            return Err(MatchError::Over);
        }
        self.record_forfeit(&mut room, seat, RESIGNED.to_owned())
            .await?;
        self.lobby.close(room.id());
        cell.announce(&room);
        self.live_view(&room, Some(seat))
    }

    /// The rematch of the finished match `cell` for `seat`: the same game
    /// with seats swapped. The first seat to ask creates it (against the
    /// same bot, or with the other person's seat open for them), the
    /// other person then takes their seat in it.
    pub async fn rematch(
        self: &Arc<Self>,
        client: ClientAddr,
        cell: &Arc<Cell>,
        seat: PlayerId,
    ) -> Result<Taken, MatchError> {
        let (old, spec, seats, control) = {
            let room = cell.room().read().await;
            if !room.finished() {
                return Err(MatchError::RematchTooEarly);
            }
            (
                room.id(),
                room.game().name().to_owned(),
                room.seats().clone(),
                Asked::Control(room.clock().control()),
            )
        };
        let _creating = self.lobby.creating.lock().await;
        let existing = lock(&self.lobby.rematches).get(&old).copied();
        if let Some(new) = existing {
            // Seats swap: this seat's place in the rematch is the other.
            let taken = {
                let mut open = lock(&self.lobby.open);
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
            };
            let taken = taken.ok_or(MatchError::RematchTaken)?;
            if let Some(c) = self.cell(new).await? {
                let room = c.room().read().await;
                c.announce(&room);
            }
            return Ok(taken);
        }
        let new_seat = seat.other();
        let taken = if seats.iter().all(Seat::is_human) {
            let mut taken = self
                .open_match(client, &spec, new_seat, false, None, control)
                .await?;
            taken.invite = None;
            taken
        } else {
            let mut swapped = [seats[1].to_string(), seats[0].to_string()];
            swapped[new_seat.index()] = "human".into();
            let created = self
                .create(client, &spec, &swapped, None, control, true)
                .await?;
            let token = created
                .tokens
                .into_iter()
                .find(|t| usize::from(t.seat) == new_seat.index())
                .map(|t| t.token)
                .ok_or(MatchError::RematchWithoutPerson)?;
            Taken {
                id: created.id,
                seat: new_seat.index() as u8,
                token,
                invite: None,
            }
        };
        lock(&self.lobby.rematches).insert(old, taken.id);
        let room = cell.room().read().await;
        cell.announce(&room);
        Ok(taken)
    }
}
