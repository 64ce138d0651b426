//! The strongest card war bot we have: the heuristic plus a reserve.

use game_traits::{Agent, GameRng};

use crate::action::Action;
use crate::bots::heuristic::Heuristic;
use crate::observation::Observation;
use crate::state::{CardWar, LayKind, Phase};

/// A free attack line stops once every card left in the hand is weaker
/// than this: those cards stay in hand as the reserve.
pub const RESERVE_BELOW: u8 = 7;

/// The heuristic's play (strongest soldier first, pray at the first
/// chance) with one change: a free attack line (the second attacker's,
/// from round 2 on) stops once every card left in the hand is weaker than
/// [`RESERVE_BELOW`], keeping them as a reserve.
///
/// Why it helps: the defender answers a line card for card, so a weak card
/// sent in dies against a fresh defender and feeds his kills (three kills
/// heal or double a card) without getting near his guards, while kept in
/// hand it still counts for the next round's split and for the halved-army
/// rule. Found by experiment against the heuristic; the thresholds tried
/// and the other rules tried (a later prayer, other orders of the lines)
/// are in `docs/strength.md`. It takes no budget: it does not search.
///
/// ```
/// use cardwar_core::game_traits::{play_match, RandomAgent};
/// use cardwar_core::{CardWar, Expert, Rules};
///
/// let (mut expert, mut random) = (Expert, RandomAgent);
/// let (end, _) = play_match::<CardWar>(&Rules::default(), 3, &mut [&mut expert, &mut random]).unwrap();
/// assert!(end.outcome().is_some());
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Expert;

impl Expert {
    /// Whether the viewer is laying a free attack line and every card left
    /// in his hand is weaker than [`RESERVE_BELOW`].
    pub fn keeps_reserve(obs: &Observation) -> bool {
        let laying_free_attack = matches!(
            obs.public().phase,
            Phase::Lay { player, kind: LayKind::FreeAttack, .. } if player == obs.viewer()
        );
        laying_free_attack && obs.own().hand.iter().all(|s| s.strength() < RESERVE_BELOW)
    }
}

impl Agent<CardWar> for Expert {
    fn name(&self) -> String {
        "expert".to_owned()
    }

    fn choose(&mut self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        if Self::keeps_reserve(obs) && legal.contains(&Action::EndLine) {
            return Action::EndLine;
        }
        Heuristic.choose(obs, legal, rng)
    }
}
