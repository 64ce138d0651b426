//! The expert's cost per decision, in CPU time of this thread (which the
//! neighbours on a shared machine do not inflate as they do wall-clock
//! time): the positions where a card is to be played in games between two
//! heuristic bots, at the rules of docs/strength.md's pool, each decided by
//! `expert:F` (`F` futures a decision) seeded by its index. Prints the time
//! per decision, the futures per millisecond (a decision at `expert:F`
//! draws `F / 2` futures for every play, then `F` times
//! `Weights::final_futures` for the finalists) and a checksum of the
//! decisions: two builds that decide alike print the same one.
//!
//! `cargo run --release -p battleline-core --features bots --example expert_cost -- [F] [POSITIONS]`
//! (default 8 futures, 1000 positions).

use std::hash::{DefaultHasher, Hash, Hasher};

use battleline_core::{
    Action, BattleLine, ClaimTiming, EnvironmentTactics, Expert, FormationOrder, Heuristic,
    Observation, Rules, Weights,
};
use game_traits::{Agent, Game, GameRng, Turn};
use rand::SeedableRng;

/// CPU time of this thread in ns (Linux).
fn thread_cpu_ns() -> u64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    s.split_whitespace()
        .next()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0)
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
fn positions(rules: &Rules, n: usize) -> Vec<(Observation, Vec<Action>)> {
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let futures: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(8);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let rules = Rules {
        formation_order: FormationOrder::Published,
        claim_timing: ClaimTiming::StartOfTurn,
        environment_tactics: EnvironmentTactics::Movable,
        ..Rules::default()
    };
    let set = positions(&rules, n);
    let mut expert = Expert::with_samples(futures);
    let start = thread_cpu_ns();
    let chosen: Vec<Action> = set
        .iter()
        .enumerate()
        .map(|(i, (obs, legal))| {
            let mut rng = GameRng::seed_from_u64(i as u64);
            expert.choose(obs, legal, &mut rng)
        })
        .collect();
    let ns = (thread_cpu_ns() - start) as f64 / set.len() as f64;
    let per_decision = futures.div_ceil(2) + futures * Weights::default().final_futures;
    let mut h = DefaultHasher::new();
    chosen.hash(&mut h);
    println!(
        "expert:{futures} on {} positions: {:.1} us CPU a decision, {:.1} futures per ms ({per_decision} a decision), decisions {:016x}",
        set.len(),
        ns / 1e3,
        f64::from(per_decision) / (ns / 1e6),
        h.finish()
    );
}
