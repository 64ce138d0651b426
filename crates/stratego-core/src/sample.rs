//! Drawing a uniformly random legal move without writing the list: the
//! moves are counted on whole-board masks, one per direction and kind of
//! mover, and the one drawn is decoded from its index.
//!
//! The steppers' moves in direction `d` are the squares of their mask whose
//! neighbour `d` is free (or holds an enemy, orthogonally); the long
//! movers' slides in direction `d` are an occluded fill of the empty
//! squares from all of them at once (each empty square is reached by at
//! most one long mover per direction, the nearest behind it), their attacks
//! the enemy squares just past the fill. The counts are popcounts, so a
//! draw costs a few dozen mask operations whatever the number of pieces.
//! The one piece the two-square rule may restrict is taken out of the masks
//! and its moves listed and filtered as the list does; while the player to
//! move is chasing (more-squares rule) the list is written instead.
//! Every move of the list has exactly one index, so the draw is uniform
//! over exactly the listed moves (the kit's chi-square test checks it).

use game_traits::PlayerId;
use rand::Rng;

use crate::action::{Action, Move};
use crate::cell::Cell;
use crate::listing::SQUARES;
use crate::square::{Square, PW};
use crate::state::Stratego;

/// Moves bit `b` of a square mask to `b + d` (the padded offset `d`).
#[inline(always)]
fn shift(m: u128, d: i8) -> u128 {
    if d >= 0 {
        m << d
    } else {
        m >> -(d as i32)
    }
}

/// The squares of `gen` and those reached from them in direction `d`
/// across `empty` squares only (a Kogge-Stone occluded fill: 15 steps in
/// four, more than the 9 a ray of this board can have).
#[inline(always)]
fn fill(gen: u128, empty: u128, d: i8) -> u128 {
    let (mut g, mut e) = (gen, empty);
    g |= e & shift(g, d);
    e &= shift(e, d);
    g |= e & shift(g, 2 * d);
    if shift(g, d) & empty & !g == 0 {
        // No slide goes past three squares (most often so in play): the
        // fill is complete.
        return g;
    }
    e &= shift(e, 2 * d);
    g |= e & shift(g, 4 * d);
    e &= shift(e, 4 * d);
    g | (e & shift(g, 8 * d))
}

/// The index of the `r`-th (from 0) set bit of `m`, which has more than `r`.
#[inline(always)]
fn nth_bit(m: u128, mut r: u32) -> u32 {
    let lo = m as u64;
    let below = lo.count_ones();
    let (mut x, base) = if r < below {
        (lo, 0)
    } else {
        r -= below;
        ((m >> 64) as u64, 64)
    };
    for _ in 0..r {
        x &= x - 1;
    }
    base + x.trailing_zeros()
}

/// The padded offset of each slot of the draw: steps (bits are start
/// squares) in slots 0..8, slides (bits are target squares) in 8..12.
const SLOT_OFFSETS: [i8; 12] = [
    -PW,
    -1,
    1,
    PW,
    -PW - 1,
    -PW + 1,
    PW - 1,
    PW + 1,
    -PW,
    -1,
    1,
    PW,
];

impl Stratego {
    /// Whether [`Stratego::sample_action`] draws for player `p` now (the
    /// list is written while he chases under the more-squares rule).
    #[inline(always)]
    pub(crate) fn samples_on_masks(&self, p: PlayerId) -> bool {
        self.chase.as_ref().is_none_or(|c| c.chaser != p)
    }

    /// A uniformly random legal move of `p` (in play, the game going on,
    /// [`Stratego::samples_on_masks`]), `None` when he has none.
    ///
    /// The draw is a dozen popcounts: on x86-64 CPUs that have the `popcnt`
    /// instruction (detected at run time, once, by the standard library)
    /// the same code runs compiled with it, a third fewer instructions a
    /// move than the portable bit-twiddling count; the crate stays
    /// portable.
    #[inline]
    pub(crate) fn sample_action<R: Rng + ?Sized>(
        &self,
        p: PlayerId,
        rng: &mut R,
    ) -> Option<Action> {
        #[cfg(target_arch = "x86_64")]
        {
            if game_traits::bits::has_popcnt() {
                // SAFETY: the CPU has `popcnt`, as checked just above.
                return unsafe { self.sample_action_popcnt(p, rng) };
            }
        }
        self.sample_action_portable(p, rng)
    }

    /// [`Stratego::sample_action_with`] without `popcnt`: out of line like
    /// the `popcnt` one, so that its callers stay small and save no
    /// registers for a body they do not run.
    #[inline(never)]
    pub(crate) fn sample_action_portable<R: Rng + ?Sized>(
        &self,
        p: PlayerId,
        rng: &mut R,
    ) -> Option<Action> {
        self.sample_action_with(p, rng)
    }

    /// [`Stratego::sample_action_with`] compiled with the `popcnt`
    /// instruction.
    ///
    /// # Safety
    ///
    /// Only on a CPU that has `popcnt`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn sample_action_popcnt<R: Rng + ?Sized>(
        &self,
        p: PlayerId,
        rng: &mut R,
    ) -> Option<Action> {
        self.sample_action_with(p, rng)
    }

    /// The moves of the piece on `sq` that the two-square rule may
    /// restrict, those the repetition rules allow, in listing order: kept
    /// out of the hot path (it runs only once the shuttle is long enough).
    #[cold]
    #[inline(never)]
    fn restricted_moves(&self, p: PlayerId, sq: Square) -> impl Iterator<Item = Action> + '_ {
        let moves = self.piece_moves(p, sq);
        (0..moves.as_slice().len()).filter_map(move |i| match moves.as_slice()[i] {
            Action::Move(m) if !self.repetition_forbids(p, m) => Some(Action::Move(m)),
            _ => None,
        })
    }

    /// The body of [`Stratego::sample_action`].
    #[inline(always)]
    fn sample_action_with<R: Rng + ?Sized>(&self, p: PlayerId, rng: &mut R) -> Option<Action> {
        let q = p.other();
        let empty = SQUARES & !(self.occ[PlayerId::P0] | self.occ[PlayerId::P1]);
        let enemy = self.occ[q];
        let hit = empty | enemy;
        let shuttle = &self.shuttles[p];
        // The one piece the two-square rule may restrict: its moves are
        // listed and filtered (they come first in the draw), and it is
        // left out of the masks.
        let special = shuttle.at().filter(|_| {
            self.rules
                .two_square_limit
                .is_some_and(|l| shuttle.moves() >= l)
        });
        let (out, ns) = match special {
            Some(sq) => (sq.bit(), self.restricted_moves(p, sq).count() as u32),
            None => (0, 0),
        };
        let long = self.long[p] & !out;
        let steppers = (self.mobile[p] & !out) ^ long;
        // The masks by slot: the four orthogonal steps, the four diagonal
        // steps (none outside Czech), then the four slides (the order of
        // the moves' indices, so of the draws). Each direction is written
        // out with its offset a constant, so that the shifts of 128-bit
        // masks compile to a few instructions each (a loop over the offsets
        // would shift by a variable).
        #[inline(always)]
        fn steps(m: u128, to: u128, d: i8) -> u128 {
            m & shift(to, -d)
        }
        let mut masks = [0u128; 12];
        let mut counts = [0u32; 12];
        let mut total = ns;
        let mut put = |slot: usize, m: u128| {
            masks[slot] = m;
            counts[slot] = m.count_ones();
            total += counts[slot];
        };
        put(0, steps(steppers, hit, -PW));
        put(1, steps(steppers, hit, -1));
        put(2, steps(steppers, hit, 1));
        put(3, steps(steppers, hit, PW));
        if self.diag {
            let diagonal = if self.rules.czech_scout_steps_diagonally {
                steppers | long
            } else {
                steppers
            };
            put(4, steps(diagonal, empty, -PW - 1));
            put(5, steps(diagonal, empty, -PW + 1));
            put(6, steps(diagonal, empty, PW - 1));
            put(7, steps(diagonal, empty, PW + 1));
        }
        if long != 0 {
            let strike = self.rules.long_move_attack;
            #[inline(always)]
            fn slides(long: u128, empty: u128, enemy: u128, strike: bool, d: i8) -> u128 {
                let reach = fill(long, empty, d);
                let from = if strike { reach } else { long };
                (reach & !long) | (shift(from, d) & enemy)
            }
            put(8, slides(long, empty, enemy, strike, -PW));
            put(9, slides(long, empty, enemy, strike, -1));
            // Towards higher bits the fill is a subtraction: taking the
            // bit just past each long mover from the occupancy borrows
            // through the empty squares up to the first non-empty one (the
            // frame and everything past the board count as non-empty), so
            // the bits that change are the squares reached and the one
            // that stops the slide.
            let blocked = !empty;
            let next = long << 1;
            let changed = blocked ^ blocked.wrapping_sub(next);
            put(
                10,
                if strike {
                    changed & hit
                } else {
                    (changed & empty) | (next & enemy)
                },
            );
            put(11, slides(long, empty, enemy, strike, PW));
        }
        if total == 0 {
            return None;
        }
        let mut r = game_traits::chance::below(rng, total);
        if r < ns {
            return special.and_then(|sq| self.restricted_moves(p, sq).nth(r as usize));
        }
        r -= ns;
        for (slot, (&m, &c)) in masks.iter().zip(&counts).enumerate() {
            if r >= c {
                r -= c;
                continue;
            }
            let d = SLOT_OFFSETS[slot];
            let at = Square::from_bit(nth_bit(m, r));
            let step =
                |s: Square, by: i8| Square::from_pad((s.pad() as isize + by as isize) as usize);
            let (from, to) = if slot >= 8 {
                // A slide names its target: the start is the first
                // non-empty square back from it.
                let mut from = step(at, -d);
                while self.board[from.pad()] == Cell::EMPTY {
                    from = step(from, -d);
                }
                (from, at)
            } else {
                (at, step(at, d))
            };
            return Some(Action::Move(Move { from, to }));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use game_traits::{Game, GameRng};
    use proptest::prelude::*;
    use rand::SeedableRng;

    use crate::{Action, Rules, Setup, Stratego};

    /// Plays a random game under `rules` and checks, at every position the
    /// masks draw for, that the portable and the `popcnt` bodies draw the
    /// same move from the same generator state, and a listed one.
    fn check_paths_agree(rules: Rules, seed: u64) {
        let mut rng = GameRng::seed_from_u64(seed);
        let a = Setup::shuffle(rules.variant, &mut rng);
        let b = Setup::shuffle(rules.variant, &mut rng);
        let Ok(mut g) = Stratego::new_with_setups(&rules, &a, &b) else {
            panic!("shuffled setups refused");
        };
        let mut legal = Vec::new();
        while g.end.is_none() {
            let p = g.to_move;
            if g.samples_on_masks(p) {
                let portable = g.sample_action_portable(p, &mut rng.clone());
                assert_eq!(portable, g.sample_action(p, &mut rng.clone()));
                g.legal_actions(&mut legal);
                assert_eq!(portable.is_some(), !legal.is_empty());
                assert!(portable.is_none_or(|m: Action| legal.contains(&m)));
            }
            match g.sample_legal(&mut legal, &mut rng) {
                Some(m) => g.apply_unchecked(m),
                None => break,
            }
        }
        assert!(g.moves > 0, "a game of no moves tests nothing");
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn portable_and_popcnt_draws_agree(seed in any::<u64>(), which in 0usize..3) {
            let rules = [
                Rules { more_squares_rule: true, no_attack_limit: Some(100), ..Rules::classic() },
                Rules { no_attack_limit: Some(100), ..Rules::czech() },
                Rules::srazhenie(),
            ][which];
            check_paths_agree(rules, seed);
        }
    }
}
