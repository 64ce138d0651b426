//! Battle Line's rule set as data: its options, presets and action space.

use game_traits::{ChanceMode, Named, Preset, RuleSet};

use crate::action::{Action, ACTION_SPACE};
use crate::error::BattleLineError;
use crate::formation::FormationOrder;
use crate::rules::{
    ClaimTiming, EnvironmentTactics, LastPass, LeaderLimit, ProofTie, Rules, WildCards,
};
use crate::state::MAX_GAME_LENGTH;

game_traits::named!(FormationOrder { Text, Published });

game_traits::named!(ClaimTiming {
    BeforeDraw,
    StartOfTurn
});

game_traits::named!(LeaderLimit {
    OncePerGame,
    OneOnTable
});

game_traits::named!(ProofTie {
    ClaimantWins,
    Blocks
});

game_traits::named!(EnvironmentTactics { Fixed, Movable });

game_traits::named!(WildCards {
    CopyTable,
    UnseenOnly
});

game_traits::named!(LastPass {
    ClaimFirst,
    SettleAtOnce
});

/// Every option is a closed choice, and every combination of them is a
/// game: [`RuleSet::validate`] accepts them all.
///
/// ```
/// use battleline_core::{Rules, RuleSet};
///
/// let presets = Rules::presets();
/// assert_eq!(presets[0].rules, Rules::default());
/// let mut rules = Rules::default();
/// let order = Rules::parameters()[0].parse("published").unwrap();
/// rules.set("formation_order", order).unwrap();
/// assert_eq!(rules, Rules::published_order());
/// ```
impl RuleSet for Rules {
    type Action = Action;
    type Error = BattleLineError;

    fn validate(&self) -> Result<(), BattleLineError> {
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
        matches!(action, Action::Deal(_))
    }

    fn max_game_length(&self) -> u32 {
        MAX_GAME_LENGTH
    }

    fn chance_mode(&self) -> ChanceMode {
        ChanceMode::ExplicitStochastic
    }

    /// The named rule sets for the registry and the command lines, the
    /// default first.
    fn presets() -> Vec<Preset<Rules>> {
        vec![
            Preset::new(
                "default",
                "Standard",
                "The full game with tactics cards.",
                "the Ukrainian rule text (battleline-uk.txt) with the rulings of RULES-NOTES.md",
                Rules::default(),
            ),
            Preset::new(
                "published_order",
                "Published formation order",
                "The Battalion (one colour) ranks above the Skirmish Line (a run), as in the boxed edition.",
                "the default with the published GMT formation order (Battalion above Skirmish Line)",
                Rules::published_order(),
            ),
            Preset::new(
                "troops_only",
                "Troops only",
                "No tactics cards: troop cards and flags alone.",
                "the default without tactics cards: the base game of bot competitions and the Schotten Totten family",
                Rules::troops_only(),
            ),
            Preset::new(
                "claims_at_start",
                "Claims at turn start",
                "Flags may be claimed only at the start of your turn.",
                "the default with the text's variant: claims only at the start of the turn",
                Rules::claims_at_start_of_turn(),
            ),
            Preset::new(
                "movable_environment",
                "Movable Fog and Mud",
                "Redeploy and Deserter may also take Fog and Mud.",
                "the default with the published GMT reading of Fog and Mud: Redeploy and Deserter can take them",
                Rules::movable_environment(),
            ),
            Preset::new(
                "unseen_wilds",
                "Unseen wild cards",
                "A Leader or Shield Bearer may only stand for a troop card nobody can see on the table.",
                "the default with wild cards that may only become troop cards not visible on the table",
                Rules::unseen_wilds(),
            ),
        ]
    }

    game_traits::parameter_table! {
        formation_order: Choice { values: FormationOrder::NAMES }, "ranking of the formation classes: Text (default, the rule text: Skirmish Line above Battalion) or Published (the GMT game: Battalion above Skirmish Line)";
        claim_timing: Choice { values: ClaimTiming::NAMES }, "when flags are claimed: BeforeDraw (default: after playing, before drawing) or StartOfTurn (the text's variant: only at the start of the turn)";
        leader_limit: Choice { values: LeaderLimit::NAMES }, "Leaders a player may play: OncePerGame (default, the text: a second Leader stays in the hand) or OneOnTable (again once his Leader left the table)";
        proof_tie: Choice { values: ProofTie::NAMES }, "a claim proof whose best opponent completion only ties: ClaimantWins (default) or Blocks";
        first_player: Int { min: 0, max: 1 }, "the seat that starts (the one who did not deal): 0 (default) or 1";
        environment_tactics: Choice { values: EnvironmentTactics::NAMES }, "Fog and Mud: Fixed (default, RULES-NOTES: they stay beside their flag) or Movable (the GMT reading: Redeploy and Deserter can take them)";
        wild_cards: Choice { values: WildCards::NAMES }, "what a Leader, Cavalry or Shield Bearers may become: CopyTable (default: any card of its values, also one on the table) or UnseenOnly (only a troop card not visible on the table)";
        tactics: Bool, "whether the ten tactics cards are in the game: true (default, the text) or false (troop cards only, the base game of bot competitions and Schotten Totten)";
        last_pass: Choice { values: LastPass::NAMES }, "the second of two passes in a row: ClaimFirst (default, RULES-NOTES: the passer still claims, then the end rule settles the rest) or SettleAtOnce (the end rule at once)";
    }
}
