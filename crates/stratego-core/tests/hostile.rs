//! Hostile input: the faults of issue 15 (each with its reproducer), the
//! kit's hostile run and the determinisation of every final position of
//! random games under every preset. `HOSTILE_INPUTS` (default 300) and
//! `FINAL_GAMES` (default 30 per preset) scale the run.

use game_traits::testkit::{determinise_final_positions, env_count as env, hostile_run};
use game_traits::Preset;
use game_traits::RuleSet;
use game_traits::{Game, GameRng, PlayerId, Turn};
use rand::{Rng, SeedableRng};
use stratego_core::{EndReason, Rules, Stratego};

/// Plays `rules` from `Game::new`, each action drawn from the listed ones
/// as the issue's reproducer does, to the end.
fn listed_random_game(rules: &Rules, seed: u64) -> Stratego {
    let mut rng = GameRng::seed_from_u64(seed);
    let mut state = Stratego::new(rules).expect("preset rules");
    let mut legal = Vec::new();
    while state.turn() != Turn::Terminal {
        if let Turn::Chance = state.turn() {
            let a = state.sample_chance(&mut rng).expect("a chance outcome");
            state.apply(a).expect("a chance outcome applies");
            continue;
        }
        state.legal_actions(&mut legal);
        let a = legal[rng.random_range(0..legal.len())];
        state.apply(a).expect("a listed action applies");
    }
    state
}

/// Both players' true observations of `state` determinise, for each of
/// `seeds` generators, into states that give them back and are over.
fn determinises(state: &Stratego, seeds: std::ops::Range<u64>) {
    for p in PlayerId::BOTH {
        let obs = state.observation(p);
        for k in seeds.clone() {
            let det = Stratego::determinize(&obs, &mut GameRng::seed_from_u64(k))
                .unwrap_or_else(|e| panic!("{p}'s final observation, seed {k}: {e}\n{state}"));
            assert_eq!(det.observation(p), obs, "seed {k}");
            assert_eq!(det.end(), state.end(), "seed {k}");
        }
    }
}

/// Fault A: the issue's reproducer, Srazhenie, P0 stuck after 10 moves.
#[test]
fn fault_a_no_legal_move_ending_determinises() {
    let state = listed_random_game(&Rules::srazhenie(), 9100806950278306559);
    eprintln!("{:?} after {} moves", state.end(), state.moves_played());
    determinises(&state, 0..200);
}

/// Fault A, beyond the reproducer: random games of every preset searched
/// for endings where a player was stuck (`NoLegalMove`, `BothStuck`), each
/// such final position determinised for both players with several seeds.
/// `STUCK_GAMES` games per preset (default 300; the issue found 8 such
/// refusals in 800,000 final positions).
#[test]
fn fault_a_stuck_endings_of_random_games_determinise() {
    let games = env("STUCK_GAMES", 300);
    let mut found = 0;
    for Preset { rules, .. } in Rules::presets() {
        for g in 0..games {
            let state = listed_random_game(&rules, g.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            if matches!(
                state.end().map(|e| e.reason),
                Some(EndReason::NoLegalMove | EndReason::BothStuck)
            ) {
                found += 1;
                determinises(&state, 0..20);
            }
        }
    }
    eprintln!("{found} stuck endings determinised");
    assert!(found > 0, "no stuck ending in {games} games per preset");
}

/// Fault B: rules deserialise only when valid, and every accepted value
/// gives a game length bound without overflow.
#[test]
fn fault_b_rules_deserialise_validated() {
    let text = r#"{"variant":"Srazhenie","runner_soldiers":false,"long_move_attack":true,"czech_scout_steps_diagonally":true,"reveal_attacker":true,"two_square_limit":3,"more_squares_rule":false,"no_attack_limit":100,"no_move_loses":true,"both_stuck_draw":false,"unreachable_flag_draw":false,"max_moves":4294967295}"#;
    assert!(serde_json::from_str::<Rules>(text).is_err());
    for bad in [
        text.replace("4294967295", "0"),
        text.replace("4294967295", "100001"),
        text.replace(r#""two_square_limit":3"#, r#""two_square_limit":0"#),
        text.replace(r#""no_attack_limit":100"#, r#""no_attack_limit":0"#),
        text.replace(r#""runner_soldiers":false"#, r#""runner_soldiers":true"#)
            .replace("Srazhenie", "Classic"),
    ] {
        assert!(serde_json::from_str::<Rules>(&bad).is_err(), "{bad}");
    }
    let good: Rules = serde_json::from_str(&text.replace("4294967295", "100000")).unwrap();
    assert_eq!(good.max_game_length(), 80 + 100_000);
    for Preset { rules, .. } in Rules::presets() {
        let text = serde_json::to_string(&rules).unwrap();
        assert_eq!(serde_json::from_str::<Rules>(&text).unwrap(), rules);
    }
}

/// Plays `steps` listed random actions of `rules` (fewer if the game ends).
fn random_state(rules: &Rules, seed: u64, steps: usize) -> Stratego {
    let mut rng = GameRng::seed_from_u64(seed);
    let mut state = Stratego::new(rules).expect("preset rules");
    let mut legal = Vec::new();
    for _ in 0..steps {
        match state.turn() {
            Turn::Terminal => break,
            Turn::Chance => {
                let a = state.sample_chance(&mut rng).expect("an outcome");
                state.apply_unchecked(a);
            }
            Turn::Player(_) => {
                state.legal_actions(&mut legal);
                state.apply_unchecked(legal[rng.random_range(0..legal.len())]);
            }
        }
    }
    state
}

/// Fault D: a stored two-square series on a piece without the public moved
/// flag is refused (deserialisation checks the flag, never the hidden
/// kind), and the opponent's view of a true series always determinises.
#[test]
fn fault_d_series_on_an_unmoved_piece_is_refused() {
    let mut checked = 0;
    for seed in 0..400u64 {
        let state = random_state(&Rules::srazhenie(), seed, 80 + (seed as usize % 60));
        if state.end().is_some() {
            continue;
        }
        for p in PlayerId::BOTH {
            let Some(sh) = state.shuttle(p) else { continue };
            let mut json: serde_json::Value = serde_json::to_value(&state).unwrap();
            let cell = &mut json["cells"][sh.piece().index()];
            let bits = cell.as_u64().unwrap();
            assert_ne!(bits & 0x40, 0, "the series piece has moved");
            *cell = (bits & !0x40).into();
            assert!(
                serde_json::from_value::<Stratego>(json).is_err(),
                "seed {seed}: a series on an unmoved piece was accepted"
            );
            let obs = state.observation(p.other());
            for k in 0..5 {
                Stratego::determinize(&obs, &mut GameRng::seed_from_u64(k))
                    .unwrap_or_else(|e| panic!("seed {seed}/{k}: {e}"));
            }
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} series found");
}

/// Fault F: a stored state with one rules field switched (as if changed
/// mid-game) is refused, or held to the whole contract: played on to the
/// end, every player's own observation determinises at every step checked.
/// `SWITCHED_STATES` states per preset (default 40).
#[test]
fn fault_f_rules_switched_mid_game_refused_or_consistent() {
    let n = env("SWITCHED_STATES", 40);
    let switches: [(&str, Switch); 10] = [
        ("reveal_attacker", |r| flip(r, "reveal_attacker")),
        ("runner_soldiers", |r| flip(r, "runner_soldiers")),
        ("long_move_attack", |r| flip(r, "long_move_attack")),
        ("czech_scout_steps_diagonally", |r| {
            flip(r, "czech_scout_steps_diagonally")
        }),
        ("more_squares_rule", |r| flip(r, "more_squares_rule")),
        ("no_move_loses", |r| flip(r, "no_move_loses")),
        ("both_stuck_draw", |r| flip(r, "both_stuck_draw")),
        ("unreachable_flag_draw", |r| {
            flip(r, "unreachable_flag_draw")
        }),
        ("two_square_partial_moves", |r| {
            flip(r, "two_square_partial_moves")
        }),
        ("two_square_limit", |r| {
            r["two_square_limit"] = match r["two_square_limit"].as_u64() {
                Some(1) => serde_json::Value::Null,
                Some(l) => (l - 1).into(),
                None => 1.into(),
            }
        }),
    ];
    let (mut accepted, mut refused) = (0, 0);
    for Preset { name, rules, .. } in Rules::presets() {
        for i in 0..n {
            let seed = i * 7919 + 13;
            let state = random_state(&rules, seed, 80 + (seed as usize * 31) % 400);
            let (what, switch) = switches[(i as usize) % switches.len()];
            let mut json = serde_json::to_value(&state).unwrap();
            switch(&mut json["rules"]);
            match serde_json::from_value::<Stratego>(json) {
                Err(_) => refused += 1,
                Ok(s) => {
                    accepted += 1;
                    let mut rng = GameRng::seed_from_u64(seed);
                    if let Err(e) = game_traits::testkit::check_accepted(s, &mut rng) {
                        panic!("{name}, seed {seed}, {what} switched: {e}");
                    }
                }
            }
        }
    }
    eprintln!("switched rules: {accepted} accepted and consistent, {refused} refused");
}

/// Changes one field of serialised rules.
type Switch = fn(&mut serde_json::Value);

fn flip(rules: &mut serde_json::Value, field: &str) {
    let b = rules[field].as_bool().unwrap_or(true);
    rules[field] = (!b).into();
}

/// The kit's hostile run: tampered states, observations and records of
/// random games, each refused or held to the whole contract, then the true
/// final observations of random games of every preset.
#[test]
fn hostile_run_and_final_positions_of_every_preset() {
    let inputs = env("HOSTILE_INPUTS", 300);
    let finals = env("FINAL_GAMES", 30);
    for Preset { name, rules, .. } in Rules::presets() {
        let start = std::time::Instant::now();
        let report = hostile_run::<Stratego>(&rules, inputs / 6 + 1, 1);
        println!("stratego {name}: {report} ({:.1?})", start.elapsed());
        assert!(report.refused > 0, "{name}: {report}");
        let start = std::time::Instant::now();
        let n = determinise_final_positions::<Stratego>(&rules, finals, 7);
        println!(
            "stratego {name}: {n} final observations of {finals} games determinised ({:.1?})",
            start.elapsed()
        );
        assert_eq!(n, 2 * finals);
    }
}

/// Fault F, the history each switch contradicts: Czech states whose
/// hidden attackers left knowledge behind (kinds ruled out, losses of
/// unknown kind) are refused once the attacker is said to be shown, and
/// series longer than a lowered two-square limit are refused.
#[test]
fn fault_f_history_the_rules_exclude_is_refused() {
    let (mut hidden, mut series) = (0, 0);
    for seed in 0..300u64 {
        let state = random_state(&Rules::czech(), seed, 200 + seed as usize % 300);
        let knowledge = state.pieces().any(|(_, p)| !p.ruled_out.is_empty())
            || PlayerId::BOTH
                .iter()
                .any(|&p| state.hidden_losses(p).next().is_some());
        if knowledge {
            hidden += 1;
            let mut json = serde_json::to_value(&state).unwrap();
            json["rules"]["reveal_attacker"] = true.into();
            assert!(
                serde_json::from_value::<Stratego>(json).is_err(),
                "seed {seed}"
            );
        }
        let state = random_state(&Rules::srazhenie(), seed, 80 + seed as usize % 300);
        if let Some(sh) = PlayerId::BOTH.iter().find_map(|&p| state.shuttle(p)) {
            if sh.moves() >= 2 && state.end().is_none() {
                series += 1;
                let mut json = serde_json::to_value(&state).unwrap();
                json["rules"]["two_square_limit"] = (sh.moves() - 1).into();
                assert!(
                    serde_json::from_value::<Stratego>(json).is_err(),
                    "seed {seed}"
                );
            }
        }
    }
    assert!(
        hidden > 20 && series >= 5,
        "{hidden} hidden, {series} series"
    );
}
