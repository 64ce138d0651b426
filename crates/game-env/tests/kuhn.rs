//! The dynamic API and the batched environment on Kuhn poker.

use std::sync::Arc;

use game_env::{AgentOpponent, BatchConfig, BatchEnv, DynGame, EnvError, StepBuffers, TypedGame};
use game_traits::kuhn::{KuhnPoker, KuhnRules};
use game_traits::{PlayerId, RandomAgent, Turn};

fn kuhn() -> Arc<dyn DynGame> {
    Arc::new(TypedGame::<KuhnPoker>::new(KuhnRules::default()).unwrap())
}

/// A deterministic choice among the legal ids that differs between games
/// and steps.
fn pick(mask: &[bool], salt: usize) -> usize {
    let legal: Vec<usize> = (0..mask.len()).filter(|&i| mask[i]).collect();
    legal[salt % legal.len()]
}

fn run(threads: usize, games: usize, steps: usize) -> Vec<StepBuffers> {
    let config = BatchConfig {
        games,
        seed: 42,
        threads,
        ..Default::default()
    };
    let mut env = BatchEnv::new(kuhn(), config).unwrap();
    let mut buffers = StepBuffers::for_env(&env, true, true);
    env.reset(&mut buffers.output()).unwrap();
    let space = env.action_space();
    let mut history = vec![buffers.clone()];
    for step in 0..steps {
        let actions: Vec<usize> = buffers
            .masks
            .chunks(space)
            .enumerate()
            .map(|(g, m)| pick(m, g * 7 + step))
            .collect();
        env.step(&actions, &mut buffers.output()).unwrap();
        history.push(buffers.clone());
    }
    history
}

fn same(a: &[StepBuffers], b: &[StepBuffers]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.observations == y.observations
                && x.masks == y.masks
                && x.rewards == y.rewards
                && x.terminated == y.terminated
                && x.truncated == y.truncated
                && x.to_move == y.to_move
        })
}

#[test]
fn batch_results_do_not_depend_on_the_thread_count() {
    let one = run(1, 100, 40);
    let two = run(2, 100, 40);
    let four = run(4, 100, 40);
    assert!(same(&one, &two) && same(&one, &four));
    let episodes: usize = one
        .iter()
        .map(|b| b.terminated.iter().filter(|&&t| t).count())
        .sum();
    assert!(episodes > 100, "only {episodes} episodes ended");
}

#[test]
fn batch_games_follow_the_same_trajectories_as_games_played_alone() {
    let episodes = game_env::check_batch(&kuhn(), 20, 30, 42).unwrap();
    assert!(episodes > 50, "{episodes}");
}

#[test]
fn an_illegal_action_is_refused_and_changes_nothing() {
    let config = BatchConfig {
        games: 3,
        ..Default::default()
    };
    let mut env = BatchEnv::new(kuhn(), config).unwrap();
    let mut buffers = StepBuffers::for_env(&env, true, true);
    env.reset(&mut buffers.output()).unwrap();
    let before: Vec<String> = (0..3)
        .map(|i| env.state(i).unwrap().to_json().unwrap())
        .collect();
    let copy = buffers.clone();
    // Id 0 deals a card: never a player's action.
    let err = env.step(&[3, 0, 3], &mut buffers.output()).unwrap_err();
    assert!(
        matches!(&err, EnvError::IllegalAction { id: 0, action, .. } if action == "deal J"),
        "{err}"
    );
    let after: Vec<String> = (0..3)
        .map(|i| env.state(i).unwrap().to_json().unwrap())
        .collect();
    assert_eq!(before, after);
    assert_eq!(copy.to_move, buffers.to_move);
    assert!(matches!(
        env.step(&[3, 99, 3], &mut buffers.output()),
        Err(EnvError::UnknownActionId { id: 99, .. })
    ));
    assert!(matches!(
        env.step(&[3, 3], &mut buffers.output()),
        Err(EnvError::BufferSize { .. })
    ));
    let mut short = StepBuffers::for_env(&env, true, true);
    short.rewards.pop();
    assert!(matches!(
        env.reset(&mut short.output()),
        Err(EnvError::BufferSize {
            name: "rewards",
            ..
        })
    ));
}

#[test]
fn an_opponent_seat_is_played_by_the_built_in_bot() {
    let config = BatchConfig {
        games: 32,
        seed: 3,
        opponent: Some((
            PlayerId::P1,
            Box::new(|| {
                Box::new(AgentOpponent::<KuhnPoker>::new(Box::new(RandomAgent)))
                    as Box<dyn game_env::Opponent>
            }),
        )),
        ..Default::default()
    };
    let mut env = BatchEnv::new(kuhn(), config).unwrap();
    let mut buffers = StepBuffers::for_env(&env, false, true);
    env.reset(&mut buffers.output()).unwrap();
    let space = env.action_space();
    let mut ended = 0;
    for step in 0..50 {
        assert!(buffers.to_move.iter().all(|&p| p == 0), "step {step}");
        let actions: Vec<usize> = buffers.masks.chunks(space).map(|m| pick(m, step)).collect();
        env.step(&actions, &mut buffers.output()).unwrap();
        ended += buffers.terminated.iter().filter(|&&t| t).count();
    }
    assert!(ended > 50);
    assert!(buffers.observations.is_empty());
}

#[test]
fn truncation_cuts_episodes_after_max_steps() {
    let config = BatchConfig {
        games: 4,
        max_steps: Some(1),
        ..Default::default()
    };
    let mut env = BatchEnv::new(kuhn(), config).unwrap();
    let mut buffers = StepBuffers::for_env(&env, false, true);
    env.reset(&mut buffers.output()).unwrap();
    // Pass: never ends Kuhn poker on the first decision.
    env.step(&[3; 4], &mut buffers.output()).unwrap();
    assert!(buffers.truncated.iter().all(|&t| t));
    assert!(buffers.terminated.iter().all(|&t| !t));
}

#[test]
fn the_dynamic_state_speaks_ids_strings_and_json() {
    let game = kuhn();
    let mut state = game.new_state();
    assert_eq!(state.turn(), Turn::Chance);
    let mut outcomes = Vec::new();
    state.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes.len(), 3);
    assert!(matches!(
        state.apply_id(3),
        Err(EnvError::IllegalAction { id: 3, .. })
    ));
    assert_eq!(state.check_id(3), state.apply_id(3));
    // The reason is the engine's, without the action it refuses.
    let Err(EnvError::IllegalAction { action, reason, .. }) = state.check_id(3) else {
        panic!("a pass before the deal is illegal")
    };
    assert_eq!(action, "pass");
    assert!(!reason.contains("illegal action"), "{reason}");
    assert_eq!(state.check_id(0), Ok(()));
    state.apply_id(2).unwrap();
    state.apply_id(0).unwrap();
    assert_eq!(state.action_view(PlayerId::P1, 3).unwrap(), "pass");
    assert_eq!(state.information_state_string(PlayerId::P0), "P0 K d2 ");
    let json = state.to_json().unwrap();
    let back = game.deserialize_state(&json).unwrap();
    assert_eq!(back.to_json().unwrap(), json);
    let other = TypedGame::<KuhnPoker>::new(KuhnRules { ante: 2 }).unwrap();
    assert!(other.deserialize_state(&json).is_err());
    assert!(game.deserialize_state("{not json").is_err());
    let mut rng = game_env::episode_rng(1, 0, 0);
    let det = state.resample(PlayerId::P0, &mut rng).unwrap();
    assert_eq!(
        det.information_state_string(PlayerId::P0),
        state.information_state_string(PlayerId::P0)
    );
    assert!(game.action_text(5).is_err());
    assert_eq!(game.action_text(4).unwrap(), "bet");
}

/// An opponent that always fails to decide, as a crashed bot program does.
struct Broken;

impl game_env::Opponent for Broken {
    fn name(&self) -> String {
        "broken".into()
    }

    fn choose(
        &mut self,
        _state: &dyn game_env::DynState,
        _seat: PlayerId,
        _rng: &mut game_traits::GameRng,
    ) -> Result<usize, EnvError> {
        Err(EnvError::Bot {
            bot: self.name(),
            failure: game_env::BotFailure::Exited,
        })
    }
}

#[test]
fn a_failing_opponent_forfeits_its_game_and_the_step_goes_on() {
    // The learner is seat 0 (it decides first in Kuhn poker); the broken
    // opponent fails on its first turn, so every learner step ends a game.
    let config = BatchConfig {
        games: 4,
        opponent: Some((PlayerId::P1, Box::new(|| Box::new(Broken)))),
        ..Default::default()
    };
    let mut env = BatchEnv::new(kuhn(), config).unwrap();
    let mut buffers = StepBuffers::for_env(&env, false, true);
    env.reset(&mut buffers.output()).unwrap();
    assert!(buffers.to_move.iter().all(|&s| s == 0));
    // Check or bet: the opponent must answer, and cannot.
    env.step(&[3, 4, 3, 4], &mut buffers.output()).unwrap();
    assert!(buffers.terminated.iter().all(|&t| t));
    let info = kuhn().info().clone();
    for row in 0..4 {
        assert_eq!(buffers.rewards[2 * row], info.max_return as f32);
        assert_eq!(buffers.rewards[2 * row + 1], info.min_return as f32);
    }
}
