#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod action;
mod action_parse;
#[cfg(feature = "bots")]
mod bots;
mod card;
mod claims;
mod completion;
mod encode;
mod engine;
mod error;
mod flag;
mod flag_bits;
mod flag_set;
mod formation;
mod game;
mod listing;
mod notation;
mod observation;
mod position;
mod proof;
mod proof_cache;
mod render;
mod rule_set;
mod rules;
mod sample;
mod series;
mod state;
mod validate;
mod view;
mod wire;

/// The rules of Battle Line as this crate implements them: every ruling and
/// its field, the action model, what each player sees, the position
/// notation, and the table from each rule to its test (`docs/battleline.md`).
#[doc = include_str!("../docs/battleline.md")]
pub mod rules_text {}

pub use game_traits;
pub use game_traits::rand;
pub use game_traits::{
    Encode, Game, GameError, GameRng, Outcome, PerPlayer, PlayerId, Preset, RuleSet, Turn, Wire,
};

pub use action::{Action, ACTION_SPACE};
pub use action_parse::{ParseActionError, MOVE_FORMS};
#[cfg(feature = "bots")]
pub use bots::{Expert, ExpertV1, Heuristic, Prob, Weights};
pub use card::{Card, CardKind, CardSet, CardSetIter, Colour, Deck, Tactic, CARDS, TROOPS};
pub use encode::TENSOR_SIZE;
pub use error::BattleLineError;
pub use flag::{Flag, FlagError, FlagId, Side, FLAGS};
pub use flag_set::{FlagSet, FlagSetIter};
pub use formation::{
    compare_formations, formation_strength, formation_strength_unseen, Environment, FormationClass,
    FormationOrder, Strength,
};
pub use game_traits::Budget;
pub use observation::Observation;
pub use position::PositionBuilder;
pub use proof::{available_troops, check_claim, claim_holds, ClaimCheck, Completion};
pub use render::LEGEND;
pub use rules::{
    ClaimTiming, EnvironmentTactics, LastPass, LeaderLimit, ProofTie, Rules, WildCards,
};
pub use series::{GameScore, Series, SeriesError};
pub use state::{BattleLine, Phase, Table, HAND_SIZE, MAX_GAME_LENGTH};
pub use view::ActionView;
pub use wire::{
    ActionStruct, BattleLineEvent, CardCode, ClaimProof, ClaimTimingName, DealtStruct, DeckCode,
    DeckStruct, DrewStruct, EndingName, EnvironmentTacticsName, FlagStruct, FormationName,
    FormationOrderName, LastPassName, LeaderLimitName, ObservationStruct, OutcomeStruct,
    PhaseStruct, ProofTieName, ReturnedStruct, RulesStruct, SideStruct, StrengthStruct, ViewStruct,
    WildCardsName,
};
