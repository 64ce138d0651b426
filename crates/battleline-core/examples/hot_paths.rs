//! Runs one hot path many times, for `valgrind --tool=callgrind` (whose
//! instruction counts do not move with the neighbours on a shared machine,
//! as wall-clock times do). Prints the work done, so instructions per call
//! are the total divided by it.
//!
//! `cargo build --release -p battleline-core --example hot_paths`, then
//! `valgrind --tool=callgrind target/release/examples/hot_paths MODE N`
//! with MODE one of games, proof_mid, proof_top, proof_hard,
//! proof_top_set, proof_hard_set, formation_plain, formation_wild (the
//! `setup` mode builds the mid-game set and does nothing else, `MODE 0`
//! any other set: subtract its count). The `_set` modes and proof_mid run
//! 2,000 random positions; proof_top and proof_hard the two fixed ones.

#[path = "support/positions.rs"]
mod positions;

use std::hint::black_box;

use battleline_core::{check_claim, formation_strength, BattleLine, FormationOrder, Rules};
use game_traits::{random_playout, Game, GameRng, PlayerId};
use rand::SeedableRng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("games", String::as_str);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let rules = Rules::default();
    let order = FormationOrder::Text;
    let mut count = 0u64;
    match mode {
        "games" => {
            let mut legal = Vec::with_capacity(256);
            for seed in 0..n as u64 {
                let mut rng = GameRng::seed_from_u64(seed);
                let mut s = BattleLine::new(&rules).expect("valid rules");
                count += u64::from(random_playout(&mut s, &mut legal, &mut rng, u32::MAX));
            }
            println!("{n} games, {count} actions");
        }
        "setup" | "proof_mid" => {
            let set = positions::midgame_positions(2000);
            if mode == "proof_mid" {
                for _ in 0..n {
                    for (f, p, a) in &set {
                        count += check_claim(black_box(f), *p, *a, &rules).holds() as u64;
                    }
                }
            }
            println!("{} proofs, {count} hold", n * set.len());
        }
        "proof_top_set" | "proof_hard_set" => {
            let set = if mode == "proof_top_set" {
                positions::random_top_positions(2000, 1)
            } else {
                positions::random_hard_positions(2000, 1)
            };
            for _ in 0..n {
                for (f, p, a) in &set {
                    count += check_claim(black_box(f), *p, *a, &rules).holds() as u64;
                }
            }
            println!("{} proofs, {count} hold", n * set.len());
        }
        "proof_top" | "proof_hard" => {
            let set = if mode == "proof_top" {
                [positions::top_three_missing(), positions::top_mud_wilds()]
            } else {
                [
                    positions::hard_three_missing(),
                    positions::hard_mud_four_missing(),
                ]
            };
            for (f, a) in &set {
                assert!(check_claim(f, PlayerId::P0, *a, &rules).holds());
            }
            for _ in 0..n {
                for (f, a) in &set {
                    count += check_claim(black_box(f), PlayerId::P0, *a, &rules).holds() as u64;
                }
            }
            println!("{} proofs, {count} hold", 2 * n);
        }
        "formation_plain" => {
            let set = positions::random_plain_formations(4096, 1);
            for _ in 0..n {
                for f in &set {
                    count += formation_strength(black_box(f), Default::default(), order).is_some()
                        as u64;
                }
            }
            println!("{} formations, {count} complete", n * set.len());
        }
        "formation_wild" => {
            let set = positions::random_wild_formations(4096, 1);
            for _ in 0..n {
                for (f, env) in &set {
                    count += formation_strength(black_box(f), *env, order).is_some() as u64;
                }
            }
            println!("{} formations, {count} complete", n * set.len());
        }
        other => eprintln!("unknown mode {other}"),
    }
}
