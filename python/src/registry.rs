//! The games this package knows by name: the workspace's one registry.

/// Every game the package offers, with its presets and parameters: the
/// umbrella crate's registry, so a game added there is here too.
///
/// Everything in the package (the Python API, the OpenSpiel, PettingZoo
/// and Gymnasium adapters, the tests and examples) goes through this one
/// function and is written for whatever it lists.
pub fn registry() -> game_env::Registry {
    game_registry::registry()
}
