//! Drawing the hidden kinds of the opponent's pieces when moves and fights
//! ruled some kinds out piece by piece: a constrained assignment (a
//! bipartite matching with counts), decided by a maximum flow.

use rand::Rng;

use crate::kind::{Kind, KindSet};

/// Draws a kind for each of `pieces` (cell index, kinds it may be), most
/// constrained first, among the `supply` left: each piece takes one of the
/// pieces left that it may be, uniformly, unless that leaves the others no
/// complete assignment. Never stuck when `pieces` can be assigned at all;
/// close to uniform over the assignments (exactly uniform when the allowed
/// sets are nested, as "moved" and "unmoved" are).
pub(crate) fn draw_constrained<R: Rng + ?Sized>(
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
pub(crate) fn feasible(pieces: &[(usize, KindSet)], supply: &[u8; Kind::COUNT]) -> bool {
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
