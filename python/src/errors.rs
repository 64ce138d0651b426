//! The Python exceptions and how the engine's errors map onto them.

use game_env::EnvError;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
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

/// The Python exception for an engine error, its message the engine's.
pub fn to_py(e: EnvError) -> PyErr {
    let message = e.to_string();
    match e {
        EnvError::UnknownActionId { .. } | EnvError::IllegalAction(_) | EnvError::NoDecision => {
            IllegalActionError::new_err(message)
        }
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
