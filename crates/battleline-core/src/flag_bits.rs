//! Per-flag facts as bit masks over the nine flags, kept beside the table
//! so that drawing a play or a claim needs no pass over the flags: which
//! are unclaimed, which have a free slot or a complete side for each
//! player, which lack Fog or Mud. A function of the table alone (so equal
//! tables give equal masks), updated by the engine for the one flag each
//! change touches and rebuilt wherever a state is made.

use game_traits::PlayerId;

use crate::flag::Flag;
use crate::state::Table;

/// The masks (bit `i` for flag `i`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct FlagBits {
    /// Unclaimed flags.
    pub(crate) unclaimed: u16,
    /// Per player, the unclaimed flags where his side has a free slot.
    pub(crate) free: [u16; 2],
    /// Per player, the unclaimed flags where his side is complete.
    pub(crate) complete: [u16; 2],
    /// Unclaimed flags without Fog.
    pub(crate) no_fog: u16,
    /// Unclaimed flags without Mud.
    pub(crate) no_mud: u16,
    /// The cards in the slots of all flags, as bits (all below 64).
    pub(crate) on_table: u64,
}

impl FlagBits {
    /// The masks of `table`.
    pub(crate) fn of(table: &Table) -> FlagBits {
        let mut b = FlagBits::default();
        for (i, f) in table.flags().iter().enumerate() {
            b.update(i, f);
        }
        b.recount(table);
        b
    }

    /// Sets [`FlagBits::on_table`] from all the flags.
    pub(crate) fn recount(&mut self, table: &Table) {
        self.on_table = table.flags().iter().fold(0, |m, f| {
            m | f.side(PlayerId::P0).bits() | f.side(PlayerId::P1).bits()
        });
    }

    /// `p` put a card on his side of flag `i`, now `f`: only his free and
    /// complete bits can change (the flag was and stays unclaimed), and
    /// the card joins the table.
    #[inline]
    pub(crate) fn placed(&mut self, i: usize, p: PlayerId, f: &Flag, card_bit: u64) {
        let bit = 1u16 << i;
        let n = f.side(p).len();
        let slots = f.env().slots();
        let k = p.index();
        self.free[k] = (self.free[k] & !bit) | (u16::from(n < slots) << i);
        self.complete[k] = (self.complete[k] & !bit) | (u16::from(n == slots) << i);
        self.on_table |= card_bit;
    }

    /// Sets flag `i`'s bits from `f` (all but [`FlagBits::on_table`]).
    #[inline]
    pub(crate) fn update(&mut self, i: usize, f: &Flag) {
        let bit = 1u16 << i;
        let open = f.claimed().is_none();
        let env = f.env();
        let set = |m: &mut u16, on: bool| *m = (*m & !bit) | (u16::from(open && on) << i);
        set(&mut self.unclaimed, true);
        set(&mut self.no_fog, !env.fog);
        set(&mut self.no_mud, !env.mud);
        for p in PlayerId::all() {
            let n = f.side(p).len();
            set(&mut self.free[p.index()], n < env.slots());
            set(&mut self.complete[p.index()], n == env.slots());
        }
    }
}

#[cfg(test)]
mod tests {
    use game_traits::{Game, GameRng, Turn};
    use rand::{Rng, SeedableRng};

    use super::FlagBits;
    use crate::action::{Action, ACTION_SPACE};
    use crate::rules::Rules;
    use crate::state::BattleLine;
    use game_traits::{Preset, RuleSet};

    /// The masks the engine keeps are those of the table, after every
    /// action of random games and after actions applied unchecked, legal
    /// or not.
    #[test]
    fn kept_masks_are_the_tables() {
        let mut legal = Vec::new();
        for Preset { rules, .. } in Rules::presets() {
            for seed in 0..20 {
                let mut rng = GameRng::seed_from_u64(seed);
                let mut s = BattleLine::new(&rules).unwrap();
                for _ in 0..400 {
                    let a = match s.turn() {
                        Turn::Terminal => break,
                        Turn::Chance => s.sample_chance(&mut rng).unwrap(),
                        Turn::Player(_) if rng.random_bool(0.1) => {
                            Action::from_id(rng.random_range(0..ACTION_SPACE)).unwrap()
                        }
                        Turn::Player(_) => s.sample_legal(&mut legal, &mut rng).unwrap(),
                    };
                    s.apply_unchecked(a);
                    assert!(s.bits == FlagBits::of(&s.table), "{s}");
                }
            }
        }
    }
}
