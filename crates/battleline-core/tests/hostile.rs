//! Hostile input: tampered states, observations and records of random games
//! (each refused, or accepted and then held to the whole contract), and the
//! true final observations of random games under every preset, each of which
//! must determinise. `HOSTILE_INPUTS` (default 300 per rule set) and
//! `FINAL_GAMES` (default 40 per preset) scale the run.

use battleline_core::{BattleLine, Rules};
use game_traits::testkit::{determinise_final_positions, env_count as env, hostile_run};
use game_traits::Preset;
use game_traits::RuleSet;

#[test]
fn hostile_inputs_are_refused_or_keep_every_contract() {
    let inputs = env("HOSTILE_INPUTS", 300);
    for Preset { name, rules, .. } in Rules::presets() {
        let start = std::time::Instant::now();
        let report = hostile_run::<BattleLine>(&rules, inputs, 1);
        println!("{name}: {report} ({:.1?})", start.elapsed());
        assert_eq!(report.inputs, inputs);
        assert!(
            report.accepted > 0 && report.refused > 0,
            "{name}: {report}"
        );
    }
}

#[test]
fn every_final_observation_determinises() {
    let games = env("FINAL_GAMES", 40);
    for Preset { name, rules, .. } in Rules::presets() {
        let start = std::time::Instant::now();
        let n = determinise_final_positions::<BattleLine>(&rules, games, 7);
        println!(
            "{name}: {n} final observations of {games} games determinised ({:.1?})",
            start.elapsed()
        );
        assert_eq!(n, 2 * games);
    }
}

// Regression tests of issue 15, fault C (the state check bounded counters
// one by one, not against the phase, Scout and the cards) and fault F
// (rules stored with a state that its history contradicts).

use battleline_core::{
    Card, ClaimTiming, Colour, Deck, FlagId, Game, GameRng, LeaderLimit, Phase, PlayerId,
    PositionBuilder, Tactic, Turn, MAX_GAME_LENGTH,
};
use game_traits::testkit::check_accepted;
use rand::{Rng, SeedableRng};

/// States of seeded random games under `rules` where `pred` holds (at most
/// `n`, one per game at most every few steps).
fn states(rules: &Rules, n: usize, pred: impl Fn(&BattleLine) -> bool) -> Vec<BattleLine> {
    let mut found = Vec::new();
    let mut legal = Vec::new();
    for seed in 0..2000 {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut s = BattleLine::new(rules).unwrap();
        while !s.is_terminal() && found.len() < n {
            if pred(&s) && rng.random_range(0..4) == 0 {
                found.push(s);
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
        if found.len() >= n {
            break;
        }
    }
    assert!(!found.is_empty(), "no such state in 2000 random games");
    found
}

/// The JSON of `state` with the value of the first field named `key` (all
/// the fields edited here have names of their own) replaced by `value`.
/// Text, not a `serde_json::Value`: card sets are 128-bit numbers.
fn set(json: &str, key: &str, value: &str) -> String {
    let tag = format!("\"{key}\":");
    let start = json.find(&tag).expect("field present") + tag.len();
    let mut depth = 0i32;
    let mut end = start;
    for (i, c) in json[start..].char_indices() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' if depth == 0 => {
                end = start + i;
                break;
            }
            ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                end = start + i;
                break;
            }
            _ => {}
        }
    }
    format!("{}{}{}", &json[..start], value, &json[end..])
}

fn edited(state: &BattleLine, key: &str, value: &str) -> String {
    set(&serde_json::to_string(state).unwrap(), key, value)
}

fn bits(set: battleline_core::CardSet) -> String {
    set.bits().to_string()
}

fn refused(json: &str) -> bool {
    serde_json::from_str::<BattleLine>(json).is_err()
}

fn phase_is(p: Phase) -> impl Fn(&BattleLine) -> bool {
    move |s| s.table().phase() == p
}

#[test]
fn fault_c_move_counter_is_bounded_by_what_play_can_still_reach() {
    // The reproducer: 393 moves (MAX_GAME_LENGTH) was accepted, and one
    // legal action later the state's own serialisation was refused.
    let after_deal = states(&Rules::default(), 1, phase_is(Phase::Play))[0];
    assert!(refused(&edited(
        &after_deal,
        "moves",
        &MAX_GAME_LENGTH.to_string()
    )));
    // The largest counter accepted in any state leaves room for every
    // action play can still make: each successor is accepted too.
    let mut rng = GameRng::seed_from_u64(3);
    for s in states(&Rules::default(), 60, |s| !s.is_terminal()) {
        let top = (s.move_count()..=MAX_GAME_LENGTH)
            .rev()
            .find_map(|m| {
                serde_json::from_str::<BattleLine>(&edited(&s, "moves", &m.to_string())).ok()
            })
            .expect("the true counter is accepted");
        check_accepted(top, &mut rng).unwrap();
    }
}

#[test]
fn fault_c_scout_returns_without_scout_in_the_claim_phase_are_refused() {
    for s in states(&Rules::default(), 20, |s| {
        s.table().phase() == Phase::Claim && s.table().scout_by().is_none()
    }) {
        assert!(refused(&edited(&s, "returns_due", &2.to_string())));
    }
}

#[test]
fn fault_c_swapped_hands_are_refused() {
    // After a play the player holds one card fewer than a full hand until
    // he draws; the other holds a full one.
    let mut seen = 0;
    for s in states(&Rules::default(), 40, |s| {
        matches!(s.table().phase(), Phase::Claim | Phase::Deal(_))
            && s.table().passes() == 0
            && s.hand(s.table().player()).len() == 6
            && s.hand(s.table().player().other()).len() == 7
            && s.known_by(PlayerId::P0).is_empty()
            && s.known_by(PlayerId::P1).is_empty()
    }) {
        seen += 1;
        assert!(refused(&edited(
            &s,
            "hands",
            &format!(
                "[{},{}]",
                bits(s.hand(PlayerId::P1)),
                bits(s.hand(PlayerId::P0))
            )
        )));
    }
    assert!(seen > 0);
}

#[test]
fn fault_c_oversized_hands_are_refused() {
    for s in states(&Rules::default(), 30, |s| {
        s.table().phase() == Phase::Play && s.deck_pool(Deck::Troop).len() > 2
    }) {
        for who in PlayerId::all() {
            if s.hand(who).len() < 7 {
                continue;
            }
            // A card of the deck slipped into a full hand.
            let card = s.deck_pool(Deck::Troop).iter().next().unwrap();
            let mut hand = s.hand(who);
            hand.insert(card);
            let mut pool = s.deck_pool(Deck::Troop);
            pool.remove(card);
            assert!(refused(&set(
                &edited(
                    &s,
                    "pools",
                    &format!("[{},{}]", bits(pool), bits(s.deck_pool(Deck::Tactics)))
                ),
                "hands",
                &if who == PlayerId::P0 {
                    format!("[{},{}]", bits(hand), bits(s.hand(PlayerId::P1)))
                } else {
                    format!("[{},{}]", bits(s.hand(PlayerId::P0)), bits(hand))
                }
            )));
        }
    }
}

#[test]
fn fault_c_draws_due_must_fit_the_phase() {
    for s in states(&Rules::default(), 20, |s| {
        s.table().phase() == Phase::Claim && s.table().draws_due() == 1
    }) {
        for n in [0, 2, 3] {
            assert!(refused(&edited(&s, "draws_due", &n.to_string())));
        }
    }
    for s in states(&Rules::default(), 20, phase_is(Phase::Play)) {
        assert!(refused(&edited(&s, "draws_due", &1.to_string())));
        assert!(refused(&edited(&s, "drawn", &1.to_string())));
    }
}

#[test]
fn fault_c_player_must_fit_the_turn() {
    // Scout's turn belongs to who played it.
    for s in states(&Rules::default(), 10, |s| {
        matches!(
            s.table().phase(),
            Phase::Claim | Phase::Draw | Phase::Return
        ) && s.table().returns_due() > 0
    }) {
        let other = s.table().player().other().index();
        assert!(refused(&edited(&s, "player", &other.to_string())));
    }
    // The deal is the first player's, before any move.
    let mut s = BattleLine::new(&Rules::default()).unwrap();
    let mut rng = GameRng::seed_from_u64(1);
    for _ in 0..5 {
        s.apply(s.sample_chance(&mut rng).unwrap()).unwrap();
    }
    assert!(refused(&edited(&s, "player", &1.to_string())));
    assert!(refused(&edited(&s, "moves", &1.to_string())));
}

#[test]
fn fault_c_every_accepted_counter_plays_on() {
    // Each counter of the turn set to each small value, on states of every
    // phase: whatever is accepted keeps the whole contract.
    let mut rng = GameRng::seed_from_u64(5);
    let (mut accepted, mut tried) = (0, 0);
    for rules in [Rules::default(), Rules::claims_at_start_of_turn()] {
        for s in states(&rules, 150, |s| !s.is_terminal()) {
            for field in ["draws_due", "returns_due", "drawn", "passes", "player"] {
                for n in 0..4u8 {
                    tried += 1;
                    let text = edited(&s, field, &n.to_string());
                    if let Ok(t) = serde_json::from_str::<BattleLine>(&text) {
                        accepted += 1;
                        check_accepted(t, &mut rng).unwrap_or_else(|e| panic!("{text}: {e}"));
                    }
                }
            }
        }
    }
    assert!(accepted > 0 && accepted < tried);
}

#[test]
fn fault_f_rules_that_the_history_contradicts_are_refused() {
    let alexander = Card::tactic(Tactic::Alexander);
    let darius = Card::tactic(Tactic::Darius);
    let f1 = FlagId::new(0).unwrap();
    let r = |v| Card::troop(Colour::Red, v).unwrap();
    // Under OneOnTable P0 played Alexander, lost it to Deserter, then
    // played Darius: two Leaders, which OncePerGame never allows.
    let rules = Rules {
        leader_limit: LeaderLimit::OneOnTable,
        ..Rules::default()
    };
    let deserter = Card::tactic(Tactic::Deserter);
    let built = PositionBuilder::new(rules)
        .place(f1, PlayerId::P0, darius)
        .discards(PlayerId::P0, [alexander].into_iter().collect())
        .discards(PlayerId::P1, [deserter].into_iter().collect())
        .tactics_played(PlayerId::P0, 2, true)
        .tactics_played(PlayerId::P1, 1, false)
        .hand(PlayerId::P0, (1..=7).map(r).collect())
        .turn(PlayerId::P1, Phase::Play)
        .build()
        .unwrap();
    let json = serde_json::to_string(&built).unwrap();
    assert!(serde_json::from_str::<BattleLine>(&json).is_ok());
    assert!(refused(&edited(&built, "leader_limit", "\"OncePerGame\"")));
    // A Leader in the discards is a Leader played: the record must say so.
    assert!(refused(&edited(&built, "leaders_played", "[false,false]")));
    // A claim phase exists only when claims come before the draw.
    for s in states(&Rules::default(), 10, phase_is(Phase::Claim)) {
        assert!(refused(&edited(
            &s,
            "claim_timing",
            &serde_json::to_string(&ClaimTiming::StartOfTurn).unwrap()
        )));
    }
    // Tactics cards in play under troops-only rules, and Fog without its
    // owner under movable environment rules.
    for s in states(&Rules::default(), 10, |s| s.table().phase() == Phase::Play) {
        assert!(refused(&edited(
            &s,
            "rules",
            &serde_json::to_string(&Rules {
                tactics: false,
                ..Rules::default()
            })
            .unwrap()
        )));
    }
    for s in states(&Rules::default(), 10, |s| {
        s.table().flags().iter().any(|f| f.env().fog || f.env().mud)
    }) {
        assert!(refused(&edited(
            &s,
            "rules",
            &serde_json::to_string(&Rules::movable_environment()).unwrap()
        )));
    }
}
