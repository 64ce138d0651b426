//! Card war on the wire ([`game_traits::Wire`]): actions, action views and
//! observations as structured JSON for clients, cards as the codes the
//! game writes (`"7a"`, `"10b"`, `"Kb"`), seats as 0 and 1. The state and
//! records keep their own serde forms.

mod event;
mod glossary;
mod narration;
mod observation;

use std::fmt;

use game_traits::schemars::{self, JsonSchema};
use game_traits::{PlayerId, Term, Wire};
use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::card::Soldier;
use crate::observation::Observation;
use crate::rules::Rules;
use crate::state::CardWar;
use crate::view::ActionView;

pub use event::{
    CardWarArithmetic, CardWarEnding, CardWarEvent, CardWarFightResult, CardWarFightSide,
};
pub use observation::{
    CardWarFight, CardWarLineKind, CardWarObservationStruct, CardWarOpen, CardWarOutcome,
    CardWarOwnCards, CardWarPhase, CardWarPrayer, CardWarPrayerResult, CardWarSide, CardWarSlot,
};

/// A soldier's code as the game writes it: rank `2`..`10`, `J`, `Q` or
/// `K`, then suit `a` or `b` (`"7a"`, `"10b"`, `"Kb"`).
///
/// Any string reads into it, so that a client's unknown code reaches
/// [`Wire::action_from_struct`], which refuses it; [`CardCode::soldier`]
/// gives the soldier a code names.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CardCode(pub String);

impl CardCode {
    /// The soldier this code names, if it is one of the 24.
    pub fn soldier(&self) -> Option<Soldier> {
        self.0.parse().ok()
    }
}

impl From<Soldier> for CardCode {
    fn from(card: Soldier) -> Self {
        CardCode(card.to_string())
    }
}

impl fmt::Display for CardCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl JsonSchema for CardCode {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "CardWarCardCode".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let codes: Vec<String> = Soldier::all().map(|c| c.to_string()).collect();
        schemars::json_schema!({
            "description": "A soldier: rank 2..10, J, Q or K, then suit a or b (\"7a\", \"10b\", \"Kb\").",
            "type": "string",
            "enum": codes
        })
    }
}

/// A card war action on the wire: a player's decision or a chance outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum CardWarActionStruct {
    /// Decision: lay this card of the hand next in the line being built.
    Place {
        /// The card laid.
        card: CardCode,
    },
    /// Decision: stop a free attack line here; the rest of the hand is a
    /// reserve.
    EndLine,
    /// Decision: pray to the gods now (once per game).
    Pray,
    /// Decision: do not pray before this fight.
    Decline,
    /// Chance: one die (for an ace or the joker, the higher of two).
    Die {
        /// The die, 1..=6.
        value: u8,
    },
    /// Chance: the sum of two dice (a draw count or a prayer).
    Dice {
        /// The sum, 2..=12.
        sum: u8,
    },
    /// Chance: the card that comes next from a shuffled pile or deck.
    Draw {
        /// The card drawn.
        card: CardCode,
    },
}

/// A card war action as one player perceives it: a card is `null` where
/// the viewer does not see it (an opponent's card laid face down, put
/// aside, drawn or brought from his pile).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CardWarViewStruct {
    /// `player` laid a card of his hand next in his line.
    Lay {
        /// Who laid it.
        player: PlayerId,
        /// The card, when the viewer sees it.
        card: Option<CardCode>,
        /// Whether it stays face down (the last card of a line laid into
        /// slot 0 is revealed at once, as the fights begin).
        face_down: bool,
    },
    /// `player` stopped his free attack line: the rest of his hand is a
    /// reserve.
    EndLine {
        /// Who stopped.
        player: PlayerId,
    },
    /// `player` prays to the gods.
    Pray {
        /// Who prays.
        player: PlayerId,
    },
    /// `player` does not pray before this fight.
    Decline {
        /// Who declines.
        player: PlayerId,
    },
    /// A die (for an ace or the joker, the higher of two).
    Die {
        /// The die, 1..=6.
        value: u8,
    },
    /// The sum of two dice.
    Dice {
        /// The sum, 2..=12.
        sum: u8,
    },
    /// Setup: a card of `player`'s went face down from his hand into his
    /// pile.
    PutAside(CardWarPileCard),
    /// `player` drew a card from his pile into his hand.
    Drew(CardWarPileCard),
    /// A prayer brought a card of `player`'s pile face down into his line.
    Reinforcement(CardWarPileCard),
    /// An action that does not fit the phase of the game, shown as given.
    Unfit {
        /// The action.
        action: CardWarActionStruct,
    },
}

/// A card of `player`'s going into or out of his pile (put aside, drawn,
/// brought by a prayer), as a view and as an event show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct CardWarPileCard {
    /// Whose card.
    pub player: PlayerId,
    /// The card, when the viewer is its owner; `null` for the other.
    pub card: Option<CardCode>,
}

impl CardWarPileCard {
    /// `player`'s `card` as the viewer sees it.
    fn new(player: PlayerId, card: Option<Soldier>) -> CardWarPileCard {
        CardWarPileCard {
            player,
            card: card.map(CardCode::from),
        }
    }
}

impl Wire for CardWar {
    type ActionStruct = CardWarActionStruct;
    type ViewStruct = CardWarViewStruct;
    type ObservationStruct = CardWarObservationStruct;
    type Event = CardWarEvent;

    fn action_struct(action: Action) -> CardWarActionStruct {
        match action {
            Action::Place(c) => CardWarActionStruct::Place { card: c.into() },
            Action::EndLine => CardWarActionStruct::EndLine,
            Action::Pray => CardWarActionStruct::Pray,
            Action::Decline => CardWarActionStruct::Decline,
            Action::Die(value) => CardWarActionStruct::Die { value },
            Action::Dice(sum) => CardWarActionStruct::Dice { sum },
            Action::Draw(c) => CardWarActionStruct::Draw { card: c.into() },
        }
    }

    /// The action, if its card is one of the 24 soldiers and its die or
    /// sum in range: the dense ids are the action space, so an action is
    /// in it exactly when its id names it back.
    fn action_from_struct(_rules: &Rules, action: &CardWarActionStruct) -> Option<Action> {
        let action = match action {
            CardWarActionStruct::Place { card } => Action::Place(card.soldier()?),
            CardWarActionStruct::EndLine => Action::EndLine,
            CardWarActionStruct::Pray => Action::Pray,
            CardWarActionStruct::Decline => Action::Decline,
            CardWarActionStruct::Die { value } => Action::Die(*value),
            CardWarActionStruct::Dice { sum } => Action::Dice(*sum),
            CardWarActionStruct::Draw { card } => Action::Draw(card.soldier()?),
        };
        (Action::from_id(action.id()) == Some(action)).then_some(action)
    }

    fn view_struct(view: &ActionView) -> CardWarViewStruct {
        let code = |card: Option<Soldier>| card.map(CardCode::from);
        match *view {
            ActionView::Lay {
                player,
                card,
                face_down,
            } => CardWarViewStruct::Lay {
                player,
                card: code(card),
                face_down,
            },
            ActionView::EndLine { player } => CardWarViewStruct::EndLine { player },
            ActionView::Pray { player } => CardWarViewStruct::Pray { player },
            ActionView::Decline { player } => CardWarViewStruct::Decline { player },
            ActionView::Die(value) => CardWarViewStruct::Die { value },
            ActionView::Dice(sum) => CardWarViewStruct::Dice { sum },
            ActionView::PutAside { player, card } => {
                CardWarViewStruct::PutAside(CardWarPileCard::new(player, card))
            }
            ActionView::Drew { player, card } => {
                CardWarViewStruct::Drew(CardWarPileCard::new(player, card))
            }
            ActionView::Reinforcement { player, card } => {
                CardWarViewStruct::Reinforcement(CardWarPileCard::new(player, card))
            }
            ActionView::Unfit(action) => CardWarViewStruct::Unfit {
                action: CardWar::action_struct(action),
            },
        }
    }

    fn observation_struct(observation: &Observation) -> CardWarObservationStruct {
        CardWarObservationStruct::of(observation)
    }

    fn events(
        _viewer: PlayerId,
        before: &Observation,
        view: &ActionView,
        after: &Observation,
    ) -> Vec<CardWarEvent> {
        narration::events(before, view, after)
    }

    /// The names of the codes the observation sends: lines (group
    /// `"line"`: `"free_attack"` is `"free attack line"`), guards in the
    /// order of a side's `guards` (`"guard"`: `"Jk"` is the `"joker"`) and
    /// prayer results (`"prayer"`: `"atomic_bomb"`, drawn by its sum
    /// `"12"`), each guard and result with what it does under `rules`.
    /// Cards are their own names (`"7a"`, `"Kb"`).
    fn glossary(rules: &Rules) -> Vec<Term> {
        glossary::glossary(rules)
    }
}
