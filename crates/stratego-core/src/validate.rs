//! The stored form of a state and the one validation that every way in
//! (deserialisation, the position builder, the notation, determinisation)
//! goes through: a state is either consistent or refused.

use game_traits::{PerPlayer, PlayerId};
use serde::{Deserialize, Serialize};

use crate::action::Move;
use crate::cell::Cell;
use crate::chase::{zobrist, Chase};
use crate::error::StrategoError;
use crate::kind::{Kind, KindSet};
use crate::rules::Rules;
use crate::setup::{SetupSquare, SETUP_SQUARES};
use crate::shuttle::{direction, Shuttle};
use crate::square::Square;
use crate::state::{End, EndReason, Stratego};
use game_traits::RuleSet;

/// The stored form of [`Stratego`]: the 100 board cells as bytes (see
/// `Cell`), the bookkeeping, and the kinds ruled out for unrevealed
/// pieces as a list of (square, set) in square order, left out when empty
/// (always, under the default rules).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StateRepr {
    pub(crate) rules: Rules,
    pub(crate) cells: Vec<u8>,
    pub(crate) placed: PerPlayer<u8>,
    pub(crate) to_move: PlayerId,
    pub(crate) moves: u32,
    pub(crate) no_attack: u16,
    pub(crate) lost: PerPlayer<[u8; Kind::COUNT]>,
    pub(crate) series: PerPlayer<Shuttle>,
    pub(crate) chase: Option<Chase>,
    pub(crate) last_move: PerPlayer<Option<Move>>,
    pub(crate) end: Option<End>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) ruled_out: Vec<(Square, KindSet)>,
    /// Per player, the losses whose kind the opponent never saw, as (kinds
    /// ruled out, kind) sorted; left out when there are none (always,
    /// unless the attacker's kind is hidden).
    #[serde(default, skip_serializing_if = "no_hidden_losses")]
    pub(crate) hidden_lost: PerPlayer<Vec<(KindSet, Kind)>>,
    /// Who moves first, stored only when the rules draw it (it is the
    /// rules' otherwise); `None` then while the draw is to come, or in play
    /// when the stored form predates the field (derived from the counters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) first: Option<PlayerId>,
}

fn no_hidden_losses(lists: &PerPlayer<Vec<(KindSet, Kind)>>) -> bool {
    lists.values().all(Vec::is_empty)
}

impl From<&Stratego> for StateRepr {
    fn from(s: &Stratego) -> Self {
        StateRepr {
            rules: s.rules,
            cells: Square::all().map(|sq| s.board[sq.pad()].bits()).collect(),
            placed: s.placed,
            to_move: s.to_move,
            moves: s.moves,
            no_attack: s.no_attack,
            lost: s.lost,
            series: s.shuttles,
            chase: s.chase.clone(),
            last_move: s.last_move,
            end: s.end,
            ruled_out: Square::all()
                .map(|sq| (sq, s.ruled_out[sq.index()]))
                .filter(|(_, set)| !set.is_empty())
                .collect(),
            hidden_lost: s.hidden_lost.clone(),
            first: s.first.filter(|_| s.rules.fixed_first_player().is_none()),
        }
    }
}

impl Serialize for Stratego {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        StateRepr::from(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Stratego {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let repr = StateRepr::deserialize(d)?;
        Stratego::validate(repr, false).map_err(serde::de::Error::custom)
    }
}

fn bad<T>(why: &'static str) -> Result<T, StrategoError> {
    Err(StrategoError::InvalidState(why))
}

impl Stratego {
    /// Rebuilds a state from its stored form, checking every invariant.
    /// With `settle_end`, a missing end is worked out
    /// ([`Stratego::settled_end`]) instead of refused: a built or parsed
    /// position states no end.
    pub(crate) fn validate(mut r: StateRepr, settle_end: bool) -> Result<Stratego, StrategoError> {
        if settle_end && r.end.is_none() {
            r.end = Stratego::assemble(r.clone())?.settled_end();
        }
        let s = Stratego::validate_unsettled(r)?;
        s.check_outcome()?;
        Ok(s)
    }

    /// Whether the end (or its absence) is what the rules say for this
    /// position. These checks depend on hidden ranks (which pieces can move,
    /// where the mines and flags stand), so determinisation applies them to
    /// each sampled completion separately: they are what a player knows
    /// from the game going on, or from how it ended.
    pub(crate) fn check_outcome(&self) -> Result<(), StrategoError> {
        if !self.in_play() {
            return Ok(());
        }
        let Some(end) = self.end else {
            if !self.has_move(self.to_move) {
                return bad("the player to move has no legal move but the game goes on");
            }
            if self.check_unreachable().is_some() {
                return bad("no flag can ever be captured but the game goes on");
            }
            return Ok(());
        };
        let flags = PlayerId::BOTH.map(|p| self.alive[p][Kind::FLAG.index()]);
        let draw = end.winner.is_none();
        let ok = match end.reason {
            EndReason::FlagCaptured => end
                .winner
                .is_some_and(|w| flags[w.index()] == 1 && flags[w.other().index()] == 0),
            _ if flags != [1, 1] => false,
            EndReason::NoLegalMove | EndReason::BothStuck => {
                self.check_stuck(self.to_move) == Some(end)
            }
            EndReason::FlagUnreachable => self.check_unreachable() == Some(end),
            EndReason::NoAttackLimit => {
                draw && self
                    .rules
                    .no_attack_limit
                    .is_some_and(|l| self.no_attack >= l)
            }
            EndReason::MoveLimit => draw && self.moves >= self.rules.max_moves,
        };
        if ok {
            Ok(())
        } else {
            bad("the end of the game does not fit the position")
        }
    }

    /// [`Stratego::validate`] without [`Stratego::check_outcome`]: every
    /// invariant that does not depend on hidden ranks.
    pub(crate) fn validate_unsettled(r: StateRepr) -> Result<Stratego, StrategoError> {
        let s = Stratego::assemble(r)?;
        if s.end.is_none() && s.in_play() {
            let flags = PlayerId::BOTH
                .iter()
                .all(|&p| s.alive[p][Kind::FLAG.index()] == 1);
            let limits = s.moves < s.rules.max_moves
                && s.rules.no_attack_limit.is_none_or(|l| s.no_attack < l);
            if !flags || !limits {
                return bad("the game should have ended");
            }
        }
        Ok(s)
    }

    /// The state of a stored form, checked for everything but whether the
    /// game should have ended.
    fn assemble(r: StateRepr) -> Result<Stratego, StrategoError> {
        r.rules.validate()?;
        let mut s = Stratego::start(&r.rules);
        if r.cells.len() != 100 {
            return bad("the board must have 100 cells");
        }
        let variant = r.rules.variant;
        let (p0, p1) = (PlayerId::P0, PlayerId::P1);
        let setup_phase = (r.placed[p1] as usize) < SETUP_SQUARES;
        if r.placed.values().any(|&n| n as usize > SETUP_SQUARES)
            || ((r.placed[p0] as usize) < SETUP_SQUARES && r.placed[p1] > 0)
        {
            return bad("bad setup progress");
        }
        for sq in Square::all() {
            let Some(c) = Cell::from_bits(r.cells[sq.index()]) else {
                return bad("a cell holds no piece, empty square or water");
            };
            if sq.is_lake() != (c == Cell::WALL) {
                return bad("water off the lakes, or a lake not water");
            }
            if !c.is_piece() {
                continue;
            }
            let (kind, owner) = (c.kind(), c.owner());
            if variant.count(kind) == 0 {
                return bad("a piece of a kind the rule set does not have");
            }
            if !kind.is_mobile() && c.moved() {
                return bad("a mine or flag has moved");
            }
            if setup_phase && (c.moved() || c.revealed()) {
                return bad("a piece moved or revealed during the setup");
            }
            s.board[sq.pad()] = c;
            s.alive[owner][kind.index()] += 1;
            if s.alive[owner][kind.index()] > variant.count(kind) {
                return bad("more pieces of a kind than the army has");
            }
            s.occ[owner] |= sq.bit();
            if kind.is_mobile() {
                s.mobile[owner] |= sq.bit();
            }
            if kind.index() as u8 == s.long_kind {
                s.long[owner] |= sq.bit();
            }
            s.hash ^= zobrist(owner, sq);
        }
        for p in PlayerId::BOTH {
            for k in Kind::ALL {
                let total = s.alive[p][k.index()] as u16 + r.lost[p][k.index()] as u16;
                let ok = if setup_phase {
                    r.lost[p][k.index()] == 0
                } else {
                    total == variant.count(k) as u16
                };
                if !ok {
                    return bad("pieces on the board and lost do not add up to the army");
                }
            }
            if setup_phase {
                let n = s.alive[p].iter().map(|&n| n as usize).sum::<usize>();
                let in_place = (0..r.placed[p] as usize).all(|i| {
                    SetupSquare::from_index(i).is_some_and(|ss| {
                        ss.board_square(p)
                            .is_some_and(|sq| s.board[sq.pad()].is_piece_of(p))
                    })
                });
                if n != r.placed[p] as usize || !in_place {
                    return bad("setup squares do not match the placements");
                }
            }
        }
        let first = match (r.rules.fixed_first_player(), r.first) {
            (Some(fixed), None) => Some(fixed),
            (Some(fixed), Some(p)) if p == fixed => Some(fixed),
            (Some(_), Some(_)) => return bad("a first player the rules do not draw"),
            (None, Some(p)) => Some(p),
            (None, None) if setup_phase => None,
            // A stored game in play from before the field: the first
            // player is the one to move after an even number of moves.
            (None, None) if r.moves.is_multiple_of(2) => Some(r.to_move),
            (None, None) => Some(r.to_move.other()),
        };
        if first.is_none() && (r.placed[p0] > 0 || r.to_move != p0) {
            return bad("pieces placed before the draw of who moves first");
        }
        if setup_phase
            && (r.moves != 0
                || r.no_attack != 0
                || r.to_move != first.unwrap_or(p0)
                || r.chase.is_some()
                || r.end.is_some()
                || r.series.values().any(|sh| sh.running().is_some())
                || r.last_move.values().any(Option::is_some))
        {
            return bad("play bookkeeping during the setup");
        }
        if r.moves > r.rules.max_moves || r.no_attack as u32 > r.moves {
            return bad("move counters out of range");
        }
        let mut previous = None;
        let movers = KindSet::MOBILE.and(KindSet::of_variant(variant));
        for (p, shuttle) in r.series.iter() {
            let Some(sh) = shuttle.running() else {
                continue;
            };
            // The piece is public: its square, that it is the player's and
            // that it has moved; never its hidden kind.
            let c = s.board[sh.piece().pad()];
            // What the rules imply of its history: the two-square rule stops
            // a series at its limit, and only the long mover goes further
            // than one square, showing its kind as it does.
            let long = direction(sh.origin(), sh.end()).1 > 1;
            if !shuttle.is_consistent()
                || !shuttle.fits(r.rules.two_square_partial_moves)
                || !c.is_piece_of(p)
                || !c.moved()
                || r.rules.two_square_limit.is_some_and(|l| sh.moves() > l)
                || (long && !(c.revealed() && r.rules.long_mover() == Some(c.kind())))
            {
                return bad("bad two-square shuttle");
            }
        }
        if let Some(c) = &r.chase {
            if !r.rules.more_squares_rule
                || c.positions.len() as u64 > r.moves as u64 + 2
                || c.positions.last() != Some(&s.hash)
                || !s.board[c.evader.pad()].is_piece_of(c.chaser.other())
            {
                return bad("bad chase");
            }
        }
        // A revealed attacker tells nothing by winning: then only a Czech
        // diagonal step (the Průzkumník may not make one) rules a kind out.
        let fights_tell = if r.rules.reveal_attacker {
            r.rules.long_mover().map_or(KindSet::EMPTY, KindSet::of)
        } else {
            movers
        };
        for &(sq, set) in &r.ruled_out {
            let c = s.board[sq.pad()];
            if !s.tracks_kinds
                || !set.is_subset(fights_tell)
                || previous.is_some_and(|p| p >= sq)
                || set.is_empty()
                || !set.is_subset(movers)
                || !c.is_piece()
                || !c.moved()
                || c.revealed()
                || set.contains(c.kind())
            {
                return bad("bad kinds ruled out");
            }
            previous = Some(sq);
            s.ruled_out[sq.index()] = set;
        }
        for (p, list) in r.hidden_lost.iter() {
            let mut hidden = [0u8; Kind::COUNT];
            let sorted = list
                .windows(2)
                .all(|w| (w[0].0.bits(), w[0].1.index()) <= (w[1].0.bits(), w[1].1.index()));
            for &(set, kind) in list {
                let n = &mut hidden[kind.index()];
                *n = n.saturating_add(1);
                if r.rules.reveal_attacker
                    || setup_phase
                    || !movers.contains(kind)
                    || set.contains(kind)
                    || !set.is_subset(movers)
                    || movers.minus(set).len() < 2
                    || *n > r.lost[p][kind.index()]
                {
                    return bad("bad hidden loss");
                }
            }
            if !sorted {
                return bad("hidden losses out of order");
            }
        }
        s.hidden_lost = r.hidden_lost;
        s.first = first;
        s.placed = r.placed;
        s.to_move = r.to_move;
        s.moves = r.moves;
        s.no_attack = r.no_attack;
        s.lost = r.lost;
        s.shuttles = r.series;
        s.chase = r.chase;
        s.last_move = r.last_move;
        s.end = r.end;
        Ok(s)
    }
}
