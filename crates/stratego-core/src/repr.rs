//! The serialised form of a state and the checks that make a stored (or
//! tampered) state either consistent or refused.

use serde::{Deserialize, Serialize};

use crate::error::StrategoError;
use crate::repetition::{Chase, Series, ZOBRIST};
use crate::rules::Rules;
use crate::setup::{SetupSquare, SETUP_SQUARES};
use crate::square::Square;
use crate::state::{
    End, EndReason, LastMove, Stratego, EMPTY, KIND, MOVED, OWNER, PRESENT, REVEALED, WALL,
};
use crate::variant::{Kind, KindSet};

/// The stored form of `Stratego`: the 100 board cells as bytes
/// (`0x80` piece, `0x40` moved, `0x20` revealed, `0x10` second player,
/// low four bits the kind; `0` empty, `0x0F` lake), the bookkeeping, and
/// the kinds ruled out for unrevealed pieces as a list of (square, set)
/// in square order, left out when empty (always, under the default rules).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateRepr {
    pub(crate) rules: Rules,
    pub(crate) cells: Vec<u8>,
    pub(crate) placed: [u8; 2],
    pub(crate) to_move: u8,
    pub(crate) moves: u32,
    pub(crate) no_attack: u16,
    pub(crate) lost: [[u8; Kind::COUNT]; 2],
    pub(crate) series: [Series; 2],
    pub(crate) chase: Option<Chase>,
    pub(crate) last_move: [Option<LastMove>; 2],
    pub(crate) end: Option<End>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) ruled_out: Vec<(Square, KindSet)>,
}

impl From<Stratego> for StateRepr {
    fn from(s: Stratego) -> Self {
        StateRepr {
            rules: s.rules,
            cells: Square::all().map(|sq| s.board[sq.pad()]).collect(),
            placed: s.placed,
            to_move: s.to_move,
            moves: s.moves,
            no_attack: s.no_attack,
            lost: s.lost,
            series: s.series,
            chase: s.chase,
            last_move: s.last_move,
            end: s.end,
            ruled_out: Square::all()
                .map(|sq| (sq, s.ruled_out[sq.index()]))
                .filter(|(_, set)| !set.is_empty())
                .collect(),
        }
    }
}

impl TryFrom<StateRepr> for Stratego {
    type Error = StrategoError;
    fn try_from(r: StateRepr) -> Result<Self, Self::Error> {
        Stratego::from_parts(r)
    }
}

impl Serialize for Stratego {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        StateRepr::from(self.clone()).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Stratego {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let repr = StateRepr::deserialize(d)?;
        Stratego::from_parts(repr).map_err(serde::de::Error::custom)
    }
}

impl Stratego {
    /// Rebuilds a state from its stored form, checking every invariant.
    pub(crate) fn from_parts(r: StateRepr) -> Result<Stratego, StrategoError> {
        Stratego::from_parts_with(r, false)
    }

    /// [`Stratego::from_parts`]; with `settle_end`, a missing end is worked
    /// out (a new position whose player to move is stuck, or, in Czech,
    /// where nobody can ever capture a flag) instead of refused.
    pub(crate) fn from_parts_with(
        mut r: StateRepr,
        settle_end: bool,
    ) -> Result<Stratego, StrategoError> {
        if settle_end && r.end.is_none() && r.placed == [SETUP_SQUARES as u8; 2] {
            let s = Stratego::from_parts_unsettled(r.clone())?;
            r.end = s.check_stuck(s.to_move).or_else(|| s.check_unreachable());
        }
        let s = Stratego::from_parts_unsettled(r)?;
        s.check_outcome()?;
        Ok(s)
    }

    /// Whether the end (or its absence) is what the rules say for this
    /// position. These checks depend on hidden ranks (which pieces can move,
    /// where the mines and flags stand), so determinisation applies them to
    /// each sampled completion separately: they are what a player knows
    /// from the game going on, or from how it ended.
    pub(crate) fn check_outcome(&self) -> Result<(), StrategoError> {
        let bad = |why: &str| Err(StrategoError::State(why.to_owned()));
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
        let flags = [0, 1].map(|p| self.alive[p][Kind::FLAG.index()]);
        let draw = end.winner.is_none();
        let ok = match end.reason {
            EndReason::FlagCaptured => end
                .winner
                .is_some_and(|w| flags[w as usize & 1] == 1 && flags[(w as usize & 1) ^ 1] == 0),
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

    /// [`Stratego::from_parts`] without [`Stratego::check_outcome`]: every
    /// invariant that does not depend on hidden ranks.
    pub(crate) fn from_parts_unsettled(r: StateRepr) -> Result<Stratego, StrategoError> {
        let bad = |why: String| Err(StrategoError::State(why));
        let mut s = Stratego::with_rules(&r.rules)?;
        if r.cells.len() != 100 {
            return bad("board must have 100 cells".into());
        }
        let variant = r.rules.variant;
        let setup_phase = (r.placed[1] as usize) < SETUP_SQUARES;
        if r.placed.iter().any(|&n| n as usize > SETUP_SQUARES)
            || ((r.placed[0] as usize) < SETUP_SQUARES && r.placed[1] > 0)
            || r.to_move > 1
        {
            return bad("bad setup progress or player to move".into());
        }
        for sq in Square::all() {
            let c = r.cells[sq.index()];
            if sq.is_lake() {
                if c != WALL {
                    return bad(format!("lake {sq} not water"));
                }
                continue;
            }
            if c == EMPTY {
                continue;
            }
            let kind = match Kind::new(c & KIND) {
                Some(k) if c & PRESENT != 0 && variant.count(k) > 0 => k,
                _ => return bad(format!("bad cell {c:#x} on {sq}")),
            };
            let owner = ((c & OWNER) >> 4) as usize;
            if !kind.is_mobile() && c & MOVED != 0 {
                return bad(format!("an immobile piece has moved on {sq}"));
            }
            if setup_phase && c & (MOVED | REVEALED) != 0 {
                return bad("moved piece during setup".into());
            }
            s.board[sq.pad()] = c;
            s.alive[owner][kind.index()] += 1;
            if s.alive[owner][kind.index()] > variant.count(kind) {
                return bad(format!("too many {}", variant.name(kind)));
            }
            s.occ[owner] |= sq.bit();
            if kind.is_mobile() {
                s.mobile[owner] |= sq.bit();
            }
            s.hash ^= ZOBRIST[owner][sq.pad()];
        }
        for p in 0..2 {
            for k in Kind::ALL {
                let total = s.alive[p][k.index()] as u16 + r.lost[p][k.index()] as u16;
                let ok = if setup_phase {
                    r.lost[p][k.index()] == 0
                } else {
                    total == variant.count(k) as u16
                };
                if !ok {
                    return bad(format!("piece counts of player {p} do not add up"));
                }
            }
            if setup_phase {
                let n = s.alive[p].iter().map(|&n| n as usize).sum::<usize>();
                let in_place = (0..r.placed[p] as usize).all(|i| {
                    SetupSquare::from_index(i).is_some_and(|ss| {
                        ss.board_square(p).is_some_and(|sq| {
                            s.board[sq.pad()] & (PRESENT | OWNER) == PRESENT | ((p as u8) << 4)
                        })
                    })
                });
                if n != r.placed[p] as usize || !in_place {
                    return bad("setup squares do not match the placements".into());
                }
            }
        }
        if setup_phase
            && (r.moves != 0
                || r.no_attack != 0
                || r.to_move != 0
                || r.chase.is_some()
                || r.end.is_some()
                || r.series != [Series::default(); 2]
                || r.last_move != [None; 2])
        {
            return bad("play bookkeeping during setup".into());
        }
        if r.moves > r.rules.max_moves || r.no_attack as u32 > r.moves {
            return bad("move counters out of range".into());
        }
        if r.end.is_none() && !setup_phase {
            let flags = (0..2).all(|p| s.alive[p][Kind::FLAG.index()] == 1);
            let limits = r.moves < r.rules.max_moves
                && r.rules.no_attack_limit.is_none_or(|l| r.no_attack < l);
            if !flags || !limits {
                return bad("the game should have ended".into());
            }
        }
        if r.end.is_some_and(|e| e.winner.is_some_and(|w| w > 1)) {
            return bad("bad winner".into());
        }
        for (p, series) in r.series.iter().enumerate() {
            if series.count == 0 {
                if *series != Series::default() {
                    return bad("empty series with data".into());
                }
                continue;
            }
            let valid_dir = matches!(series.dir, -13 | -12 | -11 | -1 | 1 | 11 | 12 | 13);
            let piece_ok = series.at.is_some_and(|sq| s.mobile[p] & sq.bit() != 0);
            if !valid_dir
                || series.last_dir.unsigned_abs() != series.dir.unsigned_abs()
                || series.origin.is_none()
                || !piece_ok
                || !(1..=9).contains(&series.len)
            {
                return bad("bad two-square series".into());
            }
        }
        if let Some(c) = &r.chase {
            if c.chaser > 1
                || c.positions.len() as u64 > r.moves as u64 + 2
                || !r.rules.more_squares_rule
            {
                return bad("bad chase".into());
            }
        }
        let mut previous = None;
        let movers = KindSet::MOBILE.and(KindSet::of_variant(variant));
        for &(sq, set) in &r.ruled_out {
            let c = s.board[sq.pad()];
            let kind = Kind::new(c & KIND).unwrap_or(Kind::FLAG);
            if !s.tracks_kinds
                || previous.is_some_and(|p| p >= sq)
                || set.is_empty()
                || !set.is_subset(movers)
                || c & (PRESENT | MOVED | REVEALED) != PRESENT | MOVED
                || set.contains(kind)
            {
                return bad(format!("bad kinds ruled out on {sq}"));
            }
            previous = Some(sq);
            s.ruled_out[sq.index()] = set;
        }
        s.placed = r.placed;
        s.to_move = r.to_move;
        s.moves = r.moves;
        s.no_attack = r.no_attack;
        s.lost = r.lost;
        s.series = r.series;
        s.chase = r.chase;
        s.last_move = r.last_move;
        s.end = r.end;
        Ok(s)
    }
}
