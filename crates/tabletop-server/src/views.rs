//! What a viewer is sent: a seat's view, built from that seat's
//! observation, its legal actions when it is to move and its own view of
//! each action; a spectator's, from the actions both seats perceived alike
//! ([`crate::room::HIDDEN`] for the others) and no observation. Nothing else of
//! the state is read, so two states a viewer cannot tell apart give that
//! viewer the same bytes.

use game_env::{EnvError, LegalAction};
use game_traits::{Outcome, PlayerId};
use serde::Serialize;
use serde_json::value::RawValue;

use crate::clock::{ClockView, TIME};
use crate::room::{Room, RESIGNED};
use crate::store::LobbyState;

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
    /// The action told to the viewer in the game's words (Battle Line's
    /// tactics cards by name, a Stratego fight's result): the words of
    /// `events`; `null` for a spectator where the seats were told apart.
    told: Option<&'a str>,
    /// The same as data: the events the action showed the viewer, as the
    /// game's event structs (`null` where `told` is).
    events: Option<EventsOut<'a>>,
}

/// A log entry's events with the version of their schema.
#[derive(Serialize)]
struct EventsOut<'a> {
    /// [`game_traits::EVENTS_VERSION`].
    version: u32,
    /// The events in order, each tagged by `"kind"`.
    items: &'a RawValue,
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
    /// How the match ended: `rules`, `resigned`, `time` (a flag fell),
    /// `forfeit` (a bot failed) or `agreed_draw`.
    ending: &'static str,
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
    /// The names of the codes this match's wire sends, under its rules
    /// (`Wire::glossary`): what the page names and draws them by.
    glossary: &'a [game_traits::Term],
    /// The seat no person has taken yet (a match waiting in the lobby).
    waiting: Option<u8>,
    /// The match that replays this one with seats swapped, once offered.
    rematch: Option<i64>,
    /// The steps of the whole match, in a replay (`steps` is then the
    /// step shown); `null` in a live view.
    replay_of: Option<usize>,
    /// The clocks (`null` untimed, and in a replay).
    clock: Option<ClockView>,
    /// The seat offering a draw now.
    draw_offer: Option<u8>,
}

/// What a view says beyond the room: who may still join, the rematch, and
/// whether it is a replay (where nothing is playable).
#[derive(Clone, Copy, Debug, Default)]
pub struct Extra {
    /// The seat still open to a person.
    pub waiting: Option<PlayerId>,
    /// The rematch's id.
    pub rematch: Option<i64>,
    /// In a replay, the whole match's number of steps.
    pub replay_of: Option<usize>,
}

impl Extra {
    /// What a match's views say of its `lobby`: the seat waiting for a
    /// person and the rematch.
    pub fn of(lobby: LobbyState) -> Extra {
        Extra {
            waiting: lobby
                .waiting
                .and_then(|s| PlayerId::from_index(usize::from(s))),
            rematch: lobby.rematch,
            replay_of: None,
        }
    }
}

/// The view of `viewer` (a seat) or of a spectator (`None`) of `room`, as
/// JSON bytes, with what the server knows beyond the room (`extra`); a
/// replay's view offers no legal action.
pub fn view(room: &Room, viewer: Option<PlayerId>, extra: Extra) -> Result<Vec<u8>, EnvError> {
    let state = room.state();
    let to_move = room.to_move();
    let legal = if viewer.is_some() && viewer == to_move && extra.replay_of.is_none() {
        state.legal_actions()
    } else {
        Vec::new()
    };
    let (observation, text) = match viewer {
        Some(p) => (state.observation_struct(p)?, state.observation_text(p)),
        None => (serde_json::Value::Null, public_text(room)),
    };
    let log = room
        .log()
        .iter()
        .enumerate()
        .map(|(step, e)| {
            let (text, view, told) = match viewer {
                Some(p) => {
                    let (text, view) = e.seen_by(p);
                    (text, Some(view), Some(e.told_to(p)))
                }
                None => {
                    let (text, view) = e.public();
                    (text, view, e.told_in_public())
                }
            };
            LogOut {
                step,
                by: e
                    .by()
                    .map_or_else(|| "chance".to_owned(), |p| p.to_string()),
                seat: e.by(),
                text,
                view,
                told: told.map(|(text, _)| text),
                events: told.map(|(_, items)| EventsOut {
                    version: game_traits::EVENTS_VERSION,
                    items,
                }),
            }
        })
        .collect::<Vec<_>>();
    let seats = room.seats();
    let out = ViewOut {
        id: room.id(),
        game: room.game().name(),
        seats: [seats[0].to_string(), seats[1].to_string()],
        you: viewer.map(|p| p.index() as u8),
        move_number: state.move_count(),
        steps: room.actions().len(),
        to_move: to_move.map(|p| p.index() as u8),
        wire: game_traits::WIRE_VERSION,
        observation,
        text,
        legal,
        last: log.len().checked_sub(1),
        log,
        outcome: outcome(room),
        legend: room.game().legend(),
        glossary: room.game().glossary(),
        waiting: extra.waiting.map(|p| p.index() as u8),
        rematch: extra.rematch,
        replay_of: extra.replay_of,
        clock: room.clock().view(tokio::time::Instant::now()),
        draw_offer: room.draw_offer().map(|p| p.index() as u8),
    };
    serde_json::to_vec(&out).map_err(|e| EnvError::Internal(format!("serialising a view: {e}")))
}

/// The result, a forfeit first (it ends the match whatever the state).
fn outcome(room: &Room) -> Option<OutcomeOut<'_>> {
    if let Some((seat, reason)) = room.forfeit() {
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
            ending: match reason.as_str() {
                RESIGNED => "resigned",
                TIME => "time",
                _ => "forfeit",
            },
        });
    }
    if room.agreed_draw() {
        return Some(OutcomeOut {
            winner: None,
            text: "draw by agreement".to_owned(),
            returns: [0.0; 2],
            forfeit: None,
            ending: "agreed_draw",
        });
    }
    let state = room.state();
    let outcome = state.outcome()?;
    Some(OutcomeOut {
        winner: outcome.winner().map(|w| w.index() as u8),
        text: match outcome {
            Outcome::Win(p) => format!("{p} wins"),
            Outcome::Draw => "draw".to_owned(),
        },
        returns: state.returns(),
        forfeit: None,
        ending: "rules",
    })
}

fn public_text(room: &Room) -> String {
    let mut text = format!(
        "{} (spectator view: each seat's observation is private)\nmove {}",
        room.game().name(),
        room.state().move_count()
    );
    match (room.to_move(), room.finished()) {
        (Some(p), _) => text.push_str(&format!(", {p} to move")),
        (None, true) => text.push_str(", the match is over"),
        (None, false) => {}
    }
    text
}
