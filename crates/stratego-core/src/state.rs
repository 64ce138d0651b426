//! The full game state: the padded-mailbox board and the bookkeeping of
//! the rules, with move generation and move application.

use std::mem::MaybeUninit;

use serde::{Deserialize, Serialize};

use crate::action::{Action, Move};
use crate::error::StrategoError;
use crate::repetition::{direction, ortho_adjacent, Chase, Series, ZOBRIST};
use crate::rules::Rules;
use crate::setup::{SetupSquare, SETUP_SQUARES};
use crate::square::{Square, ORTHO, PADDED, PW};
use crate::variant::{Fight, Kind, KindSet};

// Cell encoding of the padded board: a piece is PRESENT | flags | owner | kind.
pub(crate) const PRESENT: u8 = 0x80;
pub(crate) const MOVED: u8 = 0x40;
pub(crate) const REVEALED: u8 = 0x20;
pub(crate) const OWNER: u8 = 0x10;
pub(crate) const KIND: u8 = 0x0F;
/// Off-board frame and lakes.
pub(crate) const WALL: u8 = 0x0F;
pub(crate) const EMPTY: u8 = 0;

/// Most moves one piece can have: 18 along its row and column, 4 diagonal
/// steps (a Czech Průzkumník), and room for the branch-free writes.
const MAX_PIECE_MOVES: usize = 24;
/// Most moves a position can have: at most 8 long movers with 22 moves
/// each and 25 other pieces with 8 steps each, plus write slack.
const MAX_MOVES: usize = 8 * 22 + 25 * 8 + MAX_PIECE_MOVES;

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
            if cell == EMPTY {
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

/// Mask of the 92 land squares.
const SQUARES: u128 = squares_mask();

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
    board: &[u8; PADDED],
    steps: &[(i8, bool); N],
    enemy: u8,
    from: Square,
    buf: &mut [S],
    mut n: usize,
) -> usize {
    let table = &TARGET[(enemy & OWNER) as usize >> 4];
    for &(d, attack) in steps {
        let t = (from.pad() as isize + d as isize) as u8 as usize;
        let ok = (table[board[t] as usize] >> (!attack as u8)) & 1;
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
    /// Bit `i` set where the player has any piece.
    pub(crate) occ: [u128; 2],
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
    /// Per square (index order), the kinds the opponent knows the
    /// unrevealed piece there is not, beyond what its `MOVED` flag says:
    /// only the options that hide a fight's winner or let a step tell a
    /// kind apart produce any (see [`Stratego::tracks_kinds`]).
    pub(crate) ruled_out: [KindSet; 100],
    /// Derived from the rules: whether `ruled_out` can ever be non-empty.
    pub(crate) tracks_kinds: bool,
}

#[inline(always)]
fn bit(sq: Square) -> u128 {
    sq.bit()
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
            occ: [0; 2],
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
            ruled_out: [KindSet::EMPTY; 100],
            tracks_kinds: Stratego::tracks_kinds(rules),
        })
    }

    /// Whether, under `rules`, the way a piece moves or fights can tell its
    /// opponent something about its kind that neither the `moved` flag nor
    /// a reveal records: a hidden attacker that won a fight
    /// (`reveal_attacker: false`), or a Czech diagonal step when the
    /// Průzkumník may not step diagonally.
    pub(crate) fn tracks_kinds(rules: &Rules) -> bool {
        !rules.reveal_attacker
            || (rules.diagonal_steps()
                && rules.long_mover().is_some()
                && !rules.czech_scout_steps_diagonally)
    }

    /// The kinds the opponent of its owner knows the piece on `sq` is not,
    /// from how it moved and fought, beyond "a piece that moved is no mine
    /// or flag"; empty for revealed pieces and empty squares.
    pub fn ruled_out(&self, sq: Square) -> KindSet {
        self.ruled_out[sq.index()]
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

    /// The continuous chase in progress (more-squares rule), if any.
    pub fn chase(&self) -> Option<&Chase> {
        self.chase.as_ref()
    }

    /// The last move of `player`, if any.
    pub fn last_move(&self, player: u8) -> Option<LastMove> {
        self.last_move[player as usize & 1]
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
        let Some(sq) = SetupSquare::from_index(n).and_then(|ss| ss.board_square(p)) else {
            return;
        };
        self.board[sq.pad()] = PRESENT | ((p as u8) << 4) | kind.index() as u8;
        self.alive[p][kind.index()] += 1;
        self.occ[p] |= bit(sq);
        if kind.is_mobile() {
            self.mobile[p] |= bit(sq);
        }
        self.hash ^= ZOBRIST[p][sq.pad()];
        self.placed[p] += 1;
        if self.in_play() {
            self.end = self.check_stuck(0);
        }
    }

    // ----- move generation ---------------------------------------------

    /// The moves of player `p`'s piece on padded cell `from` (geometry
    /// only, before the repetition rules), in ascending order.
    pub(crate) fn piece_moves(&self, p: u8, from: usize) -> PieceMoves {
        let mut list = PieceMoves {
            moves: [Action::Place(Kind::FLAG); MAX_PIECE_MOVES],
            len: 0,
        };
        list.len = self.write_piece_moves(p, from, &mut list.moves, 0);
        list
    }

    /// Writes the moves of the piece on `from` into `buf` from index `n`;
    /// returns the new count. Every slot up to the returned count is
    /// initialised (slots past it may be written too).
    #[inline(always)]
    fn write_piece_moves<S: Slot>(&self, p: u8, from: usize, buf: &mut [S], mut n: usize) -> usize {
        let cell = self.board[from];
        let kind = cell & KIND;
        let enemy = PRESENT | ((p ^ 1) << 4);
        let fsq = Square::from_pad(from);
        if kind == self.long_kind {
            // Emitted in ascending target order without sorting: the up ray
            // far to near, the up diagonals around its first square, the
            // left ray far to near, the right ray near to far, the down
            // diagonals around the first down square, the down ray.
            let ray = |d: isize| -> isize {
                let mut k = 1;
                while self.board[(from as isize + d * k) as u8 as usize] == EMPTY {
                    k += 1;
                }
                let end = self.board[(from as isize + d * k) as u8 as usize];
                let attack =
                    end & (PRESENT | OWNER) == enemy && (k == 1 || self.rules.long_move_attack);
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
            let diag_ok = |d: isize| diag && self.board[(f + d) as u8 as usize] == EMPTY;
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
    fn repetition_forbids(&self, p: u8, mv: Move) -> bool {
        if let Some(limit) = self.rules.two_square_limit {
            if self.series[p as usize].forbids(limit, mv.from, mv.to) {
                return true;
            }
        }
        match &self.chase {
            Some(c) if c.chaser == p && self.board[mv.to.pad()] == EMPTY => {
                let back = self.last_move[p as usize]
                    == Some(LastMove {
                        from: mv.to,
                        to: mv.from,
                    });
                ortho_adjacent(mv.to, c.evader)
                    && !back
                    && c.positions.contains(
                        &(self.hash
                            ^ ZOBRIST[p as usize][mv.from.pad()]
                            ^ ZOBRIST[p as usize][mv.to.pad()]),
                    )
            }
            _ => false,
        }
    }

    /// Appends every legal move of player `p`, sorted.
    pub(crate) fn moves_of(&self, p: u8, out: &mut Vec<Action>) {
        out.reserve(MAX_MOVES);
        let len = out.len();
        let buf = out.spare_capacity_mut();
        let mut n = 0;
        let mut bits = self.candidates(p);
        let series_at = self.series[p as usize].at;
        let restricted = self
            .rules
            .two_square_limit
            .is_some_and(|l| self.series[p as usize].count >= l);
        let chased = self.chase.as_ref().is_some_and(|c| c.chaser == p);
        // The one piece the two-square rule may restrict (0 = none, as the
        // padded cell 0 is never a square).
        let special = match series_at {
            Some(sq) if restricted => sq.pad(),
            _ => 0,
        };
        while bits != 0 {
            let sq = Square::from_bit(bits.trailing_zeros());
            bits &= bits - 1;
            let start = n;
            n = self.write_piece_moves(p, sq.pad(), buf, n);
            if chased || sq.pad() == special {
                let mut keep = start;
                for j in start..n {
                    // SAFETY: slots start..n were just initialised.
                    let a = unsafe { buf[j].assume_init() };
                    if let Action::Move(m) = a {
                        if !self.repetition_forbids(p, m) {
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
    fn candidates(&self, p: u8) -> u128 {
        let empty = SQUARES & !(self.occ[0] | self.occ[1]);
        let hit = empty | self.occ[(p ^ 1) as usize];
        let w = PW as u32;
        let mut any = (hit << w) | (hit << 1) | (hit >> 1) | (hit >> w);
        if self.diag {
            any |=
                (empty << (w + 1)) | (empty << (w - 1)) | (empty >> (w - 1)) | (empty >> (w + 1));
        }
        any & self.mobile[p as usize]
    }

    /// Whether player `p` has at least one legal move.
    pub(crate) fn has_move(&self, p: u8) -> bool {
        let cand = self.candidates(p);
        let chased = self.chase.as_ref().is_some_and(|c| c.chaser == p);
        let exact =
            !(self.diag && self.long_kind != u8::MAX && !self.rules.czech_scout_steps_diagonally);
        if !chased && exact {
            let special = self.series[p as usize].at.map_or(0, |sq| sq.bit());
            if cand & !special != 0 {
                return true;
            }
        }
        let mut bits = cand;
        while bits != 0 {
            let sq = Square::from_bit(bits.trailing_zeros());
            bits &= bits - 1;
            if self
                .piece_moves(p, sq.pad())
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
            Action::Place(k) => {
                !self.in_play()
                    && self.rules.variant.count(k) > 0
                    && self.place_legal(p as usize, k)
            }
            Action::Move(m) => {
                if !self.in_play()
                    || self.board[m.from.pad()] & (PRESENT | OWNER) != PRESENT | (p << 4)
                {
                    return false;
                }
                if self.mobile[p as usize] & bit(m.from) == 0 {
                    return false;
                }
                self.piece_moves(p, m.from.pad())
                    .as_slice()
                    .contains(&Action::Move(m))
                    && !self.repetition_forbids(p, m)
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
            Action::Place(k) if !self.in_play() => self.place(p as usize, k),
            // A cheap guard keeps an illegal unchecked move from touching
            // walls or foreign pieces: it is then ignored.
            Action::Move(m)
                if self.in_play()
                    && self.mobile[p as usize] & bit(m.from) != 0
                    && TARGET[(p ^ 1) as usize][self.board[m.to.pad()] as usize] & 1 != 0 =>
            {
                self.make_move(p, m)
            }
            _ => {}
        }
    }

    fn remove(&mut self, owner: usize, sq: Square, kind: usize) {
        self.board[sq.pad()] = EMPTY;
        self.mobile[owner] &= !bit(sq);
        self.occ[owner] &= !bit(sq);
        // Saturating: `apply_unchecked` of an illegal action must stay
        // panic-free.
        self.alive[owner][kind] = self.alive[owner][kind].saturating_sub(1);
        self.lost[owner][kind] = self.lost[owner][kind].saturating_add(1);
        self.hash ^= ZOBRIST[owner][sq.pad()];
        self.ruled_out[sq.index()] = KindSet::EMPTY;
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
        let (dir, dist) = direction(m.from, m.to);
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
            self.occ[pi] ^= bit(m.from) | bit(m.to);
            self.hash ^= ZOBRIST[pi][m.from.pad()] ^ ZOBRIST[pi][m.to.pad()];
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
                    self.occ[pi] ^= bit(m.from) | bit(m.to);
                    self.hash ^= ZOBRIST[pi][m.from.pad()] ^ ZOBRIST[pi][m.to.pad()];
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
            if fight != Fight::AttackerWins {
                // A move of another piece ends any series, even when that
                // piece left the board.
                self.series[pi] = Series::default();
            }
        }
        if self.tracks_kinds {
            self.carry_knowledge(m, dir, target);
        }
        self.last_move[pi] = Some(LastMove {
            from: m.from,
            to: m.to,
        });
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

    /// Moves what the opponent knows about the piece of move `m` (already
    /// applied; `target` was the cell attacked, or empty) along with it,
    /// adding what the move told him.
    fn carry_knowledge(&mut self, m: Move, dir: i8, target: u8) {
        let mut known = std::mem::take(&mut self.ruled_out[m.from.index()]);
        let mover = self.board[m.to.pad()];
        if mover & (PRESENT | REVEALED) != PRESENT {
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
        if target != EMPTY {
            let defender = Kind::new(target & KIND).unwrap_or(Kind::FLAG);
            let winners = self.rules.variant.winners_against(defender);
            known = known.or(KindSet::MOBILE.minus(winners));
        }
        let variant = KindSet::of_variant(self.rules.variant);
        self.ruled_out[m.to.index()] = known.and(variant);
    }

    fn update_chase(&mut self, p: u8, m: Move, hash_before: u64) {
        let q = p ^ 1;
        let threat = self.last_move[q as usize].filter(|lm| {
            self.board[lm.to.pad()] & (PRESENT | OWNER) == PRESENT | (q << 4)
                && ortho_adjacent(lm.to, m.from)
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
            Some(c) if c.chaser == p && ortho_adjacent(m.to, c.evader) => {
                c.positions.push(self.hash)
            }
            _ => self.chase = None,
        }
    }

    /// The end of the game after a move of `p`, or `None`.
    fn check_end(&self, p: u8, attacked: bool) -> Option<End> {
        let q = p ^ 1;
        if let Some(end) = self.check_stuck(q) {
            return Some(end);
        }
        let draw = |reason| {
            Some(End {
                winner: None,
                reason,
            })
        };
        if attacked {
            if let Some(end) = self.check_unreachable() {
                return Some(end);
            }
        }
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

    /// The end when player `q`, to move, has no legal move.
    pub(crate) fn check_stuck(&self, q: u8) -> Option<End> {
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

    /// The Czech draw when neither side can ever capture the other's flag.
    pub(crate) fn check_unreachable(&self) -> Option<End> {
        (self.rules.unreachable_flag_draw && !self.can_reach_flag(0) && !self.can_reach_flag(1))
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
    pub(crate) fn can_reach_flag(&self, a: u8) -> bool {
        let (ai, bi) = (a as usize, a as usize ^ 1);
        if self.mobile[ai] == 0 {
            return false;
        }
        let Some(flag) = Square::all().find(|s| {
            self.board[s.pad()] & (PRESENT | OWNER | KIND)
                == PRESENT | ((bi as u8) << 4) | Kind::FLAG.index() as u8
        }) else {
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
                || (kind == Kind::MINE.index() as u8
                    && ((owner == bi && !a_miner) || (owner == ai && !b_miner)))
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
            if c & (PRESENT | OWNER) == PRESENT | (a << 4) && (c & KIND) < Kind::MINE.index() as u8
            {
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
