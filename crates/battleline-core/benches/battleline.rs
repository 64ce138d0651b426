//! Benchmarks of the two hot paths and of whole random games.
//!
//! `cargo bench -p battleline-core --bench battleline -- --warm-up-time 1 --measurement-time 3`

#[path = "../tests/reference/mod.rs"]
mod reference;

use std::hint::black_box;
use std::time::Instant;

use battleline_core::{
    check_claim, formation_strength, formation_strength_unseen, BattleLine, Card, CardSet,
    ClaimCheck, Environment, Flag, FormationOrder, Phase, Rules, Tactic,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use game_traits::{random_playout, Game, GameRng, PlayerId, Turn};
use rand::{Rng, SeedableRng};

/// Plays one game with uniformly random legal actions; returns its length.
fn random_game(rules: &Rules, seed: u64, legal: &mut Vec<battleline_core::Action>) -> usize {
    let mut rng = GameRng::seed_from_u64(seed);
    let mut s = BattleLine::new(rules).expect("valid rules");
    random_playout(&mut s, legal, &mut rng, u32::MAX) as usize
}

/// Claim checks met in random games: (flag, claimant, available troops).
fn midgame_positions(count: usize) -> Vec<(Flag, PlayerId, CardSet)> {
    let rules = Rules::default();
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for seed in 0.. {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut s = BattleLine::new(&rules).expect("valid rules");
        while !s.is_terminal() {
            if s.table().phase() == Phase::Claim {
                let p = s.table().player();
                let avail = s.table().available_troops();
                for f in s.table().flags() {
                    if f.claimed().is_none() && f.is_complete(p) {
                        out.push((*f, p, avail));
                        if out.len() == count {
                            return out;
                        }
                    }
                }
            }
            let a = match s.turn() {
                Turn::Chance => s.sample_chance(&mut rng).expect("outcome"),
                _ => {
                    s.legal_actions(&mut legal);
                    legal[rng.random_range(0..legal.len())]
                }
            };
            s.apply_unchecked(a);
        }
    }
    out
}

fn t(c: usize, v: u8) -> Card {
    reference::troop(c, v)
}

/// A claim that holds with three cards missing on the other side: Red
/// 8-9-10 against an empty side, all other troops available.
fn holding_three_missing() -> (Flag, CardSet) {
    let mut f = Flag::new();
    for c in [t(0, 8), t(0, 9), t(0, 10)] {
        f.place(PlayerId::P0, c).expect("slot");
    }
    let avail = CardSet::ALL_TROOPS.difference([t(0, 8), t(0, 9), t(0, 10)].into_iter().collect());
    (f, avail)
}

/// The worst case: Mud, no opposing cards, wilds in play, a claim that
/// holds (a Wedge 7-8-9-10 of Leader, Cavalry, Red 9 and Red 10; every
/// other troop available but no Wedge above 7-10 exists).
fn holding_mud_wilds() -> (Flag, CardSet) {
    let mut f = Flag::new();
    f.add_mud().expect("mud");
    let mine = [
        Card::tactic(Tactic::Alexander),
        Card::tactic(Tactic::CompanionCavalry),
        t(0, 9),
        t(0, 10),
    ];
    for c in mine {
        f.place(PlayerId::P0, c).expect("slot");
    }
    // Every colour's 9 or 10 is gone, so no other Wedge 7-10 is possible.
    let gone: CardSet = (1..6)
        .map(|c| t(c, 10))
        .chain([t(0, 9), t(0, 10)])
        .collect();
    (f, CardSet::ALL_TROOPS.difference(gone))
}

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
    g.throughput(Throughput::Elements(1));
    for (name, (f, a)) in [
        ("holding_three_missing", holding_three_missing()),
        ("holding_mud_wilds", holding_mud_wilds()),
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

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = formation, proof, games
}
criterion_main!(benches);
