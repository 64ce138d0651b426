//! Actions (the chance draw of who starts, setup placements, moves) and
//! the compact dense action space.

use std::fmt;

use game_traits::PlayerId;
use serde::{Deserialize, Serialize};

use crate::kind::Kind;
use crate::rules::{FirstPlayer, Rules};
use crate::square::Square;
use crate::variant::Variant;

/// A move of one piece from `from` to `to` (a step, a long move or an
/// attack: attacking is moving onto an enemy piece).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Move {
    /// Start square.
    pub from: Square,
    /// Destination square.
    pub to: Square,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// A decision of a player, or the outcome of the one chance event. `Display`
/// writes a move as `e4-e5`, a placement as `place#k` with the kind index
/// (an action does not know the rule set; [`ActionView`](crate::ActionView)
/// names the piece: "place Scout (2) on a4") and the draw as `start#P1`.
///
/// Under [`FirstPlayer::Drawn`] the game opens with a chance event whose
/// outcome `Start(p)` says who moves first once play begins. During the
/// setup phase each player in turn (the first seat, then the second)
/// fills his 40 home squares one by one, front row first, each row from
/// his left ([`SetupSquare`](crate::SetupSquare) order), choosing the kind
/// of the next square: `Place(kind)`. Then the players alternate `Move`s.
///
/// The variants are declared in the order of their ids, so that the
/// derived [`Ord`] is the id order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Action {
    /// Chance outcome: this player moves first.
    Start(PlayerId),
    /// Put a piece of this kind on the next free setup square.
    Place(Kind),
    /// Move a piece.
    Move(Move),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Start(p) => write!(f, "start#{p}"),
            Action::Place(k) => write!(f, "place#{}", k.index()),
            Action::Move(m) => write!(f, "{m}"),
        }
    }
}

/// The board geometries of the action space: which (from, to) pairs some
/// piece can ever move in some position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Geometry {
    /// One-square orthogonal steps only (Srazhenie without runners).
    Steps = 0,
    /// Orthogonal lines up to a lake or the edge (a long mover exists).
    Lines = 1,
    /// Orthogonal lines and one-square diagonal steps (Czech).
    LinesAndDiagonals = 2,
}

/// A move space: the id of each (from, to) pair by `from * 100 + to`
/// (`NONE` when no piece can ever make it) and the pair of each id.
struct MoveSpace {
    id_of: [u16; 10_000],
    pair_of: [u16; 10_000],
    len: usize,
}

const NONE: u16 = u16::MAX;

const fn lake(index: usize) -> bool {
    let (r, c) = (index / 10, index % 10);
    (r == 4 || r == 5) && (c == 2 || c == 3 || c == 6 || c == 7)
}

/// Whether a piece can ever move from `a` to `b` (indices) in `geometry`:
/// both land, and a one-square orthogonal step, a diagonal step
/// (`diagonal`) or, with `lines`, a straight orthogonal line without water
/// on it (long moves never cross the lakes; pieces on the way block only
/// in some positions, so they do not shrink the space).
const fn possible(a: usize, b: usize, lines: bool, diagonal: bool) -> bool {
    if a == b || lake(a) || lake(b) {
        return false;
    }
    let (ra, ca, rb, cb) = (a / 10, a % 10, b / 10, b % 10);
    let (dr, dc) = (rb as i32 - ra as i32, cb as i32 - ca as i32);
    if dr.abs() == 1 && dc.abs() == 1 {
        return diagonal;
    }
    if dr != 0 && dc != 0 {
        return false;
    }
    let dist = if dr != 0 { dr.abs() } else { dc.abs() };
    if dist == 1 {
        return true;
    }
    if !lines {
        return false;
    }
    let (sr, sc) = (dr.signum(), dc.signum());
    let mut k = 1;
    while k < dist {
        let i = (ra as i32 + sr * k) * 10 + ca as i32 + sc * k;
        if lake(i as usize) {
            return false;
        }
        k += 1;
    }
    true
}

const fn move_space(lines: bool, diagonal: bool) -> MoveSpace {
    let mut s = MoveSpace {
        id_of: [NONE; 10_000],
        pair_of: [NONE; 10_000],
        len: 0,
    };
    let mut a = 0;
    while a < 100 {
        let mut b = 0;
        while b < 100 {
            if possible(a, b, lines, diagonal) {
                s.id_of[a * 100 + b] = s.len as u16;
                s.pair_of[s.len] = (a * 100 + b) as u16;
                s.len += 1;
            }
            b += 1;
        }
        a += 1;
    }
    s
}

static SPACES: [MoveSpace; 3] = [
    move_space(false, false),
    move_space(true, false),
    move_space(true, true),
];

fn geometry(rules: &Rules) -> Geometry {
    match (rules.long_mover().is_some(), rules.diagonal_steps()) {
        (false, _) => Geometry::Steps,
        (true, false) => Geometry::Lines,
        (true, true) => Geometry::LinesAndDiagonals,
    }
}

/// Ids taken by the chance draw of who starts (two under
/// [`FirstPlayer::Drawn`], none otherwise).
fn start_ids(rules: &Rules) -> usize {
    if rules.first_player == FirstPlayer::Drawn {
        2
    } else {
        0
    }
}

/// Ids of the placements: one per kind of the rule set (Czech has no
/// tenth rank).
fn place_ids(rules: &Rules) -> usize {
    match rules.variant {
        Variant::Czech => Kind::COUNT - 1,
        Variant::Srazhenie | Variant::Classic => Kind::COUNT,
    }
}

impl Action {
    /// Size of the dense action space under `rules`: the two outcomes of
    /// the draw of who starts (only when it is drawn), one placement per
    /// kind of the rule set, and every move some piece can make in some
    /// position under these rules: Srazhenie 324 (12 + 312 steps), with
    /// runner soldiers and Classic 1,380 (12 + 1,368 straight lines: the
    /// source-square x straight-line-target layout of Ataraxos' 1,800,
    /// less the moves into, out of and across the lakes), Czech 1,649
    /// (2 + 11 + 1,636 with the diagonal steps). The first release used
    /// 12 + 100 x 100 = 10,012 ids, nearly all of them moves no piece can
    /// ever make.
    pub fn space(rules: &Rules) -> usize {
        start_ids(rules) + place_ids(rules) + SPACES[geometry(rules) as usize].len
    }

    /// The dense id of the action under `rules`, in the order of the
    /// derived [`Ord`]: the draw (`Start(P0)`, `Start(P1)`), then the
    /// placements by kind, then the moves by (from, to) square index.
    /// `None` for an action no position under these rules can make legal
    /// (a kind the rule set lacks, a move no piece can ever make, a draw
    /// the rules do not hold).
    pub fn id(self, rules: &Rules) -> Option<usize> {
        let starts = start_ids(rules);
        match self {
            Action::Start(p) if starts > 0 => Some(p.index()),
            Action::Start(_) => None,
            Action::Place(k) => rules
                .variant
                .kinds()
                .position(|x| x == k)
                .map(|i| starts + i),
            Action::Move(m) => {
                let space = &SPACES[geometry(rules) as usize];
                match space.id_of[m.from.index() * 100 + m.to.index()] {
                    NONE => None,
                    id => Some(starts + place_ids(rules) + id as usize),
                }
            }
        }
    }

    /// The action with dense id `id` under `rules`.
    pub fn from_id(rules: &Rules, id: usize) -> Option<Action> {
        let starts = start_ids(rules);
        if id < starts {
            return Some(Action::Start(PlayerId::BOTH[id]));
        }
        let places = place_ids(rules);
        if id < starts + places {
            return rules.variant.kinds().nth(id - starts).map(Action::Place);
        }
        let space = &SPACES[geometry(rules) as usize];
        let m = id - starts - places;
        if m >= space.len {
            return None;
        }
        let pair = space.pair_of[m] as usize;
        Some(Action::Move(Move {
            from: Square::new((pair / 100) as u8)?,
            to: Square::new((pair % 100) as u8)?,
        }))
    }

    /// The id of an action known to be legal under `rules` (the hot path
    /// of masks): [`Action::id`], with an action outside the space mapped
    /// past its end.
    #[inline]
    pub(crate) fn dense_id(self, rules: &Rules) -> usize {
        self.id(rules).unwrap_or_else(|| Action::space(rules))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placements_are_the_kinds_of_the_rule_set() {
        for v in Variant::ALL {
            assert_eq!(place_ids(&Rules::for_variant(v)), v.kinds().count());
        }
    }

    #[test]
    fn space_sizes() {
        assert_eq!(Action::space(&Rules::srazhenie()), 324);
        assert_eq!(Action::space(&Rules::srazhenie_runner_soldiers()), 1380);
        assert_eq!(Action::space(&Rules::classic()), 1380);
        assert_eq!(Action::space(&Rules::czech()), 1649);
    }
}
