//! Reading an action from text: what [`Action`]'s `Display` writes
//! (`e4-e5`, `place#3`, `start#P1`) and the forms a person types (`e4e5`,
//! `E4 E5`, `e4xe5`, `place 3`).

use std::str::FromStr;

use game_traits::PlayerId;

use crate::action::{Action, Move};
use crate::kind::Kind;
use crate::square::Square;

/// The move forms a person may type, for a help screen: what
/// [`Action`]'s `FromStr` reads beyond the notation of the listed moves.
pub const MOVE_FORMS: &str = "\
a move or an attack by its two squares: e4e5, e4-e5, E4 E5, e4xe5 (files a..j, ranks 1..10)";

/// Why a text names no Stratego action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseActionError {
    /// Nothing but spaces.
    #[error("no action given")]
    Empty,
    /// A word where a square was wanted.
    #[error("{0:?} is not a square (a1..j10)")]
    NotASquare(String),
    /// A placement whose kind index is not 0..11.
    #[error("{0:?} is not a piece kind index (0..11)")]
    NotAKind(String),
    /// A draw of who starts naming no seat.
    #[error("{0:?} is not a seat (P0 or P1)")]
    NotASeat(String),
    /// No form of any action.
    #[error("{0:?} is not an action: write a move as e4-e5, e4e5 or e4 e5")]
    Unrecognised(String),
}

fn square(word: &str) -> Result<Square, ParseActionError> {
    word.parse()
        .map_err(|_| ParseActionError::NotASquare(word.to_owned()))
}

/// `e4e5` (or `e10e9`) cut between its squares: the second square starts
/// at the first letter after a digit.
fn split_squares(word: &str) -> Option<(&str, &str)> {
    let at = word
        .char_indices()
        .skip(1)
        .find(|&(_, c)| c.is_ascii_alphabetic())?
        .0;
    Some(word.split_at(at))
}

/// Reads what `Display` writes, in any case, and the short forms of a
/// move: `e4e5`, `e4-e5`, `E4 E5`, `e4xe5` (an attack, as narrated),
/// `e4 - e5`; a placement also as `place 3`, a draw also as `start P1`.
///
/// ```
/// use stratego_core::Action;
/// let m: Action = "e4-e5".parse().unwrap();
/// assert_eq!("E4 E5".parse(), Ok(m));
/// assert_eq!("e4e5".parse(), Ok(m));
/// assert_eq!(m.to_string(), "e4-e5");
/// ```
impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        let lower = s.trim().to_ascii_lowercase();
        if lower.is_empty() {
            return Err(ParseActionError::Empty);
        }
        let unrecognised = || ParseActionError::Unrecognised(s.trim().to_owned());
        if let Some(k) = lower.strip_prefix("place") {
            let k = k.trim_start_matches(['#', ' ']);
            return k
                .parse::<u8>()
                .ok()
                .and_then(Kind::new)
                .map(Action::Place)
                .ok_or_else(|| ParseActionError::NotAKind(k.to_owned()));
        }
        if let Some(p) = lower.strip_prefix("start") {
            let p = p.trim_start_matches(['#', ' ']);
            return p
                .strip_prefix('p')
                .unwrap_or(p)
                .parse::<usize>()
                .ok()
                .and_then(PlayerId::from_index)
                .map(Action::Start)
                .ok_or_else(|| ParseActionError::NotASeat(p.to_owned()));
        }
        let joined: String = lower
            .split(|c: char| c.is_whitespace() || c == '-' || c == 'x')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let words: Vec<&str> = joined.split(' ').collect();
        let (from, to) = match words.as_slice() {
            [from, to] => (*from, *to),
            [word] => split_squares(word).ok_or_else(unrecognised)?,
            _ => return Err(unrecognised()),
        };
        Ok(Action::Move(Move {
            from: square(from)?,
            to: square(to)?,
        }))
    }
}
