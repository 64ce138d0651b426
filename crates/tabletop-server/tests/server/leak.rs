//! Hidden information never crosses the wire: two matches that differ only
//! in what a seat cannot see give that seat byte-identical responses, and
//! give the spectator byte-identical public views. The pairs are built
//! for every registered game from random records: one action of the
//! other seat or of chance is replaced by another that the seat
//! perceives alike, keeping the rest of the record legal and the seat's
//! observation equal at every step.

use crate::common;

use std::sync::Arc;

use common::*;
use game_env::{DynGame, DynState};
use game_traits::{PlayerId, Turn};
use tabletop_server::registry;
use tabletop_server::room::chance_rng;
use tabletop_server::seat::Seat;

/// Longest record compared: every prefix of it is served twice, so long
/// games (a Stratego setup alone is 80 actions) are cut here.
const MAX_RECORD: usize = 110;

/// A random record of `game` from `seed` (its first [`MAX_RECORD`]
/// actions): chance drawn as the server draws it, decisions uniformly at
/// random.
fn random_record(game: &Arc<dyn DynGame>, seed: u64) -> Vec<usize> {
    let mut s = game.new_state();
    let mut actions = Vec::new();
    let mut ids = Vec::new();
    while !s.is_terminal() && actions.len() < MAX_RECORD {
        let id = match s.turn() {
            Turn::Chance => s
                .sample_chance_id(&mut chance_rng(seed, actions.len()))
                .unwrap(),
            _ => {
                s.legal_ids(&mut ids);
                ids[pick(seed, actions.len() as u64, ids.len())]
            }
        };
        s.apply_id(id).unwrap();
        actions.push(id);
    }
    actions
}

/// The states after each prefix of `actions`, or `None` if one is illegal.
fn states(game: &Arc<dyn DynGame>, actions: &[usize]) -> Option<Vec<Box<dyn DynState>>> {
    let mut s = game.new_state();
    let mut out = vec![s.clone_box()];
    for &a in actions {
        s.apply_id(a).ok()?;
        out.push(s.clone_box());
    }
    Some(out)
}

/// Records that `seat` cannot tell from `base` while the other seat can:
/// one step of chance or of the other seat changed (or two exchanged).
fn twins(game: &Arc<dyn DynGame>, base: &[usize], seat: PlayerId) -> Vec<Vec<usize>> {
    let base_states = states(game, base).unwrap();
    let mut out = Vec::new();
    let mut ids = Vec::new();
    for k in 0..base.len() {
        let at = &base_states[k];
        if at.turn() == Turn::Player(seat) {
            continue;
        }
        let seen = at.action_view(seat, base[k]).unwrap();
        at.legal_ids(&mut ids);
        for &alt in &ids {
            if alt == base[k] || at.action_view(seat, alt).unwrap() != seen {
                continue;
            }
            let mut other = base.to_vec();
            other[k] = alt;
            // A hidden choice from a fixed stock (a Stratego setup piece)
            // is changed by exchanging it with a later choice of the same
            // kind: the stock stays the same.
            let alt_states = states(game, &other).or_else(|| {
                let j = (k + 1..base.len()).find(|&j| base[j] == alt)?;
                other[j] = base[k];
                states(game, &other)
            });
            let Some(alt_states) = alt_states else {
                continue;
            };
            let same_for_seat = base_states
                .iter()
                .zip(&alt_states)
                .all(|(a, b)| a.observation_json(seat) == b.observation_json(seat));
            let differs_for_other = base_states
                .iter()
                .zip(&alt_states)
                .any(|(a, b)| a.observation_json(seat.other()) != b.observation_json(seat.other()));
            if same_for_seat && differs_for_other {
                out.push(other);
                break;
            }
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_and_a_spectator_get_identical_bytes_from_matches_differing_in_what_they_cannot_see()
{
    for spec in specs() {
        let game = registry().load(&spec).unwrap();
        let mut pairs = 0;
        let mut told_apart = 0;
        // Records per preset: 6 by default, fewer in the quick tier.
        for seed in 0..game_traits::testkit::env_count("LEAK_RECORDS", 6) {
            let base = random_record(&game, seed);
            for seat in PlayerId::BOTH {
                for twin in twins(&game, &base, seat).into_iter().take(2) {
                    // Both matches at every prefix, each in its own server so
                    // that the ids coincide too.
                    let (sa, a) = app(false);
                    let (sb, b) = app(false);
                    for len in 0..=base.len() {
                        let human = || [Seat::Human, Seat::Human];
                        let ca = sa.import(&spec, human(), seed, &base[..len]).await.unwrap();
                        let cb = sb
                            .import(&spec, human(), seed + 1000, &twin[..len])
                            .await
                            .unwrap();
                        assert_eq!(ca.id, cb.id);
                        let uri = format!("/api/matches/{}", ca.id);
                        let ta = &ca.tokens[seat.index()].token;
                        let tb = &cb.tokens[seat.index()].token;
                        let (_, va) = send_raw(&a, "GET", &uri, Some(ta), None).await;
                        let (_, vb) = send_raw(&b, "GET", &uri, Some(tb), None).await;
                        assert!(
                            va == vb,
                            "{spec}: {seat} tells apart {base:?} and {twin:?} at {len}:\n{}\n{}",
                            String::from_utf8_lossy(&va),
                            String::from_utf8_lossy(&vb)
                        );
                        let (_, pa) = send_raw(&a, "GET", &uri, None, None).await;
                        let (_, pb) = send_raw(&b, "GET", &uri, None, None).await;
                        assert!(
                            pa == pb,
                            "{spec}: the spectator tells apart {base:?} and {twin:?} at {len}:\n{}\n{}",
                            String::from_utf8_lossy(&pa),
                            String::from_utf8_lossy(&pb)
                        );
                        // The other seat does see a difference somewhere: the
                        // comparison above is not vacuous.
                        let other = seat.other().index();
                        let (_, oa) =
                            send_raw(&a, "GET", &uri, Some(&ca.tokens[other].token), None).await;
                        let (_, ob) =
                            send_raw(&b, "GET", &uri, Some(&cb.tokens[other].token), None).await;
                        if oa != ob {
                            told_apart += 1;
                        }
                    }
                    pairs += 1;
                }
            }
        }
        assert!(
            pairs > 0,
            "{spec}: no pair of matches differing in hidden information was found"
        );
        assert!(
            told_apart > 0,
            "{spec}: the other seat never saw the difference"
        );
    }
}
