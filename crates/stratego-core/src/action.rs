//! Actions: setup placements and moves.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::kind::Kind;
use crate::square::Square;

/// A move of one piece from `from` to `to` (a step, a long move or an
/// attack: attacking is moving onto an enemy piece).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Move {
    /// Start square.
    pub from: Square,
    /// Destination square.
    pub to: Square,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// A decision of a player. `Display` writes a move as `e4-e5` and a
/// placement as `place#k` with the kind index (an action does not know the
/// rule set; [`ActionView`](crate::ActionView) names the piece: "place
/// Scout (2) on a4"). During the setup phase each player in turn
/// fills his 40 home squares one by one, front row first, each row from his
/// left ([`SetupSquare`](crate::SetupSquare) order), choosing the kind of
/// the next square: `Place(kind)`. Then the players alternate `Move`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Action {
    /// Put a piece of this kind on the next free setup square.
    Place(Kind),
    /// Move a piece.
    Move(Move),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Place(k) => write!(f, "place#{}", k.index()),
            Action::Move(m) => write!(f, "{m}"),
        }
    }
}

/// Size of the dense action-id space: 12 placements and 100x100 moves.
pub const ACTION_SPACE: usize = Kind::COUNT + 100 * 100;

impl Action {
    /// The dense id: placements first, then moves by (from, to).
    pub const fn id(self) -> usize {
        match self {
            Action::Place(k) => k.index(),
            Action::Move(m) => Kind::COUNT + m.from.index() * 100 + m.to.index(),
        }
    }

    /// The action with dense id `id`.
    pub fn from_id(id: usize) -> Option<Action> {
        if id < Kind::COUNT {
            return Kind::new(id as u8).map(Action::Place);
        }
        let m = id.checked_sub(Kind::COUNT)?;
        if m >= 100 * 100 {
            return None;
        }
        Some(Action::Move(Move {
            from: Square::new((m / 100) as u8)?,
            to: Square::new((m % 100) as u8)?,
        }))
    }
}
