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

#[path = "support/expert_positions.rs"]
mod expert_positions;

use std::hash::{DefaultHasher, Hash, Hasher};

use battleline_core::{Action, Expert, Weights};
use game_traits::{Agent, GameRng};
use rand::SeedableRng;

/// CPU time of this thread in ns (Linux).
fn thread_cpu_ns() -> u64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    s.split_whitespace()
        .next()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let futures: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(8);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let set = expert_positions::play_positions(&expert_positions::pool_rules(), n);
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
