//! Reading an action from text: what [`Action`]'s `Display` writes
//! (`place 10a`, `end line`, `die 3`, `draw Kb`) and the short forms a
//! person types (`10a`, `kb`, `end`).

use std::str::FromStr;

use crate::action::Action;
use crate::card::Soldier;

/// The move forms a person may type, for a help screen: what
/// [`Action`]'s `FromStr` reads beyond the notation of the listed moves.
pub const MOVE_FORMS: &str = "\
a card to lay: 10a, Kb (rank 2..10, J, Q or K and suit a or b), or place Kb / lay Kb;
end (end your line, keeping the rest in reserve); pray; decline (do not pray)";

/// Why a text names no card war action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseActionError {
    /// Nothing but spaces.
    #[error("no action given")]
    Empty,
    /// A word where a soldier was wanted.
    #[error(
        "{0:?} is not a soldier (a rank 2..10, J, Q or K and a suit a or b, such as 10a or Kb)"
    )]
    NotASoldier(String),
    /// A die or a sum of two dice out of its range.
    #[error("{0:?} is not a roll (a die 1..6, two dice 2..12)")]
    NotARoll(String),
    /// No form of any action.
    #[error("{0:?} is not an action: write a card (10a, Kb), end line, pray or decline")]
    Unrecognised(String),
}

/// A soldier in any case: `kb`, `KB` and `Kb` are the king of suit b.
fn soldier(word: &str) -> Result<Soldier, ParseActionError> {
    let bad = || ParseActionError::NotASoldier(word.to_owned());
    let lower = word.to_ascii_lowercase();
    let suit = lower.chars().last().ok_or_else(bad)?;
    let rank = lower[..lower.len() - suit.len_utf8()].to_ascii_uppercase();
    format!("{rank}{suit}").parse().map_err(|_| bad())
}

fn roll(word: &str, range: std::ops::RangeInclusive<u8>) -> Result<u8, ParseActionError> {
    word.parse::<u8>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| ParseActionError::NotARoll(word.to_owned()))
}

/// Reads what `Display` writes, in any case, and the short forms: a card
/// alone (`10a`, `kb`) lays it, `end` ends the line.
///
/// ```
/// use cardwar_core::Action;
/// let lay: Action = "place Kb".parse().unwrap();
/// assert_eq!("kb".parse(), Ok(lay));
/// assert_eq!(lay.to_string(), "place Kb");
/// ```
impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        let lower = s.to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        Ok(match words.as_slice() {
            [] => return Err(ParseActionError::Empty),
            ["end", "line"] | ["end"] => Action::EndLine,
            ["pray"] => Action::Pray,
            ["decline"] => Action::Decline,
            ["die", d] => Action::Die(roll(d, 1..=6)?),
            ["dice", d] => Action::Dice(roll(d, 2..=12)?),
            ["draw", c] => Action::Draw(soldier(c)?),
            ["place" | "lay", c] => Action::Place(soldier(c)?),
            [c] => Action::Place(
                soldier(c).map_err(|_| ParseActionError::Unrecognised(s.trim().to_owned()))?,
            ),
            _ => return Err(ParseActionError::Unrecognised(s.trim().to_owned())),
        })
    }
}
