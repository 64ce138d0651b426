//! Decisions per second of the search bots on Kuhn poker (the per-game
//! figures come from the arena).

use criterion::{criterion_group, criterion_main, Criterion};
use game_agents::{Budget, FlatMonteCarlo, FlatMonteCarloConfig, Ismcts, IsmctsConfig};
use game_traits::kuhn::{KuhnAction, KuhnPoker, KuhnRules};
use game_traits::RuleSet;
use game_traits::{Agent, Game, GameRng, PlayerId};
use rand::SeedableRng;

fn bench(c: &mut Criterion) {
    let mut state = KuhnPoker::new(&KuhnRules::default()).unwrap();
    state.apply(state_deal(0)).unwrap();
    state.apply(state_deal(2)).unwrap();
    let observation = state.observation(PlayerId::P0);
    let legal = [KuhnAction::Pass, KuhnAction::Bet];
    let mut ismcts = Ismcts::<KuhnPoker>::new(IsmctsConfig {
        budget: Budget::Iterations(1000),
        ..IsmctsConfig::default()
    });
    let mut rng = GameRng::seed_from_u64(1);
    c.bench_function("ismcts_kuhn_1000_iterations", |b| {
        b.iter(|| ismcts.choose(&observation, &legal, &mut rng))
    });
    let mut flat = FlatMonteCarlo::<KuhnPoker>::new(FlatMonteCarloConfig {
        budget: Budget::Iterations(1000),
        ..FlatMonteCarloConfig::default()
    });
    c.bench_function("flat_mc_kuhn_1000_playouts", |b| {
        b.iter(|| flat.choose(&observation, &legal, &mut rng))
    });
}

fn state_deal(id: usize) -> KuhnAction {
    KuhnRules::default().action_from_id(id).expect("a deal id")
}

criterion_group!(benches, bench);
criterion_main!(benches);
