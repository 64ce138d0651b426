//! Hostile input against every game: tampered states, observations and
//! records (refused, or accepted and then held to the whole contract), and
//! the true final observations of many random games, each of which must
//! determinise. `HOSTILE_INPUTS` (default 240 per game) and `FINAL_GAMES`
//! (default 60 per rule set) scale the run; docs/robustness.md gives the
//! counts of the long run.
#![cfg(all(feature = "battleline", feature = "stratego", feature = "cardwar"))]

use game_traits::testkit::{determinise_final_positions, hostile_run};
use game_traits::Game;
use tabletop_rules::{battleline, cardwar, stratego};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn run<G: Game>(presets: Vec<(&'static str, &'static str, G::Rules)>) {
    let inputs = env("HOSTILE_INPUTS", 240);
    let finals = env("FINAL_GAMES", 60);
    let report = hostile_run::<G>(&G::Rules::default(), inputs, 1);
    println!("{}: {report}", G::NAME);
    assert_eq!(report.inputs, inputs);
    assert!(report.accepted > 0 && report.refused > 0, "{}: {report}", G::NAME);
    for (name, _, rules) in presets {
        let n = determinise_final_positions::<G>(&rules, finals, 7);
        println!("{} {name}: {n} final observations determinised", G::NAME);
        assert_eq!(n, 2 * finals);
    }
}

#[test]
fn battleline_survives_hostile_input() {
    run::<battleline::BattleLine>(battleline::Rules::presets());
}

#[test]
fn stratego_survives_hostile_input() {
    run::<stratego::Stratego>(stratego::Rules::presets());
}

#[test]
fn cardwar_survives_hostile_input() {
    run::<cardwar::CardWar>(cardwar::Rules::presets());
}
