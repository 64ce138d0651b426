//! Helpers for chance events.

use rand::{Rng, RngCore};

/// Picks one outcome of `outcomes` with its listed probability; `None` when
/// the list is empty. Probabilities need not be normalised.
pub fn sample_weighted<A: Copy, R: Rng + ?Sized>(outcomes: &[(A, f64)], rng: &mut R) -> Option<A> {
    let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
    if outcomes.is_empty() || total.is_nan() || total <= 0.0 {
        return outcomes.first().map(|(a, _)| *a);
    }
    let mut x = rng.random::<f64>() * total;
    for &(a, p) in outcomes {
        if x < p {
            return Some(a);
        }
        x -= p;
    }
    outcomes.last().map(|(a, _)| *a)
}

/// A uniformly random index below `n` (`n > 0`), for games whose chance
/// events are uniform (a die, the next card of a shuffled pile).
pub fn uniform_index<R: Rng + ?Sized>(n: usize, rng: &mut R) -> usize {
    rng.random_range(0..n.max(1))
}

/// A uniform integer below `n` (taken as 1 when 0), by Lemire's
/// multiply-and-reject on 32-bit words: the high half of `word * n`, where
/// the few words whose low half falls below `2^32 mod n` are drawn again.
/// Exactly uniform, and the remainder (a division) is computed only in the
/// rare case that may need a redraw; `rand`'s general range draw takes about
/// twice the instructions, which the games' samplers feel.
#[inline]
pub fn below<R: RngCore + ?Sized>(rng: &mut R, n: u32) -> u32 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

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

    #[test]
    fn below_is_uniform() {
        let mut rng = crate::GameRng::seed_from_u64(3);
        for n in [1u32, 2, 3, 6, 7, 36, 1000] {
            let mut counts = vec![0u32; n as usize];
            let draws = 2000 * n;
            for _ in 0..draws {
                counts[below(&mut rng, n) as usize] += 1;
            }
            // Chi-square against uniform, with a generous bound.
            let e = f64::from(draws) / f64::from(n);
            let chi2: f64 = counts.iter().map(|&c| (f64::from(c) - e).powi(2) / e).sum();
            let dof = f64::from(n - 1);
            assert!(
                chi2 <= dof + 6.0 * (2.0 * dof).sqrt() + 10.0,
                "n {n}: chi-square {chi2}"
            );
        }
        assert_eq!(below(&mut rng, 0), 0);
    }
}
