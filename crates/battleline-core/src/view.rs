//! What a player sees of an action: the whole action when it is public,
//! only its visible part when it moves a card he may not see.

use std::fmt;

use game_traits::PlayerId;
use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::card::{Card, Deck};
use crate::state::{BattleLine, Phase};

/// An action as one viewer perceives it ([`game_traits::Game::action_view`]).
///
/// Every play at a flag, every tactic with its targets (Scout, Redeploy,
/// Deserter, Traitor), passes, claims, the choice of deck and the end of a
/// turn are public: [`ActionView::Public`]. A card dealt or drawn from a
/// deck is shown only to the player who receives it; the other sees from
/// which deck ([`ActionView::Dealt`], [`ActionView::Drew`]). A card Scout
/// puts back is shown only to the player who returns it; the other sees on
/// which deck it went ([`ActionView::Returned`]).
///
/// ```
/// use battleline_core::{Action, ActionView, BattleLine, Card, Colour, Game, PlayerId, Rules};
/// let game = BattleLine::new(&Rules::default()).unwrap();
/// let deal = Action::Deal(Card::troop(Colour::Red, 7).unwrap());
/// // The first card of the deal goes to P0: P1 does not see it.
/// assert_eq!(game.action_view(PlayerId::P1, deal).to_string(), "P0 is dealt a troop card");
/// assert_eq!(game.action_view(PlayerId::P0, deal).to_string(), "P0 is dealt R7");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ActionView {
    /// A decision everybody sees whole.
    Public {
        /// Who made it.
        player: PlayerId,
        /// The decision.
        action: Action,
    },
    /// A troop card of the starting deal.
    Dealt {
        /// Who receives it.
        to: PlayerId,
        /// The card, for the player who receives it.
        card: Option<Card>,
    },
    /// The card a draw from `deck` gives (a chance event).
    Drew {
        /// Who draws.
        player: PlayerId,
        /// The deck.
        deck: Deck,
        /// The card, for the player who draws it.
        card: Option<Card>,
    },
    /// A card put back on top of `deck` by Scout.
    Returned {
        /// Who returns it.
        player: PlayerId,
        /// The deck it goes on.
        deck: Deck,
        /// The card, for the player who returns it.
        card: Option<Card>,
    },
}

impl BattleLine {
    /// `action`, about to be applied, as `viewer` sees it.
    pub(crate) fn view(&self, viewer: PlayerId, action: Action) -> ActionView {
        let player = self.table.player;
        let shown = |to: PlayerId, card: Card| (to == viewer).then_some(card);
        match action {
            Action::Deal(card) if self.table.phase == Phase::Setup => {
                let to = self.setup_receiver();
                ActionView::Dealt {
                    to,
                    card: shown(to, card),
                }
            }
            Action::Deal(card) => ActionView::Drew {
                player,
                deck: card.deck(),
                card: shown(player, card),
            },
            Action::Return(card) => ActionView::Returned {
                player,
                deck: card.deck(),
                card: shown(player, card),
            },
            action => ActionView::Public { player, action },
        }
    }
}

impl fmt::Display for ActionView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = |deck: Deck| match deck {
            Deck::Troop => "a troop card",
            Deck::Tactics => "a tactics card",
        };
        match *self {
            ActionView::Public { player, action } => write!(f, "{player}: {action}"),
            ActionView::Dealt { to, card: Some(c) } => write!(f, "{to} is dealt {c}"),
            ActionView::Dealt { to, card: None } => write!(f, "{to} is dealt a troop card"),
            ActionView::Drew {
                player,
                card: Some(c),
                ..
            } => write!(f, "{player} drew {c}"),
            ActionView::Drew {
                player,
                deck,
                card: None,
            } => write!(f, "{player} drew {}", kind(deck)),
            ActionView::Returned {
                player,
                deck,
                card: Some(c),
            } => write!(f, "{player} returned {c} on top of the {deck}"),
            ActionView::Returned {
                player,
                deck,
                card: None,
            } => write!(f, "{player} returned a card on top of the {deck}"),
        }
    }
}
