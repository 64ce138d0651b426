//! Battle Line's events ([`BattleLineEvent`]): every kind appears in
//! seeded games of the presets (the kit checks their words, their JSON
//! and that they tell nothing hidden), and each carries what the game did:
//! a claim with the table that proves it, the end with each seat's flags.

use std::collections::BTreeSet;

use battleline_core::{
    Action, BattleLine, BattleLineEvent, CardCode, ClaimProof, EndingName, FlagId, Game, PlayerId,
    Preset, ProofTie, RuleSet, Rules, SideStruct, Turn, Wire,
};
use game_traits::testkit::{
    check_events, check_events_are_their_views, env_count, event_kinds, events_of, random_steps,
};

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
    // A refused claim is told only as the reason of its refusal.
    for (_, refusal) in refused_claims(&Rules::default(), 2) {
        let json = serde_json::to_value(&refusal).unwrap();
        seen.insert(json["kind"].as_str().unwrap().to_owned());
    }
    assert_eq!(seen, event_kinds::<BattleLine>());
}

/// Every claim refused with a counterexample in `games` seeded games,
/// with the state it was tried in.
fn refused_claims(rules: &Rules, games: u64) -> Vec<(BattleLine, BattleLineEvent)> {
    let mut found = Vec::new();
    random_steps::<BattleLine>(rules, games, |state, _, _| {
        let Turn::Player(me) = state.turn() else {
            return;
        };
        for f in FlagId::all() {
            let claim = Action::Claim(f);
            if state.is_legal(claim) {
                continue;
            }
            for refusal in BattleLine::refusal(&state.observation(me), claim) {
                found.push((*state, refusal));
            }
        }
    });
    found
}

#[test]
fn a_refused_claims_counterexample_beats_the_claimants_formation() {
    let rules = Rules::default();
    let order = rules.formation_order;
    let refusals = refused_claims(&rules, 6);
    assert!(refusals.len() > 20, "{}", refusals.len());
    let mut with_cards_to_come = 0;
    for (state, refusal) in refusals {
        let BattleLineEvent::ClaimRefused {
            player,
            flag: n,
            claimant,
            counterexample,
            to_come,
        } = &refusal
        else {
            panic!("a refusal told as {refusal:?}")
        };
        let table = state.table().flag(flag(*n));
        let other = player.other();
        let cards = |p: PlayerId| table.side(p).iter().map(CardCode).collect::<Vec<_>>();
        assert_eq!(Turn::Player(*player), state.turn());
        assert_eq!(claimant.cards, cards(*player));
        // The counterexample is the opponent's side as it stands, then
        // cards nobody has seen played or discarded.
        let (on_table, added) = counterexample.cards.split_at(cards(other).len());
        assert_eq!(on_table, cards(other).as_slice());
        assert_eq!(added, to_come.as_slice());
        let unseen = state.table().available_troops();
        assert!(to_come.iter().all(|c| unseen.contains(c.0)), "{refusal:?}");
        let mut completed = *table;
        for c in to_come {
            completed.place(other, c.0).unwrap();
        }
        let theirs = completed.strength(other, order).expect("complete");
        let mine = table.strength(*player, order).expect("complete");
        assert!(theirs >= mine, "{refusal:?}");
        if !to_come.is_empty() && rules.proof_tie == ProofTie::ClaimantWins {
            // Completed after the claimant's, a tie would not beat it.
            assert!(theirs > mine, "{refusal:?}");
        }
        let strength = |s: &SideStruct| s.strength.map(|s| s.sum);
        assert_eq!(strength(counterexample), Some(theirs.sum()));
        assert_eq!(strength(claimant), Some(mine.sum()));
        with_cards_to_come += usize::from(!to_come.is_empty());
    }
    assert!(with_cards_to_come > 0);
}

#[test]
fn a_card_event_is_the_record_of_the_view_of_that_name() {
    let kinds = ["dealt", "drew", "returned"];
    let checked = check_events_are_their_views::<BattleLine>(&Rules::default(), 6, &kinds);
    let seen: BTreeSet<&str> = checked.keys().map(String::as_str).collect();
    assert_eq!(seen, kinds.into_iter().collect(), "{checked:?}");
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
