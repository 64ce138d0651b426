"""The hooks trainers expect of the vectorised environment: reset with a
seed, reset and step of chosen rows, getting and setting a row's state,
built-in bots per game, and the final observations, returns and lengths
of the episodes that end at auto-reset."""

from __future__ import annotations

import numpy as np
import pytest

import tabletop
from conftest import KUHN, SPECS

# One preset of each game: the hooks are the batch's, the same for all.
ONE_PER_GAME = sorted({s.split("(")[0]: s for s in SPECS}.values())


def _copy(arrays) -> list:
    return [None if a is None else np.copy(a) for a in arrays]


def _same(a: list, b: list) -> bool:
    return all(
        (x is None and y is None) or np.array_equal(x, y) for x, y in zip(a, b)
    )


@pytest.mark.parametrize("game", ONE_PER_GAME)
def test_reset_with_a_seed_replays_a_batch_made_with_it(game: str) -> None:
    made = tabletop.VecEnv(game, 8, seed=5, threads=1)
    first = [_copy(made.reset())]
    for _ in range(10):
        first.append(_copy(made.step(made.random_actions())))
    other = tabletop.VecEnv(game, 8, seed=1, threads=2)
    other.reset()
    other.step(other.random_actions())
    again = [_copy(other.reset(seed=5))]
    for _ in range(10):
        again.append(_copy(other.step(other.random_actions())))
    assert all(_same(a, b) for a, b in zip(first, again))


@pytest.mark.parametrize("game", ONE_PER_GAME)
def test_reset_of_chosen_rows_leaves_the_others(game: str) -> None:
    env = tabletop.VecEnv(game, 6, seed=2)
    env.reset()
    env.step(env.random_actions())
    before = [env.state(i).serialize() for i in range(6)]
    env.reset(rows=[1, 4])
    after = [env.state(i).serialize() for i in range(6)]
    assert [i for i in range(6) if before[i] != after[i]] == [1, 4]
    fresh = tabletop.VecEnv(game, 1)
    fresh.reset()
    start = fresh.state(0).move_number()
    assert env.state(1).move_number() == start and env.state(4).move_number() == start
    flags = np.zeros(6, dtype=bool)
    flags[0] = True
    env.reset(rows=flags)
    assert env.state(0).move_number() == start
    with pytest.raises(tabletop.GameError):
        env.reset(rows=[6])


@pytest.mark.parametrize("game", ONE_PER_GAME)
def test_a_step_of_chosen_rows_moves_those_only(game: str) -> None:
    env = tabletop.VecEnv(game, 4, seed=3)
    env.reset()
    before = [env.state(i).serialize() for i in range(4)]
    actions = env.random_actions().copy()
    actions[1] = int(np.flatnonzero(env.masks[1] == 0)[0])  # not read
    env.step(actions, rows=[0, 2])
    after = [env.state(i).serialize() for i in range(4)]
    assert before[0] != after[0] and before[2] != after[2]
    assert before[1] == after[1] and before[3] == after[3]
    assert not env.rewards[[1, 3]].any() and not env.terminated[[1, 3]].any()


@pytest.mark.parametrize("game", ONE_PER_GAME)
def test_a_row_goes_on_from_a_state_that_is_set(game: str) -> None:
    env = tabletop.VecEnv(game, 3, seed=4)
    env.reset()
    for _ in range(3):
        env.step(env.random_actions())
    state = env.state(0)
    env.set_state(2, state)
    assert env.state(2).serialize() == state.serialize()
    assert np.array_equal(env.observations[2], env.observations[0])
    assert np.array_equal(env.masks[2], env.masks[0])
    assert env.to_move[2] == env.to_move[0]
    other = tabletop.load_game(KUHN if not game.startswith("kuhn") else "cardwar")
    with pytest.raises(tabletop.InvalidStateError):
        env.set_state(1, other.new_initial_state())
    with pytest.raises(tabletop.GameError):
        env.set_state(3, state)


@pytest.mark.parametrize("game", ONE_PER_GAME)
def test_ended_episodes_report_final_observations_returns_and_lengths(game: str) -> None:
    env = tabletop.VecEnv(game, 16, seed=5, max_steps=12)
    env.reset()
    shape = tuple(env.observation_shape)
    assert env.final_observations.shape == (16, 2, *shape)
    lengths = np.zeros(16, dtype=np.int64)
    ended = 0
    for _ in range(40):
        states = [env.state(i) for i in range(16)]
        actions = env.random_actions().copy()
        env.step(actions)
        lengths += 1
        done = env.terminated | env.truncated
        for i in np.flatnonzero(done):
            ended += 1
            last = states[i]
            last.apply_action(int(actions[i]))
            # The bot-less game's chance is played by the row's generator:
            # compare from the seat views, which the final tensors are.
            if not env.truncated[i] and last.is_terminal():
                for seat in (0, 1):
                    assert np.array_equal(env.final_observations[i, seat], last.observation_tensor(seat))
            assert np.array_equal(env.episode_returns[i], env.rewards[i])
            assert env.episode_lengths[i] == lengths[i]
            lengths[i] = 0
        assert not env.episode_lengths[~done].any()
        assert not env.episode_returns[~done].any()
    assert ended > 0


def test_built_in_bots_per_game_and_set_opponent() -> None:
    env = tabletop.VecEnv(KUHN, 4, seed=6, opponent=["random", None, "flat:2", "random"], opponent_seat=[1, 0, 0, 0])
    env.reset()
    assert [env.opponent_seat(i) for i in range(4)] == [1, None, 0, 0]
    for _ in range(30):
        assert env.to_move[0] == 0 and env.to_move[2] == 1 and env.to_move[3] == 1
        env.step(env.random_actions())
    env.set_opponent(1, "random", seat=1)
    assert env.opponent_seat(1) is None, "the episode under way keeps its players"
    env.reset(rows=[1])
    assert env.opponent_seat(1) == 1
    with pytest.raises(tabletop.GameSpecError):
        env.set_opponent(0, "no_such_bot")
    with pytest.raises(tabletop.GameError):
        tabletop.VecEnv(KUHN, 4, opponent=["random"])


def test_without_a_bot_both_seats_are_the_callers() -> None:
    env = tabletop.VecEnv(KUHN, 32, seed=7)
    env.reset()
    seen = set()
    for _ in range(20):
        seen.update(int(p) for p in env.to_move)
        env.step(env.random_actions())
    assert seen == {0, 1}
