//! The expert's deep search: alpha-beta over determinisations drawn from
//! the belief. Each determinisation is a full state, searched by
//! iterative deepening with a quiescence search over attacks (Schadd and
//! Winands 2009: a Stratego position is only quiet once no fight is
//! pending), a transposition table keyed by Zobrist keys, and move
//! ordering by the table's move, the fight's gain, killer moves and the
//! history heuristic. Each root move's values are averaged over the
//! determinisations; a depth counts only once every determinisation has
//! been searched to it. Every move searched is one the engine lists as
//! legal, so the two-square, more-squares and chase rules of the rule set
//! hold inside the tree as they do in the game.

use std::fmt;
use std::time::Instant;

use game_traits::{Budget, Game, GameRng, PlayerId};

use super::belief::{with_kind, Belief, Weights};
use super::eval::{ended, WIN};
use super::plans::Plans;
use super::zobrist;
use super::Weights as Model;
use crate::action::{Action, Move};
use crate::bots::heuristic::piece_value;
use crate::kind::Kind;
use crate::observation::ObsCell;
use crate::observation::Observation;
use crate::state::Stratego;
use crate::variant::Fight;

/// The deepest iteration under a time budget.
const MAX_DEPTH: u32 = 24;

/// Plies of attacks the quiescence search follows past the horizon.
const QUIESCENCE_PLIES: u32 = 6;

/// Root moves worse than the best of their determinisation by more than
/// this are only known to be worse (their search fails low); they are
/// counted at that margin below the best.
const ROOT_MARGIN: f64 = 6.0;

/// Entries of the transposition table (a power of two).
const TABLE_SIZE: usize = 1 << 17;

/// Nodes between two looks at the clock.
const CLOCK_EVERY: u64 = 512;

/// A won game in the search, in material units. The evaluation's `WIN`
/// outweighs any material, which is right for a game the search sees
/// won, but not for a chance of one: a General attacking an unmoved piece
/// that is the flag one time in twenty would be worth its loss to a bomb
/// one time in three. A won game is worth about what a whole army is.
const SEARCH_WIN: f64 = 60.0;

/// The search's value of an ended game whose evaluation is `v`, reached
/// `ply` plies down: a win sooner is worth more, a loss later less.
fn won(v: f64, ply: usize) -> f64 {
    let v = v / WIN * SEARCH_WIN;
    v - v.signum() * ply as f64 * 0.01
}

/// Whether `m` sends a piece worth `high` or more ([`Model::high_piece`])
/// against an unmoved piece its side does not know, while the side has a
/// cheaper mobile piece left to probe it with.
fn reckless(state: &Stratego, m: Move, high: f64) -> bool {
    let (attacker, target) = (state.board[m.from.pad()], state.board[m.to.pad()]);
    if target.bits() == 0 || target.moved() || target.revealed() {
        return false;
    }
    let variant = state.rules.variant;
    if piece_value(variant, attacker.kind()) < high {
        return false;
    }
    let alive = &state.alive[attacker.owner()];
    variant
        .kinds()
        .any(|k| k.is_mobile() && alive[k.index()] > 0 && piece_value(variant, k) < high)
}

/// What a table entry's value is to the window it was searched with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    /// At least the value (the search failed high).
    Lower,
    /// At most the value (it failed low).
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    value: f32,
    depth: u8,
    bound: Bound,
    best: Option<Move>,
}

const EMPTY_ENTRY: Entry = Entry {
    key: 0,
    value: 0.0,
    depth: 0,
    bound: Bound::Upper,
    best: None,
};

/// The search's memory, kept from one decision to the next (the table's
/// keys hold every piece's kind, so an entry stays true for any
/// determinisation that reaches its position).
#[derive(Clone)]
pub(crate) struct Searcher {
    table: Vec<Entry>,
    /// Two moves per ply that cut off a sibling search.
    killers: Vec<[Option<Move>; 2]>,
    /// Per (from, to) square index, how much the move has cut off.
    history: Vec<u32>,
    /// Move lists, one per ply, reused.
    lists: Vec<Vec<Action>>,
    nodes: u64,
    /// What the leaves value and how many determinisations are searched.
    model: Model,
    /// The leaves' evaluation of the determinisation being searched.
    plans: Option<Plans>,
    deadline: Option<Instant>,
    stopped: bool,
}

impl fmt::Debug for Searcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Searcher")
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

impl Searcher {
    /// A searcher with an empty memory, its leaves valued by `model`.
    pub(crate) fn new(model: Model) -> Self {
        Searcher {
            table: Vec::new(),
            killers: Vec::new(),
            history: vec![0; 100 * 100],
            lists: Vec::new(),
            nodes: 0,
            model,
            plans: None,
            deadline: None,
            stopped: false,
        }
    }

    /// The weights its leaves are valued by.
    pub(crate) fn model(&self) -> Model {
        self.model
    }
}

/// One determinisation at the root of a decision, with what its search
/// reads.
struct Root<'a> {
    obs: &'a Observation,
    det: &'a Stratego,
    legal: &'a [Action],
    /// Per legal move, the belief's odds of the defender's kinds where the
    /// move attacks an unknown piece.
    chances: &'a [Option<Weights>],
    /// Per legal move, whether it is a reckless probe (`reckless`).
    barred: &'a [bool],
}

/// What one decision's search found.
pub(crate) struct Found {
    /// Per legal move (in the order given), its mean value over the
    /// determinisations at the deepest depth completed.
    pub(crate) values: Vec<f64>,
    /// That depth (0: none completed).
    pub(crate) depth: u32,
}

impl Searcher {
    /// Searches `legal` from `obs` within `budget`: iterations name the
    /// depth in plies (reproducible), a time budget deepens until the time
    /// is spent (the first depth is always completed).
    pub(crate) fn search(
        &mut self,
        obs: &Observation,
        legal: &[Action],
        belief: &Belief,
        budget: Budget,
        rng: &mut GameRng,
    ) -> Found {
        let start = Instant::now();
        let (max_depth, limit) = match budget {
            Budget::Iterations(n) => (n.max(1), None),
            Budget::Time(t) => (MAX_DEPTH, Some(t)),
        };
        if self.table.is_empty() {
            self.table = vec![EMPTY_ENTRY; TABLE_SIZE];
        }
        self.history.iter_mut().for_each(|h| *h /= 8);
        self.killers.clear();
        self.stopped = false;
        // The first depth may overrun the budget a little, never by much:
        // past three budgets the heuristic's move stands instead.
        self.deadline = limit.map(|t| start + 3 * t);
        let model = self.model;
        let dets: Vec<(Stratego, Plans)> = (0..model.determinisations.max(1))
            .filter_map(|_| belief.determinize(obs, rng))
            .map(|det| {
                let plans = Plans::new(&det, model);
                (det, plans)
            })
            .collect();
        let mut found = Found {
            values: vec![0.0; legal.len()],
            depth: 0,
        };
        if dets.is_empty() {
            return found;
        }
        // An attack on an unknown piece is a chance node: its value is
        // averaged over the kinds the belief gives the defender, not over
        // the few kinds the determinisations happened to draw for it.
        let chances: Vec<Option<Weights>> = legal
            .iter()
            .map(|a| match a {
                Action::Move(m) if matches!(obs.cell(m.to), ObsCell::Foe { kind: None, .. }) => {
                    belief.marginal(obs, m.to)
                }
                _ => None,
            })
            .collect();
        let mut barred: Vec<bool> = legal
            .iter()
            .map(|a| match (a, dets.first()) {
                (Action::Move(m), Some((det, _))) => reckless(det, *m, model.high_piece),
                _ => false,
            })
            .collect();
        if barred.iter().all(|&b| b) {
            barred.fill(false);
        }
        let mut order: Vec<usize> = (0..legal.len()).collect();
        for depth in 1..=max_depth {
            let mut totals = vec![0.0; legal.len()];
            for (det, plans) in &dets {
                self.plans = Some(plans.clone());
                let root = Root {
                    obs,
                    det,
                    legal,
                    chances: &chances,
                    barred: &barred,
                };
                self.root(&root, &order, depth, &mut totals);
                if self.stopped {
                    return found;
                }
            }
            let n = dets.len() as f64;
            found.values = totals.iter().map(|t| t / n).collect();
            found.depth = depth;
            order.sort_by(|&a, &b| found.values[b].total_cmp(&found.values[a]));
            if let Some(t) = limit {
                // The next depth takes several times this one: start it
                // only when it can plausibly finish.
                self.deadline = Some(start + t);
                if start.elapsed() * 3 > t {
                    break;
                }
            }
        }
        found
    }

    /// Adds to `totals` each root move's value in the root's
    /// determinisation at `depth`.
    fn root(&mut self, root: &Root, order: &[usize], depth: u32, totals: &mut [f64]) {
        let key = zobrist::key(root.det);
        let mut best = f64::NEG_INFINITY;
        let mut values = vec![0.0; root.legal.len()];
        for &i in order {
            let Action::Move(m) = root.legal[i] else {
                continue;
            };
            if root.barred[i] {
                values[i] = -2.0 * SEARCH_WIN;
                continue;
            }
            let v = match &root.chances[i] {
                Some(odds) => self.chance(root, odds, m, depth),
                None => {
                    let alpha = best - ROOT_MARGIN;
                    let v = self.after(root.det, key, m, depth, alpha);
                    v.max(alpha)
                }
            };
            if self.stopped {
                return;
            }
            values[i] = v;
            best = best.max(v);
        }
        for (t, v) in totals.iter_mut().zip(values) {
            *t += v;
        }
    }

    /// The value of the attack `m` on an unknown piece: the mean over the
    /// kinds the defender may be, weighted by the belief's `odds`.
    fn chance(&mut self, root: &Root, odds: &Weights, m: Move, depth: u32) -> f64 {
        let (mut sum, mut weight) = (0.0, 0.0);
        for k in Kind::ALL {
            let p = odds[k.index()];
            if p <= 0.0 {
                continue;
            }
            let Some(det) = with_kind(root.obs, root.det, m.to, k) else {
                continue;
            };
            let v = self.after(&det, zobrist::key(&det), m, depth, f64::NEG_INFINITY);
            if self.stopped {
                return 0.0;
            }
            sum += p * v;
            weight += p;
        }
        if weight > 0.0 {
            sum / weight
        } else {
            self.after(
                root.det,
                zobrist::key(root.det),
                m,
                depth,
                f64::NEG_INFINITY,
            )
        }
    }

    /// The value for the player to move in `state` (of key `key`) of
    /// playing `m`, searched `depth` plies in all, failing low at `alpha`.
    fn after(&mut self, state: &Stratego, key: u64, m: Move, depth: u32, alpha: f64) -> f64 {
        let mut child = state.clone();
        child.apply_unchecked(Action::Move(m));
        let child_key = zobrist::after_move(key, state, &child, m);
        -self.negamax(&child, child_key, depth - 1, 1, f64::NEG_INFINITY, -alpha)
    }

    /// The value of `state` for `player` by the plans of the
    /// determinisation being searched.
    fn evaluate(&self, state: &Stratego, player: PlayerId) -> f64 {
        self.plans
            .as_ref()
            .map_or(0.0, |plans| plans.evaluate(state, player))
    }

    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_EVERY) {
            if let Some(d) = self.deadline {
                self.stopped = Instant::now() >= d;
            }
        }
    }

    /// The value of `state` for the player to move, searched `depth` plies
    /// and then to quiescence, within the window (`alpha`, `beta`).
    fn negamax(
        &mut self,
        state: &Stratego,
        key: u64,
        depth: u32,
        ply: usize,
        mut alpha: f64,
        beta: f64,
    ) -> f64 {
        self.tick();
        let me = state.to_move();
        if let Some(v) = ended(state, me) {
            return won(v, ply);
        }
        if depth == 0 {
            return self.quiesce(state, key, ply, QUIESCENCE_PLIES, alpha, beta);
        }
        let slot = (key as usize) & (TABLE_SIZE - 1);
        let entry = self.table[slot];
        let mut tt_move = None;
        if entry.key == key {
            tt_move = entry.best;
            if u32::from(entry.depth) >= depth {
                let v = f64::from(entry.value);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                };
                if usable {
                    return v;
                }
            }
        }
        let mut moves = self.take_list(ply);
        state.legal_actions(&mut moves);
        let high = self.model.high_piece;
        if moves
            .iter()
            .any(|a| !matches!(a, Action::Move(m) if reckless(state, *m, high)))
        {
            moves.retain(|a| !matches!(a, Action::Move(m) if reckless(state, *m, high)));
        }
        self.order(state, &mut moves, tt_move, ply);
        let alpha_in = alpha;
        let mut best = f64::NEG_INFINITY;
        let mut best_move = None;
        for &a in &moves {
            let Action::Move(m) = a else {
                continue;
            };
            let mut child = state.clone();
            child.apply_unchecked(a);
            let child_key = zobrist::after_move(key, state, &child, m);
            let v = -self.negamax(&child, child_key, depth - 1, ply + 1, -beta, -alpha);
            if self.stopped {
                self.lists[ply] = moves;
                return 0.0;
            }
            if v > best {
                best = v;
                best_move = Some(m);
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                if state.board[m.to.pad()].bits() == 0 {
                    self.remember_cutoff(m, ply, depth);
                }
                break;
            }
        }
        self.lists[ply] = moves;
        if best == f64::NEG_INFINITY {
            // No move listed: the engine ends such games itself, so this
            // is only a position the rules have not closed yet.
            return self.evaluate(state, me);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_in {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table[slot] = Entry {
            key,
            value: best as f32,
            depth: depth.min(u32::from(u8::MAX)) as u8,
            bound,
            best: best_move,
        };
        best
    }

    /// The value of `state` for the player to move once the fights
    /// pending are played out: he may stand on the evaluation or attack.
    fn quiesce(
        &mut self,
        state: &Stratego,
        key: u64,
        ply: usize,
        left: u32,
        mut alpha: f64,
        beta: f64,
    ) -> f64 {
        self.tick();
        let me = state.to_move();
        if let Some(v) = ended(state, me) {
            return won(v, ply);
        }
        let stand = self.evaluate(state, me);
        if stand >= beta || left == 0 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = self.take_list(ply);
        state.legal_actions(&mut moves);
        // Only the fights the attacker knows the outcome of (the defender
        // is revealed to him) and that can gain: an attack on an unknown
        // piece is a gamble the determinisation would let him win with
        // hindsight, and one that loses the attacker is never better than
        // standing still.
        let variant = state.rules.variant;
        moves.retain(|a| {
            let Action::Move(m) = *a else { return false };
            let target = state.board[m.to.pad()];
            target.bits() != 0
                && target.revealed()
                && variant.fight(state.board[m.from.pad()].kind(), target.kind())
                    != Fight::DefenderWins
        });
        self.order(state, &mut moves, None, ply);
        let mut best = stand;
        for &a in &moves {
            let Action::Move(m) = a else {
                continue;
            };
            let mut child = state.clone();
            child.apply_unchecked(a);
            let child_key = zobrist::after_move(key, state, &child, m);
            let v = -self.quiesce(&child, child_key, ply + 1, left - 1, -beta, -alpha);
            if self.stopped {
                break;
            }
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.lists[ply] = moves;
        best
    }

    /// The reusable move list of `ply`.
    fn take_list(&mut self, ply: usize) -> Vec<Action> {
        while self.lists.len() <= ply {
            self.lists.push(Vec::with_capacity(64));
        }
        std::mem::take(&mut self.lists[ply])
    }

    /// A quiet move that cut off: a killer at its ply, and history by the
    /// square of its depth.
    fn remember_cutoff(&mut self, m: Move, ply: usize, depth: u32) {
        while self.killers.len() <= ply {
            self.killers.push([None; 2]);
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let h = &mut self.history[m.from.index() * 100 + m.to.index()];
        *h = h.saturating_add(depth * depth);
    }

    /// Orders `moves` best first: the table's move, then winning and even
    /// fights by what they gain, killers, the other quiet moves by
    /// history, and last the fights that lose the attacker.
    fn order(&self, state: &Stratego, moves: &mut [Action], tt_move: Option<Move>, ply: usize) {
        let variant = state.rules.variant;
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        let score = |a: &Action| -> i64 {
            let Action::Move(m) = *a else {
                return i64::MIN;
            };
            if Some(m) == tt_move {
                return i64::MAX;
            }
            let attacker = state.board[m.from.pad()];
            let target = state.board[m.to.pad()];
            if target.bits() != 0 {
                let (mine, theirs) = (attacker.kind(), target.kind());
                let gain = match variant.fight(mine, theirs) {
                    Fight::AttackerWins => piece_value(variant, theirs) + 1.0,
                    Fight::BothLeave => piece_value(variant, theirs) - piece_value(variant, mine),
                    Fight::DefenderWins => -piece_value(variant, mine) - 100.0,
                };
                return (gain * 1_000_000.0) as i64 + 1_000_000_000;
            }
            if killers.contains(&Some(m)) {
                return 900_000_000;
            }
            i64::from(self.history[m.from.index() * 100 + m.to.index()])
        };
        moves.sort_by_cached_key(|a| std::cmp::Reverse(score(a)));
    }
}
