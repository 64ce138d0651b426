"""RLlib takes the PettingZoo environment through its own wrapper."""

from __future__ import annotations

import numpy as np
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

import tabletop
from tabletop.pettingzoo import env


def test_rllibs_pettingzoo_wrapper_plays_every_game_to_the_end(spec: str) -> None:
    game = tabletop.load_game(spec)
    rllib_env = PettingZooEnv(env(spec))
    rng = np.random.default_rng(0)
    for episode in range(3):
        obs, _ = rllib_env.reset(seed=episode)
        totals = {"player_0": 0.0, "player_1": 0.0}
        for _ in range(100_000):
            actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
            obs, rewards, terminated, truncated, _ = rllib_env.step(actions)
            for agent, r in rewards.items():
                totals[agent] += r
            if terminated["__all__"] or truncated["__all__"]:
                break
        assert terminated["__all__"]
        assert sum(totals.values()) == game.utility_sum()
