//! The shared abstraction of the rules engines of this workspace.
//!
//! Every game implements [`Game`]: rules, actions, chance events,
//! observations of hidden information, determinisation, outcomes and dense
//! action ids. On top of it this crate gives what works for any game:
//! [`Record`]s that replay exactly, the [`Agent`] trait with a uniform
//! [`RandomAgent`], the match driver [`play_match`], and (feature `testkit`)
//! the conformance test-kit every game crate runs.
//!
//! All randomness flows through explicit seeded generators ([`GameRng`]);
//! nothing here touches a global random generator.
#![warn(missing_docs)]

mod agent;
pub mod chance;
mod game;
mod player;
mod playout;
mod record;
#[cfg(feature = "testkit")]
pub mod testkit;

pub use agent::{agent_rng, chance_rng, play_match, Agent, MatchError, RandomAgent};
pub use game::Game;
pub use player::{Outcome, PerPlayer, PlayerId, Turn};
pub use playout::random_playout;
pub use record::{Record, ReplayError};

/// The seeded generator used throughout: ChaCha with 8 rounds, fast and
/// reproducible across platforms.
pub type GameRng = rand_chacha::ChaCha8Rng;

/// Re-exported so that game crates and their users name the same versions.
pub use rand;
