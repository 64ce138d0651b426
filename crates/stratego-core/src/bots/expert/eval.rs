//! The expert's evaluation of a full (determinised) state for one player:
//! material, information, flag defence and flag attack, in material units.

use game_traits::PlayerId;

use crate::bots::heuristic::piece_value;
use crate::kind::Kind;
use crate::square::Square;
use crate::state::Stratego;
use crate::variant::{Fight, Variant};

/// The value of a won game (far above any material count).
pub(crate) const WIN: f64 = 1000.0;

/// What a piece of the player's own loses once the opponent knows its
/// kind, per unit of its value: a known Marshal can be hunted by the spy,
/// a known piece is avoided by everything it beats.
pub(crate) const KNOWN_COST: f64 = 0.2;

/// Pull of each mobile piece towards the best piece it beats, per unit of
/// that piece's value and per square closer.
pub(crate) const HUNT: f64 = 0.06;

/// Pull of the nearest mobile piece towards the opponent's flag, per
/// square closer.
pub(crate) const FLAG_ATTACK: f64 = 0.08;

/// Danger of an opponent mobile piece near the player's flag, per square
/// inside `FLAG_ZONE`.
pub(crate) const FLAG_DEFENCE: f64 = 1.5;

/// The distance inside which an opponent piece threatens the flag.
pub(crate) const FLAG_ZONE: u32 = 4;

/// One piece as the evaluation reads it.
#[derive(Clone, Copy)]
struct Seen {
    sq: Square,
    kind: Kind,
    /// Whether its kind is known to its opponent.
    known: bool,
}

/// One side's pieces as the evaluation reads them (at most 40).
struct Army {
    pieces: [Seen; 40],
    len: usize,
    flag: Option<Square>,
}

impl Army {
    const fn new() -> Army {
        Army {
            pieces: [Seen {
                sq: Square::from_bit(0),
                kind: Kind::FLAG,
                known: false,
            }; 40],
            len: 0,
            flag: None,
        }
    }

    fn push(&mut self, seen: Seen) {
        if let Some(slot) = self.pieces.get_mut(self.len) {
            *slot = seen;
            self.len += 1;
        }
    }

    fn all(&self) -> &[Seen] {
        &self.pieces[..self.len]
    }
}

/// The material difference for `player`, less what the opponent knows of
/// his pieces and plus what he knows of the opponent's; and both armies
/// (the flags kept apart from the pieces: the player's, the opponent's).
fn material(state: &Stratego, player: PlayerId, known_cost: f64) -> (f64, Army, Army) {
    let variant = state.rules.variant;
    let foe = player.other();
    let value = |k: Kind| piece_value(variant, k);
    let mut score = 0.0;
    for k in Kind::ALL {
        score += (f64::from(state.alive[player][k.index()])
            - f64::from(state.alive[foe][k.index()]))
            * value(k);
    }
    let (mut own, mut theirs) = (Army::new(), Army::new());
    for (sq, piece) in state.pieces() {
        let seen = Seen {
            sq,
            kind: piece.kind,
            known: piece.revealed,
        };
        if piece.owner == player {
            if piece.revealed {
                score -= known_cost * value(piece.kind);
            }
            if piece.kind == Kind::FLAG {
                own.flag = Some(sq);
            }
            own.push(seen);
        } else {
            if piece.revealed {
                score += known_cost * value(piece.kind);
            }
            if piece.kind == Kind::FLAG {
                theirs.flag = Some(sq);
            }
            theirs.push(seen);
        }
    }
    (score, own, theirs)
}

/// The value of an ended game for `player`, `None` while it goes on.
pub(crate) fn ended(state: &Stratego, player: PlayerId) -> Option<f64> {
    state.end().map(|end| match end.winner {
        Some(w) if w == player => WIN,
        Some(_) => -WIN,
        None => 0.0,
    })
}

/// The value of `state` for `player`: the material difference, less what
/// the opponent knows of the player's pieces, plus the pulls of hunting
/// beatable pieces and the opponent's flag, less the threat to the
/// player's flag. Zero-sum up to these terms; a won game is `WIN`.
pub(crate) fn evaluate(state: &Stratego, player: PlayerId) -> f64 {
    if let Some(v) = ended(state, player) {
        return v;
    }
    let (mut score, own, theirs) = material(state, player, KNOWN_COST);
    plans(state.rules.variant, &own, &theirs, 1.0, &mut score);
    score
}

/// The player's plans added to `score`: the pull of hunting beatable
/// pieces (those the player knows weighed `known_weight` times) and of
/// the opponent's flag, less the threat to his own flag.
fn plans(variant: Variant, own: &Army, theirs: &Army, known_weight: f64, score: &mut f64) {
    let (own_flag, own) = (own.flag, own.all());
    let (foe_flag, theirs) = (theirs.flag, theirs.all());
    *score += hunt(variant, own, theirs, own_flag, known_weight);
    let own = own.iter().filter(|p| p.kind.is_mobile());
    if let Some(flag) = foe_flag {
        // The fewer pieces the opponent has left to move, the more the
        // game is won at his flag (and, where a stuck player only draws,
        // only there); mines guard flags, so a miner goes too.
        let movers = theirs.iter().filter(|p| p.kind.is_mobile()).count();
        let weight = FLAG_ATTACK * (1.0 + 8.0 / (1.0 + movers as f64));
        let nearest = |only_miners: bool| {
            own.clone()
                .filter(|p| !only_miners || p.kind == Kind::MINER)
                .map(|p| distance(p.sq, flag))
                .min()
        };
        for d in [nearest(false), nearest(true)].into_iter().flatten() {
            *score -= weight * f64::from(d);
        }
    }
    if let Some(flag) = own_flag {
        for p in theirs.iter().filter(|p| p.kind.is_mobile()) {
            let d = distance(p.sq, flag);
            *score -= FLAG_DEFENCE * f64::from(FLAG_ZONE.saturating_sub(d));
        }
    }
}

#[cfg(test)]
use super::{plans::miner_reserve, Weights};

/// `evaluate`'s material and information with both players' plans (the
/// player's less the opponent's), exactly zero-sum: the slow reference of
/// the deep search's evaluation (`plans`).
#[cfg(test)]
pub(crate) fn evaluate_both(state: &Stratego, player: PlayerId) -> f64 {
    if let Some(v) = ended(state, player) {
        return v;
    }
    let w = Weights::default();
    let (mut score, own, theirs) = material(state, player, w.known_cost);
    plans(state.rules.variant, &own, &theirs, w.known_hunt, &mut score);
    let mut foe_plans = 0.0;
    plans(
        state.rules.variant,
        &theirs,
        &own,
        w.known_hunt,
        &mut foe_plans,
    );
    score - foe_plans + miner_reserve(state, player, w.miner_reserve)
        - miner_reserve(state, player.other(), w.miner_reserve)
}

/// The pull of each mobile piece towards the opponent piece it beats that
/// is worth most per square of distance; an intruder near the player's
/// flag is worth more.
fn hunt(
    variant: Variant,
    own: &[Seen],
    theirs: &[Seen],
    own_flag: Option<Square>,
    known_weight: f64,
) -> f64 {
    let mut pull = 0.0;
    for p in own.iter().filter(|p| p.kind.is_mobile()) {
        let mut best: f64 = 0.0;
        for t in theirs {
            if variant.fight(p.kind, t.kind) == Fight::AttackerWins {
                let near_flag = own_flag.map_or(0, |f| FLAG_ZONE.saturating_sub(distance(f, t.sq)));
                let mut worth =
                    piece_value(variant, t.kind).max(0.5) * (1.0 + 2.0 * f64::from(near_flag));
                if t.known {
                    worth *= known_weight;
                }
                best = best.max(worth / f64::from(distance(p.sq, t.sq).max(1)));
            }
        }
        pull += HUNT * best;
    }
    pull
}

/// The number of orthogonal steps between two squares, lakes ignored.
pub(crate) fn distance(a: Square, b: Square) -> u32 {
    u32::from(a.file().abs_diff(b.file())) + u32::from(a.rank().abs_diff(b.rank()))
}
