//! The first expert's search (`expert-v1`): over determinisations drawn from the belief, each
//! of its moves answered by the opponent's best reply (two plies, every
//! legal move of the engine, so the repetition rules of the rule set bound
//! both sides' plans), the leaves valued by the evaluation; the move with
//! the best total over the determinisations is played.

use std::time::Instant;

use game_traits::{Budget, Game, GameRng, PlayerId};

use super::belief::Belief;
use super::eval::evaluate;
use crate::action::Action;
use crate::observation::Observation;
use crate::state::Stratego;

/// The totals of each legal move over the determinisations searched, and
/// how many were.
pub(crate) struct Totals {
    /// Per legal move (in the order given), the sum of its values.
    pub(crate) values: Vec<f64>,
    /// Determinisations searched.
    pub(crate) samples: u32,
}

/// Searches `legal` from `obs` within `budget` (iterations count
/// determinisations).
pub(crate) fn search(
    obs: &Observation,
    legal: &[Action],
    belief: &Belief,
    budget: Budget,
    rng: &mut GameRng,
) -> Totals {
    let start = Instant::now();
    let mut totals = Totals {
        values: vec![0.0; legal.len()],
        samples: 0,
    };
    let mut replies = Vec::new();
    loop {
        let more = match budget {
            Budget::Iterations(n) => totals.samples < n,
            Budget::Time(limit) => totals.samples == 0 || start.elapsed() < limit,
        };
        if !more {
            break;
        }
        let Some(state) = belief.determinize(obs, rng) else {
            break;
        };
        for (total, &action) in totals.values.iter_mut().zip(legal) {
            *total += value_after(&state, action, obs.viewer, &mut replies);
        }
        totals.samples += 1;
    }
    totals
}

/// The value for `player` of playing `action` in `state`, the opponent
/// answering with the reply worst for `player`.
fn value_after(
    state: &Stratego,
    action: Action,
    player: PlayerId,
    replies: &mut Vec<Action>,
) -> f64 {
    let mut next = state.clone();
    next.apply_unchecked(action);
    if next.current_player() != Some(player.other()) {
        return evaluate(&next, player);
    }
    next.legal_actions(replies);
    let mut worst = f64::INFINITY;
    for &reply in replies.iter() {
        let mut after = next.clone();
        after.apply_unchecked(reply);
        worst = worst.min(evaluate(&after, player));
    }
    if worst.is_finite() {
        worst
    } else {
        evaluate(&next, player)
    }
}
