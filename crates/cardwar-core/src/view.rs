//! What a player sees of an action: the whole action when he can know it,
//! otherwise only what happens in front of him ("P1 laid a card face
//! down").

use std::fmt;

use game_traits::PlayerId;
use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::card::Soldier;
use crate::state::{CardWar, LayKind, Phase};

/// An action as one player perceives it ([`game_traits::Game::action_view`]).
///
/// A card is named (`Some`) exactly when the viewer sees it: his own cards
/// always, an opponent's card only when it is laid face up. Laying a card
/// face down, putting one aside into the pile, drawing one into the hand and
/// a prayer's reinforcement from the pile all hide the opponent's card; the
/// end of a line and the prayer answers are public.
///
/// Dice are public too, and shown with their values: the viewer's
/// [`Observation`](crate::Observation) keeps every roll (both initiative
/// dice, each side's last draw roll and paratroopers die, the last fight's
/// dice and the last prayer even after its battle ended), so a view never
/// tells more than the observation after it.
///
/// ```
/// use cardwar_core::{ActionView, CardWar, Game, PlayerId, Rules};
///
/// let game = CardWar::new(&Rules::default()).unwrap();
/// // Setup: P0's first card put aside into his pile.
/// let mut legal = Vec::new();
/// game.legal_actions(&mut legal);
/// let action = legal[0];
/// assert_eq!(
///     game.action_view(PlayerId::P1, action).to_string(),
///     "P0 put a card aside into his pile"
/// );
/// assert!(matches!(
///     game.action_view(PlayerId::P0, action),
///     ActionView::PutAside { card: Some(_), .. }
/// ));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ActionView {
    /// `player` laid a card of his hand next in his line.
    Lay {
        /// Who laid it.
        player: PlayerId,
        /// The card, when the viewer sees it.
        card: Option<Soldier>,
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
    /// A die (or, for a guard, the higher of two).
    Die(u8),
    /// The sum of two dice.
    Dice(u8),
    /// Setup: a card of `player`'s went face down from his hand into his
    /// pile.
    PutAside {
        /// Whose card.
        player: PlayerId,
        /// The card, when the viewer is its owner.
        card: Option<Soldier>,
    },
    /// `player` drew a card from his pile into his hand.
    Drew {
        /// Who drew.
        player: PlayerId,
        /// The card, when the viewer is the one who drew it.
        card: Option<Soldier>,
    },
    /// A prayer brought a card of `player`'s pile face down into his line.
    Reinforcement {
        /// Whose line.
        player: PlayerId,
        /// The card, when the viewer is its owner.
        card: Option<Soldier>,
    },
    /// An action that does not fit the phase of the game (so it cannot be
    /// applied), shown as given.
    Unfit(Action),
}

impl CardWar {
    /// `action` as `viewer` perceives it, from the phase and the public
    /// counts only: nothing hidden from him is read.
    pub(crate) fn view(&self, viewer: PlayerId, action: Action) -> ActionView {
        let own = |player: PlayerId, card: Soldier| (player == viewer).then_some(card);
        match (self.public.phase, action) {
            (Phase::Lay { player, kind, left }, Action::Place(c)) => {
                let face_down = !self.revealed_at_once(player, kind, left);
                ActionView::Lay {
                    player,
                    card: if face_down { own(player, c) } else { Some(c) },
                    face_down,
                }
            }
            (Phase::Lay { player, .. }, Action::EndLine) => ActionView::EndLine { player },
            (Phase::Pray { player }, Action::Pray) => ActionView::Pray { player },
            (Phase::Pray { player }, Action::Decline) => ActionView::Decline { player },
            (
                Phase::Initiative { .. }
                | Phase::ParatrooperRoll { .. }
                | Phase::AttackDie
                | Phase::DefenceDie,
                Action::Die(d),
            ) => ActionView::Die(d),
            (Phase::DrawRoll { .. } | Phase::PrayerRoll { .. }, Action::Dice(s)) => {
                ActionView::Dice(s)
            }
            (Phase::Aside { colour, .. }, Action::Draw(c)) => ActionView::PutAside {
                player: colour,
                card: own(colour, c),
            },
            (Phase::Draw { player, .. }, Action::Draw(c)) => ActionView::Drew {
                player,
                card: own(player, c),
            },
            (Phase::Reinforce { player, .. }, Action::Draw(c)) => ActionView::Reinforcement {
                player,
                card: own(player, c),
            },
            _ => ActionView::Unfit(action),
        }
    }

    /// Whether the card `player` lays now ends his line in slot 0 and opens
    /// the fights, which reveal it: a defence, or an attack the defender
    /// has no card to answer.
    fn revealed_at_once(&self, player: PlayerId, kind: LayKind, left: u8) -> bool {
        let side = self.side(player);
        let ends_line = left <= 1 || side.hand <= 1;
        side.line.is_empty()
            && ends_line
            && (kind == LayKind::Defence || self.side(player.other()).hand == 0)
    }
}

impl fmt::Display for ActionView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ActionView::Lay {
                player,
                card: Some(c),
                face_down: true,
            } => write!(f, "{player} laid {c} face down"),
            ActionView::Lay {
                player,
                card: Some(c),
                face_down: false,
            } => write!(f, "{player} laid {c}, revealed as the fights begin"),
            ActionView::Lay { player, .. } => write!(f, "{player} laid a card face down"),
            ActionView::EndLine { player } => {
                write!(f, "{player} ended his line, keeping the rest in reserve")
            }
            ActionView::Pray { player } => write!(f, "{player} prays"),
            ActionView::Decline { player } => write!(f, "{player} does not pray"),
            ActionView::Die(d) => write!(f, "die {d}"),
            ActionView::Dice(s) => write!(f, "dice {s}"),
            ActionView::PutAside { player, card } => match card {
                Some(c) => write!(f, "{player} put {c} aside into his pile"),
                None => write!(f, "{player} put a card aside into his pile"),
            },
            ActionView::Drew { player, card } => match card {
                Some(c) => write!(f, "{player} drew {c}"),
                None => write!(f, "{player} drew a card"),
            },
            ActionView::Reinforcement { player, card } => match card {
                Some(c) => write!(f, "{player} brought {c} face down from his pile"),
                None => write!(f, "{player} brought a card face down from his pile"),
            },
            ActionView::Unfit(a) => write!(f, "{a} (does not fit the game now)"),
        }
    }
}
