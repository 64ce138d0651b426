//! Drawing chance outcomes from the generator's 32-bit words: one word per
//! die, per pair of dice or per card, almost always.

use rand::RngCore;

pub(crate) use game_traits::chance::below;

/// One die, 1..=6.
#[inline]
pub(crate) fn die<R: RngCore + ?Sized>(rng: &mut R) -> u8 {
    below(rng, 6) as u8 + 1
}

/// The sum of two dice, 2..=12, from one draw over the 36 pairs.
#[inline]
pub(crate) fn two_dice_sum<R: RngCore + ?Sized>(rng: &mut R) -> u8 {
    PAIR_SUM[below(rng, 36) as usize % 36]
}

/// The higher of two dice, 1..=6, from one draw over the 36 pairs.
#[inline]
pub(crate) fn higher_of_two_dice<R: RngCore + ?Sized>(rng: &mut R) -> u8 {
    PAIR_MAX[below(rng, 36) as usize % 36]
}

/// For pair `6a + b` of dice `a + 1` and `b + 1`: their sum.
static PAIR_SUM: [u8; 36] = pair_table(false);
/// For pair `6a + b` of dice `a + 1` and `b + 1`: the higher.
static PAIR_MAX: [u8; 36] = pair_table(true);

const fn pair_table(higher: bool) -> [u8; 36] {
    let mut t = [0; 36];
    let mut i = 0;
    while i < 36 {
        let (a, b) = (i as u8 / 6 + 1, i as u8 % 6 + 1);
        t[i] = match (higher, a > b) {
            (false, _) => a + b,
            (true, true) => a,
            (true, false) => b,
        };
        i += 1;
    }
    t
}

/// Probability weight (out of 36) of the higher of two dice being `k`.
pub(crate) fn guard_die_weight(k: u8) -> u32 {
    2 * k as u32 - 1
}

/// Probability weight (out of 36) of 2d6 summing to `s`.
pub(crate) fn two_dice_weight(s: u8) -> u32 {
    6 - (s as i32 - 7).unsigned_abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_tables_match_the_listed_weights() {
        for s in 2..=12 {
            let n = PAIR_SUM.iter().filter(|&&v| v == s).count() as u32;
            assert_eq!(n, two_dice_weight(s), "sum {s}");
        }
        for k in 1..=6 {
            let n = PAIR_MAX.iter().filter(|&&v| v == k).count() as u32;
            assert_eq!(n, guard_die_weight(k), "higher die {k}");
        }
    }
}
