//! Applying an action: placements, moves, fights, and what they tell the
//! opponent.

use game_traits::PlayerId;

use crate::action::{Action, Move};
use crate::cell::Cell;
use crate::chase::zobrist;
use crate::kind::{Kind, KindSet};
use crate::setup::SetupSquare;
use crate::shuttle::{direction, Shuttle};
use crate::square::Square;
use crate::state::{End, EndReason, Stratego};
use crate::variant::Fight;

impl Stratego {
    /// Applies `action`, which [`Stratego::is_legal_action`] accepted. An
    /// illegal action must not panic: cheap guards keep it from touching
    /// walls or foreign pieces, and it is then ignored or applied as far as
    /// it goes.
    pub(crate) fn step(&mut self, action: Action) {
        if let Action::Start(p) = action {
            if self.awaits_draw() {
                self.first = Some(p);
                self.to_move = p;
            }
            return;
        }
        let Some(p) = self.current_player() else {
            return;
        };
        match action {
            Action::Place(k) if !self.in_play() => self.place(p, k),
            Action::Move(m)
                if self.in_play()
                    && self.mobile[p] & m.from.bit() != 0
                    && self.board[m.to.pad()].target(p.other()) & 1 != 0 =>
            {
                self.make_move(p, m)
            }
            _ => {}
        }
    }

    /// Places `p`'s next piece, of `kind`, on his next setup square: legal
    /// when `p` is the one to place and has a piece of `kind` left.
    pub(crate) fn place(&mut self, p: PlayerId, kind: Kind) {
        let n = self.placed[p] as usize;
        let Some(sq) = SetupSquare::from_index(n).and_then(|ss| ss.board_square(p)) else {
            return;
        };
        self.board[sq.pad()] = Cell::piece(p, kind);
        self.alive[p][kind.index()] += 1;
        self.occ[p] |= sq.bit();
        if kind.is_mobile() {
            self.mobile[p] |= sq.bit();
        }
        if kind.index() as u8 == self.long_kind {
            self.long[p] |= sq.bit();
        }
        self.hash ^= zobrist(p, sq);
        self.placed[p] += 1;
        if self.in_play() {
            self.end = self.check_stuck(self.to_move);
        }
    }

    fn remove(&mut self, owner: PlayerId, sq: Square, kind: Kind) {
        let k = kind.index();
        self.board[sq.pad()] = Cell::EMPTY;
        self.mobile[owner] &= !sq.bit();
        self.occ[owner] &= !sq.bit();
        self.long[owner] &= !sq.bit();
        // Saturating: `apply_unchecked` of an illegal action must stay
        // panic-free.
        self.alive[owner][k] = self.alive[owner][k].saturating_sub(1);
        self.lost[owner][k] = self.lost[owner][k].saturating_add(1);
        self.hash ^= zobrist(owner, sq);
        self.ruled_out[sq.index()] = KindSet::EMPTY;
        if self.shuttles[owner].at() == Some(sq) {
            self.shuttles[owner] = Shuttle::default();
        }
    }

    /// Moves the piece of `p` standing on `m.from` (a move of direction
    /// and length `dl`).
    #[inline(always)]
    fn slide(&mut self, p: PlayerId, m: Move, cell: Cell, dl: (i8, u8)) {
        self.board[m.to.pad()] = cell;
        self.board[m.from.pad()] = Cell::EMPTY;
        let both = m.from.bit() | m.to.bit();
        self.mobile[p] ^= both;
        self.occ[p] ^= both;
        // Branch-free: all ones when the piece is the long mover.
        let long = u128::from(cell.kind_bits() == self.long_kind).wrapping_neg();
        self.long[p] ^= long & both;
        self.hash ^= zobrist(p, m.from) ^ zobrist(p, m.to);
        self.shuttles[p].record(self.rules.two_square_partial_moves, m.from, m.to, dl);
    }

    fn make_move(&mut self, p: PlayerId, m: Move) {
        let q = p.other();
        let cell = self.board[m.from.pad()];
        let target = self.board[m.to.pad()];
        let dl = direction(m.from, m.to);
        let (dir, dist) = dl;
        let mut moved = cell.with_moved();
        if dist > 1 {
            // Only the long mover goes further than one square.
            moved = moved.with_revealed();
        }
        let hash_before = self.hash;
        let mut flag_taken = false;
        if target == Cell::EMPTY {
            self.slide(p, m, moved, dl);
            self.no_attack = self.no_attack.saturating_add(1);
            if self.rules.more_squares_rule {
                self.update_chase(p, m, hash_before);
            }
        } else {
            let (ak, dk) = (cell.kind(), target.kind());
            let fight = self.rules.variant.fight(ak, dk);
            if self.rules.reveal_attacker {
                moved = moved.with_revealed();
            }
            self.no_attack = 0;
            self.chase = None;
            match fight {
                Fight::AttackerWins => {
                    flag_taken = dk == Kind::FLAG;
                    self.remove(q, m.to, dk);
                    self.slide(p, m, moved, dl);
                }
                Fight::DefenderWins => {
                    if !moved.revealed() {
                        self.hide_loss(p, m.from, ak, dk);
                    }
                    self.remove(p, m.from, ak);
                    self.board[m.to.pad()] = target.with_revealed();
                }
                Fight::BothLeave => {
                    self.remove(p, m.from, ak);
                    self.remove(q, m.to, dk);
                }
            }
            if fight != Fight::AttackerWins {
                // A move of another piece ends any shuttle, even when that
                // piece left the board.
                self.shuttles[p] = Shuttle::default();
            }
        }
        if self.tracks_kinds {
            self.carry_knowledge(m, dir, target);
        }
        self.last_move[p] = Some(m);
        self.moves += 1;
        self.to_move = q;
        self.end = if flag_taken {
            Some(End {
                winner: Some(p),
                reason: EndReason::FlagCaptured,
            })
        } else {
            self.check_end(p, target != Cell::EMPTY)
        };
    }

    /// Records that the hidden attacker of `p` on `from`, of kind `ak`,
    /// lost to a defender of kind `dk` without its opponent seeing its
    /// kind: he knows only that it is a movable kind that loses to `dk`
    /// and was not ruled out before. A loss that this pins down to one
    /// kind is public like any other.
    fn hide_loss(&mut self, p: PlayerId, from: Square, ak: Kind, dk: Kind) {
        let variant = self.rules.variant;
        let movers = KindSet::of_variant(variant).and(KindSet::MOBILE);
        let known = self.ruled_out[from.index()]
            .or(movers.minus(variant.losers_against(dk)))
            .and(movers);
        if movers.minus(known).len() < 2 {
            return;
        }
        let list = &mut self.hidden_lost[p];
        let key = (known.bits(), ak.index());
        let at = list.partition_point(|&(s, k)| (s.bits(), k.index()) < key);
        list.insert(at, (known, ak));
    }

    /// Moves what the opponent knows about the piece of move `m` (already
    /// applied; `target` was the cell attacked, or empty) along with it,
    /// adding what the move told him.
    fn carry_knowledge(&mut self, m: Move, dir: i8, target: Cell) {
        let mut known = std::mem::take(&mut self.ruled_out[m.from.index()]);
        let mover = self.board[m.to.pad()];
        if !mover.is_piece() || mover.revealed() {
            // The mover is revealed, or it lost: the square holds the
            // (revealed) defender or nobody.
            self.ruled_out[m.to.index()] = KindSet::EMPTY;
            return;
        }
        if matches!(dir, -13 | -11 | 11 | 13) && !self.rules.czech_scout_steps_diagonally {
            if let Some(long) = Kind::new(self.long_kind) {
                known = known.or(KindSet::of(long));
            }
        }
        if target != Cell::EMPTY {
            let winners = self.rules.variant.winners_against(target.kind());
            known = known.or(KindSet::MOBILE.minus(winners));
        }
        let variant = KindSet::of_variant(self.rules.variant);
        self.ruled_out[m.to.index()] = known.and(variant);
    }
}
