//! The chance of winning the game from the chances of the flags: five
//! flags, or three adjacent ones.

use crate::flag::FLAGS;

/// Per set of flags the viewer wins (bit `i` for flag `i`, the others
/// going to the opponent), his result: 1 a win, 0 a loss, 0.5 when both
/// hold a breakthrough (who made his first decides, which the set cannot
/// tell).
static RESULT: [f32; 1 << FLAGS] = {
    let mut t = [0.0f32; 1 << FLAGS];
    let all = (1u32 << FLAGS) - 1;
    let mut m = 0u32;
    while m <= all {
        let run_mine = m & (m >> 1) & (m >> 2) != 0;
        let o = !m & all;
        let run_theirs = o & (o >> 1) & (o >> 2) != 0;
        t[m as usize] = match (run_mine, run_theirs) {
            (true, true) => 0.5,
            (true, false) => 1.0,
            (false, true) => 0.0,
            (false, false) => {
                if m.count_ones() >= 5 {
                    1.0
                } else {
                    0.0
                }
            }
        };
        m += 1;
    }
    t
};

/// The sets of flags [`RESULT`] gives the viewer something for (his
/// result not 0), in increasing order, each with that result: a little
/// under half of them.
static WINNING: [(u16, f32); winning_sets()] = {
    let mut t = [(0u16, 0.0f32); winning_sets()];
    let (mut m, mut k) = (0, 0);
    while m < RESULT.len() {
        if RESULT[m] != 0.0 {
            t[k] = (m as u16, RESULT[m]);
            k += 1;
        }
        m += 1;
    }
    t
};

const fn winning_sets() -> usize {
    let (mut m, mut k) = (0, 0);
    while m < RESULT.len() {
        if RESULT[m] != 0.0 {
            k += 1;
        }
        m += 1;
    }
    k
}

/// The chance of winning the game when flag `i` is won with chance
/// `p[i]`, the flags taken as independent ([`Victory::of`]).
#[cfg(test)]
fn victory(p: &[f64; FLAGS]) -> f64 {
    Victory::new().of(p)
}

/// The chance of winning the game from the flags' for many chances in a
/// row: the mass of every set of flags in one buffer, written afresh by
/// each question (a buffer zeroed for each cost as much as the rest of the
/// work).
pub(crate) struct Victory {
    mass: [f64; 1 << FLAGS],
}

impl Victory {
    pub(crate) fn new() -> Victory {
        Victory {
            mass: [0.0; 1 << FLAGS],
        }
    }

    /// The chance of winning the game when flag `i` is won with chance
    /// `p[i]`, the flags taken as independent.
    ///
    /// Asked once for every play each round, it was a seventh of the
    /// expert's instructions: the mass of each set of flags is built in
    /// two halves the compiler vectorises (each step writes the sets of
    /// the next flag from those written before, so no entry is read
    /// before it is written), and the sum runs over the winning sets only.
    /// A losing set adds `+0.0` to a sum that is never `-0.0`, so the
    /// result is to the bit that of the sum over all sets
    /// (`victory_over_all_sets` in the tests).
    pub(crate) fn of(&mut self, p: &[f64; FLAGS]) -> f64 {
        let mass = &mut self.mass;
        mass[0] = 1.0;
        let mut len = 1;
        for &q in p {
            let (lo, hi) = mass.split_at_mut(len);
            for (x, y) in lo.iter_mut().zip(&mut hi[..len]) {
                *y = *x * q;
                *x *= 1.0 - q;
            }
            len <<= 1;
        }
        WINNING.iter().fold(0.0, |sum, &(m, r)| {
            sum + mass[usize::from(m)] * f64::from(r)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn victory_is_certain_with_five_flags_and_impossible_without_any() {
        let mut p = [0.0; FLAGS];
        assert_eq!(victory(&p), 0.0);
        for i in [0, 2, 4, 6, 8] {
            p[i] = 1.0;
        }
        assert_eq!(victory(&p), 1.0);
    }

    #[test]
    fn victory_counts_a_breakthrough() {
        // Three adjacent flags win against five scattered ones.
        let mut p = [0.0; FLAGS];
        for i in [2, 3, 4, 7] {
            p[i] = 1.0;
        }
        assert_eq!(victory(&p), 1.0);
        // Both with a breakthrough: who made his first is unknown.
        p[7] = 0.0;
        assert_eq!(victory(&p), 0.5);
    }

    /// [`victory`] as first written: every set's mass, summed over all
    /// sets.
    fn victory_over_all_sets(p: &[f64; FLAGS]) -> f64 {
        let mut mass = [0.0f64; 1 << FLAGS];
        mass[0] = 1.0;
        let mut len = 1;
        for (i, &q) in p.iter().enumerate() {
            for m in 0..len {
                let x = mass[m];
                mass[m] = x * (1.0 - q);
                mass[m | 1 << i] = x * q;
            }
            len <<= 1;
        }
        mass.iter()
            .zip(RESULT.iter())
            .map(|(&x, &r)| x * f64::from(r))
            .sum()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]

        /// The same bits as the sum over all sets, for flag chances of
        /// every kind: certain, lost, even and in between.
        #[test]
        fn victory_is_to_the_bit_the_sum_over_all_sets(
            p in proptest::array::uniform9(proptest::prop_oneof![
                proptest::prelude::Just(0.0f64),
                proptest::prelude::Just(1.0f64),
                proptest::prelude::Just(0.5f64),
                0.0f64..=1.0,
            ])
        ) {
            let expected = victory_over_all_sets(&p).to_bits();
            proptest::prop_assert_eq!(victory(&p).to_bits(), expected);
            // A buffer that answered another question first.
            let mut reused = Victory::new();
            reused.of(&[0.3; FLAGS]);
            proptest::prop_assert_eq!(reused.of(&p).to_bits(), expected);
        }
    }

    #[test]
    fn victory_of_even_flags_is_one_half() {
        let v = victory(&[0.5; FLAGS]);
        assert!((v - 0.5).abs() < 1e-9, "{v}");
    }
}
