//! The [`Game`] implementation.

use game_traits::{Game, Outcome, PlayerId, Turn};
use rand::Rng;

use crate::action::{Action, ACTION_SPACE};
use crate::error::CardWarError;
use crate::observation::Observation;
use crate::rules::Rules;
use crate::state::{CardWar, Phase};

/// Actions a round can take at most: two 2d6 and 48 draws; per battle 49
/// placements, at most 51 fights (each kills a card: 24 + 24 soldiers and
/// 3 guards) of two dice, and two prayer questions per pairing of cards.
const ROUND_BOUND: u32 = 50 + 2 * (49 + 51 * 2 + 52 * 2);
/// Both prayers with all their chance events, plus the fights of the (at
/// most 12) cards they bring back from a pile into a battle where they may
/// already have died once: two questions and two dice each.
const PRAYERS_BOUND: u32 = 2 * (2 + 1 + 6) + 12 * 4;

impl Game for CardWar {
    type Rules = Rules;
    type Action = Action;
    type Observation = Observation;
    type Error = CardWarError;

    const NAME: &'static str = "cardwar";

    fn new(rules: &Rules) -> Result<Self, CardWarError> {
        rules.validate()?;
        Ok(CardWar::start(*rules))
    }

    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn num_players(_: &Rules) -> usize {
        2
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

    fn is_legal(&self, action: Action) -> bool {
        self.legal(action)
    }

    fn apply(&mut self, action: Action) -> Result<(), CardWarError> {
        if !self.legal(action) {
            return Err(CardWarError::IllegalAction(action));
        }
        self.step(action);
        Ok(())
    }

    fn apply_unchecked(&mut self, action: Action) {
        // `step` ignores an action that does not fit, so the counts stay
        // exact even for a caller that breaks the contract.
        self.step(action);
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
        CardWar::deal(obs, rng)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.public.outcome
    }

    fn move_count(&self) -> u32 {
        self.public.moves
    }

    fn max_game_length(rules: &Rules) -> u32 {
        2 * rules.aside as u32 + 2 + PRAYERS_BOUND + rules.max_rounds as u32 * ROUND_BOUND
    }

    fn action_space(_: &Rules) -> usize {
        ACTION_SPACE
    }

    fn action_id(_: &Rules, action: Action) -> usize {
        action.id()
    }

    fn action_from_id(_: &Rules, id: usize) -> Option<Action> {
        Action::from_id(id)
    }
}
