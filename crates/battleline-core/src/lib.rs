//! Battle Line: a complete rules engine with a fast formation evaluator and
//! flag-proof solver.
//!
//! - [`card`]: the 60 troop and 10 tactics cards, [`CardSet`].
//! - [`formation`]: formation classes and [`formation_strength`], one
//!   comparable [`Strength`] per formation.
//! - [`flag`]: the nine flags, their sides and who completed first.
//! - [`proof`]: [`check_claim`], the flag-proof solver.
//! - [`rules`]: [`Rules`], every ruling as a field.
#![warn(missing_docs)]

pub mod action;
pub mod card;
mod error;
pub mod flag;
pub mod formation;
pub mod observation;
pub mod proof;
mod render;
pub mod rules;
pub mod state;

pub use action::{Action, ACTION_SPACE};
pub use card::{Card, CardKind, CardSet, Colour, Deck, Tactic};
pub use error::BattleLineError;
pub use flag::{Flag, FlagError, FlagId, Side, FLAGS};
pub use formation::{formation_strength, Environment, FormationClass, FormationOrder, Strength};
pub use observation::Observation;
pub use proof::{available_troops, check_claim, ClaimCheck, Completion};
pub use rules::{ClaimTiming, LeaderLimit, ProofTie, Rules};
pub use state::{is_victory, BattleLine, Phase, Table, Top, HAND_SIZE, MAX_GAME_LENGTH};
