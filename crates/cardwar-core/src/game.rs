//! The [`Game`] implementation: a thin adapter over the engine's own
//! operations.

use game_traits::{Game, Outcome, PlayerId, Turn};
use rand::Rng;

use crate::action::Action;
use crate::error::CardWarError;
use crate::observation::Observation;
use crate::rules::Rules;
use crate::state::{CardWar, Phase};
use crate::view::ActionView;
use game_traits::RuleSet;

impl Game for CardWar {
    type Rules = Rules;
    type Action = Action;
    type Observation = Observation;
    type Error = CardWarError;
    type ActionView = ActionView;

    const NAME: &'static str = "cardwar";
    const TITLE: &'static str = "Card War";

    fn new(rules: &Rules) -> Result<Self, CardWarError> {
        rules.validate()?;
        Ok(CardWar::start(*rules))
    }

    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn turn(&self) -> Turn {
        match self.public.phase {
            Phase::Lay { player, .. } | Phase::Pray { player } => Turn::Player(player),
            Phase::Over => Turn::Terminal,
            _ => Turn::Chance,
        }
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.list_legal(out);
    }

    /// A uniform legal action without writing the list: a card of the
    /// hand picked by its rank in the set (the listing's order), or the
    /// end of a free line as one more choice; the prayer question is a
    /// coin. The same actions with the same probabilities as the listing
    /// (the kit's chi-square test checks it), from one 32-bit word.
    fn sample_legal<R: Rng + ?Sized>(
        &self,
        _legal: &mut Vec<Action>,
        rng: &mut R,
    ) -> Option<Action> {
        self.sample_action(rng)
    }

    fn check_action(&self, action: Action) -> Result<(), CardWarError> {
        match self.illegal_reason(action) {
            None => Ok(()),
            Some(reason) => Err(CardWarError::IllegalAction { action, reason }),
        }
    }

    fn apply_unchecked(&mut self, action: Action) {
        // `step` ignores an action that does not fit, so the counts stay
        // exact even for a caller that breaks the contract.
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
        let total = self.chance_weights(|a, w| out.push((a, w as f64)));
        if total > 0 {
            for (_, p) in out.iter_mut() {
                *p /= total as f64;
            }
        }
    }

    fn sample_chance<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Action> {
        self.sample(rng)
    }

    fn observation(&self, player: PlayerId) -> Observation {
        self.observe(player)
    }

    fn determinize<R: Rng + ?Sized>(obs: &Observation, rng: &mut R) -> Result<Self, CardWarError> {
        CardWar::complete(obs, rng)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.public.outcome
    }

    fn move_count(&self) -> u32 {
        self.public.moves
    }
}
