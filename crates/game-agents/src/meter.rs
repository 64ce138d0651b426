//! Counting a search's iterations against its [`Budget`].

use std::time::Instant;

use game_traits::Budget;

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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn iteration_budget_counts_exactly() {
        let mut meter = Meter::start(Budget::Iterations(37));
        let mut runs = 0;
        while meter.next() {
            runs += 1;
        }
        assert_eq!(runs, 37);
    }

    #[test]
    fn time_budget_stops_after_its_time() {
        let limit = Duration::from_millis(20);
        let start = Instant::now();
        let mut meter = Meter::start(Budget::Time(limit));
        let mut runs = 0u64;
        while meter.next() {
            runs += 1;
        }
        let took = start.elapsed();
        assert!(took >= limit && runs > 1, "{took:?} {runs}");
        // A generous bound: a loaded machine may deschedule the thread,
        // but the meter itself must not run on.
        assert!(took < Duration::from_secs(5), "{took:?}");
    }
}
