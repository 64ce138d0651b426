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

/// A square of the board: algebraic names `a1`..`j10` from the first
/// player's seat ([`Display`](fmt::Display), [`FromStr`]), or an index
/// `row * 10 + column` (row 0 at the top, the second player's back row,
/// rank 10; row 9 the first player's back row, rank 1), which is also the
/// serialised form. Inside, it holds its cell on the padded board, so
/// move generation never converts.
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

    /// The file, 0 for `a` ..= 9 for `j` (the column from the first
    /// player's left).
    pub const fn file(self) -> u8 {
        self.col()
    }

    /// The rank, 1 (the first player's back row) ..= 10.
    pub const fn rank(self) -> u8 {
        10 - self.row()
    }

    /// The square on `file` (0..10, `a`..`j`) and `rank` (1..=10).
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Square> {
        if rank >= 1 && rank <= 10 {
            Square::at(10 - rank, file)
        } else {
            None
        }
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

    /// The square a10 (index 0): a fallback where a square is needed.
    pub(crate) const FIRST: Square = Square(FIRST_PAD);

    /// The square of padded cell `p`, if it is a playing square.
    pub(crate) const fn from_pad_checked(p: i32) -> Option<Square> {
        if p < 0 || p >= PADDED as i32 || UNPAD[p as usize] == u8::MAX {
            None
        } else {
            Some(Square(p as u8))
        }
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
        // A load instead of a variable 128-bit shift (two registers, a
        // test and selects): the hot loops ask for a couple per move.
        BITS[self.0 as usize]
    }
}

/// [`Square::bit`] by padded cell: `1 << (cell - FIRST_PAD)`, nothing for
/// the cells below.
const BITS: [u128; PADDED] = bits_table();

const fn bits_table() -> [u128; PADDED] {
    let mut t = [0u128; PADDED];
    let mut i = FIRST_PAD as usize;
    while i < FIRST_PAD as usize + 128 {
        t[i] = 1u128 << (i - FIRST_PAD as usize);
        i += 1;
    }
    t
}

/// Padded cell of square a10, the lowest; masks count bits from it.
const FIRST_PAD: u8 = PW as u8 + 1;

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({self})")
    }
}

impl TryFrom<u8> for Square {
    type Error = &'static str;
    fn try_from(v: u8) -> Result<Self, Self::Error> {
        Square::new(v).ok_or("no such square")
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

/// Reads an algebraic name such as `e4` (files `a`..`j`, ranks 1..10).
impl FromStr for Square {
    type Err = game_traits::ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = game_traits::ParseError::new("a square name (a1..j10)", s);
        let mut chars = s.chars();
        let file = chars.next().ok_or(bad.clone())?;
        let rest = chars.as_str();
        if rest.is_empty() || rest.len() > 2 || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad);
        }
        let rank: u8 = rest.parse().map_err(|_| bad.clone())?;
        if !('a'..='j').contains(&file) || !(1..=10).contains(&rank) {
            return Err(bad);
        }
        Square::at(10 - rank, file as u8 - b'a').ok_or(bad)
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
