//! Whole random games checked at every step, against the contract of
//! `Game` and plain reference implementations.

mod common;

use cardwar_core::game_traits::{play_match, RandomAgent};
use cardwar_core::rand::{Rng, SeedableRng};
use cardwar_core::{
    Action, CardSet, CardWar, Game, GameRng, Knowledge, PlayerId, Rules, Soldier, Turn,
    ACTION_SPACE,
};
use proptest::prelude::*;

use common::{act, battle, check, every_switch_flipped, fight, position, A, D};
use game_traits::RuleSet;

/// Rule sets to exercise: the default and every switch flipped.
fn all_rule_sets() -> Vec<Rules> {
    let d = Rules::default();
    vec![
        d,
        Rules {
            max_rounds: 5,
            ..every_switch_flipped()
        },
        Rules { aside: 20, ..d },
        Rules { aside: 24, ..d },
    ]
}

/// Plays a seeded random game, checking the whole contract at each step.
fn checked_game(rules: Rules, seed: u64) -> CardWar {
    let mut rng = GameRng::seed_from_u64(seed);
    let mut g = CardWar::new(&rules).unwrap();
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    let max = rules.max_game_length();
    let mut steps = 0;
    while g.turn() != Turn::Terminal {
        assert!(steps < max, "game longer than its bound");
        g.legal_actions(&mut legal);
        assert!(!legal.is_empty());
        // The fast listing against the plain definition: every id, in
        // order, that `is_legal` accepts.
        let reference: Vec<Action> = (0..ACTION_SPACE)
            .filter_map(Action::from_id)
            .filter(|&a| g.is_legal(a))
            .collect();
        assert_eq!(legal, reference);
        for &a in &legal {
            assert_eq!(Action::from_id(a.id()), Some(a));
        }
        let action = if g.turn() == Turn::Chance {
            g.chance_outcomes(&mut outcomes);
            let listed: Vec<Action> = outcomes.iter().map(|o| o.0).collect();
            assert_eq!(listed, legal);
            let total: f64 = outcomes.iter().map(|o| o.1).sum();
            assert!((total - 1.0).abs() < 1e-9);
            let a = g.sample_chance(&mut rng).unwrap();
            assert!(legal.contains(&a));
            a
        } else {
            legal[rng.random_range(0..legal.len())]
        };
        if steps % 7 == 0 {
            check_views(&g, &mut rng);
        }
        act(&mut g, action);
        steps += 1;
    }
    assert!(g.outcome().is_some());
    let sum: f64 = [A, D].iter().map(|&p| g.returns(p)).sum();
    assert_eq!(sum, 0.0);
    g
}

/// Observation, determinisation and serialisation round trips.
fn check_views(g: &CardWar, rng: &mut GameRng) {
    for p in [A, D] {
        let obs = g.observation(p);
        let dealt = CardWar::determinize(&obs, rng).unwrap();
        assert_eq!(dealt.observation(p), obs);
        assert_eq!(dealt.hidden(p), g.hidden(p));
        let json = serde_json::to_string(&obs).unwrap();
        assert_eq!(
            serde_json::from_str::<cardwar_core::Observation>(&json).unwrap(),
            obs
        );
    }
    let json = serde_json::to_string(g).unwrap();
    assert_eq!(&serde_json::from_str::<CardWar>(&json).unwrap(), g);
}

#[test]
fn random_games_keep_every_invariant() {
    for rules in all_rule_sets() {
        for seed in 0..12 {
            checked_game(rules, seed);
        }
    }
}

/// At every roll of random games, each other outcome would leave both
/// players a different observation: the observation keeps every roll, so
/// the action views may show its value.
#[test]
fn the_observation_keeps_every_roll() {
    for rules in all_rule_sets() {
        for seed in 0..4 {
            let mut rng = GameRng::seed_from_u64(seed);
            let mut g = CardWar::new(&rules).unwrap();
            let mut legal = Vec::new();
            while g.turn() != Turn::Terminal {
                g.legal_actions(&mut legal);
                let action = if g.turn() == Turn::Chance {
                    g.sample_chance(&mut rng).unwrap()
                } else {
                    legal[rng.random_range(0..legal.len())]
                };
                if matches!(action, Action::Die(_) | Action::Dice(_)) {
                    let seen = |a: Action| {
                        let mut after = g.clone();
                        after.apply(a).unwrap();
                        [after.observation(A), after.observation(D)]
                    };
                    let mine = seen(action);
                    for &other in legal.iter().filter(|&&b| b != action) {
                        let theirs = seen(other);
                        assert!(
                            mine[0] != theirs[0] && mine[1] != theirs[1],
                            "{action} and {other} look alike in\n{g}"
                        );
                    }
                }
                g.apply(action).unwrap();
            }
        }
    }
}

#[test]
fn rule_every_game_ends_within_max_length() {
    for seed in 0..200 {
        let (mut a, mut b) = (RandomAgent, RandomAgent);
        let (state, record) =
            play_match::<CardWar>(&Rules::default(), seed, &mut [&mut a, &mut b]).unwrap();
        assert!(state.outcome().is_some());
        assert!(record.actions().len() <= Rules::default().max_game_length() as usize);
        if seed % 20 == 0 {
            assert_eq!(record.replay().unwrap(), state);
        }
    }
}

#[test]
fn hidden_cards_never_reach_the_opponents_view() {
    let mut rng = GameRng::seed_from_u64(3);
    let mut g = CardWar::new(&Rules::default()).unwrap();
    let mut legal = Vec::new();
    for step in 0..400 {
        if g.turn() == Turn::Terminal {
            break;
        }
        if step % 5 == 0 {
            for p in [A, D] {
                // Two deals of what p cannot see look the same to p.
                let obs = g.observation(p);
                let x = CardWar::determinize(&obs, &mut rng).unwrap();
                let y = CardWar::determinize(&obs, &mut rng).unwrap();
                assert_eq!(x.observation(p), y.observation(p));
            }
        }
        g.legal_actions(&mut legal);
        let a = legal[rng.random_range(0..legal.len())];
        act(&mut g, a);
    }
}

#[test]
fn determinisation_deals_unseen_cards_differently() {
    let g = battle(Rules::default(), 1, &[5, 6, 7, 8], &[9, 10, 11, 12]);
    let obs = g.observation(A);
    let mut rng = GameRng::seed_from_u64(9);
    let hands: std::collections::HashSet<CardSet> = (0..20)
        .map(|_| CardWar::determinize(&obs, &mut rng).unwrap())
        .map(|s| {
            // D's face-down cards (slots 1..) vary; his revealed 9 does not.
            assert_eq!(s.line_card(D, 0), g.line_card(D, 0));
            (1..4).filter_map(|i| s.line_card(D, i)).collect()
        })
        .collect();
    assert!(hands.len() > 1);
}

#[test]
fn tampered_states_are_refused() {
    let g = checked_game(Rules::default(), 5);
    let json = serde_json::to_value(&g).unwrap();
    let mut bad = json.clone();
    bad["public"]["sides"][0]["hand"] = serde_json::json!(30);
    assert!(serde_json::from_value::<CardWar>(bad).is_err());
    let mut bad = json.clone();
    bad["public"]["first"] = serde_json::json!(7);
    assert!(serde_json::from_value::<CardWar>(bad).is_err());
    let mut bad = json.clone();
    bad["rules"]["max_rounds"] = serde_json::json!(0);
    assert!(serde_json::from_value::<CardWar>(bad).is_err());
    // A move counter past any game's length would overflow at the next
    // decision (found by the conformance kit's tampering).
    let mut bad = json.clone();
    bad["public"]["moves"] = serde_json::json!(u32::MAX);
    assert!(serde_json::from_value::<CardWar>(bad).is_err());
    // Knowledge of a pile that contradicts its cards or its count: after
    // setup each pile holds six cards never seen.
    let mut g = CardWar::new(&Rules::default()).unwrap();
    let mut rng = GameRng::seed_from_u64(2);
    while matches!(g.phase(), cardwar_core::Phase::Aside { .. }) {
        let a = g.sample_chance(&mut rng).unwrap();
        act(&mut g, a);
    }
    assert_eq!(g.side(A).unseen_in_pile, 6);
    let json = serde_json::to_value(&g).unwrap();
    let mut bad = json.clone();
    bad["public"]["sides"][0]["unseen_in_pile"] = serde_json::json!(7);
    assert!(serde_json::from_value::<CardWar>(bad).is_err());
    let mut bad = json;
    bad["public"]["sides"][0]["unseen_in_pile"] = serde_json::json!(5);
    assert!(serde_json::from_value::<CardWar>(bad).is_err());
}

#[test]
fn setup_with_too_few_cards_left_to_put_aside_is_refused() {
    // Found by the conformance kit: a setup state whose counts promise more
    // cards to put aside than a hand holds could be loaded, then stalled.
    let rules = Rules {
        aside: 20,
        ..Rules::default()
    };
    let mut g = CardWar::new(&rules).unwrap();
    let mut rng = GameRng::seed_from_u64(3);
    for _ in 0..18 {
        let a = g.sample_chance(&mut rng).unwrap();
        act(&mut g, a);
    }
    let json = serde_json::to_value(&g).unwrap();
    assert!(serde_json::from_value::<CardWar>(json.clone()).is_ok());
    // P1 seems to have started already although P0 has two to go.
    let mut bad = json.clone();
    bad["public"]["sides"][1]["pile"] = serde_json::json!(18);
    bad["public"]["sides"][1]["hand"] = serde_json::json!(6);
    bad["hidden"][1]["hand"] = serde_json::json!(0x3f);
    bad["hidden"][1]["pile"] = serde_json::json!(0xff_ffc0);
    assert!(serde_json::from_value::<CardWar>(bad).is_err());
    // P0's pile and the cards he has left to put aside exceed the rule.
    let mut bad = json;
    bad["public"]["phase"]["Aside"]["left"] = serde_json::json!(4);
    assert!(serde_json::from_value::<CardWar>(bad).is_err());
}

/// States in the middle of random games, as JSON.
fn snapshots() -> &'static [String] {
    static SNAPS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    SNAPS.get_or_init(|| {
        let mut out = Vec::new();
        let mut rng = GameRng::seed_from_u64(77);
        let mut legal = Vec::new();
        for rules in all_rule_sets() {
            let mut g = CardWar::new(&rules).unwrap();
            let mut step = 0;
            while g.turn() != Turn::Terminal {
                if step % 37 == 0 {
                    out.push(serde_json::to_string(&g).unwrap());
                }
                g.legal_actions(&mut legal);
                let a = legal[rng.random_range(0..legal.len())];
                g.apply(a).unwrap();
                step += 1;
            }
        }
        out
    })
}

/// The plain reading of a fight without modifiers: who dies and what the
/// winner keeps.
fn reference_fight(att: u8, def: u8, da: u8, dd: u8) -> (bool, bool, u8) {
    let (ta, td) = (att + da, def + dd);
    match ta.cmp(&td) {
        std::cmp::Ordering::Greater => (false, true, (ta - td).min(att)),
        std::cmp::Ordering::Less => (true, false, (td - ta).min(def)),
        std::cmp::Ordering::Equal => (true, true, 0),
    }
}

proptest! {
    // The integration test has no `lib.rs` beside it for proptest's default
    // path: the regressions are named from the package root (the working
    // directory of tests).
    #![proptest_config(ProptestConfig {
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::Direct(
                "proptest-regressions/properties.txt",
            ),
        )),
        ..ProptestConfig::default()
    })]

    #[test]
    fn fights_match_the_reference(att in 2u8..=13, def in 2u8..=13, da in 1u8..=6, dd in 1u8..=6) {
        let mut g = battle(Rules::default(), 1, &[att, 2], &[def, 3]);
        act(&mut g, Action::Die(da));
        act(&mut g, Action::Die(dd));
        let (att_dies, def_dies, left) = reference_fight(att, def, da, dd);
        let a_card = Soldier::of_rank(att, 0).unwrap();
        let d_card = Soldier::of_rank(def, 0).unwrap();
        prop_assert_eq!(g.hidden(A).pile.contains(a_card), att_dies);
        prop_assert_eq!(g.hidden(D).pile.contains(d_card), def_dies);
        let winner = if att_dies { D } else { A };
        if att_dies != def_dies {
            if left == 1 {
                // The health-1 rule moved it out of the fight, under the
                // card it fed.
                prop_assert!(g.side(winner).donors.len() == 1);
            } else {
                prop_assert_eq!(g.open_health(winner), Some(left));
            }
        }
    }

    #[test]
    fn nth_matches_iteration(bits in 0u32..(1 << 24), n in 0usize..26) {
        let set: CardSet = (0..24u8).filter(|i| bits & (1 << i) != 0).filter_map(Soldier::new).collect();
        prop_assert_eq!(set.nth(n), set.iter().nth(n));
        prop_assert_eq!(set.len(), set.iter().count());
    }

    #[test]
    fn len_counts_every_bit(bits in 0u32..(1 << 25)) {
        // A set from outside is refused if it carries bits past the
        // soldiers; any other set counts every bit.
        match serde_json::from_str::<CardSet>(&bits.to_string()) {
            Ok(set) => prop_assert_eq!(set.len(), bits.count_ones() as usize),
            Err(_) => prop_assert!(bits >= 1 << 24),
        }
    }

    #[test]
    fn arbitrary_actions_never_panic_and_errors_change_nothing(
        seed in any::<u64>(),
        ids in proptest::collection::vec(0usize..ACTION_SPACE + 3, 1..400),
    ) {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut g = CardWar::new(&Rules::default()).unwrap();
        for id in ids {
            if g.turn() == Turn::Terminal {
                break;
            }
            let Some(a) = Action::from_id(id) else { continue };
            let before = g.clone();
            match g.apply(a) {
                Ok(()) => check(&g),
                Err(_) => {
                    prop_assert_eq!(&g, &before);
                    // Keep the game moving with a chance outcome.
                    if let Some(c) = g.sample_chance(&mut rng) {
                        g.apply(c).unwrap();
                    }
                }
            }
        }
    }

    #[test]
    fn tampered_json_never_panics(seed in 0u64..1000, pos in any::<prop::sample::Index>(), digit in 0u8..10) {
        let snaps = snapshots();
        let mut rng = GameRng::seed_from_u64(seed);
        let mut json = snaps[seed as usize % snaps.len()].clone().into_bytes();
        let digits: Vec<usize> = json.iter().enumerate().filter(|(_, b)| b.is_ascii_digit()).map(|(i, _)| i).collect();
        let i = digits[pos.index(digits.len())];
        json[i] = b'0' + digit;
        let text = String::from_utf8(json).unwrap();
        if let Ok(mut t) = serde_json::from_str::<CardWar>(&text) {
            check(&t);
            let mut legal = Vec::new();
            for _ in 0..300 {
                if t.turn() == Turn::Terminal {
                    break;
                }
                t.legal_actions(&mut legal);
                prop_assert!(!legal.is_empty());
                let a = legal[rng.random_range(0..legal.len())];
                t.apply(a).unwrap();
            }
            for p in [PlayerId::P0, PlayerId::P1] {
                let _ = CardWar::determinize(&t.observation(p), &mut rng);
            }
        }
        if let Ok(obs) = serde_json::from_str::<cardwar_core::Observation>(&text) {
            let _ = CardWar::determinize(&obs, &mut rng);
        }
    }
}

#[test]
fn opponent_remembers_what_he_has_seen() {
    let mut g = battle(Rules::default(), 2, &[5, 13], &[12]);
    fight(&mut g, 1, 6); // the 5 dies: seen in A's pile
    fight(&mut g, 6, 1); // the queen dies, the king survives
    fight(&mut g, 1, 6); // the king dies against an ace
    let (five, queen) = (
        Soldier::of_rank(5, 0).unwrap(),
        Soldier::of_rank(12, 0).unwrap(),
    );
    assert!(g.side(A).known_pile.contains(five));
    assert!(g.side(D).known_pile.contains(queen));
    // A survivor seen on the field is known to be set aside, and a
    // determinisation puts it there.
    let mut g = battle(Rules::default(), 2, &[5], &[13]);
    fight(&mut g, 1, 6);
    let king = Soldier::of_rank(13, 0).unwrap();
    assert!(g.side(D).known_aside.contains(king));
    let mut rng = GameRng::seed_from_u64(1);
    for _ in 0..5 {
        let dealt = CardWar::determinize(&g.observation(A), &mut rng).unwrap();
        assert!(dealt.hidden(D).aside.contains(king));
    }
    // When the round ends it is known to be alive in the hand; the next
    // shuffle forgets the dead 5 in the pile.
    act(&mut g, Action::EndLine);
    assert!(g.side(D).known_alive.contains(king));
    assert!(g.side(A).known_pile.is_empty());
}

/// Frequencies of `sample_chance` against the listed probabilities, within
/// five standard deviations.
fn assert_sampler_matches(g: &CardWar, draws: usize, seed: u64) {
    let mut outcomes = Vec::new();
    g.chance_outcomes(&mut outcomes);
    let mut rng = GameRng::seed_from_u64(seed);
    let mut counts = vec![0usize; ACTION_SPACE];
    for _ in 0..draws {
        counts[g.sample_chance(&mut rng).unwrap().id()] += 1;
    }
    let listed: usize = outcomes.iter().map(|(a, _)| counts[a.id()]).sum();
    assert_eq!(listed, draws, "sampled an outcome that is not listed");
    for (a, p) in outcomes {
        let expected = p * draws as f64;
        let sigma = (draws as f64 * p * (1.0 - p)).sqrt();
        let got = counts[a.id()] as f64;
        assert!(
            (got - expected).abs() < 5.0 * sigma + 1.0,
            "{a}: {got} vs {expected}"
        );
    }
}

#[test]
fn sampler_matches_listed_probabilities() {
    // Guard roll (higher of two dice), soldier roll, 2d6, a pile draw, the
    // second initiative die.
    let mut g = battle(Rules::default(), 1, &[13], &[]);
    act(&mut g, Action::Die(3));
    assert_sampler_matches(&g, 36_000, 1);
    let mut g = battle(Rules::default(), 1, &[13], &[2]);
    act(&mut g, Action::Die(3));
    assert_sampler_matches(&g, 36_000, 2);
    let mut g = battle(Rules::default(), 2, &[5], &[9]);
    act(&mut g, Action::Pray);
    assert_sampler_matches(&g, 36_000, 3);
    let g = CardWar::new(&Rules::default()).unwrap();
    assert_sampler_matches(&g, 24_000, 4);
    let mut g = CardWar::new(&Rules {
        aside: 0,
        ..Rules::default()
    })
    .unwrap();
    act(&mut g, Action::Die(4));
    assert_sampler_matches(&g, 30_000, 5);
}

#[test]
fn tampered_line_view_is_refused_not_a_panic() {
    // `LineView` is public and deserialisable on its own: a length past
    // the slots must be refused, or `slots()` would index out of range.
    let json = serde_json::to_value(cardwar_core::LineView::default()).unwrap();
    let mut bad = json.clone();
    bad["len"] = serde_json::json!(200);
    let parsed = serde_json::from_value::<cardwar_core::LineView>(bad);
    assert!(parsed.is_err(), "a line of 200 cards was accepted");
    let mut bad = json;
    bad["len"] = serde_json::json!(1);
    bad["slots"][3]["health"] = serde_json::json!(5);
    assert!(serde_json::from_value::<cardwar_core::LineView>(bad).is_err());
}

#[test]
fn tampered_card_set_is_refused() {
    // A set with a bit past the 24 soldiers would list soldiers that
    // cannot exist (and whose action ids collide with other actions).
    assert!(serde_json::from_str::<CardSet>("16777216").is_err());
    assert_eq!(
        serde_json::from_str::<CardSet>("16777215").unwrap(),
        CardSet::ALL
    );
}

#[test]
fn knowledge_of_a_pile_survives_its_shuffle() {
    // A has no pile at the start; his 2, 3 and 4 die in front of D. After
    // the shuffle A draws two of them: D knows that A's pile still holds
    // only one of those three cards, and that the other two are in A's
    // hand, so no determinisation may deal anything else into the pile.
    let rules = Rules {
        aside: 0,
        keep_in_pile: 1,
        ..Rules::default()
    };
    // (A reserve in round 1 lets D end the round at once.)
    let rules = Rules {
        reserve_in_first_round: true,
        ..rules
    };
    let mut g = battle(rules, 1, &[2, 3, 4], &[13]);
    for _ in 0..3 {
        fight(&mut g, 1, 6);
    }
    let dead: CardSet = [2, 3, 4]
        .into_iter()
        .filter_map(|r| Soldier::of_rank(r, 0))
        .collect();
    assert_eq!(g.hidden(A).pile, dead);
    act(&mut g, Action::EndLine);
    assert_eq!(g.phase(), cardwar_core::Phase::DrawRoll { player: A });
    act(&mut g, Action::Dice(2));
    let mut rng = GameRng::seed_from_u64(9);
    while let cardwar_core::Phase::Draw { .. } = g.phase() {
        let a = g.sample_chance(&mut rng).unwrap();
        act(&mut g, a);
    }
    assert_eq!(g.side(A).pile, 1);
    let obs = g.observation(D);
    for _ in 0..50 {
        let dealt = CardWar::determinize(&obs, &mut rng).unwrap();
        assert_eq!(dealt.observation(D), obs);
        let pile = dealt.hidden(A).pile;
        assert!(
            pile.minus(dead).is_empty(),
            "dealt {pile} into A's pile, which holds one of {dead}"
        );
    }
}

#[test]
fn knowledge_of_a_reinforcement_comes_from_the_pile() {
    // A's pile holds only cards D saw dying (2, 3, 4). A prays and a
    // reinforcement joins the end of his line face down: D knows it is one
    // of those three, so no determinisation may deal a card of A's hand
    // into that slot.
    let rules = Rules {
        aside: 0,
        ..Rules::default()
    };
    let dead: CardSet = [2, 3, 4]
        .into_iter()
        .map(|r| common::soldier(r, 0))
        .collect();
    let known = Knowledge {
        known_pile: dead,
        ..Knowledge::default()
    };
    let mut g = position(rules, 2, &[5, 6], &[9, 9])
        .pile(A, &[2, 3, 4])
        .with(|b| b.knowledge(A, known))
        .fights();
    act(&mut g, Action::Pray);
    act(&mut g, Action::Dice(7));
    let mut rng = GameRng::seed_from_u64(5);
    let a = g.sample_chance(&mut rng).unwrap();
    act(&mut g, a);
    assert_eq!(g.side(A).line.len(), 3);
    let obs = g.observation(D);
    for _ in 0..50 {
        let dealt = CardWar::determinize(&obs, &mut rng).unwrap();
        assert_eq!(dealt.observation(D), obs);
        let slot = dealt.line_card(A, 2).unwrap();
        assert!(dead.contains(slot), "dealt {slot} as A's reinforcement");
        assert!(dealt.hidden(A).pile.minus(dead).is_empty());
    }
}
