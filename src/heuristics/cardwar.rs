//! Card war knowledge: a bot that lays its strongest soldiers first and
//! keeps no reserve.

use game_traits::{Agent, GameRng};

use super::best_scored;
use crate::cardwar::{Action, CardWar, Observation};

/// Lays the strongest soldier of the hand next (a strong front card
/// survives its fight and goes on to the next enemy card, and three kills
/// heal or double it), attacks with everything rather than keeping a
/// reserve, and prays at the first chance (every answer of the gods helps
/// the one who prays).
#[derive(Clone, Copy, Debug, Default)]
pub struct CardWarHeuristic;

impl CardWarHeuristic {
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

impl Agent<CardWar> for CardWarHeuristic {
    fn name(&self) -> String {
        "heuristic".to_owned()
    }

    fn choose(&mut self, _: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        best_scored(legal, rng, Self::score)
    }
}
