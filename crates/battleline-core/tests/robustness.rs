//! Fuzz-like properties: no input through the public API panics, and a
//! refused action leaves the state as it was.

use battleline_core::{
    check_claim, formation_strength, Action, BattleLine, Card, CardSet, Colour, Deck, Environment,
    Flag, FormationOrder, Observation, Phase, Rules, Series, Tactic, WildCards, ACTION_SPACE,
};
use game_traits::{Game, GameRng, PlayerId, Turn};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_action_ids_never_panic(seed in any::<u64>(), movable in any::<bool>(), unseen in any::<bool>(), ids in proptest::collection::vec(0..ACTION_SPACE, 1..60)) {
        let mut rng = GameRng::seed_from_u64(seed);
        let rules = Rules {
            wild_cards: if unseen { WildCards::UnseenOnly } else { WildCards::CopyTable },
            ..if movable { Rules::movable_environment() } else { Rules::default() }
        };
        let mut s = BattleLine::new(&rules).unwrap();
        let mut legal = Vec::new();
        // Play into the game a random number of steps, then throw actions at it.
        let steps = rng.random_range(0..150);
        for _ in 0..steps {
            let a = match s.turn() {
                Turn::Terminal => break,
                Turn::Chance => s.sample_chance(&mut rng).unwrap(),
                Turn::Player(_) => {
                    s.legal_actions(&mut legal);
                    legal[rng.random_range(0..legal.len())]
                }
            };
            s.apply(a).unwrap();
        }
        for id in ids {
            let a = Action::from_id(id).unwrap();
            let before = s;
            let legal_now = s.is_legal(a);
            match s.apply(a) {
                Ok(()) => prop_assert!(legal_now),
                Err(_) => {
                    prop_assert!(!legal_now);
                    prop_assert_eq!(s, before);
                }
            }
        }
    }

    #[test]
    fn arbitrary_card_slices_never_panic(idx in proptest::collection::vec(0usize..70, 0..8), fog: bool, mud: bool) {
        let cards: Vec<Card> = idx.iter().filter_map(|&i| Card::from_index(i)).collect();
        let env = Environment { fog, mud };
        let _ = formation_strength(&cards, env, FormationOrder::Text);
        let mut flag = Flag::new();
        for (k, &c) in cards.iter().enumerate() {
            let _ = flag.place(PlayerId::BOTH[k % 2], c);
        }
        if mud { let _ = flag.add_mud(); }
        for p in [PlayerId::P0, PlayerId::P1] {
            let _ = check_claim(&flag, p, CardSet::ALL_TROOPS, &Rules::default());
        }
    }
}

/// A state just after the deal (Red 1-7 to P0, Blue 1-7 to P1), as JSON.
fn dealt_json() -> (BattleLine, String) {
    let mut s = BattleLine::new(&Rules::default()).unwrap();
    for v in 1..=7 {
        s.apply(Action::Deal(Card::troop(Colour::Red, v).unwrap()))
            .unwrap();
        s.apply(Action::Deal(Card::troop(Colour::Blue, v).unwrap()))
            .unwrap();
    }
    let json = serde_json::to_string(&s).unwrap();
    (s, json)
}

#[test]
fn tampered_observation_json_never_panics() {
    let (s, _) = dealt_json();
    let json = serde_json::to_string(&s.observation(PlayerId::P0)).unwrap();
    assert!(json.contains("\"pools\":[46,10]") && json.contains("\"top_lens\":[0,0]"));
    let bad = json
        .replace("\"pools\":[46,10]", "\"pools\":[200,200]")
        .replace("\"top_lens\":[0,0]", "\"top_lens\":[200,200]");
    let got = std::panic::catch_unwind(|| {
        serde_json::from_str::<Observation>(&bad).map(|o| (o.to_string(), o.deck_len(Deck::Troop)))
    });
    assert!(
        matches!(got, Ok(Err(_))),
        "a tampered observation must be refused"
    );
    // Neither may a view that contradicts itself (the viewer holds a card on the table).
    let bad = json.replace("\"hand\":127", "\"hand\":255");
    assert!(serde_json::from_str::<Observation>(&bad).is_err());
    let o: Observation = serde_json::from_str(&json).unwrap();
    assert_eq!(o, s.observation(PlayerId::P0));
}

#[test]
fn tampered_move_counter_is_refused() {
    let (_, json) = dealt_json();
    let bad = json.replace("\"moves\":0", "\"moves\":4294967295");
    assert_ne!(bad, json);
    let got = std::panic::catch_unwind(|| {
        if let Ok(mut s) = serde_json::from_str::<BattleLine>(&bad) {
            let mut legal = Vec::new();
            s.legal_actions(&mut legal);
            let _ = s.apply(legal[0]);
            return false;
        }
        true
    });
    assert!(
        matches!(got, Ok(true)),
        "a move counter beyond any game must be refused"
    );
}

#[test]
fn tampered_tactics_counts_are_refused() {
    let (_, json) = dealt_json();
    let bad = json.replace("\"tactics_played\":[0,0]", "\"tactics_played\":[1,1]");
    assert_ne!(bad, json);
    assert!(serde_json::from_str::<BattleLine>(&bad).is_err());
}

#[test]
fn series_with_huge_totals_never_panics() {
    let series = Series::new(Rules::default());
    let json = serde_json::to_string(&series).unwrap();
    let bad = json.replace("\"points\":[0,0]", "\"points\":[4294967295,4294967295]");
    assert_ne!(bad, json);
    let mut series: Series = serde_json::from_str(&bad).unwrap();
    let (mut a, mut b) = (game_traits::RandomAgent, game_traits::RandomAgent);
    let (game, _) =
        game_traits::play_match::<BattleLine>(&series.next_rules(), 1, &mut [&mut a, &mut b])
            .unwrap();
    let got = std::panic::catch_unwind(move || series.record(&game).map(|_| series.points()));
    assert!(matches!(got, Ok(Ok(_))), "recording must not overflow");
}

/// A state of a random game where `pred` holds, with its JSON.
fn find_state(pred: impl Fn(&BattleLine) -> bool) -> (BattleLine, String) {
    for seed in 0..200 {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut s = BattleLine::new(&Rules::default()).unwrap();
        let mut legal = Vec::new();
        while !s.is_terminal() {
            if pred(&s) {
                let json = serde_json::to_string(&s).unwrap();
                return (s, json);
            }
            let a = match s.turn() {
                Turn::Chance => s.sample_chance(&mut rng).unwrap(),
                _ => {
                    s.legal_actions(&mut legal);
                    legal[rng.random_range(0..legal.len())]
                }
            };
            s.apply(a).unwrap();
        }
    }
    panic!("no such state in 200 random games");
}

#[test]
fn tampered_leader_record_is_refused() {
    let leader = |s: &BattleLine, p: PlayerId| {
        s.table().flags().iter().any(|f| {
            f.side(p)
                .iter()
                .any(|c| c.as_tactic().is_some_and(Tactic::is_leader))
        })
    };
    let (_, json) = find_state(|s| leader(s, PlayerId::P0) && !leader(s, PlayerId::P1));
    // P0's Leader is on the table: forgetting that he played one would let
    // him play the second.
    let bad = json.replace("\"leaders_played\":[true,", "\"leaders_played\":[false,");
    assert_ne!(bad, json);
    assert!(serde_json::from_str::<BattleLine>(&bad).is_err());
}

#[test]
fn tampered_return_phase_without_scout_is_refused() {
    let (_, json) = find_state(|s| {
        s.table().phase() == Phase::Claim
            && s.table().scout_by().is_none()
            && s.hand(s.table().player()).len() >= 2
    });
    // A Return phase no Scout started would put cards on the decks that no
    // valid state can hold.
    let bad = json
        .replace("\"phase\":\"Claim\"", "\"phase\":\"Return\"")
        .replace("\"returns_due\":0", "\"returns_due\":2");
    assert_ne!(bad, json);
    assert!(serde_json::from_str::<BattleLine>(&bad).is_err());
}

#[test]
fn tampered_scout_returns_beyond_two_are_refused() {
    let (_, json) = find_state(|s| {
        s.table().phase() == Phase::Return
            && s.deck_len(Deck::Troop) + s.deck_len(Deck::Tactics) > 0
            && serde_json::to_string(s)
                .unwrap()
                .contains("\"returns_due\":1")
    });
    // One card is back on a deck; a third return would not fit on top.
    let bad = json.replace("\"returns_due\":1", "\"returns_due\":2");
    assert!(serde_json::from_str::<BattleLine>(&bad).is_err());
}

#[test]
fn tampered_settlement_flag_is_refused() {
    let (_, json) = dealt_json();
    let bad = json
        .replace("\"passes\":0", "\"passes\":2")
        .replace("\"settled\":false", "\"settled\":true");
    assert_ne!(bad, json);
    assert!(serde_json::from_str::<BattleLine>(&bad).is_err());
}
