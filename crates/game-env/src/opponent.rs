//! Built-in opponents for one seat of a batched environment: any
//! [`Agent`] of a typed game, driven through the dynamic state.

use game_traits::{Agent, Game, GameRng, PlayerId};

use crate::dynamic::DynState;
use crate::typed::Typed;
use crate::{BotFailure, EnvError};
use game_traits::RuleSet;

/// A bot that takes a seat's decisions in a [`DynState`]. It is given the
/// state but, as every [`Agent`], chooses from the seat's observation and
/// the legal actions alone.
pub trait Opponent: Send {
    /// A short name for logs.
    fn name(&self) -> String;

    /// The id of `seat`'s next action in `state` (whose turn it is).
    fn choose(
        &mut self,
        state: &dyn DynState,
        seat: PlayerId,
        rng: &mut GameRng,
    ) -> Result<usize, EnvError>;
}

/// An [`Opponent`] from an [`Agent`] of game `G`.
pub struct AgentOpponent<G: Game> {
    agent: Box<dyn Agent<G> + Send>,
    legal: Vec<G::Action>,
}

impl<G: Game> AgentOpponent<G> {
    /// Plays `agent`'s choices.
    pub fn new(agent: Box<dyn Agent<G> + Send>) -> Self {
        AgentOpponent {
            agent,
            legal: Vec::new(),
        }
    }
}

impl<G: Game + game_traits::Encode + game_traits::Wire> Opponent for AgentOpponent<G> {
    fn name(&self) -> String {
        self.agent.name()
    }

    fn choose(
        &mut self,
        state: &dyn DynState,
        seat: PlayerId,
        rng: &mut GameRng,
    ) -> Result<usize, EnvError> {
        let typed = state
            .as_any()
            .downcast_ref::<Typed<G>>()
            .ok_or_else(|| EnvError::Bot {
                bot: self.agent.name(),
                failure: BotFailure::WrongGame,
            })?
            .state();
        typed.legal_actions(&mut self.legal);
        if self.legal.is_empty() {
            return Err(EnvError::NoDecision);
        }
        let action = self
            .agent
            .choose(&typed.observation(seat), &self.legal, rng);
        if !self.legal.contains(&action) {
            return Err(EnvError::Bot {
                bot: self.agent.name(),
                failure: BotFailure::Illegal(typed.rules().action_id(action) as u64),
            });
        }
        Ok(typed.rules().action_id(action))
    }
}

/// Makes a fresh opponent for each game slot of a batched environment.
pub type OpponentFactory = Box<dyn Fn() -> Box<dyn Opponent> + Send + Sync>;
