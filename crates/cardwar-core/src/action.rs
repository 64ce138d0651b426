//! Actions: the players' decisions and the chance outcomes, with dense ids.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::{Soldier, SOLDIERS};

/// A player's decision or a chance outcome. The variant order is the id
/// order, so `Ord` and [`Action::id`] agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Decision: lay this card of the hand next in the line being built.
    Place(Soldier),
    /// Decision: stop a free attack line here; the rest of the hand is a
    /// reserve.
    EndLine,
    /// Decision: pray to the gods now (once per game).
    Pray,
    /// Decision: do not pray before this fight.
    Decline,
    /// Chance: one die (or, for an ace or the joker, the higher of two).
    Die(u8),
    /// Chance: the sum of two dice (a draw count or a prayer).
    Dice(u8),
    /// Chance: the card that comes next from a shuffled pile or deck.
    Draw(Soldier),
}

const PLACE: usize = 0;
const END_LINE: usize = PLACE + SOLDIERS;
const PRAY: usize = END_LINE + 1;
const DECLINE: usize = PRAY + 1;
const DIE: usize = DECLINE + 1;
const DICE: usize = DIE + 6;
const DRAW: usize = DICE + 11;

/// Size of the dense action-id space.
pub const ACTION_SPACE: usize = DRAW + SOLDIERS;

impl Action {
    /// The dense id, below [`ACTION_SPACE`] for every well-formed action.
    pub fn id(self) -> usize {
        match self {
            Action::Place(c) => PLACE + c.id() as usize,
            Action::EndLine => END_LINE,
            Action::Pray => PRAY,
            Action::Decline => DECLINE,
            Action::Die(d) => DIE + (d.clamp(1, 6) - 1) as usize,
            Action::Dice(s) => DICE + (s.clamp(2, 12) - 2) as usize,
            Action::Draw(c) => DRAW + c.id() as usize,
        }
    }

    /// The action of id `id`.
    pub fn from_id(id: usize) -> Option<Action> {
        Some(match id {
            _ if id < END_LINE => Action::Place(Soldier::new(id as u8)?),
            END_LINE => Action::EndLine,
            PRAY => Action::Pray,
            DECLINE => Action::Decline,
            _ if id < DICE => Action::Die((id - DIE + 1) as u8),
            _ if id < DRAW => Action::Dice((id - DICE + 2) as u8),
            _ if id < ACTION_SPACE => Action::Draw(Soldier::new((id - DRAW) as u8)?),
            _ => return None,
        })
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Place(c) => write!(f, "place {c}"),
            Action::EndLine => f.write_str("end line"),
            Action::Pray => f.write_str("pray"),
            Action::Decline => f.write_str("decline"),
            Action::Die(d) => write!(f, "die {d}"),
            Action::Dice(s) => write!(f, "dice {s}"),
            Action::Draw(c) => write!(f, "draw {c}"),
        }
    }
}
