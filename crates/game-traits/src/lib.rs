#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod agent;
pub mod bits;
mod budget;
pub mod chance;
mod encode;
mod error;
mod event;
mod game;
mod info;
pub mod kuhn;
mod parameter;
mod player;
mod playout;
mod policy;
mod record;
mod rule_set;
#[cfg(feature = "testkit")]
pub mod testkit;
mod wire;

pub use agent::{
    agent_rng, best_scored, chance_rng, play_alternating, play_match, Agent, MatchError,
    RandomAgent,
};
pub use budget::{Budget, BudgetError};
pub use encode::{Encode, Plane, Stack, TensorLayout};
pub use error::{GameError, ParseError};
pub use event::{tell_all, who, whose, Event, EVENTS_VERSION};
pub use game::Game;
pub use info::{ChanceMode, GameInfo, Information, Utility};
pub use parameter::{
    FromParameter, Named, Parameter, ParameterError, ParameterKind, ParameterValue,
};
pub use player::{Outcome, PerPlayer, PlayerId, Turn};
pub use playout::random_playout;
pub use policy::{policy_playout, Observing, Policy};
pub use record::{Record, ReplayError};
pub use rule_set::{Preset, RuleSet};
pub use wire::{narrate_events, Term, Wire, MAX_SAFE_INTEGER, WIRE_VERSION};

/// Re-exported so that game crates derive their wire schema with the same
/// version.
pub use schemars;

/// The seeded generator used throughout: ChaCha with 8 rounds, fast and
/// reproducible across platforms.
pub type GameRng = rand_chacha::ChaCha8Rng;

/// Re-exported so that game crates and their users name the same versions.
pub use rand;
