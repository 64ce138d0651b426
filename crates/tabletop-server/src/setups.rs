//! `GET /api/setups?game=SPEC&kind=random|human&seed=N`: a setup to start
//! the page's setup editor from, as data, for a game that suggests setups
//! ([`DynGame::suggest_setup`]; Stratego: `random` a uniformly random
//! setup, `human` one drawn from the model of human setups that the expert
//! sets up with). The same game, kind and seed give the same setup. The
//! answer names each square's piece as a person reads it (`Scout`, `Bomb`)
//! and, for programs, by the code a placement action carries, front row
//! first and each row from the owner's left (the order in which the setup
//! phase places them), with the rule set's title and the army table of
//! the seat's observation (names, ranks, counts): the page draws and
//! checks a setup with no knowledge of the rule sets of its own.

pub use game_env::SetupKind;
use game_env::{DynGame, EnvError};
use game_traits::rand::SeedableRng;
use game_traits::{GameRng, PlayerId};
use serde::Serialize;
use serde_json::Value;

/// A suggested setup, as `GET /api/setups` answers it.
#[derive(Debug, Serialize)]
pub struct Suggestion {
    /// The game specification asked for.
    pub game: String,
    /// The rule set as a person reads it (`Stratego, International`):
    /// the game's and its preset's declared titles.
    pub title: String,
    /// The generator.
    pub kind: SetupKind,
    /// The seed it was drawn with.
    pub seed: u64,
    /// The army's piece list (`classic`, `srazhenie`, `czech`), as the
    /// observation's rules name it: rule sets with one piece list share
    /// their setups.
    pub variant: Value,
    /// Rows of the setup area (front row first).
    pub rows: usize,
    /// Squares a row (the owner's left first).
    pub cols: usize,
    /// The kind code of each square (`"R8"`, `"MINE"`, `"FLAG"`: what a
    /// placement action names), `rows * cols` of them, row by row from
    /// the front: the order of the setup phase's placements.
    pub squares: Vec<String>,
    /// The piece on each square by the rule set's name for it (`"Scout"`,
    /// `"Bomb"`: the army table's `piece`), in the order of `squares`.
    pub pieces: Vec<String>,
    /// The army: each kind's name, code, rank and count, as the
    /// observation's `army` lists them.
    pub army: Value,
}

/// Why no setup is suggested.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// The game suggests no setups (its name).
    #[error("game: {0} has no setup to edit (it suggests none)")]
    NoSetup(String),
    /// The engine failed to describe its own setup (a failure of ours).
    #[error(transparent)]
    Engine(EnvError),
}

/// The suggestion of `kind` and `seed` for `game`, refused (a typed 400)
/// unless the game suggests setups.
pub fn suggest(game: &dyn DynGame, kind: SetupKind, seed: u64) -> Result<Suggestion, SetupError> {
    let mut rng = GameRng::seed_from_u64(seed);
    let setup = game
        .suggest_setup(kind, &mut rng)
        .ok_or_else(|| SetupError::NoSetup(game.name().to_owned()))?;
    let squares = setup
        .placements
        .iter()
        .map(|&id| {
            let wire = game.action_struct(id).map_err(SetupError::Engine)?;
            wire.get("kind")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| {
                    SetupError::Engine(EnvError::Internal(
                        "a placement's wire form names no kind".into(),
                    ))
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let state = game.new_state();
    let observation = state
        .observation_struct(PlayerId::P0)
        .map_err(SetupError::Engine)?;
    let field = |value: Option<&Value>, what: &str| {
        value.cloned().ok_or_else(|| {
            SetupError::Engine(EnvError::Internal(format!(
                "an observation without its {what}"
            )))
        })
    };
    let army = field(observation.get("army"), "army")?;
    let variant = field(observation.pointer("/rules/variant"), "variant")?;
    let pieces = squares
        .iter()
        .map(|code| piece_name(&army, code))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Suggestion {
        game: game.name().to_owned(),
        title: game.title().to_owned(),
        kind,
        seed,
        variant,
        rows: setup.rows,
        cols: setup.cols,
        squares,
        pieces,
        army,
    })
}

/// The name the army table (`[{kind, piece, ...}]`) gives kind `code`.
fn piece_name(army: &Value, code: &str) -> Result<String, SetupError> {
    army.as_array()
        .into_iter()
        .flatten()
        .find(|entry| entry.get("kind").and_then(Value::as_str) == Some(code))
        .and_then(|entry| entry.get("piece"))
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| {
            SetupError::Engine(EnvError::Internal(format!(
                "the army table names no piece of kind {code}"
            )))
        })
}
