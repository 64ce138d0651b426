//! The one-line text notation of a whole position: `key=value` fields
//! separated by spaces, read through
//! [`PositionBuilder`](crate::PositionBuilder) (so with the same
//! validation) and written back exactly. The writer (`write`) and the
//! reader (`read`) are their own modules.

mod read;
mod write;

use std::str::FromStr;

use game_traits::PlayerId;

use crate::error::CardWarError;
use crate::state::CardWar;

pub(crate) use write::write_position;

impl CardWar {
    /// The whole position on one line of `key=value` fields: the rules
    /// (those that differ from the default), the round, decisions made,
    /// phase, roles, the initiative dice and the battle in progress, then
    /// each side's cards, guards, prayer, open card, fight modifiers, the
    /// opponent's knowledge, the donors under the front card and the
    /// side's last draw roll and paratroopers die. [`CardWar::from_notation`] reads it back exactly.
    ///
    /// Cards are written as displayed (`2a` .. `10b`, `Ja`, `Qb`, `Ka`),
    /// card sets as comma lists (`-` when empty); a line lists its slots
    /// from the front: `(5a)` face down, `(5a+1)` face down with a point
    /// from a health-1 card, `{5a}` face down from the pile, `5a:3`
    /// revealed with 3 health left. The phase is `lay:P0:attack:9`,
    /// `pray:P1`, `attack-die`, `over:P0`, `over:draw`...
    ///
    /// ```
    /// use cardwar_core::{CardWar, Game, Rules};
    ///
    /// let game = CardWar::new(&Rules::default()).unwrap();
    /// let text = game.to_notation();
    /// assert!(text.starts_with("rules=default round=0 moves=0 phase=aside:P0:6 "));
    /// assert_eq!(CardWar::from_notation(&text).unwrap(), game);
    /// ```
    pub fn to_notation(&self) -> String {
        write_position(
            &self.rules,
            &self.public,
            [
                Some(&self.hidden[PlayerId::P0]),
                Some(&self.hidden[PlayerId::P1]),
            ],
        )
    }

    /// Reads a position written by [`CardWar::to_notation`]. Fields may
    /// come in any order and may be left out: a missing one keeps the
    /// value of [`PositionBuilder::new`](crate::PositionBuilder::new) (a
    /// missing hand holds every soldier not placed elsewhere, missing
    /// knowledge is that the opponent saw nothing). The position is validated as a deserialised
    /// state is; any error is [`CardWarError::InvalidPosition`] (or
    /// [`CardWarError::InvalidRules`]), never a panic.
    pub fn from_notation(text: &str) -> Result<CardWar, CardWarError> {
        read::read_position(text)
    }
}

impl FromStr for CardWar {
    type Err = CardWarError;

    /// [`CardWar::from_notation`].
    fn from_str(text: &str) -> Result<CardWar, CardWarError> {
        CardWar::from_notation(text)
    }
}
