//! The rule set and its options, with the rulings as defaults.

use serde::{Deserialize, Serialize};

use crate::error::StrategoError;
use crate::kind::Kind;
use crate::variant::Variant;

/// A rule set and its options. Build one with [`Rules::srazhenie`],
/// [`Rules::czech`] or [`Rules::classic`] and adjust the public fields;
/// [`Rules::validate`] (called by [`Game::new`](game_traits::Game::new))
/// refuses inconsistent combinations. The default is Srazhenie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    /// Which rule set.
    pub variant: Variant,
    /// Srazhenie option "runner soldiers": the Soldier (9) moves any
    /// distance in a straight line over empty squares.
    pub runner_soldiers: bool,
    /// A long-moving piece may attack at the end of a long move (the Czech
    /// text and the ISF rules say so; ruled the same for runner soldiers).
    pub long_move_attack: bool,
    /// The Czech Průzkumník, besides its long orthogonal moves, may step one
    /// square diagonally like every Czech piece.
    pub czech_scout_steps_diagonally: bool,
    /// The attacker's rank is shown to the defender. The Czech text says the
    /// attacker does not tell his rank; the issue and the other two texts
    /// reveal both, which is the default in all three rule sets.
    pub reveal_attacker: bool,
    /// Two-square rule: the most moves in a row of one piece back and forth
    /// over the same squares (3); `None` switches the rule off.
    pub two_square_limit: Option<u8>,
    /// The ISF more-squares (continuous chase) rule, see `docs/stratego.md`.
    /// Meant for Classic; off by default.
    pub more_squares_rule: bool,
    /// Draw after this many moves in a row without an attack (100 in
    /// Srazhenie, off elsewhere).
    pub no_attack_limit: Option<u16>,
    /// A player without a legal move on his turn loses (Srazhenie,
    /// Classic); otherwise the game is a draw (Czech).
    pub no_move_loses: bool,
    /// When neither player has a legal move, the game is a draw even where a
    /// stuck player loses (ISF; Classic only by default).
    pub both_stuck_draw: bool,
    /// Draw as soon as neither side can ever capture the other's flag
    /// (Czech).
    pub unreachable_flag_draw: bool,
    /// Hard bound: the game is drawn after this many moves (not counting
    /// the setup), so that every game ends.
    pub max_moves: u32,
}

/// The largest allowed [`Rules::max_moves`].
pub const MAX_MOVES_LIMIT: u32 = 100_000;

impl Rules {
    /// The Soviet "Сражение" with its defaults.
    pub const fn srazhenie() -> Rules {
        Rules {
            variant: Variant::Srazhenie,
            runner_soldiers: false,
            long_move_attack: true,
            czech_scout_steps_diagonally: true,
            reveal_attacker: true,
            two_square_limit: Some(3),
            more_squares_rule: false,
            no_attack_limit: Some(100),
            no_move_loses: true,
            both_stuck_draw: false,
            unreachable_flag_draw: false,
            max_moves: 3000,
        }
    }

    /// The Czech variant with its defaults.
    pub const fn czech() -> Rules {
        Rules {
            variant: Variant::Czech,
            no_attack_limit: None,
            no_move_loses: false,
            unreachable_flag_draw: true,
            ..Rules::srazhenie()
        }
    }

    /// The international classic rules with their defaults.
    pub const fn classic() -> Rules {
        Rules {
            variant: Variant::Classic,
            no_attack_limit: None,
            both_stuck_draw: true,
            ..Rules::srazhenie()
        }
    }

    /// The defaults of `variant`.
    pub const fn for_variant(variant: Variant) -> Rules {
        match variant {
            Variant::Srazhenie => Rules::srazhenie(),
            Variant::Czech => Rules::czech(),
            Variant::Classic => Rules::classic(),
        }
    }

    /// Checks that the options fit together.
    pub fn validate(&self) -> Result<(), StrategoError> {
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

    /// The kind that moves any distance in a straight line, if any.
    pub const fn long_mover(&self) -> Option<Kind> {
        self.variant.long_mover(self.runner_soldiers)
    }

    /// Whether pieces step diagonally (Czech).
    pub const fn diagonal_steps(&self) -> bool {
        matches!(self.variant, Variant::Czech)
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::srazhenie()
    }
}
