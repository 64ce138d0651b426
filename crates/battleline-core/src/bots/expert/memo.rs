//! The completion solver's answers, remembered for one decision. A future
//! asks the solver about the same side and the same cards again and again:
//! a share-out sparing lost flags repeats the free one up to the first
//! flag it spares, and each play's share-outs repeat the table's wherever
//! the play left the cards a side is completed from as they were. Two in
//! five of the solver's runs were such repeats (measured on the arena's
//! `expert:8,prob` games); the memo answers them from a table.

use std::cell::RefCell;

use game_traits::PlayerId;

use crate::completion::Pattern;
use crate::flag::Flag;
use crate::formation::Strength;
use crate::rules::Rules;

use super::odds;

/// Entries of the table, a power of two: a future asks about a few
/// hundred distinct sides and pools.
const SLOTS_LOG2: u32 = 11;

/// The completion solver ([`odds::best_side`])
/// for one set of rules and one set of cards off the table, each answer
/// remembered. An answer depends only on the side's cards, the flag's
/// environment and the pool (the rest is fixed here), so a remembered one
/// is the one the solver would give; a newer question evicts an older one
/// from its entry.
pub(super) struct Solver<'a> {
    rules: &'a Rules,
    off_table: u64,
    table: RefCell<Box<[Entry]>>,
}

/// One remembered answer, 32 bytes (`size_of` checked below).
#[derive(Clone, Copy)]
struct Entry {
    /// The side's cards ([`Part::slots`](crate::formation::Part::slots)).
    slots: u64,
    /// The pool (troop bits, below bit 60) and, from bit 60, the flag's
    /// environment and a bit marking the entry in use.
    pool: u64,
    found: Option<(Strength, Option<Pattern>)>,
    /// The cards of `found`'s pattern once asked for, [`UNKNOWN`] before.
    cards: u64,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 32);

/// [`Entry::cards`] not yet asked for: no set of troop bits.
const UNKNOWN: u64 = u64::MAX;

impl Default for Entry {
    fn default() -> Entry {
        Entry {
            slots: 0,
            pool: 0,
            found: None,
            cards: UNKNOWN,
        }
    }
}

impl<'a> Solver<'a> {
    /// A solver for `rules`, the troop cards off the table (`off_table`,
    /// what wild cards may become under
    /// [`WildCards::UnseenOnly`](crate::WildCards)) fixed.
    pub(super) fn new(rules: &'a Rules, off_table: u64) -> Solver<'a> {
        Solver {
            rules,
            off_table,
            table: RefCell::new(vec![Entry::default(); 1 << SLOTS_LOG2].into_boxed_slice()),
        }
    }

    /// [`odds::best_side`], remembered.
    pub(super) fn best_side(
        &self,
        flag: &Flag,
        player: PlayerId,
        pool: u64,
    ) -> Option<(Strength, u64)> {
        self.with_entry(flag, player, pool, |e| {
            let (s, pattern) = e.found?;
            if e.cards == UNKNOWN {
                e.cards = pattern.map_or(0, |p| odds::side_cards(flag, player, pool, p));
            }
            Some((s, e.cards))
        })
    }

    /// [`odds::best_side`]'s strength alone, remembered.
    pub(super) fn best_strength(
        &self,
        flag: &Flag,
        player: PlayerId,
        pool: u64,
    ) -> Option<Strength> {
        self.with_entry(flag, player, pool, |e| e.found.map(|(s, _)| s))
    }

    /// `read` of the entry of `player`'s side of `flag` and `pool`, the
    /// solver run first when it holds another question.
    #[inline]
    fn with_entry<T>(
        &self,
        flag: &Flag,
        player: PlayerId,
        pool: u64,
        read: impl FnOnce(&mut Entry) -> T,
    ) -> T {
        let slots = flag.side(player).part().slots();
        let env = flag.env();
        debug_assert_eq!(pool >> 60, 0, "troop bits only");
        let key = pool | (1 | u64::from(env.fog) << 1 | u64::from(env.mud) << 2) << 60;
        let mix = (slots ^ key.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let i = (mix >> (64 - SLOTS_LOG2)) as usize;
        let mut table = self.table.borrow_mut();
        let e = &mut table[i];
        if e.pool != key || e.slots != slots {
            *e = Entry {
                slots,
                pool: key,
                found: odds::completion(flag, player, pool, self.rules, self.off_table),
                cards: UNKNOWN,
            };
        }
        read(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::expert::counting;
    use crate::bots::expert::odds::tests::midgames;
    use crate::flag::FLAGS;
    use game_traits::rand::{Rng, SeedableRng};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Many questions on one solver, each asked again and again among
        /// others (so that entries are both found and evicted): every
        /// answer is the solver's.
        #[test]
        fn remembered_answers_are_the_solvers(seed in any::<u64>(), unseen in any::<bool>()) {
            let wild_cards = if unseen {
                crate::WildCards::UnseenOnly
            } else {
                crate::WildCards::CopyTable
            };
            let rules = Rules {
                wild_cards,
                ..Rules::default()
            };
            let mut rng = crate::GameRng::seed_from_u64(seed);
            for (obs, _) in midgames(&rules, seed % 1000..seed % 1000 + 1) {
                let off = counting::off_table(&obs);
                let solver = Solver::new(&rules, off);
                let futures = counting::sample(&obs, 14, true, &mut rng).unwrap();
                let pools: Vec<u64> = (0..24)
                    .map(|_| {
                        let all = if rng.random_bool(0.5) { futures.mine } else { futures.theirs };
                        all & rng.random::<u64>()
                    })
                    .collect();
                for _ in 0..600 {
                    let flag = &obs.table().flags()[rng.random_range(0..FLAGS)];
                    let player = if rng.random_bool(0.5) { PlayerId::P0 } else { PlayerId::P1 };
                    let pool = pools[rng.random_range(0..pools.len())];
                    let expected = odds::best_side(flag, player, pool, &rules, off);
                    if rng.random_bool(0.5) {
                        prop_assert_eq!(solver.best_side(flag, player, pool), expected);
                    } else {
                        prop_assert_eq!(
                            solver.best_strength(flag, player, pool),
                            expected.map(|(s, _)| s)
                        );
                    }
                }
            }
        }
    }
}
