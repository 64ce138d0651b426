//! The [`Game`] implementation: a thin adapter over the engine.

use game_traits::{Game, Outcome, PlayerId, Turn};
use rand::Rng;

use crate::action::Action;
use crate::error::BattleLineError;
use crate::observation::Observation;
use crate::rules::Rules;
use crate::state::{BattleLine, Phase};
use crate::view::ActionView;

impl Game for BattleLine {
    type Rules = Rules;
    type Action = Action;
    type Observation = Observation;
    type Error = BattleLineError;
    type ActionView = ActionView;

    const NAME: &'static str = "battleline";
    const TITLE: &'static str = "Battle Line";

    fn new(rules: &Rules) -> Result<Self, BattleLineError> {
        Ok(BattleLine::start(*rules))
    }

    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn turn(&self) -> Turn {
        match self.table.phase {
            Phase::Over => Turn::Terminal,
            Phase::Setup | Phase::Deal(_) => Turn::Chance,
            _ => Turn::Player(self.table.player),
        }
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.list_legal(out);
    }

    /// Draws without writing the list: plays decoded from counts, claims
    /// proved only when drawn (see `sample.rs`).
    fn sample_legal<R: Rng + ?Sized>(
        &self,
        _legal: &mut Vec<Action>,
        rng: &mut R,
    ) -> Option<Action> {
        self.sample_action(rng)
    }

    fn check_action(&self, action: Action) -> Result<(), BattleLineError> {
        match self.illegal_reason(action) {
            None => Ok(()),
            Some(reason) => Err(BattleLineError::IllegalAction { action, reason }),
        }
    }

    fn is_legal(&self, action: Action) -> bool {
        self.illegal_reason(action).is_none()
    }

    fn apply_unchecked(&mut self, action: Action) {
        self.step(action);
    }

    fn action_view(&self, viewer: PlayerId, action: Action) -> ActionView {
        self.view(viewer, action)
    }

    fn narrate(
        viewer: PlayerId,
        before: &Observation,
        view: &ActionView,
        after: &Observation,
    ) -> String {
        game_traits::narrate_events::<Self>(viewer, before, view, after)
    }

    fn chance_outcomes(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
        let Some(pool) = self.chance_pool() else {
            return;
        };
        let p = 1.0 / pool.len() as f64;
        out.extend(pool.iter().map(|c| (Action::Deal(c), p)));
    }

    /// Picks the `k`-th card of the deck without listing it (see
    /// `sample.rs`).
    fn sample_chance<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Action> {
        self.sample_deal(rng)
    }

    fn observation(&self, player: PlayerId) -> Observation {
        self.observe(player)
    }

    fn determinize<R: Rng + ?Sized>(
        observation: &Observation,
        rng: &mut R,
    ) -> Result<Self, BattleLineError> {
        BattleLine::complete(observation, rng)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.table.outcome
    }

    fn move_count(&self) -> u32 {
        self.table.moves
    }
}
