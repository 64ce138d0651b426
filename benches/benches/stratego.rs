//! Move generation on mid-game positions and whole random games, per rule
//! set, with every rule on (two-square rule, no-attack limit, and for
//! Classic the more-squares rule).
//!
//! `cargo bench -p tabletop-benches --bench stratego -- --warm-up-time 1 --measurement-time 3`

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use game_traits::{random_playout, Game, GameRng};
use rand::{Rng, SeedableRng};
use stratego_core::{Action, Rules, Setup, Stratego};

fn all_rules_on() -> Vec<(&'static str, Rules)> {
    vec![
        ("srazhenie", Rules::srazhenie()),
        (
            "srazhenie_runners",
            Rules {
                runner_soldiers: true,
                ..Rules::srazhenie()
            },
        ),
        (
            "czech",
            Rules {
                no_attack_limit: Some(100),
                ..Rules::czech()
            },
        ),
        (
            "classic",
            Rules {
                no_attack_limit: Some(100),
                more_squares_rule: true,
                ..Rules::classic()
            },
        ),
    ]
}

fn start(rules: &Rules, seed: u64) -> Stratego {
    let mut rng = GameRng::seed_from_u64(seed);
    let a = Setup::shuffle(rules.variant, &mut rng);
    let b = Setup::shuffle(rules.variant, &mut rng);
    Stratego::new_with_setups(rules, &a, &b).expect("valid setups")
}

/// Plays random moves to the end; returns the number of moves made.
fn playout(game: &mut Stratego, rng: &mut GameRng, legal: &mut Vec<Action>) -> u32 {
    random_playout(game, legal, rng, u32::MAX)
}

fn midgame_positions(rules: &Rules) -> Vec<Stratego> {
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for seed in 0..64 {
        let mut game = start(rules, seed);
        let mut rng = GameRng::seed_from_u64(seed + 1000);
        for _ in 0..150 {
            if game.is_terminal() {
                break;
            }
            game.legal_actions(&mut legal);
            game.apply_unchecked(legal[rng.random_range(0..legal.len())]);
        }
        if !game.is_terminal() {
            out.push(game);
        }
    }
    out
}

fn bench_movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    for (name, rules) in all_rules_on() {
        let positions = midgame_positions(&rules);
        group.throughput(Throughput::Elements(positions.len() as u64));
        let mut legal = Vec::with_capacity(128);
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut total = 0;
                for g in &positions {
                    g.legal_actions(&mut legal);
                    total += legal.len();
                }
                total
            })
        });
    }
    group.finish();
}

/// One uniform legal move drawn on each of the 64 mid-game positions (a
/// random set, not one position repeated): the mask sampler that
/// `random_playout` uses, beside the listing above.
fn bench_sample(c: &mut Criterion) {
    let mut group = c.benchmark_group("sample_legal");
    for (name, rules) in all_rules_on() {
        let positions = midgame_positions(&rules);
        group.throughput(Throughput::Elements(positions.len() as u64));
        let mut legal = Vec::with_capacity(128);
        let mut rng = GameRng::seed_from_u64(5);
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut n = 0;
                for g in &positions {
                    n += usize::from(g.sample_legal(&mut legal, &mut rng).is_some());
                }
                n
            })
        });
    }
    group.finish();
}

/// Human setups from the Gravon archive, read in place (never copied into
/// the repository); `None` when the file is absent.
fn gravon_setups() -> Option<Vec<Setup>> {
    let path = std::env::var_os("STRATEGO_SETUPS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../shared/data/stratego/classic-human-setups.txt"
            )
            .into()
        });
    let text = std::fs::read_to_string(path).ok()?;
    Some(
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .take(16)
            .filter_map(|l| Setup::from_gravon(l).ok())
            .collect(),
    )
}

fn bench_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_game");
    group.sample_size(10);
    let mut sets: Vec<(&str, Rules, Vec<Stratego>)> = all_rules_on()
        .into_iter()
        .map(|(name, rules)| (name, rules, (0..8).map(|s| start(&rules, s)).collect()))
        .collect();
    match gravon_setups() {
        Some(setups) if setups.len() >= 16 => {
            let rules = all_rules_on()[3].1;
            let starts = setups
                .chunks(2)
                .filter_map(|p| Stratego::new_with_setups(&rules, &p[0], &p[1]).ok())
                .collect();
            sets.push(("classic_gravon_setups", rules, starts));
        }
        _ => println!("Gravon setups absent: skipping random_game/classic_gravon_setups"),
    }
    for (name, _rules, starts) in sets {
        let seeds: Vec<u64> = (0..starts.len() as u64).collect();
        let mut legal = Vec::with_capacity(128);
        let total: u32 = starts
            .iter()
            .zip(&seeds)
            .map(|(g, &s)| playout(&mut g.clone(), &mut GameRng::seed_from_u64(s), &mut legal))
            .sum();
        group.throughput(Throughput::Elements(total as u64));
        group.bench_function(name, |b| {
            b.iter_batched(
                || starts.clone(),
                |games| {
                    let mut n = 0;
                    for (mut g, &s) in games.into_iter().zip(&seeds) {
                        n += playout(&mut g, &mut GameRng::seed_from_u64(s), &mut legal);
                    }
                    n
                },
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench_movegen, bench_sample, bench_games);
criterion_main!(benches);
