//! The expert bot: setups drawn from a model of human setups, a belief
//! over the opponent's unknown pieces, and a search over determinisations
//! drawn from it (see [`Expert`]); the first generation (`expert-v1`, a
//! two-ply search) is kept to spar with.

mod alphabeta;
mod belief;
mod eval;
mod plans;
mod spy;
mod two_ply;
mod weights;
mod zobrist;

use std::time::Duration;

use game_traits::{Agent, Budget, GameRng};
use rand::Rng;

use crate::action::Action;
use crate::bots::heuristic::{neighbours, Heuristic};
use crate::observation::Observation;
use crate::setup::{Setup, SetupSquare};
use crate::state::Stratego;

use alphabeta::Searcher;
use belief::{Belief, Evidence};
pub use weights::Weights;

/// The expert's budget when none is given: about 20 ms a move.
pub const EXPERT_DEFAULT_BUDGET: Budget = Budget::Time(Duration::from_millis(20));

/// The strongest Stratego bot, for every rule set.
///
/// - **Setups** are drawn from a model of 64,920 human classic setups
///   (how often people put each kind on each square, and how often they
///   put bombs beside the flag): never a copy of one, and never the same
///   setup twice in a row. The other rule sets weigh their kinds by the
///   classic kind of the same role (see `docs/strength.md`).
/// - **Belief**: each unknown opponent piece carries weights over the
///   kinds, from the same model at the square it started on, moved along
///   with it, and changed by what it does: raised for kinds that beat a
///   known piece it walks up to or closes in on, for kinds a known piece
///   beats when it steps away from it, lowered for kinds that beat a known
///   piece it leaves untaken; an unmoved piece grows likelier a mine or the
///   flag as the game goes on. The observation's facts (moved pieces are no
///   mines or flags, long moves and fights reveal, the counts left) are
///   kept exactly.
/// - **Search**: iterative-deepening alpha-beta over a few determinisations
///   drawn from the belief, each root move's values averaged over them; an
///   attack on an unknown piece is a chance node over the kinds the belief
///   gives the defender; past the horizon a quiescence search plays out the
///   fights whose outcome the attacker knows; a transposition table with
///   Zobrist keys, killer moves and the history heuristic order the moves.
///   The leaves are valued by material, what the opponent knows, and both
///   players' plans (hunting, known pieces three times as much as guessed
///   ones, flag attack, flag defence; a known Marshal, General or Colonel
///   kept off unknown pieces while a kind that beats it lives; the last
///   Miners kept where a stuck player only draws). Those pieces never
///   probe an unmoved unknown piece while a cheaper piece can. The engine's legal
///   moves already obey the two-square, more-squares and chase rules of
///   the rule set, so the bot never plans an illegal repetition, and its
///   search sees when those rules leave a hunted opponent piece no escape.
///
/// [`Expert::v1`] is the first expert, kept unchanged to spar with.
///
/// It reads only its seat's observations. With [`Budget::Iterations`]
/// (the depth in plies) its choices are a function of its
/// observations and the seed.
///
/// ```
/// use game_traits::Budget;
/// use stratego_core::game_traits::{play_match, RandomAgent};
/// use stratego_core::{Expert, Game, Rules, Stratego};
///
/// let mut expert = Expert::new(Some(Budget::Iterations(2)));
/// let mut random = RandomAgent;
/// let rules = Rules { max_moves: 40, ..Rules::classic() };
/// let (end, _record) =
///     play_match::<Stratego>(&rules, 1, &mut [&mut expert, &mut random]).unwrap();
/// println!("{:?}", end.outcome());
/// ```
#[derive(Clone, Debug)]
pub struct Expert {
    generation: Generation,
    budget: Budget,
    /// The setup being placed.
    plan: Option<Setup>,
    /// The setup of the previous game, never drawn twice in a row.
    previous: Option<Setup>,
    belief: Belief,
    searcher: Searcher,
}

/// Which expert: today's, or the first one, frozen as it was measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Generation {
    /// Two plies over determinisations; iterations count
    /// determinisations. Its belief reads only approaches.
    V1,
    /// Iterative-deepening alpha-beta over determinisations; iterations
    /// name the depth. Its belief reads every behaviour it models.
    V2,
}

impl Expert {
    /// An expert searching `budget` a move (`None`:
    /// [`EXPERT_DEFAULT_BUDGET`]): iterations name the depth of its
    /// search in plies.
    pub fn new(budget: Option<Budget>) -> Expert {
        Expert::with_weights(budget, Weights::default())
    }

    /// An expert whose search values its leaves by other `weights` (for
    /// fitting them; `examples/fit.rs`).
    pub fn with_weights(budget: Option<Budget>, weights: Weights) -> Expert {
        Expert::of(Generation::V2, budget, weights)
    }

    /// The weights of its search; `None` for `expert-v1`, whose
    /// evaluation is frozen.
    pub fn weights(&self) -> Option<Weights> {
        (self.generation == Generation::V2).then(|| self.searcher.model())
    }

    /// The first expert (`expert-v1`), kept unchanged to measure the
    /// expert against: a two-ply search over determinisations, whose
    /// iterations count determinisations.
    pub fn v1(budget: Option<Budget>) -> Expert {
        Expert::of(Generation::V1, budget, Weights::default())
    }

    fn of(generation: Generation, budget: Option<Budget>, weights: Weights) -> Expert {
        let evidence = match generation {
            Generation::V1 => Evidence::Approach,
            Generation::V2 => Evidence::Behaviour,
        };
        Expert {
            generation,
            budget: budget.unwrap_or(EXPERT_DEFAULT_BUDGET),
            plan: None,
            previous: None,
            belief: Belief::new(evidence),
            searcher: Searcher::new(weights),
        }
    }

    fn setup_choice(&mut self, obs: &Observation, rng: &mut GameRng) -> Option<Action> {
        let placed = usize::from(obs.placed[obs.viewer]);
        if placed == 0 || self.plan.is_none() {
            let mut plan = Setup::human_like(obs.rules.variant, rng);
            while Some(plan) == self.previous {
                plan = Setup::human_like(obs.rules.variant, rng);
            }
            self.previous = Some(plan);
            self.plan = Some(plan);
        }
        let kind = self.plan.as_ref()?.get(SetupSquare::from_index(placed)?)?;
        Some(Action::Place(kind))
    }
}

impl Default for Expert {
    fn default() -> Self {
        Expert::new(None)
    }
}

impl Agent<Stratego> for Expert {
    fn name(&self) -> String {
        match self.generation {
            Generation::V1 => "expert-v1",
            Generation::V2 => "expert",
        }
        .to_owned()
    }

    fn choose(&mut self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        if obs.in_setup() {
            if let Some(a) = self.setup_choice(obs, rng).filter(|a| legal.contains(a)) {
                return a;
            }
            return Heuristic::default().choose(obs, legal, rng);
        }
        self.belief.update(obs);
        if legal.len() == 1 {
            return legal[0];
        }
        let values = match self.generation {
            Generation::V1 => {
                let totals = two_ply::search(obs, legal, &self.belief, self.budget, rng);
                (totals.samples > 0).then_some(totals.values)
            }
            Generation::V2 => {
                let found = self
                    .searcher
                    .search(obs, legal, &self.belief, self.budget, rng);
                (found.depth > 0).then_some(found.values)
            }
        };
        let Some(values) = values else {
            return Heuristic::default().choose(obs, legal, rng);
        };
        // The Spy's moves count only where nothing else can move.
        let mut open: Vec<usize> = (0..legal.len())
            .filter(|&i| self.generation == Generation::V1 || !spy::withheld(obs, &legal[i]))
            .collect();
        if open.is_empty() {
            open = (0..legal.len()).collect();
        }
        // Ties (common early, when no move touches anything) are broken at
        // random, so the bot does not always open with the same piece.
        let best = open
            .iter()
            .map(|&i| values[i])
            .fold(f64::NEG_INFINITY, f64::max);
        let tied: Vec<usize> = open
            .into_iter()
            .filter(|&i| values[i] >= best - 1e-9)
            .collect();
        legal[tied[rng.random_range(0..tied.len())]]
    }
}
