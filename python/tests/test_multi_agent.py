"""Self-play and opponents on one batch (tabletop.vector.MultiAgentVecEnv):
learners on every seat, built-in bots and Python callables per game, a
frozen policy, rewards per seat and the episode's info at auto-reset."""

from __future__ import annotations

import numpy as np
import pytest

import tabletop
from conftest import KUHN
from tabletop.vector import MultiAgentVecEnv, frozen

GAMES = [KUHN, "cardwar", "battleline"]


def _random(seed: int):
    rng = np.random.default_rng(seed)

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        assert observations.shape[0] == masks.shape[0] and masks.dtype == np.int8
        return np.array([rng.choice(np.flatnonzero(m)) for m in masks])

    return policy


@pytest.mark.parametrize("game", GAMES)
def test_self_play_gives_both_seats_from_one_object(game: str) -> None:
    env = MultiAgentVecEnv(game, 16, seed=1, max_steps=30)
    obs, masks, rewards, terminated, truncated, to_move, info = env.reset()
    pick = _random(2)
    seats, ended = set(), 0
    for _ in range(60):
        seats.update(int(s) for s in to_move)
        for i in range(16):
            assert np.array_equal(obs[i], env.state(i).observation_tensor(int(to_move[i])))
        obs, masks, rewards, terminated, truncated, to_move, info = env.step(pick(obs, masks))
        done = terminated | truncated
        ended += int(done.sum())
        assert np.array_equal(info["_final"], done)
        assert not rewards[~done].any()
    assert seats == {0, 1} and ended > 0


@pytest.mark.parametrize("game", GAMES)
def test_python_and_built_in_opponents_per_game(game: str) -> None:
    calls = []
    policy = _random(3)

    def counted(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        calls.append(len(masks))
        return policy(observations, masks)

    opponents = [{1: counted}, {0: "random"}, None, {0: counted}] * 4
    env = MultiAgentVecEnv(game, 16, seed=4, opponents=opponents, max_steps=40)
    obs, masks, rewards, terminated, truncated, to_move, info = env.reset()
    learner = _random(5)
    ended = 0
    for _ in range(50):
        assert (to_move[0::4] == 0).all() and (to_move[1::4] == 1).all() and (to_move[3::4] == 1).all()
        obs, masks, rewards, terminated, truncated, to_move, info = env.step(learner(obs, masks))
        ended += int((terminated | truncated).sum())
        for i in np.flatnonzero(terminated):
            assert info["episode_return"][i].sum() == pytest.approx(env.game.utility_sum())
    assert ended > 0
    # One call a round for every game where the callable is to move: a batch.
    assert calls and max(calls) > 1


def test_a_frozen_policy_does_not_follow_the_original() -> None:
    class Table:
        def __init__(self) -> None:
            self.prefer_last = False

        def __call__(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
            legal = [np.flatnonzero(m) for m in masks]
            return np.array([l[-1] if self.prefer_last else l[0] for l in legal])

    live = Table()
    copy = frozen(live)
    live.prefer_last = True
    masks = np.array([[0, 1, 1]], np.int8)
    assert copy(None, masks)[0] == 1 and live(None, masks)[0] == 2


def test_a_game_without_a_learner_or_with_a_bad_seat_is_refused() -> None:
    with pytest.raises(tabletop.GameError):
        MultiAgentVecEnv(KUHN, 2, opponents={0: "random", 1: "random"})
    with pytest.raises(tabletop.GameError):
        MultiAgentVecEnv(KUHN, 2, opponents={2: "random"})
    with pytest.raises(tabletop.GameError):
        MultiAgentVecEnv(KUHN, 2, opponents=[None])
    with pytest.raises(tabletop.GameError):
        MultiAgentVecEnv(KUHN, 2, opponents={1: 42})


def test_seeded_runs_repeat_whatever_the_thread_count() -> None:
    def run(threads: int) -> list:
        env = MultiAgentVecEnv("cardwar", 24, seed=7, threads=threads, opponents={1: _random(8)})
        out = [np.copy(env.reset()[0])]
        pick = _random(9)
        for _ in range(20):
            obs, masks, *_ = env.step(pick(env.env.observations, env.env.masks))
            out.append(np.copy(obs))
        return out

    one, two = run(1), run(2)
    assert all(np.array_equal(a, b) for a, b in zip(one, two))
