//! What one player may know of the state: his observation (determinisation
//! from it is in `determinize`).

use game_traits::{PerPlayer, PlayerId};
use serde::{Deserialize, Serialize};

use crate::action::Move;
use crate::cell::Cell;
use crate::chase::Chase;
use crate::kind::{Kind, KindSet};
use crate::rules::Rules;
use crate::setup::SETUP_SQUARES;
use crate::shuttle::Shuttle;
use crate::square::Square;
use crate::state::{End, Stratego};

/// One square as a player sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ObsCell {
    /// Water.
    Lake,
    /// Nothing on it.
    Empty,
    /// One of the viewer's pieces.
    Own {
        /// Its kind.
        kind: Kind,
        /// Whether it has moved.
        moved: bool,
        /// Whether the opponent knows its kind.
        revealed: bool,
        /// What the opponent knows it is not, as in [`ObsCell::Foe`]: the
        /// viewer saw the same moves and fights.
        #[serde(default, skip_serializing_if = "nothing_ruled_out")]
        ruled_out: KindSet,
    },
    /// An opponent piece: its kind only if revealed in a fight or by a long
    /// move; `moved` tells it is no mine or flag, `ruled_out` what else its
    /// moves and fights showed it is not.
    Foe {
        /// The kind, when known.
        kind: Option<Kind>,
        /// Whether it has moved.
        moved: bool,
        /// Movable kinds an unrevealed piece is known not to be: the
        /// Průzkumník once it stepped diagonally without
        /// [`Rules::czech_scout_steps_diagonally`], every kind that does not
        /// beat a piece it took while [`Rules::reveal_attacker`] is off.
        /// Always empty under the default rules (and then left out of the
        /// serialised form).
        #[serde(default, skip_serializing_if = "nothing_ruled_out")]
        ruled_out: KindSet,
    },
}

/// A piece lost in a fight whose kind the opponent of its owner never saw
/// (a hidden attacker that lost, without [`Rules::reveal_attacker`]): "lost,
/// kind not known". Its owner knows the kind; both players know the kinds it
/// was not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HiddenLoss {
    /// The kind, known to the piece's owner only (`None` in the opponent's
    /// observation).
    pub kind: Option<Kind>,
    /// The movable kinds it is known not to have been: every kind that does
    /// not lose to the piece it attacked, and what its moves ruled out
    /// before.
    pub ruled_out: KindSet,
}

/// Everything player `viewer` may know: his own pieces, the opponent's
/// pieces as unknown except those revealed, which pieces have moved, the
/// pieces lost by each side, and the public bookkeeping of the rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// The rules.
    pub rules: Rules,
    /// The player who observes.
    pub viewer: PlayerId,
    /// The 100 squares in index order ([`Square::index`]).
    pub cells: Vec<ObsCell>,
    /// Pieces placed so far by each player in the setup phase.
    pub placed: PerPlayer<u8>,
    /// Player to move once play has begun.
    pub to_move: PlayerId,
    /// Moves made since the setup.
    pub moves: u32,
    /// Moves in a row without an attack.
    pub no_attack: u16,
    /// Pieces lost by each player whose kind both players know, per kind
    /// index.
    pub lost: PerPlayer<[u8; Kind::COUNT]>,
    /// Pieces lost by each player whose kind only he knows ("lost, kind
    /// not known"), sorted by (kinds ruled out, kind); always empty unless
    /// [`Rules::reveal_attacker`] is off.
    #[serde(default, skip_serializing_if = "no_hidden_losses")]
    pub hidden_lost: PerPlayer<Vec<HiddenLoss>>,
    /// Who moves first once play begins, `None` while it is still to be
    /// drawn (the opening chance event of
    /// [`FirstPlayer::Drawn`](crate::FirstPlayer::Drawn)).
    #[serde(default)]
    pub first: Option<PlayerId>,
    /// The running two-square shuttle of each player.
    #[serde(rename = "series", with = "crate::shuttle::pair")]
    pub shuttles: PerPlayer<Option<Shuttle>>,
    /// The continuous chase in progress, if any.
    pub chase: Option<Chase>,
    /// The last move of each player.
    pub last_move: PerPlayer<Option<Move>>,
    /// The end of the game, if reached.
    pub end: Option<End>,
}

impl Observation {
    /// Whether the setup phase is still on (some army is not complete).
    pub fn in_setup(&self) -> bool {
        self.placed
            .values()
            .any(|&n| usize::from(n) < SETUP_SQUARES)
    }

    /// The cell of `sq`.
    pub fn cell(&self, sq: Square) -> ObsCell {
        self.cells
            .get(sq.index())
            .copied()
            .unwrap_or(ObsCell::Empty)
    }
}

impl Stratego {
    /// The observation of player `viewer`.
    pub(crate) fn observe(&self, viewer: PlayerId) -> Observation {
        let mut obs = Observation {
            rules: self.rules,
            viewer,
            cells: Vec::with_capacity(100),
            placed: self.placed,
            to_move: self.to_move,
            moves: self.moves,
            no_attack: self.no_attack,
            lost: self.lost,
            hidden_lost: PerPlayer::new(Vec::new(), Vec::new()),
            first: self.first,
            shuttles: self.shuttles.map(Shuttle::running),
            chase: None,
            last_move: self.last_move,
            end: self.end,
        };
        self.observe_over(viewer, &mut obs);
        obs
    }

    /// The observation of player `viewer`, written over `obs` and reusing
    /// its lists (the batched environment's hot path).
    pub(crate) fn observe_over(&self, viewer: PlayerId, obs: &mut Observation) {
        obs.cells.clear();
        obs.cells.extend(Square::all().map(|sq| {
            let c = self.board[sq.pad()];
            if c == Cell::WALL {
                return ObsCell::Lake;
            }
            if !c.is_piece() {
                return ObsCell::Empty;
            }
            let ruled_out = self.ruled_out[sq.index()];
            if c.owner() == viewer {
                ObsCell::Own {
                    kind: c.kind(),
                    moved: c.moved(),
                    revealed: c.revealed(),
                    ruled_out,
                }
            } else {
                ObsCell::Foe {
                    kind: c.revealed().then_some(c.kind()),
                    moved: c.moved(),
                    ruled_out,
                }
            }
        }));
        let mut lost = self.lost;
        for p in PlayerId::BOTH {
            let list = &mut obs.hidden_lost[p];
            list.clear();
            list.extend(self.hidden_lost[p].iter().map(|&(ruled_out, kind)| {
                let n = &mut lost[p][kind.index()];
                *n = n.saturating_sub(1);
                HiddenLoss {
                    kind: (p == viewer).then_some(kind),
                    ruled_out,
                }
            }));
        }
        obs.rules = self.rules;
        obs.viewer = viewer;
        obs.placed = self.placed;
        obs.to_move = self.to_move;
        obs.moves = self.moves;
        obs.no_attack = self.no_attack;
        obs.lost = lost;
        obs.first = self.first;
        obs.shuttles = self.shuttles.map(Shuttle::running);
        obs.chase.clone_from(&self.chase);
        obs.last_move = self.last_move;
        obs.end = self.end;
    }
}

fn no_hidden_losses(lists: &PerPlayer<Vec<HiddenLoss>>) -> bool {
    lists.values().all(Vec::is_empty)
}

fn nothing_ruled_out(set: &KindSet) -> bool {
    set.is_empty()
}
