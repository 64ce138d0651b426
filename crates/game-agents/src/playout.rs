//! Random playouts and the scaling of returns, shared by the search bots.

use game_traits::RuleSet;
use game_traits::{Game, PlayerId};

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
        let (low, high) = rules.return_bounds();
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

/// The number of actions a playout may take from `state`.
pub(crate) fn playout_limit<G: Game>(state: &G, configured: Option<u32>) -> u32 {
    let bound = state.rules().max_game_length();
    configured.map_or(bound, |c| c.min(bound))
}
