//! Actions: the decisions of a turn and the chance outcomes, with their
//! dense ids.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::{Card, Deck, CARDS};
use crate::flag::{FlagId, FLAGS};

/// A player's decision or a chance outcome.
///
/// A turn is split into decisions: one play ([`Action::Play`], a guile
/// tactic, or [`Action::Pass`]), then any number of [`Action::Claim`]s,
/// then the choice of deck ([`Action::Draw`], or [`Action::EndTurn`] when
/// nothing can be drawn), whose card is a chance outcome
/// ([`Action::Deal`]). Scout draws three this way, then returns two
/// ([`Action::Return`]).
///
/// Actions are ordered by their [`Action::id`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Put a troop card, a morale tactic (Leader, Cavalry, Shield Bearers)
    /// into a slot at `flag`, or lay Fog or Mud beside it.
    Play {
        /// The card from the hand.
        card: Card,
        /// The flag.
        flag: FlagId,
    },
    /// Play Scout: draw three at the end of the turn, return two.
    Scout,
    /// Play Redeploy: move `card` from your side of an unclaimed flag to a
    /// free slot at flag `to`, or discard it (`None`).
    Redeploy {
        /// Your card on the table.
        card: Card,
        /// Where it goes.
        to: Option<FlagId>,
    },
    /// Play Deserter: discard the opponent's `card`.
    Deserter {
        /// The opponent's troop or morale card at an unclaimed flag.
        card: Card,
    },
    /// Play Traitor: move the opponent's troop `card` to a free slot of
    /// yours at flag `to`.
    Traitor {
        /// The opponent's troop card at an unclaimed flag.
        card: Card,
        /// The flag it goes to.
        to: FlagId,
    },
    /// Play nothing (only when no troop card can be played).
    Pass,
    /// Claim a flag.
    Claim(FlagId),
    /// Draw the next card from a deck.
    Draw(Deck),
    /// End the turn without drawing (nothing left to draw, or after a pass).
    EndTurn,
    /// Scout: put a card from the hand on top of its deck.
    Return(Card),
    /// Chance: the card drawn or dealt.
    Deal(Card),
}

const N: usize = CARDS;
const F: usize = FLAGS;
const PLAY: usize = 0;
const SCOUT: usize = PLAY + N * F;
const REDEPLOY: usize = SCOUT + 1;
const DESERTER: usize = REDEPLOY + N * (F + 1);
const TRAITOR: usize = DESERTER + N;
const PASS: usize = TRAITOR + N * F;
const CLAIM: usize = PASS + 1;
const DRAW: usize = CLAIM + F;
const END_TURN: usize = DRAW + 2;
const RETURN: usize = END_TURN + 1;
const DEAL: usize = RETURN + N;
/// Size of the action-id space.
pub const ACTION_SPACE: usize = DEAL + N;

impl Action {
    /// The dense id, below [`ACTION_SPACE`]; every action value has its own.
    pub const fn id(self) -> usize {
        match self {
            Action::Play { card, flag } => PLAY + card.index() * F + flag.index(),
            Action::Scout => SCOUT,
            Action::Redeploy { card, to } => {
                let dest = match to {
                    Some(f) => f.index(),
                    None => F,
                };
                REDEPLOY + card.index() * (F + 1) + dest
            }
            Action::Deserter { card } => DESERTER + card.index(),
            Action::Traitor { card, to } => TRAITOR + card.index() * F + to.index(),
            Action::Pass => PASS,
            Action::Claim(f) => CLAIM + f.index(),
            Action::Draw(d) => DRAW + d.index(),
            Action::EndTurn => END_TURN,
            Action::Return(c) => RETURN + c.index(),
            Action::Deal(c) => DEAL + c.index(),
        }
    }

    /// The action with id `id`.
    pub fn from_id(id: usize) -> Option<Action> {
        let card = |i: usize| Card::from_index(i);
        let flag = |i: usize| FlagId::new(i);
        Some(match id {
            _ if id < SCOUT => Action::Play {
                card: card((id - PLAY) / F)?,
                flag: flag((id - PLAY) % F)?,
            },
            SCOUT => Action::Scout,
            _ if id < DESERTER => {
                let k = id - REDEPLOY;
                Action::Redeploy {
                    card: card(k / (F + 1))?,
                    to: flag(k % (F + 1)),
                }
            }
            _ if id < TRAITOR => Action::Deserter {
                card: card(id - DESERTER)?,
            },
            _ if id < PASS => Action::Traitor {
                card: card((id - TRAITOR) / F)?,
                to: flag((id - TRAITOR) % F)?,
            },
            PASS => Action::Pass,
            _ if id < DRAW => Action::Claim(flag(id - CLAIM)?),
            _ if id < END_TURN => Action::Draw(Deck::ALL[id - DRAW]),
            END_TURN => Action::EndTurn,
            _ if id < DEAL => Action::Return(card(id - RETURN)?),
            _ if id < ACTION_SPACE => Action::Deal(card(id - DEAL)?),
            _ => return None,
        })
    }
}

impl Ord for Action {
    fn cmp(&self, other: &Action) -> std::cmp::Ordering {
        self.id().cmp(&other.id())
    }
}

impl PartialOrd for Action {
    fn partial_cmp(&self, other: &Action) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Play { card, flag } => write!(f, "play {card} at {flag}"),
            Action::Scout => f.write_str("play Scout"),
            Action::Redeploy { card, to: Some(to) } => write!(f, "Redeploy {card} to {to}"),
            Action::Redeploy { card, to: None } => write!(f, "Redeploy {card} to the discards"),
            Action::Deserter { card } => write!(f, "Deserter discards {card}"),
            Action::Traitor { card, to } => write!(f, "Traitor takes {card} to {to}"),
            Action::Pass => f.write_str("pass"),
            Action::Claim(flag) => write!(f, "claim {flag}"),
            Action::Draw(d) => write!(f, "draw from the {d}"),
            Action::EndTurn => f.write_str("end turn"),
            Action::Return(c) => write!(f, "return {c}"),
            Action::Deal(c) => write!(f, "deal {c}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn action_ids_are_dense_and_round_trip() {
        for id in 0..ACTION_SPACE {
            let a = Action::from_id(id).expect("every id names an action");
            assert_eq!(a.id(), id);
        }
        assert!(Action::from_id(ACTION_SPACE).is_none());
    }
}
