//! Seats, turns and results.

use std::fmt;
use std::ops::{Index, IndexMut};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One of the two seats. Every game of this workspace has exactly two
/// players, so the seat is a two-valued type: nothing can name a third
/// seat, and per-player data is a [`PerPlayer`] indexed by it.
///
/// Serialised as the number 0 or 1; any other number is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PlayerId {
    /// The first seat (it usually moves first).
    P0 = 0,
    /// The second seat.
    P1 = 1,
}

impl PlayerId {
    /// Both seats, in turn order.
    pub const BOTH: [PlayerId; 2] = [PlayerId::P0, PlayerId::P1];

    /// The seat with index `index` (0 or 1), `None` for any other.
    pub const fn from_index(index: usize) -> Option<PlayerId> {
        match index {
            0 => Some(PlayerId::P0),
            1 => Some(PlayerId::P1),
            _ => None,
        }
    }

    /// The seat's index, 0 or 1, for indexing per-player arrays.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other seat.
    pub const fn other(self) -> PlayerId {
        match self {
            PlayerId::P0 => PlayerId::P1,
            PlayerId::P1 => PlayerId::P0,
        }
    }

    /// Both seats, in turn order.
    pub fn all() -> impl Iterator<Item = PlayerId> {
        Self::BOTH.into_iter()
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.index())
    }
}

impl Serialize for PlayerId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(*self as u8)
    }
}

impl schemars::JsonSchema for PlayerId {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PlayerId".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A seat: 0 (the first) or 1.",
            "type": "integer",
            "enum": [0, 1]
        })
    }
}

impl<'de> Deserialize<'de> for PlayerId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let index = u8::deserialize(deserializer)?;
        PlayerId::from_index(index as usize)
            .ok_or_else(|| serde::de::Error::custom(format!("seat {index} is not 0 or 1")))
    }
}

/// One value per seat, indexed by [`PlayerId`] (shakmaty's `ByColor`).
///
/// Serialised as a two-element array, seat 0 first.
///
/// ```
/// use game_traits::{PerPlayer, PlayerId};
/// let mut score = PerPlayer::new(0, 0);
/// score[PlayerId::P1] += 3;
/// assert_eq!(score[PlayerId::P1.other()], 0);
/// assert_eq!(score.into_array(), [0, 3]);
/// ```
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(transparent)]
pub struct PerPlayer<T>([T; 2]);

impl<T> PerPlayer<T> {
    /// The values of seat 0 and seat 1.
    pub const fn new(p0: T, p1: T) -> Self {
        PerPlayer([p0, p1])
    }

    /// Each seat's value from `f`.
    pub fn from_fn(mut f: impl FnMut(PlayerId) -> T) -> Self {
        PerPlayer([f(PlayerId::P0), f(PlayerId::P1)])
    }

    /// The values as an array, seat 0 first.
    pub fn into_array(self) -> [T; 2] {
        self.0
    }

    /// The values as an array, seat 0 first.
    pub const fn as_array(&self) -> &[T; 2] {
        &self.0
    }

    /// The values as a mutable array, seat 0 first.
    pub fn as_mut_array(&mut self) -> &mut [T; 2] {
        &mut self.0
    }

    /// Each value mapped by `f`.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> PerPlayer<U> {
        let [a, b] = self.0;
        PerPlayer([f(a), f(b)])
    }

    /// The seats with their values, seat 0 first.
    pub fn iter(&self) -> impl Iterator<Item = (PlayerId, &T)> {
        PlayerId::all().zip(self.0.iter())
    }

    /// The values, seat 0 first.
    pub fn values(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }

    /// The values, mutably, seat 0 first.
    pub fn values_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.0.iter_mut()
    }
}

impl<T> From<[T; 2]> for PerPlayer<T> {
    fn from(values: [T; 2]) -> Self {
        PerPlayer(values)
    }
}

impl<T> Index<PlayerId> for PerPlayer<T> {
    type Output = T;
    fn index(&self, player: PlayerId) -> &T {
        &self.0[player.index()]
    }
}

impl<T> IndexMut<PlayerId> for PerPlayer<T> {
    fn index_mut(&mut self, player: PlayerId) -> &mut T {
        &mut self.0[player.index()]
    }
}

/// Who acts now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Turn {
    /// A player decides.
    Player(PlayerId),
    /// A chance event (die roll, card draw) is due.
    Chance,
    /// The game is over.
    Terminal,
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Turn::Player(p) => p.fmt(f),
            Turn::Chance => f.write_str("chance"),
            Turn::Terminal => f.write_str("end"),
        }
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// One player won.
    Win(PlayerId),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    pub fn winner(self) -> Option<PlayerId> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        }
    }

    /// The win/loss return of `player`: +1 for the winner, -1 for the
    /// loser, 0 in a draw.
    pub fn win_loss_return(self, player: PlayerId) -> f64 {
        match self {
            Outcome::Win(w) if w == player => 1.0,
            Outcome::Win(_) => -1.0,
            Outcome::Draw => 0.0,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(p) => write!(f, "{p} wins"),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}
