//! The expert's belief over the opponent's unknown pieces: per piece, a
//! weight per kind, carried along as the piece moves. The prior is the
//! setup model at the square the piece started on; what the observation
//! shows then narrows it (a moved piece is no mine or flag, a long move or
//! a fight reveals, the counts of pieces left bound the whole army: the
//! determinisation keeps all of that exact), and a piece that walks up to
//! one of the expert's known pieces is taken to be one that beats it.
//! The expert of today reads more of a piece's behaviour
//! ([`Evidence::Behaviour`]): one that flees a known piece is likely weaker
//! than it, one that leaves a known piece next to it untaken likely cannot
//! take it, and the longer a piece stands still the likelier it is a mine
//! or the flag. Determinisations are drawn from that belief instead of
//! uniformly.

use game_traits::PlayerId;
use rand::Rng;

use super::eval::distance;
use crate::cell::Cell;
use crate::kind::{Kind, KindSet};
use crate::observation::{ObsCell, Observation};
use crate::setup::model::square_weight;
use crate::setup::{SetupSquare, SETUP_SQUARES};
use crate::square::Square;
use crate::state::Stratego;
use crate::validate::StateRepr;
use crate::variant::{Fight, Variant};

/// Weights over kind indices for one unknown piece.
pub(crate) type Weights = [f64; Kind::COUNT];

/// How much more likely a piece that steps up to a known piece is one that
/// beats it (people, and bots, rarely offer a piece to a stronger one).
const APPROACH_EVIDENCE: f64 = 3.0;

/// [`APPROACH_EVIDENCE`] of the belief that reads every behaviour: the
/// agents that beat the first expert walk up to a known piece only with
/// one that takes it.
const BOLD_APPROACH_EVIDENCE: f64 = 6.0;

/// How much more likely a piece that closes in on a known piece from a
/// few squares away is one that beats it.
const CLOSING_EVIDENCE: f64 = 1.5;

/// The distance within which closing in counts.
const CLOSING_RANGE: u32 = 3;

/// How much more likely a piece that steps away from a known piece of the
/// viewer's is one that this known piece beats.
const FLEE_EVIDENCE: f64 = 2.0;

/// How much less likely a piece that lets a known piece of the viewer's
/// stand next to it untaken is one that beats it.
const NO_TAKE_EVIDENCE: f64 = 0.4;

/// The opponent's moves over which an unmoved piece's odds of being a
/// mine or the flag double (people move their pieces in time; mines and
/// the flag never move).
const STILL_MOVES: f64 = 150.0;

/// What the belief reads of the opponent's moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Evidence {
    /// Only approaches to known pieces (`expert-v1`'s belief).
    #[default]
    Approach,
    /// Approaches, flights, captures left untaken, and standing still.
    Behaviour,
}

/// Swap proposals per unknown piece in one determinisation.
const SWAPS_PER_PIECE: usize = 24;

/// The belief over the opponent's pieces, kept from one decision to the
/// next (it reads only the seat's observations).
#[derive(Clone, Debug, Default)]
pub(crate) struct Belief {
    /// Per board square (index order), the weights of the opponent piece
    /// there, `None` where there is none.
    pieces: Vec<Option<Weights>>,
    /// The move count of the last observation read, `None` before play.
    moves_seen: Option<u32>,
    evidence: Evidence,
}

impl Belief {
    /// An empty belief reading `evidence`.
    pub(crate) fn new(evidence: Evidence) -> Belief {
        Belief {
            evidence,
            ..Belief::default()
        }
    }

    /// Reads a new observation of the play phase: moves the weights along
    /// the opponent's last move, adds the evidence of that move, and
    /// starts new pieces (or a new game) from the prior.
    pub(crate) fn update(&mut self, obs: &Observation) {
        let foe = obs.viewer.other();
        let fresh = match self.moves_seen {
            None => true,
            Some(seen) => obs.moves < seen || self.pieces.len() != 100,
        };
        if fresh {
            self.pieces = vec![None; 100];
        }
        let foe_moved = !fresh && self.moves_seen.is_some_and(|seen| obs.moves >= seen + 2)
            || fresh && obs.moves > 0;
        let last = obs.last_move[foe].filter(|_| foe_moved);
        if let Some(m) = last {
            let carried = if fresh {
                Some(prior(obs.rules.variant, foe, m.from))
            } else {
                self.pieces[m.from.index()].take()
            };
            if let (Some(w), ObsCell::Foe { kind: None, .. }) = (carried, obs.cell(m.to)) {
                self.pieces[m.to.index()] = Some(w);
            }
        }
        for sq in Square::all() {
            let slot = &mut self.pieces[sq.index()];
            match obs.cell(sq) {
                ObsCell::Foe {
                    kind: None, moved, ..
                } => {
                    if slot.is_none() {
                        *slot = Some(if moved {
                            [1.0; Kind::COUNT]
                        } else {
                            prior(obs.rules.variant, foe, sq)
                        });
                    }
                }
                _ => *slot = None,
            }
        }
        if let Some(m) = last {
            self.approach_evidence(obs, m.to);
            if self.evidence == Evidence::Behaviour {
                self.closing_evidence(obs, m);
                self.flight_evidence(obs, m);
                self.untaken_evidence(obs, m.to);
            }
        }
        self.moves_seen = Some(obs.moves);
    }

    /// A piece that stepped away from known pieces of the viewer's is more
    /// likely one that they beat.
    fn flight_evidence(&mut self, obs: &Observation, m: crate::action::Move) {
        let variant = obs.rules.variant;
        let Some(Some(w)) = self.pieces.get_mut(m.to.index()) else {
            return;
        };
        let after: Vec<Square> = super::neighbours(m.to).collect();
        for sq in super::neighbours(m.from).filter(|sq| !after.contains(sq)) {
            if let Some(known) = known_own(obs, sq) {
                for k in variant.kinds().filter(|k| k.is_mobile()) {
                    if variant.fight(known, k) == Fight::AttackerWins {
                        w[k.index()] *= FLEE_EVIDENCE;
                    }
                }
            }
        }
    }

    /// The viewer's last move put a known piece next to unknown pieces;
    /// those the opponent did not move against it (he moved `moved_to`'s
    /// piece instead) are less likely ones that beat it.
    fn untaken_evidence(&mut self, obs: &Observation, moved_to: Square) {
        let variant = obs.rules.variant;
        let Some(own) = obs.last_move[obs.viewer] else {
            return;
        };
        let Some(known) = known_own(obs, own.to) else {
            return;
        };
        for sq in super::neighbours(own.to).filter(|&sq| sq != moved_to) {
            if let Some(Some(w)) = self.pieces.get_mut(sq.index()) {
                for k in variant.kinds().filter(|k| k.is_mobile()) {
                    if variant.fight(k, known) == Fight::AttackerWins {
                        w[k.index()] *= NO_TAKE_EVIDENCE;
                    }
                }
            }
        }
    }

    /// A piece that stepped next to known pieces of the viewer is more
    /// likely one that beats them.
    fn approach_evidence(&mut self, obs: &Observation, at: Square) {
        let variant = obs.rules.variant;
        let Some(Some(w)) = self.pieces.get_mut(at.index()) else {
            return;
        };
        for sq in super::neighbours(at) {
            if let ObsCell::Own {
                kind,
                revealed: true,
                ..
            } = obs.cell(sq)
            {
                let factor = match self.evidence {
                    Evidence::Approach => APPROACH_EVIDENCE,
                    Evidence::Behaviour => BOLD_APPROACH_EVIDENCE,
                };
                for k in variant.kinds().filter(|k| k.is_mobile()) {
                    if variant.fight(k, kind) == Fight::AttackerWins {
                        w[k.index()] *= factor;
                    }
                }
            }
        }
    }

    /// A piece that closes in on a known piece of the viewer's (nearer
    /// than it was, within `CLOSING_RANGE`, not yet next to it) is more
    /// likely one that beats it.
    fn closing_evidence(&mut self, obs: &Observation, m: crate::action::Move) {
        let variant = obs.rules.variant;
        let Some(Some(w)) = self.pieces.get_mut(m.to.index()) else {
            return;
        };
        for sq in Square::all() {
            let Some(known) = known_own(obs, sq) else {
                continue;
            };
            let (before, after) = (distance(m.from, sq), distance(m.to, sq));
            if after < before && (2..=CLOSING_RANGE).contains(&after) {
                for k in variant.kinds().filter(|k| k.is_mobile()) {
                    if variant.fight(k, known) == Fight::AttackerWins {
                        w[k.index()] *= CLOSING_EVIDENCE;
                    }
                }
            }
        }
    }

    /// The weight of kind `k` for the unknown piece on `sq`; `still`
    /// multiplies the immobile kinds of a piece that has not moved.
    fn weight(&self, sq: usize, k: Kind, still: f64) -> f64 {
        let w = self
            .pieces
            .get(sq)
            .copied()
            .flatten()
            .map_or(1.0, |w| w[k.index()].max(1e-6));
        if k.is_mobile() {
            w
        } else {
            w * still
        }
    }

    /// How much more likely than the prior says an unmoved piece is a mine
    /// or the flag, `moves` moves into the game.
    fn stillness(&self, moves: u32) -> f64 {
        match self.evidence {
            Evidence::Approach => 1.0,
            Evidence::Behaviour => 1.0 + f64::from(moves) / 2.0 / STILL_MOVES,
        }
    }

    /// The probability of each kind for the unknown piece on `sq` of `obs`
    /// with every weight equal: what the observation alone allows.
    #[cfg(test)]
    fn uniform(&self, obs: &Observation, sq: Square) -> Option<Weights> {
        Belief {
            pieces: vec![None; 100],
            ..self.clone()
        }
        .marginal(obs, sq)
    }

    /// The belief's probability of each kind for the unknown piece on `sq`
    /// of `obs`: its weights over the kinds it may be (by what the
    /// observation rules out, and the kinds the opponent still has
    /// unseen), normalised. `None` where there is no unknown piece.
    pub(crate) fn marginal(&self, obs: &Observation, sq: Square) -> Option<Weights> {
        let ObsCell::Foe {
            kind: None,
            moved,
            ruled_out,
        } = obs.cell(sq)
        else {
            return None;
        };
        let variant = obs.rules.variant;
        let foe = obs.viewer.other();
        let mut seen = [0u8; Kind::COUNT];
        for c in &obs.cells {
            if let ObsCell::Foe { kind: Some(k), .. } = c {
                seen[k.index()] += 1;
            }
        }
        let still = if moved {
            1.0
        } else {
            self.stillness(obs.moves)
        };
        let mut p = [0.0; Kind::COUNT];
        for k in variant.kinds() {
            let left = variant.count(k) > obs.lost[foe][k.index()] + seen[k.index()];
            if left && !ruled_out.contains(k) && (!moved || k.is_mobile()) {
                p[k.index()] = self.weight(sq.index(), k, still);
            }
        }
        let sum: f64 = p.iter().sum();
        (sum > 0.0).then(|| p.map(|x| x / sum))
    }

    /// A full state consistent with `obs`, the opponent's unknown pieces
    /// drawn from the belief: a uniform consistent draw (the engine's
    /// determinisation, which keeps every constraint the observation
    /// states), then Metropolis swaps of the kinds of two unknown pieces,
    /// each allowed only where both pieces may hold the other's kind, so
    /// that the chain keeps the counts and the constraints and settles on
    /// the belief's weights.
    pub(crate) fn determinize<R: Rng + ?Sized>(
        &self,
        obs: &Observation,
        rng: &mut R,
    ) -> Option<Stratego> {
        let state = Stratego::complete(obs, rng).ok()?;
        let variant = obs.rules.variant;
        let still = self.stillness(obs.moves);
        let unknown: Vec<(usize, KindSet, f64)> = obs
            .cells
            .iter()
            .enumerate()
            .filter_map(|(i, &c)| match c {
                ObsCell::Foe {
                    kind: None,
                    moved,
                    ruled_out,
                } => {
                    let all = KindSet::of_variant(variant);
                    let allowed = if moved { all.and(KindSet::MOBILE) } else { all };
                    Some((i, allowed.minus(ruled_out), if moved { 1.0 } else { still }))
                }
                _ => None,
            })
            .collect();
        if unknown.len() < 2 {
            return Some(state);
        }
        let mut repr = StateRepr::from(&state);
        let mut kinds: Vec<Kind> = unknown
            .iter()
            .map(|&(i, _, _)| Cell::from_bits(repr.cells[i]).map_or(Kind::FLAG, Cell::kind))
            .collect();
        for _ in 0..SWAPS_PER_PIECE * unknown.len() {
            let a = rng.random_range(0..unknown.len());
            let b = rng.random_range(0..unknown.len());
            let (ka, kb) = (kinds[a], kinds[b]);
            let ((sa, allowed_a, still_a), (sb, allowed_b, still_b)) = (unknown[a], unknown[b]);
            if ka == kb || !allowed_a.contains(kb) || !allowed_b.contains(ka) {
                continue;
            }
            let ratio = self.weight(sa, kb, still_a) * self.weight(sb, ka, still_b)
                / (self.weight(sa, ka, still_a) * self.weight(sb, kb, still_b));
            if ratio >= 1.0 || rng.random::<f64>() < ratio {
                kinds.swap(a, b);
            }
        }
        for (&(i, _, _), &k) in unknown.iter().zip(&kinds) {
            if let Some(cell) = Cell::from_bits(repr.cells[i]) {
                repr.cells[i] = cell.with_kind(k).bits();
            }
        }
        // The swaps keep what the observation states, so the state is valid;
        // should it not be, the uniform draw stands.
        Some(Stratego::validate_unsettled(repr).unwrap_or(state))
    }
}

/// `det` with the unknown opponent piece on `sq` of kind `k`: its kind
/// swapped with that of another unknown piece of kind `k` that may hold
/// its present one (so the counts and every fact of `obs` still hold);
/// `None` when no such piece exists.
pub(crate) fn with_kind(
    obs: &Observation,
    det: &Stratego,
    sq: Square,
    k: Kind,
) -> Option<Stratego> {
    let here = det.piece(sq)?.kind;
    if here == k {
        return Some(det.clone());
    }
    let may_hold = |at: Square, kind: Kind| match obs.cell(at) {
        ObsCell::Foe {
            kind: None,
            moved,
            ruled_out,
        } => !ruled_out.contains(kind) && (!moved || kind.is_mobile()),
        _ => false,
    };
    if !may_hold(sq, k) {
        return None;
    }
    let other = Square::all().find(|&o| {
        o != sq && det.piece(o).is_some_and(|p| p.kind == k) && may_hold(o, k) && may_hold(o, here)
    })?;
    let mut repr = StateRepr::from(det);
    for (at, kind) in [(sq, k), (other, here)] {
        let cell = Cell::from_bits(repr.cells[at.index()])?;
        repr.cells[at.index()] = cell.with_kind(kind).bits();
    }
    Stratego::validate_unsettled(repr).ok()
}

/// The kind of the viewer's piece on `sq`, if the opponent knows it.
fn known_own(obs: &Observation, sq: Square) -> Option<Kind> {
    match obs.cell(sq) {
        ObsCell::Own {
            kind,
            revealed: true,
            ..
        } => Some(kind),
        _ => None,
    }
}

/// The prior weights of the opponent piece that started on board square
/// `sq`: how often people put each kind on that setup square.
fn prior(variant: Variant, foe: PlayerId, sq: Square) -> Weights {
    let mut w = [1.0; Kind::COUNT];
    let home = (0..SETUP_SQUARES)
        .find(|&i| SetupSquare::from_index(i).and_then(|s| s.board_square(foe)) == Some(sq));
    if let Some(i) = home {
        for k in Kind::ALL {
            w[k.index()] = square_weight(variant, i, k);
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::action::Move;
    use crate::position::PositionBuilder;
    use crate::rules::Rules;
    use crate::setup::Setup;
    use crate::state::Piece;
    use game_traits::{Game, GameRng};

    /// A classic game at its first move.
    fn opening() -> Stratego {
        let rules = Rules::classic();
        let mut rng = GameRng::seed_from_u64(3);
        let own = Setup::smart(rules.variant, &mut rng);
        let foe = Setup::smart(rules.variant, &mut rng);
        Stratego::new_with_setups(&rules, &own, &foe).unwrap()
    }

    /// How often, in `n` determinisations of the opening seen by the first
    /// player, the opponent's flag stands in his back row.
    fn flag_in_back_row(belief: Option<&Belief>, n: usize) -> usize {
        let obs = opening().observation(PlayerId::P0);
        let mut rng = GameRng::seed_from_u64(5);
        (0..n)
            .filter(|_| {
                let drawn = match belief {
                    Some(b) => b.determinize(&obs, &mut rng).unwrap(),
                    None => Stratego::determinize(&obs, &mut rng).unwrap(),
                };
                let back = drawn.pieces().any(|(sq, p)| {
                    p.owner == PlayerId::P1 && p.kind == Kind::FLAG && sq.rank() == 10
                });
                back
            })
            .count()
    }

    #[test]
    fn determinisations_put_the_flag_where_people_do() {
        let mut belief = Belief::default();
        belief.update(&opening().observation(PlayerId::P0));
        // People put the flag in the back row in 88 % of the setups; a
        // uniform draw puts it there in a quarter of the draws.
        let modelled = flag_in_back_row(Some(&belief), 200);
        let uniform = flag_in_back_row(None, 200);
        assert!(modelled >= 140, "{modelled} of 200");
        assert!(uniform <= 80, "{uniform} of 200");
    }

    #[test]
    fn a_piece_that_walks_up_to_a_known_piece_is_believed_to_beat_it() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let general = Piece::new(PlayerId::P0, Kind::R1).moved().revealed();
        let state = PositionBuilder::new(Rules::classic())
            .piece(sq("a1"), Piece::new(PlayerId::P0, Kind::FLAG))
            .piece(sq("e5"), general)
            .piece(sq("a10"), Piece::new(PlayerId::P1, Kind::FLAG))
            .piece(sq("e6"), Piece::new(PlayerId::P1, Kind::R0).moved())
            .piece(sq("j10"), Piece::new(PlayerId::P1, Kind::R5).moved())
            .moves(9)
            .last_move(
                PlayerId::P1,
                Some(Move {
                    from: sq("e7"),
                    to: sq("e6"),
                }),
            )
            .build()
            .unwrap();
        let mut belief = Belief::default();
        belief.update(&state.observation(PlayerId::P0));
        let walked = belief.pieces[sq("e6").index()].unwrap();
        let start = prior(Variant::Classic, PlayerId::P1, sq("e7"));
        // Only the Marshal beats the General: its weight alone is raised
        // over the prior of the square the piece came from.
        let raised = |k: Kind| walked[k.index()] / start[k.index()];
        assert_eq!(raised(Kind::R0), APPROACH_EVIDENCE);
        for k in [Kind::R1, Kind::R2, Kind::R5, Kind::R9] {
            assert_eq!(raised(k), 1.0);
        }
    }

    /// The mean log-probability the belief gives the true kind of each
    /// unknown opponent piece, seen by the first player every tenth move
    /// of fixed-seed games against `expert-v1` (one determinisation a
    /// move: an opponent that flees, approaches and captures as a search
    /// decides); per evidence read, and for a uniform belief over what
    /// the observation allows.
    fn log_likelihoods(games: u64) -> (f64, f64, f64) {
        use crate::bots::expert::Expert;
        use game_traits::Budget;
        use game_traits::{Agent, Turn};

        let rules = Rules {
            max_moves: 400,
            ..Rules::classic()
        };
        let (mut sums, mut n) = ([0.0; 3], 0usize);
        for seed in 0..games {
            let mut state = Stratego::new(&rules).unwrap();
            let mut rng = GameRng::seed_from_u64(seed);
            let mut bots = [
                Expert::v1(Some(Budget::Iterations(1))),
                Expert::v1(Some(Budget::Iterations(1))),
            ];
            let mut beliefs = [
                Belief::new(Evidence::Approach),
                Belief::new(Evidence::Behaviour),
            ];
            let mut legal = Vec::new();
            while state.end().is_none() {
                let a = match state.turn() {
                    Turn::Player(p) => {
                        state.legal_actions(&mut legal);
                        let obs = state.observation(p);
                        if p == PlayerId::P0 && state.in_play() {
                            for b in &mut beliefs {
                                b.update(&obs);
                            }
                            if state.moves_played().is_multiple_of(20) {
                                for (sq, piece) in state.pieces() {
                                    let Some(uniform) = Belief::default().uniform(&obs, sq) else {
                                        continue;
                                    };
                                    let k = piece.kind.index();
                                    sums[0] += uniform[k].ln();
                                    for (sum, b) in sums[1..].iter_mut().zip(&beliefs) {
                                        *sum += b.marginal(&obs, sq).unwrap()[k].max(1e-12).ln();
                                    }
                                    n += 1;
                                }
                            }
                        }
                        bots[p.index()].choose(&obs, &legal, &mut rng)
                    }
                    _ => state.sample_chance(&mut rng).unwrap(),
                };
                state.apply(a).unwrap();
            }
        }
        let n = n as f64;
        (sums[0] / n, sums[1] / n, sums[2] / n)
    }

    #[test]
    fn reading_behaviour_raises_the_likelihood_of_the_true_kinds() {
        let (uniform, approach, behaviour) = log_likelihoods(4);
        println!(
            "mean log-likelihood of the true kinds: uniform {uniform:.4}, \
             approaches only (expert-v1) {approach:.4}, every behaviour {behaviour:.4}"
        );
        assert!(approach > uniform, "{approach} vs {uniform}");
        assert!(behaviour > approach, "{behaviour} vs {approach}");
    }
}
