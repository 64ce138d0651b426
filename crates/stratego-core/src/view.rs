//! What a player sees of an action: setup placements hide their kind from
//! the opponent; moves are public.

use std::fmt;

use game_traits::PlayerId;
use serde::{Deserialize, Serialize};

use crate::action::{Action, Move};
use crate::kind::Kind;
use crate::setup::SetupSquare;
use crate::square::Square;
use crate::state::Stratego;
use crate::variant::Variant;

/// An action as one player perceives it ([`Game::action_view`]).
///
/// A placement shows the square it fills (the observation shows that a
/// piece stands there) and, to the placer only, the kind. A move (a step,
/// a long move or an attack) is public as it is: what an attack reveals
/// is in the observation after it.
///
/// ```
/// use game_traits::{Game, PlayerId};
/// use stratego_core::{classic, Action, Rules, Stratego};
///
/// let game = Stratego::new(&Rules::classic()).unwrap();
/// let place = Action::Place(classic::SCOUT);
/// assert_eq!(game.action_view(PlayerId::P0, place).to_string(), "place Scout (2) on a4");
/// assert_eq!(game.action_view(PlayerId::P1, place).to_string(), "P0 places a piece on a4");
/// ```
///
/// [`Game::action_view`]: game_traits::Game::action_view
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ActionView {
    /// `player` put a piece on `square` in the setup phase.
    Place {
        /// Who placed it.
        player: PlayerId,
        /// The square it now stands on.
        square: Square,
        /// Its kind, shown to the placer only.
        kind: Option<Kind>,
        /// The rule set, for the kind's name.
        variant: Variant,
    },
    /// A move, public as it is.
    Move(Move),
    /// The opening draw: this player moves first (public).
    Start(PlayerId),
}

impl fmt::Display for ActionView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionView::Place {
                square,
                kind: Some(kind),
                variant,
                ..
            } => write!(f, "place {} on {square}", variant.name(*kind)),
            ActionView::Place {
                player,
                square,
                kind: None,
                ..
            } => write!(f, "{player} places a piece on {square}"),
            ActionView::Move(m) => write!(f, "{m}"),
            ActionView::Start(p) => write!(f, "drawn: {p} moves first"),
        }
    }
}

impl Stratego {
    /// `action` as `viewer` perceives it, read from the state before it is
    /// applied: only public facts and the viewer's own placements.
    pub(crate) fn view(&self, viewer: PlayerId, action: Action) -> ActionView {
        match action {
            Action::Place(kind) => {
                let player = self.current_player().unwrap_or(self.to_move);
                let square = SetupSquare::from_index(self.placed[player] as usize)
                    .and_then(|ss| ss.board_square(player))
                    .unwrap_or(Square::FIRST);
                ActionView::Place {
                    player,
                    square,
                    kind: (player == viewer).then_some(kind),
                    variant: self.rules.variant,
                }
            }
            Action::Move(m) => ActionView::Move(m),
            Action::Start(p) => ActionView::Start(p),
        }
    }
}
