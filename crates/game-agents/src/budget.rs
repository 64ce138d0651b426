//! How much thinking a search bot may do per decision.

use std::time::{Duration, Instant};

/// The thinking budget of one decision.
///
/// [`Budget::Iterations`] is reproducible: the same observation and seed give
/// the same choice on any machine. [`Budget::Time`] is not (a faster machine
/// runs more iterations), so it is for interactive play only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// Counts iterations against a [`Budget`].
pub(crate) struct Meter {
    budget: Budget,
    start: Instant,
    done: u32,
}

impl Meter {
    pub(crate) fn start(budget: Budget) -> Self {
        Meter {
            budget,
            start: Instant::now(),
            done: 0,
        }
    }

    /// Whether another iteration may run; counts it if so.
    pub(crate) fn next(&mut self) -> bool {
        let more = match self.budget {
            Budget::Iterations(n) => self.done < n,
            // At least one iteration, so a tiny time budget still searches.
            Budget::Time(limit) => {
                self.done == 0 || (self.done < u32::MAX && self.start.elapsed() < limit)
            }
        };
        if more {
            self.done += 1;
        }
        more
    }
}
