//! Fuzz-like properties: nothing a caller can pass through the public API
//! makes the engine panic, and refused actions leave the state unchanged.

mod common;

use game_traits::Game;
use game_traits::PlayerId::{P0, P1};
use game_traits::RuleSet;
use proptest::prelude::*;
use stratego_core::{
    Action, Kind, Move, Piece, PositionBuilder, Rules, SetupSquare, Square, Stratego, Variant,
};

fn rules_of(i: usize) -> Rules {
    match i % 6 {
        0 => Rules::srazhenie(),
        1 => Rules::czech(),
        2 => Rules {
            more_squares_rule: true,
            ..Rules::classic()
        },
        3 => Rules {
            runner_soldiers: true,
            ..Rules::srazhenie()
        },
        4 => Rules {
            reveal_attacker: false,
            czech_scout_steps_diagonally: false,
            ..Rules::czech()
        },
        _ => Rules {
            more_squares_rule: true,
            two_square_limit: None,
            no_attack_limit: Some(40),
            max_moves: 300,
            ..Rules::classic()
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_actions_are_refused_cleanly(which in 0usize..4, seed in any::<u64>(), steps in 0usize..600, ids in prop::collection::vec(0usize..1700, 1..40), raw in prop::collection::vec((0u8..100, 0u8..100), 0..20)) {
        let g = common::random_state(rules_of(which), seed, steps);
        let rules = *g.rules();
        let space = rules.action_space();
        // Ids of the space, and moves of any shape, inside it or not.
        let mut actions = Vec::new();
        for id in ids {
            let Some(a) = rules.action_from_id(id) else {
                prop_assert!(id >= space);
                continue;
            };
            prop_assert_eq!(rules.action_id(a), id);
            actions.push(a);
        }
        for (f, t) in raw {
            let (Some(from), Some(to)) = (Square::new(f), Square::new(t)) else { continue };
            let a = Action::Move(Move { from, to });
            if rules.action_id(a) >= space {
                prop_assert!(!g.is_legal(a));
            }
            actions.push(a);
        }
        for a in actions {
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
    fn arbitrary_positions_are_refused_or_consistent(which in 0usize..4, pieces in prop::collection::vec((0u8..110, any::<bool>(), 0u8..13, any::<bool>(), any::<bool>()), 0..50), to_move in any::<bool>(), setup in any::<bool>()) {
        let mut b = PositionBuilder::new(rules_of(which)).setup_phase(setup).to_move(if to_move { P1 } else { P0 });
        for &(s, o, k, moved, revealed) in &pieces {
            if let (Some(sq), Some(kind)) = (Square::new(s), Kind::new(k)) {
                let mut p = Piece::new(if o { P1 } else { P0 }, kind);
                p.moved = moved;
                p.revealed = revealed;
                b = b.piece(sq, p);
            }
        }
        if let Ok(g) = b.build() {
            let json = serde_json::to_string(&g).unwrap();
            prop_assert_eq!(serde_json::from_str::<Stratego>(&json).unwrap(), g.clone());
            prop_assert_eq!(Stratego::from_notation(&g.to_notation()), Ok(g.clone()));
            let mut legal = Vec::new();
            g.legal_actions(&mut legal);
            prop_assert_eq!(legal.is_empty(), g.is_terminal());
        }
    }

    /// Any text is read or refused with a typed error, never a panic.
    #[test]
    fn arbitrary_notation_is_refused_cleanly(text in "\\PC{0,120}") {
        let _ = Stratego::from_notation(&text);
    }

    /// Texts close to valid notation: a real position with a few bytes
    /// changed, dropped or inserted.
    #[test]
    fn mutated_notation_is_refused_or_consistent(which in 0usize..4, seed in any::<u64>(), steps in 0usize..400, edits in prop::collection::vec((any::<usize>(), 0u8..3, prop::sample::select(b"0123456789abcdefjklmBCDLMP~/>*{},-@x<[]=_ ".to_vec())), 1..4)) {
        let g = common::random_state(rules_of(which), seed, steps);
        let mut text = g.to_notation().into_bytes();
        for (at, op, byte) in edits {
            let i = at % (text.len() + 1);
            match op {
                0 if i < text.len() => text[i] = byte,
                1 if i < text.len() => { text.remove(i); }
                _ => text.insert(i, byte),
            }
        }
        let text = String::from_utf8_lossy(&text);
        if let Ok(h) = Stratego::from_notation(&text) {
            prop_assert_eq!(Stratego::from_notation(&h.to_notation()), Ok(h.clone()));
            let json = serde_json::to_string(&h).unwrap();
            prop_assert_eq!(serde_json::from_str::<Stratego>(&json).unwrap(), h);
        }
    }

    /// Every reachable state survives notation and back unchanged.
    #[test]
    fn notation_round_trips_reachable_states(which in 0usize..6, seed in any::<u64>(), steps in 0usize..900) {
        let g = common::random_state(rules_of(which), seed, steps);
        let text = g.to_notation();
        prop_assert!(!text.contains('\n'));
        prop_assert_eq!(Stratego::from_notation(&text), Ok(g.clone()), "{}", text);
        prop_assert_eq!(text.parse::<Stratego>(), Ok(g));
    }

    #[test]
    fn arbitrary_names_and_setup_squares(name in "\\PC{0,4}", row in any::<u8>(), col in any::<u8>(), player in any::<bool>(), k in any::<u8>()) {
        let _ = name.parse::<Square>();
        let ss = SetupSquare { row, col };
        prop_assert_eq!(ss.board_square(if player { P1 } else { P0 }).is_some(), row < 4 && col < 10);
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
