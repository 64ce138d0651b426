//! Slow, obviously correct references for the formation evaluator and the
//! flag-proof solver: every wild assignment, every completion.
#![allow(dead_code)]

use battleline_core::{
    Card, CardKind, CardSet, Colour, Environment, Flag, FormationClass, FormationOrder, ProofTie,
    Rules, Strength, Tactic, WildCards,
};
use game_traits::PlayerId;

/// Every (colour, value) a card may stand for.
fn options(card: Card) -> Vec<(u8, u8)> {
    let any_colour = |values: &[u8]| {
        let mut v = Vec::new();
        for c in 0..6u8 {
            for &x in values {
                v.push((c, x));
            }
        }
        v
    };
    match card.kind() {
        CardKind::Troop(c, v) => vec![(c.index(), v)],
        CardKind::Tactic(Tactic::Alexander | Tactic::Darius) => {
            any_colour(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        }
        CardKind::Tactic(Tactic::CompanionCavalry) => any_colour(&[8]),
        CardKind::Tactic(Tactic::ShieldBearers) => any_colour(&[1, 2, 3]),
        CardKind::Tactic(_) => vec![],
    }
}

/// The strength of concrete (colour, value) cards, classified plainly.
pub fn classify(cards: &[(u8, u8)], fog: bool, order: FormationOrder) -> Strength {
    let sum: u16 = cards.iter().map(|&(_, v)| v as u16).sum();
    if fog {
        return Strength::sum_only(sum);
    }
    let mut values: Vec<u8> = cards.iter().map(|&(_, v)| v).collect();
    values.sort();
    let run = values.windows(2).all(|w| w[1] == w[0] + 1);
    let same_colour = cards.iter().all(|&(c, _)| c == cards[0].0);
    let same_value = values.iter().all(|&v| v == values[0]);
    let class = if run && same_colour {
        FormationClass::Wedge
    } else if same_value {
        FormationClass::Phalanx
    } else if run {
        FormationClass::SkirmishLine
    } else if same_colour {
        FormationClass::Battalion
    } else {
        FormationClass::Host
    };
    Strength::of(class, sum, order)
}

/// The best strength over every assignment of the wild cards.
pub fn strength(cards: &[Card], env: Environment, order: FormationOrder) -> Option<Strength> {
    strength_from(cards, env, order, None)
}

/// The best strength over every assignment of the wild cards to distinct
/// troop cards of `pool` (`WildCards::UnseenOnly`); `None` also when there
/// is no such assignment.
pub fn strength_unseen(
    cards: &[Card],
    env: Environment,
    order: FormationOrder,
    pool: CardSet,
) -> Option<Strength> {
    strength_from(cards, env, order, Some(pool))
}

fn strength_from(
    cards: &[Card],
    env: Environment,
    order: FormationOrder,
    pool: Option<CardSet>,
) -> Option<Strength> {
    if cards.len() != env.slots() {
        return None;
    }
    let distinct: CardSet = cards.iter().copied().collect();
    if distinct.len() != cards.len() || cards.iter().any(|c| options(*c).is_empty()) {
        return None;
    }
    let mut best: Option<Strength> = None;
    let mut chosen = Vec::new();
    fn go(
        cards: &[Card],
        chosen: &mut Vec<(u8, u8)>,
        wild_used: &mut Vec<(u8, u8)>,
        pool: Option<CardSet>,
        fog: bool,
        order: FormationOrder,
        best: &mut Option<Strength>,
    ) {
        match cards.split_first() {
            None => {
                let s = classify(chosen, fog, order);
                if best.is_none_or(|b| s > b) {
                    *best = Some(s);
                }
            }
            Some((&c, rest)) => {
                for o in options(c) {
                    let wild = !c.is_troop();
                    if wild {
                        if let Some(pool) = pool {
                            // Only an unseen card, and not one another wild became.
                            if !pool.contains(troop(o.0 as usize, o.1)) || wild_used.contains(&o) {
                                continue;
                            }
                        }
                        wild_used.push(o);
                    }
                    chosen.push(o);
                    go(rest, chosen, wild_used, pool, fog, order, best);
                    chosen.pop();
                    if wild {
                        wild_used.pop();
                    }
                }
            }
        }
    }
    go(
        cards,
        &mut chosen,
        &mut Vec::new(),
        pool,
        env.fog,
        order,
        &mut best,
    );
    best
}

/// Every `k`-subset of `pool`.
pub fn subsets(pool: &[Card], k: usize, f: &mut dyn FnMut(&[Card]) -> bool) -> bool {
    fn go(
        pool: &[Card],
        k: usize,
        acc: &mut Vec<Card>,
        f: &mut dyn FnMut(&[Card]) -> bool,
    ) -> bool {
        if acc.len() == k {
            return f(acc);
        }
        for i in 0..pool.len() {
            if pool.len() - i < k - acc.len() {
                break;
            }
            acc.push(pool[i]);
            let stop = go(&pool[i + 1..], k, acc, f);
            acc.pop();
            if stop {
                return true;
            }
        }
        false
    }
    go(pool, k, &mut Vec::new(), f)
}

/// Whether `claimant` may claim `flag`: every completion of the opponent's
/// side from `available` tried.
pub fn claim_holds(flag: &Flag, claimant: PlayerId, available: CardSet, rules: &Rules) -> bool {
    if flag.claimed().is_some() {
        return false;
    }
    let order = rules.formation_order;
    let env = flag.env();
    let unseen_set: CardSet = available
        .intersection(CardSet::ALL_TROOPS)
        .iter()
        .filter(|&c| !flag.contains(c))
        .collect();
    // Under UnseenOnly a wild becomes a card nobody can see: one of the
    // available cards, and not one the opponent's completion adds.
    let eval = |cards: &[Card], used: CardSet| match rules.wild_cards {
        WildCards::CopyTable => strength(cards, env, order),
        WildCards::UnseenOnly => strength_unseen(cards, env, order, unseen_set.difference(used)),
    };
    let mine_cards: Vec<Card> = flag.side(claimant).iter().collect();
    let Some(mine) = eval(&mine_cards, CardSet::EMPTY) else {
        return false;
    };
    let opponent = claimant.other();
    let theirs: Vec<Card> = flag.side(opponent).iter().collect();
    if theirs.len() == env.slots() {
        let Some(s) = eval(&theirs, CardSet::EMPTY) else {
            return true;
        };
        return mine > s || (mine == s && flag.first_complete() == Some(claimant));
    }
    let pool: Vec<Card> = unseen_set.iter().collect();
    let need = env.slots() - theirs.len();
    let refuted = subsets(&pool, need, &mut |extra| {
        let mut cards = theirs.clone();
        cards.extend_from_slice(extra);
        let used: CardSet = extra.iter().copied().collect();
        match eval(&cards, used) {
            Some(s) => s > mine || (s == mine && rules.proof_tie == ProofTie::Blocks),
            None => false,
        }
    });
    !refuted
}

/// A troop card.
pub fn troop(c: usize, v: u8) -> Card {
    Card::troop(Colour::ALL[c], v).expect("value in range")
}
