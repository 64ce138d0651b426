//! Determinisation: a full state drawn at random among those consistent
//! with one player's observation.

use game_traits::{PerPlayer, PlayerId};
use rand::seq::SliceRandom;
use rand::Rng;

use crate::assign::{draw_constrained, feasible};
use crate::cell::Cell;
use crate::chase::zobrist;
use crate::error::StrategoError;
use crate::kind::{Kind, KindSet};
use crate::observation::{ObsCell, Observation};
use crate::setup::SETUP_SQUARES;
use crate::square::Square;
use crate::state::{End, Stratego};
use crate::validate::StateRepr;
use crate::variant::Variant;
use game_traits::RuleSet;

impl Stratego {
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
        // What the course of the game tells about the opponent's hidden
        // kinds as a whole: he is stuck (the game ended because he, or both,
        // could not move), or he can move (the game goes on with him to
        // move, or only the viewer was stuck where both stuck is a draw).
        // Whether a piece can move depends on its own kind and the public
        // occupancy only, so "stuck" is a kind constraint per piece, drawn
        // constructively like the ruled-out kinds; "can move" is a
        // disjunction, drawn by rejection with a constructive fallback.
        let demand = end_demand(obs);
        let moving: Vec<KindSet> = if demand == Demand::Free {
            Vec::new()
        } else {
            let probe = probe_of(obs, &cells);
            let mut of_steppers = None;
            let long = obs.rules.long_mover();
            unknown_moved
                .iter()
                .chain(&unknown_still)
                .map(|&i| {
                    let mut set = KindSet::EMPTY;
                    let Some(sq) = Square::new(i as u8) else {
                        return set;
                    };
                    for k in allowed_kinds(variant, obs.cells[i]).and(movers).iter() {
                        let can = if Some(k) == long {
                            probe.can_move_as(q, sq, k)
                        } else {
                            // Every mobile kind but the long mover moves alike.
                            *of_steppers.insert(probe.can_move_as(q, sq, k))
                        };
                        if can {
                            set = set.or(KindSet::of(k));
                        }
                    }
                    of_steppers = None;
                    set
                })
                .collect()
        };
        // Only the options that hide an attacker or tell a diagonal stepper
        // apart, or an end that walls the opponent in, rule kinds out piece
        // by piece. An opponent's hidden loss is a piece too, numbered past
        // the board.
        let stuck = demand == Demand::Stuck;
        let pieces: Vec<(usize, KindSet)> = unknown_moved
            .iter()
            .chain(&unknown_still)
            .enumerate()
            .map(|(j, &i)| {
                let allowed = allowed_kinds(variant, obs.cells[i]);
                (
                    i,
                    if stuck {
                        allowed.minus(moving[j])
                    } else {
                        allowed
                    },
                )
            })
            .chain(
                foe_hidden
                    .iter()
                    .enumerate()
                    .map(|(j, h)| (HIDDEN_BASE + j, movers.minus(h.ruled_out))),
            )
            .collect();
        let sorted = |mut pieces: Vec<(usize, KindSet)>| {
            // The most constrained first: they have the fewest choices left.
            pieces.sort_by_key(|&(i, allowed)| (allowed.len(), i));
            pieces
        };
        // A piece that may make the opponent able to move, with the kinds
        // that would (for the fallback of a "can move" demand).
        let able: Vec<(usize, KindSet)> = if demand == Demand::Moves {
            pieces
                .iter()
                .zip(&moving)
                .map(|(&(i, allowed), &m)| (i, allowed.and(m)))
                .filter(|(_, m)| !m.is_empty())
                .collect()
        } else {
            Vec::new()
        };
        let constrained = (constrained || stuck).then(|| sorted(pieces.clone()));
        let mut supply = [0u8; Kind::COUNT];
        for k in Kind::ALL {
            supply[k.index()] = pool[k.index()].clamp(0, 255) as u8;
        }
        if let Some(pieces) = &constrained {
            if !feasible(pieces, &supply) {
                return Err(bad(if stuck {
                    "the end of the game does not fit the position"
                } else {
                    "no kinds fit what the opponent's pieces showed"
                }));
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
        // moved piece is no mine or flag" (with ruled-out kinds, or an end
        // that walls the opponent in, the constrained draw instead). A draw
        // that contradicts what the course of the game told everybody (the
        // player to move can move, some flag can still be captured) is drawn
        // again: rejection keeps the draw uniform over the consistent
        // assignments, and the true one always is. After
        // `FORCE_AFTER` refused draws, a "can move" demand forces one piece
        // that may move, chosen at random, to a kind that does (close to
        // uniform, but never stuck where a completion exists).
        let mut refused = None;
        let mut invalid = 0;
        for attempt in 0..DETERMINIZE_TRIES {
            let mut cells = cells;
            let mut lost = obs.lost;
            let mut hidden_lost = PerPlayer::<Vec<(KindSet, Kind)>>::default();
            hidden_lost[v] = own_hidden.clone();
            for &(_, kind) in &own_hidden {
                lost[v][kind.index()] = lost[v][kind.index()].saturating_add(1);
            }
            let forced = (attempt >= FORCE_AFTER && !able.is_empty()).then(|| {
                let (at, kinds) = able[rng.random_range(0..able.len())];
                let mut forced = pieces.clone();
                for piece in &mut forced {
                    if piece.0 == at {
                        piece.1 = kinds;
                    }
                }
                sorted(forced)
            });
            if let Some(forced) = &forced {
                if !feasible(forced, &supply) {
                    continue;
                }
            }
            if let Some(pieces) = forced.as_ref().or(constrained.as_ref()) {
                // Feasibility was checked: the draw never fails, but a
                // failed one is drawn again rather than ending the search.
                let Some(drawn) = draw_constrained(pieces, supply, rng) else {
                    continue;
                };
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
            // What is checked here does not depend on the draw (the kinds
            // drawn respect every cell's constraints), so a refusal is the
            // observation's; a few draws are still tried, so that a draw
            // that should have fitted never ends the search alone.
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
            })
            .and_then(|state| {
                if state.observe(v) == *obs {
                    Ok(state)
                } else {
                    Err(bad("the observation is not reproducible"))
                }
            });
            let state = match state {
                Ok(state) => state,
                Err(e) => {
                    invalid += 1;
                    if invalid >= INVALID_TRIES {
                        return Err(e);
                    }
                    continue;
                }
            };
            match state.check_outcome() {
                Ok(()) => return Ok(state),
                // With the per-piece constraint of a stuck opponent drawn,
                // what is left of the end's check does not depend on the
                // draw.
                Err(e) if stuck && !obs.rules.unreachable_flag_draw => {
                    return Err(match e {
                        StrategoError::InvalidState(why) => bad(why),
                        other => other,
                    })
                }
                Err(e) => refused = Some(e),
            }
        }
        Err(match refused {
            Some(StrategoError::InvalidState(why)) => bad(why),
            _ => bad("no consistent completion found"),
        })
    }
}

/// What the course of the game says about whether the opponent of the
/// viewer can move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Demand {
    /// Nothing (the setup, or an end that does not depend on it).
    Free,
    /// He has no legal move: the game ended because he, or both players,
    /// could not move.
    Stuck,
    /// He has a legal move: the game goes on with him to move, or it ended
    /// with only the viewer stuck where both stuck would be a draw.
    Moves,
}

/// [`Demand`] of `obs`, from the end and the player to move, as
/// [`Stratego::check_outcome`] checks them.
fn end_demand(obs: &Observation) -> Demand {
    use crate::state::EndReason::{BothStuck, NoLegalMove};
    if obs.placed[PlayerId::P1] as usize != SETUP_SQUARES {
        return Demand::Free;
    }
    let foe_to_move = obs.to_move != obs.viewer;
    match obs.end {
        None if foe_to_move => Demand::Moves,
        Some(End {
            reason: NoLegalMove | BothStuck,
            ..
        }) if foe_to_move => Demand::Stuck,
        Some(End {
            reason: BothStuck, ..
        }) => Demand::Stuck,
        Some(End {
            reason: NoLegalMove,
            winner: Some(_),
        }) if obs.rules.no_move_loses && obs.rules.both_stuck_draw => Demand::Moves,
        _ => Demand::Free,
    }
}

/// A state holding only what moves depend on (the rules, who occupies each
/// square, the repetition bookkeeping) for [`Stratego::can_move_as`]; the
/// kinds in `cells` are placeholders for the unknown pieces.
fn probe_of(obs: &Observation, cells: &[Cell; 100]) -> Stratego {
    let mut probe = Stratego::start(&obs.rules);
    for (sq, &c) in Square::all().zip(cells) {
        probe.board[sq.pad()] = c;
        if c.is_piece() {
            probe.hash ^= zobrist(c.owner(), sq);
        }
    }
    probe.shuttles = obs.shuttles.map(Option::unwrap_or_default);
    probe.chase = obs.chase.clone();
    probe.last_move = obs.last_move;
    probe
}

/// Refused draws after which a "can move" demand forces one piece to a
/// kind that moves ([`Stratego::complete`]).
const FORCE_AFTER: usize = 64;

/// Draws refused by the checks that do not depend on the draw before
/// [`Stratego::complete`] gives up on the observation.
const INVALID_TRIES: usize = 8;

/// Number of the first opponent's hidden loss among the pieces a
/// constrained draw assigns (the board's cells are 0..100).
const HIDDEN_BASE: usize = 100;

/// Draws [`Stratego::complete`] makes before it gives up on an
/// observation. Consistent completions are scarce only at the very end of
/// a game (a stuck army, or Czech flags walled in by mines: perhaps one
/// draw in ten thousand); a draw costs about a microsecond.
const DETERMINIZE_TRIES: usize = 20_000;

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
