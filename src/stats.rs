//! Rates and scores with confidence intervals, and what they say in words.

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
        wilson(self.value(), self.n)
    }
}

/// The 95% Wilson score interval of the proportion `p` observed in `n`
/// trials; (0, 1) with no trials.
fn wilson(p: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The widest half-width, in points, of a 95% interval over `n` games (a
/// score of 50%): what a reader should allow for before comparing.
pub fn margin_points(n: u64) -> f64 {
    let (lo, hi) = wilson(0.5, n);
    100.0 * (hi - lo) / 2.0
}

/// One bot's results against another: wins, draws and losses, scored as
/// chess scores them (a draw is half a win).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

/// What a score's interval says about two bots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The whole interval lies above 50%.
    Stronger,
    /// The interval holds 50%.
    TooClose,
    /// The whole interval lies below 50%.
    Weaker,
}

impl Score {
    /// Games played.
    pub fn games(self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The share of the points, draws counting half (0 with no games).
    pub fn value(self) -> f64 {
        match self.games() {
            0 => 0.0,
            n => (self.wins as f64 + 0.5 * self.draws as f64) / n as f64,
        }
    }

    /// The 95% Wilson interval of the score. With draws it is a little
    /// wider than it need be (a draw varies less than a coin), so it errs
    /// on the side of "too close to call".
    pub fn interval(self) -> (f64, f64) {
        wilson(self.value(), self.games())
    }

    /// The other bot's view of the same games.
    pub fn flipped(self) -> Score {
        Score {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Whether the interval clears 50% on either side.
    pub fn verdict(self) -> Verdict {
        let (lo, hi) = self.interval();
        if self.games() > 0 && lo > 0.5 {
            Verdict::Stronger
        } else if self.games() > 0 && hi < 0.5 {
            Verdict::Weaker
        } else {
            Verdict::TooClose
        }
    }

    /// The games in words, the better bot first: `heuristic beat random
    /// 38-2 (95 %, 95 % interval 83-99 %): clearly stronger`, or `... led
    /// ... : too close to call` when the interval holds 50%.
    pub fn sentence(self, bot: &str, other: &str) -> String {
        let (first, second, score) = if self.value() >= 0.5 {
            (bot, other, self)
        } else {
            (other, bot, self.flipped())
        };
        let (lo, hi) = score.interval();
        let drawn = match score.draws {
            0 => String::new(),
            d => format!(", {d} drawn"),
        };
        let (verb, judgement) = match score.verdict() {
            Verdict::Stronger => ("beat", "clearly stronger"),
            _ if score.wins == score.losses => ("drew with", "too close to call"),
            _ => ("led", "too close to call"),
        };
        format!(
            "{first} {verb} {second} {}-{}{drawn} ({:.0} %, 95 % interval {:.0}-{:.0} %): {judgement}",
            score.wins,
            score.losses,
            100.0 * score.value(),
            100.0 * lo,
            100.0 * hi,
        )
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

    #[test]
    fn score_counts_a_draw_as_half_a_win() {
        let s = Score {
            wins: 5,
            draws: 2,
            losses: 3,
        };
        assert_eq!(s.games(), 10);
        assert!((s.value() - 0.6).abs() < 1e-12);
        assert!((s.flipped().value() - 0.4).abs() < 1e-12);
        // The interval is Wilson's at the score's proportion.
        assert_eq!(s.interval(), wilson(0.6, 10));
    }

    #[test]
    fn verdict_says_clearly_stronger_only_when_the_interval_clears_half() {
        let clear = Score {
            wins: 38,
            draws: 0,
            losses: 2,
        };
        assert_eq!(clear.verdict(), Verdict::Stronger);
        assert_eq!(clear.flipped().verdict(), Verdict::Weaker);
        assert_eq!(
            clear.sentence("heuristic", "random"),
            "heuristic beat random 38-2 (95 %, 95 % interval 83-99 %): clearly stronger"
        );
        // Named the other way round, the winner still comes first.
        assert_eq!(
            clear.flipped().sentence("random", "heuristic"),
            clear.sentence("heuristic", "random")
        );
        let close = Score {
            wins: 23,
            draws: 0,
            losses: 17,
        };
        assert_eq!(close.verdict(), Verdict::TooClose);
        assert!(close.sentence("a", "b").starts_with("a led b 23-17 ("));
        assert!(close.sentence("a", "b").ends_with("too close to call"));
        let level = Score {
            wins: 4,
            draws: 2,
            losses: 4,
        };
        assert!(level
            .sentence("a", "b")
            .starts_with("a drew with b 4-4, 2 drawn"));
        let none = Score {
            wins: 0,
            draws: 0,
            losses: 0,
        };
        assert_eq!(none.verdict(), Verdict::TooClose);
    }

    #[test]
    fn margin_shrinks_with_the_square_root_of_the_games() {
        assert!(
            (margin_points(40) - 15.0).abs() < 1.0,
            "{}",
            margin_points(40)
        );
        assert!(
            (margin_points(400) - 4.9).abs() < 0.2,
            "{}",
            margin_points(400)
        );
        assert_eq!(margin_points(0), 50.0);
    }
}
