//! The rule set and its options, with the rulings as defaults.

use serde::{Deserialize, Serialize};

use crate::kind::Kind;
use crate::variant::Variant;

/// Who moves first once both armies are set up. (The setup itself is
/// secret, so its order tells nothing: the first seat always places first.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum FirstPlayer {
    /// The first seat (`P0`, red in the classic rules) moves first.
    Seat0,
    /// The second seat (`P1`) moves first.
    Seat1,
    /// A chance event at the very start of the game, before the setup,
    /// draws who moves first, each seat with probability 1/2 (the Czech
    /// text: "si vylosují kdo začne"). Both players see the draw.
    Drawn,
}

/// A rule set and its options. Build one with a preset ([`Rules::classic`],
/// [`Rules::srazhenie`], [`Rules::czech`], the other readings in
/// [`RuleSet::presets`](game_traits::RuleSet::presets)) and adjust the public fields; [`RuleSet::validate`](game_traits::RuleSet::validate)
/// (called by [`Game::new`](game_traits::Game::new)) refuses inconsistent
/// combinations. The default is the international classic game, as the ISF
/// plays it ([`Rules::classic`]): what "Stratego" means to most players, and
/// the registry's `stratego`.
///
/// The two fields added after the first release read, when a stored form
/// lacks them, as the behaviour of that release (partial moves back count,
/// the first seat starts), so old records replay unchanged.
///
/// Deserialisation goes through [`RuleSet::validate`](game_traits::RuleSet::validate) too: stored rules are
/// either valid or refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "raw::Rules")]
pub struct Rules {
    /// Which rule set.
    pub variant: Variant,
    /// Srazhenie option "runner soldiers" («Солдаты-бегуны»): the Soldier
    /// (9) moves any distance in a straight line over empty squares.
    pub runner_soldiers: bool,
    /// A long-moving piece may attack at the end of a long move (the Czech
    /// text, the ISF and Gravon say so; ruled the same for runner
    /// soldiers; the Milton Bradley text forbids it).
    pub long_move_attack: bool,
    /// The Czech Průzkumník, besides its long orthogonal moves, may step one
    /// square diagonally like every Czech piece.
    pub czech_scout_steps_diagonally: bool,
    /// The attacker's kind is shown to the defender. The Czech text says
    /// the attacker does not tell it ("Hodnotu svého kamene protivníkovy
    /// nesděluje"): off in Czech, whether the attacker wins or loses; on in
    /// the other rule sets.
    pub reveal_attacker: bool,
    /// Two-square rule: the most moves in a row of one piece back and forth
    /// between the same squares (3 in Srazhenie and Milton Bradley, 5 in
    /// the ISF and Gravon rules); `None` switches the rule off (Czech).
    /// At least 1.
    pub two_square_limit: Option<u8>,
    /// Under the two-square rule, a long mover's partial moves back along
    /// the line of the first move of its run (to any square between its
    /// two ends) count as shuttling too (the ISF and Gravon scout clause).
    /// Off: only moves back and forth between the same two squares count
    /// (the Srazhenie text, Milton Bradley).
    #[serde(default = "yes")]
    pub two_square_partial_moves: bool,
    /// The ISF more-squares (continuous chase) rule, see `docs/stratego.md`
    /// (on in the ISF rules).
    pub more_squares_rule: bool,
    /// Draw after this many moves in a row without an attack (100 in
    /// Srazhenie, off elsewhere). At least 1.
    pub no_attack_limit: Option<u16>,
    /// A player without a legal move on his turn loses (Srazhenie,
    /// Classic); otherwise the game is a draw (Czech).
    pub no_move_loses: bool,
    /// When neither player has a legal move, the game is a draw even where a
    /// stuck player loses (the ISF reading of Classic).
    pub both_stuck_draw: bool,
    /// Draw as soon as neither side can ever capture the other's flag
    /// (Czech).
    pub unreachable_flag_draw: bool,
    /// Who moves first once both armies are set up: a seat, or drawn by a
    /// chance event (Czech).
    #[serde(default = "seat0")]
    pub first_player: FirstPlayer,
    /// Hard bound: the game is drawn after this many moves (not counting
    /// the setup), so that every game ends. In `1..=`[`MAX_MOVES_LIMIT`],
    /// so that the game length bound (setup, draw and moves) fits a `u32`.
    pub max_moves: u32,
}

fn yes() -> bool {
    true
}

fn seat0() -> FirstPlayer {
    FirstPlayer::Seat0
}

/// The largest allowed [`Rules::max_moves`].
pub const MAX_MOVES_LIMIT: u32 = 100_000;

impl Rules {
    /// The Soviet "Сражение" with its defaults (`stratego-srazhenie-ru.txt`).
    pub const fn srazhenie() -> Rules {
        Rules {
            variant: Variant::Srazhenie,
            runner_soldiers: false,
            long_move_attack: true,
            czech_scout_steps_diagonally: true,
            reveal_attacker: true,
            two_square_limit: Some(3),
            two_square_partial_moves: false,
            more_squares_rule: false,
            no_attack_limit: Some(100),
            no_move_loses: true,
            both_stuck_draw: false,
            unreachable_flag_draw: false,
            first_player: FirstPlayer::Seat0,
            max_moves: 3000,
        }
    }

    /// Srazhenie's named variant «Солдаты-бегуны» (runner soldiers): the
    /// Soldier (9) moves any distance in a straight line.
    pub const fn srazhenie_runner_soldiers() -> Rules {
        Rules {
            runner_soldiers: true,
            ..Rules::srazhenie()
        }
    }

    /// The Czech variant with its defaults (`stratego-czech-cs.txt`): the
    /// attacker's kind stays hidden from the defender, no two-square rule,
    /// who starts is drawn.
    pub const fn czech() -> Rules {
        Rules {
            variant: Variant::Czech,
            reveal_attacker: false,
            two_square_limit: None,
            no_attack_limit: None,
            no_move_loses: false,
            unreachable_flag_draw: true,
            first_player: FirstPlayer::Drawn,
            ..Rules::srazhenie()
        }
    }

    /// The classic rules as the International Stratego Federation's Game
    /// Rules play them (cited in `docs/stratego.md`): at most 5 moves
    /// between the same two squares, a scout's partial moves back
    /// counting, the more-squares rule, a draw when neither side can move,
    /// red (the first seat) starts.
    pub const fn classic() -> Rules {
        Rules {
            variant: Variant::Classic,
            two_square_limit: Some(5),
            two_square_partial_moves: true,
            more_squares_rule: true,
            no_attack_limit: None,
            both_stuck_draw: true,
            ..Rules::srazhenie()
        }
    }

    /// The classic rules as Milton Bradley / Hasbro print them (cited in
    /// `docs/stratego.md`): pieces may not move back and forth between the
    /// same 2 squares in 3 consecutive turns, the Scout may not move and
    /// strike in the same turn, no more-squares rule, a player who cannot
    /// move loses.
    pub const fn classic_milton_bradley() -> Rules {
        Rules {
            two_square_limit: Some(3),
            two_square_partial_moves: false,
            more_squares_rule: false,
            long_move_attack: false,
            both_stuck_draw: false,
            ..Rules::classic()
        }
    }

    /// The classic rules of Gravon's rules page (cited in
    /// `docs/stratego.md`): 5 consecutive turns between the same 2 squares
    /// with the scout clause, the Scout may move and strike, no
    /// more-squares rule (Gravon presents it as the ISF's addition), a
    /// player who cannot move loses.
    pub const fn classic_gravon() -> Rules {
        Rules {
            more_squares_rule: false,
            both_stuck_draw: false,
            ..Rules::classic()
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

    /// The kind that moves any distance in a straight line, if any.
    pub const fn long_mover(&self) -> Option<Kind> {
        self.variant.long_mover(self.runner_soldiers)
    }

    /// Whether pieces step diagonally (Czech).
    pub const fn diagonal_steps(&self) -> bool {
        matches!(self.variant, Variant::Czech)
    }

    /// The seat that moves first when the rules fix it, `None` when it is
    /// drawn.
    pub const fn fixed_first_player(&self) -> Option<game_traits::PlayerId> {
        match self.first_player {
            FirstPlayer::Seat0 => Some(game_traits::PlayerId::P0),
            FirstPlayer::Seat1 => Some(game_traits::PlayerId::P1),
            FirstPlayer::Drawn => None,
        }
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::classic()
    }
}

/// The stored form of [`Rules`], read field by field and then validated
/// ([`Rules::validate`]) before it becomes one.
mod raw {
    use serde::Deserialize;

    use super::{seat0, yes, FirstPlayer};
    use crate::error::StrategoError;
    use crate::variant::Variant;
    use game_traits::RuleSet;

    /// The fields of [`super::Rules`], with the same defaults.
    #[derive(Deserialize)]
    pub(super) struct Rules {
        variant: Variant,
        runner_soldiers: bool,
        long_move_attack: bool,
        czech_scout_steps_diagonally: bool,
        reveal_attacker: bool,
        two_square_limit: Option<u8>,
        #[serde(default = "yes")]
        two_square_partial_moves: bool,
        more_squares_rule: bool,
        no_attack_limit: Option<u16>,
        no_move_loses: bool,
        both_stuck_draw: bool,
        unreachable_flag_draw: bool,
        #[serde(default = "seat0")]
        first_player: FirstPlayer,
        max_moves: u32,
    }

    impl TryFrom<Rules> for super::Rules {
        type Error = StrategoError;

        fn try_from(r: Rules) -> Result<Self, StrategoError> {
            let rules = super::Rules {
                variant: r.variant,
                runner_soldiers: r.runner_soldiers,
                long_move_attack: r.long_move_attack,
                czech_scout_steps_diagonally: r.czech_scout_steps_diagonally,
                reveal_attacker: r.reveal_attacker,
                two_square_limit: r.two_square_limit,
                two_square_partial_moves: r.two_square_partial_moves,
                more_squares_rule: r.more_squares_rule,
                no_attack_limit: r.no_attack_limit,
                no_move_loses: r.no_move_loses,
                both_stuck_draw: r.both_stuck_draw,
                unreachable_flag_draw: r.unreachable_flag_draw,
                first_player: r.first_player,
                max_moves: r.max_moves,
            };
            rules.validate()?;
            Ok(rules)
        }
    }
}
