//! The full game state, its fields and its accessors.

use game_traits::{PerPlayer, PlayerId};
use serde::{Deserialize, Serialize};

use crate::action::Move;
use crate::cell::Cell;
use crate::chase::Chase;
use crate::error::StrategoError;
use crate::kind::{Kind, KindSet};
use crate::rules::Rules;
use crate::setup::{Setup, SetupSquare, SETUP_SQUARES};
use crate::shuttle::Shuttle;
use crate::square::{Square, PADDED};

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
    pub winner: Option<PlayerId>,
    /// Why the game ended.
    pub reason: EndReason,
}

/// One piece on the board with everything the rules keep about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub owner: PlayerId,
    /// Its kind (by the rule set's names: [`classic`](crate::classic),
    /// [`czech`](crate::czech), [`srazhenie`](crate::srazhenie)).
    pub kind: Kind,
    /// Whether it has moved (so its opponent knows it is no mine or flag).
    pub moved: bool,
    /// Whether its opponent knows its kind (a fight or a long move showed
    /// it).
    pub revealed: bool,
    /// The movable kinds its opponent knows it is not, beyond what
    /// `moved` says (only under the options that hide a fight's winner or
    /// tell a diagonal step apart; see [`Stratego::ruled_out`]).
    pub ruled_out: KindSet,
}

impl Piece {
    /// A piece of `owner` that has not moved and is not revealed.
    pub const fn new(owner: PlayerId, kind: Kind) -> Piece {
        Piece {
            owner,
            kind,
            moved: false,
            revealed: false,
            ruled_out: KindSet::EMPTY,
        }
    }

    /// The same piece, marked as moved.
    pub const fn moved(mut self) -> Piece {
        self.moved = true;
        self
    }

    /// The same piece, marked as known to its opponent.
    pub const fn revealed(mut self) -> Piece {
        self.revealed = true;
        self
    }
}

/// A Stratego game in progress: the true state with every piece known.
/// Players see it only through [`Observation`](crate::Observation)s.
///
/// Build one with [`Game::new`](game_traits::Game::new) (the setup phase
/// first), [`Stratego::new_with_setups`] (straight to play), the
/// [`PositionBuilder`](crate::PositionBuilder) or
/// [`Stratego::from_notation`]; every way in, deserialisation included,
/// goes through the same validation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stratego {
    /// The rule set and its options.
    pub(crate) rules: Rules,
    /// The 10x10 board in a frame of wall cells (12x12, padded to 256
    /// cells so that any `u8` index is in bounds): indexed by
    /// [`Square::pad`].
    pub(crate) board: [Cell; PADDED],
    /// Per player, bit `i` set where he has a movable piece on the square
    /// of mask bit `i` ([`Square::bit`]).
    pub(crate) mobile: PerPlayer<u128>,
    /// Per player, bit `i` set where he has any piece.
    pub(crate) occ: PerPlayer<u128>,
    /// Per player, bit `i` set where he has a long mover
    /// ([`Rules::long_mover`]): the sampler slides them all at once on
    /// masks.
    pub(crate) long: PerPlayer<u128>,
    /// Pieces on the board per player and kind index.
    pub(crate) alive: PerPlayer<[u8; Kind::COUNT]>,
    /// Pieces lost in fights per player and kind index (public). In play
    /// always the army's count minus `alive`.
    pub(crate) lost: PerPlayer<[u8; Kind::COUNT]>,
    /// Pieces placed so far in the setup phase, 0..=40 per player; the
    /// first player places all 40 before the second begins.
    pub(crate) placed: PerPlayer<u8>,
    /// The player to move once both armies are set up (during the setup
    /// phase, the one who will move first, `P0` before the draw).
    pub(crate) to_move: PlayerId,
    /// Moves made since both armies were set up.
    pub(crate) moves: u32,
    /// Moves in a row without an attack.
    pub(crate) no_attack: u16,
    /// Each player's running two-square shuttle (the zero value when
    /// none: see [`Shuttle::running`]).
    pub(crate) shuttles: PerPlayer<Shuttle>,
    /// The continuous chase in progress (only with
    /// [`Rules::more_squares_rule`]).
    pub(crate) chase: Option<Chase>,
    /// Each player's last move, for the more-squares rule.
    pub(crate) last_move: PerPlayer<Option<Move>>,
    /// Hash of which player occupies which square (public), kept up to
    /// date move by move for the more-squares rule.
    pub(crate) hash: u64,
    /// The end of the game, once reached.
    pub(crate) end: Option<End>,
    /// Derived from the rules: the kind index of the long mover, or
    /// `u8::MAX` when there is none.
    pub(crate) long_kind: u8,
    /// Derived from the rules: whether pieces step diagonally (Czech).
    pub(crate) diag: bool,
    /// Per square (index order), the kinds the opponent knows the
    /// unrevealed piece there is not, beyond what its moved flag says:
    /// only the options that hide a fight's winner or let a step tell a
    /// kind apart produce any (see [`Stratego::tracks_kinds`]).
    pub(crate) ruled_out: [KindSet; 100],
    /// Derived from the rules: whether `ruled_out` can ever be non-empty.
    pub(crate) tracks_kinds: bool,
    /// The player who moves first once play begins; `None` only while the
    /// draw of [`FirstPlayer::Drawn`](crate::FirstPlayer::Drawn) is still to
    /// come (the game's opening chance event).
    pub(crate) first: Option<PlayerId>,
    /// Per player, his pieces lost in fights whose kind his opponent never
    /// saw (a hidden attacker that lost, without
    /// [`Rules::reveal_attacker`]): the kind and the kinds the opponent
    /// knows it was not, sorted by (set, kind) so that equal knowledge is
    /// one list. They are also counted in `lost`.
    pub(crate) hidden_lost: PerPlayer<Vec<(KindSet, Kind)>>,
}

impl Stratego {
    /// The empty board of a new game under `rules` (already validated):
    /// the setup phase begins with the first player.
    pub(crate) fn start(rules: &Rules) -> Stratego {
        let mut board = [Cell::WALL; PADDED];
        for sq in Square::all().filter(|s| !s.is_lake()) {
            board[sq.pad()] = Cell::EMPTY;
        }
        let first = rules.fixed_first_player();
        Stratego {
            rules: *rules,
            board,
            mobile: PerPlayer::default(),
            occ: PerPlayer::default(),
            long: PerPlayer::default(),
            alive: PerPlayer::default(),
            lost: PerPlayer::default(),
            placed: PerPlayer::default(),
            to_move: first.unwrap_or(PlayerId::P0),
            moves: 0,
            no_attack: 0,
            shuttles: PerPlayer::default(),
            chase: None,
            last_move: PerPlayer::default(),
            hash: 0,
            end: None,
            long_kind: rules.long_mover().map_or(u8::MAX, |k| k.index() as u8),
            diag: rules.diagonal_steps(),
            ruled_out: [KindSet::EMPTY; 100],
            tracks_kinds: Stratego::tracks_kinds(rules),
            first,
            hidden_lost: PerPlayer::default(),
        }
    }

    /// A game whose setup phase has been played with these two setups
    /// (first player's, second player's): 80 [`Action::Place`]s, so a
    /// record of the game still starts from [`Game::new`]. Where the rules
    /// draw who moves first, the draw comes out as the first seat: see
    /// [`Stratego::new_with_setups_drawn`] for the other outcome.
    ///
    /// [`Action::Place`]: crate::Action::Place
    /// [`Game::new`]: game_traits::Game::new
    pub fn new_with_setups(
        rules: &Rules,
        first: &Setup,
        second: &Setup,
    ) -> Result<Stratego, StrategoError> {
        Stratego::new_with_setups_drawn(rules, PlayerId::P0, first, second)
    }

    /// [`Stratego::new_with_setups`], with `starter` as the outcome of the
    /// opening draw when the rules draw who moves first
    /// ([`FirstPlayer::Drawn`](crate::FirstPlayer::Drawn); ignored
    /// otherwise).
    pub fn new_with_setups_drawn(
        rules: &Rules,
        starter: PlayerId,
        first: &Setup,
        second: &Setup,
    ) -> Result<Stratego, StrategoError> {
        use game_traits::Game;
        let mut game = Stratego::new(rules)?;
        if game.awaits_draw() {
            game.apply(crate::Action::Start(starter))?;
        }
        for setup in [first, second] {
            if setup.variant() != rules.variant {
                return Err(StrategoError::InvalidSetup("a setup of another rule set"));
            }
            // A setup's counts are its rule set's by construction, so
            // every placement is legal: placed without the check of
            // `apply` (the same state as through it).
            for &k in setup.kinds() {
                match game.current_player() {
                    Some(p) if !game.in_play() => game.place(p, k),
                    _ => return Err(StrategoError::InvalidSetup("a setup past the setup phase")),
                }
            }
        }
        Ok(game)
    }

    /// Whether, under `rules`, the way a piece moves or fights can tell its
    /// opponent something about its kind that neither the moved flag nor
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

    /// Whether both armies are set up.
    pub fn in_play(&self) -> bool {
        self.placed[PlayerId::P1] as usize == SETUP_SQUARES
    }

    /// The player who decides now, `None` once the game is over or at the
    /// opening draw of who moves first.
    pub fn current_player(&self) -> Option<PlayerId> {
        if self.end.is_some() || self.first.is_none() {
            None
        } else if self.in_play() {
            // The first player places all his pieces before the second
            // begins: the second done, both are.
            Some(self.to_move)
        } else if (self.placed[PlayerId::P0] as usize) < SETUP_SQUARES {
            Some(PlayerId::P0)
        } else {
            Some(PlayerId::P1)
        }
    }

    /// The player to move once both armies are set up (during the setup
    /// phase, the one who will move first).
    pub fn to_move(&self) -> PlayerId {
        self.to_move
    }

    /// Whether the game waits for its opening chance event, the draw of
    /// who moves first ([`FirstPlayer::Drawn`](crate::FirstPlayer::Drawn)).
    pub fn awaits_draw(&self) -> bool {
        self.first.is_none() && self.end.is_none()
    }

    /// The player who moves first once play begins, `None` while it is
    /// still to be drawn.
    pub fn first_player(&self) -> Option<PlayerId> {
        self.first
    }

    /// The pieces of `player` lost in fights whose kind his opponent never
    /// saw (a hidden attacker that lost): each kind with the kinds the
    /// opponent knows it was not. They are counted in
    /// [`Stratego::lost`] too.
    pub fn hidden_losses(&self, player: PlayerId) -> impl Iterator<Item = (Kind, KindSet)> + '_ {
        self.hidden_lost[player].iter().map(|&(set, k)| (k, set))
    }

    /// The end of the game, if reached.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// The piece on `sq`, with its flags.
    pub fn piece(&self, sq: Square) -> Option<Piece> {
        let c = self.board[sq.pad()];
        c.is_piece().then(|| Piece {
            owner: c.owner(),
            kind: c.kind(),
            moved: c.moved(),
            revealed: c.revealed(),
            ruled_out: self.ruled_out[sq.index()],
        })
    }

    /// Every piece on the board with its square, in square index order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| Some((sq, self.piece(sq)?)))
    }

    /// Pieces placed so far by `player` in the setup phase (0..=40).
    pub fn placed(&self, player: PlayerId) -> u8 {
        self.placed[player]
    }

    /// Number of moves made since both armies were set up.
    pub fn moves_played(&self) -> u32 {
        self.moves
    }

    /// Moves in a row without an attack.
    pub fn moves_without_attack(&self) -> u16 {
        self.no_attack
    }

    /// The running two-square shuttle of `player`, if any.
    pub fn shuttle(&self, player: PlayerId) -> Option<Shuttle> {
        self.shuttles[player].running()
    }

    /// The continuous chase in progress (more-squares rule), if any.
    pub fn chase(&self) -> Option<&Chase> {
        self.chase.as_ref()
    }

    /// The last move of `player`, if any.
    pub fn last_move(&self, player: PlayerId) -> Option<Move> {
        self.last_move[player]
    }

    /// Pieces of `player` lost in fights, per kind index (all of them,
    /// those whose kind the opponent never saw included).
    pub fn lost(&self, player: PlayerId) -> [u8; Kind::COUNT] {
        self.lost[player]
    }

    /// The hash of which player occupies which square, as a chase
    /// ([`Chase::positions`]) records positions.
    pub fn position_hash(&self) -> u64 {
        self.hash
    }

    /// The setup of `player` as placed, once complete and before the first
    /// move.
    pub fn setup_of(&self, player: PlayerId) -> Option<Setup> {
        if (self.placed[player] as usize) < SETUP_SQUARES || self.moves > 0 {
            return None;
        }
        let mut kinds = [Kind::FLAG; SETUP_SQUARES];
        for (i, k) in kinds.iter_mut().enumerate() {
            *k = self
                .piece(SetupSquare::from_index(i)?.board_square(player)?)?
                .kind;
        }
        Setup::new(self.rules.variant, kinds).ok()
    }
}
