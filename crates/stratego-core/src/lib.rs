#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod action;
mod action_parse;
mod assign;
#[cfg(feature = "bots")]
mod bots;
mod cell;
mod chase;
mod determinize;
mod encode;
mod ending;
mod engine;
mod error;
mod game;
mod kind;
mod listing;
mod notation;
mod observation;
mod planes;
mod position;
mod render;
mod rule_set;
mod rules;
mod sample;
mod setup;
mod shuttle;
mod square;
mod state;
mod tensor;
mod validate;
mod variant;
mod view;
mod wire;

pub use action::{Action, Move};
pub use action_parse::{ParseActionError, MOVE_FORMS};
#[cfg(feature = "bots")]
pub use bots::{
    material_evaluation, piece_value, Expert, Heuristic, Weights, EXPERT_DEFAULT_BUDGET,
};
pub use chase::Chase;
pub use error::StrategoError;
pub use game::SETUP_ACTIONS;
pub use kind::{classic, czech, srazhenie, Kind, KindSet};
pub use observation::{HiddenLoss, ObsCell, Observation};
pub use position::PositionBuilder;
pub use render::LEGEND;
pub use rules::{FirstPlayer, Rules, MAX_MOVES_LIMIT};
pub use setup::{Setup, SetupSquare, SETUP_SQUARES};
pub use shuttle::Shuttle;
pub use square::Square;
pub use state::{End, EndReason, Piece, Stratego};
pub use variant::{Fight, Variant};
pub use view::ActionView;
pub use wire::{
    EventPiece, FightResult, StrategoActionStruct, StrategoEvent, StrategoObservationStruct,
    StrategoViewStruct, WireChase, WireEndReason, WireFirstPlayer, WireHiddenLoss, WireMove,
    WirePhase, WirePiece, WirePieces, WireRules, WireShuttle, WireVariant,
};

pub use game_traits;
pub use game_traits::rand;
pub use game_traits::{
    Game, GameError, GameRng, Outcome, PerPlayer, PlayerId, Preset, RuleSet, Turn,
};

/// The rules of the three rule sets as implemented, with every ruling and
/// the table from each rule to its test (`docs/stratego.md`).
#[doc = include_str!("../docs/stratego.md")]
pub mod rules_text {}
