//! The expert bot: the heuristic's play with a reserve of weak cards,
//! kept at every decision, and stronger than the heuristic.

mod common;

use cardwar_core::game_traits::{play_alternating, play_match, Agent};
use cardwar_core::{
    Action, CardWar, Expert, GameRng, Heuristic, LayKind, Observation, Phase, Rules, RESERVE_BELOW,
};

/// The expert, checking at each decision that it keeps its reserve rule
/// and otherwise plays as the heuristic does.
struct Checked {
    reserves: usize,
    decisions: usize,
}

impl Agent<CardWar> for Checked {
    fn name(&self) -> String {
        "checked expert".into()
    }

    fn choose(&mut self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        let choice = Expert.choose(obs, legal, rng);
        let free_attack = matches!(
            obs.public().phase,
            Phase::Lay {
                kind: LayKind::FreeAttack,
                ..
            }
        );
        let all_weak = obs.own().hand.iter().all(|s| s.strength() < RESERVE_BELOW);
        if free_attack && all_weak && legal.contains(&Action::EndLine) {
            assert_eq!(choice, Action::EndLine, "sent a weak card in");
            self.reserves += 1;
        } else {
            // Elsewhere it plays as the heuristic: the strongest soldier
            // first, a prayer at the first chance.
            common::assert_plays_as_the_heuristic(legal, choice);
        }
        self.decisions += 1;
        choice
    }
}

#[test]
fn expert_keeps_its_weak_cards_as_a_reserve() {
    let mut bot = Checked {
        reserves: 0,
        decisions: 0,
    };
    for seed in 0..20 {
        let mut heuristic = Heuristic;
        let agents: &mut [&mut dyn Agent<CardWar>; 2] = if seed % 2 == 0 {
            &mut [&mut bot, &mut heuristic]
        } else {
            &mut [&mut heuristic, &mut bot]
        };
        play_match::<CardWar>(&Rules::default(), seed, agents).unwrap();
    }
    assert!(bot.decisions > 500, "{}", bot.decisions);
    assert!(
        bot.reserves > 5,
        "the reserve rule applied {} times",
        bot.reserves
    );
}

/// Games the expert wins out of `games` against the heuristic, seats
/// alternating, each pair of games on the same seed.
fn score_against_heuristic(rules: &Rules, games: u64) -> f64 {
    let (mut expert, mut heuristic) = (Expert, Heuristic);
    play_alternating::<CardWar>(rules, &mut expert, &mut heuristic, games, 9000).unwrap()
}

#[test]
fn expert_beats_the_heuristic() {
    // The heuristic against itself scores 50 % give or take 3 points at
    // 1000 games (95 %); the expert scores about 60 % (docs/strength.md),
    // 591 of these 1000 games at commit time.
    let score = score_against_heuristic(&Rules::default(), 1000);
    eprintln!("expert scored {score} of 1000 against the heuristic");
    assert!(score >= 550.0, "expert scored {score} of 1000");
}
