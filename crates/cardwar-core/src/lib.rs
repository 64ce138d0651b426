#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod action;
mod action_parse;
mod battle;
#[cfg(feature = "bots")]
mod bots;
mod card;
mod chance;
mod dice;
mod encode;
mod engine;
mod error;
mod fight;
mod game;
mod line;
mod listing;
mod notation;
mod observation;
mod position;
mod prayer;
mod render;
mod round;
mod rule_set;
mod rules;
mod state;
mod validate;
mod view;
mod wire;

/// The rules of card war as implemented, the ambiguities of the text with
/// the ruling chosen for each, the model, and where each rule is tested.
///
#[doc = include_str!("../docs/cardwar.md")]
pub mod rules_text {}

pub use game_traits;
pub use game_traits::rand;
pub use game_traits::{
    Game, GameError, GameRng, Outcome, PerPlayer, PlayerId, Preset, RuleSet, Turn,
};

pub use action::{Action, ACTION_SPACE};
pub use action_parse::{ParseActionError, MOVE_FORMS};
#[cfg(feature = "bots")]
pub use bots::{Expert, Heuristic, RESERVE_BELOW};
pub use card::{CardSet, Cards, Guard, Soldier, SOLDIERS};
pub use error::CardWarError;
pub use line::{LineView, SlotView, LINE_CAP};
pub use observation::Observation;
pub use position::{Knowledge, LineCard, PositionBuilder};
pub use prayer::Prayer;
pub use render::LEGEND;
pub use rules::{FirstAttacker, Rules, MAX_ROUNDS_LIMIT};
pub use state::{
    Battle, CardWar, FightReport, Fighter, LayKind, Open, Pending, Phase, Public, SideHidden,
    SidePublic,
};
pub use view::ActionView;
pub use wire::{
    CardCode, CardWarActionStruct, CardWarArithmetic, CardWarEnding, CardWarEvent, CardWarFight,
    CardWarFightResult, CardWarFightSide, CardWarLineKind, CardWarObservationStruct, CardWarOpen,
    CardWarOutcome, CardWarOwnCards, CardWarPhase, CardWarPileCard, CardWarPrayer,
    CardWarPrayerResult, CardWarSide, CardWarSlot, CardWarViewStruct,
};
