"""The vectorised environment updates each row of ``observations`` in place,
writing only what the step changed: after any run of steps, with
auto-resets, either seat to move and built-in opponents, every row equals
the tensor written whole from that game's state."""

from __future__ import annotations

import numpy as np

import tabletop


def _rows_equal_whole_tensors(env: tabletop.VecEnv) -> None:
    for i in range(env.num_envs):
        state = env.state(i)
        whole = state.observation_tensor(int(env.to_move[i]))
        # Bit for bit: the update writes exactly the values of a whole write.
        assert env.observations[i].tobytes() == whole.tobytes(), f"row {i}"


def test_observations_updated_in_place_equal_whole_tensors(spec: str) -> None:
    # Short episodes, so that rows go through auto-resets within the run.
    env = tabletop.VecEnv(spec, 12, seed=5, threads=2, max_steps=30)
    env.reset()
    _rows_equal_whole_tensors(env)
    for _ in range(80):
        env.step(env.random_actions())
        _rows_equal_whole_tensors(env)


def test_observations_updated_in_place_against_a_built_in_opponent(spec: str) -> None:
    env = tabletop.VecEnv(spec, 8, seed=6, opponent="random", opponent_seat=1)
    env.reset()
    for _ in range(60):
        env.step(env.random_actions())
        _rows_equal_whole_tensors(env)


def test_observations_of_chosen_rows_and_set_states_stay_whole(spec: str) -> None:
    env = tabletop.VecEnv(spec, 6, seed=7)
    env.reset()
    other = tabletop.VecEnv(spec, 1, seed=8)
    other.reset()
    rows = np.array([True, False, True, False, True, False])
    for step in range(40):
        env.step(env.random_actions(), rows=rows if step % 2 else None)
        if step % 10 == 5:
            other.step(other.random_actions())
            env.set_state(3, other.state(0))
        _rows_equal_whole_tensors(env)
