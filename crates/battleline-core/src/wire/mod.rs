//! Battle Line on the wire ([`game_traits::Wire`]): actions, action views
//! and observations as the structs a client reads (the browser page, a bot
//! program, Python), with cards as their codes and flags numbered 1 to 9
//! as the game's text numbers them (`F1` is flag 1). States and records
//! keep their own serialisation.

mod event;
mod narration;
mod observation;
mod rules;

use std::borrow::Cow;
use std::fmt;

use game_traits::schemars::{self, JsonSchema, Schema, SchemaGenerator};
use game_traits::{PlayerId, Term, Wire};
use serde::de::value::MapAccessDeserializer;
use serde::de::{Error as _, MapAccess, Unexpected, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::action::Action;
use crate::card::{Card, CardKind, Deck, CARDS};
use crate::flag::FlagId;
use crate::observation::Observation;
use crate::rules::Rules;
use crate::state::BattleLine;
use crate::view::ActionView;

pub use event::{
    BattleLineEvent, ClaimProof, EndingName, FormationName, SideStruct, StrengthStruct,
};
pub use observation::{DeckStruct, FlagStruct, ObservationStruct, OutcomeStruct, PhaseStruct};
pub use rules::{
    ClaimTimingName, EnvironmentTacticsName, FormationOrderName, LastPassName, LeaderLimitName,
    ProofTieName, RulesStruct, WildCardsName,
};

/// A card by its code, as the game's text writes it ([`Card`]'s
/// `Display`): a troop card is its colour's letter and its value (`"R7"`,
/// `"P10"`), a tactics card its short name (`"AL"`, `"DA"`, `"C8"`,
/// `"SB"`, `"FOG"`, `"MUD"`, `"SCT"`, `"RDP"`, `"DES"`, `"TRT"`). Only
/// these exact spellings are read: a code is one card, and one card has
/// one code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CardCode(pub Card);

impl From<Card> for CardCode {
    fn from(card: Card) -> CardCode {
        CardCode(card)
    }
}

impl fmt::Display for CardCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl Serialize for CardCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for CardCode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = String::deserialize(deserializer)?;
        // The parser of positions is lenient (it reads "R07"); the wire
        // takes only the code a card writes, so that a code names one card.
        match code.parse::<Card>() {
            Ok(card) if card.to_string() == code => Ok(CardCode(card)),
            _ => Err(D::Error::invalid_value(
                Unexpected::Str(&code),
                &"a Battle Line card code such as R7, P10 or FOG",
            )),
        }
    }
}

impl JsonSchema for CardCode {
    fn schema_name() -> Cow<'static, str> {
        "BattleLineCard".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let codes: Vec<String> = (0..CARDS)
            .filter_map(Card::from_index)
            .map(|c| c.to_string())
            .collect();
        schemars::json_schema!({
            "description": "A card: a troop card is its colour's letter (R, O, Y, G, B, P) and its value 1 to 10; a tactics card its short name.",
            "type": "string",
            "enum": codes
        })
    }
}

/// The schema of Redeploy's `to`: a key every struct has, a flag or `null`.
fn flag_or_discard(_: &mut SchemaGenerator) -> Schema {
    schemars::json_schema!({
        "type": ["integer", "null"],
        "format": "uint8",
        "minimum": 1,
        "maximum": 9
    })
}

/// One of the two draw piles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineDeck")]
pub enum DeckCode {
    /// The 60 troop cards.
    Troop,
    /// The 10 tactics cards.
    Tactics,
}

impl From<Deck> for DeckCode {
    fn from(deck: Deck) -> DeckCode {
        match deck {
            Deck::Troop => DeckCode::Troop,
            Deck::Tactics => DeckCode::Tactics,
        }
    }
}

impl From<DeckCode> for Deck {
    fn from(deck: DeckCode) -> Deck {
        match deck {
            DeckCode::Troop => Deck::Troop,
            DeckCode::Tactics => Deck::Tactics,
        }
    }
}

/// A Battle Line action on the wire (see [`Action`]). Flags are numbered
/// 1 (leftmost) to 9, as the game's text writes `F1` to `F9`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
// The variants without data are empty structs, not units: serde ignores
// unknown fields beside the tag of a unit variant, and a struct read from a
// client must name one action only. `remote = "Self"` makes the derived
// reader an inherent function, which the trait's reader calls on objects
// only (the derived one also reads a list of the values in order).
#[serde(
    tag = "type",
    rename_all = "snake_case",
    deny_unknown_fields,
    remote = "Self"
)]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineAction")]
pub enum ActionStruct {
    /// Put a troop card or a morale tactic (Leader, Cavalry, Shield
    /// Bearers) into a slot at `flag`, or lay Fog or Mud beside it.
    Play {
        /// The card from the hand.
        card: CardCode,
        /// The flag, 1 to 9.
        #[schemars(range(min = 1, max = 9))]
        flag: u8,
    },
    /// Play Scout: draw three at the end of the turn, return two.
    Scout {},
    /// Play Redeploy: move `card` from the player's side of an unclaimed
    /// flag to a free slot at flag `to`, or discard it (`to` is `null`).
    Redeploy {
        /// The player's card on the table.
        card: CardCode,
        /// The flag it goes to, 1 to 9, or `null` for the discards.
        // Required although it may be null: a client that leaves it out
        // has not said that the card is to be discarded. (schemars'
        // `required` would also drop the null, refusing every discard.)
        #[serde(deserialize_with = "Option::deserialize")]
        #[schemars(schema_with = "flag_or_discard")]
        to: Option<u8>,
    },
    /// Play Deserter: discard the opponent's `card`.
    Deserter {
        /// The opponent's card at an unclaimed flag.
        card: CardCode,
    },
    /// Play Traitor: move the opponent's troop `card` to a free slot of the
    /// player's at flag `to`.
    Traitor {
        /// The opponent's troop card at an unclaimed flag.
        card: CardCode,
        /// The flag it goes to, 1 to 9.
        #[schemars(range(min = 1, max = 9))]
        to: u8,
    },
    /// Play nothing (only when no troop card can be played).
    Pass {},
    /// Claim a flag.
    Claim {
        /// The flag, 1 to 9.
        #[schemars(range(min = 1, max = 9))]
        flag: u8,
    },
    /// Draw the next card from a deck.
    Draw {
        /// The deck.
        deck: DeckCode,
    },
    /// End the turn without drawing (nothing left to draw, or after a pass).
    EndTurn {},
    /// Scout: put a card from the hand back on top of its deck.
    Return {
        /// The card.
        card: CardCode,
    },
    /// Chance: the card dealt or drawn.
    Deal {
        /// The card.
        card: CardCode,
    },
}

impl Serialize for ActionStruct {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ActionStruct::serialize(self, serializer)
    }
}

impl<'de> Deserialize<'de> for ActionStruct {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjectOnly;
        impl<'de> Visitor<'de> for ObjectOnly {
            type Value = ActionStruct;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an action object tagged by \"type\"")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ActionStruct, A::Error> {
                ActionStruct::deserialize(MapAccessDeserializer::new(map))
            }
        }
        deserializer.deserialize_map(ObjectOnly)
    }
}

/// A Battle Line action as one viewer perceives it (see [`ActionView`]):
/// a card the viewer may not see is `null`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineView")]
pub enum ViewStruct {
    /// A decision everybody sees whole.
    Public {
        /// Who made it.
        player: PlayerId,
        /// The decision.
        action: ActionStruct,
    },
    /// A troop card of the starting deal.
    Dealt(DealtStruct),
    /// The card a draw gives (a chance event).
    Drew(DrewStruct),
    /// A card Scout puts back on top of a deck.
    Returned(ReturnedStruct),
}

/// A troop card of the starting deal, as a view and as an event show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineDealt")]
pub struct DealtStruct {
    /// Who receives it.
    pub to: PlayerId,
    /// The card, for the player who receives it; `null` for the other.
    pub card: Option<CardCode>,
}

/// The card a draw gives, as a view and as an event show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineDrew")]
pub struct DrewStruct {
    /// Who draws.
    pub player: PlayerId,
    /// The deck drawn from.
    pub deck: DeckCode,
    /// The card, for the player who draws it; `null` for the other.
    pub card: Option<CardCode>,
}

/// A card Scout puts back on top of a deck, as a view and as an event
/// show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineReturned")]
pub struct ReturnedStruct {
    /// Who returns it.
    pub player: PlayerId,
    /// The deck it goes on.
    pub deck: DeckCode,
    /// The card, for the player who returns it; `null` for the other.
    pub card: Option<CardCode>,
}

/// The wire number of a flag: 1 to 9.
pub(crate) fn flag_number(flag: FlagId) -> u8 {
    flag.index() as u8 + 1
}

/// The flag numbered `number` (1 to 9), if any.
fn flag_of(number: u8) -> Option<FlagId> {
    FlagId::new(usize::from(number).checked_sub(1)?)
}

/// The codes of a list of cards.
fn codes(cards: impl IntoIterator<Item = Card>) -> Vec<CardCode> {
    cards.into_iter().map(CardCode).collect()
}

/// Per seat, as a two-element array indexed by the seat.
fn per_seat<T>(mut f: impl FnMut(PlayerId) -> T) -> [T; 2] {
    [f(PlayerId::P0), f(PlayerId::P1)]
}

/// Actions, views and observations as clients read them; the example is
/// the action `play R7 at F3`:
///
/// ```
/// use battleline_core::{Action, ActionStruct, BattleLine, FlagId, Rules, Wire};
/// let play = Action::Play { card: "R7".parse().unwrap(), flag: FlagId::new(2).unwrap() };
/// let json = serde_json::to_string(&BattleLine::action_struct(play)).unwrap();
/// assert_eq!(json, r#"{"type":"play","card":"R7","flag":3}"#);
/// let back: ActionStruct = serde_json::from_str(&json).unwrap();
/// assert_eq!(BattleLine::action_from_struct(&Rules::default(), &back), Some(play));
/// ```
impl Wire for BattleLine {
    type ActionStruct = ActionStruct;
    type ViewStruct = ViewStruct;
    type ObservationStruct = ObservationStruct;
    type Event = BattleLineEvent;

    fn action_struct(action: Action) -> ActionStruct {
        let card = CardCode;
        match action {
            Action::Play { card: c, flag } => ActionStruct::Play {
                card: card(c),
                flag: flag_number(flag),
            },
            Action::Scout => ActionStruct::Scout {},
            Action::Redeploy { card: c, to } => ActionStruct::Redeploy {
                card: card(c),
                to: to.map(flag_number),
            },
            Action::Deserter { card: c } => ActionStruct::Deserter { card: card(c) },
            Action::Traitor { card: c, to } => ActionStruct::Traitor {
                card: card(c),
                to: flag_number(to),
            },
            Action::Pass => ActionStruct::Pass {},
            Action::Claim(flag) => ActionStruct::Claim {
                flag: flag_number(flag),
            },
            Action::Draw(deck) => ActionStruct::Draw { deck: deck.into() },
            Action::EndTurn => ActionStruct::EndTurn {},
            Action::Return(c) => ActionStruct::Return { card: card(c) },
            Action::Deal(c) => ActionStruct::Deal { card: card(c) },
        }
    }

    /// The action space is the same under every rule set (without tactics
    /// cards, their actions are illegal, not absent), so only a flag
    /// outside 1 to 9 is refused here; an unknown card code is refused when
    /// the struct is read.
    fn action_from_struct(_rules: &Rules, action: &ActionStruct) -> Option<Action> {
        Some(match *action {
            ActionStruct::Play { card, flag } => Action::Play {
                card: card.0,
                flag: flag_of(flag)?,
            },
            ActionStruct::Scout {} => Action::Scout,
            ActionStruct::Redeploy { card, to } => Action::Redeploy {
                card: card.0,
                to: match to {
                    Some(n) => Some(flag_of(n)?),
                    None => None,
                },
            },
            ActionStruct::Deserter { card } => Action::Deserter { card: card.0 },
            ActionStruct::Traitor { card, to } => Action::Traitor {
                card: card.0,
                to: flag_of(to)?,
            },
            ActionStruct::Pass {} => Action::Pass,
            ActionStruct::Claim { flag } => Action::Claim(flag_of(flag)?),
            ActionStruct::Draw { deck } => Action::Draw(deck.into()),
            ActionStruct::EndTurn {} => Action::EndTurn,
            ActionStruct::Return { card } => Action::Return(card.0),
            ActionStruct::Deal { card } => Action::Deal(card.0),
        })
    }

    fn view_struct(view: &ActionView) -> ViewStruct {
        let card = |c: Option<Card>| c.map(CardCode);
        match *view {
            ActionView::Public { player, action } => ViewStruct::Public {
                player,
                action: BattleLine::action_struct(action),
            },
            ActionView::Dealt { to, card: c } => {
                ViewStruct::Dealt(DealtStruct { to, card: card(c) })
            }
            ActionView::Drew {
                player,
                deck,
                card: c,
            } => ViewStruct::Drew(DrewStruct {
                player,
                deck: deck.into(),
                card: card(c),
            }),
            ActionView::Returned {
                player,
                deck,
                card: c,
            } => ViewStruct::Returned(ReturnedStruct {
                player,
                deck: deck.into(),
                card: card(c),
            }),
        }
    }

    fn observation_struct(observation: &Observation) -> ObservationStruct {
        observation::of(observation)
    }

    fn events(
        _viewer: PlayerId,
        before: &Observation,
        view: &ActionView,
        after: &Observation,
    ) -> Vec<BattleLineEvent> {
        narration::events(before, view, after)
    }

    /// Every card by its code: a troop card by its colour and value
    /// (`R7`: `Red 7`), a tactics card by its name (`DA`: `Darius`). The
    /// same under every rule set: a game without tactics never sends
    /// their codes, and naming them costs nothing.
    fn glossary(_rules: &Rules) -> Vec<Term> {
        (0..CARDS)
            .filter_map(Card::from_index)
            .map(|card| match card.kind() {
                CardKind::Troop(colour, value) => Term::new(
                    card.to_string(),
                    format!("{} {value}", colour.word()),
                    "troop",
                ),
                CardKind::Tactic(tactic) => Term::new(card.to_string(), tactic.name(), "tactic"),
            })
            .collect()
    }

    /// A refused claim's counterexample ([`BattleLineEvent::ClaimRefused`]).
    fn refusal(observation: &Observation, action: Action) -> Vec<BattleLineEvent> {
        match action {
            Action::Claim(flag) => narration::refused_claim(observation, flag)
                .into_iter()
                .collect(),
            _ => Vec::new(),
        }
    }
}
