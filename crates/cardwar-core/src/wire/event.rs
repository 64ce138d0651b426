//! Card war's events ([`game_traits::Event`]): cards laid, drawn and put
//! aside as far as the viewer may see them, prayers and their answers,
//! every roll with what it was for, a fight with each total's arithmetic
//! (health, die, doublings, the grenade's halving, the prayer's bonus) and
//! the end of the game with its reason; worded once, here.

use game_traits::schemars::JsonSchema;
use game_traits::{who, whose, Event, PlayerId};
use serde::Serialize;

use super::{CardCode, CardWarOpen, CardWarPileCard, CardWarPrayerResult};
use crate::prayer::Prayer;

/// How a fight total came about: `health + die` (the die doubled, then
/// halved) `+ prayer`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct CardWarArithmetic {
    /// The fighting card's health.
    pub health: u8,
    /// The die as rolled.
    pub die: u8,
    /// How many times the die was doubled (hellfire).
    pub doublings: u8,
    /// The die after its doublings.
    pub doubled: u16,
    /// The die after the grenade halved it, if it did.
    pub halved: Option<u16>,
    /// What the prayer added to the total (0 for none).
    pub prayer: u8,
}

/// One side of a fight: its open card and its total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct CardWarFightSide {
    /// Whose card.
    pub player: PlayerId,
    /// Which card fought: a soldier or a guard.
    pub open: CardWarOpen,
    /// The soldier, when it fought face up.
    pub card: Option<CardCode>,
    /// The total.
    pub total: u16,
    /// How the total came about; `null` when the parts the table shows do
    /// not add up to it.
    pub arithmetic: Option<CardWarArithmetic>,
}

impl CardWarFightSide {
    /// `your 9a total 14 (health 9 + die 5)`.
    fn text(&self, viewer: Option<PlayerId>) -> String {
        let owner = whose(self.player, viewer);
        let card = match (self.open, &self.card) {
            (CardWarOpen::A1, _) => "guard A1".to_owned(),
            (CardWarOpen::A2, _) => "guard A2".to_owned(),
            (CardWarOpen::Jk, _) => "guard Jk".to_owned(),
            (CardWarOpen::Soldier, Some(c)) => c.to_string(),
            (CardWarOpen::Soldier, None) => "face-down card".to_owned(),
            (CardWarOpen::None, _) => "card".to_owned(),
        };
        let total = self.total;
        let Some(a) = self.arithmetic else {
            return format!("{owner} {card} total {total}");
        };
        let mut parts = format!("health {} + die {}", a.health, a.die);
        match a.doublings {
            0 => {}
            1 => parts += &format!(" doubled to {}", a.doubled),
            n => parts += &format!(" doubled {n} times to {}", a.doubled),
        }
        if let Some(halved) = a.halved {
            parts += &format!(" halved by the grenade to {halved}");
        }
        if a.prayer > 0 {
            parts += &format!(" + {} from the prayer", a.prayer);
        }
        format!("{owner} {card} total {total} ({parts})")
    }
}

/// A fight's two sides, attacker first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct CardWarFightResult {
    /// The attacking side.
    pub attack: CardWarFightSide,
    /// The defending side.
    pub defence: CardWarFightSide,
}

/// Why a game of card war ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
#[serde(rename_all = "snake_case")]
pub enum CardWarEnding {
    /// The loser's general (the joker) fell.
    GeneralFell,
    /// The last round the rules allow was played: a draw.
    RoundLimit,
}

/// What a card war action did, as one viewer may know it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CardWarEvent {
    /// `player` laid a card into his line.
    Laid {
        /// Whose line.
        player: PlayerId,
        /// The card, when the viewer may see it.
        card: Option<CardCode>,
        /// Whether it lies face down until it fights.
        face_down: bool,
    },
    /// `player` ended his line, keeping the rest in reserve.
    EndedLine {
        /// Who.
        player: PlayerId,
    },
    /// `player` prays.
    Prayed {
        /// Who.
        player: PlayerId,
    },
    /// `player` does not pray.
    Declined {
        /// Who.
        player: PlayerId,
    },
    /// A card went aside into `player`'s pile.
    PutAside(CardWarPileCard),
    /// `player` drew a card from his pile into his hand.
    Drew(CardWarPileCard),
    /// A prayer brought a card of `player`'s pile face down into his line.
    Reinforcement(CardWarPileCard),
    /// A die for the initiative (P0 rolls, then P1).
    InitiativeRoll {
        /// Who rolled.
        player: PlayerId,
        /// The die.
        die: u8,
        /// Who attacks first, after the second roll.
        first: Option<PlayerId>,
    },
    /// A die for how many paratroopers land.
    ParatrooperRoll {
        /// Who rolled.
        player: PlayerId,
        /// The die.
        die: u8,
    },
    /// The attacker's die.
    AttackRoll {
        /// The attacker.
        player: PlayerId,
        /// The die.
        die: u8,
    },
    /// The defender's die, and the fight it decided.
    DefenceRoll {
        /// The defender.
        player: PlayerId,
        /// The die.
        die: u8,
        /// Both totals; `null` if no fight was decided.
        fight: Option<CardWarFightResult>,
    },
    /// Two dice deciding a draw from the pile.
    DrawRoll {
        /// Who rolled.
        player: PlayerId,
        /// Their sum.
        sum: u8,
    },
    /// Two dice answering a prayer.
    PrayerRoll {
        /// Who prayed.
        player: PlayerId,
        /// Their sum, 2 to 12.
        sum: u8,
        /// The answer.
        answer: Option<CardWarPrayerResult>,
    },
    /// The game ended.
    GameOver {
        /// The winner, `null` for a draw.
        winner: Option<PlayerId>,
        /// Why.
        ending: CardWarEnding,
    },
}

impl Event for CardWarEvent {
    fn tell(&self, viewer: Option<PlayerId>) -> String {
        // The verb's ending: "you lay", "P1 lays".
        let s = |player: PlayerId| if Some(player) == viewer { "" } else { "s" };
        let sentence = |player: PlayerId, verb: &str, rest: &str| {
            format!("{} {verb}{}{rest}", who(player, viewer), s(player))
        };
        let his = |player: PlayerId| {
            if Some(player) == viewer {
                "your"
            } else {
                "his"
            }
        };
        let card_or =
            |card: &Option<CardCode>| card.as_ref().map_or("a card".to_owned(), |c| c.to_string());
        match self {
            CardWarEvent::Laid {
                player,
                card: Some(c),
                face_down: true,
            } => sentence(*player, "lay", &format!(" {c} face down")),
            CardWarEvent::Laid {
                player,
                card: Some(c),
                face_down: false,
            } => sentence(
                *player,
                "lay",
                &format!(" {c}, revealed as the fights begin"),
            ),
            CardWarEvent::Laid { player, .. } => sentence(*player, "lay", " a card face down"),
            CardWarEvent::EndedLine { player } => sentence(
                *player,
                "end",
                &format!(" {} line, keeping the rest in reserve", his(*player)),
            ),
            CardWarEvent::Prayed { player } => sentence(*player, "pray", ""),
            CardWarEvent::Declined { player } => {
                let does = if Some(*player) == viewer {
                    "do"
                } else {
                    "does"
                };
                format!("{} {does} not pray", who(*player, viewer))
            }
            CardWarEvent::PutAside(CardWarPileCard { player, card }) => sentence(
                *player,
                "put",
                &format!(" {} aside into {} pile", card_or(card), his(*player)),
            ),
            CardWarEvent::Drew(CardWarPileCard { player, card }) => {
                format!("{} drew {}", who(*player, viewer), card_or(card))
            }
            CardWarEvent::Reinforcement(CardWarPileCard { player, card }) => format!(
                "{} brought {} face down from {} pile",
                who(*player, viewer),
                card_or(card),
                his(*player)
            ),
            CardWarEvent::InitiativeRoll { player, die, first } => {
                let roll = sentence(*player, "roll", &format!(" {die} for the initiative"));
                match first {
                    Some(first) => format!("{roll}: {}", sentence(*first, "attack", " first")),
                    None => roll,
                }
            }
            CardWarEvent::ParatrooperRoll { player, die } => {
                sentence(*player, "roll", &format!(" {die} for paratroopers"))
            }
            CardWarEvent::AttackRoll { player, die } => {
                format!(
                    "{} (attacker) roll{} {die}",
                    who(*player, viewer),
                    s(*player)
                )
            }
            CardWarEvent::DefenceRoll { player, die, fight } => {
                let roll = format!(
                    "{} (defender) roll{} {die}",
                    who(*player, viewer),
                    s(*player)
                );
                let Some(fight) = fight else {
                    return roll;
                };
                let (a, b) = (fight.attack.text(viewer), fight.defence.text(viewer));
                let result = match fight.attack.total.cmp(&fight.defence.total) {
                    std::cmp::Ordering::Greater => format!("{a} beats {b}"),
                    std::cmp::Ordering::Less => format!("{b} beats {a}"),
                    std::cmp::Ordering::Equal => format!("{a} and {b} kill each other"),
                };
                format!("{roll}: {result}")
            }
            CardWarEvent::DrawRoll { player, sum } => {
                sentence(*player, "roll", &format!(" {sum} on two dice to draw"))
            }
            CardWarEvent::PrayerRoll {
                player,
                sum,
                answer,
            } => {
                let answer = answer.map_or(String::new(), |a| format!(": {}", Prayer::from(a)));
                sentence(
                    *player,
                    "roll",
                    &format!(" {sum} on two dice for the prayer{answer}"),
                )
            }
            CardWarEvent::GameOver { winner, ending } => match (winner, ending) {
                (Some(w), _) => {
                    let wins = if Some(*w) == viewer {
                        "you win".to_owned()
                    } else {
                        format!("{w} wins")
                    };
                    let general = if Some(w.other()) == viewer {
                        "your general".to_owned()
                    } else {
                        format!("{}'s general", w.other())
                    };
                    format!("Game over: {wins}, as {general} fell")
                }
                (None, CardWarEnding::RoundLimit) => {
                    "Game over: a draw, as the last round the rules allow was played".to_owned()
                }
                (None, CardWarEnding::GeneralFell) => "Game over: a draw".to_owned(),
            },
        }
    }
}
