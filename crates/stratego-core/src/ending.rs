//! How a game ends: a captured flag, a player without a legal move, flags
//! nobody can ever reach (Czech), the no-attack limit and the hard bound.

use game_traits::PlayerId;

use crate::cell::Cell;
use crate::kind::Kind;
use crate::square::{Square, ORTHO, PADDED, PW};
use crate::state::{End, EndReason, Stratego};

/// All eight steps on the padded board in ascending offset order.
const KING: [i8; 8] = [-PW - 1, -PW, -PW + 1, -1, 1, PW - 1, PW, PW + 1];

fn draw(reason: EndReason) -> Option<End> {
    Some(End {
        winner: None,
        reason,
    })
}

impl Stratego {
    /// The end of the game after a move of `p` (`attacked`: it was a
    /// fight), or `None`, checked in the order of the rules document.
    #[inline(always)]
    pub(crate) fn check_end(&self, p: PlayerId, attacked: bool) -> Option<End> {
        if !self.surely_moves(p.other()) {
            if let Some(end) = self.check_stuck(p.other()) {
                return Some(end);
            }
        }
        if attacked {
            if let Some(end) = self.check_unreachable() {
                return Some(end);
            }
        }
        self.check_counters()
    }

    /// The draw by the no-attack limit or the hard bound, if reached.
    fn check_counters(&self) -> Option<End> {
        if self
            .rules
            .no_attack_limit
            .is_some_and(|l| self.no_attack >= l)
        {
            return draw(EndReason::NoAttackLimit);
        }
        if self.moves >= self.rules.max_moves {
            return draw(EndReason::MoveLimit);
        }
        None
    }

    /// The end a position given without one has reached (a built or parsed
    /// position): a flag gone, then the checks after a move in their order.
    /// Unreachable flags are checked whatever the last move was: in a
    /// game, only a fight can make them so, and the game then ended.
    pub(crate) fn settled_end(&self) -> Option<End> {
        if !self.in_play() {
            return None;
        }
        let flags = PlayerId::BOTH.map(|p| self.alive[p][Kind::FLAG.index()] > 0);
        match flags {
            [true, false] => {
                return Some(End {
                    winner: Some(PlayerId::P0),
                    reason: EndReason::FlagCaptured,
                })
            }
            [false, true] => {
                return Some(End {
                    winner: Some(PlayerId::P1),
                    reason: EndReason::FlagCaptured,
                })
            }
            _ => {}
        }
        self.check_stuck(self.to_move)
            .or_else(|| self.check_unreachable())
            .or_else(|| self.check_counters())
    }

    /// The end when player `q`, to move, has no legal move.
    pub(crate) fn check_stuck(&self, q: PlayerId) -> Option<End> {
        if self.has_move(q) {
            return None;
        }
        let both = !self.has_move(q.other());
        let (winner, reason) = if !self.rules.no_move_loses {
            (None, EndReason::NoLegalMove)
        } else if both && self.rules.both_stuck_draw {
            (None, EndReason::BothStuck)
        } else {
            (Some(q.other()), EndReason::NoLegalMove)
        };
        Some(End { winner, reason })
    }

    /// The Czech draw when neither side can ever capture the other's flag.
    pub(crate) fn check_unreachable(&self) -> Option<End> {
        (self.rules.unreachable_flag_draw
            && !self.can_reach_flag(PlayerId::P0)
            && !self.can_reach_flag(PlayerId::P1))
        .then_some(End {
            winner: None,
            reason: EndReason::FlagUnreachable,
        })
    }

    /// Whether player `a` could ever capture the opponent's flag: some
    /// movable piece of `a` is connected, through squares that can ever be
    /// crossed by `a`, to a square orthogonally next to the flag. Squares
    /// that can never be crossed: lakes, both flags, the opponent's mines
    /// when `a` has no mine clearer left, `a`'s own mines when the opponent
    /// has none left (only an enemy clearer could remove them).
    pub(crate) fn can_reach_flag(&self, a: PlayerId) -> bool {
        let b = a.other();
        if self.mobile[a] == 0 {
            return false;
        }
        let Some(flag) = Square::all().find(|s| {
            let c = self.board[s.pad()];
            c.is_piece_of(b) && c.kind() == Kind::FLAG
        }) else {
            return false;
        };
        let a_miner = self.alive[a][Kind::MINER.index()] > 0;
        let b_miner = self.alive[b][Kind::MINER.index()] > 0;
        let blocked = |c: Cell| -> bool {
            if c == Cell::WALL {
                return true;
            }
            if !c.is_piece() {
                return false;
            }
            let kind = c.kind();
            let owner = c.owner();
            kind == Kind::FLAG
                || (kind == Kind::MINE && ((owner == b && !a_miner) || (owner == a && !b_miner)))
        };
        let mut seen = [false; PADDED];
        let mut stack: Vec<usize> = Vec::new();
        for d in ORTHO {
            let t = (flag.pad() as isize + d as isize) as usize;
            if !blocked(self.board[t]) && !seen[t] {
                seen[t] = true;
                stack.push(t);
            }
        }
        let steps: &[i8] = if self.diag { &KING } else { &ORTHO };
        while let Some(s) = stack.pop() {
            let c = self.board[s];
            if c.is_piece_of(a) && c.kind().is_mobile() {
                return true;
            }
            for &d in steps {
                let t = (s as isize + d as isize) as usize;
                if !seen[t] && !blocked(self.board[t]) {
                    seen[t] = true;
                    stack.push(t);
                }
            }
        }
        false
    }
}
