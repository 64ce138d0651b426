//! Stratego's rule set as data: its options, presets and action space.

use game_traits::{ChanceMode, Named, Preset, RuleSet};

use crate::action::Action;
use crate::error::StrategoError;
use crate::game::SETUP_ACTIONS;
use crate::rules::{FirstPlayer, Rules, MAX_MOVES_LIMIT};
use crate::variant::Variant;

game_traits::named!(Variant {
    Srazhenie,
    Czech,
    Classic
});

game_traits::named!(FirstPlayer {
    Seat0,
    Seat1,
    Drawn
});

/// The rule set's options, presets and action space.
///
/// ```
/// use stratego_core::{Rules, RuleSet};
///
/// let presets = Rules::presets();
/// assert_eq!(presets[0].rules, Rules::default());
/// assert!(presets.iter().all(|p| p.rules.validate().is_ok()));
/// ```
impl RuleSet for Rules {
    type Action = Action;
    type Error = StrategoError;

    /// Checks that the options fit together and the numbers are within
    /// their documented bounds: [`Game::new`](game_traits::Game::new),
    /// deserialisation, observations, stored states and the position
    /// builder all call it.
    fn validate(&self) -> Result<(), StrategoError> {
        let bad = |why| Err(StrategoError::InvalidRules(why));
        if self.runner_soldiers && self.variant != Variant::Srazhenie {
            return bad("runner soldiers exist only in Srazhenie");
        }
        if self.two_square_limit == Some(0) {
            return bad("two-square limit must be at least 1");
        }
        if self.no_attack_limit == Some(0) {
            return bad("no-attack limit must be at least 1");
        }
        if self.max_moves == 0 || self.max_moves > MAX_MOVES_LIMIT {
            return bad("max_moves must be in 1..=100000");
        }
        Ok(())
    }

    fn action_space(&self) -> usize {
        Action::space(self)
    }

    /// The compact id of [`Action::id`]; an action no position under these
    /// rules can make legal gets `action_space()`, past the end.
    fn action_id(&self, action: Action) -> usize {
        action.dense_id(self)
    }

    fn action_from_id(&self, id: usize) -> Option<Action> {
        Action::from_id(self, id)
    }

    /// Only who moves first, where the rules draw it.
    fn is_chance_outcome(&self, action: Action) -> bool {
        matches!(action, Action::Start(_))
    }

    fn max_game_length(&self) -> u32 {
        let draw = u32::from(self.fixed_first_player().is_none());
        SETUP_ACTIONS
            .saturating_add(self.max_moves)
            .saturating_add(draw)
    }

    /// Deterministic, unless the rules draw who moves first: the only
    /// chance event of Stratego (the hidden information comes from the
    /// setups, which are the players' decisions).
    fn chance_mode(&self) -> ChanceMode {
        if self.fixed_first_player().is_some() {
            ChanceMode::Deterministic
        } else {
            ChanceMode::ExplicitStochastic
        }
    }

    /// The named presets, the default first. The names are those of the
    /// registry (`stratego(variant=<name>)`).
    fn presets() -> Vec<Preset<Rules>> {
        vec![
            Preset::new(
                "classic",
                "International",
                "Tournament rules: at most 5 moves between the same two squares, no endless chasing.",
                "International Stratego Federation Game Rules: 5 moves between two squares (scout clause), more-squares rule, both stuck is a draw",
                Rules::classic(),
            ),
            Preset::new(
                "classic_milton_bradley",
                "Milton Bradley",
                "Box rules: at most 3 turns between the same two squares; a Scout cannot move and strike in one turn.",
                "Milton Bradley / Hasbro rules: 3 consecutive turns between the same 2 squares, the Scout may not move and strike in one turn",
                Rules::classic_milton_bradley(),
            ),
            Preset::new(
                "classic_gravon",
                "Gravon",
                "The online rules of Gravon: 5 turns between two squares, no chasing rule.",
                "Gravon's rules page (gravon.de): 5 consecutive turns between the same 2 squares with the scout clause, no more-squares rule",
                Rules::classic_gravon(),
            ),
            Preset::new(
                "srazhenie",
                "Srazhenie",
                "The Soviet edition: the Marshal is number 1, at most 3 moves between two squares, a draw after 100 moves without an attack.",
                "Soviet «Сражение» (stratego-srazhenie-ru.txt): 1 Marshal strongest, 3 moves between two squares, draw after 100 moves without attack",
                Rules::srazhenie(),
            ),
            Preset::new(
                "srazhenie_runner_soldiers",
                "Srazhenie, running Soldiers",
                "As Srazhenie, and the Soldier (9) runs any distance in a straight line.",
                "«Сражение», the text's variant «Солдаты-бегуны»: the Soldier (9) moves any distance in a straight line",
                Rules::srazhenie_runner_soldiers(),
            ),
            Preset::new(
                "czech",
                "Czech",
                "Pieces step in eight directions, an attacker stays unknown, and who starts is drawn.",
                "Czech rules (stratego-czech-cs.txt): eight-direction steps, the attacker's kind stays hidden, no two-square rule, who starts is drawn",
                Rules::czech(),
            ),
        ]
    }

    game_traits::parameter_table! {
        variant: Choice { values: Variant::NAMES }, "rule set: Srazhenie, Czech or Classic (pieces, counts, names, combat table, steps)";
        runner_soldiers: Bool, "Srazhenie option «Солдаты-бегуны»: the Soldier (9) moves any distance in a straight line (true/false)";
        long_move_attack: Bool, "a long mover may attack at the end of a long move (true/false; false in Milton Bradley)";
        czech_scout_steps_diagonally: Bool, "Czech: the Průzkumník also steps one square diagonally like every Czech piece (true/false)";
        reveal_attacker: Bool, "the defender learns the attacker's kind (true/false; false in Czech: \"Hodnotu svého kamene protivníkovy nesděluje\")";
        two_square_limit: OptionalInt { min: 1, max: 255 }, "two-square rule: most moves in a row of one piece between the same squares (a number, or none to switch it off)";
        two_square_partial_moves: Bool, "two-square rule: a long mover's partial moves back along its first move's line count too (true/false; the ISF scout clause)";
        more_squares_rule: Bool, "ISF more-squares rule: a continuous chaser may not recreate a position of the chase (true/false)";
        no_attack_limit: OptionalInt { min: 1, max: 65535 }, "draw after this many moves in a row without an attack (a number, or none)";
        no_move_loses: Bool, "a player without a legal move on his turn loses (true) or the game is drawn (false)";
        both_stuck_draw: Bool, "when neither player can move, the game is a draw even where a stuck player loses (true/false)";
        unreachable_flag_draw: Bool, "draw as soon as neither side can ever capture the other's flag (true/false; Czech)";
        first_player: Choice { values: FirstPlayer::NAMES }, "who moves first after the setup: Seat0, Seat1, or Drawn by a chance event at the start";
        max_moves: Int { min: 1, max: MAX_MOVES_LIMIT }, "hard bound: the game is drawn after this many moves, 1..=100000";
    }
}
