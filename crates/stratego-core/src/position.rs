//! Positions a user can build: the validated [`PositionBuilder`].

use game_traits::{PerPlayer, PlayerId};

use crate::action::Move;
use crate::cell::Cell;
use crate::chase::Chase;
use crate::error::StrategoError;
use crate::kind::{Kind, KindSet};
use crate::rules::Rules;
use crate::setup::SETUP_SQUARES;
use crate::shuttle::Shuttle;
use crate::square::Square;
use crate::state::{Piece, Stratego};
use crate::validate::StateRepr;
use game_traits::RuleSet;

/// A position to build, piece by piece, with the bookkeeping of the rules;
/// [`PositionBuilder::build`] checks it with the same validation as a
/// deserialised state (cozy-chess's `BoardBuilder`). It is also what the
/// one-line notation ([`Stratego::to_notation`]) writes and reads.
///
/// What is not given is derived: in play, each army's pieces missing from
/// the board are the ones it lost in fights; in the setup phase, the pieces
/// on the board are the placements so far (the first player's 40 before
/// any of the second player's, each army in setup-square order); the end
/// of the game is the one the position has reached (a captured flag, a
/// player to move without a legal move, …, in the order of the rules).
///
/// ```
/// use game_traits::{Game, PlayerId};
/// use stratego_core::{classic, Piece, PositionBuilder, Rules};
///
/// let sq = |s: &str| s.parse().unwrap();
/// let game = PositionBuilder::new(Rules::classic())
///     .piece(sq("a1"), Piece::new(PlayerId::P0, classic::FLAG))
///     .piece(sq("e4"), Piece::new(PlayerId::P0, classic::SCOUT).moved())
///     .piece(sq("j10"), Piece::new(PlayerId::P1, classic::FLAG))
///     .piece(sq("e9"), Piece::new(PlayerId::P1, classic::MARSHAL).revealed())
///     .to_move(PlayerId::P0)
///     .build()
///     .unwrap();
/// assert_eq!(game.to_notation(), "classic 9m/4l*5/10/10/2~~2~~2/2~~2~~2/4D>5/10/10/M9 P0 0 0 -,- -,- -");
/// assert!(game.legal_moves().len() > 10);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionBuilder {
    /// The rule set.
    rules: Rules,
    /// The piece of each square (index order).
    pieces: [Option<Piece>; 100],
    /// Whether the setup phase is still on.
    setup: bool,
    /// The player to move in play.
    to_move: PlayerId,
    /// Moves made since the setup.
    moves: u32,
    /// Moves in a row without an attack.
    no_attack: u16,
    /// Each player's running two-square shuttle.
    shuttles: PerPlayer<Option<Shuttle>>,
    /// The continuous chase in progress.
    chase: Option<Chase>,
    /// Each player's last move.
    last_move: PerPlayer<Option<Move>>,
    /// In the setup phase under a drawn first player: the draw is still to
    /// come.
    undrawn: bool,
    /// Each player's losses whose kind the opponent never saw, as (kinds
    /// ruled out, kind), sorted.
    hidden_lost: PerPlayer<Vec<(KindSet, Kind)>>,
}

impl PositionBuilder {
    /// An empty board in play under `rules`, the first player to move, no
    /// move made.
    pub fn new(rules: Rules) -> PositionBuilder {
        PositionBuilder {
            rules,
            pieces: [None; 100],
            setup: false,
            to_move: PlayerId::P0,
            moves: 0,
            no_attack: 0,
            shuttles: PerPlayer::default(),
            chase: None,
            last_move: PerPlayer::default(),
            undrawn: false,
            hidden_lost: PerPlayer::default(),
        }
    }

    /// Puts `piece` on `square` (replacing what stood there).
    pub fn piece(mut self, square: Square, piece: Piece) -> PositionBuilder {
        self.pieces[square.index()] = Some(piece);
        self
    }

    /// Empties `square`.
    pub fn clear(mut self, square: Square) -> PositionBuilder {
        self.pieces[square.index()] = None;
        self
    }

    /// Whether the setup phase is still on (default: no, the armies are in
    /// play). In the setup phase the pieces on the board are the
    /// placements made so far; the counters and histories stay empty.
    pub fn setup_phase(mut self, setup: bool) -> PositionBuilder {
        self.setup = setup;
        self
    }

    /// The player to move in play; in the setup phase, the player who will
    /// move first (the rules' seat unless they draw it).
    pub fn to_move(mut self, player: PlayerId) -> PositionBuilder {
        self.to_move = player;
        self
    }

    /// Moves made since both armies were set up.
    pub fn moves(mut self, moves: u32) -> PositionBuilder {
        self.moves = moves;
        self
    }

    /// Moves in a row without an attack (at most [`moves`](Self::moves)).
    pub fn no_attack(mut self, moves: u16) -> PositionBuilder {
        self.no_attack = moves;
        self
    }

    /// The running two-square shuttle of `player`: its piece must be his
    /// and have moved.
    pub fn shuttle(mut self, player: PlayerId, shuttle: Option<Shuttle>) -> PositionBuilder {
        self.shuttles[player] = shuttle;
        self
    }

    /// The last move of `player` (what the more-squares rule looks at).
    pub fn last_move(mut self, player: PlayerId, last: Option<Move>) -> PositionBuilder {
        self.last_move[player] = last;
        self
    }

    /// The continuous chase in progress (only with
    /// [`Rules::more_squares_rule`]); its last position must be this one.
    pub fn chase(mut self, chase: Option<Chase>) -> PositionBuilder {
        self.chase = chase;
        self
    }

    /// In the setup phase under
    /// [`FirstPlayer::Drawn`](crate::FirstPlayer::Drawn): whether the draw
    /// of who moves first is still to come (then nothing is placed yet).
    pub fn undrawn(mut self, undrawn: bool) -> PositionBuilder {
        self.undrawn = undrawn;
        self
    }

    /// Adds a piece of `player` lost in a fight whose kind the opponent
    /// never saw ("lost, kind not known"), with the movable kinds the
    /// opponent knows it was not. Only without
    /// [`Rules::reveal_attacker`]; the piece must be missing from the
    /// board.
    pub fn hidden_loss(
        mut self,
        player: PlayerId,
        kind: Kind,
        ruled_out: KindSet,
    ) -> PositionBuilder {
        let list = &mut self.hidden_lost[player];
        list.push((ruled_out, kind));
        list.sort_by_key(|&(set, k)| (set.bits(), k.index()));
        self
    }

    /// The rule set.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The piece on `square`.
    pub fn get(&self, square: Square) -> Option<Piece> {
        self.pieces[square.index()]
    }

    /// The validated state, or why the position is refused
    /// ([`StrategoError::InvalidPosition`], or
    /// [`StrategoError::InvalidRules`]).
    pub fn build(&self) -> Result<Stratego, StrategoError> {
        self.rules.validate()?;
        let variant = self.rules.variant;
        let mut cells = vec![0u8; 100];
        let mut alive = PerPlayer::<[u8; Kind::COUNT]>::default();
        let mut ruled_out = Vec::new();
        for sq in Square::all() {
            let Some(p) = self.pieces[sq.index()] else {
                cells[sq.index()] = if sq.is_lake() { Cell::WALL.bits() } else { 0 };
                continue;
            };
            if sq.is_lake() {
                return Err(StrategoError::InvalidPosition("a piece on a lake"));
            }
            let n = &mut alive[p.owner][p.kind.index()];
            *n = n.saturating_add(1);
            if *n > variant.count(p.kind) {
                return Err(StrategoError::InvalidPosition(
                    "more pieces of a kind than the army has",
                ));
            }
            cells[sq.index()] = Cell::piece(p.owner, p.kind)
                .with_flags(p.moved, p.revealed)
                .bits();
            if !p.ruled_out.is_empty() {
                ruled_out.push((sq, p.ruled_out));
            }
        }
        let mut lost = PerPlayer::<[u8; Kind::COUNT]>::default();
        let placed = if self.setup {
            alive.map(|a| a.iter().sum::<u8>())
        } else {
            for p in PlayerId::BOTH {
                for k in Kind::ALL {
                    lost[p][k.index()] = variant.count(k) - alive[p][k.index()];
                }
            }
            PerPlayer::new(SETUP_SQUARES as u8, SETUP_SQUARES as u8)
        };
        let drawn = self.rules.fixed_first_player().is_none();
        let (first, to_move) = match self.rules.fixed_first_player() {
            Some(fixed) if self.setup => (None, fixed),
            _ if drawn && self.setup && self.undrawn => (None, PlayerId::P0),
            _ if drawn && self.setup => (Some(self.to_move), self.to_move),
            _ => (None, self.to_move),
        };
        let repr = StateRepr {
            rules: self.rules,
            cells,
            placed,
            to_move,
            moves: self.moves,
            no_attack: self.no_attack,
            lost,
            series: self.shuttles.map(Option::unwrap_or_default),
            chase: self.chase.clone(),
            last_move: self.last_move,
            end: None,
            ruled_out,
            hidden_lost: self.hidden_lost.clone(),
            first,
        };
        Stratego::validate(repr, true).map_err(|e| match e {
            StrategoError::InvalidState(why) => StrategoError::InvalidPosition(why),
            other => other,
        })
    }
}

impl From<&Stratego> for PositionBuilder {
    /// The builder of a state's position: building it gives the state back.
    fn from(s: &Stratego) -> PositionBuilder {
        let mut b = PositionBuilder::new(s.rules);
        for (sq, piece) in s.pieces() {
            b.pieces[sq.index()] = Some(piece);
        }
        b.setup = !s.in_play();
        b.to_move = s.to_move;
        b.moves = s.moves;
        b.no_attack = s.no_attack;
        b.shuttles = s.shuttles.map(Shuttle::running);
        b.chase = s.chase.clone();
        b.last_move = s.last_move;
        b.undrawn = s.first.is_none();
        b.hidden_lost = s.hidden_lost.clone();
        b
    }
}

impl PositionBuilder {
    pub(crate) fn is_setup(&self) -> bool {
        self.setup
    }
    pub(crate) fn turn(&self) -> PlayerId {
        self.to_move
    }
    pub(crate) fn counters(&self) -> (u32, u16) {
        (self.moves, self.no_attack)
    }
    pub(crate) fn shuttles(&self) -> &PerPlayer<Option<Shuttle>> {
        &self.shuttles
    }
    pub(crate) fn last_moves(&self) -> &PerPlayer<Option<Move>> {
        &self.last_move
    }
    pub(crate) fn chase_ref(&self) -> Option<&Chase> {
        self.chase.as_ref()
    }
    pub(crate) fn is_undrawn(&self) -> bool {
        self.undrawn
    }
    pub(crate) fn hidden(&self) -> &PerPlayer<Vec<(KindSet, Kind)>> {
        &self.hidden_lost
    }
}
