//! Repetition rules: the two-square rule and the more-squares (continuous
//! chase) rule. Both are public knowledge: they depend only on the moves
//! made, never on hidden ranks.

use serde::{Deserialize, Serialize};

use crate::square::{Square, PADDED, PW};

/// The current back-and-forth series of one player's moves (two-square
/// rule). A series starts with a move from `origin` over `len` squares in
/// direction `dir`; its segment is every square from `origin` to that
/// move's destination. The next move of the same player continues the
/// series when it moves the same piece (now on `at`), reverses the
/// direction of the previous move and ends inside the segment; any other
/// move starts a new series. `count` is the number of moves in the series.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct Series {
    /// Where the series piece stands now.
    pub at: Option<Square>,
    /// Start square of the series' first move.
    pub origin: Option<Square>,
    /// Direction of the first move as a padded-board offset.
    pub dir: i8,
    /// Length of the first move in squares.
    pub len: u8,
    /// Direction of the latest move.
    pub last_dir: i8,
    /// Moves in the series so far.
    pub count: u8,
}

/// Unit direction (padded-board offset) and distance of a straight move.
#[inline(always)]
pub(crate) fn direction(from: Square, to: Square) -> (i8, u8) {
    DIRECTIONS[to.pad() + DIRECTION_BIAS - from.pad()]
}

/// Differences of padded cells run from -143 to 143.
const DIRECTION_BIAS: usize = 143;

/// `(unit offset, distance)` by padded-cell difference: within a row up to 9
/// squares, along a column in steps of 12, one diagonal step (11 or 13).
/// Other differences are no straight move of this game: `(0, 0)`.
const DIRECTIONS: [(i8, u8); 2 * DIRECTION_BIAS + 1] = direction_table();

const fn direction_table() -> [(i8, u8); 2 * DIRECTION_BIAS + 1] {
    let mut t = [(0i8, 0u8); 2 * DIRECTION_BIAS + 1];
    let mut i = 0;
    while i < t.len() {
        let d = i as i32 - DIRECTION_BIAS as i32;
        let (a, sign) = (d.abs(), if d < 0 { -1 } else { 1 });
        t[i] = if d == 0 {
            (0, 0)
        } else if a <= 9 {
            (sign as i8, a as u8)
        } else if a % PW as i32 == 0 {
            ((sign * PW as i32) as i8, (a / PW as i32) as u8)
        } else if a == PW as i32 - 1 || a == PW as i32 + 1 {
            (d as i8, 1)
        } else {
            (0, 0)
        };
        i += 1;
    }
    t
}

impl Series {
    /// Whether `sq` lies on the segment of the series' first move.
    pub(crate) fn contains(&self, sq: Square) -> bool {
        let (Some(origin), true) = (self.origin, self.dir != 0) else {
            return false;
        };
        let diff = sq.pad() as i32 - origin.pad() as i32;
        let dir = self.dir as i32;
        diff % dir == 0 && (0..=self.len as i32).contains(&(diff / dir))
    }

    /// Whether moving `from`-`to` would be the series' move number
    /// `limit + 1`.
    pub(crate) fn forbids(&self, limit: u8, from: Square, to: Square) -> bool {
        self.count >= limit
            && self.at == Some(from)
            && direction(from, to).0 == -self.last_dir
            && self.contains(to)
    }

    /// Records a move `from`-`to` of the player whose series this is, the
    /// moving piece surviving on `to`.
    pub(crate) fn record(&mut self, from: Square, to: Square) {
        let (dir, len) = direction(from, to);
        if self.count > 0 && self.at == Some(from) && dir == -self.last_dir && self.contains(to) {
            self.count = self.count.saturating_add(1);
            self.last_dir = dir;
            self.at = Some(to);
        } else {
            *self = Series {
                at: Some(to),
                origin: Some(from),
                dir,
                len,
                last_dir: dir,
                count: 1,
            };
        }
    }
}

/// A continuous chase in progress (more-squares rule): `chaser` keeps
/// threatening the piece that evaded last, now on `evader`. `positions`
/// are the positions (which player occupies which square) seen since the
/// chase began, as hashes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Chase {
    /// The chasing player (0 or 1).
    pub chaser: u8,
    /// Square of the evading piece.
    pub evader: Square,
    /// Positions of the chase so far.
    pub positions: Vec<u64>,
}

/// Whether two squares are orthogonal neighbours.
pub(crate) fn ortho_adjacent(a: Square, b: Square) -> bool {
    let d = (a.pad() as i32 - b.pad() as i32).abs();
    d == 1 || d == PW as i32
}

const fn zobrist_table() -> [[u64; PADDED]; 2] {
    let mut t = [[0u64; PADDED]; 2];
    let mut state: u64 = 0x5172_a7e6_0c0f_fee1;
    let mut p = 0;
    while p < 2 {
        let mut i = 0;
        while i < PADDED {
            // splitmix64
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            t[p][i] = z ^ (z >> 31);
            i += 1;
        }
        p += 1;
    }
    t
}

/// Hash keys of "a piece of player p on square i" for position hashes.
pub(crate) const ZOBRIST: [[u64; PADDED]; 2] = zobrist_table();
