//! The [`Game`] implementation: a thin adapter over the engine.

use game_traits::{Game, Outcome, PlayerId, Turn};
use rand::Rng;

use crate::action::Action;
use crate::error::StrategoError;
use crate::observation::Observation;
use crate::rules::Rules;
use crate::setup::SETUP_SQUARES;
use crate::state::Stratego;
use crate::view::ActionView;
use game_traits::RuleSet;

/// Number of setup decisions of a game (40 per player).
pub const SETUP_ACTIONS: u32 = 2 * SETUP_SQUARES as u32;

impl Stratego {
    /// The listing path of [`Game::sample_legal`] (setup phase, a chasing
    /// player to move): out of line and cold, so that the hot mask path
    /// of a playout step saves and restores no registers for it.
    #[cold]
    #[inline(never)]
    fn sample_listed<R: Rng + ?Sized>(
        &self,
        legal: &mut Vec<Action>,
        rng: &mut R,
    ) -> Option<Action> {
        if !matches!(self.turn(), Turn::Player(_)) {
            return None;
        }
        self.list_legal(legal);
        if legal.is_empty() {
            return None;
        }
        Some(legal[game_traits::chance::uniform_index(legal.len(), rng)])
    }
}

impl Game for Stratego {
    type Rules = Rules;
    type Action = Action;
    type Observation = Observation;
    type Error = StrategoError;
    type ActionView = ActionView;

    const NAME: &'static str = "stratego";
    const TITLE: &'static str = "Stratego";

    fn new(rules: &Rules) -> Result<Self, StrategoError> {
        rules.validate()?;
        Ok(Stratego::start(rules))
    }

    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn turn(&self) -> Turn {
        if self.awaits_draw() {
            return Turn::Chance;
        }
        match self.current_player() {
            Some(p) => Turn::Player(p),
            None => Turn::Terminal,
        }
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.list_legal(out);
    }

    /// Draws on masks without writing the list (see the `sample` module),
    /// uniform over exactly the listed actions; lists and picks in the
    /// setup phase and while the player to move chases.
    fn sample_legal<R: Rng + ?Sized>(
        &self,
        legal: &mut Vec<Action>,
        rng: &mut R,
    ) -> Option<Action> {
        if self.end.is_none() && self.first.is_some() && self.in_play() {
            let p = self.to_move;
            if self.samples_on_masks(p) {
                return self.sample_action(p, rng);
            }
        }
        self.sample_listed(legal, rng)
    }

    fn check_action(&self, action: Action) -> Result<(), StrategoError> {
        match self.illegal_reason(action) {
            None => Ok(()),
            Some(reason) => Err(StrategoError::IllegalAction { action, reason }),
        }
    }

    fn is_legal(&self, action: Action) -> bool {
        self.is_legal_action(action)
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
        if self.awaits_draw() {
            out.extend(PlayerId::BOTH.map(|p| (Action::Start(p), 0.5)));
        }
    }

    fn sample_chance<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Action> {
        self.awaits_draw()
            .then(|| Action::Start(PlayerId::BOTH[usize::from(rng.random::<bool>())]))
    }

    fn observation(&self, player: PlayerId) -> Observation {
        self.observe(player)
    }

    fn determinize<R: Rng + ?Sized>(
        observation: &Observation,
        rng: &mut R,
    ) -> Result<Self, StrategoError> {
        Stratego::complete(observation, rng)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.end.map(|e| match e.winner {
            Some(w) => Outcome::Win(w),
            None => Outcome::Draw,
        })
    }

    fn move_count(&self) -> u32 {
        let draw = self.rules.fixed_first_player().is_none() && self.first.is_some();
        self.placed.values().map(|&n| u32::from(n)).sum::<u32>() + self.moves + u32::from(draw)
    }
}
