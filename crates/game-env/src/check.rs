//! The conformance check of the batched environment for any game: the same
//! buffers whatever the thread count, and the same trajectories as each game
//! played alone with its own chance stream.

use std::sync::Arc;

use game_traits::Turn;

use crate::batch::{episode_rng, BatchConfig, BatchEnv, StepBuffers};
use crate::dynamic::DynGame;

/// A deterministic choice among the legal ids of `mask`, different between
/// games and steps.
fn pick(mask: &[bool], salt: usize) -> Option<usize> {
    let legal = mask.iter().filter(|&&m| m).count();
    (legal > 0).then(|| {
        let k = salt % legal;
        mask.iter()
            .enumerate()
            .filter(|(_, &m)| m)
            .nth(k)
            .map_or(0, |(i, _)| i)
    })
}

fn run(
    game: &Arc<dyn DynGame>,
    games: usize,
    steps: usize,
    seed: u64,
    threads: usize,
) -> Result<Vec<StepBuffers>, String> {
    let config = BatchConfig {
        games,
        seed,
        threads,
        ..Default::default()
    };
    let mut env = BatchEnv::new(game.clone(), config).map_err(|e| e.to_string())?;
    let mut buffers = StepBuffers::for_env(&env, true, true);
    env.reset(&mut buffers.output())
        .map_err(|e| e.to_string())?;
    let space = env.action_space();
    let mut history = vec![buffers.clone()];
    for step in 0..steps {
        let actions: Vec<usize> = buffers
            .masks
            .chunks(space)
            .enumerate()
            .map(|(g, m)| pick(m, g * 7 + step).unwrap_or(0))
            .collect();
        env.step(&actions, &mut buffers.output())
            .map_err(|e| format!("step {step}: {e}"))?;
        history.push(buffers.clone());
    }
    Ok(history)
}

fn same(a: &StepBuffers, b: &StepBuffers) -> bool {
    a.observations == b.observations
        && a.masks == b.masks
        && a.rewards == b.rewards
        && a.terminated == b.terminated
        && a.truncated == b.truncated
        && a.to_move == b.to_move
}

/// Steps `games` games of `game` for `steps` batched steps (each game's
/// action a fixed function of its mask) on one thread and on two, and
/// checks that both give the same buffers and that every game of the batch
/// follows the trajectory it follows when played alone from
/// [`episode_rng`]. Returns the number of episodes that ended.
pub fn check_batch(
    game: &Arc<dyn DynGame>,
    games: usize,
    steps: usize,
    seed: u64,
) -> Result<u64, String> {
    let history = run(game, games, steps, seed, 1)?;
    let other = run(game, games, steps, seed, 2)?;
    if let Some(step) = (0..history.len()).find(|&s| !same(&history[s], &other[s])) {
        return Err(format!(
            "{}: one thread and two differ at step {step}",
            game.name()
        ));
    }
    let size = game.layout().size();
    let space = game.info().action_space;
    let mut episodes = 0;
    for g in 0..games {
        let fail = |step: usize, what: &str| {
            format!(
                "{} game {g} step {step}: {what} differs from the game played alone",
                game.name()
            )
        };
        let (mut episode, mut state) = (0, game.new_state());
        let mut rng = episode_rng(seed, g, 0);
        state.play_chance(&mut rng);
        let (mut mask, mut tensor) = (vec![false; space], vec![0.0; size]);
        for step in 0..=steps {
            let row = &history[step];
            let Turn::Player(p) = state.turn() else {
                return Err(fail(step, "the turn"));
            };
            if usize::from(row.to_move[g]) != p.index() {
                return Err(fail(step, "the seat to move"));
            }
            state.write_mask(&mut mask).map_err(|e| e.to_string())?;
            if row.masks[g * space..(g + 1) * space] != mask[..] {
                return Err(fail(step, "the mask"));
            }
            state.encode(p, &mut tensor).map_err(|e| e.to_string())?;
            if row.observations[g * size..(g + 1) * size] != tensor[..] {
                return Err(fail(step, "the tensor"));
            }
            if step == steps {
                break;
            }
            let id = pick(&mask, g * 7 + step).ok_or_else(|| fail(step, "an empty mask"))?;
            state.apply_id(id).map_err(|e| e.to_string())?;
            state.play_chance(&mut rng);
            let next = &history[step + 1];
            if next.terminated[g] != state.is_terminal() {
                return Err(fail(step, "the end"));
            }
            let reward = if state.is_terminal() {
                let r = state.returns();
                [r[0] as f32, r[1] as f32]
            } else {
                [0.0, 0.0]
            };
            if next.rewards[2 * g..2 * g + 2] != reward {
                return Err(fail(step, "the reward"));
            }
            if state.is_terminal() {
                episodes += 1;
                episode += 1;
                state = game.new_state();
                rng = episode_rng(seed, g, episode);
                state.play_chance(&mut rng);
            }
        }
    }
    Ok(episodes)
}
