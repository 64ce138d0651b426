//! Plays seeded random games, as the `games` bench does, for profilers:
//! `cargo build --release -p cardwar-core --example random_games`, then
//! `valgrind --tool=callgrind target/release/examples/random_games 2001`.
//! Instructions per game are the difference between runs of 2001 games and
//! of 1 game, divided by 2000 (which removes the start-up cost).

use cardwar_core::{CardWar, Rules};
use game_traits::{random_playout, Game, GameRng};
use rand::SeedableRng;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(2001);
    let rules = Rules::default();
    let mut legal = Vec::with_capacity(32);
    let mut actions = 0u64;
    for seed in 0..games {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut game = CardWar::new(&rules).expect("default rules are valid");
        actions += u64::from(random_playout(&mut game, &mut legal, &mut rng, u32::MAX));
    }
    println!("{games} games, {actions} actions");
}
