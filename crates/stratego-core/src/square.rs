//! Squares of the 10x10 board and the padded mailbox geometry.
//!
//! The board is stored as a 12x12 "padded mailbox": the 10x10 playing area
//! with a one-square frame of wall cells. A step or a slide then only has to
//! look at the next cell (wall, lake, empty, friend or foe) and never checks
//! coordinates, which keeps move generation branch-light.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Width of the padded board.
pub(crate) const PW: i8 = 12;
/// Cells of the padded board.
pub(crate) const PADDED: usize = 144;

/// A square of the board, `row * 10 + column`, row 0 at the top (the second
/// player's back row), row 9 the first player's back row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Square(u8);

impl Square {
    /// The square at `row`, `col` (both 0..10).
    pub const fn at(row: u8, col: u8) -> Option<Square> {
        if row < 10 && col < 10 {
            Some(Square(row * 10 + col))
        } else {
            None
        }
    }

    /// The square with index `index` (0..100).
    pub const fn new(index: u8) -> Option<Square> {
        if index < 100 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Index 0..100.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Row 0..10 from the top (the second player's side).
    pub const fn row(self) -> u8 {
        self.0 / 10
    }

    /// Column 0..10 from the first player's left.
    pub const fn col(self) -> u8 {
        self.0 % 10
    }

    /// Whether the square is water (one of the two 2x2 lakes).
    pub const fn is_lake(self) -> bool {
        let (r, c) = (self.row(), self.col());
        (r == 4 || r == 5) && (c == 2 || c == 3 || c == 6 || c == 7)
    }

    /// All 100 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..100).map(Square)
    }

    pub(crate) const fn pad(self) -> usize {
        PAD[self.0 as usize] as usize
    }

    pub(crate) const fn from_pad(p: usize) -> Square {
        Square(UNPAD[p])
    }
}

impl TryFrom<u8> for Square {
    type Error = String;
    fn try_from(v: u8) -> Result<Self, Self::Error> {
        Square::new(v).ok_or_else(|| format!("no square {v}"))
    }
}

impl From<Square> for u8 {
    fn from(s: Square) -> u8 {
        s.0
    }
}

/// Algebraic name from the first player's seat: files `a`..`j` left to
/// right, ranks 1..10 from his back row (row 9 is rank 1).
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col()) as char, 10 - self.row())
    }
}

impl FromStr for Square {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        let file = chars.next().ok_or("empty square name")?;
        let rank: u8 = chars.as_str().parse().map_err(|_| format!("bad square {s:?}"))?;
        if !('a'..='j').contains(&file) || !(1..=10).contains(&rank) {
            return Err(format!("bad square {s:?}"));
        }
        Ok(Square((10 - rank) * 10 + (file as u8 - b'a')))
    }
}

const fn pad_table() -> [u8; 100] {
    let mut t = [0u8; 100];
    let mut i = 0;
    while i < 100 {
        t[i] = ((i / 10 + 1) * 12 + i % 10 + 1) as u8;
        i += 1;
    }
    t
}

const fn unpad_table() -> [u8; PADDED] {
    let mut t = [u8::MAX; PADDED];
    let mut i = 0;
    while i < 100 {
        t[PAD[i] as usize] = i as u8;
        i += 1;
    }
    t
}

const PAD: [u8; 100] = pad_table();
const UNPAD: [u8; PADDED] = unpad_table();

/// Orthogonal steps on the padded board: up, left, right, down (so that
/// targets come out in ascending square order).
pub(crate) const ORTHO: [i8; 4] = [-PW, -1, 1, PW];
