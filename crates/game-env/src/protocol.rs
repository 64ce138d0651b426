//! The JSON-lines bot protocol: a bot in any language is a program that
//! reads one JSON object per line on its standard input and answers each
//! `turn` with one line `{"action": ID}` on its standard output
//! (`docs/bot-protocol.md` describes every message).
//!
//! [`ProtocolBot`] is the referee's side: it starts the program through
//! the one process driver ([`BotProcess`]), sends it the seat's
//! observation as its wire struct, the legal actions with ids, texts and
//! wire structs, and the actions since its last turn as its seat perceived
//! them (text and wire struct), and reads the answer with a time limit. A
//! bot that answers an illegal id, garbage, or nothing in time forfeits,
//! and [`BotFailure`] says why.

use std::time::Duration;

use game_traits::{GameRng, PlayerId, Turn, WIRE_VERSION};
use serde::Serialize;
use serde_json::Value;

use crate::dynamic::{DynState, LegalAction};
use crate::opponent::Opponent;
use crate::process::BotProcess;
use crate::{BotFailure, EnvError};

/// The protocol's version, sent in the `start` message. Version 2 sends
/// wire structs (observation, legal actions, events) where version 1 sent
/// the engine's serialisation.
pub const PROTOCOL_VERSION: u32 = 2;

/// How to start a protocol bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolConfig {
    /// The program and its arguments (no shell is involved).
    pub argv: Vec<String>,
    /// How long the bot may think about one decision (and start up).
    pub time_limit: Duration,
    /// The game's name with its parameters, sent in `start`.
    pub game: String,
    /// The game's legend, sent in `start`.
    pub legend: String,
}

#[derive(Serialize)]
struct Start<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    protocol: u32,
    wire: u32,
    game: &'a str,
    seat: PlayerId,
    time_limit_ms: u64,
    legend: &'a str,
}

/// An action told to the bot: who made it (`null` for chance), and what
/// the bot's seat saw of it, as text and as a wire struct.
#[derive(Clone, Debug, Serialize)]
struct Event {
    by: Option<PlayerId>,
    text: String,
    view: Value,
}

#[derive(Serialize)]
struct TurnMsg<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(rename = "move")]
    move_number: u32,
    observation: Value,
    text: String,
    legal: &'a [LegalAction],
    opponent_last: Option<&'a Event>,
    events: &'a [Event],
}

/// A bot program driven over JSON lines; an [`Opponent`] for any game.
pub struct ProtocolBot {
    config: ProtocolConfig,
    process: BotProcess,
    started: bool,
    events: Vec<Event>,
    opponent_last: Option<Event>,
    seat: Option<PlayerId>,
}

impl ProtocolBot {
    /// Starts the program of `config` (its standard error is inherited).
    pub fn spawn(config: ProtocolConfig) -> Result<ProtocolBot, BotFailure> {
        let process = BotProcess::spawn(&config.argv)?;
        Ok(ProtocolBot {
            config,
            process,
            started: false,
            events: Vec::new(),
            opponent_last: None,
            seat: None,
        })
    }

    /// Tells the bot of action `id` about to be applied to `state` (before
    /// its next turn): `by` who acts (`None` for chance); the bot hears it
    /// as `viewer` (its seat) perceives it.
    pub fn tell(
        &mut self,
        state: &dyn DynState,
        by: Option<PlayerId>,
        viewer: PlayerId,
        id: usize,
    ) -> Result<(), EnvError> {
        let event = Event {
            by,
            text: state.action_view(viewer, id)?,
            view: state.view_struct(viewer, id)?,
        };
        if by.is_some() && by != Some(viewer) {
            self.opponent_last = Some(event.clone());
        }
        self.events.push(event);
        Ok(())
    }

    /// Asks the bot for `seat`'s decision in `state`; the answer is checked
    /// against the legal ids sent.
    pub fn decide(&mut self, state: &dyn DynState, seat: PlayerId) -> Result<usize, EnvError> {
        let failed = |bot: &Self, failure| EnvError::Bot {
            bot: bot.name(),
            failure,
        };
        if state.turn() != Turn::Player(seat) {
            return Err(failed(self, BotFailure::NoDecision));
        }
        if self.seat != Some(seat) {
            // The opponent's last action is only known relative to a seat.
            self.opponent_last = None;
            self.seat = Some(seat);
        }
        if !self.started {
            let start = Start {
                kind: "start",
                protocol: PROTOCOL_VERSION,
                wire: WIRE_VERSION,
                game: &self.config.game,
                seat,
                time_limit_ms: u64::try_from(self.config.time_limit.as_millis())
                    .unwrap_or(u64::MAX),
                legend: &self.config.legend,
            };
            let line = serde_json::to_vec(&start)
                .map_err(|e| EnvError::Internal(format!("serialising the start: {e}")))?;
            self.process.send(&line).map_err(|f| failed(self, f))?;
            self.started = true;
        }
        let legal = state.legal_actions();
        let msg = TurnMsg {
            kind: "turn",
            move_number: state.move_count(),
            observation: state.observation_struct(seat)?,
            text: state.observation_text(seat),
            legal: &legal,
            opponent_last: self.opponent_last.as_ref(),
            events: &self.events,
        };
        let line = serde_json::to_vec(&msg)
            .map_err(|e| EnvError::Internal(format!("serialising a turn: {e}")))?;
        self.process.send(&line).map_err(|f| failed(self, f))?;
        self.events.clear();
        let answer = self
            .process
            .receive(self.config.time_limit)
            .map_err(|f| failed(self, f))?;
        let id = parse_answer(&answer).map_err(|f| failed(self, f))?;
        match usize::try_from(id)
            .ok()
            .filter(|id| legal.iter().any(|l| l.id == *id))
        {
            Some(id) => Ok(id),
            None => Err(failed(self, BotFailure::Illegal(id))),
        }
    }
}

/// Reads a bot's answer line, `{"action": ID}` (an unsigned integer id);
/// anything else is [`BotFailure::Garbage`]. Public for the fuzz target of
/// the protocol's input.
pub fn parse_answer(line: &str) -> Result<u64, BotFailure> {
    let garbage = || BotFailure::Garbage(line.chars().take(200).collect());
    let value: Value = serde_json::from_str(line).map_err(|_| garbage())?;
    value
        .as_object()
        .and_then(|o| o.get("action"))
        .and_then(Value::as_u64)
        .ok_or_else(garbage)
}

impl Drop for ProtocolBot {
    fn drop(&mut self) {
        // Closing its input asks it to stop; a bot that does not is killed.
        self.process.close(Some(b"{\"type\":\"quit\"}"));
    }
}

impl Opponent for ProtocolBot {
    fn name(&self) -> String {
        format!("cmd:{}", self.config.argv.join(" "))
    }

    fn choose(
        &mut self,
        state: &dyn DynState,
        seat: PlayerId,
        _rng: &mut GameRng,
    ) -> Result<usize, EnvError> {
        self.decide(state, seat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_other_than_an_action_id_are_garbage() {
        assert_eq!(parse_answer(r#"{"action": 7}"#), Ok(7));
        for bad in [
            r#"{"action": -1}"#,
            r#"{"action": "7"}"#,
            "7",
            "",
            r#"{"act": 7}"#,
        ] {
            assert!(
                matches!(parse_answer(bad), Err(BotFailure::Garbage(_))),
                "{bad}"
            );
        }
    }
}
