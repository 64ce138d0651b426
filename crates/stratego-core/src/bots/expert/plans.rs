//! The evaluation of the deep search's leaves: material and information
//! exactly, and the players' plans (hunting the pieces each piece beats,
//! walking to the opponent's flag, keeping intruders from one's own) as
//! fields over the squares, computed once per determinisation at the root.
//! The full evaluation (`eval`) pairs every piece with every opponent
//! piece, far too slow for the thousands of leaves a deep search values;
//! a few plies change where the targets stand too little to matter, while
//! a capture, which does, changes the material, valued exactly.

use game_traits::{PerPlayer, PlayerId};

use super::eval::{distance, ended, FLAG_ZONE};
use super::Weights;
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
    /// Per kind index, whether the opponent still has a kind that beats
    /// it when attacking (the Marshal's: the Spy).
    beatable: [bool; Kind::COUNT],
}

/// Both players' plans, fixed for one determinisation.
#[derive(Clone)]
pub(crate) struct Plans {
    sides: PerPlayer<Side>,
    values: [f64; Kind::COUNT],
    weights: Weights,
}

impl Plans {
    /// The plans of both players in `state` (a determinisation: every
    /// kind known), weighed by `weights`.
    pub(crate) fn new(state: &Stratego, weights: Weights) -> Plans {
        let variant = state.rules.variant;
        let mut values = [0.0; Kind::COUNT];
        for k in Kind::ALL {
            values[k.index()] = piece_value(variant, k);
        }
        let sides = PerPlayer::new(
            side(state, PlayerId::P0, variant, &weights),
            side(state, PlayerId::P1, variant, &weights),
        );
        Plans {
            sides,
            values,
            weights,
        }
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
        let w = &self.weights;
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
                score -= w.known_cost * value;
            }
            if cell.revealed() && value >= EXPOSED_PIECE && side.beatable[kind.index()] {
                score -= exposure(state, sq, p, value, w.exposure);
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
        score += miner_reserve(state, p, w.miner_reserve);
        if let Some(flag) = side.flag {
            let mut intruders = state.mobile[p.other()];
            while intruders != 0 {
                let sq = Square::from_bit(intruders.trailing_zeros());
                intruders &= intruders - 1;
                score -= w.flag_defence * f64::from(FLAG_ZONE.saturating_sub(distance(sq, flag)));
            }
        }
        score
    }
}

/// `p`'s plans in `state`.
fn side(state: &Stratego, p: PlayerId, variant: Variant, w: &Weights) -> Side {
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
            let mut worth =
                piece_value(variant, x.kind).max(0.5) * (1.0 + 2.0 * f64::from(near_flag));
            if x.revealed {
                worth *= w.known_hunt;
            }
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
            hunt[k.index()][sq.index()] = (w.hunt * best) as f32;
        }
    }
    let mut beatable = [false; Kind::COUNT];
    for k in variant.kinds() {
        beatable[k.index()] = variant.kinds().any(|a| {
            a.is_mobile()
                && state.alive[p.other()][a.index()] > 0
                && variant.fight(a, k) == Fight::AttackerWins
        });
    }
    let movers = targets.iter().filter(|t| t.1.is_mobile()).count();
    let target = foe_flag.map(|f| (f, w.flag_attack * (1.0 + 8.0 / (1.0 + movers as f64))));
    Side {
        hunt,
        target,
        flag,
        beatable,
    }
}

/// What `p`'s last Miners are worth beyond their material: the game is
/// won at the flag, behind its mines, and without a Miner it is often a
/// draw. Where a player left without a move only draws (Czech) it always
/// is (the expert drew 18 of 60 Czech games against the heuristic, most
/// with its Miners spent and a large lead); where he loses (classic,
/// Srazhenie), it is once neither side's movers can take the other's:
/// each of the expert's 18 draws in 400 classic games against the
/// heuristic ran to the move limit with every Miner of both sides gone
/// and both flags mined in, and with the reserve in every rule set it
/// drew 10 (376-14-10, against 368-14-18). By the number alive: the last
/// is worth 4 more, the second 2, the third 1, times `scale`.
pub(crate) fn miner_reserve(state: &Stratego, p: PlayerId, scale: f64) -> f64 {
    const RESERVE: [f64; 4] = [0.0, 4.0, 6.0, 7.0];
    let n = usize::from(state.alive[p][Kind::MINER.index()]);
    scale * RESERVE[n.min(RESERVE.len() - 1)]
}

/// Known pieces worth at least this (Marshal, General, Colonel) keep off
/// unknown opponent pieces.
const EXPOSED_PIECE: f64 = 6.0;

/// What `p`'s known piece of `value` on `sq` risks from the unknown
/// opponent pieces beside it: `share` of it for each ([`Weights::exposure`]).
pub(crate) fn exposure(state: &Stratego, sq: Square, p: PlayerId, value: f64, share: f64) -> f64 {
    let unknown = super::neighbours(sq)
        .filter(|n| {
            let c = state.board[n.pad()];
            c.is_piece_of(p.other()) && !c.revealed()
        })
        .count();
    share * value * unknown as f64
}

#[cfg(test)]
mod tests {
    use game_traits::{Game, GameRng};
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::bots::expert::eval::evaluate_both;
    use crate::rules::Rules;
    use crate::setup::Setup;

    /// `p`'s known high pieces' exposure, every fact read afresh.
    fn slow_exposure(state: &Stratego, p: PlayerId) -> f64 {
        let variant = state.rules.variant;
        state
            .pieces()
            .filter(|(_, x)| x.owner == p && x.revealed)
            .filter(|(_, x)| piece_value(variant, x.kind) >= EXPOSED_PIECE)
            .filter(|(_, x)| {
                state.pieces().any(|(_, y)| {
                    y.owner != p
                        && variant.fight(y.kind, x.kind) == Fight::AttackerWins
                        && y.kind.is_mobile()
                })
            })
            .map(|(sq, x)| {
                exposure(
                    state,
                    sq,
                    p,
                    piece_value(variant, x.kind),
                    Weights::default().exposure,
                )
            })
            .sum()
    }

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
                    let plans = Plans::new(&state, Weights::default());
                    for p in PlayerId::BOTH {
                        let full = evaluate_both(&state, p) - slow_exposure(&state, p)
                            + slow_exposure(&state, p.other());
                        let fast = plans.evaluate(&state, p);
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

    /// A known Marshal beside an unknown opponent piece loses a share of
    /// its value while the opponent's Spy lives, and nothing once the
    /// Spy is gone or the piece beside it is known.
    #[test]
    fn a_known_marshal_keeps_off_unknown_pieces_while_the_spy_lives() {
        use crate::position::PositionBuilder;
        use crate::state::Piece;
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let rules = Rules::classic();
        let spy = rules.variant.spy();
        let position = |foe_spy: Kind, beside: Piece| {
            PositionBuilder::new(rules)
                .piece(sq("a1"), Piece::new(PlayerId::P0, Kind::FLAG))
                .piece(
                    sq("e5"),
                    Piece::new(PlayerId::P0, Kind::R0).moved().revealed(),
                )
                .piece(sq("e6"), beside)
                .piece(sq("a9"), Piece::new(PlayerId::P1, foe_spy))
                .piece(sq("j10"), Piece::new(PlayerId::P1, Kind::FLAG))
                .build()
                .unwrap()
        };
        let hidden = Piece::new(PlayerId::P1, Kind::R6);
        let exposed = |state: &Stratego| {
            let side = side(
                state,
                PlayerId::P0,
                state.rules.variant,
                &Weights::default(),
            );
            if side.beatable[Kind::R0.index()] {
                exposure(
                    state,
                    sq("e5"),
                    PlayerId::P0,
                    10.0,
                    Weights::default().exposure,
                )
            } else {
                0.0
            }
        };
        assert!(
            (exposed(&position(spy, hidden)) - Weights::default().exposure * 10.0).abs() < 1e-9
        );
        assert_eq!(exposed(&position(Kind::R6, hidden)), 0.0);
        assert_eq!(exposed(&position(spy, hidden.revealed())), 0.0);
    }

    /// The last Miners are worth more than their material, the last one
    /// most, in every rule set: the flag stands behind its mines.
    #[test]
    fn the_last_miners_are_kept_for_the_flag_behind_its_mines() {
        use crate::position::PositionBuilder;
        use crate::state::Piece;
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let reserve = |rules: Rules, miners: &[&str]| {
            let mut b = PositionBuilder::new(rules)
                .piece(sq("a1"), Piece::new(PlayerId::P0, Kind::FLAG))
                .piece(sq("j10"), Piece::new(PlayerId::P1, Kind::FLAG))
                .piece(sq("j1"), Piece::new(PlayerId::P1, Kind::R0));
            for m in miners {
                b = b.piece(sq(m), Piece::new(PlayerId::P0, Kind::MINER));
            }
            miner_reserve(&b.build().unwrap(), PlayerId::P0, 1.0)
        };
        for rules in [Rules::classic(), Rules::srazhenie(), Rules::czech()] {
            let (none, one, two) = (
                reserve(rules, &[]),
                reserve(rules, &["b1"]),
                reserve(rules, &["b1", "c1"]),
            );
            assert_eq!(none, 0.0);
            assert!(one > 0.0 && two > one && two - one < one, "{one} {two}");
        }
    }

    /// Each weight of the leaves' value changes it: a position where every
    /// term counts (a known Marshal beside an unknown piece while the Spy
    /// lives, an intruder near the flag, pieces to hunt, known and not, a
    /// last Miner) is valued differently once any one weight doubles.
    #[test]
    fn every_weight_reaches_the_leaves() {
        use crate::position::PositionBuilder;
        use crate::state::Piece;
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let rules = Rules::classic();
        let state = PositionBuilder::new(rules)
            .piece(sq("a1"), Piece::new(PlayerId::P0, Kind::FLAG))
            .piece(sq("c1"), Piece::new(PlayerId::P0, Kind::MINER))
            .piece(
                sq("e5"),
                Piece::new(PlayerId::P0, Kind::R0).moved().revealed(),
            )
            .piece(sq("e6"), Piece::new(PlayerId::P1, Kind::R6))
            .piece(
                sq("b2"),
                Piece::new(PlayerId::P1, Kind::R5).moved().revealed(),
            )
            .piece(sq("a9"), Piece::new(PlayerId::P1, rules.variant.spy()))
            .piece(sq("j10"), Piece::new(PlayerId::P1, Kind::FLAG))
            .build()
            .unwrap();
        let value = |w: Weights| Plans::new(&state, w).evaluate(&state, PlayerId::P0);
        let d = Weights::default();
        let doubled: [fn(&mut Weights); 7] = [
            |w| w.hunt *= 2.0,
            |w| w.known_hunt *= 2.0,
            |w| w.flag_attack *= 2.0,
            |w| w.flag_defence *= 2.0,
            |w| w.known_cost *= 2.0,
            |w| w.exposure *= 2.0,
            |w| w.miner_reserve *= 2.0,
        ];
        for double in doubled {
            let mut w = d;
            double(&mut w);
            assert!((value(w) - value(d)).abs() > 1e-6, "{w:?}");
        }
    }
}
