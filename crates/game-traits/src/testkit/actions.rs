//! The kit's checks of the actions offered at one step: the legal list,
//! refusals, the whole action space, viewers' action views, the sampler and
//! applying on clones.

use rand::{Rng, SeedableRng};

use super::{ensure, round_trip, Check, Run};
use crate::RuleSet;
use crate::{Game, GameRng, PlayerId, Turn};

impl<G: Game> Run<'_, G> {
    pub(super) fn check_legal_list(&self) -> Check {
        ensure(!self.legal.is_empty(), || {
            "no legal action at a decision".into()
        })?;
        let space = self.rules.action_space();
        let mut last = None;
        for (i, &a) in self.legal.iter().enumerate() {
            let id = self.rules.action_id(a);
            ensure(id < space, || {
                format!("{a}: id {id} outside the space {space}")
            })?;
            ensure(last.is_none_or(|l| l < id), || {
                format!("legal list not strictly sorted by id at {a} (id {id})")
            })?;
            ensure(i == 0 || self.legal[i - 1] < a, || {
                format!("Ord on actions disagrees with the id order at {a} (id {id})")
            })?;
            last = Some(id);
            ensure(self.rules.action_from_id(id) == Some(a), || {
                format!("{a}: action_from_id({id}) does not give it back")
            })?;
            ensure(self.state.is_legal(a), || {
                format!("listed {a} is not is_legal")
            })?;
            let chance = self.state.turn() == Turn::Chance;
            ensure(self.rules.is_chance_outcome(a) == chance, || {
                format!("is_chance_outcome({a}) is {} where it is listed", !chance)
            })?;
        }
        Ok(())
    }

    pub(super) fn check_illegal_refused(&mut self) -> Check {
        let space = self.rules.action_space();
        for _ in 0..8 {
            let id = self.rng.random_range(0..space);
            let Some(a) = self.rules.action_from_id(id) else {
                continue;
            };
            if self.legal.contains(&a) {
                continue;
            }
            ensure(!self.state.is_legal(a), || {
                format!("unlisted {a} passes is_legal")
            })?;
            let mut copy = self.state.clone();
            ensure(copy.apply(a).is_err(), || {
                format!("unlisted {a} was applied")
            })?;
            ensure(copy == self.state, || {
                format!("refused {a} changed the state")
            })?;
        }
        ensure(self.rules.action_from_id(space).is_none(), || {
            "an action has an id outside the space".into()
        })
    }

    /// Every id of the space: `is_legal` and `check_action` agree with the
    /// list, ids round-trip, [`Ord`] follows the ids, and (all of them when
    /// the space is small, a sample otherwise) every illegal action is
    /// refused by `apply` with the state unchanged.
    pub(super) fn check_whole_space(&mut self) -> Check {
        const APPLY_ALL_BELOW: usize = 4096;
        let space = self.rules.action_space();
        let mut listed = vec![false; space];
        for &a in &self.legal {
            listed[self.rules.action_id(a)] = true;
        }
        let mut previous: Option<G::Action> = None;
        let mut refused = Vec::new();
        for (id, &is_listed) in listed.iter().enumerate() {
            let Some(a) = self.rules.action_from_id(id) else {
                continue;
            };
            ensure(self.rules.action_id(a) == id, || {
                format!("action_from_id({id}) = {a}, whose id is not {id}")
            })?;
            ensure(previous.is_none_or(|p| p < a), || {
                format!("Ord on actions disagrees with the id order at {a} (id {id})")
            })?;
            previous = Some(a);
            ensure(self.state.is_legal(a) == is_listed, || {
                format!(
                    "is_legal({a}) is {} but the list says {is_listed}",
                    !is_listed
                )
            })?;
            let checked = self.state.check_action(a);
            ensure(checked.is_ok() == is_listed, || {
                format!("check_action({a}) is {checked:?} but the list says {is_listed}")
            })?;
            if !is_listed {
                refused.push(a);
            }
        }
        if refused.len() > APPLY_ALL_BELOW {
            let keep: Vec<G::Action> = (0..64)
                .map(|_| refused[self.rng.random_range(0..refused.len())])
                .collect();
            refused = keep;
        }
        for a in refused {
            let mut copy = self.state.clone();
            let err = copy.apply(a);
            ensure(err.is_err(), || format!("unlisted {a} was applied"))?;
            ensure(copy == self.state, || {
                format!("refused {a} changed the state")
            })?;
        }
        Ok(())
    }

    /// `viewer`'s picture of the actions now possible: equal observations
    /// after two actions mean equal views, views of the same action agree
    /// on every determinisation of his observation where it is possible,
    /// and views render and round-trip.
    pub(super) fn check_views(&mut self, viewer: PlayerId) -> Check {
        const MAX_ACTIONS: usize = 40;
        let mut actions = self.legal.clone();
        if actions.len() > MAX_ACTIONS {
            for i in 0..MAX_ACTIONS {
                let j = self.rng.random_range(i..actions.len());
                actions.swap(i, j);
            }
            actions.truncate(MAX_ACTIONS);
        }
        let mut seen: Vec<(G::Observation, G::ActionView, G::Action)> = Vec::new();
        for &a in &actions {
            let view = self.state.action_view(viewer, a);
            round_trip(&view, "action view")?;
            ensure(!view.to_string().is_empty(), || {
                format!("empty view of {a} for {viewer}")
            })?;
            let mut after = self.state.clone();
            after.apply_unchecked(a);
            let obs = after.observation(viewer);
            for (other_obs, other_view, b) in &seen {
                ensure(*other_obs != obs || *other_view == view, || {
                    format!(
                        "{viewer} sees {a} as \"{view}\" and {b} as \"{other_view}\", \
                         though both leave him the same observation"
                    )
                })?;
            }
            seen.push((obs, view, a));
        }
        let obs = self.state.observation(viewer);
        let mut rng = GameRng::seed_from_u64(self.rng.random());
        let det = G::determinize(&obs, &mut rng)
            .map_err(|e| format!("determinisation for {viewer} refused: {e}"))?;
        for (_, view, a) in &seen {
            if det.is_legal(*a) {
                let other = det.action_view(viewer, *a);
                ensure(other == *view, || {
                    format!(
                        "{viewer} sees {a} as \"{view}\" but as \"{other}\" in a \
                         determinisation of his observation: the view reads hidden state"
                    )
                })?;
            }
        }
        Ok(())
    }

    /// [`Game::sample_legal`] draws only listed actions, each about equally
    /// often: a chi-square test of `20 k` draws over the `k` listed actions,
    /// at a threshold a uniform sampler exceeds about once in a million.
    pub(super) fn check_sampler(&mut self) -> Check {
        let mut scratch = Vec::new();
        if !matches!(self.state.turn(), Turn::Player(_)) {
            return ensure(
                self.state
                    .sample_legal(&mut scratch, &mut self.rng)
                    .is_none(),
                || "sample_legal drew an action where no player decides".into(),
            );
        }
        let k = self.legal.len();
        if k > 400 {
            return Ok(());
        }
        let draws = 20 * k.max(2);
        let mut counts = vec![0usize; k];
        for _ in 0..draws {
            let a = self
                .state
                .sample_legal(&mut scratch, &mut self.rng)
                .ok_or("sample_legal drew nothing at a decision")?;
            let i = self
                .legal
                .iter()
                .position(|&l| l == a)
                .ok_or_else(|| format!("sample_legal drew the unlisted {a}"))?;
            counts[i] += 1;
        }
        if k < 2 {
            return Ok(());
        }
        let expected = draws as f64 / k as f64;
        let chi2: f64 = counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        // Mean k-1, deviation sqrt(2(k-1)): 5 deviations plus a margin for
        // small k (Wilson-Hilferty would be tighter; this is ~1e-6).
        let dof = (k - 1) as f64;
        let threshold = dof + 5.0 * (2.0 * dof).sqrt() + 12.0;
        ensure(chi2 <= threshold, || {
            format!("sample_legal is not uniform: chi-square {chi2:.1} over {k} actions")
        })
    }

    pub(super) fn check_applies(&mut self) -> Check {
        let n = self.legal.len();
        let take = self.config.applied_per_step.min(n);
        for k in 0..take {
            let a = if take == n {
                self.legal[k]
            } else {
                self.legal[self.rng.random_range(0..n)]
            };
            let mut one = self.state.clone();
            one.apply(a)
                .map_err(|e| format!("listed {a} refused: {e}"))?;
            let mut two = self.state.clone();
            two.apply_unchecked(a);
            ensure(one == two, || {
                format!("{a}: apply and apply_unchecked differ")
            })?;
            let mut three = self.state.clone();
            three
                .apply(a)
                .map_err(|e| format!("listed {a} refused: {e}"))?;
            ensure(one == three, || format!("{a}: applying to clones differs"))?;
        }
        Ok(())
    }
}
