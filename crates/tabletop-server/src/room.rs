//! One match in memory: its record (game, seed, seats, every action id),
//! the state replayed from it, and every action as each seat perceived
//! it. Views are built here, and only from what the viewer may know.

use std::sync::Arc;

use game_env::{episode_rng, DynGame, DynState, EnvError, LegalAction, ProtocolBot};
use game_traits::{Outcome, PlayerId, Turn};
use serde::Serialize;

use crate::seat::Seat;

/// The text a spectator sees for an action the two seats perceive
/// differently.
pub const HIDDEN: &str = "(hidden)";

/// One action of the match as both seats perceived it.
#[derive(Clone, Debug)]
struct Entry {
    /// Who acted: a seat, or `None` for chance.
    by: Option<PlayerId>,
    /// `action_view` for seat 0 and seat 1, taken before it was applied.
    views: [String; 2],
    /// The same views as wire structs.
    structs: [serde_json::Value; 2],
}

impl Entry {
    /// What a spectator sees: the view both seats got if they got the same
    /// (text and struct), otherwise [`HIDDEN`] and no struct.
    fn public(&self) -> (&str, Option<&serde_json::Value>) {
        if self.views[0] == self.views[1] && self.structs[0] == self.structs[1] {
            (&self.views[0], Some(&self.structs[0]))
        } else {
            (HIDDEN, None)
        }
    }
}

/// A match in progress or finished.
pub struct Room {
    /// Its id.
    pub id: i64,
    /// The game under its rules.
    pub game: Arc<dyn DynGame>,
    /// The seed of its chance events and built-in bots.
    pub seed: u64,
    /// Who sits where.
    pub seats: [Seat; 2],
    /// Each human seat's token.
    pub tokens: [Option<[u8; 16]>; 2],
    state: Box<dyn DynState>,
    actions: Vec<usize>,
    log: Vec<Entry>,
    forfeit: Option<(PlayerId, String)>,
    /// The protocol bots' processes, started when first needed; behind a
    /// lock of their own only so that a room can be shared for reading (a
    /// process's reader channel cannot be), and reached through `&mut`.
    cmd_bots: [std::sync::Mutex<Option<ProtocolBot>>; 2],
    /// Whether a task is deciding for a bot seat now.
    pub driving: bool,
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

#[derive(Serialize)]
struct LogOut<'a> {
    step: usize,
    by: String,
    /// The seat that acted (`null` for chance).
    seat: Option<PlayerId>,
    text: &'a str,
    /// The action as the viewer perceived it, as a wire struct (`null` for
    /// a spectator where the seats perceived it differently).
    view: Option<&'a serde_json::Value>,
}

#[derive(Serialize)]
struct ForfeitOut<'a> {
    seat: u8,
    reason: &'a str,
}

#[derive(Serialize)]
struct OutcomeOut<'a> {
    winner: Option<u8>,
    text: String,
    returns: [f64; 2],
    forfeit: Option<ForfeitOut<'a>>,
}

#[derive(Serialize)]
struct ViewOut<'a> {
    id: i64,
    game: &'a str,
    seats: [String; 2],
    you: Option<u8>,
    #[serde(rename = "move")]
    move_number: u32,
    steps: usize,
    to_move: Option<u8>,
    wire: u32,
    observation: serde_json::Value,
    text: String,
    legal: Vec<LegalAction>,
    log: Vec<LogOut<'a>>,
    last: Option<usize>,
    outcome: Option<OutcomeOut<'a>>,
    legend: &'a str,
}

impl Room {
    /// The match `id` replayed from its record: every action applied in
    /// order from the initial state; an action the engine refuses makes
    /// the record unusable (the error names the step).
    pub fn replay(
        id: i64,
        game: Arc<dyn DynGame>,
        seed: u64,
        seats: [Seat; 2],
        tokens: [Option<[u8; 16]>; 2],
        actions: &[usize],
        forfeit: Option<(PlayerId, String)>,
    ) -> Result<Room, String> {
        let mut room = Room {
            id,
            state: game.new_state(),
            game,
            seed,
            seats,
            tokens,
            actions: Vec::with_capacity(actions.len()),
            log: Vec::with_capacity(actions.len()),
            forfeit,
            cmd_bots: Default::default(),
            driving: false,
        };
        for (step, &a) in actions.iter().enumerate() {
            room.push(a).map_err(|e| {
                format!("match {id}: step {step} (action {a}) does not replay: {e}")
            })?;
        }
        Ok(room)
    }

    /// The protocol bot process of `seat`, if started.
    pub fn cmd_bot(&mut self, seat: PlayerId) -> &mut Option<ProtocolBot> {
        self.cmd_bots[seat.index()]
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Every action id so far.
    pub fn actions(&self) -> &[usize] {
        &self.actions
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
        self.log.push(Entry { by, views, structs });
        Ok(())
    }

    /// Plays the chance events now due, each drawn from [`chance_rng`] of
    /// its step; returns how many.
    pub fn run_chance(&mut self) -> usize {
        let mut played = 0;
        while self.state.turn() == Turn::Chance && self.forfeit.is_none() {
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
        self.state = self.game.new_state();
        self.actions.clear();
        self.log.clear();
        for a in actions {
            // These actions replayed before; they replay again.
            let _ = self.push(a);
        }
    }

    /// Whether the match is over (the game ended or a seat forfeited).
    pub fn finished(&self) -> bool {
        self.forfeit.is_some() || self.state.is_terminal()
    }

    /// Records that `seat` forfeits.
    pub fn set_forfeit(&mut self, seat: PlayerId, reason: String) {
        self.forfeit = Some((seat, reason));
    }

    /// The forfeit, if any.
    pub fn forfeit(&self) -> Option<&(PlayerId, String)> {
        self.forfeit.as_ref()
    }

    /// The seat that decides now, if the match is on and not at chance.
    pub fn to_move(&self) -> Option<PlayerId> {
        match self.state.turn() {
            Turn::Player(p) if self.forfeit.is_none() => Some(p),
            _ => None,
        }
    }

    /// The bot seat to decide now, if any.
    pub fn bot_due(&self) -> Option<PlayerId> {
        self.to_move().filter(|p| !self.seats[p.index()].is_human())
    }

    /// The state (for bots, which see it only through their observation).
    pub fn state(&self) -> &dyn DynState {
        &*self.state
    }

    /// Why action `id` is not playable by `seat` now, if it is not.
    pub fn check(&self, seat: PlayerId, id: usize) -> Result<(), crate::error::ApiError> {
        use crate::error::ApiError;
        if self.finished() {
            return Err(ApiError::Conflict("the match is over".into()));
        }
        match self.to_move() {
            Some(p) if p == seat => {}
            Some(p) => {
                return Err(ApiError::Conflict(format!(
                    "it is not your turn: {p} is to move"
                )))
            }
            None => return Err(ApiError::Conflict("no player decides now".into())),
        }
        self.state.check_id(id).map_err(ApiError::from)
    }

    fn outcome_out(&self) -> Option<OutcomeOut<'_>> {
        if let Some((seat, reason)) = &self.forfeit {
            let winner = seat.other();
            let mut returns = [0.0; 2];
            returns[winner.index()] = 1.0;
            returns[seat.index()] = -1.0;
            return Some(OutcomeOut {
                winner: Some(winner.index() as u8),
                text: format!("{winner} wins: {seat} forfeits ({reason})"),
                returns,
                forfeit: Some(ForfeitOut {
                    seat: seat.index() as u8,
                    reason,
                }),
            });
        }
        let outcome = self.state.outcome()?;
        Some(OutcomeOut {
            winner: outcome.winner().map(|w| w.index() as u8),
            text: match outcome {
                Outcome::Win(p) => format!("{p} wins"),
                Outcome::Draw => "draw".to_owned(),
            },
            returns: self.state.returns(),
            forfeit: None,
        })
    }

    /// The view of `viewer` (a seat) or of a spectator (`None`), as JSON
    /// bytes. A seat's view is built from its observation, its legal
    /// actions when it is to move, and its own view of each action; the
    /// spectator's from the actions both seats perceived alike, with
    /// [`HIDDEN`] for the others, and no observation.
    pub fn view(&self, viewer: Option<PlayerId>) -> Result<Vec<u8>, EnvError> {
        let to_move = self.to_move();
        let legal = if viewer.is_some() && viewer == to_move {
            self.state.legal_actions()
        } else {
            Vec::new()
        };
        let (observation, text) = match viewer {
            Some(p) => (
                self.state.observation_struct(p)?,
                self.state.observation_text(p),
            ),
            None => (serde_json::Value::Null, self.public_text()),
        };
        let log = self
            .log
            .iter()
            .enumerate()
            .map(|(step, e)| {
                let (text, view) = match viewer {
                    Some(p) => (e.views[p.index()].as_str(), Some(&e.structs[p.index()])),
                    None => e.public(),
                };
                LogOut {
                    step,
                    by: e.by.map_or_else(|| "chance".to_owned(), |p| p.to_string()),
                    seat: e.by,
                    text,
                    view,
                }
            })
            .collect::<Vec<_>>();
        let out = ViewOut {
            id: self.id,
            game: self.game.name(),
            seats: [self.seats[0].to_string(), self.seats[1].to_string()],
            you: viewer.map(|p| p.index() as u8),
            move_number: self.state.move_count(),
            steps: self.actions.len(),
            to_move: to_move.map(|p| p.index() as u8),
            wire: game_traits::WIRE_VERSION,
            observation,
            text,
            legal,
            last: log.len().checked_sub(1),
            log,
            outcome: self.outcome_out(),
            legend: self.game.legend(),
        };
        serde_json::to_vec(&out).map_err(|e| EnvError::Internal(format!("serialising a view: {e}")))
    }

    fn public_text(&self) -> String {
        let mut text = format!(
            "{} (spectator view: each seat's observation is private)\nmove {}",
            self.game.name(),
            self.state.move_count()
        );
        match (self.to_move(), self.finished()) {
            (Some(p), _) => text.push_str(&format!(", {p} to move")),
            (None, true) => text.push_str(", the match is over"),
            (None, false) => {}
        }
        text
    }
}
