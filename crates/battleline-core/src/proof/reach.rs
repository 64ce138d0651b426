//! The opponent's reach under the default wild cards: whether some
//! completion of an incomplete side beats a claimed strength, decided class
//! by class on whole bit masks of the available troops, every colour at
//! once (a run is a window of set bits in a colour field, and all six
//! fields are tested by the same few shifts).
//!
//! Companion Cavalry is a troop of value 8 whose colour is free; a Leader
//! fills one missing value of a run; Shield Bearers one of the values 1-3
//! (the few runs they allow are tried one by one). Two Leaders on one side
//! (which no game reaches) and [`WildCards::UnseenOnly`](crate::WildCards)
//! go to the class-by-class solver of [`crate::completion`].

use crate::completion::{colour_field, FIELD};
use crate::formation::{
    run_starts, run_sum, Environment, FormationClass, FormationOrder, Part, Strength,
};
use crate::rules::ProofTie;

/// Bit 0 of each of the six colour fields: the cards of value 1.
const REPLICATE: u64 = 1 | 1 << 10 | 1 << 20 | 1 << 30 | 1 << 40 | 1 << 50;

/// Whether [`refutation`] decides for `theirs`.
#[inline]
pub(super) fn handles(theirs: &Part) -> bool {
    theirs.leaders() <= 1
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
    let shape = if env.fog {
        let sum = side.host_sum()?;
        beats(Strength::sum_only(sum), mine, tie).then_some(Shape::Any)?
    } else {
        side.beating(mine, order, tie)?
    };
    Some(if witness { side.cards(shape) } else { 0 })
}

#[inline]
fn beats(s: Strength, mine: Strength, tie: ProofTie) -> bool {
    s > mine || (s == mine && tie == ProofTie::Blocks)
}

/// A completion found: what the troops drawn form.
#[derive(Clone, Copy)]
enum Shape {
    /// The highest cards of any colours.
    Any,
    /// The highest cards of colour `c`.
    Flush(u32),
    /// Cards of value index `v`.
    Phalanx(u32),
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
    /// The sum of the troops and the wilds at their highest.
    sum: u16,
    leader: bool,
    shield: bool,
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
            leader: theirs.leaders() == 1,
            shield: theirs.shield(),
        }
    }

    /// A completion beating `mine` (not under Fog): any of a stronger
    /// class, the cheapest tests first, else the best of its own class.
    #[inline]
    fn beating(&self, mine: Strength, order: FormationOrder, tie: ProofTie) -> Option<Shape> {
        let floor = mine.rank();
        let line_rank = order.rank(FormationClass::SkirmishLine);
        let battalion_rank = order.rank(FormationClass::Battalion);
        if floor < battalion_rank {
            if let Some(c) = self.battalion_colour() {
                return Some(Shape::Flush(c));
            }
        }
        if floor < line_rank {
            if let Some(lo) = self.line_start() {
                return Some(Shape::Run(lo, None));
            }
        }
        if floor < 4 {
            if let Some(v) = self.phalanx_value() {
                return Some(Shape::Phalanx(v));
            }
        }
        if floor < 5 {
            let found = self.wedge_starts();
            if found != 0 {
                // Any start will do: the lowest is one instruction away.
                let b = found.trailing_zeros();
                return Some(Shape::Run(b % 10, Some(b / 10)));
            }
        }
        // Only the claimant's own class is left: its best completion.
        let n = self.n;
        let (class, sum, shape) = match floor {
            5 => {
                let found = self.wedge_starts();
                let lo = top_bit(fold(found) as u64)?;
                let c = (found & REPLICATE << lo).trailing_zeros() / 10;
                let sum = run_sum(n, lo as u8);
                (FormationClass::Wedge, sum, Shape::Run(lo, Some(c)))
            }
            4 => {
                let v = self.phalanx_value()?;
                let sum = n as u16 * (v as u16 + 1);
                (FormationClass::Phalanx, sum, Shape::Phalanx(v))
            }
            r if r == line_rank => {
                let lo = self.line_start()?;
                let sum = run_sum(n, lo as u8);
                (FormationClass::SkirmishLine, sum, Shape::Run(lo, None))
            }
            r if r == battalion_rank => {
                let (sum, c) = self.best_battalion()?;
                (FormationClass::Battalion, sum, Shape::Flush(c))
            }
            _ => (FormationClass::Host, self.host_sum()?, Shape::Any),
        };
        beats(Strength::of(class, sum, order), mine, tie).then_some(shape)
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

    /// A colour in which a one-colour completion exists.
    #[inline]
    fn battalion_colour(&self) -> Option<u32> {
        let mut cols = self.flush_colours();
        while cols != 0 {
            let c = cols.trailing_zeros();
            cols &= cols - 1;
            if at_least(colour_field(self.avail, c) as u64, self.m) {
                return Some(c);
            }
        }
        None
    }

    /// The best one-colour completion: its sum and colour.
    fn best_battalion(&self) -> Option<(u16, u32)> {
        let mut best: Option<(u16, u32)> = None;
        let mut cols = self.flush_colours();
        while cols != 0 {
            let c = cols.trailing_zeros();
            cols &= cols - 1;
            if let Some(top) = top_sum(colour_field(self.avail, c), self.m) {
                if best.is_none_or(|(s, _)| self.sum + top > s) {
                    best = Some((self.sum + top, c));
                }
            }
        }
        best
    }

    /// The best sum of any completion.
    fn host_sum(&self) -> Option<u16> {
        let mut left = self.m;
        let mut sum = self.sum;
        let mut values = fold(self.avail);
        while values != 0 {
            let v = 15 - values.leading_zeros();
            values &= !(1 << v);
            let mut cards = self.avail >> v & REPLICATE;
            while cards != 0 {
                cards &= cards - 1;
                sum += v as u16 + 1;
                left -= 1;
                if left == 0 {
                    return Some(sum);
                }
            }
        }
        None
    }

    /// The highest value of which a Phalanx can be completed.
    #[inline]
    fn phalanx_value(&self) -> Option<u32> {
        // Shield Bearers are a 1, 2 or 3.
        let allowed: u16 = if self.shield { 0b111 } else { FIELD as u16 };
        let mut values = match self.vmask {
            0 => allowed,
            v if v & (v - 1) == 0 => v & allowed,
            _ => 0,
        };
        while values != 0 {
            let v = 15 - values.leading_zeros();
            values &= !(1 << v);
            if at_least(self.avail >> v & REPLICATE, self.m) {
                return Some(v);
            }
        }
        None
    }

    /// The highest start of a run of any colours.
    #[inline]
    fn line_start(&self) -> Option<u32> {
        if self.vdup {
            return None;
        }
        let held = fold(self.avail) | self.vmask;
        top_bit(self.run_starts_in(held as u64, REPLICATE & FIELD))
    }

    /// The starts of the one-colour runs (as troop bits: start `lo` of
    /// colour `c` at bit `10 c + lo`).
    #[inline]
    fn wedge_starts(&self) -> u64 {
        if self.vdup || self.colours & self.colours.wrapping_sub(1) != 0 {
            return 0;
        }
        if self.colours == 0 {
            self.run_starts_in(self.avail | (self.vmask as u64 * REPLICATE), REPLICATE)
        } else {
            let at = 10 * self.colours.trailing_zeros();
            let held = self.avail & FIELD << at | (self.vmask as u64) << at;
            self.run_starts_in(held, 1 << at)
        }
    }

    /// The starts of the runs of `n` values that `held` (colour fields, at
    /// bit 0 of each field of `fields`) completes with the wilds, as bits
    /// of `held`.
    #[inline]
    fn run_starts_in(&self, held: u64, fields: u64) -> u64 {
        let starts = run_starts(self.vmask, self.n) as u64 * fields;
        if self.shield {
            return self.shield_run_starts(held, fields) & starts;
        }
        let (a, b, c) = (held, held >> 1, held >> 2);
        // Windows of n values in which the Leader, if any, fills the one
        // missing.
        let windows = match (self.n, self.leader) {
            (3, false) => a & b & c,
            (3, true) => a & b | a & c | b & c,
            (_, false) => a & b & c & held >> 3,
            (_, true) => {
                let d = held >> 3;
                a & b & (c | d) | c & d & (a | b)
            }
        };
        windows & starts
    }

    /// [`Side::run_starts_in`] with Shield Bearers, which take a free value
    /// 1-3 of the run: only the starts 1-3 are possible, tried one by one.
    #[cold]
    fn shield_run_starts(&self, held: u64, fields: u64) -> u64 {
        let mut out = 0;
        let mut fields = fields;
        while fields != 0 {
            let at = fields.trailing_zeros();
            fields &= fields - 1;
            let values = (held >> at & FIELD) as u16;
            for lo in 0..3 {
                if self.wild_slots(lo, values).is_some() {
                    out |= 1 << (at + lo);
                }
            }
        }
        out
    }

    /// The values the wilds take in the run from `lo` whose other values
    /// are in `values` (the values held or drawable): `None` when they
    /// cannot fill it. The run must hold `vmask` (see [`run_starts`]).
    #[inline]
    fn wild_slots(&self, lo: u32, values: u16) -> Option<u16> {
        let free = ((1u16 << self.n) - 1) << lo & !self.vmask;
        let mut missing = free & !values;
        let mut wild = 0;
        if self.shield {
            // A missing 1-3 if there is one, else any free 1-3.
            let low = if missing & 0b111 != 0 { missing } else { free } & 0b111;
            if low == 0 {
                return None;
            }
            let s = low & low.wrapping_neg();
            wild |= s;
            missing &= !s;
        }
        if self.leader {
            // The missing value if there is one, else the highest free one.
            let rest = free & !wild;
            let l = if missing != 0 {
                missing & missing.wrapping_neg()
            } else {
                1 << (15 - rest.leading_zeros())
            };
            wild |= l;
            missing &= !l;
        }
        (missing == 0).then_some(wild)
    }

    /// The troop cards (troop bits) of a completion of `shape`, highest
    /// indices first where there is a choice.
    #[inline(never)]
    fn cards(&self, shape: Shape) -> u64 {
        let m = self.m as u32;
        match shape {
            Shape::Any => {
                let mut out = 0;
                let mut left = m;
                let mut values = fold(self.avail);
                while left > 0 && values != 0 {
                    let v = 15 - values.leading_zeros();
                    values &= !(1 << v);
                    let mut pool = self.avail & REPLICATE << v;
                    while left > 0 && pool != 0 {
                        let b = 63 - pool.leading_zeros();
                        out |= 1 << b;
                        pool &= !(1 << b);
                        left -= 1;
                    }
                }
                out
            }
            Shape::Flush(c) => take_top(self.avail & FIELD << (10 * c), m),
            Shape::Phalanx(v) => take_top(self.avail & REPLICATE << v, m),
            Shape::Run(lo, colour) => {
                let (values, at) = match colour {
                    Some(c) => (colour_field(self.avail, c), Some(10 * c)),
                    None => (fold(self.avail), None),
                };
                let free = ((1u16 << self.n) - 1) << lo & !self.vmask;
                // A run found is one the wilds fill.
                let need = free & !self.wild_slots(lo, values).unwrap_or(0);
                match at {
                    Some(at) => (need as u64) << at & self.avail,
                    None => {
                        let mut out = 0;
                        let mut need = need;
                        while need != 0 {
                            let v = need.trailing_zeros();
                            need &= need - 1;
                            out |= take_top(self.avail & REPLICATE << v, 1);
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
fn at_least(x: u64, m: u8) -> bool {
    let x2 = x & x.wrapping_sub(1);
    let x3 = x2 & x2.wrapping_sub(1);
    let x4 = x3 & x3.wrapping_sub(1);
    let kept = match m {
        0 | 1 => x,
        2 => x2,
        3 => x3,
        _ => x4,
    };
    kept != 0
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
