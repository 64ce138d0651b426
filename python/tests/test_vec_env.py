"""The vectorised environment: in-place numpy buffers, GIL released,
the same trajectories whatever the thread count."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import tabletop
from conftest import SPECS


def _trajectory(spec: str, threads: int, games: int = 64, steps: int = 60, **kw) -> list:
    env = tabletop.VecEnv(spec, games, seed=9, threads=threads, **kw)
    out = [tuple(np.copy(a) for a in env.reset())]
    for _ in range(steps):
        out.append(tuple(np.copy(a) for a in env.step(env.random_actions())))
    return out


def _same(a: list, b: list) -> bool:
    return all(
        all(np.array_equal(x, y) for x, y in zip(ra, rb)) for ra, rb in zip(a, b)
    ) and len(a) == len(b)


def test_trajectories_do_not_depend_on_the_thread_count(spec: str) -> None:
    # Episodes cut after 25 steps, so that every game of every size of
    # game resets within the run (Kuhn poker's also end by the rules).
    one = _trajectory(spec, threads=1, max_steps=25)
    assert _same(one, _trajectory(spec, threads=2, max_steps=25))
    assert _same(one, _trajectory(spec, threads=3, max_steps=25))
    assert _same(one, _trajectory(spec, threads=0, max_steps=25))
    assert sum(int(r[3].sum()) + int(r[4].sum()) for r in one) > 0, "no episode ended"


def test_seeds_change_the_games(spec: str) -> None:
    a = tabletop.VecEnv(spec, 32, seed=1)
    b = tabletop.VecEnv(spec, 32, seed=2)
    ra, rb = a.reset(), b.reset()
    seen_a = [np.copy(ra[0])]
    seen_b = [np.copy(rb[0])]
    for _ in range(5):
        seen_a.append(np.copy(a.step(a.random_actions())[0]))
        seen_b.append(np.copy(b.step(b.random_actions())[0]))
    assert any(not np.array_equal(x, y) for x, y in zip(seen_a, seen_b))


def test_buffers_are_written_in_place(spec: str) -> None:
    env = tabletop.VecEnv(spec, 16, seed=3)
    arrays = env.reset()
    pointers = [a.__array_interface__["data"][0] for a in arrays]
    for _ in range(5):
        again = env.step(env.random_actions())
        assert all(x is y for x, y in zip(again, arrays))
        assert [a.__array_interface__["data"][0] for a in again] == pointers
    assert env.observations is arrays[0] and env.masks is arrays[1]
    game = env.game
    assert env.observations.shape == (16, *game.observation_tensor_shape())
    assert env.masks.shape == (16, game.num_distinct_actions()) and env.masks.dtype == np.int8
    assert env.rewards.shape == (16, 2) and env.to_move.dtype == np.uint8


def test_rows_are_the_states_own_tensors_and_masks(spec: str) -> None:
    env = tabletop.VecEnv(spec, 8, seed=4)
    env.reset()
    for _ in range(20):
        for i in range(8):
            state = env.state(i)
            seat = int(env.to_move[i])
            assert state.current_player() == seat
            assert np.array_equal(env.observations[i], state.observation_tensor(seat))
            assert np.array_equal(env.masks[i], state.legal_actions_mask())
        env.step(env.random_actions())


def test_finished_games_report_their_returns_and_restart(spec: str) -> None:
    game = tabletop.load_game(spec)
    env = tabletop.VecEnv(spec, 32, seed=5)
    env.reset()
    ended = 0
    for _ in range(200):
        _, _, rewards, terminated, truncated, _ = env.step(env.random_actions())
        for i in np.flatnonzero(terminated):
            ended += 1
            assert rewards[i].sum() == pytest.approx(game.utility_sum())
            assert not env.state(i).is_terminal()
        assert not rewards[~terminated & ~truncated].any()
    assert ended > 0


def test_an_opponent_takes_its_seat(spec: str) -> None:
    env = tabletop.VecEnv(spec, 16, seed=6, opponent="random", opponent_seat=1)
    env.reset()
    for _ in range(50):
        assert (env.to_move == 0).all()
        env.step(env.random_actions())
    with pytest.raises(tabletop.GameSpecError):
        tabletop.VecEnv(spec, 4, opponent="no_such_bot")


def test_max_steps_truncates(spec: str) -> None:
    env = tabletop.VecEnv(spec, 8, seed=7, max_steps=1)
    env.reset()
    _, _, _, terminated, truncated, _ = env.step(env.random_actions())
    assert (terminated | truncated).all()


def test_illegal_actions_are_refused_and_change_nothing(spec: str) -> None:
    env = tabletop.VecEnv(spec, 4, seed=8)
    env.reset()
    before = [env.state(i).serialize() for i in range(4)]
    masks = np.copy(env.masks)
    actions = env.random_actions().copy()
    actions[2] = int(np.flatnonzero(masks[2] == 0)[0])
    with pytest.raises(tabletop.IllegalActionError):
        env.step(actions)
    for bad in ([0] * 3, [-1] * 4, "abc"):
        with pytest.raises((tabletop.GameError, tabletop.IllegalActionError)):
            env.step(bad)
    assert [env.state(i).serialize() for i in range(4)] == before
    assert np.array_equal(env.masks, masks)


def test_actions_may_be_lists_or_other_integer_arrays(spec: str) -> None:
    runs = []
    for convert in (lambda a: a, lambda a: a.astype(np.int32), lambda a: [int(x) for x in a]):
        env = tabletop.VecEnv(spec, 8, seed=10)
        env.reset()
        seen = []
        for _ in range(10):
            seen.append(np.copy(env.step(convert(env.random_actions().copy()))[0]))
        runs.append(seen)
    assert all(np.array_equal(x, y) for x, y in zip(runs[0], runs[1]))
    assert all(np.array_equal(x, y) for x, y in zip(runs[0], runs[2]))


def test_buffers_can_be_left_out(spec: str) -> None:
    env = tabletop.VecEnv(spec, 4, observations=False, masks=False)
    obs, masks, rewards, *_ = env.reset()
    assert obs is None and masks is None and env.observations is None
    with pytest.raises(tabletop.GameError):
        env.random_actions()


def test_the_gil_is_released_while_stepping() -> None:
    """A Python thread keeps running while another thread is inside step."""
    env = tabletop.VecEnv(SPECS[0], 200_000, seed=1, threads=1, observations=True, masks=True)
    env.reset()
    actions = env.random_actions().copy()
    start = time.perf_counter()
    env.step(actions)
    step_seconds = time.perf_counter() - start
    STEPS = max(1, int(0.3 / max(step_seconds, 1e-4)))
    env.reset()
    # How fast this thread counts when it runs freely, in the same loop.
    stop = threading.Event()
    timer = threading.Timer(0.05, stop.set)
    count, t0 = 0, time.perf_counter()
    timer.start()
    while not stop.is_set():
        count += 1
    per_second = count / (time.perf_counter() - t0)
    started, done = threading.Event(), threading.Event()

    def work() -> None:
        started.set()
        for _ in range(STEPS):
            env.step(actions)
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    started.wait()
    count, t0 = 0, time.perf_counter()
    while not done.is_set():
        count += 1
    during = time.perf_counter() - t0
    worker.join()
    # Held, the GIL would let this thread run only for a switch interval
    # (5 ms) between two steps of tens of milliseconds (a C call that holds
    # it, sorted() of a long list, gives 0.05 here); released, it runs all
    # along (about 1).
    assert step_seconds > 0.02, f"step too short ({step_seconds:.3f} s) to tell"
    assert count > 0.3 * per_second * during, (count, per_second, during, STEPS)
