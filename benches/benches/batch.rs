//! Batched steps per second of every game, with masks only and with masks
//! and tensors, for 1, 64 and 1,024 games, on one core and on all cores.
//! Each iteration is one batched step (chance and auto-resets inside) plus
//! the random masked policy that chose it; throughput counts learner steps.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::SeedableRng;
use tabletop_benches::random_masked;
use tabletop_rules::game_env::{BatchConfig, BatchEnv, StepBuffers};
use tabletop_rules::game_traits::GameRng;
use tabletop_rules::registry;

fn batch(c: &mut Criterion) {
    let registry = registry();
    for spec in ["stratego/classic", "battleline", "cardwar"] {
        let game = registry.load(spec).unwrap();
        let mut group = c.benchmark_group(format!("batch/{spec}"));
        for games in [1usize, 64, 1024] {
            for threads in [1usize, 0] {
                for tensors in [false, true] {
                    let config = BatchConfig {
                        games,
                        seed: 1,
                        threads,
                        ..Default::default()
                    };
                    let mut env = BatchEnv::new(game.clone(), config).unwrap();
                    let mut buffers = StepBuffers::for_env(&env, tensors, true);
                    env.reset(&mut buffers.output()).unwrap();
                    let space = env.action_space();
                    let mut actions = vec![0; games];
                    let mut legal = Vec::new();
                    let mut rng = GameRng::seed_from_u64(2);
                    group.throughput(Throughput::Elements(games as u64));
                    let name = format!(
                        "{games} games, {}, {}",
                        if threads == 1 {
                            "one core"
                        } else {
                            "all cores"
                        },
                        if tensors {
                            "masks and tensors"
                        } else {
                            "masks"
                        }
                    );
                    group.bench_function(name, |b| {
                        b.iter(|| {
                            random_masked(
                                &buffers.masks,
                                space,
                                &mut legal,
                                &mut rng,
                                &mut actions,
                            );
                            env.step(&actions, &mut buffers.output()).unwrap();
                        })
                    });
                }
            }
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = batch
}
criterion_main!(benches);
