//! The batch's hooks for trainers on Kuhn poker: reseeding, resetting and
//! stepping chosen games, setting a game's state, built-in bots per game,
//! the final observations and episode statistics at auto-reset, and int8
//! masks.

use std::sync::Arc;

use game_env::{
    AgentOpponent, BatchConfig, BatchEnv, DynGame, EnvError, Opponent, SharedOpponentFactory,
    StepBuffers, StepOutput, TypedGame,
};
use game_traits::kuhn::{KuhnPoker, KuhnRules};
use game_traits::{PlayerId, RandomAgent, Turn};

fn kuhn() -> Arc<dyn DynGame> {
    Arc::new(TypedGame::<KuhnPoker>::new(KuhnRules::default()).unwrap())
}

fn env(games: usize, seed: u64, max_steps: Option<u32>) -> (BatchEnv, StepBuffers) {
    let config = BatchConfig {
        games,
        seed,
        max_steps,
        ..Default::default()
    };
    let env = BatchEnv::new(kuhn(), config).unwrap();
    let buffers = StepBuffers::for_env(&env, true, true);
    (env, buffers)
}

/// The first legal id of each game.
fn first_legal(b: &StepBuffers, space: usize) -> Vec<usize> {
    b.masks
        .chunks(space)
        .map(|m| m.iter().position(|&l| l).unwrap())
        .collect()
}

fn random_bot() -> SharedOpponentFactory {
    Arc::new(|| {
        Box::new(AgentOpponent::<KuhnPoker>::new(Box::new(RandomAgent))) as Box<dyn Opponent>
    })
}

#[test]
fn reseeding_replays_the_games_of_that_seed() {
    let (mut a, mut ba) = env(16, 1, None);
    let (mut b, mut bb) = env(16, 2, None);
    a.reset(&mut ba.output()).unwrap();
    b.reset(&mut bb.output()).unwrap();
    assert_ne!(ba.observations, bb.observations);
    a.reseed(2);
    a.reset(&mut ba.output()).unwrap();
    assert_eq!(ba.observations, bb.observations);
    assert_eq!(a.seed(), 2);
}

#[test]
fn resetting_chosen_rows_starts_their_next_episode_only() {
    let (mut e, mut b) = env(4, 3, None);
    e.reset(&mut b.output()).unwrap();
    let space = e.action_space();
    e.step(&first_legal(&b, space), &mut b.output()).unwrap();
    let before: Vec<String> = (0..4)
        .map(|i| e.state(i).unwrap().to_json().unwrap())
        .collect();
    e.reset_rows(&[false, true, false, false], &mut b.output())
        .unwrap();
    let after: Vec<String> = (0..4)
        .map(|i| e.state(i).unwrap().to_json().unwrap())
        .collect();
    assert_eq!(before[0], after[0]);
    assert_eq!(before[2..], after[2..]);
    let fresh = e.state(1).unwrap();
    assert_eq!(fresh.move_count(), 0, "no decision yet");
    assert!(matches!(fresh.turn(), Turn::Player(_)), "dealt");
    assert!(b.rewards.iter().all(|&r| r == 0.0));
    assert!(matches!(
        e.reset_rows(&[true], &mut b.output()),
        Err(EnvError::BufferSize { name: "rows", .. })
    ));
}

#[test]
fn stepping_chosen_rows_leaves_the_others_still() {
    let (mut e, mut b) = env(4, 4, None);
    e.reset(&mut b.output()).unwrap();
    let space = e.action_space();
    let before: Vec<String> = (0..4)
        .map(|i| e.state(i).unwrap().to_json().unwrap())
        .collect();
    // Row 3's action is not read: an illegal id there is no error.
    let mut actions = first_legal(&b, space);
    actions[3] = 0;
    e.step_rows(&actions, &[true, false, true, false], &mut b.output())
        .unwrap();
    let after: Vec<String> = (0..4)
        .map(|i| e.state(i).unwrap().to_json().unwrap())
        .collect();
    assert_ne!(before[0], after[0]);
    assert_eq!(before[1], after[1]);
    assert_eq!(before[3], after[3]);
}

#[test]
fn a_set_state_plays_on_from_that_state() {
    let (mut e, mut b) = env(3, 5, None);
    e.reset(&mut b.output()).unwrap();
    let game = kuhn();
    let source = e.state(0).unwrap().clone_box();
    e.set_state(2, source.clone_box(), &mut b.output()).unwrap();
    assert_eq!(
        e.state(2).unwrap().to_json().unwrap(),
        source.to_json().unwrap()
    );
    let size = e.tensor_size();
    assert_eq!(b.observations[..size], b.observations[2 * size..3 * size]);
    // A state at a chance node is dealt from the row's generator first.
    e.set_state(1, game.new_state(), &mut b.output()).unwrap();
    assert!(matches!(e.state(1).unwrap().turn(), Turn::Player(_)));
    let mut over = source.clone_box();
    over.apply_id(3).unwrap();
    over.apply_id(3).unwrap();
    assert!(over.is_terminal());
    assert!(matches!(
        e.set_state(0, over, &mut b.output()),
        Err(EnvError::InvalidState(_))
    ));
}

#[test]
fn an_ended_episode_reports_its_final_observations_return_and_length() {
    let (mut e, mut b) = env(8, 6, None);
    e.reset(&mut b.output()).unwrap();
    let space = e.action_space();
    let size = e.tensor_size();
    let mut ended = 0;
    for step in 0..6 {
        let states: Vec<_> = (0..8).map(|i| e.state(i).unwrap().clone_box()).collect();
        let actions = first_legal(&b, space);
        e.step(&actions, &mut b.output()).unwrap();
        for g in 0..8 {
            if !b.terminated[g] {
                assert_eq!(b.episode_lengths[g], 0, "step {step}");
                continue;
            }
            ended += 1;
            let mut last = states[g].clone_box();
            last.apply_id(actions[g]).unwrap();
            let mut tensor = vec![0.0; size];
            for seat in [PlayerId::P0, PlayerId::P1] {
                last.encode(seat, &mut tensor).unwrap();
                let at = (2 * g + seat.index()) * size;
                assert_eq!(b.final_observations[at..at + size], tensor[..]);
            }
            assert_eq!(
                b.episode_returns[2 * g..2 * g + 2],
                b.rewards[2 * g..2 * g + 2]
            );
            // Every decision of a game without a bot is a step.
            assert_eq!(b.episode_lengths[g], last.move_count());
        }
    }
    assert!(ended > 0);
}

#[test]
fn truncation_reports_the_final_observations_too() {
    let (mut e, mut b) = env(4, 7, Some(1));
    e.reset(&mut b.output()).unwrap();
    // Pass: never ends Kuhn poker on the first decision.
    e.step(&[3; 4], &mut b.output()).unwrap();
    assert!(b.truncated.iter().all(|&t| t));
    assert!(b.episode_lengths.iter().all(|&l| l == 1));
    assert!(b.final_observations.iter().any(|&v| v != 0.0));
}

#[test]
fn a_built_in_bot_per_game_takes_its_seat_from_the_next_episode() {
    let (mut e, mut b) = env(4, 8, None);
    e.set_opponent(1, Some((PlayerId::P0, random_bot())))
        .unwrap();
    e.set_opponent(2, Some((PlayerId::P1, random_bot())))
        .unwrap();
    assert!(e.set_opponent(9, None).is_err());
    e.reset(&mut b.output()).unwrap();
    assert_eq!(e.opponent_seat(0), None);
    assert_eq!(e.opponent_seat(1), Some(PlayerId::P0));
    let space = e.action_space();
    for _ in 0..30 {
        assert_eq!(b.to_move[1], 1);
        assert_eq!(b.to_move[2], 0);
        e.step(&first_legal(&b, space), &mut b.output()).unwrap();
    }
}

#[test]
fn masks_can_be_int8() {
    let (mut e, mut b) = env(5, 9, None);
    let mut masks = vec![0i8; b.masks.len()];
    let mut out = StepOutput {
        observations: &mut [],
        masks: &mut masks,
        rewards: &mut b.rewards,
        terminated: &mut b.terminated,
        truncated: &mut b.truncated,
        to_move: &mut b.to_move,
        final_observations: &mut [],
        episode_returns: &mut [],
        episode_lengths: &mut [],
    };
    e.reset(&mut out).unwrap();
    let (mut f, mut c) = env(5, 9, None);
    f.reset(&mut c.output()).unwrap();
    let as_bool: Vec<bool> = masks.iter().map(|&m| m == 1).collect();
    assert!(masks.iter().all(|&m| m == 0 || m == 1));
    assert_eq!(as_bool, c.masks);
}
