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


def _first_episodes(sync: bool, n: int, calls: list) -> dict:
    """Each game's first episode (its seat-0 return and length) with a
    deterministic learner and Python opponent, and the opponent's batch
    sizes in ``calls``."""

    def opponent(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        calls.append(len(masks))
        return masks.argmax(axis=1)

    env = MultiAgentVecEnv("cardwar", n, seed=11, opponents={1: opponent}, sync=sync)
    obs, masks, rewards, terminated, truncated, to_move, info = env.reset()
    firsts: dict = {}
    steps = 0
    while len(firsts) < n:
        ready = info["ready"].copy()
        assert (to_move[ready] == 0).all()
        before = len(calls)
        obs, masks, rewards, terminated, truncated, to_move, info = env.step(masks.argmax(axis=1))
        if not sync:
            assert len(calls) - before <= 1, "one call of the opponent per step"
        steps += 1
        for i in np.flatnonzero(info["_final"]):
            firsts.setdefault(int(i), (float(info["episode_return"][i, 0]), int(info["episode_length"][i])))
        assert steps < 10_000
    return firsts


def test_an_unsynchronised_batch_calls_a_python_opponent_once_a_step_and_plays_the_same_games() -> None:
    synced, unsynced = [], []
    assert _first_episodes(False, 48, unsynced) == _first_episodes(True, 48, synced)
    # Card war's seats decide several times in a row: waiting for every
    # game to reach a learner takes several calls a step, of small batches.
    assert len(synced) > len(unsynced) and np.median(unsynced) > np.median(synced)


def test_an_unsynchronised_batch_refuses_to_step_a_game_that_waits_on_its_opponent() -> None:
    env = MultiAgentVecEnv("cardwar", 32, seed=3, opponents={1: lambda o, m: m.argmax(axis=1)}, sync=False)
    obs, masks, *_, info = env.reset()
    for _ in range(200):
        if not info["ready"].all():
            break
        obs, masks, *_, info = env.step(masks.argmax(axis=1))
    waiting = np.flatnonzero(~info["ready"])
    assert waiting.size, "some game waits on its opponent"
    state = env.state(int(waiting[0])).to_json()
    with pytest.raises(tabletop.GameError, match="wait on an opponent"):
        env.step(masks.argmax(axis=1), rows=np.ones(32, bool))
    assert env.state(int(waiting[0])).to_json() == state
