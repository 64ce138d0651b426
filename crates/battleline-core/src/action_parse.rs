//! Reading an action from text: what [`Action`]'s `Display` writes, and
//! the short forms a person types (`R7 F1`, `r7f1`, `claim 3`, `draw
//! tactics`).

use std::str::FromStr;

use crate::action::Action;
use crate::card::{Card, Deck, Tactic};
use crate::flag::FlagId;

/// Why a text names no Battle Line action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseActionError {
    /// Nothing but spaces.
    #[error("no action given")]
    Empty,
    /// A word where a card was wanted (`R7`, `P10`, `AL`, `FOG`).
    #[error("{0:?} is not a card (a colour letter and 1..10 such as R7, or AL, DA, C8, SB, FOG, MUD, SCT, RDP, DES, TRT)")]
    NotACard(String),
    /// A word where a flag was wanted (`F1`..`F9`, or `1`..`9`).
    #[error("{0:?} is not a flag (F1..F9)")]
    NotAFlag(String),
    /// A word where a deck was wanted.
    #[error("{0:?} is not a deck (troop or tactics)")]
    NotADeck(String),
    /// No form of any action.
    #[error("{0:?} is not an action: write a card and a flag (R7 F1), claim F3, draw troop, pass, end turn, or an action as listed")]
    Unrecognised(String),
}

/// Words of the long forms that carry no meaning of their own.
/// The move forms a person may type, for a help screen: what
/// [`Action`]'s `FromStr` reads beyond the notation of the listed moves.
pub const MOVE_FORMS: &str = "\
a card and a flag: R7 F1, r7f1, play R7 at F1 (troops by colour letter and value);
tactics by name or code: Darius F3 or DA F3, Alexander (AL), Cavalry (C8), Shield Bearers (SB),
Fog F9 (FOG), Mud (MUD), scout (SCT), redeploy R7 F2 / redeploy R7 discards,
deserter R7, traitor R7 F2; claim 3 (or claim F3); draw troop, draw tactics; pass; end";

const FILLER: [&str; 7] = ["play", "at", "to", "the", "from", "deck", "takes"];

fn card(word: &str) -> Result<Card, ParseActionError> {
    word.to_ascii_uppercase()
        .parse()
        .or_else(|_| {
            Tactic::ALL
                .into_iter()
                .find(|t| {
                    let name = t.name().replace(' ', "");
                    name.eq_ignore_ascii_case(word)
                        || name
                            .strip_prefix("Companion")
                            .is_some_and(|n| n.eq_ignore_ascii_case(word))
                })
                .map(Card::tactic)
                .ok_or(())
        })
        .map_err(|_| ParseActionError::NotACard(word.to_owned()))
}

fn flag(word: &str) -> Result<FlagId, ParseActionError> {
    let digits = word.strip_prefix(['f', 'F']).unwrap_or(word);
    digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(FlagId::new)
        .ok_or_else(|| ParseActionError::NotAFlag(word.to_owned()))
}

fn deck(word: &str) -> Result<Deck, ParseActionError> {
    match word {
        "troop" | "troops" => Ok(Deck::Troop),
        "tactics" | "tactic" => Ok(Deck::Tactics),
        _ => Err(ParseActionError::NotADeck(word.to_owned())),
    }
}

/// `r7f1` as `r7` and `f1`: a card written against its flag.
fn split_card_flag(word: &str) -> Option<(&str, &str)> {
    let at = word.rfind('f')?;
    let (c, f) = word.split_at(at);
    (!c.is_empty() && f.len() == 2 && f.as_bytes()[1].is_ascii_digit()).then_some((c, f))
}

/// Reads what `Display` writes (`play R7 at F1`, `Redeploy R7 to the
/// discards`, `draw from the troop deck`), in any case, and the short
/// forms: `R7 F1` or `r7f1` (play R7 at F1), `claim 3`, `draw tactics`,
/// `scout`, `redeploy R7 F2`, `deserter R7`, `traitor R7 F2`, `end`.
///
/// ```
/// use battleline_core::{Action, Card, Colour, FlagId};
/// let play = Action::Play { card: Card::troop(Colour::Red, 7).unwrap(), flag: FlagId::new(0).unwrap() };
/// assert_eq!("play R7 at F1".parse(), Ok(play));
/// assert_eq!("r7f1".parse(), Ok(play));
/// assert_eq!("R7 F1".parse(), Ok(play));
/// ```
impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        // Two-word tactic names are one word to the parser.
        let lower = s
            .to_ascii_lowercase()
            .replace("companion cavalry", "companioncavalry")
            .replace("shield bearers", "shieldbearers");
        let words: Vec<&str> = lower
            .split_whitespace()
            .filter(|w| !FILLER.contains(w))
            .collect();
        let unrecognised = || ParseActionError::Unrecognised(s.trim().to_owned());
        if lower.trim().is_empty() {
            return Err(ParseActionError::Empty);
        }
        Ok(match words.as_slice() {
            ["scout"] => Action::Scout,
            ["pass"] => Action::Pass,
            ["end", "turn"] | ["end"] | ["endturn"] => Action::EndTurn,
            ["redeploy", c, "discards" | "discard"] => Action::Redeploy {
                card: card(c)?,
                to: None,
            },
            ["redeploy", c, f] => Action::Redeploy {
                card: card(c)?,
                to: Some(flag(f)?),
            },
            ["deserter", "discards", c] | ["deserter", c] => Action::Deserter { card: card(c)? },
            ["traitor", c, f] => Action::Traitor {
                card: card(c)?,
                to: flag(f)?,
            },
            ["claim", f] => Action::Claim(flag(f)?),
            ["draw", d] | [d @ ("troop" | "tactics")] => Action::Draw(deck(d)?),
            ["return", c] => Action::Return(card(c)?),
            ["deal", c] => Action::Deal(card(c)?),
            [c, f] => Action::Play {
                card: card(c)?,
                flag: flag(f)?,
            },
            [word] => match split_card_flag(word) {
                Some((c, f)) => Action::Play {
                    card: card(c)?,
                    flag: flag(f)?,
                },
                None => return Err(unrecognised()),
            },
            _ => return Err(unrecognised()),
        })
    }
}
