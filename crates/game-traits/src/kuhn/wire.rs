//! Kuhn poker on the wire: the reference for every game's
//! [`Wire`](crate::Wire) implementation.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{card_letter, Card, KuhnAction, KuhnObservation, KuhnPoker, KuhnRules, KuhnView};
use crate::{who, Event, PlayerId, Wire};

/// A Kuhn poker action on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum KuhnActionStruct {
    /// Chance: the next player is dealt `card`.
    Deal {
        /// The card dealt.
        card: Card,
    },
    /// Check, or fold when facing a bet.
    Pass,
    /// Bet, or call when facing a bet.
    Bet,
}

/// A Kuhn poker action as one player perceives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum KuhnViewStruct {
    /// `to` was dealt a card; `card` is `null` unless the viewer is `to`.
    Deal {
        /// Who received the card.
        to: PlayerId,
        /// The card, for the player who received it.
        card: Option<Card>,
    },
    /// A check or fold.
    Pass,
    /// A bet or call.
    Bet,
}

/// What a Kuhn poker action did, as one player may know it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum KuhnEvent {
    /// `to` was dealt a card; `card` is `null` unless the viewer is `to`.
    Dealt {
        /// Who received the card.
        to: PlayerId,
        /// The card, for the player who received it.
        card: Option<Card>,
    },
    /// `player` checked or folded.
    Pass {
        /// Who passed.
        player: PlayerId,
    },
    /// `player` bet or called.
    Bet {
        /// Who bet.
        player: PlayerId,
    },
}

impl Event for KuhnEvent {
    fn tell(&self, viewer: Option<PlayerId>) -> String {
        match *self {
            KuhnEvent::Dealt { to, card: Some(c) } if Some(to) == viewer => {
                format!("you are dealt {}", card_letter(c))
            }
            KuhnEvent::Dealt { to, card } => KuhnView::Deal { to, card }.to_string(),
            KuhnEvent::Pass { player } => format!("{}: {}", who(player, viewer), KuhnView::Pass),
            KuhnEvent::Bet { player } => format!("{}: {}", who(player, viewer), KuhnView::Bet),
        }
    }
}

/// One player's observation of Kuhn poker on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct KuhnObservationStruct {
    /// Whose observation this is.
    pub viewer: PlayerId,
    /// The chips each player antes.
    pub ante: u8,
    /// The viewer's card, once dealt.
    pub card: Option<Card>,
    /// How many cards have been dealt (0 to 2).
    pub dealt: u8,
    /// The betting so far, first decision first.
    pub history: Vec<KuhnActionStruct>,
    /// The other player's card, once shown down.
    pub shown: Option<Card>,
}

impl Wire for KuhnPoker {
    type ActionStruct = KuhnActionStruct;
    type ViewStruct = KuhnViewStruct;
    type ObservationStruct = KuhnObservationStruct;
    type Event = KuhnEvent;

    fn action_struct(action: KuhnAction) -> KuhnActionStruct {
        match action {
            KuhnAction::Deal(card) => KuhnActionStruct::Deal { card },
            KuhnAction::Pass => KuhnActionStruct::Pass,
            KuhnAction::Bet => KuhnActionStruct::Bet,
        }
    }

    fn action_from_struct(_rules: &KuhnRules, action: &KuhnActionStruct) -> Option<KuhnAction> {
        Some(match *action {
            KuhnActionStruct::Deal { card } => KuhnAction::Deal(card),
            KuhnActionStruct::Pass => KuhnAction::Pass,
            KuhnActionStruct::Bet => KuhnAction::Bet,
        })
    }

    fn view_struct(view: &KuhnView) -> KuhnViewStruct {
        match *view {
            KuhnView::Deal { to, card } => KuhnViewStruct::Deal { to, card },
            KuhnView::Pass => KuhnViewStruct::Pass,
            KuhnView::Bet => KuhnViewStruct::Bet,
        }
    }

    fn observation_struct(o: &KuhnObservation) -> KuhnObservationStruct {
        KuhnObservationStruct {
            viewer: o.player,
            ante: o.rules.ante,
            card: o.own,
            dealt: o.dealt,
            history: o
                .history
                .iter()
                .map(|&a| KuhnPoker::action_struct(a))
                .collect(),
            shown: o.shown,
        }
    }

    /// A deal as its view says, a decision with who made it (P0 acts
    /// first, then they alternate).
    fn events(
        _viewer: PlayerId,
        before: &KuhnObservation,
        view: &KuhnView,
        _after: &KuhnObservation,
    ) -> Vec<KuhnEvent> {
        let player = PlayerId::BOTH[before.history.len() % 2];
        vec![match *view {
            KuhnView::Deal { to, card } => KuhnEvent::Dealt { to, card },
            KuhnView::Pass => KuhnEvent::Pass { player },
            KuhnView::Bet => KuhnEvent::Bet { player },
        }]
    }
}
