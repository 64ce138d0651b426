//! The full game state: the padded-mailbox board and the bookkeeping of
//! the rules, with move generation and move application.

use serde::{Deserialize, Serialize};

use crate::action::{Action, Move};
use crate::error::StrategoError;
use crate::repetition::{direction, ortho_adjacent, Chase, Series, ZOBRIST};
use crate::rules::Rules;
use crate::setup::{SetupSquare, SETUP_SQUARES};
use crate::square::{Square, ORTHO, PADDED, PW};
use crate::variant::{Fight, Kind};

// Cell encoding of the padded board: a piece is PRESENT | flags | owner | kind.
pub(crate) const PRESENT: u8 = 0x80;
pub(crate) const MOVED: u8 = 0x40;
pub(crate) const REVEALED: u8 = 0x20;
pub(crate) const OWNER: u8 = 0x10;
pub(crate) const KIND: u8 = 0x0F;
/// Off-board frame and lakes.
pub(crate) const WALL: u8 = 0x0F;
pub(crate) const EMPTY: u8 = 0;

/// All eight steps on the padded board in ascending offset order.
const KING: [i8; 8] = [-PW - 1, -PW, -PW + 1, -1, 1, PW - 1, PW, PW + 1];

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndReason {
    /// A flag was captured.
    FlagCaptured,
    /// The player to move had no legal move.
    NoLegalMove,
    /// Neither player had a legal move.
    BothStuck,
    /// Neither side can ever capture the other's flag (Czech).
    FlagUnreachable,
    /// Too many moves in a row without an attack.
    NoAttackLimit,
    /// The hard bound on the game length was reached.
    MoveLimit,
}

/// The result of a finished game with its reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct End {
    /// The winner, `None` for a draw.
    pub winner: Option<u8>,
    /// Why the game ended.
    pub reason: EndReason,
}

/// The last move of a player, for the more-squares rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LastMove {
    /// Start square.
    pub from: Square,
    /// Destination square.
    pub to: Square,
}

/// A Stratego game in progress: the true state with every piece known.
/// Players see it only through [`Observation`](crate::Observation)s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stratego {
    pub(crate) rules: Rules,
    pub(crate) board: [u8; PADDED],
    /// Bit `i` set where the player has a movable piece on square `i`.
    pub(crate) mobile: [u128; 2],
    /// Pieces on the board per player and kind.
    pub(crate) alive: [[u8; Kind::COUNT]; 2],
    /// Pieces lost in fights per player and kind (public).
    pub(crate) lost: [[u8; Kind::COUNT]; 2],
    pub(crate) placed: [u8; 2],
    pub(crate) to_move: u8,
    pub(crate) moves: u32,
    pub(crate) no_attack: u16,
    pub(crate) series: [Series; 2],
    pub(crate) chase: Option<Chase>,
    pub(crate) last_move: [Option<LastMove>; 2],
    /// Hash of which player occupies which square (public).
    pub(crate) hash: u64,
    pub(crate) end: Option<End>,
    /// Derived from the rules: the long-moving kind (or 255) and whether
    /// pieces step diagonally.
    pub(crate) long_kind: u8,
    pub(crate) diag: bool,
}

#[inline]
fn bit(sq: Square) -> u128 {
    1u128 << sq.index()
}

impl Stratego {
    /// A new game: the setup phase begins with the first player.
    pub fn with_rules(rules: &Rules) -> Result<Stratego, StrategoError> {
        rules.validate()?;
        let mut board = [WALL; PADDED];
        for sq in Square::all().filter(|s| !s.is_lake()) {
            board[sq.pad()] = EMPTY;
        }
        Ok(Stratego {
            rules: *rules,
            board,
            mobile: [0; 2],
            alive: [[0; Kind::COUNT]; 2],
            lost: [[0; Kind::COUNT]; 2],
            placed: [0; 2],
            to_move: 0,
            moves: 0,
            no_attack: 0,
            series: [Series::default(); 2],
            chase: None,
            last_move: [None; 2],
            hash: 0,
            end: None,
            long_kind: rules.long_mover().map_or(u8::MAX, |k| k.index() as u8),
            diag: rules.diagonal_steps(),
        })
    }

    /// The rules.
    pub fn rules_ref(&self) -> &Rules {
        &self.rules
    }

    /// Whether both armies are set up.
    pub fn in_play(&self) -> bool {
        self.placed[1] as usize == SETUP_SQUARES
    }

    /// The player who decides now (0 or 1), `None` once the game is over.
    pub fn current_player(&self) -> Option<u8> {
        if self.end.is_some() {
            None
        } else if (self.placed[0] as usize) < SETUP_SQUARES {
            Some(0)
        } else if (self.placed[1] as usize) < SETUP_SQUARES {
            Some(1)
        } else {
            Some(self.to_move)
        }
    }

    /// The end of the game, if reached.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// The piece on `sq`: owner, kind.
    pub fn piece(&self, sq: Square) -> Option<(u8, Kind)> {
        let c = self.board[sq.pad()];
        (c & PRESENT != 0).then(|| ((c & OWNER) >> 4, Kind::new(c & KIND).unwrap_or(Kind::FLAG)))
    }

    /// Whether the piece on `sq` has moved (so it is no mine or flag).
    pub fn has_moved(&self, sq: Square) -> bool {
        self.board[sq.pad()] & (PRESENT | MOVED) == PRESENT | MOVED
    }

    /// Whether the rank of the piece on `sq` is known to its opponent.
    pub fn is_revealed(&self, sq: Square) -> bool {
        self.board[sq.pad()] & (PRESENT | REVEALED) == PRESENT | REVEALED
    }

    /// Number of moves made since both armies were set up.
    pub fn moves_played(&self) -> u32 {
        self.moves
    }

    /// Moves in a row without an attack.
    pub fn moves_without_attack(&self) -> u16 {
        self.no_attack
    }

    /// The two-square series of `player`.
    pub fn series(&self, player: u8) -> Series {
        self.series[player as usize & 1]
    }

    /// Pieces of `player` lost in fights, per kind index.
    pub fn lost(&self, player: u8) -> [u8; Kind::COUNT] {
        self.lost[player as usize & 1]
    }

    // ----- setup phase -------------------------------------------------

    fn place_legal(&self, p: usize, kind: Kind) -> bool {
        self.alive[p][kind.index()] < self.rules.variant.count(kind)
    }

    fn place(&mut self, p: usize, kind: Kind) {
        let n = self.placed[p] as usize;
        let Some(ss) = SetupSquare::from_index(n) else {
            return;
        };
        let sq = ss.board_square(p);
        self.board[sq.pad()] = PRESENT | ((p as u8) << 4) | kind.index() as u8;
        self.alive[p][kind.index()] += 1;
        if kind.is_mobile() {
            self.mobile[p] |= bit(sq);
        }
        self.hash ^= ZOBRIST[p][sq.index()];
        self.placed[p] += 1;
        if self.in_play() {
            self.end = self.check_stuck(0);
        }
    }

    // ----- move generation ---------------------------------------------

    /// Appends the legal moves of `player`'s piece on padded cell `from`
    /// (geometry only, before the repetition rules), ascending.
    #[inline]
    fn piece_moves(&self, p: u8, from: usize, out: &mut Vec<Action>) {
        let cell = self.board[from];
        let kind = cell & KIND;
        let enemy = PRESENT | ((p ^ 1) << 4);
        let fsq = Square::from_pad(from);
        let push = |out: &mut Vec<Action>, t: usize| {
            out.push(Action::Move(Move {
                from: fsq,
                to: Square::from_pad(t),
            }))
        };
        if kind == self.long_kind {
            let mut buf = [0u8; 40];
            let mut n = 0;
            for d in ORTHO {
                let mut t = (from as isize + d as isize) as usize;
                let mut first = true;
                while self.board[t] == EMPTY {
                    buf[n] = t as u8;
                    n += 1;
                    t = (t as isize + d as isize) as usize;
                    first = false;
                }
                if self.board[t] & (PRESENT | OWNER) == enemy && (first || self.rules.long_move_attack) {
                    buf[n] = t as u8;
                    n += 1;
                }
            }
            if self.diag && self.rules.czech_scout_steps_diagonally {
                for d in [-PW - 1, -PW + 1, PW - 1, PW + 1] {
                    let t = (from as isize + d as isize) as usize;
                    if self.board[t] == EMPTY {
                        buf[n] = t as u8;
                        n += 1;
                    }
                }
            }
            let targets = &mut buf[..n];
            targets.sort_unstable();
            for &t in targets.iter() {
                push(out, t as usize);
            }
        } else if self.diag {
            for d in KING {
                let t = (from as isize + d as isize) as usize;
                let c = self.board[t];
                let ortho = d == -PW || d == -1 || d == 1 || d == PW;
                if c == EMPTY || (ortho && c & (PRESENT | OWNER) == enemy) {
                    push(out, t);
                }
            }
        } else {
            for d in ORTHO {
                let t = (from as isize + d as isize) as usize;
                let c = self.board[t];
                if c == EMPTY || c & (PRESENT | OWNER) == enemy {
                    push(out, t);
                }
            }
        }
    }

    /// Whether the repetition rules forbid `mv` for player `p`.
    #[inline]
    fn repetition_forbids(&self, p: u8, mv: Move) -> bool {
        if let Some(limit) = self.rules.two_square_limit {
            if self.series[p as usize].forbids(limit, mv.from, mv.to) {
                return true;
            }
        }
        match &self.chase {
            Some(c) if c.chaser == p && self.board[mv.to.pad()] == EMPTY => {
                let back = self.last_move[p as usize] == Some(crate::state::LastMove { from: mv.to, to: mv.from });
                ortho_adjacent(mv.to, c.evader)
                    && !back
                    && c.positions.contains(&(self.hash ^ ZOBRIST[p as usize][mv.from.index()] ^ ZOBRIST[p as usize][mv.to.index()]))
            }
            _ => false,
        }
    }

    /// Appends every legal move of player `p`, sorted.
    pub(crate) fn moves_of(&self, p: u8, out: &mut Vec<Action>) {
        let mut bits = self.mobile[p as usize];
        let series_at = self.series[p as usize].at;
        let restricted = self.rules.two_square_limit.is_some_and(|l| self.series[p as usize].count >= l);
        let chased = self.chase.as_ref().is_some_and(|c| c.chaser == p);
        while bits != 0 {
            let i = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let sq = Square::from_index_unchecked(i);
            if chased || (restricted && series_at == Some(sq)) {
                let start = out.len();
                self.piece_moves(p, sq.pad(), out);
                let mut keep = start;
                for j in start..out.len() {
                    let a = out[j];
                    if let Action::Move(m) = a {
                        if !self.repetition_forbids(p, m) {
                            out[keep] = a;
                            keep += 1;
                        }
                    }
                }
                out.truncate(keep);
            } else {
                self.piece_moves(p, sq.pad(), out);
            }
        }
    }

    /// Whether player `p` has at least one legal move (cheap: stops at the
    /// first one found).
    pub(crate) fn has_move(&self, p: u8) -> bool {
        let enemy = PRESENT | ((p ^ 1) << 4);
        let mut bits = self.mobile[p as usize];
        let series_at = self.series[p as usize].at;
        let chased = self.chase.as_ref().is_some_and(|c| c.chaser == p);
        let mut buf = Vec::new();
        while bits != 0 {
            let i = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let sq = Square::from_index_unchecked(i);
            if chased || series_at == Some(sq) {
                buf.clear();
                self.piece_moves(p, sq.pad(), &mut buf);
                if buf.iter().any(|a| matches!(a, Action::Move(m) if !self.repetition_forbids(p, *m))) {
                    return true;
                }
                continue;
            }
            let from = sq.pad();
            for d in ORTHO {
                let c = self.board[(from as isize + d as isize) as usize];
                if c == EMPTY || c & (PRESENT | OWNER) == enemy {
                    return true;
                }
            }
            if self.diag {
                for d in [-PW - 1, -PW + 1, PW - 1, PW + 1] {
                    if self.board[(from as isize + d as isize) as usize] == EMPTY {
                        let long = self.board[from] & KIND == self.long_kind;
                        if !long || self.rules.czech_scout_steps_diagonally {
                            return true;
                        }
                    }
                }
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
                Action::Place(_) => None,
            })
            .collect()
    }

    pub(crate) fn legal_into(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.current_player() {
            None => {}
            Some(p) if !self.in_play() => {
                out.extend(
                    self.rules
                        .variant
                        .kinds()
                        .filter(|&k| self.place_legal(p as usize, k))
                        .map(Action::Place),
                );
            }
            Some(p) => self.moves_of(p, out),
        }
    }

    pub(crate) fn is_legal_action(&self, action: Action) -> bool {
        let Some(p) = self.current_player() else {
            return false;
        };
        match action {
            Action::Place(k) => !self.in_play() && self.rules.variant.count(k) > 0 && self.place_legal(p as usize, k),
            Action::Move(m) => {
                if !self.in_play() || self.board[m.from.pad()] & (PRESENT | OWNER) != PRESENT | (p << 4) {
                    return false;
                }
                if self.mobile[p as usize] & bit(m.from) == 0 {
                    return false;
                }
                let mut buf = Vec::with_capacity(24);
                self.piece_moves(p, m.from.pad(), &mut buf);
                buf.contains(&Action::Move(m)) && !self.repetition_forbids(p, m)
            }
        }
    }

    // ----- applying -------------------------------------------------------

    pub(crate) fn try_apply(&mut self, action: Action) -> Result<(), StrategoError> {
        if self.end.is_some() {
            return Err(StrategoError::GameOver);
        }
        if !self.is_legal_action(action) {
            return Err(StrategoError::IllegalAction(action.to_string()));
        }
        self.apply_legal(action);
        Ok(())
    }

    pub(crate) fn apply_legal(&mut self, action: Action) {
        let Some(p) = self.current_player() else {
            return;
        };
        match action {
            Action::Place(k) => self.place(p as usize, k),
            Action::Move(m) => self.make_move(p, m),
        }
    }

    fn remove(&mut self, owner: usize, sq: Square, kind: usize) {
        self.board[sq.pad()] = EMPTY;
        self.mobile[owner] &= !bit(sq);
        self.alive[owner][kind] -= 1;
        self.lost[owner][kind] += 1;
        self.hash ^= ZOBRIST[owner][sq.index()];
        if self.series[owner].at == Some(sq) {
            self.series[owner] = Series::default();
        }
    }

    fn make_move(&mut self, p: u8, m: Move) {
        let pi = p as usize;
        let q = pi ^ 1;
        let (from, to) = (m.from.pad(), m.to.pad());
        let cell = self.board[from];
        let target = self.board[to];
        let (_, dist) = direction(m.from, m.to);
        let mut moved = cell | MOVED;
        if dist > 1 {
            // Only the long mover goes further than one square.
            moved |= REVEALED;
        }
        let hash_before = self.hash;
        let mut flag_taken = false;
        if target == EMPTY {
            self.board[to] = moved;
            self.board[from] = EMPTY;
            self.mobile[pi] ^= bit(m.from) | bit(m.to);
            self.hash ^= ZOBRIST[pi][m.from.index()] ^ ZOBRIST[pi][m.to.index()];
            self.no_attack = self.no_attack.saturating_add(1);
            self.series[pi].record(m.from, m.to);
            if self.rules.more_squares_rule {
                self.update_chase(p, m, hash_before);
            }
        } else {
            let ak = (cell & KIND) as usize;
            let dk = (target & KIND) as usize;
            let fight = self.rules.variant.fight(Kind::ALL[ak], Kind::ALL[dk]);
            if self.rules.reveal_attacker {
                moved |= REVEALED;
            }
            self.no_attack = 0;
            self.chase = None;
            match fight {
                Fight::AttackerWins => {
                    flag_taken = dk == Kind::FLAG.index();
                    self.remove(q, m.to, dk);
                    self.board[to] = moved;
                    self.board[from] = EMPTY;
                    self.mobile[pi] ^= bit(m.from) | bit(m.to);
                    self.hash ^= ZOBRIST[pi][m.from.index()] ^ ZOBRIST[pi][m.to.index()];
                    self.series[pi].record(m.from, m.to);
                }
                Fight::DefenderWins => {
                    self.remove(pi, m.from, ak);
                    self.board[to] = target | REVEALED;
                }
                Fight::BothLeave => {
                    self.remove(pi, m.from, ak);
                    self.remove(q, m.to, dk);
                }
            }
        }
        self.last_move[pi] = Some(LastMove { from: m.from, to: m.to });
        self.moves += 1;
        self.to_move = q as u8;
        self.end = if flag_taken {
            Some(End {
                winner: Some(p),
                reason: EndReason::FlagCaptured,
            })
        } else {
            self.check_end(p, target != EMPTY)
        };
    }

    fn update_chase(&mut self, p: u8, m: Move, hash_before: u64) {
        let q = p ^ 1;
        let threat = self.last_move[q as usize].filter(|lm| {
            self.board[lm.to.pad()] & (PRESENT | OWNER) == PRESENT | (q << 4) && ortho_adjacent(lm.to, m.from)
        });
        if threat.is_some() {
            match &mut self.chase {
                Some(c) if c.chaser == q => {
                    c.evader = m.to;
                    c.positions.push(self.hash);
                }
                _ => {
                    self.chase = Some(Chase {
                        chaser: q,
                        evader: m.to,
                        positions: vec![hash_before, self.hash],
                    })
                }
            }
            return;
        }
        match &mut self.chase {
            Some(c) if c.chaser == p && ortho_adjacent(m.to, c.evader) => c.positions.push(self.hash),
            _ => self.chase = None,
        }
    }

    /// The end of the game after a move of `p`, or `None`.
    fn check_end(&self, p: u8, attacked: bool) -> Option<End> {
        let q = p ^ 1;
        if let Some(end) = self.check_stuck(q) {
            return Some(end);
        }
        let draw = |reason| Some(End { winner: None, reason });
        if attacked && self.rules.unreachable_flag_draw && !self.can_reach_flag(p) && !self.can_reach_flag(q) {
            return draw(EndReason::FlagUnreachable);
        }
        if self.rules.no_attack_limit.is_some_and(|l| self.no_attack >= l) {
            return draw(EndReason::NoAttackLimit);
        }
        if self.moves >= self.rules.max_moves {
            return draw(EndReason::MoveLimit);
        }
        None
    }

    /// The end when player `q`, to move, has no legal move.
    fn check_stuck(&self, q: u8) -> Option<End> {
        if self.has_move(q) {
            return None;
        }
        let both = !self.has_move(q ^ 1);
        let (winner, reason) = if !self.rules.no_move_loses {
            (None, EndReason::NoLegalMove)
        } else if both && self.rules.both_stuck_draw {
            (None, EndReason::BothStuck)
        } else {
            (Some(q ^ 1), EndReason::NoLegalMove)
        };
        Some(End { winner, reason })
    }

    /// Whether player `a` could ever capture the opponent's flag: some
    /// movable piece of `a` is connected, through squares that can ever be
    /// crossed by `a`, to a square orthogonally next to the flag. Squares
    /// that can never be crossed: lakes, both flags, the opponent's mines
    /// when `a` has no mine clearer left, `a`'s own mines when the opponent
    /// has none left (only an enemy clearer could remove them).
    pub(crate) fn can_reach_flag(&self, a: u8) -> bool {
        let (ai, bi) = (a as usize, a as usize ^ 1);
        if self.mobile[ai] == 0 {
            return false;
        }
        let Some(flag) = Square::all().find(|s| self.board[s.pad()] & (PRESENT | OWNER | KIND) == PRESENT | ((bi as u8) << 4) | Kind::FLAG.index() as u8)
        else {
            return false;
        };
        let a_miner = self.alive[ai][Kind::MINER.index()] > 0;
        let b_miner = self.alive[bi][Kind::MINER.index()] > 0;
        let blocked = |c: u8| -> bool {
            if c == WALL {
                return true;
            }
            if c & PRESENT == 0 {
                return false;
            }
            let kind = c & KIND;
            let owner = ((c & OWNER) >> 4) as usize;
            kind == Kind::FLAG.index() as u8
                || (kind == Kind::MINE.index() as u8 && ((owner == bi && !a_miner) || (owner == ai && !b_miner)))
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
            if c & (PRESENT | OWNER) == PRESENT | (a << 4) && (c & KIND) < Kind::MINE.index() as u8 {
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
