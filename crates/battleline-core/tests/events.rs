//! Battle Line's events ([`BattleLineEvent`]): every kind appears in
//! seeded games of the presets (the kit checks their words, their JSON
//! and that they tell nothing hidden), and each carries what the game did:
//! a claim with the table that proves it, the end with each seat's flags.

use std::collections::BTreeSet;

use battleline_core::{
    Action, BattleLine, BattleLineEvent, CardCode, ClaimProof, EndingName, FlagId, Game, PlayerId,
    Preset, RuleSet, Rules,
};
use game_traits::testkit::{check_events, env_count, event_kinds, events_of, random_steps};

#[test]
fn every_event_kind_appears_in_seeded_games_of_the_presets() {
    let mut seen = BTreeSet::new();
    for Preset { name, rules, .. } in Rules::presets() {
        eprintln!("{name}");
        seen.extend(check_events::<BattleLine>(
            &rules,
            env_count("CONFORMANCE_GAMES", 30).min(6),
        ));
    }
    assert_eq!(seen, event_kinds::<BattleLine>());
}

/// The flag numbered `n` (1 to 9).
fn flag(n: u8) -> FlagId {
    FlagId::new(usize::from(n) - 1).unwrap()
}

#[test]
fn a_claim_carries_both_sides_of_the_flag_and_its_proof() {
    let mut claims = 0;
    random_steps::<BattleLine>(&Rules::default(), 6, |state, action, next| {
        let Action::Claim(claimed) = action else {
            return;
        };
        for viewer in PlayerId::BOTH {
            let events = events_of(state, action, next, viewer);
            let Some(BattleLineEvent::Claim {
                player,
                flag: n,
                claimant,
                opponent,
                proof,
            }) = events.first()
            else {
                panic!("{action} told as {events:?}")
            };
            claims += 1;
            let f = next.table().flag(flag(*n));
            assert_eq!((flag(*n), *player), (claimed, state.table().player()));
            let cards = |p: PlayerId| f.side(p).iter().map(CardCode).collect::<Vec<_>>();
            assert_eq!(claimant.cards, cards(*player));
            assert_eq!(opponent.cards, cards(player.other()));
            assert_eq!(
                claimant.strength.is_some(),
                f.strength(*player, next.rules().formation_order).is_some()
            );
            assert_eq!(f.claimed() == Some(*player), *proof != ClaimProof::NotWon);
        }
    });
    assert!(claims > 0);
}

#[test]
fn the_last_action_tells_the_winner_and_the_flags_held() {
    let mut ends = 0;
    random_steps::<BattleLine>(&Rules::default(), 6, |state, action, next| {
        for viewer in PlayerId::BOTH {
            let events = events_of(state, action, next, viewer);
            let over: Vec<_> = events
                .iter()
                .filter(|e| matches!(e, BattleLineEvent::GameOver { .. }))
                .collect();
            let Some(outcome) = next.outcome() else {
                assert!(over.is_empty(), "{over:?} before the end");
                continue;
            };
            ends += 1;
            let [BattleLineEvent::GameOver {
                winner,
                ending,
                flags,
                adjacent,
                ..
            }] = over.as_slice()
            else {
                panic!("the end told as {events:?}")
            };
            assert_eq!(*winner, outcome.winner());
            for p in PlayerId::BOTH {
                let held: Vec<u8> = next
                    .table()
                    .claimed(p)
                    .iter()
                    .map(|f| f.index() as u8 + 1)
                    .collect();
                assert_eq!(flags[p.index()], held);
            }
            match ending {
                EndingName::ThreeAdjacent => {
                    assert_eq!(adjacent.len(), 3);
                    assert_eq!(adjacent[2], adjacent[0] + 2);
                }
                EndingName::FiveFlags => assert!(flags[winner.unwrap().index()].len() >= 5),
                EndingName::MoreFlags | EndingName::Draw => assert!(adjacent.is_empty()),
            }
        }
    });
    assert_eq!(ends, 12, "six games, two viewers");
}
