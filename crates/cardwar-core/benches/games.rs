//! Whole random games per second on one core.

use cardwar_core::{CardWar, Rules};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use game_traits::{random_playout, Game, GameRng};
use rand::SeedableRng;

/// Plays one game with uniformly random decisions; returns its length.
fn random_game(rules: &Rules, rng: &mut GameRng, legal: &mut Vec<cardwar_core::Action>) -> u32 {
    let mut game = CardWar::new(rules).expect("default rules are valid");
    random_playout(&mut game, legal, rng, u32::MAX)
}

fn bench(c: &mut Criterion) {
    let rules = Rules::default();
    let mut rng = GameRng::seed_from_u64(1);
    let mut legal = Vec::with_capacity(32);
    let mut group = c.benchmark_group("cardwar");
    group.throughput(Throughput::Elements(1));
    group.bench_function("random_game", |b| {
        b.iter(|| random_game(&rules, &mut rng, &mut legal))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
