"""The Gymnasium single-seat environment against a built-in bot."""

from __future__ import annotations

import numpy as np
import pytest

import gymnasium

from gymnasium.utils.env_checker import check_env

import tabletop
import tabletop.gymnasium as tg
from conftest import SPECS

IDS = tg.register()


def test_every_game_and_preset_has_a_gymnasium_id() -> None:
    assert len(IDS) == len(SPECS)
    assert tg.register() == IDS


@pytest.mark.parametrize("gid", IDS)
@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("opponent", ["random", "ismcts:16"])
def test_gymnasium_check_env_passes(gid: str, seat: int, opponent: str) -> None:
    env = gymnasium.make(gid, seat=seat, opponent=opponent, disable_env_checker=True)
    check_env(env.unwrapped)


def test_episodes_show_only_the_learners_decisions(spec: str) -> None:
    for seat in (0, 1):
        env = tg.TabletopEnv(spec, seat=seat, opponent="random")
        obs, info = env.reset(seed=5)
        rng = np.random.default_rng(1)
        total, episodes = 0.0, 0
        for _ in range(300):
            assert env.state.current_player() == seat
            assert np.array_equal(obs, env.state.observation_tensor(seat))
            legal = np.flatnonzero(info["action_mask"])
            assert list(legal) == env.state.legal_actions()
            assert np.array_equal(env.action_masks(), info["action_mask"])
            assert info["action_mask"].dtype == np.int8
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            assert env.observation_space.contains(obs)
            if terminated or truncated:
                assert reward == env.state.returns()[seat]
                total += reward
                episodes += 1
                obs, info = env.reset()
            else:
                assert reward == 0.0
        assert episodes > 0


def test_illegal_actions_lose_or_raise(spec: str) -> None:
    env = tg.TabletopEnv(spec)
    obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.state.serialize()
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert terminated and info["illegal_action"] and reward == env.game.min_utility()
    assert env.state.serialize() == before
    strict = tg.TabletopEnv(spec, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(tabletop.IllegalActionError):
        strict.step(illegal)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(tabletop.GameSpecError):
        tg.TabletopEnv(SPECS[0], opponent="no_such_bot")
    with pytest.raises(tabletop.GameError):
        tg.TabletopEnv(SPECS[0], seat=2)


def test_a_seed_replays_the_same_episode(spec: str) -> None:
    def run() -> list:
        env = tg.TabletopEnv(spec, seat=1, opponent="ismcts:16")
        obs, info = env.reset(seed=42)
        seen = [obs.tolist()]
        for _ in range(50):
            action = int(np.flatnonzero(info["action_mask"])[-1])
            obs, reward, terminated, truncated, info = env.step(action)
            seen.append((obs.tolist(), reward, terminated))
            if terminated or truncated:
                obs, info = env.reset()
                seen.append(obs.tolist())
        return seen

    assert run() == run()
