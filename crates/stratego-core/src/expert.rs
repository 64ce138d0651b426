//! The expert bot: setups drawn from a model of human setups, a belief
//! over the opponent's unknown pieces, and a two-ply search over
//! determinisations drawn from it (see [`Expert`]).

mod belief;
mod eval;
mod search;
mod setup_model;
mod setup_table;

use std::time::Duration;

use game_agents::Budget;
use game_traits::{Agent, GameRng};
use rand::Rng;

use crate::action::Action;
use crate::heuristic::Heuristic;
use crate::observation::Observation;
use crate::setup::{Setup, SetupSquare};
use crate::square::Square;
use crate::state::Stratego;

use belief::Belief;
pub(crate) use setup_model::draw_setup;

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
///   with it, raised for kinds that beat a known piece it walks up to; the
///   observation's facts (moved pieces are no mines or flags, long moves
///   and fights reveal, the counts left) are kept exactly.
/// - **Search**: determinisations drawn from the belief, each legal move
///   answered by the opponent's best reply, valued by material, what the
///   opponent knows, flag defence and flag attack. The engine's legal
///   moves already obey the two-square, more-squares and chase rules of
///   the rule set, so the bot never plans an illegal repetition, and its
///   search sees when those rules leave a hunted opponent piece no escape.
///
/// It reads only its seat's observations. With [`Budget::Iterations`]
/// (determinisations a move) its choices are a function of its
/// observations and the seed.
///
/// ```
/// use game_agents::Budget;
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
    budget: Budget,
    /// The setup being placed.
    plan: Option<Setup>,
    /// The setup of the previous game, never drawn twice in a row.
    previous: Option<Setup>,
    belief: Belief,
}

impl Expert {
    /// An expert searching `budget` a move (`None`:
    /// [`EXPERT_DEFAULT_BUDGET`]).
    pub fn new(budget: Option<Budget>) -> Expert {
        Expert {
            budget: budget.unwrap_or(EXPERT_DEFAULT_BUDGET),
            plan: None,
            previous: None,
            belief: Belief::default(),
        }
    }

    fn setup_choice(&mut self, obs: &Observation, rng: &mut GameRng) -> Option<Action> {
        let placed = usize::from(obs.placed[obs.viewer]);
        if placed == 0 || self.plan.is_none() {
            let mut plan = setup_model::draw_setup(obs.rules.variant, rng);
            while Some(plan) == self.previous {
                plan = setup_model::draw_setup(obs.rules.variant, rng);
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
        "expert".to_owned()
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
        let totals = search::search(obs, legal, &self.belief, self.budget, rng);
        if totals.samples == 0 {
            return Heuristic::default().choose(obs, legal, rng);
        }
        // Ties (common early, when no move touches anything) are broken at
        // random, so the bot does not always open with the same piece.
        let best = totals
            .values
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        let tied: Vec<usize> = (0..legal.len())
            .filter(|&i| totals.values[i] >= best - 1e-9)
            .collect();
        legal[tied[rng.random_range(0..tied.len())]]
    }
}

/// The orthogonal neighbours of `sq`.
fn neighbours(sq: Square) -> impl Iterator<Item = Square> {
    let (f, r) = (sq.file() as i8, sq.rank() as i8);
    [(0, 1), (0, -1), (-1, 0), (1, 0)]
        .into_iter()
        .filter_map(move |(df, dr)| {
            Square::from_file_rank(u8::try_from(f + df).ok()?, u8::try_from(r + dr).ok()?)
        })
}
