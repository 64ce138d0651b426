//! Flat Monte Carlo: random playouts from every legal action.

use std::marker::PhantomData;

use game_traits::chance::uniform_index;
use game_traits::{Agent, Budget, Game, GameRng, Turn};

use crate::meter::Meter;
use crate::playout::{playout_limit, Evaluator, Scale};

/// Settings of [`FlatMonteCarlo`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlatMonteCarloConfig {
    /// Playouts per decision, shared round-robin among the legal actions.
    pub budget: Budget,
    /// Cut playouts off after this many actions (a cut-off playout counts
    /// as even); `None` plays to the end.
    pub playout_limit: Option<u32>,
}

impl Default for FlatMonteCarloConfig {
    fn default() -> Self {
        FlatMonteCarloConfig {
            budget: Budget::Iterations(200),
            playout_limit: None,
        }
    }
}

/// For each legal action, determinises the observation, plays the action and
/// then random moves to the end; picks the action with the best mean return.
/// A cheap baseline: it does not look at the opponent's replies.
#[derive(Clone, Debug)]
pub struct FlatMonteCarlo<G: Game> {
    config: FlatMonteCarloConfig,
    legal: Vec<G::Action>,
    totals: Vec<(f64, u32)>,
    evaluate: Option<Evaluator<G>>,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game> FlatMonteCarlo<G> {
    /// A bot with these settings.
    pub fn new(config: FlatMonteCarloConfig) -> Self {
        FlatMonteCarlo {
            config,
            legal: Vec::new(),
            totals: Vec::new(),
            evaluate: None,
            _game: PhantomData,
        }
    }

    /// With `evaluate` valuing playouts cut off by the playout limit
    /// (instead of counting them as even).
    pub fn with_evaluator(mut self, evaluate: Evaluator<G>) -> Self {
        self.evaluate = Some(evaluate);
        self
    }

    /// The settings.
    pub fn config(&self) -> &FlatMonteCarloConfig {
        &self.config
    }
}

impl<G: Game> Default for FlatMonteCarlo<G> {
    fn default() -> Self {
        Self::new(FlatMonteCarloConfig::default())
    }
}

impl<G: Game> Agent<G> for FlatMonteCarlo<G> {
    fn name(&self) -> String {
        format!("flat-mc:{}", self.config.budget)
    }

    fn choose(
        &mut self,
        observation: &G::Observation,
        legal: &[G::Action],
        rng: &mut GameRng,
    ) -> G::Action {
        if legal.len() == 1 {
            return legal[0];
        }
        self.totals.clear();
        self.totals.resize(legal.len(), (0.0, 0));
        let mut meter = Meter::start(self.config.budget);
        let mut next = 0;
        while meter.next() {
            let index = next;
            next = (next + 1) % legal.len();
            let Ok(mut state) = G::determinize(observation, rng) else {
                continue;
            };
            let Turn::Player(me) = state.turn() else {
                continue;
            };
            if state.apply(legal[index]).is_err() {
                continue;
            }
            let limit = playout_limit(&state, self.config.playout_limit);
            game_traits::random_playout(&mut state, &mut self.legal, rng, limit);
            let value = Scale::of::<G>(state.rules()).value(&state, me, self.evaluate);
            let (sum, count) = &mut self.totals[index];
            *sum += value;
            *count += 1;
        }
        let best = self
            .totals
            .iter()
            .enumerate()
            .filter(|(_, (_, n))| *n > 0)
            .max_by(|(_, (a, n)), (_, (b, m))| (a / *n as f64).total_cmp(&(b / *m as f64)))
            .map(|(i, _)| i);
        match best {
            Some(i) => legal[i],
            None => legal[uniform_index(legal.len(), rng)],
        }
    }
}
