//! Batched steps per second of game-env's batched environment on Kuhn poker,
//! the engine alone (the `batch` bench measures the real games through the
//! umbrella crate's registry).

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use game_env::{BatchConfig, BatchEnv, StepBuffers, TypedGame};
use game_traits::kuhn::KuhnPoker;

fn kuhn(c: &mut Criterion) {
    let mut group = c.benchmark_group("batch/kuhn");
    for games in [1usize, 64, 1024] {
        let game = Arc::new(TypedGame::<KuhnPoker>::new(Default::default()).unwrap());
        let config = BatchConfig {
            games,
            seed: 1,
            threads: 1,
            ..Default::default()
        };
        let mut env = BatchEnv::new(game, config).unwrap();
        let mut buffers = StepBuffers::for_env(&env, true, true);
        env.reset(&mut buffers.output()).unwrap();
        let space = env.action_space();
        let mut actions = vec![0; games];
        group.throughput(Throughput::Elements(games as u64));
        group.bench_function(format!("{games} games, one thread"), |b| {
            b.iter(|| {
                for (a, mask) in actions.iter_mut().zip(buffers.masks.chunks(space)) {
                    *a = mask.iter().position(|&m| m).unwrap_or(0);
                }
                env.step(&actions, &mut buffers.output()).unwrap();
            })
        });
    }
    group.finish();
}

criterion_group!(benches, kuhn);
criterion_main!(benches);
