//! The rules on the wire: every option a client needs to tell what is
//! legal (the two-square limit, whether a long mover may strike), with
//! its enums as snake_case strings.

use game_traits::schemars::JsonSchema;
use serde::Serialize;

use crate::rules::{FirstPlayer, Rules};
use crate::variant::Variant;

/// The rule set, as the preset names spell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
#[serde(rename_all = "snake_case")]
pub enum WireVariant {
    /// The Soviet "Сражение": rank 1 Marshal strongest, 10 Scout weakest.
    Srazhenie,
    /// The Czech rules: eight-direction steps, orthogonal attacks.
    Czech,
    /// The international classic rules: 10 Marshal ... 2 Scout, 1 Spy.
    Classic,
}

/// Who moves first once both armies are set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
#[serde(rename_all = "snake_case")]
pub enum WireFirstPlayer {
    /// The first seat.
    Seat0,
    /// The second seat.
    Seat1,
    /// Drawn by the chance event that opens the game.
    Drawn,
}

/// The rules in force, field by field as [`Rules`] documents them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct WireRules {
    /// The rule set.
    pub variant: WireVariant,
    /// Srazhenie: the Soldier moves any distance in a straight line.
    pub runner_soldiers: bool,
    /// A long mover may attack at the end of a long move.
    pub long_move_attack: bool,
    /// Czech: the Průzkumník also steps one square diagonally.
    pub czech_scout_steps_diagonally: bool,
    /// The defender learns the attacker's kind.
    pub reveal_attacker: bool,
    /// Two-square rule: the most moves in a row of one piece back and
    /// forth between the same squares; `null` when the rule is off.
    pub two_square_limit: Option<u8>,
    /// A long mover's partial moves back along its first move's line count
    /// as shuttling too.
    pub two_square_partial_moves: bool,
    /// The ISF more-squares (continuous chase) rule.
    pub more_squares_rule: bool,
    /// Draw after this many moves in a row without an attack; `null` when
    /// off.
    pub no_attack_limit: Option<u16>,
    /// A player without a legal move on his turn loses (else a draw).
    pub no_move_loses: bool,
    /// Neither player able to move is a draw.
    pub both_stuck_draw: bool,
    /// Draw as soon as neither side can ever capture the other's flag.
    pub unreachable_flag_draw: bool,
    /// Who moves first after the setup.
    pub first_player: WireFirstPlayer,
    /// The game is drawn after this many moves.
    pub max_moves: u32,
}

impl WireVariant {
    /// The wire form of `variant`.
    pub(super) fn of(variant: Variant) -> WireVariant {
        match variant {
            Variant::Srazhenie => WireVariant::Srazhenie,
            Variant::Czech => WireVariant::Czech,
            Variant::Classic => WireVariant::Classic,
        }
    }
}

impl WireRules {
    /// The wire form of `rules`.
    pub(super) fn of(rules: &Rules) -> WireRules {
        WireRules {
            variant: WireVariant::of(rules.variant),
            runner_soldiers: rules.runner_soldiers,
            long_move_attack: rules.long_move_attack,
            czech_scout_steps_diagonally: rules.czech_scout_steps_diagonally,
            reveal_attacker: rules.reveal_attacker,
            two_square_limit: rules.two_square_limit,
            two_square_partial_moves: rules.two_square_partial_moves,
            more_squares_rule: rules.more_squares_rule,
            no_attack_limit: rules.no_attack_limit,
            no_move_loses: rules.no_move_loses,
            both_stuck_draw: rules.both_stuck_draw,
            unreachable_flag_draw: rules.unreachable_flag_draw,
            first_player: match rules.first_player {
                FirstPlayer::Seat0 => WireFirstPlayer::Seat0,
                FirstPlayer::Seat1 => WireFirstPlayer::Seat1,
                FirstPlayer::Drawn => WireFirstPlayer::Drawn,
            },
            max_moves: rules.max_moves,
        }
    }
}
