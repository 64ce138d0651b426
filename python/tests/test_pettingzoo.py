"""The PettingZoo AEC environment, tested by PettingZoo's own tests."""

from __future__ import annotations

import numpy as np
import pytest



from pettingzoo.test import api_test, seed_test

import tabletop
import tabletop.registration
from tabletop.pettingzoo import env, raw_env

# api_test warns on every dict observation (PettingZoo's own classic games,
# whose observations are the same {"observation", "action_mask"} dicts, are
# on its list of exceptions); the warnings say nothing about this adapter.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]


def test_pettingzoo_api_test_passes(spec: str) -> None:
    api_test(env(spec), num_cycles=500)


def test_pettingzoo_seed_test_passes(spec: str) -> None:
    seed_test(lambda: env(spec), num_cycles=200)


def test_observations_are_each_agents_own_view(spec: str) -> None:
    e = raw_env(spec)
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    episodes = 0
    for agent in e.agent_iter(max_iter=2000):
        obs, reward, terminated, truncated, info = e.last()
        seat = e.possible_agents.index(agent)
        assert np.array_equal(obs["observation"], e.state.observation_tensor(seat))
        if terminated or truncated:
            assert e.state.is_terminal() or truncated
            if terminated:
                assert reward == e.state.returns()[seat]
            e.step(None)
            if not e.agents:
                episodes += 1
                e.reset()
            continue
        assert e.state.current_player() == seat
        mask = obs["action_mask"]
        assert mask.dtype == np.int8
        assert list(np.flatnonzero(mask)) == e.state.legal_actions()
        other = e.observe(e.possible_agents[1 - seat])
        assert not other["action_mask"].any()
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert episodes > 0


def test_an_illegal_action_loses_the_game_by_default(spec: str) -> None:
    e = raw_env(spec)
    e.reset(seed=1)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(e.terminations.values())
    assert e.infos[agent]["illegal_action"] is True
    other = [a for a in e.possible_agents if a != agent][0]
    assert e._cumulative_rewards[agent] == e.game.min_utility()
    assert e._cumulative_rewards[other] == e.game.max_utility()
    for a in e.agent_iter():
        assert e.last()[2]
        e.step(None)


def test_the_observation_key_can_be_renamed_for_rllib() -> None:
    e = raw_env("kuhn_poker", observation_key="observations")
    e.reset(seed=0)
    obs = e.observe(e.agent_selection)
    assert set(obs) == {"observations", "action_mask"}
    assert e.observation_space(e.agent_selection).contains(obs)


def test_an_illegal_action_raises_and_changes_nothing_when_asked(spec: str) -> None:
    e = raw_env(spec, illegal_action="raise")
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = e.state.serialize()
    with pytest.raises(tabletop.IllegalActionError):
        e.step(illegal)
    assert e.state.serialize() == before


def test_max_moves_truncates(spec: str) -> None:
    e = raw_env(spec, max_moves=1)
    e.reset(seed=0)
    agent = e.agent_selection
    e.step(int(np.flatnonzero(e.observe(agent)["action_mask"])[0]))
    assert all(e.truncations.values()) or all(e.terminations.values())


def test_the_gymnasium_ids_name_the_same_games_here() -> None:
    for gid, spec in tabletop.registration.gymnasium_ids():
        e = raw_env(gid)
        assert e.game.name == tabletop.load_game(spec).name
        assert e.game.num_distinct_actions() == tabletop.load_game(spec).num_distinct_actions()
    with pytest.raises(tabletop.GameSpecError):
        raw_env("tabletop/no_such_game-v0")
