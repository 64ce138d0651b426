//! Stratego's events ([`StrategoEvent`]): every kind appears in seeded
//! games of the presets (the kit checks their words, their JSON and that
//! they tell nothing hidden), and each carries what the game did: a
//! fight's pieces as the viewer knows them and who fell, the end and its
//! reason.

use std::collections::BTreeSet;

use game_traits::testkit::{check_events, env_count, event_kinds, events_of, random_steps};
use game_traits::{Game, PlayerId, Preset, RuleSet, Wire};
use stratego_core::{
    Action, EventPiece, FightResult, Kind, Rules, Stratego, StrategoEvent, Variant, WirePhase,
};

#[test]
fn every_event_kind_appears_in_seeded_games_of_the_presets() {
    let mut seen = BTreeSet::new();
    for Preset { name, rules, .. } in Rules::presets() {
        eprintln!("{name}");
        seen.extend(check_events::<Stratego>(
            &rules,
            env_count("CONFORMANCE_GAMES", 30).min(3),
        ));
    }
    assert_eq!(seen, event_kinds::<Stratego>());
}

/// Whether `piece` names `kind` of `variant`.
fn names(piece: &EventPiece, variant: Variant, kind: Kind) -> bool {
    let full = variant.name(kind);
    match piece.rank {
        Some(rank) => full == format!("{} ({rank})", piece.piece),
        None => full == piece.piece,
    }
}

#[test]
fn a_fight_names_the_pieces_its_viewer_knows_and_who_fell() {
    let rules = Rules::default();
    let variant = rules.variant;
    let mut fights = 0;
    random_steps::<Stratego>(&rules, 2, |state, action, next| {
        let Action::Move(m) = action else { return };
        let (Some(attacking), Some(defending)) = (state.piece(m.from), state.piece(m.to)) else {
            return;
        };
        for viewer in PlayerId::BOTH {
            let events = events_of(state, action, next, viewer);
            let Some(StrategoEvent::Fight {
                attacker,
                from,
                to,
                attacking: a,
                defending: d,
                result,
            }) = events.first()
            else {
                panic!("{m} is an attack, told {events:?}")
            };
            fights += 1;
            assert_eq!(
                (*attacker, from, to),
                (attacking.owner, &m.from.to_string(), &m.to.to_string())
            );
            // He knows his own piece, and a piece named is the true one.
            let own = if viewer == attacking.owner { a } else { d };
            assert!(own.is_some(), "{events:?}");
            assert!(
                a.as_ref().is_none_or(|p| names(p, variant, attacking.kind)),
                "{events:?}"
            );
            assert!(
                d.as_ref().is_none_or(|p| names(p, variant, defending.kind)),
                "{events:?}"
            );
            let fell = match next.piece(m.to) {
                Some(p) if p.owner == attacking.owner => FightResult::AttackerWins,
                Some(_) => FightResult::DefenderWins,
                None => FightResult::BothLeave,
            };
            assert_eq!(*result, fell);
        }
    });
    assert!(fights > 0);
}

#[test]
fn the_last_action_tells_the_end_and_its_reason() {
    let rules = Rules::default();
    let mut ends = 0;
    random_steps::<Stratego>(&rules, 2, |state, action, next| {
        for viewer in PlayerId::BOTH {
            let over: Vec<_> = events_of(state, action, next, viewer)
                .into_iter()
                .filter(|e| matches!(e, StrategoEvent::GameOver { .. }))
                .collect();
            let Some(end) = next.end() else {
                assert!(over.is_empty(), "{over:?} before the end");
                continue;
            };
            ends += 1;
            let [StrategoEvent::GameOver { winner, reason }] = over.as_slice() else {
                panic!("the end told as {over:?}")
            };
            let phase = Stratego::observation_struct(&next.observation(viewer)).phase;
            assert_eq!(
                phase,
                WirePhase::Over {
                    winner: end.winner,
                    reason: *reason
                }
            );
            assert_eq!(*winner, end.winner);
        }
    });
    assert_eq!(ends, 4, "two games, two viewers");
}
