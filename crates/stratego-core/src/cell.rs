//! One cell of the padded board, packed in a byte so that the board is a
//! 256-byte array and move generation reads one byte per square.

use game_traits::PlayerId;

use crate::kind::Kind;

const PRESENT: u8 = 0x80;
const MOVED: u8 = 0x40;
const REVEALED: u8 = 0x20;
const OWNER: u8 = 0x10;
const KIND: u8 = 0x0F;

/// A cell: empty, wall (the frame and the lakes), or a piece with its
/// owner, kind and the public `moved` and `revealed` flags. The stored
/// form of a state writes these bytes as they are: `0x80` piece, `0x40`
/// moved, `0x20` revealed, `0x10` second player, the low four bits the
/// kind; `0` empty, `0x0F` wall.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub(crate) struct Cell(u8);

/// For a mover whose enemy is player `e`, `TARGET[e][cell]`: bit 0 set
/// when the cell can be entered by a move that may attack (empty or an
/// enemy piece), bit 1 when it is empty.
const TARGET: [[u8; 256]; 2] = target_table();

const fn target_table() -> [[u8; 256]; 2] {
    let mut t = [[0u8; 256]; 2];
    let mut e = 0;
    while e < 2 {
        let mut c = 0;
        while c < 256 {
            let cell = c as u8;
            if cell == 0 {
                t[e][c] = 0b11;
            } else if cell & (PRESENT | OWNER) == PRESENT | ((e as u8) << 4) {
                t[e][c] = 0b01;
            }
            c += 1;
        }
        e += 1;
    }
    t
}

impl Cell {
    /// No piece.
    pub(crate) const EMPTY: Cell = Cell(0);
    /// Off the board or water.
    pub(crate) const WALL: Cell = Cell(KIND);

    /// A piece of `owner` that has not moved and is not revealed.
    pub(crate) const fn piece(owner: PlayerId, kind: Kind) -> Cell {
        Cell(PRESENT | ((owner as u8) << 4) | kind.index() as u8)
    }

    /// The cell of a stored byte, if it is one a board can hold.
    pub(crate) const fn from_bits(bits: u8) -> Option<Cell> {
        if bits == 0 || bits == KIND || (bits & PRESENT != 0 && bits & KIND < Kind::COUNT as u8) {
            Some(Cell(bits))
        } else {
            None
        }
    }

    /// The stored byte.
    pub(crate) const fn bits(self) -> u8 {
        self.0
    }

    /// The same piece, marked as moved.
    pub(crate) const fn with_moved(self) -> Cell {
        Cell(self.0 | MOVED)
    }

    /// The same piece, marked as known to the opponent.
    pub(crate) const fn with_revealed(self) -> Cell {
        Cell(self.0 | REVEALED)
    }

    /// The same piece with both flags set as given.
    pub(crate) const fn with_flags(self, moved: bool, revealed: bool) -> Cell {
        let mut c = self.0 & !(MOVED | REVEALED);
        if moved {
            c |= MOVED;
        }
        if revealed {
            c |= REVEALED;
        }
        Cell(c)
    }

    /// The same piece as another kind.
    pub(crate) const fn with_kind(self, kind: Kind) -> Cell {
        Cell((self.0 & !KIND) | kind.index() as u8)
    }

    /// Whether a piece stands here.
    #[inline(always)]
    pub(crate) const fn is_piece(self) -> bool {
        self.0 & PRESENT != 0
    }

    /// Whether a piece of `player` stands here.
    #[inline(always)]
    pub(crate) const fn is_piece_of(self, player: PlayerId) -> bool {
        self.0 & (PRESENT | OWNER) == PRESENT | ((player as u8) << 4)
    }

    /// The owner of the piece (meaningful only on a piece).
    pub(crate) const fn owner(self) -> PlayerId {
        if self.0 & OWNER == 0 {
            PlayerId::P0
        } else {
            PlayerId::P1
        }
    }

    /// The kind index in the low bits, as move generation compares it.
    #[inline(always)]
    pub(crate) const fn kind_bits(self) -> u8 {
        self.0 & KIND
    }

    /// The kind of the piece (meaningful only on a piece).
    pub(crate) const fn kind(self) -> Kind {
        match Kind::new(self.0 & KIND) {
            Some(k) => k,
            None => Kind::FLAG,
        }
    }

    /// Whether the piece has moved.
    pub(crate) const fn moved(self) -> bool {
        self.0 & MOVED != 0
    }

    /// Whether the opponent knows the piece's kind.
    pub(crate) const fn revealed(self) -> bool {
        self.0 & REVEALED != 0
    }

    /// The move-target code of this cell for a mover whose enemy is
    /// `enemy`: bit 0 when a move that may attack can enter it, bit 1 when
    /// it is empty.
    #[inline(always)]
    pub(crate) const fn target(self, enemy: PlayerId) -> u8 {
        TARGET[enemy as usize][self.0 as usize]
    }
}
