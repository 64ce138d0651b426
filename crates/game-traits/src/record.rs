//! Game records: rules, seed and every action, replayable and serialisable.

use serde::{Deserialize, Serialize};

use crate::game::Game;

/// A whole game as data: the rules, the seed its chance events and agents
/// were drawn from, and every action (decisions and chance outcomes) in
/// order. [`Record::replay`] rebuilds the final state, checking every step.
///
/// ```
/// # use game_traits::{Game, Record};
/// # fn demo<G: Game>(rules: G::Rules) {
/// let record: Record<G> = Record::new(rules, 7);
/// let state = record.replay().expect("an empty record replays");
/// assert_eq!(state, G::new(record.rules()).unwrap());
/// # }
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Record<G: Game> {
    game: String,
    rules: G::Rules,
    seed: u64,
    actions: Vec<G::Action>,
}

/// Why a record does not replay.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayError<E: std::error::Error + 'static> {
    /// The record names another game.
    #[error("record is of game {found:?}, expected {expected:?}")]
    WrongGame {
        /// This game's [`Game::NAME`].
        expected: &'static str,
        /// The name in the record.
        found: String,
    },
    /// The rules were refused.
    #[error("rules refused: {0}")]
    Rules(#[source] E),
    /// Action number `step` (from 0) is illegal where it stands.
    #[error("step {step}: {error}")]
    Step {
        /// Index of the offending action.
        step: usize,
        /// Why it is illegal.
        #[source]
        error: E,
    },
}

impl<G: Game> Record<G> {
    /// An empty record of a game under `rules`, played from `seed`.
    pub fn new(rules: G::Rules, seed: u64) -> Self {
        Record {
            game: G::NAME.to_owned(),
            rules,
            seed,
            actions: Vec::new(),
        }
    }

    /// The rules.
    pub fn rules(&self) -> &G::Rules {
        &self.rules
    }

    /// The seed of the match that produced the record.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The actions in order.
    pub fn actions(&self) -> &[G::Action] {
        &self.actions
    }

    /// Appends an action (not checked here; [`Record::replay`] checks).
    pub fn push(&mut self, action: G::Action) {
        self.actions.push(action);
    }

    /// Rebuilds the state after every action, refusing the first illegal
    /// one.
    pub fn replay(&self) -> Result<G, ReplayError<G::Error>> {
        self.replay_with(|_, _| {})
    }

    /// Like [`Record::replay`], calling `visit(state, action)` before each
    /// action is applied (to print or analyse a game step by step).
    pub fn replay_with(
        &self,
        mut visit: impl FnMut(&G, G::Action),
    ) -> Result<G, ReplayError<G::Error>> {
        if self.game != G::NAME {
            return Err(ReplayError::WrongGame {
                expected: G::NAME,
                found: self.game.clone(),
            });
        }
        let mut state = G::new(&self.rules).map_err(ReplayError::Rules)?;
        for (step, &action) in self.actions.iter().enumerate() {
            visit(&state, action);
            state
                .apply(action)
                .map_err(|error| ReplayError::Step { step, error })?;
        }
        Ok(state)
    }
}
