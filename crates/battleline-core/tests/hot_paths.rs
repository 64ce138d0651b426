//! The formation evaluator and the flag-proof solver against the brute-force
//! references, on thousands of random cases.

mod reference;

use battleline_core::{
    check_claim, claim_holds, formation_strength, formation_strength_unseen, Card, CardSet,
    ClaimCheck, Environment, Flag, FormationOrder, ProofTie, Rules, Tactic, WildCards,
};
use game_traits::PlayerId;
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_env(rng: &mut ChaCha8Rng) -> Environment {
    Environment {
        fog: rng.random_bool(0.2),
        mud: rng.random_bool(0.3),
    }
}

fn random_order(rng: &mut ChaCha8Rng) -> FormationOrder {
    if rng.random_bool(0.5) {
        FormationOrder::Text
    } else {
        FormationOrder::Published
    }
}

/// Wild cards for two sides as the game allows: each side at most one
/// Leader, Cavalry and Shield Bearers once each.
fn deal_wilds(rng: &mut ChaCha8Rng) -> [Vec<Card>; 2] {
    let mut sides = [Vec::new(), Vec::new()];
    let leaders = [Tactic::Alexander, Tactic::Darius];
    for (i, side) in sides.iter_mut().enumerate() {
        if rng.random_bool(0.3) {
            side.push(Card::tactic(leaders[i]));
        }
    }
    for t in [Tactic::CompanionCavalry, Tactic::ShieldBearers] {
        match rng.random_range(0..5) {
            0 => sides[0].push(Card::tactic(t)),
            1 => sides[1].push(Card::tactic(t)),
            _ => {}
        }
    }
    sides
}

/// The number of cases: `PROPTEST_CASES` when set, else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn troops_shuffled(rng: &mut ChaCha8Rng) -> Vec<Card> {
    let mut t: Vec<Card> = CardSet::ALL_TROOPS.iter().collect();
    t.shuffle(rng);
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(4000)))]

    #[test]
    fn formation_strength_matches_brute_force(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let env = random_env(&mut rng);
        let order = random_order(&mut rng);
        let mut cards = deal_wilds(&mut rng)[0].clone();
        // Two Leaders in one formation cannot happen in a game, but the
        // evaluator takes any cards.
        if !env.mud && rng.random_bool(0.1) {
            cards.retain(|c| !matches!(c.as_tactic(), Some(Tactic::Alexander | Tactic::Darius)));
            cards.push(Card::tactic(Tactic::Alexander));
            cards.push(Card::tactic(Tactic::Darius));
        }
        cards.truncate(env.slots());
        // Few values in play so that runs, phalanxes and colours are common.
        let lo = rng.random_range(1..=7u8);
        let mut troops: Vec<Card> = (0..6).flat_map(|c| (lo..=lo + 3).map(move |v| reference::troop(c, v))).collect();
        troops.shuffle(&mut rng);
        let ncol = rng.random_range(1..=6usize);
        troops.retain(|c| c.index() / 10 < ncol);
        while cards.len() < env.slots() {
            cards.push(troops.pop().expect("enough troops"));
        }
        cards.shuffle(&mut rng);
        prop_assert_eq!(
            formation_strength(&cards, env, order),
            reference::strength(&cards, env, order),
            "{:?} {:?} {:?}", cards, env, order
        );
        // WildCards::UnseenOnly: the same cards with some troops visible on
        // the table, most of them among the few values in play.
        let mut visible = CardSet::EMPTY;
        let p = rng.random_range(0.0..1.0);
        for c in troops.iter().copied().chain(troops_shuffled(&mut rng).into_iter().take(12)) {
            if !cards.contains(&c) && rng.random_bool(p) {
                visible.insert(c);
            }
        }
        let in_formation: CardSet = cards.iter().copied().collect();
        let pool = CardSet::ALL_TROOPS.difference(visible).difference(in_formation);
        prop_assert_eq!(
            formation_strength_unseen(&cards, env, order, visible),
            reference::strength_unseen(&cards, env, order, pool),
            "{:?} {:?} {:?} visible {}", cards, env, order, visible
        );
    }

    #[test]
    fn flag_proof_matches_brute_force(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let env = random_env(&mut rng);
        let rules = Rules {
            formation_order: random_order(&mut rng),
            proof_tie: if rng.random_bool(0.8) { ProofTie::ClaimantWins } else { ProofTie::Blocks },
            wild_cards: if rng.random_bool(0.5) { WildCards::CopyTable } else { WildCards::UnseenOnly },
            ..Rules::default()
        };
        let n = env.slots();
        let wilds = deal_wilds(&mut rng);
        let mut troops = troops_shuffled(&mut rng);
        // Sometimes restrict the troops to few colours and values, so that
        // the available cards are near the boundaries of each class.
        if rng.random_bool(0.5) {
            let lo = rng.random_range(1..=6u8);
            troops.retain(|c| {
                let v = (c.index() % 10) as u8 + 1;
                c.index() / 10 < 3 && (lo..=lo + 4).contains(&v)
            });
        }
        let claimant = if rng.random_bool(0.5) { PlayerId::P0 } else { PlayerId::P1 };
        let opponent = claimant.other();
        let mut mine: Vec<Card> = wilds[0].iter().copied().take(rng.random_range(0..=n)).collect();
        while mine.len() < n {
            mine.push(troops.pop().expect("troops"));
        }
        let their_len = if rng.random_bool(0.15) { n } else { rng.random_range(0..n) };
        let mut theirs: Vec<Card> = wilds[1].iter().copied().take(rng.random_range(0..=their_len)).collect();
        while theirs.len() < their_len {
            theirs.push(troops.pop().expect("troops"));
        }
        let mut flag = Flag::new();
        if env.fog { flag.add_fog().unwrap(); }
        if env.mud { flag.add_mud().unwrap(); }
        // Interleave the plays so either side may complete first.
        let (mut a, mut b) = (mine.clone(), theirs.clone());
        while !a.is_empty() || !b.is_empty() {
            let pick_a = !a.is_empty() && (b.is_empty() || rng.random_bool(0.5));
            if pick_a { flag.place(claimant, a.pop().unwrap()).unwrap(); } else { flag.place(opponent, b.pop().unwrap()).unwrap(); }
        }
        // Sometimes reopen a complete side (Deserter, Traitor, Redeploy) and
        // complete it again.
        if rng.random_bool(0.2) && !theirs.is_empty() && flag.is_complete(opponent) {
            let c = theirs[0];
            flag.take(opponent, c).unwrap();
            flag.place(opponent, c).unwrap();
        }
        let k = rng.random_range(0..=troops.len().min(14));
        let available: CardSet = troops[..k].iter().copied().collect();
        let got = check_claim(&flag, claimant, available, &rules);
        let want = reference::claim_holds(&flag, claimant, available, &rules);
        prop_assert_eq!(got.holds(), want, "{:?} avail {} -> {:?}", flag, available, got);
        if let ClaimCheck::Refuted(w) = got {
            check_witness(&flag, claimant, available, &rules, w, &mine)?;
        }
    }

    /// The default wild cards, where the bit-mask solver decides: any
    /// number of available troops (few when many cards are missing, so that
    /// the reference can try every completion), Leaders and Companion
    /// Cavalry on either side, and `check_claim` agreeing with
    /// `claim_holds`.
    #[test]
    fn flag_proof_default_wilds_matches_brute_force(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let env = random_env(&mut rng);
        let rules = Rules {
            formation_order: random_order(&mut rng),
            proof_tie: if rng.random_bool(0.7) { ProofTie::ClaimantWins } else { ProofTie::Blocks },
            ..Rules::default()
        };
        let n = env.slots();
        let mut wilds = deal_wilds(&mut rng);
        // Both Leaders on the opponent's side, which no game reaches but a
        // position may hold: the class-by-class solver decides those.
        if rng.random_bool(0.05) {
            let leaders = [Card::tactic(Tactic::Alexander), Card::tactic(Tactic::Darius)];
            wilds[0].retain(|c| !leaders.contains(c));
            wilds[1].retain(|c| !leaders.contains(c));
            wilds[1].splice(0..0, leaders);
        }
        let mut troops = troops_shuffled(&mut rng);
        if rng.random_bool(0.4) {
            let lo = rng.random_range(1..=6u8);
            let colours = rng.random_range(2..=6usize);
            troops.retain(|c| {
                let v = (c.index() % 10) as u8 + 1;
                c.index() / 10 < colours && (lo..=lo + 4).contains(&v)
            });
        }
        let claimant = if rng.random_bool(0.5) { PlayerId::P0 } else { PlayerId::P1 };
        let opponent = claimant.other();
        let mut mine: Vec<Card> = wilds[0].iter().copied().take(rng.random_range(0..=n)).collect();
        while mine.len() < n {
            mine.push(troops.pop().expect("troops"));
        }
        let their_len = if rng.random_bool(0.1) { n } else { rng.random_range(0..n) };
        let mut theirs: Vec<Card> = wilds[1].iter().copied().take(rng.random_range(0..=their_len)).collect();
        // Often a side of one colour or of close values, as runs need.
        let near = rng.random_bool(0.5);
        let mut tries = 0;
        while theirs.len() < their_len {
            tries += 1;
            let c = troops.pop().expect("troops");
            let fits = |t: &Card| {
                theirs.iter().filter(|x| x.is_troop()).all(|x| {
                    x.index() / 10 == t.index() / 10 || (x.index() % 10).abs_diff(t.index() % 10) < n
                })
            };
            if !near || fits(&c) || tries > 100 {
                theirs.push(c);
            } else {
                troops.insert(0, c);
            }
        }
        let mut flag = Flag::new();
        if env.fog { flag.add_fog().unwrap(); }
        if env.mud { flag.add_mud().unwrap(); }
        let (mut a, mut b) = (mine.clone(), theirs.clone());
        while !a.is_empty() || !b.is_empty() {
            let pick_a = !a.is_empty() && (b.is_empty() || rng.random_bool(0.5));
            if pick_a { flag.place(claimant, a.pop().unwrap()).unwrap(); } else { flag.place(opponent, b.pop().unwrap()).unwrap(); }
        }
        let need = n - their_len;
        let most = [troops.len(), troops.len(), 40, 24, 16][need];
        let k = rng.random_range(0..=troops.len().min(most));
        // The claimant's own and the flag's cards are passed too, as the
        // game passes every card not visible elsewhere.
        let mut available: CardSet = troops[..k].iter().copied().collect();
        if rng.random_bool(0.3) {
            available = available.union(flag.side(claimant).cards()).intersection(CardSet::ALL_TROOPS);
        }
        let got = check_claim(&flag, claimant, available, &rules);
        let want = reference::claim_holds(&flag, claimant, available, &rules);
        prop_assert_eq!(got.holds(), want, "{:?} avail {} -> {:?}", flag, available, got);
        prop_assert_eq!(claim_holds(&flag, claimant, available, &rules), want);
        if let ClaimCheck::Refuted(w) = got {
            check_witness(&flag, claimant, available, &rules, w, &mine)?;
        }
    }

    /// Complete formations with wild cards and any troops, against every
    /// assignment of the wilds.
    #[test]
    fn wild_formation_strength_matches_brute_force(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let env = random_env(&mut rng);
        let order = random_order(&mut rng);
        let mut pool = [
            Card::tactic(Tactic::Alexander),
            Card::tactic(Tactic::Darius),
            Card::tactic(Tactic::CompanionCavalry),
            Card::tactic(Tactic::ShieldBearers),
        ];
        pool.shuffle(&mut rng);
        let w = rng.random_range(1..=env.slots().min(3));
        let mut cards: Vec<Card> = pool[..w].to_vec();
        let mut troops = troops_shuffled(&mut rng);
        if rng.random_bool(0.5) {
            // One colour and close values: Wedges and runs.
            let c = rng.random_range(0..6);
            let lo = rng.random_range(0..7);
            troops.retain(|t| t.index() / 10 == c && (lo..lo + 4).contains(&(t.index() % 10)));
        }
        while cards.len() < env.slots() {
            cards.push(troops.pop().expect("troops"));
        }
        cards.shuffle(&mut rng);
        prop_assert_eq!(
            formation_strength(&cards, env, order),
            reference::strength(&cards, env, order),
            "{:?} {:?} {:?}", cards, env, order
        );
    }
}

/// That a refutation's witness is a real completion from the available
/// cards which wins against the claimant's `mine`.
fn check_witness(
    flag: &Flag,
    claimant: PlayerId,
    available: CardSet,
    rules: &Rules,
    w: battleline_core::Completion,
    mine: &[Card],
) -> Result<(), TestCaseError> {
    let opponent = claimant.other();
    let env = flag.env();
    prop_assert!(w.cards().difference(available).is_empty());
    prop_assert!(w.cards().iter().all(|c| !flag.contains(c)));
    let mut full: Vec<Card> = flag.side(opponent).iter().collect();
    full.extend(w.cards().iter());
    prop_assert!(
        full.len() == env.slots(),
        "witness {} for {:?}",
        w.cards(),
        flag
    );
    let order = rules.formation_order;
    let unseen = available
        .intersection(CardSet::ALL_TROOPS)
        .iter()
        .filter(|&c| !flag.contains(c))
        .collect::<CardSet>();
    let (theirs_s, mine_s) = match rules.wild_cards {
        WildCards::CopyTable => (
            reference::strength(&full, env, order),
            reference::strength(mine, env, order),
        ),
        WildCards::UnseenOnly => (
            reference::strength_unseen(&full, env, order, unseen.difference(w.cards())),
            reference::strength_unseen(mine, env, order, unseen),
        ),
    };
    let theirs_s = theirs_s.expect("complete witness");
    let mine_s = mine_s.expect("complete claimant");
    let first_is_me = flag.first_complete() == Some(claimant) && w.cards().is_empty();
    prop_assert!(
        theirs_s > mine_s
            || (theirs_s == mine_s && (!first_is_me || rules.proof_tie == ProofTie::Blocks))
    );
    Ok(())
}

#[test]
fn rule_phalanx_possible_with_exactly_one_card_of_the_value_left() {
    let t = reference::troop;
    let mut flag = Flag::new();
    for c in [t(0, 2), t(0, 3), t(0, 4)] {
        flag.place(PlayerId::P0, c).unwrap();
    }
    // P1 has two nines; one nine is left: a Phalanx of nines (27) beats the
    // Wedge 2-3-4? No, a Wedge beats any Phalanx, so use a Host for P0.
    let mut host = Flag::new();
    for c in [t(0, 2), t(1, 7), t(2, 4)] {
        host.place(PlayerId::P0, c).unwrap();
    }
    host.place(PlayerId::P1, t(3, 9)).unwrap();
    host.place(PlayerId::P1, t(4, 9)).unwrap();
    let avail: CardSet = [t(5, 9)].into_iter().collect();
    let rules = Rules::default();
    assert!(matches!(
        check_claim(&host, PlayerId::P0, avail, &rules),
        ClaimCheck::Refuted(_)
    ));
    assert!(check_claim(&host, PlayerId::P0, CardSet::EMPTY, &rules).holds());
    // And the Wedge holds whatever is left for a Phalanx.
    flag.place(PlayerId::P1, t(3, 9)).unwrap();
    flag.place(PlayerId::P1, t(4, 9)).unwrap();
    assert!(check_claim(&flag, PlayerId::P0, avail, &rules).holds());
}

#[test]
fn rule_claim_against_incomplete_formation_needs_proof() {
    let t = reference::troop;
    // The text's example: Red 4-5-3 beats Blue 8 once Blue 7 and 10 are gone
    // (and Blue 6 and 9 cannot make a Wedge above 3-4-5 without 7).
    let mut flag = Flag::new();
    for c in [t(0, 4), t(0, 5), t(0, 3)] {
        flag.place(PlayerId::P0, c).unwrap();
    }
    flag.place(PlayerId::P1, t(4, 8)).unwrap();
    let all =
        CardSet::ALL_TROOPS.difference([t(0, 4), t(0, 5), t(0, 3), t(4, 8)].into_iter().collect());
    let rules = Rules::default();
    assert!(!check_claim(&flag, PlayerId::P0, all, &rules).holds());
    let gone = all.difference([t(4, 7), t(4, 10)].into_iter().collect());
    assert!(check_claim(&flag, PlayerId::P0, gone, &rules).holds());
}

#[test]
fn rule_phalanx_of_twos_beats_any_completion_of_seven_six() {
    let t = reference::troop;
    let mut flag = Flag::new();
    for c in [t(2, 2), t(0, 2), t(3, 2)] {
        flag.place(PlayerId::P0, c).unwrap();
    }
    flag.place(PlayerId::P1, t(0, 7)).unwrap();
    flag.place(PlayerId::P1, t(3, 6)).unwrap();
    let avail = CardSet::ALL_TROOPS.difference(
        [t(2, 2), t(0, 2), t(3, 2), t(0, 7), t(3, 6)]
            .into_iter()
            .collect(),
    );
    assert!(check_claim(&flag, PlayerId::P0, avail, &Rules::default()).holds());
}

#[test]
fn rule_tie_goes_against_who_completed_last() {
    let t = reference::troop;
    let mut flag = Flag::new();
    for c in [t(0, 5), t(1, 9), t(2, 2)] {
        flag.place(PlayerId::P1, c).unwrap();
    }
    for c in [t(3, 5), t(4, 9), t(5, 2)] {
        flag.place(PlayerId::P0, c).unwrap();
    }
    let rules = Rules::default();
    assert!(check_claim(&flag, PlayerId::P1, CardSet::EMPTY, &rules).holds());
    assert!(!check_claim(&flag, PlayerId::P0, CardSet::EMPTY, &rules).holds());
    // Traitor-like reopening: P1 loses a card and completes again, now last.
    flag.take(PlayerId::P1, t(2, 2)).unwrap();
    flag.place(PlayerId::P1, t(2, 2)).unwrap();
    assert!(check_claim(&flag, PlayerId::P0, CardSet::EMPTY, &rules).holds());
    assert!(!check_claim(&flag, PlayerId::P1, CardSet::EMPTY, &rules).holds());
}

#[test]
fn rule_proof_tie_is_won_by_claimant_unless_configured() {
    let t = reference::troop;
    let mut flag = Flag::new();
    for c in [t(0, 5), t(1, 9), t(2, 2)] {
        flag.place(PlayerId::P0, c).unwrap();
    }
    flag.place(PlayerId::P1, t(3, 5)).unwrap();
    flag.place(PlayerId::P1, t(4, 9)).unwrap();
    let avail: CardSet = [t(5, 2)].into_iter().collect();
    assert!(check_claim(&flag, PlayerId::P0, avail, &Rules::default()).holds());
    let strict = Rules {
        proof_tie: ProofTie::Blocks,
        ..Rules::default()
    };
    assert!(!check_claim(&flag, PlayerId::P0, avail, &strict).holds());
}

#[test]
fn rule_claim_succeeds_when_opponent_cannot_complete() {
    let t = reference::troop;
    let mut flag = Flag::new();
    for c in [t(0, 1), t(1, 5), t(2, 2)] {
        flag.place(PlayerId::P0, c).unwrap();
    }
    flag.place(PlayerId::P1, t(3, 10)).unwrap();
    let avail: CardSet = [t(5, 10)].into_iter().collect();
    assert!(check_claim(&flag, PlayerId::P0, avail, &Rules::default()).holds());
}

/// The rule tests of `WildCards::UnseenOnly`.
mod unseen_wilds {
    use super::*;
    use battleline_core::{Colour, FormationClass};

    fn t(c: Colour, v: u8) -> Card {
        Card::troop(c, v).unwrap()
    }

    fn eights() -> CardSet {
        Colour::ALL.iter().map(|&c| t(c, 8)).collect()
    }

    const PLAIN: Environment = Environment {
        fog: false,
        mud: false,
    };

    #[test]
    fn rule_unseen_wilds_a_wild_cannot_become_a_card_on_the_table() {
        let cards = [
            t(Colour::Red, 9),
            Card::tactic(Tactic::Alexander),
            t(Colour::Red, 10),
        ];
        let o = FormationOrder::Text;
        // The default lets the Leader copy Red 8 even when it is on the table.
        let copy = formation_strength(&cards, PLAIN, o).unwrap();
        assert_eq!(
            (copy.class(), copy.sum()),
            (Some(FormationClass::Wedge), 27)
        );
        let seen: CardSet = [t(Colour::Red, 8)].into_iter().collect();
        let s = formation_strength_unseen(&cards, PLAIN, o, seen).unwrap();
        assert_eq!(
            (s.class(), s.sum()),
            (Some(FormationClass::SkirmishLine), 27)
        );
        // Every 8 seen: no run ends at 10; the best is Red 7 for a Battalion.
        let s = formation_strength_unseen(&cards, PLAIN, o, eights()).unwrap();
        assert_eq!((s.class(), s.sum()), (Some(FormationClass::Battalion), 26));
    }

    #[test]
    fn rule_unseen_wilds_two_wilds_become_distinct_cards() {
        // Only one 8 left unseen: Cavalry takes it, the Leader cannot.
        let cards = [
            t(Colour::Blue, 8),
            Card::tactic(Tactic::CompanionCavalry),
            Card::tactic(Tactic::Darius),
        ];
        let seen: CardSet = eights()
            .iter()
            .filter(|&c| c != t(Colour::Green, 8))
            .collect();
        let copy = formation_strength(&cards, PLAIN, FormationOrder::Text).unwrap();
        assert_eq!(
            (copy.class(), copy.sum()),
            (Some(FormationClass::Phalanx), 24)
        );
        // Cavalry is Green 8 (Blue 8 is in the formation): a Host with the
        // Leader as a 10.
        let s = formation_strength_unseen(&cards, PLAIN, FormationOrder::Text, seen).unwrap();
        assert_eq!((s.class(), s.sum()), (Some(FormationClass::Host), 26));
    }

    #[test]
    fn rule_unseen_wilds_a_wild_with_nothing_to_become_is_no_formation() {
        let cards = [
            t(Colour::Blue, 6),
            Card::tactic(Tactic::CompanionCavalry),
            t(Colour::Blue, 7),
        ];
        assert!(formation_strength_unseen(&cards, PLAIN, FormationOrder::Text, eights()).is_none());
        // Such a side cannot claim.
        let mut flag = Flag::new();
        for c in cards {
            flag.place(PlayerId::P0, c).unwrap();
        }
        let available = CardSet::ALL_TROOPS.difference(eights());
        let rules = Rules::unseen_wilds();
        assert_eq!(
            check_claim(&flag, PlayerId::P0, available, &rules),
            ClaimCheck::Incomplete
        );
        assert!(check_claim(&flag, PlayerId::P0, available, &Rules::default()).holds());
    }

    #[test]
    fn rule_unseen_wilds_in_the_claim_proof() {
        // P0: Blue 5-6-7 (Wedge 18). P1: Green 9 and a Leader. Green 8 is
        // seen elsewhere, so no Green run through 9 is left for P1.
        let mut flag = Flag::new();
        for v in 5..=7 {
            flag.place(PlayerId::P0, t(Colour::Blue, v)).unwrap();
        }
        flag.place(PlayerId::P1, t(Colour::Green, 9)).unwrap();
        flag.place(PlayerId::P1, Card::tactic(Tactic::Darius))
            .unwrap();
        let seen: CardSet = [t(Colour::Green, 8)].into_iter().collect();
        let available = CardSet::ALL_TROOPS.difference(seen);
        // By default the Leader copies Green 8: Green 8-9-10 wins.
        let copy = check_claim(&flag, PlayerId::P0, available, &Rules::default());
        assert!(matches!(copy, ClaimCheck::Refuted(_)));
        assert!(check_claim(&flag, PlayerId::P0, available, &Rules::unseen_wilds()).holds());
        // With Green 8 unseen the option refutes too, and the witness leaves
        // a card for the Leader.
        let all = CardSet::ALL_TROOPS;
        match check_claim(&flag, PlayerId::P0, all, &Rules::unseen_wilds()) {
            ClaimCheck::Refuted(w) => {
                assert_eq!(w.cards().len(), 1);
                assert!(w
                    .cards()
                    .iter()
                    .all(|c| c.index() / 10 == t(Colour::Green, 1).index() / 10));
            }
            other => panic!("expected a refutation, got {other:?}"),
        }
    }
}
