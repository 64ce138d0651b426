//! The two-square rule: one piece shuttling back and forth over the same
//! squares. Public knowledge: it depends only on the moves made.

use serde::{Deserialize, Serialize};

use crate::square::{Square, PW};

/// The current back-and-forth run of one player's moves, for the
/// two-square rule (called a *shuttle* here; Battle Line's `Series` is
/// match scoring, a different thing).
///
/// A shuttle starts with a move from [`Shuttle::origin`] to
/// [`Shuttle::end`]; its *segment* is every square between them,
/// inclusive. The player's next move continues the shuttle when it moves
/// the same piece (now on [`Shuttle::piece`]), reverses the direction of
/// the previous move and ends inside the segment; any other move starts a
/// new shuttle. [`Shuttle::moves`] counts the moves of the shuttle.
///
/// ```
/// use stratego_core::{Shuttle, Square};
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// // a3-a7, then a7-a5 back: the piece is on a5, two moves, last one back.
/// let s = Shuttle::new(sq("a3"), sq("a7"), sq("a5"), 2, true).unwrap();
/// assert_eq!((s.origin(), s.end(), s.piece(), s.moves()), (sq("a3"), sq("a7"), sq("a5"), 2));
/// assert!(s.last_move_back());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(try_from = "RawShuttle")]
pub struct Shuttle {
    // The stored form keeps the field names and values of earlier
    // versions (`dir` as an offset of the padded board); the public API
    // speaks squares only. `count == 0` is "no shuttle".
    /// Where the shuttling piece stands now.
    at: Option<Square>,
    /// Start square of the first move.
    origin: Option<Square>,
    /// Direction of the first move (padded-board offset).
    dir: i8,
    /// Length of the first move in squares.
    len: u8,
    /// Direction of the latest move.
    last_dir: i8,
    /// Moves so far.
    count: u8,
}

/// The stored fields, checked on the way in.
#[derive(Deserialize)]
struct RawShuttle {
    at: Option<Square>,
    origin: Option<Square>,
    dir: i8,
    len: u8,
    last_dir: i8,
    count: u8,
}

impl TryFrom<RawShuttle> for Shuttle {
    type Error = &'static str;
    fn try_from(r: RawShuttle) -> Result<Self, Self::Error> {
        let s = Shuttle {
            at: r.at,
            origin: r.origin,
            dir: r.dir,
            len: r.len,
            last_dir: r.last_dir,
            count: r.count,
        };
        if s.is_consistent() {
            Ok(s)
        } else {
            Err("bad two-square shuttle")
        }
    }
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

/// Whether `from`-`to` is a straight line of this board: along a row or a
/// column, or one diagonal step.
fn is_straight(from: Square, to: Square) -> bool {
    let (dir, len) = direction(from, to);
    let along = from.row() == to.row() || from.col() == to.col();
    len > 0 && (along || (len == 1 && dir.unsigned_abs() != 1))
}

impl Shuttle {
    /// A shuttle whose first move went `origin`-`end`, now with its piece
    /// on `piece` after `moves` moves, the last one back towards `origin`
    /// when `last_move_back`. Refused when `origin`-`end` is no straight
    /// move (a row, a column or one diagonal step), `moves` is 0, `piece`
    /// is off the segment, or the first move is not yet followed
    /// (`moves == 1`) but `piece` is not on `end` or the last move goes
    /// back. Whether the piece is there is checked with the position.
    pub fn new(
        origin: Square,
        end: Square,
        piece: Square,
        moves: u8,
        last_move_back: bool,
    ) -> Option<Shuttle> {
        if !is_straight(origin, end) {
            return None;
        }
        let (dir, len) = direction(origin, end);
        let s = Shuttle {
            at: Some(piece),
            origin: Some(origin),
            dir,
            len,
            last_dir: if last_move_back { -dir } else { dir },
            count: moves,
        };
        s.is_consistent().then_some(s)
    }

    /// Whether the stored fields describe a shuttle [`Shuttle::new`]
    /// accepts, or "no shuttle" (all zero).
    pub(crate) fn is_consistent(&self) -> bool {
        if self.count == 0 {
            return *self == Shuttle::default();
        }
        let (Some(origin), Some(at)) = (self.origin, self.at) else {
            return false;
        };
        let end_pad = origin.pad() as i32 + self.dir as i32 * self.len as i32;
        let end = Square::from_pad_checked(end_pad);
        end.is_some_and(|end| {
            is_straight(origin, end) && direction(origin, end) == (self.dir, self.len)
        }) && self.last_dir.unsigned_abs() == self.dir.unsigned_abs()
            && self.contains(at)
            && (self.count > 1 || (Some(at) == end && self.last_dir == self.dir))
    }

    /// The shuttle, if one is running (the stored form keeps "none" as a
    /// zero value).
    pub(crate) fn running(self) -> Option<Shuttle> {
        (self.count > 0).then_some(self)
    }

    /// Start square of the first move.
    pub fn origin(&self) -> Square {
        self.origin.unwrap_or(Square::FIRST)
    }

    /// Destination square of the first move: the far end of the segment.
    pub fn end(&self) -> Square {
        let pad = self.origin().pad() as i32 + self.dir as i32 * self.len as i32;
        Square::from_pad_checked(pad).unwrap_or(self.origin())
    }

    /// Where the shuttling piece stands now.
    pub fn piece(&self) -> Square {
        self.at.unwrap_or(self.origin())
    }

    /// Moves of the shuttle so far (at least 1).
    pub fn moves(&self) -> u8 {
        self.count
    }

    /// Whether the latest move went back towards [`Shuttle::origin`] (the
    /// second, fourth, … move of the shuttle).
    pub fn last_move_back(&self) -> bool {
        self.last_dir == -self.dir && self.dir != 0
    }

    /// Where the piece stands, if a shuttle is running.
    pub(crate) fn at(&self) -> Option<Square> {
        self.at
    }

    /// The squares of the segment of the first move, from the origin: those
    /// that [`Shuttle::contains`], without testing every square.
    pub(crate) fn segment(&self) -> impl Iterator<Item = Square> {
        let (dir, len) = (i32::from(self.dir), i32::from(self.len));
        let origin = self.origin.filter(|_| dir != 0);
        origin.into_iter().flat_map(move |o| {
            (0..=len).filter_map(move |m| Square::from_pad_checked(o.pad() as i32 + m * dir))
        })
    }

    /// Whether `sq` lies on the segment of the first move.
    pub(crate) fn contains(&self, sq: Square) -> bool {
        let (Some(origin), true) = (self.origin, self.dir != 0) else {
            return false;
        };
        let diff = sq.pad() as i32 - origin.pad() as i32;
        let dir = self.dir as i32;
        diff % dir == 0 && (0..=self.len as i32).contains(&(diff / dir))
    }

    /// Whether moving `from`-`to` continues this shuttle: the same piece,
    /// back the way it came, and (with `partial`, a long mover's partial
    /// moves back counting) ending anywhere on the segment, or (without)
    /// exactly on the square it came from, the other of the same two
    /// squares.
    #[inline(always)]
    fn continues(&self, partial: bool, from: Square, to: Square) -> bool {
        self.count > 0
            && self.at == Some(from)
            && direction(from, to).0 == -self.last_dir
            && if partial {
                self.contains(to)
            } else {
                to == if from == self.end() {
                    self.origin()
                } else {
                    self.end()
                }
            }
    }

    /// Whether moving `from`-`to` would be move number `limit + 1`.
    #[inline]
    pub(crate) fn forbids(&self, limit: u8, partial: bool, from: Square, to: Square) -> bool {
        self.count >= limit && self.continues(partial, from, to)
    }

    /// Whether the shuttle can arise when only moves between the same two
    /// squares count (`partial` off): the piece stands on one end, the far
    /// one after a move out, the origin after a move back.
    pub(crate) fn fits(&self, partial: bool) -> bool {
        partial
            || self.count == 0
            || (self.last_move_back() && self.at == self.origin)
            || (!self.last_move_back() && self.at == Some(self.end()))
    }

    /// Records a move `from`-`to` (of direction and length `(dir, len)`,
    /// [`direction`]) of the player whose shuttle this is, the moving piece
    /// surviving on `to`.
    #[inline(always)]
    pub(crate) fn record(&mut self, partial: bool, from: Square, to: Square, (dir, len): (i8, u8)) {
        // Most moves are of another piece than the shuttling one: one
        // compare, then the new shuttle is written whole.
        if self.at == Some(from) && self.continues(partial, from, to) {
            self.count = self.count.saturating_add(1);
            self.last_dir = -self.last_dir;
            self.at = Some(to);
        } else {
            *self = Shuttle {
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

/// Serde of a per-player pair of optional shuttles in the stored form of
/// earlier versions: "no shuttle" is the all-zero value.
pub(crate) mod pair {
    use game_traits::PerPlayer;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::Shuttle;

    pub(crate) fn serialize<S: Serializer>(
        v: &PerPlayer<Option<Shuttle>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        v.map(Option::unwrap_or_default).serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<PerPlayer<Option<Shuttle>>, D::Error> {
        Ok(PerPlayer::<Shuttle>::deserialize(d)?.map(Shuttle::running))
    }
}
