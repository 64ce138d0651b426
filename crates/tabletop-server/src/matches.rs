//! The match service: creating a match (seats checked, seed drawn, tokens
//! issued, first chance events played), importing a record, playing a
//! seat's action, and writing every action to the store before it is
//! acknowledged. The HTTP routes ([`crate::http`]) only authenticate and
//! call these.

use std::sync::Arc;

use game_env::EnvError;
use game_traits::PlayerId;
use rand::TryRngCore;

use crate::client::ClientKey;
use crate::clock::{self, Asked, Clock};
use crate::memory::{Cell, Place};
use crate::metrics::Metrics;
use crate::refusal::MatchError;
use crate::room::Room;
use crate::seat::{self, Seat};
use crate::server::Server;
use crate::token::{Seal, Token};
use crate::views::{self, Extra};

/// What `POST /api/matches` returns.
#[derive(Debug, serde::Serialize)]
pub struct Created {
    /// The match id.
    pub id: i64,
    /// The game's canonical name.
    pub game: String,
    /// A token for each human seat.
    pub tokens: Vec<SeatToken>,
}

impl Created {
    /// The token of human seat `seat`, if it is one.
    pub fn token_of(&self, seat: PlayerId) -> Option<&str> {
        self.tokens
            .iter()
            .find(|t| usize::from(t.seat) == seat.index())
            .map(|t| t.token.as_str())
    }
}

/// A human seat's token.
#[derive(Debug, serde::Serialize)]
pub struct SeatToken {
    /// The seat, 0 or 1.
    pub seat: u8,
    /// 32 hex digits (128 bits).
    pub token: String,
}

/// A seed for a match created without one (from the operating system, then
/// stored: the match replays from it like any other).
fn new_seed() -> Result<u64, MatchError> {
    let seed = rand::rngs::OsRng.try_next_u64()?;
    Ok(seed >> 11) // below 2^53, exact in JavaScript
}

/// A new token for each human seat.
fn issue_tokens(seats: &[Seat; 2]) -> Result<[Option<Token>; 2], MatchError> {
    let mut tokens = [None, None];
    for (slot, seat) in tokens.iter_mut().zip(seats) {
        if seat.is_human() {
            *slot = Some(Token::new()?);
        }
    }
    Ok(tokens)
}

/// What the room and the store keep of `tokens`.
fn sealed(tokens: &[Option<Token>; 2]) -> [Option<Seal>; 2] {
    tokens.map(|t| t.map(|t| t.seal()))
}

impl Server {
    /// Creates a match for `client`: `game` a registry specification,
    /// `seats` two seat descriptions, `seed` the seed (drawn when absent),
    /// `control` its time control, whose clock runs from now if `clock_runs`
    /// (a match waiting for a person starts it when they join). The record
    /// and its first chance events are stored before this returns. Refused
    /// (429) while `client` has as many unfinished matches in memory (or
    /// being created) as it may.
    #[allow(clippy::too_many_arguments)]
    pub async fn create(
        self: &Arc<Self>,
        client: ClientKey,
        game: &str,
        seats: &[String],
        seed: Option<u64>,
        control: Asked,
        clock_runs: bool,
    ) -> Result<Created, MatchError> {
        self.create_cell(client, game, seats, seed, control, clock_runs)
            .await
            .map(|(_, created)| created)
    }

    /// [`Server::create`], with the new match's cell.
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn create_cell(
        self: &Arc<Self>,
        client: ClientKey,
        game: &str,
        seats: &[String],
        seed: Option<u64>,
        control: Asked,
        clock_runs: bool,
    ) -> Result<(Arc<Cell>, Created), MatchError> {
        let most = self.config.memory.matches_per_client;
        let Some(place) = self.memory.reserve(client, most) else {
            Metrics::bump(&self.metrics.limited);
            return Err(MatchError::TooManyMatches {
                most,
                retry_after: self.config.memory.idle.as_secs().max(1),
            });
        };
        let g = self.registry.load(game).map_err(MatchError::Game)?;
        let control = control
            .resolve(g.as_ref())
            .map_err(MatchError::TimeControl)?;
        let [s0, s1] = seats else {
            return Err(MatchError::SeatCount(seats.len()));
        };
        let seats = [
            seat::parse(s0, self.config.allow_cmd_bots)?,
            seat::parse(s1, self.config.allow_cmd_bots)?,
        ];
        for seat in &seats {
            if let Seat::Bot(spec) = seat {
                // Refuses a bot the game has not (a missing heuristic).
                g.bot(*spec).map_err(MatchError::UnplayableSeat)?;
            }
            if let Seat::Policy(name) = seat {
                // Refuses a policy the server has not, or one trained on
                // another game or other rules, before the match exists.
                self.config
                    .policies
                    .check(name, g.as_ref())
                    .map_err(MatchError::UnplayablePolicy)?;
            }
            if let Seat::Legacy { prefix, .. } = seat {
                // Refuses an older protocol's program at rules it does not
                // play (a UCC agent at Czech Stratego) before it starts.
                g.legacy_plays(prefix).map_err(MatchError::UnplayableSeat)?;
            }
        }
        let seed = match seed {
            Some(s) => s,
            None => new_seed()?,
        };
        let tokens = issue_tokens(&seats)?;
        let mut room = Room::new(0, g, seed, seats, sealed(&tokens));
        room.run_chance();
        *room.clock_mut() = Clock::new(control);
        if clock_runs {
            room.start_clock(tokio::time::Instant::now());
        }
        let (cell, created) = self.store_new(room, tokens, Some(place)).await?;
        Metrics::bump(&self.metrics.matches_created);
        self.watch_flag(cell.clone());
        self.kick(cell.clone()).await;
        Ok((cell, created))
    }

    /// Stores a match from an existing record (`actions` all replayed, no
    /// chance drawn, no bot started): for tests and for restoring records
    /// made elsewhere. Returns the id and the human seats' tokens.
    pub async fn import(
        self: &Arc<Self>,
        game: &str,
        seats: [Seat; 2],
        seed: u64,
        actions: &[usize],
    ) -> Result<Created, MatchError> {
        let g = self.registry.load(game).map_err(MatchError::Game)?;
        let tokens = issue_tokens(&seats)?;
        let room = Room::replay(0, g, seed, seats, sealed(&tokens), actions, None)?;
        let (_, created) = self.store_new(room, tokens, None).await?;
        Ok(created)
    }

    /// Writes the record of the new `room` (every action it holds), then
    /// puts it in memory under the id the store gave it, in the client's
    /// `place`.
    async fn store_new(
        &self,
        room: Room,
        tokens: [Option<Token>; 2],
        place: Option<Place<'_>>,
    ) -> Result<(Arc<Cell>, Created), MatchError> {
        let game = room.game().name().to_owned();
        let spec = game.clone();
        let seed = room.seed();
        let seat_text = room.seats().clone().map(|s| s.to_string());
        let token_text = sealed(&tokens).map(|s| s.map(|s| s.to_string()));
        let actions = room.actions().to_vec();
        let progress = room.progress();
        let clock = room
            .clock()
            .stored(tokio::time::Instant::now(), clock::unix_ms());
        let id = self
            .db(move |s| {
                s.create(
                    &spec,
                    seed,
                    &seat_text,
                    &token_text,
                    &actions,
                    progress,
                    clock.as_deref(),
                )
            })
            .await?;
        let cell = self.memory.insert(room.stored_as(id), place);
        let tokens = PlayerId::BOTH
            .into_iter()
            .filter_map(|p| {
                tokens[p.index()].map(|t| SeatToken {
                    seat: p.index() as u8,
                    token: t.to_string(),
                })
            })
            .collect();
        Ok((cell, Created { id, game, tokens }))
    }

    /// Plays `action` for `seat` (already authenticated) in match `cell`:
    /// refused with the reason and nothing changed, or applied with the
    /// chance events that follow, stored, and then acknowledged with the
    /// seat's new view. The seat's clock is charged; a move after its time
    /// ran out is refused and its flag falls (a stored forfeit, reason
    /// [`clock::TIME`]).
    pub async fn play(
        self: &Arc<Self>,
        cell: &Arc<Cell>,
        seat: PlayerId,
        action: u64,
    ) -> Result<Vec<u8>, MatchError> {
        let mut room = cell.room().write().await;
        let _claim = self.own(cell, &mut room).await?;
        let id = usize::try_from(action).map_err(|_| EnvError::UnknownActionId {
            id: usize::MAX,
            space: room.game().info().action_space,
        })?;
        let now = tokio::time::Instant::now();
        if let Some(flagged) = room.flag_due(now) {
            self.record_flag(&mut room, flagged).await?;
            cell.announce(&room);
            return Err(MatchError::TimeRanOut(flagged));
        }
        room.check(seat, id)?;
        let from = room.actions().len();
        let clock_before = room.clock().clone();
        let offer_before = room.draw_offer();
        room.push(id)?;
        room.run_chance();
        room.pass_clock(seat, now);
        if offer_before == Some(seat.other()) {
            // Moving declines the offer made to this seat.
            room.set_draw_offer(None);
        }
        if let Err(e) = self.persist(&mut room, from).await {
            *room.clock_mut() = clock_before;
            room.set_draw_offer(offer_before);
            return Err(e);
        }
        Metrics::bump(&self.metrics.moves);
        let view = self.live_view(&room, Some(seat))?;
        cell.announce(&room);
        drop(room);
        self.kick(cell.clone()).await;
        Ok(view)
    }

    /// The view of `seat` (or a spectator's) of the live `room`.
    pub(crate) fn live_view(
        &self,
        room: &Room,
        seat: Option<PlayerId>,
    ) -> Result<Vec<u8>, MatchError> {
        Ok(views::view(room, seat, Extra::of(room.lobby()))?)
    }

    /// Stores that `seat` forfeits, then marks it in the room.
    pub(crate) async fn record_forfeit(
        &self,
        room: &mut Room,
        seat: PlayerId,
        reason: String,
    ) -> Result<(), MatchError> {
        let (id, r) = (room.id(), reason.clone());
        self.db(move |s| s.forfeit(id, seat.index() as u8, &r))
            .await?;
        room.set_forfeit(seat, reason);
        self.settle(room).await;
        Ok(())
    }

    /// Writes the actions from step `from` on; on failure goes back to
    /// `from` so memory never runs ahead of the database.
    pub(crate) async fn persist(&self, room: &mut Room, from: usize) -> Result<(), MatchError> {
        let new = room.actions()[from..].to_vec();
        if new.is_empty() {
            return Ok(());
        }
        let id = room.id();
        let progress = room.progress();
        let clock = room
            .clock()
            .stored(tokio::time::Instant::now(), clock::unix_ms());
        let offer = room.draw_offer().map(|p| p.index() as u8);
        let written = self
            .db(move |s| s.append(id, from, &new, progress, clock.as_deref(), offer))
            .await;
        if written.is_err() {
            room.truncate(from);
        }
        written?;
        self.settle(room).await;
        Ok(())
    }
}
