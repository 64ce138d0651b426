//! The heuristic bot keeps its promise at every decision and beats random
//! play with the seats alternated.

mod common;

use cardwar_core::game_traits::{play_match, Agent, RandomAgent};
use cardwar_core::{Action, CardWar, GameRng, Heuristic, Observation, Outcome, PlayerId, Rules};

/// The heuristic, checking at each decision that it lays its strongest
/// soldier first and keeps no reserve.
struct Checked {
    decisions: usize,
}

impl Agent<CardWar> for Checked {
    fn name(&self) -> String {
        "checked heuristic".into()
    }

    fn choose(&mut self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        let choice = Heuristic.choose(obs, legal, rng);
        common::assert_plays_as_the_heuristic(legal, choice);
        self.decisions += 1;
        choice
    }
}

#[test]
fn heuristic_lays_its_strongest_soldier_first_and_prays_at_once() {
    let mut bot = Checked { decisions: 0 };
    for seed in 0..10 {
        let mut random = RandomAgent;
        let agents: &mut [&mut dyn Agent<CardWar>; 2] = if seed % 2 == 0 {
            &mut [&mut bot, &mut random]
        } else {
            &mut [&mut random, &mut bot]
        };
        play_match::<CardWar>(&Rules::default(), seed, agents).unwrap();
    }
    assert!(bot.decisions > 300, "{}", bot.decisions);
}

#[test]
fn heuristic_beats_random_play() {
    let games = 60;
    let mut wins = 0;
    for seed in 0..games {
        let (mut bot, mut random) = (Heuristic, RandomAgent);
        let seat = PlayerId::BOTH[seed as usize % 2];
        let agents: &mut [&mut dyn Agent<CardWar>; 2] = match seat {
            PlayerId::P0 => &mut [&mut bot, &mut random],
            PlayerId::P1 => &mut [&mut random, &mut bot],
        };
        let (end, _) = play_match::<CardWar>(&Rules::default(), seed, agents).unwrap();
        wins += u32::from(end.outcome() == Some(Outcome::Win(seat)));
    }
    assert!(wins * 100 >= 60 * games as u32, "{wins} wins of {games}");
}
