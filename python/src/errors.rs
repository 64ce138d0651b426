//! The Python exceptions and how the engine's errors map onto them.

use game_env::{BotFailure, EnvError};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::PyErr;

create_exception!(
    tabletop,
    GameError,
    PyValueError,
    "Base class of every error the engines raise (a ValueError)."
);
create_exception!(
    tabletop,
    IllegalActionError,
    GameError,
    "The engine refused an action (its message says why); the state is unchanged."
);
create_exception!(
    tabletop,
    GameSpecError,
    GameError,
    "A game name, parameter, parameter value or bot name that was refused."
);
create_exception!(
    tabletop,
    InvalidStateError,
    GameError,
    "A serialised state or an observation the engine refused."
);
create_exception!(
    tabletop,
    BotError,
    GameError,
    "A bot failed to decide (attributes: ``bot``, its name, and ``failure``, one of \
     spawn, timeout, exited, garbage, illegal, write, no_decision, wrong_game)."
);
create_exception!(
    tabletop,
    InternalError,
    PyRuntimeError,
    "A failure of the engine's side, not of the caller's input: a bug to report."
);

/// Sets `attributes` on the exception value of `err`, so that callers read
/// fields rather than the message.
fn with_attributes(
    err: PyErr,
    attributes: impl FnOnce(&Bound<'_, pyo3::exceptions::PyBaseException>) -> PyResult<()>,
) -> PyErr {
    Python::attach(|py| {
        // Setting a plain attribute on a fresh exception cannot fail; if it
        // did, the exception still carries its message.
        let _ = attributes(err.value(py));
    });
    err
}

fn failure_kind(failure: &BotFailure) -> &'static str {
    match failure {
        BotFailure::Spawn { .. } => "spawn",
        BotFailure::Timeout(_) => "timeout",
        BotFailure::Exited => "exited",
        BotFailure::Garbage(_) => "garbage",
        BotFailure::Illegal(_) => "illegal",
        BotFailure::Write(_) => "write",
        BotFailure::NoDecision => "no_decision",
        BotFailure::WrongGame => "wrong_game",
        BotFailure::IllegalAnswer { .. } => "illegal_answer",
        BotFailure::Resigned => "resigned",
        _ => "other",
    }
}

/// The Python exception for an engine error, its message the engine's and
/// its fields as attributes: ``IllegalActionError`` has ``action_id``,
/// ``action`` (the notation) and ``reason`` (the engine's), ``BotError``
/// has ``bot`` and ``failure``.
pub fn to_py(e: EnvError) -> PyErr {
    let message = e.to_string();
    match e {
        EnvError::IllegalAction { id, action, reason } => {
            with_attributes(IllegalActionError::new_err(message), |v| {
                v.setattr("action_id", id)?;
                v.setattr("action", action)?;
                v.setattr("reason", reason)
            })
        }
        EnvError::UnknownActionId { .. }
        | EnvError::UnknownAction { .. }
        | EnvError::NoDecision => IllegalActionError::new_err(message),
        EnvError::Bot { bot, failure } => with_attributes(BotError::new_err(message), |v| {
            v.setattr("bot", bot)?;
            v.setattr("failure", failure_kind(&failure))
        }),
        EnvError::Internal(_) => InternalError::new_err(message),
        EnvError::UnknownGame { .. }
        | EnvError::UnknownParameter { .. }
        | EnvError::BadParameter { .. }
        | EnvError::BadSpec(_)
        | EnvError::InvalidRules(_) => GameSpecError::new_err(message),
        EnvError::InvalidState(_) | EnvError::InvalidObservation(_) => {
            InvalidStateError::new_err(message)
        }
        _ => GameError::new_err(message),
    }
}
