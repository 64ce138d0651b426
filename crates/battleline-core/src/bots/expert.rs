//! The expert bots: card counting, flag odds built on the engine's
//! completion solver, the chance of winning the game from the flags' (five
//! flags or three adjacent), every tactic judged by what it does to that
//! chance, the opponent's tactical answer in every imagined future, and a
//! one-ply search over sampled hands and draws on top.
//!
//! [`Expert`] plays with [`Weights::default`]; [`ExpertV1`] is the expert
//! of issue 29 ([`Weights::V1`]), kept as a sparring partner.

mod counting;
mod memo;
mod odds;
mod reply;
mod scenario;
mod search;
mod turn;
mod victory;
mod weights;

use game_traits::{Agent, Budget, GameRng};

use crate::action::Action;
use crate::observation::Observation;
use crate::state::BattleLine;

pub(crate) use counting::{draws, off_table, sample, Futures};
pub(crate) use odds::{allocation_order, best_side, share};
pub(crate) use scenario::{apply as apply_play, Scenario};
pub(crate) use search::score;
pub(crate) use turn::by_rule;
pub(crate) use victory::Victory;
pub use weights::Weights;

use search::Search;

/// The Battle Line expert: the strongest bot of this crate
/// (docs/strength.md has the figures).
///
/// Each decision it draws futures consistent with its observation (the
/// opponent's hidden hand and both players' next troop draws, from the
/// cards no one has seen, and the tactics card the opponent holds or
/// draws) and, in each, completes every side of every flag as well as its
/// player's future cards allow, with the engine's completion solver; then
/// the opponent answers with his tactics card where it takes most from it
/// (a Leader on a flag it would win, a Traitor on its key card). The
/// share of futures in which
/// it wins a flag is its chance there; the game's chance follows from the
/// flags' (five flags or three adjacent). Every play (troops, morale
/// tactics, Fog, Mud, Redeploy, Deserter, Traitor) is judged by the game's
/// chance after it, all against the same futures (troop plays screened on
/// one share-out of the cards, [`Weights::screen`]), and the best few again
/// against fresh ones; a tactic must gain more than it costs. It claims
/// every flag it can prove and, late in the game (the troop deck down to
/// [`Weights::tactics_from`] cards), draws a tactics card when it has none
/// in hand and may still play one.
///
/// It reads only its observation. The budget is the number of futures
/// (reproducible) or a time per decision.
///
/// ```
/// use battleline_core::{BattleLine, Expert, Heuristic, Rules};
/// use battleline_core::game_traits::play_match;
/// let (mut expert, mut heuristic) = (Expert::with_samples(8), Heuristic);
/// let (game, _) = play_match::<BattleLine>(&Rules::default(), 3, &mut [&mut expert, &mut heuristic]).unwrap();
/// # use battleline_core::Game;
/// assert!(game.outcome().is_some());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Expert {
    search: Search,
}

impl Default for Expert {
    fn default() -> Expert {
        Expert::new(None)
    }
}

impl Expert {
    /// An expert with `budget` a decision: [`Budget::Iterations`] counts
    /// futures, [`Budget::Time`] the time to draw them in; `None` is the
    /// default, 96 futures.
    pub fn new(budget: Option<Budget>) -> Expert {
        Expert::with_weights(budget, Weights::default())
    }

    /// An expert with other weights (for fitting them).
    pub fn with_weights(budget: Option<Budget>, weights: Weights) -> Expert {
        Expert {
            search: Search::new(budget, weights),
        }
    }

    /// An expert judging every play against `samples / 2` futures, then the
    /// best few against [`Weights::final_futures`] times `samples` more (at
    /// least one each).
    pub fn with_samples(samples: u32) -> Expert {
        Expert::new(Some(Budget::Iterations(samples)))
    }

    /// An expert drawing futures for `time` a decision: a quarter of it for
    /// screening every play (half without [`Weights::screen`]), the rest for
    /// the best few (at least one future each).
    pub fn with_time(time: std::time::Duration) -> Expert {
        Expert::new(Some(Budget::Time(time)))
    }

    /// Its weights.
    pub fn weights(&self) -> Weights {
        self.search.weights
    }
}

impl Agent<BattleLine> for Expert {
    fn name(&self) -> String {
        format!("expert:{}", self.search.budget_name())
    }

    fn choose(&mut self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        self.search.choose(obs, legal, rng)
    }
}

/// The expert of issue 29, frozen as the sparring bot `expert-v1`: the
/// same search as [`Expert`] with [`Weights::V1`], which gives no player
/// an answer in its futures (the opponent's futures hold troop cards only).
///
/// ```
/// use battleline_core::{BattleLine, ExpertV1, Heuristic, Rules};
/// use battleline_core::game_traits::play_match;
/// let (mut v1, mut heuristic) = (ExpertV1::new(Some(battleline_core::Budget::Iterations(8))), Heuristic);
/// let (game, _) = play_match::<BattleLine>(&Rules::default(), 3, &mut [&mut v1, &mut heuristic]).unwrap();
/// # use battleline_core::Game;
/// assert!(game.outcome().is_some());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ExpertV1 {
    search: Search,
}

impl ExpertV1 {
    /// `expert-v1` with `budget` a decision (as [`Expert::new`]).
    pub fn new(budget: Option<Budget>) -> ExpertV1 {
        ExpertV1 {
            search: Search::new(budget, Weights::V1),
        }
    }
}

impl Agent<BattleLine> for ExpertV1 {
    fn name(&self) -> String {
        format!("expert-v1:{}", self.search.budget_name())
    }

    fn choose(&mut self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        self.search.choose(obs, legal, rng)
    }
}
