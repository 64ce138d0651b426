//! `GET /api/setups?game=SPEC&kind=random|human&seed=N`: a Stratego setup
//! to start the page's setup editor from, as data.
//!
//! `random` is a uniformly random setup ([`Setup::shuffle`]), `human` one
//! drawn from the model of human setups that the expert sets up with
//! ([`Setup::human_like`]). The same game, kind and seed give the same
//! setup. The answer names each square's kind by the code a placement
//! action carries, front row first and each row from the owner's left
//! (the order in which the setup phase places them), with the army table
//! of the seat's observation (names, ranks, counts): the page draws and
//! checks a setup with no knowledge of the rule sets of its own.

use game_env::{DynGame, EnvError, Typed};
use game_traits::rand::SeedableRng;
use game_traits::{Game, GameRng, PlayerId};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use stratego_core::{Action, Rules, Setup, Stratego, SETUP_SQUARES};

/// Which generator a suggestion comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SetupKind {
    /// Uniformly random.
    Random,
    /// Drawn from the model of human setups.
    Human,
}

/// A suggested setup, as `GET /api/setups` answers it.
#[derive(Debug, Serialize)]
pub struct Suggestion {
    /// The game specification asked for.
    pub game: String,
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
    /// The army: each kind's name, code, rank and count, as the
    /// observation's `army` lists them.
    pub army: Value,
}

/// Why no setup is suggested.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// The game is none of Stratego's rule sets (its name).
    #[error("game: {0} has no setup to edit (only Stratego's rule sets do)")]
    NoSetup(String),
    /// The engine failed to describe its own setup (a failure of ours).
    #[error(transparent)]
    Engine(EnvError),
}

/// The suggestion of `kind` and `seed` for `game`, refused (a typed 400)
/// unless the game is one of Stratego's rule sets.
pub fn suggest(game: &dyn DynGame, kind: SetupKind, seed: u64) -> Result<Suggestion, SetupError> {
    let state = game.new_state();
    let rules: Rules = *state
        .as_any()
        .downcast_ref::<Typed<Stratego>>()
        .ok_or_else(|| SetupError::NoSetup(game.name().to_owned()))?
        .state()
        .rules();
    let mut rng = GameRng::seed_from_u64(seed);
    let setup = match kind {
        SetupKind::Random => Setup::shuffle(rules.variant, &mut rng),
        SetupKind::Human => Setup::human_like(rules.variant, &mut rng),
    };
    let squares = setup
        .kinds()
        .iter()
        .map(|&k| {
            let id = Action::Place(k).id(&rules).ok_or_else(|| {
                SetupError::Engine(EnvError::Internal(format!(
                    "a setup of {} holds a kind its rules lack",
                    game.name()
                )))
            })?;
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
    Ok(Suggestion {
        game: game.name().to_owned(),
        kind,
        seed,
        variant,
        rows: SETUP_SQUARES / 10,
        cols: 10,
        squares,
        army,
    })
}
