//! Matches between people: a match waits with one seat open until a person
//! takes it (anyone, if it is listed in the lobby; otherwise whoever holds
//! its invitation), a seat resigns (a forfeit, stored like a bot's), and a
//! finished match is played again with seats swapped (the rematch: the
//! first of the two to ask creates it, the second takes its other seat,
//! under the same time control). A seat offers a draw, the other accepts
//! (an agreed draw, stored) or declines; moving declines an offer made to
//! the mover. The seats waiting and the rematches are the lobby's ([`crate::lobby`]).

use std::sync::Arc;

use game_traits::PlayerId;

use crate::client::ClientKey;
use crate::clock::Asked;
use crate::lobby::Taken;
use crate::memory::Cell;
use crate::refusal::MatchError;
use crate::room::RESIGNED;
use crate::seat::Seat;
use crate::server::Server;
use crate::token::Token;

impl Server {
    /// Creates a match of `game` under `control` between people: the
    /// creator sits in `seat`, the other seat waits for a person (the
    /// clock starts when they join), listed in the lobby if `listed`.
    /// Returns the creator's seat and token and the invitation. Refused
    /// (429) when the lobby is full, or `client` has as many seats waiting
    /// as it may.
    pub async fn open_match(
        self: &Arc<Self>,
        client: ClientKey,
        game: &str,
        seat: PlayerId,
        listed: bool,
        seed: Option<u64>,
        control: Asked,
    ) -> Result<Taken, MatchError> {
        let place = self.reserve_place(client).await?;
        let humans = ["human".to_owned(), "human".to_owned()];
        let (cell, created) = match self
            .create_cell(client, game, &humans, seed, control, false)
            .await
        {
            Ok(made) => made,
            Err(e) => {
                self.free_place(place).await;
                return Err(e);
            }
        };
        // The other seat's token is thrown away: whoever takes the seat
        // gets a new one (`Server::take_seat`), so the store never holds a
        // token that seats them.
        let mine = created
            .token_of(seat)
            .ok_or_else(|| MatchError::internal("a seat without a token"))?
            .to_owned();
        let invite = Token::new()?;
        self.open_seat(place, &cell, seat.other(), invite, listed)
            .await?;
        Ok(Taken {
            id: created.id,
            seat: seat.index() as u8,
            token: mine,
            invite: Some(invite.to_string()),
        })
    }

    /// Takes the open seat of match `cell`: anyone may take a listed one,
    /// an unlisted one needs its `invite`. The clock starts.
    pub async fn join(
        self: &Arc<Self>,
        cell: &Arc<Cell>,
        invite: Option<Token>,
    ) -> Result<Taken, MatchError> {
        let taken = self.take_seat(cell, None, invite).await?;
        let mut room = cell.room().write().await;
        let id = room.id();
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
        if room.lobby().waiting.is_some() {
            return Err(MatchError::SeatStillOpen);
        }
        match (offer, room.draw_offer()) {
            (true, Some(by)) if by == seat.other() => {
                let id = room.id();
                self.db(move |s| s.agree_draw(id)).await?;
                room.set_agreed_draw();
                self.settle(&room).await;
            }
            (true, _) => {
                let id = room.id();
                let by = seat.index() as u8;
                self.db(move |s| s.offer_draw(id, Some(by))).await?;
                room.set_draw_offer(Some(seat));
            }
            (false, Some(_)) => {
                let id = room.id();
                self.db(move |s| s.offer_draw(id, None)).await?;
                room.set_draw_offer(None);
            }
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
        self.close_seat(&mut room).await?;
        cell.announce(&room);
        self.live_view(&room, Some(seat))
    }

    /// The rematch of the finished match `cell` for `seat`: the same game
    /// with seats swapped. The first seat to ask creates it (against the
    /// same bot, or with the other person's seat open for them), the
    /// other person then takes their seat in it.
    pub async fn rematch(
        self: &Arc<Self>,
        client: ClientKey,
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
        if let Some(new) = self.claim_rematch(old).await? {
            // Seats swap: this seat's place in the rematch is the other.
            let rematch = self.cell(new).await?.ok_or(MatchError::RematchTaken)?;
            return self.take_seat(&rematch, Some(seat.other()), None).await;
        }
        let new_seat = seat.other();
        let made = if seats.iter().all(Seat::is_human) {
            self.open_match(client, &spec, new_seat, false, None, control)
                .await
                .map(|taken| Taken {
                    invite: None,
                    ..taken
                })
        } else {
            let mut swapped = [seats[1].to_string(), seats[0].to_string()];
            swapped[new_seat.index()] = "human".into();
            self.create(client, &spec, &swapped, None, control, true)
                .await
                .and_then(|created| {
                    let token = created
                        .token_of(new_seat)
                        .ok_or(MatchError::RematchWithoutPerson)?
                        .to_owned();
                    Ok(Taken {
                        id: created.id,
                        seat: new_seat.index() as u8,
                        token,
                        invite: None,
                    })
                })
        };
        self.made_rematch(cell, &made).await?;
        made
    }
}
