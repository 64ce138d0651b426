//! The generic bots on Kuhn poker: they see only observations, they are
//! reproducible, and they beat random play.

use game_agents::{
    Budget, FlatMonteCarlo, FlatMonteCarloConfig, Ismcts, IsmctsConfig, RandomAgent,
};
use game_traits::kuhn::{Card, KuhnAction, KuhnPoker, KuhnRules};
use game_traits::{play_match, Agent, Game, GameRng, PlayerId, Turn};
use proptest::prelude::*;
use rand::SeedableRng;

fn ismcts(iterations: u32) -> Ismcts<KuhnPoker> {
    Ismcts::new(IsmctsConfig {
        budget: Budget::Iterations(iterations),
        ..IsmctsConfig::default()
    })
}

/// A decision point reached by random play from `seed`, with `steps`
/// decisions made before it (fewer if the game ends sooner).
fn decision_point(seed: u64, steps: usize) -> Option<(KuhnPoker, PlayerId)> {
    let mut rng = GameRng::seed_from_u64(seed);
    let mut state = KuhnPoker::new(&KuhnRules::default()).unwrap();
    let mut legal = Vec::new();
    let mut made = 0;
    loop {
        match state.turn() {
            Turn::Terminal => return None,
            Turn::Chance => {
                let a = state.sample_chance(&mut rng).unwrap();
                state.apply(a).unwrap();
            }
            Turn::Player(p) if made == steps => return Some((state, p)),
            Turn::Player(_) => {
                state.legal_actions(&mut legal);
                let a = Agent::<KuhnPoker>::choose(
                    &mut RandomAgent,
                    &state.observation(PlayerId::P0),
                    &legal,
                    &mut rng,
                );
                state.apply(a).unwrap();
                made += 1;
            }
        }
    }
}

/// Mean return of `bot` against random over `games` games, seats
/// alternated, and the half-width of its 95% confidence interval.
fn mean_against_random(bot: &mut dyn Agent<KuhnPoker>, games: u64) -> (f64, f64) {
    let rules = KuhnRules::default();
    let mut random = RandomAgent;
    let mut returns = Vec::new();
    for seed in 0..games {
        let seat = PlayerId::BOTH[(seed % 2) as usize];
        let agents: &mut [&mut dyn Agent<KuhnPoker>; 2] = if seat == PlayerId::P0 {
            &mut [&mut *bot, &mut random]
        } else {
            &mut [&mut random, &mut *bot]
        };
        let (state, _) = play_match::<KuhnPoker>(&rules, seed, agents).unwrap();
        returns.push(state.returns(seat));
    }
    let n = returns.len() as f64;
    let mean = returns.iter().sum::<f64>() / n;
    let var = returns.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

#[test]
fn ismcts_never_reads_the_true_state() {
    let mut checked = 0;
    for seed in 0..60 {
        let Some((state, player)) = decision_point(seed, (seed % 3) as usize) else {
            continue;
        };
        let observation = state.observation(player);
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        // A different world the player cannot tell from the true one.
        let other =
            KuhnPoker::determinize(&observation, &mut GameRng::seed_from_u64(seed + 1000)).unwrap();
        assert_eq!(other.observation(player), observation);
        let mut other_legal = Vec::new();
        other.legal_actions(&mut other_legal);

        let mut bot = ismcts(300);
        let from_true = bot.search(&observation, &legal, &mut GameRng::seed_from_u64(seed));
        let from_other = bot.search(
            &other.observation(player),
            &other_legal,
            &mut GameRng::seed_from_u64(seed),
        );
        assert_eq!(from_true, from_other, "seed {seed}");
        let a = bot.choose(&observation, &legal, &mut GameRng::seed_from_u64(seed));
        let b = bot.choose(
            &other.observation(player),
            &other_legal,
            &mut GameRng::seed_from_u64(seed),
        );
        assert_eq!(a, b, "seed {seed}");
        checked += 1;
    }
    assert!(checked > 30, "only {checked} decision points");
}

#[test]
fn ismcts_beats_random_on_kuhn_poker() {
    let (mean, half) = mean_against_random(&mut ismcts(300), 600);
    assert!(mean - half > 0.0, "mean {mean:.3} ± {half:.3}");
}

#[test]
fn flat_monte_carlo_beats_random_on_kuhn_poker() {
    let mut bot = FlatMonteCarlo::new(FlatMonteCarloConfig {
        budget: Budget::Iterations(200),
        ..FlatMonteCarloConfig::default()
    });
    let (mean, half) = mean_against_random(&mut bot, 600);
    assert!(mean - half > 0.0, "mean {mean:.3} ± {half:.3}");
}

#[test]
fn ismcts_calls_with_the_king_and_folds_with_the_jack() {
    let rules = KuhnRules::default();
    for (card, answer) in [
        (Card::King, KuhnAction::Bet),
        (Card::Jack, KuhnAction::Pass),
    ] {
        // The Queen is the other card in both spots: only the held card differs.
        let other = Card::Queen;
        let mut state = KuhnPoker::new(&rules).unwrap();
        for a in [
            KuhnAction::Deal(other),
            KuhnAction::Deal(card),
            KuhnAction::Bet,
        ] {
            state.apply(a).unwrap();
        }
        let legal = [KuhnAction::Pass, KuhnAction::Bet];
        for seed in 0..10 {
            let choice = ismcts(300).choose(
                &state.observation(PlayerId::P1),
                &legal,
                &mut GameRng::seed_from_u64(seed),
            );
            assert_eq!(choice, answer, "{card:?}, seed {seed}");
        }
    }
}

#[test]
fn time_budget_searches_at_least_once() {
    let (state, player) = decision_point(3, 0).unwrap();
    let mut bot = Ismcts::<KuhnPoker>::new(IsmctsConfig {
        budget: Budget::Time(std::time::Duration::ZERO),
        ..IsmctsConfig::default()
    });
    let legal = [KuhnAction::Pass, KuhnAction::Bet];
    let stats = bot.search(
        &state.observation(player),
        &legal,
        &mut GameRng::seed_from_u64(1),
    );
    assert_eq!(stats.iter().map(|s| s.1).sum::<u32>(), 1);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any reachable decision, any seed, any budget: the choice is legal and
    /// a pure function of (observation, seed); the visit counts add up to
    /// the iterations run.
    #[test]
    fn bots_choose_legal_reproducible_actions(seed in any::<u64>(), steps in 0usize..3, iterations in 0u32..60) {
        if let Some((state, player)) = decision_point(seed, steps) {
            let observation = state.observation(player);
            let mut legal = Vec::new();
            state.legal_actions(&mut legal);
            let mut bot = ismcts(iterations);
            let stats = bot.search(&observation, &legal, &mut GameRng::seed_from_u64(seed));
            prop_assert_eq!(stats.iter().map(|s| s.1).sum::<u32>(), iterations);
            let a = bot.choose(&observation, &legal, &mut GameRng::seed_from_u64(seed));
            let b = ismcts(iterations).choose(&observation, &legal, &mut GameRng::seed_from_u64(seed));
            prop_assert_eq!(a, b);
            prop_assert!(legal.contains(&a));
            let mut flat = FlatMonteCarlo::<KuhnPoker>::new(FlatMonteCarloConfig {
                budget: Budget::Iterations(iterations),
                ..FlatMonteCarloConfig::default()
            });
            prop_assert!(legal.contains(&flat.choose(&observation, &legal, &mut GameRng::seed_from_u64(seed))));
        }
    }
}
