//! The per-game heuristic bots keep their promises at every decision of
//! many games, and beat random play.
#![cfg(any(feature = "battleline", feature = "cardwar", feature = "stratego"))]

use game_traits::{play_match, Agent, Game, GameRng, Outcome, RandomAgent};
use tabletop_rules::bots::BotSpec;
use tabletop_rules::registry::tables;

/// What a bot promises about its choice among the legal actions.
type Promise<G> = fn(
    &<G as Game>::Observation,
    &[<G as Game>::Action],
    <G as Game>::Action,
) -> Result<(), String>;

/// Wraps a bot and checks `promise(observation, legal, choice)` at each of
/// its decisions.
struct Checked<G: Game, A: Agent<G>> {
    bot: A,
    promise: Promise<G>,
    decisions: usize,
}

impl<G: Game, A: Agent<G>> Agent<G> for Checked<G, A> {
    fn name(&self) -> String {
        self.bot.name()
    }

    fn choose(
        &mut self,
        obs: &G::Observation,
        legal: &[G::Action],
        rng: &mut GameRng,
    ) -> G::Action {
        let choice = self.bot.choose(obs, legal, rng);
        if let Err(e) = (self.promise)(obs, legal, choice) {
            panic!("broken promise at\n{obs}\nchoice {choice}: {e}");
        }
        self.decisions += 1;
        choice
    }
}

fn check_games<G: Game, A: Agent<G> + Clone>(
    rules: &G::Rules,
    bot: A,
    promise: Promise<G>,
    games: u64,
) -> usize {
    let mut decisions = 0;
    for seed in 0..games {
        let mut checked = Checked::<G, A> {
            bot: bot.clone(),
            promise,
            decisions: 0,
        };
        let mut random = RandomAgent;
        let agents: &mut [&mut dyn Agent<G>] = if seed % 2 == 0 {
            &mut [&mut checked, &mut random]
        } else {
            &mut [&mut random, &mut checked]
        };
        play_match::<G>(rules, seed, agents).unwrap();
        decisions += checked.decisions;
    }
    decisions
}

#[test]
fn heuristic_bots_win_more_than_they_lose_against_random() {
    for table in tables().iter().filter(|t| t.has_heuristic()) {
        let (mut won, mut lost) = (0, 0);
        for seed in 0..60u64 {
            let seat = (seed % 2) as usize;
            let mut bots = [BotSpec::Random, BotSpec::Random];
            bots[seat] = BotSpec::Heuristic;
            match table.play(&bots, seed, false).unwrap().outcome {
                Outcome::Win(w) if w.index() == seat => won += 1,
                Outcome::Win(_) => lost += 1,
                Outcome::Draw => {}
            }
        }
        // Card war is mostly dice: a clear margin, not a rout.
        assert!(won > lost + 6, "{}: {won} won, {lost} lost", table.name());
    }
}

#[cfg(feature = "stratego")]
mod stratego {
    use super::*;
    use game_traits::PlayerId;
    use tabletop_rules::heuristics::stratego::{material_evaluation, StrategoHeuristic};
    use tabletop_rules::stratego::{Action, Fight, ObsCell, Observation, Rules, Stratego};

    /// The attacker would lose a fight against a known piece.
    fn loses_known_fight(obs: &Observation, action: Action) -> bool {
        let Action::Move(m) = action else {
            return false;
        };
        match (obs.cells[m.from.index()], obs.cells[m.to.index()]) {
            (
                ObsCell::Own { kind, .. },
                ObsCell::Foe {
                    kind: Some(foe), ..
                },
            ) => obs.rules.variant.fight(kind, foe) == Fight::DefenderWins,
            _ => false,
        }
    }

    fn never_attacks_a_known_stronger_piece(
        obs: &Observation,
        legal: &[Action],
        choice: Action,
    ) -> Result<(), String> {
        if loses_known_fight(obs, choice) && legal.iter().any(|&a| !loses_known_fight(obs, a)) {
            return Err("attacked a known stronger piece".into());
        }
        Ok(())
    }

    #[test]
    fn rule_stratego_heuristic_never_attacks_a_known_stronger_piece() {
        for rules in [Rules::srazhenie(), Rules::czech(), Rules::classic()] {
            let decisions = check_games::<Stratego, _>(
                &rules,
                StrategoHeuristic::default(),
                never_attacks_a_known_stronger_piece,
                6,
            );
            assert!(decisions > 500, "{decisions}");
        }
    }

    #[test]
    fn material_evaluation_is_even_at_the_start_and_zero_sum() {
        let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(3);
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
}

#[cfg(feature = "battleline")]
mod battleline {
    use super::*;
    use tabletop_rules::battleline::{Action, BattleLine, Observation, Rules};
    use tabletop_rules::heuristics::battleline::BattleLineHeuristic;

    fn claims_whenever_it_can(
        _: &Observation,
        legal: &[Action],
        choice: Action,
    ) -> Result<(), String> {
        let can_claim = legal.iter().any(|a| matches!(a, Action::Claim(_)));
        if can_claim && !matches!(choice, Action::Claim(_)) {
            return Err("a claim was legal but not made".into());
        }
        Ok(())
    }

    #[test]
    fn rule_battleline_heuristic_claims_whenever_the_proof_holds() {
        let decisions = check_games::<BattleLine, _>(
            &Rules::default(),
            BattleLineHeuristic,
            claims_whenever_it_can,
            8,
        );
        assert!(decisions > 300, "{decisions}");
    }
}

#[cfg(feature = "cardwar")]
mod cardwar {
    use super::*;
    use tabletop_rules::cardwar::{Action, CardWar, Observation, Rules};
    use tabletop_rules::heuristics::cardwar::CardWarHeuristic;

    fn lays_the_strongest_first(
        _: &Observation,
        legal: &[Action],
        choice: Action,
    ) -> Result<(), String> {
        let strongest = legal
            .iter()
            .filter_map(|a| match a {
                Action::Place(s) => Some(s.strength()),
                _ => None,
            })
            .max();
        match (strongest, choice) {
            (Some(best), Action::Place(s)) if s.strength() < best => {
                Err("laid a weaker card first".into())
            }
            (Some(_), Action::EndLine) => Err("kept a reserve".into()),
            _ => Ok(()),
        }
    }

    #[test]
    fn rule_cardwar_heuristic_lays_its_strongest_soldier_first() {
        let decisions = check_games::<CardWar, _>(
            &Rules::default(),
            CardWarHeuristic,
            lays_the_strongest_first,
            10,
        );
        assert!(decisions > 300, "{decisions}");
    }
}
