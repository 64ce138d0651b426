//! One player's observation on the wire: the board as he sees it, what is
//! known of every piece, the phase, and the public bookkeeping of the
//! two-square and more-squares rules.

use game_traits::schemars::JsonSchema;
use game_traits::PlayerId;
use serde::Serialize;

use super::rules::WireRules;
use super::{kind_code, piece_name, piece_rank};
use crate::action::Move;
use crate::chase::Chase;
use crate::kind::{Kind, KindSet};
use crate::observation::{HiddenLoss, ObsCell, Observation};
use crate::setup::SetupSquare;
use crate::shuttle::Shuttle;
use crate::square::Square;
use crate::state::{End, EndReason};
use crate::variant::Variant;

/// One player's observation of Stratego on the wire: everything
/// [`Observation`] holds, per-player data as arrays indexed by seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct StrategoObservationStruct {
    /// Whose observation this is.
    pub viewer: PlayerId,
    /// The rules in force.
    pub rules: WireRules,
    /// Where the game stands and who decides.
    pub phase: WirePhase,
    /// Who moves first once play begins; `null` while it is still to be
    /// drawn.
    pub first: Option<PlayerId>,
    /// Pieces placed so far by each seat (40 once its setup is done).
    pub placed: [u8; 2],
    /// The seat to move once play has begun, as the rules keep it (in
    /// the setup phase the one who moves first, at the end the one who
    /// would have moved next).
    pub to_move: PlayerId,
    /// Moves made since the setup.
    pub moves: u32,
    /// Moves in a row without an attack.
    pub no_attack: u16,
    /// Each army's pieces: every kind of the rule set, strongest first,
    /// with how many of it an army holds.
    pub army: Vec<WirePieces>,
    /// The viewer's pieces still to be placed, by kind (empty once his
    /// setup is done).
    pub to_place: Vec<WirePieces>,
    /// Every piece on the board, in square index order (rank 10 first,
    /// each rank from file `a`).
    pub board: Vec<WirePiece>,
    /// The eight water squares.
    pub lakes: Vec<String>,
    /// Pieces lost by each seat whose kind both players know, by kind.
    pub lost: [Vec<WirePieces>; 2],
    /// Pieces lost by each seat whose kind only their owner knows (a
    /// hidden attacker that lost); always empty while the attacker is
    /// revealed.
    pub hidden_lost: [Vec<WireHiddenLoss>; 2],
    /// The last move of each seat.
    pub last_move: [Option<WireMove>; 2],
    /// The running two-square shuttle of each seat.
    pub shuttles: [Option<WireShuttle>; 2],
    /// The continuous chase in progress (more-squares rule), if any.
    pub chase: Option<WireChase>,
}

/// Where the game stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum WirePhase {
    /// The opening chance event, drawing who moves first, is due.
    Draw,
    /// `player` places his next piece on `square`.
    Setup {
        /// The seat setting up (the first seat, then the second).
        player: PlayerId,
        /// The square his next piece goes to.
        square: String,
    },
    /// Both armies are set up; `to_move` moves.
    Play {
        /// The seat to move.
        to_move: PlayerId,
    },
    /// The game is over.
    Over {
        /// The winner, `null` for a draw.
        winner: Option<PlayerId>,
        /// Why it ended.
        reason: WireEndReason,
    },
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
#[serde(rename_all = "snake_case")]
pub enum WireEndReason {
    /// A flag was captured.
    FlagCaptured,
    /// The player to move had no legal move.
    NoLegalMove,
    /// Neither player had a legal move.
    BothStuck,
    /// Neither side can ever capture the other's flag.
    FlagUnreachable,
    /// Too many moves in a row without an attack.
    NoAttackLimit,
    /// The hard bound on the game length was reached.
    MoveLimit,
}

/// Pieces of one kind, and how many.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct WirePieces {
    /// The kind's name in the rule set (`"Scout"`).
    pub piece: String,
    /// The kind's code (`"R8"`), as a placement names it.
    pub kind: String,
    /// The rank, where the rule set numbers ranks.
    pub rank: Option<u8>,
    /// How many.
    pub count: u8,
}

/// A piece on the board as the viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct WirePiece {
    /// Where it stands.
    pub square: String,
    /// Whose it is.
    pub owner: PlayerId,
    /// Its name in the rule set: always for the viewer's own pieces, for
    /// the opponent's only once revealed.
    pub piece: Option<String>,
    /// Its rank, when `piece` is given and the rule set numbers ranks.
    pub rank: Option<u8>,
    /// Whether it has moved (so it is no mine or flag).
    pub moved: bool,
    /// Whether its kind is known to the opponent of its owner (for an
    /// opponent piece: whether the viewer knows it).
    pub revealed: bool,
    /// The movable kinds its owner's opponent knows it is not, beyond what
    /// `moved` says (empty under the default rules).
    pub ruled_out: Vec<String>,
}

/// A piece lost in a fight whose kind its owner's opponent never saw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct WireHiddenLoss {
    /// Its name, for its owner only.
    pub piece: Option<String>,
    /// Its rank, for its owner only and where the rule set numbers ranks.
    pub rank: Option<u8>,
    /// The movable kinds it is known not to have been.
    pub ruled_out: Vec<String>,
}

/// A move from one square to another.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct WireMove {
    /// Start square.
    pub from: String,
    /// Destination square.
    pub to: String,
}

/// A running two-square shuttle: one piece moving back and forth on the
/// line of its first move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct WireShuttle {
    /// Start square of the first move.
    pub origin: String,
    /// Destination of the first move: the far end of the line.
    pub end: String,
    /// Where the shuttling piece stands now.
    pub square: String,
    /// Moves of the shuttle so far (at least 1).
    pub moves: u8,
    /// Whether the latest move went back towards `origin`.
    pub last_move_back: bool,
}

/// A continuous chase in progress (the more-squares rule).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct WireChase {
    /// The chasing seat.
    pub chaser: PlayerId,
    /// The square of the piece that evaded last.
    pub evader: String,
    /// The positions of the chase so far, oldest first, the last one the
    /// current position: each a hash of which seat occupies which square
    /// (`Stratego::position_hash`), as 16 hexadecimal digits (a 64-bit
    /// number is no exact JSON number).
    pub positions: Vec<String>,
}

/// The wire form of `o`.
pub(super) fn of(o: &Observation) -> StrategoObservationStruct {
    let variant = o.rules.variant;
    let squares = || {
        o.cells
            .iter()
            .enumerate()
            .filter_map(|(i, &c)| Some((Square::new(u8::try_from(i).ok()?)?, c)))
    };
    StrategoObservationStruct {
        viewer: o.viewer,
        rules: WireRules::of(&o.rules),
        phase: phase(o),
        first: o.first,
        placed: PlayerId::BOTH.map(|p| o.placed[p]),
        to_move: o.to_move,
        moves: o.moves,
        no_attack: o.no_attack,
        army: pieces(variant, |k| variant.count(k)),
        to_place: pieces(variant, |k| to_place(o, k)),
        board: squares()
            .filter_map(|(sq, c)| piece(variant, o.viewer, sq, c))
            .collect(),
        lakes: squares()
            .filter(|&(_, c)| c == ObsCell::Lake)
            .map(|(sq, _)| sq.to_string())
            .collect(),
        lost: PlayerId::BOTH.map(|p| pieces(variant, |k| o.lost[p][k.index()])),
        hidden_lost: PlayerId::BOTH.map(|p| {
            o.hidden_lost[p]
                .iter()
                .map(|h| hidden_loss(variant, h))
                .collect()
        }),
        last_move: PlayerId::BOTH.map(|p| o.last_move[p].map(wire_move)),
        shuttles: PlayerId::BOTH.map(|p| o.shuttles[p].as_ref().map(shuttle)),
        chase: o.chase.as_ref().map(chase),
    }
}

fn phase(o: &Observation) -> WirePhase {
    if let Some(End { winner, reason }) = o.end {
        return WirePhase::Over {
            winner,
            reason: end_reason(reason),
        };
    }
    if o.first.is_none() {
        return WirePhase::Draw;
    }
    // The first seat places his whole army before the second begins.
    let next = PlayerId::BOTH.into_iter().find_map(|p| {
        let square = SetupSquare::from_index(usize::from(o.placed[p]))?.board_square(p)?;
        Some((p, square))
    });
    match next {
        Some((player, square)) => WirePhase::Setup {
            player,
            square: square.to_string(),
        },
        None => WirePhase::Play { to_move: o.to_move },
    }
}

pub(crate) fn end_reason(reason: EndReason) -> WireEndReason {
    match reason {
        EndReason::FlagCaptured => WireEndReason::FlagCaptured,
        EndReason::NoLegalMove => WireEndReason::NoLegalMove,
        EndReason::BothStuck => WireEndReason::BothStuck,
        EndReason::FlagUnreachable => WireEndReason::FlagUnreachable,
        EndReason::NoAttackLimit => WireEndReason::NoAttackLimit,
        EndReason::MoveLimit => WireEndReason::MoveLimit,
    }
}

/// The kinds of `variant` with a nonzero `count`, strongest first.
fn pieces(variant: Variant, count: impl Fn(Kind) -> u8) -> Vec<WirePieces> {
    variant
        .kinds()
        .filter_map(|k| {
            let count = count(k);
            (count > 0).then(|| WirePieces {
                piece: piece_name(variant, k).to_owned(),
                kind: kind_code(k).to_owned(),
                rank: piece_rank(variant, k),
                count,
            })
        })
        .collect()
}

/// How many pieces of `kind` the viewer has neither placed nor lost: his
/// setup's remainder (nothing once play has begun).
fn to_place(o: &Observation, kind: Kind) -> u8 {
    let viewer = o.viewer;
    let on_board = o
        .cells
        .iter()
        .filter(|c| matches!(c, ObsCell::Own { kind: k, .. } if *k == kind))
        .count();
    let lost_unseen = o.hidden_lost[viewer]
        .iter()
        .filter(|h| h.kind == Some(kind))
        .count();
    let gone = u8::try_from(on_board + lost_unseen).unwrap_or(u8::MAX);
    o.rules
        .variant
        .count(kind)
        .saturating_sub(o.lost[viewer][kind.index()])
        .saturating_sub(gone)
}

fn piece(variant: Variant, viewer: PlayerId, sq: Square, cell: ObsCell) -> Option<WirePiece> {
    let (owner, kind, moved, revealed, ruled_out) = match cell {
        ObsCell::Lake | ObsCell::Empty => return None,
        ObsCell::Own {
            kind,
            moved,
            revealed,
            ruled_out,
        } => (viewer, Some(kind), moved, revealed, ruled_out),
        ObsCell::Foe {
            kind,
            moved,
            ruled_out,
        } => (viewer.other(), kind, moved, kind.is_some(), ruled_out),
    };
    Some(WirePiece {
        square: sq.to_string(),
        owner,
        piece: kind.map(|k| piece_name(variant, k).to_owned()),
        rank: kind.and_then(|k| piece_rank(variant, k)),
        moved,
        revealed,
        ruled_out: names(variant, ruled_out),
    })
}

fn names(variant: Variant, set: KindSet) -> Vec<String> {
    set.iter()
        .map(|k| piece_name(variant, k).to_owned())
        .collect()
}

fn hidden_loss(variant: Variant, h: &HiddenLoss) -> WireHiddenLoss {
    WireHiddenLoss {
        piece: h.kind.map(|k| piece_name(variant, k).to_owned()),
        rank: h.kind.and_then(|k| piece_rank(variant, k)),
        ruled_out: names(variant, h.ruled_out),
    }
}

fn wire_move(m: Move) -> WireMove {
    WireMove {
        from: m.from.to_string(),
        to: m.to.to_string(),
    }
}

fn shuttle(s: &Shuttle) -> WireShuttle {
    WireShuttle {
        origin: s.origin().to_string(),
        end: s.end().to_string(),
        square: s.piece().to_string(),
        moves: s.moves(),
        last_move_back: s.last_move_back(),
    }
}

fn chase(c: &Chase) -> WireChase {
    WireChase {
        chaser: c.chaser(),
        evader: c.evader().to_string(),
        positions: c.positions().iter().map(|h| format!("{h:016x}")).collect(),
    }
}
