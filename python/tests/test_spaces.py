"""Observation planes with their real shapes (tabletop.spaces) and the
dict observation of the Gymnasium adapter."""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

import tabletop
from conftest import random_states
from tabletop.gymnasium import TabletopEnv
from tabletop.spaces import dict_space, observation_groups, split


def test_groups_cover_the_flat_tensor_exactly_once(spec: str) -> None:
    game = tabletop.load_game(spec)
    size = int(np.prod(game.observation_tensor_shape()))
    indices = np.concatenate([g.indices for g in observation_groups(game)])
    assert sorted(indices.tolist()) == list(range(size))
    for g in observation_groups(game):
        assert int(np.prod(g.shape)) == len(g.indices)
        assert g.shape[0] == len(g.planes) or g.name == "features"


def test_each_game_declares_its_planes_stacks_with_the_layout(spec: str) -> None:
    game = tabletop.load_game(spec)
    planes = game.observation_tensor_planes()
    assert [(p["name"], p["offset"], p["length"]) for p in planes] == game.observation_tensor_layout()
    for p in planes:
        assert (p["stack"] is None) == (p["dims"] is None)
        if p["dims"] is not None:
            assert isinstance(p["dims"], tuple) and int(np.prod(p["dims"])) == p["length"]
    # One shape a stack: the planes of a stack stack.
    dims = {}
    for p in planes:
        if p["stack"] is not None:
            assert dims.setdefault(p["stack"], p["dims"]) == p["dims"]


def test_stratego_has_its_board_of_planes() -> None:
    game = tabletop.load_game("stratego")
    board = observation_groups(game)[0]
    assert board.name == "board" and board.shape == (54, 10, 10)
    assert board.planes[0] == "own_r0" and "lake" in board.planes


def test_a_plane_of_a_group_holds_the_values_of_that_named_plane(spec: str) -> None:
    game = tabletop.load_game(spec)
    layout = {name: (offset, length) for name, offset, length in game.observation_tensor_layout()}
    for state in list(random_states(spec, seed=3, games=1))[::7]:
        flat = state.observation_tensor(0)
        parts = split(game, flat)
        batch = split(game, np.stack([flat, flat]))
        for g in observation_groups(game):
            assert np.array_equal(batch[g.name][1], parts[g.name])
            if g.name == "features":
                continue
            for k, plane in enumerate(g.planes):
                offset, length = layout[plane]
                assert np.array_equal(parts[g.name][k].reshape(-1), flat[offset : offset + length])
        assert dict_space(game).contains(parts)


def test_the_gymnasium_dict_observation_passes_the_checker() -> None:
    for spec in ("stratego", "battleline", "kuhn_poker"):
        env = TabletopEnv(spec, seat=0, opponent="random", observation="dict")
        check_env(env, skip_render_check=True)
        obs, info = env.reset(seed=1)
        assert isinstance(env.observation_space, gymnasium.spaces.Dict)
        assert env.observation_space.contains(obs)


def test_the_mask_can_ride_in_the_observation() -> None:
    for observation in ("flat", "dict"):
        env = TabletopEnv("cardwar", seat=1, opponent="random", observation=observation, mask_in_observation=True)
        check_env(env, skip_render_check=True)
        obs, info = env.reset(seed=2)
        assert env.observation_space.contains(obs)
        assert np.array_equal(obs["action_mask"], info["action_mask"])
