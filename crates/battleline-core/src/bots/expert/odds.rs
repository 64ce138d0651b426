//! Flag odds: who wins a flag when each side is completed as well as its
//! player's future cards allow, and the chance of winning the game from
//! the chances of the flags.

use std::cmp::Ordering;

use game_traits::PlayerId;

use crate::completion::{best_completion_inlined, pattern_cards, Pattern};
use crate::flag::{Flag, FLAGS};
use crate::formation::{part_strength, part_strength_unseen, Strength};
use crate::rules::{Rules, WildCards};

use super::memo::Solver;
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
    let cards = |p| side_cards(flag, player, pool, p);
    completion(flag, player, pool, rules, off_table).map(|(s, p)| (s, p.map_or(0, cards)))
}

/// The cards of `pool` that complete `player`'s side of `flag` by
/// `pattern` (the completion solver's).
#[inline]
pub(super) fn side_cards(flag: &Flag, player: PlayerId, pool: u64, pattern: Pattern) -> u64 {
    let slots = flag.env().slots() as u8;
    pattern_cards(&flag.side(player).part(), slots, pool, pattern)
}

/// The completion solver's answer for [`best_side`]: the strength, and
/// the pattern of cards it takes (`None` for a complete side).
///
/// The solver counts bits in every class it tries (a Phalanx's values, a
/// Battalion's colours, a Host's highest cards), and without `popcnt`,
/// which the portable build may not use, each count is a dozen
/// instructions: on an x86-64 CPU that has it (detected at run time, once)
/// the same code runs compiled with it.
#[inline]
pub(super) fn completion(
    flag: &Flag,
    player: PlayerId,
    pool: u64,
    rules: &Rules,
    off_table: u64,
) -> Option<(Strength, Option<Pattern>)> {
    #[cfg(target_arch = "x86_64")]
    if game_traits::bits::has_popcnt() {
        // SAFETY: the CPU has `popcnt`, as checked just above.
        return unsafe { completion_popcnt(flag, player, pool, rules, off_table) };
    }
    completion_with(flag, player, pool, rules, off_table)
}

/// [`completion_with`] compiled with `popcnt`.
///
/// # Safety
///
/// Only on a CPU that has it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn completion_popcnt(
    flag: &Flag,
    player: PlayerId,
    pool: u64,
    rules: &Rules,
    off_table: u64,
) -> Option<(Strength, Option<Pattern>)> {
    completion_with(flag, player, pool, rules, off_table)
}

/// The body of [`completion`].
#[inline(always)]
fn completion_with(
    flag: &Flag,
    player: PlayerId,
    pool: u64,
    rules: &Rules,
    off_table: u64,
) -> Option<(Strength, Option<Pattern>)> {
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
        return s.map(|s| (s, None));
    }
    let found = if unseen {
        best_completion_inlined::<true>(&part, env, pool, order, 0)
    } else {
        best_completion_inlined::<false>(&part, env, pool, order, 0)
    };
    found.map(|(s, pattern)| (s, Some(pattern)))
}

/// A player's future cards shared out among his sides of the flags: the
/// completion solver (its rules and the troop cards a wild card may still
/// become), the order of equal sides (`tie`, see [`allocation_order`])
/// and whose sides.
#[derive(Clone, Copy)]
pub(super) struct Dealer<'a> {
    pub solver: &'a Solver<'a>,
    pub tie: &'a [u8; FLAGS],
    pub player: PlayerId,
}

/// One player's future cards shared out among his sides
/// ([`Dealer::share_out`]): per flag the strength his side reaches, the
/// cards that strength uses and the cards it takes (none where the flag is
/// lost to its rival), and the cards no side took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Shared {
    pub strengths: [Option<Strength>; FLAGS],
    pub uses: [u64; FLAGS],
    pub taken: [u64; FLAGS],
    pub left: u64,
    /// The order its sides were completed in ([`allocation_order`]), for
    /// [`Dealer::share_again`] to start from.
    pub order: [usize; FLAGS],
}

/// The rival's sides a share-out spares its pool against (`None`: no
/// sparing).
pub(super) type Rival<'a> = Option<&'a [Option<Strength>; FLAGS]>;

/// A share-out and what it was made of: the flags, the pool and the rival.
#[derive(Clone, Copy, Debug)]
pub(super) struct Made<'a> {
    pub flags: &'a [Flag; FLAGS],
    pub pool: u64,
    pub rival: Rival<'a>,
}

impl Dealer<'_> {
    /// Completes the player's sides of `made.flags` one after the other
    /// with the troop cards of `made.pool` (troop bits), each card used
    /// once: the sides holding most cards first (they are committed), equal
    /// ones in the order of `tie`, each as strongly as the cards left
    /// allow. A side the pool can no longer complete is `None`: it will be
    /// made of cards nobody can foresee. Given the `rival` sides'
    /// strengths, a side that cannot beat its rival spends none of the
    /// pool: a player does not waste good cards on a lost flag.
    pub(super) fn share_out(&self, made: Made) -> Shared {
        let order = allocation_order(made.flags, self.player, self.tie);
        let mut out = Shared {
            strengths: [None; FLAGS],
            uses: [0; FLAGS],
            taken: [0; FLAGS],
            left: made.pool,
            order,
        };
        self.share_from(&mut out, made, &order);
        out
    }

    /// [`Dealer::share_out`] of `after`, from `before` (the share-out
    /// `made` of flags that a play changed into `after`'s, the bits of
    /// `changed`; `after`'s pool within `made`'s). The sides completed, in
    /// the same order, before the first that the play changed, that faces
    /// another rival or whose strength used a card no longer in the pool
    /// keep what they had (the same cards were there for them); the others
    /// are completed again. The same result as sharing out afresh, for a
    /// fraction of the completion solver's runs.
    pub(super) fn share_again(
        &self,
        (before, made): (&Shared, Made),
        after: Made,
        changed: u16,
    ) -> Shared {
        let old = before.order;
        let new = allocation_order(after.flags, self.player, self.tie);
        let rival = |r: Rival, g: usize| r.and_then(|r| r[g]);
        let kept = (0..FLAGS)
            .take_while(|&i| {
                let g = new[i];
                old[i] == g
                    && changed >> g & 1 == 0
                    && before.uses[g] & !after.pool == 0
                    && rival(made.rival, g) == rival(after.rival, g)
            })
            .count();
        let mut out = Shared {
            strengths: [None; FLAGS],
            uses: [0; FLAGS],
            taken: [0; FLAGS],
            left: after.pool,
            order: new,
        };
        for &g in &new[..kept] {
            out.strengths[g] = before.strengths[g];
            out.uses[g] = before.uses[g];
            out.taken[g] = before.taken[g];
            out.left &= !before.taken[g];
        }
        self.share_from(&mut out, after, &new[kept..]);
        out
    }

    /// Completes the player's sides of `made.flags` in `order` from
    /// `out.left`.
    fn share_from(&self, out: &mut Shared, made: Made, order: &[usize]) {
        for &g in order {
            let f = &made.flags[g];
            if f.claimed().is_some() {
                continue;
            }
            let Some((s, used)) = self.solver.best_side(f, self.player, out.left) else {
                continue;
            };
            out.strengths[g] = Some(s);
            out.uses[g] = used;
            let lost = made.rival.and_then(|r| r[g]).is_some_and(|r| r > s);
            if !lost {
                out.left &= !used;
                out.taken[g] = used;
            }
        }
    }
}

/// The order in which [`Dealer::share_out`] completes `player`'s sides:
/// most cards first, equal sides in the order of `tie` (a rank per flag,
/// lowest first), then by index. The futures draw `tie` at random: in
/// index order the best of the pool always went to the first empty flags,
/// the odds of the last ones were built on the leftovers, and the expert
/// neglected them (it won fewer games against chikinn's `naive`:
/// docs/strength.md, "What the losses show").
pub(crate) fn allocation_order(
    flags: &[Flag; FLAGS],
    player: PlayerId,
    tie: &[u8; FLAGS],
) -> [usize; FLAGS] {
    // One key a flag, sorted as plain integers: the sort ran once for
    // every share-out, and comparing through the flags cost a tenth of
    // the expert's time.
    let mut keys: [u32; FLAGS] = std::array::from_fn(|g| {
        let fewer = u32::from(u8::MAX) - flags[g].side(player).len() as u32;
        fewer << 16 | u32::from(tie[g]) << 8 | g as u32
    });
    keys.sort_unstable();
    keys.map(|k| (k & 0xff) as usize)
}

/// The share of a flag won by a side of strength `s` against a side that
/// will be made of unforeseen cards: about even for a middling formation,
/// more for a stronger class or a higher sum.
fn against_unknown(s: Strength, w: &Weights) -> f64 {
    let class = f64::from(s.rank()) / 4.0;
    let sum = (f64::from(s.sum()) - 15.0) / 60.0;
    (w.unknown_base + w.unknown_class * class + sum).clamp(0.05, 0.95)
}

/// What [`share`] reads of a flag besides the strengths: who claimed it,
/// who completed his side first and whose sides are complete. A few bytes
/// where the flag is a hundred: the opponent's answers keep one per flag
/// and are copied for every play judged.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Standing {
    claimed: Option<PlayerId>,
    first_complete: Option<PlayerId>,
    /// Per seat, whether its side is complete.
    done: [bool; 2],
}

impl Standing {
    /// The standing of `flag`.
    #[inline]
    pub(crate) fn of(flag: &Flag) -> Standing {
        let slots = flag.env().slots();
        let done = |p| flag.side(p).len() >= slots;
        Standing {
            claimed: flag.claimed(),
            first_complete: flag.first_complete(),
            done: [done(PlayerId::P0), done(PlayerId::P1)],
        }
    }
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
    share_at(Standing::of(flag), me, mine, theirs, w)
}

/// [`share`] of a flag of standing `flag`.
#[inline]
pub(crate) fn share_at(
    flag: Standing,
    me: PlayerId,
    mine: Option<Strength>,
    theirs: Option<Strength>,
    w: &Weights,
) -> f64 {
    if let Some(owner) = flag.claimed {
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
                let done = |p: PlayerId| flag.done[p.index()];
                match (done(me), done(me.other())) {
                    _ if flag.first_complete == Some(me) => 1.0,
                    _ if flag.first_complete == Some(me.other()) => 0.0,
                    (true, false) => 1.0,
                    (false, true) => 0.0,
                    _ => 0.5,
                }
            }
        },
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

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
            let solver = Solver::new(&rules, pool);
            let dealer = Dealer {
                solver: &solver,
                tie: &tie,
                player: PlayerId::P0,
            };
            let made = Made {
                flags: &flags,
                pool,
                rival: None,
            };
            let sides = dealer.share_out(made).strengths;
            let done: Vec<usize> = (0..FLAGS).filter(|&g| sides[g].is_some()).collect();
            assert_eq!(done, [first], "{sides:?}");
        }
    }

    /// Positions some way into games between random players, each with
    /// the observation of the seat to play and its legal actions.
    pub(in crate::bots::expert) fn midgames(
        rules: &Rules,
        seeds: std::ops::Range<u64>,
    ) -> Vec<(crate::Observation, Vec<crate::Action>)> {
        use game_traits::rand::SeedableRng;
        use game_traits::{Agent, Game, RandomAgent, Turn};
        let mut out = Vec::new();
        for seed in seeds {
            let mut game = crate::BattleLine::new(rules).unwrap();
            let mut rng = crate::GameRng::seed_from_u64(seed);
            let mut legal = Vec::new();
            for plays in 0.. {
                match game.turn() {
                    Turn::Terminal => break,
                    Turn::Chance => {
                        let a = game.sample_chance(&mut rng).unwrap();
                        game.apply(a).unwrap();
                    }
                    Turn::Player(p) => {
                        game.legal_actions(&mut legal);
                        let obs = game.observation(p);
                        if plays >= 20 && legal.len() > 1 {
                            out.push((obs, legal));
                            break;
                        }
                        let a = Agent::<crate::BattleLine>::choose(
                            &mut RandomAgent,
                            &obs,
                            &legal,
                            &mut rng,
                        );
                        game.apply(a).unwrap();
                    }
                }
            }
        }
        out
    }

    #[test]
    fn share_again_gives_what_a_fresh_share_out_gives() {
        use super::super::{counting, scenario};
        use game_traits::rand::SeedableRng;
        let rules = Rules::default();
        let mut rng = crate::GameRng::seed_from_u64(5);
        let mut plays = 0;
        for (obs, legal) in midgames(&rules, 0..12) {
            let me = obs.viewer();
            let flags = obs.table().flags();
            let off_table = counting::off_table(&obs);
            let solver = Solver::new(&rules, off_table);
            for _ in 0..3 {
                let futures = counting::sample(&obs, 14, true, &mut rng).unwrap();
                let dealer = |player| Dealer {
                    solver: &solver,
                    tie: &futures.tie,
                    player,
                };
                // The opponent's cards freely, the viewer's sparing them.
                let theirs_made = Made {
                    flags,
                    pool: futures.theirs,
                    rival: None,
                };
                let theirs = dealer(me.other()).share_out(theirs_made);
                let mine_made = Made {
                    flags,
                    pool: futures.mine,
                    rival: Some(&theirs.strengths),
                };
                let mine = dealer(me).share_out(mine_made);
                for &a in &legal {
                    let Some(s) = scenario::apply(flags, me, a) else {
                        continue;
                    };
                    let his = Made {
                        flags: &s.flags,
                        ..theirs_made
                    };
                    let fresh = dealer(me.other()).share_out(his);
                    let again =
                        dealer(me.other()).share_again((&theirs, theirs_made), his, s.changed);
                    assert_eq!(again, fresh, "{a:?}");
                    let after = Made {
                        flags: &s.flags,
                        pool: futures.mine & !s.spent,
                        rival: Some(&fresh.strengths),
                    };
                    let fresh = dealer(me).share_out(after);
                    let again = dealer(me).share_again((&mine, mine_made), after, s.changed);
                    assert_eq!(again, fresh, "{a:?}");
                    plays += 1;
                }
            }
        }
        assert!(plays > 100, "{plays}");
    }

    #[cfg(target_arch = "x86_64")]
    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// Where the CPU has `popcnt`, the solver compiled with it gives
        /// the portable build's answers, for every side of positions some
        /// way into games and pools of all sizes.
        #[test]
        fn completion_with_popcnt_answers_as_the_portable_build(
            seed in 0u64..1000,
            unseen in proptest::prelude::any::<bool>(),
        ) {
            use game_traits::rand::{Rng, SeedableRng};
            if !game_traits::bits::has_popcnt() {
                return Ok(());
            }
            let wild_cards = if unseen { WildCards::UnseenOnly } else { WildCards::CopyTable };
            let rules = Rules { wild_cards, ..Rules::default() };
            let mut rng = crate::GameRng::seed_from_u64(seed);
            for (obs, _) in midgames(&rules, seed..seed + 1) {
                let off = super::super::counting::off_table(&obs);
                for _ in 0..200 {
                    let flag = &obs.table().flags()[rng.random_range(0..FLAGS)];
                    let player = if rng.random_bool(0.5) { PlayerId::P0 } else { PlayerId::P1 };
                    let pool = off & rng.random::<u64>() & rng.random::<u64>();
                    // SAFETY: the CPU has `popcnt`, as checked above.
                    let fast = unsafe { completion_popcnt(flag, player, pool, &rules, off) };
                    let portable = completion_with(flag, player, pool, &rules, off);
                    proptest::prop_assert_eq!(fast, portable);
                }
            }
        }
    }
}
