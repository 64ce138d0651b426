//! The heuristic bot keeps its promise at every decision and beats random
//! play with the seats alternated.

use game_traits::{play_match, Agent, Game, GameRng, Outcome, PlayerId, RandomAgent};
use rand::SeedableRng;
use stratego_core::{
    material_evaluation, Action, Fight, Heuristic, ObsCell, Observation, Rules, Stratego,
};

/// The attacker would lose a fight against a known piece.
fn loses_known_fight(obs: &Observation, action: Action) -> bool {
    let Action::Move(m) = action else {
        return false;
    };
    match (obs.cell(m.from), obs.cell(m.to)) {
        (
            ObsCell::Own { kind, .. },
            ObsCell::Foe {
                kind: Some(foe), ..
            },
        ) => obs.rules.variant.fight(kind, foe) == Fight::DefenderWins,
        _ => false,
    }
}

/// The bot, checked at each of its decisions.
struct Checked {
    bot: Heuristic,
    decisions: usize,
}

impl Agent<Stratego> for Checked {
    fn name(&self) -> String {
        self.bot.name()
    }

    fn choose(&mut self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        let choice = self.bot.choose(obs, legal, rng);
        assert!(legal.contains(&choice));
        if loses_known_fight(obs, choice) {
            assert!(
                legal.iter().all(|&a| loses_known_fight(obs, a)),
                "attacked a known stronger piece at\n{obs}\nwith {choice}"
            );
        }
        self.decisions += 1;
        choice
    }
}

#[test]
fn heuristic_never_attacks_a_known_stronger_piece_and_beats_random() {
    for rules in [Rules::srazhenie(), Rules::czech(), Rules::classic()] {
        let (mut won, mut lost, mut decisions) = (0, 0, 0);
        for seed in 0..16u64 {
            let mut bot = Checked {
                bot: Heuristic::default(),
                decisions: 0,
            };
            let mut random = RandomAgent;
            let seat = if seed % 2 == 0 {
                PlayerId::P0
            } else {
                PlayerId::P1
            };
            let agents: &mut [&mut dyn Agent<Stratego>; 2] = match seat {
                PlayerId::P0 => &mut [&mut bot, &mut random],
                PlayerId::P1 => &mut [&mut random, &mut bot],
            };
            let (end, _) = play_match::<Stratego>(&rules, seed, agents).unwrap();
            match end.outcome().expect("the game ended") {
                Outcome::Win(w) if w == seat => won += 1,
                Outcome::Win(_) => lost += 1,
                Outcome::Draw => {}
            }
            decisions += bot.decisions;
        }
        assert!(decisions > 500, "{decisions}");
        assert!(
            won > lost + 4,
            "{:?}: {won} won, {lost} lost",
            rules.variant
        );
    }
}

#[test]
fn material_evaluation_is_even_at_the_start_and_zero_sum() {
    let mut rng = GameRng::seed_from_u64(3);
    let mut state = Stratego::new(&Rules::classic()).unwrap();
    assert_eq!(material_evaluation(&state, PlayerId::P0), 0.5);
    let mut legal = Vec::new();
    let mut unequal = 0;
    while !state.is_terminal() {
        state.legal_actions(&mut legal);
        let a = Agent::<Stratego>::choose(
            &mut RandomAgent,
            &state.observation(PlayerId::P0),
            &legal,
            &mut rng,
        );
        state.apply(a).unwrap();
        let (e0, e1) = (
            material_evaluation(&state, PlayerId::P0),
            material_evaluation(&state, PlayerId::P1),
        );
        assert!((e0 + e1 - 1.0).abs() < 1e-9 && (0.0..=1.0).contains(&e0));
        unequal += usize::from(e0 != 0.5);
    }
    assert!(unequal > 0);
}
