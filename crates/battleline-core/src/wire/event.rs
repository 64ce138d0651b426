//! Battle Line's events ([`game_traits::Event`]): every public decision,
//! a card dealt, drawn or returned as far as the viewer may see it, a
//! claim with its proof (both sides, their formations, and why the claim
//! held), and the end of the game with its reason; worded once, here,
//! tactics cards by name (`Darius`, never the table's `DA`).

use game_traits::schemars::JsonSchema;
use game_traits::{who, whose, Event, PlayerId};
use serde::Serialize;

use super::{ActionStruct, CardCode, DealtStruct, DeckCode, DrewStruct, ReturnedStruct};
use crate::card::Deck;
use crate::formation::{FormationClass, Strength};

/// A formation's class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineFormation")]
#[serde(rename_all = "snake_case")]
pub enum FormationName {
    /// Any other three (four) cards.
    Host,
    /// Three (four) cards of one colour.
    Battalion,
    /// Consecutive values, any colours.
    SkirmishLine,
    /// Three (four) cards of one value.
    Phalanx,
    /// Consecutive values of one colour.
    Wedge,
}

impl From<FormationClass> for FormationName {
    fn from(class: FormationClass) -> FormationName {
        match class {
            FormationClass::Host => FormationName::Host,
            FormationClass::Battalion => FormationName::Battalion,
            FormationClass::SkirmishLine => FormationName::SkirmishLine,
            FormationClass::Phalanx => FormationName::Phalanx,
            FormationClass::Wedge => FormationName::Wedge,
        }
    }
}

/// The strength of a complete formation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineStrength")]
pub struct StrengthStruct {
    /// Its class; `null` under Fog, where only the sum counts.
    pub formation: Option<FormationName>,
    /// The sum of its values.
    pub sum: u16,
}

impl From<Strength> for StrengthStruct {
    fn from(s: Strength) -> StrengthStruct {
        StrengthStruct {
            formation: s.class().map(FormationName::from),
            sum: s.sum(),
        }
    }
}

/// One side of a flag as a claim showed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineEventSide")]
pub struct SideStruct {
    /// Its cards in the order played.
    pub cards: Vec<CardCode>,
    /// Its strength, once complete.
    pub strength: Option<StrengthStruct>,
}

impl SideStruct {
    /// The side in words: its formation when complete, its cards by name
    /// (`Wedge 24 (R7 R8 R9)`), `no card` when empty.
    pub(crate) fn text(&self) -> String {
        let cards = if self.cards.is_empty() {
            "no card".to_owned()
        } else {
            names(&self.cards)
        };
        match self.strength {
            Some(s) => {
                let class = match s.formation {
                    Some(FormationName::Host) => "Host",
                    Some(FormationName::Battalion) => "Battalion",
                    Some(FormationName::SkirmishLine) => "Skirmish Line",
                    Some(FormationName::Phalanx) => "Phalanx",
                    Some(FormationName::Wedge) => "Wedge",
                    None => "sum",
                };
                format!("{class} {} ({cards})", s.sum)
            }
            None => cards,
        }
    }
}

/// Why a claim held (or, where the rules let a claim stand unproven, that
/// it did not win the flag).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineClaimProof")]
#[serde(rename_all = "snake_case")]
pub enum ClaimProof {
    /// The claimant's complete formation beats the opponent's.
    Beats,
    /// The two formations tie and the claimant's was complete first.
    TiesAndFirst,
    /// The opponent has no card there and none still to come can beat the
    /// claimant's formation.
    NothingCanBeat,
    /// No cards still to come can complete the opponent's side into one
    /// that beats the claimant's.
    NothingCanMakeItBeat,
    /// The flag was not won.
    NotWon,
}

/// Why a game of Battle Line ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineEnding")]
#[serde(rename_all = "snake_case")]
pub enum EndingName {
    /// The winner holds three adjacent flags (`adjacent`).
    ThreeAdjacent,
    /// The winner holds five flags.
    FiveFlags,
    /// The winner holds more flags (after both passed).
    MoreFlags,
    /// Both hold as many flags.
    Draw,
}

/// What a Battle Line action did, as one viewer may know it. Flags are
/// numbered 1 to 9, cards are their codes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BattleLineEvent {
    /// A decision everybody sees whole (a claim is a [`BattleLineEvent::Claim`]).
    Acted {
        /// Who made it.
        player: PlayerId,
        /// The decision.
        action: ActionStruct,
    },
    /// `player` claimed `flag`, with the table that proves it.
    Claim {
        /// Who claimed.
        player: PlayerId,
        /// The flag, 1 to 9.
        flag: u8,
        /// The claimant's side after the claim.
        claimant: SideStruct,
        /// The opponent's side.
        opponent: SideStruct,
        /// Why the claim held.
        proof: ClaimProof,
    },
    /// `player` may not claim `flag` yet, and here is why: the opponent's
    /// side completed into one that beats or ties the claimant's, with
    /// cards he may still get. Told only to the claimant, as the reason
    /// of a refusal ([`game_traits::Wire::refusal`]), never in a log.
    ClaimRefused {
        /// Who tried to claim.
        player: PlayerId,
        /// The flag, 1 to 9.
        flag: u8,
        /// The claimant's complete side.
        claimant: SideStruct,
        /// The counterexample: the opponent's side with `to_come` added,
        /// complete, and its strength.
        counterexample: SideStruct,
        /// The cards of `counterexample` not yet at the flag, from those
        /// still to come (hands and decks as the claimant sees them);
        /// empty when the opponent's complete side already beats or ties.
        to_come: Vec<CardCode>,
    },
    /// A troop card of the starting deal.
    Dealt(DealtStruct),
    /// The card a draw gave.
    Drew(DrewStruct),
    /// A card Scout put back on top of a deck.
    Returned(ReturnedStruct),
    /// The game ended.
    GameOver {
        /// The winner, `null` for a draw.
        winner: Option<PlayerId>,
        /// Why.
        ending: EndingName,
        /// Per seat, the flags it holds (1 to 9).
        flags: [Vec<u8>; 2],
        /// The winner's first three adjacent flags, for
        /// [`EndingName::ThreeAdjacent`]; empty otherwise.
        adjacent: Vec<u8>,
        /// Whether both passed, so that each unclaimed flag went to the
        /// stronger complete formation.
        settled: bool,
    },
}

/// Cards by name ([`crate::Card::name`]), separated by spaces.
fn names(cards: &[CardCode]) -> String {
    cards
        .iter()
        .map(|c| c.0.name())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Flags as the game writes them (`F1 F2 F3`).
fn flags(numbers: &[u8]) -> String {
    numbers
        .iter()
        .map(|n| format!("F{n}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A public decision in words, tactics cards by name; the opponent's card
/// a guile tactic takes is the viewer's own.
fn acted(player: PlayerId, action: &ActionStruct, viewer: Option<PlayerId>) -> String {
    let yours = if viewer.is_some_and(|v| v != player) {
        "your "
    } else {
        ""
    };
    match action {
        ActionStruct::Play { card, flag } => format!("play {} at F{flag}", card.0.name()),
        ActionStruct::Scout {} => "play Scout".to_owned(),
        ActionStruct::Redeploy { card, to: Some(to) } => {
            format!("Redeploy {} to F{to}", card.0.name())
        }
        ActionStruct::Redeploy { card, to: None } => {
            format!("Redeploy {} to the discards", card.0.name())
        }
        ActionStruct::Deserter { card } => format!("Deserter discards {yours}{}", card.0.name()),
        ActionStruct::Traitor { card, to } => {
            format!("Traitor takes {yours}{} to F{to}", card.0.name())
        }
        ActionStruct::Pass {} => "pass".to_owned(),
        ActionStruct::Claim { flag } => format!("claim F{flag}"),
        ActionStruct::Draw { deck } => format!("draw from the {}", Deck::from(*deck)),
        ActionStruct::EndTurn {} => "end turn".to_owned(),
        ActionStruct::Return { card } => format!("return {}", card.0.name()),
        ActionStruct::Deal { card } => format!("deal {}", card.0.name()),
    }
}

impl Event for BattleLineEvent {
    fn tell(&self, viewer: Option<PlayerId>) -> String {
        match self {
            BattleLineEvent::Acted { player, action } => {
                format!(
                    "{}: {}",
                    who(*player, viewer),
                    acted(*player, action, viewer)
                )
            }
            BattleLineEvent::Claim {
                player,
                flag,
                claimant,
                opponent,
                proof,
            } => {
                let theirs = if Some(player.other()) == viewer {
                    "your "
                } else {
                    ""
                };
                let (mine, against) = (claimant.text(), opponent.text());
                let proof = match proof {
                    ClaimProof::NotWon => format!("not won: {mine} against {theirs}{against}"),
                    ClaimProof::TiesAndFirst => {
                        format!("{mine} ties {theirs}{against} and was complete first")
                    }
                    ClaimProof::Beats => format!("{mine} beats {theirs}{against}"),
                    ClaimProof::NothingCanBeat => {
                        format!("{mine}; no cards still to come can beat it")
                    }
                    ClaimProof::NothingCanMakeItBeat => {
                        format!("{mine}; no cards still to come can make {theirs}{against} beat it")
                    }
                };
                format!("{}: claim F{flag}: {proof}", who(*player, viewer))
            }
            BattleLineEvent::ClaimRefused {
                player,
                claimant,
                counterexample,
                to_come,
                ..
            } => {
                let yours = whose(*player, viewer);
                let (mine, other) = (claimant.text(), player.other());
                if to_come.is_empty() {
                    format!(
                        "{} {} beats or ties {yours} {mine}",
                        whose(other, viewer),
                        counterexample.text()
                    )
                } else {
                    format!(
                        "{} could still complete {} with {} still to come, which beats {yours} {mine}",
                        who(other, viewer),
                        counterexample.text(),
                        names(to_come)
                    )
                }
            }
            BattleLineEvent::Dealt(DealtStruct { to, card: Some(c) }) if Some(*to) == viewer => {
                format!("you are dealt {}", c.0.name())
            }
            BattleLineEvent::Dealt(DealtStruct { to, .. }) => {
                format!("{to} is dealt a troop card")
            }
            BattleLineEvent::Drew(DrewStruct {
                player,
                card: Some(c),
                ..
            }) => format!("{} drew {}", who(*player, viewer), c.0.name()),
            BattleLineEvent::Drew(DrewStruct { player, deck, .. }) => {
                let card = match deck {
                    DeckCode::Troop => "a troop card",
                    DeckCode::Tactics => "a tactics card",
                };
                format!("{player} drew {card}")
            }
            BattleLineEvent::Returned(ReturnedStruct {
                player,
                deck,
                card: Some(c),
            }) => format!(
                "{} returned {} on top of the {}",
                who(*player, viewer),
                c.0.name(),
                Deck::from(*deck)
            ),
            BattleLineEvent::Returned(ReturnedStruct { player, deck, .. }) => format!(
                "{player} returned a card on top of the {}",
                Deck::from(*deck)
            ),
            BattleLineEvent::GameOver {
                winner,
                ending,
                flags: held,
                adjacent,
                settled,
            } => {
                let result = match winner {
                    Some(p) => {
                        let mine = &held[p.index()];
                        let why = match ending {
                            EndingName::ThreeAdjacent => {
                                format!("three adjacent flags ({})", flags(adjacent))
                            }
                            EndingName::FiveFlags => format!("five flags ({})", flags(mine)),
                            EndingName::MoreFlags | EndingName::Draw => {
                                format!("{} flags to {}", mine.len(), held[p.other().index()].len())
                            }
                        };
                        let wins = if Some(*p) == viewer {
                            "you win".to_owned()
                        } else {
                            format!("{p} wins")
                        };
                        format!("{wins} with {why}")
                    }
                    None => format!("a draw, {} flags each", held[0].len()),
                };
                if *settled {
                    format!(
                        "Game over: both passed, so each unclaimed flag went to the \
                         stronger complete formation: {result}"
                    )
                } else {
                    format!("Game over: {result}")
                }
            }
        }
    }
}
