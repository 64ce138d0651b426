//! Positions where the expert searches (a card to play), shared by the
//! `expert_cost` example and the `battleline` bench's expert decision.
#![allow(dead_code)]

use battleline_core::{
    Action, BattleLine, ClaimTiming, EnvironmentTactics, FormationOrder, Heuristic, Observation,
    Rules,
};
use game_traits::{Agent, Game, GameRng, Turn};
use rand::SeedableRng;

/// The rules of docs/strength.md's pool:
/// `battleline(order=gmt,claim_timing=StartOfTurn,environment_tactics=Movable)`.
pub fn pool_rules() -> Rules {
    Rules {
        formation_order: FormationOrder::Published,
        claim_timing: ClaimTiming::StartOfTurn,
        environment_tactics: EnvironmentTactics::Movable,
        ..Rules::default()
    }
}

/// Whether the expert searches here: a card to play, no claim, draw or
/// return for its rules to settle.
fn searched(legal: &[Action]) -> bool {
    legal.len() > 1
        && !legal
            .iter()
            .any(|a| matches!(a, Action::Claim(_) | Action::Draw(_) | Action::Return(_)))
}

/// Up to `n` positions where a card is to be played, from games between
/// two heuristic bots.
pub fn play_positions(rules: &Rules, n: usize) -> Vec<(Observation, Vec<Action>)> {
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for seed in 0.. {
        let mut game = BattleLine::new(rules).expect("valid rules");
        let mut rng = GameRng::seed_from_u64(seed);
        loop {
            match game.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let a = game.sample_chance(&mut rng).expect("a chance action");
                    game.apply(a).expect("a legal chance action");
                }
                Turn::Player(p) => {
                    game.legal_actions(&mut legal);
                    let obs = game.observation(p);
                    let a = Heuristic.choose(&obs, &legal, &mut rng);
                    if searched(&legal) {
                        out.push((obs, legal.clone()));
                        if out.len() == n {
                            return out;
                        }
                    }
                    game.apply(a).expect("a legal action");
                }
            }
        }
    }
    out
}
