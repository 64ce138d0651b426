//! Flag odds: who wins a flag when each side is completed as well as its
//! player's future cards allow, and the chance of winning the game from
//! the chances of the flags.

use std::cmp::Ordering;

use game_traits::PlayerId;

use crate::completion::{best_completion, pattern_cards};
use crate::flag::{Flag, FLAGS};
use crate::formation::{part_strength, part_strength_unseen, Strength};
use crate::rules::{Rules, WildCards};

use super::Weights;

/// The strongest formation `player`'s side of `flag` can still become with
/// the troop cards of `pool` (troop bits), and the cards it uses;
/// `None` when the side cannot be completed from them. A complete side uses
/// no card. `off_table` is what wild cards may become under
/// [`WildCards::UnseenOnly`].
#[inline]
pub(crate) fn best_side(
    flag: &Flag,
    player: PlayerId,
    pool: u64,
    rules: &Rules,
    off_table: u64,
) -> Option<(Strength, u64)> {
    let env = flag.env();
    let order = rules.formation_order;
    let part = flag.side(player).part();
    let unseen = rules.wild_cards == WildCards::UnseenOnly;
    if part.len() >= env.slots() {
        let s = if unseen {
            part_strength_unseen(&part, env, order, off_table)
        } else {
            part_strength(&part, env, order)
        };
        return s.map(|s| (s, 0));
    }
    let found = if unseen {
        best_completion::<true>(&part, env, pool, order, 0)
    } else {
        best_completion::<false>(&part, env, pool, order, 0)
    };
    found.map(|(s, pattern)| (s, pattern_cards(&part, env.slots() as u8, pool, pattern)))
}

/// Completes `player`'s sides of `flags` one after the other with the
/// troop cards of `pool` (troop bits), each card used once: the sides
/// holding most cards first (they are committed), equal ones in the order
/// of `tie` (see [`allocation_order`]), each as strongly as the cards left
/// allow. A side the pool can no longer complete is `None`: it
/// will be made of cards nobody can foresee. Given the `rival` sides'
/// strengths, a side that cannot beat its rival spends none of the pool:
/// a player does not waste good cards on a lost flag.
pub(super) fn allocate(
    flags: &[Flag; FLAGS],
    player: PlayerId,
    pool: u64,
    rules: &Rules,
    off_table: u64,
    rival: Option<&[Option<Strength>; FLAGS]>,
    tie: &[u8; FLAGS],
) -> [Option<Strength>; FLAGS] {
    share_out(flags, player, pool, rules, off_table, rival, tie).strengths
}

/// One player's future cards shared out among his sides ([`allocate`]):
/// per flag the strength his side reaches and the cards it takes (none
/// where the flag is lost to its rival), and the cards no side took.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shared {
    pub strengths: [Option<Strength>; FLAGS],
    pub taken: [u64; FLAGS],
    pub left: u64,
}

/// [`allocate`], with the cards each side takes.
pub(super) fn share_out(
    flags: &[Flag; FLAGS],
    player: PlayerId,
    mut pool: u64,
    rules: &Rules,
    off_table: u64,
    rival: Option<&[Option<Strength>; FLAGS]>,
    tie: &[u8; FLAGS],
) -> Shared {
    let order = allocation_order(flags, player, tie);
    let mut out = Shared {
        strengths: [None; FLAGS],
        taken: [0; FLAGS],
        left: 0,
    };
    for g in order {
        let f = &flags[g];
        if f.claimed().is_some() {
            continue;
        }
        if let Some((s, used)) = best_side(f, player, pool, rules, off_table) {
            out.strengths[g] = Some(s);
            let lost = rival.and_then(|r| r[g]).is_some_and(|r| r > s);
            if !lost {
                pool &= !used;
                out.taken[g] = used;
            }
        }
    }
    out.left = pool;
    out
}

/// The order in which [`allocate`] completes `player`'s sides: most cards
/// first, equal sides in the order of `tie` (a rank per flag, lowest
/// first). The futures draw `tie` at random: in index order the best of
/// the pool always went to the first empty flags, the odds of the last
/// ones were built on the leftovers, and the expert neglected them (it won
/// fewer games against chikinn's `naive`: docs/strength.md, "What the
/// losses show").
pub(crate) fn allocation_order(
    flags: &[Flag; FLAGS],
    player: PlayerId,
    tie: &[u8; FLAGS],
) -> [usize; FLAGS] {
    let mut order: [usize; FLAGS] = std::array::from_fn(|i| i);
    order.sort_by_key(|&g| (std::cmp::Reverse(flags[g].side(player).len()), tie[g]));
    order
}

/// The share of a flag won by a side of strength `s` against a side that
/// will be made of unforeseen cards: about even for a middling formation,
/// more for a stronger class or a higher sum.
fn against_unknown(s: Strength, w: &Weights) -> f64 {
    let class = f64::from(s.rank()) / 4.0;
    let sum = (f64::from(s.sum()) - 15.0) / 60.0;
    (w.unknown_base + w.unknown_class * class + sum).clamp(0.05, 0.95)
}

/// The viewer's share of `flag` (1 won, 0 lost, 0.5 a toss-up) when his
/// side becomes `mine` and the other `theirs` (`None`: unforeseen cards,
/// see [`allocate`]). A side that is already
/// complete wins a tie (it completed first); between two sides still to
/// be completed a tie is a toss-up.
#[inline]
pub(crate) fn share(
    flag: &Flag,
    me: PlayerId,
    mine: Option<Strength>,
    theirs: Option<Strength>,
    w: &Weights,
) -> f64 {
    let slots = flag.env().slots();
    if let Some(owner) = flag.claimed() {
        return if owner == me { 1.0 } else { 0.0 };
    }
    match (mine, theirs) {
        (None, None) => 0.5,
        (Some(a), None) => against_unknown(a, w),
        (None, Some(b)) => 1.0 - against_unknown(b, w),
        (Some(a), Some(b)) => match a.cmp(&b) {
            Ordering::Greater => 1.0,
            Ordering::Less => 0.0,
            Ordering::Equal => {
                let done = |p| flag.side(p).len() >= slots;
                match (done(me), done(me.other())) {
                    _ if flag.first_complete() == Some(me) => 1.0,
                    _ if flag.first_complete() == Some(me.other()) => 0.0,
                    (true, false) => 1.0,
                    (false, true) => 0.0,
                    _ => 0.5,
                }
            }
        },
    }
}

/// Per set of flags the viewer wins (bit `i` for flag `i`, the others
/// going to the opponent), his result: 1 a win, 0 a loss, 0.5 when both
/// hold a breakthrough (who made his first decides, which the set cannot
/// tell).
static RESULT: [f32; 1 << FLAGS] = {
    let mut t = [0.0f32; 1 << FLAGS];
    let all = (1u32 << FLAGS) - 1;
    let mut m = 0u32;
    while m <= all {
        let run_mine = m & (m >> 1) & (m >> 2) != 0;
        let o = !m & all;
        let run_theirs = o & (o >> 1) & (o >> 2) != 0;
        t[m as usize] = match (run_mine, run_theirs) {
            (true, true) => 0.5,
            (true, false) => 1.0,
            (false, true) => 0.0,
            (false, false) => {
                if m.count_ones() >= 5 {
                    1.0
                } else {
                    0.0
                }
            }
        };
        m += 1;
    }
    t
};

/// The chance of winning the game when flag `i` is won with chance
/// `p[i]`, the flags taken as independent.
pub(crate) fn victory(p: &[f64; FLAGS]) -> f64 {
    let mut mass = [0.0f64; 1 << FLAGS];
    mass[0] = 1.0;
    let mut len = 1;
    for (i, &q) in p.iter().enumerate() {
        for m in 0..len {
            let x = mass[m];
            mass[m] = x * (1.0 - q);
            mass[m | 1 << i] = x * q;
        }
        len <<= 1;
    }
    mass.iter()
        .zip(RESULT.iter())
        .map(|(&x, &r)| x * f64::from(r))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn victory_is_certain_with_five_flags_and_impossible_without_any() {
        let mut p = [0.0; FLAGS];
        assert_eq!(victory(&p), 0.0);
        for i in [0, 2, 4, 6, 8] {
            p[i] = 1.0;
        }
        assert_eq!(victory(&p), 1.0);
    }

    #[test]
    fn victory_counts_a_breakthrough() {
        // Three adjacent flags win against five scattered ones.
        let mut p = [0.0; FLAGS];
        for i in [2, 3, 4, 7] {
            p[i] = 1.0;
        }
        assert_eq!(victory(&p), 1.0);
        // Both with a breakthrough: who made his first is unknown.
        p[7] = 0.0;
        assert_eq!(victory(&p), 0.5);
    }

    #[test]
    fn allocation_completes_committed_sides_first_then_equal_ones_in_tie_order() {
        let mut flags = [Flag::new(); FLAGS];
        let me = PlayerId::P0;
        let card = |i| crate::card::Card::from_index(i).unwrap();
        flags[2].place(me, card(0)).unwrap();
        flags[6].place(me, card(1)).unwrap();
        let tie = [8, 7, 6, 5, 4, 3, 2, 1, 0];
        let order = allocation_order(&flags, me, &tie);
        assert_eq!(order, [6, 2, 8, 7, 5, 4, 3, 1, 0]);
    }

    #[test]
    fn allocation_gives_the_pool_best_formation_to_the_first_flag_in_tie_order() {
        let flags = [Flag::new(); FLAGS];
        let rules = Rules::troops_only();
        // Three cards, one Wedge (the 8, 9 and 10 of the first colour):
        // enough for one flag only.
        let pool: u64 = 0b11_1000_0000;
        for first in [0, 4, 8] {
            let mut tie = [1; FLAGS];
            tie[first] = 0;
            let sides = allocate(&flags, PlayerId::P0, pool, &rules, pool, None, &tie);
            let done: Vec<usize> = (0..FLAGS).filter(|&g| sides[g].is_some()).collect();
            assert_eq!(done, [first], "{sides:?}");
        }
    }

    #[test]
    fn victory_of_even_flags_is_one_half() {
        let v = victory(&[0.5; FLAGS]);
        assert!((v - 0.5).abs() < 1e-9, "{v}");
    }
}
