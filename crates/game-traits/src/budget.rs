//! How much thinking a search bot may do per decision: beside [`Agent`],
//! so that a game's own bots take a budget without depending on the
//! generic search bots.
//!
//! [`Agent`]: crate::Agent

use std::str::FromStr;
use std::time::Duration;

/// The thinking budget of one decision.
///
/// [`Budget::Iterations`] is reproducible: the same observation and seed give
/// the same choice on any machine, which is what tests and published tables
/// use. [`Budget::Time`] is not (a faster or less loaded machine runs more
/// iterations): it compares bots at equal time, and suits interactive play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// A fixed number of iterations (playouts).
    Iterations(u32),
    /// As many iterations as fit in this wall-clock time (at least one).
    Time(Duration),
}

/// `200` for iterations, `50ms` for time: the suffix of a bot's name.
impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::Iterations(n) => write!(f, "{n}"),
            Budget::Time(t) => write!(f, "{}ms", t.as_millis()),
        }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::Iterations(1000)
    }
}

/// Why a budget was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BudgetError(pub String);

impl std::fmt::Display for BudgetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "bad budget {:?}: expected iterations (`200`) or milliseconds (`50ms`), above zero",
            self.0
        )
    }
}

impl std::error::Error for BudgetError {}

/// Parses what [`Budget`]'s `Display` writes: `200` (iterations) or `50ms`
/// (milliseconds), either above zero: a search of nothing would be random
/// play under a search bot's name.
impl FromStr for Budget {
    type Err = BudgetError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || BudgetError(s.chars().take(40).collect());
        let text = s.trim().to_ascii_lowercase();
        let (digits, millis) = match text.strip_suffix("ms") {
            Some(digits) => (digits, true),
            None => (text.as_str(), false),
        };
        // `u32::from_str` takes a leading `+`; a budget is digits only.
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        let n: u32 = digits.parse().map_err(|_| err())?;
        match (n, millis) {
            (0, _) => Err(err()),
            (n, true) => Ok(Budget::Time(Duration::from_millis(u64::from(n)))),
            (n, false) => Ok(Budget::Iterations(n)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_parse_and_print_back() {
        for text in ["1", "200", "50ms", "4294967295", "4294967295ms"] {
            let budget: Budget = text.parse().unwrap();
            assert_eq!(budget.to_string(), text);
        }
        assert_eq!("300".parse(), Ok(Budget::Iterations(300)));
        assert_eq!(
            " 50MS ".parse(),
            Ok(Budget::Time(Duration::from_millis(50)))
        );
        for bad in [
            "",
            "0",
            "0ms",
            "ms",
            "-5",
            "+5",
            "5 ms",
            "5s",
            "1.5ms",
            "x",
            "4294967296",
        ] {
            assert!(bad.parse::<Budget>().is_err(), "{bad:?}");
        }
    }
}
