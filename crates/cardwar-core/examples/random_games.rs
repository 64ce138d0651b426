//! Plays seeded random games, as the `cardwar` bench does, for profilers:
//! `cargo build --release -p cardwar-core --example random_games`, then
//! `valgrind --tool=callgrind target/release/examples/random_games 2001`.
//! Instructions per game are the difference between runs of 2001 games and
//! of 1 game, divided by 2000 (which removes the start-up cost). A second
//! argument `wyrand` plays them with the bench's cheaper generator instead
//! of the workspace's ChaCha8 (see `benches/benches/cardwar.rs`).

use cardwar_core::{CardWar, Rules};
use game_traits::{random_playout, Game, GameRng};
use rand::{RngCore, SeedableRng};

#[path = "support/wyrand.rs"]
mod wyrand;

fn play<R: RngCore>(games: u64, seeded: impl Fn(u64) -> R) -> u64 {
    let rules = Rules::default();
    let mut legal = Vec::with_capacity(32);
    let mut actions = 0u64;
    for seed in 0..games {
        let mut rng = seeded(seed);
        let mut game = CardWar::new(&rules).expect("default rules are valid");
        actions += u64::from(random_playout(&mut game, &mut legal, &mut rng, u32::MAX));
    }
    actions
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(2001);
    let actions = match args.next().as_deref() {
        Some("wyrand") => play(games, wyrand::WyRand::new),
        _ => play(games, GameRng::seed_from_u64),
    };
    println!("{games} games, {actions} actions");
}
