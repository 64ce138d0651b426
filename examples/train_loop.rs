//! The loop a trainer writes, training nothing: a batched environment made
//! from a game's name, stepped with random legal actions drawn from its
//! masks, with the speed it reaches.
//!
//! ```text
//! cargo run --release --example train_loop -- stratego --games 1024 --steps 200
//! cargo run --release --example train_loop -- "battleline(order=gmt)" --opponent heuristic
//! ```

use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use tabletop_rules::game_env::{BatchConfig, BatchEnv, StepBuffers};
use tabletop_rules::game_traits::{GameRng, PlayerId};
use tabletop_rules::{registry, BotSpec};

/// Steps a batched environment with random masked actions and prints
/// steps per second.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// The game: a name, a preset (`stratego/czech`) or a specification
    /// with parameters.
    game: String,
    /// Games stepped together.
    #[arg(long, default_value_t = 1024)]
    games: usize,
    /// Batched steps to take.
    #[arg(long, default_value_t = 200)]
    steps: usize,
    /// Worker threads (0: every core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// A built-in bot for seat 1 (expert[:N], the strongest; ismcts:N,
    /// flat:N, heuristic, random), so
    /// that the learner plays seat 0 only.
    #[arg(long)]
    opponent: Option<BotSpec>,
    /// Write observation tensors too (masks are always written).
    #[arg(long)]
    tensors: bool,
    /// Seed of the batch.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let game = match registry().load(&args.game) {
        Ok(game) => game,
        Err(e) => {
            eprintln!("train_loop: {e}");
            return ExitCode::from(2);
        }
    };
    let opponent = match args.opponent {
        Some(spec) => {
            if let Err(e) = game.bot(spec) {
                eprintln!("train_loop: {e}");
                return ExitCode::from(2);
            }
            let maker = game.clone();
            let factory: tabletop_rules::game_env::OpponentFactory = Box::new(move || {
                maker
                    .bot(spec)
                    .unwrap_or_else(|e| unreachable!("checked above: {e}"))
            });
            Some((PlayerId::P1, factory))
        }
        None => None,
    };
    let config = BatchConfig {
        games: args.games,
        seed: args.seed,
        threads: args.threads,
        opponent,
        max_steps: None,
    };
    let mut env = match BatchEnv::new(game.clone(), config) {
        Ok(env) => env,
        Err(e) => {
            eprintln!("train_loop: {e}");
            return ExitCode::from(2);
        }
    };
    let mut buffers = StepBuffers::for_env(&env, args.tensors, true);
    if let Err(e) = env.reset(&mut buffers.output()) {
        eprintln!("train_loop: {e}");
        return ExitCode::FAILURE;
    }
    let space = env.action_space();
    let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(args.seed);
    let mut actions = vec![0usize; env.len()];
    let mut legal = Vec::with_capacity(space);
    let (mut episodes, mut reward) = (0u64, 0.0f64);
    let start = Instant::now();
    for _ in 0..args.steps {
        // The policy: uniform over each game's mask.
        for (action, mask) in actions.iter_mut().zip(buffers.masks.chunks(space)) {
            legal.clear();
            legal.extend((0..space).filter(|&i| mask[i]));
            *action = legal[rand::Rng::random_range(&mut rng, 0..legal.len())];
        }
        if let Err(e) = env.step(&actions, &mut buffers.output()) {
            eprintln!("train_loop: {e}");
            return ExitCode::FAILURE;
        }
        episodes += buffers.terminated.iter().filter(|&&t| t).count() as u64;
        reward += buffers
            .rewards
            .iter()
            .step_by(2)
            .map(|&r| f64::from(r))
            .sum::<f64>();
    }
    let seconds = start.elapsed().as_secs_f64();
    let steps = (args.steps * env.len()) as f64;
    println!(
        "{}: {} games x {} steps = {steps} learner steps in {seconds:.2} s: {:.0} steps/s \
         (masks{}, policy included); {episodes} episodes ended, seat 0 scored {reward:+.0}",
        game.name(),
        env.len(),
        args.steps,
        steps / seconds.max(1e-9),
        if args.tensors { " and tensors" } else { "" },
    );
    ExitCode::SUCCESS
}
