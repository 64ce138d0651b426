//! Benchmarks of the two hot paths, of whole random games and of the
//! expert's decision (the cost of its futures).
//!
//! `cargo bench -p tabletop-benches --bench battleline -- --warm-up-time 1 --measurement-time 3`

#[path = "../../crates/battleline-core/tests/reference/mod.rs"]
mod reference;

use std::hint::black_box;
use std::time::Instant;

use battleline_core::{
    check_claim, formation_strength, formation_strength_unseen, BattleLine, Card, CardSet,
    ClaimCheck, Environment, FormationOrder, Rules, Tactic,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use game_traits::{random_playout, Game, GameRng, PlayerId};
use rand::SeedableRng;

/// Plays one game with uniformly random legal actions; returns its length.
fn random_game(rules: &Rules, seed: u64, legal: &mut Vec<battleline_core::Action>) -> usize {
    let mut rng = GameRng::seed_from_u64(seed);
    let mut s = BattleLine::new(rules).expect("valid rules");
    random_playout(&mut s, legal, &mut rng, u32::MAX) as usize
}

#[path = "../../crates/battleline-core/examples/support/positions.rs"]
mod positions;

use positions::{midgame_positions, t};

#[path = "../../crates/battleline-core/examples/support/expert_positions.rs"]
mod expert_positions;

fn formation(c: &mut Criterion) {
    let env = Environment::default();
    let mud = Environment {
        fog: false,
        mud: true,
    };
    let o = FormationOrder::Text;
    let plain = [t(0, 4), t(0, 5), t(0, 3)];
    let host = [t(1, 9), t(4, 2), t(3, 5)];
    let wild1 = [t(2, 9), Card::tactic(Tactic::Alexander), t(2, 7)];
    let wild3 = [
        Card::tactic(Tactic::Darius),
        t(5, 4),
        Card::tactic(Tactic::ShieldBearers),
        Card::tactic(Tactic::CompanionCavalry),
    ];
    let mut g = c.benchmark_group("formation_strength");
    g.bench_function("no_wild_wedge", |b| {
        b.iter(|| formation_strength(black_box(&plain), env, o))
    });
    g.bench_function("no_wild_host", |b| {
        b.iter(|| formation_strength(black_box(&host), env, o))
    });
    g.bench_function("leader", |b| {
        b.iter(|| formation_strength(black_box(&wild1), env, o))
    });
    g.bench_function("mud_three_wilds", |b| {
        b.iter(|| formation_strength(black_box(&wild3), mud, o))
    });
    // WildCards::UnseenOnly: the Red 8 the Leader would copy is on the table.
    let seen: CardSet = [t(2, 8)].into_iter().collect();
    g.bench_function("leader_unseen", |b| {
        b.iter(|| formation_strength_unseen(black_box(&wild1), env, o, seen))
    });
    g.bench_function("mud_three_wilds_unseen", |b| {
        b.iter(|| formation_strength_unseen(black_box(&wild3), mud, o, seen))
    });
    g.bench_function("brute_force_leader", |b| {
        b.iter(|| reference::strength(black_box(&wild1), env, o))
    });
    // Random sets (per formation: the time divided by the set's size).
    let plain_set = positions::random_plain_formations(4096, 1);
    let wild_set = positions::random_wild_formations(4096, 1);
    g.throughput(Throughput::Elements(plain_set.len() as u64));
    g.bench_function("random_no_wild_set", |b| {
        b.iter(|| {
            plain_set
                .iter()
                .filter(|f| formation_strength(black_box(&f[..]), env, o).is_some())
                .count()
        })
    });
    g.throughput(Throughput::Elements(wild_set.len() as u64));
    g.bench_function("random_wild_set", |b| {
        b.iter(|| {
            wild_set
                .iter()
                .filter(|(f, e)| formation_strength(black_box(f), *e, o).is_some())
                .count()
        })
    });
    g.finish();
}

fn proof(c: &mut Criterion) {
    let rules = Rules::default();
    let positions = midgame_positions(2000);
    // The median and maximum per position, which criterion's mean over
    // the whole set does not show.
    let mut times: Vec<f64> = positions
        .iter()
        .map(|(f, p, a)| {
            // The best of three rounds, so that a preemption on the shared
            // machine does not count as the solver's time.
            (0..3)
                .map(|_| {
                    let reps = 100;
                    let start = Instant::now();
                    for _ in 0..reps {
                        black_box(check_claim(black_box(f), *p, *a, &rules));
                    }
                    start.elapsed().as_nanos() as f64 / reps as f64
                })
                .fold(f64::INFINITY, f64::min)
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let holds = positions
        .iter()
        .filter(|(f, p, a)| check_claim(f, *p, *a, &rules).holds())
        .count();
    println!(
        "flag proof on {} mid-game positions ({} hold): median {:.0} ns, p90 {:.0} ns, max {:.0} ns",
        times.len(),
        holds,
        times[times.len() / 2],
        times[times.len() * 9 / 10],
        times[times.len() - 1]
    );

    let mut g = c.benchmark_group("flag_proof");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("midgame_set", |b| {
        b.iter(|| {
            let mut n = 0;
            for (f, p, a) in &positions {
                n += check_claim(f, *p, *a, &rules).holds() as u32;
            }
            n
        })
    });
    // The same rows as the fixed positions below, on random sets.
    for (name, set) in [
        ("holding_top_set", positions::random_top_positions(2000, 1)),
        (
            "hard_holding_set",
            positions::random_hard_positions(2000, 1),
        ),
    ] {
        g.throughput(Throughput::Elements(set.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut n = 0;
                for (f, p, a) in &set {
                    n += check_claim(black_box(f), *p, *a, &rules).holds() as u32;
                }
                n
            })
        });
    }
    g.throughput(Throughput::Elements(1));
    for (name, (f, a)) in [
        ("holding_three_missing", positions::top_three_missing()),
        ("holding_mud_wilds", positions::top_mud_wilds()),
        ("hard_three_missing", positions::hard_three_missing()),
        ("hard_mud_four_missing", positions::hard_mud_four_missing()),
    ] {
        assert_eq!(check_claim(&f, PlayerId::P0, a, &rules), ClaimCheck::Holds);
        assert!(reference::claim_holds(&f, PlayerId::P0, a, &rules));
        g.bench_function(name, |b| {
            b.iter(|| check_claim(black_box(&f), PlayerId::P0, a, &rules))
        });
        g.bench_function(format!("{name}_brute_force"), |b| {
            b.iter(|| reference::claim_holds(black_box(&f), PlayerId::P0, a, &rules))
        });
    }
    g.finish();
}

/// CPU time of this thread in ns (Linux), which other processes on a
/// shared machine do not inflate.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn games(c: &mut Criterion) {
    let rules = Rules::default();
    let mut legal = Vec::with_capacity(256);
    if let Some(start) = thread_cpu_ns() {
        let n = 5000u64;
        let actions: usize = (0..n)
            .map(|seed| random_game(&rules, seed, &mut legal))
            .sum();
        if let Some(end) = thread_cpu_ns() {
            let per_game = (end - start) as f64 / n as f64;
            println!(
                "random games: {:.1} us CPU per game, {:.0} games per CPU-second, {:.0} actions per game",
                per_game / 1000.0,
                1e9 / per_game,
                actions as f64 / n as f64
            );
        }
    }
    let mut g = c.benchmark_group("random_game");
    g.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    g.bench_function("default_rules", |b| {
        b.iter(|| {
            seed += 1;
            random_game(&rules, seed, &mut legal)
        })
    });
    g.finish();
}

/// States of random games at every step, 4,096 of them: a different
/// position each call (a repeated one would train the branch predictor).
fn random_states(rules: &Rules) -> Vec<BattleLine> {
    let mut legal = Vec::new();
    let mut out = Vec::new();
    let mut seed = 0;
    while out.len() < 4096 {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut s = BattleLine::new(rules).expect("valid rules");
        while !s.is_terminal() {
            if matches!(s.turn(), game_traits::Turn::Player(_)) {
                out.push(s);
            }
            let a = match s.turn() {
                game_traits::Turn::Chance => s.sample_chance(&mut rng),
                _ => s.sample_legal(&mut legal, &mut rng),
            };
            s.apply_unchecked(a.expect("an action"));
        }
        seed += 1;
    }
    out.truncate(4096);
    out
}

/// The steps of a playout one at a time on random states: a uniform legal
/// action drawn (`sample_legal`), a state copied (what ISMCTS and the
/// batched environment do per iteration) and an action applied.
fn game_steps(c: &mut Criterion) {
    let rules = Rules::default();
    let states = random_states(&rules);
    let mut legal = Vec::with_capacity(256);
    let mut rng = GameRng::seed_from_u64(7);
    let mut g = c.benchmark_group("random_game");
    g.throughput(Throughput::Elements(states.len() as u64));
    g.bench_function("sample_legal_random_states", |b| {
        b.iter(|| {
            states
                .iter()
                .filter(|s| black_box(s).sample_legal(&mut legal, &mut rng).is_some())
                .count()
        })
    });
    g.bench_function("clone_random_states", |b| {
        b.iter(|| {
            states
                .iter()
                .map(|s| {
                    let copy = *black_box(s);
                    black_box(copy).table().moves()
                })
                .sum::<u32>()
        })
    });
    let actions: Vec<_> = states
        .iter()
        .map(|s| s.sample_legal(&mut legal, &mut rng).expect("an action"))
        .collect();
    g.bench_function("apply_random_states", |b| {
        b.iter(|| {
            states
                .iter()
                .zip(&actions)
                .map(|(s, &a)| {
                    let mut s = *s;
                    s.apply_unchecked(black_box(a));
                    s.table().moves()
                })
                .sum::<u32>()
        })
    });
    g.finish();
}

/// The expert's decision at 8 futures (`expert:8`: 4 for every play, then
/// 24 for the finalists) on positions of heuristic games at the pool's
/// rules, one position a call in turn: the cost of its futures, which
/// are its bottleneck (docs/strength.md, "Cheaper futures").
fn expert_decision(c: &mut Criterion) {
    let set = expert_positions::play_positions(&expert_positions::pool_rules(), 64);
    let mut expert = battleline_core::Expert::with_samples(8);
    let mut rng = GameRng::seed_from_u64(11);
    let mut i = 0;
    let mut g = c.benchmark_group("expert");
    g.throughput(Throughput::Elements(1));
    g.bench_function("decision_8_futures", |b| {
        b.iter(|| {
            let (obs, legal) = &set[i % set.len()];
            i += 1;
            game_traits::Agent::choose(&mut expert, black_box(obs), legal, &mut rng)
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = formation, proof, games, game_steps, expert_decision
}
criterion_main!(benches);
