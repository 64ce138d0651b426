//! Why ISMCTS lost to greedy bots, and what fixed it: ISMCTS variants, one
//! change at a time, each against the Battle Line heuristic
//! (`docs/strength.md`, "Generic search").
//!
//! ```text
//! cargo run --release --example ismcts_ablation -- --budget 10ms --games 100
//! cargo run --release --example ismcts_ablation -- --budget 2000 --games 100 --troops-only
//! ```
//!
//! Options: `--budget` per decision (`2000` iterations, reproducible, or
//! `10ms`; default 10ms), `--games` per variant (seats alternate; default
//! 100) and `--troops-only` (the default rules otherwise). Two threads.

use std::process::ExitCode;

use tabletop_rules::battleline::{BattleLine, Heuristic, Rules};
use tabletop_rules::game_agents::{Ismcts, IsmctsConfig};
use tabletop_rules::game_traits::{play_match, Agent, Game, Observing, PlayerId};
use tabletop_rules::{Budget, Score};

/// One variant: its name and how to build it.
struct Variant {
    name: &'static str,
    config: fn(Budget) -> IsmctsConfig,
    policy: bool,
}

/// The variants, each one change from the one before.
const VARIANTS: &[Variant] = &[
    Variant {
        name: "as before (UCB1, random playouts)",
        config: |budget| IsmctsConfig {
            budget,
            prior_samples: 0,
            ..IsmctsConfig::default()
        },
        policy: false,
    },
    Variant {
        name: "heuristic prior at the root (PUCT), random playouts",
        config: |budget| IsmctsConfig {
            budget,
            ..IsmctsConfig::default()
        },
        policy: true,
    },
    Variant {
        name: "prior with weight 4 (default 2), random playouts",
        config: |budget| IsmctsConfig {
            budget,
            prior_weight: 4.0,
            ..IsmctsConfig::default()
        },
        policy: true,
    },
    Variant {
        name: "prior, playouts 25 % heuristic",
        config: |budget| IsmctsConfig {
            budget,
            greed: 0.25,
            ..IsmctsConfig::default()
        },
        policy: true,
    },
    Variant {
        name: "prior, playouts 100 % heuristic",
        config: |budget| IsmctsConfig {
            budget,
            greed: 1.0,
            ..IsmctsConfig::default()
        },
        policy: true,
    },
    Variant {
        name: "heuristic playouts 100 %, no prior (UCB1)",
        config: |budget| IsmctsConfig {
            budget,
            greed: 1.0,
            prior_samples: 0,
            ..IsmctsConfig::default()
        },
        policy: true,
    },
];

fn build(variant: &Variant, budget: Budget) -> Ismcts<BattleLine> {
    let bot = Ismcts::new((variant.config)(budget));
    if variant.policy {
        bot.with_policy(Box::new(Observing(Heuristic)))
    } else {
        bot
    }
}

/// Plays games `from..to` (game `g` seats the variant at `g % 2`) and
/// returns the variant's score.
fn play(variant: &Variant, budget: Budget, rules: &Rules, games: std::ops::Range<u32>) -> Score {
    let mut score = Score {
        wins: 0,
        draws: 0,
        losses: 0,
    };
    for g in games {
        let mut search = build(variant, budget);
        let mut heuristic = Heuristic;
        let seat = PlayerId::all()
            .nth((g % 2) as usize)
            .unwrap_or(PlayerId::P0);
        let agents: &mut [&mut dyn Agent<BattleLine>; 2] = if seat == PlayerId::P0 {
            &mut [&mut search, &mut heuristic]
        } else {
            &mut [&mut heuristic, &mut search]
        };
        let Ok((end, _)) = play_match::<BattleLine>(rules, u64::from(g / 2), agents) else {
            continue;
        };
        match end.returns(seat) {
            r if r > 0.0 => score.wins += 1,
            r if r < 0.0 => score.losses += 1,
            _ => score.draws += 1,
        }
    }
    score
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
    };
    let budget: Option<Budget> = value("--budget").map_or(
        Some(Budget::Time(std::time::Duration::from_millis(10))),
        |b| b.parse().ok(),
    );
    let games: Option<u32> = value("--games").map_or(Some(100), |g| g.parse().ok());
    let (Some(budget), Some(games)) = (budget, games) else {
        eprintln!("usage: ismcts_ablation [--budget 10ms|2000] [--games N] [--troops-only]");
        return ExitCode::from(2);
    };
    let (rules, name) = if args.iter().any(|a| a == "--troops-only") {
        (Rules::troops_only(), "troops_only")
    } else {
        (Rules::default(), "default rules")
    };
    println!("Battle Line ({name}), ISMCTS {budget} a decision against the heuristic, {games} games each, seats alternating");
    for variant in VARIANTS {
        let half = games / 2;
        let score = std::thread::scope(|s| {
            let first = s.spawn(|| play(variant, budget, &rules, 0..half));
            let second = play(variant, budget, &rules, half..games);
            let first = first.join().unwrap_or(Score {
                wins: 0,
                draws: 0,
                losses: 0,
            });
            Score {
                wins: first.wins + second.wins,
                draws: first.draws + second.draws,
                losses: first.losses + second.losses,
            }
        });
        let (lo, hi) = score.interval();
        println!(
            "{:<52} {:>3}-{:<3} {:5.1} % [{:4.1}-{:5.1}]",
            variant.name,
            score.wins,
            score.losses,
            100.0 * score.value(),
            100.0 * lo,
            100.0 * hi
        );
    }
    ExitCode::SUCCESS
}
