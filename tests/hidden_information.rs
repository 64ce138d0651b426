//! The search bots see only their observation, in every real game: run on
//! the true state's observation and on that of another state the player
//! cannot tell from it, with the same seed, they search identically.
#![cfg(any(feature = "battleline", feature = "cardwar", feature = "stratego"))]

use game_agents::{Budget, FlatMonteCarlo, FlatMonteCarloConfig, Ismcts, IsmctsConfig};
use game_traits::{Agent, Game, GameRng, RandomAgent, Turn};
use rand::SeedableRng;

/// Decision points of random games under `rules`, paired with another state
/// that gives the deciding player the same observation.
fn twins<G: Game>(rules: &G::Rules, games: u64) -> Vec<(G, G)> {
    let mut pairs = Vec::new();
    let mut legal = Vec::new();
    for seed in 0..games {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut state = G::new(rules).unwrap();
        let stop = 20 + 37 * seed as usize;
        for step in 0.. {
            match state.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let a = state.sample_chance(&mut rng).unwrap();
                    state.apply(a).unwrap();
                }
                Turn::Player(p) => {
                    let obs = state.observation(p);
                    if step >= stop {
                        let twin =
                            G::determinize(&obs, &mut GameRng::seed_from_u64(seed + 99)).unwrap();
                        assert_eq!(twin.observation(p), obs);
                        pairs.push((state, twin));
                        break;
                    }
                    state.legal_actions(&mut legal);
                    let a = Agent::<G>::choose(&mut RandomAgent, &obs, &legal, &mut rng);
                    state.apply(a).unwrap();
                }
            }
        }
    }
    pairs
}

fn check<G: Game>(rules: &G::Rules) {
    let pairs = twins::<G>(rules, 6);
    assert!(pairs.len() >= 3, "{} decision points", pairs.len());
    let mut differ = 0;
    for (i, (state, twin)) in pairs.iter().enumerate() {
        differ += usize::from(state != twin);
        let Turn::Player(p) = state.turn() else {
            unreachable!("twins are decision points")
        };
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let mut twin_legal = Vec::new();
        twin.legal_actions(&mut twin_legal);
        assert_eq!(
            legal, twin_legal,
            "the legal actions are part of what the player knows"
        );
        let config = IsmctsConfig {
            budget: Budget::Iterations(40),
            playout_limit: Some(60),
            ..IsmctsConfig::default()
        };
        let seed = || GameRng::seed_from_u64(i as u64);
        let mut bot = Ismcts::<G>::new(config);
        let a = bot.search(&state.observation(p), &legal, &mut seed());
        let b = bot.search(&twin.observation(p), &legal, &mut seed());
        assert_eq!(a, b, "{}: ISMCTS searched differently", G::NAME);
        let mut flat = FlatMonteCarlo::<G>::new(FlatMonteCarloConfig {
            budget: Budget::Iterations(40),
            playout_limit: Some(60),
        });
        let a = flat.choose(&state.observation(p), &legal, &mut seed());
        let b = flat.choose(&twin.observation(p), &legal, &mut seed());
        assert_eq!(a, b, "{}: flat Monte Carlo chose differently", G::NAME);
    }
    // The check means something only if the twins hide different things.
    assert!(
        differ > 0,
        "{}: no twin differed from the true state",
        G::NAME
    );
}

#[cfg(feature = "battleline")]
#[test]
fn search_bots_never_read_the_true_state_in_battleline() {
    check::<tabletop_rules::battleline::BattleLine>(&Default::default());
}

#[cfg(feature = "stratego")]
#[test]
fn search_bots_never_read_the_true_state_in_stratego() {
    use tabletop_rules::stratego::Rules;
    for rules in [Rules::srazhenie(), Rules::czech(), Rules::classic()] {
        check::<tabletop_rules::stratego::Stratego>(&rules);
    }
}

#[cfg(feature = "cardwar")]
#[test]
fn search_bots_never_read_the_true_state_in_cardwar() {
    check::<tabletop_rules::cardwar::CardWar>(&Default::default());
}
