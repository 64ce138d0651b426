//! Battle Line: a complete rules engine with a fast formation evaluator and
//! flag-proof solver.
//!
//! - [`card`]: the 60 troop and 10 tactics cards, [`CardSet`].
//! - [`formation`]: formation classes and [`formation_strength`], one
//!   comparable [`Strength`] per formation.
//! - [`flag`]: the nine flags, their sides and who completed first.
//! - [`proof`]: [`check_claim`], the flag-proof solver.
//! - [`rules`]: [`Rules`], every ruling as a field.
//! - [`state`]: [`BattleLine`], the game implementing [`game_traits::Game`];
//!   [`action`] and [`observation`] its actions and views.
//! - [`series`]: the scoring of a series of games.
//!
//! The rules as implemented, every ruling and the action model are in
//! `docs/battleline.md`.
//!
//! ```
//! use battleline_core::{BattleLine, Rules};
//! use game_traits::{play_match, Game, RandomAgent};
//! let (mut a, mut b) = (RandomAgent, RandomAgent);
//! let (game, record) = play_match::<BattleLine>(&Rules::default(), 42, &mut [&mut a, &mut b]).unwrap();
//! assert!(game.outcome().is_some());
//! assert_eq!(record.replay().unwrap(), game);
//! println!("{game}");
//! ```
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
pub mod series;
pub mod state;

pub use action::{Action, ACTION_SPACE};
pub use card::{Card, CardKind, CardSet, Colour, Deck, Tactic};
pub use error::BattleLineError;
pub use flag::{Flag, FlagError, FlagId, Side, FLAGS};
pub use formation::{
    compare_formations, formation_strength, formation_strength_unseen, Environment, FormationClass,
    FormationOrder, Strength,
};
pub use observation::Observation;
pub use proof::{available_troops, check_claim, claim_holds, ClaimCheck, Completion};
pub use rules::{ClaimTiming, EnvironmentTactics, LeaderLimit, ProofTie, Rules, WildCards};
pub use series::{GameScore, Series, SeriesError};
pub use state::{is_victory, BattleLine, Phase, Table, Top, HAND_SIZE, MAX_GAME_LENGTH};
