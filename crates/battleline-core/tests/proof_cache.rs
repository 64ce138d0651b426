//! The claim-proof cache never changes an answer: along random games under
//! every preset (and with actions applied unchecked, legal or not), every
//! claim the engine answers from what it remembers is the one a fresh proof
//! gives; and the cache is no part of the position (equality, hashing,
//! serialisation and printing ignore it).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use battleline_core::{
    claim_holds, Action, BattleLine, FlagId, LeaderLimit, Phase, ProofTie, Rules, WildCards,
    ACTION_SPACE,
};
use game_traits::Preset;
use game_traits::RuleSet;
use game_traits::{Game, GameRng, PlayerId, Turn};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};

/// Checks every answer the engine gives about claims in `s` against a
/// fresh proof; returns how many claims were checked.
fn check_answers(s: &BattleLine, legal: &mut Vec<Action>) -> usize {
    let t = s.table();
    let avail = t.available_troops();
    let mut checked = 0;
    for p in PlayerId::all() {
        for f in FlagId::all() {
            let flag = t.flag(f);
            if flag.claimed().is_some() || !flag.is_complete(p) {
                continue;
            }
            let want = claim_holds(flag, p, avail, s.rules());
            assert_eq!(s.can_claim(p, f), want, "{p} {f}:\n{s}");
            checked += 1;
        }
    }
    if let Turn::Player(p) = s.turn() {
        s.legal_actions(legal);
        for f in FlagId::all() {
            let flag = t.flag(f);
            let fresh = flag.claimed().is_none()
                && flag.is_complete(p)
                && claim_holds(flag, p, avail, s.rules());
            let in_step = s.table().phase() == Phase::Claim
                || (s.table().phase() == Phase::Play
                    && s.rules().claim_timing == battleline_core::ClaimTiming::StartOfTurn);
            let want = fresh && in_step;
            assert_eq!(legal.contains(&Action::Claim(f)), want, "{f}:\n{s}");
            assert_eq!(s.is_legal(Action::Claim(f)), want, "{f}:\n{s}");
        }
    }
    checked
}

fn hash_of(s: &BattleLine) -> u64 {
    let mut h = DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

/// A state made afresh from `s` (an empty cache, rebuilt) is the same
/// position: equal, hashed, serialised and printed alike.
fn check_same_position(s: &BattleLine) {
    let json = serde_json::to_string(s).unwrap();
    let fresh: BattleLine = serde_json::from_str(&json).unwrap();
    assert_eq!(&fresh, s);
    assert_eq!(hash_of(&fresh), hash_of(s));
    assert_eq!(serde_json::to_string(&fresh).unwrap(), json);
    assert_eq!(format!("{fresh:?}"), format!("{s:?}"));
    assert_eq!(fresh.observation(PlayerId::P0), s.observation(PlayerId::P0));
    let mut legal_a = Vec::new();
    let mut legal_b = Vec::new();
    fresh.legal_actions(&mut legal_a);
    s.legal_actions(&mut legal_b);
    assert_eq!(legal_a, legal_b);
}

#[test]
fn cached_claims_agree_with_fresh_proofs_over_random_games() {
    let mut legal = Vec::new();
    let mut checked = 0;
    let mut rule_sets = Rules::presets();
    // Ties block a claim: the rule the cache's carried-over answers
    // depend on most.
    rule_sets.push(Preset::new(
        "ties-block",
        "Ties block",
        "",
        "",
        Rules {
            proof_tie: ProofTie::Blocks,
            leader_limit: LeaderLimit::OneOnTable,
            ..Rules::published_order()
        },
    ));
    for Preset { name, rules, .. } in rule_sets {
        for unseen in [false, true] {
            let rules = Rules {
                wild_cards: if unseen {
                    WildCards::UnseenOnly
                } else {
                    rules.wild_cards
                },
                ..rules
            };
            for seed in 0..60 {
                let mut rng = GameRng::seed_from_u64(seed);
                let mut s = BattleLine::new(&rules).unwrap();
                let mut step = 0;
                while !s.is_terminal() {
                    checked += check_answers(&s, &mut legal);
                    if step % 37 == 0 {
                        check_same_position(&s);
                    }
                    let a = match s.turn() {
                        Turn::Chance => s.sample_chance(&mut rng).unwrap(),
                        _ => s.sample_legal(&mut legal, &mut rng).unwrap(),
                    };
                    s.apply(a).unwrap_or_else(|e| panic!("{name}: {e}"));
                    step += 1;
                }
            }
        }
    }
    assert!(checked > 5000, "{checked}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Actions applied unchecked (legal or not) change the table in ways
    /// play does not; the cache still answers as a fresh proof does.
    #[test]
    fn cached_claims_agree_after_unchecked_actions(
        seed in any::<u64>(),
        preset in 0usize..8,
        ids in proptest::collection::vec(0..ACTION_SPACE, 1..40),
    ) {
        let presets = Rules::presets();
        let rules = presets[preset % presets.len()].rules;
        let mut rng = GameRng::seed_from_u64(seed);
        let mut s = BattleLine::new(&rules).unwrap();
        let mut legal = Vec::new();
        let steps = rng.random_range(0..200);
        for _ in 0..steps {
            let a = match s.turn() {
                Turn::Terminal => break,
                Turn::Chance => s.sample_chance(&mut rng).unwrap(),
                Turn::Player(_) => s.sample_legal(&mut legal, &mut rng).unwrap(),
            };
            s.apply_unchecked(a);
        }
        for id in ids {
            let a = Action::from_id(id).unwrap();
            s.apply_unchecked(a);
            check_answers(&s, &mut legal);
        }
    }
}
