//! The kit's checks of [`Encode`]: fixed shape, finite values, nothing
//! beyond the observation, tensors updated in place equal to tensors
//! written whole, strings that name observations exactly, masks that hold
//! exactly the legal ids.

use std::collections::HashMap;

use rand::{Rng, SeedableRng};

use crate::{chance_rng, Encode, GameRng, PlayerId, Turn};

use super::KitConfig;
use crate::RuleSet;

/// Plays `config.games` random games under `rules` and checks the encodings
/// of both players' observations at every step; panics on the first
/// failure, naming the seed and step.
pub fn check_encoding<G: Encode>(rules: &G::Rules, config: &KitConfig) {
    let layout = G::tensor_layout(rules);
    let size = layout.size();
    assert!(size > 0, "{}: empty tensor", G::NAME);
    let mut covered = 0;
    for plane in &layout.planes {
        assert_eq!(
            plane.offset,
            covered,
            "{}: plane {} does not follow the one before",
            G::NAME,
            plane.name
        );
        covered += plane.len;
    }
    assert_eq!(covered, size, "{}: planes do not cover the tensor", G::NAME);
    let space = rules.action_space();
    // Tensors kept up to date in place, as a batch keeps its rows: one per
    // seat, and one shared that shows each seat in turn; all of them live
    // on from game to game, as a row does through auto-resets.
    let mut rows = [vec![f32::NAN; size], vec![f32::NAN; size]];
    let mut written: [G::Written; 2] = Default::default();
    let mut shared = vec![f32::NAN; size];
    let mut shared_written = G::Written::default();
    let mut kept: Option<G::Observation> = None;
    for i in 0..config.games {
        let seed = config.seed.wrapping_add(i);
        let mut rng = chance_rng(seed);
        let mut state = G::new(rules).unwrap_or_else(|e| panic!("{}: {e}", G::NAME));
        let mut strings: HashMap<String, G::Observation> = HashMap::new();
        let (mut tensor, mut other) = (vec![0.0f32; size], vec![0.0f32; size]);
        let mut legal = Vec::new();
        let mut mask = vec![false; space];
        for step in 0.. {
            let fail = |msg: String| -> ! {
                panic!(
                    "encoding failure in {} seed {seed} step {step}: {msg}",
                    G::NAME
                )
            };
            for p in PlayerId::all() {
                let obs = state.observation(p);
                tensor.fill(f32::NAN);
                G::encode(&obs, &mut tensor);
                if let Some(i) = tensor.iter().position(|v| !v.is_finite()) {
                    fail(format!("value {i} of {p}'s tensor is not finite"));
                }
                match kept.as_mut() {
                    Some(k) => state.observe_into(p, k),
                    None => kept = Some(obs.clone()),
                }
                if kept.as_ref() != Some(&obs) {
                    fail(format!("{p}'s observation written in place differs"));
                }
                for (row, written) in [
                    (&mut rows[p.index()], &mut written[p.index()]),
                    (&mut shared, &mut shared_written),
                ] {
                    G::encode_update(&obs, written, row);
                    if let Some(i) = (0..size).find(|&i| row[i].to_bits() != tensor[i].to_bits()) {
                        fail(format!(
                            "value {i} of {p}'s tensor updated in place is {}, written whole {}",
                            row[i], tensor[i]
                        ));
                    }
                }
                let text = G::information_state_string(&obs);
                if text.contains('\n') {
                    fail(format!("{p}'s information-state string spans lines"));
                }
                match strings.get(&text) {
                    Some(seen) if *seen != obs => fail(format!(
                        "two different observations share the string {text:?}"
                    )),
                    Some(_) => {}
                    None => {
                        strings.insert(text.clone(), obs.clone());
                    }
                }
                let mut det_rng = GameRng::seed_from_u64(rng.random());
                let det = G::determinize(&obs, &mut det_rng)
                    .unwrap_or_else(|e| fail(format!("determinisation for {p} refused: {e}")));
                let det_obs = det.observation(p);
                G::encode(&det_obs, &mut other);
                if tensor != other {
                    fail(format!(
                        "{p}'s tensor differs on a determinisation of his view"
                    ));
                }
                if G::information_state_string(&det_obs) != text {
                    fail(format!(
                        "{p}'s string differs on a determinisation of his view"
                    ));
                }
            }
            state.legal_mask(&mut legal, &mut mask);
            state.legal_actions(&mut legal);
            let listed = legal.iter().map(|&a| rules.action_id(a));
            if mask.iter().filter(|&&m| m).count() != legal.len()
                || listed.clone().any(|id| !mask[id])
            {
                fail("the mask does not hold exactly the legal ids".into());
            }
            let action = match state.turn() {
                Turn::Terminal => break,
                Turn::Chance => state
                    .sample_chance(&mut rng)
                    .unwrap_or_else(|| fail("chance without outcomes".into())),
                Turn::Player(_) => legal[rng.random_range(0..legal.len())],
            };
            state.apply_unchecked(action);
        }
    }
}
