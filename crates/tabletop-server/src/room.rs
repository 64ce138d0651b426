//! One match in memory: its record (game, seed, seats, every action id),
//! the state replayed from it, and every action as each seat perceived it
//! (the log the views are built from, in [`crate::views`]). The fields are
//! private: the record changes only by [`Room::push`], [`Room::truncate`],
//! [`Room::set_forfeit`] and [`Room::set_agreed_draw`], so the log never
//! disagrees with the state. Beside the record it holds the clocks
//! ([`crate::clock`]) and a draw offer, which no replay reads.

use std::sync::Arc;

use game_env::{episode_rng, DynGame, DynState, EnvError};
use game_traits::{PlayerId, Turn};
use serde_json::value::RawValue;

use crate::clock::Clock;
use crate::program::Program;
use crate::refusal::MatchError;
pub use crate::refusal::ReplayError;
use crate::seat::Seat;
use crate::store::{LobbyState, Progress};
use crate::token::{self, Seal, Token};

/// The text a spectator sees for an action the two seats perceive
/// differently.
pub const HIDDEN: &str = "(hidden)";

/// The reason stored when a seat resigns (a forfeit).
pub const RESIGNED: &str = "resigned";

/// One action of the match as both seats perceived it.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Who acted: a seat, or `None` for chance.
    by: Option<PlayerId>,
    /// `action_view` for seat 0 and seat 1, taken before it was applied.
    views: [String; 2],
    /// The same views as wire structs.
    structs: [serde_json::Value; 2],
    /// The action told to seat 0 and seat 1 in words ([`DynState::told`]:
    /// cards and pieces by name, what a fight showed), taken before it was
    /// applied.
    told: [String; 2],
    /// The same as events, one JSON text shared by both seats when they
    /// were told alike (a log holds one per step).
    events: [Arc<RawValue>; 2],
    /// What a spectator is told in words when both seats got the same
    /// events (then his events are theirs), `None` otherwise.
    public_told: Option<String>,
}

impl Entry {
    /// Who acted: a seat, or `None` for chance.
    pub fn by(&self) -> Option<PlayerId> {
        self.by
    }

    /// What `seat` perceived: text and wire struct.
    pub fn seen_by(&self, seat: PlayerId) -> (&str, &serde_json::Value) {
        (&self.views[seat.index()], &self.structs[seat.index()])
    }

    /// The action told to `seat`: its words and its events (a JSON
    /// array).
    pub fn told_to(&self, seat: PlayerId) -> (&str, &RawValue) {
        (&self.told[seat.index()], &self.events[seat.index()])
    }

    /// The action told to a spectator, when both seats were told alike.
    pub fn told_in_public(&self) -> Option<(&str, &RawValue)> {
        Some((self.public_told.as_deref()?, &self.events[0]))
    }

    /// What a spectator sees: the view both seats got if they got the same
    /// (text and struct), otherwise [`HIDDEN`] and no struct.
    pub fn public(&self) -> (&str, Option<&serde_json::Value>) {
        if self.views[0] == self.views[1] && self.structs[0] == self.structs[1] {
            (&self.views[0], Some(&self.structs[0]))
        } else {
            (HIDDEN, None)
        }
    }
}

/// A match in progress or finished.
pub struct Room {
    id: i64,
    game: Arc<dyn DynGame>,
    seed: u64,
    seats: [Seat; 2],
    /// The human seats' token seals (the tokens themselves are never kept).
    seals: [Option<Seal>; 2],
    state: Box<dyn DynState>,
    actions: Vec<usize>,
    log: Vec<Entry>,
    forfeit: Option<(PlayerId, String)>,
    /// Whether the seats agreed a draw (it ends the match).
    agreed_draw: bool,
    /// The seat offering a draw now.
    draw_offer: Option<PlayerId>,
    /// What the lobby holds of the match (kept in the store, copied here
    /// for its views).
    lobby: LobbyState,
    clock: Clock,
    /// The protocol bots' processes, started when first needed and told
    /// every action; behind a lock of their own only so that a room can be
    /// shared for reading (a process's reader channel cannot be), and
    /// reached through `&mut`.
    cmd_bots: [std::sync::Mutex<Option<Program>>; 2],
}

/// The chance generator of action number `step`: a pure function of the
/// seed and the step, so a replay after a restart draws the same.
pub fn chance_rng(seed: u64, step: usize) -> game_traits::GameRng {
    episode_rng(seed, 0, step as u64)
}

/// The generator of bot seat `seat`'s decision at action number `step`.
pub fn bot_rng(seed: u64, seat: PlayerId, step: usize) -> game_traits::GameRng {
    episode_rng(seed, 1 + seat.index(), step as u64)
}

impl Room {
    /// A new match `id` at the initial state, no action played.
    pub fn new(
        id: i64,
        game: Arc<dyn DynGame>,
        seed: u64,
        seats: [Seat; 2],
        seals: [Option<Seal>; 2],
    ) -> Room {
        Room {
            id,
            state: game.new_state(),
            game,
            seed,
            seats,
            seals,
            actions: Vec::new(),
            log: Vec::new(),
            forfeit: None,
            agreed_draw: false,
            draw_offer: None,
            lobby: LobbyState::default(),
            clock: Clock::default(),
            cmd_bots: Default::default(),
        }
    }

    /// The match `id` replayed from its record: every action applied in
    /// order from the initial state; an action the engine refuses makes
    /// the record unusable (the error names the step).
    pub fn replay(
        id: i64,
        game: Arc<dyn DynGame>,
        seed: u64,
        seats: [Seat; 2],
        seals: [Option<Seal>; 2],
        actions: &[usize],
        forfeit: Option<(PlayerId, String)>,
    ) -> Result<Room, ReplayError> {
        let mut room = Room::new(id, game, seed, seats, seals);
        room.actions.reserve(actions.len());
        room.log.reserve(actions.len());
        room.forfeit = forfeit;
        for (step, &action) in actions.iter().enumerate() {
            room.push(action).map_err(|error| ReplayError {
                id,
                step,
                action,
                error,
            })?;
        }
        Ok(room)
    }

    /// The same match under the id the store gave it.
    pub fn stored_as(mut self, id: i64) -> Room {
        self.id = id;
        self
    }

    /// Its id.
    pub fn id(&self) -> i64 {
        self.id
    }

    /// The game under its rules.
    pub fn game(&self) -> &Arc<dyn DynGame> {
        &self.game
    }

    /// The seed of its chance events and built-in bots.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Who sits where.
    pub fn seats(&self) -> &[Seat; 2] {
        &self.seats
    }

    /// The seat whose token is `token`, if any (constant time).
    pub fn seat_of(&self, token: &Token) -> Option<PlayerId> {
        token::seat_of(&self.seals, token)
    }

    /// Takes the seals of the seats' tokens as stored (a person taking a
    /// seat changes one); whether they changed.
    pub(crate) fn reseal(&mut self, stored: &[Option<String>; 2]) -> bool {
        let seals = [0, 1].map(|i| stored[i].as_deref().and_then(Seal::parse));
        // Seals are digests, compared as text: no secret to time.
        let text = |s: &[Option<Seal>; 2]| s.map(|s| s.map(|s| s.to_string()));
        let changed = text(&seals) != text(&self.seals);
        self.seals = seals;
        changed
    }

    /// Seals `seat` with a new token's `seal` (a person took it).
    pub(crate) fn set_seal(&mut self, seat: PlayerId, seal: Seal) {
        self.seals[seat.index()] = Some(seal);
    }

    /// What the lobby holds of the match.
    pub fn lobby(&self) -> LobbyState {
        self.lobby
    }

    /// Takes what the lobby holds of the match; whether it changed.
    pub(crate) fn set_lobby(&mut self, lobby: LobbyState) -> bool {
        let changed = lobby != self.lobby;
        self.lobby = lobby;
        changed
    }

    /// Leaves `seat` waiting for a person, or no seat.
    pub(crate) fn set_waiting(&mut self, seat: Option<PlayerId>) {
        self.lobby.waiting = seat.map(|p| p.index() as u8);
    }

    /// Records the match's rematch.
    pub(crate) fn set_rematch(&mut self, rematch: i64) {
        self.lobby.rematch = Some(rematch);
    }

    /// The program of `seat`, if started.
    pub(crate) fn cmd_bot(&mut self, seat: PlayerId) -> &mut Option<Program> {
        self.cmd_bots[seat.index()]
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Every action id so far.
    pub fn actions(&self) -> &[usize] {
        &self.actions
    }

    /// Every action so far as each seat perceived it.
    pub fn log(&self) -> &[Entry] {
        &self.log
    }

    /// Applies action `id` (a decision of the seat to move or a chance
    /// outcome); the engine's refusal changes nothing.
    pub fn push(&mut self, id: usize) -> Result<(), EnvError> {
        let by = match self.state.turn() {
            Turn::Player(p) => Some(p),
            Turn::Chance => None,
            Turn::Terminal => return Err(EnvError::NoDecision),
        };
        self.state.check_id(id)?;
        let views = [
            self.state.action_view(PlayerId::P0, id)?,
            self.state.action_view(PlayerId::P1, id)?,
        ];
        let structs = [
            self.state.view_struct(PlayerId::P0, id)?,
            self.state.view_struct(PlayerId::P1, id)?,
        ];
        let seat_told = |seat: PlayerId| {
            self.state
                .told(Some(seat), id)?
                .ok_or_else(|| EnvError::Internal("a seat is always told".to_owned()))
        };
        let (first, second) = (seat_told(PlayerId::P0)?, seat_told(PlayerId::P1)?);
        let public_told = self.state.told(None, id)?.map(|t| t.text);
        let shared: Arc<RawValue> = Arc::from(first.events);
        let events = if public_told.is_some() {
            [shared.clone(), shared]
        } else {
            [shared, Arc::from(second.events)]
        };
        let told = [first.text, second.text];
        for seat in PlayerId::BOTH {
            let bot = self.cmd_bots[seat.index()]
                .get_mut()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some(bot) = bot {
                bot.tell(self.state.as_ref(), by, seat, id)?;
            }
        }
        self.state.apply_id(id)?;
        self.actions.push(id);
        self.log.push(Entry {
            by,
            views,
            structs,
            told,
            events,
            public_told,
        });
        Ok(())
    }

    /// Plays the chance events now due, each drawn from [`chance_rng`] of
    /// its step; returns how many.
    pub fn run_chance(&mut self) -> usize {
        let mut played = 0;
        while self.state.turn() == Turn::Chance && !self.ended() {
            let mut rng = chance_rng(self.seed, self.actions.len());
            let Some(id) = self.state.sample_chance_id(&mut rng) else {
                break;
            };
            if self.push(id).is_err() {
                break;
            }
            played += 1;
        }
        played
    }

    /// Goes back to the first `len` actions (after a failed write).
    pub fn truncate(&mut self, len: usize) {
        if len >= self.actions.len() {
            return;
        }
        let actions = self.actions[..len].to_vec();
        // The bot programs were told of the actions now undone: they are
        // stopped, and started afresh when next due (a protocol bot plays
        // from its observation alone), rather than hear the replay twice.
        for bot in &mut self.cmd_bots {
            *bot.get_mut()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
        }
        self.state = self.game.new_state();
        self.actions.clear();
        self.log.clear();
        for a in actions {
            // These actions replayed before; they replay again.
            let _ = self.push(a);
        }
    }

    /// Whether the match is over (the game ended, a seat forfeited or the
    /// seats agreed a draw).
    pub fn finished(&self) -> bool {
        self.ended() || self.state.is_terminal()
    }

    /// Whether the match ended beside the rules (a forfeit, a draw agreed).
    fn ended(&self) -> bool {
        self.forfeit.is_some() || self.agreed_draw
    }

    /// Records that `seat` forfeits (the clocks stop).
    pub fn set_forfeit(&mut self, seat: PlayerId, reason: String) {
        self.forfeit = Some((seat, reason));
        self.draw_offer = None;
        self.clock.stop(tokio::time::Instant::now());
    }

    /// Records that the seats agreed a draw (the clocks stop).
    pub fn set_agreed_draw(&mut self) {
        self.agreed_draw = true;
        self.draw_offer = None;
        self.clock.stop(tokio::time::Instant::now());
    }

    /// Whether the seats agreed a draw.
    pub fn agreed_draw(&self) -> bool {
        self.agreed_draw
    }

    /// The seat offering a draw now.
    pub fn draw_offer(&self) -> Option<PlayerId> {
        self.draw_offer
    }

    /// Sets (or withdraws, `None`) the draw offer.
    pub fn set_draw_offer(&mut self, seat: Option<PlayerId>) {
        self.draw_offer = seat;
    }

    /// The clocks.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The clocks, to set or start.
    pub fn clock_mut(&mut self) -> &mut Clock {
        &mut self.clock
    }

    /// Runs the clock of the seat to move from `now` (none if nobody is).
    pub fn start_clock(&mut self, now: tokio::time::Instant) {
        let seat = self.to_move();
        self.clock.start(seat, now);
    }

    /// Charges `mover`'s clock for the move it made at `now` (its time was
    /// checked before) and runs the clock of the seat to move next.
    pub fn pass_clock(&mut self, mover: PlayerId, now: tokio::time::Instant) {
        // A flag is checked before a move is applied: a refusal here
        // cannot happen, and would only leave the time at zero.
        let _ = self.clock.charge(mover, now);
        self.start_clock(now);
    }

    /// The seat whose time ran out by `now` in a match not over.
    pub fn flag_due(&self, now: tokio::time::Instant) -> Option<PlayerId> {
        if self.finished() {
            return None;
        }
        self.clock.flagged(now)
    }

    /// What a watcher is told: the actions, plus one once the match ended
    /// beside the rules.
    pub fn version(&self) -> u64 {
        self.actions.len() as u64 + u64::from(self.ended())
    }

    /// The forfeit, if any.
    pub fn forfeit(&self) -> Option<&(PlayerId, String)> {
        self.forfeit.as_ref()
    }

    /// The seat that decides now, if the match is on and not at chance.
    pub fn to_move(&self) -> Option<PlayerId> {
        match self.state.turn() {
            Turn::Player(p) if !self.ended() => Some(p),
            _ => None,
        }
    }

    /// Where the match stands, as the store indexes it.
    pub fn progress(&self) -> Progress {
        if self.finished() {
            Progress::Over
        } else if self.bot_due().is_some() {
            Progress::BotDue
        } else {
            Progress::PersonDue
        }
    }

    /// The bot seat to decide now, if any.
    pub fn bot_due(&self) -> Option<PlayerId> {
        self.to_move().filter(|p| !self.seats[p.index()].is_human())
    }

    /// The state (for bots, which see it only through their observation,
    /// and for views, which read only the viewer's part).
    pub fn state(&self) -> &dyn DynState {
        &*self.state
    }

    /// Why action `id` is not playable by `seat` now, if it is not.
    pub fn check(&self, seat: PlayerId, id: usize) -> Result<(), MatchError> {
        if self.finished() {
            return Err(MatchError::Over);
        }
        match self.to_move() {
            Some(p) if p == seat => {}
            Some(p) => return Err(MatchError::NotYourTurn(p)),
            None => return Err(MatchError::NobodyToMove),
        }
        Ok(self.state.check_id(id)?)
    }
}
