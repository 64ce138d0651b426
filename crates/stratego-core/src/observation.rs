//! What one player may know, and determinisation from it.

use game_traits::{PerPlayer, PlayerId};
use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::action::Move;
use crate::assign::{draw_constrained, feasible};
use crate::cell::Cell;
use crate::chase::Chase;
use crate::error::StrategoError;
use crate::kind::{Kind, KindSet};
use crate::rules::Rules;
use crate::setup::SETUP_SQUARES;
use crate::shuttle::Shuttle;
use crate::square::Square;
use crate::state::{End, Stratego};
use crate::validate::StateRepr;
use crate::variant::Variant;

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
        let cells = Square::all()
            .map(|sq| {
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
            })
            .collect();
        let mut lost = self.lost;
        let hidden_lost = PerPlayer::new(PlayerId::P0, PlayerId::P1).map(|p| {
            self.hidden_lost[p]
                .iter()
                .map(|&(ruled_out, kind)| {
                    let n = &mut lost[p][kind.index()];
                    *n = n.saturating_sub(1);
                    HiddenLoss {
                        kind: (p == viewer).then_some(kind),
                        ruled_out,
                    }
                })
                .collect()
        });
        Observation {
            rules: self.rules,
            viewer,
            cells,
            placed: self.placed,
            to_move: self.to_move,
            moves: self.moves,
            no_attack: self.no_attack,
            lost,
            hidden_lost,
            first: self.first,
            shuttles: self.shuttles.map(Shuttle::running),
            chase: self.chase.clone(),
            last_move: self.last_move,
            end: self.end,
        }
    }

    /// A full state consistent with `obs`: the opponent's unknown pieces get
    /// kinds drawn at random from those he has left, moved pieces only
    /// movable kinds, and no piece a kind its moves and fights ruled out.
    pub(crate) fn complete<R: Rng + ?Sized>(
        obs: &Observation,
        rng: &mut R,
    ) -> Result<Stratego, StrategoError> {
        let bad = StrategoError::InvalidObservation;
        obs.rules.validate()?;
        if obs.cells.len() != 100 {
            return Err(bad("the board must have 100 cells"));
        }
        let v = obs.viewer;
        let q = v.other();
        let variant = obs.rules.variant;
        let mut pool = [0i32; Kind::COUNT];
        for k in Kind::ALL {
            pool[k.index()] = variant.count(k) as i32 - obs.lost[q][k.index()] as i32;
        }
        let mut constrained = false;
        let mut unknown_moved = Vec::new();
        let mut unknown_still = Vec::new();
        let mut cells = [Cell::EMPTY; 100];
        for (i, cell) in obs.cells.iter().enumerate() {
            cells[i] = match *cell {
                ObsCell::Lake => Cell::WALL,
                ObsCell::Empty => Cell::EMPTY,
                ObsCell::Own {
                    kind,
                    moved,
                    revealed,
                    ..
                } => Cell::piece(v, kind).with_flags(moved, revealed),
                ObsCell::Foe {
                    kind: Some(kind),
                    moved,
                    ..
                } => {
                    pool[kind.index()] -= 1;
                    Cell::piece(q, kind).with_flags(moved, true)
                }
                ObsCell::Foe {
                    kind: None,
                    moved,
                    ruled_out,
                } => {
                    if !ruled_out.is_empty() {
                        constrained = true;
                    }
                    if moved {
                        unknown_moved.push(i);
                    } else {
                        unknown_still.push(i);
                    }
                    Cell::piece(q, Kind::FLAG).with_flags(moved, false)
                }
            };
        }
        if pool.iter().any(|&n| n < 0) {
            return Err(bad("more opponent pieces known than he has"));
        }
        let movers = KindSet::of_variant(variant).and(KindSet::MOBILE);
        // The viewer's own hidden losses are known to him; the opponent's
        // are unknown pieces off the board, drawn with the others.
        let mut own_hidden = Vec::with_capacity(obs.hidden_lost[v].len());
        for h in &obs.hidden_lost[v] {
            match h.kind {
                Some(kind) => own_hidden.push((h.ruled_out, kind)),
                None => return Err(bad("the viewer's own lost piece without its kind")),
            }
        }
        let foe_hidden = &obs.hidden_lost[q];
        if foe_hidden.iter().any(|h| h.kind.is_some()) {
            return Err(bad("the kind of an opponent's hidden loss"));
        }
        constrained |= !foe_hidden.is_empty();
        let mut bag: Vec<Kind> = Vec::new();
        for k in Kind::ALL {
            bag.extend(std::iter::repeat_n(k, pool[k.index()] as usize));
        }
        let setup_done = obs.placed[q] as usize == SETUP_SQUARES;
        let unknown = unknown_moved.len() + unknown_still.len() + foe_hidden.len();
        if bag.len() < unknown || (setup_done && bag.len() != unknown) {
            return Err(bad("the opponent's piece count does not match"));
        }
        // Only the options that hide an attacker or tell a diagonal stepper
        // apart rule kinds out piece by piece. An opponent's hidden loss is
        // a piece too, numbered past the board.
        let constrained = constrained.then(|| {
            let mut pieces: Vec<(usize, KindSet)> = unknown_moved
                .iter()
                .chain(&unknown_still)
                .map(|&i| (i, allowed_kinds(variant, obs.cells[i])))
                .chain(
                    foe_hidden
                        .iter()
                        .enumerate()
                        .map(|(j, h)| (HIDDEN_BASE + j, movers.minus(h.ruled_out))),
                )
                .collect();
            // The most constrained first: they have the fewest choices left.
            pieces.sort_by_key(|&(i, allowed)| (allowed.len(), i));
            pieces
        });
        let mut supply = [0u8; Kind::COUNT];
        for k in Kind::ALL {
            supply[k.index()] = pool[k.index()].clamp(0, 255) as u8;
        }
        if let Some(pieces) = &constrained {
            if !feasible(pieces, &supply) {
                return Err(bad("no kinds fit what the opponent's pieces showed"));
            }
        }
        let ruled_out: Vec<(Square, KindSet)> = obs
            .cells
            .iter()
            .zip(Square::all())
            .filter_map(|(c, sq)| match *c {
                ObsCell::Own { ruled_out, .. } | ObsCell::Foe { ruled_out, .. }
                    if !ruled_out.is_empty() =>
                {
                    Some((sq, ruled_out))
                }
                _ => None,
            })
            .collect();
        // Moved pieces draw among the movable kinds left, then the rest is
        // shuffled: a uniform draw among the assignments that respect "a
        // moved piece is no mine or flag" (with ruled-out kinds, the
        // constrained draw instead). A draw that contradicts what the
        // course of the game told everybody (the player to move can move,
        // some flag can still be captured, or the game ended as it did) is
        // drawn again: rejection keeps the draw uniform over the consistent
        // assignments, and the true one always is.
        let mut refused = None;
        for _ in 0..DETERMINIZE_TRIES {
            let mut cells = cells;
            let mut lost = obs.lost;
            let mut hidden_lost = PerPlayer::<Vec<(KindSet, Kind)>>::default();
            hidden_lost[v] = own_hidden.clone();
            for &(_, kind) in &own_hidden {
                lost[v][kind.index()] = lost[v][kind.index()].saturating_add(1);
            }
            if let Some(pieces) = &constrained {
                let drawn = draw_constrained(pieces, supply, rng)
                    .ok_or(bad("no kinds fit what the opponent's pieces showed"))?;
                for (i, kind) in drawn {
                    if let Some(j) = i.checked_sub(HIDDEN_BASE) {
                        hidden_lost[q].push((foe_hidden[j].ruled_out, kind));
                        lost[q][kind.index()] = lost[q][kind.index()].saturating_add(1);
                    } else {
                        cells[i] = cells[i].with_kind(kind);
                    }
                }
                hidden_lost[q].sort_by_key(|&(set, k)| (set.bits(), k.index()));
            } else {
                let mut bag = bag.clone();
                for &i in &unknown_moved {
                    let movable = bag.iter().filter(|k| k.is_mobile()).count();
                    if movable == 0 {
                        return Err(bad("more moved opponent pieces than movable ones"));
                    }
                    let nth = rng.random_range(0..movable);
                    let pos = bag
                        .iter()
                        .enumerate()
                        .filter(|(_, k)| k.is_mobile())
                        .nth(nth)
                        .map_or(0, |(j, _)| j);
                    let kind = bag.swap_remove(pos);
                    cells[i] = cells[i].with_kind(kind);
                }
                bag.shuffle(rng);
                for (&i, &kind) in unknown_still.iter().zip(bag.iter()) {
                    cells[i] = cells[i].with_kind(kind);
                }
            }
            // Everything checked here holds or fails whatever the draw.
            let state = Stratego::validate_unsettled(StateRepr {
                rules: obs.rules,
                cells: cells.iter().map(|c| c.bits()).collect(),
                placed: obs.placed,
                to_move: obs.to_move,
                moves: obs.moves,
                no_attack: obs.no_attack,
                lost,
                series: obs.shuttles.map(Option::unwrap_or_default),
                chase: obs.chase.clone(),
                last_move: obs.last_move,
                end: obs.end,
                ruled_out: ruled_out.clone(),
                hidden_lost,
                first: obs.first,
            })
            .map_err(|e| match e {
                StrategoError::InvalidState(why) => bad(why),
                other => other,
            })?;
            if state.observe(v) != *obs {
                return Err(bad("the observation is not reproducible"));
            }
            match state.check_outcome() {
                Ok(()) => return Ok(state),
                Err(e) => refused = Some(e),
            }
        }
        Err(match refused {
            Some(StrategoError::InvalidState(why)) => bad(why),
            _ => bad("no consistent completion found"),
        })
    }
}

/// Number of the first opponent's hidden loss among the pieces a
/// constrained draw assigns (the board's cells are 0..100).
const HIDDEN_BASE: usize = 100;

/// Draws [`Stratego::complete`] makes before it gives up on an
/// observation. Consistent completions are scarce only at the very end of
/// a game (a stuck army, or Czech flags walled in by mines: perhaps one
/// draw in ten thousand); a draw costs about a microsecond.
const DETERMINIZE_TRIES: usize = 20_000;

fn no_hidden_losses(lists: &PerPlayer<Vec<HiddenLoss>>) -> bool {
    lists.values().all(Vec::is_empty)
}

fn nothing_ruled_out(set: &KindSet) -> bool {
    set.is_empty()
}

/// The kinds an unknown opponent piece may be, from its own cell alone.
fn allowed_kinds(variant: Variant, cell: ObsCell) -> KindSet {
    let all = KindSet::of_variant(variant);
    match cell {
        ObsCell::Foe {
            kind: None,
            moved,
            ruled_out,
        } => if moved { all.and(KindSet::MOBILE) } else { all }.minus(ruled_out),
        _ => KindSet::EMPTY,
    }
}
