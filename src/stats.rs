//! Rates with confidence intervals.

use std::fmt;

/// A proportion `k / n` with its 95% Wilson score interval, which stays
/// inside [0, 1] and behaves at 0 and n (unlike the normal approximation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Successes.
    pub k: u64,
    /// Trials.
    pub n: u64,
}

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

impl Rate {
    /// `k` successes out of `n` trials.
    pub fn new(k: u64, n: u64) -> Self {
        Rate { k, n }
    }

    /// The observed proportion (0 when there were no trials).
    pub fn value(self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.k as f64 / self.n as f64
        }
    }

    /// The 95% Wilson score interval; (0, 1) with no trials.
    pub fn interval(self) -> (f64, f64) {
        if self.n == 0 {
            return (0.0, 1.0);
        }
        let n = self.n as f64;
        let p = self.value();
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        ((centre - half).max(0.0), (centre + half).min(1.0))
    }
}

impl fmt::Display for Rate {
    /// As `62.5% [55.1–69.4]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (lo, hi) = self.interval();
        write!(
            f,
            "{:5.1}% [{:4.1}-{:5.1}]",
            100.0 * self.value(),
            100.0 * lo,
            100.0 * hi
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_published_values() {
        // Wilson (1927) / Newcombe (1998) table: 81 of 263 -> [0.2553, 0.3662].
        let (lo, hi) = Rate::new(81, 263).interval();
        assert!(
            (lo - 0.2553).abs() < 5e-4 && (hi - 0.3662).abs() < 5e-4,
            "{lo} {hi}"
        );
        // 0 of 10 -> [0, 0.2775].
        let (lo, hi) = Rate::new(0, 10).interval();
        assert!(lo == 0.0 && (hi - 0.2775).abs() < 5e-4, "{lo} {hi}");
        assert_eq!(Rate::new(0, 0).interval(), (0.0, 1.0));
    }
}
