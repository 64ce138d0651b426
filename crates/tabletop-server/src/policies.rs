//! `policy:NAME.onnx` seats: trained policies from the operator's
//! directory (`--policy-dir`). They run on tract (crate `game-policy`), the
//! server's one heavy dependency, so they sit behind the opt-in feature
//! `policy`: a build without it refuses `--policy-dir` and every policy
//! seat with a typed error, as a server started without `--policy-dir`
//! does for the seats.

#[cfg(feature = "policy")]
use std::path::PathBuf;
#[cfg(feature = "policy")]
use std::sync::Arc;

use game_env::{BotFailure, DynGame, DynState, EnvError, Registry};
use game_traits::{GameRng, PlayerId};

#[cfg(feature = "policy")]
use game_env::Opponent;
#[cfg(feature = "policy")]
use game_policy::{PolicyError, PolicyShelf};

/// Why a policy seat cannot be filled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PolicySeatError {
    /// The server was started without a policy directory.
    #[error("policy: seats are disabled; start the server with --policy-dir DIR")]
    NoDirectory,
    /// The server was built without its `policy` feature.
    #[error(
        "policy: seats need the server's `policy` feature, which this build left out: \
         cargo run --release -p tabletop-server --features policy -- --policy-dir DIR"
    )]
    NotBuilt,
    /// The policy's own error: a bad name, an unknown file, another game.
    #[cfg(feature = "policy")]
    #[error(transparent)]
    Policy(#[from] PolicyError),
}

/// A policy as the games listing offers it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Offered {
    /// The seat that names it in a new match (`policy:cardwar.onnx`).
    pub seat: String,
    /// Its own name, the file's without the extension (`cardwar`).
    pub name: String,
}

/// The policies a server offers: none, or one directory's.
#[derive(Clone, Debug, Default)]
pub struct Policies {
    #[cfg(feature = "policy")]
    shelf: Option<Arc<PolicyShelf>>,
}

impl Policies {
    /// The policies of `dir`, which must be a directory.
    #[cfg(feature = "policy")]
    pub fn from_dir(dir: PathBuf) -> Result<Self, PolicySeatError> {
        Ok(Policies::from(PolicyShelf::new(dir)?))
    }

    /// Without the `policy` feature no directory can be offered.
    #[cfg(not(feature = "policy"))]
    pub fn from_dir(_dir: std::path::PathBuf) -> Result<Self, PolicySeatError> {
        Err(PolicySeatError::NotBuilt)
    }

    /// Whether `name` can name a policy file (never a path).
    pub fn check_name(name: &str) -> Result<(), PolicySeatError> {
        #[cfg(feature = "policy")]
        return Ok(PolicyShelf::check_name(name)?);
        #[cfg(not(feature = "policy"))]
        {
            let _ = name;
            Err(PolicySeatError::NotBuilt)
        }
    }

    /// Checks that the policy `name` exists and was trained on `game`.
    pub fn check(&self, name: &str, game: &dyn DynGame) -> Result<(), PolicySeatError> {
        #[cfg(feature = "policy")]
        return self.shelf()?.load(name, game).map(drop).map_err(Into::into);
        #[cfg(not(feature = "policy"))]
        {
            let _ = (name, game);
            Err(PolicySeatError::NotBuilt)
        }
    }

    /// The policies that play `game` (its rules and its observation
    /// layout), sorted by name. Each file is read once, and again when it
    /// changes; one that is not a policy that runs is left out, and logged
    /// when read.
    pub fn fitting(&self, game: &dyn DynGame) -> Vec<Offered> {
        #[cfg(feature = "policy")]
        if let Some(shelf) = &self.shelf {
            let log = |file: &str, read: &Result<game_policy::Trained, PolicyError>| {
                if let Err(e) = read {
                    tracing::warn!(file, reason = %e, "policy file left out");
                }
            };
            return shelf
                .catalogue(log)
                .into_iter()
                .filter(|(_, read)| read.as_ref().is_ok_and(|t| t.check(game).is_ok()))
                .map(|(file, _)| Offered {
                    seat: format!("policy:{file}"),
                    name: file
                        .strip_suffix(game_policy::EXTENSION)
                        .unwrap_or(&file)
                        .to_owned(),
                })
                .collect();
        }
        let _ = game;
        Vec::new()
    }

    /// The policies the games listing offers for the game or rule set
    /// `spec`: those that fit it (none if `spec` does not load).
    pub fn listed(&self, registry: &Registry, spec: &str) -> Vec<Offered> {
        #[cfg(feature = "policy")]
        if self.shelf.is_some() {
            return registry
                .load(spec)
                .map(|game| self.fitting(game.as_ref()))
                .unwrap_or_default();
        }
        let _ = (registry, spec);
        Vec::new()
    }

    /// The decision of the policy `name` for `seat` in `state`.
    pub fn decide(
        &self,
        name: &str,
        game: &dyn DynGame,
        state: &dyn DynState,
        seat: PlayerId,
        rng: &mut GameRng,
    ) -> Result<usize, EnvError> {
        #[cfg(feature = "policy")]
        let decided = self
            .shelf()
            .and_then(|shelf| Ok(shelf.bot(name, game)?))
            .map(|mut bot| bot.choose(state, seat, rng));
        #[cfg(not(feature = "policy"))]
        let decided: Result<Result<usize, EnvError>, PolicySeatError> = {
            let _ = (game, state, seat, rng);
            Err(PolicySeatError::NotBuilt)
        };
        decided.unwrap_or_else(|e| {
            Err(EnvError::Bot {
                bot: format!("policy:{name}"),
                failure: BotFailure::Spawn {
                    program: name.to_owned(),
                    reason: e.to_string(),
                },
            })
        })
    }

    #[cfg(feature = "policy")]
    fn shelf(&self) -> Result<&PolicyShelf, PolicySeatError> {
        self.shelf.as_deref().ok_or(PolicySeatError::NoDirectory)
    }
}

#[cfg(feature = "policy")]
impl From<PolicyShelf> for Policies {
    fn from(shelf: PolicyShelf) -> Self {
        Policies {
            shelf: Some(Arc::new(shelf)),
        }
    }
}
