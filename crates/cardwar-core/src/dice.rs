//! Drawing chance outcomes from the generator's 32-bit words: one word per
//! die, per pair of dice or per card, almost always.

use rand::RngCore;

/// A uniform integer below `n` (`n > 0`), by Lemire's multiply-and-reject:
/// the high half of `word * n`, where the few words whose low half falls
/// below `2^32 mod n` are drawn again. Exactly uniform; the remainder (a
/// division) is only computed in the rare case that may need a redraw.
#[inline]
pub(crate) fn below<R: RngCore + ?Sized>(rng: &mut R, n: u32) -> u32 {
    let n = n.max(1);
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        let rejected = n.wrapping_neg() % n;
        while (m as u32) < rejected {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

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

    /// Replays fixed words, then zeros.
    struct Words(Vec<u32>);

    impl RngCore for Words {
        fn next_u32(&mut self) -> u32 {
            if self.0.is_empty() {
                0
            } else {
                self.0.remove(0)
            }
        }
        fn next_u64(&mut self) -> u64 {
            u64::from(self.next_u32())
        }
        fn fill_bytes(&mut self, dest: &mut [u8]) {
            dest.fill(0);
        }
    }

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

    #[test]
    fn below_draws_again_on_a_rejected_word() {
        // Word 0 gives a low half of 0 < 2^32 mod 5 = 1: rejected; the next
        // word decides.
        let mut rng = Words(vec![0, u32::MAX]);
        assert_eq!(below(&mut rng, 5), 4);
        assert!(rng.0.is_empty());
        // For 6 (2^32 mod 6 = 4): a low half of 4 is kept (1431655766 * 6
        // = 2 * 2^32 + 4), one of 0 is not.
        assert_eq!(below(&mut Words(vec![1_431_655_766]), 6), 2);
        let mut rng = Words(vec![0, 1_431_655_766]);
        assert_eq!(below(&mut rng, 6), 2);
        assert!(rng.0.is_empty());
    }
}
