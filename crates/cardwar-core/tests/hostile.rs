//! Hostile input at scale (issue 15): tampered states, observations and
//! records taken from random games of every preset, each refused or held to
//! the whole contract of the trait, and the true observations of the final
//! positions of random games, each of which must determinise.
//!
//! `HOSTILE_INPUTS` (default 300) sets the tampered inputs per preset,
//! `FINAL_GAMES` (default 40) the games whose final positions are
//! determinised per preset. The full run of issue 15:
//! `HOSTILE_INPUTS=100000 FINAL_GAMES=100000 cargo test --release -p
//! cardwar-core --test hostile -- --nocapture`.

mod common;

use common::every_switch_flipped;
use std::time::Instant;

use cardwar_core::game_traits::testkit::{
    determinise_final_positions, env_count as env, hostile_run,
};
use cardwar_core::{CardWar, Rules};
use game_traits::Preset;
use game_traits::RuleSet;

#[test]
fn hostile_inputs_are_refused_or_keep_every_contract() {
    let inputs = env("HOSTILE_INPUTS", 300);
    for (i, Preset { name, rules, .. }) in Rules::presets().into_iter().enumerate() {
        let start = Instant::now();
        let report = hostile_run::<CardWar>(&rules, inputs, 1_000 + i as u64);
        assert_eq!(report.inputs, inputs);
        assert_eq!(report.refused + report.accepted, report.inputs);
        // A run that refuses everything, or accepts everything, tampers
        // with nothing the validation looks at.
        assert!(
            report.refused > 0 && report.accepted > 0,
            "{name}: {report}"
        );
        println!(
            "hostile {name}: {report} ({:.1} s)",
            start.elapsed().as_secs_f64()
        );
    }
}

#[test]
fn every_final_position_determinises_for_both_players() {
    let games = env("FINAL_GAMES", 40);
    for (i, Preset { name, rules, .. }) in Rules::presets().into_iter().enumerate() {
        let start = Instant::now();
        let seed = 7_000_000 * (i as u64 + 1);
        let count = determinise_final_positions::<CardWar>(&rules, games, seed);
        assert_eq!(count, 2 * games);
        println!(
            "final positions {name}: {games} games, {count} observations determinised ({:.1} s)",
            start.elapsed().as_secs_f64()
        );
    }
}

/// The whole-switch rule set of the conformance tests, hostile too: its
/// small `max_rounds` and empty piles reach states the presets rarely do.
#[test]
fn hostile_inputs_under_every_switch_flipped() {
    let rules = every_switch_flipped();
    let report = hostile_run::<CardWar>(&rules, env("HOSTILE_INPUTS", 300), 99);
    println!("hostile every switch flipped: {report}");
    assert_eq!(
        determinise_final_positions::<CardWar>(&rules, env("FINAL_GAMES", 40), 5),
        2 * env("FINAL_GAMES", 40)
    );
}
