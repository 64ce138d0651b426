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
/// Cells of the padded board array: 12x12 used, the rest wall, so that any
/// `u8` index is in bounds and needs no check.
pub(crate) const PADDED: usize = 256;

/// A square of the board, named by its index `row * 10 + column` (row 0 at
/// the top, the second player's back row; row 9 the first player's back
/// row). Inside, it holds its cell on the padded board, so move generation
/// never converts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Square(u8);

impl Square {
    /// The square at `row`, `col` (both 0..10).
    pub const fn at(row: u8, col: u8) -> Option<Square> {
        if row < 10 && col < 10 {
            Some(Square((row + 1) * PW as u8 + col + 1))
        } else {
            None
        }
    }

    /// The square with index `index` (0..100).
    pub const fn new(index: u8) -> Option<Square> {
        if index < 100 {
            Some(Square(PAD[index as usize]))
        } else {
            None
        }
    }

    /// Index 0..100.
    pub const fn index(self) -> usize {
        UNPAD[self.0 as usize] as usize
    }

    /// Row 0..10 from the top (the second player's side).
    pub const fn row(self) -> u8 {
        self.0 / PW as u8 - 1
    }

    /// Column 0..10 from the first player's left.
    pub const fn col(self) -> u8 {
        self.0 % PW as u8 - 1
    }

    /// Whether the square is water (one of the two 2x2 lakes).
    pub const fn is_lake(self) -> bool {
        let (r, c) = (self.row(), self.col());
        (r == 4 || r == 5) && (c == 2 || c == 3 || c == 6 || c == 7)
    }

    /// All 100 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        PAD.into_iter().map(Square)
    }

    /// The padded cell.
    #[inline(always)]
    pub(crate) const fn pad(self) -> usize {
        self.0 as usize
    }

    /// The square of padded cell `p` (a playing square).
    #[inline(always)]
    pub(crate) const fn from_pad(p: usize) -> Square {
        Square(p as u8)
    }

    /// The square of bit `i` of a square mask ([`Square::bit`]).
    #[inline(always)]
    pub(crate) const fn from_bit(i: u32) -> Square {
        Square(i as u8 + FIRST_PAD)
    }

    /// This square's bit in a `u128` mask of squares.
    #[inline(always)]
    pub(crate) const fn bit(self) -> u128 {
        1u128 << (self.0 - FIRST_PAD)
    }
}

/// Padded cell of square a10, the lowest; masks count bits from it.
const FIRST_PAD: u8 = PW as u8 + 1;

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({self})")
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
        s.index() as u8
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
        let rank: u8 = chars
            .as_str()
            .parse()
            .map_err(|_| format!("bad square {s:?}"))?;
        if !('a'..='j').contains(&file) || !(1..=10).contains(&rank) {
            return Err(format!("bad square {s:?}"));
        }
        Square::at(10 - rank, file as u8 - b'a').ok_or_else(|| format!("bad square {s:?}"))
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
