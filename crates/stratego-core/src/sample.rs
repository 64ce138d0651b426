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

/// How a mask of the draw names its moves.
#[derive(Clone, Copy)]
enum Named {
    /// Bits are start squares; the move goes one step `d`.
    From,
    /// Bits are target squares reached along `d` by a long mover: the
    /// start is the first non-empty square back from the target.
    To,
}

impl Stratego {
    /// Whether [`Stratego::sample_move`] draws for player `p` now (the
    /// list is written while he chases under the more-squares rule).
    #[inline(always)]
    pub(crate) fn samples_on_masks(&self, p: PlayerId) -> bool {
        self.chase.as_ref().is_none_or(|c| c.chaser != p)
    }

    /// A uniformly random legal move of `p` (in play, the game going on,
    /// [`Stratego::samples_on_masks`]), `None` when he has none.
    pub(crate) fn sample_move<R: Rng + ?Sized>(&self, p: PlayerId, rng: &mut R) -> Option<Action> {
        let q = p.other();
        let empty = SQUARES & !(self.occ[PlayerId::P0] | self.occ[PlayerId::P1]);
        let enemy = self.occ[q];
        let hit = empty | enemy;
        let shuttle = &self.shuttles[p];
        let restricted = self
            .rules
            .two_square_limit
            .is_some_and(|l| shuttle.moves() >= l);
        // The one piece the two-square rule may restrict: its moves are
        // listed and filtered, and it is left out of the masks.
        let mut special = [Action::Place(crate::kind::Kind::FLAG); 24];
        let mut ns = 0;
        let mut out = 0;
        if let Some(sq) = shuttle.at().filter(|_| restricted) {
            out = sq.bit();
            for &a in self.piece_moves(p, sq).as_slice() {
                if let Action::Move(m) = a {
                    special[ns] = a;
                    ns += usize::from(!self.repetition_forbids(p, m));
                }
            }
        }
        let long = self.long[p] & !out;
        let steppers = self.mobile[p] & !self.long[p] & !out;
        // Each direction is written out with its offset a constant, so that
        // the shifts of 128-bit masks compile to a few instructions each (a
        // loop over the offsets would shift by a variable).
        let mut masks = [(0u128, 0i8, Named::From); 16];
        let mut k = 0;
        let mut put = |m: u128, d: i8, named: Named| {
            masks[k] = (m, d, named);
            k += 1;
        };
        #[inline(always)]
        fn steps(m: u128, to: u128, d: i8) -> u128 {
            m & shift(to, -d)
        }
        put(steps(steppers, hit, -PW), -PW, Named::From);
        put(steps(steppers, hit, -1), -1, Named::From);
        put(steps(steppers, hit, 1), 1, Named::From);
        put(steps(steppers, hit, PW), PW, Named::From);
        if self.diag {
            let diagonal = if self.rules.czech_scout_steps_diagonally {
                steppers | long
            } else {
                steppers
            };
            put(steps(diagonal, empty, -PW - 1), -PW - 1, Named::From);
            put(steps(diagonal, empty, -PW + 1), -PW + 1, Named::From);
            put(steps(diagonal, empty, PW - 1), PW - 1, Named::From);
            put(steps(diagonal, empty, PW + 1), PW + 1, Named::From);
        }
        if long != 0 {
            let strike = self.rules.long_move_attack;
            #[inline(always)]
            fn slides(long: u128, empty: u128, enemy: u128, strike: bool, d: i8) -> u128 {
                let reach = fill(long, empty, d);
                let from = if strike { reach } else { long };
                (reach & !long) | (shift(from, d) & enemy)
            }
            put(slides(long, empty, enemy, strike, -PW), -PW, Named::To);
            put(slides(long, empty, enemy, strike, -1), -1, Named::To);
            put(slides(long, empty, enemy, strike, 1), 1, Named::To);
            put(slides(long, empty, enemy, strike, PW), PW, Named::To);
        }
        let total = ns as u32
            + masks[..k]
                .iter()
                .map(|&(m, _, _)| m.count_ones())
                .sum::<u32>();
        if total == 0 {
            return None;
        }
        let mut r = rng.random_range(0..total);
        if (r as usize) < ns {
            return Some(special[r as usize]);
        }
        r -= ns as u32;
        for &(m, d, named) in &masks[..k] {
            let c = m.count_ones();
            if r >= c {
                r -= c;
                continue;
            }
            let at = Square::from_bit(nth_bit(m, r));
            let step = |s: Square, by: i8| Square::from_pad((s.pad() as isize + by as isize) as usize);
            let (from, to) = match named {
                Named::From => (at, step(at, d)),
                Named::To => {
                    let mut from = step(at, -d);
                    while self.board[from.pad()] == Cell::EMPTY {
                        from = step(from, -d);
                    }
                    (from, at)
                }
            };
            return Some(Action::Move(Move { from, to }));
        }
        None
    }
}
