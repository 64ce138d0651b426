//! Position sets shared by the `battleline` bench (in benches/) and the
//! `hot_paths` example (which callgrind runs): random sets, so that a
//! repeated position does not train the branch predictor, and the fixed
//! hard cases.
#![allow(dead_code)]

use battleline_core::{
    check_claim, BattleLine, Card, CardSet, Colour, Environment, Flag, Phase, Rules, Tactic,
};
use game_traits::{Game, GameRng, PlayerId, Turn};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// A troop card by colour index and value.
pub fn t(c: usize, v: u8) -> Card {
    Card::troop(Colour::ALL[c], v).expect("a troop card")
}

/// Claim checks met in random games: (flag, claimant, available troops).
pub fn midgame_positions(count: usize) -> Vec<(Flag, PlayerId, CardSet)> {
    let rules = Rules::default();
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for seed in 0.. {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut s = BattleLine::new(&rules).expect("valid rules");
        while !s.is_terminal() {
            if s.table().phase() == Phase::Claim {
                let p = s.table().player();
                let avail = s.table().available_troops();
                for f in s.table().flags() {
                    if f.claimed().is_none() && f.is_complete(p) {
                        out.push((*f, p, avail));
                        if out.len() == count {
                            return out;
                        }
                    }
                }
            }
            let a = match s.turn() {
                Turn::Chance => s.sample_chance(&mut rng).expect("outcome"),
                _ => {
                    s.legal_actions(&mut legal);
                    legal[rng.random_range(0..legal.len())]
                }
            };
            s.apply_unchecked(a);
        }
    }
    out
}

/// A claim holding the best strength there is, with three cards missing
/// on the other side: Red 8-9-10 against an empty side, all other troops
/// available.
pub fn top_three_missing() -> (Flag, CardSet) {
    let mine = [t(0, 8), t(0, 9), t(0, 10)];
    let mut f = Flag::new();
    for c in mine {
        f.place(PlayerId::P0, c).expect("slot");
    }
    (
        f,
        CardSet::ALL_TROOPS.difference(mine.into_iter().collect()),
    )
}

/// The best strength under Mud with wilds, four missing: a Wedge 7-8-9-10
/// of Leader, Cavalry, Red 9 and Red 10 against an empty side (every
/// colour's 10 gone besides, as in the first round's bench).
pub fn top_mud_wilds() -> (Flag, CardSet) {
    let mut f = Flag::new();
    f.add_mud().expect("mud");
    let mine = [
        Card::tactic(Tactic::Alexander),
        Card::tactic(Tactic::CompanionCavalry),
        t(0, 9),
        t(0, 10),
    ];
    for c in mine {
        f.place(PlayerId::P0, c).expect("slot");
    }
    let gone: CardSet = (1..6)
        .map(|c| t(c, 10))
        .chain([t(0, 9), t(0, 10)])
        .collect();
    (f, CardSet::ALL_TROOPS.difference(gone))
}

/// A claim that holds below the best strength, three missing: Red 7-8-9
/// against an empty side, with every 10 and every other colour's 9 gone,
/// so no Wedge above 7-8-9 can be formed (the solver must show it).
pub fn hard_three_missing() -> (Flag, CardSet) {
    let mine = [t(0, 7), t(0, 8), t(0, 9)];
    let mut f = Flag::new();
    for c in mine {
        f.place(PlayerId::P0, c).expect("slot");
    }
    let gone: CardSet = (0..6)
        .map(|c| t(c, 10))
        .chain((1..6).map(|c| t(c, 9)))
        .chain(mine)
        .collect();
    (f, CardSet::ALL_TROOPS.difference(gone))
}

/// The same under Mud, four missing: Red 6-7-8-9 against an empty side,
/// every 10 and every other colour's 9 gone.
pub fn hard_mud_four_missing() -> (Flag, CardSet) {
    let mine = [t(0, 6), t(0, 7), t(0, 8), t(0, 9)];
    let mut f = Flag::new();
    f.add_mud().expect("mud");
    for c in mine {
        f.place(PlayerId::P0, c).expect("slot");
    }
    let gone: CardSet = (0..6)
        .map(|c| t(c, 10))
        .chain((1..6).map(|c| t(c, 9)))
        .chain(mine)
        .collect();
    (f, CardSet::ALL_TROOPS.difference(gone))
}

/// `count` random claims holding the best strength there is: a Wedge
/// 8-9-10 (7-8-9-10 under Mud; three or four 10s under Fog) of a random
/// colour, a Leader or Companion Cavalry in it at times, against a random
/// incomplete side, with a random share of the other troops available.
pub fn random_top_positions(count: usize, seed: u64) -> Vec<(Flag, PlayerId, CardSet)> {
    let mut rng = GameRng::seed_from_u64(seed);
    let rules = Rules::default();
    (0..count)
        .map(|_| {
            let mut f = Flag::new();
            let mud = rng.random_bool(0.3);
            let fog = rng.random_bool(0.15);
            if mud {
                f.add_mud().expect("mud");
            }
            if fog {
                f.add_fog().expect("fog");
            }
            let n = f.env().slots();
            let c = rng.random_range(0..6);
            let mut mine: Vec<Card> = if fog {
                let mut colours: Vec<usize> = (0..6).collect();
                colours.shuffle(&mut rng);
                colours[..n].iter().map(|&c| t(c, 10)).collect()
            } else {
                (11 - n as u8..=10).map(|v| t(c, v)).collect()
            };
            if rng.random_bool(0.3) {
                let i = rng.random_range(0..n);
                mine[i] = Card::tactic(Tactic::Alexander);
            } else if !fog && rng.random_bool(0.2) {
                mine[n - 3] = Card::tactic(Tactic::CompanionCavalry);
            }
            let (claimant, opponent) = if rng.random_bool(0.5) {
                (PlayerId::P0, PlayerId::P1)
            } else {
                (PlayerId::P1, PlayerId::P0)
            };
            for &card in &mine {
                f.place(claimant, card).expect("slot");
            }
            let mut rest: Vec<Card> = CardSet::ALL_TROOPS
                .iter()
                .filter(|&x| !f.contains(x))
                .collect();
            rest.shuffle(&mut rng);
            for card in rest.drain(..rng.random_range(0..n)) {
                f.place(opponent, card).expect("slot");
            }
            let k = rng.random_range(10..=rest.len());
            let available: CardSet = rest[..k].iter().copied().collect();
            assert!(check_claim(&f, claimant, available, &rules).holds());
            (f, claimant, available)
        })
        .collect()
}

/// `count` random claims that hold below the best strength against an
/// empty side (three missing, or four under Mud): a random Wedge of 6 and
/// up, the available troops a random share of the others, kept when the
/// claim holds (so the solver must show that no completion wins).
pub fn random_hard_positions(count: usize, seed: u64) -> Vec<(Flag, PlayerId, CardSet)> {
    let mut rng = GameRng::seed_from_u64(seed);
    let rules = Rules::default();
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut f = Flag::new();
        if rng.random_bool(0.4) {
            f.add_mud().expect("mud");
        }
        let n = f.env().slots() as u8;
        let c = rng.random_range(0..6);
        let top = rng.random_range(6..=9u8);
        let mine: Vec<Card> = (top + 1 - n..=top).map(|v| t(c, v)).collect();
        let claimant = if rng.random_bool(0.5) {
            PlayerId::P0
        } else {
            PlayerId::P1
        };
        for &card in &mine {
            f.place(claimant, card).expect("slot");
        }
        let keep = rng.random_range(0.2..0.6);
        let available: CardSet = CardSet::ALL_TROOPS
            .iter()
            .filter(|&x| !f.contains(x) && rng.random_bool(keep))
            .collect();
        if check_claim(&f, claimant, available, &rules).holds() {
            out.push((f, claimant, available));
        }
    }
    out
}

/// `count` random formations of three distinct troops, flattened.
pub fn random_plain_formations(count: usize, seed: u64) -> Vec<[Card; 3]> {
    let mut rng = GameRng::seed_from_u64(seed);
    (0..count)
        .map(|_| loop {
            let f = [0; 3].map(|_| t(rng.random_range(0..6), rng.random_range(1..=10)));
            if f[0] != f[1] && f[1] != f[2] && f[0] != f[2] {
                break f;
            }
        })
        .collect()
}

/// `count` random complete formations holding at least one wild (three
/// cards, or four under Mud in every other one), each with its environment.
pub fn random_wild_formations(count: usize, seed: u64) -> Vec<(Vec<Card>, Environment)> {
    let mut rng = GameRng::seed_from_u64(seed);
    let wilds = [
        Tactic::Alexander,
        Tactic::CompanionCavalry,
        Tactic::ShieldBearers,
    ];
    (0..count)
        .map(|i| {
            let mud = i % 2 == 1;
            let n = if mud { 4 } else { 3 };
            let mut cards: Vec<Card> = Vec::with_capacity(n);
            let w = rng.random_range(1..=3usize);
            for &x in &wilds[..w] {
                cards.push(Card::tactic(x));
            }
            while cards.len() < n {
                let c = t(rng.random_range(0..6), rng.random_range(1..=10));
                if !cards.contains(&c) {
                    cards.push(c);
                }
            }
            for k in (1..cards.len()).rev() {
                cards.swap(k, rng.random_range(0..=k));
            }
            (cards, Environment { fog: false, mud })
        })
        .collect()
}
