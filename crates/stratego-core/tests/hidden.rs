//! Hidden information: what observations show, and determinisation.

mod common;

use common::Pieces;

use game_traits::PlayerId::{P0, P1};

use common::{play, pos};
use game_traits::{Game, GameRng, PlayerId};
use proptest::prelude::*;
use rand::SeedableRng;
use stratego_core::{classic, srazhenie};
use stratego_core::{Kind, KindSet, ObsCell, Rules, Setup, Stratego};

fn rule_sets() -> [Rules; 4] {
    [
        Rules::srazhenie(),
        Rules::czech(),
        Rules {
            reveal_attacker: false,
            ..Rules::czech()
        },
        Rules {
            more_squares_rule: true,
            ..Rules::classic()
        },
    ]
}

#[test]
fn observation_shows_own_pieces_and_hides_unrevealed_foes() {
    let mut g = pos(
        Rules::classic(),
        &[
            ("a1", P0, classic::FLAG),
            ("j10", P1, classic::FLAG),
            ("e3", P0, classic::GENERAL),
            ("e4", P1, classic::MAJOR),
            ("h8", P1, classic::CAPTAIN),
            ("b9", P1, classic::BOMB),
        ],
        P0,
    );
    let obs = g.observation(P0);
    assert_eq!(
        obs.cells[common::sq("e3").index()],
        ObsCell::Own {
            kind: classic::GENERAL,
            moved: false,
            revealed: false,
            ruled_out: KindSet::EMPTY,
        }
    );
    assert_eq!(
        obs.cells[common::sq("h8").index()],
        ObsCell::Foe {
            kind: None,
            moved: false,
            ruled_out: KindSet::EMPTY,
        }
    );
    assert_eq!(obs.cells[common::sq("c5").index()], ObsCell::Lake);
    play(&mut g, &["e3-e4", "h8-h7"]);
    let obs = g.observation(P0);
    assert_eq!(
        obs.cells[common::sq("h7").index()],
        ObsCell::Foe {
            kind: None,
            moved: true,
            ruled_out: KindSet::EMPTY,
        },
        "moved: no mine, no flag"
    );
    assert_eq!(
        obs.lost[P1][classic::MAJOR.index()],
        g.lost(P1)[classic::MAJOR.index()],
        "captured pieces are public"
    );
    let shown = obs.to_string();
    assert!(shown.contains("??") && shown.contains("?>"), "{shown}");
}

#[test]
fn hidden_ranks_never_reach_the_opponent() {
    // Two positions that differ only in the rank of an unmoved, unrevealed
    // piece give its opponent identical observations.
    let base = [
        ("a1", P0, srazhenie::FLAG),
        ("j10", P1, srazhenie::FLAG),
        ("e3", P0, srazhenie::GENERAL),
        ("h8", P1, srazhenie::CAPTAIN),
    ];
    let mut a = base.to_vec();
    a.push(("c9", P1, srazhenie::MINE));
    let mut b = base.to_vec();
    b.push(("c9", P1, srazhenie::MARSHAL));
    let (ga, gb) = (
        pos(Rules::srazhenie(), &a, P0),
        pos(Rules::srazhenie(), &b, P0),
    );
    assert_ne!(ga, gb);
    assert_ne!(ga.observation(P1), gb.observation(P1));
    let (oa, ob) = (ga.observation(P0), gb.observation(P0));
    assert_eq!(oa.cells, ob.cells);
    assert_eq!(
        oa.to_string().lines().skip(1).collect::<Vec<_>>().len(),
        ob.to_string().lines().skip(1).count()
    );
}

#[test]
fn renderings_from_both_seats_and_omniscient() {
    let rules = Rules::srazhenie();
    let mut rng = GameRng::seed_from_u64(11);
    let (a, b) = (
        Setup::smart(rules.variant, &mut rng),
        Setup::smart(rules.variant, &mut rng),
    );
    let g = Stratego::new_with_setups(&rules, &a, &b).unwrap();
    let all = g.to_string();
    let p0 = g.observation(P0).to_string();
    let p1 = g.observation(P1).to_string();
    assert!(!all.contains("??"), "omniscient shows every rank");
    assert_eq!(p0.matches("??").count(), 40);
    assert_eq!(p1.matches("??").count(), 40);
    // Each player sees his own army at the bottom.
    let last_board_line = |s: &str| {
        s.lines()
            .rfind(|l| l.contains('+') || l.contains('-'))
            .unwrap_or("")
            .to_string()
    };
    assert!(last_board_line(&p0).contains('+'));
    assert!(last_board_line(&p1).contains('-'));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn determinisation_is_consistent_with_the_observation(
        which in 0usize..4, seed in any::<u64>(), steps in 0usize..700, viewer in prop::sample::select(PlayerId::BOTH.to_vec()), dseed in any::<u64>()
    ) {
        let g = common::random_state(rule_sets()[which], seed, steps);
        let obs = g.observation(viewer);
        let d = Stratego::determinize(&obs, &mut GameRng::seed_from_u64(dseed)).unwrap();
        prop_assert_eq!(d.observation(viewer), obs.clone());
        let foe = viewer.other();
        let mut counts = [0u8; Kind::COUNT];
        for sq in stratego_core::Square::all() {
            let (Some((o, dk)), Some((_, tk))) = (d.piece_of(sq), g.piece_of(sq)) else { continue };
            if o == viewer {
                prop_assert_eq!(dk, tk, "own pieces are known");
                continue;
            }
            counts[dk.index()] += 1;
            if g.moved_at(sq) {
                prop_assert!(dk.is_mobile(), "a moved piece is no mine or flag");
            }
            if g.revealed_at(sq) {
                prop_assert_eq!(dk, tk, "revealed pieces keep their rank");
            }
        }
        if g.in_play() {
            for k in Kind::ALL {
                prop_assert_eq!(
                    counts[k.index()] + d.lost(foe)[k.index()],
                    g.rules().variant.count(k),
                    "the army adds up"
                );
            }
        }
        // The determinised game goes on with the same legal moves.
        let (mut l1, mut l2) = (Vec::new(), Vec::new());
        if g.current_player() == Some(viewer) {
            g.legal_actions(&mut l1);
            d.legal_actions(&mut l2);
            prop_assert_eq!(l1, l2);
        }
    }

    #[test]
    fn tampered_observations_are_refused_not_panicking(which in 0usize..4, seed in any::<u64>(), steps in 0usize..400, idx in 0usize..100, cell in 0u8..6) {
        let g = common::random_state(rule_sets()[which], seed, steps);
        let mut obs = g.observation(P0);
        obs.cells[idx] = match cell {
            0 => ObsCell::Empty,
            1 => ObsCell::Lake,
            2 => ObsCell::Foe { kind: None, moved: true, ruled_out: KindSet::EMPTY },
            3 => ObsCell::Foe { kind: Some(Kind::FLAG), moved: true, ruled_out: KindSet::EMPTY },
            4 => ObsCell::Own { kind: Kind::R0, moved: false, revealed: false, ruled_out: KindSet::EMPTY },
            _ => ObsCell::Foe { kind: Some(Kind::R0), moved: false, ruled_out: KindSet::EMPTY },
        };
        if let Ok(d) = Stratego::determinize(&obs, &mut GameRng::seed_from_u64(1)) {
            prop_assert_eq!(d.observation(P0), obs);
        }
    }

    #[test]
    fn states_round_trip_through_json(which in 0usize..4, seed in any::<u64>(), steps in 0usize..700) {
        let g = common::random_state(rule_sets()[which], seed, steps);
        let json = serde_json::to_string(&g).unwrap();
        let back: Stratego = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back, g);
    }
}

#[test]
fn tampered_states_are_refused() {
    let g = common::random_state(Rules::classic(), 3, 200);
    let json = serde_json::to_value(&g).unwrap();
    let mut bad = json.clone();
    bad["cells"][42] = serde_json::json!(0x8a); // a lake (c6) holding a mine
    assert!(serde_json::from_value::<Stratego>(bad).is_err());
    let mut bad = json.clone();
    bad["placed"] = serde_json::json!([40, 12]);
    assert!(serde_json::from_value::<Stratego>(bad).is_err());
    let mut bad = json;
    bad["lost"][0][0] = serde_json::json!(1);
    assert!(serde_json::from_value::<Stratego>(bad).is_err());
    // A stuck player to move with the game still going on.
    let stuck = pos(
        Rules::srazhenie(),
        &[
            ("a1", P0, Kind::FLAG),
            ("j10", P1, Kind::FLAG),
            ("e3", P0, Kind::R1),
            ("i10", P1, Kind::MINE),
        ],
        P1,
    );
    assert!(stuck.is_terminal());
    let mut bad = serde_json::to_value(&stuck).unwrap();
    bad["end"] = serde_json::Value::Null;
    assert!(serde_json::from_value::<Stratego>(bad).is_err());
}

/// The position of `p_stuck_unless`: the second player's only movable piece
/// is unmoved on e8; his other unknown pieces (flag, mine) stand in corners
/// walled in by revealed mines. He is to move, so the first player knows
/// the movable piece stands where it can move.
fn boxed_corners() -> Stratego {
    let g = pos(
        Rules::classic(),
        &[
            ("a1", P0, classic::FLAG),
            ("e3", P0, classic::GENERAL),
            ("a10", P1, classic::FLAG),
            ("b10", P1, classic::BOMB),
            ("a9", P1, classic::BOMB),
            ("e8", P1, classic::CAPTAIN),
            ("j10", P1, classic::BOMB),
            ("i10", P1, classic::BOMB),
            ("j9", P1, classic::BOMB),
        ],
        P1,
    );
    // Reveal the four wall mines (as fights would have).
    let mut json = serde_json::to_value(&g).unwrap();
    for i in [1usize, 10, 8, 19] {
        let c = json["cells"][i].as_u64().unwrap();
        json["cells"][i] = serde_json::json!(c | 0x20);
    }
    serde_json::from_value(json).unwrap()
}

#[test]
fn rule_determinisation_knows_the_player_to_move_can_move() {
    let g = boxed_corners();
    let obs = g.observation(PlayerId::P0);
    for seed in 0..64 {
        let d = Stratego::determinize(&obs, &mut GameRng::seed_from_u64(seed))
            .expect("the true state is one consistent completion");
        assert_eq!(d.observation(P0), obs);
        assert_eq!(
            d.piece_of(common::sq("e8")),
            Some((P1, Kind::R4)),
            "seed {seed}"
        );
    }
}

#[test]
fn tampered_end_of_game_is_refused() {
    let g = pos(
        Rules::classic(),
        &[
            ("a1", P0, classic::FLAG),
            ("j10", P1, classic::FLAG),
            ("e3", P0, classic::GENERAL),
            ("e8", P1, classic::COLONEL),
        ],
        P0,
    );
    let json = serde_json::to_value(&g).unwrap();
    for end in [
        serde_json::json!({"winner": 1, "reason": "FlagCaptured"}),
        serde_json::json!({"winner": null, "reason": "FlagCaptured"}),
        serde_json::json!({"winner": 1, "reason": "NoLegalMove"}),
        serde_json::json!({"winner": null, "reason": "BothStuck"}),
        serde_json::json!({"winner": null, "reason": "FlagUnreachable"}),
        serde_json::json!({"winner": null, "reason": "NoAttackLimit"}),
        serde_json::json!({"winner": null, "reason": "MoveLimit"}),
        serde_json::json!({"winner": 0, "reason": "MoveLimit"}),
    ] {
        let mut bad = json.clone();
        bad["end"] = end.clone();
        assert!(
            serde_json::from_value::<Stratego>(bad).is_err(),
            "{end} accepted"
        );
    }
    // A state after a fight still round-trips.
    let mut won = g.clone();
    play(&mut won, &["e3-e4", "e8-e7", "e4-e5", "e7-e6", "e5-e6"]);
    let back: Stratego = serde_json::from_str(&serde_json::to_string(&won).unwrap()).unwrap();
    assert_eq!(back, won);
}
