//! The opponent's reach under the default wild cards: whether some
//! completion of an incomplete side beats a claimed strength, decided class
//! by class on whole bit masks of the available troops, every colour at
//! once (a run is a window of set bits in a colour field, and all six
//! fields are tested by the same few shifts).
//!
//! It handles a side of troops with at most one Leader and Companion
//! Cavalry (which is a troop of value 8 whose colour is free); Shield
//! Bearers, two Leaders and [`WildCards::UnseenOnly`](crate::WildCards) go
//! to the class-by-class solver of [`crate::completion`].

use crate::completion::{colour_field, FIELD, VALUE_BITS};
use crate::formation::{
    run_starts, run_sum, Environment, FormationClass, FormationOrder, Part, Strength,
};
use crate::rules::ProofTie;

/// Bit 0 of each of the six colour fields.
const REPLICATE: u64 = 1 | 1 << 10 | 1 << 20 | 1 << 30 | 1 << 40 | 1 << 50;

/// Whether [`refutation`] decides for `theirs`.
#[inline]
pub(super) fn handles(theirs: &Part) -> bool {
    !theirs.shield && theirs.leaders <= 1
}

/// Whether some completion of the incomplete side `theirs` with troops of
/// `avail` (no card of the flag among them) beats `mine`: `Some` with the
/// troop cards of one such completion as troop bits (or 0 unless
/// `witness`), `None` when none does. Only for sides that [`handles`]
/// accepts.
#[inline]
pub(super) fn refutation(
    theirs: &Part,
    env: Environment,
    avail: u64,
    order: FormationOrder,
    mine: Strength,
    tie: ProofTie,
    witness: bool,
) -> Option<u64> {
    let side = Side::new(theirs, env.slots() as u8, avail);
    let beats = |s: Strength| s > mine || (s == mine && tie == ProofTie::Blocks);
    let found = if env.fog {
        side.host()
            .filter(|&(sum, _)| beats(Strength::sum_only(sum)))
    } else {
        let floor = mine.rank();
        // Any completion of a stronger class wins, the cheapest tests
        // first; only the claimant's own class needs the best sum.
        CHEAP_FIRST
            .into_iter()
            .filter(|&class| order.rank(class) > floor)
            .find_map(|class| side.any_in(class))
            .map(|shape| (0, shape))
            .or_else(|| {
                let class = order.classes()[5 - floor as usize];
                side.best_in(class)
                    .filter(|&(sum, _)| beats(Strength::of(class, sum, order)))
            })
    };
    found.map(|(_, shape)| if witness { side.cards(shape) } else { 0 })
}

/// The classes a completion can beat a weaker claim with, in the order of
/// the cost of testing them.
const CHEAP_FIRST: [FormationClass; 4] = [
    FormationClass::Battalion,
    FormationClass::SkirmishLine,
    FormationClass::Phalanx,
    FormationClass::Wedge,
];

/// A completion found: what the troops drawn form.
#[derive(Clone, Copy)]
enum Shape {
    /// The highest cards of any colours.
    Any,
    /// The highest cards of colour `c`.
    Flush(u32),
    /// Cards of value index `v`.
    Phalanx(usize),
    /// The run of values from index `lo`, in colour `c` when `Some`.
    Run(u32, Option<u32>),
}

/// The incomplete side, summarised for the tests below.
struct Side {
    /// Cards in a complete formation.
    n: u8,
    /// Troop cards still to be drawn from `avail`.
    m: u8,
    avail: u64,
    /// The values held, Cavalry's 8 included.
    vmask: u16,
    /// Two cards share a value.
    vdup: bool,
    /// The troops' colours.
    colours: u8,
    /// The sum of the troops and Cavalry, Leaders counted as 10.
    sum: u16,
    leader: bool,
}

impl Side {
    #[inline]
    fn new(theirs: &Part, n: u8, avail: u64) -> Side {
        let (vmask, vdup) = theirs.values_with_cavalry();
        Side {
            n,
            m: n - theirs.len() as u8,
            avail,
            vmask,
            vdup,
            colours: theirs.colours,
            sum: theirs.tsum + theirs.wild_max_sum(),
            leader: theirs.leaders == 1,
        }
    }

    /// Some completion in `class`, not necessarily the best.
    #[inline]
    fn any_in(&self, class: FormationClass) -> Option<Shape> {
        match class {
            FormationClass::Battalion => {
                let mut cols = self.flush_colours();
                while cols != 0 {
                    let c = cols.trailing_zeros();
                    cols &= cols - 1;
                    if at_least(colour_field(self.avail, c) as u64, self.m) {
                        return Some(Shape::Flush(c));
                    }
                }
                None
            }
            FormationClass::Wedge => {
                let found = self.wedge_starts();
                // Any start will do: the lowest is one instruction away.
                (found != 0).then(|| {
                    let b = found.trailing_zeros();
                    Shape::Run(b % 10, Some(b / 10))
                })
            }
            _ => self.best_in(class).map(|(_, shape)| shape),
        }
    }

    /// The best completion in `class`: its sum and shape.
    #[inline]
    fn best_in(&self, class: FormationClass) -> Option<(u16, Shape)> {
        match class {
            FormationClass::Host => self.host(),
            FormationClass::Battalion => self.battalion(),
            FormationClass::SkirmishLine => self.line(),
            FormationClass::Phalanx => self.phalanx(),
            FormationClass::Wedge => self.wedge(),
        }
    }

    /// The colours a one-colour completion may take, as a mask.
    #[inline]
    fn flush_colours(&self) -> u8 {
        match self.colours {
            0 => 0x3F,
            c if c & (c - 1) == 0 => c,
            _ => 0,
        }
    }

    fn host(&self) -> Option<(u16, Shape)> {
        let mut left = self.m;
        let mut sum = self.sum;
        for v in (0..10).rev() {
            let mut cards = self.avail & VALUE_BITS[v];
            while cards != 0 {
                cards &= cards - 1;
                sum += v as u16 + 1;
                left -= 1;
                if left == 0 {
                    return Some((sum, Shape::Any));
                }
            }
        }
        None
    }

    fn battalion(&self) -> Option<(u16, Shape)> {
        let mut best: Option<(u16, Shape)> = None;
        let mut cols = self.flush_colours();
        while cols != 0 {
            let c = cols.trailing_zeros();
            cols &= cols - 1;
            if let Some(top) = top_sum(colour_field(self.avail, c), self.m) {
                if best.is_none_or(|(s, _)| self.sum + top > s) {
                    best = Some((self.sum + top, Shape::Flush(c)));
                }
            }
        }
        best
    }

    fn phalanx(&self) -> Option<(u16, Shape)> {
        let v = match self.vmask {
            0 => (0..10)
                .rev()
                .find(|&v| at_least(self.avail & VALUE_BITS[v], self.m))?,
            m if m & (m - 1) == 0 => {
                let v = m.trailing_zeros() as usize;
                at_least(self.avail & VALUE_BITS[v], self.m).then_some(v)?
            }
            _ => return None,
        };
        Some((self.n as u16 * (v as u16 + 1), Shape::Phalanx(v)))
    }

    fn line(&self) -> Option<(u16, Shape)> {
        if self.vdup {
            return None;
        }
        let held = (fold(self.avail) | self.vmask) as u64;
        let starts = self.windows(held) & run_starts(self.vmask, self.n) as u64;
        let lo = top_bit(starts)?;
        Some((run_sum(self.n, lo as u8), Shape::Run(lo, None)))
    }

    fn wedge(&self) -> Option<(u16, Shape)> {
        let found = self.wedge_starts();
        let lo = top_bit(fold(found) as u64)?;
        let c = (found & REPLICATE << lo).trailing_zeros() / 10;
        Some((run_sum(self.n, lo as u8), Shape::Run(lo, Some(c))))
    }

    /// The starts of the one-colour runs (as troop bits: start `lo` of
    /// colour `c` at bit `10 c + lo`).
    #[inline]
    fn wedge_starts(&self) -> u64 {
        if self.vdup || self.colours & self.colours.wrapping_sub(1) != 0 {
            return 0;
        }
        let starts = run_starts(self.vmask, self.n) as u64;
        let (held, allowed) = if self.colours == 0 {
            (
                self.avail | self.vmask as u64 * REPLICATE,
                starts * REPLICATE,
            )
        } else {
            let at = 10 * self.colours.trailing_zeros();
            (
                self.avail & FIELD << at | (self.vmask as u64) << at,
                starts << at,
            )
        };
        self.windows(held) & allowed
    }

    /// The starts of the windows of `n` values in `held` (any field layout)
    /// in which the Leader, if any, fills the one value missing.
    #[inline]
    fn windows(&self, held: u64) -> u64 {
        let (a, b, c) = (held, held >> 1, held >> 2);
        match (self.n, self.leader) {
            (3, false) => a & b & c,
            (3, true) => a & b | a & c | b & c,
            (_, false) => a & b & c & held >> 3,
            (_, true) => {
                let d = held >> 3;
                a & b & (c | d) | c & d & (a | b)
            }
        }
    }

    /// The troop cards (troop bits) of a completion of `shape`, highest
    /// indices first where there is a choice.
    fn cards(&self, shape: Shape) -> u64 {
        let m = self.m as u32;
        match shape {
            Shape::Any => {
                let mut out = 0;
                let mut left = m;
                for v in (0..10).rev() {
                    let pool = self.avail & VALUE_BITS[v];
                    let k = pool.count_ones().min(left);
                    out |= take_top(pool, k);
                    left -= k;
                }
                out
            }
            Shape::Flush(c) => take_top(self.avail & FIELD << (10 * c), m),
            Shape::Phalanx(v) => take_top(self.avail & VALUE_BITS[v], m),
            Shape::Run(lo, colour) => {
                let free = ((1u16 << self.n) - 1) << lo & !self.vmask;
                let values = match colour {
                    Some(c) => colour_field(self.avail, c),
                    None => fold(self.avail),
                };
                // The Leader takes the value missing from the cards, if
                // one is; else any (here the highest) free one.
                let need = if self.leader {
                    let missing = free & !values;
                    free & !if missing != 0 {
                        missing
                    } else {
                        1 << (15 - free.leading_zeros())
                    }
                } else {
                    free
                };
                match colour {
                    Some(c) => (need as u64) << (10 * c) & self.avail,
                    None => {
                        let mut out = 0;
                        let mut need = need;
                        while need != 0 {
                            let v = need.trailing_zeros() as usize;
                            need &= need - 1;
                            out |= take_top(self.avail & VALUE_BITS[v], 1);
                        }
                        out
                    }
                }
            }
        }
    }
}

/// The union of the six colour fields of `troops` (as values).
#[inline]
fn fold(troops: u64) -> u16 {
    let x = troops | troops >> 30;
    ((x | x >> 10 | x >> 20) & FIELD) as u16
}

/// Whether `x` has at least `m` bits set (`m` from 1 to 4), without a
/// population count, which the baseline x86-64 has no instruction for.
#[inline]
fn at_least(mut x: u64, m: u8) -> bool {
    for _ in 1..m {
        x &= x.wrapping_sub(1);
    }
    x != 0
}

/// The index of the highest set bit.
#[inline]
fn top_bit(x: u64) -> Option<u32> {
    (x != 0).then(|| 63 - x.leading_zeros())
}

/// Sum of the `m` highest values of a value mask; `None` with fewer.
#[inline]
fn top_sum(mut field: u16, m: u8) -> Option<u16> {
    let mut sum = 0;
    for _ in 0..m {
        let b = top_bit(field as u64)?;
        sum += b as u16 + 1;
        field &= !(1 << b);
    }
    Some(sum)
}

/// The `k` highest bits of `pool` (all of them when it has fewer).
#[inline]
fn take_top(mut pool: u64, k: u32) -> u64 {
    let mut out = 0;
    for _ in 0..k {
        let Some(b) = top_bit(pool) else { break };
        out |= 1 << b;
        pool &= !(1 << b);
    }
    out
}
