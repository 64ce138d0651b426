//! Plays one seeded game of Battle Line between a greedy bot (P0) and a
//! random bot (P1) and prints it turn by turn.
//!
//! `cargo run -p battleline-core --example battleline_game -- [seed]`

use battleline_core::{Action, BattleLine, Observation, Rules};
use game_traits::{play_match, Agent, GameRng, RandomAgent};
use rand::Rng;

/// Claims whenever it can, draws troops, and otherwise plays a random card,
/// preferring troop cards at flags where it has started a formation.
struct Greedy;

impl Agent<BattleLine> for Greedy {
    fn name(&self) -> String {
        "greedy".to_owned()
    }

    fn choose(&mut self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        if let Some(&claim) = legal.iter().find(|a| matches!(a, Action::Claim(_))) {
            return claim;
        }
        if legal.contains(&Action::Draw(battleline_core::Deck::Troop)) {
            return Action::Draw(battleline_core::Deck::Troop);
        }
        let me = obs.viewer();
        let started: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| match a {
                Action::Play { card, flag } => {
                    card.is_troop() && !obs.table().flags()[flag.index()].side(me).is_empty()
                }
                _ => false,
            })
            .collect();
        let pool = if started.is_empty() {
            legal
        } else {
            &started[..]
        };
        pool[rng.random_range(0..pool.len())]
    }
}

fn main() {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    let (mut a, mut b) = (Greedy, RandomAgent);
    let (state, record) = play_match::<BattleLine>(&Rules::default(), seed, &mut [&mut a, &mut b])
        .expect("the engine plays every game to the end");
    record
        .replay_with(|s, action| {
            if matches!(action, Action::Play { .. } | Action::Scout | Action::Pass)
                || matches!(
                    action,
                    Action::Redeploy { .. } | Action::Deserter { .. } | Action::Traitor { .. }
                )
            {
                println!("{s}");
            }
            println!(">> {action}");
        })
        .expect("the record replays");
    println!("{state}");
}
