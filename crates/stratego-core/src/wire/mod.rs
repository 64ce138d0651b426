//! Stratego on the wire ([`Wire`]): actions, action views and observations
//! as the structured JSON that clients read.
//!
//! Squares are written in the game's notation (`"e4"`, files `a`..`j`,
//! ranks 1..10 from the first seat); seats are 0 and 1. A piece whose kind
//! is named in a view or an observation is written by its name in the rule
//! set (`"Scout"`, `"Maršál"`, `"Minové pole"`: [`Variant::name`] without
//! the rank), with its rank apart where the rule set numbers its ranks.
//! An action does not know its rule set (the same `Action` is a Scout in
//! Classic and a Soldier in Srazhenie), so a placement names its kind by
//! the rule-set-free code of the kind index (`"R0"`..`"R9"`, `"MINE"`,
//! `"FLAG"`, the names of the [`Kind`] constants); the observation's army
//! table pairs each code with its name, and a placement read from a client
//! may give either.

mod event;
mod glossary;
mod narration;
mod observation;
mod rules;

use game_traits::schemars::JsonSchema;
use game_traits::{PlayerId, Term, Wire};
use serde::{Deserialize, Serialize};

use crate::action::{Action, Move};
use crate::kind::Kind;
use crate::rules::Rules;
use crate::state::Stratego;
use crate::variant::Variant;
use crate::view::ActionView;

pub use event::{EventPiece, FightResult, StrategoEvent};

pub use observation::{
    StrategoObservationStruct, WireChase, WireEndReason, WireHiddenLoss, WireMove, WirePhase,
    WirePiece, WirePieces, WireShuttle,
};
pub use rules::{WireFirstPlayer, WireRules, WireVariant};

/// A Stratego action on the wire.
///
/// ```
/// use stratego_core::{classic, Action, Rules, Stratego, StrategoActionStruct};
/// use stratego_core::game_traits::Wire;
///
/// let place = Stratego::action_struct(Action::Place(classic::SCOUT));
/// assert_eq!(serde_json::to_string(&place).unwrap(), r#"{"type":"place","kind":"R8"}"#);
/// let by_name: StrategoActionStruct =
///     serde_json::from_str(r#"{"type":"place","kind":"Scout"}"#).unwrap();
/// let rules = Rules::classic();
/// assert_eq!(Stratego::action_from_struct(&rules, &by_name), Some(Action::Place(classic::SCOUT)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum StrategoActionStruct {
    /// Chance (only when the rules draw who starts): `player` moves first
    /// once play begins.
    Start {
        /// The seat drawn to move first.
        player: PlayerId,
    },
    /// Put a piece of `kind` on the placing player's next free setup
    /// square (front row first, each row from his left).
    Place {
        /// The kind: its code `"R0"`..`"R9"`, `"MINE"`, `"FLAG"` (what the
        /// server writes), or on input also its name in the rule set
        /// (`"Scout"`).
        kind: String,
    },
    /// Move the piece on `from` to `to` (a step, a long move or an attack).
    Move {
        /// Start square (`"e4"`).
        from: String,
        /// Destination square.
        to: String,
    },
}

/// A Stratego action as one player perceives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StrategoViewStruct {
    /// The opening draw: `player` moves first (public).
    Start {
        /// The seat drawn to move first.
        player: PlayerId,
    },
    /// `player` put a piece on `square` in the setup phase; its kind is
    /// `null` unless the viewer is `player`.
    Place {
        /// Who placed it.
        player: PlayerId,
        /// The square it now stands on.
        square: String,
        /// Its name in the rule set, for the placer only.
        piece: Option<String>,
        /// Its kind code (`"R8"`), for the placer only.
        kind: Option<String>,
        /// Its rank, for the placer only and where the rule set numbers
        /// ranks.
        rank: Option<u8>,
    },
    /// A move, public as it is (what a fight showed is in the
    /// observation after it).
    Move {
        /// Start square.
        from: String,
        /// Destination square.
        to: String,
    },
}

impl Wire for Stratego {
    type ActionStruct = StrategoActionStruct;
    type ViewStruct = StrategoViewStruct;
    type ObservationStruct = StrategoObservationStruct;
    type Event = StrategoEvent;

    fn action_struct(action: Action) -> StrategoActionStruct {
        match action {
            Action::Start(player) => StrategoActionStruct::Start { player },
            Action::Place(kind) => StrategoActionStruct::Place {
                kind: kind_code(kind).to_owned(),
            },
            Action::Move(m) => StrategoActionStruct::Move {
                from: m.from.to_string(),
                to: m.to.to_string(),
            },
        }
    }

    fn action_from_struct(rules: &Rules, action: &StrategoActionStruct) -> Option<Action> {
        let action = match action {
            StrategoActionStruct::Start { player } => Action::Start(*player),
            StrategoActionStruct::Place { kind } => {
                Action::Place(kind_of_code(rules.variant, kind)?)
            }
            StrategoActionStruct::Move { from, to } => Action::Move(Move {
                from: from.parse().ok()?,
                to: to.parse().ok()?,
            }),
        };
        action.id(rules).map(|_| action)
    }

    fn view_struct(view: &ActionView) -> StrategoViewStruct {
        match *view {
            ActionView::Start(player) => StrategoViewStruct::Start { player },
            ActionView::Place {
                player,
                square,
                kind,
                variant,
            } => StrategoViewStruct::Place {
                player,
                square: square.to_string(),
                piece: kind.map(|k| piece_name(variant, k).to_owned()),
                kind: kind.map(|k| kind_code(k).to_owned()),
                rank: kind.and_then(|k| piece_rank(variant, k)),
            },
            ActionView::Move(m) => StrategoViewStruct::Move {
                from: m.from.to_string(),
                to: m.to.to_string(),
            },
        }
    }

    fn observation_struct(o: &crate::Observation) -> StrategoObservationStruct {
        observation::of(o)
    }

    fn events(
        _viewer: PlayerId,
        before: &crate::Observation,
        view: &ActionView,
        after: &crate::Observation,
    ) -> Vec<StrategoEvent> {
        narration::events(before, view, after)
    }

    /// Every piece of the rule set by its kind code (`"R0"`), with its
    /// name (`"Marshal"`, `"Maršál"`), the sign a board draws it by
    /// (`"10"`, `"Ma"`) and what it does under these rules (the combat
    /// table, the long mover).
    fn glossary(rules: &Rules) -> Vec<Term> {
        glossary::glossary(rules)
    }
}

/// The rule-set-free code of each kind index, as the [`Kind`] constants
/// are named.
const KIND_CODES: [&str; Kind::COUNT] = [
    "R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "MINE", "FLAG",
];

/// The code of `kind` (`"R8"`).
fn kind_code(kind: Kind) -> &'static str {
    KIND_CODES[kind.index()]
}

/// The name of `kind` in `variant` without its rank: [`Variant::name`]
/// writes the rank in brackets ("Scout (2)"), which the wire gives apart.
fn piece_name(variant: Variant, kind: Kind) -> &'static str {
    let name = variant.name(kind);
    name.split_once(" (").map_or(name, |(name, _)| name)
}

/// The rank of `kind` in `variant`, where the rule set numbers its ranks
/// (the number in brackets of [`Variant::name`]).
fn piece_rank(variant: Variant, kind: Kind) -> Option<u8> {
    let (_, rank) = variant.name(kind).split_once(" (")?;
    rank.strip_suffix(')')?.parse().ok()
}

/// The kind of `variant` that `code` names, by its code or by its name.
fn kind_of_code(variant: Variant, code: &str) -> Option<Kind> {
    variant
        .kinds()
        .find(|&k| kind_code(k) == code || piece_name(variant, k) == code)
}
