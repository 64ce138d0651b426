//! Stratego's events ([`game_traits::Event`]): a placement, the opening
//! draw, a move, a fight with both pieces as the viewer knows them and who
//! fell, and the end of the game with its reason; worded once, here.

use game_traits::schemars::JsonSchema;
use game_traits::{who, Event, PlayerId};
use serde::Serialize;

use super::{piece_name, piece_rank, WireEndReason};
use crate::kind::Kind;
use crate::variant::Variant;

/// A piece named in an event: its name in the rule set, and its rank
/// apart where the rule set numbers ranks (as in [`super::WirePiece`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct EventPiece {
    /// Its name in the rule set (`"Scout"`).
    pub piece: String,
    /// Its rank, where the rule set numbers ranks.
    pub rank: Option<u8>,
}

impl EventPiece {
    /// `kind` as `variant` names it.
    pub(crate) fn of(variant: Variant, kind: Kind) -> EventPiece {
        EventPiece {
            piece: piece_name(variant, kind).to_owned(),
            rank: piece_rank(variant, kind),
        }
    }

    /// Its name with the rank in brackets, as the board's legend writes it
    /// (`Major (7)`).
    fn name(&self) -> String {
        match self.rank {
            Some(rank) => format!("{} ({rank})", self.piece),
            None => self.piece.clone(),
        }
    }
}

/// How a fight ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
#[serde(rename_all = "snake_case")]
pub enum FightResult {
    /// The defender fell; the attacker stands on its square.
    AttackerWins,
    /// The attacker fell.
    DefenderWins,
    /// Both fell.
    BothLeave,
}

/// What a Stratego action did, as one viewer may know it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StrategoEvent {
    /// `player` put a piece on `square` in the setup phase.
    Placed {
        /// Who placed it.
        player: PlayerId,
        /// Where it stands (`"a4"`).
        square: String,
        /// The piece, for the placer only.
        piece: Option<EventPiece>,
    },
    /// The opening draw: `first` moves first.
    Started {
        /// The seat drawn to move first.
        first: PlayerId,
    },
    /// `player` moved a piece to an empty square.
    Moved {
        /// Who moved.
        player: PlayerId,
        /// Start square.
        from: String,
        /// Destination square.
        to: String,
        /// The piece, when the move showed it to the viewer for the first
        /// time (a long move only a Scout makes).
        shown: Option<EventPiece>,
    },
    /// `attacker` attacked the piece on `to` with the piece on `from`.
    Fight {
        /// The attacking seat; the defender is the other.
        attacker: PlayerId,
        /// The attacker's square.
        from: String,
        /// The defender's square.
        to: String,
        /// The attacking piece, when the viewer knows it.
        attacking: Option<EventPiece>,
        /// The defending piece, when the viewer knows it.
        defending: Option<EventPiece>,
        /// Who fell.
        result: FightResult,
    },
    /// The game ended.
    GameOver {
        /// The winner, `null` for a draw.
        winner: Option<PlayerId>,
        /// Why it ended.
        reason: WireEndReason,
    },
}

impl Event for StrategoEvent {
    fn tell(&self, viewer: Option<PlayerId>) -> String {
        match self {
            StrategoEvent::Placed {
                player,
                square,
                piece: Some(piece),
            } => format!(
                "{}: place {} on {square}",
                who(*player, viewer),
                piece.name()
            ),
            StrategoEvent::Placed { player, square, .. } => {
                format!("{player} places a piece on {square}")
            }
            StrategoEvent::Started { first } if Some(*first) == viewer => {
                "drawn: you move first".to_owned()
            }
            StrategoEvent::Started { first } => format!("drawn: {first} moves first"),
            StrategoEvent::Moved {
                player,
                from,
                to,
                shown,
            } => {
                let shown = shown
                    .as_ref()
                    .map_or(String::new(), |p| format!(", a {}", p.name()));
                format!("{}: {from}-{to}{shown}", who(*player, viewer))
            }
            StrategoEvent::Fight {
                attacker,
                from,
                to,
                attacking,
                defending,
                result,
            } => {
                let name = |player: PlayerId, piece: &Option<EventPiece>| {
                    let mine = Some(player) == viewer;
                    match piece {
                        Some(p) if mine => format!("your {}", p.name()),
                        Some(p) => p.name(),
                        None if mine => "your piece".to_owned(),
                        None => "an unknown piece".to_owned(),
                    }
                };
                let (a, d) = (
                    name(*attacker, attacking),
                    name(attacker.other(), defending),
                );
                let told = match result {
                    FightResult::AttackerWins => format!("{a} takes {d}"),
                    FightResult::DefenderWins => format!("{a} lost to {d}"),
                    FightResult::BothLeave => format!("{a} and {d} both leave the board"),
                };
                format!("{}: {from}x{to}, {told}", who(*attacker, viewer))
            }
            StrategoEvent::GameOver { winner, reason } => {
                let result = match winner {
                    Some(p) if Some(*p) == viewer => "you win".to_owned(),
                    Some(p) => format!("{p} wins"),
                    None => "a draw".to_owned(),
                };
                let why = match reason {
                    WireEndReason::FlagCaptured => "a flag was captured",
                    WireEndReason::NoLegalMove => "the side to move had no legal move",
                    WireEndReason::BothStuck => "neither side had a legal move",
                    WireEndReason::FlagUnreachable => "neither flag can ever be captured",
                    WireEndReason::NoAttackLimit => "too many moves in a row without an attack",
                    WireEndReason::MoveLimit => "the longest game the rules allow was played",
                };
                format!("Game over: {result}, as {why}")
            }
        }
    }
}
