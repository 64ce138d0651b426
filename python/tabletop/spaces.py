"""Observation tensors with the shapes their planes have.

Every game's tensor is flat, a run of named planes, and each game
declares which of them are planes of one stack with a real shape
(``Game.observation_tensor_planes()``). Here they are stacked: Stratego's
54 board planes of 100 cells are ``board``, ``(54, 10, 10)``, the rest
(counts, flags) ``features``.

>>> import numpy as np, tabletop
>>> from tabletop.spaces import observation_groups, split
>>> game = tabletop.load_game("stratego")
>>> [(g.name, g.shape) for g in observation_groups(game)]
[('board', (54, 10, 10)), ('features', (54,))]
>>> parts = split(game, np.zeros((4, 5454), np.float32))   # a batch too
>>> parts["board"].shape
(4, 54, 10, 10)

The flat layout stays what the engines write and what ``VecEnv`` holds;
``split`` is one gather per group, ``dict_space`` the matching Gymnasium
space.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Tuple

import numpy as np

import tabletop

__all__ = ["Group", "observation_groups", "split", "dict_space"]


@dataclass(frozen=True)
class Group:
    """Planes stacked under one name: ``planes`` their names in order,
    ``shape`` the stack's shape (planes first), ``indices`` where their
    values are in the flat tensor."""

    name: str
    planes: Tuple[str, ...]
    shape: Tuple[int, ...]
    indices: np.ndarray


def observation_groups(game: tabletop.Game) -> List[Group]:
    """The groups of ``game``'s observation planes (see the module
    docstring), in the order of their first plane; together they cover
    the flat tensor exactly once."""
    found: Dict[str, Tuple[List[str], List[np.ndarray], Tuple[int, ...]]] = {}
    rest: Tuple[List[str], List[np.ndarray]] = ([], [])
    for plane in game.observation_tensor_planes():
        span = np.arange(plane["offset"], plane["offset"] + plane["length"])
        if plane["stack"] is None:
            rest[0].append(plane["name"])
            rest[1].append(span)
            continue
        planes, spans, _ = found.setdefault(plane["stack"], ([], [], tuple(plane["dims"])))
        planes.append(plane["name"])
        spans.append(span)
    groups = [
        Group(key, tuple(planes), (len(planes), *shape), np.concatenate(spans))
        for key, (planes, spans, shape) in found.items()
    ]
    if rest[0]:
        indices = np.concatenate(rest[1])
        groups.append(Group("features", tuple(rest[0]), (len(indices),), indices))
    groups.sort(key=lambda g: int(g.indices[0]))
    return groups


def split(game: tabletop.Game, tensor: np.ndarray) -> Dict[str, np.ndarray]:
    """``tensor`` (one flat tensor, or a batch of them on the first axes)
    as a dict of its groups, each of its group's shape after the batch
    axes."""
    flat = np.asarray(tensor)
    batch = flat.shape[:-1]
    return {
        g.name: np.take(flat, g.indices, axis=-1).reshape(*batch, *g.shape)
        for g in observation_groups(game)
    }


def dict_space(game: tabletop.Game):  # -> gymnasium.spaces.Dict
    """The Gymnasium ``Dict`` space of ``split``'s observations (every
    finite float32, as the flat space)."""
    import gymnasium

    finite = float(np.finfo(np.float32).max)
    return gymnasium.spaces.Dict(
        {
            g.name: gymnasium.spaces.Box(low=-finite, high=finite, shape=g.shape, dtype=np.float32)
            for g in observation_groups(game)
        }
    )
