//! Whole random games per second on one core.
//!
//! `cargo bench -p tabletop-benches --bench cardwar -- --warm-up-time 1 --measurement-time 3`
//!
//! Besides criterion's wall-clock figure it prints the thread CPU time of a
//! fixed batch of games (from `/proc/thread-self/schedstat`, where
//! available), which stays meaningful on a loaded shared machine.

use std::hint::black_box;

use cardwar_core::{CardWar, Rules};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use game_traits::{random_playout, Game, GameRng};
use rand::{RngCore, SeedableRng};

#[path = "../../crates/cardwar-core/examples/support/wyrand.rs"]
mod wyrand;

/// Plays one game with uniformly random decisions; returns its length.
fn random_game<R: RngCore>(
    rules: &Rules,
    rng: &mut R,
    legal: &mut Vec<cardwar_core::Action>,
) -> u32 {
    let mut game = CardWar::new(rules).expect("default rules are valid");
    random_playout(&mut game, legal, rng, u32::MAX)
}

/// CPU time consumed by this thread so far, in nanoseconds.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Prints games and actions per CPU-second over a fixed batch of seeds,
/// each game with the generator `seeded` gives for its seed.
fn cpu_time<R: RngCore>(
    name: &str,
    rules: &Rules,
    legal: &mut Vec<cardwar_core::Action>,
    seeded: impl Fn(u64) -> R,
) {
    let Some(start) = thread_cpu_ns() else { return };
    let games = 20_000u64;
    let mut actions = 0u64;
    for seed in 0..games {
        let mut rng = seeded(seed);
        actions += u64::from(black_box(random_game(rules, &mut rng, legal)));
    }
    let Some(end) = thread_cpu_ns() else { return };
    let secs = (end - start) as f64 / 1e9;
    println!(
        "cardwar random games ({name}): {:.2} us CPU per game, {:.0} games per CPU-second, \
         {:.1} M actions per CPU-second, {:.0} actions per game",
        secs * 1e6 / games as f64,
        games as f64 / secs,
        actions as f64 / secs / 1e6,
        actions as f64 / games as f64
    );
}

fn bench(c: &mut Criterion) {
    let rules = Rules::default();
    let mut legal = Vec::with_capacity(32);
    cpu_time("ChaCha8", &rules, &mut legal, GameRng::seed_from_u64);
    cpu_time("WyRand", &rules, &mut legal, wyrand::WyRand::new);
    let mut rng = GameRng::seed_from_u64(1);
    let mut group = c.benchmark_group("cardwar");
    group.throughput(Throughput::Elements(1));
    group.bench_function("random_game", |b| {
        b.iter(|| random_game(&rules, &mut rng, &mut legal))
    });
    let mut fast = wyrand::WyRand::new(1);
    group.bench_function("random_game_wyrand", |b| {
        b.iter(|| random_game(&rules, &mut fast, &mut legal))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
