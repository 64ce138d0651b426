//! Random playouts and the scaling of returns, shared by the search bots.

use game_traits::chance::uniform_index;
use game_traits::{Game, GameRng, PlayerId, Turn};

/// Values a state where a playout was cut off (see `playout_limit`) for a
/// player, in [0, 1]: 1 a sure win, 0 a sure loss. It gets the full
/// (determinised) state, as a playout does.
pub type Evaluator<G> = fn(&G, PlayerId) -> f64;

/// Maps a player's return onto [0, 1], so that one exploration constant
/// suits every game.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scale {
    low: f64,
    span: f64,
}

impl Scale {
    pub(crate) fn of<G: Game>(rules: &G::Rules) -> Self {
        let (low, high) = G::return_bounds(rules);
        let span = high - low;
        Scale {
            low,
            span: if span.is_finite() && span > 0.0 {
                span
            } else {
                1.0
            },
        }
    }

    /// The scaled value of `player` in a finished (or cut-off) playout.
    pub(crate) fn value<G: Game>(
        self,
        state: &G,
        player: PlayerId,
        evaluate: Option<Evaluator<G>>,
    ) -> f64 {
        if state.is_terminal() {
            ((state.returns(player) - self.low) / self.span).clamp(0.0, 1.0)
        } else {
            // Without an evaluator a playout cut off before the end counts
            // as even.
            evaluate.map_or(0.5, |f| f(state, player).clamp(0.0, 1.0))
        }
    }
}

/// Plays uniformly random actions and chance outcomes from `state` until
/// the end, or until `limit` actions have been played. `legal` is a reused
/// buffer.
pub(crate) fn random_playout<G: Game>(
    state: &mut G,
    legal: &mut Vec<G::Action>,
    rng: &mut GameRng,
    limit: u32,
) {
    for _ in 0..limit {
        let action = match state.turn() {
            Turn::Terminal => return,
            Turn::Chance => match state.sample_chance(rng) {
                Some(a) => a,
                None => return,
            },
            Turn::Player(_) => {
                state.legal_actions(legal);
                if legal.is_empty() {
                    return;
                }
                legal[uniform_index(legal.len(), rng)]
            }
        };
        state.apply_unchecked(action);
    }
}

/// The number of actions a playout may take from `state`.
pub(crate) fn playout_limit<G: Game>(state: &G, configured: Option<u32>) -> u32 {
    let bound = G::max_game_length(state.rules());
    configured.map_or(bound, |c| c.min(bound))
}
