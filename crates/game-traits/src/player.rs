//! Seats, turns and results.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A player's seat, counted from 0 in turn order of the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(u8);

impl PlayerId {
    /// The first seat.
    pub const P0: PlayerId = PlayerId(0);
    /// The second seat.
    pub const P1: PlayerId = PlayerId(1);

    /// The seat with index `index`.
    pub const fn new(index: u8) -> Self {
        PlayerId(index)
    }

    /// The seat's index, for indexing per-player arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The other seat of a two-player game (seat 0 for any seat but 0).
    pub const fn opponent(self) -> PlayerId {
        PlayerId((self.0 == 0) as u8)
    }

    /// The seat after this one in a game of `players` seats, wrapping round.
    pub const fn next(self, players: usize) -> PlayerId {
        PlayerId(((self.0 as usize + 1) % if players == 0 { 1 } else { players }) as u8)
    }

    /// All seats of a game with `count` players, in order.
    pub fn all(count: usize) -> impl Iterator<Item = PlayerId> {
        (0..count.min(u8::MAX as usize)).map(|i| PlayerId(i as u8))
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0)
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

    /// The win/loss return of `player`: +1 for the winner, -1 for everybody
    /// else, 0 in a draw.
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
