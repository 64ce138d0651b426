//! The expert's weights: what its model credits each player with and what
//! a tactic must gain before it is spent.

use crate::card::Tactic;

/// The weights of the expert's model. [`Weights::V1`] is the expert of
/// issue 29, frozen as the sparring bot `expert-v1`; [`Weights::default`]
/// is the current expert's, fitted by self-play against the pool
/// (docs/strength.md, "Fitting the weights").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Future troop draws credited to each player at most: cards drawn
    /// late come too late for most flags.
    pub draw_cap: usize,
    /// A side's share of a flag against a side of unforeseen cards, for a
    /// middling formation (a Host of sum 15).
    pub unknown_base: f64,
    /// What each class above a Host adds to that share, over four classes.
    pub unknown_class: f64,
    /// The tactics' costs (the chance of the game a tactic must gain) are
    /// multiplied by this.
    pub tactic_cost: f64,
    /// Plays judged again, against fresh futures, in the second round.
    pub finalists: usize,
    /// Whether each future gives the opponent his answer: the tactics card
    /// he holds in that future (or draws, when he holds none), played where
    /// it takes most from the viewer: a Leader, Companion Cavalry or Shield
    /// Bearers on his side, a Traitor or Deserter on the viewer's best card.
    pub rival_answer: bool,
    /// Whether the first round screens the troop plays on one share-out of
    /// the table as it stands (only the sides a play touches completed
    /// again) before the finalists are judged on a full share-out each.
    pub screen: bool,
    /// The finalists are judged against this many times the budget's
    /// futures.
    pub final_futures: u32,
    /// A tactics card is drawn (when the hand holds none and the tactics
    /// limit lets one be played) only once the troop deck holds this many
    /// cards or fewer; `None`: at any time.
    pub tactics_from: Option<usize>,
}

impl Weights {
    /// The expert of issue 29 (`expert-v1`).
    pub const V1: Weights = Weights {
        draw_cap: 12,
        unknown_base: 0.3,
        unknown_class: 0.45,
        tactic_cost: 1.0,
        finalists: 6,
        rival_answer: false,
        screen: false,
        final_futures: 2,
        tactics_from: None,
    };

    /// How much `tactic` must gain, in chance of winning the game, before
    /// it is spent: it counts against the tactics limit and could do more
    /// later.
    pub(crate) fn cost(&self, tactic: Tactic) -> f64 {
        let base = match tactic {
            Tactic::Alexander | Tactic::Darius => 0.04,
            Tactic::Traitor | Tactic::Deserter => 0.03,
            _ => 0.02,
        };
        base * self.tactic_cost
    }
}

/// The troop deck's cards left when the expert starts drawing tactics
/// cards: 3, 6, 9 and 12 did alike against `prob`; 18, and never, worse
/// (docs/strength.md, "Tactics drawn late").
const TACTICS_FROM: usize = 12;

/// The opponent's answer on and 14 draws credited instead of 12 (each
/// won 51 to 57 % of 300-game matches against `expert-v1`); the troop plays
/// screened, nine finalists judged against three times the budget's
/// futures (at equal time, about five points more against `prob`):
/// docs/strength.md, "Fitting the weights"; tactics cards drawn only late
/// in the game. The other weights as V1.
impl Default for Weights {
    fn default() -> Weights {
        Weights {
            draw_cap: 14,
            rival_answer: true,
            screen: true,
            finalists: 9,
            final_futures: 3,
            tactics_from: Some(TACTICS_FROM),
            ..Weights::V1
        }
    }
}
