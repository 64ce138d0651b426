//! Card war's events ([`CardWarEvent`]): every kind appears in seeded
//! games of the presets (the kit checks their words, their JSON and that
//! they tell nothing hidden), and each carries what the game did: a fight
//! with both totals and the arithmetic that makes them, a prayer with its
//! answer, the end with its winner.

use std::collections::BTreeSet;

use cardwar_core::game_traits::testkit::{
    check_events, check_events_are_their_views, env_count, event_kinds, events_of, random_steps,
};
use cardwar_core::{
    CardWar, CardWarEnding, CardWarEvent, CardWarFightSide, Outcome, PlayerId, Preset, RuleSet,
    Rules,
};

#[test]
fn every_event_kind_appears_in_seeded_games_of_the_presets() {
    let mut seen = BTreeSet::new();
    for Preset { name, rules, .. } in Rules::presets() {
        eprintln!("{name}");
        seen.extend(check_events::<CardWar>(
            &rules,
            env_count("CONFORMANCE_GAMES", 30).min(6),
        ));
    }
    assert_eq!(seen, event_kinds::<CardWar>());
}

#[test]
fn a_card_event_is_the_record_of_the_view_of_that_name() {
    let kinds = ["put_aside", "drew", "reinforcement"];
    let mut checked = std::collections::BTreeMap::new();
    for Preset { rules, .. } in Rules::presets() {
        for (kind, n) in check_events_are_their_views::<CardWar>(&rules, 6, &kinds) {
            *checked.entry(kind).or_insert(0) += n;
        }
    }
    let seen: BTreeSet<&str> = checked.keys().map(String::as_str).collect();
    assert_eq!(seen, kinds.into_iter().collect(), "{checked:?}");
}

/// The total its arithmetic makes, when it has one.
fn made(side: &CardWarFightSide) -> Option<u16> {
    let a = side.arithmetic?;
    assert_eq!(a.doubled, u16::from(a.die) << a.doublings);
    Some(u16::from(a.health) + a.halved.unwrap_or(a.doubled) + u16::from(a.prayer))
}

#[test]
fn a_fight_carries_both_totals_and_the_arithmetic_that_makes_them() {
    let mut fights = 0;
    let mut explained = 0;
    random_steps::<CardWar>(&Rules::default(), 6, |state, action, next| {
        for viewer in PlayerId::BOTH {
            for event in events_of(state, action, next, viewer) {
                let CardWarEvent::DefenceRoll {
                    fight: Some(fight), ..
                } = event
                else {
                    continue;
                };
                fights += 1;
                let report = next.public().battle.last_fight.unwrap();
                assert_eq!(fight.attack.total, report.attack_total);
                assert_eq!(fight.defence.total, report.defence_total);
                assert_eq!(fight.attack.player, state.public().battle.attacker);
                for side in [&fight.attack, &fight.defence] {
                    if let Some(total) = made(side) {
                        explained += 1;
                        assert_eq!(total, side.total, "{side:?}");
                    }
                }
            }
        }
    });
    assert!(
        fights > 0 && explained > 0,
        "{fights} fights, {explained} explained"
    );
}

#[test]
fn the_last_action_tells_the_winner() {
    let mut ends = 0;
    random_steps::<CardWar>(&Rules::default(), 4, |state, action, next| {
        for viewer in PlayerId::BOTH {
            let events = events_of(state, action, next, viewer);
            let over: Vec<_> = events
                .iter()
                .filter(|e| matches!(e, CardWarEvent::GameOver { .. }))
                .collect();
            let Some(outcome) = next.outcome() else {
                assert!(over.is_empty(), "{over:?} before the end");
                continue;
            };
            ends += 1;
            let [CardWarEvent::GameOver { winner, ending }] = over.as_slice() else {
                panic!("the end told as {events:?}")
            };
            assert_eq!(*winner, outcome.winner());
            let why = match outcome {
                Outcome::Win(_) => CardWarEnding::GeneralFell,
                Outcome::Draw => CardWarEnding::RoundLimit,
            };
            assert_eq!(*ending, why);
        }
    });
    assert_eq!(ends, 8, "four games, two viewers");
}
