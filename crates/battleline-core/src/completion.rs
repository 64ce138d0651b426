//! The completion solver: the strongest way a partial formation can still
//! be completed with the troop cards still available, class by class.
//!
//! It reasons about which values and colours the available cards and the
//! wilds can still form (per colour field, per value), never by enumerating
//! completions. [`crate::formation`] uses it to place the wilds of a
//! complete formation, [`crate::proof`] to find the best completion of an
//! opponent's side against a claim.

mod runs;

use crate::formation::{run_sum, Environment, FormationClass, FormationOrder, Part, Strength};

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
pub(crate) const VALUE_BITS: [u64; 10] = {
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

/// The value mask of one colour in troop bits.
pub(crate) const FIELD: u64 = 0x3FF;

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
    if part.cavalry() {
        if free & (1 << 7) == 0 {
            return None;
        }
        free &= !(1 << 7);
        wild |= 1 << 7;
    }
    let leaders = part.leaders() as u32;
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
    if part.shield() {
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

/// Best run start (0-based) for a run of `n` values: highest first; with
/// the wild slots ([`place_run`]).
#[inline]
fn best_run<const UNSEEN: bool>(part: &Part, n: u8, avail_values: u16) -> Option<(u8, u16)> {
    if part.vdup {
        return None;
    }
    // Without wilds a run is a window of values: two table lookups find
    // the highest. (`best_run_by_search` is the reference it is tested
    // against.)
    if part.wild_count() == 0 && matches!(n, 3 | 4) {
        return runs::highest_start(n, part.vmask, avail_values).map(|lo| (lo, 0));
    }
    best_run_by_search::<UNSEEN>(part, n, avail_values)
}

/// [`best_run`] by trying every start, highest first.
#[inline]
fn best_run_by_search<const UNSEEN: bool>(
    part: &Part,
    n: u8,
    avail_values: u16,
) -> Option<(u8, u16)> {
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
    if part.cavalry() {
        let b = one_of_value(pool, 7)?;
        pool &= !b;
        taken.0[0] = b.trailing_zeros() as u8;
        base += 8;
    }
    if !part.shield() {
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
fn best_in_class(part: &Part, n: u8, avail: u64, class: FormationClass) -> Option<(u16, Pattern)> {
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
                    && (!part.cavalry() || v == 7)
                    && (!part.shield() || v <= 2)
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
        FormationClass::Host => fixed_wilds_then_top(part, avail, part.leaders() + m, top_values)
            .map(|(s, taken)| (part.tsum + s, Pattern::AnyExcept(taken))),
        FormationClass::Battalion => {
            let mut best: Option<(u16, Pattern)> = None;
            let mut cols = flush_colours(part);
            while cols != 0 {
                let c = cols.trailing_zeros();
                cols &= cols - 1;
                let field = avail & FIELD << (c * 10);
                let found = fixed_wilds_then_top(part, field, part.leaders() + m, |pool, k| {
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
                    && (!part.cavalry() || v == 7)
                    && (!part.shield() || v <= 2)
                    && (avail & VALUE_BITS[v as usize]).count_ones() >= need;
                ok.then(|| (n as u16 * (v as u16 + 1), Pattern::Phalanx(v)))
            })
        }
        FormationClass::SkirmishLine => best_run::<true>(part, n, any_colour_values(avail))
            .map(|(lo, w)| (run_sum(n, lo), Pattern::Run(lo, w))),
        FormationClass::Wedge => best_wedge::<true>(part, n, avail),
    }
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
    best_completion_inlined::<UNSEEN>(part, env, avail, order, floor)
}

/// [`best_completion`], always inlined: for a caller compiled with more
/// target features (`popcnt`), which a call would leave behind.
#[inline(always)]
pub(crate) fn best_completion_inlined<const UNSEEN: bool>(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::{Card, Tactic};
    use proptest::prelude::*;

    /// A side of up to four distinct slot cards: troops (`troops`, card
    /// indices below 60) and the wilds of `wilds` (bit 0 Alexander, 1
    /// Companion Cavalry, 2 Shield Bearers).
    fn part(troops: &[u8], wilds: u8) -> Option<Part> {
        let mut cards: Vec<Card> = troops
            .iter()
            .filter_map(|&i| Card::from_index(usize::from(i)))
            .collect();
        let all = [
            Tactic::Alexander,
            Tactic::CompanionCavalry,
            Tactic::ShieldBearers,
        ];
        for (k, t) in all.into_iter().enumerate() {
            if wilds >> k & 1 == 1 {
                cards.push(Card::tactic(t));
            }
        }
        cards.truncate(4);
        Part::of(&cards)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        #[test]
        fn best_run_by_table_matches_the_search_over_starts(
            troops in proptest::collection::vec(0u8..60, 0..4),
            wilds in prop_oneof![Just(0u8), 0u8..8],
            avail in 0u16..1024,
            n in 3u8..5,
        ) {
            // A side is asked about runs of its own size or more only
            // (`best_in_class` checks it before).
            let Some(part) = part(&troops, wilds).filter(|p| p.len() <= usize::from(n)) else {
                return Ok(());
            };
            prop_assert_eq!(
                best_run::<false>(&part, n, avail),
                best_run_by_search::<false>(&part, n, avail)
            );
            prop_assert_eq!(
                best_run::<true>(&part, n, avail),
                best_run_by_search::<true>(&part, n, avail)
            );
        }
    }
}
