//! What a player knows about the opponent's unrevealed pieces beyond
//! "moved": kinds ruled out by how they moved and fought, under the options
//! that hide a winning attacker (`reveal_attacker: false`) or keep the Czech
//! Průzkumník from stepping diagonally.

mod common;

use common::Pieces;

use game_traits::PlayerId::{P0, P1};

use common::{play, pos, sq};
use game_traits::{Game, GameRng, PlayerId};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use stratego_core::czech;
use stratego_core::{
    HiddenLoss, Kind, KindSet, ObsCell, Observation, Rules, Square, Stratego, Variant,
};

fn hidden_attacker() -> Rules {
    Rules {
        reveal_attacker: false,
        ..Rules::czech()
    }
}

fn no_diagonal_scout() -> Rules {
    Rules {
        czech_scout_steps_diagonally: false,
        ..Rules::czech()
    }
}

fn set(kinds: &[Kind]) -> KindSet {
    kinds
        .iter()
        .fold(KindSet::EMPTY, |s, &k| s.or(KindSet::of(k)))
}

/// The movable kinds of `variant` outside `keep`.
fn all_but(variant: Variant, keep: &[Kind]) -> KindSet {
    KindSet::MOBILE
        .and(KindSet::of_variant(variant))
        .minus(set(keep))
}

fn nothing_ruled_out(obs: &Observation) -> bool {
    obs.cells.iter().all(|c| match c {
        ObsCell::Foe { ruled_out, .. } => ruled_out.is_empty(),
        _ => true,
    })
}

fn foe(obs: &Observation, at: &str) -> ObsCell {
    obs.cells[sq(at).index()]
}

/// The kinds determinisation gives the piece on `at` over many draws.
fn drawn_kinds(obs: &Observation, at: &str, draws: u64) -> Vec<Kind> {
    (0..draws)
        .map(|seed| {
            let d = Stratego::determinize(obs, &mut GameRng::seed_from_u64(seed))
                .expect("a consistent completion");
            assert_eq!(d.observation(obs.viewer), *obs);
            d.piece_of(sq(at)).expect("a piece").1
        })
        .collect()
}

/// A Czech position: player 0 attacks from e3 with `attacker`, onto e4
/// held by player 1's `defender`; both sides have a few more pieces, so
/// that determinisation has choices.
fn czech_attack(attacker: Kind, defender: Kind) -> Stratego {
    czech_attack_with(hidden_attacker(), attacker, defender)
}

fn czech_attack_with(rules: Rules, attacker: Kind, defender: Kind) -> Stratego {
    pos(
        rules,
        &[
            ("a1", P0, czech::PRAPOR),
            ("b1", P0, czech::MINOVE_POLE),
            ("c1", P0, czech::MARSAL),
            ("d1", P0, czech::GENERAL),
            ("g1", P0, czech::STRELEC),
            ("h1", P0, czech::PRUZKUMNIK),
            ("i1", P0, czech::KADET),
            ("j1", P0, czech::MINER),
            ("e3", P0, attacker),
            ("j10", P1, czech::PRAPOR),
            ("e4", P1, defender),
            ("h8", P1, czech::KAPRAL),
        ],
        P0,
    )
}

#[test]
fn rule_hidden_attacker_that_beat_a_piece_is_known_stronger() {
    let mut g = czech_attack(czech::KAPITAN, czech::KADET);
    play(&mut g, &["e3-e4"]);
    let obs = g.observation(P1);
    // Only the Maršál, the Generál and the Kapitán beat a Kadet.
    assert_eq!(
        foe(&obs, "e4"),
        ObsCell::Foe {
            kind: None,
            moved: true,
            ruled_out: all_but(
                Variant::Czech,
                &[czech::MARSAL, czech::GENERAL, czech::KAPITAN]
            ),
        }
    );
    let kinds = drawn_kinds(&obs, "e4", 600);
    assert!(kinds
        .iter()
        .all(|k| [czech::MARSAL, czech::GENERAL, czech::KAPITAN].contains(k)));
    // Uniform over the completions: by symmetry each of the three kinds
    // (one piece each) is a third of them.
    for k in [czech::MARSAL, czech::GENERAL, czech::KAPITAN] {
        let n = kinds.iter().filter(|&&x| x == k).count();
        assert!((140..=260).contains(&n), "{k:?} drawn {n} times in 600");
    }
}

#[test]
fn rule_the_attacker_knows_what_the_defender_learnt() {
    let mut g = czech_attack(czech::KAPITAN, czech::KADET);
    play(&mut g, &["e3-e4"]);
    let known = all_but(
        Variant::Czech,
        &[czech::MARSAL, czech::GENERAL, czech::KAPITAN],
    );
    let obs = g.observation(P0);
    assert_eq!(
        foe(&obs, "e4"),
        ObsCell::Own {
            kind: czech::KAPITAN,
            moved: true,
            revealed: false,
            ruled_out: known,
        }
    );
    // So a state determinised from his view gives the defender the same
    // knowledge of the attacker's army.
    for seed in 0..20 {
        let d = Stratego::determinize(&obs, &mut GameRng::seed_from_u64(seed)).unwrap();
        for (i, cell) in obs.cells.iter().enumerate() {
            if matches!(cell, ObsCell::Own { .. }) {
                assert_eq!(d.observation(P1).cells[i], g.observation(P1).cells[i]);
            }
        }
    }
}

#[test]
fn rule_hidden_attacker_that_beat_the_marshal_is_the_spion() {
    let mut g = czech_attack(czech::SPION, czech::MARSAL);
    play(&mut g, &["e3-e4"]);
    let obs = g.observation(P1);
    assert_eq!(
        foe(&obs, "e4"),
        ObsCell::Foe {
            kind: None,
            moved: true,
            ruled_out: all_but(Variant::Czech, &[czech::SPION]),
        }
    );
    assert!(drawn_kinds(&obs, "e4", 100)
        .iter()
        .all(|&k| k == czech::SPION));
}

#[test]
fn rule_hidden_attacker_that_cleared_a_mine_is_the_miner() {
    let mut g = czech_attack(czech::MINER, czech::MINOVE_POLE);
    play(&mut g, &["e3-e4"]);
    let obs = g.observation(P1);
    assert_eq!(
        foe(&obs, "e4"),
        ObsCell::Foe {
            kind: None,
            moved: true,
            ruled_out: all_but(Variant::Czech, &[czech::MINER]),
        }
    );
    assert!(drawn_kinds(&obs, "e4", 100)
        .iter()
        .all(|&k| k == czech::MINER));
}

#[test]
fn rule_hidden_attacker_that_tied_is_a_public_loss() {
    // Equal kinds both leave: the defender saw his own kind go, so he knows
    // the attacker's.
    let mut g = czech_attack(czech::KADET, czech::KADET);
    let before = g.observation(P1).lost[P0][czech::KADET.index()];
    play(&mut g, &["e3-e4"]);
    let obs = g.observation(P1);
    assert_eq!(foe(&obs, "e3"), ObsCell::Empty, "the attacker left");
    assert!(nothing_ruled_out(&obs));
    assert!(obs.hidden_lost[P0].is_empty());
    assert_eq!(obs.lost[P0][czech::KADET.index()], before + 1);
}

#[test]
fn rule_hidden_attacker_that_lost_is_lost_with_kind_not_known() {
    let mut g = czech_attack(czech::KAPRAL, czech::KADET);
    let public_before = g.observation(P1).lost[P0];
    let lost_before = g.lost(P0)[czech::KAPRAL.index()];
    play(&mut g, &["e3-e4"]);
    let obs = g.observation(P1);
    assert_eq!(foe(&obs, "e3"), ObsCell::Empty, "the attacker left");
    // The defender knows only that it was a movable kind that loses to a
    // Kadet: Kaprál, Střelec, Průzkumník, Minér or Špión.
    let losers = [
        czech::KAPRAL,
        czech::STRELEC,
        czech::PRUZKUMNIK,
        czech::MINER,
        czech::SPION,
    ];
    assert_eq!(
        obs.hidden_lost[P0],
        vec![HiddenLoss {
            kind: None,
            ruled_out: all_but(Variant::Czech, &losers),
        }]
    );
    assert_eq!(obs.lost[P0], public_before, "no public loss");
    // Its owner knows the kind, and what the defender knows of it.
    let own = g.observation(P0);
    assert_eq!(own.hidden_lost[P0][0].kind, Some(czech::KAPRAL));
    assert_eq!(
        own.hidden_lost[P0][0].ruled_out,
        obs.hidden_lost[P0][0].ruled_out
    );
    // The state counts it lost all the same.
    assert_eq!(g.lost(P0)[czech::KAPRAL.index()], lost_before + 1);
    // Determinisation draws it among the kinds that lose to a Kadet.
    for seed in 0..200 {
        let d = Stratego::determinize(&obs, &mut GameRng::seed_from_u64(seed)).unwrap();
        assert_eq!(d.observation(P1), obs);
        let (kind, _) = d.hidden_losses(P0).next().expect("one hidden loss");
        assert!(losers.contains(&kind), "{kind:?}");
    }
}

#[test]
fn rule_hidden_attacker_knowledge_follows_the_piece_and_narrows() {
    let mut g = pos(
        hidden_attacker(),
        &[
            ("a1", P0, czech::PRAPOR),
            ("c1", P0, czech::MARSAL),
            ("d1", P0, czech::KAPITAN),
            ("e3", P0, czech::GENERAL),
            ("j10", P1, czech::PRAPOR),
            ("e4", P1, czech::KADET),
            ("e6", P1, czech::KAPITAN),
            ("h8", P1, czech::KAPRAL),
        ],
        P0,
    );
    play(&mut g, &["e3-e4", "h8-h7", "e4-e5"]);
    let obs = g.observation(P1);
    assert_eq!(foe(&obs, "e4"), ObsCell::Empty);
    assert_eq!(
        foe(&obs, "e5"),
        ObsCell::Foe {
            kind: None,
            moved: true,
            ruled_out: all_but(
                Variant::Czech,
                &[czech::MARSAL, czech::GENERAL, czech::KAPITAN]
            ),
        },
        "what the fight showed moves with the piece"
    );
    play(&mut g, &["h7-h8", "e5-e6"]);
    let obs = g.observation(P1);
    assert_eq!(
        foe(&obs, "e6"),
        ObsCell::Foe {
            kind: None,
            moved: true,
            ruled_out: all_but(Variant::Czech, &[czech::MARSAL, czech::GENERAL]),
        },
        "a second win over a Kapitán leaves the Maršál and the Generál"
    );
    assert!(drawn_kinds(&obs, "e6", 100)
        .iter()
        .all(|k| [czech::MARSAL, czech::GENERAL].contains(k)));
}

#[test]
fn rule_hidden_attacker_revealed_later_is_simply_known() {
    let mut g = pos(
        hidden_attacker(),
        &[
            ("a1", P0, czech::PRAPOR),
            ("c1", P0, czech::MARSAL),
            ("e3", P0, czech::GENERAL),
            ("j10", P1, czech::PRAPOR),
            ("e4", P1, czech::KADET),
            ("f5", P1, czech::KAPRAL),
        ],
        P0,
    );
    // The Kaprál attacks the hidden winner and loses: the defender is shown.
    play(&mut g, &["e3-e4", "f5-e5", "c1-c2", "e5-e4"]);
    assert_eq!(
        foe(&g.observation(P1), "e4"),
        ObsCell::Foe {
            kind: Some(czech::GENERAL),
            moved: true,
            ruled_out: KindSet::EMPTY,
        }
    );
    assert!(g.ruled_out(sq("e4")).is_empty());
}

#[test]
fn rule_diagonal_step_shows_no_pruzkumnik() {
    let mut g = pos(
        no_diagonal_scout(),
        &[
            ("a1", P0, czech::PRAPOR),
            ("c1", P0, czech::GENERAL),
            ("h1", P0, czech::PRUZKUMNIK),
            ("i1", P0, czech::PRUZKUMNIK),
            ("e3", P0, czech::STRELEC),
            ("j10", P1, czech::PRAPOR),
            ("h8", P1, czech::KAPRAL),
        ],
        P0,
    );
    play(&mut g, &["e3-f4"]);
    let obs = g.observation(P1);
    assert_eq!(
        foe(&obs, "f4"),
        ObsCell::Foe {
            kind: None,
            moved: true,
            ruled_out: KindSet::of(czech::PRUZKUMNIK),
        }
    );
    let kinds = drawn_kinds(&obs, "f4", 300);
    assert!(kinds
        .iter()
        .all(|k| [czech::GENERAL, czech::STRELEC].contains(k)));
    assert!(kinds.contains(&czech::GENERAL) && kinds.contains(&czech::STRELEC));
}

#[test]
fn rule_diagonal_step_shows_nothing_when_the_pruzkumnik_steps_diagonally() {
    let mut g = pos(
        Rules::czech(),
        &[
            ("a1", P0, czech::PRAPOR),
            ("h1", P0, czech::PRUZKUMNIK),
            ("e3", P0, czech::STRELEC),
            ("j10", P1, czech::PRAPOR),
            ("h8", P1, czech::KAPRAL),
        ],
        P0,
    );
    play(&mut g, &["e3-f4"]);
    assert_eq!(
        foe(&g.observation(P1), "f4"),
        ObsCell::Foe {
            kind: None,
            moved: true,
            ruled_out: KindSet::EMPTY,
        }
    );
    assert!(drawn_kinds(&g.observation(P1), "f4", 200).contains(&czech::PRUZKUMNIK));
}

#[test]
fn rule_one_square_orthogonal_step_shows_only_a_movable_piece() {
    let rules = Rules {
        reveal_attacker: false,
        ..no_diagonal_scout()
    };
    let mut g = pos(
        rules,
        &[
            ("a1", P0, czech::PRAPOR),
            ("h1", P0, czech::PRUZKUMNIK),
            ("e3", P0, czech::STRELEC),
            ("j10", P1, czech::PRAPOR),
            ("h8", P1, czech::KAPRAL),
        ],
        P0,
    );
    play(&mut g, &["e3-e4"]);
    assert_eq!(
        foe(&g.observation(P1), "e4"),
        ObsCell::Foe {
            kind: None,
            moved: true,
            ruled_out: KindSet::EMPTY,
        }
    );
}

#[test]
fn rule_long_move_shows_the_long_mover_even_with_hidden_attackers() {
    let rules = Rules {
        reveal_attacker: false,
        ..no_diagonal_scout()
    };
    let mut g = pos(
        rules,
        &[
            ("a1", P0, czech::PRAPOR),
            ("f1", P0, czech::PRUZKUMNIK),
            ("e3", P0, czech::STRELEC),
            ("j10", P1, czech::PRAPOR),
            ("f7", P1, czech::MINER),
            ("h8", P1, czech::KAPRAL),
        ],
        P0,
    );
    // A long move ending in an attack: the move itself shows the
    // Průzkumník, so the hidden-attacker option hides nothing.
    play(&mut g, &["f1-f7"]);
    assert_eq!(
        foe(&g.observation(P1), "f7"),
        ObsCell::Foe {
            kind: Some(czech::PRUZKUMNIK),
            moved: true,
            ruled_out: KindSet::EMPTY,
        }
    );
}

#[test]
fn winners_against_follow_the_fight_tables() {
    for variant in Variant::ALL {
        for d in variant.kinds() {
            for a in variant.kinds().filter(|k| k.is_mobile()) {
                let wins = variant.fight(a, d) == stratego_core::Fight::AttackerWins;
                assert_eq!(variant.winners_against(d).contains(a), wins);
            }
        }
    }
}

// ----- stored forms ----------------------------------------------------------

fn won_hidden() -> Stratego {
    let mut g = czech_attack(czech::KAPITAN, czech::KADET);
    play(&mut g, &["e3-e4"]);
    g
}

#[test]
fn stored_ruled_out_kinds_round_trip_and_tampering_is_refused() {
    let g = won_hidden();
    let json = serde_json::to_value(&g).unwrap();
    let back: Stratego = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back, g);
    let e4 = u64::from(u8::from(sq("e4")));
    let tamper = |entries: serde_json::Value| {
        let mut j = json.clone();
        j["ruled_out"] = entries;
        serde_json::from_value::<Stratego>(j)
    };
    let honest = all_but(
        Variant::Czech,
        &[czech::MARSAL, czech::GENERAL, czech::KAPITAN],
    )
    .bits();
    assert!(tamper(serde_json::json!([[e4, honest]])).is_ok());
    // Ruling out its true kind, an immobile kind, a kind the army lacks, a
    // square without an unrevealed moved piece, duplicates, or any kind
    // under options that never rule kinds out: all refused.
    let bad = [
        serde_json::json!([[e4, honest | 1 << 2]]),
        serde_json::json!([[e4, 1 << 10]]),
        serde_json::json!([[e4, 1 << 9]]),
        serde_json::json!([[e4, 1 << 12]]),
        serde_json::json!([[e4, 0]]),
        serde_json::json!([[u64::from(u8::from(sq("c1"))), 1 << 4]]),
        serde_json::json!([[u64::from(u8::from(sq("e5"))), 1 << 4]]),
        serde_json::json!([[e4, 1 << 4], [e4, 1 << 5]]),
    ];
    for entries in bad {
        assert!(tamper(entries.clone()).is_err(), "{entries}");
    }
    let mut default_rules = json.clone();
    default_rules["rules"]["reveal_attacker"] = serde_json::json!(true);
    assert!(serde_json::from_value::<Stratego>(default_rules).is_err());
}

#[test]
fn observations_with_impossible_ruled_out_kinds_are_refused() {
    let g = won_hidden();
    let mut obs = g.observation(P1);
    let ObsCell::Foe { ruled_out, .. } = &mut obs.cells[sq("e4").index()] else {
        panic!("a foe on e4");
    };
    *ruled_out = all_but(Variant::Czech, &[]);
    assert!(Stratego::determinize(&obs, &mut GameRng::seed_from_u64(1)).is_err());
    // Each of two moved pieces could be the Maršál, but not both: ruling
    // out everything else on both leaves no completion.
    let mut g = g;
    play(&mut g, &["h8-h7", "g1-g2"]);
    let mut obs = g.observation(P1);
    for at in ["e4", "g2"] {
        if let ObsCell::Foe { ruled_out, .. } = &mut obs.cells[sq(at).index()] {
            *ruled_out = all_but(Variant::Czech, &[czech::MARSAL]);
        }
    }
    assert!(Stratego::determinize(&obs, &mut GameRng::seed_from_u64(1)).is_err());
}

/// Czech with the attacker's kind shown, the one rule set where fights
/// reveal both pieces and steps tell nothing besides Srazhenie and Classic.
fn revealing_czech() -> Rules {
    Rules {
        reveal_attacker: true,
        ..Rules::czech()
    }
}

#[test]
fn revealing_rules_serialise_no_ruled_out_kinds() {
    let mut g = czech_attack_with(revealing_czech(), czech::KAPITAN, czech::KADET);
    play(&mut g, &["e3-e4"]);
    let text =
        serde_json::to_string(&g).unwrap() + &serde_json::to_string(&g.observation(P1)).unwrap();
    assert!(!text.contains("ruled_out"));
    assert!(!text.contains("hidden_lost"));
}

// ----- properties --------------------------------------------------------------

fn option_rules() -> [Rules; 5] {
    [
        Rules::czech(),
        Rules {
            reveal_attacker: false,
            czech_scout_steps_diagonally: false,
            ..Rules::czech()
        },
        hidden_attacker(),
        Rules {
            reveal_attacker: false,
            ..Rules::classic()
        },
        Rules {
            reveal_attacker: false,
            runner_soldiers: true,
            ..Rules::srazhenie()
        },
    ]
}

/// Every unrevealed piece of `owner` in `state` fits what its opponent's
/// observation says of it.
fn fits_knowledge(state: &Stratego, obs: &Observation) -> bool {
    Square::all().all(|s| match obs.cells[s.index()] {
        ObsCell::Foe {
            kind: None,
            moved,
            ruled_out,
        } => state
            .piece_of(s)
            .is_some_and(|(_, k)| !ruled_out.contains(k) && (!moved || k.is_mobile())),
        _ => true,
    }) && fits_losses(state, obs)
}

/// The opponent's losses of unknown kind in `state` fit what the
/// observation says of them, and its public losses are the rest.
fn fits_losses(state: &Stratego, obs: &Observation) -> bool {
    let q = obs.viewer.other();
    let truth: Vec<(Kind, KindSet)> = state.hidden_losses(q).collect();
    let mut public = state.lost(q);
    for &(k, _) in &truth {
        public[k.index()] -= 1;
    }
    truth.len() == obs.hidden_lost[q].len()
        && truth
            .iter()
            .zip(&obs.hidden_lost[q])
            .all(|(&(k, set), h)| h.kind.is_none() && h.ruled_out == set && !set.contains(k))
        && public == obs.lost[q]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn determinised_states_respect_every_ruled_out_kind(which in 0usize..5, seed in any::<u64>(), steps in 80usize..900, draw in any::<u64>()) {
        let g = common::random_state(option_rules()[which], seed, steps);
        for viewer in PlayerId::BOTH {
            let obs = g.observation(viewer);
            // The truth is consistent with what the viewer knows.
            prop_assert!(fits_knowledge(&g, &obs));
            let d = Stratego::determinize(&obs, &mut GameRng::seed_from_u64(draw)).unwrap();
            prop_assert_eq!(d.observation(viewer), obs.clone());
            prop_assert!(fits_knowledge(&d, &obs));
            // The opponent's view of the viewer's pieces is part of what
            // the viewer knows.
            let (theirs, truth) = (d.observation(viewer.other()), g.observation(viewer.other()));
            for (i, cell) in obs.cells.iter().enumerate() {
                if matches!(cell, ObsCell::Own { .. }) {
                    prop_assert_eq!(theirs.cells[i], truth.cells[i]);
                }
            }
        }
    }

    #[test]
    fn revealing_rules_never_rule_kinds_out(which in 0usize..3, seed in any::<u64>(), steps in 80usize..900) {
        let rules = [Rules::srazhenie(), revealing_czech(), Rules::classic()][which];
        let g = common::random_state(rules, seed, steps);
        for viewer in PlayerId::BOTH {
            let obs = g.observation(viewer);
            prop_assert!(nothing_ruled_out(&obs));
            prop_assert!(obs.hidden_lost.values().all(Vec::is_empty));
        }
    }

    #[test]
    fn tampered_ruled_out_kinds_are_refused_or_harmless(which in 0usize..5, seed in any::<u64>(), steps in 80usize..900, idx in 0usize..100, bits in 0u16..4096) {
        let g = common::random_state(option_rules()[which], seed, steps);
        let mut obs = g.observation(P0);
        if let ObsCell::Foe { ruled_out, .. } = &mut obs.cells[idx] {
            *ruled_out = KindSet::try_from(bits).unwrap();
        }
        if let Ok(d) = Stratego::determinize(&obs, &mut GameRng::seed_from_u64(1)) {
            prop_assert_eq!(d.observation(P0), obs.clone());
            prop_assert!(fits_knowledge(&d, &obs));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn tampered_hidden_losses_are_refused_or_harmless(seed in any::<u64>(), steps in 120usize..900, bits in 0u16..4096, drop in any::<bool>(), viewer in any::<bool>()) {
        let g = common::random_state(Rules::czech(), seed, steps);
        let viewer = if viewer { P1 } else { P0 };
        let mut obs = g.observation(viewer);
        let list = &mut obs.hidden_lost[viewer.other()];
        if drop {
            list.pop();
        } else if let Some(h) = list.first_mut() {
            h.ruled_out = KindSet::try_from(bits).unwrap();
        } else {
            list.push(HiddenLoss { kind: None, ruled_out: KindSet::try_from(bits).unwrap() });
        }
        if let Ok(d) = Stratego::determinize(&obs, &mut GameRng::seed_from_u64(1)) {
            prop_assert_eq!(d.observation(viewer), obs.clone());
            prop_assert!(fits_knowledge(&d, &obs));
        }
    }
}

/// Whole random games under each option set, determinised every few moves
/// from both sides: the ruled-out kinds do occur, and every completion
/// respects them.
#[test]
fn random_games_under_the_options_rule_kinds_out_and_completions_respect_them() {
    for rules in option_rules() {
        let mut constrained = 0;
        for seed in 0..6 {
            let mut rng = GameRng::seed_from_u64(seed);
            let mut g = Stratego::new(&rules).unwrap();
            let mut legal = Vec::new();
            let mut step = 0;
            while !g.is_terminal() {
                g.legal_actions(&mut legal);
                g.apply(legal[rng.random_range(0..legal.len())]).unwrap();
                step += 1;
                if step % 7 != 0 {
                    continue;
                }
                for viewer in PlayerId::BOTH {
                    let obs = g.observation(viewer);
                    assert!(fits_knowledge(&g, &obs));
                    if !nothing_ruled_out(&obs) {
                        constrained += 1;
                    }
                    let d = Stratego::determinize(&obs, &mut rng).unwrap();
                    assert_eq!(d.observation(viewer), obs);
                    assert!(fits_knowledge(&d, &obs));
                }
            }
        }
        assert!(constrained > 20, "{rules:?}: {constrained}");
    }
}
