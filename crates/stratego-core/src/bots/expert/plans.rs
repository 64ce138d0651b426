//! The evaluation of the deep search's leaves: material and information
//! exactly, and the players' plans (hunting the pieces each piece beats,
//! walking to the opponent's flag, keeping intruders from one's own) as
//! fields over the squares, computed once per determinisation at the root.
//! The full evaluation (`eval`) pairs every piece with every opponent
//! piece, far too slow for the thousands of leaves a deep search values;
//! a few plies change where the targets stand too little to matter, while
//! a capture, which does, changes the material, valued exactly.

use game_traits::{PerPlayer, PlayerId};

use super::eval::{distance, ended, FLAG_ATTACK, FLAG_DEFENCE, FLAG_ZONE, HUNT, KNOWN_COST};
use crate::bots::heuristic::piece_value;
use crate::kind::Kind;
use crate::square::Square;
use crate::state::Stratego;
use crate::variant::{Fight, Variant};

/// One player's plans at the root of a determinisation.
#[derive(Clone)]
struct Side {
    /// Per kind index and square index, the pull of a piece of that kind
    /// standing there towards the best piece it beats.
    hunt: [[f32; 100]; Kind::COUNT],
    /// The opponent's flag and the weight of each square of distance to
    /// it (greater as his movable pieces run out).
    target: Option<(Square, f64)>,
    /// His own flag.
    flag: Option<Square>,
}

/// Both players' plans, fixed for one determinisation.
#[derive(Clone)]
pub(crate) struct Plans {
    sides: PerPlayer<Side>,
    values: [f64; Kind::COUNT],
}

impl Plans {
    /// The plans of both players in `state` (a determinisation: every
    /// kind known).
    pub(crate) fn new(state: &Stratego) -> Plans {
        let variant = state.rules.variant;
        let mut values = [0.0; Kind::COUNT];
        for k in Kind::ALL {
            values[k.index()] = piece_value(variant, k);
        }
        let sides = PerPlayer::new(
            side(state, PlayerId::P0, variant),
            side(state, PlayerId::P1, variant),
        );
        Plans { sides, values }
    }

    /// The value of `state` for `player`: as the full evaluation's terms,
    /// the player's plans less the opponent's, so exactly zero-sum.
    pub(crate) fn evaluate(&self, state: &Stratego, player: PlayerId) -> f64 {
        if let Some(v) = ended(state, player) {
            return v;
        }
        self.side_value(state, player) - self.side_value(state, player.other())
    }

    /// What `p` has: material, less what the opponent knows of it, and
    /// the pulls of his plans.
    fn side_value(&self, state: &Stratego, p: PlayerId) -> f64 {
        let side = &self.sides[p];
        let mut score = 0.0;
        let mut nearest = u32::MAX;
        let mut nearest_miner = u32::MAX;
        let mut mask = state.occ[p];
        while mask != 0 {
            let sq = Square::from_bit(mask.trailing_zeros());
            mask &= mask - 1;
            let cell = state.board[sq.pad()];
            let kind = cell.kind();
            let value = self.values[kind.index()];
            score += value;
            if cell.revealed() {
                score -= KNOWN_COST * value;
            }
            if kind.is_mobile() {
                score += f64::from(side.hunt[kind.index()][sq.index()]);
                if let Some((flag, _)) = side.target {
                    let d = distance(sq, flag);
                    nearest = nearest.min(d);
                    if kind == Kind::MINER {
                        nearest_miner = nearest_miner.min(d);
                    }
                }
            }
        }
        if let Some((_, weight)) = side.target {
            for d in [nearest, nearest_miner]
                .into_iter()
                .filter(|&d| d != u32::MAX)
            {
                score -= weight * f64::from(d);
            }
        }
        if let Some(flag) = side.flag {
            let mut intruders = state.mobile[p.other()];
            while intruders != 0 {
                let sq = Square::from_bit(intruders.trailing_zeros());
                intruders &= intruders - 1;
                score -= FLAG_DEFENCE * f64::from(FLAG_ZONE.saturating_sub(distance(sq, flag)));
            }
        }
        score
    }
}

/// `p`'s plans in `state`.
fn side(state: &Stratego, p: PlayerId, variant: Variant) -> Side {
    let flag_of = |owner: PlayerId| {
        state
            .pieces()
            .find(|(_, x)| x.owner == owner && x.kind == Kind::FLAG)
            .map(|(sq, _)| sq)
    };
    let (flag, foe_flag) = (flag_of(p), flag_of(p.other()));
    let targets: Vec<(Square, Kind, f64)> = state
        .pieces()
        .filter(|(_, x)| x.owner != p)
        .map(|(sq, x)| {
            let near_flag = flag.map_or(0, |f| FLAG_ZONE.saturating_sub(distance(f, sq)));
            let worth = piece_value(variant, x.kind).max(0.5) * (1.0 + 2.0 * f64::from(near_flag));
            (sq, x.kind, worth)
        })
        .collect();
    let mut hunt = [[0.0f32; 100]; Kind::COUNT];
    for k in variant.kinds().filter(|k| k.is_mobile()) {
        let beaten: Vec<&(Square, Kind, f64)> = targets
            .iter()
            .filter(|t| variant.fight(k, t.1) == Fight::AttackerWins)
            .collect();
        for sq in Square::all().filter(|s| !s.is_lake()) {
            let best = beaten
                .iter()
                .map(|t| t.2 / f64::from(distance(sq, t.0).max(1)))
                .fold(0.0, f64::max);
            hunt[k.index()][sq.index()] = (HUNT * best) as f32;
        }
    }
    let movers = targets.iter().filter(|t| t.1.is_mobile()).count();
    let target = foe_flag.map(|f| (f, FLAG_ATTACK * (1.0 + 8.0 / (1.0 + movers as f64))));
    Side { hunt, target, flag }
}

#[cfg(test)]
mod tests {
    use game_traits::{Game, GameRng};
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::bots::expert::eval::evaluate_both;
    use crate::rules::Rules;
    use crate::setup::Setup;

    /// At the root of a determinisation, where the fields were computed,
    /// they give the value of the full evaluation (the slow reference,
    /// every piece paired with every opponent piece), along random games
    /// of every rule set.
    #[test]
    fn plans_at_the_root_value_as_the_full_evaluation() {
        for (i, rules) in [Rules::classic(), Rules::srazhenie(), Rules::czech()]
            .into_iter()
            .enumerate()
        {
            let mut rng = GameRng::seed_from_u64(i as u64);
            let own = Setup::smart(rules.variant, &mut rng);
            let foe = Setup::smart(rules.variant, &mut rng);
            let mut state = Stratego::new_with_setups(&rules, &own, &foe).unwrap();
            let mut legal = Vec::new();
            for ply in 0..400 {
                if state.end().is_some() {
                    break;
                }
                if ply % 20 == 0 {
                    let plans = Plans::new(&state);
                    for p in PlayerId::BOTH {
                        let (fast, full) = (plans.evaluate(&state, p), evaluate_both(&state, p));
                        assert!(
                            (fast - full).abs() < 1e-3,
                            "{:?} ply {ply}: {fast} vs {full}",
                            rules.variant
                        );
                    }
                }
                state.legal_actions(&mut legal);
                state.apply_unchecked(legal[rng.random_range(0..legal.len())]);
            }
        }
    }
}
