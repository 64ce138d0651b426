//! Fuzz-like properties: nothing a caller can pass through the public API
//! makes the engine panic, and refused actions leave the state unchanged.

mod common;

use game_traits::Game;
use proptest::prelude::*;
use stratego_core::{Kind, Rules, SetupSquare, Square, Stratego, Variant, ACTION_SPACE};

fn rules_of(i: usize) -> Rules {
    match i % 4 {
        0 => Rules::srazhenie(),
        1 => Rules::czech(),
        2 => Rules {
            more_squares_rule: true,
            ..Rules::classic()
        },
        _ => Rules {
            runner_soldiers: true,
            ..Rules::srazhenie()
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_actions_are_refused_cleanly(which in 0usize..4, seed in any::<u64>(), steps in 0usize..600, ids in prop::collection::vec(0usize..ACTION_SPACE + 50, 1..40)) {
        let g = common::random_state(rules_of(which), seed, steps);
        let rules = *g.rules();
        for id in ids {
            let Some(a) = Stratego::action_from_id(&rules, id) else {
                prop_assert!(id >= ACTION_SPACE);
                continue;
            };
            prop_assert_eq!(Stratego::action_id(&rules, a), id);
            let mut h = g.clone();
            match h.apply(a) {
                Ok(()) => prop_assert!(g.is_legal(a)),
                Err(_) => {
                    prop_assert!(!g.is_legal(a));
                    prop_assert_eq!(&h, &g);
                }
            }
            // Unchecked application of anything stays panic-free.
            let mut u = g.clone();
            u.apply_unchecked(a);
            let _ = u.to_string();
        }
    }

    #[test]
    fn arbitrary_positions_are_refused_or_consistent(which in 0usize..4, pieces in prop::collection::vec((0u8..110, 0u8..3, 0u8..13), 0..50), to_move in 0u8..3) {
        let list: Vec<(Square, u8, Kind)> = pieces
            .iter()
            .filter_map(|&(s, o, k)| Some((Square::new(s)?, o, Kind::new(k)?)))
            .collect();
        if let Ok(g) = Stratego::from_position(&rules_of(which), &list, to_move) {
            let json = serde_json::to_string(&g).unwrap();
            prop_assert_eq!(serde_json::from_str::<Stratego>(&json).unwrap(), g.clone());
            let mut legal = Vec::new();
            g.legal_actions(&mut legal);
            prop_assert_eq!(legal.is_empty(), g.is_terminal());
        }
    }

    #[test]
    fn arbitrary_names_and_setup_squares(name in "\\PC{0,4}", row in any::<u8>(), col in any::<u8>(), player in any::<usize>(), k in any::<u8>()) {
        let _ = name.parse::<Square>();
        let ss = SetupSquare { row, col };
        prop_assert_eq!(ss.board_square(player).is_some(), row < 4 && col < 10);
        if let Some(kind) = Kind::new(k) {
            for v in Variant::ALL {
                let _ = (v.letter(kind), v.name(kind), v.symbol(kind), v.fight(kind, kind));
            }
        }
    }
}

#[test]
fn square_names_round_trip() {
    for sq in Square::all() {
        assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        assert_eq!(Square::new(sq.index() as u8), Some(sq));
    }
    assert!(
        "k1".parse::<Square>().is_err()
            && "a0".parse::<Square>().is_err()
            && "a11".parse::<Square>().is_err()
    );
}
