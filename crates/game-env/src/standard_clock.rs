//! The time control a game is played under unless its players ask for
//! another: declared by the game ([`Knowledge::clock`](crate::Knowledge::clock)),
//! read by the server, which keeps the clocks.

use serde::Serialize;

/// A game's standard clock, in milliseconds: Fischer (an increment added
/// after each move) or Bronstein (the time a move took given back up to a
/// delay, so that a player never gains time).
///
/// ```
/// use game_env::StandardClock;
///
/// // A game that declares nothing gets five minutes and five seconds a move.
/// assert_eq!(
///     StandardClock::default(),
///     StandardClock::Fischer { base_ms: 300_000, increment_ms: 5_000 }
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StandardClock {
    /// `base_ms` per seat, `increment_ms` added after each of its moves.
    Fischer {
        /// Time per seat at the start.
        base_ms: u64,
        /// Time added after each move.
        increment_ms: u64,
    },
    /// `base_ms` per seat; after each move, the time it took is given back
    /// up to `delay_ms`.
    Bronstein {
        /// Time per seat at the start.
        base_ms: u64,
        /// The most time given back after a move.
        delay_ms: u64,
    },
}

impl Default for StandardClock {
    /// A short Fischer clock: five minutes a seat, five seconds a move.
    fn default() -> Self {
        StandardClock::Fischer {
            base_ms: 300_000,
            increment_ms: 5_000,
        }
    }
}
