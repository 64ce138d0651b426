//! `tabletop._tabletop`: the compiled core of the Python package
//! `tabletop`, a thin PyO3 layer over `game_env`'s dynamic game API and
//! batched environment. The Python-facing documentation lives in the
//! docstrings below (they become the Python docstrings) and in
//! `docs/python.md`.

#![warn(missing_docs)]

use std::sync::OnceLock;

use pyo3::prelude::*;

mod api;
mod errors;
mod registry;
mod state;
mod vec_env;
mod vec_input;

pub use registry::registry;

/// The registry, built once per process.
pub(crate) fn games() -> &'static game_env::Registry {
    static REGISTRY: OnceLock<game_env::Registry> = OnceLock::new();
    REGISTRY.get_or_init(registry::registry)
}

/// The compiled core of `tabletop`; import `tabletop`, which re-exports
/// everything here.
#[pymodule]
fn _tabletop(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("GameError", py.get_type::<errors::GameError>())?;
    m.add(
        "IllegalActionError",
        py.get_type::<errors::IllegalActionError>(),
    )?;
    m.add("GameSpecError", py.get_type::<errors::GameSpecError>())?;
    m.add(
        "InvalidStateError",
        py.get_type::<errors::InvalidStateError>(),
    )?;
    // Class-level defaults, so that every IllegalActionError has the three
    // fields a client reads: None when the action named none (an id outside
    // the space, a struct of no action), the engine's values otherwise.
    let illegal = py.get_type::<errors::IllegalActionError>();
    for field in ["action_id", "action", "reason"] {
        illegal.setattr(field, py.None())?;
    }
    m.add("BotError", py.get_type::<errors::BotError>())?;
    m.add("InternalError", py.get_type::<errors::InternalError>())?;
    m.add_class::<api::Game>()?;
    m.add_class::<state::State>()?;
    m.add_class::<api::Bot>()?;
    m.add_class::<api::GameListing>()?;
    m.add_class::<api::Preset>()?;
    m.add_class::<api::Parameter>()?;
    m.add_class::<vec_env::VecEnv>()?;
    m.add_function(wrap_pyfunction!(api::load_game, m)?)?;
    m.add_function(wrap_pyfunction!(api::registered_games, m)?)?;
    m.add_function(wrap_pyfunction!(api::registered_specs, m)?)?;
    m.add_function(wrap_pyfunction!(api::deserialize_state, m)?)?;
    m.add("CHANCE_PLAYER", api::CHANCE_PLAYER)?;
    m.add("TERMINAL_PLAYER", api::TERMINAL_PLAYER)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
