//! Move listing and the legality check of one action.

use std::mem::MaybeUninit;

use game_traits::PlayerId;

use crate::action::{Action, Move};
use crate::cell::Cell;
use crate::kind::Kind;
use crate::square::{Square, PADDED, PW};
use crate::state::Stratego;

/// Most moves one piece can have: 18 along its row and column, 4 diagonal
/// steps (a Czech Průzkumník), and room for the branch-free writes.
const MAX_PIECE_MOVES: usize = 24;
/// Most moves a position can have: at most 8 long movers with 22 moves
/// each and 25 other pieces with 8 steps each, plus write slack.
const MAX_MOVES: usize = 8 * 22 + 25 * 8 + MAX_PIECE_MOVES;

/// Mask of the 92 land squares.
pub(crate) const SQUARES: u128 = squares_mask();

const fn squares_mask() -> u128 {
    let mut m = 0u128;
    let mut i = 0;
    while i < 100 {
        let (r, c) = (i / 10, i % 10);
        let lake = (r == 4 || r == 5) && (c == 2 || c == 3 || c == 6 || c == 7);
        if !lake {
            m |= 1u128 << ((r + 1) * 12 + c + 1 - 13);
        }
        i += 1;
    }
    m
}

/// Steps of a non-long mover with whether an attack may go that way.
const ORTHO_ATTACKS: [(i8, bool); 4] = [(-PW, true), (-1, true), (1, true), (PW, true)];
const KING_ATTACKS: [(i8, bool); 8] = [
    (-PW - 1, false),
    (-PW, true),
    (-PW + 1, false),
    (-1, true),
    (1, true),
    (PW - 1, false),
    (PW, true),
    (PW + 1, false),
];

/// Writes the one-square moves of the piece on `from` along `steps`.
/// Branch-free: every candidate is written and kept only when legal; the
/// targets of a random position are unpredictable, so this beats a
/// mispredicted branch per square.
#[inline(always)]
fn write_steps<const N: usize, S: Slot>(
    board: &[Cell; PADDED],
    steps: &[(i8, bool); N],
    enemy: PlayerId,
    from: Square,
    buf: &mut [S],
    mut n: usize,
) -> usize {
    for &(d, attack) in steps {
        let t = (from.pad() as isize + d as isize) as u8 as usize;
        let ok = (board[t].target(enemy) >> (!attack as u8)) & 1;
        buf[n].put(Action::Move(Move {
            from,
            to: Square::from_pad(t),
        }));
        n += ok as usize;
    }
    n
}

/// Somewhere to write a generated move: the spare capacity of the output
/// vector on the hot path, a plain array elsewhere.
pub(crate) trait Slot {
    fn put(&mut self, action: Action);
}

impl Slot for MaybeUninit<Action> {
    #[inline(always)]
    fn put(&mut self, action: Action) {
        self.write(action);
    }
}

impl Slot for Action {
    #[inline(always)]
    fn put(&mut self, action: Action) {
        *self = action;
    }
}

/// The moves of one piece.
pub(crate) struct PieceMoves {
    moves: [Action; MAX_PIECE_MOVES],
    len: usize,
}

impl PieceMoves {
    pub(crate) fn as_slice(&self) -> &[Action] {
        &self.moves[..self.len]
    }
}

impl Stratego {
    fn place_legal(&self, p: PlayerId, kind: Kind) -> bool {
        self.alive[p][kind.index()] < self.rules.variant.count(kind)
    }

    /// The moves of player `p`'s piece on `from` (geometry only, before the
    /// repetition rules), in ascending order.
    pub(crate) fn piece_moves(&self, p: PlayerId, from: Square) -> PieceMoves {
        let mut list = PieceMoves {
            moves: [Action::Place(Kind::FLAG); MAX_PIECE_MOVES],
            len: 0,
        };
        list.len = self.write_piece_moves(p, from, &mut list.moves, 0);
        list
    }

    /// Writes the moves of the piece on `fsq` into `buf` from index `n`;
    /// returns the new count. Every slot up to the returned count is
    /// initialised (slots past it may be written too).
    #[inline(always)]
    fn write_piece_moves<S: Slot>(
        &self,
        p: PlayerId,
        fsq: Square,
        buf: &mut [S],
        n: usize,
    ) -> usize {
        self.write_piece_moves_as(p, fsq, self.board[fsq.pad()].kind_bits(), buf, n)
    }

    /// [`Stratego::write_piece_moves`] for a mobile piece of kind index
    /// `kind` on `fsq`, whatever the cell holds: a piece's moves depend on
    /// its own kind and on who occupies the other squares only.
    #[inline(always)]
    fn write_piece_moves_as<S: Slot>(
        &self,
        p: PlayerId,
        fsq: Square,
        kind: u8,
        buf: &mut [S],
        mut n: usize,
    ) -> usize {
        let from = fsq.pad();
        let enemy = p.other();
        if kind == self.long_kind {
            // Emitted in ascending target order without sorting: the up ray
            // far to near, the up diagonals around its first square, the
            // left ray far to near, the right ray near to far, the down
            // diagonals around the first down square, the down ray.
            let ray = |d: isize| -> isize {
                let mut k = 1;
                while self.board[(from as isize + d * k) as u8 as usize] == Cell::EMPTY {
                    k += 1;
                }
                let end = self.board[(from as isize + d * k) as u8 as usize];
                let attack = end.is_piece_of(enemy) && (k == 1 || self.rules.long_move_attack);
                k - 1 + attack as isize
            };
            let diag = self.diag && self.rules.czech_scout_steps_diagonally;
            let w = PW as isize;
            let (up, left, right, down) = (ray(-w), ray(-1), ray(1), ray(w));
            let mut emit = |t: isize, ok: bool| {
                buf[n].put(Action::Move(Move {
                    from: fsq,
                    to: Square::from_pad(t as u8 as usize),
                }));
                n += ok as usize;
            };
            let f = from as isize;
            let diag_ok = |d: isize| diag && self.board[(f + d) as u8 as usize] == Cell::EMPTY;
            for k in (2..=up).rev() {
                emit(f - w * k, true);
            }
            emit(f - w - 1, diag_ok(-w - 1));
            emit(f - w, up >= 1);
            emit(f - w + 1, diag_ok(-w + 1));
            for k in (1..=left).rev() {
                emit(f - k, true);
            }
            for k in 1..=right {
                emit(f + k, true);
            }
            emit(f + w - 1, diag_ok(w - 1));
            emit(f + w, down >= 1);
            emit(f + w + 1, diag_ok(w + 1));
            for k in 2..=down {
                emit(f + w * k, true);
            }
        } else if self.diag {
            n = write_steps(&self.board, &KING_ATTACKS, enemy, fsq, buf, n);
        } else {
            n = write_steps(&self.board, &ORTHO_ATTACKS, enemy, fsq, buf, n);
        }
        n
    }

    /// Whether the repetition rules forbid `mv` for player `p`.
    #[inline]
    pub(crate) fn repetition_forbids(&self, p: PlayerId, mv: Move) -> bool {
        if let Some(limit) = self.rules.two_square_limit {
            if self.shuttles[p].forbids(limit, self.rules.two_square_partial_moves, mv.from, mv.to)
            {
                return true;
            }
        }
        self.chase_forbids(p, mv)
    }

    /// Appends every legal move of player `p`, sorted.
    fn moves_of(&self, p: PlayerId, out: &mut Vec<Action>) {
        out.reserve(MAX_MOVES);
        let len = out.len();
        let buf = out.spare_capacity_mut();
        let mut n = 0;
        let mut bits = self.candidates(p);
        let shuttle = &self.shuttles[p];
        let restricted = self
            .rules
            .two_square_limit
            .is_some_and(|l| shuttle.moves() >= l);
        // While `p` chases, the more-squares rule can forbid only his moves
        // onto the empty squares next to the evader: the others skip the
        // check.
        let chase_targets = match &self.chase {
            Some(c) if c.chaser == p => {
                let e = c.evader.bit();
                let w = PW as u32;
                let empty = SQUARES & !(self.occ[PlayerId::P0] | self.occ[PlayerId::P1]);
                ((e << w) | (e << 1) | (e >> 1) | (e >> w)) & empty
            }
            _ => 0,
        };
        // The one piece the two-square rule may restrict (0 = none, as the
        // padded cell 0 is never a square).
        let special = match shuttle.at() {
            Some(sq) if restricted => sq.pad(),
            _ => 0,
        };
        while bits != 0 {
            let sq = Square::from_bit(bits.trailing_zeros());
            bits &= bits - 1;
            let start = n;
            n = self.write_piece_moves(p, sq, buf, n);
            let is_special = sq.pad() == special;
            if chase_targets != 0 || is_special {
                let mut keep = start;
                for j in start..n {
                    // SAFETY: slots start..n were just initialised.
                    let a = unsafe { buf[j].assume_init() };
                    if let Action::Move(m) = a {
                        let forbidden = if is_special {
                            self.repetition_forbids(p, m)
                        } else {
                            m.to.bit() & chase_targets != 0 && self.chase_forbids(p, m)
                        };
                        if !forbidden {
                            buf[keep].put(a);
                            keep += 1;
                        }
                    }
                }
                n = keep;
            }
        }
        // SAFETY: `write_piece_moves` initialised the first `n` spare slots.
        unsafe { out.set_len(len + n) };
    }

    /// The movable pieces of player `p` that have a free or attackable
    /// neighbour in a direction they may step: computed on whole-board
    /// masks at once, so that pieces boxed in by their own army (most of
    /// them early in a game) cost nothing in move generation. Exact except
    /// for a Czech Průzkumník without diagonal steps, which may be listed
    /// for a free diagonal only.
    #[inline(always)]
    fn candidates(&self, p: PlayerId) -> u128 {
        // Free or enemy: every land square that is not his own.
        let hit = SQUARES & !self.occ[p];
        let w = PW as u32;
        let mut any = (hit << w) | (hit << 1) | (hit >> 1) | (hit >> w);
        if self.diag {
            let empty = hit & !self.occ[p.other()];
            any |=
                (empty << (w + 1)) | (empty << (w - 1)) | (empty >> (w - 1)) | (empty >> (w + 1));
        }
        any & self.mobile[p]
    }

    /// Whether [`Stratego::candidates`] is exact: everywhere but for a
    /// Czech Průzkumník without diagonal steps.
    #[inline(always)]
    fn exact_candidates(&self) -> bool {
        !(self.diag && self.long_kind != u8::MAX && !self.rules.czech_scout_steps_diagonally)
    }

    /// Whether player `q` surely has a legal move, decided on masks:
    /// `false` when they cannot tell (then [`Stratego::has_move`]
    /// decides). The piece the two-square rule may restrict and a chaser's
    /// moves are left to the full check.
    #[inline(always)]
    pub(crate) fn surely_moves(&self, q: PlayerId) -> bool {
        if self.chase.as_ref().is_some_and(|c| c.chaser == q) || !self.exact_candidates() {
            return false;
        }
        let movable = self.mobile[q] & !self.shuttles[q].at().map_or(0, |sq| sq.bit());
        // Nearly always some piece can step left: one shift decides, the
        // four-direction mask only when it cannot.
        let hit = SQUARES & !self.occ[q];
        (hit << 1) & movable != 0 || self.candidates(q) & movable != 0
    }

    /// Whether a piece of player `p` on `sq` would have a legal move (the
    /// repetition rules included) if it were of `kind`: only its own kind
    /// and the public occupancy of the board matter, so determinisation
    /// asks this of every unknown piece to draw kinds that fit how the
    /// game ended.
    pub(crate) fn can_move_as(&self, p: PlayerId, sq: Square, kind: Kind) -> bool {
        if !kind.is_mobile() {
            return false;
        }
        let mut buf = [Action::Place(Kind::FLAG); MAX_PIECE_MOVES];
        let n = self.write_piece_moves_as(p, sq, kind.index() as u8, &mut buf, 0);
        buf[..n]
            .iter()
            .any(|a| matches!(a, Action::Move(m) if !self.repetition_forbids(p, *m)))
    }

    /// Whether player `p` has at least one legal move.
    pub(crate) fn has_move(&self, p: PlayerId) -> bool {
        let cand = self.candidates(p);
        let chased = self.chase.as_ref().is_some_and(|c| c.chaser == p);
        if !chased && self.exact_candidates() {
            let special = self.shuttles[p].at().map_or(0, |sq| sq.bit());
            if cand & !special != 0 {
                return true;
            }
        }
        let mut bits = cand;
        while bits != 0 {
            let sq = Square::from_bit(bits.trailing_zeros());
            bits &= bits - 1;
            if self
                .piece_moves(p, sq)
                .as_slice()
                .iter()
                .any(|a| matches!(a, Action::Move(m) if !self.repetition_forbids(p, *m)))
            {
                return true;
            }
        }
        false
    }

    /// The legal moves of the player to move, sorted (empty in the setup
    /// phase and at the end).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        if self.end.is_none() && self.in_play() {
            self.moves_of(self.to_move, &mut out);
        }
        out.into_iter()
            .filter_map(|a| match a {
                Action::Move(m) => Some(m),
                Action::Place(_) | Action::Start(_) => None,
            })
            .collect()
    }

    /// Clears `out` and lists the legal actions, sorted by id.
    pub(crate) fn list_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.awaits_draw() {
            out.extend(PlayerId::BOTH.map(Action::Start));
            return;
        }
        match self.current_player() {
            None => {}
            Some(p) if !self.in_play() => {
                out.extend(
                    self.rules
                        .variant
                        .kinds()
                        .filter(|&k| self.place_legal(p, k))
                        .map(Action::Place),
                );
            }
            Some(p) => self.moves_of(p, out),
        }
    }

    /// Whether `action` is legal now, decided without listing.
    #[inline]
    pub(crate) fn is_legal_action(&self, action: Action) -> bool {
        if let Action::Start(_) = action {
            return self.awaits_draw();
        }
        let Some(p) = self.current_player() else {
            return false;
        };
        match action {
            Action::Start(_) => false,
            Action::Place(k) => {
                !self.in_play() && self.rules.variant.count(k) > 0 && self.place_legal(p, k)
            }
            Action::Move(m) => {
                self.in_play()
                    && self.board[m.from.pad()].is_piece_of(p)
                    && self.mobile[p] & m.from.bit() != 0
                    && self
                        .piece_moves(p, m.from)
                        .as_slice()
                        .contains(&Action::Move(m))
                    && !self.repetition_forbids(p, m)
            }
        }
    }

    /// Why `action` is illegal now, `None` when it is legal; agrees with
    /// [`Stratego::is_legal_action`].
    pub(crate) fn illegal_reason(&self, action: Action) -> Option<&'static str> {
        match action {
            Action::Start(_) if self.awaits_draw() => return None,
            Action::Start(_) => return Some("who moves first is not being drawn now"),
            _ if self.awaits_draw() => return Some("who moves first is still to be drawn"),
            _ => {}
        }
        let Some(p) = self.current_player() else {
            return Some("the game is over");
        };
        match action {
            Action::Start(_) => Some("who moves first is not being drawn now"),
            Action::Place(_) if self.in_play() => Some("the setup phase is over"),
            Action::Place(k) if self.rules.variant.count(k) == 0 => {
                Some("the rule set has no piece of that kind")
            }
            Action::Place(k) if !self.place_legal(p, k) => {
                Some("every piece of that kind is already placed")
            }
            Action::Place(_) => None,
            Action::Move(_) if !self.in_play() => Some("the setup phase is not over"),
            Action::Move(m) if !self.board[m.from.pad()].is_piece_of(p) => {
                Some("no piece of the player to move on the start square")
            }
            Action::Move(m) if self.mobile[p] & m.from.bit() == 0 => {
                Some("mines and flags never move")
            }
            Action::Move(m)
                if !self
                    .piece_moves(p, m.from)
                    .as_slice()
                    .contains(&Action::Move(m)) =>
            {
                Some("the piece cannot move there")
            }
            Action::Move(m)
                if self.rules.two_square_limit.is_some_and(|l| {
                    self.shuttles[p].forbids(l, self.rules.two_square_partial_moves, m.from, m.to)
                }) =>
            {
                Some("the two-square rule forbids it")
            }
            Action::Move(m) if self.chase_forbids(p, m) => Some("the more-squares rule forbids it"),
            Action::Move(_) => None,
        }
    }
}
