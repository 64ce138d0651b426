//! Random playouts of the bench's rule sets (by default Classic with the
//! no-attack limit 100 and the more-squares rule), for instruction counts
//! per move under callgrind:
//!
//! `cargo build --release -p stratego-core --example playout &&
//! valgrind --tool=callgrind target/release/examples/playout 20`
//!
//! prints the games, the moves made and the wall-clock rate (moves per
//! second, one thread, setups included). The first argument is the number
//! of games (default 200), the second the rule set of the bench
//! `random_game/NAME`: `classic` (default), `srazhenie`,
//! `srazhenie_runners` or `czech`.

use game_traits::{random_playout, GameRng};
use rand::SeedableRng;
use stratego_core::{Rules, Setup, Stratego};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let rules = match std::env::args().nth(2).as_deref().unwrap_or("classic") {
        "classic" => Rules {
            no_attack_limit: Some(100),
            more_squares_rule: true,
            ..Rules::classic()
        },
        "srazhenie" => Rules::srazhenie(),
        "srazhenie_runners" => Rules {
            runner_soldiers: true,
            ..Rules::srazhenie()
        },
        "czech" => Rules {
            no_attack_limit: Some(100),
            ..Rules::czech()
        },
        other => {
            eprintln!("no rule set {other}: classic, srazhenie, srazhenie_runners or czech");
            return;
        }
    };
    let mut legal = Vec::with_capacity(128);
    let mut moves = 0u64;
    let start = std::time::Instant::now();
    for seed in 0..games {
        let mut rng = GameRng::seed_from_u64(seed);
        let a = Setup::shuffle(rules.variant, &mut rng);
        let b = Setup::shuffle(rules.variant, &mut rng);
        let mut game = match Stratego::new_with_setups(&rules, &a, &b) {
            Ok(game) => game,
            Err(e) => {
                eprintln!("setups refused: {e}");
                return;
            }
        };
        moves += u64::from(random_playout(&mut game, &mut legal, &mut rng, u32::MAX));
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {moves} moves, {:.2} M moves/s",
        moves as f64 / secs / 1e6
    );
}
