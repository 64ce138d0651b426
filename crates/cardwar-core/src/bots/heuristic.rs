//! A bot with a few lines of card war knowledge.

use game_traits::{best_scored, Agent, GameRng};

use crate::action::Action;
use crate::observation::Observation;
use crate::state::CardWar;

/// Lays the strongest soldier of the hand next (a strong front card
/// survives its fight and goes on to the next enemy card, and three kills
/// heal or double it), attacks with everything rather than keeping a
/// reserve, and prays at the first chance (every answer of the gods helps
/// the one who prays). Equal-looking choices vary a little from game to
/// game, drawn from the agent's generator.
///
/// ```
/// use cardwar_core::game_traits::{play_match, RandomAgent};
/// use cardwar_core::{CardWar, Heuristic, Rules};
///
/// let (mut bot, mut random) = (Heuristic, RandomAgent);
/// let (end, _) = play_match::<CardWar>(&Rules::default(), 3, &mut [&mut bot, &mut random]).unwrap();
/// assert!(end.outcome().is_some());
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Heuristic;

impl Heuristic {
    fn score(action: Action) -> f64 {
        match action {
            Action::Place(s) => f64::from(s.strength()),
            Action::Pray => 100.0,
            Action::Decline | Action::EndLine => 0.0,
            // Chance outcomes are never a decision.
            Action::Die(_) | Action::Dice(_) | Action::Draw(_) => -1.0,
        }
    }
}

impl Agent<CardWar> for Heuristic {
    fn name(&self) -> String {
        "heuristic".to_owned()
    }

    fn choose(&mut self, _: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        best_scored(legal, rng, Self::score)
    }
}
