//! The heuristic bot keeps its promises and beats random play with the
//! seats alternated.

use battleline_core::game_traits::{play_match, Agent, GameRng, RandomAgent};
use battleline_core::{Action, BattleLine, Heuristic, Observation, Outcome, PlayerId, Rules};

/// Checks at each decision that a provable claim is taken.
struct Checked(Heuristic, usize);

impl Agent<BattleLine> for Checked {
    fn name(&self) -> String {
        self.0.name()
    }

    fn choose(&mut self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        let choice = self.0.choose(obs, legal, rng);
        assert!(legal.contains(&choice));
        if legal.iter().any(|a| matches!(a, Action::Claim(_))) {
            assert!(
                matches!(choice, Action::Claim(_)),
                "a provable claim was left: {choice}\n{obs}"
            );
        }
        self.1 += 1;
        choice
    }
}

#[test]
fn heuristic_beats_random_with_seats_alternated() {
    for rules in [Rules::default(), Rules::movable_environment()] {
        let (mut won, mut lost, mut decisions) = (0, 0, 0);
        for seed in 0..40u64 {
            let mut bot = Checked(Heuristic, 0);
            let mut random = RandomAgent;
            let seat = PlayerId::BOTH[(seed % 2) as usize];
            let agents: &mut [&mut dyn Agent<BattleLine>; 2] = if seat == PlayerId::P0 {
                &mut [&mut bot, &mut random]
            } else {
                &mut [&mut random, &mut bot]
            };
            let (game, _) = play_match::<BattleLine>(&rules, seed, agents).unwrap();
            match game.table().outcome() {
                Some(Outcome::Win(w)) if w == seat => won += 1,
                Some(Outcome::Win(_)) => lost += 1,
                _ => {}
            }
            decisions += bot.1;
        }
        assert!(decisions > 0);
        assert!(won > 3 * lost, "won {won}, lost {lost}");
    }
}
