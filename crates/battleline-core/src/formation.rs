//! Formations and their strength: the first hot path.
//!
//! A formation's strength is one comparable [`Strength`]: the rank of its
//! class under the chosen [`FormationOrder`], then the sum of its values.
//! Without wild cards it is computed with a few bit operations on the set of
//! values; with wild cards (Leaders, Companion Cavalry, Shield Bearers) each
//! class is tested by reasoning about which values the wilds may take, never
//! by trying every assignment. The same reasoning, extended with cards still
//! to be drawn, is what the flag-proof solver ([`crate::proof`]) uses.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::{Card, CardSet, Tactic, TROOPS};

/// The formation classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FormationClass {
    /// Any other three (four) cards.
    Host,
    /// Three (four) cards of one colour.
    Battalion,
    /// Consecutive values, any colours.
    SkirmishLine,
    /// Three (four) cards of one value.
    Phalanx,
    /// Consecutive values of one colour.
    Wedge,
}

impl FormationClass {
    const fn code(self) -> u16 {
        self as u16 + 1
    }

    fn from_code(code: u16) -> Option<FormationClass> {
        match code {
            1 => Some(FormationClass::Host),
            2 => Some(FormationClass::Battalion),
            3 => Some(FormationClass::SkirmishLine),
            4 => Some(FormationClass::Phalanx),
            5 => Some(FormationClass::Wedge),
            _ => None,
        }
    }
}

/// How the classes rank.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FormationOrder {
    /// The rule text: Wedge > Phalanx > Skirmish Line > Battalion > Host.
    #[default]
    Text,
    /// The published GMT game: Wedge > Phalanx > Battalion > Skirmish Line > Host.
    Published,
}

impl FormationOrder {
    /// Rank of `class`, 1 (weakest) to 5.
    pub const fn rank(self, class: FormationClass) -> u16 {
        match (class, self) {
            (FormationClass::Host, _) => 1,
            (FormationClass::Battalion, FormationOrder::Text) => 2,
            (FormationClass::SkirmishLine, FormationOrder::Text) => 3,
            (FormationClass::SkirmishLine, FormationOrder::Published) => 2,
            (FormationClass::Battalion, FormationOrder::Published) => 3,
            (FormationClass::Phalanx, _) => 4,
            (FormationClass::Wedge, _) => 5,
        }
    }

    /// The classes from strongest to weakest.
    pub const fn classes(self) -> [FormationClass; 5] {
        match self {
            FormationOrder::Text => [
                FormationClass::Wedge,
                FormationClass::Phalanx,
                FormationClass::SkirmishLine,
                FormationClass::Battalion,
                FormationClass::Host,
            ],
            FormationOrder::Published => [
                FormationClass::Wedge,
                FormationClass::Phalanx,
                FormationClass::Battalion,
                FormationClass::SkirmishLine,
                FormationClass::Host,
            ],
        }
    }
}

/// What a flag's environment does to its formations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Environment {
    /// Fog: compare sums only.
    pub fog: bool,
    /// Mud: formations have four cards.
    pub mud: bool,
}

impl Environment {
    /// Cards in a complete formation: 3, or 4 under Mud.
    pub const fn slots(self) -> usize {
        if self.mud {
            4
        } else {
            3
        }
    }
}

/// The strength of a complete formation; greater is stronger. Compares
/// class rank first, then the sum. Under Fog the class is ignored.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Strength(u16);

impl Strength {
    const fn new(rank: u16, class: u16, sum: u16) -> Strength {
        Strength(rank << 9 | class << 6 | sum)
    }

    /// The strength of a formation under Fog with this sum.
    pub const fn sum_only(sum: u16) -> Strength {
        Strength::new(0, 0, sum & 63)
    }

    /// The strength of a formation of `class` with `sum` under `order`.
    pub const fn of(class: FormationClass, sum: u16, order: FormationOrder) -> Strength {
        Strength::new(order.rank(class), class.code(), sum & 63)
    }

    /// The class, or `None` under Fog.
    pub fn class(self) -> Option<FormationClass> {
        FormationClass::from_code(self.0 >> 6 & 7)
    }

    /// The sum of the values.
    pub const fn sum(self) -> u16 {
        self.0 & 63
    }

    /// The rank of the class under the order it was made with (0 under Fog).
    pub const fn rank(self) -> u16 {
        self.0 >> 9
    }
}

impl fmt::Debug for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.class() {
            Some(c) => write!(f, "{c:?} {}", self.sum()),
            None => write!(f, "sum {}", self.sum()),
        }
    }
}

/// Sum of the values of a 10-bit value mask (bit `v - 1` for value `v`).
static MASK_SUM: [u8; 1024] = {
    let mut t = [0u8; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut v = 0;
        let mut s = 0;
        while v < 10 {
            if m >> v & 1 == 1 {
                s += v + 1;
            }
            v += 1;
        }
        t[m] = s as u8;
        m += 1;
    }
    t
};

/// Troop bits (colour-major) of every card of value `v` (index `v - 1`).
const VALUE_BITS: [u64; 10] = {
    let mut t = [0u64; 10];
    let mut v = 0;
    while v < 10 {
        let mut c = 0;
        while c < 6 {
            t[v] |= 1 << (c * 10 + v);
            c += 1;
        }
        v += 1;
    }
    t
};

const FIELD: u64 = 0x3FF;

/// The value mask of colour `c` in troop bits.
#[inline]
pub(crate) fn colour_field(troops: u64, c: u32) -> u16 {
    (troops >> (c * 10) & FIELD) as u16
}

/// The union of the value masks of all colours.
#[inline]
fn any_colour_values(troops: u64) -> u16 {
    let mut m = 0;
    for c in 0..6 {
        m |= colour_field(troops, c);
    }
    m
}

/// The fixed part of a formation: the cards already in it, summarised.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Part {
    /// Troop cards as troop bits.
    pub troops: u64,
    /// Value mask of the troops.
    pub vmask: u16,
    /// Colour mask of the troops.
    pub colours: u8,
    /// Two troops share a value.
    pub vdup: bool,
    /// Sum of the troops' values.
    pub tsum: u16,
    /// Number of troops.
    pub tcount: u8,
    /// Leaders in the formation.
    pub leaders: u8,
    /// Companion Cavalry present.
    pub cavalry: bool,
    /// Shield Bearers present.
    pub shield: bool,
}

impl Part {
    /// Summarises `cards`; `None` for a card that has no slot (Fog, Mud,
    /// guile tactics) or a card given twice.
    #[inline]
    pub fn of(cards: &[Card]) -> Option<Part> {
        let mut p = Part::default();
        let mut seen: u128 = 0;
        for &c in cards {
            let i = c.index();
            if seen >> i & 1 == 1 {
                return None;
            }
            seen |= 1 << i;
            if i < TROOPS {
                let bit = 1u16 << (i % 10);
                p.vdup |= p.vmask & bit != 0;
                p.vmask |= bit;
                p.colours |= 1 << (i / 10);
                p.tsum += (i % 10) as u16 + 1;
                p.tcount += 1;
                p.troops |= 1 << i;
            } else {
                match c.as_tactic() {
                    Some(Tactic::Alexander | Tactic::Darius) => p.leaders += 1,
                    Some(Tactic::CompanionCavalry) => p.cavalry = true,
                    Some(Tactic::ShieldBearers) => p.shield = true,
                    _ => return None,
                }
            }
        }
        Some(p)
    }

    /// Number of cards.
    pub fn len(&self) -> usize {
        (self.tcount + self.leaders + self.cavalry as u8 + self.shield as u8) as usize
    }

    fn wild_count(&self) -> u8 {
        self.leaders + self.cavalry as u8 + self.shield as u8
    }

    fn wild_max_sum(&self) -> u16 {
        self.leaders as u16 * 10
            + if self.cavalry { 8 } else { 0 }
            + if self.shield { 3 } else { 0 }
    }
}

/// Sum of the `m` highest values among `avail` troops (any colours); `None`
/// when fewer than `m` are available.
#[inline]
fn top_values(avail: u64, m: u8) -> Option<u16> {
    if m == 0 {
        return Some(0);
    }
    let mut left = m as u32;
    let mut sum = 0u16;
    for v in (0..10).rev() {
        let k = (avail & VALUE_BITS[v]).count_ones().min(left);
        sum += k as u16 * (v as u16 + 1);
        left -= k;
        if left == 0 {
            return Some(sum);
        }
    }
    None
}

/// Highest `m` values of a 10-bit mask as a mask; `None` when too few.
#[inline]
fn top_bits(mut field: u16, m: u8) -> Option<u16> {
    if field.count_ones() < m as u32 {
        return None;
    }
    let mut out = 0;
    for _ in 0..m {
        let b = 15 - field.leading_zeros();
        out |= 1 << b;
        field &= !(1 << b);
    }
    Some(out)
}

/// The colours a one-colour formation may take: the troops' colour, or any
/// colour when there are no troops; empty when the troops mix colours.
#[inline]
fn flush_colours(part: &Part) -> u8 {
    match part.colours.count_ones() {
        0 => 0x3F,
        1 => part.colours,
        _ => 0,
    }
}

/// A way a formation can be completed, found by reasoning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pattern {
    /// Any cards: the `m` highest.
    Any,
    /// One colour.
    Flush(u8),
    /// [`Pattern::Any`] leaving the cards unseen wilds take.
    AnyExcept(Taken),
    /// [`Pattern::Flush`] leaving the cards unseen wilds take.
    FlushExcept(u8, Taken),
    /// One value (0-based).
    Phalanx(u8),
    /// A run from value index `lo` in any colours, wilds on `wild_slots`.
    Run(u8, u16),
    /// A run of one colour.
    StraightFlush(u8, u8, u16),
}

/// The troop cards Companion Cavalry and Shield Bearers become in a
/// completion whose wilds must be unseen cards, as troop indices
/// ([`Taken::NONE`] otherwise). Two bytes rather than a card mask keep the
/// [`Pattern`] of the default rules as small as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Taken([u8; 2]);

impl Taken {
    const NO_CARD: u8 = u8::MAX;
    const NONE: Taken = Taken([Taken::NO_CARD; 2]);

    fn bits(self) -> u64 {
        self.0
            .iter()
            .filter(|&&i| i != Taken::NO_CARD)
            .fold(0, |m, &i| m | 1 << i)
    }
}

/// Where the wilds go in a run of `n` values from `lo` (0-based), so that
/// the remaining values are all in `avail_values`; the wild slots as a
/// value mask. `None` when impossible. With `UNSEEN` the wilds too must
/// become cards of `avail_values` (a run holds each value once, so wilds
/// and troops never need the same card).
#[inline]
fn place_run<const UNSEEN: bool>(part: &Part, n: u8, lo: u8, avail_values: u16) -> Option<u16> {
    let run: u16 = ((1 << n) - 1) << lo;
    if part.vmask & !run != 0 {
        return None;
    }
    let mut free = run & !part.vmask;
    if UNSEEN && free & !avail_values != 0 {
        return None;
    }
    let mut wild = 0u16;
    if part.cavalry {
        if free & (1 << 7) == 0 {
            return None;
        }
        free &= !(1 << 7);
        wild |= 1 << 7;
    }
    let leaders = part.leaders as u32;
    let try_rest = |rem: u16| -> Option<u16> {
        let miss = rem & !avail_values;
        if miss.count_ones() > leaders {
            return None;
        }
        // Extra leaders take the highest other free values; which ones does
        // not change the sum of a run.
        let mut slots = miss;
        let mut extra = leaders - miss.count_ones();
        let mut rest = rem & !miss;
        while extra > 0 {
            let b = 15 - rest.leading_zeros();
            slots |= 1 << b;
            rest &= !(1 << b);
            extra -= 1;
        }
        Some(slots)
    };
    if part.shield {
        let mut opts = free & 0b111;
        while opts != 0 {
            let s = opts & opts.wrapping_neg();
            opts &= !s;
            if let Some(slots) = try_rest(free & !s) {
                return Some(wild | s | slots);
            }
        }
        None
    } else {
        try_rest(free).map(|slots| wild | slots)
    }
}

/// Best run start (0-based) for a run of `n` values: highest first.
#[inline]
fn best_run<const UNSEEN: bool>(part: &Part, n: u8, avail_values: u16) -> Option<(u8, u16)> {
    if part.vdup {
        return None;
    }
    (0..=10 - n)
        .rev()
        .find_map(|lo| place_run::<UNSEEN>(part, n, lo, avail_values).map(|w| (lo, w)))
}

/// The lowest troop bit of `pool` of value index `v`, if any.
#[inline]
fn one_of_value(pool: u64, v: usize) -> Option<u64> {
    let b = pool & VALUE_BITS[v];
    (b != 0).then(|| b & b.wrapping_neg())
}

/// With wilds that must become unseen cards: the best sum of `k` "any
/// value" cards (the Leaders and the `m` troops) taken with `top` from
/// `pool`, after Cavalry took an 8 and Shield Bearers a 1, 2 or 3 from it
/// (distinct cards); the sum of those and the bits the two took. `cards`
/// restricts a wild's card to one colour field (`None`: any colour).
#[inline]
fn fixed_wilds_then_top(
    part: &Part,
    pool: u64,
    k: u8,
    top: impl Fn(u64, u8) -> Option<u16>,
) -> Option<(u16, Taken)> {
    let mut pool = pool;
    let mut base = 0u16;
    let mut taken = Taken::NONE;
    if part.cavalry {
        let b = one_of_value(pool, 7)?;
        pool &= !b;
        taken.0[0] = b.trailing_zeros() as u8;
        base += 8;
    }
    if !part.shield {
        return top(pool, k).map(|s| (base + s, taken));
    }
    let mut best: Option<(u16, Taken)> = None;
    for v in 0..3 {
        if let Some(b) = one_of_value(pool, v) {
            if let Some(s) = top(pool & !b, k) {
                let total = base + v as u16 + 1 + s;
                if best.is_none_or(|(x, _)| total > x) {
                    taken.0[1] = b.trailing_zeros() as u8;
                    best = Some((total, taken));
                }
            }
        }
    }
    best
}

/// The best way to complete `part` to `n` cards with troops from `avail`
/// matching `class`, the wilds taking any values they may; returns the sum
/// and the pattern. Always inlined: as a call (which the compiler chose
/// once `best_completion` also had the unseen variant) the default rules
/// measured 40 % slower with a wild card.
#[inline(always)]
pub(crate) fn best_in_class(
    part: &Part,
    n: u8,
    avail: u64,
    class: FormationClass,
) -> Option<(u16, Pattern)> {
    let m = n.checked_sub(part.len() as u8)?;
    match class {
        FormationClass::Host => {
            top_values(avail, m).map(|s| (part.tsum + part.wild_max_sum() + s, Pattern::Any))
        }
        FormationClass::Battalion => {
            let mut best: Option<(u16, Pattern)> = None;
            let mut cols = flush_colours(part);
            while cols != 0 {
                let c = cols.trailing_zeros();
                cols &= cols - 1;
                if let Some(bits) = top_bits(colour_field(avail, c), m) {
                    let s = part.tsum + part.wild_max_sum() + MASK_SUM[bits as usize] as u16;
                    if best.is_none_or(|(b, _)| s > b) {
                        best = Some((s, Pattern::Flush(c as u8)));
                    }
                }
            }
            best
        }
        FormationClass::Phalanx => {
            if part.vmask.count_ones() > 1 {
                return None;
            }
            (0..10u8).rev().find_map(|v| {
                let ok = (part.vmask == 0 || part.vmask == 1 << v)
                    && (!part.cavalry || v == 7)
                    && (!part.shield || v <= 2)
                    && (avail & VALUE_BITS[v as usize]).count_ones() >= m as u32;
                ok.then(|| (n as u16 * (v as u16 + 1), Pattern::Phalanx(v)))
            })
        }
        FormationClass::SkirmishLine => best_run::<false>(part, n, any_colour_values(avail))
            .map(|(lo, w)| (run_sum(n, lo), Pattern::Run(lo, w))),
        FormationClass::Wedge => best_wedge::<false>(part, n, avail),
    }
}

/// The best Wedge completing `part` to `n` cards from `avail`.
#[inline]
fn best_wedge<const UNSEEN: bool>(part: &Part, n: u8, avail: u64) -> Option<(u16, Pattern)> {
    let mut best: Option<(u16, Pattern)> = None;
    let mut cols = flush_colours(part);
    while cols != 0 {
        let c = cols.trailing_zeros();
        cols &= cols - 1;
        if let Some((lo, w)) = best_run::<UNSEEN>(part, n, colour_field(avail, c)) {
            let s = run_sum(n, lo);
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, Pattern::StraightFlush(c as u8, lo, w)));
            }
        }
    }
    best
}

/// [`best_in_class`] when every wild must become a distinct troop card of
/// `avail` that the added troops do not use (the option
/// [`WildCards::UnseenOnly`](crate::WildCards), where `avail` is exactly
/// the cards not visible on the table). A separate function so that the
/// default one stays as it was (measured: a shared generic body was not
/// inlined any more and cost the default rules 20-30 %).
fn best_in_class_unseen(
    part: &Part,
    n: u8,
    avail: u64,
    class: FormationClass,
) -> Option<(u16, Pattern)> {
    let m = n.checked_sub(part.len() as u8)?;
    match class {
        FormationClass::Host => fixed_wilds_then_top(part, avail, part.leaders + m, top_values)
            .map(|(s, taken)| (part.tsum + s, Pattern::AnyExcept(taken))),
        FormationClass::Battalion => {
            let mut best: Option<(u16, Pattern)> = None;
            let mut cols = flush_colours(part);
            while cols != 0 {
                let c = cols.trailing_zeros();
                cols &= cols - 1;
                let field = avail & FIELD << (c * 10);
                let found = fixed_wilds_then_top(part, field, part.leaders + m, |pool, k| {
                    top_bits(colour_field(pool, c), k).map(|b| MASK_SUM[b as usize] as u16)
                });
                if let Some((s, taken)) = found {
                    let s = part.tsum + s;
                    if best.is_none_or(|(b, _)| s > b) {
                        best = Some((s, Pattern::FlushExcept(c as u8, taken)));
                    }
                }
            }
            best
        }
        FormationClass::Phalanx => {
            if part.vmask.count_ones() > 1 {
                return None;
            }
            // Each wild needs a card of the value too.
            let need = m as u32 + part.wild_count() as u32;
            (0..10u8).rev().find_map(|v| {
                let ok = (part.vmask == 0 || part.vmask == 1 << v)
                    && (!part.cavalry || v == 7)
                    && (!part.shield || v <= 2)
                    && (avail & VALUE_BITS[v as usize]).count_ones() >= need;
                ok.then(|| (n as u16 * (v as u16 + 1), Pattern::Phalanx(v)))
            })
        }
        FormationClass::SkirmishLine => best_run::<true>(part, n, any_colour_values(avail))
            .map(|(lo, w)| (run_sum(n, lo), Pattern::Run(lo, w))),
        FormationClass::Wedge => best_wedge::<true>(part, n, avail),
    }
}

const fn run_sum(n: u8, lo: u8) -> u16 {
    let n = n as u16;
    n * (lo as u16 + 1) + n * (n - 1) / 2
}

/// The strongest completion of `part` to `env.slots()` cards with troops
/// from `avail`, not looking at classes ranked below `floor` (so a caller
/// that only cares about beating a strength stops early). `None` when no
/// completion reaches `floor`. With `UNSEEN` the wilds must become unseen
/// cards, as for [`best_in_class_unseen`].
#[inline]
pub(crate) fn best_completion<const UNSEEN: bool>(
    part: &Part,
    env: Environment,
    avail: u64,
    order: FormationOrder,
    floor: u16,
) -> Option<(Strength, Pattern)> {
    let n = env.slots() as u8;
    if env.fog {
        let host = if UNSEEN {
            best_in_class_unseen(part, n, avail, FormationClass::Host)
        } else {
            best_in_class(part, n, avail, FormationClass::Host)
        };
        return host.map(|(s, p)| (Strength::sum_only(s), p));
    }
    for class in order.classes() {
        if order.rank(class) < floor {
            return None;
        }
        let found = if UNSEEN {
            best_in_class_unseen(part, n, avail, class)
        } else {
            best_in_class(part, n, avail, class)
        };
        if let Some((s, p)) = found {
            return Some((Strength::of(class, s, order), p));
        }
    }
    None
}

/// The troop cards of a completion by `pattern` of `part` to `n` cards from
/// `avail` (the pattern was found feasible by [`best_in_class`]).
pub(crate) fn pattern_cards(part: &Part, n: u8, avail: u64, pattern: Pattern) -> u64 {
    let m = n.saturating_sub(part.len() as u8) as u32;
    let mut out = 0u64;
    let take = |pool: u64, k: u32, out: &mut u64| {
        // Highest troop indices first: within one value or colour field
        // that is the highest value.
        let mut pool = pool;
        for _ in 0..k {
            if pool == 0 {
                return;
            }
            let b = 63 - pool.leading_zeros();
            *out |= 1 << b;
            pool &= !(1 << b);
        }
    };
    match pattern {
        Pattern::Any | Pattern::AnyExcept(_) => {
            let wilds = match pattern {
                Pattern::AnyExcept(w) => w.bits(),
                _ => 0,
            };
            let mut left = m;
            for v in (0..10).rev() {
                let pool = avail & !wilds & VALUE_BITS[v];
                let k = pool.count_ones().min(left);
                take(pool, k, &mut out);
                left -= k;
            }
        }
        // Leaders take the cards after the troops', which gives the same sum.
        Pattern::Flush(c) => take(avail & FIELD << (c as u32 * 10), m, &mut out),
        Pattern::FlushExcept(c, wilds) => take(
            avail & !wilds.bits() & FIELD << (c as u32 * 10),
            m,
            &mut out,
        ),
        Pattern::Phalanx(v) => take(avail & VALUE_BITS[v as usize], m, &mut out),
        Pattern::Run(lo, wild) | Pattern::StraightFlush(_, lo, wild) => {
            let run: u16 = ((1 << n) - 1) << lo;
            let need = run & !part.vmask & !wild;
            let pool = match pattern {
                Pattern::StraightFlush(c, ..) => avail & FIELD << (c as u32 * 10),
                _ => avail,
            };
            for (v, bits) in VALUE_BITS.iter().enumerate() {
                if need >> v & 1 == 1 {
                    take(pool & bits, 1, &mut out);
                }
            }
        }
    }
    out
}

/// The strength of a complete formation of `cards` (3 cards, 4 under Mud)
/// with every wild card given its best colour and value for its owner;
/// `None` when the cards are not a complete formation (wrong count, a
/// duplicate, a card that has no slot).
///
/// ```
/// use battleline_core::{formation_strength, Card, Colour, Environment, FormationClass, FormationOrder, Tactic};
/// let r = |v| Card::troop(Colour::Red, v).unwrap();
/// let wedge = formation_strength(&[r(3), r(4), r(5)], Environment::default(), FormationOrder::Text).unwrap();
/// assert_eq!(wedge.class(), Some(FormationClass::Wedge));
/// let with_leader = formation_strength(&[r(9), Card::tactic(Tactic::Alexander), r(10)], Environment::default(), FormationOrder::Text).unwrap();
/// assert_eq!(with_leader.sum(), 27); // Red 8-9-10
/// assert!(with_leader > wedge);
/// ```
#[inline]
pub fn formation_strength(
    cards: &[Card],
    env: Environment,
    order: FormationOrder,
) -> Option<Strength> {
    // Fast path for three troops: one table lookup per card, then bit tests.
    if let ([a, b, c], false) = (cards, env.mud) {
        let (x, y, z) = (info(*a), info(*b), info(*c));
        let or = x | y | z;
        if or & NOT_TROOP == 0 && a != b && b != c && a != c {
            let part = Part {
                vmask: (or & 0x3FF) as u16,
                colours: if x & y & z & 0xFC00 != 0 { 1 } else { 3 },
                tsum: ((x >> 16) + (y >> 16) + (z >> 16)) as u16,
                tcount: 3,
                ..Part::default()
            };
            return Some(plain_strength(&part, 3, env.fog, order));
        }
    }
    let part = Part::of(cards)?;
    part_strength(&part, env, order)
}

/// Per card index: value bit (bits 0..10), colour bit (10..16), the value
/// (from bit 16), and bit 31 for a card that is not a troop. Indexed by a
/// byte so that the lookup needs no bounds check.
const NOT_TROOP: u32 = 1 << 31;
static CARD_INFO: [u32; 256] = {
    let mut t = [NOT_TROOP; 256];
    let mut i = 0;
    while i < 70 {
        t[i] = if i < TROOPS {
            (1 << (i % 10)) | (1 << (10 + i / 10)) | (((i % 10) as u32 + 1) << 16)
        } else {
            NOT_TROOP
        };
        i += 1;
    }
    t
};

#[inline]
fn info(c: Card) -> u32 {
    CARD_INFO[c.index() as u8 as usize]
}

/// Compares two complete formations at a flag with environment `env`;
/// `None` when either is not a complete formation. An equal result is
/// decided by who completed first (see [`crate::Flag::first_complete`]).
///
/// ```
/// use std::cmp::Ordering;
/// use battleline_core::{compare_formations, Card, Colour, Environment, FormationOrder};
/// let c = |col, v| Card::troop(col, v).unwrap();
/// let line = [c(Colour::Yellow, 4), c(Colour::Red, 6), c(Colour::Green, 5)];
/// let battalion = [c(Colour::Blue, 2), c(Colour::Blue, 7), c(Colour::Blue, 4)];
/// let env = Environment::default();
/// assert_eq!(compare_formations(&line, &battalion, env, FormationOrder::Text), Some(Ordering::Greater));
/// assert_eq!(compare_formations(&line, &battalion, env, FormationOrder::Published), Some(Ordering::Less));
/// ```
pub fn compare_formations(
    a: &[Card],
    b: &[Card],
    env: Environment,
    order: FormationOrder,
) -> Option<std::cmp::Ordering> {
    Some(formation_strength(a, env, order)?.cmp(&formation_strength(b, env, order)?))
}

/// The strength of a complete summarised formation.
#[inline]
pub(crate) fn part_strength(
    part: &Part,
    env: Environment,
    order: FormationOrder,
) -> Option<Strength> {
    let n = env.slots() as u8;
    if part.len() != n as usize {
        return None;
    }
    if part.wild_count() == 0 {
        return Some(plain_strength(part, n, env.fog, order));
    }
    best_completion::<false>(part, env, 0, order, 0).map(|(s, _)| s)
}

/// [`part_strength`] when every wild must become a distinct troop card of
/// `unseen` (the cards not visible on the table); `None` also when the
/// wilds cannot all become one.
#[inline]
pub(crate) fn part_strength_unseen(
    part: &Part,
    env: Environment,
    order: FormationOrder,
    unseen: u64,
) -> Option<Strength> {
    let n = env.slots() as u8;
    if part.len() != n as usize {
        return None;
    }
    if part.wild_count() == 0 {
        return Some(plain_strength(part, n, env.fog, order));
    }
    best_completion::<true>(part, env, unseen, order, 0).map(|(s, _)| s)
}

/// The strength of a complete formation of `cards` under the option
/// [`WildCards::UnseenOnly`](crate::WildCards): each wild card may only
/// become a troop card that is not `visible` on the table (in a slot at
/// any flag or in the discards) nor among `cards`, and the wilds become
/// distinct cards. `None` also when the wilds cannot all become one: such a
/// formation is no formation.
///
/// ```
/// use battleline_core::{formation_strength_unseen, Card, CardSet, Colour, Environment, FormationClass, FormationOrder, Tactic};
/// let r = |v| Card::troop(Colour::Red, v).unwrap();
/// let cards = [r(9), Card::tactic(Tactic::Alexander), r(10)];
/// let env = Environment::default();
/// let free = formation_strength_unseen(&cards, env, FormationOrder::Text, CardSet::EMPTY).unwrap();
/// assert_eq!(free.sum(), 27); // Red 8-9-10
/// // With Red 8 on the table the Leader is an 8 of another colour.
/// let seen: CardSet = [r(8)].into_iter().collect();
/// let s = formation_strength_unseen(&cards, env, FormationOrder::Text, seen).unwrap();
/// assert_eq!((s.class(), s.sum()), (Some(FormationClass::SkirmishLine), 27));
/// ```
pub fn formation_strength_unseen(
    cards: &[Card],
    env: Environment,
    order: FormationOrder,
    visible: CardSet,
) -> Option<Strength> {
    let part = Part::of(cards)?;
    let pool = CardSet::ALL_TROOPS.troop_bits() & !visible.troop_bits() & !part.troops;
    part_strength_unseen(&part, env, order, pool)
}

/// Strength of a formation of troops only: pure bit tests on the value mask.
#[inline]
fn plain_strength(part: &Part, n: u8, fog: bool, order: FormationOrder) -> Strength {
    if fog {
        return Strength::sum_only(part.tsum);
    }
    let flush = part.colours.count_ones() == 1;
    let distinct = part.vmask.count_ones();
    let run = distinct == n as u32 && (part.vmask >> part.vmask.trailing_zeros()) == (1 << n) - 1;
    // A formation is never two of Phalanx, run, one colour except a Wedge,
    // so the class does not depend on the order; only its rank does.
    let class = if run && flush {
        FormationClass::Wedge
    } else if distinct == 1 {
        FormationClass::Phalanx
    } else if run {
        FormationClass::SkirmishLine
    } else if flush {
        FormationClass::Battalion
    } else {
        FormationClass::Host
    };
    Strength::of(class, part.tsum, order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Colour;

    fn t(c: Colour, v: u8) -> Card {
        Card::troop(c, v).unwrap()
    }
    const PLAIN: Environment = Environment {
        fog: false,
        mud: false,
    };

    #[test]
    fn rule_wedge_beats_phalanx() {
        let wedge = formation_strength(
            &[t(Colour::Red, 4), t(Colour::Red, 5), t(Colour::Red, 3)],
            PLAIN,
            FormationOrder::Text,
        )
        .unwrap();
        let phalanx = formation_strength(
            &[t(Colour::Yellow, 8), t(Colour::Red, 8), t(Colour::Green, 8)],
            PLAIN,
            FormationOrder::Text,
        )
        .unwrap();
        assert_eq!(wedge.class(), Some(FormationClass::Wedge));
        assert_eq!(phalanx.class(), Some(FormationClass::Phalanx));
        assert!(wedge > phalanx);
    }

    #[test]
    fn rule_text_order_ranks_skirmish_line_above_battalion() {
        let line = [t(Colour::Yellow, 4), t(Colour::Red, 6), t(Colour::Green, 5)];
        let battalion = [t(Colour::Blue, 2), t(Colour::Blue, 7), t(Colour::Blue, 4)];
        let s = |c: &[Card], o| formation_strength(c, PLAIN, o).unwrap();
        assert!(s(&line, FormationOrder::Text) > s(&battalion, FormationOrder::Text));
        assert!(s(&line, FormationOrder::Published) < s(&battalion, FormationOrder::Published));
    }

    #[test]
    fn rule_runs_do_not_wrap() {
        let s = formation_strength(
            &[t(Colour::Red, 9), t(Colour::Blue, 10), t(Colour::Green, 1)],
            PLAIN,
            FormationOrder::Text,
        )
        .unwrap();
        assert_eq!(s.class(), Some(FormationClass::Host));
    }

    #[test]
    fn rule_sum_breaks_ties_between_equal_classes() {
        let a = [t(Colour::Red, 2), t(Colour::Blue, 9), t(Colour::Green, 5)];
        let b = [t(Colour::Red, 3), t(Colour::Blue, 9), t(Colour::Green, 5)];
        let s = |c: &[Card]| formation_strength(c, PLAIN, FormationOrder::Text).unwrap();
        assert!(s(&b) > s(&a));
    }

    #[test]
    fn rule_fog_compares_sums_only() {
        let fog = Environment {
            fog: true,
            mud: false,
        };
        let wedge = [t(Colour::Red, 1), t(Colour::Red, 2), t(Colour::Red, 3)];
        let host = [t(Colour::Red, 9), t(Colour::Blue, 2), t(Colour::Green, 5)];
        let s = |c: &[Card]| formation_strength(c, fog, FormationOrder::Text).unwrap();
        assert!(s(&host) > s(&wedge));
        assert_eq!(s(&wedge).class(), None);
    }

    #[test]
    fn rule_mud_makes_four_card_formations() {
        let mud = Environment {
            fog: false,
            mud: true,
        };
        let three = [t(Colour::Red, 1), t(Colour::Red, 2), t(Colour::Red, 3)];
        assert!(formation_strength(&three, mud, FormationOrder::Text).is_none());
        let four = [
            t(Colour::Red, 1),
            t(Colour::Red, 2),
            t(Colour::Red, 3),
            t(Colour::Red, 4),
        ];
        let s = formation_strength(&four, mud, FormationOrder::Text).unwrap();
        assert_eq!((s.class(), s.sum()), (Some(FormationClass::Wedge), 10));
    }

    #[test]
    fn rule_fog_and_mud_together_sum_four_cards() {
        let both = Environment {
            fog: true,
            mud: true,
        };
        let four = [
            t(Colour::Red, 1),
            t(Colour::Red, 2),
            t(Colour::Red, 3),
            t(Colour::Red, 4),
        ];
        let s = formation_strength(&four, both, FormationOrder::Text).unwrap();
        assert_eq!((s.class(), s.sum()), (None, 10));
    }

    #[test]
    fn rule_leader_takes_any_colour_and_value() {
        let s = formation_strength(
            &[
                t(Colour::Blue, 8),
                Card::tactic(Tactic::Alexander),
                t(Colour::Blue, 9),
            ],
            PLAIN,
            FormationOrder::Text,
        )
        .unwrap();
        assert_eq!((s.class(), s.sum()), (Some(FormationClass::Wedge), 27));
    }

    #[test]
    fn rule_wild_may_copy_a_card_already_in_the_formation() {
        let s = formation_strength(
            &[
                t(Colour::Blue, 8),
                Card::tactic(Tactic::CompanionCavalry),
                t(Colour::Red, 8),
            ],
            PLAIN,
            FormationOrder::Text,
        )
        .unwrap();
        assert_eq!((s.class(), s.sum()), (Some(FormationClass::Phalanx), 24));
    }

    #[test]
    fn rule_companion_cavalry_is_an_eight() {
        let s = formation_strength(
            &[
                t(Colour::Blue, 6),
                Card::tactic(Tactic::CompanionCavalry),
                t(Colour::Blue, 7),
            ],
            PLAIN,
            FormationOrder::Text,
        )
        .unwrap();
        assert_eq!((s.class(), s.sum()), (Some(FormationClass::Wedge), 21));
        let s = formation_strength(
            &[
                t(Colour::Blue, 1),
                Card::tactic(Tactic::CompanionCavalry),
                t(Colour::Blue, 2),
            ],
            PLAIN,
            FormationOrder::Text,
        )
        .unwrap();
        assert_eq!((s.class(), s.sum()), (Some(FormationClass::Battalion), 11));
    }

    #[test]
    fn rule_shield_bearers_take_one_two_or_three() {
        let s = formation_strength(
            &[
                t(Colour::Green, 4),
                Card::tactic(Tactic::ShieldBearers),
                t(Colour::Green, 5),
            ],
            PLAIN,
            FormationOrder::Text,
        )
        .unwrap();
        assert_eq!((s.class(), s.sum()), (Some(FormationClass::Wedge), 12));
        let s = formation_strength(
            &[
                t(Colour::Green, 9),
                Card::tactic(Tactic::ShieldBearers),
                t(Colour::Red, 9),
            ],
            PLAIN,
            FormationOrder::Text,
        )
        .unwrap();
        assert_eq!((s.class(), s.sum()), (Some(FormationClass::Host), 21));
    }

    #[test]
    fn invalid_formations_are_refused() {
        let r = t(Colour::Red, 1);
        assert!(
            formation_strength(&[r, r, t(Colour::Red, 2)], PLAIN, FormationOrder::Text).is_none()
        );
        assert!(formation_strength(
            &[r, t(Colour::Red, 2), Card::tactic(Tactic::Fog)],
            PLAIN,
            FormationOrder::Text
        )
        .is_none());
        assert!(formation_strength(&[], PLAIN, FormationOrder::Text).is_none());
    }
}
