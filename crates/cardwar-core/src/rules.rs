//! The rule set and every ruling of `docs/cardwar.md` that could go the
//! other way.

use game_traits::schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::CardWarError;
use game_traits::RuleSet;

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
