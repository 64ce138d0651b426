//! The rule set and every ruling of `docs/cardwar.md` that could go the
//! other way.

use game_traits::schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::card::SOLDIERS;
use crate::error::CardWarError;

/// Who attacks first from round 2 on (ruling 11).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars", rename = "CardWarFirstAttacker")]
pub enum FirstAttacker {
    /// The player who attacked last (with at least one card) in the previous
    /// round; when nobody attacked, the roles alternate.
    #[default]
    LastAttacker,
    /// The roles alternate every round whatever happened.
    Alternate,
}

/// The rule set. [`Rules::default`] is the rule set of the text with the
/// rulings of `docs/cardwar.md`; each field names the ruling it switches.
// The wire's observation carries the rules: their schema is derived too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars", rename = "CardWarRules")]
#[serde(try_from = "RawRules")]
pub struct Rules {
    /// Soldiers each player puts aside face down as his pile at the start
    /// (ruling 1; 0..=24).
    pub aside: u8,
    /// Cards a draw must leave in the pile (ruling 2).
    pub keep_in_pile: u8,
    /// Rounds after which the game is a draw (ruling 25; 1..=1000).
    pub max_rounds: u16,
    /// The winner of a fight keeps at most the health it had (ruling 4).
    pub cap_winner_health: bool,
    /// The three-kills bonus comes at every third kill, not only the first
    /// (ruling 5).
    pub bonus_every_three_kills: bool,
    /// Aces and the joker earn the three-kills bonus too (ruling 6).
    pub guards_earn_bonus: bool,
    /// A health-1 card that gave its point to the next card comes back to
    /// its owner after the battle whatever happens to that card; otherwise
    /// (the default) it lies under the card it fed and goes where that card
    /// goes: to the pile when it dies, back to the owner when it survives
    /// the battle (ruling 7).
    pub donor_returns: bool,
    /// Who attacks first in the next round (ruling 11).
    pub first_attacker: FirstAttacker,
    /// At most one prayer before a fight: once the attacker prays, the
    /// defender is not asked until the next pair of cards (ruling 15).
    pub one_prayer_per_fight: bool,
    /// Round 1's second attacker may keep a reserve (ruling 12).
    pub reserve_in_first_round: bool,
    /// The second attacker attacks with all the cards he did not lay or
    /// keeps them all as a reserve; otherwise (the default) he attacks with
    /// any part of them and keeps the rest (ruling 29).
    pub reserve_all_or_nothing: bool,
    /// The grenade rounds halves up; otherwise down, and a card left at 0
    /// health dies (ruling 17).
    pub grenade_rounds_up: bool,
    /// Gangrene kills a wounded ace or joker too (ruling 18).
    pub gangrene_hits_guards: bool,
    /// The sniper may pick an ace or the joker (ruling 20).
    pub sniper_targets_guards: bool,
    /// The sniper removes the card with the most health left, not the one
    /// with the largest value (ruling 26).
    pub sniper_by_health: bool,
    /// The atomic bomb also destroys the opponent's hand and set-aside
    /// cards, not only his soldiers on the field (ruling 27).
    pub bomb_hits_hand: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            aside: 6,
            keep_in_pile: 5,
            max_rounds: 60,
            cap_winner_health: true,
            bonus_every_three_kills: false,
            guards_earn_bonus: true,
            donor_returns: false,
            first_attacker: FirstAttacker::LastAttacker,
            one_prayer_per_fight: false,
            reserve_in_first_round: false,
            reserve_all_or_nothing: false,
            grenade_rounds_up: true,
            gangrene_hits_guards: true,
            sniper_targets_guards: false,
            sniper_by_health: false,
            bomb_hits_hand: false,
        }
    }
}

/// Actions a round can take at most: two 2d6 and 48 draws; per battle 49
/// placements, at most 51 fights (each kills a card: 24 + 24 soldiers and
/// 3 guards) of two dice, and two prayer questions per pairing of cards.
const ROUND_BOUND: u32 = 50 + 2 * (49 + 51 * 2 + 52 * 2);
/// Both prayers with all their chance events, plus the fights of the (at
/// most 12) cards they bring back from a pile into a battle where they may
/// already have died once: two questions and two dice each.
const PRAYERS_BOUND: u32 = 2 * (2 + 1 + 6) + 12 * 4;

/// Longest game the engine accepts, in rounds.
pub const MAX_ROUNDS_LIMIT: u16 = 1000;

impl Rules {
    /// One line per serialised field of `Rules` (its name as in JSON and
    /// in the registry's specifications): what it does and its values.
    pub const PARAMETER_DOCS: &'static [(&'static str, &'static str)] = &[
        ("aside", "soldiers each player puts face down into his pile at setup, 0..=24 (ruling 1; default 6, 18 in hand)"),
        ("keep_in_pile", "cards a draw from round 2 on must leave in the pile, 0..=24 (ruling 2; default 5)"),
        ("max_rounds", "rounds after which the game is a draw, 1..=1000 (ruling 25; default 60)"),
        ("cap_winner_health", "true: a fight's winner keeps at most the health it had; false: the difference of the totals (ruling 4)"),
        ("bonus_every_three_kills", "true: the three-kills bonus at every third kill of a battle; false: at the third only (ruling 5)"),
        ("guards_earn_bonus", "true: aces and the joker earn the three-kills bonus too (ruling 6)"),
        ("donor_returns", "false: a health-1 donor lies under the card it fed and shares its fate; true: every donor comes back after the battle (ruling 7)"),
        ("first_attacker", "who attacks first from round 2 on: LastAttacker (who attacked last) or Alternate (ruling 11)"),
        ("one_prayer_per_fight", "true: once the attacker prays the defender is not asked before the same fight; false: both may pray (ruling 15)"),
        ("reserve_in_first_round", "true: round 1's second attacker may keep a reserve too (ruling 12)"),
        ("reserve_all_or_nothing", "true: the second attacker attacks with all his remaining cards or keeps them all; false: any part (ruling 29)"),
        ("grenade_rounds_up", "true: the grenade leaves ceil(h/2) health and ceil(die/2); false: floor, and a card left at 0 dies (ruling 17)"),
        ("gangrene_hits_guards", "true: gangrene kills a wounded ace or joker too (ruling 18)"),
        ("sniper_targets_guards", "true: the sniper may remove a defending ace or joker (ruling 20)"),
        ("sniper_by_health", "true: the sniper removes the card with the most health left; false: the largest value (ruling 26)"),
        ("bomb_hits_hand", "true: the atomic bomb also kills the opponent's hand and set-aside soldiers (ruling 27)"),
    ];

    /// The named rule sets, the default first: name, one line citing the
    /// source of the reading, rules. Each is the default with the fields
    /// of one other reading of the text changed.
    ///
    /// ```
    /// use cardwar_core::Rules;
    ///
    /// let presets = Rules::presets();
    /// assert_eq!(presets[0].2, Rules::default());
    /// assert!(presets.iter().all(|(_, _, r)| r.validate().is_ok()));
    /// ```
    pub fn presets() -> Vec<(&'static str, &'static str, Rules)> {
        let d = Rules::default();
        vec![
            (
                "default",
                "cardwar-ru.txt with the rulings of docs/cardwar.md (a donor shares the fate of the card it fed)",
                d,
            ),
            (
                "donors_return",
                "every health-1 donor comes back after the battle, as the engine ruled before the text's lone-last-card sentence was read as the only way back",
                Rules {
                    donor_returns: true,
                    ..d
                },
            ),
            (
                "all_or_nothing_reserve",
                "the second attacker \"uses them in the attack or keeps them as a reserve\" read as all of them or none (cardwar-ru.txt, ruling 29)",
                Rules {
                    reserve_all_or_nothing: true,
                    ..d
                },
            ),
            (
                "hand_24",
                "the text's counts of 24 cards in hand and 12 to attack (cardwar-ru.txt, first round): nothing put aside, so the piles start empty (ruling 1)",
                Rules { aside: 0, ..d },
            ),
        ]
    }

    /// Checks the numeric fields.
    ///
    /// ```
    /// use cardwar_core::{CardWarError, Rules};
    ///
    /// assert!(Rules::default().validate().is_ok());
    /// let endless = Rules { max_rounds: 0, ..Rules::default() };
    /// assert!(matches!(endless.validate(), Err(CardWarError::InvalidRules(_))));
    /// ```
    pub fn validate(&self) -> Result<(), CardWarError> {
        if self.aside as usize > SOLDIERS {
            return Err(CardWarError::InvalidRules("aside must be at most 24"));
        }
        if self.keep_in_pile as usize > SOLDIERS {
            return Err(CardWarError::InvalidRules(
                "keep_in_pile must be at most 24",
            ));
        }
        if self.max_rounds == 0 || self.max_rounds > MAX_ROUNDS_LIMIT {
            return Err(CardWarError::InvalidRules("max_rounds must be in 1..=1000"));
        }
        Ok(())
    }

    /// The most actions (decisions and chance outcomes) of any game.
    pub(crate) fn max_actions(&self) -> u32 {
        2 * self.aside as u32 + 2 + PRAYERS_BOUND + self.max_rounds as u32 * ROUND_BOUND
    }
}

/// The unchecked shape of [`Rules`], validated on deserialisation.
#[derive(Deserialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
struct RawRules {
    aside: u8,
    keep_in_pile: u8,
    max_rounds: u16,
    cap_winner_health: bool,
    bonus_every_three_kills: bool,
    guards_earn_bonus: bool,
    donor_returns: bool,
    first_attacker: FirstAttacker,
    one_prayer_per_fight: bool,
    reserve_in_first_round: bool,
    // Absent from rule sets written before the field existed: those meant
    // the only reading there was, any part.
    #[serde(default)]
    reserve_all_or_nothing: bool,
    grenade_rounds_up: bool,
    gangrene_hits_guards: bool,
    sniper_targets_guards: bool,
    #[serde(default)]
    sniper_by_health: bool,
    #[serde(default)]
    bomb_hits_hand: bool,
}

impl TryFrom<RawRules> for Rules {
    type Error = CardWarError;
    fn try_from(r: RawRules) -> Result<Self, CardWarError> {
        let rules = Rules {
            aside: r.aside,
            keep_in_pile: r.keep_in_pile,
            max_rounds: r.max_rounds,
            cap_winner_health: r.cap_winner_health,
            bonus_every_three_kills: r.bonus_every_three_kills,
            guards_earn_bonus: r.guards_earn_bonus,
            donor_returns: r.donor_returns,
            first_attacker: r.first_attacker,
            one_prayer_per_fight: r.one_prayer_per_fight,
            reserve_in_first_round: r.reserve_in_first_round,
            reserve_all_or_nothing: r.reserve_all_or_nothing,
            grenade_rounds_up: r.grenade_rounds_up,
            gangrene_hits_guards: r.gangrene_hits_guards,
            sniper_targets_guards: r.sniper_targets_guards,
            sniper_by_health: r.sniper_by_health,
            bomb_hits_hand: r.bomb_hits_hand,
        };
        rules.validate()?;
        Ok(rules)
    }
}
