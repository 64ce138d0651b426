//! Card war's rule set as data: its options, presets and action space.

use game_traits::{ChanceMode, Named, Preset, RuleSet};

use crate::action::{Action, ACTION_SPACE};
use crate::card::SOLDIERS;
use crate::error::CardWarError;
use crate::rules::{FirstAttacker, Rules, MAX_ROUNDS_LIMIT};

game_traits::named!(FirstAttacker {
    LastAttacker,
    Alternate
});

/// The options are the fields of [`Rules`]; every combination of them is a
/// game, so [`RuleSet::validate`] checks only the ranges of the numbers.
///
/// ```
/// use cardwar_core::{CardWarError, Rules};
/// use game_traits::RuleSet;
///
/// assert!(Rules::default().validate().is_ok());
/// let endless = Rules { max_rounds: 0, ..Rules::default() };
/// assert!(matches!(endless.validate(), Err(CardWarError::InvalidRules(_))));
/// let presets = Rules::presets();
/// assert_eq!(presets[0].rules, Rules::default());
/// assert!(presets.iter().all(|p| p.rules.validate().is_ok()));
/// ```
impl RuleSet for Rules {
    type Action = Action;
    type Error = CardWarError;

    fn validate(&self) -> Result<(), CardWarError> {
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

    fn action_space(&self) -> usize {
        ACTION_SPACE
    }

    fn action_id(&self, action: Action) -> usize {
        action.id()
    }

    fn action_from_id(&self, id: usize) -> Option<Action> {
        Action::from_id(id)
    }

    fn is_chance_outcome(&self, action: Action) -> bool {
        matches!(action, Action::Die(_) | Action::Dice(_) | Action::Draw(_))
    }

    fn max_game_length(&self) -> u32 {
        self.max_actions()
    }

    fn chance_mode(&self) -> ChanceMode {
        ChanceMode::ExplicitStochastic
    }

    /// The named rule sets, the default first; each is the default with
    /// the fields of one other reading of the text changed.
    fn presets() -> Vec<Preset<Rules>> {
        let d = Rules::default();
        vec![
            Preset::new(
                "default",
                "Standard",
                "A card that gave its last health to the next one shares that card’s fate.",
                "cardwar-ru.txt with the rulings of docs/cardwar.md (a donor shares the fate of the card it fed)",
                d,
            ),
            Preset::new(
                "donors_return",
                "Givers return",
                "Every card that gave its last health comes back after the battle.",
                "every health-1 donor comes back after the battle, as the engine ruled before the text's lone-last-card sentence was read as the only way back",
                Rules {
                    donor_returns: true,
                    ..d
                },
            ),
            Preset::new(
                "all_or_nothing_reserve",
                "All or nothing",
                "The second attacker attacks with all his cards or keeps them all in reserve.",
                "the second attacker \"uses them in the attack or keeps them as a reserve\" read as all of them or none (cardwar-ru.txt, ruling 29)",
                Rules {
                    reserve_all_or_nothing: true,
                    ..d
                },
            ),
            Preset::new(
                "hand_24",
                "24 in hand",
                "All 24 soldiers start in hand and 12 attack; nothing is put aside.",
                "the text's counts of 24 cards in hand and 12 to attack (cardwar-ru.txt, first round): nothing put aside, so the piles start empty (ruling 1)",
                Rules { aside: 0, ..d },
            ),
        ]
    }

    game_traits::parameter_table! {
        aside: Int { min: 0, max: 24 }, "soldiers each player puts face down into his pile at setup, 0..=24 (ruling 1; default 6, 18 in hand)";
        keep_in_pile: Int { min: 0, max: 24 }, "cards a draw from round 2 on must leave in the pile, 0..=24 (ruling 2; default 5)";
        max_rounds: Int { min: 1, max: 1000 }, "rounds after which the game is a draw, 1..=1000 (ruling 25; default 60)";
        cap_winner_health: Bool, "true: a fight's winner keeps at most the health it had; false: the difference of the totals (ruling 4)";
        bonus_every_three_kills: Bool, "true: the three-kills bonus at every third kill of a battle; false: at the third only (ruling 5)";
        guards_earn_bonus: Bool, "true: aces and the joker earn the three-kills bonus too (ruling 6)";
        donor_returns: Bool, "false: a health-1 donor lies under the card it fed and shares its fate; true: every donor comes back after the battle (ruling 7)";
        first_attacker: Choice { values: FirstAttacker::NAMES }, "who attacks first from round 2 on: LastAttacker (who attacked last) or Alternate (ruling 11)";
        one_prayer_per_fight: Bool, "true: once the attacker prays the defender is not asked before the same fight; false: both may pray (ruling 15)";
        reserve_in_first_round: Bool, "true: round 1's second attacker may keep a reserve too (ruling 12)";
        reserve_all_or_nothing: Bool, "true: the second attacker attacks with all his remaining cards or keeps them all; false: any part (ruling 29)";
        grenade_rounds_up: Bool, "true: the grenade leaves ceil(h/2) health and ceil(die/2); false: floor, and a card left at 0 dies (ruling 17)";
        gangrene_hits_guards: Bool, "true: gangrene kills a wounded ace or joker too (ruling 18)";
        sniper_targets_guards: Bool, "true: the sniper may remove a defending ace or joker (ruling 20)";
        sniper_by_health: Bool, "true: the sniper removes the card with the most health left; false: the largest value (ruling 26)";
        bomb_hits_hand: Bool, "true: the atomic bomb also kills the opponent's hand and set-aside soldiers (ruling 27)";
    }
}
