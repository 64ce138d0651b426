//! What one player may know, and determinisation from it.

use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::error::StrategoError;
use crate::repetition::{Chase, Series};
use crate::rules::Rules;
use crate::setup::SETUP_SQUARES;
use crate::square::Square;
use crate::state::{End, LastMove, Stratego, KIND, MOVED, OWNER, PRESENT, REVEALED, WALL};
use crate::variant::{Kind, KindSet, Variant};

/// One square as a player sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ObsCell {
    /// Water.
    Lake,
    /// Nothing on it.
    Empty,
    /// One of the viewer's pieces; `revealed`: the opponent knows its rank.
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

/// Everything player `viewer` may know: his own pieces, the opponent's
/// pieces as unknown except those revealed, which pieces have moved, the
/// pieces lost by each side, and the public bookkeeping of the rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// The rules.
    pub rules: Rules,
    /// The player who observes (0 or 1).
    pub viewer: u8,
    /// The 100 squares in index order.
    pub cells: Vec<ObsCell>,
    /// Pieces placed so far by each player in the setup phase.
    pub placed: [u8; 2],
    /// Player to move once play has begun.
    pub to_move: u8,
    /// Moves made since the setup.
    pub moves: u32,
    /// Moves in a row without an attack.
    pub no_attack: u16,
    /// Pieces lost by each player, per kind index.
    pub lost: [[u8; Kind::COUNT]; 2],
    /// The two-square series of each player.
    pub series: [Series; 2],
    /// The continuous chase in progress, if any.
    pub chase: Option<Chase>,
    /// The last move of each player.
    pub last_move: [Option<LastMove>; 2],
    /// The end of the game, if reached.
    pub end: Option<End>,
}

impl Stratego {
    /// The observation of player `viewer` (0 or 1).
    pub fn observe(&self, viewer: u8) -> Observation {
        let v = viewer & 1;
        let cells = Square::all()
            .map(|sq| {
                let c = self.board[sq.pad()];
                if c == WALL {
                    return ObsCell::Lake;
                }
                if c & PRESENT == 0 {
                    return ObsCell::Empty;
                }
                let kind = Kind::new(c & KIND).unwrap_or(Kind::FLAG);
                let moved = c & MOVED != 0;
                let revealed = c & REVEALED != 0;
                if (c & OWNER) >> 4 == v {
                    ObsCell::Own {
                        kind,
                        moved,
                        revealed,
                        ruled_out: self.ruled_out[sq.index()],
                    }
                } else {
                    ObsCell::Foe {
                        kind: revealed.then_some(kind),
                        moved,
                        ruled_out: self.ruled_out[sq.index()],
                    }
                }
            })
            .collect();
        Observation {
            rules: self.rules,
            viewer: v,
            cells,
            placed: self.placed,
            to_move: self.to_move,
            moves: self.moves,
            no_attack: self.no_attack,
            lost: self.lost,
            series: self.series,
            chase: self.chase.clone(),
            last_move: self.last_move,
            end: self.end,
        }
    }

    /// A full state consistent with `obs`: the opponent's unknown pieces get
    /// kinds drawn at random from those he has left, moved pieces only
    /// movable kinds, and no piece a kind its moves and fights ruled out.
    pub fn determinize_from<R: Rng + ?Sized>(
        obs: &Observation,
        rng: &mut R,
    ) -> Result<Stratego, StrategoError> {
        let bad = |why: &str| StrategoError::Observation(why.to_owned());
        obs.rules.validate()?;
        if obs.cells.len() != 100 || obs.viewer > 1 || obs.to_move > 1 {
            return Err(bad("malformed"));
        }
        let v = obs.viewer;
        let q = v ^ 1;
        let variant = obs.rules.variant;
        let mut pool = [0i32; Kind::COUNT];
        for k in Kind::ALL {
            pool[k.index()] = variant.count(k) as i32 - obs.lost[q as usize][k.index()] as i32;
        }
        let mut constrained = false;
        let mut unknown_moved = Vec::new();
        let mut unknown_still = Vec::new();
        let mut cells = [0u8; 100];
        for (i, cell) in obs.cells.iter().enumerate() {
            cells[i] = match *cell {
                ObsCell::Lake => WALL,
                ObsCell::Empty => 0,
                ObsCell::Own {
                    kind,
                    moved,
                    revealed,
                    ..
                } => piece_cell(v, kind, moved, revealed),
                ObsCell::Foe {
                    kind: Some(kind),
                    moved,
                    ..
                } => {
                    pool[kind.index()] -= 1;
                    piece_cell(q, kind, moved, true)
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
                    piece_cell(q, Kind::FLAG, moved, false)
                }
            };
        }
        if pool.iter().any(|&n| n < 0) {
            return Err(bad("more opponent pieces known than he has"));
        }
        let mut bag: Vec<Kind> = Vec::new();
        for k in Kind::ALL {
            bag.extend(std::iter::repeat_n(k, pool[k.index()] as usize));
        }
        let setup_done = obs.placed[q as usize] as usize == SETUP_SQUARES;
        if bag.len() < unknown_moved.len() + unknown_still.len()
            || (setup_done && bag.len() != unknown_moved.len() + unknown_still.len())
        {
            return Err(bad("opponent piece count does not match"));
        }
        // Only the non-default options that hide a winning attacker or tell
        // a diagonal stepper apart rule kinds out piece by piece.
        let constrained = constrained.then(|| {
            let mut pieces: Vec<(usize, KindSet)> = unknown_moved
                .iter()
                .chain(&unknown_still)
                .map(|&i| (i, allowed_kinds(variant, obs.cells[i])))
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
            if let Some(pieces) = &constrained {
                let drawn = draw_constrained(pieces, supply, rng)
                    .ok_or_else(|| bad("no kinds fit what the opponent's pieces showed"))?;
                for (i, kind) in drawn {
                    cells[i] = (cells[i] & !KIND) | kind.index() as u8;
                }
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
                    cells[i] = piece_cell(q, kind, true, false);
                }
                bag.shuffle(rng);
                for (&i, &kind) in unknown_still.iter().zip(bag.iter()) {
                    cells[i] = piece_cell(q, kind, false, false);
                }
            }
            // Everything checked here holds or fails whatever the draw.
            let state = Stratego::from_parts_unsettled(crate::repr::StateRepr {
                rules: obs.rules,
                cells: cells.to_vec(),
                placed: obs.placed,
                to_move: obs.to_move,
                moves: obs.moves,
                no_attack: obs.no_attack,
                lost: obs.lost,
                series: obs.series,
                chase: obs.chase.clone(),
                last_move: obs.last_move,
                end: obs.end,
                ruled_out: ruled_out.clone(),
            })
            .map_err(|e| StrategoError::Observation(e.to_string()))?;
            if state.observe(v) != *obs {
                return Err(bad("observation is not reproducible"));
            }
            match state.check_outcome() {
                Ok(()) => return Ok(state),
                Err(e) => refused = Some(e),
            }
        }
        Err(StrategoError::Observation(refused.map_or_else(
            || "no consistent completion found".to_owned(),
            |e| e.to_string(),
        )))
    }
}

/// Draws [`Stratego::determinize_from`] makes before it gives up on an
/// observation. Consistent completions are scarce only at the very end of
/// a game (a stuck army, or Czech flags walled in by mines: perhaps one
/// draw in ten thousand); a draw costs about a microsecond.
const DETERMINIZE_TRIES: usize = 20_000;

fn piece_cell(owner: u8, kind: Kind, moved: bool, revealed: bool) -> u8 {
    PRESENT
        | (owner << 4)
        | kind.index() as u8
        | if moved { MOVED } else { 0 }
        | if revealed { REVEALED } else { 0 }
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

/// Draws a kind for each of `pieces` (cell index, kinds it may be), most
/// constrained first, among the `supply` left: each piece takes one of the
/// pieces left that it may be, uniformly, unless that leaves the others no
/// complete assignment. Never stuck when `pieces` can be assigned at all;
/// close to uniform over the assignments (exactly uniform when the allowed
/// sets are nested, as "moved" and "unmoved" are).
fn draw_constrained<R: Rng + ?Sized>(
    pieces: &[(usize, KindSet)],
    mut supply: [u8; Kind::COUNT],
    rng: &mut R,
) -> Option<Vec<(usize, Kind)>> {
    let mut out = Vec::with_capacity(pieces.len());
    for (n, &(i, allowed)) in pieces.iter().enumerate() {
        let mut choices = allowed;
        loop {
            let total: u32 = choices.iter().map(|k| u32::from(supply[k.index()])).sum();
            if total == 0 {
                return None;
            }
            let mut r = rng.random_range(0..total);
            let mut pick = None;
            for k in choices.iter() {
                let c = u32::from(supply[k.index()]);
                if r < c {
                    pick = Some(k);
                    break;
                }
                r -= c;
            }
            let kind = pick?;
            supply[kind.index()] -= 1;
            if feasible(&pieces[n + 1..], &supply) {
                out.push((i, kind));
                break;
            }
            supply[kind.index()] += 1;
            choices = choices.minus(KindSet::of(kind));
        }
    }
    Some(out)
}

/// Whether every one of `pieces` can get a kind it may be with at most
/// `supply[k]` pieces of kind `k`: a maximum flow from the pieces, grouped
/// by their allowed sets, to the kinds, one augmenting path per piece.
fn feasible(pieces: &[(usize, KindSet)], supply: &[u8; Kind::COUNT]) -> bool {
    // Pieces that may be any kind left (the unmoved ones, last in draw
    // order) only need enough pieces left.
    let left = Kind::ALL
        .into_iter()
        .filter(|k| supply[k.index()] > 0)
        .fold(KindSet::EMPTY, |s, k| s.or(KindSet::of(k)));
    if pieces.iter().all(|&(_, allowed)| left.is_subset(allowed)) {
        return pieces.len() <= supply.iter().map(|&n| n as usize).sum();
    }
    let mut groups: Vec<(KindSet, u32)> = Vec::new();
    for &(_, allowed) in pieces {
        match groups.iter_mut().find(|g| g.0 == allowed) {
            Some(g) => g.1 += 1,
            None => groups.push((allowed, 1)),
        }
    }
    let mut flow = vec![[0u32; Kind::COUNT]; groups.len()];
    let mut spare = supply.map(u32::from);
    let mut came = vec![usize::MAX; groups.len() + Kind::COUNT];
    let mut queue = Vec::with_capacity(groups.len() + Kind::COUNT);
    while groups.iter().any(|g| g.1 > 0) {
        if !augment(&mut groups, &mut flow, &mut spare, &mut came, &mut queue) {
            return false;
        }
    }
    true
}

/// Finds one augmenting path (breadth first) from a group with pieces
/// left to a kind with spare supply, and pushes as much as it carries.
/// `came` and `queue` are scratch space.
fn augment(
    groups: &mut [(KindSet, u32)],
    flow: &mut [[u32; Kind::COUNT]],
    spare: &mut [u32; Kind::COUNT],
    came: &mut [usize],
    queue: &mut Vec<usize>,
) -> bool {
    // Nodes: groups 0..g, then kinds g..g+12; `came` is the predecessor.
    let g = groups.len();
    came.fill(usize::MAX);
    queue.clear();
    queue.extend((0..g).filter(|&j| groups[j].1 > 0));
    for &j in queue.iter() {
        came[j] = j;
    }
    let mut head = 0;
    while head < queue.len() {
        let node = queue[head];
        head += 1;
        if node < g {
            for k in groups[node].0.iter() {
                let kn = g + k.index();
                if came[kn] == usize::MAX {
                    came[kn] = node;
                    if spare[k.index()] > 0 {
                        push_along(groups, flow, spare, came, kn);
                        return true;
                    }
                    queue.push(kn);
                }
            }
        } else {
            let k = node - g;
            for j in 0..g {
                if came[j] == usize::MAX && flow[j][k] > 0 {
                    came[j] = node;
                    queue.push(j);
                }
            }
        }
    }
    false
}

/// Pushes the most the path ending at kind node `end` carries: the pieces
/// left in its first group, the spare supply of its kind, and the flow of
/// every assignment it takes back.
fn push_along(
    groups: &mut [(KindSet, u32)],
    flow: &mut [[u32; Kind::COUNT]],
    spare: &mut [u32; Kind::COUNT],
    came: &[usize],
    end: usize,
) {
    let g = groups.len();
    let mut amount = spare[end - g];
    let mut node = end;
    loop {
        let prev = came[node];
        if node < g && prev == node {
            amount = amount.min(groups[node].1);
            break;
        }
        if node < g {
            // Group `node` was reached back from kind `prev`.
            amount = amount.min(flow[node][prev - g]);
        }
        node = prev;
    }
    spare[end - g] -= amount;
    let mut node = end;
    loop {
        let prev = came[node];
        if node >= g {
            flow[prev][node - g] += amount;
        } else if prev == node {
            groups[node].1 -= amount;
            return;
        } else {
            flow[node][prev - g] -= amount;
        }
        node = prev;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::SeedableRng;

    /// Hall's condition, plainly: every set of kinds can hold the pieces
    /// that may only be kinds of that set.
    fn hall(pieces: &[(usize, KindSet)], supply: &[u8; Kind::COUNT]) -> bool {
        (0u16..1 << Kind::COUNT).all(|bits| {
            let s = KindSet::try_from(bits).unwrap_or_default();
            let need = pieces.iter().filter(|p| p.1.is_subset(s)).count();
            let have: usize = s.iter().map(|k| supply[k.index()] as usize).sum();
            need <= have
        })
    }

    fn instance() -> impl Strategy<Value = (Vec<(usize, KindSet)>, [u8; Kind::COUNT])> {
        // Allowed sets drawn from a few shapes, as in play, plus any set.
        let set = prop_oneof![
            (0u16..4096).prop_map(|b| KindSet::try_from(b).unwrap_or_default()),
            (0u16..16).prop_map(|b| KindSet::try_from(b << 6 | 0xF).unwrap_or_default()),
            Just(KindSet::MOBILE),
            Just(KindSet::try_from(0xFFF).unwrap_or_default()),
        ];
        (
            proptest::collection::vec(set, 0..14),
            proptest::array::uniform12(0u8..3),
        )
            .prop_map(|(sets, supply)| (sets.into_iter().enumerate().collect(), supply))
    }

    proptest! {
        #[test]
        fn feasibility_is_halls_condition((pieces, supply) in instance()) {
            prop_assert_eq!(feasible(&pieces, &supply), hall(&pieces, &supply));
        }

        #[test]
        fn constrained_draws_fit_when_feasible((pieces, supply) in instance(), seed in any::<u64>()) {
            let mut rng = game_traits::GameRng::seed_from_u64(seed);
            let drawn = draw_constrained(&pieces, supply, &mut rng);
            prop_assert_eq!(drawn.is_some(), feasible(&pieces, &supply));
            if let Some(drawn) = drawn {
                let mut used = [0u8; Kind::COUNT];
                for (&(i, allowed), &(j, kind)) in pieces.iter().zip(&drawn) {
                    prop_assert_eq!(i, j);
                    prop_assert!(allowed.contains(kind));
                    used[kind.index()] += 1;
                }
                prop_assert!(used.iter().zip(&supply).all(|(u, s)| u <= s));
            }
        }
    }
}
