//! Replays a saved record step by step (the `replay` example).

use std::fmt;
use std::io::Write;
use std::str::FromStr;

use game_env::{DynState, Registry};
use game_traits::{Outcome, PlayerId, Turn};

use crate::play::narrate;

/// From whose side a record is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Everything: the full state and every action.
    Omniscient,
    /// What this seat saw: its observations and the actions it could tell.
    Seat(PlayerId),
}

/// Why a view name was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown view {0:?}: expected all, or a seat such as p0 or 1")]
pub struct ViewError(pub String);

impl FromStr for View {
    type Err = ViewError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        if matches!(lower.as_str(), "all" | "omniscient") {
            return Ok(View::Omniscient);
        }
        lower
            .trim_start_matches('p')
            .parse::<usize>()
            .ok()
            .and_then(PlayerId::from_index)
            .map(View::Seat)
            .ok_or_else(|| ViewError(s.to_owned()))
    }
}

impl fmt::Display for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            View::Omniscient => f.write_str("all"),
            View::Seat(p) => write!(f, "{p}"),
        }
    }
}

/// Reads `json` as a record of any game of `registry`, replays it checking
/// every step, and writes it step by step from `view` to `output`: from a
/// seat, only that seat's observations and its view of each action.
/// Returns the outcome (`None` for an unfinished game).
pub fn replay_record(
    registry: &Registry,
    json: &str,
    view: View,
    output: &mut dyn Write,
) -> Result<Option<Outcome>, String> {
    let (game, _seed, actions) = registry.load_record(json).map_err(|e| e.to_string())?;
    let mut state = game.new_state();
    for (step, &id) in actions.iter().enumerate() {
        write_step(state.as_ref(), id, step + 1, view, output).map_err(|e| e.to_string())?;
        state
            .apply_id(id)
            .map_err(|e| format!("the record does not replay at step {step}: {e}"))?;
    }
    let end = match view {
        View::Omniscient => state.to_string(),
        View::Seat(p) => state.observation_text(p),
    };
    let outcome = state.outcome();
    let verdict = outcome.map_or_else(|| "unfinished".to_owned(), |o| o.to_string());
    writeln!(
        output,
        "\nafter {} actions:\n{end}\n{verdict}",
        actions.len()
    )
    .map_err(|e| e.to_string())?;
    Ok(outcome)
}

fn write_step(
    state: &dyn DynState,
    id: usize,
    step: usize,
    view: View,
    output: &mut dyn Write,
) -> std::io::Result<()> {
    match view {
        View::Omniscient => {
            let actor = match state.turn() {
                Turn::Player(p) => p.to_string(),
                _ => "chance".to_owned(),
            };
            if state.turn() != Turn::Chance {
                writeln!(output, "\n{state}")?;
            }
            let text = state.action_text(id).unwrap_or_default();
            writeln!(output, "{step:>4}. {actor}: {text}")
        }
        View::Seat(me) => {
            if state.turn() == Turn::Player(me) {
                writeln!(output, "\n{}", state.observation_text(me))?;
            }
            writeln!(output, "{step:>4}. {}", narrate(state, id, me))
        }
    }
}

/// The record in `text`: the whole text when it is one JSON value, else its
/// `line`-th non-empty line (from 1), as in a JSON-lines file.
pub fn pick_record(text: &str, line: usize) -> Result<&str, String> {
    if serde_json::from_str::<serde_json::Value>(text).is_ok() {
        return Ok(text);
    }
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    match line.checked_sub(1).and_then(|i| lines.get(i)) {
        Some(l) => Ok(l),
        None if lines.len() <= 1 => {
            Err("not a record: the file is neither JSON nor JSON lines".to_owned())
        }
        None => Err(format!(
            "no line {line}: the file has {} records",
            lines.len()
        )),
    }
}
